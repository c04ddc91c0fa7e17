// The SLEEF baselines' ops, written once over a vector type: the functions
// SLEEF has (erf, tanh, exp) and the ops it lacks composed from them the way a
// user would (sigmoid = 1/(1 + exp(-x)), silu/quick_gelu = x sigmoid(ax), gelu
// = 0.5x(1 + erf(x/sqrt2)), gelu_tanh = 0.5x(1 + tanh(u)), bias ops one row at
// a time with the add folded into the loaded vector). A tail goes through a
// zero-padded vector. Each baseline_sleef*.cc defines V for its ISA (compiled
// with that ISA's flags) and takes its table from sleef_kernels<V>:
//   struct V { using v = <vector>; static constexpr size_t w = <lanes>;
//              load, store, add, mul, div, set1, exp_neg (e^-x), erf, tanh };
// V::has_erf false (SLEEF u35 has no erf): the table leaves erf and gelu out.
#ifndef ACTK_BENCH_SLEEF_COMPOSE_H
#define ACTK_BENCH_SLEEF_COMPOSE_H

#include <cstring>

#include "bench_ops.h"

namespace actkb {

template <class V>
struct sleef_kernels {
  using v = typename V::v;
  template <class F>
  static void map(const float *x, float *y, size_t n, F f) {
    size_t i = 0;
    for (; i + V::w <= n; i += V::w) V::store(y + i, f(V::load(x + i)));
    if (i < n) {
      alignas(64) float t[V::w] = {};
      std::memcpy(t, x + i, (n - i) * sizeof(float));
      V::store(t, f(V::load(t)));
      std::memcpy(y + i, t, (n - i) * sizeof(float));
    }
  }
  template <class F>
  static void bias_rows(const float *x, const float *b, size_t w, float *y, size_t n, F f) {
    for (size_t r = 0; r < n; r += w) {
      size_t j = 0;
      for (; j + V::w <= w; j += V::w)
        V::store(y + r + j, f(V::add(V::load(x + r + j), V::load(b + j))));
      if (j < w) {
        alignas(64) float t[V::w] = {};
        for (size_t k = 0; j + k < w; k++) t[k] = x[r + j + k] + b[j + k];
        V::store(t, f(V::load(t)));
        std::memcpy(y + r + j, t, (w - j) * sizeof(float));
      }
    }
  }
  static v sigmoid(v a) { return V::div(V::set1(1.0f), V::add(V::set1(1.0f), V::exp_neg(a))); }
  static v gelu(v a) {
    v e = V::erf(V::mul(a, V::set1(0.70710678118654752440f)));
    return V::mul(V::mul(V::set1(0.5f), a), V::add(V::set1(1.0f), e));
  }
  static v gelu_tanh(v a) {
    v a3 = V::mul(V::mul(a, a), a);
    v u = V::mul(V::set1(0.79788456080286535588f), V::add(a, V::mul(V::set1(0.044715f), a3)));
    return V::mul(V::mul(V::set1(0.5f), a), V::add(V::set1(1.0f), V::tanh(u)));
  }
  static void erf(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, V::erf);
  }
  static void tanh(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, V::tanh);
  }
  static void sig(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, sigmoid);
  }
  static void silu(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, [](v a) { return V::mul(a, sigmoid(a)); });
  }
  static void quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, [](v a) { return V::mul(a, sigmoid(V::mul(V::set1(1.702f), a))); });
  }
  static void gelu_k(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, gelu);
  }
  static void gelu_tanh_k(const float *x, const float *, size_t, float *y, size_t n) {
    map(x, y, n, gelu_tanh);
  }
  static void bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
    bias_rows(x, b, w, y, n, gelu);
  }
  static void bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
    bias_rows(x, b, w, y, n, gelu_tanh);
  }
  // erf, gelu and bias_gelu first, so that a V without erf takes the rest
  static constexpr named_kernel all[] = {
      {"erf", erf},
      {"gelu", gelu_k},
      {"bias_gelu", bias_gelu},
      {"tanh", tanh},
      {"sigmoid", sig},
      {"silu", silu},
      {"quick_gelu", quick_gelu},
      {"gelu_tanh", gelu_tanh_k},
      {"bias_gelu_tanh", bias_gelu_tanh},
  };
  // where a peer row's table starts in all[] (all + first: clang 14 takes no
  // pointer into all[] inside the class, where the array is still incomplete)
  static constexpr size_t first = V::has_erf ? 0 : 3;
  static constexpr size_t count = V::has_erf ? 9 : 6;
};

} // namespace actkb

#endif
