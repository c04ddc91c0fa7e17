/* sigmoid(x), swish(x, alpha) = x * sigmoid(alpha x), silu = swish(x, 1),
 * quick_gelu = swish(x, 1.702); accurate tier.
 *   error:    at most 1.717 (sigmoid), 1.715 (silu), 1.779 (quick_gelu) ULP over
 *             all 2^32 inputs (documented bound 2 ULP).
 *   domain:   any float and alpha; alpha x is kept exact as a float pair.
 *   specials: NaN x -> the same NaN quieted; a NaN alpha x that x did not bring
 *             (alpha NaN, 0 * inf) -> the default NaN; sigmoid(+inf) = 1,
 *             sigmoid(-inf) = +0; swish(+-inf) the limits (x or a signed zero);
 *             swish(-0) = -0; sigmoid is monotone. The math: logistic.h. */
#ifndef ACTK_MATH_SIGMOID_H
#define ACTK_MATH_SIGMOID_H

#include "half_tie.h"
#include "logistic.h"
#include "rare_lanes.h"

/* e^-104 already rounds to 0: the clamp never changes a result; k >= -50. */
/* The lanes past the fast range, out of the loop's line (rare_lanes.h says why). */
ACTK_RARE_FN vf sigmoid_general(vm fast, vf y, vf x) {
  logistic_e e = logistic_e_general(x, vf_splat(0.0f), -104.0f);
  vf yg = scale_down(logistic_div1(x, e.eh, e.el), e.k);
  return vf_select(fast, y, ACTK_NAN_PASSTHROUGH(x, yg));
}

ACTK_INLINE vf sigmoid_v(vf x) {
  vf y = logistic_fast_exact(vf_splat(1.0f), x);
  vm fast = logistic_fast_lanes(x);
  if (ACTK_UNLIKELY(!vm_all(fast))) return sigmoid_general(fast, y, x);
  return y;
}

/* alpha * x is kept exact as a pair: rounding it would cost |alpha x| half
 * ulps of relative error on the negative side (40 ulp at alpha x = -80). The
 * clamp at -193.5 = -279.2 ln 2 rounds x e^z to zero for every finite x, as
 * the exact value does, so it never changes a result; k >= -180.
 * fast_y: the caller's logistic_fast (or _exact) x / (1 + e^-z) for this same
 * z = zh - zsub; only its lanes where logistic_fast_lanes(zh) holds are used. */
ACTK_RARE_FN vf swish_general(vm fast, vf yf, vf x, vf zh, vf zsub) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  const vf sign = vf_splat(ACTK_SIGN_MASK);
  /* past the clamp the low part is meaningless (NaN for infinite zh) */
  zsub = vf_keep(vm_lt(vf_and(zh, abs_mask), vf_splat(256.0f)), zsub);
  logistic_e e = logistic_e_general(zh, zsub, -193.5f);
  vf y = vf_or(scale_down(logistic_div(x, zh, e.eh, e.el), e.k), vf_and(x, sign));
  /* x = +-inf with z = +-inf: the limits are x (z > 0) and a signed zero */
  const vf inf = vf_splat(INFINITY);
  /* both infinite; a NaN zh (alpha NaN, or 0 * inf) is not (vf_min passes it) */
  vm special = vm_ge(vf_min(vf_and(x, abs_mask), vf_and(zh, abs_mask)), inf);
  vf lim = vf_select_sign(zh, vf_and(x, sign), x);
  y = vf_select(special, lim, y);
  /* a NaN that x did not bring (alpha NaN, or 0 * inf) is the default NaN:
   * its sign would otherwise depend on each implementation's operand order */
  y = vf_select(vm_isnan(y), vf_splat(actk_qnanf()), y);
  return vf_select(fast, yf, ACTK_NAN_PASSTHROUGH(x, y));
}

ACTK_INLINE vf swish_of(vf x, vf zh, vf zsub, vf fast_y) {
  /* or-ing the sign of x keeps swish(-0) = -0 (a no-op elsewhere: y has the sign of x) */
  vf yf = vf_or(fast_y, vf_and(x, vf_splat(ACTK_SIGN_MASK)));
  vm fast = logistic_fast_lanes(zh);
  if (ACTK_UNLIKELY(!vm_all(fast))) return swish_general(fast, yf, x, zh, zsub);
  return yf;
}

ACTK_INLINE vf swish_v(vf x, vf alpha) {
  vf zh = vf_mul(alpha, x);
  vf zsub = vf_fnma(alpha, x, zh); /* zh - alpha x, exact */
  return swish_of(x, zh, zsub, logistic_fast(x, zh, zsub));
}

/* alpha = 1: z = x is exact, so the fast form takes exp_core_neg_exact (no
 * low part: one fma fewer in the reduction) and the general form gets the
 * constant +0 as its low part (swish_v's x - x would be NaN for infinite x,
 * which swish_of zeroes anyway). */
ACTK_INLINE vf silu_v(vf x) { return swish_of(x, x, vf_splat(0.0f), logistic_fast_exact(x, x)); }

/* quick_gelu = swish with ONNX Runtime QuickGelu's default alpha. */
#define ACTK_QUICK_GELU_ALPHA 1.702f
ACTK_INLINE vf quick_gelu_v(vf x) { return swish_v(x, vf_splat(ACTK_QUICK_GELU_ALPHA)); }

/* The 16-bit types' accurate tier: the f32 math, with its ties at x/2
 * settled for the narrowing (half_tie.h; the deviation from x/2 has alpha's
 * sign). bf16: x/2 is a midpoint only below 2^-125; f16: for silu and
 * quick_gelu only where the deviation is lost (below 2^-20), for swish at
 * any alpha wherever x/2 is a subnormal midpoint (below 2^-13). */
ACTK_INLINE vf silu_v_bf16(vf x) {
  return half_tie(x, silu_v(x), vf_splat(1.0f), ACTK_TIE_BF16, 0);
}
ACTK_INLINE vf silu_v_f16(vf x) { return half_tie(x, silu_v(x), vf_splat(1.0f), ACTK_TIE_LOST, 0); }
ACTK_INLINE vf quick_gelu_v_bf16(vf x) {
  return half_tie(x, quick_gelu_v(x), vf_splat(1.0f), ACTK_TIE_BF16, 0);
}
ACTK_INLINE vf quick_gelu_v_f16(vf x) {
  return half_tie(x, quick_gelu_v(x), vf_splat(1.0f), ACTK_TIE_LOST, 0);
}
ACTK_INLINE vf swish_v_bf16(vf x, vf alpha) {
  return half_tie(x, swish_v(x, alpha), alpha, ACTK_TIE_BF16, 0);
}
ACTK_INLINE vf swish_v_f16(vf x, vf alpha) {
  return half_tie(x, swish_v(x, alpha), alpha, ACTK_TIE_F16, 0);
}

#endif
