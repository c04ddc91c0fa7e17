/* Public entry points: validate, pick the implementation's kernel, hand it to the runner. */
#include "actk.h"
#include "dispatch.h"
#include "fpenv.h"
#include "registry.h"
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

/* ---- the element-wise ops: one body per shape, one wrapper per registry entry ---- */

typedef struct {
  actk_unary_kernel k;
  const char *x;
  char *y;
  size_t esize;
} unary_ctx;

static void unary_range(void *p, size_t b, size_t e) {
  const unary_ctx *c = p;
  c->k(c->x + b * c->esize, c->y + b * c->esize, e - b);
}

static actk_status unary_call(actk_pool *pool, actk_unary_id op, actk_tier tier, actk_type type,
                              actk_cost cost, size_t esize, const void *x, void *y, size_t n) {
  actk_status s = actk_check_unary(x, y, n, esize);
  if (s != ACTK_OK || n == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  unary_ctx c = {actk_dispatch_active()->unary[op][tier][type], x, y, esize};
  actk_run_ranges(pool, cost, n, ACTK_VECTOR_GRANULE, unary_range, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

typedef struct {
  actk_param_kernel k;
  const char *x;
  char *y;
  size_t esize;
  float alpha;
} param_ctx;

static void param_range(void *p, size_t b, size_t e) {
  const param_ctx *c = p;
  c->k(c->x + b * c->esize, c->y + b * c->esize, e - b, c->alpha);
}

static actk_status param_call(actk_pool *pool, actk_param_id op, actk_tier tier, actk_type type,
                              actk_cost cost, size_t esize, const void *x, void *y, size_t n,
                              float alpha) {
  actk_status s = actk_check_unary(x, y, n, esize);
  if (s != ACTK_OK || n == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  param_ctx c = {actk_dispatch_active()->param[op][tier][type], x, y, esize, alpha};
  actk_run_ranges(pool, cost, n, ACTK_VECTOR_GRANULE, param_range, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

typedef struct {
  actk_bias_kernel k;
  const char *x;
  const void *bias;
  size_t width;
  char *y;
  size_t esize;
} bias_ctx;

/* Chunks are whole rows: a cut mid-row would rotate the bias. */
static void bias_range(void *p, size_t b, size_t e) {
  const bias_ctx *c = p;
  c->k(c->x + b * c->esize, c->bias, c->width, c->y + b * c->esize, e - b);
}

static actk_status bias_call(actk_pool *pool, actk_bias_id op, actk_tier tier, actk_type type,
                             actk_cost cost, size_t esize, const void *x, const void *bias,
                             size_t width, void *y, size_t n) {
  actk_status s = actk_check_bias(x, bias, width, y, n, esize);
  if (s != ACTK_OK || n == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  bias_ctx c = {actk_dispatch_active()->bias[op][tier][type], x, bias, width, y, esize};
  actk_run_ranges(pool, cost, n, width, bias_range, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

/* actk_<op>_<type><tier suffix> for every registry entry */
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type name */
#define ACTK_API_UNARY_TT(type, T, core, tulp, op, cost, tier, suffix)                             \
  actk_status actk_##op##_##type##suffix(actk_pool *pool, const T *x, T *y, size_t n) {            \
    return unary_call(pool, ACTK_UNARY_##op, ACTK_TIER_##tier, ACTK_TYPE_##type,                   \
                      ACTK_TIER_COST_##tier(cost), sizeof(T), x, y, n);                            \
  }
#define ACTK_API_UNARY_T(tier, suffix, ulp, rel, op, cost)                                         \
  ACTK_FOR_EACH_TYPE(ACTK_API_UNARY_TT, op, cost, tier, suffix)
#define ACTK_API_UNARY(op, cost, props, ...) ACTK_FOR_EACH_TIER(ACTK_API_UNARY_T, op, cost)
ACTK_FOR_EACH_UNARY(ACTK_API_UNARY, )

#define ACTK_API_PARAM_TT(type, T, core, tulp, op, cost, tier, suffix)                             \
  actk_status actk_##op##_##type##suffix(actk_pool *pool, const T *x, T *y, size_t n,              \
                                         float alpha) {                                            \
    return param_call(pool, ACTK_PARAM_##op, ACTK_TIER_##tier, ACTK_TYPE_##type,                   \
                      ACTK_TIER_COST_##tier(cost), sizeof(T), x, y, n, alpha);                     \
  }
#define ACTK_API_PARAM_T(tier, suffix, ulp, rel, op, cost)                                         \
  ACTK_FOR_EACH_TYPE(ACTK_API_PARAM_TT, op, cost, tier, suffix)
#define ACTK_API_PARAM(op, cost, u, v, ...) ACTK_FOR_EACH_TIER(ACTK_API_PARAM_T, op, cost)
ACTK_FOR_EACH_PARAM(ACTK_API_PARAM, )

#define ACTK_API_BIAS_TT(type, T, core, tulp, op, cost, tier, suffix)                              \
  actk_status actk_##op##_##type##suffix(actk_pool *pool, const T *x, const T *bias, size_t width, \
                                         T *y, size_t n) {                                         \
    return bias_call(pool, ACTK_BIAS_##op, ACTK_TIER_##tier, ACTK_TYPE_##type,                     \
                     ACTK_TIER_COST_##tier(cost), sizeof(T), x, bias, width, y, n);                \
  }
#define ACTK_API_BIAS_T(tier, suffix, ulp, rel, op, cost)                                          \
  ACTK_FOR_EACH_TYPE(ACTK_API_BIAS_TT, op, cost, tier, suffix)
#define ACTK_API_BIAS(op, f, cost, ...) ACTK_FOR_EACH_TIER(ACTK_API_BIAS_T, op, cost)
ACTK_FOR_EACH_BIAS(ACTK_API_BIAS, )
/* NOLINTEND(bugprone-macro-parentheses) */
