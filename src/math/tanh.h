/* tanh(x) = (1 - e) / (1 + e), e = e^-2|x|, with the sign of x.
 *
 * e = 2^n (1 + p) with p = e^r - 1 known to ~2^-40 relative, so
 * 1 - e = (1 - 2^n) - 2^n p is formed as an exact pair (Fast2Sum: the first
 * term is 0 or at least 0.5, the second at most 0.21) and keeps full relative
 * precision however small |x| is: one formula for the whole range, rounded
 * once by div_corrected. */
#ifndef ACTK_MATH_TANH_H
#define ACTK_MATH_TANH_H

#include "logistic.h"

/* tanh(10) = 1 - 4e-9 already rounds to 1: the clamp never changes a result. */
ACTK_INLINE vf tanh_v(vf x) {
  const vf sign = vf_splat(ACTK_SIGN_MASK), one = vf_splat(1.0f);
  vf a = vf_andnot(sign, x);
  logistic_den den = logistic_den_of(vf_add(a, a), vf_splat(0.0f), -20.0f);
  vf s = exp2i(den.p.n); /* n >= -29 here */
  vf c = vf_sub(one, s);
  vf cl = vf_sub(vf_sub(one, c), s); /* 1 - 2^n is inexact below n = -24 */
  vf sp = vf_mul(s, den.p.ph);
  vf nh = vf_sub(c, sp);
  vf nl = vf_add(vf_sub(vf_sub(vf_sub(c, nh), sp), vf_mul(s, den.p.pl)), cl);
  vf v = div_corrected(nh, nl, &den);
  return vf_or(v, vf_and(x, sign));
}

#endif
