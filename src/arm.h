/* One arm = one table of kernels for one instruction set (simdjson's
 * "implementation" pattern). Kernels work on whole arrays; they never see a
 * pool, a status, or a bad argument: validation happened before them. */
#ifndef ACTK_ARM_H
#define ACTK_ARM_H

#include <stddef.h>

#include "actk.h"

typedef void (*actk_unary_kernel)(const float *x, float *y, size_t n);
typedef void (*actk_swish_kernel)(const float *x, float *y, size_t n, float alpha);
/* y[i] = g(x[i] + bias[i % width]) for n a multiple of width, x and y row-aligned. */
typedef void (*actk_bias_kernel)(const float *x, const float *bias, size_t width, float *y,
                                 size_t n);

/* RoPE rows: row i at x + i * stride, rotary_dim = 2 half channels rotated
 * with cache row (c + i * cstride, s + i * cstride): cstride 0 for the heads
 * of one token, half for consecutive positions. Channels past them untouched. */
typedef void (*actk_rope_kernel)(const float *x, float *y, size_t rows, size_t stride,
                                 const float *c, const float *s, size_t cstride, size_t half,
                                 int interleaved);

typedef struct actk_arm {
  actk_isa isa;
  const char *name;
  size_t vector_floats; /* lanes per vector: chunks are multiples of this */
  actk_unary_kernel erf, tanh, sigmoid, gelu, gelu_tanh;
  actk_swish_kernel swish;
  actk_bias_kernel bias_gelu, bias_gelu_tanh;
  actk_rope_kernel rope;
  /* Whether b[0..len) holds a NaN: the bias kernels' choice of row (the
   * plain add or the NaN-ordered one). Here so tests can check it directly:
   * with operand orders that keep x first, both rows give the same bits. */
  int (*bias_has_nan)(const float *b, size_t len);
} actk_arm;

/* Defined by each arm's translation unit. */
extern const actk_arm actk_arm_scalar;
#if defined(ACTK_HAVE_X86_ARMS)
extern const actk_arm actk_arm_avx2;
extern const actk_arm actk_arm_avx512;
#endif

#endif
