/* The accurate tier's math per element type (ACTK_MATH_accurate and
 * ACTK_MATH_SUM_accurate of src/registry.h name <op>_v<core> and
 * <op>_sum_v<core>, core empty for f32, _f16, _bf16): the f32 math, with the
 * ties of half_tie.h settled for what the result is narrowed to (sigmoid.h,
 * gelu.h, gelu_tanh.h define those). The ops without such ties take their
 * f32 math in every type. */
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

#endif
