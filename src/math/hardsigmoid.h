/* hardsigmoid(x) = relu6(x + 3) / 6 and hardswish(x) = x relu6(x + 3) / 6
 * (PyTorch's definitions: torch.nn.Hardsigmoid, torch.nn.Hardswish); accurate tier.
 *   error:    hardsigmoid within half an ulp plus about 2^-20 ulp before the last rounding
 *             (nearly correctly rounded); hardswish under 1.5 ULP (README has the sweep's
 *             maxima; documented bound 2 ULP).
 *   domain:   every float.
 *   specials: NaN x -> the same NaN quieted; hardsigmoid is +0 for x <= -3 (-inf included)
 *             and 1 for x >= 3; hardswish is x for x >= 3 (+inf included) and -0 for
 *             x <= -3 (-inf included: the limit; torch gives -0 from x * 0 there, and NaN at
 *             -inf), keeps the sign of +-0, and is negative (or -0) on (-3, 0).
 *
 * x is clamped to [-3, 3] first, so |x| <= 3 and x + 3 = s + e exactly by Fast2Sum (e = 0
 * wherever the sum is exact: Sterbenz on [-6, -1.5], so no cancellation near the zero at -3).
 * A quotient n / 6 is formed without a division: q = n * fl(1/6) is within 1.5 ulp of n / 6,
 * the remainder n - 6q comes from one fma (6q exact inside it), and the rest of the exact
 * numerator joins it before the one correction y = q + (remainder + rest) / 6: the errors
 * left (fl(1/6)'s 2^-25.4 on the correction, two roundings of small terms) are about 2^-20
 * ulp of y. hardswish is max(x, -3) times that hardsigmoid: its relative error (half an
 * ulp, under 2^-24 h) costs at most 1 ULP of the product, whose rounding adds half of one;
 * an fma two-product of x (s + e), divided the same way, measured 0.500 ULP at 1.25-1.5x
 * the time, past the bar of 1.5x the fastest peer's (XNNPACK's) time. */
#ifndef ACTK_MATH_HARDSIGMOID_H
#define ACTK_MATH_HARDSIGMOID_H

#include "half_tie.h"
#include "vec_contract.h"

#define ACTK_SIXTH 0x1.555556p-3f /* fl(1/6), 2^-25.4 above it */

/* x clamped to [-3, 3] (a NaN passes: the NaN-carrying operand second) and x + 3 = s + e. */
typedef struct {
  vf xc, s, e;
} hard_sum;

ACTK_INLINE hard_sum hard_sum_of(vf x) {
  const vf three = vf_splat(3.0f);
  hard_sum h;
  h.xc = vf_max(vf_splat(-3.0f), vf_min(three, x));
  h.s = vf_add(h.xc, three);
  h.e = vf_sub(h.xc, vf_sub(h.s, three)); /* Fast2Sum: |3| >= |xc| */
  return h;
}

/* n / 6 + rest / 6, n and rest floats with |rest| tiny against n (see the header). */
ACTK_INLINE vf hard_div6(vf n, vf rest) {
  const vf sixth = vf_splat(ACTK_SIXTH);
  vf q = vf_mul(n, sixth);
  vf r = vf_fnma(q, vf_splat(6.0f), n); /* n - 6q */
  return vf_fma(vf_add(r, rest), sixth, q);
}

/* At x = -3: s = 0 and y = +0; at 3: s = 6 and y = 1 (6 fl(1/6) rounds to 1). NaN: the fnma
 * may flip its sign on some implementations, so it is rebuilt from x. */
ACTK_INLINE vf hardsigmoid_v(vf x) {
  hard_sum h = hard_sum_of(x);
  return ACTK_NAN_PASSTHROUGH(x, hard_div6(h.s, h.e));
}

/* u = max(x, -3) (a NaN passes) times hardsigmoid(u): x itself past 3 (h = 1 exactly,
 * infinity included), -3 * +0 = -0 at and below -3 (torch's x * 0, and the limit at -inf
 * without an inf * 0), and the sign of x kept on (-3, 0] (-0 included; a tiny negative
 * result rounds to -0). */
ACTK_INLINE vf hardswish_v(vf x) {
  vf u = vf_max(vf_splat(-3.0f), x);
  hard_sum h = hard_sum_of(u);
  return ACTK_NAN_PASSTHROUGH(x, vf_mul(u, hard_div6(h.s, h.e)));
}

/* The 16-bit types' accurate tier. hardswish(x) = x/2 + x^2/6: for small |x| the f32 result
 * is exactly x/2, a 16-bit midpoint where x/2 is an odd multiple of the smallest subnormal
 * (f16 below 2^-13, bf16 below 2^-125), and the true value is always above it (the deviation
 * x^2/6 > 0): half_tie.h settles those lanes. Its f16 limit ACTK_TIE_LOST holds for c = 1/6
 * too: at |x| >= 2^-20 the deviation is |x|/3 >= 2^-21.6 of x/2, over 2 ulps, and the result
 * is never exactly x/2. hardsigmoid needs none of it: t = (x + 3) / 6 at a 16-bit x is either
 * a 16-bit midpoint itself (the f32 result is then exactly it, being nearly correctly
 * rounded) or 6 |t - m| >= the grid of x + 3 and 6m from every midpoint m, which for the x
 * near such midpoints (|x| >= 6 2^-13 for f16, since t is near 1/2) is far more than an f32
 * ulp of t: the f32 result never lands on a midpoint t is not on. */
ACTK_INLINE vf hardswish_v_f16(vf x) {
  return half_tie(x, hardswish_v(x), vf_splat(1.0f), ACTK_TIE_LOST, 0);
}
ACTK_INLINE vf hardswish_v_bf16(vf x) {
  return half_tie(x, hardswish_v(x), vf_splat(1.0f), ACTK_TIE_BF16, 0);
}

#endif
