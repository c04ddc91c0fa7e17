/* gelu_tanh(x) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), fast tier.
 * Relative error 2^-20.63 over all floats (bound 2^-18).
 * Domain: every float; lanes below x = -10 (2u < -87) and NaN take the accurate kernel; past
 * x = 10 the exponential's argument is clamped (the result is x). Special values: those of the
 * accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, -0 -> -0).
 *
 * y = x / (1 + 2^v), v = -2u log2(e), 16 v = x w, w = D1 + D3 x^2 (coeffs_fast.h, scaled by 16:
 * exact): one rounding in 1 + 2^v and one division. For x < 0 the result's relative error is |v|
 * ln2 times v's own absolute error over |v| (|v| reaches 126), so 16 v - n (n = round(16 v)) is
 * formed from pairs: x^2 as an exact pair, wh = fl(D3 x2h + D1h) with its rounding error recovered
 * by one fma (wh - D1h is exact: D1h lies on the grid of wh's ulp, gen_fast.py), the low parts D3
 * x2l + D1l + D3l x2h (+ that error) in wl (x wl < 2^-12, so round(x wh) is n to within the fit's
 * margin), and f = 16 v - n = fma(x, wl, fma(x, wh, -n)) (x wh - n exact before its rounding). 2^v
 * = 2^(n/16) 2^(f/16): 2^(n/16) from sigmoid's 16-entry table (exp_fast_pow16: |16 v| <= 2016 for
 * |x| <= 10), 2^(f/16) by a degree-2 polynomial on |f| <= 1/2 (2^-21.1), where 2^(v - n) took a
 * degree-5 one and 2^n a VSCALEFPS: three FMAs fewer (docs/performance.md). */
#ifndef ACTK_MATH_GELU_TANH_FAST_H
#define ACTK_MATH_GELU_TANH_FAST_H

#include "coeffs_fast.h"
#include "exp_fast.h"
#include "gelu_tanh.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(gelu_tanh_fast_v_rare, gelu_tanh_v)

ACTK_INLINE vf gelu_tanh_fast_v(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  const vf d3 = vf_splat(ACTK_GT_FAST_D3H), d1h = vf_splat(ACTK_GT_FAST_D1H);
  vf xc = vf_min(vf_splat(10.0f), x); /* NaN passes: not a fast lane */
  vf x2h = vf_mul(xc, xc);
  vf x2l = vf_fms(xc, xc, x2h); /* x^2 - x2h, exact */
  vf wh = vf_fma(d3, x2h, d1h);
  vf e = vf_fma(d3, x2h, vf_sub(d1h, wh)); /* D3 x2h + D1h - wh */
  vf wl = vf_add(
      vf_fma(d3, x2l, vf_fma(vf_splat(ACTK_GT_FAST_D3L), x2h, vf_splat(ACTK_GT_FAST_D1L))), e);
  vf t = vf_fma(xc, wh, magic);                            /* n = round(16 v) in t's low bits */
  vf f = vf_fma(xc, wl, vf_fms(xc, wh, vf_sub(t, magic))); /* 16 v - n */
  vf p = vf_fma(vf_fma(vf_splat(ACTK_GT_FAST_C2), f, vf_splat(ACTK_GT_FAST_C1)), f,
                vf_splat(1.0f)); /* 2^(f/16) */
  vf y = vf_div(x, vf_fma(exp_fast_pow16(t), p, vf_splat(1.0f)));
  vm fast = vm_ge(x, vf_splat(-10.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu_tanh_fast_v_rare(fast, y, x);
  return y;
}

#endif
