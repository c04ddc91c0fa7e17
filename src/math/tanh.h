/* tanh(x), odd: computed on a = |x|, sign copied back.
 *
 * a < 0.6: a + a^3 P(a^2), one rounding.
 * a >= 0.6: 1 - 2 / (1 + e^2a). There tanh >= 0.53 and 2/(1 + e^2a) <= 0.47,
 * so its errors (a division, a rounded exponential) shrink in the result;
 * e^2a takes the one-constant reduction (its relative error, n 2^-28.9,
 * reaches the result divided by e^2a/2), and 2a <= 18.2 keeps 2^n normal.
 * tanh(a) = E / (E + 2), E = e^2a - 1, would need no second path but E's
 * rounding alone costs up to 1.3 ulp near a = 0.06 (2.6 ulp measured).
 * Beyond a = 9.1 the result rounds to 1, so the clamp changes nothing. */
#ifndef ACTK_MATH_TANH_H
#define ACTK_MATH_TANH_H

#include "coeffs_tanh.h"
#include "exp_core.h"

ACTK_INLINE vf tanh_v(vf x) {
  const vf sign = vf_splat(-0.0f), one = vf_splat(1.0f);
  vf a = vf_andnot(sign, x);
  /* small */
  vf w = vf_mul(a, a);
  const float *c = actk_tanh_small;
  vf p01 = vf_fma(vf_splat(c[1]), w, vf_splat(c[0]));
  vf p23 = vf_fma(vf_splat(c[3]), w, vf_splat(c[2]));
  vf w2 = vf_mul(w, w);
  vf p = vf_fma(vf_fma(vf_splat(c[4]), w2, p23), w2, p01);
  vf ys = vf_fma(vf_mul(a, w), p, a);
  /* large: NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(9.1f), a);
  exp_core e = exp_core_coarse_twice(ac); /* e^2a = s (1 + 2p) */
  vf s = exp_core_scale(&e);
  /* 1 + e^2a in one fma (s + 1 is exact up to n = 23, where the 1 stops mattering) */
  vf yl = vf_sub(one, vf_div(vf_splat(2.0f), vf_fma(vf_add(s, s), e.p, vf_add(s, one))));
  vf y = vf_select(vm_lt(a, vf_splat(ACTK_TANH_SMALL)), ys, yl);
  return vf_or(y, vf_and(x, sign));
}

#endif
