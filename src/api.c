/* Public entry points: validate, pick the arm, hand the kernel to the runner. */
#include "actk.h"
#include "dispatch.h"
#include "fpenv.h"
#include "runner.h"
#include "validate.h"

#define ACTK_STR2(x) #x
#define ACTK_STR(x) ACTK_STR2(x)

unsigned actk_version(void) { return ACTK_VERSION; }

const char *actk_version_string(void) {
  return ACTK_STR(ACTK_VERSION_MAJOR) "." ACTK_STR(ACTK_VERSION_MINOR) "." ACTK_STR(
      ACTK_VERSION_PATCH);
}

const char *actk_status_string(actk_status status) {
  switch (status) {
  case ACTK_OK:
    return "ok";
  case ACTK_ERR_NULL_POINTER:
    return "a required pointer is NULL";
  case ACTK_ERR_OVERLAP:
    return "output overlaps an input (only y == x is allowed)";
  case ACTK_ERR_TOO_LARGE:
    return "length too large for the address space";
  case ACTK_ERR_ZERO_WIDTH:
    return "bias width is 0";
  case ACTK_ERR_WIDTH_MISMATCH:
    return "length is not a multiple of the bias width";
  case ACTK_ERR_UNSUPPORTED_ISA:
    return "instruction set not supported by this CPU, OS or build";
  case ACTK_ERR_INVALID_ARGUMENT:
    return "argument out of range";
  case ACTK_ERR_OUT_OF_MEMORY:
    return "out of memory";
  case ACTK_ERR_NO_THREADS:
    return "no worker thread could be started";
  case ACTK_ERR_OUT_OF_RANGE:
    return "a position is outside [0, max_position)";
  case ACTK_ERR_BAD_SHAPE:
    return "rotary_dim is odd or larger than head_size";
  }
  return "unknown status";
}

#define ACTK_UNARY_API(op, cost)                                                                   \
  actk_status actk_##op##_f32(actk_pool *pool, const float *x, float *y, size_t n) {               \
    actk_status s = actk_check_unary(x, y, n);                                                     \
    if (s != ACTK_OK || n == 0) return s;                                                          \
    actk_fpenv env = actk_fpenv_enter();                                                           \
    actk_run_unary(pool, cost, actk_dispatch_active()->op, x, y, n);                               \
    actk_fpenv_leave(env);                                                                         \
    return ACTK_OK;                                                                                \
  }

ACTK_UNARY_API(erf, ACTK_COST_MEDIUM)
ACTK_UNARY_API(tanh, ACTK_COST_MEDIUM)
ACTK_UNARY_API(sigmoid, ACTK_COST_MEDIUM)
ACTK_UNARY_API(gelu, ACTK_COST_EXPENSIVE)
ACTK_UNARY_API(gelu_tanh, ACTK_COST_EXPENSIVE)

actk_status actk_swish_f32(actk_pool *pool, const float *x, float *y, size_t n, float alpha) {
  actk_status s = actk_check_unary(x, y, n);
  if (s != ACTK_OK || n == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  actk_run_swish(pool, ACTK_COST_MEDIUM, actk_dispatch_active()->swish, x, y, n, alpha);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

actk_status actk_silu_f32(actk_pool *pool, const float *x, float *y, size_t n) {
  return actk_swish_f32(pool, x, y, n, 1.0f);
}

actk_status actk_quick_gelu_f32(actk_pool *pool, const float *x, float *y, size_t n) {
  return actk_swish_f32(pool, x, y, n, 1.702f);
}

#define ACTK_BIAS_API(op)                                                                          \
  actk_status actk_##op##_f32(actk_pool *pool, const float *x, const float *bias, size_t width,    \
                              float *y, size_t n) {                                                \
    actk_status s = actk_check_bias(x, bias, width, y, n);                                         \
    if (s != ACTK_OK || n == 0) return s;                                                          \
    actk_fpenv env = actk_fpenv_enter();                                                           \
    actk_run_bias(pool, ACTK_COST_EXPENSIVE, actk_dispatch_active()->op, x, bias, width, y, n);    \
    actk_fpenv_leave(env);                                                                         \
    return ACTK_OK;                                                                                \
  }

ACTK_BIAS_API(bias_gelu)
ACTK_BIAS_API(bias_gelu_tanh)
