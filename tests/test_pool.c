/* The thread pool and the parallel runner, through the public API.
 *
 *  - Bit identity: every op (the 7 unary ops of tools/reference.h, swish with
 *    two more alphas, bias_gelu and bias_gelu_tanh with widths 1, 3, 7, 4099,
 *    RoPE in both styles and both layouts) gives the same bits with pool NULL,
 *    own pools of 1, 2, 3 and 8 threads and three host adapters (serial,
 *    reverse order, two real threads), at lengths whose last chunk is one
 *    element or one row (computed with actk_plan_split), in place and
 *    misaligned; nothing past n is written.
 *  - Routing: every call the planner splits at the pool's slowest dispatch
 *    cost takes the runner's parallel branch (actk_runner_parallel_calls
 *    grows by one), so an entry point that bypasses the runner fails here
 *    even though its results are right; a call on NULL or a 1-thread pool
 *    never does. A small call never reads its pool (the pool pointer is a
 *    PROT_NONE page).
 *  - fork() right after a parallel call, and while another thread is in one:
 *    the child runs calls on the inherited pool, on actk_pool_default() and on
 *    a new pool, and destroys the inherited one.
 *  - create/destroy x1000, thread-creation failures (actk_pool_test_fail_-
 *    thread_creates), the caller's MXCSR (FTZ/DAZ, rounding) seen by the tasks
 *    and left unchanged, nested calls from inside tasks, bad configurations. */
#define _GNU_SOURCE
#include "actk_test.h"
#include "test_os.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#ifndef _WIN32
#include <sys/wait.h>
#endif
#include <unistd.h>

#include "plan.h"
#include "pool.h"
#include "runner.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define TEST_HAVE_MXCSR 1
#endif

#define GUARD 32             /* floats after n that must stay untouched */
#define SENTINEL 0x7fbadbadu /* a NaN no op returns for these inputs */

static unsigned long parallel_calls(void) { return atomic_load(&actk_runner_parallel_calls); }

/* ---- host adapters (the engine's parallel-for) ---- */

enum { HOST_SERIAL, HOST_REVERSE, HOST_THREADED };

typedef struct host {
  int mode;
  atomic_int depth, max_depth;
  atomic_ulong calls;
  atomic_int csr_errors; /* the helper thread's MXCSR changed by a task */
} host;

typedef struct helper_arg {
  void (*fn)(void *, size_t);
  void *data;
  size_t total;
  atomic_size_t *next;
  host *h;
} helper_arg;

static void claim_all(const helper_arg *a) {
  for (;;) {
    size_t i = atomic_fetch_add(a->next, 1);
    if (i >= a->total) return;
    a->fn(a->data, i);
  }
}

#ifdef TEST_HAVE_MXCSR
#define CSR_CONTROL 0xffc0u /* DAZ, exception masks, rounding, FTZ: not the sticky flags */
#endif

static void *helper_main(void *p) {
  helper_arg *a = p;
#ifdef TEST_HAVE_MXCSR
  /* a thread of the engine's own, with the engine's MXCSR (not the caller's,
   * which a new thread would inherit) */
  _mm_setcsr(0x1f80u);
#endif
  claim_all(a);
#ifdef TEST_HAVE_MXCSR
  if ((_mm_getcsr() & CSR_CONTROL) != (0x1f80u & CSR_CONTROL))
    atomic_fetch_add(&a->h->csr_errors, 1);
#endif
  return NULL;
}

static void host_parallel_for(void *hp, void (*fn)(void *data, size_t i), size_t total,
                              size_t num_batch, void *data) {
  (void)num_batch;
  host *h = hp;
  atomic_fetch_add(&h->calls, 1);
  int d = atomic_fetch_add(&h->depth, 1) + 1;
  int m = atomic_load(&h->max_depth);
  while (d > m && !atomic_compare_exchange_weak(&h->max_depth, &m, d)) {
  }
  if (h->mode == HOST_SERIAL) {
    for (size_t i = 0; i < total; i++) fn(data, i);
  } else if (h->mode == HOST_REVERSE) {
    for (size_t i = total; i-- > 0;) fn(data, i);
  } else {
    atomic_size_t next;
    atomic_init(&next, 0);
    helper_arg a = {fn, data, total, &next, h};
    pthread_t t;
    int started = pthread_create(&t, NULL, helper_main, &a) == 0;
    claim_all(&a);
    if (started) pthread_join(t, NULL);
  }
  atomic_fetch_sub(&h->depth, 1);
}

/* ---- pools under test ---- */

typedef struct pool_case {
  char name[32];
  actk_pool *pool;
  unsigned width;
  uint64_t plan_ns; /* the dearest dispatch cost the pool may report */
  host *h;
} pool_case;

enum { N_POOL_CASES = 8 };
static pool_case g_pools[N_POOL_CASES];
static host g_hosts[3];
static uint64_t g_cold_ns; /* an own pool's dispatch cost when its workers sleep */

static void make_pools(void **state) {
  (void)state;
  actk_pool_config cfg;
  /* a pool that never spins reports the sleeping-pool cost, the dearest */
  actk_pool_config_init(&cfg);
  cfg.threads = 2;
  cfg.spin_us = 0;
  actk_pool *cold = NULL;
  assert_int_equal(actk_pool_create(&cfg, &cold), ACTK_OK);
  g_cold_ns = actk_pool_dispatch_cost_ns(cold);
  actk_pool_destroy(cold);

  static const unsigned threads[] = {1, 2, 3, 8};
  size_t k = 0;
  snprintf(g_pools[k].name, sizeof g_pools[k].name, "NULL");
  g_pools[k].width = 1;
  k++;
  for (size_t i = 0; i < 4; i++, k++) {
    actk_pool_config_init(&cfg);
    cfg.threads = threads[i];
    actk_status s = actk_pool_create(&cfg, &g_pools[k].pool);
    test_check(s == ACTK_OK, "actk_pool_create(threads=%u) = %s", threads[i], test_status_name(s));
    snprintf(g_pools[k].name, sizeof g_pools[k].name, "pool(%u)", threads[i]);
    g_pools[k].width = actk_pool_threads(g_pools[k].pool);
    test_check(g_pools[k].width == threads[i], "actk_pool_threads = %u for threads=%u",
               g_pools[k].width, threads[i]);
    g_pools[k].plan_ns = g_cold_ns;
  }
  static const char *host_names[] = {"host(serial)", "host(reverse)", "host(2 threads)"};
  static const unsigned host_threads[] = {4, 4, 3};
  for (int m = 0; m < 3; m++, k++) {
    memset(&g_hosts[m], 0, sizeof g_hosts[m]);
    g_hosts[m].mode = m;
    actk_status s =
        actk_pool_create_host(host_parallel_for, &g_hosts[m], host_threads[m], &g_pools[k].pool);
    test_check(s == ACTK_OK, "actk_pool_create_host = %s", test_status_name(s));
    snprintf(g_pools[k].name, sizeof g_pools[k].name, "%s", host_names[m]);
    g_pools[k].width = actk_pool_threads(g_pools[k].pool);
    test_check(g_pools[k].width == host_threads[m], "host pool: actk_pool_threads = %u, want %u",
               g_pools[k].width, host_threads[m]);
    g_pools[k].plan_ns = actk_pool_dispatch_cost_ns(g_pools[k].pool);
    g_pools[k].h = &g_hosts[m];
  }
  assert_int_equal(k, N_POOL_CASES);
}

/* Under ASan or TSan (Debug, kernels ~100x slower) the bit-identity tests
 * use one own pool and one host adapter of the 8 cases (pool(3), host(2
 * threads)) and the large length only, the nested and MXCSR tests the same
 * two pools (MXCSR: 3 ops, 2 modes), the fork test fewer forks: the races
 * and leaks these builds look for do not need every combination, and the
 * suite must stay fast there. */
static int pool_used(size_t pi) {
  if (!TEST_SMALL) return 1;
  return pi == 3 || pi == 7; /* pool(3), host(2 threads) */
}

/* How many used pool cases have 2+ threads: each must see the large call
 * go parallel. */
static unsigned wide_pools_used(void) {
  unsigned k = 0;
  for (size_t pi = 0; pi < N_POOL_CASES; pi++) k += pool_used(pi) && g_pools[pi].width >= 2;
  return k;
}

/* Would the runner split this call on this pool whatever the dispatch cost
 * it reports? (The plan is monotonic in the cost: test_plan.) */
static int surely_parallel(const pool_case *pc, size_t n, size_t granule, actk_cost cost) {
  if (pc->width < 2 || n < actk_plan_min_parallel(cost)) return 0;
  return actk_plan_split(n, granule, pc->width, cost, pc->plan_ns).n_chunks > 1;
}

/* ---- ops ---- */

typedef enum { K_UNARY, K_SWISH, K_BIAS, K_ROPE } kind;

typedef struct pop {
  char name[56];
  kind k;
  const actk_op_info *info; /* K_UNARY, K_SWISH, K_BIAS: the catalog entry */
  float alpha;
  size_t width;
  actk_rope_style style;
  actk_rope_layout layout;
  actk_cost cost;
} pop;

static pop g_ops[64];
static size_t g_n_ops;
static float *g_bias; /* 4099 values */

/* The catalog's f32 ops: swish with two alphas, the bias ops with several
 * widths; then RoPE in both styles and layouts. */
static void make_ops(void) {
  static const float alphas[] = {0.25f, -3.0f};
  static const size_t widths[] = {1, 3, 7, 4099};
  size_t k = 0;
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (strcmp(e->type_name, "f32") != 0) continue;
    /* the pool knows no op: one op of each other tier stands for the rest
     * (the tiers' kernels are checked on every split by test_bits) */
    if (e->tier != 0 && strcmp(e->name, "gelu") != 0) continue;
    const char *tier = e->tier ? e->tier_name : "";
    size_t reps = e->shape == ACTK_SHAPE_PARAM ? 2 : e->shape == ACTK_SHAPE_BIAS ? 4 : 1;
    for (size_t r = 0; r < reps; r++, k++) {
      if (k + 4 >= sizeof g_ops / sizeof g_ops[0]) abort(); /* room for RoPE's 4 too */
      memset(&g_ops[k], 0, sizeof g_ops[k]);
      g_ops[k].info = e;
      g_ops[k].cost = (actk_cost)e->cost;
      if (e->shape == ACTK_SHAPE_UNARY) {
        g_ops[k].k = K_UNARY;
        snprintf(g_ops[k].name, sizeof g_ops[k].name, "%s%s%s", e->name, *tier ? "/" : "", tier);
      } else if (e->shape == ACTK_SHAPE_PARAM) {
        g_ops[k].k = K_SWISH;
        g_ops[k].alpha = alphas[r];
        snprintf(g_ops[k].name, sizeof g_ops[k].name, "%s(%g)%s%s", e->name, (double)alphas[r],
                 *tier ? "/" : "", tier);
      } else {
        g_ops[k].k = K_BIAS;
        g_ops[k].width = widths[r];
        snprintf(g_ops[k].name, sizeof g_ops[k].name, "%s%s%s/width %zu", e->name, *tier ? "/" : "",
                 tier, widths[r]);
      }
    }
  }
  for (int st = 0; st < 2; st++)
    for (int la = 0; la < 2; la++, k++) {
      memset(&g_ops[k], 0, sizeof g_ops[k]);
      snprintf(g_ops[k].name, sizeof g_ops[k].name, "rope/%s/%s", st ? "interleaved" : "split_half",
               la ? "BHSD" : "BSHD");
      g_ops[k].k = K_ROPE;
      g_ops[k].style = st ? ACTK_ROPE_INTERLEAVED : ACTK_ROPE_SPLIT_HALF;
      g_ops[k].layout = la ? ACTK_ROPE_BHSD : ACTK_ROPE_BSHD;
      g_ops[k].cost = ACTK_COST_CHEAP;
    }
  g_n_ops = k;
}

static size_t granule_of(const pop *op) {
  return op->k == K_BIAS ? op->width : ACTK_VECTOR_GRANULE;
}

static actk_status run_elementwise(const pop *op, actk_pool *pool, const float *x, float *y,
                                   size_t n) {
  if (op->k == K_ROPE) return ACTK_ERR_INVALID_ARGUMENT;
  return actk_op_call(op->info, pool, x, g_bias, op->width, y, n, op->alpha);
}

/* The smallest multiple of granule the planner splits for 2 threads at the
 * given dispatch cost, times 5/4 (rounded to granules): comfortably a
 * parallel call on every pool of this test. */
static size_t large_length(size_t granule, actk_cost cost, uint64_t dispatch_ns) {
  size_t lo = 1, hi = ((size_t)1 << 28) / granule;
  assert_true(actk_plan_split(hi * granule, granule, 2, cost, dispatch_ns).n_chunks > 1);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (actk_plan_split(mid * granule, granule, 2, cost, dispatch_ns).n_chunks > 1)
      hi = mid;
    else
      lo = mid + 1;
  }
  size_t n = (lo + lo / 4 + 1) * granule;
  if (n < actk_plan_min_parallel(cost)) n = (actk_plan_min_parallel(cost) / granule + 1) * granule;
  return n;
}

static uint64_t max_plan_ns(void) {
  uint64_t m = 0;
  for (size_t i = 0; i < N_POOL_CASES; i++)
    if (g_pools[i].plan_ns > m) m = g_pools[i].plan_ns;
  return m;
}

/* ---- element-wise ops: bits, routing, bounds ---- */

typedef struct lengths {
  size_t v[16];
  size_t n;
} lengths;

static void add_length(lengths *L, size_t n) {
  for (size_t i = 0; i < L->n; i++)
    if (L->v[i] == n) return;
  if (L->n < 16) L->v[L->n++] = n;
}

/* The large length, and lengths whose last chunk (as the planner cuts them
 * for 2, 3 and 8 threads) is a single element or a single row, and one with
 * a partial vector at the end. */
static lengths op_lengths(const pop *op) {
  const size_t g = granule_of(op);
  /* lengths of bias ops are whole rows even if the planner misbehaves */
#define add_length(L, n) add_length(L, op->k == K_BIAS ? ((n) + g - 1) / g * g : (n))
  const size_t nl = large_length(g, op->cost, max_plan_ns());
  lengths L = {{0}, 0};
  add_length(&L, nl);
  static const unsigned widths[] = {2, 3, 8};
  for (size_t i = 0; i < 3; i++) {
    if (TEST_SMALL) break;
    actk_plan p = actk_plan_split(nl, g, widths[i], op->cost, g_cold_ns);
    if (p.n_chunks < 2) continue;
    add_length(&L, (p.n_chunks - 1) * p.chunk + (op->k == K_BIAS ? op->width : 1));
    if (!TEST_SMALL) add_length(&L, p.n_chunks * p.chunk);
  }
  if (op->k != K_BIAS && !TEST_SMALL) add_length(&L, nl + 17);
#undef add_length
  return L;
}

static float *g_x; /* inputs: every regime, specials first */
static size_t g_x_len;

static void check_bits(const pop *op, const pool_case *pc, const char *how, const float *ref,
                       const float *y, size_t n, size_t guard) {
  for (size_t i = 0; i < n; i++)
    if (f2u(load_f(y, i)) != f2u(ref[i])) {
      test_fail("%s on %s, n=%zu%s: element %zu: x=%a (0x%08x): got 0x%08x, pool NULL gave "
                "0x%08x",
                op->name, pc->name, n, how, i, (double)g_x[i], f2u(g_x[i]), f2u(load_f(y, i)),
                f2u(ref[i]));
    }
  for (size_t i = n; i < n + guard; i++)
    test_check(f2u(load_f(y, i)) == SENTINEL, "%s on %s, n=%zu%s: wrote past the end (index %zu)",
               op->name, pc->name, n, how, i);
}

static void test_elementwise(void **state) {
  const pop *op = *state;
  test_watch_faults();
  lengths L = op_lengths(op);
  size_t nmax = 0;
  for (size_t i = 0; i < L.n; i++)
    if (L.v[i] > nmax) nmax = L.v[i];
  const size_t g = granule_of(op);
  const size_t shift = op->k == K_BIAS ? op->width : 1; /* misalignment that keeps rows */
  assert_true(nmax + shift <= g_x_len);
  float *ref = malloc((nmax + shift) * sizeof(float));
  float *y = malloc((nmax + shift + GUARD) * sizeof(float));
  assert_non_null(ref);
  assert_non_null(y);
  /* Element i depends on x[i] only (and, for bias ops, on i % width): one
   * serial call gives the expected prefix for every length. */
  assert_int_equal(run_elementwise(op, NULL, g_x, ref, nmax + shift), ACTK_OK);

  unsigned asserted = 0;
  for (size_t pi = 0; pi < N_POOL_CASES; pi++) {
    const pool_case *pc = &g_pools[pi];
    if (!pool_used(pi)) continue;
    for (size_t li = 0; li < L.n; li++) {
      const size_t n = L.v[li];
      for (int variant = 0; variant < 3; variant++) {
        /* 0: out of place; 1: in place; 2: x and y shifted by `shift` floats
         * (misaligned for vectors); variants 1 and 2 on the large length only */
        if (variant && li) continue;
        const char *how = variant == 0 ? "" : variant == 1 ? " in place" : " misaligned";
        const size_t off = variant == 2 ? shift : 0;
        for (size_t i = 0; i < n + GUARD; i++) store_f(y, i, u2f(SENTINEL));
        const float *src = g_x + off;
        float *dst = y;
        if (variant == 1) {
          memcpy(y, g_x, n * sizeof(float));
          src = y;
        } else if (variant == 2) {
          dst = (float *)((char *)y + sizeof(float)); /* misaligned by 4 bytes from y */
          for (size_t i = 0; i < n + GUARD; i++) store_f(dst, i, u2f(SENTINEL));
        }
        snprintf(test_context, sizeof test_context, "%.39s on %.31s, n=%zu%.16s", op->name,
                 pc->name, n, how);
        unsigned long before = parallel_calls();
        actk_status s = run_elementwise(op, pc->pool, src, dst, n);
        unsigned long delta = parallel_calls() - before;
        test_check(s == ACTK_OK, "%s: status %s", test_context, test_status_name(s));
        if (surely_parallel(pc, n, g, op->cost)) {
          test_check(delta == 1,
                     "%s: the call did not take the runner's parallel branch "
                     "(actk_runner_parallel_calls grew by %lu, want 1): the entry point bypasses "
                     "the runner, or the runner does not split what actk_plan_split splits",
                     test_context, delta);
          asserted++;
        }
        if (pc->width < 2)
          test_check(delta == 0, "%s: a 1-thread pool took the parallel branch", test_context);
        if (variant == 2) {
          /* expected: the serial result for x shifted the same way */
          for (size_t i = 0; i < n; i++)
            if (f2u(load_f(dst, i)) != f2u(ref[i + off]))
              test_fail("%s: element %zu: got 0x%08x, pool NULL gave 0x%08x", test_context, i,
                        f2u(load_f(dst, i)), f2u(ref[i + off]));
          for (size_t i = n; i < n + GUARD; i++)
            test_check(f2u(load_f(dst, i)) == SENTINEL, "%s: wrote past the end (index %zu)",
                       test_context, i);
        } else {
          check_bits(op, pc, how, ref, y, n, GUARD);
        }
      }
    }
  }
  /* the large length on every pool of 2+ threads at least */
  test_check(asserted >= wide_pools_used(),
             "%s: only %u calls were predicted parallel: the test lengths are too small", op->name,
             asserted);
  free(ref);
  free(y);
}

/* ---- RoPE ---- */

typedef struct rope_setup {
  actk_rope_desc d;
  size_t elements, max_pos;
  float *cos, *sin;
  int64_t *ids;
} rope_setup;

/* B=2, H=7 heads of 64 channels, rotary_dim 48 (16 copied): with 7 heads a
 * chunk of whole rows usually starts mid-token in BSHD. */
static void rope_shape(rope_setup *r, const pop *op, size_t seq) {
  actk_rope_desc_init(&r->d);
  r->d.batch = 2;
  r->d.seq_len = seq;
  r->d.heads = 7;
  r->d.head_size = 64;
  r->d.rotary_dim = 48;
  r->d.layout = op->layout;
  r->d.style = op->style;
  r->d.max_position = r->max_pos;
  r->d.position_start = 5;
  r->elements = r->d.batch * seq * r->d.heads * r->d.head_size;
}

static void test_rope(void **state) {
  const pop *op = *state;
  test_watch_faults();
  rope_setup r;
  memset(&r, 0, sizeof r);
  const size_t D = 64, row_per_seq = 2 * 7;
  /* the large sequence: enough rows for a parallel call everywhere */
  size_t nl = large_length(D, ACTK_COST_CHEAP, max_plan_ns());
  size_t seq_l = nl / D / row_per_seq + 1;
  size_t seqs[3] = {seq_l, seq_l + 1, seq_l + 3};
  const size_t n_seqs = TEST_SMALL ? 1 : 3;
  r.max_pos = seq_l + 16;
  const size_t half = 24;
  r.cos = malloc(r.max_pos * half * sizeof(float));
  r.sin = malloc(r.max_pos * half * sizeof(float));
  assert_non_null(r.cos);
  assert_non_null(r.sin);
  assert_int_equal(actk_rope_cache_f32(r.cos, r.sin, r.max_pos, 48, 10000.0), ACTK_OK);
  rope_shape(&r, op, seqs[n_seqs - 1]);
  const size_t emax = r.elements;
  assert_true(emax <= g_x_len);
  r.ids = malloc(2 * seqs[n_seqs - 1] * sizeof(int64_t));
  assert_non_null(r.ids);
  uint64_t s = 77;
  for (size_t i = 0; i < 2 * seqs[n_seqs - 1]; i++) r.ids[i] = (int64_t)(rng_next(&s) % r.max_pos);
  float *ref = malloc(emax * sizeof(float)), *y = malloc((emax + GUARD) * sizeof(float));
  assert_non_null(ref);
  assert_non_null(y);
  unsigned asserted = 0;
  for (size_t si = 0; si < n_seqs; si++) {
    rope_shape(&r, op, seqs[si]);
    const size_t n = r.elements;
    /* BHSD with position ids, BSHD with position_start */
    const int64_t *ids = op->layout == ACTK_ROPE_BHSD ? r.ids : NULL;
    assert_int_equal(actk_rope_f32(NULL, &r.d, g_x, ids, r.cos, r.sin, ref), ACTK_OK);
    for (size_t pi = 1; pi < N_POOL_CASES; pi++) {
      const pool_case *pc = &g_pools[pi];
      if (!pool_used(pi)) continue;
      for (int in_place = 0; in_place < 2; in_place++) {
        if (in_place && si) continue;
        for (size_t i = 0; i < n + GUARD; i++) y[i] = u2f(SENTINEL);
        const float *src = g_x;
        if (in_place) {
          memcpy(y, g_x, n * sizeof(float));
          src = y;
        }
        snprintf(test_context, sizeof test_context, "%s on %s, seq_len=%zu (%zu elements)%s",
                 op->name, pc->name, seqs[si], n, in_place ? " in place" : "");
        unsigned long before = parallel_calls();
        actk_status st = actk_rope_f32(pc->pool, &r.d, src, ids, r.cos, r.sin, y);
        unsigned long delta = parallel_calls() - before;
        test_check(st == ACTK_OK, "%s: status %s", test_context, test_status_name(st));
        if (surely_parallel(pc, n, D, ACTK_COST_CHEAP)) {
          test_check(delta == 1,
                     "%s: the call did not take the runner's parallel branch (grew by %lu)",
                     test_context, delta);
          asserted++;
        }
        if (pc->width < 2)
          test_check(delta == 0, "%s: a 1-thread pool took the parallel branch", test_context);
        for (size_t i = 0; i < n; i++)
          if (f2u(y[i]) != f2u(ref[i]))
            test_fail("%s: element %zu (row %zu, channel %zu): got 0x%08x, pool NULL gave 0x%08x",
                      test_context, i, i / D, i % D, f2u(y[i]), f2u(ref[i]));
        for (size_t i = n; i < n + GUARD; i++)
          test_check(f2u(y[i]) == SENTINEL, "%s: wrote past the end (index %zu)", test_context, i);
      }
    }
  }
  test_check(asserted >= wide_pools_used(), "%s: only %u calls predicted parallel", op->name,
             asserted);
  free(ref);
  free(y);
  free(r.cos);
  free(r.sin);
  free(r.ids);
}

/* ---- a small call never reads its pool ---- */

static void test_small_call_never_reads_pool(void **state) {
  (void)state;
  test_watch_faults();
  size_t page = test_page_size();
  void *p = test_pages_map(page, 0);
  assert_non_null(p);
  actk_pool *poison = p; /* any read of the pool faults */
  float x[256], y[256];
  for (size_t i = 0; i < 256; i++) x[i] = (float)i / 16.0f - 8.0f;
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (strcmp(e->type_name, "f32") != 0) continue;
    snprintf(test_context, sizeof test_context, "%s, n=256, on an inaccessible pool", e->function);
    assert_int_equal(actk_op_call(e, poison, x, x, 16, y, 256, 0.5f), ACTK_OK);
  }
  test_pages_unmap(p, page);
}

static int same_bits(const float *a, const float *b, size_t n) {
  return memcmp(a, b, n * sizeof(float)) == 0;
}

#ifndef _WIN32
/* ---- fork ---- */

/* What the child checks, and the exit status for each failure. */
enum {
  CHILD_OK = 0,
  CHILD_OLD_STATUS = 10,
  CHILD_OLD_BITS,
  CHILD_OLD_THREADS,
  CHILD_DEFAULT_NULL,
  CHILD_DEFAULT_STATUS,
  CHILD_DEFAULT_BITS,
  CHILD_NEW_CREATE,
  CHILD_NEW_STATUS,
  CHILD_NEW_BITS,
  CHILD_NEW_NOT_PARALLEL,
};

static const char *child_what(int code) {
  switch (code) {
  case CHILD_OLD_STATUS:
    return "a call on the inherited pool failed";
  case CHILD_OLD_BITS:
    return "a call on the inherited pool gave wrong bits";
  case CHILD_OLD_THREADS:
    return "the inherited pool claims threads the child does not have";
  case CHILD_DEFAULT_NULL:
    return "actk_pool_default() returned NULL in the child";
  case CHILD_DEFAULT_STATUS:
    return "a call on the child's default pool failed";
  case CHILD_DEFAULT_BITS:
    return "a call on the child's default pool gave wrong bits";
  case CHILD_NEW_CREATE:
    return "actk_pool_create failed in the child";
  case CHILD_NEW_STATUS:
    return "a call on a new pool in the child failed";
  case CHILD_NEW_BITS:
    return "a call on a new pool in the child gave wrong bits";
  case CHILD_NEW_NOT_PARALLEL:
    return "a large call on a new 2-thread pool in the child did not go parallel";
  }
  return "not one of the test's codes (a sanitizer report in the child?)";
}

/* In the child: no cmocka, only an exit status. */
static int child_checks(actk_pool *old, const float *x, const float *want, float *y, size_t n) {
  if (actk_pool_threads(old) != 1) return CHILD_OLD_THREADS;
  if (actk_gelu_f32(old, x, y, n) != ACTK_OK) return CHILD_OLD_STATUS;
  if (!same_bits(y, want, n)) return CHILD_OLD_BITS;
#ifdef TEST_TSAN
  /* TSan cannot follow a child of a threaded process that starts threads:
   * a new thread can get the pthread_t of one of the parent's threads, which
   * TSan still has on record ("dup thread with used id", exit 66). */
  actk_pool_destroy(old);
  return CHILD_OK;
#endif
  actk_pool *def = actk_pool_default();
  if (!def) return CHILD_DEFAULT_NULL;
  memset(y, 0, n * sizeof(float));
  if (actk_gelu_f32(def, x, y, n) != ACTK_OK) return CHILD_DEFAULT_STATUS;
  if (!same_bits(y, want, n)) return CHILD_DEFAULT_BITS;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = 2;
  actk_pool *fresh = NULL;
  if (actk_pool_create(&cfg, &fresh) != ACTK_OK || actk_pool_threads(fresh) != 2)
    return CHILD_NEW_CREATE;
  memset(y, 0, n * sizeof(float));
  unsigned long before = parallel_calls();
  if (actk_gelu_f32(fresh, x, y, n) != ACTK_OK) return CHILD_NEW_STATUS;
  if (parallel_calls() == before) return CHILD_NEW_NOT_PARALLEL;
  if (!same_bits(y, want, n)) return CHILD_NEW_BITS;
  actk_pool_destroy(fresh);
  actk_pool_destroy(old); /* frees only: its threads are the parent's */
  return CHILD_OK;
}

typedef struct busy_arg {
  actk_pool *pool;
  const float *x, *want;
  float *y;
  size_t n;
  atomic_int stop;
  atomic_int errors;
  atomic_ulong calls;
} busy_arg;

static void *busy_main(void *p) {
  busy_arg *b = p;
  while (!atomic_load(&b->stop)) {
    if (actk_gelu_f32(b->pool, b->x, b->y, b->n) != ACTK_OK || !same_bits(b->y, b->want, b->n))
      atomic_fetch_add(&b->errors, 1);
    atomic_fetch_add(&b->calls, 1);
  }
  return NULL;
}

static void fork_and_check(actk_pool *pool, const float *x, const float *want, float *y, size_t n,
                           const char *when, int iter) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    alarm(30); /* a hang in the child fails the test instead of hanging it */
    _exit(child_checks(pool, x, want, y, n));
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status))
    test_fail("fork %s (#%d): the child died of signal %d%s", when, iter, WTERMSIG(status),
              WTERMSIG(status) == SIGALRM ? " (SIGALRM: it hung for 30 s)" : "");
  test_check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "fork %s (#%d): child exit %d: %s",
             when, iter, WEXITSTATUS(status), child_what(WEXITSTATUS(status)));
}

static void test_fork(void **state) {
  (void)state;
  test_watch_faults();
  const size_t n = large_length(ACTK_VECTOR_GRANULE, ACTK_COST_EXPENSIVE, g_cold_ns);
  assert_true(n <= g_x_len);
  float *want = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *y2 = malloc(n * sizeof(float));
  assert_non_null(want);
  assert_non_null(y);
  assert_non_null(y2);
  assert_int_equal(actk_gelu_f32(NULL, g_x, want, n), ACTK_OK);
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = 3; /* spin 100 us: the workers spin when fork() runs */
  actk_pool *pool = NULL;
  assert_int_equal(actk_pool_create(&cfg, &pool), ACTK_OK);
  const int iters = TEST_SMALL ? 4 : 12;
  /* right after a parallel call, while the workers spin */
  for (int it = 0; it < iters; it++) {
    unsigned long before = parallel_calls();
    assert_int_equal(actk_gelu_f32(pool, g_x, y, n), ACTK_OK);
    assert_true(parallel_calls() == before + 1);
    fork_and_check(pool, g_x, want, y, n, "right after a parallel call", it);
  }
  /* while another thread is inside calls on the same pool (jobs queued,
   * workers in tasks, the pool's lock maybe held) */
  busy_arg b;
  memset(&b, 0, sizeof b);
  b.pool = pool;
  b.x = g_x;
  b.want = want;
  b.y = y2;
  b.n = n;
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, busy_main, &b), 0);
  for (int it = 0; it < iters; it++) {
    while (atomic_load(&b.calls) < (unsigned long)it + 1) sched_yield();
    fork_and_check(pool, g_x, want, y, n, "while another thread runs calls on the pool", it);
  }
  atomic_store(&b.stop, 1);
  pthread_join(t, NULL);
  test_check(atomic_load(&b.errors) == 0, "the busy thread saw %d wrong results",
             atomic_load(&b.errors));
  actk_pool_destroy(pool);
  free(want);
  free(y);
  free(y2);
}
#else
/* Windows has no fork(): a child process is a fresh CreateProcess that loads
 * actk anew, with no pool and no lock inherited (docs/platforms.md). */
static void test_fork(void **state) {
  (void)state;
  print_message("skipped: no fork() on Windows\n");
  skip();
}
#endif

/* ---- create / destroy ---- */

static void test_create_destroy(void **state) {
  (void)state;
  const int iters = TEST_SMALL ? 300 : 1000;
  const size_t n = large_length(ACTK_VECTOR_GRANULE, ACTK_COST_EXPENSIVE, g_cold_ns);
  float *want = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  assert_non_null(want);
  assert_non_null(y);
  assert_int_equal(actk_gelu_tanh_f32(NULL, g_x, want, n), ACTK_OK);
  for (int i = 0; i < iters; i++) {
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.threads = 1 + (unsigned)(i % 4);
    cfg.spin_us = (i / 4) % 2 ? 100 : 0;
    actk_pool *pool = NULL;
    actk_status s = actk_pool_create(&cfg, &pool);
    test_check(s == ACTK_OK, "create #%d (threads %u, spin %u): %s", i, cfg.threads, cfg.spin_us,
               test_status_name(s));
    test_check(actk_pool_threads(pool) == cfg.threads, "create #%d: %u threads, asked for %u", i,
               actk_pool_threads(pool), cfg.threads);
    if (i % 25 == 0) { /* sometimes use it before destroying it */
      memset(y, 0, n * sizeof(float));
      assert_int_equal(actk_gelu_tanh_f32(pool, g_x, y, n), ACTK_OK);
      test_check(same_bits(y, want, n), "create #%d: wrong bits", i);
    }
    actk_pool_destroy(pool); /* often before the workers even started */
  }
  actk_pool_destroy(NULL);
  free(want);
  free(y);
}

/* ---- thread creation failures ---- */

static void use_pool(actk_pool *pool, const char *what) {
  const size_t n = large_length(ACTK_VECTOR_GRANULE, ACTK_COST_MEDIUM, g_cold_ns);
  float *want = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  assert_non_null(want);
  assert_non_null(y);
  assert_int_equal(actk_tanh_f32(NULL, g_x, want, n), ACTK_OK);
  unsigned long before = parallel_calls();
  assert_int_equal(actk_tanh_f32(pool, g_x, y, n), ACTK_OK);
  if (actk_pool_threads(pool) > 1)
    test_check(parallel_calls() == before + 1, "%s: a large call did not go parallel", what);
  test_check(same_bits(y, want, n), "%s: wrong bits", what);
  free(want);
  free(y);
}

static int reset_fail_hook(void **state) {
  (void)state;
  actk_pool_test_fail_thread_creates(0);
  return 0;
}

static void test_thread_create_failures(void **state) {
  (void)state;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  actk_pool *pool = (actk_pool *)&cfg; /* not NULL: the call must set it */

  /* every creation fails: a pool of more than one thread cannot exist */
  cfg.threads = 4;
  actk_pool_test_fail_thread_creates(1000);
  actk_status s = actk_pool_create(&cfg, &pool);
  actk_pool_test_fail_thread_creates(0);
  test_check(s == ACTK_ERR_NO_THREADS,
             "threads=4, every creation failing: %s, want "
             "ACTK_ERR_NO_THREADS",
             test_status_name(s));
  test_check(pool == NULL, "threads=4, every creation failing: *pool not NULL");

  /* a one-thread pool starts no thread, so nothing can fail */
  cfg.threads = 1;
  actk_pool_test_fail_thread_creates(1000);
  s = actk_pool_create(&cfg, &pool);
  actk_pool_test_fail_thread_creates(0);
  test_check(s == ACTK_OK && pool && actk_pool_threads(pool) == 1,
             "threads=1 with creations failing: %s", test_status_name(s));
  use_pool(pool, "threads=1, creations failing");
  actk_pool_destroy(pool);

  /* some fail: fewer threads, same results, destroy joins what started */
  for (unsigned fail = 1; fail <= 3; fail++) {
    char what[64];
    cfg.threads = 4;
    actk_pool_test_fail_thread_creates(fail);
    s = actk_pool_create(&cfg, &pool);
    actk_pool_test_fail_thread_creates(0);
    snprintf(what, sizeof what, "threads=4, %u creation(s) failing", fail);
    if (fail == 3) {
      test_check(s == ACTK_ERR_NO_THREADS && pool == NULL, "%s: %s, want ACTK_ERR_NO_THREADS", what,
                 test_status_name(s));
      continue;
    }
    test_check(s == ACTK_OK, "%s: %s", what, test_status_name(s));
    test_check(actk_pool_threads(pool) == 4 - fail, "%s: actk_pool_threads = %u, want %u", what,
               actk_pool_threads(pool), 4 - fail);
    use_pool(pool, what);
    actk_pool_destroy(pool);
  }

  /* the default thread count (physical cores) with every creation failing */
  cfg.threads = 0;
  actk_pool_test_fail_thread_creates(1000);
  s = actk_pool_create(&cfg, &pool);
  actk_pool_test_fail_thread_creates(0);
  if (s == ACTK_OK) {
    test_check(actk_pool_threads(pool) == 1,
               "threads=0, every creation failing: OK with %u threads", actk_pool_threads(pool));
    actk_pool_destroy(pool);
  } else {
    test_check(s == ACTK_ERR_NO_THREADS && pool == NULL, "threads=0, every creation failing: %s",
               test_status_name(s));
  }

  /* and the hook off again: a full pool */
  cfg.threads = 4;
  assert_int_equal(actk_pool_create(&cfg, &pool), ACTK_OK);
  assert_int_equal(actk_pool_threads(pool), 4);
  actk_pool_destroy(pool);
}

/* ---- MXCSR ---- */

#ifdef TEST_HAVE_MXCSR
/* Inputs whose results are subnormal (sigmoid and swish of -90, gelu of
 * -13.5, tanh and erf of subnormals), subnormal inputs, and ordinary ones. */
static void fill_subnormal_makers(float *x, size_t n) {
  uint64_t s = 0x5eed;
  for (size_t i = 0; i < n; i++) {
    switch (i % 6) {
    case 0:
      x[i] = rng_uniform(&s, -103.0f, -87.0f);
      break;
    case 1:
      x[i] = rng_uniform(&s, -14.2f, -12.8f);
      break;
    case 2:
      x[i] = u2f((rng_u32(&s) & 0x807fffffu) | 1u);
      break;
    case 3:
      x[i] = -90.0f;
      break;
    case 4:
      x[i] = -13.5f;
      break;
    default:
      x[i] = rng_uniform(&s, -6.0f, 6.0f);
    }
  }
}

static void test_mxcsr(void **state) {
  (void)state;
  test_watch_faults();
  size_t n = 0;
  for (size_t i = 0; i < g_n_ops; i++)
    if (g_ops[i].k != K_ROPE) {
      size_t m = large_length(granule_of(&g_ops[i]), g_ops[i].cost, max_plan_ns());
      if (m > n) n = m;
    }
  n = (n / 112 + 1) * 112; /* whole vectors and whole rows of width 7 */
  float *x = malloc(n * sizeof(float)), *def = malloc(n * sizeof(float));
  float *ref = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  assert_non_null(x);
  assert_non_null(def);
  assert_non_null(ref);
  assert_non_null(y);
  fill_subnormal_makers(x, n);
  /* control bits (all exceptions masked as by default) */
  static const unsigned modes[] = {0x9fc0u, 0xffc0u, 0x3f80u};
  static const char *mode_names[] = {"FTZ|DAZ", "FTZ|DAZ|round-to-zero", "round-down"};
  const unsigned saved = _mm_getcsr();
  for (size_t oi = 0; oi < g_n_ops; oi++) {
    const pop *op = &g_ops[oi];
    if (op->k == K_ROPE || (op->k == K_BIAS && op->width != 7)) continue;
    if (TEST_SMALL && strcmp(op->name, "sigmoid") != 0 && strcmp(op->name, "gelu") != 0 &&
        (op->k != K_BIAS || strcmp(op->info->name, "bias_gelu_tanh") != 0))
      continue;
    assert_int_equal(run_elementwise(op, NULL, x, def, n), ACTK_OK);
    for (size_t mi = 0; mi < (TEST_SMALL ? 2u : 3u); mi++) {
      const unsigned csr = (saved & ~CSR_CONTROL) | modes[mi];
      _mm_setcsr(csr);
      actk_status s = run_elementwise(op, NULL, x, ref, n);
      _mm_setcsr(saved);
      assert_int_equal(s, ACTK_OK);
      size_t differ = 0;
      for (size_t i = 0; i < n; i++) differ += f2u(ref[i]) != f2u(def[i]);
      if (oi == 0 || differ)
        print_message("%s under %s: %zu of %zu results differ from the default MXCSR's%s\n",
                      op->name, mode_names[mi], differ, n,
                      differ ? ""
                             : " (this mode cannot show whether tasks get the caller's MXCSR)");
      for (size_t pi = 1; pi < N_POOL_CASES; pi++) {
        const pool_case *pc = &g_pools[pi];
        if (pc->width < 2 || !pool_used(pi)) continue;
        memset(y, 0, n * sizeof(float));
        snprintf(test_context, sizeof test_context, "%.39s on %.31s under %.32s", op->name,
                 pc->name, mode_names[mi]);
        _mm_setcsr(csr);
        unsigned long before = parallel_calls();
        s = run_elementwise(op, pc->pool, x, y, n);
        unsigned long delta = parallel_calls() - before;
        const unsigned after = _mm_getcsr();
        _mm_setcsr(saved);
        test_check(s == ACTK_OK, "%s: %s", test_context, test_status_name(s));
        test_check(delta == 1, "%s: not a parallel call", test_context);
        test_check((after & CSR_CONTROL) == (csr & CSR_CONTROL),
                   "%s: the caller's MXCSR changed: 0x%04x before, 0x%04x after", test_context, csr,
                   after);
        for (size_t i = 0; i < n; i++)
          if (f2u(y[i]) != f2u(ref[i]))
            test_fail("%s: element %zu: x=%a: got 0x%08x (%a), pool NULL under the same MXCSR "
                      "gave 0x%08x (%a)%s",
                      test_context, i, (double)x[i], f2u(y[i]), (double)y[i], f2u(ref[i]),
                      (double)ref[i],
                      f2u(y[i]) == f2u(def[i]) ? ": a task ran with the default MXCSR" : "");
        /* and the next call with the default MXCSR is not left with the
         * previous caller's (workers keep the MXCSR of their last job) */
        memset(y, 0, n * sizeof(float));
        s = run_elementwise(op, pc->pool, x, y, n);
        test_check(s == ACTK_OK, "%s, then default MXCSR: %s", test_context, test_status_name(s));
        for (size_t i = 0; i < n; i++)
          if (f2u(y[i]) != f2u(def[i]))
            test_fail("%s, then a call with the default MXCSR: element %zu: got 0x%08x, want "
                      "0x%08x: a task kept the previous caller's MXCSR",
                      test_context, i, f2u(y[i]), f2u(def[i]));
      }
    }
  }
  for (int m = 0; m < 3; m++)
    test_check(atomic_load(&g_hosts[m].csr_errors) == 0,
               "host %d: a task left the engine thread's MXCSR changed", m);
  free(x);
  free(def);
  free(ref);
  free(y);
}
#endif

/* ---- nested calls ---- */

typedef struct nest_ctx {
  actk_pool *pool;
  const float *x, *want;
  size_t n; /* of the inner call */
  atomic_int errors;
  atomic_int wide; /* inner calls that saw a pool width > 1 */
  atomic_int calls;
} nest_ctx;

/* One chunk of the outer call: a large call on the same pool. */
static void nest_range(void *p, size_t b, size_t e) {
  nest_ctx *c = p;
  (void)b;
  (void)e;
  float *y = malloc(c->n * sizeof(float));
  if (!y) {
    atomic_fetch_add(&c->errors, 1);
    return;
  }
  if (actk_pool_width(c->pool) > 1) atomic_fetch_add(&c->wide, 1);
  if (actk_gelu_f32(c->pool, c->x, y, c->n) != ACTK_OK || !same_bits(y, c->want, c->n))
    atomic_fetch_add(&c->errors, 1);
  atomic_fetch_add(&c->calls, 1);
  free(y);
}

static void test_nested(void **state) {
  (void)state;
  test_watch_faults();
  const size_t n = large_length(ACTK_VECTOR_GRANULE, ACTK_COST_EXPENSIVE, g_cold_ns);
  float *want = malloc(n * sizeof(float));
  assert_non_null(want);
  assert_int_equal(actk_gelu_f32(NULL, g_x, want, n), ACTK_OK);
  for (size_t pi = 1; pi < N_POOL_CASES; pi++) {
    const pool_case *pc = &g_pools[pi];
    if (pc->width < 2 || !pool_used(pi)) continue;
    /* an outer op of the same size, through the runner, whose every chunk
     * makes a large call on the same pool */
    assert_true(surely_parallel(pc, n, ACTK_VECTOR_GRANULE, ACTK_COST_EXPENSIVE));
    nest_ctx c;
    memset(&c, 0, sizeof c);
    c.pool = pc->pool;
    c.x = g_x;
    c.want = want;
    c.n = n;
    if (pc->h) atomic_store(&pc->h->max_depth, 0);
    snprintf(test_context, sizeof test_context, "nested calls on %s", pc->name);
    unsigned long before = parallel_calls();
    actk_run_ranges(pc->pool, ACTK_COST_EXPENSIVE, n, ACTK_VECTOR_GRANULE, nest_range, &c);
    unsigned long delta = parallel_calls() - before;
    test_check(atomic_load(&c.calls) >= 2, "%s: the outer call ran %d chunk(s)", test_context,
               atomic_load(&c.calls));
    test_check(atomic_load(&c.errors) == 0, "%s: %d inner calls failed or gave wrong bits",
               test_context, atomic_load(&c.errors));
    if (pc->h) {
      /* every task runs inside the engine's parallel-for: inner calls run
       * inline, the engine is never re-entered */
      test_check(atomic_load(&c.wide) == 0, "%s: an inner call saw a pool width > 1", test_context);
      test_check(delta == 1, "%s: %lu parallel calls, want 1 (the outer one only)", test_context,
                 delta);
      test_check(atomic_load(&pc->h->max_depth) == 1,
                 "%s: the engine's parallel-for was re-entered (depth %d)", test_context,
                 atomic_load(&pc->h->max_depth));
    } else {
      /* tasks on workers run inline; tasks on the calling thread may fan out
       * again (the caller is not a worker) and must still complete */
      test_check(delta >= 1, "%s: the outer call was not parallel", test_context);
      print_message("%s: %d of %d inner calls ran inline (on a worker)\n", test_context,
                    atomic_load(&c.calls) - atomic_load(&c.wide), atomic_load(&c.calls));
    }
  }
  free(want);
}

/* ---- configuration ---- */

static void test_config(void **state) {
  (void)state;
  actk_pool_config cfg;
  actk_pool *pool = NULL;
  actk_status s;

  assert_int_equal(actk_pool_threads(NULL), 1);
  actk_pool_config_init(NULL); /* no crash */
  actk_pool_config_init(&cfg);
  assert_int_equal(cfg.struct_size, sizeof cfg);
  assert_int_equal(cfg.threads, 0);
  assert_int_equal(cfg.spin_us, 1000);
  assert_int_equal(cfg.spin_backoff_max, 1);
  assert_int_equal(cfg.pin, 0);

  static const size_t small_sizes[] = {0, 1, sizeof cfg - 1, offsetof(actk_pool_config, pin)};
  for (size_t i = 0; i < sizeof small_sizes / sizeof small_sizes[0]; i++) {
    actk_pool_config_init(&cfg);
    cfg.struct_size = small_sizes[i];
    pool = (actk_pool *)&cfg;
    s = actk_pool_create(&cfg, &pool);
    test_check(s == ACTK_ERR_INVALID_ARGUMENT,
               "struct_size %zu: %s, want "
               "ACTK_ERR_INVALID_ARGUMENT",
               small_sizes[i], test_status_name(s));
    test_check(pool == NULL || pool == (actk_pool *)&cfg, "struct_size %zu: *pool set to a pool",
               small_sizes[i]);
  }
  static const unsigned bad_threads[] = {1025, 4096, UINT32_MAX};
  for (size_t i = 0; i < 3; i++) {
    actk_pool_config_init(&cfg);
    cfg.threads = bad_threads[i];
    s = actk_pool_create(&cfg, &pool);
    test_check(s == ACTK_ERR_INVALID_ARGUMENT, "threads %u: %s, want ACTK_ERR_INVALID_ARGUMENT",
               bad_threads[i], test_status_name(s));
  }
  static const int bad_pin[] = {-1, 2};
  for (size_t i = 0; i < 2; i++) {
    actk_pool_config_init(&cfg);
    cfg.pin = bad_pin[i];
    s = actk_pool_create(&cfg, &pool);
    test_check(s == ACTK_ERR_INVALID_ARGUMENT, "pin %d: %s, want ACTK_ERR_INVALID_ARGUMENT",
               bad_pin[i], test_status_name(s));
  }
  actk_pool_config_init(&cfg);
  s = actk_pool_create(&cfg, NULL);
  test_check(s == ACTK_ERR_NULL_POINTER, "NULL out: %s, want ACTK_ERR_NULL_POINTER",
             test_status_name(s));
  s = actk_pool_create(NULL, NULL);
  test_check(s == ACTK_ERR_NULL_POINTER, "NULL config, NULL out: %s", test_status_name(s));

  /* host pools */
  host h;
  memset(&h, 0, sizeof h);
  s = actk_pool_create_host(host_parallel_for, &h, 4, NULL);
  test_check(s == ACTK_ERR_NULL_POINTER, "create_host, NULL out: %s", test_status_name(s));
  s = actk_pool_create_host(NULL, &h, 4, &pool);
  test_check(s == ACTK_ERR_NULL_POINTER, "create_host, NULL parallel_for: %s", test_status_name(s));
  s = actk_pool_create_host(host_parallel_for, &h, 0, &pool);
  test_check(s == ACTK_ERR_INVALID_ARGUMENT, "create_host, 0 threads: %s", test_status_name(s));
  s = actk_pool_create_host(host_parallel_for, &h, 1025, &pool);
  test_check(s == ACTK_ERR_INVALID_ARGUMENT, "create_host, 1025 threads: %s", test_status_name(s));

  /* good ones: NULL config (defaults), a larger struct from a newer header,
   * the upper thread limit, pinning, backoff */
  s = actk_pool_create(NULL, &pool);
  test_check(s == ACTK_OK && pool, "NULL config: %s", test_status_name(s));
  unsigned def_threads = actk_pool_threads(pool);
  long cpus = test_online_cpus();
  test_check(def_threads >= 1 && (long)def_threads <= cpus,
             "default pool size %u (online CPUs: %ld)", def_threads, cpus);
  actk_pool_destroy(pool);
  struct {
    actk_pool_config c;
    char newer_fields[16];
  } big;
  memset(&big, 0, sizeof big);
  actk_pool_config_init(&big.c);
  big.c.struct_size = sizeof big;
  big.c.threads = 2;
  s = actk_pool_create(&big.c, &pool);
  test_check(s == ACTK_OK && actk_pool_threads(pool) == 2, "struct_size %zu (newer header): %s",
             sizeof big, test_status_name(s));
  actk_pool_destroy(pool);
  big.newer_fields[15] = 1; /* a field this library does not know, set */
  s = actk_pool_create(&big.c, &pool);
  test_check(s == ACTK_ERR_INVALID_ARGUMENT,
             "struct_size %zu with an unknown field set: %s, want ACTK_ERR_INVALID_ARGUMENT",
             sizeof big, test_status_name(s));
  actk_pool_config_init(&cfg);
  cfg.threads = 3;
  cfg.pin = 1;
  cfg.spin_backoff_max = 64;
  cfg.spin_us = 1000;
  s = actk_pool_create(&cfg, &pool);
  test_check(s == ACTK_OK && actk_pool_threads(pool) == 3, "pinned, backoff: %s",
             test_status_name(s));
  use_pool(pool, "pinned pool with backoff");
  actk_pool_destroy(pool);

  actk_pool *def = actk_pool_default();
  test_check(def != NULL && def == actk_pool_default(), "actk_pool_default: not one pool");
  test_check(actk_pool_threads(def) >= 1, "default pool: 0 threads");
  use_pool(def, "the default pool");
}

/* ---- main ---- */

int main(void) {
  make_ops();
  const struct CMUnitTest setup_tests[] = {cmocka_unit_test(make_pools)};
  if (cmocka_run_group_tests_name("pool: setup", setup_tests, NULL, NULL)) return 1;
  print_message("dispatch cost of a sleeping pool %llu ns, of a host pool %llu ns\n",
                (unsigned long long)g_cold_ns, (unsigned long long)g_pools[5].plan_ns);
  /* one input array for every test: specials, then every regime; room for
   * the largest length of any op, shifted */
  size_t need = 0;
  for (size_t i = 0; i < g_n_ops; i++) {
    size_t g = g_ops[i].k == K_ROPE ? 64 : granule_of(&g_ops[i]);
    size_t m = large_length(g, g_ops[i].cost, max_plan_ns());
    if (m > need) need = m;
  }
  g_x_len = 2 * need + 4099 * 32;
  g_x = malloc(g_x_len * sizeof(float));
  g_bias = malloc(4099 * sizeof(float));
  if (!g_x || !g_bias) return 1;
  test_fill_inputs(g_x, g_x_len, 0x9001u);
  uint64_t s = 3;
  for (size_t j = 0; j < 4099; j++) g_bias[j] = rng_uniform(&s, -6.0f, 6.0f);

  struct CMUnitTest op_tests[sizeof g_ops / sizeof g_ops[0]];
  for (size_t i = 0; i < g_n_ops; i++) {
    struct CMUnitTest t = {g_ops[i].name, g_ops[i].k == K_ROPE ? test_rope : test_elementwise, NULL,
                           NULL, &g_ops[i]};
    op_tests[i] = t;
  }
  int failed =
      _cmocka_run_group_tests("pool: same bits on every pool", op_tests, g_n_ops, NULL, NULL);
  const struct CMUnitTest pool_tests[] = {
      cmocka_unit_test(test_small_call_never_reads_pool),
      cmocka_unit_test(test_config),
      cmocka_unit_test_teardown(test_thread_create_failures, reset_fail_hook),
      cmocka_unit_test(test_nested),
#ifdef TEST_HAVE_MXCSR
      cmocka_unit_test(test_mxcsr),
#endif
      cmocka_unit_test(test_create_destroy),
      cmocka_unit_test(test_fork),
  };
  failed += cmocka_run_group_tests_name("pool: behaviour", pool_tests, NULL, NULL);
  for (size_t i = 1; i < N_POOL_CASES; i++) actk_pool_destroy(g_pools[i].pool);
  free(g_x);
  free(g_bias);
  return failed != 0;
}
