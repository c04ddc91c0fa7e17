/* e^-x for the fast tier: relative error 2^-22.2 (the polynomial) + n 2^-28.5 (ln2 as one
 * float), and monotone: it never rises as x rises.
 * Domain: callers keep -x/ln2 within [-126, 127.9] (x in [-88.6, 87.3]); no special values
 * (NaN and infinities are kept off this path by its callers).
 *
 * e^-x = 2^n P(r), n = floor(-x / ln2) and r = -x - n ln2 in [0, ln2] (up to rounding). The
 * floor rather than the nearest integer puts r >= 0, where P's Horner steps (all terms >= 0)
 * are each monotone; P (coeffs_fast.h) sits a little below e^r at ln2, so where n steps up
 * 2^(n-1) P(ln2^-) stays below 2^n P(0^+). n comes from the add-magic trick with the -1/2 of
 * the floor folded into the fma: t = fl(-x log2e - 1/2) + 1.5 2^23 holds n in its low bits. */
#ifndef ACTK_MATH_EXP_FAST_H
#define ACTK_MATH_EXP_FAST_H

#include "coeffs_fast.h"
#include "exp_core.h"

typedef struct {
  vf p; /* e^r, in [1, 2] */
  vf t; /* n + ACTK_ROUND_MAGIC */
} exp_fast;

/* P(r) for r = -q, q in [-ln2, 0] (q = x + n ln2): every step c - q w = c + r w. */
ACTK_INLINE vf exp_fast_poly_neg(vf q) {
  vf w = vf_fnma(q, vf_splat(ACTK_FEXP_C5), vf_splat(ACTK_FEXP_C4));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C3));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C2));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C1));
  return vf_fnma(q, w, vf_splat(1.0f));
}

/* e^-x = 2^n p. */
ACTK_INLINE exp_fast exp_fast_neg(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast e;
  e.t = vf_add(vf_fma(x, vf_splat(-ACTK_LOG2E), vf_splat(-0.5f)), magic);
  vf n = vf_sub(e.t, magic);
  e.p = exp_fast_poly_neg(vf_fma(n, vf_splat(ACTK_LN2_F), x));
  return e;
}

/* e^-(x - xsub) for a pair (xsub small beside x, the low part to subtract). */
ACTK_INLINE exp_fast exp_fast_neg_pair(vf x, vf xsub) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast e;
  e.t = vf_add(vf_fma(x, vf_splat(-ACTK_LOG2E), vf_splat(-0.5f)), magic);
  vf n = vf_sub(e.t, magic);
  e.p = exp_fast_poly_neg(vf_sub(vf_fma(n, vf_splat(ACTK_LN2_F), x), xsub));
  return e;
}

/* 2^n (n in [-126, 127]). */
ACTK_INLINE vf exp_fast_scale(const exp_fast *e) {
  return vi_bits(vi_add(vi_sll(vf_bits(e->t), 23), vf_bits(vf_splat(1.0f))));
}

#endif
