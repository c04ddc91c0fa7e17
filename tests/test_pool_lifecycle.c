/* The pools' lifecycle rules (README, "Threading": fork, unload, the default
 * pool, host pools and nesting). Modes that need a fresh process have a
 * ctest entry of their own:
 *
 *   test_pool_lifecycle
 *       - the default pool in fork() children: actk_pool_destroy on the
 *         pointer from before the fork is ignored and the pointer keeps
 *         working (inline); the child's own default pool is parallel and
 *         destroy ignores it too. Caught: the child freed the parent's default
 *         pool ("free(): double free detected" on the second destroy; ASan,
 *         a use after free);
 *       - host pools: calls from actk's own chunk tasks run inline, calls
 *         from the engine's own tasks go back to the engine's parallel-for
 *         from inside it, and README's adapter for a parallel-for that does
 *         not nest keeps them out of it, with the same bits.
 *   test_pool_lifecycle fork_race
 *       fork() while another thread is inside the process's first
 *       actk_pool_default() call, holding its lock (a test hook holds the
 *       window open): the child's actk_pool_default() returns a working
 *       pool. 8 trials, each in a fresh process, 0.2 s. Caught: the atfork
 *       handlers were registered lazily, from inside the first pool creation,
 *       so a fork in that window left the child with the default-pool lock
 *       held and no handler to reset it: trial 0's child hung in
 *       pthread_mutex_lock.
 *   test_pool_lifecycle exit_mid_call
 *       exit() while three threads are mid-call on the default pool: the
 *       calls go on, right, on the stopped pool after the library's unload;
 *       no sanitizer report; a hang (120 s) names where it is: the setup,
 *       the library's unload, or the test's destructor after it. Caught: the
 *       unload freed the pool under them (ASan: heap-use-after-free) and
 *       actk_pool_default() made a new one; a worker that never saw shutdown
 *       ("hung for 120 s in exit() ... in the library's unload").
 *   test_pool_lifecycle dlopen LIB
 *       dlopen/dlclose rounds of the shared library: its default pool's
 *       workers are gone after every unload, results right. */
#define _GNU_SOURCE
#include "actk_test.h"

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"
#include "plan.h"   /* actk_plan_split: lengths that go parallel */
#include "runner.h" /* actk_runner_parallel_calls */

static uint64_t now_ns(void) { return actk_now_ns(); }

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

/* The shortest gelu length (whole vectors) the planner splits over 2
 * threads at this dispatch cost: a parallel call on a pool reporting it. */
static size_t parallel_length(uint64_t dispatch_ns) {
  size_t lo = 1, hi = ((size_t)1 << 28) / ACTK_VECTOR_GRANULE;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (actk_plan_split(mid * ACTK_VECTOR_GRANULE, ACTK_VECTOR_GRANULE, 2, ACTK_COST_EXPENSIVE,
                        dispatch_ns)
            .n_chunks > 1)
      hi = mid;
    else
      lo = mid + 1;
  }
  size_t n = lo * ACTK_VECTOR_GRANULE;
  return n < actk_plan_min_parallel(ACTK_COST_EXPENSIVE)
             ? actk_plan_min_parallel(ACTK_COST_EXPENSIVE)
             : n;
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
  RACE_BITS,
  RACE_NOT_PARALLEL
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
  /* a call that uses the pool (parallel where it has threads), long enough
   * to split at the highest dispatch cost: its workers may have parked by
   * the time it is made (the serial reference call below outlasts their
   * spin under ASan), and a length that splits only while they spin then
   * ran serial (seen in CI) */
  const size_t n = def ? parallel_length(ACTK_DISPATCH_COLD_UNPINNED_NS) : 4096;
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  float *got = malloc(n * sizeof(float));
  if (!x || !want || !got) return RACE_CALL;
  test_fill_inputs(x, n, 0xf02c);
  if (actk_gelu_f32(NULL, x, want, n) != ACTK_OK) return RACE_CALL;
  const unsigned long before = atomic_load(&actk_runner_parallel_calls);
  if (actk_gelu_f32(def, x, got, n) != ACTK_OK) return RACE_CALL;
  if (memcmp(want, got, n * sizeof(float))) return RACE_BITS;
  if (actk_pool_threads(def) > 1 && atomic_load(&actk_runner_parallel_calls) == before)
    return RACE_NOT_PARALLEL;
  return RACE_OK;
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
  case RACE_NOT_PARALLEL:
    return "a large call on the child's default pool did not go parallel";
  }
  return "the child ended otherwise (a sanitizer report, or a signal 100 below this)";
}

static int run_fork_race(void) {
#ifdef TEST_TSAN
  const int trials = 3; /* a fork of a threaded process takes TSan about a second */
#else
  const int trials = 8;
#endif
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

/* ---- exit() while other threads are mid-call on the default pool ---- */

enum {
  EXIT_WRONG = 30,
  EXIT_OTHER_DEFAULT,
  EXIT_NO_POOL,
  EXIT_NOT_PARALLEL,
  EXIT_THREAD,
  EXIT_NOT_STOPPED,
  EXIT_STALLED,
  EXIT_HUNG /* + the phase it hung in */
};
enum { CALLERS = 3 };

/* Where an exit trial's child is, so that a hang (its SIGALRM) says where:
 * setting up (the callers' first calls), in exit() before the test's
 * destructor (the library's unload: the default pool's workers joined), or
 * in that destructor (bounded by its own 30 s: EXIT_STALLED). CI once saw a
 * bare SIGALRM at 120 s here, with no way to tell these apart. */
enum { PHASE_SETUP = 1, PHASE_EXIT, PHASE_UNLOADED };
/* atomic, not volatile sig_atomic_t: the alarm may be taken on any thread */
static atomic_int g_exit_phase;

static void exit_trial_hung(int sig) {
  (void)sig;
  _exit(EXIT_HUNG + atomic_load(&g_exit_phase));
}

typedef struct caller {
  pthread_t t;
  const float *x, *want;
  float *y;
  size_t n;
  actk_pool *def; /* what actk_pool_default() returned before */
  atomic_ulong calls;
} caller;

/* Calls until the process ends; any wrong answer ends it with a code. */
static void *caller_main(void *p) {
  caller *c = p;
  for (;;) {
    actk_pool *def = actk_pool_default();
    if (def != c->def) _exit(EXIT_OTHER_DEFAULT);
    if (actk_gelu_f32(def, c->x, c->y, c->n) != ACTK_OK || memcmp(c->y, c->want, c->n * 4))
      _exit(EXIT_WRONG);
    atomic_fetch_add(&c->calls, 1);
  }
  return NULL;
}

static caller g_callers[CALLERS];
static actk_pool *g_exit_def; /* set in an exit trial's child */

/* Runs during exit() after the library's unload, which is an unprioritized
 * destructor (those run before prioritized ones): the callers go on, and
 * must keep getting right results on the stopped default pool. Without this
 * wait, exit_group often ends them before they touch the pool again. */
__attribute__((destructor(101))) static void after_unload(void) {
  if (!g_exit_def) return;
  atomic_store(&g_exit_phase, PHASE_UNLOADED);
  if (actk_pool_threads(g_exit_def) != 1) _exit(EXIT_NOT_STOPPED);
  unsigned long seen[CALLERS];
  for (int i = 0; i < CALLERS; i++) seen[i] = atomic_load(&g_callers[i].calls);
  const uint64_t t0 = now_ns();
  for (int i = 0; i < CALLERS; i++)
    while (atomic_load(&g_callers[i].calls) < seen[i] + 1) {
      if (now_ns() - t0 > 30000000000u) _exit(EXIT_STALLED);
      sched_yield();
    }
  /* Everything under test is done: the library has unloaded and the calls go
   * on, inline (a stopped pool parks nobody). What exit() would do next is
   * the C and sanitizer runtimes' alone: the shared libraries' destructors
   * and LeakSanitizer's leak check, which stops and scans the three callers
   * mid-call. End here, so that a hang there cannot be taken for actk's. */
  _exit(0);
}

/* In a fresh child: callers on the default pool, then exit() under them. */
static int exit_trial(void) {
  atomic_store(&g_exit_phase, PHASE_SETUP);
  signal(SIGALRM, exit_trial_hung);
  alarm(120); /* a hang fails the trial, saying where (g_exit_phase) */
  actk_pool *def = actk_pool_default();
  if (!def) return EXIT_NO_POOL;
  /* parallel even when the workers sleep (the highest dispatch cost): under
   * a sanitizer a call takes longer than the pool's spin, so each call finds
   * them asleep */
  const size_t n = parallel_length(ACTK_DISPATCH_COLD_UNPINNED_NS);
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  if (!x || !want) return EXIT_THREAD;
  test_fill_inputs(x, n, 0x5eed);
  if (actk_gelu_f32(NULL, x, want, n) != ACTK_OK) return EXIT_WRONG;
  caller *callers = g_callers;
  for (int i = 0; i < CALLERS; i++) {
    callers[i].x = x;
    callers[i].want = want;
    callers[i].y = malloc(n * sizeof(float));
    callers[i].n = n;
    callers[i].def = def;
    if (!callers[i].y || pthread_create(&callers[i].t, NULL, caller_main, &callers[i]) != 0)
      return EXIT_THREAD;
  }
  const unsigned long parallel0 = atomic_load(&actk_runner_parallel_calls);
  for (int i = 0; i < CALLERS; i++)
    while (atomic_load(&callers[i].calls) < 2) sched_yield();
  /* the callers must really be in the pool: on a loaded machine (CI runs
   * tests side by side) the first calls may all plan serial, so wait for a
   * parallel one, up to 20 s */
  const uint64_t t0 = now_ns();
  while (actk_pool_threads(def) > 1 && atomic_load(&actk_runner_parallel_calls) == parallel0) {
    if (now_ns() - t0 > 20000000000u) return EXIT_NOT_PARALLEL;
    sched_yield();
  }
  if (actk_pool_threads(def) > 1) g_exit_def = def;
  atomic_store(&g_exit_phase, PHASE_EXIT);
  exit(0); /* the library's unload runs now, the callers still calling */
}

/* The child's stderr, passed on, and whether a sanitizer reported there: a
 * report made while exit() runs can lose the race to exit_group, and the
 * child's status is then 0 (seen with ASan). */
static int relay_stderr(int fd) {
  static char buf[1 << 16];
  size_t len = 0;
  int reported = 0;
  for (;;) {
    ssize_t r = read(fd, buf + len, sizeof buf - 1 - len);
    if (r <= 0) break;
    fwrite(buf + len, 1, (size_t)r, stderr);
    len += (size_t)r;
    buf[len] = '\0';
    if (strstr(buf, "Sanitizer")) reported = 1;
    if (len > sizeof buf / 2) { /* keep the tail, where a word may be cut */
      memmove(buf, buf + len - 64, 64);
      len = 64;
    }
  }
  close(fd);
  return reported;
}

static int run_exit_mid_call(void) {
#if defined(TEST_TSAN) || defined(TEST_ASAN)
  const int trials = 2; /* each a few seconds there */
#else
  const int trials = 4;
#endif
  for (int t = 0; t < trials; t++) {
    int fds[2];
    if (pipe(fds) != 0) return 1;
    fflush(NULL);
    pid_t pid = fork(); /* from this single-threaded process: TSan can follow */
    if (pid < 0) return 1;
    if (pid == 0) {
      close(fds[0]);
      dup2(fds[1], 2);
      close(fds[1]);
      _exit(exit_trial());
    }
    close(fds[1]);
    const int reported = relay_stderr(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    char why[96];
    if (reported) {
      fprintf(stderr,
              "exit_mid_call: trial %d, exit() while 3 threads call gelu on the default "
              "pool: a sanitizer report in the child (above)\n",
              t);
      return 1;
    }
    if (describe_status(status, why, sizeof why)) {
      int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      fprintf(stderr,
              "exit_mid_call: trial %d, exit() while 3 threads call gelu on the "
              "default pool: %s: %s\n",
              t, why,
              code == EXIT_WRONG           ? "a call gave an error or wrong bits"
              : code == EXIT_OTHER_DEFAULT ? "actk_pool_default() returned another pool"
              : code == EXIT_NO_POOL       ? "actk_pool_default() returned NULL"
              : code == EXIT_NOT_PARALLEL  ? "no call went parallel: the test proves nothing"
              : code == EXIT_THREAD        ? "could not set up"
              : code == EXIT_NOT_STOPPED   ? "after the library's unload the default pool still "
                                             "claims threads (or the test's destructor ran first)"
              : code == EXIT_STALLED       ? "after the library's unload a caller made no "
                                             "progress for 30 s"
              : code == EXIT_HUNG + PHASE_SETUP
                  ? "hung for 120 s before exit(): the callers' first calls on the default pool "
                    "did not finish"
              : code == EXIT_HUNG + PHASE_EXIT
                  ? "hung for 120 s in exit(), before the test's destructor: in the library's "
                    "unload (joining the default pool's workers)"
              : code == EXIT_HUNG + PHASE_UNLOADED
                  ? "hung for 120 s in the test's destructor, after the library's unload"
                  : "a sanitizer report (ASan: use after free; TSan: "
                    "a race), or a crash, in the child");
      return 1;
    }
  }
  printf("exit_mid_call: %d trials: exit() with 3 threads mid-call on the default pool ended "
         "cleanly, every result right\n",
         trials);
  return 0;
}

/* ---- dlopen / dlclose ---- */

/* Threads of this process that have not begun to exit: those without
 * PF_EXITING (0x4) in /proc/self/task/TID/stat's flags (-1: unreadable).
 * pthread_join returns when the exiting thread has cleared its tid, which
 * the kernel does after setting PF_EXITING but before it drops the thread
 * from the Threads: count of /proc/self/status: right after a join that
 * count may still include the thread (CI saw it; here 41 and 51 of 20000
 * create/join pairs), this one never does, and needs no waiting. */
static int live_threads(void) {
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  const struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue; /* gone */
    size_t r = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (r == 0) continue; /* reaped between the open and the read */
    buf[r] = 0;
    /* after the name in parentheses: state, ppid, pgrp, session, tty_nr,
     * tpgid, flags */
    const char *p = strrchr(buf, ')');
    char state;
    int ppid, pgrp, session, tty, tpgid;
    unsigned long flags;
    if (!p || sscanf(p + 1, " %c %d %d %d %d %d %lu", &state, &ppid, &pgrp, &session, &tty, &tpgid,
                     &flags) != 7) {
      closedir(d);
      return -1;
    }
    if (!(flags & 0x4u)) n++;
  }
  closedir(d);
  return n;
}

static void *noop_thread(void *p) { return p; }

/* Load the shared library, use its default pool, unload it: every round,
 * its workers are gone after dlclose (they would run unmapped code) and the
 * results are right. */
static int dlopen_rounds(const char *lib, const float *x, const float *want, float *y, size_t n) {
  const int rounds = 20;
  /* a thread started and joined first: a sanitizer's own helper thread
   * (TSan starts one with the first thread) is in the baseline */
  const int before = live_threads();
  pthread_t warm;
  if (pthread_create(&warm, NULL, noop_thread, NULL) != 0) return 1;
  pthread_join(warm, NULL);
  /* qemu-user wakes the joiner before the joined host thread is gone (see
   * below): the warm thread may still be counted for a moment, which made
   * the baseline one too high (CI's aarch64 stage: "4 threads, want at least
   * 4 + 1 workers"). Wait up to 2 s for the count to fall back to what it was
   * before it (natively at once; under TSan it stays one higher: its helper). */
  int base = live_threads();
  const uint64_t t0 = now_ns();
  while (base > before && now_ns() - t0 < 2000000000u) {
    sched_yield();
    base = live_threads();
  }
  if (base < 1) {
    fprintf(stderr, "dlopen: cannot read the threads of /proc/self/task\n");
    return 1;
  }
  int unloaded = 0, most_workers = 0;
  for (int r = 0; r < rounds; r++) {
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      return 1;
    }
    actk_pool *(*def_fn)(void);
    actk_status (*gelu)(actk_pool *, const float *, float *, size_t);
    unsigned (*threads)(const actk_pool *);
    *(void **)&def_fn = dlsym(h, "actk_pool_default");
    *(void **)&gelu = dlsym(h, "actk_gelu_f32");
    *(void **)&threads = dlsym(h, "actk_pool_threads");
    if (!def_fn || !gelu || !threads) {
      fprintf(stderr, "dlopen: missing symbols in %s\n", lib);
      return 1;
    }
    actk_pool *def = def_fn();
    const int workers = def ? (int)threads(def) - 1 : 0;
    if (workers > most_workers) most_workers = workers;
    memset(y, 0, n * sizeof(float));
    if (gelu(def, x, y, n) != ACTK_OK || memcmp(y, want, n * sizeof(float))) {
      fprintf(stderr, "dlopen round %d: wrong result from the loaded library\n", r);
      return 1;
    }
    if (live_threads() < base + workers) {
      fprintf(stderr, "dlopen round %d: %d threads, want at least %d + %d workers\n", r,
              live_threads(), base, workers);
      return 1;
    }
    if (dlclose(h) != 0) {
      fprintf(stderr, "dlclose: %s\n", dlerror());
      return 1;
    }
    void *again = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (again) { /* still loaded (something holds it): nothing was unloaded */
      dlclose(again);
      continue;
    }
    unloaded++;
    /* Natively the count is exact at once. qemu-user clears the child tid
     * and wakes the joiner before the host thread is gone, so under an
     * emulator a joined worker can still be counted for a moment (CI's
     * aarch64 stage, 10 of 20 runs beside a busy loop): wait up to 2 s. A
     * worker that was never joined stays parked and is still counted. */
    int after = live_threads();
    for (int k = 0; after != base && k < 2000; k++) {
      usleep(1000);
      after = live_threads();
    }
    if (after != base) {
      fprintf(stderr,
              "dlclose round %d: %d threads not exiting after unloading, %d before loading: the "
              "default pool's workers were not joined\n",
              r, after, base);
      return 1;
    }
  }
  if (!unloaded) {
    fprintf(stderr, "dlopen: dlclose never unloaded %s: the test proves nothing\n", lib);
    return 1;
  }
  /* one CPU: the default pool has no workers and the join check is empty */
  printf("dlopen: %d rounds (%d unloaded, default pool of %d workers): workers joined at every "
         "unload, results right\n",
         rounds, unloaded, most_workers);
  return 0;
}

static int run_dlopen(const char *lib) {
  const size_t n = (size_t)1 << 18;
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  float *y = malloc(n * sizeof(float));
  int rc = 1;
  if (x && want && y) {
    test_fill_inputs(x, n, 0xd10);
    if (actk_gelu_f32(NULL, x, want, n) == ACTK_OK) rc = dlopen_rounds(lib, x, want, y, n);
  }
  free(x);
  free(want);
  free(y);
  return rc;
}

/* ---- the default pool in a fork() child ---- */

enum {
  CHILD_OK = 0,
  CHILD_OLD_THREADS = 40,
  CHILD_OLD_CALL,
  CHILD_DEFAULT_NULL,
  CHILD_DEFAULT_CALL,
  CHILD_DEFAULT_NOT_PARALLEL,
};

static const char *child_what(int code) {
  switch (code) {
  case CHILD_OLD_THREADS:
    return "the pre-fork default pool, destroyed in the child, claims threads";
  case CHILD_OLD_CALL:
    return "a call on the pre-fork default pool, after actk_pool_destroy in the child, failed or "
           "gave wrong bits";
  case CHILD_DEFAULT_NULL:
    return "actk_pool_default() returned NULL in the child";
  case CHILD_DEFAULT_CALL:
    return "a call on the child's default pool, after actk_pool_destroy on it, failed or gave "
           "wrong bits";
  case CHILD_DEFAULT_NOT_PARALLEL:
    return "a large call on the child's default pool did not go parallel";
  }
  return "not one of the test's codes (ASan: a use after free in the child?)";
}

static int call_ok(actk_pool *pool, const float *x, const float *want, float *y, size_t n) {
  memset(y, 0, n * sizeof(float));
  return actk_gelu_f32(pool, x, y, n) == ACTK_OK && memcmp(y, want, n * sizeof(float)) == 0;
}

/* The child: destroy the parent's default pool (ignored), use it; then its
 * own default pool, destroyed (ignored) and used; then the old pointer. */
static int default_child(actk_pool *old, const float *x, const float *want, float *y, size_t n) {
  actk_pool_destroy(old);
  if (actk_pool_threads(old) != 1) return CHILD_OLD_THREADS;
  if (!call_ok(old, x, want, y, n)) return CHILD_OLD_CALL;
  actk_pool_destroy(old);
#ifdef TEST_TSAN
  return CHILD_OK; /* TSan cannot start threads in this child (test_pool's fork test) */
#endif
  actk_pool *def = actk_pool_default();
  if (!def) return CHILD_DEFAULT_NULL;
  actk_pool_destroy(def);
  const unsigned long before = atomic_load(&actk_runner_parallel_calls);
  if (!call_ok(def, x, want, y, n)) return CHILD_DEFAULT_CALL;
  if (actk_pool_threads(def) > 1 && atomic_load(&actk_runner_parallel_calls) == before)
    return CHILD_DEFAULT_NOT_PARALLEL;
  if (!call_ok(old, x, want, y, n)) return CHILD_OLD_CALL;
  return CHILD_OK;
}

/* A sleeping pool's dispatch cost, from a pool that never spins. */
static uint64_t cold_dispatch_ns(void) {
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = 2;
  cfg.spin_us = 0;
  actk_pool *pool = NULL;
  if (actk_pool_create(&cfg, &pool) != ACTK_OK) return 1000000;
  uint64_t ns = actk_pool_dispatch_cost_ns(pool);
  actk_pool_destroy(pool);
  return ns;
}

static void test_default_pool_after_fork(void **state) {
  (void)state;
  /* the child's first call on its new default pool goes parallel */
  const size_t n = parallel_length(cold_dispatch_ns());
  float *x = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
  float *y = malloc(n * sizeof(float));
  assert_non_null(x);
  assert_non_null(want);
  assert_non_null(y);
  test_fill_inputs(x, n, 0xf0);
  assert_int_equal(actk_gelu_f32(NULL, x, want, n), ACTK_OK);
  actk_pool *def = actk_pool_default();
  assert_non_null(def);
  actk_pool_destroy(def); /* the default pool: ignored */
  test_check(call_ok(def, x, want, y, n), "the default pool, after actk_pool_destroy on it");
  for (int it = 0; it < 3; it++) {
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
      alarm(30);
      _exit(default_child(def, x, want, y, n));
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    char why[96];
    if (describe_status(status, why, sizeof why))
      test_fail("fork #%d: the child %s: %s", it, why,
                WIFEXITED(status) ? child_what(WEXITSTATUS(status)) : "");
    test_check(call_ok(def, x, want, y, n), "the parent's default pool after fork #%d", it);
  }
  free(x);
  free(want);
  free(y);
}

/* ---- host pools: which calls run inline ---- */

/* An engine whose parallel-for does not nest, as some engines' do: a call
 * from a thread already inside it would wait for threads that are all busy.
 * Here such a call is counted and run inline instead of hanging. Each call
 * runs its tasks on the caller and one helper thread. */
typedef struct engine {
  atomic_int reentered; /* parallel-for calls from inside one */
  atomic_ulong calls;
} engine;

static _Thread_local int tls_in_engine; /* this thread is running an engine task */

typedef struct engine_job {
  void (*fn)(void *, size_t);
  void *data;
  size_t total;
  atomic_size_t next;
} engine_job;

static void engine_claim(engine_job *j) {
  tls_in_engine++;
  for (;;) {
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->total) break;
    j->fn(j->data, i);
  }
  tls_in_engine--;
}

static void *engine_helper(void *p) {
  engine_claim(p);
  return NULL;
}

static void engine_parallel_for(engine *e, void (*fn)(void *, size_t), size_t total, void *data) {
  atomic_fetch_add(&e->calls, 1);
  if (tls_in_engine) { /* a real non-nesting pool would deadlock here */
    atomic_fetch_add(&e->reentered, 1);
    for (size_t i = 0; i < total; i++) fn(data, i);
    return;
  }
  engine_job j = {fn, data, total, 0};
  pthread_t t;
  const int started = pthread_create(&t, NULL, engine_helper, &j) == 0;
  engine_claim(&j);
  if (started) pthread_join(t, NULL);
}

/* The parallel-for given to actk_pool_create_host: as is ... */
static void adapter_plain(void *host, void (*fn)(void *, size_t), size_t total, size_t num_batch,
                          void *data) {
  (void)num_batch;
  engine_parallel_for(host, fn, total, data);
}

/* ... and as README shows for an engine that does not nest: on a thread
 * already inside the engine's parallel-for, run the chunks right here. */
static void adapter_inline_inside(void *host, void (*fn)(void *, size_t), size_t total,
                                  size_t num_batch, void *data) {
  (void)num_batch;
  if (tls_in_engine) {
    for (size_t i = 0; i < total; i++) fn(data, i);
    return;
  }
  engine_parallel_for(host, fn, total, data);
}

enum { ENGINE_TASKS = 4 };

typedef struct nest_ctx {
  actk_pool *pool;
  const float *x, *want;
  float *y[ENGINE_TASKS];
  size_t n;
  atomic_int wrong;
} nest_ctx;

/* An engine task (an op kernel the engine runs) that calls actk. */
static void engine_task(void *p, size_t i) {
  nest_ctx *c = p;
  if (actk_gelu_f32(c->pool, c->x, c->y[i], c->n) != ACTK_OK ||
      memcmp(c->y[i], c->want, c->n * sizeof(float)))
    atomic_fetch_add(&c->wrong, 1);
}

/* One of actk's chunk tasks that calls actk again, into a buffer of its own
 * (chunks run at once on different threads). */
static void actk_chunk_calling_actk(void *p, size_t begin, size_t end) {
  nest_ctx *c = p;
  (void)begin;
  (void)end;
  float *y = malloc(c->n * sizeof(float));
  if (!y || actk_gelu_f32(c->pool, c->x, y, c->n) != ACTK_OK ||
      memcmp(y, c->want, c->n * sizeof(float)))
    atomic_fetch_add(&c->wrong, 1);
  free(y);
}

/* README's rule: actk's own chunk tasks are marked, so an actk call from
 * inside one runs inline and never reaches the engine again; the engine's
 * own tasks are not (actk cannot see them), so a call from inside one is
 * handed to the engine's parallel-for from inside it; an adapter that runs
 * inline there keeps a non-nesting engine out of that, with the same bits.
 * Caught, with the marking in host_trampoline removed: "plain adapter, actk's
 * chunk tasks calling actk: the engine's parallel-for was entered 9 times, 8
 * of them from inside itself". */
static void test_host_nesting(void **state) {
  (void)state;
  nest_ctx c;
  memset(&c, 0, sizeof c);
  c.n = (size_t)1 << 18; /* parallel on a host pool (its dispatch cost is fixed) */
  float *x = malloc(c.n * sizeof(float)), *want = malloc(c.n * sizeof(float));
  assert_non_null(x);
  assert_non_null(want);
  test_fill_inputs(x, c.n, 0x4e57);
  assert_int_equal(actk_gelu_f32(NULL, x, want, c.n), ACTK_OK);
  c.x = x;
  c.want = want;
  for (int i = 0; i < ENGINE_TASKS; i++) {
    c.y[i] = malloc(c.n * sizeof(float));
    assert_non_null(c.y[i]);
  }
  static const char *names[] = {"plain adapter", "adapter running inline inside the engine"};
  for (int a = 0; a < 2; a++) {
    engine e;
    memset(&e, 0, sizeof e);
    actk_pool *pool = NULL;
    assert_int_equal(actk_pool_create_host(a ? adapter_inline_inside : adapter_plain, &e, 2, &pool),
                     ACTK_OK);
    c.pool = pool;

    /* the engine's own tasks call actk */
    unsigned long before = atomic_load(&actk_runner_parallel_calls);
    engine_parallel_for(&e, engine_task, ENGINE_TASKS, &c);
    test_check(atomic_load(&c.wrong) == 0, "%s, engine tasks calling actk: %d wrong results",
               names[a], atomic_load(&c.wrong));
    test_check(atomic_load(&actk_runner_parallel_calls) - before == ENGINE_TASKS,
               "%s, engine tasks calling actk: %lu of %d calls went parallel", names[a],
               atomic_load(&actk_runner_parallel_calls) - before, ENGINE_TASKS);
    if (a == 0)
      test_check(atomic_load(&e.reentered) == ENGINE_TASKS,
                 "plain adapter, engine tasks calling actk: the engine's parallel-for was entered "
                 "from inside itself %d times, want %d (one per call: actk cannot see the engine's "
                 "own tasks)",
                 atomic_load(&e.reentered), ENGINE_TASKS);
    else
      test_check(atomic_load(&e.reentered) == 0,
                 "%s: the engine's parallel-for was entered from inside itself %d times", names[a],
                 atomic_load(&e.reentered));

    /* actk's own chunk tasks call actk: inline, the engine is entered once */
    atomic_store(&e.reentered, 0);
    atomic_store(&e.calls, 0);
    actk_run_ranges(pool, ACTK_COST_EXPENSIVE, c.n, 16, actk_chunk_calling_actk, &c);
    test_check(atomic_load(&c.wrong) == 0, "%s, actk's chunk tasks calling actk: wrong results",
               names[a]);
    test_check(atomic_load(&e.calls) == 1 && atomic_load(&e.reentered) == 0,
               "%s, actk's chunk tasks calling actk: the engine's parallel-for was entered %lu "
               "times, %d of them from inside itself (want once, from outside)",
               names[a], atomic_load(&e.calls), atomic_load(&e.reentered));
    actk_pool_destroy(pool);
  }
  for (int i = 0; i < ENGINE_TASKS; i++) free(c.y[i]);
  free(x);
  free(want);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fork_race") == 0) return run_fork_race();
  if (argc > 1 && strcmp(argv[1], "exit_mid_call") == 0) return run_exit_mid_call();
  if (argc > 2 && strcmp(argv[1], "dlopen") == 0) return run_dlopen(argv[2]);
  if (argc > 1) {
    fprintf(stderr, "usage: %s [fork_race | exit_mid_call | dlopen LIB]\n", argv[0]);
    return 2;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_pool_after_fork),
      cmocka_unit_test(test_host_nesting),
  };
  return cmocka_run_group_tests_name("pool lifecycle", tests, NULL, NULL);
}
