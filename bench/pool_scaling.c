/* pool_scaling: actk_pool_bench's scaling parts, those of bench/scaling.sh
 * (issue 14) beyond the latency (a), sweep and idle (c) sections of
 * actk_pool_bench.c; actk_pool_bench's main hands these parts here.
 *
 *   actk_pool_bench scale   [--omp] [--omp-results FILE] [--threads L] [--ops L] [--sizes L]
 *   actk_pool_bench seed    [--omp] [--omp-results FILE] [--threads T] [--gaps L]
 *   actk_pool_bench contend [--threads T]
 *   actk_pool_bench place   [--threads T] [--smt-test]
 *   actk_pool_bench info    two lines: "threads 1,2,..,N" (scale's default list) and
 *                        "single T" (the others' default count), for scripts
 *   (every part also takes --quick, --csv, --csv-out=FILE: bench_util.h)
 *
 * N below is the number of physical cores the process may run on (its
 * affinity mask and the CPU topology: src/topology.c, the default pool's
 * size); L a comma-separated list.
 *
 * scale  Each op at each size on T threads for T in 1, 2, 4, 8, 16 and N
 *        (only T <= N; --threads replaces the list): serial (pool NULL), an
 *        own pool of T threads (default spin) and, where T is its size, the
 *        default pool; calls back to back (gap 0) after a warm-up. Ops
 *        (--ops): erf, gelu, tanh, gelu_bf16_fast by default, any of the
 *        table below; sizes (--sizes) 64 Ki, 1 Mi, 4 Mi, 16 Mi. With --omp
 *        (its own process: two spinning runtimes in one process fight)
 *        serial and an OpenMP parallel for (num_threads(T), one contiguous
 *        run of whole 16-element vectors per thread, the same kernel with
 *        pool NULL) instead. --omp-results FILE (the --csv-out of an --omp
 *        run) adds the OpenMP speedup to the actk table: omp_x, and own/omp =
 *        own pool speedup over OpenMP's (> 1: actk scales better).
 * seed   The seed figure (LESSONS.md: 67 us back to back, 226 us after a 20
 *        us gap): a 524288-element gelu region at T = min(16, N) threads
 *        (--threads) after idle gaps of 0, 20, 100, 500 us and 5 ms (--gaps;
 *        below 100 us busy-waits, above sleeps): serial, an own pool (default
 *        spin), an own pool with spin_us 0 (always parked) and, where T is
 *        its size, the default pool: time per call, that time over the same
 *        variant's back-to-back (gap 0) time, the speedup over serial, and
 *        par% (the share of timed calls that took the runner's parallel
 *        branch, from actk_runner_parallel_calls: did the planner split?)
 *        next to actk_plan_split's choice at the hot and cold dispatch costs.
 *        --omp / --omp-results as for scale.
 * contend Two runtimes in one process, on T = min(16, N) threads each: the
 *        victim calls gelu(512 Ki) again and again (20 us busy gap before
 *        each call) while an aggressor thread runs gelu(512 Ki) on another
 *        runtime every millisecond (off / on in alternating blocks, medians);
 *        rows: actk pool beside another actk pool (both with the default
 *        spin, both with spin_us 0), the pool beside an OpenMP team, and an
 *        OpenMP team beside an actk pool (spin default, 0). slowdown = the
 *        victim's time with the aggressor over its time alone; cores = the
 *        process's CPU time per wall time during the "on" blocks.
 * place  gelu at 512 Ki and 4 Mi on T = min(16, N) threads at gaps 0, 20 us,
 *        500 us, 5 ms: serial, an own pool unpinned and one with pin = 1
 *        (worker i on the i-th allowed physical core). Where the allowed
 *        CPUs include SMT siblings (/sys/devices/system/cpu/cpu*
 *        /topology/thread_siblings_list), also compact (T threads on T/2
 *        cores, both siblings of each) against spread (T threads on T
 *        cores, one each), every thread of each pool pinned by the bench
 *        itself (a rendezvous job in which each thread pins itself) and the
 *        caller on the first CPU of both; the CPUs the threads ran on are
 *        printed. --smt-test pretends CPUs k and k+1 are siblings (to run
 *        that code on a machine without SMT; the numbers then mean nothing).
 *
 * Variants of one row run in interleaved blocks (bench_util's measure():
 * rotating order, a settle sleep before each block (2 ms: the pools park;
 * 10 ms with OpenMP, whose threads spin longer), untimed calls for 60 us,
 * 8 timed calls), at least 5 rounds (3 with --quick), medians. Every actk
 * call's status is checked; pool results are compared bit for bit with
 * serial ones (scale); par% says whether the parallel branch was taken. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "actk.h"
#include "bench_internal.h" /* the planner, the pool, the runner, the topology */

#include "bench_util.h"

#define GRANULE ACTK_VECTOR_GRANULE /* what the runner splits the element-wise ops on */

/* ---- options and lists ---- */

static int g_omp;              /* --omp */
static const char *g_omp_file; /* --omp-results */
static unsigned g_tl[16];      /* --threads */
static int g_ntl;
static const char *g_ops_sel;   /* --ops */
static unsigned g_sizes_sel[8]; /* --sizes */
static int g_nsizes;
static unsigned g_gaps_sel[8]; /* --gaps */
static int g_ngaps;
static int g_smt_test; /* --smt-test */
static int g_ncores;   /* N */
static int g_core_cpus[1024];

static int min_reps(void) { return g_quick ? 3 : 5; }

/* ---- ops ---- */

typedef actk_status (*f32_fn)(actk_pool *, const float *, float *, size_t);
typedef actk_status (*f16_fn)(actk_pool *, const uint16_t *, uint16_t *, size_t);

typedef struct sop {
  const char *name;
  f32_fn f32;
  f16_fn f16; /* 16-bit ops: f32 is NULL */
  actk_cost cost;
} sop;

static const sop g_ops[] = {
    {"erf", actk_erf_f32, NULL, ACTK_COST_MEDIUM},
    {"tanh", actk_tanh_f32, NULL, ACTK_COST_MEDIUM},
    {"sigmoid", actk_sigmoid_f32, NULL, ACTK_COST_MEDIUM},
    {"silu", actk_silu_f32, NULL, ACTK_COST_MEDIUM},
    {"gelu", actk_gelu_f32, NULL, ACTK_COST_EXPENSIVE},
    {"gelu_tanh", actk_gelu_tanh_f32, NULL, ACTK_COST_EXPENSIVE},
    {"erf_fast", actk_erf_f32_fast, NULL, ACTK_TIER_COST_fast(ACTK_COST_MEDIUM)},
    {"tanh_fast", actk_tanh_f32_fast, NULL, ACTK_TIER_COST_fast(ACTK_COST_MEDIUM)},
    {"gelu_fast", actk_gelu_f32_fast, NULL, ACTK_TIER_COST_fast(ACTK_COST_EXPENSIVE)},
    {"gelu_bf16", NULL, actk_gelu_bf16, ACTK_COST_EXPENSIVE},
    {"gelu_bf16_fast", NULL, actk_gelu_bf16_fast, ACTK_TIER_COST_fast(ACTK_COST_EXPENSIVE)},
    {"gelu_f16_fast", NULL, actk_gelu_f16_fast, ACTK_TIER_COST_fast(ACTK_COST_EXPENSIVE)},
    {"erf_bf16_fast", NULL, actk_erf_bf16_fast, ACTK_TIER_COST_fast(ACTK_COST_MEDIUM)},
    {"tanh_bf16_fast", NULL, actk_tanh_bf16_fast, ACTK_TIER_COST_fast(ACTK_COST_MEDIUM)},
};
#define N_OPS (sizeof g_ops / sizeof g_ops[0])

#define MAX_N ((size_t)16 << 20)
static size_t g_cap = MAX_N;
static float *g_x, *g_y, *g_y2;
static uint16_t *g_x16, *g_y16, *g_y216;

static void buffers(size_t cap) {
  g_cap = cap;
  g_x = bench_inputs(cap);
  g_y = xalloc(cap * sizeof(float));
  g_y2 = xalloc(cap * sizeof(float));
  g_x16 = xalloc(cap * sizeof(uint16_t));
  g_y16 = xalloc(cap * sizeof(uint16_t));
  g_y216 = xalloc(cap * sizeof(uint16_t));
  for (size_t i = 0; i < cap; i++) {
    uint32_t u;
    memcpy(&u, &g_x[i], sizeof u);
    g_x16[i] = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); /* bf16, RNE */
  }
}

/* The f16 ops run on the bf16 patterns too: any 16-bit pattern is a valid
 * input, the work per element is the same. */
typedef struct ocall {
  const sop *op;
  actk_pool *pool;
  size_t n;
  int out2;         /* write the second output buffer (the bit comparison) */
  unsigned threads; /* OpenMP */
} ocall;

static actk_status op_run(const sop *op, actk_pool *pool, size_t lo, size_t hi, int out2) {
  if (op->f32) return op->f32(pool, g_x + lo, (out2 ? g_y2 : g_y) + lo, hi - lo);
  return op->f16(pool, g_x16 + lo, (out2 ? g_y216 : g_y16) + lo, hi - lo);
}

static void call_op(void *p) {
  const ocall *c = p;
  actk_status st = op_run(c->op, c->pool, 0, c->n, c->out2);
  if (st != ACTK_OK) die(c->op->name, st);
}

#ifdef _OPENMP
static void call_omp(void *p) {
  const ocall *c = p;
  const size_t units = (c->n + 15) / 16;
#pragma omp parallel num_threads((int)c->threads)
  {
    size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
    size_t lo = units * t / nt * 16, hi = units * (t + 1) / nt * 16;
    if (hi > c->n) hi = c->n;
    if (lo < hi) op_run(c->op, NULL, lo, hi, c->out2);
  }
}
#endif

static int outputs_equal(const sop *op, size_t n) {
  return op->f32 ? !memcmp(g_y, g_y2, n * sizeof(float))
                 : !memcmp(g_y16, g_y216, n * sizeof(uint16_t));
}

static actk_pool *make_pool(unsigned threads, unsigned spin_us, int pin) {
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = threads;
  cfg.spin_us = spin_us;
  cfg.pin = pin;
  actk_pool *p = NULL;
  actk_status st = actk_pool_create(&cfg, &p);
  if (st != ACTK_OK) die("actk_pool_create", st);
  return p;
}

/* ---- reading an --omp run's CSV (--csv-out) ---- */

typedef struct omp_row {
  char op[32];
  size_t n;
  unsigned threads, gap;
  double serial_us, omp_us, x;
} omp_row;

static omp_row g_omp_rows[4096];
static int g_n_omp_rows;

/* sec: "scale_omp" (op,n,thr,serial_us,omp_us,omp_x) or "seed_omp"
 * (gap,thr,serial_us,omp_us,omp_x) */
static void read_omp(const char *sec) {
  if (!g_omp_file) return;
  FILE *f = fopen(g_omp_file, "r");
  if (!f) {
    note("(cannot read --omp-results %s: no OpenMP columns)", g_omp_file);
    return;
  }
  char line[512];
  size_t sl = strlen(sec);
  while (fgets(line, sizeof line, f) && g_n_omp_rows < 4096) {
    if (strncmp(line, sec, sl) || line[sl] != ',') continue;
    omp_row r;
    memset(&r, 0, sizeof r);
    char *p = line + sl + 1;
    if (!strcmp(sec, "scale_omp")) {
      char *c = strchr(p, ',');
      if (!c || (size_t)(c - p) >= sizeof r.op) continue;
      memcpy(r.op, p, (size_t)(c - p));
      if (sscanf(c + 1, "%zu,%u,%lf,%lf,%lf", &r.n, &r.threads, &r.serial_us, &r.omp_us, &r.x) != 5)
        continue; /* the header line */
    } else if (sscanf(p, "%u,%u,%lf,%lf,%lf", &r.gap, &r.threads, &r.serial_us, &r.omp_us, &r.x) !=
               5) {
      continue;
    }
    g_omp_rows[g_n_omp_rows++] = r;
  }
  fclose(f);
  note("OpenMP columns from %s: %d rows", g_omp_file, g_n_omp_rows);
}

static const omp_row *find_omp(const char *op, size_t n, unsigned threads, unsigned gap) {
  for (int i = 0; i < g_n_omp_rows; i++) {
    const omp_row *r = &g_omp_rows[i];
    if (r->threads != threads) continue;
    if (op && (strcmp(r->op, op) || r->n != n)) continue;
    if (!op && r->gap != gap) continue;
    return r;
  }
  return NULL;
}

/* ---- scale ---- */

static int part_scale(void) {
  static const size_t def_sizes[] = {65536, 1 << 20, 4 << 20, 16 << 20};
  size_t sizes[8];
  int nsizes = 0;
  if (g_nsizes)
    for (int i = 0; i < g_nsizes; i++) sizes[nsizes++] = g_sizes_sel[i];
  else
    for (int i = 0; i < 4; i++) sizes[nsizes++] = def_sizes[i];
  size_t maxn = 0;
  for (int i = 0; i < nsizes; i++) {
    sizes[i] = (sizes[i] + 15) / 16 * 16;
    if (sizes[i] > maxn) maxn = sizes[i];
  }
  buffers(maxn);
  const char *ops = g_ops_sel ? g_ops_sel : "erf,gelu,tanh,gelu_bf16_fast";
  note("");
  if (g_omp) {
#ifndef _OPENMP
    die("--omp: built without OpenMP", ACTK_ERR_INVALID_ARGUMENT);
#else
    note("== scale (OpenMP): serial vs an OpenMP parallel for of the same kernel on T threads, "
         "back to back, us per call ==");
    static const col cols[] = {{"op", 14},       {"n", 9},      {"thr", 3},
                               {"serial_us", 9}, {"omp_us", 9}, {"omp_x", 6}};
    const int nc = (int)(sizeof cols / sizeof cols[0]);
    t_head("scale_omp", cols, nc);
    for (size_t o = 0; o < N_OPS; o++) {
      const sop *op = &g_ops[o];
      if (!bench_in_list(ops, op->name)) continue;
      for (int si = 0; si < nsizes; si++)
        for (int ti = 0; ti < g_ntl; ti++) {
          const size_t n = sizes[si];
          ocall cs = {op, NULL, n, 0, 1}, co = {op, NULL, n, 0, g_tl[ti]};
          variant v[2] = {{"serial", call_op, &cs, NULL, 0, 0, 0, 0},
                          {"omp", call_omp, &co, NULL, 0, 0, 0, 0}};
          measure(v, 2, 0, 10000, g_quick ? 30 : 100, min_reps(), 200, median_u64);
          const char *vals[] = {op->name,
                                F("%zu", n),
                                F("%u", g_tl[ti]),
                                F("%.3f", v[0].med / 1e3),
                                F("%.3f", v[1].med / 1e3),
                                F("%.3f", v[0].med / v[1].med)};
          t_row("scale_omp", cols, nc, vals);
        }
    }
    return 0;
#endif
  }
  read_omp("scale_omp");
  actk_pool *own[16], *def = actk_pool_default();
  if (!def) die("actk_pool_default", ACTK_ERR_NO_THREADS);
  const unsigned tdef = actk_pool_threads(def);
  for (int ti = 0; ti < g_ntl; ti++) own[ti] = make_pool(g_tl[ti], 1000, 0);
  note("== scale: serial vs an own pool of T threads vs the default pool (%u threads: only where "
       "T = %u), back to back, us per call ==",
       tdef, tdef);
  note("own_x, def_x: speedup over serial in the same interleaved rounds; par%%: timed calls that "
       "took the parallel branch; omp_x: OpenMP's speedup (its own process, --omp-results); "
       "own/omp = own_x / omp_x; bits: the pool's output equals serial's");
  static const col cols[] = {{"op", 14},      {"n", 9},     {"thr", 3},   {"serial_us", 9},
                             {"own_us", 9},   {"own_x", 6}, {"own%", 4},  {"def_us", 9},
                             {"def_x", 6},    {"def%", 4},  {"omp_x", 6}, {"own/omp", 7},
                             {"plan_hot", 8}, {"bits", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("scale", cols, nc);
  int diffs = 0;
  for (size_t o = 0; o < N_OPS; o++) {
    const sop *op = &g_ops[o];
    if (!bench_in_list(ops, op->name)) continue;
    for (int si = 0; si < nsizes; si++)
      for (int ti = 0; ti < g_ntl; ti++) {
        const size_t n = sizes[si];
        const unsigned T = g_tl[ti];
        ocall cs = {op, NULL, n, 0, 1}, co = {op, own[ti], n, 0, T}, cd = {op, def, n, 0, T};
        /* bits: the own pool's result is serial's */
        call_op(&cs);
        ocall cb = co;
        cb.out2 = 1;
        call_op(&cb);
        const int same = outputs_equal(op, n);
        diffs += !same;
        variant v[3] = {{"serial", call_op, &cs, NULL, 0, 0, 0, 0},
                        {"own", call_op, &co, NULL, 0, 0, 0, 0},
                        {"default", call_op, &cd, NULL, 0, 0, 0, 0}};
        const int nv = T == tdef ? 3 : 2;
        measure(v, nv, 0, 2000, g_quick ? 30 : 100, min_reps(), 200, median_u64);
        const omp_row *om = find_omp(op->name, n, T, 0);
        const double own_x = v[0].med / v[1].med;
        const char *vals[] = {op->name,
                              F("%zu", n),
                              F("%u", T),
                              F("%.3f", v[0].med / 1e3),
                              F("%.3f", v[1].med / 1e3),
                              F("%.2f", own_x),
                              par_pct(&v[1], 0),
                              nv > 2 ? F("%.3f", v[2].med / 1e3) : "-",
                              nv > 2 ? F("%.2f", v[0].med / v[2].med) : "-",
                              nv > 2 ? par_pct(&v[2], 0) : "-",
                              om ? F("%.2f", om->x) : "-",
                              om ? F("%.2f", own_x / om->x) : "-",
                              plan_str(n, GRANULE, T, op->cost, ACTK_DISPATCH_HOT_NS),
                              same ? "same" : "DIFF"};
        t_row("scale", cols, nc, vals);
      }
  }
  for (int ti = 0; ti < g_ntl; ti++) actk_pool_destroy(own[ti]);
  if (diffs) note("!! %d rows: a pool's output differed from serial's", diffs);
  return diffs ? 1 : 0;
}

/* ---- seed ---- */

#define SEED_N ((size_t)524288)

static int part_seed(void) {
  unsigned gaps[8] = {0, 20, 100, 500, 5000};
  int ngaps = 5;
  if (g_ngaps) {
    ngaps = g_ngaps;
    memcpy(gaps, g_gaps_sel, sizeof gaps);
  }
  buffers(SEED_N);
  const unsigned T = g_tl[0];
  const sop *op = &g_ops[4]; /* gelu */
  note("");
  if (g_omp) {
#ifndef _OPENMP
    die("--omp: built without OpenMP", ACTK_ERR_INVALID_ARGUMENT);
#else
    note("== seed (OpenMP): gelu(%zu) after an idle gap, serial vs OpenMP parallel for on %u "
         "threads, us per call ==",
         SEED_N, T);
    static const col cols[] = {
        {"gap", 5}, {"thr", 3}, {"serial_us", 9}, {"omp_us", 9}, {"omp_x", 6}};
    const int nc = (int)(sizeof cols / sizeof cols[0]);
    t_head("seed_omp", cols, nc);
    for (int g = 0; g < ngaps; g++) {
      ocall cs = {op, NULL, SEED_N, 0, 1}, co = {op, NULL, SEED_N, 0, T};
      variant v[2] = {{"serial", call_op, &cs, NULL, 0, 0, 0, 0},
                      {"omp", call_omp, &co, NULL, 0, 0, 0, 0}};
      measure(v, 2, gaps[g], 10000, g_quick ? 40 : 150, min_reps(), 400, median_u64);
      const char *vals[] = {F("%u", gaps[g]), F("%u", T), F("%.3f", v[0].med / 1e3),
                            F("%.3f", v[1].med / 1e3), F("%.3f", v[0].med / v[1].med)};
      t_row("seed_omp", cols, nc, vals);
    }
    return 0;
#endif
  }
  read_omp("seed_omp");
  actk_pool *def = actk_pool_default();
  if (!def) die("actk_pool_default", ACTK_ERR_NO_THREADS);
  const unsigned tdef = actk_pool_threads(def);
  actk_pool *own = make_pool(T, 1000, 0), *own0 = make_pool(T, 0, 0);
  const int nv = T == tdef ? 4 : 3;
  double med[8][4], b2b[4] = {0, 0, 0, 0};
  char par[8][4][16];
  for (int g = 0; g < ngaps; g++) {
    ocall cs = {op, NULL, SEED_N, 0, 1}, co = {op, own, SEED_N, 0, T},
          c0 = {op, own0, SEED_N, 0, T}, cd = {op, def, SEED_N, 0, T};
    variant v[4] = {{"serial", call_op, &cs, NULL, 0, 0, 0, 0},
                    {"own", call_op, &co, NULL, 0, 0, 0, 0},
                    {"spin0", call_op, &c0, NULL, 0, 0, 0, 0},
                    {"default", call_op, &cd, NULL, 0, 0, 0, 0}};
    measure(v, nv, gaps[g], 2000, g_quick ? 40 : 150, min_reps(), 400, median_u64);
    for (int k = 0; k < nv; k++) {
      med[g][k] = v[k].med;
      snprintf(par[g][k], sizeof par[g][k], "%s", par_pct(&v[k], 0));
      if (gaps[g] == 0) b2b[k] = v[k].med;
    }
  }
  note("== seed: gelu(%zu) after an idle gap on %u threads: us per call, x_b2b = that time over "
       "the same variant's back-to-back (gap 0) time, ser/ = speedup over serial, %% = share of "
       "calls that took the parallel branch ==",
       SEED_N, T);
  note("own: own pool, default spin (1000 us); spin0: own pool, spin_us 0 (always parked); "
       "default: actk_pool_default()%s; omp: OpenMP (its own process); plan: actk_plan_split at "
       "the hot / cold-unpinned dispatch costs (%u / %u ns)",
       nv > 3 ? "" : F(" (not run: %u threads, not %u)", tdef, T), ACTK_DISPATCH_HOT_NS,
       ACTK_DISPATCH_COLD_UNPINNED_NS);
  static const col cols[] = {{"gap_us", 6},   {"serial", 8}, {"own", 8},      {"own_xb2b", 8},
                             {"ser/own", 7},  {"own%", 4},   {"spin0", 8},    {"sp0_xb2b", 8},
                             {"ser/sp0", 7},  {"sp0%", 4},   {"default", 8},  {"def_xb2b", 8},
                             {"def%", 4},     {"omp", 8},    {"omp_xb2b", 8}, {"ser/omp", 7},
                             {"plan_h/c", 12}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("seed", cols, nc);
  const omp_row *ob = find_omp(NULL, 0, T, 0);
  for (int g = 0; g < ngaps; g++) {
    const omp_row *om = find_omp(NULL, 0, T, gaps[g]);
    const char *vals[] = {
        F("%u", gaps[g]),
        US(med[g][0]),
        US(med[g][1]),
        b2b[1] ? F("%.2f", med[g][1] / b2b[1]) : "-",
        F("%.2f", med[g][0] / med[g][1]),
        par[g][1],
        US(med[g][2]),
        b2b[2] ? F("%.2f", med[g][2] / b2b[2]) : "-",
        F("%.2f", med[g][0] / med[g][2]),
        par[g][2],
        nv > 3 ? US(med[g][3]) : "-",
        nv > 3 && b2b[3] ? F("%.2f", med[g][3] / b2b[3]) : "-",
        nv > 3 ? par[g][3] : "-",
        om ? US(om->omp_us * 1e3) : "-",
        om && ob ? F("%.2f", om->omp_us / ob->omp_us) : "-",
        om ? F("%.2f", om->x) : "-",
        F("%s/%s", plan_str(SEED_N, GRANULE, T, op->cost, ACTK_DISPATCH_HOT_NS),
          plan_str(SEED_N, GRANULE, T, op->cost, ACTK_DISPATCH_COLD_UNPINNED_NS))};
    t_row("seed", cols, nc, vals);
  }
  actk_pool_destroy(own);
  actk_pool_destroy(own0);
  return 0;
}

/* ---- contend ---- */

#define CONTEND_N ((size_t)524288)

enum { RT_ACTK = 0, RT_OMP = 1 };

typedef struct aggressor {
  pthread_t th;
  atomic_int run, quit;
  int kind; /* RT_ACTK, RT_OMP */
  actk_pool *pool;
  unsigned threads;
  atomic_ulong calls;
  atomic_ullong busy_ns;
} aggressor;

static void runtime_call(int kind, actk_pool *pool, unsigned threads, int out2) {
  ocall c = {&g_ops[4], pool, CONTEND_N, out2, threads};
#ifdef _OPENMP
  if (kind == RT_OMP) {
    call_omp(&c);
    return;
  }
#else
  (void)kind;
#endif
  call_op(&c);
}

static void *aggressor_main(void *p) {
  aggressor *a = p;
  while (!atomic_load(&a->quit)) {
    if (!atomic_load(&a->run)) {
      sleep_ns(200000);
      continue;
    }
    uint64_t t0 = now_ns();
    runtime_call(a->kind, a->pool, a->threads, 1);
    atomic_fetch_add(&a->busy_ns, now_ns() - t0);
    atomic_fetch_add(&a->calls, 1);
    sleep_ns(1000000);
  }
  return NULL;
}

static uint64_t process_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* One block: victim calls (20 us busy gap before each) for block_ms; the
 * per-call times appended to s. */
static void victim_block(int kind, actk_pool *pool, unsigned T, double block_ms, uint64_t *s,
                         size_t *ns, size_t cap, unsigned long *par, unsigned long *calls) {
  const uint64_t end = now_ns() + (uint64_t)(block_ms * 1e6);
  unsigned long p0 = par_calls(), c = 0;
  while (now_ns() < end && *ns < cap) {
    gap_wait(20);
    uint64_t t0 = now_ns();
    runtime_call(kind, pool, T, 0);
    s[(*ns)++] = now_ns() - t0;
    c++;
  }
  *par += par_calls() - p0;
  *calls += c;
}

static int part_contend(void) {
  buffers(CONTEND_N);
  const unsigned T = g_tl[0];
  typedef struct crow {
    const char *victim, *aggr;
    int vkind, akind;
    unsigned vspin, aspin;
  } crow;
  static const crow rows[] = {
      {"actk pool, spin 1000", "actk pool, spin 1000", RT_ACTK, RT_ACTK, 1000, 1000},
      {"actk pool, spin 0", "actk pool, spin 0", RT_ACTK, RT_ACTK, 0, 0},
      {"actk pool, spin 1000", "OpenMP team", RT_ACTK, RT_OMP, 1000, 0},
      {"actk pool, spin 0", "OpenMP team", RT_ACTK, RT_OMP, 0, 0},
      {"OpenMP team", "actk pool, spin 1000", RT_OMP, RT_ACTK, 0, 1000},
      {"OpenMP team", "actk pool, spin 0", RT_OMP, RT_ACTK, 0, 0},
  };
  const int rounds = g_quick ? 4 : 6;
  const double block_ms = g_quick ? 15 : 25;
  note("");
  note("== contend: two runtimes in one process, %u threads each: the victim runs gelu(%zu) "
       "with a 20 us busy gap before each call; the aggressor thread runs gelu(%zu) on its own "
       "runtime every 1 ms (a sleep between calls) ==",
       T, CONTEND_N, CONTEND_N);
  note("alone / with: the victim's mean us per call (its throughput: the aggressor hits only "
       "the calls it overlaps, which a median would hide) in blocks with the aggressor paused / "
       "running (%d rounds of %.0f ms each, alternating order); slowdown = with / alone; p50x: "
       "the same for the medians; "
       "v_par%%: the victim's calls that split (alone blocks); cores: process CPU time / wall "
       "time in the blocks with the aggressor; aggr_us: the aggressor's mean us per call; "
       "OMP_WAIT_POLICY=%s",
       rounds, block_ms, getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "(unset)");
  static const col cols[] = {{"victim", 20},   {"aggressor", 20}, {"alone_us", 8}, {"with_us", 8},
                             {"slowdown", 8},  {"p50x", 5},       {"v_par%", 6},   {"cores_on", 8},
                             {"cores_off", 9}, {"aggr_us", 8}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("contend", cols, nc);
  const size_t cap = 200000;
  uint64_t *s_off = xalloc(cap * sizeof(uint64_t)), *s_on = xalloc(cap * sizeof(uint64_t));
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    const crow *cr = &rows[r];
#ifndef _OPENMP
    if (cr->vkind == RT_OMP || cr->akind == RT_OMP) {
      const char *vals[] = {cr->victim, cr->aggr, "-", "-", "-", "-", "-", "-", "-", "no OpenMP"};
      t_row("contend", cols, nc, vals);
      continue;
    }
#endif
    actk_pool *vp = cr->vkind == RT_ACTK ? make_pool(T, cr->vspin, 0) : NULL;
    actk_pool *ap = cr->akind == RT_ACTK ? make_pool(T, cr->aspin, 0) : NULL;
    aggressor a;
    memset(&a, 0, sizeof a);
    atomic_init(&a.run, 0);
    atomic_init(&a.quit, 0);
    atomic_init(&a.calls, 0);
    atomic_init(&a.busy_ns, 0);
    a.kind = cr->akind;
    a.pool = ap;
    a.threads = T;
    if (pthread_create(&a.th, NULL, aggressor_main, &a) != 0)
      die("pthread_create", ACTK_ERR_NO_THREADS);
    /* the victim's warm-up (an OpenMP team is made on first use) */
    for (int k = 0; k < 20; k++) runtime_call(cr->vkind, vp, T, 0);
    size_t n_off = 0, n_on = 0;
    unsigned long par_off = 0, calls_off = 0, par_on = 0, calls_on = 0;
    uint64_t cpu_on = 0, wall_on = 0, cpu_off = 0, wall_off = 0;
    const unsigned settle_us = (cr->akind == RT_OMP || cr->vkind == RT_OMP) ? 20000 : 3000;
    for (int k = 0; k < rounds; k++)
      for (int h = 0; h < 2; h++) {
        const int on = (k + h) % 2;
        atomic_store(&a.run, on);
        sleep_ns((uint64_t)(on ? 3000 : settle_us) * 1000u);
        const uint64_t c0 = process_cpu_ns(), w0 = now_ns();
        if (on)
          victim_block(cr->vkind, vp, T, block_ms, s_on, &n_on, cap, &par_on, &calls_on);
        else
          victim_block(cr->vkind, vp, T, block_ms, s_off, &n_off, cap, &par_off, &calls_off);
        const uint64_t c1 = process_cpu_ns(), w1 = now_ns();
        if (on) {
          cpu_on += c1 - c0, wall_on += w1 - w0;
        } else {
          cpu_off += c1 - c0, wall_off += w1 - w0;
        }
      }
    atomic_store(&a.run, 0);
    atomic_store(&a.quit, 1);
    pthread_join(a.th, NULL);
    double sum_off = 0, sum_on = 0;
    for (size_t k = 0; k < n_off; k++) sum_off += (double)s_off[k];
    for (size_t k = 0; k < n_on; k++) sum_on += (double)s_on[k];
    qsort(s_off, n_off, sizeof *s_off, cmp_u64);
    qsort(s_on, n_on, sizeof *s_on, cmp_u64);
    const double alone = n_off ? sum_off / (double)n_off : 0,
                 with = n_on ? sum_on / (double)n_on : 0;
    const double p50_off = n_off ? (double)s_off[n_off / 2] : 0,
                 p50_on = n_on ? (double)s_on[n_on / 2] : 0;
    const unsigned long ac = atomic_load(&a.calls);
    const char *vals[] = {
        cr->victim,
        cr->aggr,
        US(alone),
        US(with),
        F("%.2f", alone > 0 ? with / alone : 0),
        F("%.2f", p50_off > 0 ? p50_on / p50_off : 0),
        cr->vkind == RT_ACTK
            ? F("%.0f", calls_off ? 100.0 * (double)par_off / (double)calls_off : 0)
            : "-",
        F("%.2f", wall_on ? (double)cpu_on / (double)wall_on : 0),
        F("%.2f", wall_off ? (double)cpu_off / (double)wall_off : 0),
        ac ? US((double)atomic_load(&a.busy_ns) / (double)ac) : "-"};
    t_row("contend", cols, nc, vals);
    (void)par_on;
    actk_pool_destroy(vp);
    actk_pool_destroy(ap);
    sleep_ns(20000000u); /* every thread of this row parked before the next */
  }
  free(s_off);
  free(s_on);
  note("cores_off: the same with the aggressor paused (its runtime's threads spin, then park)");
  return 0;
}

/* ---- place ---- */

#ifdef __linux__
static cpu_set_t g_allowed;
#endif

static _Thread_local int tls_main;

typedef struct placer {
  const int *cpus; /* cpus[0]: the caller's; the workers take the rest */
  unsigned n;
  atomic_uint next, arrived;
  int ran_on[64];
  atomic_int timeout;
} placer;

static void place_task(void *p, size_t i) {
  placer *pl = p;
  (void)i;
  unsigned k = tls_main ? 0 : 1 + atomic_fetch_add(&pl->next, 1);
  if (k < pl->n) bench_pin_self_to(pl->cpus[k]);
  if (k < 64) pl->ran_on[k] = sched_getcpu();
  atomic_fetch_add(&pl->arrived, 1);
  if (!bench_wait_all(&pl->arrived, pl->n, 500000000u)) atomic_store(&pl->timeout, 1);
}

/* Pins every thread of pool (T threads: the caller and T - 1 workers) to
 * cpus[0..T-1]; the CPU each then ran on, as text. */
static const char *place_pool(actk_pool *pool, const int *cpus, unsigned T) {
  placer pl;
  memset(&pl, 0, sizeof pl);
  pl.cpus = cpus;
  pl.n = T;
  atomic_init(&pl.next, 0);
  atomic_init(&pl.arrived, 0);
  atomic_init(&pl.timeout, 0);
  actk_pool_run(pool, place_task, &pl, T);
  /* once more: where every thread runs now */
  placer chk = pl;
  atomic_init(&chk.next, 0);
  atomic_init(&chk.arrived, 0);
  actk_pool_run(pool, place_task, &chk, T);
  static char buf[512];
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned k = 0; k < T && k < 64 && len + 8 < sizeof buf; k++)
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d", k ? "," : "", chk.ran_on[k]);
  if (atomic_load(&pl.timeout) || atomic_load(&chk.timeout)) return "(a thread did not join)";
  return buf;
}

/* The allowed CPUs grouped by core: core c has sib_n[c] CPUs sib[c][..]. */
static int g_sib[1024][4], g_sib_n[1024], g_n_core_groups;

static void read_siblings(void) {
#ifdef __linux__
  int seen[4096];
  memset(seen, 0, sizeof seen);
  for (int cpu = 0; cpu < CPU_SETSIZE && cpu < 4096; cpu++) {
    if (!CPU_ISSET(cpu, &g_allowed) || seen[cpu]) continue;
    int list[64], nl = 0;
    if (g_smt_test) {
      list[nl++] = cpu;
      for (int c2 = cpu + 1; c2 < CPU_SETSIZE; c2++)
        if (CPU_ISSET(c2, &g_allowed)) {
          list[nl++] = c2;
          break;
        }
    } else {
      char path[128], text[256];
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
               cpu);
      FILE *f = fopen(path, "r");
      if (f && fgets(text, sizeof text, f)) {
        for (char *p = text; *p && nl < 64;) {
          char *end;
          long a = strtol(p, &end, 10), b = a;
          if (end == p) break;
          if (*end == '-') b = strtol(end + 1, &end, 10);
          for (long c = a; c <= b && nl < 64; c++) list[nl++] = (int)c;
          p = *end == ',' ? end + 1 : end;
          if (*p == '\n') break;
        }
      } else {
        list[nl++] = cpu;
      }
      if (f) fclose(f);
    }
    int g = g_n_core_groups++;
    g_sib_n[g] = 0;
    for (int k = 0; k < nl; k++) {
      int c = list[k];
      if (c < 0 || c >= CPU_SETSIZE || !CPU_ISSET(c, &g_allowed)) continue;
      if (!g_smt_test) seen[c < 4096 ? c : 0] = 1;
      if (g_sib_n[g] < 4) g_sib[g][g_sib_n[g]++] = c;
    }
    if (g_smt_test) seen[cpu] = 1;
    if (g_n_core_groups >= 1024) break;
  }
#endif
}

/* gelu at 512 Ki and 4 Mi after each gap: serial against pools a and b (T threads each), one
 * table: us per call, each speedup, a over b, the share that split */
static void serial_vs_two(const char *section, const char *na, actk_pool *a, const char *nb,
                          actk_pool *b, unsigned T) {
  static const size_t sizes[] = {524288, 4 << 20};
  static const unsigned gaps[] = {0, 20, 500, 5000};
  const sop *op = &g_ops[4]; /* gelu */
  char h[5][16];
  snprintf(h[0], sizeof h[0], "ser/%.3s", na);
  snprintf(h[1], sizeof h[1], "ser/%.3s", nb);
  snprintf(h[2], sizeof h[2], "%.3s/%.3s", na, nb);
  snprintf(h[3], sizeof h[3], "%.3s%%", na);
  snprintf(h[4], sizeof h[4], "%.3s%%", nb);
  const col cols[] = {{"n", 6},  {"gap", 5}, {"serial", 8}, {na, 8},   {nb, 8},
                      {h[0], 7}, {h[1], 7},  {h[2], 7},     {h[3], 4}, {h[4], 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head(section, cols, nc);
  for (size_t si = 0; si < 2; si++)
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
      const size_t n = sizes[si];
      ocall cs = {op, NULL, n, 0, 1}, ca = {op, a, n, 0, T}, cb = {op, b, n, 0, T};
      variant v[3] = {{"serial", call_op, &cs, NULL, 0, 0, 0, 0},
                      {na, call_op, &ca, NULL, 0, 0, 0, 0},
                      {nb, call_op, &cb, NULL, 0, 0, 0, 0}};
      measure(v, 3, gaps[g], 2000, g_quick ? 40 : 120, min_reps(), 400, median_u64);
      const char *vals[] = {kib(n),
                            F("%u", gaps[g]),
                            US(v[0].med),
                            US(v[1].med),
                            US(v[2].med),
                            F("%.2f", v[0].med / v[1].med),
                            F("%.2f", v[0].med / v[2].med),
                            F("%.2f", v[1].med / v[2].med),
                            par_pct(&v[1], 0),
                            par_pct(&v[2], 0)};
      t_row(section, cols, nc, vals);
    }
}

static int part_place(void) {
  buffers(4 << 20);
  const unsigned T = g_tl[0];
  actk_pool *unp = make_pool(T, 1000, 0), *pin = make_pool(T, 1000, 1);
  note("");
  note("== place: gelu on %u threads, own pools unpinned vs pin = 1 (worker i on the i-th allowed "
       "physical core), us per call ==",
       T);
  serial_vs_two("place", "unpinned", unp, "pinned", pin, T);
  actk_pool_destroy(unp);
  actk_pool_destroy(pin);

  /* SMT siblings: compact vs spread */
#ifdef __linux__
  read_siblings();
  int with2 = 0;
  for (int c = 0; c < g_n_core_groups; c++) with2 += g_sib_n[c] >= 2;
  note("");
  if (with2 == 0) {
    note("== place (SMT): the allowed CPUs have no SMT siblings (%d cores, one CPU each, from "
         "thread_siblings_list): compact vs spread skipped ==",
         g_n_core_groups);
    return 0;
  }
  unsigned T2 = T;
  if (T2 > (unsigned)(2 * with2)) T2 = (unsigned)(2 * with2);
  if (T2 > (unsigned)g_n_core_groups) T2 = (unsigned)g_n_core_groups;
  T2 &= ~1u;
  if (T2 < 2) {
    note("== place (SMT): too few cores for compact vs spread ==");
    return 0;
  }
  int compact[64], spread[64];
  unsigned nc2 = 0, ns2 = 0;
  for (int c = 0; c < g_n_core_groups && nc2 < T2; c++)
    if (g_sib_n[c] >= 2) compact[nc2++] = g_sib[c][0], compact[nc2++] = g_sib[c][1];
  /* spread: the first CPU of T2 cores, starting with compact's first core */
  for (int c = 0; c < g_n_core_groups && ns2 < T2; c++)
    if (g_sib_n[c] >= 2 || ns2 > 0) spread[ns2++] = g_sib[c][0];
  for (int c = 0; c < g_n_core_groups && ns2 < T2; c++) {
    int have = 0;
    for (unsigned k = 0; k < ns2; k++) have |= spread[k] == g_sib[c][0];
    if (!have) spread[ns2++] = g_sib[c][0];
  }
  note("== place (SMT%s): gelu on %u threads, compact (%u cores x 2 siblings) vs spread (%u "
       "cores x 1), every thread pinned by the bench, caller on CPU %d in both, us per call ==",
       g_smt_test ? ", --smt-test: PRETEND siblings, the numbers mean nothing" : "", T2, T2 / 2, T2,
       compact[0]);
  actk_pool *pc = make_pool(T2, 1000, 0), *ps = make_pool(T2, 1000, 0);
  tls_main = 1;
  note("compact: threads on CPUs %s", place_pool(pc, compact, T2));
  note("spread:  threads on CPUs %s", place_pool(ps, spread, T2));
  bench_pin_self_to(compact[0]);
  serial_vs_two("smt", "compact", pc, "spread", ps, T2);
  sched_setaffinity(0, sizeof g_allowed, &g_allowed);
  actk_pool_destroy(pc);
  actk_pool_destroy(ps);
#endif
  return 0;
}

/* ---- main ---- */

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s scale|seed|contend|place|info [--quick] [--csv] [--csv-out=FILE]\n"
          "          [--omp] [--omp-results FILE] [--threads L] [--ops L] [--sizes L] [--gaps L]\n"
          "          [--smt-test]\n"
          "  ops (scale):",
          argv0);
  for (size_t o = 0; o < N_OPS; o++) fprintf(stderr, " %s", g_ops[o].name);
  fprintf(stderr, "\n");
  exit(2);
}

int pool_scaling_main(int argc, char **argv) {
  if (argc < 2) usage(argv[0]);
  const char *part = argv[1];
  if (strcmp(part, "scale") && strcmp(part, "seed") && strcmp(part, "contend") &&
      strcmp(part, "place") && strcmp(part, "info"))
    usage(argv[0]);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (bench_flag(a)) continue;
    if (!strcmp(a, "--omp")) {
      g_omp = 1;
    } else if (!strcmp(a, "--smt-test")) {
      g_smt_test = 1;
    } else if (i + 1 < argc && !strcmp(a, "--omp-results")) {
      g_omp_file = argv[++i];
    } else if (i + 1 < argc && !strcmp(a, "--threads")) {
      if ((g_ntl = bench_parse_list(argv[++i], g_tl, 16, 1000000000u)) < 1) usage(argv[0]);
      for (int k = 0; k < g_ntl; k++)
        if (g_tl[k] < 1 || g_tl[k] > 1024) usage(argv[0]);
    } else if (i + 1 < argc && !strcmp(a, "--ops")) {
      g_ops_sel = argv[++i];
      for (const char *p = g_ops_sel; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        int ok = 0;
        for (size_t o = 0; o < N_OPS; o++)
          ok |= strlen(g_ops[o].name) == l && !strncmp(g_ops[o].name, p, l);
        if (!ok) usage(argv[0]);
        if (!e) break;
        p = e + 1;
      }
    } else if (i + 1 < argc && !strcmp(a, "--sizes")) {
      if ((g_nsizes = bench_parse_list(argv[++i], g_sizes_sel, 8, 1000000000u)) < 1) usage(argv[0]);
      for (int k = 0; k < g_nsizes; k++)
        if (g_sizes_sel[k] < 16 || g_sizes_sel[k] > (64u << 20)) usage(argv[0]);
    } else if (i + 1 < argc && !strcmp(a, "--gaps")) {
      if ((g_ngaps = bench_parse_list(argv[++i], g_gaps_sel, 8, 1000000000u)) < 1) usage(argv[0]);
    } else {
      usage(argv[0]);
    }
  }
  bench_init("actk_pool_bench");
  tls_main = 1;
#ifdef __linux__
  sched_getaffinity(0, sizeof g_allowed, &g_allowed);
#endif
  g_ncores = actk_topology_core_cpus(g_core_cpus, 1024);
  const unsigned N = (unsigned)g_ncores;
  if (!strcmp(part, "info")) {
    static const unsigned std[] = {1, 2, 4, 8, 16};
    printf("threads ");
    unsigned last = 0;
    for (int k = 0; k < 5; k++)
      if (std[k] <= N) printf("%s%u", k ? "," : "", last = std[k]);
    if (last != N) printf(",%u", N);
    printf("\nsingle %u\n", N < 16 ? N : 16);
    return 0;
  }
  const int single = strcmp(part, "scale") != 0; /* seed, contend, place: one count */
  if (!g_ntl) {
    if (single) {
      g_tl[g_ntl++] = N < 16 ? N : 16;
    } else {
      static const unsigned std[] = {1, 2, 4, 8, 16};
      for (int k = 0; k < 5; k++)
        if (std[k] <= N) g_tl[g_ntl++] = std[k];
      if (g_tl[g_ntl - 1] != N) g_tl[g_ntl++] = N;
    }
  }
  uint64_t t0 = now_ns();
  bench_header(F("actk_pool_bench %s%s", part, g_omp ? " --omp" : ""));
  note("N = %u physical cores allowed", N);
  {
    char tl[128] = "";
    size_t len = 0;
    for (int k = 0; k < g_ntl && len + 12 < sizeof tl; k++)
      len += (size_t)snprintf(tl + len, sizeof tl - len, "%s%u", k ? "," : "", g_tl[k]);
    note("threads: %s", tl);
  }
  if (g_omp || !strcmp(part, "contend")) pool_note_openmp();
  const actk_isa isa0 = actk_isa_active();
  unsigned long par0 = par_calls();
  int rc = 0;
  if (!strcmp(part, "scale"))
    rc = part_scale();
  else if (!strcmp(part, "seed"))
    rc = part_seed();
  else if (!strcmp(part, "contend"))
    rc = part_contend();
  else
    rc = part_place();
  if (actk_isa_active() != isa0) {
    note("!! the active isa changed during the run");
    rc = 1;
  }
  note("parallel-branch calls in this run: %lu; isa %s before and after; %.1f s",
       par_calls() - par0, actk_isa_name(actk_isa_active()), (double)(now_ns() - t0) / 1e9);
  return rc;
}
