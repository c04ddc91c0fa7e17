/* e^-x for the fast tier: relative error 2^-20.9 (floor form, monotone: never rises as x rises)
 * or 2^-21.1 (nearest form), plus n 2^-28.5 from ln2 as one float (coeffs_fast.h; n counts steps
 * of ln2).
 * Domain: callers keep the result's exponent within [-126, 127] (x in [-87.3, 87.3]); no special
 * values (NaN and infinities are kept off this path by its callers).
 *
 * n from the add-magic trick (t = fl(v) + 1.5 2^23 holds n in its low bits), r by one fma.
 * Floor form (exp_fast_neg, for sigmoid): e^-x = 2^(n/16) P(r), n = floor(-16 x / ln2) with the
 * -1/2 of the floor in the first fma, r in [0, ln2/16]: 2^(n/16) is a 16-entry table's entry
 * n & 15 (vf_lookup16) with n >> 4 added to its exponent, both from t's bits shifted left by 19
 * (the table is stored less j << 19); P of degree 2, all its terms >= 0, so every Horner step is
 * monotone, and P sits below e^r at ln2/16 by more than the table's rounding, so where n steps
 * 2^((n-1)/16) P(ln2/16^-) stays below 2^(n/16) P(0^+). Measured against the degree-5 form on
 * [0, ln2] with a VSCALEFPS (Zen 4, 64 Ki, one thread, actk_ratio): sigmoid 0.238 -> 0.193
 * ns/element on AVX-512, 0.271 -> 0.241 on AVX2 (three FMAs fewer for a table lookup; gelu
 * takes the same table, docs/performance.md).
 * Nearest form (exp_fast_neg_round_lut, for silu, swish, quick_gelu, swiglu, mish and
 * softplus): n = round(-16 x / ln2) by one fma (no -1/2), |r| <= ln2/32, P of degree 2 fitted
 * freely; the same lever as sigmoid's, against 2^n times a degree-5 P on |r| <= ln2/2 with a
 * VSCALEFPS (Zen 4, 64 Ki, ns/element, AVX-512 and AVX2): silu 0.252 -> 0.192 and 0.239 ->
 * 0.219 (the floor form measured 0.203 and 0.242 there), mish 0.302 -> 0.239 and 0.338 ->
 * 0.316, softplus 0.427 -> 0.369 and 0.571 -> 0.523 (docs/performance.md). Not monotone near
 * x = 0 (P's rounding steps oppose r there), so only non-monotone ops use it. */
#ifndef ACTK_MATH_EXP_FAST_H
#define ACTK_MATH_EXP_FAST_H

#include "coeffs_fast.h"
#include "exp_core.h"

/* 2^(n/16) for t = n + ACTK_ROUND_MAGIC, n in [-2016, 2047] (n >> 4 within [-126, 127]): the
 * table's rounding of 2^((n & 15)/16) with n >> 4 added to its exponent, both by one integer
 * addition of t's bits shifted left by 19 (n's low 4 bits cancel the table's j << 19). */
ACTK_INLINE vf exp_fast_pow16(vf t) {
  vi tb = vf_bits(t);
  return vi_bits(vi_add(vi_sll(tb, 19), vf_bits(vf_lookup16(actk_fexpt_tab, tb))));
}

/* e^-x = s p, floor form: s = 2^(n/16) (the table's rounding of it), p = P(r) for r = -q,
 * q = x + n ln2/16 in [-ln2/16, 0]: each step c - q w. */
typedef struct {
  vf p; /* e^r */
  vf s; /* 2^(n/16), a normal float */
} exp_fast_lut;

ACTK_INLINE exp_fast_lut exp_fast_neg(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast_lut e;
  vf t = vf_add(vf_fma(x, vf_splat(-16.0f * ACTK_LOG2E), vf_splat(-0.5f)), magic);
  vf q = vf_fma(vf_sub(t, magic), vf_splat(ACTK_LN2_F / 16.0f), x);
  vf w = vf_fnma(q, vf_splat(ACTK_FEXPT_C2), vf_splat(ACTK_FEXPT_C1));
  e.p = vf_fnma(q, w, vf_splat(1.0f));
  e.s = exp_fast_pow16(t);
  return e;
}

/* e^-x = s p, nearest form of the same table: s = 2^(n/16), n = round(-16 x / ln2) by one fma,
 * p = P(q) ~ e^-q for q = x + n ln2/16 in [-ln2/32, ln2/32]. One addition fewer than the floor
 * form (no -1/2); not monotone (P's rounding steps oppose q where n steps). */
ACTK_INLINE exp_fast_lut exp_fast_neg_round_lut(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast_lut e;
  vf t = vf_fma(x, vf_splat(-16.0f * ACTK_LOG2E), magic);
  vf q = vf_fma(vf_sub(t, magic), vf_splat(ACTK_LN2_F / 16.0f), x);
  vf w = vf_fma(q, vf_splat(ACTK_FEXPTN_C2), vf_splat(ACTK_FEXPTN_C1));
  e.p = vf_fma(q, w, vf_splat(1.0f));
  e.s = exp_fast_pow16(t);
  return e;
}

/* s p + c with one rounding. */
ACTK_INLINE vf exp_fast_lut_fma(const exp_fast_lut *e, vf c) { return vf_fma(e->s, e->p, c); }

#endif
