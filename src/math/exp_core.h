/* e^z for z <= 0 (or small positive z), as e^z = 2^n (1 + p).
 *
 * Every exponential in actk feeds one more operation (a division or a
 * product), so the core returns p = e^r - 1 and the scale separately: callers
 * form 2^n (1 + p) with one fma, or 1 - e^z without cancellation.
 * Reduction: n = round(z / ln2) by the add-magic trick (n lands in the low
 * mantissa bits of t), r = z - n ln2 with ln2 in two pieces (n * LN2_HI is
 * exact for |n| < 512), so |r| <= ln2/2. e^r - 1 = r + r^2 Q(r), Q of degree
 * 4 fitted for relative error 2^-28.3 of e^r, evaluated Estrin-style (the
 * critical path, not the op count, limits these kernels). */
#ifndef ACTK_MATH_EXP_CORE_H
#define ACTK_MATH_EXP_CORE_H

#include "vec_contract.h"

#define ACTK_LOG2E 0x1.715476p+0f
#define ACTK_LN2_HI 0x1.62e400p-1f /* 16 significant bits */
#define ACTK_LN2_LO 0x1.7f7d1cp-20f
#define ACTK_ROUND_MAGIC 0x1.8p23f /* z/ln2 + magic rounds to an integer in the low bits */
#define ACTK_LN2_F 0x1.62e43p-1f   /* ln2 as one float (off by 1.9e-9) */
/* Q(r) = Q0 + Q1 r + ... + Q4 r^4: e^r - 1 = r + r^2 Q(r), relative error 2^-28.3 */
#define ACTK_EXP_Q0 0x1.fffffcp-2f
#define ACTK_EXP_Q1 0x1.555492p-3f
#define ACTK_EXP_Q2 0x1.5558b0p-5f
#define ACTK_EXP_Q3 0x1.12398cp-7f
#define ACTK_EXP_Q4 0x1.6a4d1ap-10f

typedef struct {
  vf p; /* e^r - 1 */
  vf t; /* n + ACTK_ROUND_MAGIC: n is in the low mantissa bits */
} exp_core;

/* e^r - 1 = r + r^2 Q(r), |r| <= ln2/2. */
ACTK_INLINE vf exp_core_poly(vf r) {
  vf r2 = vf_mul(r, r);
  vf q01 = vf_fma(vf_splat(ACTK_EXP_Q1), r, vf_splat(ACTK_EXP_Q0));
  vf q23 = vf_fma(vf_splat(ACTK_EXP_Q3), r, vf_splat(ACTK_EXP_Q2));
  q23 = vf_fma(vf_splat(ACTK_EXP_Q4), r2, q23);
  return vf_fma(r2, vf_fma(q23, r2, q01), r);
}

/* e^(k w - zsub) for k a power of two (k w exact but where it underflows,
 * where n = 0 and r = k w either way; t is formed from w, so the product
 * stays off the dependency chain: gelu's e^(-t^2/2), 1%);
 * zsub is the low part of a z the caller formed as an unevaluated pair (0
 * if none). |k w| <= 2^20. */
ACTK_INLINE exp_core exp_core_of_pow2(vf w, float k, vf zsub) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_core e;
  e.t = vf_fma(w, vf_splat(k * ACTK_LOG2E), magic);
  vf n = vf_sub(e.t, magic);
  /* k w - n ln2_hi is exact; the two small terms go in with one rounding */
  vf r = vf_fma(n, vf_splat(-ACTK_LN2_HI), vf_mul(vf_splat(k), w));
  e.p = exp_core_poly(vf_sub(r, vf_fma(n, vf_splat(ACTK_LN2_LO), zsub)));
  return e;
}

/* e^(z - zsub). */
ACTK_INLINE exp_core exp_core_of(vf z, vf zsub) { return exp_core_of_pow2(z, 1.0f, zsub); }

/* e^-r - 1 = -r + r^2 Q(-r). */
ACTK_INLINE vf exp_core_poly_neg(vf r) {
  vf r2 = vf_mul(r, r);
  vf q01 = vf_fma(vf_splat(-ACTK_EXP_Q1), r, vf_splat(ACTK_EXP_Q0));
  vf q23 = vf_fma(vf_splat(-ACTK_EXP_Q3), r, vf_splat(ACTK_EXP_Q2));
  q23 = vf_fma(vf_splat(ACTK_EXP_Q4), r2, q23);
  return vf_fms(r2, vf_fma(q23, r2, q01), r);
}

/* e^-(z - zsub) without negating z first: n = round(-z / ln2),
 * r = z - zsub + n ln2 and e^-r - 1 = -r + r^2 Q(-r). */
ACTK_INLINE exp_core exp_core_neg(vf z, vf zsub) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_core e;
  e.t = vf_fma(z, vf_splat(-ACTK_LOG2E), magic);
  vf n = vf_sub(e.t, magic);
  vf r = vf_fma(n, vf_splat(ACTK_LN2_HI), z);
  e.p = exp_core_poly_neg(vf_add(r, vf_fms(n, vf_splat(ACTK_LN2_LO), zsub)));
  return e;
}

/* exp_core_neg for an exact z (no low part): ln2's two pieces go in with
 * two fmas, one rounding each, one operation fewer than the general form
 * (sigmoid 5% faster on AVX2); r differs from exp_core_neg's by at most a
 * rounding of n ln2_lo. */
ACTK_INLINE exp_core exp_core_neg_exact(vf z) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  exp_core e;
  e.t = vf_fma(z, vf_splat(-ACTK_LOG2E), magic);
  vf n = vf_sub(e.t, magic);
  e.p = exp_core_poly_neg(vf_fma(n, vf_splat(ACTK_LN2_LO), vf_fma(n, vf_splat(ACTK_LN2_HI), z)));
  return e;
}

/* n as an integer. */
ACTK_INLINE vi exp_core_n(const exp_core *e) {
  return vi_sub(vf_bits(e->t), vf_bits(vf_splat(ACTK_ROUND_MAGIC)));
}

/* 2^k as a float, for integer k in [-126, 127]. */
ACTK_INLINE vf exp2i(vi k) { return vi_bits(vi_sll(vi_add(k, vi_splat(127)), 23)); }

/* 2^n straight from t (two integer ops), valid while n >= -126. */
ACTK_INLINE vf exp_core_scale(const exp_core *e) {
  return vi_bits(vi_add(vi_sll(vf_bits(e->t), 23), vf_bits(vf_splat(1.0f))));
}

/* x * 2^k for k in [-252, 0]: exact steps, then at most one final rounding,
 * so subnormal results round once. */
ACTK_INLINE vf scale_down(vf x, vi k) {
  vi k1 = vi_max(k, vi_splat(-126));
  return vf_mul(vf_mul(x, exp2i(k1)), exp2i(vi_sub(k, k1)));
}

#endif
