/* erf(x), odd: computed on |x|, sign copied back.
 *
 * |x| < 0.754: erf(a) = a + a P(a^2), one rounding at the end.
 * [0.75, 4): eight intervals of 0.40625, each a degree-5 polynomial in
 * s = a - center. Each center is a float near the middle of its interval
 * where the fit's constant term is a float (to 2^-36), so it needs no low
 * part (one lookup fewer: 3% of erf's time) and the final addition is the
 * only rounding that matters (the result is in [0.71, 1)); s is exact
 * (Sterbenz).
 * Its absolute error, 2^-24.3, is spent on purpose: degree 6 (2^-28, 0.72
 * ulp overall) cost 12% more time; this gives 1.39 ulp. Both polynomials go
 * Estrin-style: the dependency chain, more than the op count, limits the loop.
 * Beyond 4, erf rounds to 1; the polynomial of the last interval, evaluated
 * at the clamp 4, also rounds to 1. */
#ifndef ACTK_MATH_ERF_H
#define ACTK_MATH_ERF_H

#include "coeffs_erf.h"
#include "vec_contract.h"

#define ACTK_ROUND_MAGIC_ERF 0x1.8p23f /* v + magic rounds v to an integer in the low bits */

ACTK_INLINE vf erf_v(vf x) {
  const vf sign = vf_splat(-0.0f);
  vf a = vf_andnot(sign, x);
  /* small */
  vf w = vf_mul(a, a);
  const float *c = actk_erf_small;
  vf p01 = vf_fma(vf_splat(c[1]), w, vf_splat(c[0]));
  vf p23 = vf_fma(vf_splat(c[3]), w, vf_splat(c[2]));
  vf p45 = vf_fma(vf_splat(c[5]), w, vf_splat(c[4]));
  vf w2 = vf_mul(w, w);
  vf p = vf_fma(vf_fma(p45, w2, p23), w2, p01);
  vf ys = vf_fma(a, p, a);
  /* tail: NaN survives the clamp (vf_min returns its second operand) */
  vf ac = vf_min(vf_splat(4.0f), a);
  /* k = round((a - lo) / width - 0.5 - 2^-8) lands in the low bits of u
   * (the add-magic trick; the lookup reads k mod 8). Lanes just above a
   * boundary may take the interval below, whose fit extends that far; at
   * the clamp 4, k = 7; small lanes get any k and are not selected. */
  vf v = vf_fma(ac, vf_splat(1.0f / ACTK_ERF_TAIL_WIDTH),
                vf_splat(-ACTK_ERF_TAIL_LO / ACTK_ERF_TAIL_WIDTH - 0.5f - 0x1p-8f));
  vi k = vf_bits(vf_add(v, vf_splat(ACTK_ROUND_MAGIC_ERF)));
  vf s = vf_sub(ac, vf_lookup8(actk_erf_center, k)); /* exact (Sterbenz) */
  vf s2 = vf_mul(s, s);
  vf q45 = vf_fma(vf_lookup8(actk_erf_c5, k), s, vf_lookup8(actk_erf_c4, k));
  vf q23 = vf_fma(vf_lookup8(actk_erf_c3, k), s, vf_lookup8(actk_erf_c2, k));
  vf q01 = vf_mul(vf_lookup8(actk_erf_c1, k), s);
  vf q = vf_fma(vf_fma(q45, s2, q23), s2, q01);
  vf yt = vf_add(vf_lookup8(actk_erf_c0, k), q);
  vf y = vf_select(vm_lt(a, vf_splat(ACTK_ERF_SMALL)), ys, yt);
  return vf_or(y, vf_and(x, sign));
}

#endif
