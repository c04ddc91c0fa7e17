/* mish(x) = x tanh(softplus(x)) = x tanh(log(1 + e^x)) (torch.nn.Mish); accurate tier.
 *   error:    about 1.3 ULP over all 2^32 inputs (README has the sweep's maxima; documented
 *             bound 2 ULP).
 *   domain:   every float.
 *   specials: NaN x -> the same NaN quieted; +inf -> +inf; -inf -> -0 (the limit; torch gives
 *             NaN there, from -inf * 0); mish(+-0) = +-0; the sign of x is kept (mish < 0 on
 *             x < 0, -0 where a negative result rounds to zero).
 *
 * No logarithm: with u = e^x, tanh(log(1 + u)) = n / (n + 2), n = u (u + 2). In e = e^-|x|
 * (0 < e <= 1: nothing overflows) and v = e (x < 0) or 2e (x >= 0, a scale of 2^n), h = v^2/2:
 *   mish = x A / D, D = 1 + v + h,  A = v + h (x < 0),  A = 1 + v (x >= 0)
 * (n / (n + 2) halved, or divided by u^2 / 2). v = vh + vl comes as a pair (vl: vh's exact
 * rounding error), 1 + v and D = (1 + v) + h by Fast2Sum (v <= 2 and 1 + v >= h, so the
 * order is fixed), A = v + h by Fast2Sum too; q = A / D = q0 + ql with one division (its
 * reciprocal serves twice: q0 = A inv, then the remainder A - q0 D by an fma (exact but on
 * 0.1-0.3% of operands, where q0 is up to 2 ulps off and the remainder needs 25 bits: about
 * 2^-48 of q), with the low parts, times inv), and y = x q0 + x ql is one fma. Left out:
 * h is formed from vh alone, so both its rounding and the cross term vh vl of (vh + vl)^2/2
 * (up to 2^-23 of h) are lost, worst near x = 0.35 (v ~ sqrt 2): up to about 0.71 ULP
 * (recovering the rounding cost 7%); exp's own error (r's and p's roundings, the polynomial's
 * 2^-28.3) passes into q about 1:1 for x < 0. A first-order budget gives 1.375 ULP (x >= 0, at
 * x ~ 0.347) and 1.29 (x < 0, at x ~ -1.04), under the 2 ULP bound (review, 2026-12-02).
 * Tails: for x < 0, mish ~ x e^x; below x = -69 (e^x < 2^-99.5) e is formed at 2^max(n, -100)
 * and the rest of 2^n is applied at the end (scale_down: a subnormal result rounds once more),
 * where A / D = e (1 - e/2 + ...) is e to 2^-100 either way. |x| is clamped at 193.5 =
 * 279.2 ln2: past it |x| e^-|x| < 2^128 2^-279.2 rounds to -0 as the clamped value does, so
 * the clamp never changes a result. For x >= 0, as e falls, D and A both round to 1 + v and
 * y = x once the true deviation 2x e^-2x is under half an ulp of x (from x = 8.71 on: the
 * tier has no clamp there); +inf separately. */
#ifndef ACTK_MATH_MISH_H
#define ACTK_MATH_MISH_H

#include "logistic.h"

/* x A / D for v = vh + vl (see above). */
ACTK_INLINE vf mish_core(vf x, vf vh, vf vl) {
  const vf one = vf_splat(1.0f);
  /* h = v^2 / 2, rounded (see above) */
  vf hv = vf_mul(vf_splat(0.5f), vh);
  vf hh = vf_mul(hv, vh);
  /* 1 + v: Fast2Sum (v <= 2); D = (1 + v) + h: Fast2Sum (1 + v >= h for v <= 2) */
  vf s1 = vf_add(one, vh);
  vf s1l = vf_add(vf_add(vf_sub(one, s1), vh), vl);
  vf dh = vf_add(s1, hh);
  vf dl = vf_add(vf_add(vf_sub(s1, dh), hh), s1l);
  /* A = v + h for x < 0 (Fast2Sum: v >= h for v <= 1), 1 + v for x >= 0 */
  vf an = vf_add(vh, hh);
  vf ah = vf_select_sign(x, an, s1);
  vf al = vf_select_sign(x, vf_add(vf_add(vf_sub(vh, an), hh), vl), s1l);
  /* q = A / D = q0 + ql: the remainder A - q0 D, its first part exact by the fma */
  vf inv = vf_div(one, dh);
  vf q0 = vf_mul(ah, inv);
  vf rem = vf_fnma(q0, dl, vf_add(vf_fnma(q0, dh, ah), al));
  /* x q rounded once (x ql is 2^-23 below it) */
  return vf_fma(x, q0, vf_mul(x, vf_mul(rem, inv)));
}

/* v's scale: 2 for x >= 0, 1 for x < 0 */
ACTK_INLINE vf mish_m(vf x) { return vf_select_sign(x, vf_splat(1.0f), vf_splat(2.0f)); }

ACTK_INLINE vf mish_v(vf x) {
  const vf sign = vf_splat(ACTK_SIGN_MASK), zero = vf_splat(0.0f);
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  vf a = vf_andnot(sign, x);
  vf xs = vf_and(x, sign);
  /* |x| <= 69: n >= -100, so vh is normal and vl too */
  vm fast = vm_le(a, vf_splat(69.0f));
  if (vm_all(fast)) {
    exp_core c = exp_core_neg_exact(a);
    logistic_e v = logistic_e_of(vf_ldexp_exact(mish_m(x), vf_sub(c.t, magic), c.t), c.p);
    return vf_or(mish_core(x, v.eh, v.el), xs);
  }
  /* any lane: |x| clamped (a NaN passes: the clamp takes it second) */
  exp_core c = exp_core_neg_exact(vf_min(vf_splat(193.5f), a));
  vi n = exp_core_n(&c);
  vi n1 = vi_max(n, vi_splat(-100));
  logistic_e v = logistic_e_of(vf_mul(mish_m(x), exp2i(n1)), c.p);
  vi k = vf_bits(vf_select_sign(x, vi_bits(vi_sub(n, n1)), zero)); /* x >= 0: v's scale unused */
  vf y = vf_or(scale_down(mish_core(x, v.eh, v.el), k), xs);
  /* +-inf: the limits +inf and -0 (the core forms inf * 0) */
  vm inf = vm_eq(a, vf_splat(INFINITY));
  y = vf_select(inf, vf_select_sign(x, xs, x), y);
  return ACTK_NAN_PASSTHROUGH(x, y);
}

/* The fast tiers' tail (mish_fast.h, mish_fast16.h): x n / (n + 2), n = u (u + 2), u = e^x.
 * u + 2 keeps u's relative accuracy, each step is one rounding. */
ACTK_INLINE vf mish_of_exp(vf x, vf u) {
  const vf two = vf_splat(2.0f);
  vf n = vf_mul(u, vf_add(u, two));
  return vf_mul(x, vf_div(n, vf_add(n, two)));
}

#endif
