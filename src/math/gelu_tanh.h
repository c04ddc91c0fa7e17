/* gelu_tanh(x) = 0.5 x (1 + tanh(u)) = x * sigmoid(2u),
 * u = sqrt(2/pi) (x + 0.044715 x^3).
 *
 * For x < 0 the result is about x e^(2u) and its relative error is |2u| times
 * the relative error of 2u (|2u| reaches 142 before the result underflows), so
 * 2u = x (C1 + C3 x^2) is formed as a float pair from pair constants. */
#ifndef ACTK_MATH_GELU_TANH_H
#define ACTK_MATH_GELU_TANH_H

#include "logistic.h"

/* 2 sqrt(2/pi) and 2 sqrt(2/pi) 0.044715 as hi + lo */
#define ACTK_GT_C1_HI 0x1.988454p+0f
#define ACTK_GT_C1_LO -0x1.857936p-25f
#define ACTK_GT_C3_HI 0x1.2444f2p-4f
#define ACTK_GT_C3_LO 0x1.49b16ap-29f

ACTK_INLINE vf gelu_tanh_v(vf x) {
  const vf zero = vf_splat(0.0f);
  /* below -12 the result underflows to -0 and beyond 10 it is x: clamping
   * the argument of the exponential there changes nothing */
  vf xn = vf_max(vf_splat(-12.0f), x);
  vf xc = vf_min(vf_splat(10.0f), xn);
  vf x2h = vf_mul(xc, xc);
  vf x2l = vf_fma(xc, xc, vf_sub(zero, x2h));
  /* w = C1 + C3 x^2 as a pair */
  const vf c3h = vf_splat(ACTK_GT_C3_HI), c1h = vf_splat(ACTK_GT_C1_HI);
  vf ph = vf_mul(c3h, x2h);
  vf pl = vf_fma(c3h, x2h, vf_sub(zero, ph));
  pl = vf_fma(c3h, x2l, vf_fma(vf_splat(ACTK_GT_C3_LO), x2h, pl));
  vf wh = vf_add(c1h, ph); /* TwoSum: either term may be larger */
  vf bb = vf_sub(wh, c1h);
  vf wl = vf_add(vf_sub(c1h, vf_sub(wh, bb)), vf_sub(ph, bb));
  wl = vf_add(wl, vf_add(pl, vf_splat(ACTK_GT_C1_LO)));
  vf zh = vf_mul(xc, wh);
  vf zl = vf_fma(xc, wl, vf_fma(xc, wh, vf_sub(zero, zh)));
  scaled_vf s = x_logistic(xn, zh, zl, -150.0f); /* k >= -217 */
  vf y = scale_down(s.v, s.k);
  return vf_select(vm_ge(x, vf_splat(__builtin_inff())), x, y);
}

#endif
