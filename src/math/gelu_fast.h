/* gelu(x) = x Phi(x), fast tier: relative error <= 2^-18 over all floats (README has the
 * measured maximum). Domain: every float; |x| clamped at 9 (past it the result is x, or the
 * accurate kernel's for x < -9, rare in activations, and NaN). Special values: those of the
 * accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, +-0 -> +-0).
 *
 * The accurate tier's form (gelu.h): with t = |x|, T = t Q(t) = K(t) e^(-t^2/2), Q the upper
 * normal tail, gelu = x - T (x > 0) or -T (x < 0): 1 + erf is never formed. K is a piecewise
 * polynomial of degree 6 on 8 intervals between the roots of t (A + B t) = k (coeffs_fast.h;
 * the first y = t W(t), keeping its relative accuracy to t -> 0), e^(-t^2/2) is exp_fast with
 * t^2 split exactly (fl(t^2) alone would cost 2^-19 at t = 9). */
#ifndef ACTK_MATH_GELU_FAST_H
#define ACTK_MATH_GELU_FAST_H

#include "exp_fast.h"
#include "gelu.h"

ACTK_INLINE vf gelu_fast_v(vf x) {
  const vf sign = vf_splat(-0.0f), half = vf_splat(0.5f);
  vf t = vf_min(vf_splat(ACTK_GELU_FAST_T), vf_andnot(sign, x)); /* NaN: not a fast lane */
  vf t2h = vf_mul(t, t);
  vf t2s = vf_fnma(t, t, t2h); /* t2h - t^2, exact */
  exp_fast e = exp_fast_neg_pair(vf_mul(half, t2h), vf_mul(half, t2s));
  vf g = vf_fma(vf_fma(t, vf_splat(ACTK_GELU_FAST_B), vf_splat(ACTK_GELU_FAST_A)), t,
                vf_splat(-0x1p-8f));
  vi k = vf_to_vi_trunc(g);
  vf s = vf_sub(t, vf_lookup8(actk_gelu_fast_center, k));
  vf w = vf_fma(vf_lookup8(actk_gelu_fast_w5, k), s, vf_lookup8(actk_gelu_fast_w4, k));
  w = vf_fma(w, s, vf_lookup8(actk_gelu_fast_w3, k));
  w = vf_fma(w, s, vf_lookup8(actk_gelu_fast_w2, k));
  w = vf_fma(w, s, vf_lookup8(actk_gelu_fast_w1, k));
  w = vf_fma(w, s, vf_lookup8(actk_gelu_fast_w0, k));
  vf kt = vf_fma(s, w, vf_lookup8(actk_gelu_fast_c0, k));
  vf tq = vf_mul(vf_mul(kt, e.p), exp_fast_scale(&e));
  /* -T keeps gelu(-0) = -0 */
  vf y = vf_select_sign(x, vf_xor(tq, sign), vf_sub(x, tq));
  vm fast = vm_ge(x, vf_splat(-ACTK_GELU_FAST_T));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, gelu_v(x));
}

#endif
