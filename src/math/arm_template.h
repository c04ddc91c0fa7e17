/* Instantiates every kernel and the arm table for the vector type the
 * including file set up (vec_<arm>.h). Loops run whole vectors, then one
 * masked vector for the tail through the same arithmetic: element i depends
 * only on x[i], never on n or on where a chunk began. */
#ifndef ACTK_MATH_ARM_TEMPLATE_H
#define ACTK_MATH_ARM_TEMPLATE_H

#include <string.h>

#include "../arm.h"
#include "erf.h"
#include "gelu.h"
#include "gelu_tanh.h"
#include "rope.h"
#include "sigmoid.h"
#include "tanh.h"

#define ACTK_UNARY_KERNEL(kname, fn)                                                               \
  ACTK_NOINLINE static void kname(const float *x, float *y, size_t n) {                            \
    size_t i = 0;                                                                                  \
    for (; i + VLEN <= n; i += VLEN) vf_store(y + i, fn(vf_load(x + i)));                          \
    if (VLEN > 1 && i < n) vf_store_first(y + i, n - i, fn(vf_load_first(x + i, n - i)));          \
  }

/* x + bias, with x's NaN winning when both are NaN (which operand an add
 * keeps then depends on an order the compiler may swap): where x is NaN the
 * bias is zeroed first, and NaN + 0 is x quieted. A compare and an and, on
 * the dependency chain: 7% of bias_gelu's time on AVX2, so rows whose bias
 * has no NaN take the plain add, which gives the same bits there (one NaN
 * operand is the one an add returns, quieted). */
ACTK_INLINE vf bias_add(vf x, vf b) {
  return vf_add(x, vf_keep(vm_le(x, vf_splat(__builtin_inff())), b));
}
ACTK_INLINE vf bias_gelu_v(vf x, vf b) { return gelu_v(bias_add(x, b)); }
ACTK_INLINE vf bias_gelu_tanh_v(vf x, vf b) { return gelu_tanh_v(bias_add(x, b)); }
ACTK_INLINE vf bias_gelu_plain_v(vf x, vf b) { return gelu_v(vf_add(x, b)); }
ACTK_INLINE vf bias_gelu_tanh_plain_v(vf x, vf b) { return gelu_tanh_v(vf_add(x, b)); }

/* Whether any of b[0..len) is NaN (-inf <= +inf; a NaN compares false; the
 * masked tail load fills with 0). */
ACTK_INLINE int any_nan(const float *b, size_t len) {
  const vf inf = vf_splat(__builtin_inff());
  size_t j = 0;
  for (; j + VLEN <= len; j += VLEN)
    if (!vm_all(vm_le(vf_load(b + j), inf))) return 1;
  return VLEN > 1 && j < len && !vm_all(vm_le(vf_load_first(b + j, len - j), inf));
}

/* One row: y[j] = fn(x[j] + b[j]) for j < len. */
#define ACTK_BIAS_ROW(rname, fn)                                                                   \
  ACTK_NOINLINE static void rname(const float *x, const float *b, float *y, size_t len) {          \
    size_t j = 0;                                                                                  \
    for (; j + VLEN <= len; j += VLEN) vf_store(y + j, fn(vf_load(x + j), vf_load(b + j)));        \
    if (VLEN > 1 && j < len)                                                                       \
      vf_store_first(y + j, len - j,                                                               \
                     fn(vf_load_first(x + j, len - j), vf_load_first(b + j, len - j)));            \
  }

/* Narrow rows would be mostly tail: repeat the bias into a row of at least
 * ACTK_BIAS_MIN_ROW floats first (the same values, so the same results). */
#define ACTK_BIAS_MIN_ROW 64
#define ACTK_BIAS_KERNEL(kname, rname, rname_plain)                                                \
  static void kname(const float *x, const float *bias, size_t width, float *y, size_t n) {         \
    float rep[2 * ACTK_BIAS_MIN_ROW];                                                              \
    const float *b = bias;                                                                         \
    size_t w = width;                                                                              \
    if (VLEN > 1 && width < ACTK_BIAS_MIN_ROW) {                                                   \
      w = 0;                                                                                       \
      while (w < ACTK_BIAS_MIN_ROW) {                                                              \
        memcpy(rep + w, bias, width * sizeof(float)); /* bias may be unaligned */                  \
        w += width;                                                                                \
      }                                                                                            \
      b = rep;                                                                                     \
    }                                                                                              \
    void (*row)(const float *, const float *, float *, size_t) =                                   \
        any_nan(b, w) ? (rname) : (rname_plain);                                                   \
    size_t i = 0;                                                                                  \
    for (; i + w <= n; i += w) row(x + i, b, y + i, w);                                            \
    if (i < n) row(x + i, b, y + i, n - i);                                                        \
  }

static int bias_has_nan_kernel(const float *b, size_t len) { return any_nan(b, len); }

ACTK_UNARY_KERNEL(silu_kernel, silu_v)

static void swish_kernel(const float *x, float *y, size_t n, float alpha) {
  if (alpha == 1.0f) {
    silu_kernel(x, y, n);
    return;
  }
  const vf va = vf_splat(alpha);
  size_t i = 0;
  for (; i + VLEN <= n; i += VLEN) vf_store(y + i, swish_v(vf_load(x + i), va));
  if (VLEN > 1 && i < n) vf_store_first(y + i, n - i, swish_v(vf_load_first(x + i, n - i), va));
}

ACTK_UNARY_KERNEL(erf_kernel, erf_v)
ACTK_UNARY_KERNEL(tanh_kernel, tanh_v)
ACTK_UNARY_KERNEL(sigmoid_kernel, sigmoid_v)
ACTK_UNARY_KERNEL(gelu_kernel, gelu_v)
ACTK_UNARY_KERNEL(gelu_tanh_kernel, gelu_tanh_v)
ACTK_BIAS_ROW(bias_gelu_row, bias_gelu_v)
ACTK_BIAS_ROW(bias_gelu_tanh_row, bias_gelu_tanh_v)
ACTK_BIAS_ROW(bias_gelu_plain_row, bias_gelu_plain_v)
ACTK_BIAS_ROW(bias_gelu_tanh_plain_row, bias_gelu_tanh_plain_v)
ACTK_BIAS_KERNEL(bias_gelu_kernel, bias_gelu_row, bias_gelu_plain_row)
ACTK_BIAS_KERNEL(bias_gelu_tanh_kernel, bias_gelu_tanh_row, bias_gelu_tanh_plain_row)

/* NOLINTBEGIN(bugprone-macro-parentheses): the arguments are initializer values */
#define ACTK_DEFINE_ARM(sym, isa_value, isa_name)                                                  \
  const actk_arm sym = {.isa = isa_value,                                                          \
                        .name = isa_name,                                                          \
                        .vector_floats = VLEN,                                                     \
                        .erf = erf_kernel,                                                         \
                        .tanh = tanh_kernel,                                                       \
                        .sigmoid = sigmoid_kernel,                                                 \
                        .gelu = gelu_kernel,                                                       \
                        .gelu_tanh = gelu_tanh_kernel,                                             \
                        .swish = swish_kernel,                                                     \
                        .bias_gelu = bias_gelu_kernel,                                             \
                        .bias_gelu_tanh = bias_gelu_tanh_kernel,                                   \
                        .rope = rope_rows_kernel,                                                  \
                        .bias_has_nan = bias_has_nan_kernel};
/* NOLINTEND(bugprone-macro-parentheses) */

#endif
