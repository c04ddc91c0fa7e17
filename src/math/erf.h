/* erf(x), odd: computed on a = |x|, sign copied back.
 *
 * One path: [0, 4) in eight intervals of 0.5, each a degree-6 polynomial P
 * in s = a - center (coeffs_erf.h).
 *   [0, 0.5):  erf(a) = a + a P(a)    (center 0; P = erf(a)/a - 1 in
 *              [0.04, 0.13], so the fma's rounding is the only full-size
 *              one and the result keeps its relative accuracy down to
 *              subnormal a)
 *   [0.5, 4):  erf(a) = c0 + P(s)     (center the middle, so s is exact by
 *              Sterbenz; c0 the float nearest erf(center), P's own constant
 *              term takes up the rest; |P| <= 0.21 beside a result >= 0.52)
 * Both are y = u P + u c0 with (u, c0) = (a, 1) or (1, c0): one fma, the
 * choice made per lane before it rather than two paths computed for every
 * lane and one picked after (the earlier design, a small odd polynomial on
 * [0, 0.754) and degree 5 past it: 10% more time, 1.39 ulp; this: 1.08).
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
  vm first = vm_lt(w, vf_splat(1.0f)); /* exactly the lanes where k = 0 */
  vf s = vf_sub(ac, vf_lookup8(actk_erf_center, k));
  vf s2 = vf_mul(s, s);
  vf p01 = vf_fma(vf_lookup8(actk_erf_p1, k), s, vf_lookup8(actk_erf_p0, k));
  vf p23 = vf_fma(vf_lookup8(actk_erf_p3, k), s, vf_lookup8(actk_erf_p2, k));
  vf p45 = vf_fma(vf_lookup8(actk_erf_p5, k), s, vf_lookup8(actk_erf_p4, k));
  vf p456 = vf_fma(vf_lookup8(actk_erf_p6, k), s2, p45);
  vf p = vf_fma(vf_fma(p456, s2, p23), s2, p01);
  /* (u, u c0) = (a, a) on the first interval (c0 = 1 there), (1, c0) past it */
  vf u = vf_select(first, ac, vf_splat(1.0f));
  vf y = vf_fma(u, p, vf_mul(u, vf_lookup8(actk_erf_c0, k)));
  return vf_or(y, vf_and(x, sign));
}

#endif
