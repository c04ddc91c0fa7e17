/* Public entry points: validate, pick the implementation's kernel, hand it to the runner. */
#include "actk.h"
#include "api_shapes.h"
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

/* ---- the element-wise ops: one body per shape (api_shapes.h); each entry
 * point is a one-line wrapper in ops.gen.c, generated from src/ops.toml ---- */

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

actk_status actk_unary_call(actk_pool *pool, actk_unary_id op, actk_tier tier, actk_type type,
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

actk_status actk_param_call(actk_pool *pool, actk_param_id op, actk_tier tier, actk_type type,
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

actk_status actk_bias_call(actk_pool *pool, actk_bias_id op, actk_tier tier, actk_type type,
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

typedef struct {
  actk_gated_kernel k;
  const char *gate, *up;
  char *y;
  size_t esize;
} gated_ctx;

static void gated_range(void *p, size_t b, size_t e) {
  const gated_ctx *c = p;
  c->k(c->gate + b * c->esize, c->up + b * c->esize, c->y + b * c->esize, e - b);
}

actk_status actk_gated_call(actk_pool *pool, actk_gated_id op, actk_tier tier, actk_type type,
                            actk_cost cost, size_t esize, const void *gate, const void *up, void *y,
                            size_t n) {
  actk_status s = actk_check_gated(gate, up, y, n, esize);
  if (s != ACTK_OK || n == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  gated_ctx c = {actk_dispatch_active()->gated[op][tier][type], gate, up, y, esize};
  actk_run_ranges(pool, cost, n, ACTK_VECTOR_GRANULE, gated_range, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

typedef struct {
  actk_gated_kernel k;
  const char *x;
  char *y;
  size_t esize, d;
} packed_ctx;

/* [b, e) of y in whole rows (the granule is d): row r reads x's row r, its
 * gate half then its up half. */
static void packed_range(void *p, size_t b, size_t e) {
  const packed_ctx *c = p;
  size_t row_in = 2 * c->d * c->esize, row_out = c->d * c->esize;
  for (size_t r = b / c->d; r < e / c->d; r++) {
    const char *x = c->x + r * row_in;
    c->k(x, x + row_out, c->y + r * row_out, c->d);
  }
}

actk_status actk_gated_packed_call(actk_pool *pool, actk_gated_id op, actk_tier tier,
                                   actk_type type, actk_cost cost, size_t esize, const void *x,
                                   void *y, size_t rows, size_t d) {
  actk_status s = actk_check_gated_packed(x, y, rows, d, esize);
  if (s != ACTK_OK || rows == 0 || d == 0) return s;
  actk_fpenv env = actk_fpenv_enter();
  packed_ctx c = {actk_dispatch_active()->gated[op][tier][type], x, y, esize, d};
  actk_run_ranges(pool, cost, rows * d, d, packed_range, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}
