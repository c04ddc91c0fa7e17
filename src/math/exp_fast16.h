/* The fast tier's f32 cores for the 16-bit types (<op>_fast16.h; src/ops.toml
 * names each kernel's core in its math field), and e^z for them (below).
 *   error:    faithful on all 65536 inputs of each type, and on every float
 *             input of the bias ops' sums (README has each op's measured
 *             maximum in ULP of the type and its share correctly rounded).
 *   domain:   every float (each core's header has its clamps and the lanes
 *             it hands to the accurate kernel).
 *   specials: those of the accurate tier, NaN bits included.
 *
 * Each core is the cheapest measured to keep its type faithful: a relative
 * error under 2^-9 (bf16) or 2^-12 (f16) is faithful for every input, so
 * the cores aim at about 2^-10 and 2^-13. erf and bf16 tanh: one odd
 * polynomial of the clamped x; f16 tanh: a rational; sigmoid, silu, swish,
 * quick_gelu and gelu_tanh: one exp and one division; gelu: e^G(t), G one
 * polynomial for log Phi(-t). The exp: f16 a cubic, bf16 a line and an
 * 8-entry table. No interval index, no float pairs.
 *
 * e^z for those cores:
 *   error:    relative 2^-13.25 (a cubic after a round-to-nearest reduction; ln2 as one
 *             float adds |n| 2^-28.5): a twelfth of f16's half ULP, a hundredth of bf16's.
 *             bf16's: 2^-11.04 (2^(n/8) from a table times a line, exp16t_bf16).
 *   domain:   callers keep z/ln2 within [-126, 126] (|z| <= 87): 2^n is built from bits.
 *   specials: none (callers keep NaN and infinities off these paths, or select them away).
 *
 * The fast f32 tier's exp (exp_fast.h) has degree 5 and a floor reduction for monotony;
 * 16-bit results need neither (a monotone f32 result is not what makes the rounded one
 * monotone; tests/test_types.c checks the 16-bit results). */
#ifndef ACTK_MATH_EXP_FAST16_H
#define ACTK_MATH_EXP_FAST16_H

#include "coeffs_fast16.h"
#include "exp_core.h"
#include "exp_fast.h"

/* 1.5 2^23 + 127: z/ln2 + ACTK_EXP16_MAGIC rounds to an integer in the low mantissa bits,
 * and holds n + 127 there, so that 2^n is those bits shifted to the exponent field (no add). */
#define ACTK_EXP16_MAGIC 0x1.8000fep+23f

typedef struct {
  vf p; /* e^r, r in [-ln2/2, ln2/2] */
  vf t; /* n + ACTK_EXP16_MAGIC */
} exp16;

/* e^-z = 2^n p, n = round(-z / ln2), q = z + n ln2 = -r, p = 1 - q (C1 - q (C2 - q C3)). */
ACTK_INLINE exp16 exp16_neg(vf z) {
  const vf magic = vf_splat(ACTK_EXP16_MAGIC);
  exp16 e;
  e.t = vf_fma(z, vf_splat(-ACTK_LOG2E), magic);
  vf q = vf_fma(vf_sub(e.t, magic), vf_splat(ACTK_LN2_F), z);
  vf w = vf_fnma(q, vf_splat(ACTK_EXP16_C3), vf_splat(ACTK_EXP16_C2));
  w = vf_fnma(q, w, vf_splat(ACTK_EXP16_C1));
  e.p = vf_fnma(q, w, vf_splat(1.0f));
  return e;
}

/* e^g = 2^n p, n = round(g / ln2), r = g - n ln2, p = 1 + r (C1 + r (C2 + r C3)). */
ACTK_INLINE exp16 exp16_pos(vf g) {
  const vf magic = vf_splat(ACTK_EXP16_MAGIC);
  exp16 e;
  e.t = vf_fma(g, vf_splat(ACTK_LOG2E), magic);
  vf r = vf_fnma(vf_sub(e.t, magic), vf_splat(ACTK_LN2_F), g);
  vf w = vf_fma(r, vf_splat(ACTK_EXP16_C3), vf_splat(ACTK_EXP16_C2));
  w = vf_fma(r, w, vf_splat(ACTK_EXP16_C1));
  e.p = vf_fma(r, w, vf_splat(1.0f));
  return e;
}

/* 2^n (n in [-126, 127]): t's low mantissa bits, n + 127, shifted into the exponent. */
ACTK_INLINE vf exp16_scale(const exp16 *e) { return vi_bits(vi_sll(vf_bits(e->t), 23)); }

/* 2^(n/8) for t = n + ACTK_ROUND_MAGIC, n in [-1008, 1023]: the table's entry n & 7 (2^(j/8)
 * rounded to float, less j << 20) with n >> 3 added to its exponent, both by one integer
 * addition of t's bits shifted left by 20 (n's low 3 bits cancel the entry's j << 20). */
ACTK_INLINE vf exp16_pow8(vf t) {
  vi tb = vf_bits(t);
  return vi_bits(vi_add(vi_sll(tb, 20), vf_bits(vf_lookup8(actk_exp16_tab8, tb))));
}

/* e^g (neg = 0) or e^-g (neg = 1) for bf16's cores: s p, n = round(+-8 g / ln2) within
 * [-1008, 1023] (g within [-87.3, 88.5]), s = 2^(n/8) from the table, r = +-g - n ln2/8 in
 * [-ln2/16, ln2/16], p = C0 + C1 r: one line and a lookup where the cubic takes three FMAs,
 * 2^-11.04 relative (a quarter of bf16's 2^-9). neg computes q = g + n ln2/8 = -r and
 * p = C0 - C1 q: the same bits as e^g of -g, without the negation. */
typedef exp_fast_lut exp16t; /* p = e^r, s = 2^(n/8) (a normal float) */

ACTK_INLINE exp16t exp16t_bf16(vf g, int neg) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  const float k = neg ? -8.0f * ACTK_LOG2E : 8.0f * ACTK_LOG2E;
  const vf c0 = vf_splat(ACTK_EXP16T_BF16_C0), c1 = vf_splat(ACTK_EXP16T_BF16_C1);
  exp16t e;
  vf t = vf_fma(g, vf_splat(k), magic);
  vf n = vf_sub(t, magic);
  if (neg) {
    vf q = vf_fma(n, vf_splat(ACTK_LN2_F / 8.0f), g);
    e.p = vf_fnma(q, c1, c0);
  } else {
    vf r = vf_fnma(n, vf_splat(ACTK_LN2_F / 8.0f), g);
    e.p = vf_fma(r, c1, c0);
  }
  e.s = exp16_pow8(t);
  return e;
}

/* 1 + e^-z with one rounding, z in [-87, 24]: f16 (bf16 = 0) e^-z = 2^n p (exp16_neg, the
 * cubic); bf16 s p (exp16t_bf16, 8 z/ln2 within [-277, 1004]). Measured against the cubic
 * (Zen 4, 64 Ki, actk_ratio --types, medians of 10 alternated runs): bf16 sigmoid 0.226 ->
 * 0.214 ns/element on AVX-512, 0.372 -> 0.338 on AVX2. f16 through the f32 tier's 16-entry
 * table and a line (2^-13.0) did not pay: 0.214 -> 0.219 on AVX-512, 0.329 -> 0.356 on AVX2
 * (vf_lookup16 is two VPERMPS and a blend there), and 98.9% -> 96.6% correctly rounded. */
ACTK_INLINE vf exp16_one_plus(vf z, int bf16) {
  if (!bf16) {
    exp16 e = exp16_neg(z);
    return vf_fma(exp16_scale(&e), e.p, vf_splat(1.0f));
  }
  exp16t e = exp16t_bf16(z, 1);
  return vf_fma(e.s, e.p, vf_splat(1.0f));
}

#endif
