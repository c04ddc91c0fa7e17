/* gelu_tanh(x) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), for the 16-bit types,
 * fast tier (fast16.h): gelu_tanh16_f16_v and gelu_tanh16_bf16_v.
 *   error:    relative 2^-13.1 (f16) and 2^-11.0 (bf16) over every float with 2u >= -87
 *             (README has the measured maxima on every 16-bit input).
 *   domain:   every float; lanes with 2u below -87 (x below -9.9) and NaN take the accurate
 *             kernel (gelu_tanh.h); 2u is clamped at 24 from above.
 *   specials: those of the accurate tier (NaN kept, +Inf -> +Inf, -Inf -> -0, -0 -> -0).
 *
 * y = x / (1 + e^-2u) with the logistic of sigmoid_fast16.h (its type's exponential). 2u = x (C1 +
 * C3 x^2) in plain floats: its rounding costs |2u| 2^-23 <= 2^-16.6 of relative error (the f32
 * tiers carry 2u as a float pair; a 16-bit result needs 9 or 12 bits). */
#ifndef ACTK_MATH_GELU_TANH_FAST16_H
#define ACTK_MATH_GELU_TANH_FAST16_H

#include "gelu_tanh.h"
#include "sigmoid_fast16.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(gelu_tanh16_v_rare, gelu_tanh_v)

ACTK_INLINE vf gelu_tanh16_of(vf x, int bf16) {
  vf w = vf_fma(vf_splat(ACTK_GT_C3_HI), vf_mul(x, x), vf_splat(ACTK_GT_C1_HI));
  vf z = vf_mul(x, w);
  vf y = logistic16(x, z, bf16);
  vm fast = vm_ge(z, vf_splat(ACTK_FAST16_ZMIN));
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu_tanh16_v_rare(fast, y, x);
  return y;
}

/* the kernels' math (src/ops.toml), by type */
ACTK_INLINE vf gelu_tanh16_f16_v(vf x) { return gelu_tanh16_of(x, 0); }
ACTK_INLINE vf gelu_tanh16_bf16_v(vf x) { return gelu_tanh16_of(x, 1); }

#endif
