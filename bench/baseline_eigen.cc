// Baseline "eigen": Eigen 3.4 array expressions, vectorized for AVX2 + FMA.
// This file is compiled with -mavx2 -mfma; call it only when
// simd_baselines_runnable(). baseline_eigen512.cc includes it with
// ACTK_EIGEN_512 defined and -mavx512f -mavx512dq -mavx512vl -mfma: the same
// expressions on Eigen's 16-float AVX-512 packets (baseline "eigen512", call
// only when avx512_baselines_runnable()). Only plain pointers cross the
// boundary, and everything defined here is in an anonymous namespace, so no
// AVX2- or AVX-512-compiled inline function can be picked by the linker for
// the portable files.
//
// Eigen's float erf, tanh and logistic are its own fast packet versions
// (EIGEN_FAST_MATH, the default): generic_fast_erf_float, generic_fast_tanh_float
// and the scalar_logistic_op<float> specialization.
#include "bench_ops.h"

#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#if defined(ACTK_EIGEN_512)
#if !defined(EIGEN_VECTORIZE_AVX512) || !defined(EIGEN_VECTORIZE_AVX512DQ) ||                      \
    !defined(EIGEN_VECTORIZE_FMA)
#error "baseline_eigen512.cc must be compiled with -mavx512f -mavx512dq -mavx512vl -mfma"
#endif
#elif !defined(EIGEN_VECTORIZE_AVX2) || !defined(EIGEN_VECTORIZE_FMA) ||                           \
    defined(EIGEN_VECTORIZE_AVX512)
#error "baseline_eigen.cc must be compiled with -mavx2 -mfma (and no AVX-512 flags)"
#endif

namespace actkb {
namespace {

using In = Eigen::Map<const Eigen::ArrayXf>;
using Out = Eigen::Map<Eigen::ArrayXf>;

constexpr float kSqrt1_2 = 0.70710678118654752440f;
constexpr float kSqrt2OverPi = 0.79788456080286535588f;

inline Eigen::Index idx(size_t n) { return static_cast<Eigen::Index>(n); }

void eigen_erf(const float *x, const float *, size_t, float *y, size_t n) {
  Out(y, idx(n)) = In(x, idx(n)).erf();
}
void eigen_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  Out(y, idx(n)) = In(x, idx(n)).tanh();
}
void eigen_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  Out(y, idx(n)) = In(x, idx(n)).logistic();
}
void eigen_silu(const float *x, const float *, size_t, float *y, size_t n) {
  In a(x, idx(n));
  Out(y, idx(n)) = a * a.logistic();
}
void eigen_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  In a(x, idx(n));
  Out(y, idx(n)) = a * (a * 1.702f).logistic();
}

template <class A>
auto gelu_expr(const A &a) {
  return 0.5f * a * (1.0f + (a * kSqrt1_2).erf());
}
template <class A>
auto gelu_tanh_expr(const A &a) {
  return 0.5f * a * (1.0f + (kSqrt2OverPi * (a + 0.044715f * a * a * a)).tanh());
}

void eigen_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  In a(x, idx(n));
  Out(y, idx(n)) = gelu_expr(a);
}
void eigen_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  In a(x, idx(n));
  Out(y, idx(n)) = gelu_tanh_expr(a);
}
// Row by row: t = x_row + bias is an expression (recomputed where used, no
// temporary array), as a hand-written Eigen kernel would do it.
void eigen_bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
  In bias(b, idx(w));
  for (size_t r = 0; r < n; r += w) {
    In row(x + r, idx(w));
    Out(y + r, idx(w)) = gelu_expr(row + bias);
  }
}
void eigen_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  In bias(b, idx(w));
  for (size_t r = 0; r < n; r += w) {
    In row(x + r, idx(w));
    Out(y + r, idx(w)) = gelu_tanh_expr(row + bias);
  }
}

const named_kernel eigen_table[] = {
    {"erf", eigen_erf},
    {"tanh", eigen_tanh},
    {"sigmoid", eigen_sigmoid},
    {"silu", eigen_silu},
    {"quick_gelu", eigen_quick_gelu},
    {"gelu", eigen_gelu},
    {"gelu_tanh", eigen_gelu_tanh},
    {"bias_gelu", eigen_bias_gelu},
    {"bias_gelu_tanh", eigen_bias_gelu_tanh},
};
} // namespace

#if defined(ACTK_EIGEN_512)
const baseline eigen512_baseline = {
    "eigen512",
    "Eigen 3.4 array expressions, -mavx512f -mavx512dq -mavx512vl -mfma (Packet16f; its fast "
    "erf/tanh/logistic; gelu = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = 0.5x(1 + tanh(u)))",
    avx512_baselines_runnable,
    eigen_table,
    sizeof eigen_table / sizeof eigen_table[0],
    nullptr,
    nullptr};
#else
const baseline eigen_baseline = {
    "eigen",
    "Eigen 3.4 array expressions, -mavx2 -mfma (Packet8f; its fast erf/tanh/logistic; gelu = "
    "0.5x(1 + erf(x/sqrt2)), gelu_tanh = 0.5x(1 + tanh(u)))",
    simd_baselines_runnable,
    eigen_table,
    sizeof eigen_table / sizeof eigen_table[0],
    nullptr,
    nullptr};
#endif

} // namespace actkb
