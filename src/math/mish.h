/* mish(x) = x tanh(softplus(x)) = x tanh(log(1 + e^x)) (torch.nn.Mish); accurate tier.
 *   error:    under 2 ULP over all 2^32 inputs (README has the sweep's maxima; documented
 *             bound 2 ULP).
 *   domain:   every float.
 *   specials: NaN x -> the same NaN quieted; +inf -> +inf; -inf -> -0 (the limit; torch gives
 *             NaN there, from -inf * 0); mish(+-0) = +-0; the sign of x is kept (mish < 0 on
 *             x < 0, -0 where a negative result rounds to zero).
 *
 * No logarithm: with u = e^x, tanh(log(1 + u)) = n / (n + 2), n = u (u + 2). In e = e^-|x|
 * (0 < e <= 1, so nothing overflows and every term below is at most 5):
 *   x < 0:  mish = x A / (A + B), A = 2e + e^2,  B = 2
 *   x >= 0: mish = x A / (A + B), A = 1 + 2e,    B = 2e^2  (n / (n + 2) divided by u^2)
 * e = eh + el comes as a pair (el: eh's exact rounding error), A and B as pairs (every
 * rounding of them recovered exactly: Fast2Sum, fma remainders), D = A + B by Fast2Sum on
 * (max, min), and x A / D goes through one division whose remainder takes back the roundings
 * of the product x Ah, of D and of the quotient (logistic_div's scheme), so the result is
 * nearly correctly rounded.
 * Tails: for x < 0, mish ~ x e^x; below x = -69 (e^x < 2^-99.5) e is formed at 2^max(n, -100)
 * and the rest of 2^n is applied at the end (scale_down: a subnormal result rounds once),
 * where A / D = e (1 - e/2 + ...) is e to 2^-100 either way. -|x| is clamped at -193.5 = -279.2
 * ln2: past it |x| e^x < 2^128 2^-279.2 rounds to -0 as the clamped value does, so the clamp
 * never changes a result. For x >= 0 past 69, B underflows and A rounds to 1: y = x. */
#ifndef ACTK_MATH_MISH_H
#define ACTK_MATH_MISH_H

#include "logistic.h"

/* x A / (A + B) for e = eh + el = e^-|x| (see above); the sign of zero not yet settled. */
ACTK_INLINE vf mish_core(vf x, vf eh, vf el) {
  const vf zero = vf_splat(0.0f), one = vf_splat(1.0f), two = vf_splat(2.0f);
  vf e2 = vf_add(eh, eh);
  /* A = c + 2e + w e: (c, w) = (0, e) for x < 0, (1, 0) for x >= 0 */
  vf c = vf_select_sign(x, zero, one);
  vf w = vf_select_sign(x, eh, zero);
  vf th = vf_add(c, e2);
  vf tl = vf_add(vf_sub(c, th), e2); /* Fast2Sum: c = 1 >= 2e, or c = 0 */
  vf ah = vf_fma(eh, w, th);
  /* eh w + th - ah: th - ah exact (Sterbenz: ah within [th, 1.5 th]) */
  vf al = vf_add(vf_fma(eh, w, vf_sub(th, ah)), tl);
  al = vf_fma(el, vf_fma(two, w, two), al); /* el A'(e) */
  /* B = 2 for x < 0; 2 e^2 for x >= 0 */
  vf sq = vf_mul(eh, eh);
  vf bh = vf_select_sign(x, two, vf_add(sq, sq));
  vf bl = vf_fma(e2, el, vf_fms(eh, eh, sq)); /* (e^2 - sq) / 1, to first order */
  bl = vf_select_sign(x, zero, vf_add(bl, bl));
  /* D = A + B: Fast2Sum on the larger first */
  vf dh = vf_add(ah, bh);
  vf dl = vf_add(vf_sub(vf_max(ah, bh), dh), vf_min(ah, bh));
  dl = vf_add(dl, vf_add(al, bl));
  /* x A / D with one division: q0 = x ah / dh, then the remainder
   * (x ah - q0 dh) + x al - q0 dl, the first exact from two fmas */
  vf nh = vf_mul(x, ah);
  vf inv = vf_div(one, dh);
  vf q0 = vf_mul(nh, inv);
  vf rem = vf_sub(vf_fnma(q0, dh, nh), vf_fnma(x, ah, nh));
  rem = vf_fma(x, al, rem);
  vf corr = vf_fnma(q0, dl, rem);
  return vf_fma(corr, inv, q0);
}

ACTK_INLINE vf mish_v(vf x) {
  const vf sign = vf_splat(ACTK_SIGN_MASK), zero = vf_splat(0.0f);
  vf z = vf_or(x, sign); /* -|x| */
  vf xs = vf_and(x, sign);
  /* |x| <= 69: n >= -100, so eh is normal and el too */
  vm fast = vm_ge(z, vf_splat(-69.0f));
  if (vm_all(fast)) {
    exp_core c = exp_core_of(z, zero);
    logistic_e e = logistic_e_of(exp_core_scale(&c), c.p);
    return vf_or(mish_core(x, e.eh, e.el), xs);
  }
  /* any lane: -|x| clamped (a NaN passes: the clamp takes it second) */
  exp_core c = exp_core_of(vf_max(vf_splat(-193.5f), z), zero);
  vi n = exp_core_n(&c);
  vi n1 = vi_max(n, vi_splat(-100));
  logistic_e e = logistic_e_of(exp2i(n1), c.p);
  vi k = vf_bits(vf_select_sign(x, vi_bits(vi_sub(n, n1)), zero)); /* x >= 0: e's scale unused */
  vf y = vf_or(scale_down(mish_core(x, e.eh, e.el), k), xs);
  /* +-inf: the limits +inf and -0 (the core forms inf - inf) */
  vm inf = vm_eq(z, vf_splat(-__builtin_inff()));
  y = vf_select(inf, vf_select_sign(x, xs, x), y);
  return ACTK_NAN_PASSTHROUGH(x, y);
}

#endif
