/* mish(x) = x tanh(softplus(x)), fast tier, f32 (mish_fast16.h has the 16-bit core).
 *   error:    relative under 2^-20 over all floats (README has the sweep's maxima; bound
 *             2^-18).
 *   domain:   every float; lanes below x = -87 (where e^x leaves the normal range; the
 *             result stays normal down to -91.8), NaN among them, take the accurate kernel.
 *   specials: those of the accurate tier (mish.h): NaN kept, +inf -> +inf, -inf -> -0,
 *             signs of zero kept.
 *
 * y = x q, q = n / (n + 2), n = u (u + 2), u = e^x = s p rounded once: exp_fast.h's nearest
 * form of the 16-entry table on -x (s = 2^(j/16) with j = round(16 x / ln2) in [-2008, 277]
 * for x in [-87, 12], p a quadratic, 2^-21.1), where it was 2^m times a degree-5 P with a
 * VSCALEFPS: AVX-512 0.302 -> 0.239 ns/element, AVX2 0.338 -> 0.316 (64 Ki, one thread;
 * docs/performance.md). u + 2 keeps u's relative accuracy (no cancellation, unlike (1 + u)^2 - 1,
 * which loses every bit of u below x = -17), and each later step is one rounding. x is clamped at
 * 12 for the exponential: from there n + 2 rounds to n (n > 2^34), so q = 1 and y = x exactly (the
 * true deviation 2 e^-2x is under 2^-33), +inf included; u^2 < 2^35 never overflows. */
#ifndef ACTK_MATH_MISH_FAST_H
#define ACTK_MATH_MISH_FAST_H

#include "exp_fast.h"
#include "mish.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(mish_fast_v_rare, mish_v)

ACTK_INLINE vf mish_fast_v(vf x) {
  /* -min(x, 12); a NaN passes (not a fast lane) */
  exp_fast_lut e = exp_fast_neg_round_lut(vf_xor(vf_min(vf_splat(12.0f), x), vf_splat(-0.0f)));
  vf u = vf_mul(e.s, e.p);
  vf y = mish_of_exp(x, u);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return mish_fast_v_rare(fast, y, x);
  return y;
}

#endif
