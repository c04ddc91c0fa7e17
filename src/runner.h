/* Runs a task over [0, n) of a validated call: serially for small calls
 * (without touching the pool), otherwise split by actk_plan_split over the
 * pool. It knows no kernel: each entry point builds its own context. */
#ifndef ACTK_RUNNER_H
#define ACTK_RUNNER_H

#include <stdatomic.h>
#include <stddef.h>

#include "actk.h"
#include "plan.h"

/* fn(ctx, begin, end) over [0, n) in chunks of whole granules (the last
 * chunk: the rest). */
typedef void (*actk_range_fn)(void *ctx, size_t begin, size_t end);
void actk_run_ranges(actk_pool *pool, actk_cost cost, size_t n, size_t granule, actk_range_fn fn,
                     void *ctx);

/* For tests: how many calls took the parallel branch (relaxed counter). */
extern atomic_ulong actk_runner_parallel_calls;

#endif
