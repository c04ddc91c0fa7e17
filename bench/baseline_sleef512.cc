// Baselines "sleef512" and "sleef512u35": SLEEF 3.5's AVX-512F functions, 16
// floats at a time, tails through masked loads and stores. This file is
// compiled with -mavx512f -mavx512dq -mavx512vl -mfma; call it only when
// avx512_baselines_runnable().
//
//   sleef512     the 1.0-ULP functions: Sleef_erff16_u10avx512f,
//                Sleef_tanhf16_u10avx512f, Sleef_expf16_u10avx512f; every op,
//                composed as baseline_sleef.cc composes them (sigmoid =
//                1 / (1 + exp(-x)), silu/quick_gelu = x sigmoid(a x), gelu =
//                0.5 x (1 + erf(x / sqrt2)), gelu_tanh = 0.5 x (1 + tanh(u)))
//   sleef512u35  the 3.5-ULP functions where SLEEF has one: tanh
//                (Sleef_tanhf16_u35avx512f) and exp2 (Sleef_exp2f16_u35avx512f,
//                used as e^-x = 2^(-x log2 e), the way a user after speed
//                writes it); so tanh, sigmoid, silu, quick_gelu, gelu_tanh and
//                bias_gelu_tanh. SLEEF's erf is u10 only: erf, gelu and
//                bias_gelu are not in this column (sleef512 has them).
#include "bench_ops.h"

#include <immintrin.h>
#include <sleef.h>

namespace actkb {
namespace {

inline __m512 set1(float v) { return _mm512_set1_ps(v); }
inline __mmask16 tail_mask(size_t k) { return (__mmask16)((1u << k) - 1u); }

template <class F>
inline void map16(const float *x, float *y, size_t n, F f) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i)));
  if (i < n) {
    __mmask16 m = tail_mask(n - i);
    _mm512_mask_storeu_ps(y + i, m, f(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

// Row by row; the bias add is folded into the loaded vector.
template <class F>
inline void bias_rows16(const float *x, const float *b, size_t w, float *y, size_t n, F f) {
  for (size_t r = 0; r < n; r += w) {
    size_t j = 0;
    for (; j + 16 <= w; j += 16)
      _mm512_storeu_ps(y + r + j,
                       f(_mm512_add_ps(_mm512_loadu_ps(x + r + j), _mm512_loadu_ps(b + j))));
    if (j < w) {
      __mmask16 m = tail_mask(w - j);
      __m512 v =
          _mm512_add_ps(_mm512_maskz_loadu_ps(m, x + r + j), _mm512_maskz_loadu_ps(m, b + j));
      _mm512_mask_storeu_ps(y + r + j, m, f(v));
    }
  }
}

// The two flavours: which SLEEF functions make e^-x, erf and tanh.
struct u10 {
  static __m512 exp_neg(__m512 v) {
    return Sleef_expf16_u10avx512f(_mm512_sub_ps(_mm512_setzero_ps(), v));
  }
  static __m512 erf(__m512 v) { return Sleef_erff16_u10avx512f(v); }
  static __m512 tanh(__m512 v) { return Sleef_tanhf16_u10avx512f(v); }
};
struct u35 {
  static __m512 exp_neg(__m512 v) {
    return Sleef_exp2f16_u35avx512f(_mm512_mul_ps(v, set1(-1.44269504088896340736f)));
  }
  static __m512 tanh(__m512 v) { return Sleef_tanhf16_u35avx512f(v); }
};

template <class S>
inline __m512 sigmoid16(__m512 v) {
  return _mm512_div_ps(set1(1.0f), _mm512_add_ps(set1(1.0f), S::exp_neg(v)));
}
template <class S>
inline __m512 gelu16(__m512 v) {
  __m512 e = S::erf(_mm512_mul_ps(v, set1(0.70710678118654752440f)));
  return _mm512_mul_ps(_mm512_mul_ps(set1(0.5f), v), _mm512_add_ps(set1(1.0f), e));
}
template <class S>
inline __m512 gelu_tanh16(__m512 v) {
  __m512 v3 = _mm512_mul_ps(_mm512_mul_ps(v, v), v);
  __m512 u = _mm512_mul_ps(set1(0.79788456080286535588f),
                           _mm512_add_ps(v, _mm512_mul_ps(set1(0.044715f), v3)));
  return _mm512_mul_ps(_mm512_mul_ps(set1(0.5f), v), _mm512_add_ps(set1(1.0f), S::tanh(u)));
}

template <class S>
void k_erf(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, [](__m512 v) { return S::erf(v); });
}
template <class S>
void k_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, [](__m512 v) { return S::tanh(v); });
}
template <class S>
void k_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, sigmoid16<S>);
}
template <class S>
void k_silu(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, [](__m512 v) { return _mm512_mul_ps(v, sigmoid16<S>(v)); });
}
template <class S>
void k_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n,
        [](__m512 v) { return _mm512_mul_ps(v, sigmoid16<S>(_mm512_mul_ps(set1(1.702f), v))); });
}
template <class S>
void k_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, gelu16<S>);
}
template <class S>
void k_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  map16(x, y, n, gelu_tanh16<S>);
}
template <class S>
void k_bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows16(x, b, w, y, n, gelu16<S>);
}
template <class S>
void k_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  bias_rows16(x, b, w, y, n, gelu_tanh16<S>);
}

const named_kernel sleef512_table[] = {
    {"erf", k_erf<u10>},
    {"tanh", k_tanh<u10>},
    {"sigmoid", k_sigmoid<u10>},
    {"silu", k_silu<u10>},
    {"quick_gelu", k_quick_gelu<u10>},
    {"gelu", k_gelu<u10>},
    {"gelu_tanh", k_gelu_tanh<u10>},
    {"bias_gelu", k_bias_gelu<u10>},
    {"bias_gelu_tanh", k_bias_gelu_tanh<u10>},
};
const named_kernel sleef512u35_table[] = {
    {"tanh", k_tanh<u35>},           {"sigmoid", k_sigmoid<u35>},
    {"silu", k_silu<u35>},           {"quick_gelu", k_quick_gelu<u35>},
    {"gelu_tanh", k_gelu_tanh<u35>}, {"bias_gelu_tanh", k_bias_gelu_tanh<u35>},
};
} // namespace

const baseline sleef512_baseline = {
    "sleef512",
    "SLEEF 3.5 u10 AVX-512F (Sleef_erff16/tanhf16/expf16_u10avx512f), -mavx512f -mavx512dq "
    "-mavx512vl -mfma; ops composed as in sleef",
    avx512_baselines_runnable,
    sleef512_table,
    sizeof sleef512_table / sizeof sleef512_table[0],
    nullptr,
    nullptr};

const baseline sleef512u35_baseline = {
    "sleef512u35",
    "SLEEF 3.5 u35 AVX-512F (Sleef_tanhf16_u35avx512f, Sleef_exp2f16_u35avx512f with e^-x = "
    "2^(-x log2 e)), same flags; no erf/gelu/bias_gelu (SLEEF's erf is u10 only)",
    avx512_baselines_runnable,
    sleef512u35_table,
    sizeof sleef512u35_table / sizeof sleef512u35_table[0],
    nullptr,
    nullptr};

} // namespace actkb
