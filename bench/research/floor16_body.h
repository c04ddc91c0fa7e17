/* The floor16 kernels (floor16.h) for one arm, written once: an arm's file includes
 * its vector header (src/x86/vec_<isa>.h, which sets VLEN and the vf operations), names
 * FLOOR16_NARROW, then includes this, then builds its table from FLOOR16_COMMON_ROWS
 * and its own rows. Built with the flags of the arm's src/x86/impl_<isa>.c. */
#ifndef VLEN
#error "include the arm's vector header (x86/vec_<isa>.h) before floor16_body.h"
#endif

#include <stdint.h>
#include <string.h>

#include "floor16.h"
#include "math/bias16.h"
#include "math/elu_fast16.h"
#include "math/erf_fast16.h"
#include "math/gelu_fast16.h"
#include "math/gelu_tanh_fast16.h"
#include "math/hardsigmoid_fast.h"
#include "math/mish_fast16.h"
#include "math/sigmoid.h"
#include "math/sigmoid_fast16.h"
#include "math/softplus_fast16.h"
#include "math/tanh_fast16.h"

/* each op's fast 16-bit core by the type it serves (src/ops.toml's math) */
#define erf_fast_f16_v erf16_f16_v
#define erf_fast_bf16_v erf16_bf16_v
#define tanh_fast_f16_v tanh16_f16_v
#define tanh_fast_bf16_v tanh16_bf16_v
#define sigmoid_fast_f16_v sigmoid16_f16_v
#define sigmoid_fast_bf16_v sigmoid16_bf16_v
#define silu_fast_f16_v silu16_f16_v
#define silu_fast_bf16_v silu16_bf16_v
#define quick_gelu_fast_f16_v quick_gelu16_f16_v
#define quick_gelu_fast_bf16_v quick_gelu16_bf16_v
#define gelu_fast_f16_v gelu16_f16_v
#define gelu_fast_bf16_v gelu16_bf16_v
#define gelu_tanh_fast_f16_v gelu_tanh16_f16_v
#define gelu_tanh_fast_bf16_v gelu_tanh16_bf16_v
#define hardsigmoid_fast_f16_v hardsigmoid_fast_v
#define hardsigmoid_fast_bf16_v hardsigmoid_fast_v
#define hardswish_fast_f16_v hardswish_fast_v
#define hardswish_fast_bf16_v hardswish_fast_v
#define softplus_fast_f16_v softplus16_f16_v
#define softplus_fast_bf16_v softplus16_bf16_v
#define mish_fast_f16_v mish16_v
#define mish_fast_bf16_v mish16_v
/* bias_gelu's cores on the sum (the bias's load, widening and add are left out: they count
 * among its conversions) */
#define bias_gelu_fast_f16_v gelu_sum_fast_f16_v
#define bias_gelu_fast_bf16_v gelu_sum_fast_bf16_v
#define bias_gelu_tanh_fast_f16_v gelu_tanh_sum_fast_f16_v
#define bias_gelu_tanh_fast_bf16_v gelu_tanh_sum_fast_bf16_v
/* elu at alpha 1 (the bench's library calls pass 1 too) */
static inline vf elu_fast_f16_v(vf x) { return elu16_f16_v(x, vf_splat(1.0f)); }
static inline vf elu_fast_bf16_v(vf x) { return elu16_bf16_v(x, vf_splat(1.0f)); }

/* NOLINTBEGIN(bugprone-macro-parentheses): type is a token, fn a function */
#define FLOOR_LOOP(name, type, T, fn)                                                              \
  __attribute__((noinline)) static void name(const void *xv, void *yv, size_t n) {                 \
    const T *x = (const T *)xv;                                                                    \
    T *y = (T *)yv;                                                                                \
    for (size_t i = 0; i + VLEN <= n; i += VLEN)                                                   \
      vf_store_##type##_q(y + i, fn(vf_load_##type(x + i)));                                       \
  }
/* NOLINTEND(bugprone-macro-parentheses) */

static inline vf ident(vf x) { return x; }

/* 1 / (1 + |x|): the divider alone (a denominator in [1, 13], as in the cores). */
static inline vf div_only(vf x) {
  return vf_div(vf_splat(1.0f), vf_add(vf_splat(1.0f), vf_andnot(vf_splat(-0.0f), x)));
}

/* The alternative to the divider that was measured and not taken: a reciprocal from
 * an integer seed (bits 0x7ef311c2 - bits(d), 2^-4.31 relative) and two Newton steps,
 * 2^-17.2: FMA-port work only, the same bits on every arm. */
static inline vf rcp16(vf d) {
  const vf one = vf_splat(1.0f);
  vf r = vi_bits(vi_sub(vi_splat(0x7ef311c2), vf_bits(d)));
  vf e = vf_fnma(d, r, one);
  r = vf_fma(r, e, r);
  e = vf_fnma(d, r, one);
  return vf_fma(r, e, r);
}
static inline vf rcp_only(vf x) {
  return rcp16(vf_add(vf_splat(1.0f), vf_andnot(vf_splat(-0.0f), x)));
}
/* sigmoid16_f16_v and silu16_f16_v (src/math/sigmoid_fast16.h) with rcp16 for the division */
static inline vf sigmoid_rcp(vf x) {
  vf y = rcp16(exp16_one_plus(vf_min(vf_splat(ACTK_FAST16_ZMAX), x), 0));
  vm fast = vm_ge(x, vf_splat(-86.0f)); /* 1 + e^86 < 2^125: rcp16's seed stays normal */
  if (vm_all(fast)) return y;
  return vf_select(fast, y, sigmoid_v(x));
}
static inline vf silu_rcp(vf x) {
  vf y = vf_mul(x, rcp16(exp16_one_plus(vf_min(vf_splat(ACTK_FAST16_ZMAX), x), 0)));
  vm fast = vm_ge(x, vf_splat(-86.0f));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, silu_v(x));
}

__attribute__((noinline)) static void memcpy_16(const void *x, void *y, size_t n) {
  memcpy(y, x, n * 2);
}

FLOOR_LOOP(copy_f32, f32, float, ident)
FLOOR_LOOP(copy_f16, f16, uint16_t, ident)
FLOOR_LOOP(copy_bf16, bf16, uint16_t, ident)
FLOOR_LOOP(div_f32, f32, float, div_only)
FLOOR_LOOP(rcp_f32, f32, float, rcp_only)

/* The bf16 loads and stores by even and odd halves of 2 VLEN elements, through the
 * library's own vf_load_pair_bf16 and vf_store_pair_bf16_q (what its bf16 kernels run
 * in their main loop on both x86 arms) where FLOOR_LOOP runs one vector per step. */
#define FLOOR_EVEN_ODD(name, fn)                                                                   \
  __attribute__((noinline)) static void name(const void *xv, void *yv, size_t n) {                 \
    const uint16_t *x = (const uint16_t *)xv;                                                      \
    uint16_t *y = (uint16_t *)yv;                                                                  \
    for (size_t i = 0; i + 2 * VLEN <= n; i += 2 * VLEN) {                                         \
      vf a, b;                                                                                     \
      vf_load_pair_bf16(x + i, &a, &b);                                                            \
      vf_store_pair_bf16_q(y + i, fn(a), fn(b));                                                   \
    }                                                                                              \
  }
FLOOR_EVEN_ODD(eo_copy_bf16, ident)
FLOOR_EVEN_ODD(eo_erf_bf16, erf_fast_bf16_v)
FLOOR_EVEN_ODD(eo_tanh_bf16, tanh_fast_bf16_v)
/* bf16 tanh by f16's core (degrees 2 and 2, 2^-14.4: finer than bf16 needs, other bits than
 * the shipped degrees 1 and 2): the one FMA tanh_fast16.h saves, re-measured */
FLOOR_EVEN_ODD(eo_tanh_f16core_bf16, tanh_fast_f16_v)

/* each core in f32 registers (f32 in, f32 out), through its type's loop, and the
 * library's kernels' shape for comparison */
#define FLOOR_OP(op)                                                                               \
  FLOOR_LOOP(core_##op##_f16_f32, f32, float, op##_fast_f16_v)                                     \
  FLOOR_LOOP(core_##op##_bf16_f32, f32, float, op##_fast_bf16_v)                                   \
  FLOOR_LOOP(core_##op##_f16, f16, uint16_t, op##_fast_f16_v)                                      \
  FLOOR_LOOP(core_##op##_bf16, bf16, uint16_t, op##_fast_bf16_v)
FLOOR_OP(erf)
FLOOR_OP(tanh)
FLOOR_OP(sigmoid)
FLOOR_OP(silu)
FLOOR_OP(quick_gelu)
FLOOR_OP(gelu)
FLOOR_OP(gelu_tanh)
FLOOR_OP(hardsigmoid)
FLOOR_OP(hardswish)
FLOOR_OP(elu)
FLOOR_OP(softplus)
FLOOR_OP(mish)
FLOOR_OP(bias_gelu)
FLOOR_OP(bias_gelu_tanh)

/* the f32 fast gelu one vector per step: the library's loop where the arm does not pipeline
 * it (ACTK_PIPE_f32, src/kernels/pipe_loop.h), and AVX2's before it did */
FLOOR_LOOP(unpiped_gelu_f32, f32, float, gelu_fast_v)

FLOOR_LOOP(rcpcore_sigmoid_f32, f32, float, sigmoid_rcp)
FLOOR_LOOP(rcpcore_sigmoid_f16, f16, uint16_t, sigmoid_rcp)
FLOOR_LOOP(rcpcore_sigmoid_bf16, bf16, uint16_t, sigmoid_rcp)
FLOOR_LOOP(rcpcore_silu_f32, f32, float, silu_rcp)
FLOOR_LOOP(rcpcore_silu_f16, f16, uint16_t, silu_rcp)
FLOOR_LOOP(rcpcore_silu_bf16, bf16, uint16_t, silu_rcp)

#define FLOOR_ROWS(op)                                                                             \
  {"core/" #op "/f16/f32", FLOOR_F32, core_##op##_f16_f32, 0},                                     \
      {"core/" #op "/bf16/f32", FLOOR_F32, core_##op##_bf16_f32, 0},                               \
      {"core/" #op "/f16", FLOOR_F16, core_##op##_f16, 0},                                         \
      {"core/" #op "/bf16", FLOOR_BF16, core_##op##_bf16, 0},

#define FLOOR_RCP_ROWS(op)                                                                         \
  {"rcpcore/" #op "/f32", FLOOR_F32, rcpcore_##op##_f32, 0},                                       \
      {"rcpcore/" #op "/f16", FLOOR_F16, rcpcore_##op##_f16, 0},                                   \
      {"rcpcore/" #op "/bf16", FLOOR_BF16, rcpcore_##op##_bf16, 0},

/* the rows both arms have; an arm's file adds its own after them (floor16_avx512.c:
 * VCVTNEPS2BF16) */
#define FLOOR16_COMMON_ROWS                                                                        \
  {"memcpy/16", FLOOR_F16, memcpy_16, 0}, {"copy/f32", FLOOR_F32, copy_f32, 0},                    \
      {"copy/f16", FLOOR_F16, copy_f16, 0}, {"copy/bf16", FLOOR_BF16, copy_bf16, 0},               \
      {"div/f32", FLOOR_F32, div_f32, 0}, {"rcp/f32", FLOOR_F32, rcp_f32, 0},                      \
      {"unpiped/gelu/f32", FLOOR_F32, unpiped_gelu_f32, 0},                                        \
      FLOOR_ROWS(erf) FLOOR_ROWS(tanh) FLOOR_ROWS(sigmoid) FLOOR_ROWS(silu) FLOOR_ROWS(quick_gelu) \
          FLOOR_ROWS(gelu) FLOOR_ROWS(gelu_tanh) FLOOR_ROWS(hardsigmoid) FLOOR_ROWS(hardswish)     \
              FLOOR_ROWS(elu) FLOOR_ROWS(softplus) FLOOR_ROWS(mish) FLOOR_ROWS(bias_gelu)          \
                  FLOOR_ROWS(bias_gelu_tanh) FLOOR_RCP_ROWS(sigmoid)                               \
                      FLOOR_RCP_ROWS(silu){"eo/copy/bf16", FLOOR_BF16, eo_copy_bf16, 0},           \
      {"eo/erf/bf16", FLOOR_BF16, eo_erf_bf16, 0}, {"eo/tanh/bf16", FLOOR_BF16, eo_tanh_bf16, 0},  \
      {"eo/tanh/bf16/f16core", FLOOR_BF16, eo_tanh_f16core_bf16, 0},

/* the arm's input rounding (the library's narrowing), n a multiple of 2 VLEN */
void FLOOR16_NARROW(const float *x, uint16_t *f16, uint16_t *bf16, size_t n) {
  for (size_t i = 0; i + VLEN <= n; i += VLEN) {
    vf_store_f16(f16 + i, vf_load_f32(x + i));
    vf_store_bf16(bf16 + i, vf_load_f32(x + i));
  }
}
