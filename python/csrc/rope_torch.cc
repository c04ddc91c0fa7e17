// RoPE as PyTorch ops: torch.ops.actk.rope, rope_ (in place), rope.out and
// rope_cache, over actk_rope_<type> and actk_rope_cache_f32 (the numpy
// binding's actk.rope and actk.rope_cache, on tensors). The shapes are
// actk.rope's: x [batch, seq, heads, head_size] ("bshd"), [batch, heads, seq,
// head_size] ("bhsd") or [batch, seq, heads * head_size] with heads= ("bshd");
// cos and sin float32 [max_position, rotary_dim / 2]; positions None or int64
// [batch, seq]. Every tensor is used where it is: no hidden copies.
#include <ATen/ATen.h>
#include <torch/library.h>

#include <cstdint>
#include <tuple>

#include "actk.h"
#include "actk_torch.h"

namespace actk_torch {
namespace {

struct RopeCall {
  actk_rope_desc desc;
  Dt t;
  const int64_t *positions;
};

void check_cache(const at::Tensor &c, const char *name) {
  TORCH_CHECK(c.device().is_cpu(), "actk::rope: ", name, " must be on the CPU");
  TORCH_CHECK_TYPE(c.scalar_type() == at::kFloat, "actk::rope: ", name,
                   " must be float32 in every type of x (actk.torch.rope_cache makes it), got ",
                   c.scalar_type());
  check_grad("rope", c, name);
  TORCH_CHECK(c.dim() == 2 && c.is_contiguous(), "actk::rope: ", name,
              " must be a contiguous [max_position, rotary_dim / 2] tensor, got sizes ", c.sizes(),
              " strides ", c.strides());
}

// The checks actk.rope (numpy) makes, on tensors; the C call checks the rest
// (rotary_dim even and <= head_size, the positions' range) and writes
// nothing when it refuses.
RopeCall rope_check(const at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin,
                    const c10::optional<at::Tensor> &positions, int64_t start,
                    c10::string_view layout, c10::string_view style, int64_t rotary_dim,
                    c10::optional<int64_t> heads) {
  RopeCall c;
  actk_rope_desc_init(&c.desc);
  c.t = input("rope", x);
  TORCH_CHECK(x.is_contiguous(), "actk::rope: x must be contiguous, got strides ", x.strides(),
              ": actk makes no hidden copies, pass x.contiguous()");
  if (layout == "bshd")
    c.desc.layout = ACTK_ROPE_BSHD;
  else if (layout == "bhsd")
    c.desc.layout = ACTK_ROPE_BHSD;
  else
    TORCH_CHECK_VALUE(false, "actk::rope: layout must be \"bshd\" or \"bhsd\", got \"",
                      std::string(layout), "\"");
  if (style == "split_half")
    c.desc.style = ACTK_ROPE_SPLIT_HALF;
  else if (style == "interleaved")
    c.desc.style = ACTK_ROPE_INTERLEAVED;
  else
    TORCH_CHECK_VALUE(false, "actk::rope: style must be \"split_half\" or \"interleaved\", got \"",
                      std::string(style), "\"");
  TORCH_CHECK_VALUE(rotary_dim >= 0, "actk::rope: rotary_dim must be >= 0, got ", rotary_dim);
  TORCH_CHECK_VALUE(!heads || *heads >= 1, "actk::rope: heads must be >= 1, got ", *heads);
  int64_t b, s, h, d;
  const bool bhsd = c.desc.layout == ACTK_ROPE_BHSD;
  if (x.dim() == 4) {
    b = x.size(0);
    s = x.size(bhsd ? 2 : 1);
    h = x.size(bhsd ? 1 : 2);
    d = x.size(3);
    TORCH_CHECK_VALUE(!heads || *heads == h, "actk::rope: heads=", *heads,
                      " does not match x's sizes ", x.sizes());
  } else if (x.dim() == 3 && !bhsd && heads) {
    b = x.size(0);
    s = x.size(1);
    h = *heads;
    TORCH_CHECK_VALUE(x.size(2) % h == 0, "actk::rope: x's last dimension ", x.size(2),
                      " is not a multiple of heads=", h);
    d = x.size(2) / h;
  } else {
    TORCH_CHECK_VALUE(false,
                      "actk::rope: x must be [batch, seq, heads, head_size] (bshd), [batch, "
                      "heads, seq, head_size] (bhsd), or [batch, seq, heads*head_size] with "
                      "heads= (bshd); got sizes ",
                      x.sizes());
  }
  check_cache(cos, "cos");
  check_cache(sin, "sin");
  TORCH_CHECK_VALUE(cos.sizes() == sin.sizes(),
                    "actk::rope: cos and sin must have the same sizes, got ", cos.sizes(), " and ",
                    sin.sizes());
  const int64_t rd = rotary_dim ? rotary_dim : d;
  TORCH_CHECK_VALUE(rd % 2 || rd > d || cos.size(1) == rd / 2, "actk::rope: cos/sin have ",
                    cos.size(1), " columns, rotary_dim ", rd, " needs ", rd / 2);
  c.positions = nullptr;
  if (positions) {
    const at::Tensor &p = *positions;
    TORCH_CHECK(p.device().is_cpu(), "actk::rope: positions must be on the CPU");
    TORCH_CHECK_TYPE(p.scalar_type() == at::kLong, "actk::rope: positions must be int64, got ",
                     p.scalar_type());
    TORCH_CHECK(p.is_contiguous(), "actk::rope: positions must be contiguous");
    TORCH_CHECK_VALUE(
        (p.dim() == 2 && p.size(0) == b && p.size(1) == s) || (p.dim() == 1 && p.numel() == b * s),
        "actk::rope: positions must be [batch, seq] = [", b, ", ", s, "], got ", p.sizes());
    c.positions = p.data_ptr<int64_t>();
  }
  c.desc.batch = static_cast<size_t>(b);
  c.desc.seq_len = static_cast<size_t>(s);
  c.desc.heads = static_cast<size_t>(h);
  c.desc.head_size = static_cast<size_t>(d);
  c.desc.rotary_dim = static_cast<size_t>(rotary_dim);
  c.desc.max_position = static_cast<size_t>(cos.size(0));
  c.desc.position_start = start;
  return c;
}

void rope_run(const RopeCall &c, const at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin,
              void *y) {
  actk_pool *p = torch_pool();
  const float *cs = cos.data_ptr<float>(), *sn = sin.data_ptr<float>();
  actk_status st = ACTK_ERR_INVALID_ARGUMENT;
  switch (c.t) {
  case Dt::f32:
    st = actk_rope_f32(p, &c.desc, static_cast<const float *>(x.data_ptr()), c.positions, cs, sn,
                       static_cast<float *>(y));
    break;
  case Dt::f16:
    st = actk_rope_f16(p, &c.desc, static_cast<const actk_f16 *>(x.data_ptr()), c.positions, cs, sn,
                       static_cast<actk_f16 *>(y));
    break;
  case Dt::bf16:
    st = actk_rope_bf16(p, &c.desc, static_cast<const actk_bf16 *>(x.data_ptr()), c.positions, cs,
                        sn, static_cast<actk_bf16 *>(y));
    break;
  }
  check_status("rope", st);
}

at::Tensor rope(const at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin,
                const c10::optional<at::Tensor> &positions, int64_t start, c10::string_view layout,
                c10::string_view style, int64_t rotary_dim, c10::optional<int64_t> heads) {
  const RopeCall c = rope_check(x, cos, sin, positions, start, layout, style, rotary_dim, heads);
  at::Tensor y = at::empty_like(x);
  rope_run(c, x, cos, sin, y.data_ptr());
  return y;
}

at::Tensor &rope_(at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin,
                  const c10::optional<at::Tensor> &positions, int64_t start,
                  c10::string_view layout, c10::string_view style, int64_t rotary_dim,
                  c10::optional<int64_t> heads) {
  const RopeCall c = rope_check(x, cos, sin, positions, start, layout, style, rotary_dim, heads);
  rope_run(c, x, cos, sin, x.data_ptr());
  return x;
}

at::Tensor &rope_out(const at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin,
                     const c10::optional<at::Tensor> &positions, int64_t start,
                     c10::string_view layout, c10::string_view style, int64_t rotary_dim,
                     c10::optional<int64_t> heads, at::Tensor &out) {
  const RopeCall c = rope_check(x, cos, sin, positions, start, layout, style, rotary_dim, heads);
  check_out("rope", x, out);
  rope_run(c, x, cos, sin, out.data_ptr());
  return out;
}

std::tuple<at::Tensor, at::Tensor> rope_cache(int64_t max_position, int64_t rotary_dim,
                                              double theta) {
  TORCH_CHECK_VALUE(max_position >= 0 && rotary_dim >= 0,
                    "actk::rope_cache: max_position and rotary_dim must be >= 0, got ",
                    max_position, " and ", rotary_dim);
  at::Tensor cos = at::empty({max_position, rotary_dim / 2}, at::kFloat);
  at::Tensor sin = at::empty({max_position, rotary_dim / 2}, at::kFloat);
  const actk_status st = actk_rope_cache_f32(cos.data_ptr<float>(), sin.data_ptr<float>(),
                                             static_cast<size_t>(max_position),
                                             static_cast<size_t>(rotary_dim), theta);
  TORCH_CHECK(st == ACTK_OK, "actk::rope_cache: rotary_dim ", rotary_dim, ", theta ", theta, ": ",
              actk_status_string(st));
  return {cos, sin};
}

} // namespace
} // namespace actk_torch

#define ACTK_ROPE_ARGS                                                                             \
  "Tensor cos, Tensor sin, Tensor? positions=None, int start=0, str layout=\"bshd\", "             \
  "str style=\"split_half\", int rotary_dim=0, int? heads=None"

TORCH_LIBRARY_FRAGMENT(actk, m) {
  m.def("rope(Tensor x, " ACTK_ROPE_ARGS ") -> Tensor");
  m.def("rope_(Tensor(a!) x, " ACTK_ROPE_ARGS ") -> Tensor(a!)");
  m.def("rope.out(Tensor x, " ACTK_ROPE_ARGS ", *, Tensor(a!) out) -> Tensor(a!)");
  m.def("rope_cache(int max_position, int rotary_dim, float theta=10000.0) -> (Tensor, Tensor)",
        &actk_torch::rope_cache);
}

TORCH_LIBRARY_IMPL(actk, CPU, m) {
  m.impl("rope", actk_torch::rope);
  m.impl("rope_", actk_torch::rope_);
  m.impl("rope.out", actk_torch::rope_out);
}
