// Baseline "torch": PyTorch 2's ATen CPU kernels (PyPI's torch wheel, installed
// by bench/setup-peers.sh), called through ATen's C++ API on tensors that wrap
// the caller's x and y (at::from_blob), the *_out form so nothing is allocated:
//
//   erf at::erf_out, tanh at::tanh_out, sigmoid at::sigmoid_out, silu
//   at::silu_out, gelu at::gelu_out (approximate "none"), gelu_tanh
//   at::gelu_out ("tanh"), hardsigmoid, hardswish, mish: at::<op>_out,
//   softplus at::softplus_out (beta 1, threshold 20), elu at::elu_out (alpha 1)
//
// (no quick_gelu or bias ops: torch composes those from several kernels).
// One intra-op thread (at::set_num_threads(1), before the first call), so
// every kernel runs on the calling thread. fixed_cost: ATen's dispatch
// cost per call, the same call on 16 floats (actk_ratio subtracts it). ATen picks
// its vector code by itself (runtime() names its CPU capability).
//
// torch_bf16, torch_f16 (bench_ops.h's baseline16, actk_ratio --types): the
// same ops on kBFloat16 and kHalf tensors (ATen's own 16-bit paths).
//
// torch_2p (bench_ops.h's gated_peer, actk_ratio --gated): the gated ops the
// way an engine on ATen runs them (ATen has no fused GLU of an activation and
// a product on the CPU): silu_out, gelu_out "none" or "tanh" on the gate half
// (a strided view of x) into a scratch tensor, then mul_out by the up half.
//
// Built as a module of its own (libactk_bench_torch.so), which the programs
// load with RTLD_LOCAL | RTLD_DEEPBIND: see bench/CMakeLists.txt.
#include "bench_ops.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>

namespace actkb {
namespace {

using out_fn = void (*)(at::Tensor &y, const at::Tensor &x);
struct op_def {
  const char *name;
  out_fn fn;
};
const op_def kOps[] = {
    {"erf", [](at::Tensor &y, const at::Tensor &x) { at::erf_out(y, x); }},
    {"tanh", [](at::Tensor &y, const at::Tensor &x) { at::tanh_out(y, x); }},
    {"sigmoid", [](at::Tensor &y, const at::Tensor &x) { at::sigmoid_out(y, x); }},
    {"silu", [](at::Tensor &y, const at::Tensor &x) { at::silu_out(y, x); }},
    {"gelu", [](at::Tensor &y, const at::Tensor &x) { at::gelu_out(y, x, "none"); }},
    {"gelu_tanh", [](at::Tensor &y, const at::Tensor &x) { at::gelu_out(y, x, "tanh"); }},
    {"hardsigmoid", [](at::Tensor &y, const at::Tensor &x) { at::hardsigmoid_out(y, x); }},
    {"hardswish", [](at::Tensor &y, const at::Tensor &x) { at::hardswish_out(y, x); }},
    {"softplus", [](at::Tensor &y, const at::Tensor &x) { at::softplus_out(y, x, 1, 20); }},
    {"elu", [](at::Tensor &y, const at::Tensor &x) { at::elu_out(y, x, 1, 1, 1); }},
    {"mish", [](at::Tensor &y, const at::Tensor &x) { at::mish_out(y, x); }},
};

peer_error g_error;

bool init() {
  static const bool ok = [] {
    at::set_num_threads(1);
    return at::get_num_threads() == 1;
  }();
  return ok;
}

template <class T>
void run(int op, at::ScalarType type, const T *x, T *y, size_t n, T nan) {
  try {
    if (!init()) throw std::runtime_error("could not set ATen to one thread");
    auto opts = at::TensorOptions().dtype(type).device(at::kCPU);
    const at::Tensor xt = at::from_blob(const_cast<T *>(x), {(int64_t)n}, opts);
    at::Tensor yt = at::from_blob(y, {(int64_t)n}, opts);
    kOps[op].fn(yt, xt);
    return;
  } catch (const std::exception &e) {
    g_error.set(std::string("torch ") + kOps[op].name + ": " + e.what());
  }
  for (size_t i = 0; i < n; i++) y[i] = nan;
}

template <int Op>
void k(const float *x, const float *, size_t, float *y, size_t n) {
  run<float>(Op, at::kFloat, x, y, n, NAN);
}
template <int Op>
void k_bf16(const uint16_t *x, const uint16_t *, size_t, uint16_t *y, size_t n) {
  run<uint16_t>(Op, at::kBFloat16, x, y, n, 0x7fc0);
}
template <int Op>
void k_f16(const uint16_t *x, const uint16_t *, size_t, uint16_t *y, size_t n) {
  run<uint16_t>(Op, at::kHalf, x, y, n, 0x7e00);
}

const std::vector<named_kernel> f32_table =
    kernel_table<named_kernel>(kOps, [](auto i) -> kernel_fn { return k<decltype(i)::value>; });
const std::vector<named_kernel16> bf16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_bf16<decltype(i)::value>; });
const std::vector<named_kernel16> f16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_f16<decltype(i)::value>; });

// ---- the gated ops' two-pass way (bench_ops.h's gated_peer) ----
// ATen has no gated CPU kernel: an engine on ATen runs the activation on the
// gate half (a strided view of x) into a scratch tensor, then mul_out by the
// up half. [actk's gated op] -> the kOps index of its activation.
struct gated_def {
  const char *name;
  int act;
};
const gated_def kGated[] = {{"swiglu", 3}, {"geglu", 4}, {"geglu_tanh", 5}};

template <int Op, int Type>
void kg(const void *x, void *y, void *scratch, size_t rows, size_t d) {
  static const at::ScalarType kType[3] = {at::kFloat, at::kHalf, at::kBFloat16};
  try {
    if (!init()) throw std::runtime_error("could not set ATen to one thread");
    auto opts = at::TensorOptions().dtype(kType[Type]).device(at::kCPU);
    const int64_t r = (int64_t)rows, dd = (int64_t)d;
    const at::Tensor xt = at::from_blob(const_cast<void *>(x), {r, 2 * dd}, opts);
    at::Tensor at_ = at::from_blob(scratch, {r, dd}, opts), yt = at::from_blob(y, {r, dd}, opts);
    kOps[kGated[Op].act].fn(at_, xt.narrow(1, 0, dd));
    at::mul_out(yt, at_, xt.narrow(1, dd, dd));
    return;
  } catch (const std::exception &e) {
    g_error.set(std::string("torch ") + kGated[Op].name + " two-pass: " + e.what());
  }
  const size_t n = rows * d;
  if (Type == 0)
    std::fill_n(static_cast<float *>(y), n, NAN);
  else
    std::fill_n(static_cast<uint16_t *>(y), n, Type == 1 ? 0x7e00 : 0x7fc0);
}
template <size_t... I>
std::vector<gated_kernel> gated_table(std::index_sequence<I...>) {
  return {gated_kernel{kGated[I / 3].name, (int)(I % 3), kg<(int)(I / 3), (int)(I % 3)>}...};
}

bool runnable() { return init(); }
const char *runtime() {
  static std::string r;
  r = std::string("ATen CPU capability ") + at::get_cpu_capability() + ", intra-op threads " +
      std::to_string(at::get_num_threads()) + ", " + ACTK_TORCH_VERSION;
  return r.c_str();
}
const char *error() { return g_error.take(); }
} // namespace

const baseline torch_baseline = {
    "torch",
    "PyTorch 2 (PyPI torch) ATen *_out kernels on from_blob tensors, 1 intra-op thread; no "
    "quick_gelu or bias ops",
    runnable,
    f32_table.data(),
    f32_table.size(),
    runtime,
    error,
    true};
const baseline16 torch_bf16_baseline = {"torch_bf16",
                                        "torch",
                                        "bf16",
                                        "ATen kernels on kBFloat16 tensors",
                                        runnable,
                                        bf16_table.data(),
                                        bf16_table.size(),
                                        runtime,
                                        error,
                                        true};
const baseline16 torch_f16_baseline = {"torch_f16",
                                       "torch",
                                       "f16",
                                       "ATen kernels on kHalf tensors",
                                       runnable,
                                       f16_table.data(),
                                       f16_table.size(),
                                       runtime,
                                       error,
                                       true};

const gated_peer torch_2p_gated_peer = {
    "torch_2p",
    &torch_baseline,
    true,
    nullptr,
    "ATen two-pass: silu_out / gelu_out on the gate half (a strided view of x) into scratch, "
    "then mul_out by the up half",
    gated_table(std::make_index_sequence<3 * std::size(kGated)>())};

} // namespace actkb

// The module's one entry (bench_common.cc's torch_module() looks it up).
extern "C" __attribute__((visibility("default"))) const actkb::torch_peers *
actk_bench_torch_peers() {
  static const actkb::torch_peers p = {&actkb::torch_baseline, &actkb::torch_bf16_baseline,
                                       &actkb::torch_f16_baseline, &actkb::torch_2p_gated_peer};
  return &p;
}
