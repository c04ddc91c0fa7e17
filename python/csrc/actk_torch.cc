// actk as PyTorch ops: torch.ops.actk.<op>, <op>_ and <op>.out for every
// element-wise op of src/ops.toml (the per-op code is ops.gen.h, written by
// tools/gen_ops.py; this file holds what every op shares).
//
// The work runs on torch's intra-op threads: a large call goes to an actk pool
// made by actk_pool_create_host whose parallel-for is at::parallel_for, so
// torch.set_num_threads governs actk too and no second pool competes for the
// cores. Inference only: a tensor that requires grad (grad mode on) is refused.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/grad_mode.h>
#include <torch/library.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "actk.h"
#include "actk_torch.h"

namespace actk_torch {

// How many times actk handed a call to torch's threads (the tests check that
// a large call with two torch threads really goes there).
std::atomic<int64_t> g_host_calls{0};

// actk_parallel_for_fn over at::parallel_for. at::parallel_for returns when
// every chunk is done, and its OpenMP/native backends join with a barrier, so
// the ordering actk needs holds both ways. From inside a torch parallel
// region at::parallel_for would run serially anyway; say so explicitly: fn
// runs inline there and nothing nests.
void host_parallel_for(void *, void (*fn)(void *, size_t), size_t total, size_t, void *data) {
  g_host_calls.fetch_add(1, std::memory_order_relaxed);
  if (at::in_parallel_region() || total <= 1) {
    for (size_t i = 0; i < total; ++i) fn(data, i);
    return;
  }
  // grain 1: actk's chunks are already sized by work; torch spreads them
  at::parallel_for(0, static_cast<int64_t>(total), 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(data, static_cast<size_t>(i));
  });
}

constexpr int kMaxThreads = 256;

// One host pool per torch thread count (a host pool's width is fixed when it
// is made; torch.set_num_threads may change between calls). Made on first use
// and kept for the process: a pool is a small struct, no threads.
actk_pool *torch_pool() {
  const int n = at::in_parallel_region() ? 1 : at::get_num_threads();
  if (n <= 1) return nullptr; // one thread: actk runs on the caller, no pool at all
  const int i = n < kMaxThreads ? n : kMaxThreads;
  static std::array<std::atomic<actk_pool *>, kMaxThreads + 1> pools{};
  static std::mutex lock;
  actk_pool *p = pools[i].load(std::memory_order_acquire);
  if (p) return p;
  std::lock_guard<std::mutex> guard(lock);
  p = pools[i].load(std::memory_order_relaxed);
  if (!p) {
    const actk_status st =
        actk_pool_create_host(host_parallel_for, nullptr, static_cast<unsigned>(i), &p);
    TORCH_CHECK(st == ACTK_OK, "actk: actk_pool_create_host: ", actk_status_string(st));
    pools[i].store(p, std::memory_order_release);
  }
  return p;
}

Dt dtype_of(const char *op, const at::Tensor &x, const char *name) {
  switch (x.scalar_type()) {
  case at::kFloat:
    return Dt::f32;
  case at::kHalf:
    return Dt::f16;
  case at::kBFloat16:
    return Dt::bf16;
  default:
    TORCH_CHECK_TYPE(false, "actk::", op, ": ", name, " must be float32, float16 or bfloat16, got ",
                     x.scalar_type(), " (actk converts nothing: pass ", name, ".float())");
  }
  return Dt::f32; // not reached
}

void check_grad(const char *op, const at::Tensor &t, const char *name) {
  TORCH_CHECK(!(t.requires_grad() && at::GradMode::is_enabled()), "actk::", op, ": ", name,
              " requires grad, but actk is inference only (no backward): run under "
              "torch.no_grad() or torch.inference_mode(), or pass ",
              name, ".detach()");
}

// An input every element of which actk reads as one flat array: on the CPU,
// and dense (contiguous, or a dense permutation such as channels_last, whose
// elements the output then takes in the same order). Never a hidden copy.
Dt input(const char *op, const at::Tensor &x, const char *name) {
  TORCH_CHECK(x.device().is_cpu(), "actk::", op, ": ", name, " must be on the CPU, got ",
              x.device());
  const Dt t = dtype_of(op, x, name);
  check_grad(op, x, name);
  TORCH_CHECK(x.is_non_overlapping_and_dense(), "actk::", op, ": ", name,
              " must be contiguous (or a dense permutation such as channels_last), got sizes ",
              x.sizes(), " strides ", x.strides(),
              ": actk makes no hidden copies, pass x.contiguous()");
  return t;
}

// out=: the caller's tensor, written as it is (never resized or copied into):
// the same dtype, sizes and strides as x, so element i of one is element i of
// the other.
void check_out(const char *op, const at::Tensor &x, const at::Tensor &out) {
  TORCH_CHECK(out.device().is_cpu(), "actk::", op, ": out must be on the CPU");
  TORCH_CHECK_TYPE(out.scalar_type() == x.scalar_type(), "actk::", op, ": out must be ",
                   x.scalar_type(), " like x, got ", out.scalar_type());
  check_grad(op, out, "out");
  TORCH_CHECK(out.sizes() == x.sizes(), "actk::", op, ": out must have x's sizes ", x.sizes(),
              ", got ", out.sizes(), " (out is never resized)");
  TORCH_CHECK(out.strides() == x.strides(), "actk::", op, ": out must have x's strides ",
              x.strides(), ", got ", out.strides(), " (make it with torch.empty_like(x))");
}

void check_status(const char *op, actk_status st) {
  TORCH_CHECK(st == ACTK_OK, "actk::", op, ": ", actk_status_string(st));
}

size_t count(const at::Tensor &x) { return static_cast<size_t>(x.numel()); }

// ---- the shapes (the op signatures of src/ops.toml) ------------------------
// Each kernel k(pool, type, fast, ...) is an op's C entry points by type and
// tier (ops.gen.h); each runner checks the tensors, makes or takes y and calls k.

using UnaryK = actk_status (*)(actk_pool *, Dt, bool, const void *, void *, size_t);
using ParamK = actk_status (*)(actk_pool *, Dt, bool, const void *, void *, size_t, float);
using BiasK = actk_status (*)(actk_pool *, Dt, bool, const void *, const void *, size_t, void *,
                              size_t);

at::Tensor unary(const char *op, UnaryK k, const at::Tensor &x, bool fast) {
  const Dt t = input(op, x);
  at::Tensor y = at::empty_like(x); // dense x: the same strides
  check_status(op, k(torch_pool(), t, fast, x.data_ptr(), y.data_ptr(), count(x)));
  return y;
}

at::Tensor &unary_(const char *op, UnaryK k, at::Tensor &x, bool fast) {
  const Dt t = input(op, x);
  check_status(op, k(torch_pool(), t, fast, x.data_ptr(), x.data_ptr(), count(x)));
  return x;
}

at::Tensor &unary_out(const char *op, UnaryK k, const at::Tensor &x, bool fast, at::Tensor &out) {
  const Dt t = input(op, x);
  check_out(op, x, out);
  check_status(op, k(torch_pool(), t, fast, x.data_ptr(), out.data_ptr(), count(x)));
  return out;
}

at::Tensor param(const char *op, ParamK k, const at::Tensor &x, double a, bool fast) {
  const Dt t = input(op, x);
  at::Tensor y = at::empty_like(x);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), y.data_ptr(), count(x), static_cast<float>(a)));
  return y;
}

at::Tensor &param_(const char *op, ParamK k, at::Tensor &x, double a, bool fast) {
  const Dt t = input(op, x);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), x.data_ptr(), count(x), static_cast<float>(a)));
  return x;
}

at::Tensor &param_out(const char *op, ParamK k, const at::Tensor &x, double a, bool fast,
                      at::Tensor &out) {
  const Dt t = input(op, x);
  check_out(op, x, out);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), out.data_ptr(), count(x), static_cast<float>(a)));
  return out;
}

// Bias ops add bias[i % width] along the last dimension: x must be truly
// contiguous (a permuted layout would pair elements with the wrong bias) and
// bias one row of x's last dimension.
Dt bias_inputs(const char *op, const at::Tensor &x, const at::Tensor &bias) {
  const Dt t = input(op, x);
  TORCH_CHECK(x.is_contiguous(), "actk::", op, ": x must be contiguous, got strides ", x.strides(),
              ": actk makes no hidden copies, pass x.contiguous()");
  TORCH_CHECK(bias.device().is_cpu(), "actk::", op, ": bias must be on the CPU");
  TORCH_CHECK_TYPE(bias.scalar_type() == x.scalar_type(), "actk::", op, ": bias must be ",
                   x.scalar_type(), " like x, got ", bias.scalar_type());
  check_grad(op, bias, "bias");
  TORCH_CHECK(bias.dim() == 1 && bias.is_contiguous(), "actk::", op,
              ": bias must be a contiguous 1-d tensor, got sizes ", bias.sizes());
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) == bias.size(0), "actk::", op,
              ": bias must have x's last dimension (", x.dim() ? x.size(-1) : 0, "), got ",
              bias.size(0));
  return t;
}

at::Tensor bias(const char *op, BiasK k, const at::Tensor &x, const at::Tensor &b, bool fast) {
  const Dt t = bias_inputs(op, x, b);
  at::Tensor y = at::empty_like(x);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), b.data_ptr(), count(b), y.data_ptr(), count(x)));
  return y;
}

at::Tensor &bias_(const char *op, BiasK k, at::Tensor &x, const at::Tensor &b, bool fast) {
  const Dt t = bias_inputs(op, x, b);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), b.data_ptr(), count(b), x.data_ptr(), count(x)));
  return x;
}

at::Tensor &bias_out(const char *op, BiasK k, const at::Tensor &x, const at::Tensor &b, bool fast,
                     at::Tensor &out) {
  const Dt t = bias_inputs(op, x, b);
  check_out(op, x, out);
  check_status(
      op, k(torch_pool(), t, fast, x.data_ptr(), b.data_ptr(), count(b), out.data_ptr(), count(x)));
  return out;
}

// Gated ops, y = act(gate) * up: gate and up alike (dtype, sizes, strides),
// y laid out as gate. In place writes gate.
using GatedK = actk_status (*)(actk_pool *, Dt, bool, const void *, const void *, void *, size_t);

Dt gated_inputs(const char *op, const at::Tensor &g, const at::Tensor &u) {
  const Dt t = input(op, g, "gate");
  input(op, u, "up");
  TORCH_CHECK_TYPE(u.scalar_type() == g.scalar_type(), "actk::", op, ": up must be ",
                   g.scalar_type(), " like gate, got ", u.scalar_type());
  TORCH_CHECK(u.sizes() == g.sizes() && u.strides() == g.strides(), "actk::", op,
              ": up must have gate's sizes ", g.sizes(), " and strides ", g.strides(), ", got ",
              u.sizes(), " and ", u.strides());
  return t;
}

at::Tensor gated(const char *op, GatedK k, const at::Tensor &g, const at::Tensor &u, bool fast) {
  const Dt t = gated_inputs(op, g, u);
  at::Tensor y = at::empty_like(g);
  check_status(op, k(torch_pool(), t, fast, g.data_ptr(), u.data_ptr(), y.data_ptr(), count(g)));
  return y;
}

at::Tensor &gated_(const char *op, GatedK k, at::Tensor &g, const at::Tensor &u, bool fast) {
  const Dt t = gated_inputs(op, g, u);
  check_status(op, k(torch_pool(), t, fast, g.data_ptr(), u.data_ptr(), g.data_ptr(), count(g)));
  return g;
}

at::Tensor &gated_out(const char *op, GatedK k, const at::Tensor &g, const at::Tensor &u, bool fast,
                      at::Tensor &out) {
  const Dt t = gated_inputs(op, g, u);
  check_out(op, g, out);
  check_status(op, k(torch_pool(), t, fast, g.data_ptr(), u.data_ptr(), out.data_ptr(), count(g)));
  return out;
}

// Packed gated ops (vLLM's layout): x [..., 2d], the gate first in each row;
// y [..., d]. Both contiguous; no in-place form (y is half x's size).
using PackedK = actk_status (*)(actk_pool *, Dt, bool, const void *, void *, size_t, size_t);

std::vector<int64_t> packed_sizes(const char *op, const at::Tensor &x) {
  TORCH_CHECK(x.is_contiguous(), "actk::", op, ": x must be contiguous, got strides ", x.strides(),
              ": actk makes no hidden copies, pass x.contiguous()");
  TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "actk::", op,
              ": x's last dimension must be even (gate and up, d each), got sizes ", x.sizes());
  std::vector<int64_t> sizes(x.sizes().begin(), x.sizes().end());
  sizes.back() /= 2;
  return sizes;
}

at::Tensor packed(const char *op, PackedK k, const at::Tensor &x, bool fast) {
  const Dt t = input(op, x);
  const std::vector<int64_t> sizes = packed_sizes(op, x);
  at::Tensor y = at::empty(sizes, x.options());
  const size_t d = static_cast<size_t>(sizes.back());
  check_status(op, k(torch_pool(), t, fast, x.data_ptr(), y.data_ptr(), d ? count(y) / d : 0, d));
  return y;
}

at::Tensor &packed_out(const char *op, PackedK k, const at::Tensor &x, bool fast, at::Tensor &out) {
  const Dt t = input(op, x);
  const std::vector<int64_t> sizes = packed_sizes(op, x);
  TORCH_CHECK(out.device().is_cpu(), "actk::", op, ": out must be on the CPU");
  TORCH_CHECK_TYPE(out.scalar_type() == x.scalar_type(), "actk::", op, ": out must be ",
                   x.scalar_type(), " like x, got ", out.scalar_type());
  check_grad(op, out, "out");
  TORCH_CHECK(out.sizes() == at::IntArrayRef(sizes) && out.is_contiguous(), "actk::", op,
              ": out must be contiguous with sizes ", at::IntArrayRef(sizes), ", got sizes ",
              out.sizes(), " strides ", out.strides());
  const size_t d = static_cast<size_t>(sizes.back());
  check_status(op,
               k(torch_pool(), t, fast, x.data_ptr(), out.data_ptr(), d ? count(out) / d : 0, d));
  return out;
}

int64_t host_calls() { return g_host_calls.load(std::memory_order_relaxed); }

} // namespace actk_torch

// The ops' kernels, schemas and registrations (TORCH_LIBRARY(actk, m) and
// TORCH_LIBRARY_IMPL(actk, CPU, m)), generated from src/ops.toml.
#include "ops.gen.h"
