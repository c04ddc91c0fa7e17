/* tanh(x), odd: computed on a = |x|, sign copied back.
 *
 * One path, one division. With 2a = n ln2 + 2h, n = floor(2a / ln2) and
 * 0 <= h < ln2/2, tanh(h) ~ R(h) = h O(h^2) / E(h^2), the [5/4] Pade
 * approximant (relative error 2^-28.9 at h = ln2; tanh's own continued
 * fraction, so E + h O over E - h O is e^2h to the same order). Then
 *
 *   n <= 1 (a < ln2):  tanh(a) = a - a^3 G / E,  G = (E - O) / h^2, h = a;
 *   n >= 2:            tanh(a) = 1 - (E - hO) / den,
 *                      den = (2^n + 1)/2 E + (2^n - 1)/2 hO
 *                      (= (s e^2h + 1) (E - hO) / 2 with s = 2^n).
 *
 * Both are "known part minus a small quotient": every rounding before the
 * division reaches the result scaled by quotient / result (<= 0.16 for
 * n <= 1, <= 0.67 for n >= 2, shrinking with n), so the last subtraction is
 * the only full-size rounding: 1.29 ulp measured. Small lanes take n = 0, so
 * den = E there and the two forms differ only in the numerator and the known
 * part. h = a - n ln2/2 uses one constant (off by 1.9e-9: a relative error of
 * n 2^-29.9 in e^2a, which the second form divides by e^2a again). Beyond
 * a = 9.1 the result rounds to 1, so the clamp changes nothing; 2^n stays
 * normal and 2^n +- 1 exact (n <= 26: the 1 matters only below n = 24). */
#ifndef ACTK_MATH_TANH_H
#define ACTK_MATH_TANH_H

#include "exp_core.h"

/* [5/4] Pade of tanh: O = 1 + h^2/9 + h^4/945, E = 1 + 4h^2/9 + h^4/63 */
#define ACTK_TANH_O1 (1.0f / 9.0f)
#define ACTK_TANH_O2 (1.0f / 945.0f)
#define ACTK_TANH_E1 (4.0f / 9.0f)
#define ACTK_TANH_E2 (1.0f / 63.0f)
/* G = E1 - O1 + (E2 - O2) h^2 = 1/3 + 2/135 h^2 */
#define ACTK_TANH_G0 (1.0f / 3.0f)
#define ACTK_TANH_G1 (2.0f / 135.0f)

ACTK_INLINE vf tanh_v(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC), half = vf_splat(0.5f);
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
  vf e = vf_fma(h2, vf_fma(h2, vf_splat(ACTK_TANH_E2), vf_splat(ACTK_TANH_E1)), vf_splat(1.0f));
  vf ho = vf_fma(hh2, vf_fma(h2, vf_splat(ACTK_TANH_O2), vf_splat(ACTK_TANH_O1)), h);
  vf g = vf_mul(hh2, vf_fma(h2, vf_splat(ACTK_TANH_G1), vf_splat(ACTK_TANH_G0)));
  /* s/2 = 2^(n-1) from t's low bits (+0 on small lanes gives 1/2: den = E) */
  vf sh = vi_bits(vi_add(vi_sll(vf_bits(t), 23), vf_bits(half)));
  vf den = vf_fma(vf_add(sh, half), e, vf_mul(vf_sub(sh, half), ho));
  vf num = vf_select(big, vf_sub(e, ho), g);
  vf y = vf_sub(vf_select(big, vf_splat(1.0f), h), vf_div(num, den));
  return vf_or(y, vf_and(x, sign));
}

#endif
