/* actk_pool_bench: the numbers behind the pool's dispatch-cost constants
 * (src/pool.c ACTK_DISPATCH_HOT_NS / ACTK_DISPATCH_COLD_NS) and the planner's
 * thresholds (src/plan.c ps_per_item, ACTK_MIN_DISPATCH_NS).
 *
 *   actk_pool_bench [--quick] [--csv] [--pin] [--only a|sweep|c[,...]]
 *                   [--threads T] [--gaps 0,5,20,...] [--spins 0,100,...]
 *
 * --only runs the sections named (a comma-separated list). --threads T: every
 * pool of the run gets T threads (an own pool with the default settings
 * replaces the default pool in (sweep)) and OpenMP T threads;
 * default: the default pool's count. --gaps and --spins replace (a)'s idle
 * gaps (default 0, 5, 20, 100, 1000, 10000 us) and its pools' spin_us
 * (default 0 and 100).
 *
 * --pin puts the calling thread on the first allowed CPU and pins every pool
 * (pin = 1: worker i on the i-th allowed physical core) and the OpenMP
 * threads, so no worker ever shares the caller's CPU. Without it the
 * scheduler places threads; on a VM it may wake a worker onto the caller's
 * CPU, where the two time-share it: the co% / f_co% columns show how often.
 *
 * (a) latency  dispatch latency of an empty job (actk_pool_run, n_tasks = pool
 *              threads) after an idle gap, p50/p99, pools with spin_us 0 and
 *              100. "noop" tasks do nothing (the caller may run them all
 *              itself: "wk%" says how many a worker ran); "rdv" tasks wait
 *              until every thread of the pool holds one, so "joined" is the
 *              time until the last thread started working: the real wake cost.
 * (b)          the engine pattern (a call after an idle gap: pool vs serial vs
 *              OpenMP) is research/actk_pool_ab pool|omp and actk_scaling seed
 * (sweep)      for tanh, gelu and RoPE (cheap), n = 4Ki .. 4Mi: serial, pool
 *              as planned, and "forced" (the kernel split into one chunk per
 *              thread by actk_pool_run, whatever the planner says), at gaps 0
 *              and 500 us; break-evens next to the planner's decisions.
 * (c) idle     CPU time the process burns while sleeping after a burst.
 *
 * Gaps shorter than 100 us are busy-waits (the caller is busy elsewhere, the
 * workers idle); 100 us and longer are clock_nanosleep (the caller is off the
 * CPU too), with the timer slack set to 1 ns so the sleep is the gap asked for.
 * Variants of one measurement run in interleaved blocks (rotating order), each
 * block after a settle sleep (1 ms; 15 ms when OpenMP is in the set, so that
 * libgomp's spinning workers sleep) so that it starts from a parked pool, then
 * untimed calls for 60 us (at least one: a woken worker has arrived by then),
 * then 8 timed calls; medians over all timed calls.
 * Every pool column reads actk_runner_parallel_calls before and after: "par%"
 * is the share of timed calls that took the parallel branch, and a pool
 * column that never went parallel is flagged. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <dirent.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include "actk.h"
#include "bench_internal.h" /* the planner, the pool, the runner, the topology */

#include "bench_util.h"

/* The CPU the calling thread runs on now, -1 if unknown. */
static int cur_cpu(void) {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

/* --pin: the calling thread on the first CPU it may use, every pool with
 * pin = 1 (worker i on the i-th allowed physical core, so never on the
 * caller's), OpenMP threads on the allowed CPUs in order. */
static int g_cpus[1024], g_n_cpus;
#ifdef __linux__
static cpu_set_t g_allowed;
#endif

static void pin_setup(void) {
#ifdef __linux__
  if (sched_getaffinity(0, sizeof g_allowed, &g_allowed) != 0) return;
  for (int c = 0; c < CPU_SETSIZE && g_n_cpus < 1024; c++)
    if (CPU_ISSET(c, &g_allowed)) g_cpus[g_n_cpus++] = c;
  if (g_n_cpus > 0) bench_pin_self_to(g_cpus[0]);
#endif
}

/* actk_pool_create with cfg.pin = --pin. A pool sizes itself from the
 * creating thread's affinity mask, so under --pin the caller gets its whole
 * mask back while the pool starts its (self-pinning) workers. */
static actk_status bench_pool_create(actk_pool_config *cfg, actk_pool **pool) {
  cfg->pin = g_pin;
#ifdef __linux__
  if (g_pin && g_n_cpus > 0) {
    sched_setaffinity(0, sizeof g_allowed, &g_allowed);
    actk_status st = actk_pool_create(cfg, pool);
    bench_pin_self_to(g_cpus[0]);
    return st;
  }
#endif
  return actk_pool_create(cfg, pool);
}

/* --threads: every pool's thread count (0: the default) */
static unsigned g_threads;

/* The pool the sweep uses: the default pool, or with
 * --pin or --threads an own pool with the default settings plus those. */
static actk_pool *g_pinned_pool;

static actk_pool *bench_pool(void) {
  if (!g_pin && !g_threads) return actk_pool_default();
  if (!g_pinned_pool) {
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.threads = g_threads;
    if (bench_pool_create(&cfg, &g_pinned_pool) != ACTK_OK) return NULL;
  }
  return g_pinned_pool;
}

/* ---- time ---- */

static const char *gap_how(unsigned us) {
  return us == 0 ? "none" : us < SLEEP_MIN_US ? "busy" : "sleep";
}

static uint64_t cpu_ns(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
         ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* CPU time of every thread of the process, each read from its own thread
 * CPU clock: the kernel brings a running thread's count up to date for that
 * read, while getrusage() sums the other threads' counts as of their last
 * tick or context switch (a thread spinning on another CPU can be a tick
 * behind, and that tick lands in the next window). Linux only; -1 elsewhere. */
static double threads_cpu_ms(void) {
#ifdef __linux__
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  uint64_t sum = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    unsigned tid = (unsigned)strtoul(e->d_name, NULL, 10);
    /* MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) from the kernel's ABI */
    clockid_t cid = (clockid_t)((~tid << 3) | 6u);
    struct timespec ts;
    if (clock_gettime(cid, &ts) == 0)
      sum += (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  closedir(d);
  return (double)sum / 1e6;
#else
  return -1;
#endif
}

/* ---- statistics ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_d(double *v, size_t n) {
  if (n == 0) return 0;
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char *par_pct(const variant *v) {
  if (v->ns == 0) return "-";
  double p = 100.0 * (double)v->par / (double)v->ns;
  return v->par == 0 ? "0!" : F("%.0f", p);
}

/* ---- calls ---- */

typedef actk_status (*unary_fn)(actk_pool *, const float *, float *, size_t);

typedef struct ucall {
  unary_fn f;
  actk_pool *pool; /* the pool passed to f (NULL: serial) */
  actk_pool *split_pool;
  const float *x;
  float *y;
  size_t n;
  size_t chunks; /* forced split: this many chunks of whole 16-float runs */
} ucall;

static void call_unary(void *p) {
  const ucall *c = p;
  c->f(c->pool, c->x, c->y, c->n);
}

static void chunk_bounds(size_t n, size_t chunks, size_t i, size_t *lo, size_t *hi) {
  size_t units = (n + 15) / 16;
  *lo = units * i / chunks * 16;
  *hi = units * (i + 1) / chunks * 16;
  if (*hi > n) *hi = n;
  if (*lo > n) *lo = n;
}

/* forced splits: calls made, and tasks a worker (not the caller) ran */
static atomic_ulong g_forced_calls, g_forced_wk, g_forced_co;
static atomic_int g_caller_cpu;
static _Thread_local int tls_main;

/* a chunk a worker runs: count it, and count it again if it runs on the
 * CPU the caller was on when it dispatched (the two time-share one CPU) */
static void forced_note_worker(void) {
  if (tls_main) return;
  atomic_fetch_add_explicit(&g_forced_wk, 1, memory_order_relaxed);
  if (cur_cpu() == atomic_load_explicit(&g_caller_cpu, memory_order_relaxed))
    atomic_fetch_add_explicit(&g_forced_co, 1, memory_order_relaxed);
}

static void forced_unary_task(void *p, size_t i) {
  const ucall *c = p;
  forced_note_worker();
  size_t lo, hi;
  chunk_bounds(c->n, c->chunks, i, &lo, &hi);
  if (hi > lo) c->f(NULL, c->x + lo, c->y + lo, hi - lo);
}

static void call_forced_unary(void *p) {
  const ucall *c = p;
  atomic_fetch_add_explicit(&g_forced_calls, c->chunks, memory_order_relaxed);
  atomic_store_explicit(&g_caller_cpu, cur_cpu(), memory_order_relaxed);
  actk_pool_run(c->split_pool, forced_unary_task, (void *)c, c->chunks);
}

#ifdef _OPENMP
static void call_omp(void *p) {
  const ucall *c = p;
  int T = omp_get_max_threads();
#pragma omp parallel for schedule(static)
  for (int t = 0; t < T; t++) {
    size_t lo, hi;
    chunk_bounds(c->n, (size_t)T, (size_t)t, &lo, &hi);
    if (hi > lo) c->f(NULL, c->x + lo, c->y + lo, hi - lo);
  }
}
#endif

/* RoPE for the cheap class: B=1, H=32, D=128, BSHD, split-half, S = n/4096
 * tokens at positions 0..S-1. */
#define ROPE_H 32
#define ROPE_D 128
#define ROPE_TOKEN (ROPE_H * ROPE_D)
#define ROPE_MAXPOS 1024

typedef struct rcall {
  actk_pool *pool;
  actk_pool *split_pool;
  const float *x, *cos_c, *sin_c;
  float *y;
  size_t tokens, chunks;
} rcall;

static actk_status rope_tokens(actk_pool *pool, const rcall *c, size_t t0, size_t t1) {
  actk_rope_desc d;
  actk_rope_desc_init(&d);
  d.batch = 1;
  d.seq_len = t1 - t0;
  d.heads = ROPE_H;
  d.head_size = ROPE_D;
  d.max_position = ROPE_MAXPOS;
  d.position_start = (int64_t)t0;
  return actk_rope_f32(pool, &d, c->x + t0 * ROPE_TOKEN, NULL, c->cos_c, c->sin_c,
                       c->y + t0 * ROPE_TOKEN);
}

static void call_rope(void *p) {
  const rcall *c = p;
  rope_tokens(c->pool, c, 0, c->tokens);
}

static void forced_rope_task(void *p, size_t i) {
  const rcall *c = p;
  forced_note_worker();
  size_t t0 = c->tokens * i / c->chunks, t1 = c->tokens * (i + 1) / c->chunks;
  if (t1 > t0) rope_tokens(NULL, c, t0, t1);
}

static void call_forced_rope(void *p) {
  const rcall *c = p;
  atomic_fetch_add_explicit(&g_forced_calls, c->chunks, memory_order_relaxed);
  atomic_store_explicit(&g_caller_cpu, cur_cpu(), memory_order_relaxed);
  actk_pool_run(c->split_pool, forced_rope_task, (void *)c, c->chunks);
}

/* ---- shared buffers ---- */

#define MAX_N ((size_t)4 << 20)

static float *g_x, *g_y, *g_cos, *g_sin;

static void buffers_init(void) {
  g_x = xalloc(MAX_N * sizeof(float));
  g_y = xalloc(MAX_N * sizeof(float));
  uint32_t s = 12345;
  for (size_t i = 0; i < MAX_N; i++) {
    s = s * 1664525u + 1013904223u;
    g_x[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 10.0f; /* [-5, 5) */
  }
  memset(g_y, 0, MAX_N * sizeof(float));
  size_t half = ROPE_D / 2;
  g_cos = xalloc(ROPE_MAXPOS * half * sizeof(float));
  g_sin = xalloc(ROPE_MAXPOS * half * sizeof(float));
  actk_status st = actk_rope_cache_f32(g_cos, g_sin, ROPE_MAXPOS, ROPE_D, 0);
  if (st != ACTK_OK) die("actk_rope_cache_f32", st);
}

/* ---- (a) dispatch latency of an empty job ---- */

static atomic_ulong g_worker_tasks;

static void noop_task(void *ctx, size_t i) {
  (void)ctx;
  (void)i;
  if (!tls_main) atomic_fetch_add_explicit(&g_worker_tasks, 1, memory_order_relaxed);
}

#define RDV_MAX_CPUS 64

typedef struct rdv {
  atomic_uint arrived;
  unsigned n;
  int cpu[RDV_MAX_CPUS];  /* the CPU of each arrival, in arrival order */
  _Atomic uint64_t t_all; /* when the last thread arrived */
  atomic_int timed_out;
} rdv;

/* Each task waits until every thread of the pool holds one (200 ms at most). */
static void rdv_task(void *p, size_t i) {
  rdv *r = p;
  (void)i;
  int cpu = cur_cpu();
  unsigned k = atomic_fetch_add(&r->arrived, 1);
  if (k < RDV_MAX_CPUS) r->cpu[k] = cpu;
  if (k + 1 == r->n) atomic_store(&r->t_all, now_ns());
  uint64_t deadline = now_ns() + 200000000u;
  while (atomic_load(&r->arrived) < r->n) {
    if (now_ns() > deadline) {
      atomic_store(&r->timed_out, 1);
      return;
    }
    cpu_relax();
  }
}

static unsigned g_gaps[16] = {0, 5, 20, 100, 1000, 10000}, g_spins[8] = {0, 100};
static int g_n_gaps = 6, g_n_spins = 2;

static void section_latency(void) {
  const unsigned *gaps = g_gaps, *spins = g_spins;
  note("");
  note("== (a) dispatch latency of an empty job (actk_pool_run, n_tasks = threads), us ==");
  note("noop: tasks do nothing; wk%% = share of tasks a worker ran (the caller may run all).");
  note("rdv: every thread must hold a task; joined = dispatch -> last thread working; co%% = "
       "share of rdv jobs where two of the pool's threads were on one CPU.");
  static const col cols[] = {
      {"spin_us", 7},     {"gap_us", 6},      {"how", 5}, {"gap_real", 8}, {"reps", 5},
      {"noop_p50", 8},    {"noop_p99", 8},    {"wk%", 4}, {"rdv_p50", 8},  {"rdv_p99", 8},
      {"joined_p50", 10}, {"joined_p99", 10}, {"co%", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("latency", cols, nc);
  for (int si = 0; si < g_n_spins; si++) {
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.spin_us = spins[si];
    cfg.threads = g_threads;
    actk_pool *pool;
    actk_status st = bench_pool_create(&cfg, &pool);
    if (st != ACTK_OK) die("actk_pool_create", st);
    unsigned width = actk_pool_width(pool);
    for (int gi = 0; gi < g_n_gaps; gi++) {
      unsigned gap = gaps[gi];
      int reps = gap >= 10000 ? 60 : gap >= 1000 ? 200 : 400;
      if (g_quick) reps = gap >= 10000 ? 20 : gap >= 1000 ? 60 : 200;
      uint64_t *noop = malloc((size_t)reps * sizeof *noop);
      uint64_t *call = malloc((size_t)reps * sizeof *call);
      uint64_t *join = malloc((size_t)reps * sizeof *join);
      uint64_t *greal = malloc((size_t)reps * 2 * sizeof *greal);
      if (!noop || !call || !join || !greal) die("malloc", ACTK_ERR_OUT_OF_MEMORY);
      unsigned long wk0 = atomic_load(&g_worker_tasks);
      int timeouts = 0, co = 0;
      /* warm up: the first job after creation */
      actk_pool_run(pool, noop_task, NULL, width);
      for (int r = 0; r < reps; r++) {
        uint64_t g0 = now_ns();
        gap_wait(gap);
        uint64_t t0 = now_ns();
        actk_pool_run(pool, noop_task, NULL, width);
        uint64_t t1 = now_ns();
        noop[r] = t1 - t0;
        greal[2 * r] = t0 - g0;

        rdv R;
        atomic_init(&R.arrived, 0);
        R.n = width;
        atomic_init(&R.t_all, 0);
        atomic_init(&R.timed_out, 0);
        g0 = now_ns();
        gap_wait(gap);
        t0 = now_ns();
        actk_pool_run(pool, rdv_task, &R, width);
        t1 = now_ns();
        call[r] = t1 - t0;
        uint64_t ta = atomic_load(&R.t_all);
        join[r] = ta > t0 ? ta - t0 : 0;
        greal[2 * r + 1] = t0 - g0;
        timeouts += atomic_load(&R.timed_out);
        if (width <= RDV_MAX_CPUS && atomic_load(&R.arrived) >= width) {
          int dup = 0;
          for (unsigned a = 0; a < width && !dup; a++)
            for (unsigned b = a + 1; b < width; b++)
              if (R.cpu[a] >= 0 && R.cpu[a] == R.cpu[b]) dup = 1;
          co += dup;
        }
      }
      unsigned long wk = atomic_load(&g_worker_tasks) - wk0;
      double wkp = 100.0 * (double)wk / ((double)reps * (double)width + (double)width);
      const char *v[] = {F("%u", spins[si]),
                         F("%u", gap),
                         gap_how(gap),
                         US(pct(greal, (size_t)reps * 2, 50)),
                         F("%d", reps),
                         US(pct(noop, (size_t)reps, 50)),
                         US(pct(noop, (size_t)reps, 99)),
                         F("%.0f", wkp),
                         US(pct(call, (size_t)reps, 50)),
                         US(pct(call, (size_t)reps, 99)),
                         US(pct(join, (size_t)reps, 50)),
                         US(pct(join, (size_t)reps, 99)),
                         F("%.0f", 100.0 * co / reps)};
      t_row("latency", cols, nc, v);
      if (timeouts)
        note("  !! %d rendezvous timed out (a worker did not join in 200 ms)", timeouts);
      free(noop);
      free(call);
      free(join);
      free(greal);
    }
    actk_pool_destroy(pool);
  }
}

/* ---- the ops the sweep measures ---- */

typedef struct opdesc {
  const char *name;
  unary_fn f;
  actk_cost cost;
} opdesc;

static const opdesc g_ops[] = {{"tanh", actk_tanh_f32, ACTK_COST_MEDIUM},
                               {"gelu", actk_gelu_f32, ACTK_COST_EXPENSIVE}};

static void check_ok(unary_fn f, actk_pool *pool, size_t n, const char *what) {
  actk_status st = f(pool, g_x, g_y, n);
  if (st != ACTK_OK) die(what, st);
}

/* ---- threshold sweep ---- */

/* smallest n (a multiple of granule) the runner sends to the pool with this
 * dispatch cost, by bisection (the decision is monotone in n) */
static size_t planner_threshold(actk_cost cost, size_t granule, unsigned threads, uint64_t disp) {
  size_t lo = 1, hi = (size_t)1 << 30; /* hi: parallel */
  for (;;) {
    actk_plan p = actk_plan_split(hi, granule, threads, cost, disp);
    if (hi >= actk_plan_min_parallel(cost) && p.n_chunks > 1) break;
    if (hi >= ((size_t)1 << 40)) return 0;
    hi *= 2;
  }
  while (hi - lo > granule) {
    size_t mid = (lo + hi) / 2 / granule * granule;
    if (mid <= lo) break;
    actk_plan p = actk_plan_split(mid, granule, threads, cost, disp);
    if (mid >= actk_plan_min_parallel(cost) && p.n_chunks > 1)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

static const char *kib(size_t n) {
  return n >= ((size_t)1 << 20) ? F("%zuMi", n >> 20) : F("%zuKi", n >> 10);
}

typedef struct sweep_result {
  double ps_small, ps_large; /* serial ps/element at 64 Ki and 4 Mi */
  double ovh[2];             /* dispatch cost when the workers helped, per gap (see below) */
  double wasted[2];          /* caller's extra time when no worker helped, per gap */
  size_t be_forced[2], be_pool[2];
  int pool_loses[2];
} sweep_result;

static void section_sweep(sweep_result res[3]) {
  static const unsigned gaps[] = {0, 500};
  static const char *const cls_name[] = {"cheap (rope)", "medium (tanh)", "expensive (gelu)"};
  actk_pool *pool = bench_pool();
  if (!pool) die("actk_pool_default", ACTK_ERR_NO_THREADS);
  unsigned T = actk_pool_threads(pool);
  note("");
  note("== threshold sweep: serial vs pool (as planned) vs forced split (%u chunks over the "
       "pool), us per call ==",
       T);
  note("ovh = forced - serial/%u (what the split cost over a perfect one); f_wk%% = share of the "
       "forced chunks a worker ran (0: the caller ran them all, no parallelism happened); f_co%% = "
       "share of those that ran on the caller's CPU (time-shared, not parallel).",
       T);
  static const col cols[] = {{"class", 16},   {"gap", 4},      {"n", 5},        {"serial", 8},
                             {"pool", 8},     {"forced", 8},   {"ser/pool", 8}, {"ser/forc", 8},
                             {"ovh", 7},      {"f_wk%", 5},    {"f_co%", 5},    {"par%", 4},
                             {"plan_hot", 8}, {"plan_cold", 9}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("sweep", cols, nc);
  enum { NS = 11 };
  for (int cls = 0; cls < 3; cls++) {
    sweep_result *R = &res[cls];
    memset(R, 0, sizeof *R);
    size_t granule = cls == 0 ? ROPE_D : 16;
    for (size_t gi = 0; gi < 2; gi++) {
      double r_pool[NS], r_forc[NS], ovh[NS], wasted[NS];
      size_t nsz[NS];
      int n_ovh = 0, n_wasted = 0;
      for (int k = 0; k < NS; k++) {
        size_t n = (size_t)4096 << k;
        nsz[k] = n;
        variant v[3];
        ucall us = {0}, up = {0}, uf = {0};
        rcall rs = {0}, rp = {0}, rf = {0};
        if (cls == 0) {
          rs = (rcall){NULL, NULL, g_x, g_cos, g_sin, g_y, n / ROPE_TOKEN, 1};
          rp = rs;
          rp.pool = pool;
          rf = rs;
          rf.split_pool = pool;
          rf.chunks = T;
          if (rope_tokens(pool, &rp, 0, rp.tokens) != ACTK_OK) die("rope", ACTK_ERR_BAD_SHAPE);
          v[0] = (variant){"serial", call_rope, &rs, NULL, 0, 0, 0, 0};
          v[1] = (variant){"pool", call_rope, &rp, NULL, 0, 0, 0, 0};
          v[2] = (variant){"forced", call_forced_rope, &rf, NULL, 0, 0, 0, 0};
        } else {
          const opdesc *op = &g_ops[cls - 1];
          us = (ucall){op->f, NULL, NULL, g_x, g_y, n, 1};
          up = us;
          up.pool = pool;
          uf = us;
          uf.split_pool = pool;
          uf.chunks = T;
          check_ok(op->f, pool, n, op->name);
          v[0] = (variant){"serial", call_unary, &us, NULL, 0, 0, 0, 0};
          v[1] = (variant){"pool", call_unary, &up, NULL, 0, 0, 0, 0};
          v[2] = (variant){"forced", call_forced_unary, &uf, NULL, 0, 0, 0, 0};
        }
        unsigned long fc0 = atomic_load(&g_forced_calls), fw0 = atomic_load(&g_forced_wk),
                      fco0 = atomic_load(&g_forced_co);
        /* 1 ms between blocks: each block starts from a parked pool, so one
         * variant's spinning workers do not make the next one look hot */
        measure(v, 3, gaps[gi], 1000, g_quick ? 40 : 300, 3, 2000, median_rank_u64);
        double fwk = 100.0 * (double)(atomic_load(&g_forced_wk) - fw0) /
                     (double)(atomic_load(&g_forced_calls) - fc0);
        unsigned long fw = atomic_load(&g_forced_wk) - fw0, fco = atomic_load(&g_forced_co) - fco0;
        r_pool[k] = v[0].med / v[1].med;
        r_forc[k] = v[0].med / v[2].med;
        double o = v[2].med - v[0].med / T;
        /* the dispatch cost: rows where a worker ran its share of the chunks
         * on a CPU of its own, below the sizes where memory bandwidth and
         * the second core's cache blur it; the wasted wake: rows where no
         * worker helped (forced - serial is then what dispatching cost the
         * caller for nothing) */
        double co = fw ? 100.0 * (double)fco / (double)fw : 0;
        if (fwk >= 25 && co <= 50 && n <= ((size_t)1 << 20)) ovh[n_ovh++] = o;
        if (fwk < 10 && n <= 65536) wasted[n_wasted++] = v[2].med - v[0].med;
        if (gi == 0 && n == 65536) R->ps_small = v[0].med * 1000.0 / (double)n;
        if (gi == 0 && n == ((size_t)4 << 20)) R->ps_large = v[0].med * 1000.0 / (double)n;
        if (r_pool[k] < 0.95) R->pool_loses[gi]++;
        const char *vals[] = {cls_name[cls],
                              F("%u", gaps[gi]),
                              kib(n),
                              US(v[0].med),
                              US(v[1].med),
                              US(v[2].med),
                              F("%.2f", r_pool[k]),
                              F("%.2f", r_forc[k]),
                              US(o),
                              F("%.0f", fwk),
                              fw ? F("%.0f", 100.0 * (double)fco / (double)fw) : "-",
                              par_pct(&v[1]),
                              plan_str(n, granule, T, (actk_cost)cls, g_hot_ns),
                              plan_str(n, granule, T, (actk_cost)cls, g_cold_ns)};
        t_row("sweep", cols, nc, vals);
      }
      R->ovh[gi] = n_ovh ? median_d(ovh, (size_t)n_ovh) : -1;
      R->wasted[gi] = n_wasted ? median_d(wasted, (size_t)n_wasted) : -1;
      size_t bf = 0, bp = 0;
      /* smallest n that wins here and at 2n (one noisy point does not count) */
      for (int k = NS - 1; k >= 0; k--) {
        if (r_forc[k] >= 1.0 && (k == NS - 1 || r_forc[k + 1] >= 1.0)) bf = nsz[k];
        if (r_pool[k] >= 1.0 && (k == NS - 1 || r_pool[k + 1] >= 1.0)) bp = nsz[k];
      }
      R->be_forced[gi] = bf;
      R->be_pool[gi] = bp;
    }
  }
  note("");
  note("== break-evens (measured) vs the planner (src/plan.c, src/pool.c as built) ==");
  static const col sc[] = {{"class", 16},        {"gap", 4},           {"be_forced", 9},
                           {"be_pool", 8},       {"pool<0.95x", 10},   {"ovh_us", 7},
                           {"plan_min_par", 12}, {"plan_thr_hot", 12}, {"plan_thr_cold", 13}};
  const int nsc = (int)(sizeof sc / sizeof sc[0]);
  t_head("breakeven", sc, nsc);
  for (int cls = 0; cls < 3; cls++) {
    size_t granule = cls == 0 ? ROPE_D : 16;
    for (int gi = 0; gi < 2; gi++) {
      const sweep_result *R = &res[cls];
      const char *vals[] = {cls_name[cls],
                            F("%u", gaps[gi]),
                            R->be_forced[gi] ? kib(R->be_forced[gi]) : "none",
                            R->be_pool[gi] ? kib(R->be_pool[gi]) : "none",
                            F("%d", R->pool_loses[gi]),
                            R->ovh[gi] >= 0 ? US(R->ovh[gi]) : "-",
                            F("%zu", actk_plan_min_parallel((actk_cost)cls)),
                            F("%zu", planner_threshold((actk_cost)cls, granule, T, g_hot_ns)),
                            F("%zu", planner_threshold((actk_cost)cls, granule, T, g_cold_ns))};
      t_row("breakeven", sc, nsc, vals);
    }
  }
  note("be_forced: smallest n where the forced split beats serial (serial/forced >= 1.00) at n "
       "and at 2n; be_pool: the same for the pool as planned (~1.00 where it stays serial); "
       "pool<0.95x: sizes where the planned pool was >5%% slower than serial.");
  note("plan_min_par: actk_plan_min_parallel (below it the pool is never read); "
       "plan_thr_hot/cold: smallest n actk_plan_split parallelises at %llu / %llu ns.",
       (unsigned long long)g_hot_ns, (unsigned long long)g_cold_ns);

  note("");
  note("== model fit: serial cost per element and dispatch cost ==");
  static const col mc[] = {{"class", 16},       {"ps/el@64Ki", 10},  {"ps/el@4Mi", 9},
                           {"hot_ovh_us", 10},  {"cold_ovh_us", 11}, {"cold_wasted_us", 14},
                           {"n*=2*hot/ps", 11}, {"n*=2*cold/ps", 12}};
  const int nmc = (int)(sizeof mc / sizeof mc[0]);
  t_head("model", mc, nmc);
  for (int cls = 0; cls < 3; cls++) {
    const sweep_result *R = &res[cls];
    double ps = R->ps_small > 0 ? R->ps_small : 1;
    const char *vals[] = {cls_name[cls],
                          F("%.0f", R->ps_small),
                          F("%.0f", R->ps_large),
                          R->ovh[0] >= 0 ? US(R->ovh[0]) : "-",
                          R->ovh[1] >= 0 ? US(R->ovh[1]) : "-",
                          R->wasted[1] >= 0 ? US(R->wasted[1]) : "-",
                          R->ovh[0] >= 0 ? F("%.0f", 2.0 * R->ovh[0] * 1000.0 / ps) : "-",
                          R->ovh[1] >= 0 ? F("%.0f", 2.0 * R->ovh[1] * 1000.0 / ps) : "-"};
    t_row("model", mc, nmc, vals);
  }
  note(
      "hot/cold_ovh: median of forced - serial/%u over the rows (n <= 1Mi) where a worker ran "
      ">= 25%% of the chunks on a CPU of its own (f_wk%% >= 25, f_co%% <= 50), at gap 0 / 500 us: "
      "what a dispatch costs when it pays; cold_wasted: median of forced - serial over the gap-500 "
      "rows (n <= 64Ki) where no worker helped (f_wk%% < 10): what a wake costs the caller for "
      "nothing.",
      T);
  note("n* = the 2-thread break-even those costs imply (work w = n*ps pays when w/2 > ovh); "
       "the planner asks w(1-1/t) > 2 dispatch, i.e. w > 4 dispatch for t = 2: twice that.");
}

/* ---- (c) CPU burnt while idle ---- */

static void burst(actk_pool *pool, int omp) {
  for (int i = 0; i < 100; i++) {
#ifdef _OPENMP
    if (omp) {
      ucall c = {actk_gelu_f32, NULL, NULL, g_x, g_y, (size_t)1 << 20, 0};
      call_omp(&c);
      continue;
    }
#else
    (void)omp;
#endif
    actk_gelu_f32(pool, g_x, g_y, (size_t)1 << 20);
  }
}

static void section_idle(void) {
  static const unsigned sleeps_ms[] = {5, 50, 500};
  const int nsl = g_quick ? 2 : 3;
  const int reps_short = g_quick ? 3 : 7, reps_long = g_quick ? 1 : 3;
  note("");
  note("== (c) CPU burnt while idle: a burst of 100 gelu(1Mi) calls, then a sleep; process CPU "
       "during the sleep, medians of %d (%d for 500 ms) ==",
       reps_short, reps_long);
  note("rusage: getrusage(RUSAGE_SELF) utime+stime; threads: the sum of every thread's own CPU "
       "clock (exact; getrusage can carry a tick of a spinning thread into the next window).");
  static const col cols[] = {{"pool", 13},        {"threads", 7},      {"sleep_ms", 8},
                             {"burst_par", 9},    {"expect_ms", 9},    {"rusage_ms", 9},
                             {"threads_ms", 10},  {"threads_max", 11}, {"rusage_ms/s", 11},
                             {"threads_ms/s", 12}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("idle", cols, nc);
  /* rows: baseline (no burst), spin 0, 100, 1000, omp */
  for (int row = 0; row < 5; row++) {
    static const unsigned spins[] = {0, 0, 100, 1000, 0};
#ifndef _OPENMP
    if (row == 4) break;
#endif
    actk_pool *pool = NULL;
    if (row >= 1 && row <= 3) {
      actk_pool_config cfg;
      actk_pool_config_init(&cfg);
      cfg.spin_us = spins[row];
      cfg.threads = g_threads;
      actk_status st = bench_pool_create(&cfg, &pool);
      if (st != ACTK_OK) die("actk_pool_create", st);
    }
    unsigned threads = row == 0 ? 1 : pool ? actk_pool_threads(pool) : 0;
#ifdef _OPENMP
    if (row == 4) threads = (unsigned)omp_get_max_threads();
#endif
    const char *name = row == 0   ? "idle (none)"
                       : row == 4 ? "omp (libgomp)"
                                  : F("spin_us=%u", spins[row]);
    for (int si = 0; si < nsl; si++) {
      double ru[8], th[8], tmax = 0;
      const int reps = sleeps_ms[si] >= 500 ? reps_long : reps_short;
      unsigned long par = 0, calls = 0;
      for (int r = 0; r < reps; r++) {
        sleep_ns(20000000u); /* let everything settle (libgomp spins for a while) */
        if (row > 0) {
          unsigned long p0 = par_calls();
          burst(pool, row == 4);
          par += par_calls() - p0;
          calls += 100;
        }
        double t0 = threads_cpu_ms();
        uint64_t c0 = cpu_ns();
        sleep_ns((uint64_t)sleeps_ms[si] * 1000000u);
        uint64_t c1 = cpu_ns();
        double t1 = threads_cpu_ms();
        ru[r] = (double)(c1 - c0) / 1e6;
        th[r] = t1 - t0;
        if (th[r] > tmax) tmax = th[r];
      }
      double cr = median_d(ru, (size_t)reps), ct = median_d(th, (size_t)reps);
      const char *vals[] = {name,
                            F("%u", threads),
                            F("%u", sleeps_ms[si]),
                            row >= 1 && row <= 3 ? F("%lu/%lu", par, calls) : "-",
                            row == 0 || row == 4 ? "-"
                                                 : F("%.2f", spins[row] * (threads - 1) / 1000.0),
                            F("%.3f", cr),
                            ct >= 0 ? F("%.3f", ct) : "-",
                            ct >= 0 ? F("%.3f", tmax) : "-",
                            F("%.2f", cr * 1000.0 / sleeps_ms[si]),
                            ct >= 0 ? F("%.2f", ct * 1000.0 / sleeps_ms[si]) : "-"};
      t_row("idle", cols, nc, vals);
      if (row >= 1 && row <= 3 && par == 0)
        note("  !! that pool never went parallel: the row measures nothing");
    }
    actk_pool_destroy(pool);
  }
  note("expect_ms = spin_us x (threads - 1): each worker spins spin_us after its last job, "
       "then parks (a spinning thread that shares its CPU gets only part of that wall time); "
       "ms/s = CPU-ms per second of idle (medians); threads_max = the worst repeat; burst_par = "
       "parallel-branch calls / calls.");
}

/* ---- main ---- */

static double timer_overhead_ns(void) {
  uint64_t v[101];
  for (int i = 0; i < 101; i++) {
    uint64_t t0 = now_ns();
    v[i] = now_ns() - t0;
  }
  return pct(v, 101, 50);
}

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--quick] [--csv] [--pin] [--only a|sweep|c[,...]] [--threads T]\n"
          "          [--gaps 0,5,20,...] [--spins 0,100,...]\n",
          argv0);
  exit(2);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (bench_flag(argv[i])) continue;
    if (!strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      unsigned t[1];
      if (bench_parse_list(argv[++i], t, 1, 100000000u) != 1 || t[0] < 1) usage(argv[0]);
      g_threads = t[0];
    } else if (!strcmp(argv[i], "--gaps") && i + 1 < argc) {
      if ((g_n_gaps = bench_parse_list(argv[++i], g_gaps, 16, 100000000u)) < 1) usage(argv[0]);
    } else if (!strcmp(argv[i], "--spins") && i + 1 < argc) {
      if ((g_n_spins = bench_parse_list(argv[++i], g_spins, 8, 100000000u)) < 1) usage(argv[0]);
    } else {
      usage(argv[0]);
    }
  }
  if (only)
    for (const char *p = only; *p;) {
      const char *e = strchr(p, ',');
      size_t l = e ? (size_t)(e - p) : strlen(p);
      if (l == 1 && *p == 'b') {
        /* the engine pattern repeated research/actk_pool_ab's measurement */
        fprintf(stderr, "actk_pool_bench: (b) is build/bench/research/actk_pool_ab pool|omp (and "
                        "actk_scaling seed) now\n");
        return 2;
      }
      if (!((l == 1 && (*p == 'a' || *p == 'c')) || (l == 5 && !strncmp(p, "sweep", 5))))
        usage(argv[0]);
      if (!e) break;
      p = e + 1;
    }
#ifdef _OPENMP
  if (g_threads) omp_set_num_threads((int)g_threads);
#endif
  tls_main = 1;
  bench_init("actk_pool_bench");
  uint64_t t_start = now_ns();
  double load[3];
  bench_loadavg(load);
  note("actk_pool_bench: actk %s, isa %s, %s", actk_version_string(),
       actk_isa_name(actk_isa_active()), g_quick ? "--quick" : "full run");
  note("cpu: %s", actk_cpu_summary());
  note("online cpus %ld, default pool threads %u, load average %.2f %.2f %.2f, timer %.0f ns",
       sysconf(_SC_NPROCESSORS_ONLN), actk_pool_threads(actk_pool_default()), load[0], load[1],
       load[2], timer_overhead_ns());
#ifdef _OPENMP
  note("OpenMP %d, omp_get_max_threads %d, OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s", _OPENMP,
       omp_get_max_threads(), getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "(unset)",
       getenv("GOMP_SPINCOUNT") ? getenv("GOMP_SPINCOUNT") : "(unset)");
#else
  note("OpenMP: not built (no omp column)");
#endif
  if (g_threads)
    note("--threads %u: every pool of this run (the default pool's place too) and OpenMP with %u "
         "threads",
         g_threads, g_threads);
  probe_dispatch_costs(); /* before any pinning: it needs two CPUs */
  if (g_pin) pin_setup();
  note("placement: %s",
       g_pin ? F("--pin: caller on CPU %d, pools with pin = 1, OpenMP threads on the allowed CPUs "
                 "in order",
                 g_n_cpus ? g_cpus[0] : -1)
             : "unpinned (the scheduler places every thread; see co% and f_co%)");
  note("planner: min_parallel cheap/medium/expensive = %zu/%zu/%zu elements",
       actk_plan_min_parallel(ACTK_COST_CHEAP), actk_plan_min_parallel(ACTK_COST_MEDIUM),
       actk_plan_min_parallel(ACTK_COST_EXPENSIVE));
  note("dispatch costs the runner plans with (src/pool.c): hot %llu ns, cold %llu ns",
       (unsigned long long)g_hot_ns, (unsigned long long)g_cold_ns);
  buffers_init();
#ifdef _OPENMP
  if (g_pin && g_n_cpus > 0) {
    /* libgomp keeps its threads between regions: pin each once */
#pragma omp parallel
    bench_pin_self_to(g_cpus[omp_get_thread_num() % g_n_cpus]);
  }
#endif
  unsigned long par0 = par_calls();
  if (bench_in_list(only, "a")) section_latency();
  if (bench_in_list(only, "sweep")) {
    sweep_result res[3];
    section_sweep(res);
  }
  if (bench_in_list(only, "c")) section_idle();
  note("");
  note("parallel-branch calls in this run: %lu; total time %.1f s", par_calls() - par0,
       (double)(now_ns() - t_start) / 1e9);
  free(g_x);
  free(g_y);
  free(g_cos);
  free(g_sin);
  actk_pool_destroy(g_pinned_pool);
  return 0;
}
