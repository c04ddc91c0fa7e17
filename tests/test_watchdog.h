/* The time limit of a test ctest runs (tests/CMakeLists.txt): ctest kills a
 * test at its TIMEOUT and says only "***Timeout". ctest passes the limit in
 * ACTK_TEST_LIMIT_S; a watchdog thread started before main() ends the test a
 * little before it, saying which variable raises it (docs/testing.md). Off
 * under valgrind (its CI stage has its own limit) and ThreadSanitizer (below). Included by
 * actk_test.h; a test without cmocka (test_convert) includes it alone. */
#ifndef ACTK_TEST_WATCHDOG_H
#define ACTK_TEST_WATCHDOG_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Not under ThreadSanitizer: a thread started before main() makes every
 * fork() a multi-threaded one, and TSan refuses threads in such a child
 * ("starting new threads after multi-threaded fork is not supported"), which
 * the lifecycle tests' fork modes need; ctest's TIMEOUT still ends a hang. */
#if defined(__SANITIZE_THREAD__)
#define TEST_WATCHDOG_OFF 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_WATCHDOG_OFF 1
#endif
#endif

#ifndef TEST_WATCHDOG_OFF
static double test_limit_s;

static void *test_watchdog(void *arg) {
  (void)arg;
  double margin = test_limit_s * 0.05 < 2 ? 2 : test_limit_s * 0.05;
  double wait = test_limit_s - margin;
  struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
  char msg[512];
  const char *base = getenv("ACTK_TEST_TIMEOUT_BASE");
  int n = snprintf(msg, sizeof msg,
                   "\n*** this test ran %.0f s, close to its limit of %.0f s: stopped.\n"
                   "*** On a slow, busy, sanitized or emulated machine raise the limit: every "
                   "test's limit scales with ACTK_TEST_TIMEOUT (now %s s):\n"
                   "***   cmake -S . -B <build> -DACTK_TEST_TIMEOUT=<seconds> (docs/testing.md)\n",
                   wait, test_limit_s, base && *base ? base : "?");
  if (n > 0) {
    ssize_t r = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    (void)r;
  }
  _exit(124);
  return NULL;
}

__attribute__((constructor)) static void test_start_watchdog(void) {
  const char *v = getenv("ACTK_TEST_LIMIT_S");
  const char *pre = getenv("LD_PRELOAD");
  if (!v || !*v || (pre && strstr(pre, "vgpreload"))) return;
  test_limit_s = strtod(v, NULL);
  if (!(test_limit_s > 4)) return;
  pthread_t t;
  if (pthread_create(&t, NULL, test_watchdog, NULL) == 0) pthread_detach(t);
}
#endif

#endif
