/* sigmoid(x), swish(x, alpha) = x sigmoid(alpha x), fast tier.
 * Relative error over all floats 2^-20.03 (sigmoid, monotone), 2^-20.20 (silu), 2^-19.26
 * (quick_gelu); bound 2^-18.
 * Domain: every float; lanes with alpha x below -87 (-24 for swish with alpha != 1), NaN among
 * them, take the accurate kernel. Special values: those of the accurate tier (sigmoid.h).
 *
 * y = x / (1 + E), E = e^-z = s p (exp_fast.h: s = 2^(n/16) from a 16-entry table, p = P(r) of
 * degree 2), d = s p + 1 with one fma, one rounding; the division is the only other rounding.
 * z is clamped at 24 from above (E < 2^-34 there: d rounds to 1 either way; 16 n >= -554, inside
 * the table's exponent range). Down to z = -87 (16 n <= 2008 < 2047) E stays finite and y = x / d
 * keeps its relative accuracy even where it is subnormal (one correctly rounded division); below,
 * E would overflow: those lanes, rare in activations, are the accurate kernel's (selected per
 * lane). sigmoid uses exp's floor form: E never rises with x and every later step is correctly
 * rounded, so sigmoid never steps down. The division stays: division-free forms did not pay (a
 * piecewise polynomial needs a lookup and an FMA per degree, more than the division's 0.024
 * ns/element on AVX-512; see docs/performance.md). silu, swish and quick_gelu are not monotone
 * and take the table's nearest form (one addition fewer: 0.192 against 0.203 ns/element for
 * silu on AVX-512; the degree-5 exponential with a VSCALEFPS took 0.252). P's error (2^-21.1)
 * adds to that of ln2 as one float (126 steps of ln2 at z = -87: 2^-22) and, for swish, to the
 * rounding of z = alpha x (|z| 2^-24): its fast lanes stop at z = -24 (x = -14.1 for quick_gelu).
 */
#ifndef ACTK_MATH_SIGMOID_FAST_H
#define ACTK_MATH_SIGMOID_FAST_H

#include "exp_fast.h"
#include "sigmoid.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(sigmoid_fast_v_rare, sigmoid_v)

ACTK_INLINE vf sigmoid_fast_v(vf x) {
  exp_fast_lut e = exp_fast_neg(vf_min(vf_splat(24.0f), x)); /* NaN passes: not a fast lane */
  vf y = vf_div(vf_splat(1.0f), exp_fast_lut_fma(&e, vf_splat(1.0f)));
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return sigmoid_fast_v_rare(fast, y, x);
  return y;
}

/* x / (1 + e^-z) for z >= -87 (z is clamped at 24 here), nearest-form exponential. */
ACTK_INLINE vf logistic_fast_round(vf x, vf z) {
  exp_fast_lut e = exp_fast_neg_round_lut(vf_min(vf_splat(24.0f), z)); /* NaN: not a fast lane */
  return vf_div(x, exp_fast_lut_fma(&e, vf_splat(1.0f)));
}

ACTK_RARE_LANES(silu_fast_v_rare, silu_v)

ACTK_INLINE vf silu_fast_v(vf x) {
  vf y = logistic_fast_round(x, x);
  vm fast = vm_ge(x, vf_splat(-87.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return silu_fast_v_rare(fast, y, x);
  return y;
}

ACTK_RARE_LANES_PARAM(swish_fast_v_rare, swish_v)

ACTK_INLINE vf swish_fast_v(vf x, vf alpha) {
  vf z = vf_mul(alpha, x);
  vf y = logistic_fast_round(x, z);
  vm fast = vm_ge(z, vf_splat(-24.0f));
  if (ACTK_UNLIKELY(!vm_all(fast))) return swish_fast_v_rare(fast, y, x, alpha);
  return y;
}

ACTK_INLINE vf quick_gelu_fast_v(vf x) { return swish_fast_v(x, vf_splat(ACTK_QUICK_GELU_ALPHA)); }

#endif
