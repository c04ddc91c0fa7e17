/* elu(x, alpha), fast tier: one core for f32, f16 and bf16.
 *   error:    relative under 2^-20 over all floats at alpha 1 (e^r - 1's fit 2^-21.1,
 *             coeffs_fast.h, and a few roundings; README has the sweep's maxima; bound 2^-18),
 *             relative down to f32's subnormals (n = 0: p = r (1 + r q) with r = x);
 *             faithful once narrowed to a 16-bit type. x > 0 exact.
 *   specials: those of the accurate tier (elu.h: the same rare branch).
 *
 * As elu.h with one float ln2 in the reduction (off by 1.9e-9: n 2^-28.5 absolute in r, under
 * 2^-24 of the result since |n| <= 25), e^r - 1 = r (1 + r q) of degree 5, alpha 2^n by one
 * ldexp (a VSCALEFPS on AVX-512) and alpha (1 - 2^n) = alpha - alpha 2^n rounded once:
 * y = fms(alpha 2^n, p, alpha - alpha 2^n). */
#ifndef ACTK_MATH_ELU_FAST_H
#define ACTK_MATH_ELU_FAST_H

#include "coeffs_fast.h"
#include "elu.h"

typedef struct {
  vf r, n, t; /* r = xc - n ln2, n = round(xc / ln2), t = n + ACTK_ROUND_MAGIC */
} elu_fast_red;

ACTK_INLINE elu_fast_red elu_fast_reduce(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  vf xc = vf_max(vf_splat(ACTK_EXPM1_LO), x); /* NaN second: it reaches the special branch */
  elu_fast_red e;
  e.t = vf_fma(xc, vf_splat(ACTK_LOG2E), magic);
  e.n = vf_sub(e.t, magic);
  e.r = vf_fma(e.n, vf_splat(-ACTK_LN2_F), xc);
  return e;
}

/* alpha (2^n (1 + p) - 1), p = r (1 + r q), rounded once after alpha 2^n p: at n = 0 the
 * difference is +0 and the result alpha p, zeros keeping the sign of alpha p (alpha < 0 takes
 * x = +-0 here, elu.h) */
ACTK_INLINE vf elu_fast_join(vf x, vf alpha, const elu_fast_red *e, vf q) {
  vf p = vf_mul(e->r, vf_fma(e->r, q, vf_splat(1.0f)));
  vf as = vf_ldexp(alpha, e->n, e->t);
  return elu_finish(x, alpha, vf_fms(as, p, vf_sub(alpha, as)));
}

ACTK_INLINE vf elu_fast_v(vf x, vf alpha) {
  elu_fast_red e = elu_fast_reduce(x);
  vf q = vf_fma(vf_splat(ACTK_FEXPM1_Q3), e.r, vf_splat(ACTK_FEXPM1_Q2));
  q = vf_fma(q, e.r, vf_splat(ACTK_FEXPM1_Q1));
  q = vf_fma(q, e.r, vf_splat(ACTK_FEXPM1_Q0));
  return elu_fast_join(x, alpha, &e, q);
}

#endif
