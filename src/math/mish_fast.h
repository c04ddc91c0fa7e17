/* mish(x) = x tanh(softplus(x)), fast tier: one core for f32, f16 and bf16.
 *   error:    relative under 2^-21 over all floats (README has the sweep's maxima; bound
 *             2^-18), so faithful once narrowed to a 16-bit type.
 *   domain:   every float; lanes below x = -87 (where e^x leaves the normal range; the
 *             result stays normal down to -91.8), NaN among them, take the accurate kernel.
 *   specials: those of the accurate tier (mish.h): NaN kept, +inf -> +inf, -inf -> -0,
 *             signs of zero kept.
 *
 * y = x q, q = n / (n + 2), n = u (u + 2), u = e^x = 2^m P (exp_fast.h's nearest form, on -x):
 * u + 2 keeps u's relative accuracy (no cancellation, unlike (1 + u)^2 - 1, which loses every
 * bit of u below x = -17), and each later step is one rounding. x is clamped at 12 for the
 * exponential: from there n + 2 rounds to n (n > 2^34), so q = 1 and y = x exactly (the true
 * deviation 2 e^-2x is under 2^-33), +inf included; u^2 < 2^35 never overflows. */
#ifndef ACTK_MATH_MISH_FAST_H
#define ACTK_MATH_MISH_FAST_H

#include "exp_fast.h"
#include "mish.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(mish_fast_v_rare, mish_v)

ACTK_INLINE vf mish_fast_v(vf x) {
  /* -min(x, 12); a NaN passes (not a fast lane) */
  exp_fast e = exp_fast_neg_round(vf_xor(vf_min(vf_splat(12.0f), x), vf_splat(-0.0f)));
  vf u = vf_ldexp_exact(e.p, e.n, e.t);
  vf y = mish_of_exp(x, u);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return mish_fast_v_rare(fast, y, x);
  return y;
}

#endif
