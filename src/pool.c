/* Spin-then-park thread pool with a queue of caller-owned jobs.
 *
 * A job lives on its caller's stack and sits in the pool's queue while it has
 * unclaimed tasks; any number of callers may have jobs queued at once, so two
 * dispatchers never share a slot. Workers and the caller claim task indices
 * with one atomic counter per job; the caller keeps claiming until none are
 * left, so its job finishes even if no worker ever wakes. It then unlinks the
 * job, waits for the tasks workers still run, and for every worker that may
 * still hold the job pointer (refs) before its stack frame goes away.
 *
 * Idle workers spin on the pool's epoch (bumped once per job pushed) for
 * spin_us, pausing 1, 2, 4 .. spin_backoff_max times between checks, then
 * park on that epoch (src/platform/park.h: a futex, WaitOnAddress or a
 * condition variable): sleepers is raised before the last check, so a
 * dispatcher that bumps the epoch either sees the sleeper and wakes it, or
 * the sleeper sees the new epoch and does not sleep.
 *
 * What each atomic orders, and which orders could or could not be weaker
 * (x86 hides most of it; AArch64 and the C11 model do not):
 * docs/pool-memory-order.md. */
#define _GNU_SOURCE
#include "pool.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fpenv.h"
#include "plan.h"
#include "platform/clock.h"
#include "platform/load_hooks.h"
#include "platform/park.h"
#include "platform/thread.h"
#include "topology.h"
#include "versioned.h"

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <immintrin.h> /* _mm_pause: GCC has it in xmmintrin.h, MSVC in emmintrin.h */
static inline void cpu_pause(void) { _mm_pause(); }
#elif defined(_M_ARM64) && defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline void cpu_pause(void) { __yield(); }
#elif defined(__aarch64__)
static inline void cpu_pause(void) { __asm__ volatile("yield"); }
#else
static inline void cpu_pause(void) {}
#endif

/* While the caller waits for workers: pause this long, then yield (a worker
 * the scheduler put on the caller's CPU cannot run while the caller spins),
 * then park on the job's word once spin_us or ACTK_CALLER_YIELD_NS is over,
 * whichever comes first: a yield does not always let a worker on the caller's
 * CPU run (measured: an empty job then took the whole spin_us of 100 us, p50),
 * a sleep does. */
#define ACTK_CALLER_SPIN_NS 2000u
#define ACTK_CALLER_YIELD_NS 20000u
/* A spinning worker yields this often: where it shares a CPU with the caller
 * (or with another runtime's threads: a machine oversubscribed), a spin that
 * never yields holds that CPU for its whole window (measured: every empty job
 * took spin_us, 1 ms, with both threads on one CPU). With the CPU to itself a
 * yield returns at once. */
#define ACTK_SPIN_YIELD_NS 20000u

#define ACTK_MAX_THREADS 1024

typedef struct actk_job {
  actk_task_fn task;
  void *ctx;
  size_t n;
  atomic_size_t next;         /* next task index to claim */
  atomic_size_t done;         /* tasks finished */
  atomic_int refs;            /* workers that may still touch this job */
  atomic_uint finished;       /* park word: 1 once done == n */
  atomic_int caller_sleeping; /* the caller parks on finished */
  actk_fpcsr fpcsr;           /* the caller's, applied to workers running its tasks */
  struct actk_job *next_job;  /* queue link, under the pool lock */
  int queued;                 /* under the pool lock */
} actk_job;

typedef struct worker_arg {
  actk_pool *pool;
  unsigned index; /* 1-based: the caller is worker 0 */
} worker_arg;

struct actk_pool {
  int host;
  actk_parallel_for_fn host_fn;
  void *host_ctx;
  unsigned width;     /* threads a job can use, the caller included */
  unsigned n_workers; /* threads started */
  uint64_t spin_ns;
  unsigned backoff_max;
  int pin;
  atomic_uint fork_gen; /* g_fork_gen when set up; stored last (release) */
  actk_thread *threads;
  worker_arg *args;
  int *cpus; /* one per allowed physical core, for pinning */
  int n_cpus;
  actk_mutex lock;
  actk_job *head, *tail;
  atomic_uint epoch; /* the word idle workers park on */
  atomic_int sleepers;
  atomic_uint released;       /* bumped when a worker drops a job's last ref */
  atomic_int release_waiters; /* callers parked on released */
  atomic_int spinning;
  atomic_int shutdown;
  _Atomic uint64_t last_call_ns; /* end of the last call that considered this pool */
};

/* ---- process-wide state ---- */

static atomic_uint g_fork_gen;
static ACTK_THREAD_LOCAL int tls_in_worker;
static atomic_uint g_fail_creates; /* test hook */
/* The default pool lives in static storage and is never freed: a call may
 * still be running on it when the library unloads at exit(), and a child of
 * fork() keeps the parent's pointer. g_default points at it once it is set
 * up in this process (a fork() child starts with NULL); g_unloading, under
 * the lock, stops it from being set up again once unloading began. */
static actk_pool g_default_storage;
static _Atomic(actk_pool *) g_default;
static actk_mutex g_default_lock = ACTK_MUTEX_INIT;
static int g_unloading;
static actk_once_flag g_atfork_once = ACTK_ONCE_INIT;
typedef void (*test_hook_fn)(void);
static _Atomic(test_hook_fn) g_default_hook; /* test hook */

static void atfork_prepare(void) { actk_mutex_lock(&g_default_lock); }
static void atfork_parent(void) { actk_mutex_unlock(&g_default_lock); }
/* The child has none of the parent's workers: pools from before the fork run
 * jobs inline from now on, and the default pool is made anew on first use.
 * The forking thread holds the lock (atfork_prepare) and is the child's only
 * thread, so it unlocks it (re-initialising a locked mutex is undefined, and
 * TSan then reports the child's next lock as a double lock). */
static void atfork_child(void) {
  actk_mutex_unlock(&g_default_lock);
  atomic_fetch_add(&g_fork_gen, 1);
  atomic_store(&g_default, NULL);
}
static void register_atfork(void) {
  actk_thread_atfork(atfork_prepare, atfork_parent, atfork_child);
}
/* At load, and in any case before the default-pool lock is first taken: a
 * fork() while the first actk_pool_default() holds that lock must find the
 * handlers in place, or the child inherits the lock held, with nothing to
 * reset it, and hangs in its own actk_pool_default(). */
ACTK_ON_LOAD(pool_load) { actk_once(&g_atfork_once, register_atfork); }

void actk_pool_test_fail_thread_creates(unsigned k) { atomic_store(&g_fail_creates, k); }
void actk_pool_test_default_hook(void (*hook)(void)) { atomic_store(&g_default_hook, hook); }

/* ---- small helpers ---- */

/* A pool from before a fork() (its threads are the parent's): it runs every
 * call inline. The acquire pairs with the release that publishes a pool set
 * up afresh in a child (the default pool's storage): a call that sees it
 * current sees all of it; one that sees it stale reads nothing else. */
static int pool_is_stale(const actk_pool *pool) {
  return atomic_load_explicit(&pool->fork_gen, memory_order_acquire) !=
         atomic_load_explicit(&g_fork_gen, memory_order_relaxed);
}

/* Stopped: its workers were joined when the library unloaded. */
static int pool_is_stopped(const actk_pool *pool) {
  return atomic_load_explicit(&pool->shutdown, memory_order_relaxed);
}

/* ---- running tasks ---- */

static void job_notify_done(actk_job *job) {
  atomic_store(&job->finished, 1);
  if (atomic_load(&job->caller_sleeping)) actk_park_wake(&job->finished, 1);
}

/* A worker dropped a job's last reference. A caller that waits for refs
 * parks on the pool's `released` (not on its job: the frame may be gone the
 * moment refs reads 0), so this touches only the pool. */
static void job_released(actk_pool *pool) {
  atomic_fetch_add(&pool->released, 1);
  if (atomic_load(&pool->release_waiters)) actk_park_wake_all(&pool->released);
}

/* Claim and run tasks until none are left. */
static void run_tasks(actk_job *job) {
  for (;;) {
    size_t i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (i >= job->n) return;
    job->task(job->ctx, i);
    if (atomic_fetch_add_explicit(&job->done, 1, memory_order_acq_rel) + 1 == job->n)
      job_notify_done(job);
  }
}

/* The oldest job with unclaimed tasks, with a reference taken; fully claimed
 * jobs are dropped from the queue on the way. */
static actk_job *acquire_job(actk_pool *pool) {
  actk_mutex_lock(&pool->lock);
  actk_job *job = pool->head;
  while (job && atomic_load_explicit(&job->next, memory_order_relaxed) >= job->n) {
    job->queued = 0;
    job = job->next_job;
    pool->head = job;
  }
  if (!job)
    pool->tail = NULL;
  else
    atomic_fetch_add_explicit(&job->refs, 1, memory_order_relaxed);
  actk_mutex_unlock(&pool->lock);
  return job;
}

static void unlink_job(actk_pool *pool, actk_job *job) {
  actk_mutex_lock(&pool->lock);
  if (job->queued) {
    actk_job **p = &pool->head, *prev = NULL;
    while (*p != job) {
      prev = *p;
      p = &(*p)->next_job;
    }
    *p = job->next_job;
    if (pool->tail == job) pool->tail = prev;
    job->queued = 0;
  }
  actk_mutex_unlock(&pool->lock);
}

/* An idle worker: spin for spin_ns while the epoch stays at seen, then park
 * on it. Returns once the epoch moved (a job, or shutdown). */
static void idle_wait(actk_pool *pool, unsigned seen) {
  if (pool->spin_ns > 0) {
    atomic_fetch_add_explicit(&pool->spinning, 1, memory_order_relaxed);
    uint64_t t = actk_clock_ns(), deadline = t + pool->spin_ns, next_yield = t + ACTK_SPIN_YIELD_NS;
    unsigned pauses = 1;
    int moved = 0;
    for (;;) {
      if (atomic_load_explicit(&pool->epoch, memory_order_acquire) != seen ||
          atomic_load_explicit(&pool->shutdown, memory_order_relaxed)) {
        moved = 1;
        break;
      }
      t = actk_clock_ns();
      if (t >= deadline) break;
      if (t >= next_yield) { /* let a thread that shares this CPU run: it may be the caller */
        actk_park_yield();
        next_yield = t + ACTK_SPIN_YIELD_NS;
      }
      for (unsigned k = 0; k < pauses; k++) cpu_pause();
      if (pauses < pool->backoff_max) pauses *= 2;
    }
    atomic_fetch_sub_explicit(&pool->spinning, 1, memory_order_relaxed);
    if (moved) return;
  }
  /* park: announce, then check once more (the epoch compare in the park) */
  atomic_fetch_add(&pool->sleepers, 1);
  if (atomic_load(&pool->epoch) == seen && !atomic_load(&pool->shutdown))
    actk_park_wait(&pool->epoch, seen);
  atomic_fetch_sub(&pool->sleepers, 1);
}

static void pin_self(actk_pool *pool, unsigned index) {
  if (!pool->pin || pool->n_cpus <= 0) return;
  actk_thread_pin_self(pool->cpus[index % (unsigned)pool->n_cpus]);
}

static void *worker_main(void *p) {
  worker_arg *arg = p;
  actk_pool *pool = arg->pool;
  tls_in_worker = 1;
  pin_self(pool, arg->index);
  actk_fpcsr csr = actk_fpcsr_get();
  for (;;) {
    unsigned seen = atomic_load_explicit(&pool->epoch, memory_order_acquire);
    if (atomic_load(&pool->shutdown)) break;
    actk_job *job = acquire_job(pool);
    if (job) {
      if (job->fpcsr != csr) actk_fpcsr_set(csr = job->fpcsr);
      run_tasks(job);
      /* a release at least: the caller's acquire load of 0 ends the job's
       * frame, so this thread's reads of it (job->n in run_tasks) and its
       * task results must come first (relaxed: TSan reports the next call's
       * frame racing with the read of job->n). seq_cst: the worker's half of
       * the Dekker pair with a caller that parks on `released`. */
      if (atomic_fetch_sub(&job->refs, 1) == 1) job_released(pool);
      continue;
    }
    idle_wait(pool, seen);
  }
  return NULL;
}

/* One step of a caller's bounded wait that began at t0: pause for the first
 * ACTK_CALLER_SPIN_NS, then yield. 0 once limit_ns have passed: park then. */
static int caller_backoff(uint64_t t0, uint64_t limit_ns) {
  uint64_t t = actk_clock_ns() - t0;
  if (t >= limit_ns) return 0;
  if (t < ACTK_CALLER_SPIN_NS)
    cpu_pause();
  else
    actk_park_yield();
  return 1;
}

/* ---- the runner's view ---- */

unsigned actk_pool_width(actk_pool *pool) {
  if (!pool || tls_in_worker || pool_is_stale(pool) || pool_is_stopped(pool)) return 1;
  return pool->width;
}

/* Hot when every worker spins now, or when a call came within the spin
 * window: in a stream of calls the first split wakes the workers (once) and
 * the rest find them spinning. Judging by the spinning count alone locked a
 * stream of mid-size calls into serial forever: serial calls never wake
 * anyone, so the workers were never seen spinning. */
uint64_t actk_pool_dispatch_cost_ns(actk_pool *pool) {
  if (pool->host) return ACTK_DISPATCH_HOST_NS;
  if (atomic_load_explicit(&pool->spinning, memory_order_relaxed) >= (int)pool->n_workers)
    return ACTK_DISPATCH_HOT_NS;
  uint64_t last = atomic_load_explicit(&pool->last_call_ns, memory_order_relaxed);
  if (last && actk_clock_ns() - last < pool->spin_ns) return ACTK_DISPATCH_HOT_NS;
  return pool->pin ? ACTK_DISPATCH_COLD_NS : ACTK_DISPATCH_COLD_UNPINNED_NS;
}

void actk_pool_note_call(actk_pool *pool) {
  if (!pool->host)
    atomic_store_explicit(&pool->last_call_ns, actk_clock_ns(), memory_order_relaxed);
}

typedef struct host_job {
  actk_task_fn task;
  void *ctx;
  actk_fpcsr fpcsr;
} host_job;

/* Runs on the engine's threads: give the task the caller's FP control word, then put
 * the engine's back. */
static void host_trampoline(void *data, size_t i) {
  host_job *hj = data;
  actk_fpcsr saved = actk_fpcsr_get();
  if (saved != hj->fpcsr) actk_fpcsr_set(hj->fpcsr);
  int was_worker = tls_in_worker;
  tls_in_worker = 1; /* an actk call from inside a task runs inline */
  hj->task(hj->ctx, i);
  tls_in_worker = was_worker;
  if (saved != hj->fpcsr) actk_fpcsr_set(saved);
}

void actk_pool_run(actk_pool *pool, actk_task_fn task, void *ctx, size_t n) {
  if (actk_pool_width(pool) <= 1 || n <= 1) {
    for (size_t i = 0; i < n; i++) task(ctx, i);
    return;
  }
  if (pool->host) {
    host_job hj = {task, ctx, actk_fpcsr_get()};
    pool->host_fn(pool->host_ctx, host_trampoline, n, pool->width, &hj);
    return;
  }
  actk_job job;
  job.task = task;
  job.ctx = ctx;
  job.n = n;
  atomic_init(&job.next, 0);
  atomic_init(&job.done, 0);
  atomic_init(&job.refs, 0);
  atomic_init(&job.finished, 0);
  atomic_init(&job.caller_sleeping, 0);
  job.fpcsr = actk_fpcsr_get();
  job.next_job = NULL;
  job.queued = 1;
  /* The queue holds a pointer to this stack frame until unlink_job below, and
   * no worker touches the job after refs drops to 0, which we wait for. */
  actk_mutex_lock(&pool->lock);
  if (pool->tail)
    pool->tail->next_job = &job; // cppcheck-suppress autoVariables
  else
    pool->head = &job; // cppcheck-suppress autoVariables
  pool->tail = &job;   // cppcheck-suppress autoVariables
  actk_mutex_unlock(&pool->lock);
  atomic_fetch_add(&pool->epoch, 1);
  int sleeping = atomic_load(&pool->sleepers);
  if (sleeping > 0)
    actk_park_wake(&pool->epoch, (unsigned)(n - 1 < (size_t)sleeping ? n - 1 : (size_t)sleeping));

  run_tasks(&job);
  unlink_job(pool, &job);

  /* Tasks workers still run: pause, then yield, for at most spin_us and
   * ACTK_CALLER_YIELD_NS; then park on job.finished. */
  uint64_t t0 = actk_clock_ns();
  const uint64_t wait_ns =
      pool->spin_ns < ACTK_CALLER_YIELD_NS ? pool->spin_ns : ACTK_CALLER_YIELD_NS;
  while (atomic_load_explicit(&job.done, memory_order_acquire) < n && caller_backoff(t0, wait_ns)) {
  }
  if (atomic_load_explicit(&job.done, memory_order_acquire) < n) {
    atomic_store(&job.caller_sleeping, 1);
    actk_park_wait(&job.finished, 0);
  }
  /* A worker that claimed nothing may still hold the pointer for a moment:
   * pause, yield if it was preempted (one CPU, several threads), then park
   * until the worker that drops the last reference bumps `released`. The
   * Dekker pair: this side raises release_waiters and then reads refs; the
   * worker's decrement is followed by its bump and its read of
   * release_waiters (seq_cst, docs/pool-memory-order.md). */
  t0 = actk_clock_ns();
  while (atomic_load_explicit(&job.refs, memory_order_acquire) != 0) {
    if (caller_backoff(t0, ACTK_CALLER_YIELD_NS)) continue;
    unsigned gen = atomic_load(&pool->released);
    atomic_fetch_add(&pool->release_waiters, 1);
    if (atomic_load(&job.refs) != 0) actk_park_wait(&pool->released, gen);
    atomic_fetch_sub(&pool->release_waiters, 1);
  }
}

/* ---- creating and stopping pools ---- */

/* Every field but fork_gen, for a pool with no threads yet. The pool may be
 * the default pool's storage in a fork() child, which calls holding the
 * parent's pointer may be reading: they see it stale (fork_gen) and read
 * nothing else, so these plain writes race with nobody. */
static void pool_reset(actk_pool *pool) {
  pool->host = 0;
  pool->host_fn = NULL;
  pool->host_ctx = NULL;
  pool->width = 1;
  pool->n_workers = 0;
  pool->spin_ns = 0;
  pool->backoff_max = 1;
  pool->pin = 0;
  pool->threads = NULL;
  pool->args = NULL;
  pool->cpus = NULL;
  pool->n_cpus = 0;
  actk_mutex_init(&pool->lock);
  pool->head = pool->tail = NULL;
  atomic_store_explicit(&pool->epoch, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->sleepers, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->released, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->release_waiters, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->spinning, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->shutdown, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->last_call_ns, 0, memory_order_relaxed);
}

/* Makes the pool current in this process: the last store of a setup. */
static void pool_publish(actk_pool *pool) {
  atomic_store_explicit(&pool->fork_gen, atomic_load(&g_fork_gen), memory_order_release);
}

static void pool_free_arrays(actk_pool *pool) {
  free(pool->threads);
  free(pool->args);
  free(pool->cpus);
  pool->threads = NULL;
  pool->args = NULL;
  pool->cpus = NULL;
}

static int create_thread(actk_thread *t, void *(*fn)(void *), void *arg) {
  unsigned k = atomic_load(&g_fail_creates);
  while (k > 0 && !atomic_compare_exchange_weak(&g_fail_creates, &k, k - 1)) {
  }
  if (k > 0) return -1;
  return actk_thread_start(t, fn, arg, 256 * 1024); /* tasks need a few KiB */
}

/* Starts a reset pool's threads as cfg (validated) says. On an error no
 * thread runs; the arrays are the caller's to free. */
static actk_status pool_start(actk_pool *pool, const actk_pool_config *cfg) {
  pool->cpus = malloc(ACTK_MAX_THREADS * sizeof(int));
  if (!pool->cpus) return ACTK_ERR_OUT_OF_MEMORY;
  pool->n_cpus = actk_topology_core_cpus(pool->cpus, ACTK_MAX_THREADS);
  unsigned want = cfg->threads ? cfg->threads : (unsigned)pool->n_cpus;
  pool->spin_ns = (uint64_t)cfg->spin_us * 1000u;
  pool->backoff_max = cfg->spin_backoff_max ? cfg->spin_backoff_max : 1;
  pool->pin = cfg->pin;
  pool->threads = calloc(want, sizeof *pool->threads);
  pool->args = calloc(want, sizeof *pool->args);
  if (!pool->threads || !pool->args) return ACTK_ERR_OUT_OF_MEMORY;
  for (unsigned i = 1; i < want; i++) {
    pool->args[pool->n_workers] = (worker_arg){pool, i};
    if (create_thread(&pool->threads[pool->n_workers], worker_main, &pool->args[pool->n_workers]) !=
        0)
      continue; /* fewer workers, not a failure */
    pool->n_workers++;
  }
  if (want > 1 && pool->n_workers == 0) return ACTK_ERR_NO_THREADS;
  pool->width = pool->n_workers + 1;
  return ACTK_OK;
}

/* Tells the workers to exit and joins them. From then on every call runs
 * inline (pool_is_stopped); a call already running finishes on its own
 * thread, which claims every task no worker took, so it still needs the
 * pool's struct and lock: whether to free them is the caller's decision. */
static void pool_stop(actk_pool *pool) {
  atomic_store(&pool->shutdown, 1);
  atomic_fetch_add(&pool->epoch, 1);
  actk_park_wake_all(&pool->epoch);
  for (unsigned i = 0; i < pool->n_workers; i++) actk_thread_join(pool->threads[i]);
}

static actk_pool *pool_alloc(void) {
  actk_once(&g_atfork_once, register_atfork);
  actk_pool *pool = calloc(1, sizeof *pool);
  if (pool) pool_reset(pool);
  return pool;
}

static void pool_free(actk_pool *pool) {
  pool_free_arrays(pool);
  free(pool);
}

/* ---- public API ---- */

actk_status actk_pool_create(const actk_pool_config *config, actk_pool **out) {
  if (!out) return ACTK_ERR_NULL_POINTER;
  *out = NULL;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  if (config &&
      !actk_read_versioned(&cfg, sizeof cfg, config, config->struct_size, ACTK_POOL_CONFIG_V1_SIZE))
    return ACTK_ERR_INVALID_ARGUMENT;
  if (cfg.threads > ACTK_MAX_THREADS || cfg.pin < 0 || cfg.pin > 1)
    return ACTK_ERR_INVALID_ARGUMENT;
  actk_pool *pool = pool_alloc();
  if (!pool) return ACTK_ERR_OUT_OF_MEMORY;
  actk_status st = pool_start(pool, &cfg);
  if (st != ACTK_OK) {
    actk_mutex_destroy(&pool->lock);
    pool_free(pool);
    return st;
  }
  pool_publish(pool);
  *out = pool;
  return ACTK_OK;
}

actk_status actk_pool_create_host(actk_parallel_for_fn parallel_for, void *host, unsigned threads,
                                  actk_pool **out) {
  if (!out) return ACTK_ERR_NULL_POINTER;
  *out = NULL;
  if (!parallel_for) return ACTK_ERR_NULL_POINTER;
  if (threads == 0 || threads > ACTK_MAX_THREADS) return ACTK_ERR_INVALID_ARGUMENT;
  actk_pool *pool = pool_alloc();
  if (!pool) return ACTK_ERR_OUT_OF_MEMORY;
  pool->host = 1;
  pool->host_fn = parallel_for;
  pool->host_ctx = host;
  pool->width = threads;
  pool_publish(pool);
  *out = pool;
  return ACTK_OK;
}

void actk_pool_destroy(actk_pool *pool) {
  /* The default pool, in any process: a fork() child's pointer from before
   * the fork included. Its threads stop when the library unloads. */
  if (!pool || pool == &g_default_storage) return;
  /* Inherited across fork(): its threads are the parent's and its lock may
   * be held by a thread that no longer exists. Free only. */
  if (!pool_is_stale(pool)) {
    pool_stop(pool);
    actk_mutex_destroy(&pool->lock);
  }
  pool_free(pool);
}

/* Unloading the library (dlclose, or exit()) joins the default pool's
 * workers: they must not run code that is about to be unmapped. Nothing a
 * call can touch is freed: exit() runs this while other threads may be
 * mid-call (they finish inline), and actk_pool_default() keeps returning the
 * stopped pool, which runs every call inline. */
ACTK_ON_UNLOAD(default_pool_unload) {
  if (actk_thread_process_exiting()) return; /* the workers are gone, their locks held */
  actk_mutex_lock(&g_default_lock);
  g_unloading = 1;
  actk_pool *pool = atomic_load(&g_default);
  actk_mutex_unlock(&g_default_lock);
  if (!pool) return;
  pool_stop(pool);
  pool_free_arrays(pool); /* only the workers and their joiner use them */
}

/* Sets up the default pool's storage, under g_default_lock with g_default
 * NULL: before the first use, or in a fork() child, where the storage holds
 * the parent's pool (stale: calls on it read only fork_gen). The parent's
 * arrays are this process's copies, used by no thread of it. */
static actk_pool *default_pool_setup(void) {
  actk_pool *pool = &g_default_storage;
  pool_free_arrays(pool);
  pool_reset(pool);
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  if (pool_start(pool, &cfg) != ACTK_OK) {
    pool_free_arrays(pool);
    return NULL;
  }
  pool_publish(pool);
  return pool;
}

actk_pool *actk_pool_default(void) {
  actk_pool *pool = atomic_load_explicit(&g_default, memory_order_acquire);
  if (pool) return pool;
  actk_once(&g_atfork_once, register_atfork); /* if called before pool_load ran */
  actk_mutex_lock(&g_default_lock);
  test_hook_fn hook = atomic_load_explicit(&g_default_hook, memory_order_relaxed);
  if (hook) hook();
  pool = atomic_load_explicit(&g_default, memory_order_relaxed);
  if (!pool && !g_unloading && (pool = default_pool_setup()) != NULL)
    atomic_store_explicit(&g_default, pool, memory_order_release);
  actk_mutex_unlock(&g_default_lock);
  return pool;
}

unsigned actk_pool_threads(const actk_pool *pool) {
  if (!pool || pool_is_stale(pool) || pool_is_stopped(pool)) return 1;
  return pool->width;
}
