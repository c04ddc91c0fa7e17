/* The fast tier's f32 cores for the 16-bit types (<op>_fast16.h; src/ops.toml
 * names each kernel's core in its math field), and e^z for them (below).
 *   error:    faithful on all 65536 inputs of each type, and on every float
 *             input of the bias ops' sums (README has each op's measured
 *             maximum in ULP of the type and its share correctly rounded).
 *   domain:   every float (each core's header has its clamps and the lanes
 *             it hands to the accurate kernel).
 *   specials: those of the accurate tier, NaN bits included.
 *
 * Each core is the cheapest measured to keep its type faithful: a relative
 * error under 2^-9 (bf16) or 2^-12 (f16) is faithful for every input, so
 * the cores aim at about 2^-10 and 2^-13. erf and bf16 tanh: one odd
 * polynomial of the clamped x; f16 tanh: a rational; sigmoid, silu, swish,
 * quick_gelu and gelu_tanh: one cubic exp and one division, the same core for
 * both types; gelu: e^G(t), G one polynomial for log Phi(-t). No tables, no
 * interval index, no float pairs.
 *
 * e^z for those cores:
 *   error:    relative 2^-13.25 (a cubic after a round-to-nearest reduction; ln2 as one
 *             float adds |n| 2^-28.5): a twelfth of f16's half ULP, a hundredth of bf16's.
 *   domain:   callers keep z/ln2 within [-126, 126] (|z| <= 87): 2^n is built from bits.
 *   specials: none (callers keep NaN and infinities off these paths, or select them away).
 *
 * The fast f32 tier's exp (exp_fast.h) has degree 5 and a floor reduction for monotony;
 * 16-bit results need neither (a monotone f32 result is not what makes the rounded one
 * monotone; tests/test_types.c checks the 16-bit results). */
#ifndef ACTK_MATH_EXP_FAST16_H
#define ACTK_MATH_EXP_FAST16_H

#include "coeffs_fast16.h"
#include "exp_core.h"

/* 1.5 2^23 + 127: z/ln2 + ACTK_EXP16_MAGIC rounds to an integer in the low mantissa bits,
 * and holds n + 127 there, so that 2^n is those bits shifted to the exponent field (no add). */
#define ACTK_EXP16_MAGIC 0x1.8000fep+23f

typedef struct {
  vf p; /* e^r, r in [-ln2/2, ln2/2] */
  vf t; /* n + ACTK_EXP16_MAGIC */
} exp16;

/* e^-z = 2^n p, n = round(-z / ln2), q = z + n ln2 = -r, p = 1 - q (C1 - q (C2 - q C3)). */
ACTK_INLINE exp16 exp16_neg(vf z) {
  const vf magic = vf_splat(ACTK_EXP16_MAGIC);
  exp16 e;
  e.t = vf_fma(z, vf_splat(-ACTK_LOG2E), magic);
  vf q = vf_fma(vf_sub(e.t, magic), vf_splat(ACTK_LN2_F), z);
  vf w = vf_fnma(q, vf_splat(ACTK_EXP16_C3), vf_splat(ACTK_EXP16_C2));
  w = vf_fnma(q, w, vf_splat(ACTK_EXP16_C1));
  e.p = vf_fnma(q, w, vf_splat(1.0f));
  return e;
}

/* e^g = 2^n p, n = round(g / ln2), r = g - n ln2, p = 1 + r (C1 + r (C2 + r C3)). */
ACTK_INLINE exp16 exp16_pos(vf g) {
  const vf magic = vf_splat(ACTK_EXP16_MAGIC);
  exp16 e;
  e.t = vf_fma(g, vf_splat(ACTK_LOG2E), magic);
  vf r = vf_fnma(vf_sub(e.t, magic), vf_splat(ACTK_LN2_F), g);
  vf w = vf_fma(r, vf_splat(ACTK_EXP16_C3), vf_splat(ACTK_EXP16_C2));
  w = vf_fma(r, w, vf_splat(ACTK_EXP16_C1));
  e.p = vf_fma(r, w, vf_splat(1.0f));
  return e;
}

/* 2^n (n in [-126, 127]): t's low mantissa bits, n + 127, shifted into the exponent. */
ACTK_INLINE vf exp16_scale(const exp16 *e) { return vi_bits(vi_sll(vf_bits(e->t), 23)); }

/* 1 + e^-z with one rounding. */
ACTK_INLINE vf exp16_one_plus(vf z) {
  exp16 e = exp16_neg(z);
  return vf_fma(exp16_scale(&e), e.p, vf_splat(1.0f));
}

#endif
