/* The split: use a second thread only when the time it saves beats the
 * dispatch twice over; give each thread at least that much work; cut a few
 * chunks per thread so a late or preempted worker costs little, but never
 * chunks so small that claiming them costs more than a few percent.
 *
 * Costs per element are for the AVX-512 implementation on Zen 4 (bench/actk_pool_bench
 * reproduces them); a slower implementation only makes splitting more worthwhile, so
 * planning with the fastest is the safe side. With a spinning pool (2 us) a
 * 2-thread split starts at ~20K tanh or ~11K gelu elements; with a sleeping
 * one (30 us) at ~300K / ~160K. */
#include "plan.h"

/* picoseconds per element, fastest implementation, single thread, in cache,
 * by class (measured by bench/actk_pool_bench: RoPE 77-80, tanh 406, gelu
 * 741-746; bench/actk_ratio: the fast tier's sigmoid, silu 249, erf 288,
 * tanh 320 for LIGHT, its gelu 560 and bias ops 609-638 within MEDIUM's) */
static const uint64_t ps_per_item[] = {80, 400, 750, 250};
/* the dispatch the thresholds assume when nothing better is known: a
 * spinning pool (the cheapest case) */
#define ACTK_MIN_DISPATCH_NS ACTK_DISPATCH_HOT_NS
/* a chunk should carry at least this much work: claiming one costs ~100 ns */
#define ACTK_MIN_CHUNK_NS 5000u
#define ACTK_CHUNKS_PER_THREAD 4u

static uint64_t work_ns(size_t n, actk_cost cost) {
  return (uint64_t)n * ps_per_item[cost] / 1000u;
}

/* Threads t pay off when the work saved, w (1 - 1/t), exceeds 2 dispatches:
 * for t = 2 that is w > 4 dispatches. */
size_t actk_plan_min_parallel(actk_cost cost) {
  return (size_t)(4u * ACTK_MIN_DISPATCH_NS * 1000u / ps_per_item[cost]);
}

actk_plan actk_plan_split(size_t n, size_t granule, unsigned threads, actk_cost cost,
                          uint64_t dispatch_ns) {
  actk_plan p = {n, 1, 1};
  if (granule == 0 || n <= granule || threads <= 1) return p;
  /* no dispatch is cheaper than a spinning pool's: keeps the split
   * consistent with actk_plan_min_parallel for any input */
  if (dispatch_ns < ACTK_MIN_DISPATCH_NS) dispatch_ns = ACTK_MIN_DISPATCH_NS;
  uint64_t w = work_ns(n, cost);
  /* largest t with w (1 - 1/t) > 2 dispatch_ns and every thread doing at
   * least 2 dispatches' worth: t <= w / (2 dispatch_ns) */
  uint64_t per = 2 * dispatch_ns;
  if (w <= 2 * per) return p;
  uint64_t t = w / per;
  if (t > threads) t = threads;
  size_t units = (n + granule - 1) / granule;
  if (t > units) t = units;
  if (t < 2) return p;
  /* chunks: a few per thread, each at least ACTK_MIN_CHUNK_NS of work */
  uint64_t chunks = t * ACTK_CHUNKS_PER_THREAD;
  uint64_t max_chunks = w / ACTK_MIN_CHUNK_NS;
  if (chunks > max_chunks) chunks = max_chunks;
  if (chunks < t) chunks = t;
  /* whole rounds where the granules allow it: 5 chunks on 2 threads end 3
   * against 2 (measured 1.64x where 4 chunks give 1.94x) */
  uint64_t rounds = chunks - chunks % t;
  if (rounds != chunks && units / ((units + rounds - 1) / rounds) >= t) chunks = rounds;
  if (chunks > units) chunks = units;
  size_t per_chunk = (size_t)((units + chunks - 1) / chunks) * granule;
  p.chunk = per_chunk;
  p.n_chunks = (n + per_chunk - 1) / per_chunk;
  p.threads = (unsigned)(t < p.n_chunks ? t : p.n_chunks);
  if (p.n_chunks < 2) {
    p.chunk = n;
    p.n_chunks = 1;
    p.threads = 1;
  }
  return p;
}
