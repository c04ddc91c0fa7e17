/* e^-x for the fast tier: relative error 2^-22.2 (floor form, monotone: never rises as x rises)
 * or 2^-23.4 (nearest form), plus n 2^-28.5 from ln2 as one float (coeffs_fast.h).
 * Domain: callers keep n within [-126, 127] (x in [-87.3, 87.3]); no special values (NaN and
 * infinities are kept off this path by its callers).
 *
 * e^-x = 2^n P(r), n from the add-magic trick (t = fl(v) + 1.5 2^23 holds n in its low bits),
 * r = -x - n ln2 by one fma, 2^n by vf_ldexp_exact (one VSCALEFPS on AVX-512, t's bits elsewhere).
 * Floor form (exp_fast_neg, for sigmoid): n = floor(-x / ln2) with the -1/2 of the floor in the
 * first fma, so r in [0, ln2] and every Horner step of P (all terms >= 0) is monotone; P sits a
 * little below e^r at ln2, so where n steps up 2^(n-1) P(ln2^-) stays below 2^n P(0^+).
 * Nearest form (exp_fast_neg_round): n = round(-x / ln2), |r| <= ln2/2, one addition fewer;
 * not monotone near x = 0 (P's rounding steps oppose r there), so only non-monotone ops use it. */
#ifndef ACTK_MATH_EXP_FAST_H
#define ACTK_MATH_EXP_FAST_H

#include "coeffs_fast.h"
#include "exp_core.h"

typedef struct {
  vf p; /* e^r */
  vf n; /* n, an integer-valued float */
  vf t; /* n + ACTK_ROUND_MAGIC */
} exp_fast;

/* e^-x = 2^n p, floor form: P(r) for r = -q, q = x + n ln2 in [-ln2, 0]: each step c - q w. */
ACTK_INLINE exp_fast exp_fast_neg(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast e;
  e.t = vf_add(vf_fma(x, vf_splat(-ACTK_LOG2E), vf_splat(-0.5f)), magic);
  e.n = vf_sub(e.t, magic);
  vf q = vf_fma(e.n, vf_splat(ACTK_LN2_F), x);
  vf w = vf_fnma(q, vf_splat(ACTK_FEXP_C5), vf_splat(ACTK_FEXP_C4));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C3));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C2));
  w = vf_fnma(q, w, vf_splat(ACTK_FEXP_C1));
  e.p = vf_fnma(q, w, vf_splat(1.0f));
  return e;
}

/* e^-x = 2^n p, nearest form: p = P(q), q = x + n ln2 in [-ln2/2, ln2/2], P ~ e^-q. */
ACTK_INLINE exp_fast exp_fast_neg_round(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_fast e;
  e.t = vf_fma(x, vf_splat(-ACTK_LOG2E), magic);
  e.n = vf_sub(e.t, magic);
  vf q = vf_fma(e.n, vf_splat(ACTK_LN2_F), x);
  vf w = vf_fma(vf_splat(ACTK_FEXPR_C5), q, vf_splat(ACTK_FEXPR_C4));
  w = vf_fma(w, q, vf_splat(ACTK_FEXPR_C3));
  w = vf_fma(w, q, vf_splat(ACTK_FEXPR_C2));
  w = vf_fma(w, q, vf_splat(ACTK_FEXPR_C1));
  e.p = vf_fma(w, q, vf_splat(1.0f));
  return e;
}

/* 2^n p + c: p 2^n is exact (a normal float), so one rounding on every implementation. */
ACTK_INLINE vf exp_fast_fma(const exp_fast *e, vf c) {
  return vf_fma(vf_ldexp_exact(vf_splat(1.0f), e->n, e->t), e->p, c);
}

#endif
