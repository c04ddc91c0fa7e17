/* erf(x), accurate tier.
 *   error:    at most 1.021 ULP over all 2^32 inputs (documented bound 2 ULP).
 *   domain:   any float; |x| is clamped at 4, where erf already rounds to 1.
 *   specials: NaN -> the same NaN quieted; erf(+-inf) = +-1; exactly odd (+-0 kept).
 *
 * Odd: computed on a = |x|, sign copied back. One path: [0, 4) in eight intervals of 0.5, each a
 * degree-6 polynomial P(s) = c0 + s Q(s), s = a - center (coeffs_erf.h). [0, 0.5):  erf(a) = a + a
 * P(a)    (center 0; P = erf(a)/a - 1 in [0.04, 0.13], so the outer fma's rounding is the only
 *              full-size one and the result keeps its relative accuracy
 *              down to subnormal a)
 *   [0.5, 4):  erf(a) = P(s)          (the center a float inside the
 *              interval, so s is exact by Sterbenz, picked near the middle
 *              where P's constant term is a float, so that c0 holds it and
 *              the fma c0 + s Q, the only full-size rounding, is the result;
 *              |s Q| <= 0.19 beside a result >= 0.52)
 * Both are y = u P + v with (u, v) = (a, a) or (1, 0): one fma, the choice
 * made per lane before it rather than two paths computed for every lane and
 * one picked after.
 * Beyond 4, erf rounds to 1; the last polynomial, evaluated at the clamp 4,
 * also rounds to 1. */
#ifndef ACTK_MATH_ERF_H
#define ACTK_MATH_ERF_H

#include "coeffs_erf.h"
#include "vec_contract.h"

ACTK_INLINE vf erf_v(vf x) {
  const vf sign = vf_splat(-0.0f);
  vf a = vf_andnot(sign, x);
  /* NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(4.0f), a);
  /* k = trunc(a / width - 2^-8): a lane just above a boundary takes the
   * interval below, whose fit extends that far; 7 at the clamp; -2^-8 at
   * a = 0 truncates to 0. NaN gives INT_MIN, whose low bits pick 0. */
  vf w = vf_fma(ac, vf_splat(1.0f / ACTK_ERF_WIDTH), vf_splat(-0x1p-8f));
  vi k = vf_to_vi_trunc(w);
  vm first = vm_lt(w, vf_splat(1.0f)); /* the lanes where k = 0, NaN aside */
  vf s = vf_sub(ac, vf_lookup8(actk_erf_center, k));
  vf s2 = vf_mul(s, s);
  vf q12 = vf_fma(vf_lookup8(actk_erf_c2, k), s, vf_lookup8(actk_erf_c1, k));
  vf q34 = vf_fma(vf_lookup8(actk_erf_c4, k), s, vf_lookup8(actk_erf_c3, k));
  vf q56 = vf_fma(vf_lookup8(actk_erf_c6, k), s, vf_lookup8(actk_erf_c5, k));
  vf q = vf_fma(vf_fma(q56, s2, q34), s2, q12);
  vf p = vf_fma(s, q, vf_lookup8(actk_erf_c0, k));
  /* (u, v) = (a, a) on the first interval, (1, +0) past it: y = p there */
  vf y = vf_fma(vf_select(first, ac, vf_splat(1.0f)), p, vf_keep(first, ac));
  return vf_or(y, vf_and(x, sign));
}

#endif
