/* erf(x) for the 16-bit types, fast tier (fast16.h).
 *   error:    relative 2^-10.1 (bf16 core) and 2^-13.0 (f16 core) up to where the type's
 *             two values around erf are 1 and the one below (2.10, 2.52); from there the
 *             polynomial rises to 1 at the clamp (up to 2^-8.5 and 2^-11.5 off erf, either
 *             way rounding to one of those two): faithful once rounded for every float
 *             (README has the measured maxima); monotone.
 *   domain:   every float; x clamped to [-A, A] (bf16 2.2, f16 2.6): past it +-1.
 *   specials: odd (an odd polynomial of the clamped x: -0 -> -0), +-Inf -> +-1, NaN -> the
 *             same NaN quieted (the clamps pass it, the products quiet it).
 *
 * y = xc Q(xc^2), Q a polynomial in xc^2 (coeffs_fast16.h): no table, no interval index, no
 * sign handling (odd by construction), nothing but the clamps, the square and the fmas. */
#ifndef ACTK_MATH_ERF_FAST16_H
#define ACTK_MATH_ERF_FAST16_H

#include "coeffs_fast16.h"
#include "vec_contract.h"

ACTK_INLINE vf erf16_bf16_v(vf x) {
  const vf a = vf_splat(ACTK_ERF_BF16_A);
  vf xc = vf_max(vf_splat(-ACTK_ERF_BF16_A), vf_min(a, x)); /* NaN passes */
  vf s = vf_mul(xc, xc);
  vf q = vf_fma(vf_splat(ACTK_ERF_BF16_Q4), s, vf_splat(ACTK_ERF_BF16_Q3));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_BF16_Q2));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_BF16_Q1));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_BF16_Q0));
  return vf_mul(xc, q);
}

ACTK_INLINE vf erf16_f16_v(vf x) {
  const vf a = vf_splat(ACTK_ERF_F16_A);
  vf xc = vf_max(vf_splat(-ACTK_ERF_F16_A), vf_min(a, x)); /* NaN passes */
  vf s = vf_mul(xc, xc);
  vf q = vf_fma(vf_splat(ACTK_ERF_F16_Q6), s, vf_splat(ACTK_ERF_F16_Q5));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_F16_Q4));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_F16_Q3));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_F16_Q2));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_F16_Q1));
  q = vf_fma(q, s, vf_splat(ACTK_ERF_F16_Q0));
  return vf_mul(xc, q);
}

#endif
