#include "runner.h"

#include "pool.h"

/* Chunks start on 64-byte lines for every arm (16 floats), so element i's
 * vector position, and with it its bits, never depends on the split. */
#define ACTK_VECTOR_GRANULE 16

atomic_ulong actk_runner_parallel_calls;

typedef struct {
  actk_range_fn fn;
  void *ctx;
  size_t n, chunk;
} range_job;

static void range_task(void *p, size_t i) {
  const range_job *j = p;
  size_t begin = i * j->chunk, end = begin + j->chunk;
  j->fn(j->ctx, begin, end < j->n ? end : j->n);
}

void actk_run_ranges(actk_pool *pool, actk_cost cost, size_t n, size_t granule, actk_range_fn fn,
                     void *ctx) {
  /* the length test comes first: small calls never read the pool */
  if (!pool || n < actk_plan_min_parallel(cost)) {
    fn(ctx, 0, n);
    return;
  }
  unsigned width = actk_pool_width(pool);
  if (width <= 1) {
    fn(ctx, 0, n);
    return;
  }
  actk_plan plan = actk_plan_split(n, granule, width, cost, actk_pool_dispatch_cost_ns(pool));
  if (plan.n_chunks <= 1) {
    fn(ctx, 0, n);
  } else {
    atomic_fetch_add_explicit(&actk_runner_parallel_calls, 1, memory_order_relaxed);
    range_job job = {fn, ctx, n, plan.chunk};
    actk_pool_run(pool, range_task, &job, plan.n_chunks);
  }
  actk_pool_note_call(pool);
}

typedef struct {
  actk_unary_kernel k;
  const float *x;
  float *y;
} unary_ctx;

static void unary_range(void *p, size_t b, size_t e) {
  const unary_ctx *c = p;
  c->k(c->x + b, c->y + b, e - b);
}

void actk_run_unary(actk_pool *pool, actk_cost cost, actk_unary_kernel k, const float *x, float *y,
                    size_t n) {
  unary_ctx c = {k, x, y};
  actk_run_ranges(pool, cost, n, ACTK_VECTOR_GRANULE, unary_range, &c);
}

typedef struct {
  actk_swish_kernel k;
  const float *x;
  float *y;
  float alpha;
} swish_ctx;

static void swish_range(void *p, size_t b, size_t e) {
  const swish_ctx *c = p;
  c->k(c->x + b, c->y + b, e - b, c->alpha);
}

void actk_run_swish(actk_pool *pool, actk_cost cost, actk_swish_kernel k, const float *x, float *y,
                    size_t n, float alpha) {
  swish_ctx c = {k, x, y, alpha};
  actk_run_ranges(pool, cost, n, ACTK_VECTOR_GRANULE, swish_range, &c);
}

typedef struct {
  actk_bias_kernel k;
  const float *x, *bias;
  size_t width;
  float *y;
} bias_ctx;

/* Chunks are whole rows: a cut mid-row would rotate the bias. */
static void bias_range(void *p, size_t b, size_t e) {
  const bias_ctx *c = p;
  c->k(c->x + b, c->bias, c->width, c->y + b, e - b);
}

void actk_run_bias(actk_pool *pool, actk_cost cost, actk_bias_kernel k, const float *x,
                   const float *bias, size_t width, float *y, size_t n) {
  bias_ctx c = {k, x, bias, width, y};
  actk_run_ranges(pool, cost, n, width, bias_range, &c);
}
