/* The bias ops' activations of an f32 sum for the 16-bit types' fast tier
 * (src/ops.toml names them in the bias ops' math fields; the accurate tier's
 * are gelu.h's and gelu_tanh.h's <op>_sum_v16): the fast cores, and the ties
 * of half_tie.h a sum can make. A sum s of two values of the type can be a
 * midpoint of the type, where gelu(s) = s less a hair: its overflow midpoint too
 * (f16 65520, bf16 0x7f7f8000), where rounding s to even gives infinity and the
 * true value rounds to the largest finite value. So both tiers settle the tie at
 * x (x_tie, which counts on s being such a sum: half_tie.h); the accurate one also
 * those at x/2 (gelu.h, gelu_tanh.h). */
#ifndef ACTK_MATH_BIAS16_H
#define ACTK_MATH_BIAS16_H

#include "gelu.h"
#include "gelu_fast.h"
#include "gelu_fast16.h"
#include "gelu_tanh.h"
#include "gelu_tanh_fast.h"
#include "gelu_tanh_fast16.h"
#include "half_tie.h"

ACTK_INLINE vf gelu_sum_fast_f16_v(vf x) { return x_tie(x, gelu16_f16_v(x)); }
ACTK_INLINE vf gelu_sum_fast_bf16_v(vf x) { return x_tie(x, gelu16_bf16_v(x)); }
ACTK_INLINE vf gelu_tanh_sum_fast_f16_v(vf x) { return x_tie(x, gelu_tanh16_f16_v(x)); }
ACTK_INLINE vf gelu_tanh_sum_fast_bf16_v(vf x) { return x_tie(x, gelu_tanh16_bf16_v(x)); }

#endif
