/* tanh(x), fast tier: relative error 2^-20.50 over all floats (bound 2^-18), monotone.
 * Domain: every float; |x| clamped at 9, where the result rounds to 1 (the limit).
 * Special values: those of the accurate tier: odd (computed on |x|, sign copied back, so
 * +-0 -> +-0 and tiny x -> x), +-Inf -> +-1, NaN -> the same NaN quieted.
 *
 * tanh(a) = m / (2 - m), m = 1 - e^-2a, a = |x|. e^-2a = 2^n e^-2r: n = round(-2a / ln2)
 * (add-magic), r = a + n ln2/2 by one fma (|r| <= ln2/4; ln2 as one float: n 2^-28.5), and
 * p = -expm1(-2r)/2 = r + r^2 Q(r) (coeffs_fast.h), Estrin-style (the division waits on it: the
 * chain's length costs time here). Then m = (1 - 2^n) + 2^(n+1) p in one fma: 1 - 2^n is exact
 * (0 for small a, where m = 2p = 2a (1 + ...) keeps its relative accuracy down to subnormal a).
 * m never falls as a rises (p rises with r between the steps of n; the sweep checks the steps)
 * and m / (2 - m) rises with m, each correctly rounded: tanh never steps down. No table, one
 * division. */
#ifndef ACTK_MATH_TANH_FAST_H
#define ACTK_MATH_TANH_FAST_H

#include "coeffs_fast.h"
#include "exp_core.h"

ACTK_INLINE vf tanh_fast_v(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC), one = vf_splat(1.0f);
  vf ac = vf_min(vf_splat(9.0f), vf_andnot(sign, x)); /* NaN passes */
  vf t = vf_fma(ac, vf_splat(-2.0f * ACTK_LOG2E), magic);
  vf n = vf_sub(t, magic);
  vf r = vf_fma(n, vf_splat(0.5f * ACTK_LN2_F), ac);
  vf r2 = vf_mul(r, r);
  vf q = vf_fma(vf_fma(vf_splat(ACTK_FTANH_Q3), r, vf_splat(ACTK_FTANH_Q2)), r2,
                vf_fma(vf_splat(ACTK_FTANH_Q1), r, vf_splat(ACTK_FTANH_Q0)));
  vf p = vf_fma(r2, q, r);
  vf s2 = vf_ldexp_exact(vf_splat(2.0f), n, t); /* 2^(n+1) */
  vf m = vf_fma(s2, p, vf_fnma(vf_splat(0.5f), s2, one));
  vf y = vf_div(m, vf_sub(vf_splat(2.0f), m));
  return vf_or(y, vf_and(x, sign));
}

#endif
