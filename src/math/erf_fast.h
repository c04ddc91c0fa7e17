/* erf(x), fast tier: relative error <= 2^-18 (README has the measured maximum), monotone.
 * Domain: every float; |x| clamped at 3.5, past which the result is 1 (relative error 2^-20.4).
 * Special values: those of the accurate tier: odd (computed on |x|, sign copied back, so
 * +-0 -> +-0), +-Inf -> +-1, NaN -> the same NaN quieted.
 *
 * a = |x| in eight intervals between the roots of g(a) = a (A + B a) = k (B < 0: narrow near
 * 0, where erf(a)/a - 1 is least polynomial, wider out), k = trunc(g - 2^-8) <= 7; each a
 * degree-5 polynomial (coeffs_fast.h): y = V + s W(s), s = a - center. Interval 0: center 0,
 * V = a, W = erf(a)/a - 1 (|a W| <= 0.13 a: the final fma is the only full-size rounding and
 * y keeps its relative accuracy down to subnormal a); the others: V = c0 (the polynomial's
 * constant term), |s W| small beside it. The last polynomial rises to 1 + 2^-23 at the clamp
 * and min(y, 1) holds it at 1 (the limit). */
#ifndef ACTK_MATH_ERF_FAST_H
#define ACTK_MATH_ERF_FAST_H

#include "coeffs_fast.h"
#include "vec_contract.h"

ACTK_INLINE vf erf_fast_v(vf x) {
  const vf sign = vf_splat(-0.0f);
  vf a = vf_andnot(sign, x);
  vf ac = vf_min(vf_splat(ACTK_ERF_FAST_SAT), a); /* NaN passes */
  vf g = vf_fma(vf_fma(ac, vf_splat(ACTK_ERF_FAST_B), vf_splat(ACTK_ERF_FAST_A)), ac,
                vf_splat(-0x1p-8f));
  vi k = vf_to_vi_trunc(g); /* NaN: INT_MIN, whose low bits pick interval 0 */
  vm first = vm_lt(g, vf_splat(1.0f));
  vf s = vf_sub(ac, vf_lookup8(actk_erf_fast_center, k));
  vf w = vf_fma(vf_lookup8(actk_erf_fast_w4, k), s, vf_lookup8(actk_erf_fast_w3, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w2, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w1, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w0, k));
  vf y = vf_fma(s, w, vf_select(first, ac, vf_lookup8(actk_erf_fast_c0, k)));
  y = vf_min(vf_splat(1.0f), y); /* NaN passes */
  return vf_or(y, vf_and(x, sign));
}

#endif
