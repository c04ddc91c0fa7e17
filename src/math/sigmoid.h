/* sigmoid(x) and swish(x, alpha) = x * sigmoid(alpha x). */
#ifndef ACTK_MATH_SIGMOID_H
#define ACTK_MATH_SIGMOID_H

#include "logistic.h"

/* e^-104 already rounds to 0, so the clamp never changes a result; k >= -150. */
ACTK_INLINE vf sigmoid_v(vf x) {
  scaled_vf s = logistic(x, vf_splat(0.0f), -104.0f);
  return scale_down(s.v, s.k);
}

/* alpha * x is kept exact as a pair: a rounded product would cost |alpha x|
 * half-ulps of relative error on the negative side (40 ulp at alpha x = -80).
 * The clamp at -193.5 = -279.2 ln 2 rounds x e^z to zero for every finite x,
 * as the exact value does, so it never changes a result; k >= -280. */
ACTK_INLINE vf swish_v(vf x, vf alpha) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  vf zh = vf_mul(alpha, x);
  vf zl = vf_fma(alpha, x, vf_sub(vf_splat(0.0f), zh));
  /* past the clamp the low part is meaningless (or NaN), and not needed */
  zl = vf_keep(vm_lt(vf_and(zh, abs_mask), vf_splat(256.0f)), zl);
  scaled_vf s = x_logistic(x, zh, zl, -193.5f);
  vf y = scale_down_wide(s.v, s.k);
  /* x = +-inf with z = +-inf: the limits are x (z > 0) and a signed zero */
  const vf inf = vf_splat(__builtin_inff());
  vm special = vm_ge(vf_and(x, vf_and(zh, abs_mask)), inf);
  vf lim = vf_select(vm_lt(zh, vf_splat(0.0f)), vf_and(x, vf_splat(ACTK_SIGN_MASK)), x);
  return vf_select(special, lim, y);
}

#endif
