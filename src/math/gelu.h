/* gelu(x) = x Phi(x), Phi the standard normal CDF.
 *
 * |x| < 0.65: 0.5 x + x h(x), h = x P(x^2) = 0.5 erf(x / sqrt 2), one rounding.
 * Otherwise, with t = |x| and Q(t) = 1 - Phi(t) the upper tail:
 *   x < 0: gelu = -t Q(t)       (tiny: must be right relative to itself)
 *   x > 0: gelu = x - t Q(t)
 * and t Q(t) = K(t) e^(-t^2/2) with K smooth (it tends to 1/sqrt(2 pi)):
 * K is a polynomial in w = (t - 4)/(t + 4), the exponential comes from
 * exp_parts with t^2 split exactly into a pair, so the product is right to
 * the last bit even where e^(-t^2/2) is 1e-40. This is the erfc form of the
 * definition: 1 + erf never cancels because it is never formed. */
#ifndef ACTK_MATH_GELU_H
#define ACTK_MATH_GELU_H

#include "coeffs_gelu.h"
#include "exp_parts.h"

ACTK_INLINE vf gelu_v(vf x) {
  const vf sign = vf_splat(-0.0f), zero = vf_splat(0.0f);
  vf a = vf_andnot(sign, x);
  /* t^2/2 = 112 already underflows the result to 0 (or leaves x): clamp */
  vf t = vf_min(vf_splat(15.0f), a);
  vf t2h = vf_mul(t, t);
  vf t2l = vf_fma(t, t, vf_sub(zero, t2h));
  /* small */
  const float *c = actk_gelu_small;
  vf p = vf_fma(vf_splat(c[4]), t2h, vf_splat(c[3]));
  p = vf_fma(p, t2h, vf_splat(c[2]));
  p = vf_fma(p, t2h, vf_splat(c[1]));
  p = vf_fma(p, t2h, vf_splat(c[0]));
  vf ys = vf_fma(x, vf_mul(x, p), vf_mul(vf_splat(0.5f), x));
  ys = vf_or(ys, vf_and(x, sign)); /* gelu(-0) = -0; no-op for x < 0 otherwise */
  /* tail: K(w) = K0 + w P(w) */
  const vf A = vf_splat(ACTK_GELU_A);
  vf w = vf_div(vf_sub(t, A), vf_add(t, A));
  const float *k = actk_gelu_k;
  vf q = vf_fma(vf_splat(k[9]), w, vf_splat(k[8]));
  for (int i = 7; i >= 0; i--) q = vf_fma(q, w, vf_splat(k[i]));
  vf rest = vf_fma(q, w, vf_splat(ACTK_GELU_K0_LO));
  const vf k0 = vf_splat(ACTK_GELU_K0_HI);
  exp_parts e = exp_parts_of(vf_mul(vf_splat(-0.5f), t2h), vf_mul(vf_splat(-0.5f), t2l));
  /* T = (K0 + rest)(m + ml) 2^n, rounded once */
  vf m, ml;
  exp_parts_m(&e, &m, &ml);
  /* ml carries the low parts of t^2 and reaches 2^-17: keep rest * ml */
  vf v = vf_fma(k0, m, vf_fma(rest, m, vf_mul(vf_add(k0, rest), ml)));
  vi n1 = vi_max(e.n, vi_splat(-126));
  vf s1 = exp2i(n1);
  vf yneg = vf_mul(vf_mul(vf_sub(zero, v), s1), exp2i(vi_sub(e.n, n1)));
  vf ypos = vf_fnma(v, s1, x); /* where n < -126, T is far below half an ulp of x */
  vf yt = vf_select(vm_lt(x, zero), yneg, ypos);
  return vf_select(vm_lt(a, vf_splat(ACTK_GELU_SMALL)), ys, yt);
}

#endif
