/* elu(x, alpha) for the 16-bit types, fast tier (exp_fast16.h has the family).
 *   error:    relative about 2^-15 (f16 core: e^r - 1 to 2^-15.56 with Q of degree 2) and
 *             2^-11 (bf16 core: 2^-11.09, Q of degree 1) at alpha 1, a few roundings added:
 *             under the 2^-12 and 2^-9 that make each type faithful once rounded (README
 *             has the measured maxima). x > 0 exact.
 *   domain:   every float and alpha; x clamped at -17.5 (elu.h), NaN and the odd alphas to
 *             elu.h's rare branch, as elu_fast.h does.
 *   specials: those of the accurate tier (elu.h: the same rare branch).
 *
 * elu_fast.h's form with a shorter Q: n = round(x / ln2), r = x - n ln2 (one float ln2),
 * e^r - 1 = p = r (1 + r Q(r)), y = fms(alpha 2^n, p, alpha - alpha 2^n): the f32 fast
 * tier's Q of degree 3 becomes degree 2 (f16) or 1 (bf16). */
#ifndef ACTK_MATH_ELU_FAST16_H
#define ACTK_MATH_ELU_FAST16_H

#include "coeffs_fast16.h"
#include "elu.h"

typedef struct {
  vf r, n, t; /* r = xc - n ln2, n = round(xc / ln2), t = n + ACTK_ROUND_MAGIC */
} elu16_red;

ACTK_INLINE elu16_red elu16_reduce(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  vf xc = vf_max(vf_splat(ACTK_EXPM1_LO), x); /* NaN second: it reaches the special branch */
  elu16_red e;
  e.t = vf_fma(xc, vf_splat(ACTK_LOG2E), magic);
  e.n = vf_sub(e.t, magic);
  e.r = vf_fma(e.n, vf_splat(-ACTK_LN2_F), xc);
  return e;
}

/* alpha (2^n (1 + p) - 1), p = r (1 + r q), rounded once after alpha 2^n p */
ACTK_INLINE vf elu16_join(vf x, vf alpha, const elu16_red *e, vf q) {
  vf p = vf_mul(e->r, vf_fma(e->r, q, vf_splat(1.0f)));
  vf as = vf_ldexp(alpha, e->n, e->t);
  return elu_finish(x, alpha, vf_fms(as, p, vf_sub(alpha, as)));
}

ACTK_INLINE vf elu16_f16_v(vf x, vf alpha) {
  elu16_red e = elu16_reduce(x);
  vf q = vf_fma(vf_splat(ACTK_ELU_F16_Q2), e.r, vf_splat(ACTK_ELU_F16_Q1));
  q = vf_fma(q, e.r, vf_splat(ACTK_ELU_F16_Q0));
  return elu16_join(x, alpha, &e, q);
}

ACTK_INLINE vf elu16_bf16_v(vf x, vf alpha) {
  elu16_red e = elu16_reduce(x);
  vf q = vf_fma(vf_splat(ACTK_ELU_BF16_Q1), e.r, vf_splat(ACTK_ELU_BF16_Q0));
  return elu16_join(x, alpha, &e, q);
}

#endif
