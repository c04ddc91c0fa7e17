/* tanh(x), odd: computed on a = |x|, sign copied back.
 *
 * a < 0.8: a + a (a^2 P(a^2)), one rounding.
 * a >= 0.8: 1 - 2 / (1 + e^2a). There tanh >= 0.66, so the absolute error
 * of 2/(1 + e^2a) (a division and a rounded exponential) costs at most about
 * an ulp of the result; e^2a needs no low part and 2a <= 18.2 keeps 2^n normal.
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
  vf p45 = vf_fma(vf_splat(c[5]), w, vf_splat(c[4]));
  vf w2 = vf_mul(w, w);
  vf p = vf_fma(vf_fma(p45, w2, p23), w2, p01);
  vf ys = vf_fma(a, vf_mul(w, p), a);
  /* large: NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(9.1f), a);
  exp_core e = exp_core_of(vf_add(ac, ac), vf_splat(0.0f));
  vf s = exp_core_scale(&e);
  vf big = vf_fma(s, e.p, s);
  vf yl = vf_sub(one, vf_div(vf_splat(2.0f), vf_add(one, big)));
  vf y = vf_select(vm_lt(a, vf_splat(ACTK_TANH_SMALL)), ys, yl);
  return vf_or(y, vf_and(x, sign));
}

#endif
