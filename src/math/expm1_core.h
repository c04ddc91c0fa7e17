/* e^x - 1 without cancellation, as parts the caller combines with its own factor.
 *   error:    the parts give e^x - 1 = s (r + w) - (1 - s) to a relative 2^-28 of e^r in
 *             p = r + w (exp_core.h's Q; w is rounded once, r once where n != 0, never where
 *             n = 0), so an expm1 formed from them with one final rounding is within about
 *             0.6 ulp; elu.h measures its use over all floats (README).
 *   domain:   x in [-17.5, 88.7] (n = round(x / ln2) in [-25, 128]; s = 2^n by
 *             vf_ldexp_exact, exact for n in [-126, 127]); callers clamp below at -17.5,
 *             where e^x - 1 already rounds to -1 in float, and keep NaN and +-inf off it or
 *             select them away (they give NaN or garbage parts, no trap).
 *   specials: none of its own; p(+-0) = r + w is +0 either way (w >= 0), see elu.h.
 *
 * n = round(x / ln2) by the add-magic trick, r = x - n ln2 with ln2 in two pieces (n ln2_hi
 * exact, x - n ln2_hi exact, one rounding for n ln2_lo; none at all where n = 0: r = x),
 * e^r - 1 = r + w, w = r^2 Q(r) (exp_core.h's coefficients). Then e^x - 1 = 2^n (1 + p) - 1
 * = s p - (1 - s): for n = 0 p IS e^x - 1 (no cancellation near 0, subnormal x included:
 * r = x, w underflows to 0), and 1 - s is exact for n in [-24, 0] (1 - 2^n fits 24 bits).
 * At n = -25 (x in [-17.5, -16.98]) 1 - s rounds to 1: the 2^-25 it drops is within 0.71 ulp
 * of the true -1 + e^x (README's sweep of elu has the maxima). The caller subtracts c (1 - s),
 * +0 at n = 0, by an fnma: v - c (+0) = v for c > 0, so a zero v (an underflow) keeps its
 * sign, where adding c (s - 1) = +0 would make -0 + +0 = +0. */
#ifndef ACTK_MATH_EXPM1_CORE_H
#define ACTK_MATH_EXPM1_CORE_H

#include "exp_core.h"

/* Below it, fl(e^x - 1) = -1 (e^x < 2^-25.2); n = -25 there. */
#define ACTK_EXPM1_LO (-17.5f)

typedef struct {
  vf s;   /* 2^n */
  vf oms; /* 1 - s, exact for n in [-24, 0] */
  vf r;   /* x - n ln2, exactly x where n = 0 */
  vf w;   /* r^2 Q(r): e^r - 1 = r + w */
} expm1_parts;

ACTK_INLINE expm1_parts expm1_core(vf x) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  expm1_parts e;
  vf t = vf_fma(x, vf_splat(ACTK_LOG2E), magic);
  vf n = vf_sub(t, magic);
  e.r = vf_fma(n, vf_splat(-ACTK_LN2_LO), vf_fma(n, vf_splat(-ACTK_LN2_HI), x));
  vf r2 = vf_mul(e.r, e.r);
  vf q01 = vf_fma(vf_splat(ACTK_EXP_Q1), e.r, vf_splat(ACTK_EXP_Q0));
  vf q23 = vf_fma(vf_splat(ACTK_EXP_Q3), e.r, vf_splat(ACTK_EXP_Q2));
  q23 = vf_fma(vf_splat(ACTK_EXP_Q4), r2, q23);
  e.w = vf_mul(r2, vf_fma(q23, r2, q01));
  e.s = vf_ldexp_exact(vf_splat(1.0f), n, t); /* one VSCALEFPS on AVX-512 */
  e.oms = vf_sub(vf_splat(1.0f), e.s);
  return e;
}

/* c (e^x - 1) from the parts, for a float c > 0: c s is exact (c 2^n, unless it leaves the
 * normal range), c s (r + w) is summed with one rounding of c s w and one of c s r + that, and
 * c (1 - s) goes in by the final fnma, exactly: where n = 0 (1 - s = 0) two roundings of a
 * cancellation-free sum, elsewhere the final rounding plus those of a term mostly under half
 * the result, under 1 ulp in all (README). */
ACTK_INLINE vf expm1_times(const expm1_parts *e, vf c) {
  vf cs = vf_mul(c, e->s);
  vf v = vf_fma(cs, e->r, vf_mul(cs, e->w));
  return vf_fnma(c, e->oms, v);
}

#endif
