// Baseline "eigen512": baseline_eigen.cc's expressions compiled with
// -mavx512f -mavx512dq -mavx512vl -mfma, so Eigen 3.4 evaluates them on its
// AVX-512 packets (Packet16f: its generic_fast_* erf/tanh and logistic). Call
// only when avx512_baselines_runnable(). The AVX2 build ("eigen") stays.
//
// GCC 12's avx512fintrin.h seeds masked intrinsics with _mm512_undefined_ps(),
// which -Wmaybe-uninitialized reports once Eigen's packets inline them (GCC
// bug 105593, fixed in 12.3/13); not a bug here, so it is silenced for this
// file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define ACTK_EIGEN_512 1
#include "baseline_eigen.cc"
