/* The logistic function and x * logistic(z), rounded once.
 *
 * sigma(z) = N / (1 + e) with e = e^-|z| and N = 1 (z >= 0) or e (z < 0).
 * e comes from exp_parts as 2^n (m + ml). The quotient is computed as
 * q0 = N / d with d = fl(1 + e), then corrected for everything q0 missed: the
 * rounding of d (dl, exact by Fast2Sum since e <= 1), the low parts of e and
 * of N, using the division remainder fma(-q0, d, N) (exact or nearly so),
 * scaled by 1/d.
 * The result is a value v and an exponent k <= 0 with sigma * x = v * 2^k: the
 * caller applies 2^k last, so results in the subnormal range round once. */
#ifndef ACTK_MATH_LOGISTIC_H
#define ACTK_MATH_LOGISTIC_H

#include "exp_parts.h"

#define ACTK_SIGN_MASK (-0.0f)

typedef struct {
  vf v;
  vi k;
} scaled_vf;

/* x * 2^k for k in [-252, 0]: exact steps, then at most one final rounding. */
ACTK_INLINE vf scale_down(vf x, vi k) {
  vi k1 = vi_max(k, vi_splat(-126));
  return vf_mul(vf_mul(x, exp2i(k1)), exp2i(vi_sub(k, k1)));
}

/* x * 2^k for k in [-378, 0]. */
ACTK_INLINE vf scale_down_wide(vf x, vi k) {
  vi k1 = vi_max(k, vi_splat(-126));
  return scale_down(vf_mul(x, exp2i(k1)), vi_sub(k, k1));
}

/* The shared parts: e = e^-|z| = 2^n (m + ml), and 1 + e = d + dl. */
typedef struct {
  exp_parts p; /* e = 2^n (1 + p) */
  vf m, ml;    /* 1 + p */
  vm neg;      /* z < 0: the numerator is e, else 1 */
  vf eh;       /* fl(e), flushed towards 0 below 2^-126 (only 1 + e needs it) */
  vf d, dl;    /* 1 + e */
  vf inv;      /* fl(1/d) */
  vi k;        /* exponent of the result: n on neg lanes, else 0 */
} logistic_den;

/* zmin < 0 bounds -|z| from below; exp_parts needs n >= -2^20 only, the
 * callers' scaling decides the real bound. */
ACTK_INLINE logistic_den logistic_den_of(vf zh, vf zl, float zmin) {
  const vf one = vf_splat(1.0f), sign = vf_splat(ACTK_SIGN_MASK);
  logistic_den r;
  r.neg = vm_lt(zh, vf_splat(0.0f));
  /* -|z| as a pair: flip zl together with zh */
  vf ah = vf_max(vf_splat(zmin), vf_or(zh, sign));
  vf al = vf_xor(zl, vf_andnot(zh, sign));
  r.p = exp_parts_of(ah, al);
  exp_parts_m(&r.p, &r.m, &r.ml);
  vf s1 = exp2i(vi_max(r.p.n, vi_splat(-126)));
  r.eh = vf_mul(r.m, s1);
  r.d = vf_add(one, r.eh);
  /* exact: eh <= 1. Below 2^-25, e cannot move 1 + e: dropping it is fine */
  r.dl = vf_add(vf_add(vf_sub(one, r.d), r.eh), vf_mul(r.ml, s1));
  r.inv = vf_div(one, r.d);
  r.k = vf_bits(vf_keep(r.neg, vi_bits(r.p.n)));
  return r;
}

/* (nh + nl) / (d + dl), rounded once. q0 need not be correctly rounded: the
 * remainder and the correction recover the quotient to ~2^-46, so one
 * division (1/d) serves the whole computation. */
ACTK_INLINE vf div_corrected(vf nh, vf nl, const logistic_den *den) {
  vf q0 = vf_mul(nh, den->inv);
  vf rho = vf_add(vf_fnma(q0, den->d, nh), nl);
  vf corr = vf_fnma(q0, den->dl, rho);
  return vf_fma(corr, den->inv, q0);
}

/* sigma(z) as v * 2^k: the numerator e is taken unscaled (m + ml) and 2^n
 * goes into k, so it keeps its low part even where e is subnormal. */
ACTK_INLINE scaled_vf logistic(vf zh, vf zl, float zmin) {
  logistic_den den = logistic_den_of(zh, zl, zmin);
  scaled_vf r;
  r.v = div_corrected(vf_select(den.neg, den.m, vf_splat(1.0f)), vf_keep(den.neg, den.ml), &den);
  r.k = den.k;
  return r;
}

/* x * sigma(z) as v * 2^k, for finite x (callers patch infinities). */
ACTK_INLINE scaled_vf x_logistic(vf x, vf zh, vf zl, float zmin) {
  logistic_den den = logistic_den_of(zh, zl, zmin);
  vf f = vf_select(den.neg, den.m, vf_splat(1.0f));
  vf nh = vf_mul(x, f);
  vf nl = vf_fma(x, f, vf_sub(vf_splat(0.0f), nh)); /* exact product error */
  nl = vf_fma(x, vf_keep(den.neg, den.ml), nl);
  scaled_vf r;
  r.v = div_corrected(nh, nl, &den);
  r.k = den.k;
  return r;
}

#endif
