/* An idle pool sleeps: after a burst of parallel jobs and once the workers'
 * spin window has passed, the process uses under 2% of one core (40 ms of CPU
 * over 2 s) while its pools sit idle: an own pool with a long spin window and
 * backoff, one that parks at once (spin_us 0), and the default pool, all at
 * once. A park that only yields (the old off-Linux fallback) burns a core per
 * idle worker and fails here by two orders of magnitude.
 *
 * It measures this process's own CPU time (threads included), not wall time,
 * so other processes on a busy machine do not count against it; a slow
 * machine only makes the burst slower. Each burst must have had tasks run by
 * a worker (not only by the caller), or the pool never had a thread to park
 * and the test would prove nothing. */
#define _POSIX_C_SOURCE 200809L
#include "actk_test.h"

#include <stdatomic.h>
#include <time.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

#include "pool.h"

#define IDLE_WINDOW_S 2.0
#define IDLE_LIMIT_S 0.040 /* 2% of one core over IDLE_WINDOW_S */
#define LONG_SPIN_US 50000u
#define BURST_JOBS 100
#define BURST_TASKS 64
#define BURST_ROUNDS 20

/* ---- the platform's clocks (the only platform code of this test) ---- */

/* CPU time of the whole process, every thread, user and system, in seconds. */
static double process_cpu_s(void) {
#ifdef _WIN32
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return -1.0;
  ULARGE_INTEGER k = {.u = {kernel.dwLowDateTime, kernel.dwHighDateTime}};
  ULARGE_INTEGER u = {.u = {user.dwLowDateTime, user.dwHighDateTime}};
  return (double)(k.QuadPart + u.QuadPart) * 1e-7; /* 100 ns units */
#else
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return -1.0;
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

static void sleep_s(double s) {
#ifdef _WIN32
  Sleep((DWORD)(s * 1000.0));
#else
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
#endif
}

/* ---- the burst ---- */

static _Thread_local int tls_is_caller;
static atomic_ulong g_worker_tasks; /* tasks a thread other than the caller ran */
static _Atomic uint64_t g_sink;

static void busy_task(void *ctx, size_t i) {
  (void)ctx;
  uint64_t x = i + 1;
  for (int k = 0; k < 2000; k++) x = x * UINT64_C(6364136223846793005) + 1442695040888963407u;
  atomic_fetch_add_explicit(&g_sink, x, memory_order_relaxed);
  if (!tls_is_caller) atomic_fetch_add_explicit(&g_worker_tasks, 1, memory_order_relaxed);
}

/* Runs a burst of jobs on pool, and more (up to BURST_ROUNDS) until a
 * worker took part: on a loaded machine the caller may finish a whole burst
 * before a woken worker gets a CPU. Fails if no worker ever did. */
static void burst(actk_pool *pool, const char *name) {
  assert_true(actk_pool_width(pool) > 1);
  unsigned long before = atomic_load(&g_worker_tasks), by_workers = 0;
  int rounds = 0;
  while (by_workers == 0 && rounds < BURST_ROUNDS) {
    for (int j = 0; j < BURST_JOBS; j++) actk_pool_run(pool, busy_task, NULL, BURST_TASKS);
    rounds++;
    by_workers = atomic_load(&g_worker_tasks) - before;
  }
  print_message("  %s: %d x %d jobs of %d tasks, %lu tasks run by workers\n", name, rounds,
                BURST_JOBS, BURST_TASKS, by_workers);
  if (by_workers == 0)
    test_fail("%s: no worker ran a task in %d bursts: nothing was left to park", name, rounds);
}

static void test_idle_pools_sleep(void **state) {
  (void)state;
  tls_is_caller = 1;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = 4;
  cfg.spin_us = LONG_SPIN_US;
  cfg.spin_backoff_max = 16;
  actk_pool *spinning = NULL, *parking = NULL;
  assert_int_equal(actk_pool_create(&cfg, &spinning), ACTK_OK);
  cfg.threads = 3;
  cfg.spin_us = 0;
  cfg.spin_backoff_max = 1;
  assert_int_equal(actk_pool_create(&cfg, &parking), ACTK_OK);
  actk_pool *dflt = actk_pool_default();
  assert_non_null(dflt);

  burst(spinning, "own pool, 4 threads, spin 50 ms, backoff 16");
  burst(parking, "own pool, 3 threads, spin 0");
  /* the default pool has one thread per physical core: on one core there is
   * no worker to test */
  if (actk_pool_width(dflt) > 1)
    burst(dflt, "default pool");
  else
    print_message("  default pool: 1 thread on this machine, left out\n");
  burst(spinning, "own pool again, last");

  /* past every spin window (the longest is LONG_SPIN_US; the caller's own
   * wait is shorter), with room for a worker still finishing its loop */
  sleep_s(4 * LONG_SPIN_US * 1e-6 + 0.1);
  double c0 = process_cpu_s();
  sleep_s(IDLE_WINDOW_S);
  double c1 = process_cpu_s();
  assert_true(c0 >= 0 && c1 >= 0);
  double used = c1 - c0;
  print_message("  idle: %.1f ms of CPU over %.1f s (%.2f%% of one core; limit %.0f ms)\n",
                used * 1e3, IDLE_WINDOW_S, 100.0 * used / IDLE_WINDOW_S, IDLE_LIMIT_S * 1e3);
  if (used >= IDLE_LIMIT_S)
    test_fail("idle pools used %.1f ms of CPU over %.1f s, limit %.0f ms: a thread that "
              "does not sleep when idle (a park that spins or only yields)",
              used * 1e3, IDLE_WINDOW_S, IDLE_LIMIT_S * 1e3);

  actk_pool_destroy(spinning);
  actk_pool_destroy(parking);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_idle_pools_sleep)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
