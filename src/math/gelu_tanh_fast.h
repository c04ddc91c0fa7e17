/* gelu_tanh(x) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), fast tier.
 * Max relative error <= 2^-18 over all floats (README has the measured maximum).
 * Domain: every float; lanes with 2u below -87 (x below -9.9) and NaN take the accurate kernel.
 * Special values: those of the accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, -0 -> -0).
 *
 * y = x / (1 + e^-2u) with one rounding in 1 + E and one division. For x < 0 the result's
 * relative error is |2u| times 2u's own, so 2u = x (C1 + C3 x^2) is formed as a float pair
 * (the accurate tier's construction, gelu_tanh.h) and its low part enters the reduction of
 * exp_fast (degree 5, ln2 as one float). 2u is clamped at 24 from above (E < 2^-34: d rounds
 * to 1 either way). */
#ifndef ACTK_MATH_GELU_TANH_FAST_H
#define ACTK_MATH_GELU_TANH_FAST_H

#include "exp_fast.h"
#include "gelu_tanh.h"

ACTK_INLINE vf gelu_tanh_fast_v(vf x) {
  vf xc = vf_min(vf_splat(10.0f), x); /* NaN passes; past 10 the result is x */
  vf x2h = vf_mul(xc, xc);
  vf x2s = vf_fnma(xc, xc, x2h); /* x2h - x^2, exact */
  const vf c3h = vf_splat(ACTK_GT_C3_HI), c1h = vf_splat(ACTK_GT_C1_HI);
  vf ph = vf_mul(c3h, x2h);
  vf ps = vf_fnma(c3h, x2h, ph); /* ph - c3h x2h, exact */
  vf ls = vf_fnma(vf_splat(ACTK_GT_C3_LO), x2h, vf_fma(c3h, x2s, ps));
  /* w = C1 + C3 x^2 = wh - ws; Fast2Sum, larger term first (either can be) */
  vf wh = vf_add(c1h, ph);
  vf err = vf_add(vf_sub(vf_max(c1h, ph), wh), vf_min(c1h, ph));
  vf ws = vf_sub(ls, vf_add(err, vf_splat(ACTK_GT_C1_LO)));
  /* z = x w = zh - zsub */
  vf zh = vf_mul(xc, wh);
  vf zsub = vf_fma(xc, ws, vf_fnma(xc, wh, zh));
  exp_fast e = exp_fast_neg_pair(vf_min(vf_splat(24.0f), zh), zsub);
  vf y = vf_div(x, vf_fma(exp_fast_scale(&e), e.p, vf_splat(1.0f)));
  vm fast = vm_ge(zh, vf_splat(-87.0f));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, gelu_tanh_v(x));
}

#endif
