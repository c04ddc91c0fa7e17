/* x * sigmoid(z), rounded with one division, for sigmoid, swish and gelu_tanh
 * (their contracts: sigmoid.h, gelu_tanh.h).
 *
 * Fast form, -16.25 <= z <= 87: x / d, d = 1 + E, E = e^-z = s (1 + p),
 * s = 2^n, n in [-126, 23]. s + 1 is exact for n >= -23; below, it rounds
 * to 1 (a result within 1.42 ulp, at x = 16.29), so d = s p + (s + 1) is one
 * fma, rounded once, and the division is the only other rounding: measured
 * max 1.72 ulp for sigmoid and silu, 1.78 for quick_gelu, 1.88 for
 * gelu_tanh (the margin under 2 ULP is spent on speed: README's accuracy
 * section).
 *
 * General form, any z (lanes beyond the fast range only, selected per lane
 * so that a lane's bits never depend on its neighbours):
 * with e = e^-|z|: sigmoid(z) = N / (1 + e), N = 1 (z >= 0) or e (z < 0).
 * Dividing by fl(1 + e) would cost up to an ulp on its own, so the rounding
 * of 1 + e (dl, exact by Fast2Sum since e <= 1) and of x * N are folded back
 * through the division remainder: q0 = N x / d, rem = N x - q0 d (exact),
 * v = q0 + (rem - q0 dl) / d. q0 need not be correctly rounded, so one
 * reciprocal serves both divisions. e arrives as a pair too (its own rounding
 * would cost up to an ulp where its mantissa and the result's differ). */
#ifndef ACTK_MATH_LOGISTIC_H
#define ACTK_MATH_LOGISTIC_H

#include "exp_core.h"

#define ACTK_SIGN_MASK (-0.0f)

/* x / (1 + e^(zsub - zh)), for lanes with -16.25 <= zh <= 87 (zsub: the
 * caller's low part of z, subtracted, 0 if none). */
ACTK_INLINE vf logistic_fast_of(vf x, exp_core c) {
  vf s = exp_core_scale(&c);
  return vf_div(x, vf_fma(s, c.p, vf_add(s, vf_splat(1.0f))));
}
ACTK_INLINE vf logistic_fast(vf x, vf zh, vf zsub) {
  return logistic_fast_of(x, exp_core_neg(zh, zsub));
}
/* The same for an exact z (sigmoid, silu). */
ACTK_INLINE vf logistic_fast_exact(vf x, vf z) {
  return logistic_fast_of(x, exp_core_neg_exact(z));
}

/* The same for -87 <= zh <= 87. For n >= 24 (zh below -16.25) s + 1 rounds
 * to s and the 1 would be lost: there it goes into p instead, as 2^-n, so
 * that d = s (1 + p + 2^-n) is still one fma (p + 2^-n rounds, by at most
 * 2^-26). No extra multiply: for callers whose inputs often reach that band
 * (gelu_tanh: every x below -4.91). */
ACTK_INLINE vf logistic_fast_wide(vf x, vf zh, vf zsub) {
  exp_core c = exp_core_neg(zh, zsub);
  vf s = exp_core_scale(&c);
  vf inv = vi_bits(vi_sub(vi_splat(254 << 23), vf_bits(s))); /* 2^-n */
  vm band = vm_ge(c.t, vf_splat(ACTK_ROUND_MAGIC + 24.0f));
  vf p = vf_add(c.p, vf_keep(band, inv));
  return vf_div(x, vf_fma(s, p, vf_add(s, vf_splat(1.0f))));
}

/* Lanes where logistic_fast_wide applies: |zh| <= 87 (ordered: NaN is not). */
ACTK_INLINE vm logistic_wide_lanes(vf zh) {
  return vm_le(vf_andnot(vf_splat(ACTK_SIGN_MASK), zh), vf_splat(87.0f));
}

/* Lanes where the fast form applies (ordered: NaN is not). Below -16.25,
 * n >= 24 and s + 1 would round. */
ACTK_INLINE vm logistic_fast_lanes(vf zh) {
  const vf mid = vf_splat(0.5f * (87.0f - 16.25f)), half = vf_splat(0.5f * (87.0f + 16.25f));
  return vm_le(vf_andnot(vf_splat(ACTK_SIGN_MASK), vf_sub(zh, mid)), half);
}

/* x * N / (1 + e), N chosen by the sign of zh, e = eh + el. */
ACTK_INLINE vf logistic_div(vf x, vf zh, vf eh, vf el) {
  const vf one = vf_splat(1.0f);
  vf d = vf_add(one, eh);
  vf dl = vf_add(vf_add(vf_sub(one, d), eh), el);
  vf f = vf_select_sign(zh, eh, one);
  vf nh = vf_mul(x, f);
  vf inv = vf_div(one, d);
  vf q0 = vf_mul(nh, inv);
  /* (nh - q0 d) + (x f - nh) + x fl: the first two exact */
  vf rem = vf_sub(vf_fnma(q0, d, nh), vf_fnma(x, f, nh));
  rem = vf_fma(x, vf_select_sign(zh, el, vf_splat(0.0f)), rem);
  vf corr = vf_fnma(q0, dl, rem);
  return vf_fma(corr, inv, q0);
}

/* Same with x = 1 (sigmoid): no product to correct. */
ACTK_INLINE vf logistic_div1(vf zh, vf eh, vf el) {
  const vf one = vf_splat(1.0f);
  vf d = vf_add(one, eh);
  vf dl = vf_add(vf_add(vf_sub(one, d), eh), el);
  vf f = vf_select_sign(zh, eh, one);
  vf inv = vf_div(one, d);
  vf q0 = vf_mul(f, inv);
  vf rem = vf_add(vf_fnma(q0, d, f), vf_select_sign(zh, el, vf_splat(0.0f)));
  vf corr = vf_fnma(q0, dl, rem);
  return vf_fma(corr, inv, q0);
}

/* e = e^-|z| = eh + el for z = zh - zsub (zsub: the caller's low part,
 * subtracted, 0 if none). el is the exact rounding error of eh = fl(s (1 + p)):
 * without it, quick_gelu reaches 2.003 ulp. */
typedef struct {
  vf eh, el;
  vi k; /* exponent still to apply (slow path only): n - max(n, -126), on z < 0 lanes */
} logistic_e;

ACTK_INLINE logistic_e logistic_e_of(vf s, vf p) {
  logistic_e r;
  r.k = vi_splat(0);
  r.eh = vf_fma(s, p, s);
  r.el = vf_fma(s, p, vf_sub(s, r.eh)); /* s - eh is exact (Sterbenz) */
  return r;
}

/* Any lane: -|z| is clamped at zmin (callers pick zmin so the clamp never
 * changes a result), e is computed at 2^max(n, -100), so el (2^-24 below eh)
 * stays a normal float, and the rest of 2^n is returned in k. */
ACTK_INLINE logistic_e logistic_e_general(vf zh, vf zsub, float zmin) {
  const vf sign = vf_splat(ACTK_SIGN_MASK);
  exp_core c =
      exp_core_of(vf_max(vf_splat(zmin), vf_or(zh, sign)), vf_xor(zsub, vf_andnot(zh, sign)));
  vi n = exp_core_n(&c);
  vi n1 = vi_max(n, vi_splat(-100));
  logistic_e r = logistic_e_of(exp2i(n1), c.p);
  r.k = vf_bits(vf_select_sign(zh, vi_bits(vi_sub(n, n1)), vf_splat(0.0f)));
  return r;
}

#endif
