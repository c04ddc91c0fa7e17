/* Many application threads on one pool.
 *
 * For 1..16 application threads sharing one pool of 3 threads, with workers
 * that never spin, spin 1 us, or spin the default 100 us: each thread makes
 * calls of random op, size (small ones that never touch the pool and large
 * ones that go parallel), offset (misaligned too) and in-place-ness, with
 * random gaps of 0..1 ms, and checks every result bit for bit against a
 * serial result computed before the threads start. A stalled call (a lost
 * wake-up, a job nobody finishes, a destroy that never joins) trips a
 * watchdog thread, which prints what it can see of the pool and of every
 * application thread and ends the process with a failure.
 *
 * A second kind of scenario, the dispatch storm, drives the pool directly
 * (actk_pool_run, the runner's entry to it) with back-to-back jobs of 2..8
 * trivial tasks from 1..4 threads on pools of 2 and 3 threads that spin 0 or
 * 1 us: a worker is then often between "no job" and "asleep" when the next
 * job is pushed, the window a lost wake-up needs. Each task index must run
 * exactly once.
 *
 * tests/CMakeLists.txt runs it twice: as is, and under `taskset -c 0`, where
 * every thread shares one CPU and a caller that waits on a preempted worker
 * without sleeping would starve it.
 *
 * Environment: ACTK_STRESS_SCALE (default 1, 0.1 under ASan or TSan)
 * multiplies the number of calls; ACTK_STRESS_DEADLINE_S (default 20) is the
 * watchdog's deadline per scenario. */
#define _GNU_SOURCE
#include "actk_test.h"
#include "test_os.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "plan.h"
#include "pool.h"
#include "runner.h"

#define MAXN ((size_t)3 << 19) /* 1.5 Mi floats: large enough for any op to go parallel */
#define BIAS_WIDTH 7
#define POOL_THREADS 3 /* the op scenarios' pool */
#define STORM_MAX_TASKS 8
#define STORM_CALLS 300000     /* per storm scenario at scale 1 */
#define CALLS_PER_SCENARIO 240 /* at scale 1, shared by the scenario's threads */

/* ---- ops and their serial results ---- */

typedef struct sop {
  const char *name;
  actk_cost cost;
  actk_status (*unary)(actk_pool *, const float *, float *, size_t);
  float alpha; /* swish when unary is NULL and bias is NULL */
  actk_status (*bias)(actk_pool *, const float *, const float *, size_t, float *,
                      size_t); /* width BIAS_WIDTH */
  float *ref;                  /* the op over g_x with pool NULL */
} sop;

static sop g_ops[] = {
    {"tanh", ACTK_COST_MEDIUM, actk_tanh_f32, 0, NULL, NULL},
    {"gelu", ACTK_COST_EXPENSIVE, actk_gelu_f32, 0, NULL, NULL},
    {"swish(0.5)", ACTK_COST_MEDIUM, NULL, 0.5f, NULL, NULL},
    {"bias_gelu_tanh/width 7", ACTK_COST_EXPENSIVE, NULL, 0, actk_bias_gelu_tanh_f32, NULL},
};
#define N_OPS (sizeof g_ops / sizeof g_ops[0])
#define OP_GELU 1

static float *g_x;
/* random large calls: up to MAXN; a quarter of it in quick runs and under
 * ASan/TSan, where the kernels are ~100x slower (TEST_SMALL; every thread's
 * first call is MAXN regardless) */
static size_t g_large_max;
static float g_bias[BIAS_WIDTH];

static actk_status run_op(const sop *op, actk_pool *pool, const float *x, float *y, size_t n) {
  if (op->unary) return op->unary(pool, x, y, n);
  if (op->bias) return op->bias(pool, x, g_bias, BIAS_WIDTH, y, n);
  return actk_swish_f32(pool, x, y, n, op->alpha);
}

static uint64_t now_ns(void) { return actk_now_ns(); }

/* ---- application threads ---- */

typedef struct app {
  pthread_t thread;
  unsigned id;
  actk_pool *pool;
  uint64_t seed;
  unsigned target;         /* calls to make */
  atomic_uint done;        /* calls finished */
  int storm;               /* 1: actk_pool_run storm calls instead of ops */
  atomic_int cur_op;       /* op of the call in progress (N_OPS: a storm job), -1 between */
  atomic_size_t cur_n;     /* its length */
  atomic_ullong cur_start; /* when it started (ns) */
  unsigned mismatches;     /* read after join */
  char first_error[384];
  float *y; /* MAXN + 1 floats */
} app;

static void record_error(app *a, const char *fmt, ...) {
  if (a->mismatches++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->first_error, sizeof a->first_error, fmt, ap);
    va_end(ap);
  }
}

/* Every thread's first call (the first two threads' under ASan/TSan) is a
 * gelu of g_first_n elements, which the planner splits on a 3-thread pool
 * even when its workers sleep: the parallel branch surely runs, concurrently
 * from several threads. */
static size_t g_first_n;
#define FIRST_CALLERS (TEST_SMALL ? 2u : 1000u)

static void one_call(app *a, unsigned k) {
  uint64_t *s = &a->seed;
  const int first = k == 0 && a->id < FIRST_CALLERS;
  size_t oi = first ? OP_GELU : rng_u32(s) % N_OPS;
  const sop *op = &g_ops[oi];
  const size_t g = op->bias ? BIAS_WIDTH : 1;
  const size_t small_max = actk_plan_min_parallel(op->cost);
  size_t n;
  if (first)
    n = g_first_n;
  else if (rng_u32(s) % 2)
    n = 1 + rng_u32(s) % (small_max - 1);
  else
    n = small_max + rng_u32(s) % (g_large_max - small_max);
  n -= n % g;
  if (n == 0) n = g;
  size_t off = (size_t)(rng_u32(s) % (MAXN - n + 1));
  off -= off % g;
  const int in_place = rng_u32(s) % 8 == 0;
  const int shift = (int)(rng_u32(s) % 2); /* y one float off the x alignment */
  float *y = a->y + shift;
  const float *x = g_x + off;
  if (in_place) {
    memcpy(y, x, n * sizeof(float));
    x = y;
  }
  atomic_store(&a->cur_n, n);
  atomic_store(&a->cur_start, now_ns());
  atomic_store(&a->cur_op, (int)oi);
  actk_status st = run_op(op, a->pool, x, y, n);
  atomic_store(&a->cur_op, -1);
  if (st != ACTK_OK) {
    record_error(a, "thread %u call %u: %s n=%zu: status %s", a->id, k, op->name, n,
                 test_status_name(st));
  } else if (memcmp(y, op->ref + off, n * sizeof(float)) != 0) {
    size_t i = 0;
    while (f2u(y[i]) == f2u(op->ref[off + i])) i++;
    size_t bad = 0;
    for (size_t j = i; j < n; j++) bad += f2u(y[j]) != f2u(op->ref[off + j]);
    record_error(a,
                 "thread %u call %u: %s n=%zu offset=%zu%s: %zu wrong elements, the first at "
                 "%zu: got 0x%08x, serial 0x%08x",
                 a->id, k, op->name, n, off, in_place ? " in place" : "", bad, i, f2u(y[i]),
                 f2u(op->ref[off + i]));
  }
  atomic_fetch_add(&a->done, 1);
}

typedef struct storm_job {
  atomic_uint ran[STORM_MAX_TASKS + 1];
} storm_job;

static void storm_task(void *ctx, size_t i) {
  storm_job *j = ctx;
  atomic_fetch_add_explicit(&j->ran[i < STORM_MAX_TASKS ? i : STORM_MAX_TASKS], 1,
                            memory_order_relaxed);
}

/* One job of 2..8 tasks straight into the pool; every task exactly once. */
static void storm_call(app *a, unsigned k) {
  storm_job j;
  const size_t n = 2 + rng_u32(&a->seed) % (STORM_MAX_TASKS - 1);
  for (size_t i = 0; i <= STORM_MAX_TASKS; i++) atomic_init(&j.ran[i], 0);
  atomic_store(&a->cur_n, n);
  atomic_store(&a->cur_start, now_ns());
  atomic_store(&a->cur_op, (int)N_OPS);
  actk_pool_run(a->pool, storm_task, &j, n);
  atomic_store(&a->cur_op, -1);
  for (size_t i = 0; i <= STORM_MAX_TASKS; i++) {
    unsigned want = i < n, got = atomic_load(&j.ran[i]);
    if (got != want) {
      record_error(a, "thread %u storm job %u (%zu tasks): task %zu ran %u times, want %u", a->id,
                   k, n, i, got, want);
      break;
    }
  }
  atomic_fetch_add(&a->done, 1);
}

static void *app_main(void *p) {
  app *a = p;
  for (unsigned k = 0; k < a->target; k++) {
    if (a->storm) {
      storm_call(a, k); /* back to back: no gap */
      continue;
    }
    one_call(a, k);
    unsigned r = rng_u32(&a->seed);
    if (r % 4 == 0) continue;                        /* back to back: the workers still spin */
    struct timespec gap = {0, (long)(r % 1000001u)}; /* up to 1 ms: they park */
    nanosleep(&gap, NULL);
  }
  return NULL;
}

/* ---- the watchdog ---- */

typedef struct scenario {
  unsigned n_apps, spin_us, pool_threads;
  int storm;
  const char *name;
  actk_pool *pool;
  app *apps;
  unsigned long parallel_at_start;
  _Atomic(const char *) phase; /* what the main thread is doing */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int finished;
  double deadline_s;
} scenario;

static void dump_and_die(scenario *sc) {
  uint64_t t = now_ns();
  fprintf(stderr,
          "\nstress watchdog: scenario '%s' (%u application threads, pool of %u threads, spin %u "
          "us) did not finish within %.0f s; main thread: %s\n",
          sc->name, sc->n_apps, sc->pool_threads, sc->spin_us, sc->deadline_s,
          atomic_load(&sc->phase));
  fprintf(stderr, "  actk_pool_threads(pool) = %u\n", sc->pool ? actk_pool_threads(sc->pool) : 0u);
  fprintf(stderr, "  actk_runner_parallel_calls = %lu (%lu in this scenario)\n",
          atomic_load(&actk_runner_parallel_calls),
          atomic_load(&actk_runner_parallel_calls) - sc->parallel_at_start);
  for (unsigned i = 0; i < sc->n_apps; i++) {
    app *a = &sc->apps[i];
    int op = atomic_load(&a->cur_op);
    fprintf(stderr, "  thread %2u: %u of %u calls done", i, atomic_load(&a->done), a->target);
    if (op >= 0)
      fprintf(stderr, ", in %s n=%zu for %.3f s",
              op < (int)N_OPS ? g_ops[op].name : "actk_pool_run (storm job)",
              atomic_load(&a->cur_n), (double)(t - atomic_load(&a->cur_start)) / 1e9);
    else if (atomic_load(&a->done) < a->target)
      fprintf(stderr, ", between calls");
    fprintf(stderr, "\n");
  }
  fprintf(stderr, "stress watchdog: FAILED (a call, or the pool's destroy, is stuck)\n");
  fflush(stderr);
  _exit(1);
}

static void *watchdog_main(void *p) {
  scenario *sc = p;
  struct timespec until;
  clock_gettime(TEST_COND_CLOCK, &until);
  until.tv_sec += (time_t)sc->deadline_s;
  pthread_mutex_lock(&sc->lock);
  while (!sc->finished) {
    if (pthread_cond_timedwait(&sc->cond, &sc->lock, &until) == ETIMEDOUT && !sc->finished) {
      pthread_mutex_unlock(&sc->lock);
      dump_and_die(sc);
    }
  }
  pthread_mutex_unlock(&sc->lock);
  return NULL;
}

static void stop_watchdog(scenario *sc, pthread_t dog) {
  pthread_mutex_lock(&sc->lock);
  sc->finished = 1;
  pthread_cond_signal(&sc->cond);
  pthread_mutex_unlock(&sc->lock);
  pthread_join(dog, NULL);
}

/* ---- scenarios ---- */

static double g_scale = 1.0, g_deadline_s = 20.0;

static void run_scenario(unsigned n_apps, unsigned spin_us, unsigned pool_threads, int storm) {
  char name[96];
  snprintf(name, sizeof name, "%s%u app threads, pool %u, spin %u us", storm ? "storm: " : "",
           n_apps, pool_threads, spin_us);
  scenario sc;
  memset(&sc, 0, sizeof sc);
  sc.n_apps = n_apps;
  sc.spin_us = spin_us;
  sc.pool_threads = pool_threads;
  sc.storm = storm;
  sc.name = name;
  sc.deadline_s = g_deadline_s;
  atomic_init(&sc.phase, "creating the pool");
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, TEST_COND_CLOCK);
  pthread_cond_init(&sc.cond, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&sc.lock, NULL);
  sc.apps = calloc(n_apps, sizeof *sc.apps);
  assert_non_null(sc.apps);
  pthread_t dog;
  sc.parallel_at_start = atomic_load(&actk_runner_parallel_calls);
  assert_int_equal(pthread_create(&dog, NULL, watchdog_main, &sc), 0);

  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = pool_threads;
  cfg.spin_us = spin_us;
  actk_status s = actk_pool_create(&cfg, &sc.pool);
  if (s != ACTK_OK || actk_pool_threads(sc.pool) != pool_threads) {
    stop_watchdog(&sc, dog);
    test_fail("%s: actk_pool_create: %s, %u threads", name, test_status_name(s),
              actk_pool_threads(sc.pool));
  }

  unsigned per_app =
      (unsigned)((storm ? STORM_CALLS : CALLS_PER_SCENARIO) * g_scale / n_apps + 0.5);
  if (per_app < 2) per_app = 2;
  uint64_t t0 = now_ns();
  atomic_store(&sc.phase, "waiting for the application threads");
  for (unsigned i = 0; i < n_apps; i++) {
    app *a = &sc.apps[i];
    a->id = i;
    a->pool = sc.pool;
    a->seed = 0x5743u * (n_apps * 1000u + spin_us) + i;
    a->target = per_app;
    a->storm = storm;
    atomic_init(&a->cur_op, -1);
    a->y = malloc((MAXN + 1) * sizeof(float));
    assert_non_null(a->y);
    assert_int_equal(pthread_create(&a->thread, NULL, app_main, a), 0);
  }
  for (unsigned i = 0; i < n_apps; i++) pthread_join(sc.apps[i].thread, NULL);
  unsigned long parallel = atomic_load(&actk_runner_parallel_calls) - sc.parallel_at_start;
  atomic_store(&sc.phase, "destroying the pool");
  actk_pool_destroy(sc.pool);
  atomic_store(&sc.phase, "done");
  stop_watchdog(&sc, dog);

  unsigned bad = 0;
  const char *first = NULL;
  for (unsigned i = 0; i < n_apps; i++) {
    bad += sc.apps[i].mismatches;
    if (!first && sc.apps[i].mismatches) first = sc.apps[i].first_error;
  }
  print_message("%-42s %6u calls, %4lu parallel, %6.0f ms\n", name, per_app * n_apps, parallel,
                (double)(now_ns() - t0) / 1e6);
  for (unsigned i = 0; i < n_apps; i++) free(sc.apps[i].y);
  free(sc.apps);
  pthread_cond_destroy(&sc.cond);
  pthread_mutex_destroy(&sc.lock);
  test_check(bad == 0, "%s: %u wrong results; the first: %s", name, bad, first);
  const unsigned firsts = n_apps < FIRST_CALLERS ? n_apps : FIRST_CALLERS;
  test_check(storm || parallel >= firsts, "%s: only %lu parallel calls for %u surely large ones",
             name, parallel, firsts);
}

static const unsigned app_counts[] = {1, 2, 3, 4, 6, 8, 12, 16};
#define N_APP_COUNTS (sizeof app_counts / sizeof app_counts[0])

static void test_spin(void **state) {
  unsigned spin_us = (unsigned)(uintptr_t)*state;
  for (size_t i = 0; i < N_APP_COUNTS; i++) run_scenario(app_counts[i], spin_us, POOL_THREADS, 0);
}

static void test_storm(void **state) {
  (void)state;
  static const unsigned storm_apps[] = {1, 2, 4};
  for (unsigned pool_threads = 2; pool_threads <= 3; pool_threads++)
    for (unsigned spin_us = 0; spin_us <= 1; spin_us++)
      for (size_t i = 0; i < 3; i++) run_scenario(storm_apps[i], spin_us, pool_threads, 1);
}

static double env_double(const char *name, double def) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  char *end;
  double d = strtod(v, &end);
  return (*end == '\0' && d > 0) ? d : def;
}

int main(void) {
  g_large_max = TEST_SMALL ? MAXN / 4 : MAXN;
  g_scale = env_double("ACTK_STRESS_SCALE", TEST_SMALL ? 0.1 : 1.0);
  g_deadline_s = env_double("ACTK_STRESS_DEADLINE_S", 20.0);
  g_x = malloc(MAXN * sizeof(float));
  if (!g_x) return 1;
  test_fill_inputs(g_x, MAXN, 0x57e55u);
  uint64_t s = 11;
  for (size_t j = 0; j < BIAS_WIDTH; j++) g_bias[j] = rng_uniform(&s, -3.0f, 3.0f);
  for (size_t i = 0; i < N_OPS; i++) {
    g_ops[i].ref = malloc(MAXN * sizeof(float));
    if (!g_ops[i].ref) return 1;
    size_t n = g_ops[i].bias ? MAXN - MAXN % BIAS_WIDTH : MAXN;
    if (run_op(&g_ops[i], NULL, g_x, g_ops[i].ref, n) != ACTK_OK) return 1;
  }
  /* the first calls' length: 5/4 of the least the planner splits for 3
   * threads at the dispatch cost of a pool whose workers sleep */
  {
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.threads = 2;
    cfg.spin_us = 0;
    actk_pool *cold = NULL;
    if (actk_pool_create(&cfg, &cold) != ACTK_OK) return 1;
    const uint64_t cold_ns = actk_pool_dispatch_cost_ns(cold);
    actk_pool_destroy(cold);
    size_t lo = 1, hi = MAXN / 16;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (actk_plan_split(mid * 16, 16, POOL_THREADS, ACTK_COST_EXPENSIVE, cold_ns).n_chunks > 1)
        hi = mid;
      else
        lo = mid + 1;
    }
    g_first_n = (lo + lo / 4) * 16;
    if (g_first_n > MAXN) g_first_n = MAXN;
  }
  print_message("scale %.2f, watchdog %.0f s per scenario, first calls %zu elements\n", g_scale,
                g_deadline_s, g_first_n);
  struct CMUnitTest tests[] = {
      {"spin 0 us (workers park at once)", test_spin, NULL, NULL, (void *)(uintptr_t)0},
      {"spin 1 us", test_spin, NULL, NULL, (void *)(uintptr_t)1},
      {"spin 100 us (default)", test_spin, NULL, NULL, (void *)(uintptr_t)100},
      {"dispatch storm (actk_pool_run back to back)", test_storm, NULL, NULL, NULL},
  };
  int failed = _cmocka_run_group_tests("stress: application threads sharing a pool", tests,
                                       sizeof tests / sizeof tests[0], NULL, NULL);
  for (size_t i = 0; i < N_OPS; i++) free(g_ops[i].ref);
  free(g_x);
  return failed != 0;
}
