/* tanh(x), accurate tier.
 *   error:    at most 1.12 ULP over all 2^32 inputs (documented bound 2 ULP; docs/accuracy.tsv).
 *   domain:   any float; |x| is clamped at 9.1, where tanh already rounds to 1.
 *   specials: NaN -> the same NaN quieted; tanh(+-inf) = +-1; exactly odd (+-0
 *             kept); tiny x -> x; monotone.
 *
 * Odd: computed on a = |x|, sign copied back. Two forms, each "m plus a quotient that is
 * small beside m", sharing one division; m + m nq is one fma, so the quotient's own errors
 * are damped and that fma is the only full-size rounding:
 *
 *   a <  ln2:  tanh(a) = a - a a^2 / D(a^2)       (m = a, nq = -a^2 / D, |nq| <= 0.16)
 *   a >= ln2:  tanh(a) = 1 - 2 / (S + 1), S = e^2a (m = 1, nq = -2 / (S + 1), |nq| <= 2/5)
 *
 * D(z) = 3 + z (D1 + z D2) ~ a^3 / (a - tanh a), fitted to 2^-21.6 relative (coeffs_tanh.h,
 * tools/fit/fit_tanh.py): D's error reaches the result times 0.16 at most. S = 2^n e^2r with
 * n = floor(2a / ln2), r = a - n ln2/2 in [0, ln2/2] (one fma, ln2 as one float: off by
 * n 2^-29 in S, where 2/(S + 1) damps S's error by 2/S), e^2r by a degree-6 polynomial to
 * 2^-26 relative; S + 1 and the quotient are correctly rounded; S >= 4 there, so a relative error e
 * in S moves the result by at most 2S/(S + 1)^2 e = 8/25 e.
 *
 * Why this form (issue 35): the old range-reduced Pade needed two polynomials and their
 * combinations on both branches: 29 vector operations and a division on AVX-512, this 22
 * (docs/performance.md has the times). One odd rational x P(x^2) / Q(x^2) over the whole range
 * (MLAS, Eigen) is cheaper, but near 1 its rounding errors (ulps of P and Q) exceed the change
 * of tanh from one input to the next, so nothing keeps it within 2 ULP or monotone (MLAS's is off
 * by up to 104 ULP, docs/accuracy.md, and steps down 7.7 million times on [1e-4, 9.1],
 * tools/mlas_tanh_mono.py).
 *
 * Monotone (checked over every float, --mono 1: 0 steps down): with r >= 0 every Horner term
 * of e^2r is >= 0, so each rounded step rises with r between the steps of n; S + 1, the
 * quotient and the fma keep that order. Where n steps, r falls from ln2/2 to 0: the fit sits
 * 2^-26 below e^2r at ln2/2 (less than E's own rounding, so the sweep is the proof there; every
 * float of [1e-4, 9.2] rose even with the fit 2 ulp above e^2r at ln2/2 instead). In the small
 * form, as a steps by one ulp, a (a^2/D) ~ a^3/3 moves by about a^2 <= 0.48 of that ulp (its
 * rounding far less), so a - a (a^2/D) rises with a. NaN: the compare a >= ln2 is false, so the NaN
 * takes the small form and passes every operation as the only NaN operand (or every operand: the
 * same NaN), never as a negated one (D is built with negated coefficients so that no fnma meets
 * it). */
#ifndef ACTK_MATH_TANH_H
#define ACTK_MATH_TANH_H

#include "coeffs_tanh.h"
#include "exp_core.h"

ACTK_INLINE vf tanh_v(vf x) {
  const vf sign = vf_splat(-0.0f), one = vf_splat(1.0f);
  vf a = vf_andnot(sign, x);
  /* NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(9.1f), a);
  /* large form: S = e^2a = 2^n e^2r, n = floor(2a / ln2), r = a - n ln2/2 >= 0 */
  vf n = vf_floor(vf_mul(ac, vf_splat(2.0f * ACTK_LOG2E)));
  vf t = vf_add(n, vf_splat(ACTK_ROUND_MAGIC));
  vf r = vf_fma(n, vf_splat(-0.5f * ACTK_LN2_F), ac);
  vf e = vf_fma(r, vf_splat(ACTK_TANH_E6), vf_splat(ACTK_TANH_E5));
  e = vf_fma(r, e, vf_splat(ACTK_TANH_E4));
  e = vf_fma(r, e, vf_splat(ACTK_TANH_E3));
  e = vf_fma(r, e, vf_splat(ACTK_TANH_E2));
  e = vf_fma(r, e, vf_splat(ACTK_TANH_E1));
  e = vf_fma(r, e, one);
  vf s1 = vf_add(vf_ldexp_exact(e, n, t), one);
  /* small form: -D(a^2), a NaN passing as itself */
  vf z = vf_mul(ac, ac);
  vf dn = vf_fma(z, vf_fma(z, vf_splat(-ACTK_TANH_D2), vf_splat(-ACTK_TANH_D1)),
                 vf_splat(-ACTK_TANH_D0));
  vm big = vm_ge(a, vf_splat(ACTK_LN2_F)); /* false for NaN: the small form carries it */
  /* nq = -2 / (S + 1) or -a^2 / D(a^2); tanh = m + m nq with m = 1 or a */
  vf nq = vf_div(vf_select(big, vf_splat(-2.0f), z), vf_select(big, s1, dn));
  vf m = vf_select(big, one, ac);
  vf y = vf_fma(m, nq, m);
  return vf_or(y, vf_and(x, sign));
}

#endif
