/* gelu(x) = x Phi(x), Phi the standard normal CDF.
 *
 * |x| < 0.65: 0.5 x + x h(x), h = x P(x^2) = 0.5 erf(x / sqrt 2), one rounding.
 * Otherwise, with t = |x| and Q(t) = 1 - Phi(t) the upper tail:
 *   x < 0: gelu = -t Q(t)       (tiny: must be right relative to itself)
 *   x > 0: gelu = x - t Q(t)
 * and t Q(t) = K(t) e^(-t^2/2) with K smooth (it tends to 1/sqrt(2 pi)). K is
 * a polynomial in s = t - center on one of eight intervals picked by the
 * exponent and first mantissa bit of t (a shift; s is exact). t^2 is split
 * exactly so e^(-t^2/2) is right to the last bit even at 1e-38. This is the
 * erfc form of the definition: 1 + erf never cancels because it is never
 * formed. */
#ifndef ACTK_MATH_GELU_H
#define ACTK_MATH_GELU_H

#include "coeffs_gelu.h"
#include "exp_core.h"

ACTK_INLINE vf gelu_v(vf x) {
  const vf sign = vf_splat(-0.0f);
  vf a = vf_andnot(sign, x);
  /* t^2/2 = 112 already underflows the result to 0 (or leaves x): clamp.
   * NaN survives (vf_min returns its second operand). */
  vf t = vf_min(vf_splat(15.0f), a);
  vf t2h = vf_mul(t, t);
  /* small */
  const float *c = actk_gelu_small;
  vf p01 = vf_fma(vf_splat(c[1]), t2h, vf_splat(c[0]));
  vf p23 = vf_fma(vf_splat(c[3]), t2h, vf_splat(c[2]));
  vf t4 = vf_mul(t2h, t2h);
  vf p = vf_fma(vf_fma(vf_splat(c[4]), t4, p23), t4, p01);
  vf ys = vf_fma(x, vf_mul(x, p), vf_mul(vf_splat(0.5f), x));
  ys = vf_or(ys, vf_and(x, sign)); /* gelu(-0) = -0; a no-op for x < 0 otherwise */
  /* interval: k = 2 (exponent + 1) + first mantissa bit, 0 at t = 0.5; the
   * index merges [0.5, 1) and [1, 2) into one interval each */
  vi k = vi_sub(vi_srl(vf_bits(t), 22), vi_splat(252));
  k = vi_max(vi_max(vi_sub(k, vi_splat(2)), vi_sra(k, 1)), vi_splat(0));
  vf s = vf_sub(t, vf_lookup8(actk_gelu_center, k)); /* exact (Sterbenz) */
  vf q = vf_fma(vf_lookup8(actk_gelu_k7, k), s, vf_lookup8(actk_gelu_k6, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k5, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k4, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k3, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k2, k));
  q = vf_fma(q, s, vf_lookup8(actk_gelu_k1, k));
  vf rest = vf_fma(q, s, vf_lookup8(actk_gelu_k0l, k));
  const vf k0 = vf_lookup8(actk_gelu_k0h, k);
  /* e^(-t^2/2): -t^2/2 = -t2h/2 - zsub, zsub = (t^2 - t2h)/2 exact */
  vf zsub = vf_mul(vf_splat(-0.5f), vf_fnma(t, t, t2h));
  exp_core e = exp_core_of(vf_mul(vf_splat(-0.5f), t2h), zsub);
  /* T / 2^n = (k0 + rest)(1 + p), rounded once */
  vf v = vf_add(k0, vf_fma(k0, e.p, vf_fma(rest, e.p, rest)));
  vf yt;
  if (vm_all(vm_le(t, vf_splat(13.0f)))) { /* 2^n is normal */
    vf s = exp_core_scale(&e);
    yt = vf_select_sign(x, vf_mul(vf_sub(vf_splat(0.0f), v), s), vf_fnma(v, s, x));
  } else {
    vi n = exp_core_n(&e);
    vi n1 = vi_max(n, vi_splat(-126));
    vf s1 = exp2i(n1);
    /* x > 0: where n < -126, T is far below half an ulp of x */
    yt = vf_select_sign(x, scale_down(vf_mul(vf_sub(vf_splat(0.0f), v), s1), vi_sub(n, n1)),
                        vf_fnma(v, s1, x));
    yt = ACTK_NAN_PASSTHROUGH(x, yt); /* NaN fails t <= 13 */
  }
  return vf_select(vm_lt(a, vf_splat(ACTK_GELU_SMALL)), ys, yt);
}

#endif
