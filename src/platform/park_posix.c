/* Parking on any POSIX host (macOS, the BSDs; on Linux with -DACTK_PARK=portable):
 * a fixed table of buckets, each a mutex and a condition variable, chosen by
 * hashing the word's address. A waiter takes its bucket's mutex, re-reads the
 * word, and sleeps on the condition variable (which releases the mutex as one
 * step); a waker, having changed the word, takes the same mutex and
 * broadcasts. If the waiter read the old value under the mutex, it is asleep
 * on the condition variable by the time the waker gets the mutex, and the
 * broadcast wakes it; otherwise the waker's unlock came first, and the waiter's
 * read, after its lock, sees the change. Words that share a bucket wake each
 * other now and then: each waiter re-checks its own word and sleeps again.
 *
 * fork(): a parent's thread may hold a bucket's mutex, or sleep on its
 * condition variable, when another thread forks. The prepare handler takes
 * every mutex, so none is held mid-operation; the child, whose only thread
 * holds them all, makes the condition variables anew (the parent's sleepers
 * do not exist there, and glibc's broadcast waits for them to leave) and
 * unlocks. */
#include "platform/park.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>

/* Few enough that fork()'s prepare handler, which holds them all, stays under
 * ThreadSanitizer's 64 locks held by one thread (64 buckets plus the pool's
 * own atfork lock hit its CHECK in test_pool_lifecycle). */
#define PARK_BUCKETS 32 /* bucket_of takes the top 5 bits of a hash */

typedef struct park_bucket {
  _Alignas(64) pthread_mutex_t lock; /* one cache line or more each */
  pthread_cond_t cond;
} park_bucket;

static park_bucket g_buckets[PARK_BUCKETS];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void park_prepare(void) {
  for (int i = 0; i < PARK_BUCKETS; i++) pthread_mutex_lock(&g_buckets[i].lock);
}

static void park_parent(void) {
  for (int i = PARK_BUCKETS - 1; i >= 0; i--) pthread_mutex_unlock(&g_buckets[i].lock);
}

static void park_child(void) {
  for (int i = PARK_BUCKETS - 1; i >= 0; i--) {
    pthread_cond_init(&g_buckets[i].cond, NULL);
    pthread_mutex_unlock(&g_buckets[i].lock);
  }
}

static void park_init(void) {
  for (int i = 0; i < PARK_BUCKETS; i++) {
    pthread_mutex_init(&g_buckets[i].lock, NULL);
    pthread_cond_init(&g_buckets[i].cond, NULL);
  }
  pthread_atfork(park_prepare, park_parent, park_child);
}

static park_bucket *bucket_of(const atomic_uint *word) {
  pthread_once(&g_once, park_init);
  /* Fibonacci hashing: neighbouring words (a pool's epoch, a job's word on
   * the caller's stack) land in different buckets */
  uint64_t h = (uint64_t)(uintptr_t)word * UINT64_C(0x9E3779B97F4A7C15);
  return &g_buckets[h >> 59]; /* the top 5 bits: PARK_BUCKETS == 32 */
}

void actk_park_wait(atomic_uint *word, unsigned expected) {
  park_bucket *b = bucket_of(word);
  pthread_mutex_lock(&b->lock);
  while (atomic_load(word) == expected) pthread_cond_wait(&b->cond, &b->lock);
  pthread_mutex_unlock(&b->lock);
}

void actk_park_wake_all(atomic_uint *word) {
  park_bucket *b = bucket_of(word);
  pthread_mutex_lock(&b->lock);
  pthread_cond_broadcast(&b->cond);
  pthread_mutex_unlock(&b->lock);
}

/* A signal could wake a sleeper on another word of the bucket, which would go
 * back to sleep, and this word's sleeper would not wake: broadcast. */
void actk_park_wake(atomic_uint *word, unsigned count) {
  (void)count;
  actk_park_wake_all(word);
}

void actk_park_yield(void) { sched_yield(); }
