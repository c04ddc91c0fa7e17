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
#include "elu_fast.h"

ACTK_INLINE vf elu16_f16_v(vf x, vf alpha) {
  elu_fast_red e = elu_fast_reduce(x);
  vf q = vf_fma(vf_splat(ACTK_ELU_F16_Q2), e.r, vf_splat(ACTK_ELU_F16_Q1));
  q = vf_fma(q, e.r, vf_splat(ACTK_ELU_F16_Q0));
  return elu_fast_join(x, alpha, &e, q);
}

ACTK_INLINE vf elu16_bf16_v(vf x, vf alpha) {
  elu_fast_red e = elu_fast_reduce(x);
  vf q = vf_fma(vf_splat(ACTK_ELU_BF16_Q1), e.r, vf_splat(ACTK_ELU_BF16_Q0));
  return elu_fast_join(x, alpha, &e, q);
}

#endif
