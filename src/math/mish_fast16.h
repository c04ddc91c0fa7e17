/* mish(x) = x tanh(softplus(x)) for the 16-bit types, fast tier (exp_fast16.h has the
 * family): one core for f16 and bf16.
 *   error:    relative about 2^-13 (exp16's cubic 2^-13.25 reaches the result scaled by
 *             2 (2u + 2) / ((u + 2)(u^2 + 2u + 2)) <= 1, then four roundings): under the
 *             2^-12 that makes f16 faithful once rounded (README has the measured maxima).
 *   domain:   every float; lanes below x = -87, NaN among them, take the accurate kernel
 *             (mish.h), as mish_fast.h's do.
 *   specials: those of the accurate tier: NaN kept, +inf -> +inf, -inf -> -0, signs of
 *             zero kept.
 *
 * mish_fast.h's form, y = x n / (n + 2), n = u (u + 2), with u = e^min(x, 12) from exp16_pos
 * (a cubic, 2^n by a shift and one multiply) in place of the f32 fast tier's 16-entry table
 * and quadratic. At the clamp 12, u > 2^34 even 2^-13 low, so n + 2 rounds to n and y = x
 * (+inf included), as there. The division stays: mish's tail (x u for x -> -inf) and its
 * rise to x leave no cheaper form of one float core. */
#ifndef ACTK_MATH_MISH_FAST16_H
#define ACTK_MATH_MISH_FAST16_H

#include "exp_fast16.h"
#include "mish.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(mish16_v_rare, mish_v)

ACTK_INLINE vf mish16_v(vf x) {
  exp16 e = exp16_pos(vf_min(vf_splat(12.0f), x)); /* a NaN passes (not a fast lane) */
  vf u = vf_mul(exp16_scale(&e), e.p);
  vf y = mish_of_exp(x, u);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return mish16_v_rare(fast, y, x);
  return y;
}

#endif
