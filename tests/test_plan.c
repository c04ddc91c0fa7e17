/* The split planner (src/plan.c) on its own: a pure function, so it is swept
 * over thread counts, lengths and dispatch costs this machine cannot produce.
 *
 * For every (n, granule, workers, cost class, dispatch_ns) the plan must:
 *  - cover [0, n) exactly once: chunk * n_chunks >= n and
 *    (n_chunks - 1) * chunk < n (the runner's chunk i is [i*chunk, ...) clipped
 *    to n, so no chunk is empty and none is missing);
 *  - cut whole granules: chunk % granule == 0, except the one-chunk plan whose
 *    chunk is n itself;
 *  - stay serial (one chunk, one thread) below actk_plan_min_parallel(cost)
 *    for any dispatch cost at least the cheapest one the planner assumes;
 *  - use 1 <= threads <= workers and threads <= n_chunks, more than one thread
 *    exactly when there is more than one chunk, one chunk for <= 1 worker;
 *  - never make more chunks than there are granules;
 *  - be monotonic: a dearer dispatch never gives more threads, more workers
 *    never give fewer.
 * A chunk of one element too few or too many (per_chunk +- 1) breaks the
 * granule rule or the cover; the test was run against both. */
#include "actk_test.h"

#include "plan.h"

/* The cheapest dispatch the planner models (ACTK_MIN_DISPATCH_NS in plan.c):
 * actk_plan_min_parallel() promises serial plans below it only for dispatch
 * costs at least this large. The runner never plans with less (it asks the
 * pool, whose cheapest answer is a spinning worker). */
#define PLAN_MIN_DISPATCH_NS 2000u

static const unsigned workers_list[] = {0,  1,  2,  3,  4,   5,   7,    8,
                                        15, 16, 31, 64, 127, 256, 1000, 4096};
static const size_t granules[] = {1, 3, 7, 16, 4099};
static const uint64_t dispatches[] = {0, 300, 2000, 50000, 10000000}; /* ascending */
static const actk_cost costs[] = {ACTK_COST_CHEAP, ACTK_COST_LIGHT, ACTK_COST_MEDIUM,
                                  ACTK_COST_EXPENSIVE};
#define N_WORKERS (sizeof workers_list / sizeof workers_list[0])
#define N_GRANULES (sizeof granules / sizeof granules[0])
#define N_DISPATCHES (sizeof dispatches / sizeof dispatches[0])
#define N_COSTS (sizeof costs / sizeof costs[0])

static const char *cost_name(actk_cost c) {
  switch (c) {
  case ACTK_COST_CHEAP:
    return "cheap";
  case ACTK_COST_LIGHT:
    return "light";
  case ACTK_COST_MEDIUM:
    return "medium";
  case ACTK_COST_EXPENSIVE:
    return "expensive";
  }
  return "?";
}

/* ---- the lengths ---- */

typedef struct {
  size_t *v;
  size_t n, cap;
} len_set;

static void add_len(len_set *s, size_t n) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 1024;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    assert_non_null(s->v);
  }
  s->v[s->n++] = n;
}

static void add_near(len_set *s, size_t n, size_t radius) {
  for (size_t d = 0; d <= radius; d++) {
    add_len(s, n + d);
    if (n >= d) add_len(s, n - d);
  }
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

static void sort_unique(len_set *s) {
  qsort(s->v, s->n, sizeof *s->v, cmp_size);
  size_t k = 0;
  for (size_t i = 0; i < s->n; i++)
    if (k == 0 || s->v[k - 1] != s->v[i]) s->v[k++] = s->v[i];
  s->n = k;
}

/* Lengths for one granule: dense from 0, around granule multiples, around
 * every cost class's min_parallel, around the lengths where the work crosses
 * the dispatch thresholds (k dispatches' worth for small k, at the planner's
 * own per-element costs probed below), around powers of two up to 2^23, log-
 * uniform random ones, and a few huge ones (only the structure is checked
 * there: nobody has that much memory, but the arithmetic must not wrap into a
 * bad cover). */
static void build_lengths(len_set *s, size_t g, uint64_t *seed) {
  for (size_t n = 0; n <= 300; n++) add_len(s, n);
  for (size_t k = 1; k <= 64; k++) add_near(s, k * g, 2);
  for (size_t k = 1; k <= 1u << 20; k *= 2) add_near(s, k * g, 1);
  for (size_t c = 0; c < N_COSTS; c++) {
    size_t m = actk_plan_min_parallel(costs[c]);
    add_near(s, m, 3);
    for (size_t k = 2; k <= 8; k++) add_near(s, m * k, 1);
    /* where the planner goes from t to t+1 threads: w / (2 d) = t, i.e.
     * n = t * 2 d / (w per item); m / 4 / 2000 ns is n per ns of work */
    for (size_t d = 0; d < N_DISPATCHES; d++)
      for (uint64_t t = 1; t <= 64; t *= 2) {
        long double items_per_ns = (long double)m / (4.0L * PLAN_MIN_DISPATCH_NS);
        long double n = (long double)t * 2.0L * (long double)dispatches[d] * items_per_ns;
        if (n < 1e12L) add_near(s, (size_t)n, 2);
      }
  }
  for (int b = 1; b <= 23; b++) add_near(s, (size_t)1 << b, 2);
  for (int i = 0; i < 600; i++) {
    int bits = 1 + (int)(rng_u32(seed) % 23u);
    add_len(s, (size_t)(rng_next(seed) & (((uint64_t)1 << bits) - 1)));
  }
  add_len(s, (size_t)1 << 32);
  add_len(s, ((size_t)1 << 40) + 5);
  add_len(s, (size_t)1 << 45);
  add_len(s, SIZE_MAX / sizeof(float)); /* the largest length the API accepts */
  sort_unique(s);
}

/* ---- the invariants ---- */

typedef struct {
  size_t n, g;
  unsigned w;
  actk_cost cost;
  uint64_t d;
} plan_in;

#define PLAN_FMT                                                                                   \
  "n=%zu granule=%zu workers=%u cost=%s dispatch_ns=%llu -> chunk=%zu n_chunks=%zu threads=%u"
#define PLAN_ARGS(in, p)                                                                           \
  (in).n, (in).g, (in).w, cost_name((in).cost), (unsigned long long)(in).d, (p).chunk,             \
      (p).n_chunks, (p).threads

static unsigned long long g_plans, g_parallel;

static actk_plan check_plan(plan_in in) {
  actk_plan p = actk_plan_split(in.n, in.g, in.w, in.cost, in.d);
  g_plans++;
  const size_t n = in.n, g = in.g;
  test_check(p.n_chunks >= 1, "no chunk at all: " PLAN_FMT, PLAN_ARGS(in, p));
  if (n == 0) {
    test_check(p.n_chunks == 1 && p.threads == 1, "n = 0 must be one empty serial chunk: " PLAN_FMT,
               PLAN_ARGS(in, p));
    return p;
  }
  /* the cover, without overflow: for n >= 1, chunk * n_chunks >= n and
   * (n_chunks - 1) * chunk < n together say n_chunks == (n - 1) / chunk + 1 */
  test_check(p.chunk > 0, "empty chunk: " PLAN_FMT, PLAN_ARGS(in, p));
  const size_t need = (n - 1) / p.chunk + 1;
  test_check(p.n_chunks >= need, "chunks do not reach n (elements left out): " PLAN_FMT,
             PLAN_ARGS(in, p));
  test_check(p.n_chunks <= need, "chunks past the end (empty chunks): " PLAN_FMT, PLAN_ARGS(in, p));
  if (p.n_chunks == 1) {
    test_check(p.chunk == n, "the one chunk must be all of n: " PLAN_FMT, PLAN_ARGS(in, p));
    test_check(p.threads == 1, "one chunk on more than one thread: " PLAN_FMT, PLAN_ARGS(in, p));
  } else {
    g_parallel++;
    test_check(p.chunk % g == 0,
               "chunk is not whole granules (a cut mid-vector or mid-row): " PLAN_FMT,
               PLAN_ARGS(in, p));
    test_check(p.threads >= 2, "several chunks but one thread: " PLAN_FMT, PLAN_ARGS(in, p));
  }
  const size_t units = n / g + (n % g != 0);
  test_check(p.n_chunks <= units, "more chunks than granules (%zu): " PLAN_FMT, units,
             PLAN_ARGS(in, p));
  test_check(p.threads >= 1, "no thread: " PLAN_FMT, PLAN_ARGS(in, p));
  test_check(p.threads <= (in.w ? in.w : 1), "more threads than workers: " PLAN_FMT,
             PLAN_ARGS(in, p));
  test_check(p.threads <= p.n_chunks, "more threads than chunks: " PLAN_FMT, PLAN_ARGS(in, p));
  if (in.w <= 1)
    test_check(p.n_chunks == 1, "split for a single worker: " PLAN_FMT, PLAN_ARGS(in, p));
  if (n < actk_plan_min_parallel(in.cost) && in.d >= PLAN_MIN_DISPATCH_NS)
    test_check(p.n_chunks == 1, "split below actk_plan_min_parallel(%s) = %zu: " PLAN_FMT,
               cost_name(in.cost), actk_plan_min_parallel(in.cost), PLAN_ARGS(in, p));
  /* pure: the same answer twice */
  actk_plan q = actk_plan_split(in.n, in.g, in.w, in.cost, in.d);
  test_check(q.chunk == p.chunk && q.n_chunks == p.n_chunks && q.threads == p.threads,
             "not a pure function: " PLAN_FMT, PLAN_ARGS(in, p));
  return p;
}

static void test_min_parallel(void **state) {
  (void)state;
  /* dearer ops go parallel sooner; every threshold is a real length */
  size_t prev = SIZE_MAX;
  for (size_t c = 0; c < N_COSTS; c++) {
    size_t m = actk_plan_min_parallel(costs[c]);
    print_message("min_parallel(%s) = %zu\n", cost_name(costs[c]), m);
    test_check(m > 16 && m < ((size_t)1 << 26), "min_parallel(%s) = %zu is implausible",
               cost_name(costs[c]), m);
    test_check(m <= prev, "min_parallel(%s) = %zu above the cheaper class's %zu",
               cost_name(costs[c]), m, prev);
    prev = m;
  }
}

/* The full sweep: invariants of every plan, then monotonicity in the dispatch
 * cost (per n, granule, workers, cost) and in the worker count (per n,
 * granule, cost, dispatch). */
static void test_split_sweep(void **state) {
  (void)state;
  uint64_t seed = 0x91a4u;
  g_plans = g_parallel = 0;
  unsigned long long lengths = 0;
  for (size_t gi = 0; gi < N_GRANULES; gi++) {
    const size_t g = granules[gi];
    len_set s = {0};
    build_lengths(&s, g, &seed);
    lengths += s.n;
    for (size_t li = 0; li < s.n; li++)
      for (size_t c = 0; c < N_COSTS; c++) {
        unsigned prev_threads_by_w[N_DISPATCHES] = {0};
        for (size_t wi = 0; wi < N_WORKERS; wi++) {
          unsigned prev_threads = UINT32_MAX;
          for (size_t di = 0; di < N_DISPATCHES; di++) {
            plan_in in = {s.v[li], g, workers_list[wi], costs[c], dispatches[di]};
            actk_plan p = check_plan(in);
            test_check(p.threads <= prev_threads,
                       "a dearer dispatch gave more threads (%u with dispatch_ns=%llu): " PLAN_FMT,
                       prev_threads, (unsigned long long)dispatches[di - 1], PLAN_ARGS(in, p));
            test_check(p.threads >= prev_threads_by_w[di],
                       "more workers gave fewer threads (%u with workers=%u): " PLAN_FMT,
                       prev_threads_by_w[di], wi ? workers_list[wi - 1] : 0, PLAN_ARGS(in, p));
            prev_threads = p.threads;
            prev_threads_by_w[di] = p.threads;
          }
        }
      }
    free(s.v);
  }
  print_message("%llu plans over %llu lengths, %llu of them parallel\n", g_plans, lengths,
                g_parallel);
  /* the sweep must reach the interesting part */
  test_check(g_parallel > g_plans / 10, "only %llu of %llu plans parallel: the sweep misses them",
             g_parallel, g_plans);
}

/* Shapes the runner relies on, spelled out: a large call on many workers is
 * split into several chunks per thread; a large call on two workers goes
 * parallel at every realistic dispatch cost; granule 0 (no rows) is serial. */
static void test_split_examples(void **state) {
  (void)state;
  for (size_t c = 0; c < N_COSTS; c++) {
    size_t big = 64 * actk_plan_min_parallel(costs[c]);
    actk_plan p = check_plan((plan_in){big, 16, 16, costs[c], 2000});
    test_check(p.threads == 16 && p.n_chunks >= 2 * 16,
               "a large call on 16 spinning workers: " PLAN_FMT,
               PLAN_ARGS(((plan_in){big, 16, 16, costs[c], 2000}), p));
    p = check_plan((plan_in){big, 16, 2, costs[c], 50000});
    test_check(p.threads == 2, "a large call on 2 sleeping workers: " PLAN_FMT,
               PLAN_ARGS(((plan_in){big, 16, 2, costs[c], 50000}), p));
    p = actk_plan_split(big, 0, 8, costs[c], 2000);
    test_check(p.n_chunks == 1 && p.chunk == big && p.threads == 1,
               "granule 0 must run serially: chunk=%zu n_chunks=%zu threads=%u", p.chunk,
               p.n_chunks, p.threads);
  }
}

/* The catalog's cost_name spells the class its cost is (tools, benchmarks
 * and the docs print the name). Caught: the fast tier's entries named their
 * op's class ("MEDIUM") while their cost was ACTK_COST_LIGHT. */
static void test_catalog_cost_names(void **state) {
  (void)state;
  static const struct {
    int cost;
    const char *name;
  } names[] = {{ACTK_COST_CHEAP, "CHEAP"},
               {ACTK_COST_MEDIUM, "MEDIUM"},
               {ACTK_COST_EXPENSIVE, "EXPENSIVE"},
               {ACTK_COST_LIGHT, "LIGHT"}};
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    const char *want = NULL;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
      if (names[k].cost == e->cost) want = names[k].name;
    test_check(want && !strcmp(e->cost_name, want), "%s: .cost %d is %s, .cost_name says %s",
               e->function, e->cost, want ? want : "(no class)", e->cost_name);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_catalog_cost_names),
      cmocka_unit_test(test_min_parallel),
      cmocka_unit_test(test_split_examples),
      cmocka_unit_test(test_split_sweep),
  };
  return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
