/* actk_pool_bench: the pool, the planner and threading, measured (src/plan.c's
 * costs per element, src/plan.h's dispatch costs, bench/scaling.sh's parts).
 * Each part is a row of g_parts; most are a grid of variants x scenarios
 * (op x size x threads x gap) measured by one engine, grid_run.
 *
 *   actk_pool_bench [PART[,PART..]].. [--only PARTS] [--quick] [--csv]
 *       [--csv-out=FILE] [--pin] [--threads L] [--gaps L] [--sizes L]
 *       [--ops L] [--spins L] [--smt-test] [--types L] [--shapes L] [--layouts L]
 *
 * No part named: latency, sweep, idle ("a" and "c" are latency and idle). L:
 * a comma-separated list; --gaps (us), --sizes and --ops replace the part's
 * defaults (g_parts). N: physical cores in the affinity mask (the default
 * pool's size). T: the first of --threads, else latency, sweep, idle: the
 * default pool's count; seed, contend, place: min(16, N); scale: each of 1,
 * 2, 4, 8, 16 and N up to N.
 *
 * latency  an empty job (n_tasks = the pool's threads) after each gap, p50
 *          and p99, own pools with each --spins (0, 100): noop tasks (wk%:
 *          the share a worker ran), and rendezvous tasks that wait until
 *          every thread holds one (joined: dispatch -> the last thread
 *          working, the real wake cost; co%: two threads on one CPU).
 * sweep    rope, tanh, gelu (the three cost classes) from 4 Ki to 4 Mi:
 *          serial, the pool as planned (the default pool; an own one with
 *          --threads or --pin), forced (T chunks by actk_pool_run whatever
 *          the planner says); then break-evens against the planner's, and
 *          the costs per element and per dispatch they imply.
 * idle     CPU burnt while sleeping after a burst of 100 gelu(1 Mi) calls:
 *          no burst, pools with spin_us 0, 100, 1000, OpenMP.
 * scale    serial, an own pool, the default pool (at its count), OpenMP, back
 *          to back; each pool's output compared bit for bit with serial's.
 * seed     the seed figure (LESSONS.md: 67 us back to back, 226 us after a
 *          20 us gap): serial, own pool (spin 1000 us), own pool spin 0, the
 *          default pool, OpenMP after each gap; /b2b: over the same at gap 0.
 * contend  two runtimes in one process, T threads each: the victim calls
 *          after a 20 us busy gap, again and again, while an aggressor thread
 *          calls on another runtime every 1 ms, paused and running in
 *          alternating blocks: pool beside pool (spin 1000, 0), beside an
 *          OpenMP team, OpenMP beside a pool; slowdown and cores used.
 * place    serial, own pools unpinned and pin = 1; where the allowed CPUs
 *          have SMT siblings (/sys core_id; --smt-test pretends CPU pairs
 *          are), compact (T/2 cores) vs spread (T cores), every thread pinned
 *          by the bench, the caller on the same CPU in both.
 * rope     RoPE (actk_rope_f32, _f16, _bf16; the 16-bit types take f32
 *          caches) on engines' shapes, H 32, D 128, rotary_dim D, theta 10000:
 *          prefill s128 and s2048 (B 1, positions 0..S-1, BSHD and BHSD),
 *          decode b1/b8/b32 (S 1, BSHD, a position id per sequence), both
 *          styles; --types f32,f16,bf16, --shapes prefill128,prefill2048,
 *          decode1,decode8,decode32, --layouts bshd,bhsd pick (default all),
 *          gaps 0, 20, 500. Serial (1T), on the default pool (--threads: an
 *          own pool per count; --pin: own, pin = 1) and a memcpy of the same
 *          bytes, interleaved, 1 ms between blocks: us per call, ns per
 *          element, ratios to the copy, 1T/pool, par%, plan (h/c), bits
 *          (pool == serial). Checks issue 13's bar (bf16 prefill s128 BSHD,
 *          one thread <= 1.3x the copy, gap 0) and decode's claims (b1 never
 *          touches the pool; rope - copy < 1 us at b1).
 * info     "threads L" (scale's default counts) and "single T", for scripts.
 *
 * A grid's variants run in interleaved blocks per scenario, rotating order
 * (bench_util's measure(): a settle sleep so a block starts from parked
 * workers, untimed calls for 60 us, 8 timed calls each after the gap),
 * medians. Gaps under 100 us busy-wait, longer ones sleep. OpenMP runs in a
 * forked child (two spinning runtimes in one process fight), its x over that
 * child's serial. x_V: serial / V; V%: calls that took the runner's parallel
 * branch; plan: actk_plan_split at the hot and cold dispatch costs read back
 * from a pool. --pin: the caller on the first allowed CPU, own pools pin = 1,
 * OpenMP threads on the allowed CPUs. Exit status 1 if a pool's output
 * differed from serial's or the active ISA changed. */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* ---- the ops: element-wise entry points and RoPE as a unary op ---- */

typedef actk_status (*f32_fn)(actk_pool *, const float *, float *, size_t);
typedef actk_status (*u16_fn)(actk_pool *, const uint16_t *, uint16_t *, size_t);

typedef struct bop {
  const char *name;
  f32_fn f32;
  u16_fn u16; /* 16-bit ops (f32 NULL): run on bf16 patterns, valid inputs for f16 too */
  actk_cost cost;
  size_t granule; /* what the planner splits on */
  size_t unit;    /* what a forced or OpenMP split cuts on */
} bop;

/* RoPE: B=1, H=32, D=128, BSHD, split-half; n/4096 tokens, positions from x's place in g_x */
#define ROPE_D 128
#define ROPE_TOKEN (32 * ROPE_D)
#define ROPE_MAXPOS 4096
static float *g_x, *g_y, *g_y2, *g_cos, *g_sin;
static uint16_t *g_x16, *g_y16, *g_y216;
static size_t g_cap;

static actk_status rope_f32(actk_pool *pool, const float *x, float *y, size_t n) {
  actk_rope_desc d;
  actk_rope_desc_init(&d);
  d.batch = 1;
  d.seq_len = n / ROPE_TOKEN;
  d.heads = ROPE_TOKEN / ROPE_D;
  d.head_size = ROPE_D;
  d.max_position = ROPE_MAXPOS;
  d.position_start = (int64_t)((size_t)(x - g_x) / ROPE_TOKEN);
  return actk_rope_f32(pool, &d, x, NULL, g_cos, g_sin, y);
}

#define FAST(c) ACTK_TIER_COST_fast(c)
static const bop g_ops[] = {
    {"rope", rope_f32, NULL, ACTK_COST_CHEAP, ROPE_D, ROPE_TOKEN},
    {"erf", actk_erf_f32, NULL, ACTK_COST_MEDIUM, 16, 16},
    {"tanh", actk_tanh_f32, NULL, ACTK_COST_MEDIUM, 16, 16},
    {"sigmoid", actk_sigmoid_f32, NULL, ACTK_COST_MEDIUM, 16, 16},
    {"silu", actk_silu_f32, NULL, ACTK_COST_MEDIUM, 16, 16},
    {"gelu", actk_gelu_f32, NULL, ACTK_COST_EXPENSIVE, 16, 16},
    {"gelu_tanh", actk_gelu_tanh_f32, NULL, ACTK_COST_EXPENSIVE, 16, 16},
    {"erf_fast", actk_erf_f32_fast, NULL, FAST(ACTK_COST_MEDIUM), 16, 16},
    {"tanh_fast", actk_tanh_f32_fast, NULL, FAST(ACTK_COST_MEDIUM), 16, 16},
    {"gelu_fast", actk_gelu_f32_fast, NULL, FAST(ACTK_COST_EXPENSIVE), 16, 16},
    {"gelu_bf16", NULL, actk_gelu_bf16, ACTK_COST_EXPENSIVE, 16, 16},
    {"gelu_bf16_fast", NULL, actk_gelu_bf16_fast, FAST(ACTK_COST_EXPENSIVE), 16, 16},
    {"gelu_f16_fast", NULL, actk_gelu_f16_fast, FAST(ACTK_COST_EXPENSIVE), 16, 16},
    {"erf_bf16_fast", NULL, actk_erf_bf16_fast, FAST(ACTK_COST_MEDIUM), 16, 16},
    {"tanh_bf16_fast", NULL, actk_tanh_bf16_fast, FAST(ACTK_COST_MEDIUM), 16, 16},
};
#define N_OPS (sizeof g_ops / sizeof g_ops[0])

static const bop *op_named(const char *name, size_t len) {
  for (size_t o = 0; o < N_OPS; o++)
    if (strlen(g_ops[o].name) == len && !strncmp(g_ops[o].name, name, len)) return &g_ops[o];
  return NULL;
}

/* the inputs (the same LCG floats for every program, and their bf16) and outputs, cap elements */
static void buffers(size_t cap) {
  if (cap <= g_cap) return;
  void *old[] = {g_x, g_y, g_y2, g_x16, g_y16, g_y216};
  for (size_t k = 0; k < sizeof old / sizeof old[0]; k++) free(old[k]);
  g_cap = cap;
  g_x = bench_inputs(cap);
  g_y = xalloc(cap * sizeof(float));
  g_y2 = xalloc(cap * sizeof(float));
  g_x16 = xalloc(cap * sizeof(uint16_t));
  g_y16 = xalloc(cap * sizeof(uint16_t));
  g_y216 = xalloc(cap * sizeof(uint16_t));
  for (size_t i = 0; i < cap; i++) g_x16[i] = actk_f32_to_bf16(g_x[i]);
  if (!g_cos) {
    g_cos = xalloc(ROPE_MAXPOS * ROPE_D / 2 * sizeof(float));
    g_sin = xalloc(ROPE_MAXPOS * ROPE_D / 2 * sizeof(float));
    actk_status st = actk_rope_cache_f32(g_cos, g_sin, ROPE_MAXPOS, ROPE_D, 0);
    if (st != ACTK_OK) die("actk_rope_cache_f32", st);
  }
}

static actk_status op_run(const bop *op, actk_pool *pool, size_t lo, size_t hi, int out2) {
  if (op->f32) return op->f32(pool, g_x + lo, (out2 ? g_y2 : g_y) + lo, hi - lo);
  return op->u16(pool, g_x16 + lo, (out2 ? g_y216 : g_y16) + lo, hi - lo);
}

/* One table row, its fields from one printf format, separated by '|'. */
static void rowf(const char *sec, const col *c, int nc, const char *fmt, ...) {
  char buf[1024], *p = buf;
  const char *v[48];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  for (int k = 0; k < nc && k < 48; k++) {
    v[k] = p;
    p += strcspn(p, "|");
    if (*p) *p++ = '\0';
  }
  t_row(sec, c, nc, v);
}

/* ---- the ways to run a call, and one call of each ---- */

typedef enum { K_SERIAL, K_POOL, K_FORCED, K_OMP } kind;

typedef struct job {
  const bop *op;
  size_t n;
  kind k;
  actk_pool *pool;
  unsigned threads; /* K_FORCED: chunks; K_OMP: the team */
  int out2;         /* write the second output buffers */
} job;

static _Thread_local int tls_main; /* the thread that runs main() */
/* forced splits: chunks dispatched, run by a worker, run by a worker on the caller's CPU */
static atomic_ulong g_forced_chunks, g_forced_wk, g_forced_co;
static atomic_int g_caller_cpu;

static int cur_cpu(void) {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

/* chunk i of `chunks` over n elements, cut on whole units */
static void chunk(const job *j, size_t chunks, size_t i, size_t *lo, size_t *hi) {
  const size_t unit = j->op->unit, units = (j->n + unit - 1) / unit;
  *lo = units * i / chunks * unit;
  *hi = units * (i + 1) / chunks * unit;
  if (*hi > j->n) *hi = j->n;
  if (*lo > *hi) *lo = *hi;
}

static void forced_task(void *p, size_t i) {
  const job *j = p;
  if (!tls_main) {
    atomic_fetch_add_explicit(&g_forced_wk, 1, memory_order_relaxed);
    if (cur_cpu() == atomic_load_explicit(&g_caller_cpu, memory_order_relaxed))
      atomic_fetch_add_explicit(&g_forced_co, 1, memory_order_relaxed);
  }
  size_t lo, hi;
  chunk(j, j->threads, i, &lo, &hi);
  if (hi > lo) op_run(j->op, NULL, lo, hi, j->out2);
}

static void job_call(void *p) {
  const job *j = p;
  if (j->k == K_FORCED) {
    atomic_fetch_add_explicit(&g_forced_chunks, j->threads, memory_order_relaxed);
    atomic_store_explicit(&g_caller_cpu, cur_cpu(), memory_order_relaxed);
    actk_pool_run(j->pool, forced_task, p, j->threads);
    return;
  }
#ifdef _OPENMP
  if (j->k == K_OMP) {
#pragma omp parallel num_threads((int)j->threads)
    {
      size_t lo, hi;
      chunk(j, (size_t)omp_get_num_threads(), (size_t)omp_get_thread_num(), &lo, &hi);
      if (hi > lo) op_run(j->op, NULL, lo, hi, j->out2);
    }
    return;
  }
#endif
  actk_status st = op_run(j->op, j->k == K_POOL ? j->pool : NULL, 0, j->n, j->out2);
  if (st != ACTK_OK) die(j->op->name, st);
}

/* ---- options, CPUs, pools ---- */

static unsigned g_tl[16], g_gaps[16], g_sizes[16], g_spins[8];
static int g_ntl, g_ngaps, g_nsizes, g_nspins, g_smt_test;
static const char *g_opt_threads, *g_opt_gaps, *g_opt_sizes, *g_opt_ops, *g_opt_spins;
static const char *g_opt_types, *g_opt_shapes, *g_opt_layouts; /* rope's */
static const bop *g_opl[N_OPS];
static int g_nopl;
static unsigned g_N, g_tdef; /* physical cores allowed, the default pool's threads */
static int g_cpus[1024], g_ncpus;
#ifdef __linux__
static cpu_set_t g_allowed;
#endif

static void restore_affinity(void) {
#ifdef __linux__
  sched_setaffinity(0, sizeof g_allowed, &g_allowed);
#endif
}

/* An own pool; it sizes itself from the creating thread's affinity mask, so
 * a pinned caller gets its whole mask back meanwhile. */
static actk_pool *make_pool(unsigned threads, unsigned spin_us, int pin) {
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = threads;
  cfg.spin_us = spin_us;
  cfg.pin = pin;
  actk_pool *p = NULL;
  restore_affinity();
  actk_status st = actk_pool_create(&cfg, &p);
  if (g_pin && g_ncpus) bench_pin_self_to(g_cpus[0]);
  if (st != ACTK_OK) die("actk_pool_create", st);
  return p;
}

/* the pools of a part, made on first use: (threads, spin, pin) -> pool */
typedef struct pool_key {
  unsigned t, spin;
  int pin;
  actk_pool *p;
} pool_key;
static pool_key g_pools[32];
static int g_npools;

static actk_pool *pool_get(unsigned t, unsigned spin, int pin) {
  for (int i = 0; i < g_npools; i++)
    if (g_pools[i].t == t && g_pools[i].spin == spin && g_pools[i].pin == pin) return g_pools[i].p;
  if (g_npools == 32) die("too many pools", ACTK_ERR_INVALID_ARGUMENT);
  g_pools[g_npools] = (pool_key){t, spin, pin, make_pool(t, spin, pin)};
  return g_pools[g_npools++].p;
}

static void pools_free(void) {
  while (g_npools) actk_pool_destroy(g_pools[--g_npools].p);
}

/* OpenMP in the process that runs it: --pin puts its threads on the allowed CPUs in order
 * (libgomp keeps its threads between regions: pin each once) */
static void omp_setup(unsigned T) {
#ifdef _OPENMP
  omp_set_num_threads((int)T);
  if (g_pin && g_ncpus > 0) {
#pragma omp parallel
    bench_pin_self_to(g_cpus[omp_get_thread_num() % g_ncpus]);
  }
  note("OpenMP %d, %u threads, OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s", _OPENMP, T,
       getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "(unset)",
       getenv("GOMP_SPINCOUNT") ? getenv("GOMP_SPINCOUNT") : "(unset)");
#else
  (void)T;
#endif
}

/* Runs fn(arg) in a forked child and waits; its exit status (1 if it did not run). OpenMP runs
 * only in such children: once libgomp has started its threads, a process forked later can hang
 * in it, and two spinning runtimes in one process fight (contend measures exactly that). */
static int in_child(int (*fn)(const void *), const void *arg) {
  fflush(NULL);
  const pid_t pid = fork();
  if (pid == 0) {
    const int rc = fn(arg);
    fflush(NULL);
    _exit(rc);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return 1;
  return WEXITSTATUS(st);
}

/* scale's thread counts: 1, 2, 4, 8, 16 up to N, and N */
static int std_counts(unsigned *tl) {
  int n = 0;
  for (unsigned t = 1; t <= 16 && t <= g_N; t *= 2) tl[n++] = t;
  if (tl[n - 1] != g_N) tl[n++] = g_N;
  return n;
}

/* a list as text, "1,2,4" */
static const char *list_str(const unsigned *v, int n) {
  static char buf[192];
  buf[0] = '\0';
  for (int k = 0, len = 0; k < n && len + 12 < (int)sizeof buf; k++)
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%u", k ? "," : "", v[k]);
  return buf;
}

/* ---- the parts' table ---- */

enum {
  T_DEF,
  T_SINGLE,
  T_LIST,
  T_POOL
}; /* a part's thread count(s); T_POOL: T_DEF, or every --threads */
enum { G_BITS = 1, G_B2B = 2, G_SPLIT = 4 }; /* a grid's extra columns */
#define SPIN_DEF (~0u)                       /* the default pool */
#define MAXV 5

typedef struct vspec {
  const char *name;
  kind k;
  unsigned spin; /* SPIN_DEF: actk_pool_default() where it has T threads */
  int pin;       /* -1: --pin's */
  int own_else;  /* SPIN_DEF where the default pool does not fit: an own pool like it (else
                    the variant is left out) */
  actk_pool *fixed;
} vspec;

typedef struct grid {
  const vspec *v;
  int nv, flags;
  unsigned settle_us;
  double budget_ms[2]; /* --quick, full */
  int min_reps[2], max_reps;
  double (*median)(uint64_t *, size_t);
} grid;

typedef struct part part;
struct part {
  const char *name, *alias;
  int (*run)(const part *);
  int threads;
  const char *ops, *sizes, *gaps; /* defaults of --ops, --sizes, --gaps */
  const grid *g;
};

static actk_pool *vpool(const vspec *v, unsigned T) {
  if (v->k == K_SERIAL || v->k == K_OMP) return NULL;
  if (v->fixed) return v->fixed;
  const int pin = v->pin < 0 ? g_pin : v->pin;
  if (v->spin != SPIN_DEF) return pool_get(T, v->spin, pin);
  if (T == g_tdef && !g_pin) return actk_pool_default();
  if (!v->own_else) return NULL;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  return pool_get(T, cfg.spin_us, pin);
}

/* ---- the grid engine: every op x size x T x gap, the variants interleaved ---- */

typedef struct cell {
  double med, x, par; /* median ns, serial / this (same process), % split (-1: not a pool) */
} cell;

typedef struct scen {
  const bop *op;
  size_t n;
  unsigned T, gap;
  int bits;          /* 1: every pool's output was serial's */
  double f_wk, f_co; /* forced: % of chunks a worker ran, % of those on the caller's CPU */
  cell c[MAXV];
} scen;

/* Measures the variants of v[] that `child` selects (OpenMP: in a forked child) for every
 * scenario of s, into s[].c. */
static void grid_measure(const grid *G, scen *s, int ns, int child) {
  const vspec *v = G->v;
  for (int i = 0; i < ns; i++) {
    variant var[MAXV];
    job jb[MAXV];
    int idx[MAXV], m = 0;
    for (int k = 0; k < G->nv; k++) {
      if (k > 0 && (v[k].k == K_OMP) != child) continue;
      jb[m] = (job){s[i].op, s[i].n, v[k].k, vpool(&v[k], s[i].T), s[i].T, 0};
      if ((v[k].k == K_POOL || v[k].k == K_FORCED) && !jb[m].pool) continue;
      var[m] = (variant){v[k].name, job_call, &jb[m], NULL, 0, 0, 0, 0};
      idx[m++] = k;
    }
    if (!child) { /* bits: each pool's output is serial's */
      job_call(&jb[0]);
      s[i].bits = 1;
      for (int k = 1; k < m; k++) {
        if (jb[k].k != K_POOL) continue;
        job b = jb[k];
        b.out2 = 1;
        job_call(&b);
        s[i].bits &= s[i].op->f32 ? !memcmp(g_y, g_y2, s[i].n * sizeof(float))
                                  : !memcmp(g_y16, g_y216, s[i].n * sizeof(uint16_t));
      }
    }
    const unsigned long c0 = atomic_load(&g_forced_chunks), w0 = atomic_load(&g_forced_wk),
                        o0 = atomic_load(&g_forced_co);
    measure(var, m, s[i].gap, child ? 10000 : G->settle_us, G->budget_ms[!g_quick],
            G->min_reps[!g_quick], G->max_reps, G->median);
    const double c = (double)(atomic_load(&g_forced_chunks) - c0),
                 w = (double)(atomic_load(&g_forced_wk) - w0);
    s[i].f_wk = c > 0 ? 100.0 * w / c : -1;
    s[i].f_co = w > 0 ? 100.0 * (double)(atomic_load(&g_forced_co) - o0) / w : -1;
    for (int k = 0; k < m; k++) {
      cell *ce = &s[i].c[idx[k]];
      if (k == 0 && child) continue; /* serial: the parent's */
      ce->med = var[k].med;
      ce->x = var[0].med / var[k].med;
      ce->par = v[idx[k]].k == K_POOL ? 100.0 * (double)var[k].par / (double)var[k].ns : -1;
    }
  }
}

#ifdef _OPENMP
typedef struct grid_child {
  const grid *G;
  scen *s;
  int ns;
} grid_child;

static int grid_omp(const void *p) {
  const grid_child *c = p;
  unsigned tmax = 1; /* the widest team, each scenario's num_threads(T) */
  for (int t = 0; t < g_ntl; t++) tmax = g_tl[t] > tmax ? g_tl[t] : tmax;
  omp_setup(tmax);
  grid_measure(c->G, c->s, c->ns, 1);
  return 0;
}
#endif

static int g_diffs; /* scenarios where a pool's output differed from serial's */

/* The scenarios measured (OpenMP's first, in a child) and printed as one table; returns them
 * (grid_free when done) */
static scen *grid_run(const grid *G, const char *sec) {
  const vspec *v = G->v;
  const int nv = G->nv, ns = g_nopl * g_nsizes * g_ntl * g_ngaps;
  scen *s =
      mmap(NULL, (size_t)ns * sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) die("mmap", ACTK_ERR_OUT_OF_MEMORY);
  int i = 0;
  for (int o = 0; o < g_nopl; o++)
    for (int z = 0; z < g_nsizes; z++)
      for (int t = 0; t < g_ntl; t++)
        for (int g = 0; g < g_ngaps; g++) {
          const bop *op = g_opl[o];
          const size_t n = (g_sizes[z] + op->unit - 1) / op->unit * op->unit;
          s[i] = (scen){op, n, g_tl[t], g_gaps[g], 1, -1, -1, {{0, 0, -1}}};
          buffers(n);
          i++;
        }
  int omp = 0;
  for (int k = 0; k < nv; k++) omp |= v[k].k == K_OMP;
#ifdef _OPENMP
  const grid_child ctx = {G, s, ns};
  if (omp && in_child(grid_omp, &ctx)) die("the OpenMP child", ACTK_ERR_NO_THREADS);
#else
  if (omp) note("(built without OpenMP: no OpenMP column)");
#endif
  grid_measure(G, s, ns, 0);

  /* the table: per variant its time, x and par%; then the extras */
  char names[40][24];
  col cols[40];
  int nc = 0;
  static const char *const fixed[] = {"op", "n", "thr", "gap"};
  static const int fw[] = {14, 6, 3, 5};
  for (int k = 0; k < 4; k++) cols[nc++] = (col){fixed[k], fw[k]};
#define ADD_COL(...)                                                                               \
  do {                                                                                             \
    snprintf(names[nc], sizeof names[nc], __VA_ARGS__);                                            \
    cols[nc] = (col){names[nc], (int)strlen(names[nc]) < 7 ? 7 : (int)strlen(names[nc])};          \
    nc++;                                                                                          \
  } while (0)
  for (int k = 0; k < nv; k++) {
    ADD_COL("%s", v[k].name);
    if (k > 0) ADD_COL("x_%s", v[k].name);
    if (v[k].k == K_POOL) ADD_COL("%s%%", v[k].name);
    if (k > 0 && (G->flags & G_B2B)) ADD_COL("%s/b2b", v[k].name);
  }
  if (G->flags & G_SPLIT) {
    ADD_COL("ovh");
    ADD_COL("f_wk%%");
    ADD_COL("f_co%%");
  }
  ADD_COL("plan_hot");
  ADD_COL("plan_cold");
  if (G->flags & G_BITS) ADD_COL("bits");
  t_head(sec, cols, nc);
  int diffs = 0;
  for (i = 0; i < ns; i++) {
    const scen *r = &s[i], *b2b = &s[i - (i % g_ngaps)]; /* the same scenario's first gap */
    const char *val[40];
    int c = 0;
    val[c++] = r->op->name, val[c++] = kib(r->n), val[c++] = F("%u", r->T);
    val[c++] = F("%u", r->gap);
    for (int k = 0; k < nv; k++) {
      const int have = r->c[k].med > 0;
      val[c++] = have ? US(r->c[k].med) : "-";
      if (k > 0) val[c++] = have ? F("%.2f", r->c[k].x) : "-";
      if (v[k].k == K_POOL) val[c++] = have ? F("%.0f", r->c[k].par) : "-";
      if (k > 0 && (G->flags & G_B2B))
        val[c++] = have && b2b->gap == 0 && b2b->c[k].med > 0
                       ? F("%.2f", r->c[k].med / b2b->c[k].med)
                       : "-";
    }
    if (G->flags & G_SPLIT) {
      int f = 0;
      while (f < nv && v[f].k != K_FORCED) f++;
      val[c++] = f < nv ? US(r->c[f].med - r->c[0].med / r->T) : "-";
      val[c++] = r->f_wk >= 0 ? F("%.0f", r->f_wk) : "-";
      val[c++] = r->f_co >= 0 ? F("%.0f", r->f_co) : "-";
    }
    val[c++] = plan_str(r->n, r->op->granule, r->T, r->op->cost, g_hot_ns);
    val[c++] = plan_str(r->n, r->op->granule, r->T, r->op->cost, g_cold_ns);
    if (G->flags & G_BITS) val[c++] = r->bits ? "same" : "DIFF";
    diffs += !r->bits;
    t_row(sec, cols, nc, val);
  }
  if (diffs) note("!! %d rows: a pool's output differed from serial's", diffs);
  g_diffs += diffs;
  return s;
}

static void grid_free(scen *s) {
  munmap(s, (size_t)(g_nopl * g_nsizes * g_ntl * g_ngaps) * sizeof *s);
}

static int part_grid(const part *P) {
  note("== %s: us per call; x_V = serial / V; V%% = calls that split; plan = actk_plan_split at "
       "the hot / cold dispatch costs (%llu / %llu ns) ==",
       P->name, (unsigned long long)g_hot_ns, (unsigned long long)g_cold_ns);
  grid_free(grid_run(P->g, P->name));
  return 0;
}

/* ---- sweep: the grid, then the break-evens and the cost model ---- */

/* smallest n (a multiple of granule) the planner sends to the pool at this
 * dispatch cost, by bisection (the decision is monotone in n) */
static size_t planner_threshold(const bop *op, unsigned threads, uint64_t disp) {
  const size_t g = op->granule, minp = actk_plan_min_parallel(op->cost);
  size_t lo = 1, hi = g;
  while (hi < minp || actk_plan_split(hi, g, threads, op->cost, disp).n_chunks <= 1)
    if ((hi *= 2) > ((size_t)1 << 40)) return 0;
  while (hi - lo > g) {
    size_t mid = (lo + hi) / 2 / g * g;
    if (mid <= lo) break;
    if (mid >= minp && actk_plan_split(mid, g, threads, op->cost, disp).n_chunks > 1)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

static int cmp_d(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_d(double *v, int n) {
  if (n <= 0) return -1;
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int part_sweep(const part *P) {
  note("== sweep: serial vs the pool as planned vs forced (T chunks by actk_pool_run), us per "
       "call; ovh = forced - serial/T; f_wk%% = forced chunks a worker ran (0: the caller ran "
       "them all); f_co%% = those on the caller's CPU (time-shared, not parallel) ==");
  scen *s = grid_run(P->g, "sweep");
  static const col bc[] = {{"op", 14},           {"gap", 4},           {"be_forced", 9},
                           {"be_pool", 8},       {"pool<0.95x", 10},   {"ovh_us", 7},
                           {"plan_min_par", 12}, {"plan_thr_hot", 12}, {"plan_thr_cold", 13},
                           {"ps/el@64Ki", 10},   {"ps/el@last", 10},   {"wasted_us", 9},
                           {"n*=2*ovh/ps", 11}};
  const int nbc = (int)(sizeof bc / sizeof bc[0]);
  t_head("breakeven", bc, nbc);
  const int per_op = g_nsizes * g_ntl * g_ngaps;
  for (int o = 0; o < g_nopl; o++)
    for (int g = 0; g < g_ngaps; g++) {
      const scen *r0 = &s[o * per_op + g]; /* size index z: r0[z * g_ntl * g_ngaps] */
      const int step = g_ntl * g_ngaps;
      double ovh[16], wasted[16];
      int no = 0, nw = 0, loses = 0;
      size_t bf = 0, bp = 0;
      for (int z = g_nsizes - 1; z >= 0; z--) {
        const scen *r = &r0[z * step], *up = z + 1 < g_nsizes ? &r0[(z + 1) * step] : NULL;
        /* the smallest n that wins there and at the next size (one noisy point does not count) */
        if (r->c[2].x >= 1.0 && (!up || up->c[2].x >= 1.0)) bf = r->n;
        if (r->c[1].x >= 1.0 && (!up || up->c[1].x >= 1.0)) bp = r->n;
        loses += r->c[1].x < 0.95;
        /* the dispatch cost where a worker ran its share on a CPU of its own, below the sizes
         * where bandwidth blurs it; the wasted wake where no worker helped */
        if (r->f_wk >= 25 && r->f_co <= 50 && r->n <= ((size_t)1 << 20))
          ovh[no++] = r->c[2].med - r->c[0].med / r->T;
        if (r->f_wk < 10 && r->n <= 65536) wasted[nw++] = r->c[2].med - r->c[0].med;
      }
      int z64 = 0; /* in cache: 64 Ki where the list has it */
      while (z64 + 1 < g_nsizes && r0[z64 * step].n < 65536) z64++;
      const double ps0 = r0[z64 * step].c[0].med * 1000.0 / (double)r0[z64 * step].n;
      const scen *rl = &r0[(g_nsizes - 1) * step];
      const double o_med = median_d(ovh, no), w_med = median_d(wasted, nw);
      rowf("breakeven", bc, nbc, "%s|%u|%s|%s|%d|%s|%zu|%zu|%zu|%.0f|%.0f|%s|%s", r0->op->name,
           r0->gap, bf ? kib(bf) : "none", bp ? kib(bp) : "none", loses,
           o_med >= 0 ? US(o_med) : "-", actk_plan_min_parallel(r0->op->cost),
           planner_threshold(r0->op, r0->T, g_hot_ns), planner_threshold(r0->op, r0->T, g_cold_ns),
           ps0, rl->c[0].med * 1000.0 / (double)rl->n, w_med >= 0 ? US(w_med) : "-",
           o_med >= 0 ? F("%.0f", 2.0 * o_med * 1000.0 / ps0) : "-");
    }
  note("be_forced / be_pool: the smallest n where forced / the planned pool beats serial (x >= "
       "1.00) there and at the next size; pool<0.95x: sizes where the planned pool was >5%% "
       "slower; ovh_us: median forced - serial/T over the rows (n <= 1Mi) where a worker ran >= "
       "25%% of the chunks on a CPU of its own: what a dispatch costs when it pays (gap 0: hot, "
       "500: cold); wasted_us: median forced - serial where no worker helped (f_wk%% < 10, n <= "
       "64Ki): a wake that cost the caller for nothing; plan_min_par: below it the pool is never "
       "read; plan_thr: the smallest n the planner splits; ps/el: serial ps per element at 64 Ki "
       "(in cache) and the last size; n*: the 2-thread break-even that ovh implies (work n*ps pays "
       "when "
       "w/2 > ovh); the planner asks w(1-1/t) > 2 dispatch: twice that.");
  grid_free(s);
  return 0;
}

/* ---- a rendezvous job: every thread of a pool holds a task at once ---- */

typedef struct rdv {
  atomic_uint arrived, next;
  unsigned n;
  const int *pin; /* pin[0]: the caller's CPU, pin[1..]: the workers' (NULL: leave them) */
  int cpu[64];    /* where each arrived, in arrival order */
  _Atomic uint64_t t_all;
  atomic_int timed_out;
} rdv;

static void rdv_task(void *p, size_t i) {
  rdv *r = p;
  (void)i;
  if (r->pin) { /* (only then: the latency rows time this task, and an atomic costs) */
    const unsigned slot = tls_main ? 0 : 1 + atomic_fetch_add(&r->next, 1);
    if (slot < r->n) bench_pin_self_to(r->pin[slot]);
  }
  const int cpu = cur_cpu();
  const unsigned k = atomic_fetch_add(&r->arrived, 1);
  if (k < 64) r->cpu[k] = cpu;
  if (k + 1 == r->n) atomic_store(&r->t_all, now_ns());
  if (!bench_wait_all(&r->arrived, r->n, 200000000u)) atomic_store(&r->timed_out, 1);
}

static rdv *rdv_init(rdv *r, unsigned n, const int *pin) {
  memset(r, 0, sizeof *r);
  r->n = n;
  r->pin = pin;
  return r;
}

/* 1 if two threads of the rendezvous ran on one CPU */
static int rdv_shared_cpu(const rdv *r) {
  for (unsigned a = 0; a < r->n && a < 64; a++)
    for (unsigned b = a + 1; b < r->n && b < 64; b++)
      if (r->cpu[a] >= 0 && r->cpu[a] == r->cpu[b]) return 1;
  return 0;
}

/* ---- latency ---- */

static atomic_ulong g_worker_tasks;

static void noop_task(void *ctx, size_t i) {
  (void)ctx, (void)i;
  if (!tls_main) atomic_fetch_add_explicit(&g_worker_tasks, 1, memory_order_relaxed);
}

static int part_latency(const part *P) {
  (void)P;
  note("== latency: an empty job (n_tasks = the pool's threads) after an idle gap, us; noop: "
       "tasks do nothing, wk%% = those a worker ran; rdv: every thread must hold a task, joined "
       "= dispatch -> the last thread working; co%% = rdv jobs with two threads on one CPU ==");
  static const col cols[] = {{"spin_us", 7},     {"gap_us", 6},      {"gap_real", 8},
                             {"reps", 5},        {"noop_p50", 8},    {"noop_p99", 8},
                             {"wk%", 4},         {"rdv_p50", 8},     {"rdv_p99", 8},
                             {"joined_p50", 10}, {"joined_p99", 10}, {"co%", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("latency", cols, nc);
  for (int si = 0; si < g_nspins; si++) {
    actk_pool *pool = make_pool(g_tl[0], g_spins[si], g_pin);
    const unsigned width = actk_pool_width(pool);
    for (int gi = 0; gi < g_ngaps; gi++) {
      const unsigned gap = g_gaps[gi];
      const int reps = gap >= 10000  ? (g_quick ? 20 : 60)
                       : gap >= 1000 ? (g_quick ? 60 : 200)
                                     : (g_quick ? 200 : 400);
      uint64_t *t = xalloc((size_t)reps * 5 * sizeof *t); /* noop, rdv, joined, 2 real gaps */
      uint64_t *noop = t, *call = t + reps, *join = t + 2 * reps, *greal = t + 3 * reps;
      const unsigned long wk0 = atomic_load(&g_worker_tasks);
      int timeouts = 0, co = 0;
      actk_pool_run(pool, noop_task, NULL, width); /* the first job after creation */
      for (int r = 0; r < 2 * reps; r++) {         /* even r: noop, odd r: rendezvous */
        rdv R;
        rdv_init(&R, width, NULL);
        const uint64_t g0 = now_ns();
        gap_wait(gap);
        const uint64_t t0 = now_ns();
        if (r % 2)
          actk_pool_run(pool, rdv_task, &R, width);
        else
          actk_pool_run(pool, noop_task, NULL, width);
        const uint64_t t1 = now_ns();
        greal[r] = t0 - g0;
        (r % 2 ? call : noop)[r / 2] = t1 - t0;
        if (r % 2 == 0) continue;
        const uint64_t ta = atomic_load(&R.t_all);
        join[r / 2] = ta > t0 ? ta - t0 : 0;
        timeouts += atomic_load(&R.timed_out);
        co += atomic_load(&R.arrived) >= width && rdv_shared_cpu(&R);
      }
      const double wk = 100.0 * (double)(atomic_load(&g_worker_tasks) - wk0) /
                        ((double)(reps + 1) * (double)width);
      rowf("latency", cols, nc, "%u|%u|%s|%d|%s|%s|%.0f|%s|%s|%s|%s|%.0f", g_spins[si], gap,
           US(pct(greal, (size_t)reps * 2, 50)), reps, US(pct(noop, (size_t)reps, 50)),
           US(pct(noop, (size_t)reps, 99)), wk, US(pct(call, (size_t)reps, 50)),
           US(pct(call, (size_t)reps, 99)), US(pct(join, (size_t)reps, 50)),
           US(pct(join, (size_t)reps, 99)), 100.0 * co / reps);
      if (timeouts)
        note("  !! %d rendezvous timed out (a worker did not join in 200 ms)", timeouts);
      free(t);
    }
    actk_pool_destroy(pool);
  }
  return 0;
}

/* ---- idle ---- */

static uint64_t rusage_ns(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
         ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* CPU time of every thread, each read from its own thread CPU clock: the
 * kernel brings a running thread's count up to date for that read, while
 * getrusage() sums the other threads' counts as of their last tick (a thread
 * spinning on another CPU can be a tick behind). Linux; -1 elsewhere. */
static double threads_cpu_ns(void) {
#ifdef __linux__
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  uint64_t sum = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const unsigned tid = (unsigned)strtoul(e->d_name, NULL, 10);
    struct timespec ts; /* MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED), the kernel's ABI */
    if (clock_gettime((clockid_t)((~tid << 3) | 6u), &ts) == 0)
      sum += (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  closedir(d);
  return (double)sum;
#else
  return -1;
#endif
}

typedef struct idle_row {
  const char *name;
  kind k;
  unsigned spin;
} idle_row;
static const idle_row g_idle_rows[] = {{"idle (none)", K_SERIAL, 0},
                                       {"spin_us=0", K_POOL, 0},
                                       {"spin_us=100", K_POOL, 100},
                                       {"spin_us=1000", K_POOL, 1000},
                                       {"omp (libgomp)", K_OMP, 0}};
static const col g_idle_cols[] = {{"pool", 13},        {"threads", 7},      {"sleep_ms", 8},
                                  {"burst_par", 9},    {"expect_ms", 9},    {"rusage_ms", 9},
                                  {"threads_ms", 10},  {"threads_max", 11}, {"rusage_ms/s", 11},
                                  {"threads_ms/s", 12}};
#define IDLE_NC (int)(sizeof g_idle_cols / sizeof g_idle_cols[0])
static const unsigned g_idle_ms[] = {5, 50, 500};

/* one row: a burst on the row's runtime (none, a pool, OpenMP), then each sleep */
static int idle_run(const void *p) {
  const idle_row *row = p;
  const unsigned T = g_tl[0];
  job jb = {g_opl[0], (size_t)1 << 20, row->k, NULL, T, 0};
  if (jb.k == K_POOL) jb.pool = make_pool(T, row->spin, g_pin);
  if (jb.k == K_OMP) omp_setup(T);
  const unsigned threads = jb.k == K_SERIAL ? 1 : jb.pool ? actk_pool_threads(jb.pool) : T;
  for (int si = 0; si < (g_quick ? 2 : 3); si++) {
    double ru[8], th[8], tmax = 0;
    const int reps = g_idle_ms[si] >= 500 ? (g_quick ? 1 : 3) : (g_quick ? 3 : 7);
    unsigned long par = 0;
    for (int r = 0; r < reps; r++) {
      sleep_ns(20000000u); /* let everything settle (libgomp spins for a while) */
      const unsigned long p0 = par_calls();
      for (int k = 0; jb.k != K_SERIAL && k < 100; k++) job_call(&jb);
      par += par_calls() - p0;
      const double t0 = threads_cpu_ns();
      const uint64_t c0 = rusage_ns();
      sleep_ns((uint64_t)g_idle_ms[si] * 1000000u);
      ru[r] = (double)(rusage_ns() - c0) / 1e6;
      th[r] = t0 < 0 ? -1 : (threads_cpu_ns() - t0) / 1e6;
      if (th[r] > tmax) tmax = th[r];
    }
    const double cr = median_d(ru, reps), ct = median_d(th, reps), ms = g_idle_ms[si];
    const int pool = jb.k == K_POOL, exact = ct >= 0;
    rowf("idle", g_idle_cols, IDLE_NC, "%s|%u|%u|%s|%s|%.3f|%s|%s|%.2f|%s", row->name, threads,
         g_idle_ms[si], pool ? F("%lu/%d", par, 100 * reps) : "-",
         pool ? F("%.2f", row->spin * (threads - 1) / 1000.0) : "-", cr,
         exact ? F("%.3f", ct) : "-", exact ? F("%.3f", tmax) : "-", cr * 1000.0 / ms,
         exact ? F("%.2f", ct * 1000.0 / ms) : "-");
    if (pool && par == 0) note("  !! that pool never went parallel: the row measures nothing");
  }
  actk_pool_destroy(jb.pool);
  return 0;
}

static int part_idle(const part *P) {
  (void)P;
  note("== idle: a burst of 100 %s(1Mi) calls, then a sleep; the process's CPU during the sleep, "
       "medians of %d (%d for 500 ms); rusage: getrusage; threads: every thread's own CPU clock, "
       "summed (exact); OpenMP in a child process ==",
       g_opl[0]->name, g_quick ? 3 : 7, g_quick ? 1 : 3);
  t_head("idle", g_idle_cols, IDLE_NC);
  buffers((size_t)1 << 20);
  int rc = 0;
  for (size_t k = 0; k < sizeof g_idle_rows / sizeof g_idle_rows[0]; k++) {
#ifndef _OPENMP
    if (g_idle_rows[k].k == K_OMP) break;
#endif
    rc |=
        g_idle_rows[k].k == K_OMP ? in_child(idle_run, &g_idle_rows[k]) : idle_run(&g_idle_rows[k]);
  }
  note("expect_ms = spin_us x (threads - 1): each worker spins spin_us after its last job, then "
       "parks; ms/s = CPU-ms per second of idle; threads_max = the worst repeat; burst_par = "
       "parallel-branch calls / calls.");
  return rc;
}

/* ---- contend ---- */

typedef struct aggressor {
  pthread_t th;
  atomic_int run, quit;
  job jb;
  atomic_ulong calls;
  atomic_ullong busy_ns;
} aggressor;

static void *aggressor_main(void *p) {
  aggressor *a = p;
  while (!atomic_load(&a->quit)) {
    if (!atomic_load(&a->run)) {
      sleep_ns(200000);
      continue;
    }
    const uint64_t t0 = now_ns();
    job_call(&a->jb);
    atomic_fetch_add(&a->busy_ns, now_ns() - t0);
    atomic_fetch_add(&a->calls, 1);
    sleep_ns(1000000);
  }
  return NULL;
}

static int contend_run(const void *P) {
  (void)P;
  const unsigned T = g_tl[0];
  const size_t n = (g_sizes[0] + 15) / 16 * 16;
  static const struct {
    const char *name[2]; /* victim, aggressor */
    kind k[2];
    unsigned spin[2];
  } rows[] = {
      {{"actk pool, spin 1000", "actk pool, spin 1000"}, {K_POOL, K_POOL}, {1000, 1000}},
      {{"actk pool, spin 0", "actk pool, spin 0"}, {K_POOL, K_POOL}, {0, 0}},
      {{"actk pool, spin 1000", "OpenMP team"}, {K_POOL, K_OMP}, {1000, 0}},
      {{"actk pool, spin 0", "OpenMP team"}, {K_POOL, K_OMP}, {0, 0}},
      {{"OpenMP team", "actk pool, spin 1000"}, {K_OMP, K_POOL}, {0, 1000}},
      {{"OpenMP team", "actk pool, spin 0"}, {K_OMP, K_POOL}, {0, 0}},
  };
  const int rounds = g_quick ? 4 : 6;
  const double block_ms = g_quick ? 15 : 25;
  buffers(n);
  omp_setup(T);
  note("== contend: %u threads each; the victim calls %s(%zu) after a 20 us busy gap, the "
       "aggressor thread %s(%zu) on its own runtime every 1 ms; alone / with: the victim's mean "
       "us per call (the aggressor hits only the calls it overlaps: a median would hide it) in "
       "blocks with the aggressor paused / running, %d rounds of %.0f ms; slowdown = with / "
       "alone; p50x: the same for the medians; v_par%%: the victim's calls that split (alone); "
       "cores: process CPU / wall time, aggressor running / paused; aggr_us: its mean call ==",
       T, g_opl[0]->name, n, g_opl[0]->name, n, rounds, block_ms);
  static const col cols[] = {{"victim", 20},   {"aggressor", 20}, {"alone_us", 8}, {"with_us", 8},
                             {"slowdown", 8},  {"p50x", 5},       {"v_par%", 6},   {"cores_on", 8},
                             {"cores_off", 9}, {"aggr_us", 8}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("contend", cols, nc);
  const size_t cap = 200000;
  uint64_t *smp[2] = {xalloc(cap * sizeof(uint64_t)), xalloc(cap * sizeof(uint64_t))};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    job jb[2];
    for (int w = 0; w < 2; w++) {
      jb[w] = (job){g_opl[0], n, rows[r].k[w], NULL, T, w};
      if (jb[w].k == K_POOL) jb[w].pool = make_pool(T, rows[r].spin[w], g_pin);
    }
#ifndef _OPENMP
    if (rows[r].k[0] == K_OMP || rows[r].k[1] == K_OMP) {
      rowf("contend", cols, nc, "%s|%s|-|-|-|-|-|-|-|no OpenMP", rows[r].name[0], rows[r].name[1]);
      actk_pool_destroy(jb[0].pool), actk_pool_destroy(jb[1].pool);
      continue;
    }
#endif
    aggressor a;
    memset(&a, 0, sizeof a);
    a.jb = jb[1];
    if (pthread_create(&a.th, NULL, aggressor_main, &a) != 0)
      die("pthread_create", ACTK_ERR_NO_THREADS);
    for (int k = 0; k < 20; k++) job_call(&jb[0]); /* warm-up (OpenMP makes its team) */
    size_t ns[2] = {0, 0};
    unsigned long par = 0, calls = 0;
    double cpu[2] = {0, 0}, wall[2] = {0, 0}, sum[2] = {0, 0};
    const unsigned settle_us = jb[0].k == K_OMP || jb[1].k == K_OMP ? 20000 : 3000;
    for (int k = 0; k < rounds; k++)
      for (int h = 0; h < 2; h++) {
        const int on = (k + h) % 2;
        atomic_store(&a.run, on);
        sleep_ns((uint64_t)(on ? 3000 : settle_us) * 1000u);
        const double c0 = threads_cpu_ns();
        const uint64_t w0 = now_ns(), end = w0 + (uint64_t)(block_ms * 1e6), p0 = par_calls();
        while (now_ns() < end && ns[on] < cap) {
          gap_wait(20);
          const uint64_t t0 = now_ns();
          job_call(&jb[0]);
          sum[on] += (double)(smp[on][ns[on]++] = now_ns() - t0);
          calls += !on;
        }
        if (!on) par += par_calls() - p0;
        cpu[on] += threads_cpu_ns() - c0;
        wall[on] += (double)(now_ns() - w0);
      }
    atomic_store(&a.run, 0);
    atomic_store(&a.quit, 1);
    pthread_join(a.th, NULL);
    const double alone = ns[0] ? sum[0] / (double)ns[0] : 0,
                 with = ns[1] ? sum[1] / (double)ns[1] : 0;
    const double p50[2] = {pct(smp[0], ns[0], 50), pct(smp[1], ns[1], 50)};
    const unsigned long ac = atomic_load(&a.calls);
    rowf("contend", cols, nc, "%s|%s|%s|%s|%.2f|%.2f|%s|%.2f|%.2f|%s", rows[r].name[0],
         rows[r].name[1], US(alone), US(with), alone > 0 ? with / alone : 0,
         p50[0] > 0 ? p50[1] / p50[0] : 0,
         jb[0].k == K_POOL && calls ? F("%.0f", 100.0 * (double)par / (double)calls) : "-",
         wall[1] > 0 ? cpu[1] / wall[1] : 0, wall[0] > 0 ? cpu[0] / wall[0] : 0,
         ac ? US((double)atomic_load(&a.busy_ns) / (double)ac) : "-");
    actk_pool_destroy(jb[0].pool), actk_pool_destroy(jb[1].pool);
    sleep_ns(20000000u); /* every thread of this row parked before the next */
  }
  free(smp[0]), free(smp[1]);
  return 0;
}

static int part_contend(const part *P) { return in_child(contend_run, P); }

/* ---- place ---- */

/* /sys/devices/system/cpu/cpuC/topology/<what> as a number, -1 if unreadable */
static long sys_topology(int cpu, const char *what) {
  char path[128];
  long v = -1;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
  FILE *f = fopen(path, "r");
  if (f && fscanf(f, "%ld", &v) != 1) v = -1;
  if (f) fclose(f);
  return v;
}

static int part_place(const part *P) {
  int rc = part_grid(P);
  /* the allowed CPUs by physical core (package, core_id), at most two each */
  static long key[1024];
  static int core[1024][2], ncpu[1024];
  int ncores = 0, with2 = 0;
  for (int i = 0; i < g_ncpus; i++) {
    const int c = g_cpus[i];
    long k = i / 2;
    if (!g_smt_test) {
      const long id = sys_topology(c, "core_id"), pkg = sys_topology(c, "physical_package_id");
      k = id < 0 ? -1 - c : pkg * 65536 + id;
    }
    int j = 0;
    while (j < ncores && key[j] != k) j++;
    if (j == ncores) key[ncores] = k, ncpu[ncores++] = 0;
    if (ncpu[j] < 2) core[j][ncpu[j]++] = c;
  }
  for (int j = 0; j < ncores; j++) with2 += ncpu[j] == 2;
  unsigned T2 = g_tl[0];
  if (T2 > 2u * (unsigned)with2) T2 = 2u * (unsigned)with2;
  if (T2 > (unsigned)ncores) T2 = (unsigned)ncores;
  T2 &= ~1u;
  if (T2 < 2 || T2 > 64) {
    note("== place (SMT): %d cores allowed, %d with two CPUs (core_id): no compact vs spread ==",
         ncores, with2);
    return rc;
  }
  /* compact: both CPUs of T2/2 cores; spread: one CPU of T2 cores, those with siblings first */
  int compact[64], spread[64];
  unsigned nc = 0, nsp = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int j = 0; j < ncores; j++) {
      if ((ncpu[j] == 2) != !pass) continue;
      if (ncpu[j] == 2 && nc < T2) compact[nc++] = core[j][0], compact[nc++] = core[j][1];
      if (nsp < T2) spread[nsp++] = core[j][0];
    }
  const vspec v[] = {{"serial", K_SERIAL, 0, 0, 0, NULL},
                     {"compact", K_POOL, 0, 0, 0, make_pool(T2, 1000, 0)},
                     {"spread", K_POOL, 0, 0, 0, make_pool(T2, 1000, 0)}};
  note("== place (SMT%s): %u threads compact (%u cores x 2) vs spread (%u cores x 1), every "
       "thread pinned by the bench, the caller on CPU %d ==",
       g_smt_test ? ", --smt-test: PRETEND siblings, the numbers mean nothing" : "", T2, T2 / 2, T2,
       compact[0]);
  for (int k = 1; k < 3; k++) {
    rdv r;
    actk_pool_run(v[k].fixed, rdv_task, rdv_init(&r, T2, k == 1 ? compact : spread), T2);
    actk_pool_run(v[k].fixed, rdv_task, rdv_init(&r, T2, NULL), T2); /* where each runs now */
    unsigned cpus[64];
    for (unsigned t = 0; t < T2; t++) cpus[t] = (unsigned)r.cpu[t];
    note("%s: threads on CPUs %s%s", v[k].name, list_str(cpus, (int)T2),
         r.timed_out ? " (a thread did not join)" : "");
  }
  bench_pin_self_to(compact[0]);
  const unsigned tl0 = g_tl[0];
  g_tl[0] = T2;
  grid G = *P->g;
  G.v = v;
  G.nv = 3;
  grid_free(grid_run(&G, "smt"));
  g_tl[0] = tl0;
  restore_affinity();
  if (g_pin && g_ncpus) bench_pin_self_to(g_cpus[0]);
  actk_pool_destroy(v[1].fixed), actk_pool_destroy(v[2].fixed);
  return rc;
}

/* ---- rope: RoPE on the shapes engines run, serial and on a pool, beside a copy ---- */

typedef struct rope_call {
  actk_pool *pool;
  const actk_rope_desc *d;
  int type; /* 0 f32, 1 f16, 2 bf16 */
  const void *x;
  const int64_t *ids;
  void *y;
  size_t bytes;
} rope_call;

static actk_status rope_any(actk_pool *pool, const actk_rope_desc *d, int type, const void *x,
                            const int64_t *ids, void *y) {
  switch (type) {
  case 1:
    return actk_rope_f16(pool, d, x, ids, g_cos, g_sin, y);
  case 2:
    return actk_rope_bf16(pool, d, x, ids, g_cos, g_sin, y);
  default:
    return actk_rope_f32(pool, d, x, ids, g_cos, g_sin, y);
  }
}

static void call_rope(void *p) {
  const rope_call *c = p;
  actk_status st = rope_any(c->pool, c->d, c->type, c->x, c->ids, c->y);
  if (st != ACTK_OK) die("rope", st);
}

static void call_copy(void *p) {
  const rope_call *c = p;
  memcpy(c->y, c->x, c->bytes);
  __asm__ volatile("" : : "r"(c->y) : "memory"); /* not elided, not merged across calls */
}

static int part_rope(const part *P) {
  (void)P;
  static const struct {
    const char *name, *key; /* key: the --shapes name */
    size_t B, S;
    int decode;
  } shapes[] = {{"prefill s128", "prefill128", 1, 128, 0},
                {"prefill s2048", "prefill2048", 1, 2048, 0},
                {"decode b1", "decode1", 1, 1, 1},
                {"decode b8", "decode8", 8, 1, 1},
                {"decode b32", "decode32", 32, 1, 1}};
  static const char *const type_names[3] = {"f32", "f16", "bf16"};
  static const size_t esize[3] = {4, 2, 2};
  const size_t max_el = 2048 * ROPE_TOKEN, H = ROPE_TOKEN / ROPE_D,
               cheap_min = actk_plan_min_parallel(ACTK_COST_CHEAP);
  buffers(ROPE_TOKEN); /* the cos/sin caches */
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  note("pool: %s%s, default spin",
       g_opt_threads ? "own pools, one per --threads count"
       : g_pin       ? "own"
                     : "actk_pool_default(), unpinned",
       g_pin ? ", pin = 1" : "");
  note("H=%zu D=%d rotary_dim=D, cache %d positions (f32 for every type); gaps < %u us "
       "busy-wait, longer ones sleep",
       H, ROPE_D, ROPE_MAXPOS, SLEEP_MIN_US);
  /* uniform in [-1, 1) from an LCG; f16 inputs below 2^-14 (subnormal) are 0 */
  float *x = xalloc(max_el * sizeof(float));
  void *xt[3], *yt[3], *y2t[3];
  for (int t = 0; t < 3; t++) {
    xt[t] = t ? xalloc(max_el * esize[t]) : x;
    yt[t] = xalloc(max_el * esize[t]);
    y2t[t] = xalloc(max_el * esize[t]);
  }
  uint32_t seed = 987654321u;
  for (size_t i = 0; i < max_el; i++) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
    ((uint16_t *)xt[2])[i] = actk_f32_to_bf16(x[i]);
    ((uint16_t *)xt[1])[i] =
        fabsf(x[i]) < 0x1p-14f ? (uint16_t)(signbit(x[i]) ? 0x8000u : 0u) : actk_f32_to_f16(x[i]);
  }
  int64_t ids[32];
  for (int b = 0; b < 32; b++) ids[b] = 1000 + 61 * b; /* sequences at different lengths */

  static const col cols[] = {{"shape", 13},      {"type", 4},      {"layout", 6},  {"style", 5},
                             {"thr", 3},         {"gap", 3},       {"elems", 7},   {"copy_us", 7},
                             {"1T_us", 7},       {"1T_ns/el", 8},  {"1T/copy", 7}, {"pool_us", 7},
                             {"pool_ns/el", 10}, {"pool/copy", 9}, {"1T/pool", 7}, {"par%", 4},
                             {"plan_h/c", 13},   {"bits", 4}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("rope", cols, nc);
  int failures = 0, ran_b1 = 0;
  double b1_over[3][2][2] = {{{0}}}; /* decode b1, [type][style][1T, pool]: rope - copy, gap 0 */
  double bar16[2] = {-1, -1};        /* bf16 prefill s128 BSHD 1T/copy at gap 0, per style */
  unsigned long b1_par = 0;
  for (int ty = 0; ty < 3; ty++) {
    if (!bench_in_list(g_opt_types, type_names[ty])) continue;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
      if (!bench_in_list(g_opt_shapes, shapes[si].key)) continue;
      const size_t B = shapes[si].B, S = shapes[si].S, n = B * S * ROPE_TOKEN;
      const int decode = shapes[si].decode;
      for (int lay = 0; lay < (decode ? 1 : 2); lay++) {
        if (!bench_in_list(g_opt_layouts, lay ? "bhsd" : "bshd")) continue;
        for (int sty = 0; sty < 2; sty++) {
          actk_rope_desc d;
          actk_rope_desc_init(&d);
          d.batch = B;
          d.seq_len = S;
          d.heads = H;
          d.head_size = ROPE_D;
          d.layout = lay ? ACTK_ROPE_BHSD : ACTK_ROPE_BSHD;
          d.style = sty ? ACTK_ROPE_INTERLEAVED : ACTK_ROPE_SPLIT_HALF;
          d.max_position = ROPE_MAXPOS;
          const int64_t *pid = decode ? ids : NULL;
          for (int pk = 0; pk < g_ntl; pk++) {
            actk_pool *pool = g_opt_threads || g_pin ? pool_get(g_tl[pk], cfg.spin_us, g_pin)
                                                     : actk_pool_default();
            const unsigned T = actk_pool_threads(pool);
            rope_call c1 = {NULL, &d, ty, xt[ty], pid, yt[ty], n * esize[ty]}, cp = c1;
            cp.pool = pool;
            /* the pool's result must be the serial one, bit for bit */
            actk_status st = rope_any(NULL, &d, ty, xt[ty], pid, yt[ty]);
            if (st == ACTK_OK) st = rope_any(pool, &d, ty, xt[ty], pid, y2t[ty]);
            if (st != ACTK_OK) die("rope", st);
            const int same = memcmp(yt[ty], y2t[ty], n * esize[ty]) == 0;
            failures += !same;
            for (int gi = 0; gi < g_ngaps; gi++) {
              variant v[3] = {{"copy", call_copy, &c1, NULL, 0, 0, 0, 0},
                              {"1T", call_rope, &c1, NULL, 0, 0, 0, 0},
                              {"pool", call_rope, &cp, NULL, 0, 0, 0, 0}};
              /* 1 ms between blocks: each block starts from a parked pool */
              measure(v, 3, g_gaps[gi], 1000, g_quick ? 80 : 500, 3, 4000, median_u64);
              const double copy = v[0].med, one = v[1].med, par = v[2].med;
              rowf("rope", cols, nc,
                   "%s|%s|%s|%s|%u|%u|%zu|%s|%s|%.3f|%.2f|%s|%.3f|%.2f|%.2f|%s|%s/%s|%s",
                   shapes[si].name, type_names[ty], lay ? "BHSD" : "BSHD", sty ? "inter" : "half",
                   T, g_gaps[gi], n, US(copy), US(one), one / (double)n, one / copy, US(par),
                   par / (double)n, par / copy, one / par, par_pct(&v[2], 0),
                   plan_str(n, ROPE_D, T, ACTK_COST_CHEAP, g_hot_ns),
                   plan_str(n, ROPE_D, T, ACTK_COST_CHEAP, g_cold_ns), same ? "same" : "DIFF");
              for (int j = 0; j < 3; j++) free(v[j].s);
              if (g_gaps[gi] == 0 && pk == 0 && ty == 2 && si == 0 && lay == 0)
                bar16[sty] = one / copy;
              if (decode && B == 1) {
                ran_b1 = 1;
                b1_par += v[2].par;
                if (g_gaps[gi] == 0) {
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
  for (int sty = 0; sty < 2; sty++)
    if (bar16[sty] >= 0)
      note("bf16 prefill s128 BSHD %s, gap 0: 1T/copy = %.2f (issue 13's bar <= 1.3x): %s",
           sty ? "interleaved" : "split-half", bar16[sty], bar16[sty] <= 1.3 ? "PASS" : "MISS");
  if (ran_b1) {
    note("decode b1 (%zu elements) never touches the pool: %s (n %s min_parallel %zu, "
         "parallel-branch calls %lu)",
         ROPE_TOKEN, ROPE_TOKEN < cheap_min && b1_par == 0 ? "yes" : "NO",
         ROPE_TOKEN < cheap_min ? "<" : ">=", cheap_min, b1_par);
    for (int ty = 0; ty < 3; ty++)
      for (int sty = 0; sty < 2 && bench_in_list(g_opt_types, type_names[ty]); sty++)
        note("decode b1 %s %s, gap 0: rope - copy = %.0f ns serial, %.0f ns via the pool "
             "(target < 1000 ns): %s",
             type_names[ty], sty ? "interleaved" : "split-half", b1_over[ty][sty][0],
             b1_over[ty][sty][1],
             b1_over[ty][sty][0] < 1000 && b1_over[ty][sty][1] < 1000 ? "PASS" : "FAIL");
    note("decode b8 / b32 = %zu / %zu elements: %s / %s the pool's minimum (%zu)", 8 * ROPE_TOKEN,
         32 * ROPE_TOKEN, 8 * ROPE_TOKEN < cheap_min ? "below" : "at or above",
         32 * ROPE_TOKEN < cheap_min ? "below" : "at or above", cheap_min);
  }
  if (failures) note("!! %d shape(s) gave different bits on the pool than serially", failures);
  for (int t = 0; t < 3; t++) {
    free(xt[t]);
    free(yt[t]);
    free(y2t[t]);
  }
  return failures ? 1 : 0;
}

/* ---- info, the table, main ---- */

static int part_info(const part *P) {
  (void)P;
  unsigned tl[8];
  printf("threads %s\nsingle %u\n", list_str(tl, std_counts(tl)), g_N < 16 ? g_N : 16);
  return 0;
}

#define SIZES_SWEEP "4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304"
static const vspec v_sweep[] = {{"serial", K_SERIAL, 0, -1, 0, NULL},
                                {"pool", K_POOL, SPIN_DEF, -1, 1, NULL},
                                {"forced", K_FORCED, SPIN_DEF, -1, 1, NULL}};
static const vspec v_scale[] = {{"serial", K_SERIAL, 0, -1, 0, NULL},
                                {"own", K_POOL, 1000, -1, 0, NULL},
                                {"def", K_POOL, SPIN_DEF, -1, 0, NULL},
                                {"omp", K_OMP, 0, -1, 0, NULL}};
static const vspec v_seed[] = {{"serial", K_SERIAL, 0, -1, 0, NULL},
                               {"own", K_POOL, 1000, -1, 0, NULL},
                               {"spin0", K_POOL, 0, -1, 0, NULL},
                               {"def", K_POOL, SPIN_DEF, -1, 0, NULL},
                               {"omp", K_OMP, 0, -1, 0, NULL}};
static const vspec v_place[] = {{"serial", K_SERIAL, 0, -1, 0, NULL},
                                {"unpinned", K_POOL, 1000, 0, 0, NULL},
                                {"pinned", K_POOL, 1000, 1, 0, NULL}};
#define V(a) a, (int)(sizeof a / sizeof a[0])
/* variants, columns, settle us, budget ms (--quick, full), min rounds (the same), max, median */
static const grid g_sweep = {V(v_sweep), G_SPLIT, 1000, {40, 300}, {3, 3}, 2000, median_rank_u64};
static const grid g_scale = {V(v_scale), G_BITS, 2000, {30, 100}, {3, 5}, 200, median_u64};
static const grid g_seed = {V(v_seed), G_BITS | G_B2B, 2000, {40, 150}, {3, 5}, 400, median_u64};
static const grid g_place = {V(v_place), G_B2B, 2000, {40, 120}, {3, 5}, 400, median_u64};
/* name, alias, run, threads, and the defaults of --ops, --sizes, --gaps */
static const part g_parts[] = {
    {"latency", "a", part_latency, T_DEF, "gelu", "0", "0,5,20,100,1000,10000", NULL},
    {"sweep", NULL, part_sweep, T_DEF, "rope,tanh,gelu", SIZES_SWEEP, "0,500", &g_sweep},
    {"idle", "c", part_idle, T_DEF, "gelu", "0", "0", NULL},
    {"scale", NULL, part_grid, T_LIST, "erf,gelu,tanh,gelu_bf16_fast",
     "65536,1048576,4194304,16777216", "0", &g_scale},
    {"seed", NULL, part_grid, T_SINGLE, "gelu", "524288", "0,20,100,500,5000", &g_seed},
    {"contend", NULL, part_contend, T_SINGLE, "gelu", "524288", "0", NULL},
    {"place", NULL, part_place, T_SINGLE, "gelu", "524288,4194304", "0,20,500,5000", &g_place},
    {"rope", NULL, part_rope, T_POOL, "rope", "0", "0,20,500", NULL},
    {"info", NULL, part_info, T_DEF, "gelu", "0", "0", NULL},
};
#define N_PARTS (sizeof g_parts / sizeof g_parts[0])

static const part *part_named(const char *s, size_t len) {
  for (size_t k = 0; k < N_PARTS; k++) {
    const part *p = &g_parts[k];
    if ((strlen(p->name) == len && !strncmp(p->name, s, len)) ||
        (p->alias && strlen(p->alias) == len && !strncmp(p->alias, s, len)))
      return p;
  }
  return NULL;
}

static void usage(void) {
  fprintf(stderr, "usage: actk_pool_bench [PART[,PART..]].. [--only PARTS] [--quick] [--csv] "
                  "[--csv-out=FILE] [--pin]\n       [--threads L] [--gaps L] [--sizes L] "
                  "[--ops L] [--spins L] [--smt-test]\n       [--types L] [--shapes L] [--layouts "
                  "L] (rope)\n  parts:");
  for (size_t k = 0; k < N_PARTS; k++) fprintf(stderr, " %s", g_parts[k].name);
  fprintf(stderr, " (default latency,sweep,idle; a = latency, c = idle)\n  ops:");
  for (size_t o = 0; o < N_OPS; o++) fprintf(stderr, " %s", g_ops[o].name);
  fprintf(stderr, "\n");
  exit(2);
}

/* the part's lists: the options' where given, else its defaults */
static void part_lists(const part *P) {
  const char *e;
  if ((g_ngaps = bench_parse_list(g_opt_gaps ? g_opt_gaps : P->gaps, g_gaps, 16, 100000000u)) < 1 ||
      (g_nsizes = bench_parse_list(g_opt_sizes ? g_opt_sizes : P->sizes, g_sizes, 16, 64u << 20)) <
          1 ||
      (g_nspins = bench_parse_list(g_opt_spins ? g_opt_spins : "0,100", g_spins, 8, 100000000u)) <
          1)
    usage();
  g_nopl = 0;
  for (const char *p = g_opt_ops ? g_opt_ops : P->ops;; p = e + 1) {
    e = strchr(p, ',');
    const bop *op = op_named(p, e ? (size_t)(e - p) : strlen(p));
    if (!op || g_nopl == (int)N_OPS) usage();
    g_opl[g_nopl++] = op;
    if (!e) break;
  }
  if (g_opt_threads) {
    if ((g_ntl = bench_parse_list(g_opt_threads, g_tl, 16, 1024)) < 1) usage();
    for (int k = 0; k < g_ntl; k++)
      if (!g_tl[k]) usage();
  } else if (P->threads == T_LIST) {
    g_ntl = std_counts(g_tl);
  } else {
    g_ntl = 1;
    g_tl[0] = P->threads == T_DEF || P->threads == T_POOL ? g_tdef : g_N < 16 ? g_N : 16;
  }
  if (P->threads != T_LIST && P->threads != T_POOL) g_ntl = 1; /* one count: the first */
}

int main(int argc, char **argv) {
  const part *run[N_PARTS * 4];
  int nrun = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], **opt = NULL;
    if (bench_flag(a)) continue;
    if (!strcmp(a, "--smt-test")) {
      g_smt_test = 1;
      continue;
    }
    static const char *const names[] = {"--threads", "--gaps",  "--sizes",  "--ops",
                                        "--spins",   "--types", "--shapes", "--layouts"};
    const char **vars[] = {&g_opt_threads, &g_opt_gaps,  &g_opt_sizes,  &g_opt_ops,
                           &g_opt_spins,   &g_opt_types, &g_opt_shapes, &g_opt_layouts};
    for (int k = 0; k < 8; k++)
      if (!strcmp(a, names[k])) opt = vars[k];
    if (opt || !strcmp(a, "--only")) {
      if (i + 1 == argc) usage();
      if (opt) {
        *opt = argv[++i];
        continue;
      }
      a = argv[++i];
    } else if (a[0] == '-') {
      usage();
    }
    for (const char *p = a, *e;; p = e + 1) { /* a list of parts */
      e = strchr(p, ',');
      const part *P = part_named(p, e ? (size_t)(e - p) : strlen(p));
      if (!P || nrun == (int)(sizeof run / sizeof run[0])) usage();
      run[nrun++] = P;
      if (!e) break;
    }
  }
  if (!nrun)
    for (const char *d = "latency\0sweep\0idle\0"; *d; d += strlen(d) + 1)
      run[nrun++] = part_named(d, strlen(d));
  tls_main = 1;
  bench_init("actk_pool_bench");
#ifdef __linux__
  sched_getaffinity(0, sizeof g_allowed, &g_allowed);
  for (int c = 0; c < CPU_SETSIZE && g_ncpus < 1024; c++)
    if (CPU_ISSET(c, &g_allowed)) g_cpus[g_ncpus++] = c;
#endif
  int core_cpus[1024];
  g_N = (unsigned)actk_topology_core_cpus(core_cpus, 1024);
  if (nrun == 1 && run[0]->run == part_info) return part_info(run[0]);
  actk_pool *def = actk_pool_default();
  if (!def) die("actk_pool_default", ACTK_ERR_NO_THREADS);
  g_tdef = actk_pool_threads(def);
  for (int k = 0; k < nrun; k++) part_lists(run[k]); /* every option checked before a run */
  const uint64_t t_start = now_ns();
  bench_header("actk_pool_bench");
  uint64_t tv[101];
  for (int i = 0; i < 101; i++) {
    const uint64_t t0 = now_ns();
    tv[i] = now_ns() - t0;
  }
  note("N = %u physical cores allowed, default pool %u threads, timer %.0f ns", g_N, g_tdef,
       pct(tv, 101, 50));
  probe_dispatch_costs(); /* before any pinning: it needs two CPUs */
  if (g_pin && g_ncpus) bench_pin_self_to(g_cpus[0]);
  note("placement: %s", g_pin ? F("--pin: caller on CPU %d, own pools with pin = 1, OpenMP threads "
                                  "on the allowed CPUs in order",
                                  g_cpus[0])
                              : "unpinned (the scheduler places every thread; see co% and f_co%)");
  note("planner: min_parallel cheap/medium/expensive = %zu/%zu/%zu elements; dispatch costs read "
       "from a pool: hot %llu ns, cold %llu ns",
       actk_plan_min_parallel(ACTK_COST_CHEAP), actk_plan_min_parallel(ACTK_COST_MEDIUM),
       actk_plan_min_parallel(ACTK_COST_EXPENSIVE), (unsigned long long)g_hot_ns,
       (unsigned long long)g_cold_ns);
  const actk_isa isa0 = actk_isa_active();
  const unsigned long par0 = par_calls();
  int rc = 0;
  for (int k = 0; k < nrun; k++) {
    part_lists(run[k]);
    note("");
    note("---- %s: threads %s ----", run[k]->name, list_str(g_tl, g_ntl));
    rc |= run[k]->run(run[k]);
    pools_free();
  }
  rc |= g_diffs > 0;
  if (actk_isa_active() != isa0) {
    note("!! the active isa changed during the run");
    rc = 1;
  }
  note("");
  note("parallel-branch calls in this run: %lu; isa %s; total time %.1f s", par_calls() - par0,
       actk_isa_name(actk_isa_active()), (double)(now_ns() - t_start) / 1e9);
  return rc;
}
