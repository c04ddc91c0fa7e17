/* How a call is split into chunks: a pure function of its inputs, so tests
 * can sweep thread counts and lengths this machine cannot produce. */
#ifndef ACTK_PLAN_H
#define ACTK_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* Work per element of an op, single-threaded on the fastest arm. */
typedef enum actk_cost {
  ACTK_COST_CHEAP = 0,    /* a few instructions per element: RoPE, copies */
  ACTK_COST_MEDIUM = 1,   /* one exponential or table polynomial: tanh, erf, sigmoid, swish */
  ACTK_COST_EXPENSIVE = 2 /* two of those: gelu, gelu_tanh and their bias forms */
} actk_cost;

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
