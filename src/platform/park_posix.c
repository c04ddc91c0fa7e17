/* Parking on any POSIX host (macOS, the BSDs; on Linux with -DACTK_PARK=portable):
 * a fixed table of buckets chosen by hashing the word's address, each a mutex
 * and a queue of the threads parked on its words. A waiter takes its bucket's
 * mutex, re-reads the word, and if it still holds `expected` queues itself
 * (a node on its own stack, with its own condition variable) and sleeps on
 * its condition variable (which releases the mutex as one step) until a waker
 * has taken it off the queue. A waker, having changed the word, takes the same
 * mutex and takes off up to n nodes of that word, oldest first, signalling
 * each. If the waiter read the old value under the mutex, it is queued before
 * the waker gets the mutex, so the waker finds it; otherwise the waker's
 * unlock came first, and the waiter's read, after its lock, sees the change.
 * A queue per bucket, not a condition variable per bucket: a wake of n then
 * wakes n threads of that word, not every thread of the bucket (a job of two
 * tasks woke all 15 idle workers of a 16-thread pool, which then spun).
 *
 * fork(): a parent's thread may hold a bucket's mutex, or be queued, when
 * another thread forks. The prepare handler takes every mutex, so none is
 * held mid-operation; in the child, whose only thread holds them all, the
 * queued threads do not exist: it empties the queues and unlocks. */
#include "platform/park.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/* Few enough that fork()'s prepare handler, which holds them all, stays under
 * ThreadSanitizer's 64 locks held by one thread (64 buckets plus the pool's
 * own atfork lock hit its CHECK in test_pool_lifecycle). */
#define PARK_BUCKETS 32 /* bucket_of takes the top 5 bits of a hash */

typedef struct park_waiter {
  const atomic_uint *word;
  pthread_cond_t cond;
  int queued; /* under the bucket's mutex: 0 once a waker took it off */
  struct park_waiter *next;
} park_waiter;

typedef struct park_bucket {
  _Alignas(64) pthread_mutex_t lock; /* a cache line or more each */
  park_waiter *head, *tail;          /* under lock */
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
    g_buckets[i].head = g_buckets[i].tail = NULL;
    pthread_mutex_unlock(&g_buckets[i].lock);
  }
}

static void park_init(void) {
  for (int i = 0; i < PARK_BUCKETS; i++) {
    pthread_mutex_init(&g_buckets[i].lock, NULL);
    g_buckets[i].head = g_buckets[i].tail = NULL;
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
  park_waiter me;
  me.word = word;
  pthread_cond_init(&me.cond, NULL);
  pthread_mutex_lock(&b->lock);
  while (atomic_load(word) == expected) {
    me.queued = 1;
    me.next = NULL;
    if (b->tail)
      b->tail->next = &me;
    else
      b->head = &me;
    b->tail = &me;
    while (me.queued) pthread_cond_wait(&me.cond, &b->lock);
  }
  pthread_mutex_unlock(&b->lock);
  pthread_cond_destroy(&me.cond); /* no waker touches it now: it took `me` off under the lock */
}

/* Takes up to count waiters of word off its bucket's queue and wakes them. */
static void wake(atomic_uint *word, unsigned count) {
  park_bucket *b = bucket_of(word);
  pthread_mutex_lock(&b->lock);
  park_waiter **link = &b->head, *prev = NULL;
  while (*link && count > 0) {
    park_waiter *w = *link;
    if (w->word != word) {
      prev = w;
      link = &w->next;
      continue;
    }
    *link = w->next;
    if (b->tail == w) b->tail = prev;
    w->queued = 0;
    pthread_cond_signal(&w->cond); /* under the lock: `w` lives until we unlock */
    count--;
  }
  pthread_mutex_unlock(&b->lock);
}

void actk_park_wake(atomic_uint *word, unsigned count) { wake(word, count); }

void actk_park_wake_all(atomic_uint *word) { wake(word, UINT_MAX); }

void actk_park_yield(void) { sched_yield(); }
