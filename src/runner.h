/* Runs a kernel over a validated array: serially for small calls (without
 * touching the pool), otherwise split by actk_plan_split over the pool. */
#ifndef ACTK_RUNNER_H
#define ACTK_RUNNER_H

#include <stdatomic.h>

#include "arm.h"
#include "plan.h"

void actk_run_unary(actk_pool *pool, actk_cost cost, actk_unary_kernel k, const float *x, float *y,
                    size_t n);
void actk_run_swish(actk_pool *pool, actk_cost cost, actk_swish_kernel k, const float *x, float *y,
                    size_t n, float alpha);
void actk_run_bias(actk_pool *pool, actk_cost cost, actk_bias_kernel k, const float *x,
                   const float *bias, size_t width, float *y, size_t n);

/* Generic: task(ctx, begin, end) over [0, n) in chunks of whole granules. */
typedef void (*actk_range_fn)(void *ctx, size_t begin, size_t end);
void actk_run_ranges(actk_pool *pool, actk_cost cost, size_t n, size_t granule, actk_range_fn fn,
                     void *ctx);

/* For tests: how many calls took the parallel branch (relaxed counter). */
extern atomic_ulong actk_runner_parallel_calls;

#endif
