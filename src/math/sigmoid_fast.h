/* sigmoid(x), swish(x, alpha) = x sigmoid(alpha x), fast tier.
 * Max relative error: see README (<= 2^-18 over all floats, every arm); sigmoid monotone.
 * Domain: every float; lanes with alpha x below -87 (and NaN) take the accurate kernel.
 * Special values: those of the accurate tier (sigmoid.h): NaN kept, limits at +-Inf, -0 kept.
 *
 * y = x / (1 + E), E = e^-z = 2^n P (exp_fast.h), d = 1 + E with one fma: the division is the
 * only other rounding. z is clamped at 24 from above (E < 2^-34 there: d rounds to 1 either
 * way). Below z = -87 E would overflow and the result goes subnormal: those lanes, rare in
 * activations, are the accurate kernel's (selected per lane). E never rises with x and every
 * step after it is correctly rounded, so sigmoid never steps down. */
#ifndef ACTK_MATH_SIGMOID_FAST_H
#define ACTK_MATH_SIGMOID_FAST_H

#include "exp_fast.h"
#include "sigmoid.h"

/* x / (1 + e^-z) for z >= -87 (z is clamped at 24 here). */
ACTK_INLINE vf logistic_fast_tier(vf x, vf z) {
  exp_fast e = exp_fast_neg(vf_min(vf_splat(24.0f), z)); /* NaN passes: not a fast lane */
  return vf_div(x, vf_fma(exp_fast_scale(&e), e.p, vf_splat(1.0f)));
}

ACTK_INLINE vf sigmoid_fast_v(vf x) {
  vf y = logistic_fast_tier(vf_splat(1.0f), x);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, sigmoid_v(x));
}

ACTK_INLINE vf silu_fast_v(vf x) {
  vf y = logistic_fast_tier(x, x);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, silu_v(x));
}

ACTK_INLINE vf swish_fast_v(vf x, vf alpha);
ACTK_INLINE vf quick_gelu_fast_v(vf x) { return swish_fast_v(x, vf_splat(ACTK_QUICK_GELU_ALPHA)); }

/* z = alpha x rounded costs |z| 2^-24 of relative error: fast lanes stop at z = -32. */
ACTK_INLINE vf swish_fast_v(vf x, vf alpha) {
  vf z = vf_mul(alpha, x);
  vf y = logistic_fast_tier(x, z);
  vm fast = vm_ge(z, vf_splat(-32.0f));
  if (vm_all(fast)) return y;
  return vf_select(fast, y, swish_v(x, alpha));
}

#endif
