/* actk_rope_bench: RoPE (actk_rope_f32) on the shapes inference engines run,
 * serial (pool NULL) and on the default pool, next to a memcpy of the same
 * bytes (x -> y), measured interleaved.
 *
 *   actk_rope_bench [--quick] [--csv] [--pin]
 *
 * Shapes (H = 32 heads, D = 128, rotary_dim = D, theta 10000):
 *   prefill s128   B=1, S=128  (llama3-8B-like prompt), BSHD and BHSD
 *   prefill s2048  B=1, S=2048 (a long prompt), BSHD and BHSD
 *   decode b1/b8/b32  S=1, B in {1, 8, 32}, BSHD, one position id per sequence
 * Prefill takes positions 0..S-1 (position_ids NULL); decode reads a [B][1]
 * position-id array. Both styles (split-half, interleaved). Each cell is run
 * with idle gaps 0, 20 (busy-wait) and 500 us (sleep) before every call.
 *
 * Columns: us per call (median), ns per element, ratio to the copy, 1T/pool
 * (> 1: the pool helped), par% (share of timed pool calls that took the
 * parallel branch, from actk_runner_parallel_calls), plan (what the planner
 * does with that many elements at the hot / cold dispatch cost: "skip" means
 * below actk_plan_min_parallel, the pool is not even read). For decode the
 * program checks the claims: "never touches the pool" (par% 0 and n below
 * the minimum) and "time per call < 1 us + copy time" at B=1.
 *
 * --pin: an own pool with the default settings and pin = 1 (worker i on the
 * i-th allowed physical core) instead of actk_pool_default(), and the calling
 * thread on the first allowed CPU, so no worker shares the caller's CPU.
 *
 * Variants run in interleaved blocks (copy, 1T, pool, rotating), each block
 * after a 1 ms sleep, untimed calls for 60 us (at least one: a woken worker
 * has arrived by then), then 8 timed calls; medians. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actk.h"
#include "plan.h"

#include "bench_util.h"

#define H 32
#define D 128
#define MAXPOS 4096

/* ---- calls ---- */

typedef struct rope_call {
  actk_pool *pool;
  const actk_rope_desc *d;
  const float *x;
  const int64_t *ids;
  const float *cos_c, *sin_c;
  float *y;
  size_t bytes;
} rope_call;

static void call_rope(void *p) {
  const rope_call *c = p;
  actk_rope_f32(c->pool, c->d, c->x, c->ids, c->cos_c, c->sin_c, c->y);
}

static void call_copy(void *p) {
  const rope_call *c = p;
  memcpy(c->y, c->x, c->bytes);
  /* keep the copy from being elided or merged across calls */
  __asm__ volatile("" : : "r"(c->y) : "memory");
}

typedef struct shape {
  const char *name;
  size_t B, S;
  int decode;
} shape;

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!bench_flag(argv[i])) {
      fprintf(stderr, "usage: %s [--quick] [--csv] [--pin]\n", argv[0]);
      return 2;
    }
  }
  bench_init("actk_rope_bench");
  uint64_t t_start = now_ns();
  double load[3];
  bench_loadavg(load);
  probe_dispatch_costs(); /* before any pinning: it needs two CPUs */
  actk_pool *pool = NULL;
  if (g_pin) {
    /* the pool sizes itself from this thread's mask: create it, then pin */
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.pin = 1;
    actk_status pst = actk_pool_create(&cfg, &pool);
    if (pst != ACTK_OK) die("actk_pool_create", pst);
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      int first = 0;
      while (first < CPU_SETSIZE && !CPU_ISSET(first, &set)) first++;
      CPU_ZERO(&set);
      CPU_SET(first, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
#endif
  } else {
    pool = actk_pool_default();
  }
  if (!pool) die("actk_pool_default", ACTK_ERR_NO_THREADS);
  unsigned T = actk_pool_threads(pool);
  note("actk_rope_bench: actk %s, isa %s, %s", actk_version_string(),
       actk_isa_name(actk_isa_active()), g_quick ? "--quick" : "full run");
  note("cpu: %s", actk_cpu_summary());
  note("online cpus %ld, pool: %s, %u threads (default spin), load average %.2f %.2f %.2f",
       sysconf(_SC_NPROCESSORS_ONLN),
       g_pin ? "own, pin = 1, caller pinned to the first CPU" : "actk_pool_default(), unpinned", T,
       load[0], load[1], load[2]);
  note("dispatch costs the runner plans with (src/pool.c): hot %llu ns, cold %llu ns",
       (unsigned long long)g_hot_ns, (unsigned long long)g_cold_ns);
  note("H=%d D=%d rotary_dim=D, cache %d positions; planner min_parallel (cheap) = %zu "
       "elements; gaps < %u us busy-wait, longer ones sleep",
       H, D, MAXPOS, actk_plan_min_parallel(ACTK_COST_CHEAP), SLEEP_MIN_US);

  static const shape shapes[] = {{"prefill s128", 1, 128, 0},
                                 {"prefill s2048", 1, 2048, 0},
                                 {"decode b1", 1, 1, 1},
                                 {"decode b8", 8, 1, 1},
                                 {"decode b32", 32, 1, 1}};
  static const unsigned gaps[] = {0, 20, 500};
  const size_t max_el = 2048 * H * D;
  float *x = xalloc(max_el * sizeof(float));
  float *y = xalloc(max_el * sizeof(float));
  float *y2 = xalloc(max_el * sizeof(float));
  float *cos_c = xalloc((size_t)MAXPOS * (D / 2) * sizeof(float));
  float *sin_c = xalloc((size_t)MAXPOS * (D / 2) * sizeof(float));
  int64_t ids[32];
  uint32_t seed = 987654321u;
  for (size_t i = 0; i < max_el; i++) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
  }
  memset(y, 0, max_el * sizeof(float));
  memset(y2, 0, max_el * sizeof(float));
  for (int b = 0; b < 32; b++) ids[b] = 1000 + 61 * b; /* sequences at different lengths */
  actk_status st = actk_rope_cache_f32(cos_c, sin_c, MAXPOS, D, 0);
  if (st != ACTK_OK) die("actk_rope_cache_f32", st);

  static const col cols[] = {{"shape", 13},  {"layout", 6},  {"style", 5},       {"gap", 3},
                             {"elems", 7},   {"copy_us", 7}, {"1T_us", 7},       {"1T_ns/el", 8},
                             {"1T/copy", 7}, {"pool_us", 7}, {"pool_ns/el", 10}, {"pool/copy", 9},
                             {"1T/pool", 7}, {"par%", 4},    {"plan_h/c", 13},   {"bits", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  note("");
  t_head("rope", cols, nc);
  int failures = 0;
  double b1_over[2][2] = {{0, 0}, {0, 0}}; /* decode b1, [style][1T, pool]: rope - copy at gap 0 */
  unsigned long b1_par = 0;
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const shape *sh = &shapes[si];
    int nlayouts = sh->decode ? 1 : 2;
    for (int lay = 0; lay < nlayouts; lay++) {
      for (int sty = 0; sty < 2; sty++) {
        actk_rope_desc d;
        actk_rope_desc_init(&d);
        d.batch = sh->B;
        d.seq_len = sh->S;
        d.heads = H;
        d.head_size = D;
        d.layout = lay ? ACTK_ROPE_BHSD : ACTK_ROPE_BSHD;
        d.style = sty ? ACTK_ROPE_INTERLEAVED : ACTK_ROPE_SPLIT_HALF;
        d.max_position = MAXPOS;
        const int64_t *pid = sh->decode ? ids : NULL;
        size_t n = sh->B * sh->S * H * D;
        rope_call c1 = {NULL, &d, x, pid, cos_c, sin_c, y, n * sizeof(float)};
        rope_call cp = c1;
        cp.pool = pool;
        /* the pool's result must be the serial one, bit for bit */
        if ((st = actk_rope_f32(NULL, &d, x, pid, cos_c, sin_c, y)) != ACTK_OK) die("rope", st);
        if ((st = actk_rope_f32(pool, &d, x, pid, cos_c, sin_c, y2)) != ACTK_OK) die("rope", st);
        int same = memcmp(y, y2, n * sizeof(float)) == 0;
        if (!same) failures++;
        for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
          variant v[3] = {{"copy", call_copy, &c1, NULL, 0, 0, 0, 0},
                          {"1T", call_rope, &c1, NULL, 0, 0, 0, 0},
                          {"pool", call_rope, &cp, NULL, 0, 0, 0, 0}};
          double budget = g_quick ? 80 : 500;
          /* 1 ms between blocks: each block starts from a parked pool */
          measure(v, 3, gaps[gi], 1000, budget, 3, 4000, median_u64);
          double copy = v[0].med, one = v[1].med, par = v[2].med;
          const char *vals[] = {sh->name,
                                lay ? "BHSD" : "BSHD",
                                sty ? "inter" : "half",
                                F("%u", gaps[gi]),
                                F("%zu", n),
                                US(copy),
                                US(one),
                                F("%.3f", one / (double)n),
                                F("%.2f", one / copy),
                                US(par),
                                F("%.3f", par / (double)n),
                                F("%.2f", par / copy),
                                F("%.2f", one / par),
                                v[2].par ? F("%.0f", 100.0 * (double)v[2].par / (double)v[2].ns)
                                         : "0",
                                F("%s/%s", plan_str(n, D, T, ACTK_COST_CHEAP, g_hot_ns),
                                  plan_str(n, D, T, ACTK_COST_CHEAP, g_cold_ns)),
                                same ? "same" : "DIFF"};
          t_row("rope", cols, nc, vals);
          if (sh->decode && sh->B == 1) {
            b1_par += v[2].par;
            if (gaps[gi] == 0) {
              b1_over[sty][0] = one - copy;
              b1_over[sty][1] = par - copy;
            }
          }
        }
      }
    }
  }
  note("");
  note("== decode checks ==");
  size_t n1 = (size_t)H * D;
  int untouched = n1 < actk_plan_min_parallel(ACTK_COST_CHEAP) && b1_par == 0;
  note("decode b1 (%zu elements) never touches the pool: %s (n %s min_parallel %zu, "
       "parallel-branch calls %lu)",
       n1, untouched ? "yes" : "NO", n1 < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "<" : ">=",
       actk_plan_min_parallel(ACTK_COST_CHEAP), b1_par);
  for (int sty = 0; sty < 2; sty++)
    note("decode b1 %s, gap 0: rope - copy = %.0f ns serial, %.0f ns via the pool "
         "(target < 1000 ns): %s",
         sty ? "interleaved" : "split-half", b1_over[sty][0], b1_over[sty][1],
         b1_over[sty][0] < 1000 && b1_over[sty][1] < 1000 ? "PASS" : "FAIL");
  note("decode b8 / b32 = %zu / %zu elements: %s / %s the pool's minimum (%zu)", (size_t)8 * H * D,
       (size_t)32 * H * D,
       (size_t)8 * H * D < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "below" : "at or above",
       (size_t)32 * H * D < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "below" : "at or above",
       actk_plan_min_parallel(ACTK_COST_CHEAP));
  if (failures) note("!! %d shape(s) gave different bits on the pool than serially", failures);
  note("total time %.1f s", (double)(now_ns() - t_start) / 1e9);
  free(x);
  free(y);
  free(y2);
  free(cos_c);
  free(sin_c);
  if (g_pin) actk_pool_destroy(pool);
  return failures ? 1 : 0;
}
