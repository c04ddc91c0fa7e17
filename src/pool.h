/* The thread pool, as the runner sees it. The pool runs tasks 0..n-1 of a
 * job on its workers and the calling thread; it knows nothing about ops. */
#ifndef ACTK_POOL_H
#define ACTK_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "actk.h"

typedef void (*actk_task_fn)(void *ctx, size_t i);

/* Threads a job on this pool can use now, the caller included. 1 when the
 * pool cannot help: NULL, called from one of its own workers (or a host
 * pool's task), a pool inherited across fork(), or the default pool once the
 * library began to unload. */
unsigned actk_pool_width(actk_pool *pool);

/* What one dispatch costs right now, in nanoseconds: small while the workers
 * are still spinning after the last job, large once they sleep (a futex wake
 * and a reschedule). The runner weighs it against the work. */
uint64_t actk_pool_dispatch_cost_ns(actk_pool *pool);

/* The runner tells the pool a call considered it (split or not), so that the
 * next call within the spin window plans with the hot cost. */
void actk_pool_note_call(actk_pool *pool);

/* Run task(ctx, i) for every i in [0, n) and return when all have finished.
 * The caller claims tasks too, so the job completes even if no worker wakes.
 * Tasks run with the caller's FP control word (FTZ/DAZ: src/fpenv.h). */
void actk_pool_run(actk_pool *pool, actk_task_fn task, void *ctx, size_t n);

/* For tests: make the next k thread creations fail (0: none). */
void actk_pool_test_fail_thread_creates(unsigned k);

/* For tests: actk_pool_default() calls hook() while it holds its lock, before
 * it makes the pool (NULL: none), so a test can fork() in that window. */
void actk_pool_test_default_hook(void (*hook)(void));

#endif
