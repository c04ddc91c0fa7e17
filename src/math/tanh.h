/* tanh(x), accurate tier.
 *   error:    at most 1.089 ULP over all 2^32 inputs (documented bound 2 ULP).
 *   domain:   any float; |x| is clamped at 9.1, where tanh already rounds to 1.
 *   specials: NaN -> the same NaN quieted; tanh(+-inf) = +-1; exactly odd (+-0
 *             kept); monotone.
 *
 * Odd: computed on a = |x|, sign copied back. One path, one division. With 2a = n ln2 + 2h, n =
 * floor(2a / ln2), h in [0, ln2/2] (up to rounding), tanh(h) ~ hO / E, the [5/4] Pade approximant
 * (tanh's continued fraction: O = 1 + h^2/9 + h^4/945, E = 1 + 4h^2/9 +
 * h^4/63; relative error 2^-28.9 at h = ln2, 2^-38 at ln2/2), so
 * e^2h ~ (E + hO) / (E - hO) to the same order. With s = 2^n:
 *
 *   n >= 2:  tanh(a) = 1 - num / den,  num = E - hO,
 *            den = (s e^2h + 1)(E - hO)/2 = (s + 1)/2 num + s hO
 *   n <= 1:  h = a (n taken as 0, so den = num + hO = E):
 *            tanh(a) = a - g / den,  g = hE - hO = h^3 (1/3 + 2/135 h^2)
 *
 * Both are a known part minus a quotient that is small beside the result
 * (<= 0.67 of it for n >= 2, shrinking with n; <= 0.16 for n <= 1), so the
 * last subtraction is the only full-size rounding. num is formed as
 * (1 - h) + h^2 (E1 + E2 h^2 - h (O1 + O2 h^2)) (two roundings: 1 - h and
 * the final fma) rather than as E - hO from two rounded parts, and den
 * from num itself: then the result rises with x everywhere (checked over
 * every float) and the max error is 1.09 ulp. h = a - n ln2/2 uses one constant (off by
 * 1.9e-9: a relative error of n 2^-29 in s e^2h, which the first form
 * divides by again). Beyond a = 9.1 the result rounds to 1, so the clamp
 * changes nothing; s stays normal; (s + 1)/2 is exact up to n = 23 and
 * above that the lost 1/2 is under 2^-24 of den. */
#ifndef ACTK_MATH_TANH_H
#define ACTK_MATH_TANH_H

#include "exp_core.h"

#define ACTK_TANH_O1 (1.0f / 9.0f)
#define ACTK_TANH_O2 (1.0f / 945.0f)
#define ACTK_TANH_E1 (4.0f / 9.0f)
#define ACTK_TANH_E2 (1.0f / 63.0f)
/* (E - O) / h^2 = 1/3 + 2/135 h^2 */
#define ACTK_TANH_G0 (1.0f / 3.0f)
#define ACTK_TANH_G1 (2.0f / 135.0f)

ACTK_INLINE vf tanh_v(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC), half = vf_splat(0.5f);
  const vf one = vf_splat(1.0f);
  vf a = vf_andnot(sign, x);
  /* NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(9.1f), a);
  /* n = floor(2a / ln2) */
  vf n = vf_floor(vf_mul(ac, vf_splat(2.0f * ACTK_LOG2E)));
  /* n >= 2 exactly from a >= ln2 (ACTK_LN2_F is the first float where the
   * floor above reaches 2): decided from a, off the dependency chain */
  vm big = vm_ge(a, vf_splat(ACTK_LN2_F));
  /* small lanes take n = 0: h = a exactly, and t = +0 below gives s = 1 */
  vf h = vf_fma(vf_keep(big, n), vf_splat(-0.5f * ACTK_LN2_F), ac);
  vf t = vf_keep(big, vf_add(n, magic));
  vf h2 = vf_mul(h, h), hh2 = vf_mul(h, h2);
  vf ei = vf_fma(h2, vf_splat(ACTK_TANH_E2), vf_splat(ACTK_TANH_E1));
  vf oi = vf_fma(h2, vf_splat(ACTK_TANH_O2), vf_splat(ACTK_TANH_O1));
  vf ho = vf_fma(hh2, oi, h);
  vf num = vf_fma(h2, vf_fnma(h, oi, ei), vf_sub(one, h));
  vf g = vf_mul(hh2, vf_fma(h2, vf_splat(ACTK_TANH_G1), vf_splat(ACTK_TANH_G0)));
  /* s/2 = 2^(n-1) from t's low bits (+0 on small lanes gives 1/2) */
  vf sh = vi_bits(vi_add(vi_sll(vf_bits(t), 23), vf_bits(half)));
  vf den = vf_fma(vf_add(sh, half), num, vf_mul(vf_add(sh, sh), ho));
  vf y = vf_sub(vf_select(big, one, h), vf_div(vf_select(big, num, g), den));
  return vf_or(y, vf_and(x, sign));
}

#endif
