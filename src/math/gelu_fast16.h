/* gelu(x) = x Phi(x) for the 16-bit types, fast tier (fast16.h).
 *   error:    relative 2^-10.0 (bf16 core: G's 2^-11.0 and e^G's 2^-11.04) and 2^-12.8 (f16
 *             core) over every float in the fast range (README has the measured maxima on
 *             every 16-bit input).
 *   domain:   every float. bf16: t = |x| clamped at 12.9; lanes with x below -12.9 (results
 *             that go subnormal) and NaN take the accurate kernel (gelu.h). f16: t clamped at
 *             5.9, where t Q(t) < 2^-26 rounds to 0 like every result beyond; NaN lanes take
 *             the accurate kernel.
 *   specials: those of the accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, +-0 -> +-0).
 *
 * With t = |x| and Q(t) = Phi(-t) the upper normal tail, T = t Q(t): gelu = x - T (x > 0) or
 * -T (x < 0) (gelu.h's form: 1 + erf is never formed). Q = e^G(t), G a polynomial for
 * log Q (coeffs_fast16.h; its -t^2/2 part included: G reaches -87 at 12.9, rounded at
 * 2^-17.6 of it), e^G by exp_fast16.h: f16 its cubic, bf16 a line times an 8-entry table
 * (exp16t_bf16; 8 G/ln2 >= -1001 at t = 12.9, inside its [-1008, 1023]): no interval index,
 * no t^2 split. bf16's table for its cubic: 0.387 -> 0.379 ns/element on AVX-512, 0.619 ->
 * 0.580 on AVX2 (Zen 4, 64 Ki, medians of 6 alternated actk_ratio --types runs; erf, sigmoid,
 * the f16 and f32 columns flat); 0.616 -> 0.664 ULP of bf16, 99.71% -> 99.81% correctly
 * rounded. */
#ifndef ACTK_MATH_GELU_FAST16_H
#define ACTK_MATH_GELU_FAST16_H

#include "exp_fast16.h"
#include "gelu.h"
#include "rare_lanes.h"

/* T = t e^G(t) from G, and the result by the sign of x. */
ACTK_INLINE vf gelu16_of(vf x, vf t, vf g, int bf16) {
  const vf sign = vf_splat(-0.0f);
  vf tq;
  if (bf16) {
    exp16t e = exp16t_bf16(g, 0);
    tq = vf_mul(vf_mul(t, e.p), e.s);
  } else {
    exp16 e = exp16_pos(g);
    tq = vf_mul(vf_mul(t, e.p), exp16_scale(&e));
  }
  return vf_select_sign(x, vf_xor(tq, sign), vf_sub(x, tq)); /* -T keeps gelu(-0) = -0 */
}

ACTK_RARE_LANES(gelu16_bf16_v_rare, gelu_v)

ACTK_INLINE vf gelu16_bf16_v(vf x) {
  vf t = vf_min(vf_splat(ACTK_GELU_BF16_T), vf_andnot(vf_splat(-0.0f), x)); /* NaN passes */
  vf g = vf_fma(vf_splat(ACTK_GELU_BF16_G7), t, vf_splat(ACTK_GELU_BF16_G6));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G5));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G4));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G3));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G2));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G1));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_BF16_G0));
  vf y = gelu16_of(x, t, g, 1);
  vm fast = vm_ge(x, vf_splat(-ACTK_GELU_BF16_T));
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu16_bf16_v_rare(fast, y, x);
  return y;
}

ACTK_RARE_LANES(gelu16_f16_v_rare, gelu_v)

ACTK_INLINE vf gelu16_f16_v(vf x) {
  vf t = vf_min(vf_splat(ACTK_GELU_F16_T), vf_andnot(vf_splat(-0.0f), x)); /* NaN passes */
  vf g = vf_fma(vf_splat(ACTK_GELU_F16_G6), t, vf_splat(ACTK_GELU_F16_G5));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_F16_G4));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_F16_G3));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_F16_G2));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_F16_G1));
  g = vf_fma(g, t, vf_splat(ACTK_GELU_F16_G0));
  vf y = gelu16_of(x, t, g, 0);
  vm fast = vm_ge(x, vf_splat(-INFINITY)); /* every lane but NaN */
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu16_f16_v_rare(fast, y, x);
  return y;
}

#endif
