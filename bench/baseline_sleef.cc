// Baseline "sleef": SLEEF 3.5, 1.0-ULP AVX2 functions (Sleef_erff8_u10avx2,
// Sleef_tanhf8_u10avx2, Sleef_expf8_u10avx2), 8 floats at a time; the ops
// SLEEF lacks are written from those the way a user would (sigmoid =
// 1 / (1 + exp(-x)), gelu from erf, gelu_tanh from tanh). Tails go through a
// padded 8-float buffer. This file alone (with baseline_eigen.cc) is compiled
// with -mavx2 -mfma; call it only when simd_baselines_runnable().
#include "bench_ops.h"

#include <cstring>
#include <immintrin.h>
#include <sleef.h>

namespace actkb {
namespace {

template <class F>
inline void map8(const float *x, float *y, size_t n, F f) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i)));
  if (i < n) {
    alignas(32) float t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(t, x + i, (n - i) * sizeof(float));
    _mm256_store_ps(t, f(_mm256_load_ps(t)));
    std::memcpy(y + i, t, (n - i) * sizeof(float));
  }
}

inline __m256 set1(float v) { return _mm256_set1_ps(v); }

inline __m256 sigmoid8(__m256 v) {
  __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), v));
  return _mm256_div_ps(set1(1.0f), _mm256_add_ps(set1(1.0f), e));
}
inline __m256 gelu8(__m256 v) {
  __m256 e = Sleef_erff8_u10avx2(_mm256_mul_ps(v, set1(0.70710678118654752440f)));
  return _mm256_mul_ps(_mm256_mul_ps(set1(0.5f), v), _mm256_add_ps(set1(1.0f), e));
}
inline __m256 gelu_tanh8(__m256 v) {
  __m256 v3 = _mm256_mul_ps(_mm256_mul_ps(v, v), v);
  __m256 u = _mm256_mul_ps(set1(0.79788456080286535588f),
                           _mm256_add_ps(v, _mm256_mul_ps(set1(0.044715f), v3)));
  __m256 t = Sleef_tanhf8_u10avx2(u);
  return _mm256_mul_ps(_mm256_mul_ps(set1(0.5f), v), _mm256_add_ps(set1(1.0f), t));
}

void sleef_erf(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n, [](__m256 v) { return Sleef_erff8_u10avx2(v); });
}
void sleef_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n, [](__m256 v) { return Sleef_tanhf8_u10avx2(v); });
}
void sleef_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n, sigmoid8);
}
void sleef_silu(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n, [](__m256 v) { return _mm256_mul_ps(v, sigmoid8(v)); });
}
void sleef_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n,
       [](__m256 v) { return _mm256_mul_ps(v, sigmoid8(_mm256_mul_ps(set1(1.702f), v))); });
}
void sleef_gelu(const float *x, const float *, size_t, float *y, size_t n) { map8(x, y, n, gelu8); }
void sleef_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map8(x, y, n, gelu_tanh8);
}

// Row by row; the bias add is folded into the loaded vector. Rows of a width
// that is not a multiple of 8 go through the padded tail like any call.
template <class F>
inline void bias_rows(const float *x, const float *b, size_t w, float *y, size_t n, F f) {
  for (size_t r = 0; r < n; r += w) {
    size_t j = 0;
    for (; j + 8 <= w; j += 8)
      _mm256_storeu_ps(y + r + j,
                       f(_mm256_add_ps(_mm256_loadu_ps(x + r + j), _mm256_loadu_ps(b + j))));
    if (j < w) {
      alignas(32) float t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (size_t k = 0; j + k < w; k++) t[k] = x[r + j + k] + b[j + k];
      _mm256_store_ps(t, f(_mm256_load_ps(t)));
      std::memcpy(y + r + j, t, (w - j) * sizeof(float));
    }
  }
}
void sleef_bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows(x, b, w, y, n, gelu8);
}
void sleef_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows(x, b, w, y, n, gelu_tanh8);
}

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
    "SLEEF 3.5 u10 AVX2 (Sleef_erff8/tanhf8/expf8_u10avx2), -mavx2 -mfma; sigmoid = 1/(1 + "
    "exp(-x)), silu/quick_gelu = x sigmoid(ax), gelu = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = "
    "0.5x(1 + tanh(u))",
    simd_baselines_runnable,
    sleef_table,
    sizeof sleef_table / sizeof sleef_table[0],
    nullptr,
    nullptr};

} // namespace actkb
