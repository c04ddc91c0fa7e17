/* gelu_tanh(x) = 0.5 x (1 + tanh(u)) = x * sigmoid(2u),
 * u = sqrt(2/pi) (x + 0.044715 x^3); accurate tier.
 *   error:    at most 1.882 ULP over all 2^32 inputs (documented bound 2 ULP).
 *   domain:   any float; x is clamped to [-12, 10] inside the exponential,
 *             past which the result is -0 or x.
 *   specials: NaN -> the same NaN quieted; gelu_tanh(+inf) = +inf,
 *             gelu_tanh(-inf) = -0, gelu_tanh(-0) = -0.
 *
 * For x < 0 the result is about x e^(2u) and its relative error is |2u| times
 * the relative error of 2u (|2u| reaches 142 before the result underflows), so
 * 2u = x (C1 + C3 x^2) is formed as a float pair from pair constants. */
#ifndef ACTK_MATH_GELU_TANH_H
#define ACTK_MATH_GELU_TANH_H

#include "half_tie.h"
#include "logistic.h"
#include "rare_lanes.h"

/* 2 sqrt(2/pi) and 2 sqrt(2/pi) 0.044715 as hi + lo */
#define ACTK_GT_C1_HI (0x1.988454p+0f)
#define ACTK_GT_C1_LO (-0x1.857936p-25f)
#define ACTK_GT_C3_HI (0x1.2444f2p-4f)
#define ACTK_GT_C3_LO (0x1.49b16ap-29f)

/* The lanes past the fast range, out of the loop's line (rare_lanes.h says why). */
ACTK_RARE_FN vf gelu_tanh_general(vm fast, vf yf, vf x, vf xn, vf zh, vf zsub) {
  logistic_e e = logistic_e_general(zh, zsub, -150.0f); /* k >= -117 */
  vf y =
      vf_or(scale_down(logistic_div(xn, zh, e.eh, e.el), e.k), vf_and(x, vf_splat(ACTK_SIGN_MASK)));
  y = vf_select(vm_ge(x, vf_splat(INFINITY)), x, y);
  return vf_select(fast, yf, ACTK_NAN_PASSTHROUGH(x, y));
}

ACTK_INLINE vf gelu_tanh_v(vf x) {
  /* below -12 the result underflows to -0 and beyond 10 it is x: clamping
   * the argument of the exponential there changes nothing */
  vf xn = vf_max(vf_splat(-12.0f), x);
  vf xc = vf_min(vf_splat(10.0f), xn);
  /* Low parts are kept negated ("to subtract"), which is what fnma gives. */
  vf x2h = vf_mul(xc, xc);
  vf x2s = vf_fnma(xc, xc, x2h); /* x2h - x^2, exact */
  const vf c3h = vf_splat(ACTK_GT_C3_HI), c1h = vf_splat(ACTK_GT_C1_HI);
  vf ph = vf_mul(c3h, x2h);
  vf ps = vf_fnma(c3h, x2h, ph); /* ph - c3h x2h, exact */
  vf ls = vf_fnma(vf_splat(ACTK_GT_C3_LO), x2h, vf_fma(c3h, x2s, ps));
  /* w = C1 + C3 x^2 = wh - ws; Fast2Sum, larger term first (either can be) */
  vf wh = vf_add(c1h, ph);
  vf err = vf_add(vf_sub(vf_max(c1h, ph), wh), vf_min(c1h, ph));
  /* the two constant-side terms first: off ls's chain (2% faster) */
  vf ws = vf_sub(ls, vf_add(err, vf_splat(ACTK_GT_C1_LO)));
  /* z = x w = zh - zsub */
  vf zh = vf_mul(xc, wh);
  vf zsub = vf_fma(xc, ws, vf_fnma(xc, wh, zh));
  const vf sign = vf_splat(ACTK_SIGN_MASK);
  /* or-ing the sign of x keeps gelu_tanh(-0) = -0 (a no-op elsewhere) */
  vf yf = vf_or(logistic_fast_wide(xn, zh, zsub), vf_and(x, sign));
  vm fast = logistic_wide_lanes(zh); /* +inf is not: |z(10)| > 87 */
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu_tanh_general(fast, yf, x, xn, zh, zsub);
  return yf;
}

/* The 16-bit types' accurate tier: the f32 math, with its ties at x/2
 * settled for the narrowing (half_tie.h), as gelu's: bf16 below 2^-125, f16 where
 * the deviation is lost (below 2^-20); and for the bias ops' f32 sums at x/2
 * (any sum below 2^-20) and at x too. */
ACTK_INLINE vf gelu_tanh_v_bf16(vf x) {
  return half_tie(x, gelu_tanh_v(x), vf_splat(1.0f), ACTK_TIE_BF16, 0);
}
ACTK_INLINE vf gelu_tanh_v_f16(vf x) {
  return half_tie(x, gelu_tanh_v(x), vf_splat(1.0f), ACTK_TIE_LOST, 0);
}
ACTK_INLINE vf gelu_tanh_sum_v_f16(vf x) {
  return half_tie(x, gelu_tanh_v(x), vf_splat(1.0f), ACTK_TIE_LOST, ACTK_AT_X);
}
ACTK_INLINE vf gelu_tanh_sum_v_bf16(vf x) {
  return half_tie(x, gelu_tanh_v(x), vf_splat(1.0f), ACTK_TIE_LOST, ACTK_AT_X);
}

#endif
