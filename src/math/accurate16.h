/* The accurate tier's math per element type (ACTK_MATH_accurate and
 * ACTK_MATH_SUM_accurate of src/registry.h name <op>_v<core> and
 * <op>_sum_v<core>, core empty for f32, _f16, _bf16): the f32 math, with the
 * ties of half_tie.h settled for what the result is narrowed to. The ops
 * without such ties take their f32 math in every type. */
#ifndef ACTK_MATH_ACCURATE16_H
#define ACTK_MATH_ACCURATE16_H

#include "erf.h"
#include "gelu.h"
#include "gelu_tanh.h"
#include "sigmoid.h"
#include "tanh.h"

#define erf_v_f16 erf_v
#define erf_v_bf16 erf_v
#define tanh_v_f16 tanh_v
#define tanh_v_bf16 tanh_v
#define sigmoid_v_f16 sigmoid_v
#define sigmoid_v_bf16 sigmoid_v
#define silu_v_f16 silu_v16
#define silu_v_bf16 silu_v16
#define quick_gelu_v_f16 quick_gelu_v16
#define quick_gelu_v_bf16 quick_gelu_v16
#define swish_v_f16 swish_v16
#define swish_v_bf16 swish_v16
#define gelu_v_f16 gelu_v16
#define gelu_v_bf16 gelu_v16
#define gelu_tanh_v_f16 gelu_tanh_v16
#define gelu_tanh_v_bf16 gelu_tanh_v16

/* the bias ops' activations, of an f32 sum (f32: the unary math) */
#define gelu_sum_v gelu_v
#define gelu_sum_v_f16 gelu_sum_v16
#define gelu_sum_v_bf16 gelu_sum_v16
#define gelu_tanh_sum_v gelu_tanh_v
#define gelu_tanh_sum_v_f16 gelu_tanh_sum_v16
#define gelu_tanh_sum_v_bf16 gelu_tanh_sum_v16

#endif
