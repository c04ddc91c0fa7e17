/* The one way bench/ reaches the library's internals: the bench programs
 * that measure the pool and the planner (actk_pool_bench,
 * research/actk_pool_ab) need what the public API hides, and
 * they link the static library. Everything else in bench/ uses include/actk.h
 * only.
 *   plan.h      the split planner: actk_plan, the cost classes and their
 *               thresholds, the dispatch-cost estimate
 *   pool.h      the pool's own entry points (actk_pool_run) and its knobs
 *   runner.h    actk_run_ranges and the parallel-calls counter
 *   topology.h  the physical-core count of the affinity mask
 *   registry.h  the op table's ids and lists, ACTK_TIER_COST_* (the fast tier
 *               plans a class cheaper) */
#ifndef ACTK_BENCH_INTERNAL_H
#define ACTK_BENCH_INTERNAL_H

#include "plan.h"
#include "pool.h"
#include "registry.h"
#include "runner.h"
#include "topology.h"

#endif
