/* hardsigmoid and hardswish, fast tier: one core for f32, f16 and bf16.
 *   error:    relative under 2^-22.3 over all floats (three roundings of 2^-24 and fl(1/6)'s
 *             2^-25.4; README has the sweep's maxima; bound 2^-18): faithful once narrowed to
 *             a 16-bit type (under half its ulp), its subnormals included (the error is
 *             relative down to f32's own subnormals, where y = x/2 is exact).
 *   specials: those of the accurate tier (hardsigmoid.h): NaN kept, the limits at +-inf,
 *             hardswish(x <= -3) = -0, signs of zero kept; hardsigmoid is monotone.
 *
 * h = fl(fl(xc + 3) / 6) with xc clamped to [-3, 3]: near the zero at -3 the sum is exact
 * (Sterbenz), so there is no cancellation; at 3, 6 fl(1/6) rounds to 1 exactly. Each step is
 * a monotone rounding of a monotone function: hardsigmoid never steps down. hardswish is
 * max(x, -3) h: x where h = 1 (infinities included), -3 * +0 = -0 below -3 (-inf included:
 * no inf * 0). A NaN passes every step (the clamps take it second); the product's two NaN
 * operands are x and x quieted, both giving x quieted. */
#ifndef ACTK_MATH_HARDSIGMOID_FAST_H
#define ACTK_MATH_HARDSIGMOID_FAST_H

#include "hardsigmoid.h"

ACTK_INLINE vf hardsigmoid_fast_v(vf x) {
  vf xc = vf_max(vf_splat(-3.0f), vf_min(vf_splat(3.0f), x));
  return vf_mul(vf_add(xc, vf_splat(3.0f)), vf_splat(ACTK_SIXTH));
}

ACTK_INLINE vf hardswish_fast_v(vf x) {
  vf u = vf_max(vf_splat(-3.0f), x);
  return vf_mul(u, hardsigmoid_fast_v(u));
}

#endif
