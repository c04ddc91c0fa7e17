/* The pools' lifecycle rules (README, "Threading": fork, unload, the default
 * pool), each in a process of its own where it needs a fresh one:
 *
 *   test_pool_lifecycle fork_race
 *       fork() while another thread is inside the process's first
 *       actk_pool_default() call, holding its lock (a test hook holds the
 *       window open): the child's actk_pool_default() returns a working
 *       pool. 8 trials, each in a fresh process, 0.2 s. Caught: the atfork
 *       handlers were registered lazily, from inside the first pool creation,
 *       so a fork in that window left the child with the default-pool lock
 *       held and no handler to reset it: trial 0's child hung in
 *       pthread_mutex_lock. */
#define _GNU_SOURCE
#include "actk_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"

#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A subprocess's end, in words; 0 for a clean exit 0. */
static int describe_status(int status, char *buf, size_t len) {
  if (WIFSIGNALED(status)) {
    snprintf(buf, len, "killed by signal %d%s", WTERMSIG(status),
             WTERMSIG(status) == SIGALRM ? " (SIGALRM: it hung)" : "");
    return 1;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
    return 1;
  }
  buf[0] = '\0';
  return 0;
}

/* ---- fork racing the first actk_pool_default() ---- */

/* The window: the first actk_pool_default() holds the default-pool lock
 * while it makes the pool, which a fork hits by chance (2 in ~400 tries in
 * the report). To hit it every time, the pool's test hook (called with that
 * lock held, before the pool is made) announces the window on the thread
 * making the first call and holds it open for WINDOW_MS. */
#define WINDOW_MS 20
static _Thread_local int tls_hold_window;
static atomic_int g_in_window;

static void hold_window(void) {
  if (!tls_hold_window) return;
  atomic_store(&g_in_window, 1);
  struct timespec ts = {0, WINDOW_MS * 1000000L};
  nanosleep(&ts, NULL);
}

enum {
  RACE_OK = 0,
  RACE_THREAD = 20,
  RACE_FORK,
  RACE_NO_WINDOW,
  RACE_DEFAULT_NULL,
  RACE_CALL,
  RACE_BITS
};

static void *first_default(void *p) {
  (void)p;
  tls_hold_window = 1;
  return actk_pool_default();
}

/* The grandchild: its own default pool, and a call on it. */
static int race_grandchild(void) {
  alarm(5); /* a hang is the bug: SIGALRM tells the trial */
#ifdef TEST_TSAN
  /* TSan cannot start threads in the child of a threaded process (see
   * test_pool's fork test): the call must still return, with no threads */
  actk_pool_test_fail_thread_creates(1000000);
#endif
  actk_pool *def = actk_pool_default();
#ifndef TEST_TSAN
  if (!def) return RACE_DEFAULT_NULL;
#endif
  enum { N = 4096 };
  static float x[N], want[N], got[N];
  for (int i = 0; i < N; i++) x[i] = (float)(i - N / 2) / 256.0f;
  if (actk_gelu_f32(NULL, x, want, N) != ACTK_OK || actk_gelu_f32(def, x, got, N) != ACTK_OK)
    return RACE_CALL;
  return memcmp(want, got, sizeof want) ? RACE_BITS : RACE_OK;
}

/* One trial, in a fresh child of the (pool-free) test process: thread A
 * makes the process's first actk_pool_default() call, this thread forks
 * inside it. Returns an exit code for the test process: the grandchild's
 * (a RACE_ code), 100 + n for its signal n, or a RACE_ code of its own. */
static int race_trial(void) {
  actk_pool_test_default_hook(hold_window);
  pthread_t a;
  if (pthread_create(&a, NULL, first_default, NULL) != 0) return RACE_THREAD;
  const uint64_t t0 = now_ns();
  while (!atomic_load(&g_in_window) && now_ns() - t0 < 2000000000u) sched_yield();
  if (!atomic_load(&g_in_window)) return RACE_NO_WINDOW; /* A is stuck: do not join */
  pid_t pid = fork();
  if (pid == 0) _exit(race_grandchild());
  int status = 0, code = RACE_FORK;
  if (pid > 0 && waitpid(pid, &status, 0) == pid)
    code = WIFSIGNALED(status) ? 100 + WTERMSIG(status) : WEXITSTATUS(status);
  pthread_join(a, NULL);
  return code;
}

static const char *race_what(int code) {
  switch (code) {
  case 100 + SIGALRM:
    return "the child hung in actk_pool_default() (SIGALRM after 5 s)";
  case RACE_THREAD:
    return "could not start the thread that makes the first call";
  case RACE_FORK:
    return "fork() failed";
  case RACE_NO_WINDOW:
    return "the first actk_pool_default() never called the test hook "
           "(actk_pool_test_default_hook): the test's window does not open";
  case RACE_DEFAULT_NULL:
    return "actk_pool_default() returned NULL in the child";
  case RACE_CALL:
    return "a call on the child's default pool failed";
  case RACE_BITS:
    return "a call on the child's default pool gave wrong bits";
  }
  return "the child ended otherwise (a sanitizer report, or a signal 100 below this)";
}

static int run_fork_race(void) {
  const int trials = 8;
  for (int t = 0; t < trials; t++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "fork_race: fork failed\n");
      return 1;
    }
    if (pid == 0) _exit(race_trial());
    int status = 0;
    waitpid(pid, &status, 0);
    char why[96];
    if (describe_status(status, why, sizeof why)) {
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      fprintf(stderr,
              "fork_race: trial %d, fork() while another thread made the first "
              "actk_pool_default() call: %s (%s)\n",
              t, race_what(code), why);
      return 1;
    }
  }
  printf("fork_race: %d trials, fork() inside the first actk_pool_default() each time: every "
         "child's actk_pool_default() returned a working pool\n",
         trials);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fork_race") == 0) return run_fork_race();
  fprintf(stderr, "usage: %s fork_race\n", argv[0]);
  return 2;
}
