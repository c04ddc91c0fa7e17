/* actk_rope_bench: RoPE (actk_rope_f32, _f16, _bf16) on the shapes inference
 * engines run, serial (pool NULL) and on a pool, next to a memcpy of the same
 * bytes (x -> y: n elements of the type), measured interleaved.
 *
 *   actk_rope_bench [--quick] [--csv] [--pin] [--types f32,bf16,f16]
 *                   [--shapes prefill128,prefill2048,decode1,decode8,decode32]
 *                   [--layouts bshd,bhsd] [--gaps 0,20,500] [--threads 1,2,4]
 *
 * Defaults: every type, shape, layout and gap below, the default pool.
 * --threads: instead of the default pool, an own pool of each of those
 * thread counts (default spin; pin = 1 with --pin), one row per count
 * ("thr" column); counts above the machine's CPUs still run (the pool
 * starts that many threads). The 16-bit types take f32 caches (the API's). For
 * bf16, prefill s128 BSHD, the program checks issue 13's bar: one thread
 * within 1.3x of the copy of the same bytes (gap 0).
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
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actk.h"
#include "bench_internal.h" /* the planner, the pool, the runner, the topology */

#include "bench_util.h"

#define H 32
#define D 128
#define MAXPOS 4096

/* ---- calls ---- */

typedef struct rope_call {
  actk_pool *pool;
  const actk_rope_desc *d;
  int type; /* 0 f32, 1 f16, 2 bf16 */
  const void *x;
  const int64_t *ids;
  const float *cos_c, *sin_c;
  void *y;
  size_t bytes;
} rope_call;

static actk_status rope_any(actk_pool *pool, const actk_rope_desc *d, int type, const void *x,
                            const int64_t *ids, const float *cos_c, const float *sin_c, void *y) {
  switch (type) {
  case 1:
    return actk_rope_f16(pool, d, x, ids, cos_c, sin_c, y);
  case 2:
    return actk_rope_bf16(pool, d, x, ids, cos_c, sin_c, y);
  default:
    return actk_rope_f32(pool, d, x, ids, cos_c, sin_c, y);
  }
}

static void call_rope(void *p) {
  const rope_call *c = p;
  actk_status st = rope_any(c->pool, c->d, c->type, c->x, c->ids, c->cos_c, c->sin_c, c->y);
  if (st != ACTK_OK) die("rope", st);
}

static void call_copy(void *p) {
  const rope_call *c = p;
  memcpy(c->y, c->x, c->bytes);
  /* keep the copy from being elided or merged across calls */
  __asm__ volatile("" : : "r"(c->y) : "memory");
}

typedef struct shape {
  const char *name, *key; /* key: the --shapes name */
  size_t B, S;
  int decode;
} shape;

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--quick] [--csv] [--pin] [--types f32,bf16,f16]\n"
          "          [--shapes prefill128,prefill2048,decode1,decode8,decode32]\n"
          "          [--layouts bshd,bhsd] [--gaps 0,20,500] [--threads 1,2,4]\n",
          argv0);
  exit(2);
}

int main(int argc, char **argv) {
  const char *types = NULL, *shapes_sel = NULL, *layouts = NULL;
  unsigned gaps[8] = {0, 20, 500}, tcounts[16];
  int n_gaps = 3, n_threads = 0;
  for (int i = 1; i < argc; i++) {
    if (bench_flag(argv[i])) continue;
    if (i + 1 >= argc) usage(argv[0]);
    if (!strcmp(argv[i], "--types"))
      types = argv[++i];
    else if (!strcmp(argv[i], "--shapes"))
      shapes_sel = argv[++i];
    else if (!strcmp(argv[i], "--layouts"))
      layouts = argv[++i];
    else if (!strcmp(argv[i], "--gaps")) {
      if ((n_gaps = bench_parse_list(argv[++i], gaps, 8, 1000000u)) < 1) usage(argv[0]);
    } else if (!strcmp(argv[i], "--threads")) {
      if ((n_threads = bench_parse_list(argv[++i], tcounts, 16, 1000000u)) < 1) usage(argv[0]);
      for (int k = 0; k < n_threads; k++)
        if (tcounts[k] < 1) usage(argv[0]);
    } else
      usage(argv[0]);
  }
  bench_init("actk_rope_bench");
  uint64_t t_start = now_ns();
  probe_dispatch_costs(); /* before any pinning: it needs two CPUs */
  /* the pools: the default one (or with --pin an own pinned one), or one own
   * pool per --threads count */
  actk_pool *pools[16];
  unsigned pool_t[16];
  int n_pools = n_threads ? n_threads : 1;
  for (int k = 0; k < n_pools; k++) {
    pools[k] = NULL;
    if (g_pin || n_threads) {
      /* a pool sizes itself from this thread's mask: create them all, then pin */
      actk_pool_config cfg;
      actk_pool_config_init(&cfg);
      cfg.pin = g_pin;
      if (n_threads) cfg.threads = tcounts[k];
      actk_status pst = actk_pool_create(&cfg, &pools[k]);
      if (pst != ACTK_OK) die("actk_pool_create", pst);
    } else {
      pools[k] = actk_pool_default();
    }
    if (!pools[k]) die("actk_pool_default", ACTK_ERR_NO_THREADS);
    pool_t[k] = actk_pool_threads(pools[k]);
  }
#ifdef __linux__
  if (g_pin) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      int first = 0;
      while (first < CPU_SETSIZE && !CPU_ISSET(first, &set)) first++;
      bench_pin_self_to(first);
    }
  }
#endif
  bench_header("actk_rope_bench");
  note("pool: %s%s, default spin",
       n_threads ? "own pools, one per --threads count"
       : g_pin   ? "own"
                 : "actk_pool_default(), unpinned",
       g_pin ? ", pin = 1, caller pinned to the first CPU" : "");
  note("dispatch costs the runner plans with (src/pool.c): hot %llu ns, cold %llu ns",
       (unsigned long long)g_hot_ns, (unsigned long long)g_cold_ns);
  note("H=%d D=%d rotary_dim=D, cache %d positions (f32 for every type); planner min_parallel "
       "(cheap) = %zu elements; gaps < %u us busy-wait, longer ones sleep",
       H, D, MAXPOS, actk_plan_min_parallel(ACTK_COST_CHEAP), SLEEP_MIN_US);

  static const shape shapes[] = {{"prefill s128", "prefill128", 1, 128, 0},
                                 {"prefill s2048", "prefill2048", 1, 2048, 0},
                                 {"decode b1", "decode1", 1, 1, 1},
                                 {"decode b8", "decode8", 8, 1, 1},
                                 {"decode b32", "decode32", 32, 1, 1}};
  static const char *const type_names[3] = {"f32", "f16", "bf16"};
  static const size_t esize[3] = {4, 2, 2};
  const size_t max_el = 2048 * H * D;
  float *x = xalloc(max_el * sizeof(float));
  void *xt[3], *yt[3], *y2t[3];
  for (int t = 0; t < 3; t++) {
    xt[t] = t ? xalloc(max_el * esize[t]) : x;
    yt[t] = xalloc(max_el * esize[t]);
    y2t[t] = xalloc(max_el * esize[t]);
  }
  float *cos_c = xalloc((size_t)MAXPOS * (D / 2) * sizeof(float));
  float *sin_c = xalloc((size_t)MAXPOS * (D / 2) * sizeof(float));
  int64_t ids[32];
  uint32_t seed = 987654321u;
  for (size_t i = 0; i < max_el; i++) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
    /* f16 inputs below 2^-14 (subnormal) are 0, as the runs in docs/performance.md had them */
    ((uint16_t *)xt[2])[i] = actk_f32_to_bf16(x[i]);
    ((uint16_t *)xt[1])[i] =
        fabsf(x[i]) < 0x1p-14f ? (uint16_t)(signbit(x[i]) ? 0x8000u : 0u) : actk_f32_to_f16(x[i]);
  }
  for (int b = 0; b < 32; b++) ids[b] = 1000 + 61 * b; /* sequences at different lengths */
  actk_status st = actk_rope_cache_f32(cos_c, sin_c, MAXPOS, D, 0);
  if (st != ACTK_OK) die("actk_rope_cache_f32", st);

  static const col cols[] = {{"shape", 13},      {"type", 4},      {"layout", 6},  {"style", 5},
                             {"thr", 3},         {"gap", 3},       {"elems", 7},   {"copy_us", 7},
                             {"1T_us", 7},       {"1T_ns/el", 8},  {"1T/copy", 7}, {"pool_us", 7},
                             {"pool_ns/el", 10}, {"pool/copy", 9}, {"1T/pool", 7}, {"par%", 4},
                             {"plan_h/c", 13},   {"bits", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  note("");
  t_head("rope", cols, nc);
  int failures = 0, ran_b1 = 0;
  /* decode b1, [type][style][1T, pool]: rope - copy at gap 0 */
  double b1_over[3][2][2] = {{{0}}};
  double bar16[2] = {-1, -1}; /* bf16 prefill s128 BSHD 1T/copy at gap 0, per style */
  unsigned long b1_par = 0;
  for (int ty = 0; ty < 3; ty++) {
    if (!bench_in_list(types, type_names[ty])) continue;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
      const shape *sh = &shapes[si];
      if (!bench_in_list(shapes_sel, sh->key)) continue;
      int nlayouts = sh->decode ? 1 : 2;
      for (int lay = 0; lay < nlayouts; lay++) {
        if (!bench_in_list(layouts, lay ? "bhsd" : "bshd")) continue;
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
          for (int pk = 0; pk < n_pools; pk++) {
            actk_pool *pool = pools[pk];
            const unsigned T = pool_t[pk];
            rope_call c1 = {NULL, &d, ty, xt[ty], pid, cos_c, sin_c, yt[ty], n * esize[ty]};
            rope_call cp = c1;
            cp.pool = pool;
            /* the pool's result must be the serial one, bit for bit */
            if ((st = rope_any(NULL, &d, ty, xt[ty], pid, cos_c, sin_c, yt[ty])) != ACTK_OK)
              die("rope", st);
            if ((st = rope_any(pool, &d, ty, xt[ty], pid, cos_c, sin_c, y2t[ty])) != ACTK_OK)
              die("rope", st);
            int same = memcmp(yt[ty], y2t[ty], n * esize[ty]) == 0;
            if (!same) failures++;
            for (int gi = 0; gi < n_gaps; gi++) {
              variant v[3] = {{"copy", call_copy, &c1, NULL, 0, 0, 0, 0},
                              {"1T", call_rope, &c1, NULL, 0, 0, 0, 0},
                              {"pool", call_rope, &cp, NULL, 0, 0, 0, 0}};
              double budget = g_quick ? 80 : 500;
              /* 1 ms between blocks: each block starts from a parked pool */
              measure(v, 3, gaps[gi], 1000, budget, 3, 4000, median_u64);
              double copy = v[0].med, one = v[1].med, par = v[2].med;
              const char *vals[] = {sh->name,
                                    type_names[ty],
                                    lay ? "BHSD" : "BSHD",
                                    sty ? "inter" : "half",
                                    F("%u", T),
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
                                    par_pct(&v[2], 0),
                                    F("%s/%s", plan_str(n, D, T, ACTK_COST_CHEAP, g_hot_ns),
                                      plan_str(n, D, T, ACTK_COST_CHEAP, g_cold_ns)),
                                    same ? "same" : "DIFF"};
              t_row("rope", cols, nc, vals);
              if (gaps[gi] == 0 && pk == 0 && ty == 2 && si == 0 && lay == 0)
                bar16[sty] = one / copy;
              if (sh->decode && sh->B == 1) {
                ran_b1 = 1;
                b1_par += v[2].par;
                if (gaps[gi] == 0) {
                  b1_over[ty][sty][0] = one - copy;
                  b1_over[ty][sty][1] = par - copy;
                }
              }
            }
          }
        }
      }
    }
  }
  if (bar16[0] >= 0 || bar16[1] >= 0) {
    note("");
    note("== bf16 RoPE, llama3 prefill (B1 S128 H32 D128, BSHD), one thread vs a copy of the same "
         "bytes (bar <= 1.3x) ==");
    for (int sty = 0; sty < 2; sty++)
      if (bar16[sty] >= 0)
        note("bf16 prefill s128 BSHD %s, gap 0: 1T/copy = %.2f: %s",
             sty ? "interleaved" : "split-half", bar16[sty], bar16[sty] <= 1.3 ? "PASS" : "MISS");
  }
  if (ran_b1) {
    note("");
    note("== decode checks ==");
    size_t n1 = (size_t)H * D;
    int untouched = n1 < actk_plan_min_parallel(ACTK_COST_CHEAP) && b1_par == 0;
    note("decode b1 (%zu elements) never touches the pool: %s (n %s min_parallel %zu, "
         "parallel-branch calls %lu)",
         n1, untouched ? "yes" : "NO", n1 < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "<" : ">=",
         actk_plan_min_parallel(ACTK_COST_CHEAP), b1_par);
    for (int ty = 0; ty < 3; ty++) {
      if (!bench_in_list(types, type_names[ty])) continue;
      for (int sty = 0; sty < 2; sty++)
        note("decode b1 %s %s, gap 0: rope - copy = %.0f ns serial, %.0f ns via the pool "
             "(target < 1000 ns): %s",
             type_names[ty], sty ? "interleaved" : "split-half", b1_over[ty][sty][0],
             b1_over[ty][sty][1],
             b1_over[ty][sty][0] < 1000 && b1_over[ty][sty][1] < 1000 ? "PASS" : "FAIL");
    }
    note("decode b8 / b32 = %zu / %zu elements: %s / %s the pool's minimum (%zu)",
         (size_t)8 * H * D, (size_t)32 * H * D,
         (size_t)8 * H * D < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "below" : "at or above",
         (size_t)32 * H * D < actk_plan_min_parallel(ACTK_COST_CHEAP) ? "below" : "at or above",
         actk_plan_min_parallel(ACTK_COST_CHEAP));
  }
  if (failures) note("!! %d shape(s) gave different bits on the pool than serially", failures);
  note("total time %.1f s", (double)(now_ns() - t_start) / 1e9);
  for (int t = 0; t < 3; t++) {
    if (t) free(xt[t]);
    free(yt[t]);
    free(y2t[t]);
  }
  free(x);
  free(cos_c);
  free(sin_c);
  for (int k = 0; k < n_pools; k++)
    if (g_pin || n_threads) actk_pool_destroy(pools[k]);
  return failures ? 1 : 0;
}
