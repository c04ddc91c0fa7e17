/* RoPE (actk_rope_f32, actk_rope_cache_f32), ONNX Runtime com.microsoft
 * RotaryEmbedding semantics:
 *   - every ISA against a double-precision reference computed from the same
 *     float caches, both styles, both layouts, full and partial rotary,
 *     explicit positions and start + s: |y - ref| <= 2^-23 (|a c| + |b s|)
 *     (one fma per output over one rounded product) and channels past
 *     rotary_dim exactly x's;
 *   - bit identity across ISAs, across pools (NULL, 1, 2, 3, 8 threads) on
 *     sizes that go parallel, and in place == out of place;
 *   - the split is a partition: every element of y written, nothing around y,
 *     every row rotated once (in place, twice would show), for many shapes on
 *     real pools and on host pools of many widths whose parallel-for runs the
 *     chunks out of order; the planner cuts whole rows;
 *   - nothing read or written past any end: caches, positions, x and y end at
 *     (or start right after) a PROT_NONE page, on every ISA;
 *   - bad arguments: the named status and nothing written; empty shapes are
 *     ACTK_OK and touch nothing;
 *   - the caches are (float) of cos / sin (p theta^(-2j/rd)) in double;
 *   - `test_rope specials`: NaN, inf, subnormals in x and in the caches give
 *     every ISA the scalar ISA's bits (a ctest entry of its own, disabled
 *     while the scalar ISA flips the sign of a NaN from b: see
 *     tests/CMakeLists.txt). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (glibc hides it under strict POSIX 2008) */
#include "actk_test.h"
#include "test_os.h"

#include "plan.h"   /* src/: actk_plan_split, the split as a pure function */
#include "runner.h" /* src/: actk_runner_parallel_calls */

#define CANARY_BITS 0x7fa5a5a5u /* a NaN: the kernels make none from finite inputs */

/* ---- common helpers ---- */

typedef struct shape {
  size_t B, S, H, D;
} shape;

static size_t shape_elems(const actk_rope_desc *d) {
  return d->batch * d->seq_len * d->heads * d->head_size;
}

static void desc_make(actk_rope_desc *d, shape sh, size_t rd, actk_rope_layout layout,
                      actk_rope_style style, size_t max_position, int64_t start) {
  actk_rope_desc_init(d);
  d->batch = sh.B;
  d->seq_len = sh.S;
  d->heads = sh.H;
  d->head_size = sh.D;
  d->rotary_dim = rd;
  d->layout = layout;
  d->style = style;
  d->max_position = max_position;
  d->position_start = start;
}

static size_t desc_rd(const actk_rope_desc *d) {
  return d->rotary_dim ? d->rotary_dim : d->head_size;
}

/* "BSHD/split/rd=64/D=128/ids" */
static void desc_name(char *buf, size_t len, const actk_rope_desc *d, const int64_t *ids) {
  char pos[48];
  if (ids)
    snprintf(pos, sizeof pos, "ids");
  else
    snprintf(pos, sizeof pos, "start=%lld", (long long)d->position_start);
  snprintf(buf, len, "(%zu,%zu,%zu,%zu) %s/%s/rd=%zu/max_position=%zu/%s", d->batch, d->seq_len,
           d->heads, d->head_size, d->layout == ACTK_ROPE_BSHD ? "BSHD" : "BHSD",
           d->style == ACTK_ROPE_SPLIT_HALF ? "split" : "interleaved", d->rotary_dim,
           d->max_position, pos);
}

/* Offset of row (b, s, h) in x and y. */
static size_t row_base(const actk_rope_desc *d, size_t b, size_t s, size_t h) {
  if (d->layout == ACTK_ROPE_BSHD) return ((b * d->seq_len + s) * d->heads + h) * d->head_size;
  return ((b * d->heads + h) * d->seq_len + s) * d->head_size;
}

/* Values of every magnitude from 2^-16 to 2^16, both signs: a pair often
 * mixes magnitudes, so the relative bound is checked where it is tight. */
static void fill_x(float *x, size_t n, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    x[i] = ldexpf(rng_uniform(&s, -1.0f, 1.0f), (int)(rng_u32(&s) % 33u) - 16);
}

/* Positions in [1, max_position) with the first at 1 and the last at
 * max_position - 1 (position 0 rotates by nothing: a row rotated twice
 * there would not show). */
static void fill_ids(int64_t *ids, size_t n, size_t max_position, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++) ids[i] = 1 + (int64_t)(rng_next(&s) % (max_position - 1));
  if (n) ids[0] = 1;
  if (n > 1) ids[n - 1] = (int64_t)max_position - 1;
}

typedef struct caches {
  float *c, *s;
  size_t max_position, rd;
} caches;

static void caches_make(caches *k, size_t max_position, size_t rd) {
  size_t half = rd / 2, n = max_position * half;
  k->c = malloc((n ? n : 1) * sizeof(float));
  k->s = malloc((n ? n : 1) * sizeof(float));
  assert_non_null(k->c);
  assert_non_null(k->s);
  k->max_position = max_position;
  k->rd = rd;
  assert_int_equal(actk_rope_cache_f32(k->c, k->s, max_position, rd, 10000.0), ACTK_OK);
}

static void caches_free(caches *k) {
  free(k->c);
  free(k->s);
}

static float *alloc_f(size_t n) {
  float *p = malloc((n ? n : 1) * sizeof(float));
  assert_non_null(p);
  return p;
}

/* ---- ISAs ---- */

static actk_isa g_saved_isa;

static int save_isa(void **state) {
  (void)state;
  g_saved_isa = actk_isa_active();
  return 0;
}

static int restore_isa(void **state) {
  (void)state;
  actk_isa_force(g_saved_isa);
  return 0;
}

/* Forces ISA isa; 0 (and a visible message) if this machine cannot run it. */
static int use_isa(actk_isa isa) {
  if (!actk_isa_supported(isa)) {
    print_message("isa %s not supported here: skipped\n", actk_isa_name(isa));
    return 0;
  }
  actk_status st = actk_isa_force(isa);
  test_check(st == ACTK_OK, "actk_isa_force(%s) = %s", actk_isa_name(isa), test_status_name(st));
  test_check(actk_isa_active() == isa, "actk_isa_force(%s) did not take", actk_isa_name(isa));
  return 1;
}

/* ---- pools ---- */

#define N_POOLS 5
static const unsigned pool_threads[N_POOLS] = {0, 1, 2, 3, 8}; /* 0: NULL */
static actk_pool *g_pools[N_POOLS];

static int pools_setup(void **state) {
  (void)state;
  for (size_t i = 0; i < N_POOLS; i++) {
    g_pools[i] = NULL;
    if (!pool_threads[i]) continue;
    actk_pool_config cfg;
    actk_pool_config_init(&cfg);
    cfg.threads = pool_threads[i];
    cfg.spin_us = 50; /* the machine may be shared: spin briefly */
    /* pinned pools plan a sleeping pool's wake at its measured cost (an
     * unpinned one plans conservatively), so the 4 Mi shape splits even when
     * the workers sleep; bits and partition do not depend on it */
    cfg.pin = 1;
    if (actk_pool_create(&cfg, &g_pools[i]) != ACTK_OK) return -1;
    if (actk_pool_threads(g_pools[i]) != pool_threads[i]) return -1;
  }
  return 0;
}

static int pools_teardown(void **state) {
  (void)state;
  for (size_t i = 0; i < N_POOLS; i++) actk_pool_destroy(g_pools[i]);
  return 0;
}

/* An engine's parallel-for run on the calling thread, out of order: odd
 * indices from the top, then even ones from the bottom. */
typedef struct host_rec {
  size_t calls, max_total;
} host_rec;

static void host_parallel_for(void *host, void (*fn)(void *, size_t), size_t total,
                              size_t num_batch, void *data) {
  host_rec *h = host;
  (void)num_batch;
  h->calls++;
  if (total > h->max_total) h->max_total = total;
  for (size_t i = total; i-- > 0;)
    if (i & 1) fn(data, i);
  for (size_t i = 0; i < total; i += 2) fn(data, i);
}

/* ---- 1. against the double reference ---- */

/* Checks y against the reference computed in double from x and the same
 * float caches; returns the number of bad elements (the first few printed). */
static size_t check_reference(const char *what, const actk_rope_desc *d, const float *x,
                              const int64_t *ids, const float *cc, const float *sc,
                              const float *y) {
  const size_t rd = desc_rd(d), half = rd / 2, D = d->head_size;
  const int inter = d->style == ACTK_ROPE_INTERLEAVED;
  size_t bad = 0;
  for (size_t b = 0; b < d->batch; b++)
    for (size_t s = 0; s < d->seq_len; s++) {
      int64_t pos = ids ? ids[b * d->seq_len + s] : d->position_start + (int64_t)s;
      const float *c = cc + (size_t)pos * half, *sn = sc + (size_t)pos * half;
      for (size_t h = 0; h < d->heads; h++) {
        const size_t base = row_base(d, b, s, h);
        for (size_t j = 0; j < half; j++) {
          size_t ia = inter ? 2 * j : j, ib = inter ? 2 * j + 1 : j + half;
          double a = x[base + ia], bb = x[base + ib], cj = c[j], sj = sn[j];
          /* products of floats are exact in double */
          const double ref[2] = {a * cj - bb * sj, bb * cj + a * sj};
          const double tol[2] = {0x1p-23 * (fabs(a * cj) + fabs(bb * sj)) + 0x1p-140,
                                 0x1p-23 * (fabs(bb * cj) + fabs(a * sj)) + 0x1p-140};
          const size_t idx[2] = {ia, ib};
          for (int k = 0; k < 2; k++) {
            double got = y[base + idx[k]];
            if (fabs(got - ref[k]) <= tol[k]) continue;
            if (bad++ < 5)
              print_error("%s: (b=%zu s=%zu h=%zu) pos=%lld channel %zu: got %a, reference %a, "
                          "bound %a (a=%a b=%a c=%a s=%a)\n",
                          what, b, s, h, (long long)pos, idx[k], got, ref[k], tol[k], a, bb, cj,
                          sj);
          }
        }
        for (size_t ch = rd; ch < D; ch++)
          if (f2u(y[base + ch]) != f2u(x[base + ch]) && bad++ < 5)
            print_error("%s: (b=%zu s=%zu h=%zu) channel %zu past rotary_dim: 0x%08x, x 0x%08x\n",
                        what, b, s, h, ch, f2u(y[base + ch]), f2u(x[base + ch]));
      }
    }
  return bad;
}

typedef struct ref_shape {
  shape sh;
  size_t extra_rd; /* a rotary_dim to try besides D, 2, D - 2, D / 2; 0: none */
} ref_shape;

static const ref_shape ref_shapes[] = {
    {{1, 130, 32, 128}, 0}, {{2, 66, 17, 64}, 0}, {{3, 5, 7, 10}, 0},   {{1, 1, 1, 2}, 0},
    {{2, 3, 4, 96}, 64},    {{1, 1, 32, 128}, 0}, {{8, 1, 32, 128}, 0}, {{32, 1, 32, 128}, 0},
    {{5, 3, 3, 34}, 0}, /* half = 17: a vector and a tail on every ISA */
};
#define N_REF_SHAPES (sizeof ref_shapes / sizeof ref_shapes[0])
#define REF_MAX_POSITION 3000

static void test_matches_reference(void **state) {
  (void)state;
  const int n_isa = test_n_isa();
  for (size_t si = 0; si < N_REF_SHAPES; si++) {
    const shape sh = ref_shapes[si].sh;
    const size_t n = sh.B * sh.S * sh.H * sh.D, tokens = sh.B * sh.S;
    float *x = alloc_f(n), *y = alloc_f(n);
    int64_t *ids = malloc(tokens * sizeof(int64_t));
    assert_non_null(ids);
    fill_x(x, n, 0x4011 + si);
    fill_ids(ids, tokens, REF_MAX_POSITION, 0x1d5 + si);
    /* rotary_dim: 0 (= D), D, 2, D - 2, D / 2, and the shape's extra one */
    size_t rds[6], n_rd = 0;
    const size_t cand[6] = {0, sh.D, 2, sh.D - 2, sh.D / 2, ref_shapes[si].extra_rd};
    for (size_t k = 0; k < 6; k++) {
      size_t r = cand[k];
      if (k > 0 && (r < 2 || r % 2 || r > sh.D)) continue;
      int dup = 0;
      for (size_t q = 0; q < n_rd; q++) dup |= rds[q] == r;
      if (!dup) rds[n_rd++] = r;
    }
    for (size_t ri = 0; ri < n_rd; ri++) {
      caches k;
      caches_make(&k, REF_MAX_POSITION, rds[ri] ? rds[ri] : sh.D);
      for (int layout = 0; layout < 2; layout++)
        for (int style = 0; style < 2; style++)
          for (int explicit_ids = 0; explicit_ids < 2; explicit_ids++) {
            /* implicit: decode steps end at the last cache row, prefill starts at 17 */
            int64_t start = sh.S == 1 ? REF_MAX_POSITION - 1 : 17;
            actk_rope_desc d;
            desc_make(&d, sh, rds[ri], (actk_rope_layout)layout, (actk_rope_style)style,
                      REF_MAX_POSITION, start);
            const int64_t *pid = explicit_ids ? ids : NULL;
            for (int isa = 0; isa < n_isa; isa++) {
              if (!use_isa((actk_isa)isa)) continue;
              char what[200], dn[160];
              desc_name(dn, sizeof dn, &d, pid);
              snprintf(what, sizeof what, "%s %s", actk_isa_name((actk_isa)isa), dn);
              memset(y, 0xff, n * sizeof(float));
              actk_status st = actk_rope_f32(NULL, &d, x, pid, k.c, k.s, y);
              test_check(st == ACTK_OK, "%s: status %s", what, test_status_name(st));
              size_t bad = check_reference(what, &d, x, pid, k.c, k.s, y);
              test_check(bad == 0, "%s: %zu elements off the reference", what, bad);
            }
          }
      caches_free(&k);
    }
    free(x);
    free(y);
    free(ids);
  }
}

/* ---- 2. bit identity: ISAs, pools, in place ---- */

typedef struct bits_case {
  shape sh;
  size_t rd;
  actk_rope_layout layout;
  actk_rope_style style;
  int explicit_ids;
} bits_case;

static const bits_case bits_cases[] = {
    {{1, 2048, 32, 128}, 0, ACTK_ROPE_BSHD, ACTK_ROPE_SPLIT_HALF, 0},
    {{1, 1024, 32, 128}, 96, ACTK_ROPE_BHSD, ACTK_ROPE_INTERLEAVED, 1},
    {{3, 257, 13, 96}, 64, ACTK_ROPE_BSHD, ACTK_ROPE_INTERLEAVED, 1},
    {{2, 129, 31, 130}, 0, ACTK_ROPE_BHSD, ACTK_ROPE_SPLIT_HALF, 0},
    {{1, 1, 7, 1030}, 0, ACTK_ROPE_BSHD, ACTK_ROPE_INTERLEAVED, 1}, /* > 256 pairs: blocks */
};
#define N_BITS_CASES (sizeof bits_cases / sizeof bits_cases[0])

static void test_bits_across_isas_and_pools(void **state) {
  (void)state;
  const int n_isa = test_n_isa();
  for (size_t ci = 0; ci < N_BITS_CASES; ci++) {
    const bits_case *bc = &bits_cases[ci];
    const size_t n = bc->sh.B * bc->sh.S * bc->sh.H * bc->sh.D, tokens = bc->sh.B * bc->sh.S;
    float *x = alloc_f(n), *want = alloc_f(n), *y = alloc_f(n);
    int64_t *ids = malloc(tokens * sizeof(int64_t));
    assert_non_null(ids);
    fill_x(x, n, 0xb175 + ci);
    const size_t max_position = bc->sh.S + 1024;
    fill_ids(ids, tokens, max_position, 0x1d5b + ci);
    caches k;
    caches_make(&k, max_position, bc->rd ? bc->rd : bc->sh.D);
    actk_rope_desc d; /* implicit positions end at the last cache row */
    desc_make(&d, bc->sh, bc->rd, bc->layout, bc->style, max_position, 1024);
    const int64_t *pid = bc->explicit_ids ? ids : NULL;
    char dn[160];
    desc_name(dn, sizeof dn, &d, pid);

    /* the scalar ISA on the calling thread is the reference */
    assert_true(use_isa(ACTK_ISA_SCALAR));
    assert_int_equal(actk_rope_f32(NULL, &d, x, pid, k.c, k.s, want), ACTK_OK);
    const int big = n >= 4u * 1024u * 1024u; /* parallel even when the workers sleep */
    for (int isa = 0; isa < n_isa; isa++) {
      if (!use_isa((actk_isa)isa)) continue;
      for (size_t pi = 0; pi < N_POOLS; pi++)
        for (int in_place = 0; in_place < 2; in_place++) {
          if (in_place && pool_threads[pi] != 0 && pool_threads[pi] != 3) continue;
          const float *src = x;
          if (in_place) {
            memcpy(y, x, n * sizeof(float));
            src = y;
          } else {
            memset(y, 0xff, n * sizeof(float));
          }
          unsigned long par0 = atomic_load(&actk_runner_parallel_calls);
          actk_status st = actk_rope_f32(g_pools[pi], &d, src, pid, k.c, k.s, y);
          unsigned long par = atomic_load(&actk_runner_parallel_calls) - par0;
          test_check(st == ACTK_OK, "%s %s pool %u: status %s", actk_isa_name((actk_isa)isa), dn,
                     pool_threads[pi], test_status_name(st));
          if (big && pool_threads[pi] > 1)
            test_check(par == 1, "%s %s pool of %u threads: the call did not go parallel",
                       actk_isa_name((actk_isa)isa), dn, pool_threads[pi]);
          if (memcmp(y, want, n * sizeof(float)) == 0) continue;
          for (size_t i = 0; i < n; i++)
            if (f2u(y[i]) != f2u(want[i]))
              test_fail("%s %s pool %u%s: element %zu (row %zu, channel %zu): 0x%08x (%a), scalar "
                        "isa without a pool 0x%08x (%a)",
                        actk_isa_name((actk_isa)isa), dn, pool_threads[pi],
                        in_place ? " in place" : "", i, i / bc->sh.D, i % bc->sh.D, f2u(y[i]),
                        (double)y[i], f2u(want[i]), (double)want[i]);
        }
    }
    caches_free(&k);
    free(x);
    free(want);
    free(y);
    free(ids);
  }
}

/* Special values, in x (every pair of specials: a NaN from b reaches
 * a' = a c - fl(b s) through the fms's addend) and in the caches: every ISA
 * gives the scalar ISA's bits, NaN sign and payload included. Run as
 * `test_rope specials` (see tests/CMakeLists.txt). */
static void test_specials_bits_across_isas(void **state) {
  (void)state;
  enum { NS = TEST_N_SPECIALS, H = NS * NS, D = 2 * 17 + 2, MAXP = 3 };
  const int n_isa = test_n_isa();
  float *x = alloc_f(H * D), *want = alloc_f(H * D), *y = alloc_f(H * D);
  float cc[MAXP * 17], sc[MAXP * 17];
  uint64_t seed = 0x5bec;
  /* row h: channel pairs (special h / NS, special h % NS), and ordinary
   * values where the style pairs differently */
  for (size_t h = 0; h < H; h++)
    for (size_t ch = 0; ch < D; ch++) x[h * D + ch] = rng_uniform(&seed, -3.0f, 3.0f);
  assert_int_equal(actk_rope_cache_f32(cc, sc, MAXP, 34, 0.0), ACTK_OK);
  /* row 2 of the caches: specials */
  for (size_t j = 0; j < 17; j++) {
    cc[2 * 17 + j] = u2f(test_specials[j % NS]);
    sc[2 * 17 + j] = u2f(test_specials[(j * 7 + 3) % NS]);
  }
  for (int style = 0; style < 2; style++) {
    for (size_t h = 0; h < H; h++) {
      float *r = x + h * D;
      const float a = u2f(test_specials[h / NS]), b = u2f(test_specials[h % NS]);
      /* split-half pairs (j, j + 17), interleaved (2j, 2j + 1): j = 0 and 16 */
      for (size_t j = 0; j < 17; j += 16) {
        r[style ? 2 * j : j] = a;
        r[style ? 2 * j + 1 : j + 17] = b;
      }
    }
    for (int64_t pos = 1; pos < MAXP; pos++) {
      actk_rope_desc d;
      desc_make(&d, (shape){1, 1, H, D}, 34, ACTK_ROPE_BSHD, (actk_rope_style)style, MAXP, pos);
      assert_true(use_isa(ACTK_ISA_SCALAR));
      assert_int_equal(actk_rope_f32(NULL, &d, x, NULL, cc, sc, want), ACTK_OK);
      for (int isa = 1; isa < n_isa; isa++) {
        if (!use_isa((actk_isa)isa)) continue;
        assert_int_equal(actk_rope_f32(NULL, &d, x, NULL, cc, sc, y), ACTK_OK);
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)H * D; i++) {
          if (f2u(y[i]) == f2u(want[i])) continue;
          const size_t h = i / D, ch = i % D, half = 17;
          const size_t j = style ? ch / 2 : ch % half, ia = style ? 2 * j : j,
                       ib = style ? 2 * j + 1 : j + half;
          if (bad++ < 8)
            print_error("%s %s pos=%lld row %zu channel %zu: a=0x%08x b=0x%08x c=0x%08x s=0x%08x: "
                        "0x%08x, scalar isa 0x%08x\n",
                        actk_isa_name((actk_isa)isa), style ? "interleaved" : "split",
                        (long long)pos, h, ch, f2u(x[h * D + ia]), f2u(x[h * D + ib]),
                        f2u(cc[pos * 17 + j]), f2u(sc[pos * 17 + j]), f2u(y[i]), f2u(want[i]));
        }
        test_check(bad == 0, "%s %s pos=%lld: %zu elements differ from the scalar isa",
                   actk_isa_name((actk_isa)isa), style ? "interleaved" : "split", (long long)pos,
                   bad);
      }
    }
  }
  free(x);
  free(want);
  free(y);
}

/* ---- 3. the split is a partition ---- */

typedef struct part_shape {
  shape sh;
  size_t rd;
} part_shape;

/* Shapes over 400k elements, which host pools split (a host dispatch is
 * costed at 10 us, so a few chunks: the same plan for every width), with
 * awkward factors so that chunks start mid-token, mid-batch, on odd rows; and
 * one over 2M, which also the real pools split when their workers sleep, and
 * host pools of different widths split differently (2 .. 15 threads). */
static const part_shape part_shapes[] = {
    {{1, 1000, 7, 64}, 0},     {{3, 67, 13, 160}, 158}, {{2, 129, 17, 96}, 2},
    {{1, 257, 31, 66}, 64},    {{5, 33, 9, 288}, 0},    {{7, 3, 1, 20480}, 0},
    {{1, 4099, 1, 128}, 0},    {{2, 1, 1531, 142}, 0},  {{3, 5, 7, 10}, 0},
    {{1, 1031, 23, 128}, 126},
};
#define N_PART_SHAPES (sizeof part_shapes / sizeof part_shapes[0])
#define PART_BIG 2000000u
static const unsigned host_widths[] = {2, 3, 5, 8, 13, 64};
#define N_HOST (sizeof host_widths / sizeof host_widths[0])
#define PART_PAD 64

/* A NaN canary that differs per index: a shifted copy would show. */
static uint32_t canary_at(size_t i) { return 0x7fa50000u | (uint32_t)(i & 0xffffu); }

/* Runs d on pool into buf[PART_PAD, PART_PAD + n) (canaries all around),
 * out of place, then in place; both must equal want, bit for bit, with every
 * element written and nothing around y touched. */
static void partition_run(const char *pool_name, actk_pool *pool, const actk_rope_desc *d,
                          const float *x, const int64_t *ids, const caches *k, const float *want,
                          float *buf) {
  const size_t n = shape_elems(d), D = d->head_size;
  char dn[160];
  desc_name(dn, sizeof dn, d, ids);
  float *y = buf + PART_PAD;
  for (int in_place = 0; in_place < 2; in_place++) {
    for (size_t i = 0; i < n + 2 * PART_PAD; i++) buf[i] = u2f(canary_at(i));
    if (in_place) memcpy(y, x, n * sizeof(float));
    actk_status st = actk_rope_f32(pool, d, in_place ? y : x, ids, k->c, k->s, y);
    test_check(st == ACTK_OK, "%s %s: status %s", pool_name, dn, test_status_name(st));
    for (size_t i = 0; i < PART_PAD; i++) {
      test_check(f2u(buf[i]) == canary_at(i), "%s %s%s: wrote y[-%zu]", pool_name, dn,
                 in_place ? " in place" : "", PART_PAD - i);
      test_check(f2u(buf[PART_PAD + n + i]) == canary_at(PART_PAD + n + i),
                 "%s %s%s: wrote y[n + %zu]", pool_name, dn, in_place ? " in place" : "", i);
    }
    if (memcmp(y, want, n * sizeof(float)) == 0) continue;
    for (size_t i = 0; i < n; i++) {
      if (f2u(y[i]) == f2u(want[i])) continue;
      if (!in_place && f2u(y[i]) == canary_at(PART_PAD + i))
        test_fail("%s %s: element %zu (row %zu, channel %zu) never written", pool_name, dn, i,
                  i / D, i % D);
      test_fail("%s %s%s: element %zu (row %zu, channel %zu): 0x%08x, without a pool 0x%08x%s",
                pool_name, dn, in_place ? " in place" : "", i, i / D, i % D, f2u(y[i]),
                f2u(want[i]), in_place ? " (a row rotated twice, or not at all?)" : "");
    }
  }
}

static void test_partition(void **state) {
  (void)state;
  host_rec recs[N_HOST];
  actk_pool *hosts[N_HOST];
  for (size_t hi = 0; hi < N_HOST; hi++) {
    recs[hi].calls = recs[hi].max_total = 0;
    assert_int_equal(
        actk_pool_create_host(host_parallel_for, &recs[hi], host_widths[hi], &hosts[hi]), ACTK_OK);
  }
  size_t max_n = 0;
  for (size_t si = 0; si < N_PART_SHAPES; si++) {
    const shape sh = part_shapes[si].sh;
    if (sh.B * sh.S * sh.H * sh.D > max_n) max_n = sh.B * sh.S * sh.H * sh.D;
  }
  float *buf = alloc_f(max_n + 2 * PART_PAD), *x = alloc_f(max_n), *want = alloc_f(max_n);
  unsigned long par_real[N_POOLS] = {0};
  for (size_t si = 0; si < N_PART_SHAPES; si++) {
    const shape sh = part_shapes[si].sh;
    const size_t n = sh.B * sh.S * sh.H * sh.D, tokens = sh.B * sh.S;
    int64_t *ids = malloc(tokens * sizeof(int64_t));
    assert_non_null(ids);
    fill_x(x, n, 0x9a47 + si);
    const size_t max_position = 2 * sh.S + 64;
    fill_ids(ids, tokens, max_position, 0x1d5c + si);
    caches k;
    caches_make(&k, max_position, part_shapes[si].rd ? part_shapes[si].rd : sh.D);
    const int big = n > PART_BIG;
    for (int layout = 0; layout < 2; layout++)
      for (int style = 0; style < 2; style++) {
        if (big && layout != style) continue; /* the big one: BSHD split, BHSD interleaved */
        actk_rope_desc d;
        /* implicit positions start at 1: position 0 rotates by nothing */
        desc_make(&d, sh, part_shapes[si].rd, (actk_rope_layout)layout, (actk_rope_style)style,
                  max_position, 1);
        const int64_t *pid = (si + (size_t)layout) % 2 ? ids : NULL;
        assert_int_equal(actk_rope_f32(NULL, &d, x, pid, k.c, k.s, want), ACTK_OK);
        char name[64];
        /* the smaller shapes: one real pool (it may be warm or not) and one
         * host pool; the big one: every pool */
        for (size_t pi = 1; pi < N_POOLS; pi++) {
          if (!big && pool_threads[pi] != 3) continue;
          snprintf(name, sizeof name, "pool of %u threads", pool_threads[pi]);
          unsigned long p0 = atomic_load(&actk_runner_parallel_calls);
          partition_run(name, g_pools[pi], &d, x, pid, &k, want, buf);
          if (big) par_real[pi] += atomic_load(&actk_runner_parallel_calls) - p0;
        }
        for (size_t hi = 0; hi < N_HOST; hi++) {
          if (!big && host_widths[hi] != 3) continue;
          snprintf(name, sizeof name, "host pool of %u threads", host_widths[hi]);
          partition_run(name, hosts[hi], &d, x, pid, &k, want, buf);
        }
      }
    caches_free(&k);
    free(ids);
  }
  /* the test is void unless the work was really split: the big shape on
   * every pool of more than one thread, the host pools into different plans */
  for (size_t pi = 1; pi < N_POOLS; pi++)
    test_check((par_real[pi] > 0) == (pool_threads[pi] > 1),
               "pool of %u threads: %lu calls on the big shape went parallel", pool_threads[pi],
               par_real[pi]);
  for (size_t hi = 0; hi < N_HOST; hi++) {
    test_check(recs[hi].max_total > 1,
               "host pool of %u threads: no call was split (largest job: %zu chunks)",
               host_widths[hi], recs[hi].max_total);
    actk_pool_destroy(hosts[hi]);
  }
  test_check(recs[0].max_total != recs[N_HOST - 1].max_total,
             "host pools of %u and %u threads cut the big shape into as many chunks (%zu)",
             host_widths[0], host_widths[N_HOST - 1], recs[0].max_total);
  free(buf);
  free(x);
  free(want);
}

/* The planner with granule = head_size: chunks of whole rows covering
 * exactly [0, n), for thread counts and sizes this machine cannot run. */
static void test_plan_whole_rows(void **state) {
  (void)state;
  static const size_t heads[] = {2, 10, 64, 66, 96, 128, 142, 160, 288, 20480};
  static const size_t rows[] = {1, 2, 3, 7, 13, 100, 1000, 4099, 65537, 1u << 20, 3u << 22};
  static const uint64_t dispatch[] = {0, 2000, 10000, 50000};
  static const unsigned extra_threads[] = {100, 257, 1024};
  size_t split = 0;
  for (size_t di = 0; di < sizeof heads / sizeof heads[0]; di++)
    for (size_t ri = 0; ri < sizeof rows / sizeof rows[0]; ri++)
      for (size_t ki = 0; ki < sizeof dispatch / sizeof dispatch[0]; ki++)
        for (unsigned t = 1; t <= 64 + 3; t++) {
          const unsigned threads = t <= 64 ? t : extra_threads[t - 65];
          const size_t D = heads[di], n = rows[ri] * D;
          actk_plan p = actk_plan_split(n, D, threads, ACTK_COST_CHEAP, dispatch[ki]);
          char what[160];
          snprintf(what, sizeof what, "actk_plan_split(n=%zu rows of %zu, threads=%u, %llu ns)",
                   rows[ri], D, threads, (unsigned long long)dispatch[ki]);
          test_check(p.n_chunks >= 1 && p.chunk >= 1, "%s: %zu chunks of %zu", what, p.n_chunks,
                     p.chunk);
          test_check(p.chunk % D == 0, "%s: chunk %zu is not whole rows", what, p.chunk);
          test_check(p.n_chunks == (n + p.chunk - 1) / p.chunk,
                     "%s: %zu chunks of %zu do not cover %zu exactly", what, p.n_chunks, p.chunk,
                     n);
          test_check(p.threads >= 1 && p.threads <= threads && p.threads <= p.n_chunks,
                     "%s: %u threads for %zu chunks", what, p.threads, p.n_chunks);
          split += p.n_chunks > 1;
        }
  test_check(split > 0, "the planner never split anything");
}

/* ---- 4. guard pages ---- */

/* [PROT_NONE][pages RW][PROT_NONE] */
typedef struct guarded {
  unsigned char *base, *lo, *hi;
  size_t page, pages;
} guarded;

static void guarded_map(guarded *g, size_t bytes) {
  g->page = test_page_size();
  assert_true(g->page > 0);
  g->pages = (bytes + g->page - 1) / g->page;
  if (g->pages == 0) g->pages = 1;
  void *p = test_pages_map((g->pages + 2) * g->page, 1);
  assert_non_null(p);
  g->base = p;
  g->lo = g->base + g->page;
  g->hi = g->lo + g->pages * g->page;
  assert_int_equal(test_pages_noaccess(g->base, g->page), 0);
  assert_int_equal(test_pages_noaccess(g->hi, g->page), 0);
}

static void guarded_unmap(guarded *g) { test_pages_unmap(g->base, (g->pages + 2) * g->page); }

/* bytes ending at the upper guard (at_end) or starting right after the lower one */
static void *guarded_place(const guarded *g, int at_end, size_t bytes) {
  return at_end ? g->hi - bytes : g->lo;
}

static void test_guard_pages(void **state) {
  (void)state;
  static const size_t halves[] = {1, 3, 5, 7, 9, 15, 17, 31};
  static const size_t extra_d[] = {0, 2, 3}; /* D = rd + extra: full, partial, odd tail */
  static const char *const where[2] = {"after the lower guard", "at the upper guard"};
  enum { B = 2, S = 3, H = 2, MAXP = 4, MAX_N = B * S * H * 65, TOK = B * S };
  const int n_isa = test_n_isa();
  guarded gx, gy, gc, gs, gi;
  guarded_map(&gx, MAX_N * sizeof(float));
  guarded_map(&gy, MAX_N * sizeof(float));
  guarded_map(&gc, MAXP * 31 * sizeof(float));
  guarded_map(&gs, MAXP * 31 * sizeof(float));
  guarded_map(&gi, TOK * sizeof(int64_t));
  float src[MAX_N], want[MAX_N], cw[MAXP * 31], sw[MAXP * 31];
  int64_t idsw[TOK];
  fill_x(src, MAX_N, 0x6a7d);
  test_watch_faults();
  for (int isa = 0; isa < n_isa; isa++) {
    if (!use_isa((actk_isa)isa)) continue;
    for (size_t hi = 0; hi < sizeof halves / sizeof halves[0]; hi++)
      for (size_t ei = 0; ei < sizeof extra_d / sizeof extra_d[0]; ei++)
        for (int layout = 0; layout < 2; layout++)
          for (int style = 0; style < 2; style++)
            for (int at_end = 0; at_end < 2; at_end++) /* caches and ids */
              for (int explicit_ids = 0; explicit_ids < 2; explicit_ids++) {
                const size_t half = halves[hi], rd = 2 * half, D = rd + extra_d[ei];
                const size_t n = B * S * H * D, nc = MAXP * half;
                /* caches at the upper guard are read at their last row, caches
                 * after the lower guard at their first */
                const int64_t p = at_end ? MAXP - 1 : 0;
                actk_rope_desc d;
                desc_make(&d, (shape){B, S, H, D}, rd, (actk_rope_layout)layout,
                          (actk_rope_style)style, MAXP, at_end ? MAXP - S : 0);
                for (size_t t = 0; t < TOK; t++) idsw[t] = p;
                assert_int_equal(actk_rope_cache_f32(cw, sw, MAXP, rd, 10000.0), ACTK_OK);
                float *c = guarded_place(&gc, at_end, nc * sizeof(float));
                float *s = guarded_place(&gs, at_end, nc * sizeof(float));
                int64_t *ids = guarded_place(&gi, at_end, TOK * sizeof(int64_t));
                memcpy(c, cw, nc * sizeof(float));
                memcpy(s, sw, nc * sizeof(float));
                memcpy(ids, idsw, sizeof idsw);
                const int64_t *pid = explicit_ids ? ids : NULL;
                char dn[160];
                desc_name(dn, sizeof dn, &d, pid);
                snprintf(test_context, sizeof test_context, "%s %s plain call",
                         actk_isa_name((actk_isa)isa), dn);
                assert_int_equal(
                    actk_rope_f32(NULL, &d, src, explicit_ids ? idsw : NULL, cw, sw, want),
                    ACTK_OK);
                /* x and y each at either end; then in place at either end */
                for (int pl = 0; pl < 6; pl++) {
                  const int in_place = pl >= 4;
                  const int xe = in_place ? pl - 4 : pl & 1, ye = in_place ? xe : pl >> 1;
                  float *x = guarded_place(&gx, xe, n * sizeof(float));
                  float *y = in_place ? x : guarded_place(&gy, ye, n * sizeof(float));
                  memcpy(x, src, n * sizeof(float));
                  if (!in_place) memset(y, 0xa5, n * sizeof(float));
                  snprintf(test_context, sizeof test_context,
                           "%s %s: caches and ids %s, x %s, y %s", actk_isa_name((actk_isa)isa), dn,
                           where[at_end], where[xe], in_place ? "= x" : where[ye]);
                  actk_status st = actk_rope_f32(NULL, &d, x, pid, c, s, y);
                  test_check(st == ACTK_OK, "%s: status %s", test_context, test_status_name(st));
                  test_check(memcmp(y, want, n * sizeof(float)) == 0,
                             "%s: result differs from the ordinary call", test_context);
                }
              }
  }
  test_context[0] = '\0';
  guarded_unmap(&gx);
  guarded_unmap(&gy);
  guarded_unmap(&gc);
  guarded_unmap(&gs);
  guarded_unmap(&gi);
}

/* ---- 5. bad arguments ---- */

/* One block holds every array, so arrays can be made to overlap and every
 * byte can be checked after a failed call. */
enum { EB = 2, ES = 3, EH = 2, ED = 8, EN = EB * ES * EH * ED, EMAXP = 8, ETOK = EB * ES };
static union {
  float f[1024];
  int64_t i[512];
} g_mem;
#define E_X (g_mem.f)
#define E_Y (g_mem.f + 128)
#define E_COS (g_mem.f + 256)
#define E_SIN (g_mem.f + 320)
#define E_IDS (g_mem.i + 300)     /* floats 600 .. 611 */
static unsigned char *g_noaccess; /* an inaccessible page */

static void mem_fill(void) {
  uint64_t s = 77;
  for (size_t i = 0; i < 1024; i++) g_mem.f[i] = u2f(CANARY_BITS);
  for (size_t i = 0; i < EN; i++) E_X[i] = rng_uniform(&s, -4.0f, 4.0f);
  assert_int_equal(actk_rope_cache_f32(E_COS, E_SIN, EMAXP, ED, 0.0), ACTK_OK);
  for (size_t t = 0; t < ETOK; t++) E_IDS[t] = (int64_t)(t % EMAXP);
}

typedef struct call {
  actk_pool *pool;
  const actk_rope_desc *d;
  const float *x;
  const int64_t *ids;
  const float *c, *s;
  float *y;
} call;

static call good_call(const actk_rope_desc *d) {
  call c = {NULL, d, E_X, E_IDS, E_COS, E_SIN, E_Y};
  return c;
}

/* Runs the call and requires `want`; on an error nothing in the block may
 * change, on success nothing outside y. */
static void expect(const char *what, call c, actk_status want) {
  static union {
    float f[1024];
    int64_t i[512];
  } before;
  memcpy(&before, &g_mem, sizeof before);
  snprintf(test_context, sizeof test_context, "%s %s: %s (want %s)",
           actk_isa_name(actk_isa_active()), c.pool ? "pool" : "no pool", what,
           test_status_name(want));
  actk_status got = actk_rope_f32(c.pool, c.d, c.x, c.ids, c.c, c.s, c.y);
  test_check(got == want, "%s: got %s", test_context, test_status_name(got));
  size_t y0 = SIZE_MAX, y1 = 0;
  if (want == ACTK_OK && c.d && shape_elems(c.d) && c.y >= g_mem.f && c.y < g_mem.f + 1024) {
    y0 = (size_t)(c.y - g_mem.f);
    y1 = y0 + shape_elems(c.d);
  }
  for (size_t i = 0; i < 1024; i++)
    if ((i < y0 || i >= y1) && f2u(before.f[i]) != f2u(g_mem.f[i]))
      test_fail("%s: returned %s but wrote float %zu of the test memory", test_context,
                test_status_name(got), i);
  memcpy(&g_mem, &before, sizeof before);
}

static void test_bad_arguments(void **state) {
  (void)state;
  const int n_isa = test_n_isa();
  test_watch_faults();
  g_noaccess = test_pages_map(test_page_size(), 0);
  assert_non_null(g_noaccess);
  float *na = (float *)(void *)g_noaccess;
  int64_t *na_ids = (int64_t *)(void *)g_noaccess;

  for (int isa = 0; isa < n_isa; isa++) {
    if (!use_isa((actk_isa)isa)) continue;
    for (int with_pool = 0; with_pool < 2; with_pool++) {
      actk_pool *pool = with_pool ? g_pools[3] : NULL; /* 3 threads */
      mem_fill();
      actk_rope_desc d, g;
      desc_make(&g, (shape){EB, ES, EH, ED}, 0, ACTK_ROPE_BSHD, ACTK_ROPE_SPLIT_HALF, EMAXP, 0);
      call c;
#define RESET()                                                                                    \
  do {                                                                                             \
    d = g;                                                                                         \
    c = good_call(&d);                                                                             \
    c.pool = pool;                                                                                 \
  } while (0)

      /* sanity: the good call and its near misses are fine */
      RESET();
      expect("good call", c, ACTK_OK);
      RESET();
      c.ids = NULL;
      d.position_start = EMAXP - ES; /* the last token at the last row */
      expect("start + S == max_position", c, ACTK_OK);
      RESET();
      c.x = c.y;
      expect("in place", c, ACTK_OK);
      RESET();
      c.y = E_COS - EN; /* ends right before the cos cache */
      expect("y adjacent to the cos cache", c, ACTK_OK);
      RESET();
      d.style = ACTK_ROPE_INTERLEAVED;
      d.layout = ACTK_ROPE_BHSD;
      d.rotary_dim = 2;
      expect("BHSD interleaved rd=2", c, ACTK_OK);

      /* shapes */
      RESET();
      d.rotary_dim = 7;
      expect("odd rotary_dim", c, ACTK_ERR_BAD_SHAPE);
      RESET();
      d.rotary_dim = 1;
      expect("rotary_dim 1", c, ACTK_ERR_BAD_SHAPE);
      RESET();
      d.rotary_dim = ED + 2;
      expect("rotary_dim > head_size", c, ACTK_ERR_BAD_SHAPE);
      RESET();
      d.head_size = 7; /* rotary_dim 0 means head_size: odd */
      expect("rotary_dim 0 with odd head_size", c, ACTK_ERR_BAD_SHAPE);

      /* positions: the bad one last, so rows before it would have been written */
      static const int64_t bad_pos[] = {-1, EMAXP, EMAXP + 1, INT64_MAX, INT64_MIN};
      for (size_t i = 0; i < sizeof bad_pos / sizeof bad_pos[0]; i++)
        for (int first = 0; first < 2; first++) {
          char what[96];
          snprintf(what, sizeof what, "position_ids[%s] = %lld", first ? "0" : "last",
                   (long long)bad_pos[i]);
          RESET();
          E_IDS[first ? 0 : ETOK - 1] = bad_pos[i];
          expect(what, c, ACTK_ERR_OUT_OF_RANGE);
          mem_fill();
        }
      static const int64_t bad_start[] = {EMAXP - ES + 1, EMAXP,     -1,
                                          INT64_MAX,      INT64_MIN, INT64_MAX - 1};
      for (size_t i = 0; i < sizeof bad_start / sizeof bad_start[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "position_start = %lld (S = %d, max_position = %d)",
                 (long long)bad_start[i], ES, EMAXP);
        RESET();
        c.ids = NULL;
        d.position_start = bad_start[i];
        expect(what, c, ACTK_ERR_OUT_OF_RANGE);
      }
      RESET();
      d.max_position = 0;
      expect("max_position 0 with position_ids", c, ACTK_ERR_OUT_OF_RANGE);
      RESET();
      d.max_position = 0;
      c.ids = NULL;
      expect("max_position 0 with start 0", c, ACTK_ERR_OUT_OF_RANGE);

      /* NULL pointers */
      RESET();
      c.d = NULL;
      expect("desc NULL", c, ACTK_ERR_NULL_POINTER);
      RESET();
      c.x = NULL;
      expect("x NULL", c, ACTK_ERR_NULL_POINTER);
      RESET();
      c.y = NULL;
      expect("y NULL", c, ACTK_ERR_NULL_POINTER);
      RESET();
      c.c = NULL;
      expect("cos_cache NULL", c, ACTK_ERR_NULL_POINTER);
      RESET();
      c.s = NULL;
      expect("sin_cache NULL", c, ACTK_ERR_NULL_POINTER);

      /* enums and struct_size */
      RESET();
      d.layout = (actk_rope_layout)2;
      expect("layout 2", c, ACTK_ERR_INVALID_ARGUMENT);
      RESET();
      d.layout = (actk_rope_layout)-1;
      expect("layout -1", c, ACTK_ERR_INVALID_ARGUMENT);
      RESET();
      d.style = (actk_rope_style)2;
      expect("style 2", c, ACTK_ERR_INVALID_ARGUMENT);
      RESET();
      d.style = (actk_rope_style)-1;
      expect("style -1", c, ACTK_ERR_INVALID_ARGUMENT);
      RESET();
      d.struct_size = sizeof d - 1;
      expect("struct_size too small", c, ACTK_ERR_INVALID_ARGUMENT);
      RESET();
      d.struct_size = 0;
      expect("struct_size 0", c, ACTK_ERR_INVALID_ARGUMENT);

      /* overlaps */
      RESET();
      c.y = E_X + 1;
      expect("y = x + 1", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = E_X + EN - 1;
      expect("y starts at x's last float", c, ACTK_ERR_OVERLAP);
      RESET();
      c.x = E_Y + 3;
      expect("x = y + 3", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = E_COS - EN + 1;
      expect("y overlaps the first float of the cos cache", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = E_COS + EMAXP * ED / 2 - 1;
      expect("y starts at the last float of the cos cache", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = E_SIN - 10;
      expect("y overlaps the sin cache", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = g_mem.f + 600 - EN + 1;
      expect("y overlaps position_ids[0] (one float)", c, ACTK_ERR_OVERLAP);
      RESET();
      c.y = g_mem.f + 611;
      expect("y overlaps the last position id (one float)", c, ACTK_ERR_OVERLAP);

      /* too large: x and y point at an inaccessible page, so a kernel that
       * ran anyway faults instead of scribbling */
      RESET();
      c.x = c.y = na;
      d.batch = SIZE_MAX / 2 + 1; /* times S = 3: overflows */
      c.ids = NULL;
      expect("B * S overflows", c, ACTK_ERR_TOO_LARGE);
      RESET();
      c.x = c.y = na;
      c.ids = NULL;
      d.batch = 1;
      d.seq_len = 1;
      d.heads = SIZE_MAX / 4;
      expect("B * S * H * D overflows", c, ACTK_ERR_TOO_LARGE);
      RESET();
      c.x = c.y = na;
      c.ids = NULL;
      d.batch = 1;
      d.seq_len = 1;
      d.heads = SIZE_MAX / 16; /* times D = 8 fits, times sizeof(float) does not */
      expect("B * S * H * D * sizeof(float) overflows", c, ACTK_ERR_TOO_LARGE);
      RESET();
      d.max_position = SIZE_MAX / 2;
      expect("max_position * rotary_dim / 2 overflows", c, ACTK_ERR_TOO_LARGE);

      /* empty shapes: ACTK_OK, nothing read or written (every pointer at
       * an inaccessible page, or NULL) */
      for (int dim = 0; dim < 4; dim++)
        for (int nulls = 0; nulls < 2; nulls++) {
          static const char *const dn[4] = {"batch", "seq_len", "heads", "head_size"};
          char what[96];
          snprintf(what, sizeof what, "%s = 0, pointers %s", dn[dim],
                   nulls ? "NULL" : "inaccessible");
          RESET();
          if (dim == 0) d.batch = 0;
          if (dim == 1) d.seq_len = 0;
          if (dim == 2) d.heads = 0;
          if (dim == 3) d.head_size = 0;
          c.y = nulls ? NULL : na;
          c.x = c.c = c.s = c.y;
          c.ids = nulls ? NULL : na_ids;
          expect(what, c, ACTK_OK);
        }
#undef RESET
    }
  }
  test_context[0] = '\0';
  test_pages_unmap(g_noaccess, test_page_size());
}

/* ---- 6. the caches ---- */

static void test_cache(void **state) {
  (void)state;
  static const size_t positions[] = {1, 7, 4096};
  static const size_t rds[] = {2, 4, 6, 10, 64, 96, 128, 130};
  static const double thetas[] = {0.0, 10000.0, 500000.0, 1e6, 2.5, 1.0, 0.5};
  enum { PAD = 16 };
  for (size_t pi = 0; pi < sizeof positions / sizeof positions[0]; pi++)
    for (size_t ri = 0; ri < sizeof rds / sizeof rds[0]; ri++)
      for (size_t ti = 0; ti < sizeof thetas / sizeof thetas[0]; ti++) {
        const size_t mp = positions[pi], rd = rds[ri], half = rd / 2, n = mp * half;
        const double theta = thetas[ti] == 0.0 ? 10000.0 : thetas[ti];
        float *cb = alloc_f(n + 2 * PAD), *sb = alloc_f(n + 2 * PAD);
        for (size_t i = 0; i < n + 2 * PAD; i++) cb[i] = sb[i] = u2f(CANARY_BITS);
        actk_status st = actk_rope_cache_f32(cb + PAD, sb + PAD, mp, rd, thetas[ti]);
        test_check(st == ACTK_OK, "actk_rope_cache_f32(max_position=%zu, rd=%zu, theta=%g): %s", mp,
                   rd, thetas[ti], test_status_name(st));
        for (size_t i = 0; i < PAD; i++)
          test_check(f2u(cb[i]) == CANARY_BITS && f2u(sb[i]) == CANARY_BITS &&
                         f2u(cb[PAD + n + i]) == CANARY_BITS && f2u(sb[PAD + n + i]) == CANARY_BITS,
                     "actk_rope_cache_f32(%zu, %zu, %g) wrote outside the caches", mp, rd,
                     thetas[ti]);
        for (size_t j = 0; j < half; j++) {
          /* the documented formula, as the header states it */
          const double inv = pow(theta, -(double)(2 * j) / (double)rd);
          /* and an independent one: exp(-(2j/rd) log theta) */
          const double inv2 = exp(-((double)(2 * j) / (double)rd) * log(theta));
          for (size_t p = 0; p < mp; p++) {
            const float c = cb[PAD + p * half + j], s = sb[PAD + p * half + j];
            const double ang = (double)p * inv;
            const float wc = (float)cos(ang), ws = (float)sin(ang);
            if (f2u(c) != f2u(wc) || f2u(s) != f2u(ws))
              test_fail("cache(max_position=%zu, rd=%zu, theta=%g) [p=%zu][j=%zu]: cos %a sin "
                        "%a, want %a %a",
                        mp, rd, theta, p, j, (double)c, (double)s, (double)wc, (double)ws);
            /* within 1 ulp of the other formula (a different angle rounding) */
            const double a2 = (double)p * inv2;
            const double e1 = fabs((double)c - cos(a2)), e2 = fabs((double)s - sin(a2));
            const double u1 = ldexp(1.0, (fabs(cos(a2)) > 0x1p-126 ? ilogb(cos(a2)) : -126) - 23);
            const double u2 = ldexp(1.0, (fabs(sin(a2)) > 0x1p-126 ? ilogb(sin(a2)) : -126) - 23);
            if (e1 > u1 || e2 > u2)
              test_fail("cache(%zu, %zu, %g) [p=%zu][j=%zu]: %a %a, more than 1 ulp from "
                        "cos/sin(p exp(-2j/rd log theta)) = %a %a",
                        mp, rd, theta, p, j, (double)c, (double)s, cos(a2), sin(a2));
          }
        }
        free(cb);
        free(sb);
      }

  /* bad arguments: the status, nothing written */
  float cb[64], sb[64];
  static const struct {
    size_t mp, rd;
    double theta;
    actk_status want;
    const char *what;
  } bad[] = {
      {4, 8, -1.0, ACTK_ERR_INVALID_ARGUMENT, "theta -1"},
      {4, 8, -10000.0, ACTK_ERR_INVALID_ARGUMENT, "theta -10000"},
      {4, 8, INFINITY, ACTK_ERR_INVALID_ARGUMENT, "theta inf"},
      {4, 8, -INFINITY, ACTK_ERR_INVALID_ARGUMENT, "theta -inf"},
      {4, 8, NAN, ACTK_ERR_INVALID_ARGUMENT, "theta NaN"},
      /* a tiny base: theta^(-62/64) overflows a double, so position 0 would
       * get cos(0 * inf) = NaN with ACTK_OK */
      {1, 64, 4.9406564584124654e-324, ACTK_ERR_INVALID_ARGUMENT, "theta 2^-1074, rd 64"},
      {2, 64, 1e-320, ACTK_ERR_INVALID_ARGUMENT, "theta 1e-320, rd 64"},
      {4, 7, 10000.0, ACTK_ERR_BAD_SHAPE, "odd rotary_dim"},
      {4, 1, 10000.0, ACTK_ERR_BAD_SHAPE, "rotary_dim 1"},
      {4, 0, 10000.0, ACTK_ERR_BAD_SHAPE, "rotary_dim 0"},
      {SIZE_MAX / 2, 8, 10000.0, ACTK_ERR_TOO_LARGE, "max_position * rotary_dim / 2 overflows"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    for (size_t k = 0; k < 64; k++) cb[k] = sb[k] = u2f(CANARY_BITS);
    actk_status st = actk_rope_cache_f32(cb, sb, bad[i].mp, bad[i].rd, bad[i].theta);
    test_check(st == bad[i].want, "actk_rope_cache_f32: %s: got %s, want %s", bad[i].what,
               test_status_name(st), test_status_name(bad[i].want));
    for (size_t k = 0; k < 64; k++)
      test_check(f2u(cb[k]) == CANARY_BITS && f2u(sb[k]) == CANARY_BITS,
                 "actk_rope_cache_f32: %s: returned %s but wrote", bad[i].what,
                 test_status_name(st));
  }
  test_check(actk_rope_cache_f32(NULL, sb, 4, 8, 0.0) == ACTK_ERR_NULL_POINTER, "cos NULL");
  test_check(actk_rope_cache_f32(cb, NULL, 4, 8, 0.0) == ACTK_ERR_NULL_POINTER, "sin NULL");
  test_check(actk_rope_cache_f32(cb, cb + 15, 4, 8, 0.0) == ACTK_ERR_OVERLAP,
             "cos and sin overlapping by one float");
  test_check(actk_rope_cache_f32(cb, cb + 16, 4, 8, 0.0) == ACTK_OK, "cos and sin adjacent");
  test_check(actk_rope_cache_f32(NULL, NULL, 0, 8, 0.0) == ACTK_OK, "max_position 0");
  /* tiny bases whose angles stay finite are still bases: every entry finite */
  static const struct {
    size_t mp, rd;
    double theta;
  } tiny[] = {{4, 8, 4.9406564584124654e-324}, {2, 64, 1e-300}, {4, 2, 4.9406564584124654e-324}};
  for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
    actk_status st = actk_rope_cache_f32(cb, sb, tiny[i].mp, tiny[i].rd, tiny[i].theta);
    test_check(st == ACTK_OK, "actk_rope_cache_f32(%zu, %zu, theta %g): %s", tiny[i].mp, tiny[i].rd,
               tiny[i].theta, test_status_name(st));
    for (size_t k = 0; k < tiny[i].mp * tiny[i].rd / 2; k++)
      test_check(isfinite(cb[k]) && isfinite(sb[k]) && fabsf(cb[k]) <= 1 && fabsf(sb[k]) <= 1,
                 "actk_rope_cache_f32(%zu, %zu, theta %g)[%zu]: cos %g sin %g", tiny[i].mp,
                 tiny[i].rd, tiny[i].theta, k, (double)cb[k], (double)sb[k]);
  }
}

/* ---- 7. spans past the end of the address space ---- */

/* Every entry point returns ACTK_ERR_TOO_LARGE for an array that would run
 * past the top of the address space, and writes nothing; the caches had no
 * such check (a 16-float cache with max_position SIZE_MAX / 8 was written
 * until the process faulted: ASan, global-buffer-overflow in src/rope.c), and
 * actk_rope_f32 did not check position_ids (read until it faulted). */
static void test_address_space(void **state) {
  (void)state;
  test_watch_faults();
  guarded g;
  guarded_map(&g, 32 * sizeof(float));
  /* 16 floats each, the cos cache against the upper guard: a write past it
   * faults at once */
  float *c = guarded_place(&g, 1, 16 * sizeof(float)), *s = (float *)(void *)g.lo;
  float *top = (float *)(UINTPTR_MAX - 15); /* 16 bytes below the top */
  static const struct {
    int cos_top, sin_top;
    size_t mp, rd;
    const char *what;
  } cases[] = {
      {0, 0, SIZE_MAX / 8, 4, "max_position SIZE_MAX / 8, rotary_dim 4 (n * 4 fits in size_t)"},
      {0, 0, SIZE_MAX / 4 / 3, 6, "max_position SIZE_MAX / 12, rotary_dim 6"},
      {1, 0, 4, 8, "cos_cache 16 bytes below the top, 64 bytes long"},
      {0, 1, 4, 8, "sin_cache 16 bytes below the top, 64 bytes long"},
      {1, 1, 8, 2, "both 16 bytes below the top, 32 bytes long"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (size_t k = 0; k < 16; k++) c[k] = s[k] = u2f(CANARY_BITS);
    float *cc = cases[i].cos_top ? top : c, *sc = cases[i].sin_top ? top : s;
    snprintf(test_context, sizeof test_context, "actk_rope_cache_f32: %s", cases[i].what);
    actk_status st = actk_rope_cache_f32(cc, sc, cases[i].mp, cases[i].rd, 0.0);
    test_check(st == ACTK_ERR_TOO_LARGE, "%s: got %s, want ACTK_ERR_TOO_LARGE", test_context,
               test_status_name(st));
    for (size_t k = 0; k < 16; k++)
      test_check(f2u(c[k]) == CANARY_BITS && f2u(s[k]) == CANARY_BITS, "%s: returned %s but wrote",
                 test_context, test_status_name(st));
  }
  guarded_unmap(&g);

  /* position_ids: B * S = 6 of them, 16 bytes below the top */
  mem_fill();
  actk_rope_desc d;
  desc_make(&d, (shape){EB, ES, EH, ED}, ED, ACTK_ROPE_BSHD, ACTK_ROPE_SPLIT_HALF, EMAXP, 0);
  call cl = good_call(&d);
  cl.ids = (const int64_t *)(UINTPTR_MAX - 15);
  expect("position_ids 16 bytes below the top of the address space, 48 bytes long", cl,
         ACTK_ERR_TOO_LARGE);
  test_context[0] = '\0';
}

/* ---- 8. position_ids at any byte address ---- */

/* The header asks for no alignment of position_ids, so any byte address
 * works and gives the aligned array's bits (reading them as int64_t was a
 * misaligned load: UBSan stopped the call). An out-of-range id at an odd
 * address is still found before anything is written. */
static void test_misaligned_position_ids(void **state) {
  (void)state;
  enum { B = 2, S = 5, H = 3, D = 12, RD = 8, MAXP = 16, TOK = B * S, N = B * S * H * D };
  caches k;
  caches_make(&k, MAXP, RD);
  static float x[N], want[N], y[N];
  fill_x(x, N, 0x1d5);
  int64_t ids[TOK];
  fill_ids(ids, TOK, MAXP, 0x1d5);
  _Alignas(8) unsigned char buf[TOK * sizeof(int64_t) + 8];
  for (int layout = 0; layout < 2; layout++) {
    actk_rope_desc d;
    desc_make(&d, (shape){B, S, H, D}, RD, (actk_rope_layout)layout, ACTK_ROPE_INTERLEAVED, MAXP,
              0);
    assert_int_equal(actk_rope_f32(NULL, &d, x, ids, k.c, k.s, want), ACTK_OK);
    for (size_t off = 1; off < 8; off++) {
      const int64_t *mis = (const int64_t *)(void *)(buf + off);
      for (size_t pi = 0; pi < N_POOLS; pi++) {
        memcpy(buf + off, ids, sizeof ids);
        for (size_t i = 0; i < N; i++) y[i] = u2f(CANARY_BITS);
        snprintf(test_context, sizeof test_context, "%s, position_ids at byte offset %zu, pool %u",
                 layout ? "BHSD" : "BSHD", off, pool_threads[pi]);
        actk_status st = actk_rope_f32(g_pools[pi], &d, x, mis, k.c, k.s, y);
        test_check(st == ACTK_OK, "%s: %s", test_context, test_status_name(st));
        test_check(memcmp(y, want, sizeof y) == 0, "%s: result differs from aligned ids'",
                   test_context);
        /* the last id out of range: found, nothing written */
        int64_t bad = MAXP;
        memcpy(buf + off + (TOK - 1) * sizeof(int64_t), &bad, sizeof bad);
        for (size_t i = 0; i < N; i++) y[i] = u2f(CANARY_BITS);
        st = actk_rope_f32(g_pools[pi], &d, x, mis, k.c, k.s, y);
        test_check(st == ACTK_ERR_OUT_OF_RANGE,
                   "%s, last id %d: got %s, want ACTK_ERR_OUT_OF_RANGE", test_context, MAXP,
                   test_status_name(st));
        for (size_t i = 0; i < N; i++)
          test_check(f2u(y[i]) == CANARY_BITS, "%s, last id out of range: y[%zu] written",
                     test_context, i);
      }
    }
  }
  test_context[0] = '\0';
  caches_free(&k);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "specials") == 0) {
    const struct CMUnitTest specials[] = {
        cmocka_unit_test_setup_teardown(test_specials_bits_across_isas, save_isa, restore_isa),
    };
    return cmocka_run_group_tests_name("rope: special values", specials, NULL, NULL);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_matches_reference, save_isa, restore_isa),
      cmocka_unit_test_setup_teardown(test_bits_across_isas_and_pools, save_isa, restore_isa),
      cmocka_unit_test(test_partition),
      cmocka_unit_test(test_plan_whole_rows),
      cmocka_unit_test_setup_teardown(test_guard_pages, save_isa, restore_isa),
      cmocka_unit_test_setup_teardown(test_bad_arguments, save_isa, restore_isa),
      cmocka_unit_test(test_cache),
      cmocka_unit_test(test_address_space),
      cmocka_unit_test(test_misaligned_position_ids),
  };
  return cmocka_run_group_tests_name("rope", tests, pools_setup, pools_teardown);
}
