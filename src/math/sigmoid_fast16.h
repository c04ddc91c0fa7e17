/* sigmoid(x), swish(x, alpha) = x sigmoid(alpha x), silu and quick_gelu for the 16-bit
 * types, fast tier (fast16.h): one core per type, <op>16_f16_v and <op>16_bf16_v.
 *   error:    relative 2^-13.2 (f16) and 2^-11.0 (bf16) over every float with alpha x >= -87:
 *             faithful once rounded (README has the measured maxima); sigmoid monotone.
 *   domain:   every float and alpha; lanes with alpha x below -87 (results that go
 *             subnormal in bf16) and NaN take the accurate kernel (sigmoid.h), selected per
 *             lane; alpha x is clamped at 24 from above (e^-24 < 2^-34: 1 + E rounds to 1).
 *   specials: those of the accurate tier: NaN kept, limits at +-Inf, -0 kept.
 *
 * y = x / (1 + E), E = e^-z (exp16_one_plus: f16 a cubic, 2^-13.25; bf16 a line times an
 * 8-entry table, 2^-11.04), d = 1 + E with one fma and one correctly rounded division: the
 * exponential is the only error that matters (its error reaches the result scaled by
 * E / (1 + E) < 1). alpha x is rounded once: |z| 2^-24 <= 2^-17.6. */
#ifndef ACTK_MATH_SIGMOID_FAST16_H
#define ACTK_MATH_SIGMOID_FAST16_H

#include "exp_fast16.h"
#include "sigmoid.h"
#include "rare_lanes.h"

#define ACTK_FAST16_ZMIN (-87.0f)
#define ACTK_FAST16_ZMAX 24.0f

/* x / (1 + e^-z) for z >= -87 (z is clamped at 24 here), f16 (bf16 = 0) or bf16. */
ACTK_INLINE vf logistic16(vf x, vf z, int bf16) {
  return vf_div(x, exp16_one_plus(vf_min(vf_splat(ACTK_FAST16_ZMAX), z), bf16));
}

ACTK_RARE_LANES(sigmoid16_v_rare, sigmoid_v)

ACTK_INLINE vf sigmoid16_of(vf x, int bf16) {
  vf y = logistic16(vf_splat(1.0f), x, bf16);
  vm fast = vm_ge(x, vf_splat(ACTK_FAST16_ZMIN));
  if (ACTK_UNLIKELY(!vm_all(fast))) return sigmoid16_v_rare(fast, y, x);
  return y;
}

ACTK_RARE_LANES(silu16_v_rare, silu_v)

ACTK_INLINE vf silu16_of(vf x, int bf16) {
  vf y = logistic16(x, x, bf16);
  vm fast = vm_ge(x, vf_splat(ACTK_FAST16_ZMIN));
  if (ACTK_UNLIKELY(!vm_all(fast))) return silu16_v_rare(fast, y, x);
  return y;
}

ACTK_RARE_LANES_PARAM(swish16_v_rare, swish_v)

ACTK_INLINE vf swish16_of(vf x, vf alpha, int bf16) {
  vf z = vf_mul(alpha, x);
  vf y = logistic16(x, z, bf16);
  vm fast = vm_ge(z, vf_splat(ACTK_FAST16_ZMIN));
  if (ACTK_UNLIKELY(!vm_all(fast))) return swish16_v_rare(fast, y, x, alpha);
  return y;
}

/* the kernels' math (src/ops.toml), by type */
ACTK_INLINE vf sigmoid16_f16_v(vf x) { return sigmoid16_of(x, 0); }
ACTK_INLINE vf sigmoid16_bf16_v(vf x) { return sigmoid16_of(x, 1); }
ACTK_INLINE vf silu16_f16_v(vf x) { return silu16_of(x, 0); }
ACTK_INLINE vf silu16_bf16_v(vf x) { return silu16_of(x, 1); }
ACTK_INLINE vf swish16_f16_v(vf x, vf alpha) { return swish16_of(x, alpha, 0); }
ACTK_INLINE vf swish16_bf16_v(vf x, vf alpha) { return swish16_of(x, alpha, 1); }
ACTK_INLINE vf quick_gelu16_f16_v(vf x) {
  return swish16_of(x, vf_splat(ACTK_QUICK_GELU_ALPHA), 0);
}
ACTK_INLINE vf quick_gelu16_bf16_v(vf x) {
  return swish16_of(x, vf_splat(ACTK_QUICK_GELU_ALPHA), 1);
}

#endif
