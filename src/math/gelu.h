/* gelu(x) = x Phi(x), Phi the standard normal CDF; accurate tier.
 *   error:    at most 1.860 ULP over all 2^32 inputs (documented bound 2 ULP).
 *   domain:   any float; |x| is clamped at 15, past which the result is x or
 *             underflows to -0.
 *   specials: NaN -> the same NaN quieted; gelu(+inf) = +inf, gelu(-inf) = -0;
 *             the sign of x is kept (gelu(-0) = -0).
 *
 * With t = |x| and Q(t) = 1 - Phi(t) the upper tail:
 *   x < 0: gelu = -t Q(t)       (tiny: must be right relative to itself)
 *   x > 0: gelu = x - t Q(t)
 * and t Q(t) = K(t) e^(-t^2/2) with K smooth (it tends to 1/sqrt(2 pi)). K is
 * a polynomial in s = t - center on one of eight intervals picked by the
 * exponent and first mantissa bit of t (a shift; s is exact), the first one
 * [0, 0.5) with center 0 and no constant term, so that K keeps its relative
 * accuracy down to t = 0; the others centred near their middle where the
 * constant term is a float (no low part to look up). t^2 is split exactly so
 * e^(-t^2/2) is right to the last bit even at 1e-38. This is the erfc form of
 * the definition: 1 + erf never cancels because it is never formed. One path
 * for every x. */
#ifndef ACTK_MATH_GELU_H
#define ACTK_MATH_GELU_H

#include "coeffs_gelu.h"
#include "exp_core.h"
#include "half_tie.h"

ACTK_INLINE vf gelu_v(vf x) {
  const vf sign = vf_splat(-0.0f);
  /* t^2/2 = 112 already underflows the result to 0 (or leaves x): clamp.
   * NaN survives (vf_min returns its second operand). */
  vf t = vf_min(vf_splat(15.0f), vf_andnot(sign, x));
  vf t2h = vf_mul(t, t);
  /* interval: j = 2 (exponent + 1) + first mantissa bit + 2, 2 at t = 0.5;
   * k = max(j - 3, j / 2) merges [0.5, 1) and [1, 2) into one interval each
   * and [8, 16) too (k = 8 -> 7); t < 0.5 gives k <= 0 -> 0 */
  vi j = vi_sub(vi_srl(vf_bits(t), 22), vi_splat(250));
  vi k = vi_max(vi_sub(j, vi_splat(3)), vi_sra(j, 1));
  k = vi_min(vi_max(k, vi_splat(0)), vi_splat(7));
  vf s = vf_sub(t, vf_lookup8(actk_gelu_center, k)); /* exact (Sterbenz, or center 0) */
  vf q = vf_fma(vf_lookup8(actk_gelu_k7, k), s, vf_lookup8(actk_gelu_k6, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k5, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k4, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k3, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k2, k));
  /* k1 s is exact on [0, 0.5) (t/2), where rest is all of K: the rounding
   * of s^2 then touches only the smaller t^2 part */
  vf rest = vf_fma(q, vf_mul(s, s), vf_mul(vf_lookup8(actk_gelu_k1, k), s));
  const vf k0 = vf_lookup8(actk_gelu_k0, k);
  /* e^(-t^2/2): -t^2/2 = -t2h/2 - zsub, zsub = (t^2 - t2h)/2 exact */
  vf zsub = vf_mul(vf_splat(-0.5f), vf_fnma(t, t, t2h));
  exp_core e = exp_core_of_pow2(t2h, -0.5f, zsub);
  /* T / 2^n = (k0 + rest)(1 + p), rounded once */
  vf v = vf_add(k0, vf_fma(k0, e.p, vf_fma(rest, e.p, rest)));
  vf y;
  if (vm_all(vm_le(t, vf_splat(13.0f)))) { /* 2^n is normal */
    vf s = exp_core_scale(&e);
    y = vf_select_sign(x, vf_mul(vf_sub(vf_splat(0.0f), v), s), vf_fnma(v, s, x));
  } else {
    vi n = exp_core_n(&e);
    vi n1 = vi_max(n, vi_splat(-126));
    vf s1 = exp2i(n1);
    /* x > 0: where n < -126, T is far below half an ulp of x */
    y = vf_select_sign(x, scale_down(vf_mul(vf_sub(vf_splat(0.0f), v), s1), vi_sub(n, n1)),
                       vf_fnma(v, s1, x));
    y = ACTK_NAN_PASSTHROUGH(x, y); /* NaN fails t <= 13 */
  }
  /* gelu(x) has the sign of x: copy it, which makes gelu(-0) = -0 (0 - v
   * gives +0) and gelu(+0) = +0 whatever sign an emulator gives x - 0 (valgrind's
   * fnmadd returns -0 there); a no-op on every other result */
  return vf_or(vf_andnot(sign, y), vf_and(x, sign));
}

/* The 16-bit types' accurate tier: the f32 math, with its ties at x/2
 * settled for the narrowing (half_tie.h): bf16 below 2^-125, f16 where
 * the deviation is lost (below 2^-20); and for the bias ops' f32 sums at x/2
 * (any sum below 2^-20) and at x too. */
ACTK_INLINE vf gelu_v_bf16(vf x) {
  return half_tie(x, gelu_v(x), vf_splat(1.0f), ACTK_TIE_BF16, 0);
}
ACTK_INLINE vf gelu_v_f16(vf x) { return half_tie(x, gelu_v(x), vf_splat(1.0f), ACTK_TIE_LOST, 0); }
ACTK_INLINE vf gelu_sum_v_f16(vf x) {
  return half_tie(x, gelu_v(x), vf_splat(1.0f), ACTK_TIE_LOST, ACTK_AT_X);
}
ACTK_INLINE vf gelu_sum_v_bf16(vf x) {
  return half_tie(x, gelu_v(x), vf_splat(1.0f), ACTK_TIE_LOST, ACTK_AT_X);
}

#endif
