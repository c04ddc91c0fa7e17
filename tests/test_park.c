/* The park interface (src/platform/park.h) on its own, whichever file CMake
 * built (futex, WaitOnAddress, or the portable mutex + condition variable):
 *  - ping-pong: two threads hand a counter back and forth, each parking until
 *    the other has moved it; a lost wake-up leaves both asleep, and the
 *    watchdog fails the test when the counter stops moving;
 *  - a crowd: several threads park on one word (and others on a neighbouring
 *    word); wake(word, n) wakes at least n of them, wake_all the rest, and
 *    the neighbours keep sleeping until their own word changes;
 *  - a wait on a word that already differs returns at once.
 * Plain C and pthreads (no cmocka), so it also builds with MinGW-w64 and runs
 * under Wine as it is. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "platform/park.h"

#if defined(__SANITIZE_THREAD__) || defined(ACTK_TEST_EMULATED)
#define ROUNDS 20000u
#else
#define ROUNDS 200000u
#endif
#define STALL_S 20 /* no progress for this long: a lost wake-up */
#define CROWD 6

static atomic_uint g_word, g_other;
static atomic_uint g_progress; /* bumped by the tests as they move */
static atomic_int g_done;

#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "test_park: FAILED: " __VA_ARGS__);                                          \
      fprintf(stderr, "\n");                                                                       \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *watchdog(void *arg) {
  (void)arg;
  unsigned last = atomic_load(&g_progress);
  int still = 0;
  while (!atomic_load(&g_done)) {
    sleep_ms(100);
    unsigned now = atomic_load(&g_progress);
    still = now == last ? still + 1 : 0;
    last = now;
    if (still >= STALL_S * 10) {
      fprintf(stderr,
              "test_park: FAILED: no progress for %d s (word %u, other %u): a lost wake-up\n",
              STALL_S, atomic_load(&g_word), atomic_load(&g_other));
      exit(1);
    }
  }
  return NULL;
}

/* Thread `parity` moves the word from a value of its parity to the next. */
static void *pingpong(void *arg) {
  unsigned parity = (unsigned)(size_t)arg;
  for (;;) {
    unsigned v = atomic_load(&g_word);
    if (v >= 2 * ROUNDS) return NULL;
    if (v % 2 != parity) {
      actk_park_wait(&g_word, v);
      continue;
    }
    atomic_store(&g_word, v + 1);
    atomic_fetch_add(&g_progress, 1);
    actk_park_wake(&g_word, 1);
  }
}

static void test_pingpong(void) {
  atomic_store(&g_word, 0);
  pthread_t a, b;
  CHECK(pthread_create(&a, NULL, pingpong, (void *)0) == 0, "pthread_create");
  CHECK(pthread_create(&b, NULL, pingpong, (void *)1) == 0, "pthread_create");
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  CHECK(atomic_load(&g_word) == 2 * ROUNDS, "ping-pong ended at %u, not %u", atomic_load(&g_word),
        2 * ROUNDS);
  printf("test_park: ping-pong: %u hand-overs\n", 2 * ROUNDS);
}

static atomic_int g_woken, g_other_woken;

static void *crowd_member(void *arg) {
  atomic_uint *w = arg;
  actk_park_wait(w, 0);
  atomic_fetch_add(w == &g_word ? &g_woken : &g_other_woken, 1);
  atomic_fetch_add(&g_progress, 1);
  return NULL;
}

/* Waits up to 10 s for *count to reach want. */
static int wait_count(atomic_int *count, int want) {
  for (int i = 0; i < 1000 && atomic_load(count) < want; i++) sleep_ms(10);
  return atomic_load(count);
}

static void test_crowd(void) {
  atomic_store(&g_word, 0);
  atomic_store(&g_other, 0);
  pthread_t t[2 * CROWD];
  for (int i = 0; i < CROWD; i++) {
    CHECK(pthread_create(&t[i], NULL, crowd_member, &g_word) == 0, "pthread_create");
    CHECK(pthread_create(&t[CROWD + i], NULL, crowd_member, &g_other) == 0, "pthread_create");
  }
  sleep_ms(200); /* most of them asleep by now; a late one finds the word changed */
  CHECK(atomic_load(&g_woken) == 0 && atomic_load(&g_other_woken) == 0,
        "a waiter returned while its word was unchanged");
  atomic_store(&g_word, 1);
  actk_park_wake(&g_word, 2);
  int n = wait_count(&g_woken, 2);
  CHECK(n >= 2, "wake(word, 2) woke %d of %d waiters", n, CROWD);
  actk_park_wake_all(&g_word);
  n = wait_count(&g_woken, CROWD);
  CHECK(n == CROWD, "wake_all woke %d of %d waiters", n, CROWD);
  sleep_ms(100);
  CHECK(atomic_load(&g_other_woken) == 0,
        "%d waiters on another word returned though it did not change",
        atomic_load(&g_other_woken));
  atomic_store(&g_other, 1);
  actk_park_wake_all(&g_other);
  n = wait_count(&g_other_woken, CROWD);
  CHECK(n == CROWD, "wake_all on the other word woke %d of %d", n, CROWD);
  for (int i = 0; i < 2 * CROWD; i++) pthread_join(t[i], NULL);
  printf("test_park: crowd: %d + %d waiters, each woken by its own word\n", CROWD, CROWD);
}

int main(void) {
  pthread_t dog;
  CHECK(pthread_create(&dog, NULL, watchdog, NULL) == 0, "pthread_create");
  atomic_store(&g_word, 5);
  actk_park_wait(&g_word, 4); /* differs: returns at once */
  test_pingpong();
  test_crowd();
  atomic_store(&g_done, 1);
  pthread_join(dog, NULL);
  printf("test_park: ok\n");
  return 0;
}
