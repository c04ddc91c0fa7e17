// Baseline "sleef" on AArch64: SLEEF 3.5, the 1.0-ULP AdvSIMD functions
// (Sleef_erff4_u10advsimd, Sleef_tanhf4_u10advsimd, Sleef_expf4_u10advsimd), 4
// floats at a time: baseline_sleef.cc's AVX2 column, made the same way for NEON
// (the ops SLEEF lacks written from those the way a user would: sigmoid =
// 1 / (1 + exp(-x)), gelu from erf, gelu_tanh from tanh). Tails go through a
// padded 4-float buffer. AdvSIMD is baseline on AArch64: no target flags.
// bench/CMakeLists.txt builds this file instead of baseline_sleef.cc there.
#include "bench_ops.h"

#include <arm_neon.h>
#include <cstring>
#include <sleef.h>

namespace actkb {
namespace {

template <class F>
inline void map4(const float *x, float *y, size_t n, F f) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) vst1q_f32(y + i, f(vld1q_f32(x + i)));
  if (i < n) {
    float t[4] = {0, 0, 0, 0};
    std::memcpy(t, x + i, (n - i) * sizeof(float));
    vst1q_f32(t, f(vld1q_f32(t)));
    std::memcpy(y + i, t, (n - i) * sizeof(float));
  }
}

inline float32x4_t set1(float v) { return vdupq_n_f32(v); }

inline float32x4_t sigmoid4(float32x4_t v) {
  float32x4_t e = Sleef_expf4_u10advsimd(vnegq_f32(v));
  return vdivq_f32(set1(1.0f), vaddq_f32(set1(1.0f), e));
}
inline float32x4_t gelu4(float32x4_t v) {
  float32x4_t e = Sleef_erff4_u10advsimd(vmulq_f32(v, set1(0.70710678118654752440f)));
  return vmulq_f32(vmulq_f32(set1(0.5f), v), vaddq_f32(set1(1.0f), e));
}
inline float32x4_t gelu_tanh4(float32x4_t v) {
  float32x4_t v3 = vmulq_f32(vmulq_f32(v, v), v);
  float32x4_t u =
      vmulq_f32(set1(0.79788456080286535588f), vaddq_f32(v, vmulq_f32(set1(0.044715f), v3)));
  float32x4_t t = Sleef_tanhf4_u10advsimd(u);
  return vmulq_f32(vmulq_f32(set1(0.5f), v), vaddq_f32(set1(1.0f), t));
}

void sleef_erf(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, [](float32x4_t v) { return Sleef_erff4_u10advsimd(v); });
}
void sleef_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, [](float32x4_t v) { return Sleef_tanhf4_u10advsimd(v); });
}
void sleef_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, sigmoid4);
}
void sleef_silu(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, [](float32x4_t v) { return vmulq_f32(v, sigmoid4(v)); });
}
void sleef_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, [](float32x4_t v) { return vmulq_f32(v, sigmoid4(vmulq_f32(set1(1.702f), v))); });
}
void sleef_gelu(const float *x, const float *, size_t, float *y, size_t n) { map4(x, y, n, gelu4); }
void sleef_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map4(x, y, n, gelu_tanh4);
}

// Row by row; the bias add is folded into the loaded vector. Rows of a width
// that is not a multiple of 4 go through the padded tail like any call.
template <class F>
inline void bias_rows(const float *x, const float *b, size_t w, float *y, size_t n, F f) {
  for (size_t r = 0; r < n; r += w) {
    size_t j = 0;
    for (; j + 4 <= w; j += 4)
      vst1q_f32(y + r + j, f(vaddq_f32(vld1q_f32(x + r + j), vld1q_f32(b + j))));
    if (j < w) {
      float t[4] = {0, 0, 0, 0};
      for (size_t k = 0; j + k < w; k++) t[k] = x[r + j + k] + b[j + k];
      vst1q_f32(t, f(vld1q_f32(t)));
      std::memcpy(y + r + j, t, (w - j) * sizeof(float));
    }
  }
}
void sleef_bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows(x, b, w, y, n, gelu4);
}
void sleef_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows(x, b, w, y, n, gelu_tanh4);
}

bool neon_runnable() { return actk_isa_supported(ACTK_ISA_NEON) != 0; }

const named_kernel sleef_table[] = {
    {"erf", sleef_erf},
    {"tanh", sleef_tanh},
    {"sigmoid", sleef_sigmoid},
    {"silu", sleef_silu},
    {"quick_gelu", sleef_quick_gelu},
    {"gelu", sleef_gelu},
    {"gelu_tanh", sleef_gelu_tanh},
    {"bias_gelu", sleef_bias_gelu},
    {"bias_gelu_tanh", sleef_bias_gelu_tanh},
};
} // namespace

const baseline sleef_baseline = {
    "sleef",
    "SLEEF 3.5 u10 AdvSIMD (Sleef_erff4/tanhf4/expf4_u10advsimd); sigmoid = 1/(1 + exp(-x)), "
    "silu/quick_gelu = x sigmoid(ax), gelu = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = 0.5x(1 + tanh(u))",
    neon_runnable,
    sleef_table,
    sizeof sleef_table / sizeof sleef_table[0],
    nullptr,
    nullptr};

} // namespace actkb
