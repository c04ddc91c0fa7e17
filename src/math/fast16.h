/* The fast tier's f32 cores for the 16-bit types (ACTK_MATH_fast of
 * src/registry.h names them <op>_fast_<type>_v; the defines below map each
 * name to its core).
 *   error:    faithful on all 65536 inputs of each type, and on every float
 *             input of the bias ops' sums (README has each op's measured
 *             maximum in ULP of the type and its share correctly rounded).
 *   domain:   every float (each core's header has its clamps and the lanes
 *             it hands to the accurate kernel).
 *   specials: those of the accurate tier, NaN bits included.
 *
 * Each core is the cheapest measured to keep its type faithful: a relative
 * error under 2^-9 (bf16) or 2^-12 (f16) is faithful for every input, so
 * the cores aim at about 2^-10 and 2^-13. erf and bf16 tanh: one odd
 * polynomial of the clamped x; f16 tanh: a rational; sigmoid, silu, swish,
 * quick_gelu and gelu_tanh: one cubic exp and one division, the same core for
 * both types; gelu: e^G(t), G one polynomial for log Phi(-t). No tables, no
 * interval index, no float pairs. */
#ifndef ACTK_MATH_FAST16_H
#define ACTK_MATH_FAST16_H

#include "erf_fast.h"
#include "erf_fast16.h"
#include "gelu_fast.h"
#include "gelu_fast16.h"
#include "gelu_tanh_fast.h"
#include "gelu_tanh_fast16.h"
#include "sigmoid_fast.h"
#include "sigmoid_fast16.h"
#include "tanh_fast.h"
#include "tanh_fast16.h"

#define erf_fast_f16_v erf16_f16_v
#define tanh_fast_f16_v tanh16_f16_v
#define sigmoid_fast_f16_v sigmoid16_v
#define silu_fast_f16_v silu16_v
#define quick_gelu_fast_f16_v quick_gelu16_v
#define gelu_fast_f16_v gelu16_f16_v
#define gelu_tanh_fast_f16_v gelu_tanh16_v
#define swish_fast_f16_v swish16_v

#define erf_fast_bf16_v erf16_bf16_v
#define tanh_fast_bf16_v tanh16_bf16_v
#define sigmoid_fast_bf16_v sigmoid16_v
#define silu_fast_bf16_v silu16_v
#define quick_gelu_fast_bf16_v quick_gelu16_v
#define gelu_fast_bf16_v gelu16_bf16_v
#define gelu_tanh_fast_bf16_v gelu_tanh16_v
#define swish_fast_bf16_v swish16_v

#endif
