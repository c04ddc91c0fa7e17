/* How a call is split into chunks: a pure function of its inputs, so tests
 * can sweep thread counts and lengths this machine cannot produce. */
#ifndef ACTK_PLAN_H
#define ACTK_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Work per element of an op, single-threaded on the fastest implementation. */
typedef enum actk_cost {
  ACTK_COST_CHEAP = 0,     /* a few instructions per element: RoPE, copies */
  ACTK_COST_MEDIUM = 1,    /* one exponential or table polynomial: tanh, erf, sigmoid, swish */
  ACTK_COST_EXPENSIVE = 2, /* two of those: gelu, gelu_tanh and their bias forms */
  ACTK_COST_LIGHT = 3      /* between cheap and medium: the fast tier's medium ops */
} actk_cost;

/* Chunks of the element-wise ops are whole vectors of the widest
 * implementation: 16 lanes (one 64-byte line of f32). Bias ops split on
 * whole rows, RoPE on whole heads. */
#define ACTK_VECTOR_GRANULE 16

/* What one dispatch costs (ns): the model the planner weighs work against,
 * from bench/actk_pool_bench on a 2-core Zen 4. HOT: a spinning worker joins
 * a job in 0.15-0.5 us and a real split costs 0.3-1 us over a perfect one
 * (no dispatch is planned cheaper than this). COLD: a parked worker needs a
 * futex wake and a reschedule; pinned, a split then costs 25-27 us over a
 * perfect one. COLD_UNPINNED: unpinned, a woken worker often lands on the
 * caller's CPU (the wakee goes to the waker's CPU) and only takes turns with
 * it until the load balancer moves it, a few hundred microseconds later:
 * measured, a sleeping unpinned pool lost 6-9% on 430 us of work (1 Mi tanh,
 * erf) and gained 1.9x on 800 us (1 Mi gelu). HOST: the engine's own pool,
 * assumed warm-ish (ONNX Runtime's spins too). */
#define ACTK_DISPATCH_HOT_NS 2000u
#define ACTK_DISPATCH_COLD_NS 30000u
#define ACTK_DISPATCH_COLD_UNPINNED_NS 150000u
#define ACTK_DISPATCH_HOST_NS 10000u

typedef struct actk_plan {
  size_t chunk;    /* items per chunk, a multiple of the granule (the last chunk: the rest) */
  size_t n_chunks; /* 1: run serially */
  unsigned threads;
} actk_plan;

/* Below this many items a call never looks at its pool (the cheapest
 * possible dispatch would not pay for itself). */
size_t actk_plan_min_parallel(actk_cost cost);

/* Split n items into chunks of whole granules (vectors, or rows for the bias
 * ops) for at most `threads` threads when a dispatch costs dispatch_ns. */
actk_plan actk_plan_split(size_t n, size_t granule, unsigned threads, actk_cost cost,
                          uint64_t dispatch_ns);

#endif
