// Baselines "sleef512" and "sleef512u35": SLEEF 3.5's AVX-512F functions, 16
// floats at a time, the ops composed by sleef_compose.h. This file is
// compiled with -mavx512f -mavx512dq -mavx512vl -mfma; call it only when
// avx512_baselines_runnable().
//
//   sleef512     the 1.0-ULP functions: Sleef_erff16_u10avx512f,
//                Sleef_tanhf16_u10avx512f, Sleef_expf16_u10avx512f; every op
//   sleef512u35  the 3.5-ULP functions where SLEEF has one: tanh
//                (Sleef_tanhf16_u35avx512f) and exp2 (Sleef_exp2f16_u35avx512f,
//                used as e^-x = 2^(-x log2 e), the way a user after speed
//                writes it); so tanh, sigmoid, silu, quick_gelu, gelu_tanh and
//                bias_gelu_tanh. SLEEF's erf is u10 only: erf, gelu and
//                bias_gelu are not in this column (sleef512 has them).
#include <immintrin.h>
#include <sleef.h>

#include "sleef_compose.h"

namespace actkb {
namespace {
struct avx512 {
  using v = __m512;
  static constexpr size_t w = 16;
  static v load(const float *p) { return _mm512_loadu_ps(p); }
  static void store(float *p, v a) { _mm512_storeu_ps(p, a); }
  static v add(v a, v b) { return _mm512_add_ps(a, b); }
  static v mul(v a, v b) { return _mm512_mul_ps(a, b); }
  static v div(v a, v b) { return _mm512_div_ps(a, b); }
  static v set1(float f) { return _mm512_set1_ps(f); }
  static v erf(v a) { return Sleef_erff16_u10avx512f(a); }
};
struct u10 : avx512 {
  static constexpr bool has_erf = true;
  static v exp_neg(v a) { return Sleef_expf16_u10avx512f(_mm512_sub_ps(_mm512_setzero_ps(), a)); }
  static v tanh(v a) { return Sleef_tanhf16_u10avx512f(a); }
};
struct u35 : avx512 { // erf (u10) is left out of its table
  static constexpr bool has_erf = false;
  static v exp_neg(v a) {
    return Sleef_exp2f16_u35avx512f(_mm512_mul_ps(a, set1(-1.44269504088896340736f)));
  }
  static v tanh(v a) { return Sleef_tanhf16_u35avx512f(a); }
};
using K10 = sleef_kernels<u10>;
using K35 = sleef_kernels<u35>;
} // namespace

const baseline sleef512_baseline = {
    "sleef512",
    "SLEEF 3.5 u10 AVX-512F (Sleef_erff16/tanhf16/expf16_u10avx512f), -mavx512f -mavx512dq "
    "-mavx512vl -mfma; ops composed as in sleef",
    avx512_baselines_runnable,
    K10::all + K10::first,
    K10::count,
    nullptr,
    nullptr};

const baseline sleef512u35_baseline = {
    "sleef512u35",
    "SLEEF 3.5 u35 AVX-512F (Sleef_tanhf16_u35avx512f, Sleef_exp2f16_u35avx512f with e^-x = "
    "2^(-x log2 e)), same flags; no erf/gelu/bias_gelu (SLEEF's erf is u10 only)",
    avx512_baselines_runnable,
    K35::all + K35::first,
    K35::count,
    nullptr,
    nullptr};

} // namespace actkb
