/* One implementation = the facts of one instruction set and one table of
 * kernels for it (simdjson's "implementations"): dispatch reads the facts,
 * the entry points read the kernels. Kernels work on whole arrays of their
 * element type; they never see a pool, a status, or a bad argument:
 * validation happened before them. */
#ifndef ACTK_IMPL_H
#define ACTK_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "actk.h"
#include "cpu.h"
#include "registry.h"

/* x and y point at n elements of the kernel's type (y may equal x). */
typedef void (*actk_unary_kernel)(const void *x, void *y, size_t n);
typedef void (*actk_param_kernel)(const void *x, void *y, size_t n, float alpha);
/* y[i] = f(x[i] + bias[i % width]) for n a multiple of width, x and y row-aligned. */
typedef void (*actk_bias_kernel)(const void *x, const void *bias, size_t width, void *y, size_t n);

/* y[i] = f(gate[i]) * up[i], y may equal gate or up. */
typedef void (*actk_gated_kernel)(const void *gate, const void *up, void *y, size_t n);
/* RoPE rows: row i at x + i * stride, rotary_dim = 2 half channels rotated
 * with cache row (c + i * cstride, s + i * cstride): cstride 0 for the heads
 * of one token, half for consecutive positions. Channels past them untouched. */
typedef void (*actk_rope_kernel)(const void *x, void *y, size_t rows, size_t stride, const float *c,
                                 const float *s, size_t cstride, size_t half, int interleaved);

/* What dispatch knows of an instruction set. */
typedef struct actk_isa_facts {
  actk_isa isa;
  const char *name;  /* actk_isa_name's answer, ACTK_ISA's value */
  unsigned rank;     /* of the supported implementations, the highest rank is the best */
  uint32_t requires; /* ACTK_FEATURE_* bits the CPU and OS must have */
} actk_isa_facts;

/* The facts of every instruction set actk.h names, each written once: the
 * implementation's table carries them, and dispatch lists them all (also
 * those this build has no implementation of, for their names). */
#define ACTK_FACTS_SCALAR                                                                          \
  { ACTK_ISA_SCALAR, "scalar", 0, 0 }
/* clang-format off */
#define ACTK_FACTS_AVX2                                                                            \
  {ACTK_ISA_AVX2, "avx2", 1,                                                                       \
   ACTK_FEATURE_X86 | ACTK_FEATURE_AVX2 | ACTK_FEATURE_FMA | ACTK_FEATURE_F16C |                   \
   ACTK_FEATURE_OS_YMM}
#define ACTK_FACTS_AVX512                                                                          \
  {ACTK_ISA_AVX512, "avx512", 2,                                                                   \
   ACTK_FEATURE_X86 | ACTK_FEATURE_AVX512F | ACTK_FEATURE_AVX512DQ | ACTK_FEATURE_AVX512BW |       \
   ACTK_FEATURE_AVX512VL | ACTK_FEATURE_FMA | ACTK_FEATURE_F16C | ACTK_FEATURE_OS_YMM |            \
   ACTK_FEATURE_OS_ZMM}
#define ACTK_FACTS_NEON                                                                            \
  {ACTK_ISA_NEON, "neon", 1, ACTK_FEATURE_ARM64 | ACTK_FEATURE_ASIMD}
/* clang-format on */
#define ACTK_ALL_ISA_FACTS                                                                         \
  { ACTK_FACTS_SCALAR, ACTK_FACTS_AVX2, ACTK_FACTS_AVX512, ACTK_FACTS_NEON }

typedef struct actk_impl {
  actk_isa_facts facts;
  actk_unary_kernel unary[ACTK_N_UNARY][ACTK_N_TIERS][ACTK_N_TYPES];
  actk_param_kernel param[ACTK_N_PARAM][ACTK_N_TIERS][ACTK_N_TYPES];
  actk_bias_kernel bias[ACTK_N_BIAS][ACTK_N_TIERS][ACTK_N_TYPES];
  actk_gated_kernel gated[ACTK_N_GATED][ACTK_N_TIERS][ACTK_N_TYPES];
  actk_rope_kernel rope[ACTK_N_TYPES]; /* x and y of the type, f32 caches */
  /* Whether b[0..len) holds a NaN: the bias kernels' choice of row (the
   * plain add or the NaN-ordered one). Here so tests can check it directly:
   * with operand orders that keep x first, both rows give the same bits. */
  int (*bias_has_nan)(const float *b, size_t len);
} actk_impl;

/* Defined by each implementation's translation unit (src/scalar/, src/x86/). */
extern const actk_impl actk_impl_scalar;
#if defined(ACTK_HAVE_X86_IMPLS)
extern const actk_impl actk_impl_avx2;
extern const actk_impl actk_impl_avx512;
#endif
#if defined(ACTK_HAVE_ARM_IMPLS)
extern const actk_impl actk_impl_neon;
#endif

#endif
