/* log1p(u) for u in [0, 1]: the core of softplus (log(1 + e^x) = max(x, 0) + log1p(e^-|x|)),
 * written once for every op that takes a log1p of an exponential (mish, ...).
 *   error:    log1p_unit (accurate): u given as an unevaluated pair uh + ul (|ul| at most
 *             about ulp(uh)), the result under 1 ulp of log1p(uh + ul): softplus for x < 0
 *             is this sum of u = e^x, measured at most 0.980 ULP over those floats (exp's
 *             error included), the largest near f = 1/2, where f^2 Q is a quarter of the
 *             result (the polynomial's 2^-29.9, the rounding of Q's evaluation and of the
 *             low terms, then the last addition: half an ulp); log1p_unit2 gives the sum
 *             unrounded, as hi + lo. log1p_unit_fast: one float u, relative error about
 *             2^-19.4 (the polynomial's 2^-19.53 and three roundings; softplus's fast tier
 *             measured 2^-19.36 with its exp).
 *   domain:   uh in [0, 1] (0 and subnormal uh included: the result is then u itself, to
 *             its last bit); no special values (NaN and infinities are kept off this path by
 *             its callers: softplus.h).
 *
 * Reduction without a rounding: 1 + u = 2^k (1 + f) with
 *   k = 0, f = u            for u < 1/2   (f in [0, 1/2))
 *   k = 1, f = (u - 1) / 2  for u >= 1/2  (f in [-1/4, 0]; u - 1 is exact by Sterbenz, the
 *                                          halving too: fms(u, 1/2, 1/2) rounds nothing)
 * so f is u's own bits (no Fast2Sum of 1 + u is needed: its rounding never happens) and the
 * low part of u goes along as c = ul 2^-k, folded back as c / (1 + f) ~ c (1 - f + f^2)
 * (the rest, c f^3 / (1 + f), is up to c / 12 at f = 1/2, but c is itself about 2^-24 of u:
 * the exact c / (1 + f) measured 0.960 ULP against 0.980 for softplus's maximum). log(1 + f) = f +
 * f^2 Q(f) with Q a minimax fit on
 * [-1/4, 1/2] for the relative error of f + f^2 Q (Lawson's iteration, coefficients rounded to
 * float one at a time, the rest refitted): degree 9 for 2^-29.9 (accurate), degree 5 for
 * 2^-19.5 (fast). [-1/4, 1/2] is as wide as fdlibm's [sqrt(1/2) - 1, sqrt 2 - 1] (0.75
 * against 0.71) and the fit came out as good (a polynomial was measured against
 * s = f / (2 + f): the division costs more than the five extra terms on AVX-512).
 * k ln2 joins as ln2_hi + f by Fast2Sum (|ln2_hi| >= |f|; for k = 0 it adds nothing), and
 * ln2_lo with the small terms. */
#ifndef ACTK_MATH_LOG1P_CORE_H
#define ACTK_MATH_LOG1P_CORE_H

#include "vec_contract.h"

#define ACTK_LN2_HI1 0x1.62e430p-1f     /* fl(ln2) */
#define ACTK_LN2_LO1 (-0x1.05c610p-29f) /* ln2 - fl(ln2) */

/* log(1 + f) = f + f^2 Q(f) on [-1/4, 1/2], relative error 2^-29.9 */
#define ACTK_L1P_Q0 (-0x1.fffffep-2f)
#define ACTK_L1P_Q1 0x1.555554p-2f
#define ACTK_L1P_Q2 (-0x1.000128p-2f)
#define ACTK_L1P_Q3 0x1.999d70p-3f
#define ACTK_L1P_Q4 (-0x1.54fa64p-3f)
#define ACTK_L1P_Q5 0x1.23a4dep-3f
#define ACTK_L1P_Q6 (-0x1.04a50cp-3f)
#define ACTK_L1P_Q7 0x1.eb7fb2p-4f
#define ACTK_L1P_Q8 (-0x1.8f3e9cp-4f)
#define ACTK_L1P_Q9 0x1.55bda0p-5f

/* the fast tier's: relative error 2^-19.53 */
#define ACTK_L1PF_Q0 (-0x1.fffd28p-2f)
#define ACTK_L1PF_Q1 0x1.552f14p-2f
#define ACTK_L1PF_Q2 (-0x1.009b5cp-2f)
#define ACTK_L1PF_Q3 0x1.a66d28p-3f
#define ACTK_L1PF_Q4 (-0x1.575986p-3f)
#define ACTK_L1PF_Q5 0x1.54fcc2p-4f

/* The reduction: f exactly, k ln2 as two constants (+0 where k = 0), and the scale 2^-k of
 * u's low part. */
typedef struct {
  vf f, kh, kl, h;
} log1p_red;

ACTK_INLINE log1p_red log1p_reduce(vf u) {
  const vf half = vf_splat(0.5f);
  vm k1 = vm_ge(u, half);
  log1p_red r;
  vf b = vf_keep(k1, half);
  r.h = vf_sub(vf_splat(1.0f), b); /* 2^-k */
  r.f = vf_fms(u, r.h, b);         /* u 2^-k - (1 - 2^-k): exact */
  r.kh = vf_keep(k1, vf_splat(ACTK_LN2_HI1));
  r.kl = vf_keep(k1, vf_splat(ACTK_LN2_LO1));
  return r;
}

/* Q(f), Estrin-style (the critical path limits these kernels). */
ACTK_INLINE vf log1p_q(vf f, vf f2) {
  vf q01 = vf_fma(vf_splat(ACTK_L1P_Q1), f, vf_splat(ACTK_L1P_Q0));
  vf q23 = vf_fma(vf_splat(ACTK_L1P_Q3), f, vf_splat(ACTK_L1P_Q2));
  vf q45 = vf_fma(vf_splat(ACTK_L1P_Q5), f, vf_splat(ACTK_L1P_Q4));
  vf q67 = vf_fma(vf_splat(ACTK_L1P_Q7), f, vf_splat(ACTK_L1P_Q6));
  vf q89 = vf_fma(vf_splat(ACTK_L1P_Q9), f, vf_splat(ACTK_L1P_Q8));
  vf f4 = vf_mul(f2, f2);
  vf lo = vf_fma(q23, f2, q01);
  vf hi = vf_fma(q89, f2, q67);
  hi = vf_fma(hi, f2, q45);
  return vf_fma(hi, f4, lo);
}

/* log1p(uh + ul) as an unevaluated pair hi + lo, for callers that add it to something
 * (softplus: max(x, 0) + hi + lo, with one rounding fewer). lo is not a rounding error: for
 * k = 0, hi = f and lo is about -f^2/2 (up to |hi| / 4), so the caller's sum of the pair
 * rounds once more. */
typedef struct {
  vf hi, lo;
} log1p_pair;

ACTK_INLINE log1p_pair log1p_unit2(vf uh, vf ul) {
  log1p_red r = log1p_reduce(uh);
  vf f = r.f;
  vf f2 = vf_mul(f, f);
  vf q = log1p_q(f, f2);
  /* c / (1 + f) ~ c (1 - f + f^2), c = ul 2^-k */
  vf corr = vf_mul(vf_mul(ul, r.h), vf_fma(f, f, vf_sub(vf_splat(1.0f), f)));
  vf s = vf_add(r.kh, f);
  vf e = vf_add(vf_sub(r.kh, s), f); /* Fast2Sum: kh + f = s + e */
  vf small = vf_add(e, vf_add(r.kl, corr));
  /* f^2 = f2 + f2l exactly: f2's rounding, times Q ~ -1/2, was 0.2 ulp near f = 1/2 */
  small = vf_fma(vf_fms(f, f, f2), q, small);
  log1p_pair p = {s, vf_fma(f2, q, small)};
  return p;
}

/* log1p(uh + ul), uh in [0, 1]. */
ACTK_INLINE vf log1p_unit(vf uh, vf ul) {
  log1p_pair p = log1p_unit2(uh, ul);
  return vf_add(p.hi, p.lo);
}

/* log1p(u), u in [0, 1], fast tier: f + f^2 Q(f) + k ln2. */
ACTK_INLINE vf log1p_unit_fast(vf u) {
  log1p_red r = log1p_reduce(u);
  vf f = r.f;
  vf f2 = vf_mul(f, f);
  vf q01 = vf_fma(vf_splat(ACTK_L1PF_Q1), f, vf_splat(ACTK_L1PF_Q0));
  vf q23 = vf_fma(vf_splat(ACTK_L1PF_Q3), f, vf_splat(ACTK_L1PF_Q2));
  vf q45 = vf_fma(vf_splat(ACTK_L1PF_Q5), f, vf_splat(ACTK_L1PF_Q4));
  vf q = vf_fma(vf_fma(q45, f2, q23), f2, q01);
  return vf_add(r.kh, vf_fma(f2, q, f));
}

#endif
