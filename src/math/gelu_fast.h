/* gelu(x) = x Phi(x), fast tier: relative error 2^-19.88 over all floats (bound 2^-18).
 * Domain: every float; |x| clamped at 9 (past it the result is x, or the
 * accurate kernel's for x < -9, rare in activations, and NaN). Special values: those of the
 * accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, +-0 -> +-0).
 *
 * The accurate tier's form (gelu.h): with t = |x|, T = t Q(t) = K(t) e^(-t^2/2), Q the upper
 * normal tail, gelu = max(-0, x) - T (-0 for x < 0, so -T keeps its sign where T underflows;
 * x for x > 0; +-0 and NaN kept): 1 + erf is never formed.
 * K(t) = t P(t) / R(t), one rational of degree 3 over 4 on [0, 9] (coeffs_fast.h: relative
 * 2^-22.2; the division is one operation), e^(-t^2/2) = 2^(n/16) P2(v) with t^2 split exactly
 * (fl(t^2) alone would cost 2^-19 at t = 9), v = t^2 + n ln2/8 = -2r, |v| <= ln2/16, 2^(n/16)
 * from sigmoid's 16-entry table (exp_fast_pow16; P2: 2^-21.1, where the degree-5 polynomial on
 * |v| <= ln2 had 2^-23.4 and took three FMAs more: 0.423 -> 0.393 ns/element on AVX-512, 0.532
 * -> 0.488 on AVX2, Zen 4, 64 Ki). T = t P (p 2^(n/16)) / R with one rounding per operation.
 * Not taken: K(t) as piecewise polynomials picked by vf_lookup8 instead of the rational (no
 * division): a lookup per coefficient costs an FMA's worth on Zen 4 (docs/performance.md). */
#ifndef ACTK_MATH_GELU_FAST_H
#define ACTK_MATH_GELU_FAST_H

#include "coeffs_fast.h"
#include "exp_fast.h"
#include "gelu.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(gelu_fast_v_rare, gelu_v)

/* The kernel in two stages: the head (t, and p 2^(n/16) of e^(-t^2/2)) and the tail (K(t)'s
 * rational, the division, the result). On AVX2 the loop runs each vector's head one step before
 * its tail (ACTK_PIPE, src/kernels/instantiate.h): the same operations on each element. */
typedef struct {
  vf x, t, ps; /* ps = p 2^(n/16) */
} gelu_fast_mid;

ACTK_INLINE gelu_fast_mid gelu_fast_head(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC);
  gelu_fast_mid m;
  vf t = vf_min(vf_splat(ACTK_GELU_FAST_T), vf_andnot(sign, x)); /* NaN: not a fast lane */
  vf th = vf_mul(t, t);
  vf tl = vf_fms(t, t, th); /* t^2 - th, exact */
  vf tt = vf_fma(th, vf_splat(-8.0f * ACTK_LOG2E), magic);
  vf n = vf_sub(tt, magic); /* round(-8 t^2 / ln2) */
  vf v = vf_add(vf_fma(n, vf_splat(ACTK_LN2_F / 8.0f), th), tl);
  vf p = vf_fma(vf_fma(vf_splat(ACTK_GELU_FAST_C2), v, vf_splat(ACTK_GELU_FAST_C1)), v,
                vf_splat(1.0f)); /* e^(-v/2) */
  m.x = x;
  m.t = t;
  m.ps = vf_mul(p, exp_fast_pow16(tt));
  return m;
}

ACTK_INLINE vf gelu_fast_tail(gelu_fast_mid m) {
  vf t = m.t, x = m.x;
  vf kp = vf_fma(vf_fma(vf_fma(vf_splat(ACTK_GELU_FAST_P3), t, vf_splat(ACTK_GELU_FAST_P2)), t,
                        vf_splat(ACTK_GELU_FAST_P1)),
                 t, vf_splat(ACTK_GELU_FAST_P0));
  vf kr = vf_fma(vf_fma(vf_fma(vf_fma(vf_splat(ACTK_GELU_FAST_R4), t, vf_splat(ACTK_GELU_FAST_R3)),
                               t, vf_splat(ACTK_GELU_FAST_R2)),
                        t, vf_splat(ACTK_GELU_FAST_R1)),
                 t, vf_splat(1.0f));
  vf tq = vf_div(vf_mul(vf_mul(t, kp), m.ps), kr);
  vf y = vf_sub(vf_max(vf_splat(-0.0f), x), tq);
  vm fast = vm_ge(x, vf_splat(-ACTK_GELU_FAST_T));
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu_fast_v_rare(fast, y, x);
  return y;
}

ACTK_INLINE vf gelu_fast_v(vf x) { return gelu_fast_tail(gelu_fast_head(x)); }

#endif
