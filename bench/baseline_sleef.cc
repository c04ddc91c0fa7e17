// Baseline "sleef": SLEEF 3.5, 1.0-ULP AVX2 functions (Sleef_erff8_u10avx2,
// Sleef_tanhf8_u10avx2, Sleef_expf8_u10avx2), 8 floats at a time, the ops
// composed by sleef_compose.h. This file alone (with baseline_eigen.cc) is
// compiled with -mavx2 -mfma; call it only when simd_baselines_runnable().
#include <immintrin.h>
#include <sleef.h>

#include "sleef_compose.h"

namespace actkb {
namespace {
struct avx2_u10 {
  using v = __m256;
  static constexpr size_t w = 8;
  static constexpr bool has_erf = true;
  static v load(const float *p) { return _mm256_loadu_ps(p); }
  static void store(float *p, v a) { _mm256_storeu_ps(p, a); }
  static v add(v a, v b) { return _mm256_add_ps(a, b); }
  static v mul(v a, v b) { return _mm256_mul_ps(a, b); }
  static v div(v a, v b) { return _mm256_div_ps(a, b); }
  static v set1(float f) { return _mm256_set1_ps(f); }
  static v exp_neg(v a) { return Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), a)); }
  static v erf(v a) { return Sleef_erff8_u10avx2(a); }
  static v tanh(v a) { return Sleef_tanhf8_u10avx2(a); }
};
using K = sleef_kernels<avx2_u10>;
} // namespace

const baseline sleef_baseline = {
    "sleef",
    "SLEEF 3.5 u10 AVX2 (Sleef_erff8/tanhf8/expf8_u10avx2), -mavx2 -mfma; sigmoid = 1/(1 + "
    "exp(-x)), silu/quick_gelu = x sigmoid(ax), gelu = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = "
    "0.5x(1 + tanh(u))",
    simd_baselines_runnable,
    K::all + K::first,
    K::count,
    nullptr,
    nullptr};

} // namespace actkb
