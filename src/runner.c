#include "runner.h"

#include "pool.h"

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
