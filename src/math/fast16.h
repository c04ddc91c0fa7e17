/* The fast tier's f32 cores for the 16-bit types (ACTK_MATH_fast of
 * src/registry.h names them <op>_fast_<type>_v).
 *   error:    faithful on all 65536 inputs of each type (README has each
 *             op's measured maximum in ULP of the type).
 *   domain:   every 16-bit value.
 *   specials: those of the fast f32 tier.
 *
 * A type uses the fast f32 core until a cheaper one is measured faithful for
 * it: the f32 core's 2^-18 is far inside half an ULP of f16 (2^-11) and
 * bf16 (2^-8), so rounding its result once is faithful. */
#ifndef ACTK_MATH_FAST16_H
#define ACTK_MATH_FAST16_H

#include "erf_fast.h"
#include "gelu_fast.h"
#include "gelu_tanh_fast.h"
#include "sigmoid_fast.h"
#include "tanh_fast.h"

#define erf_fast_f16_v erf_fast_v
#define tanh_fast_f16_v tanh_fast_v
#define sigmoid_fast_f16_v sigmoid_fast_v
#define silu_fast_f16_v silu_fast_v
#define quick_gelu_fast_f16_v quick_gelu_fast_v
#define gelu_fast_f16_v gelu_fast_v
#define gelu_tanh_fast_f16_v gelu_tanh_fast_v
#define swish_fast_f16_v swish_fast_v

#define erf_fast_bf16_v erf_fast_v
#define tanh_fast_bf16_v tanh_fast_v
#define sigmoid_fast_bf16_v sigmoid_fast_v
#define silu_fast_bf16_v silu_fast_v
#define quick_gelu_fast_bf16_v quick_gelu_fast_v
#define gelu_fast_bf16_v gelu_fast_v
#define gelu_tanh_fast_bf16_v gelu_tanh_fast_v
#define swish_fast_bf16_v swish_fast_v

#endif
