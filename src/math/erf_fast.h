/* erf(x), fast tier: relative error 2^-19.84 over all floats (bound 2^-18), monotone.
 * Domain: every float; |x| clamped at ACTK_ERF_FAST_SAT (3.4544), the first float where the
 * result is 1 (the limit; 1 - erf there is 2^-19.9). Special values: those of the accurate tier:
 * odd (computed on |x|, sign copied back, so +-0 -> +-0), +-Inf -> +-1, NaN -> the same NaN.
 *
 * a = |x| in 8 intervals of 1/2: k = round(2a) (add-magic: the index is t's low bits, no
 * convert), s = 2a - k in [-1/2, 1/2], exact (one fma; no center table), and on each a
 * polynomial of degree 5 (coeffs_fast.h): y = V + s W(s), W of degree 4. Interval 0: V = s = 2a,
 * W = erf(a)/s - 1 (|s W| < s/2: y keeps its relative accuracy down to subnormal a, and the
 * final fma is the only full-size rounding); the others: V = c0, a float near erf(k/2), with
 * |s W| small beside it. V = max(c0, s) picks s on interval 0 (its c0 is 0) and c0 elsewhere
 * (c0 >= 1/2 >= s): one operation. Where the index steps, c0 above the step is raised (by
 * up to 10 ulp, gen_fast.py compares the kernel's own results on each side) so the result never
 * steps down there; the last polynomial rises to 1 at the clamp, and no result exceeds 1 (the
 * sweep checks both). */
#ifndef ACTK_MATH_ERF_FAST_H
#define ACTK_MATH_ERF_FAST_H

#include "coeffs_fast.h"
#include "exp_core.h"

ACTK_INLINE vf erf_fast_v(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC);
  const vf scale = vf_splat(ACTK_ERF_FAST_A);
  vf ac = vf_min(vf_splat(ACTK_ERF_FAST_SAT), vf_andnot(sign, x)); /* NaN passes */
  vf t = vf_fma(ac, scale, magic);
  vi k = vf_bits(t); /* NaN: any index; every operation below carries the NaN */
  vf s = vf_fma(ac, scale, vf_sub(magic, t));
  vf w = vf_fma(vf_lookup8(actk_erf_fast_w4, k), s, vf_lookup8(actk_erf_fast_w3, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w2, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w1, k));
  w = vf_fma(w, s, vf_lookup8(actk_erf_fast_w0, k));
  vf y = vf_fma(s, w, vf_max(vf_lookup8(actk_erf_fast_c0, k), s)); /* NaN passes */
  return vf_or(y, vf_and(x, sign));
}

#endif
