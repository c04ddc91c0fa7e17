/* Bit identity: element i's result depends only on x[i] (and bias[i % width])
 * and the active ISA. For every op and every ISA this machine runs, the
 * result of (d) a one-element call is the expected value of element i in
 *   (a) every length 0..300 (bias ops: every multiple of several widths),
 *   (b) every start offset modulo 64 bytes and byte-misaligned pointers (1, 2,
 *       3 bytes), for x and y independently, out of place and in place,
 *   (c) in-place calls (y == x) of every length,
 * and nothing outside [y, y + n) is written, x and bias are not written.
 * The bias at byte offsets 1..3 is its own group, run last.
 * Separately, every other ISA this machine runs gives the same bits as the
 * scalar ISA for every op on a dense sample of all floats (so all ISAs agree
 * pairwise): every result (a NaN on both ISAs counts as equal there), then the
 * NaN results' bits (sign and payload) on their own. The bias ops run there
 * with infinite and NaN biases too, and this test adds swish with alphas no
 * accuracy test can take (NaN, +-inf, 0): their bits must agree all the same. */
#include "actk_test.h"

#define N 300
#define GUARD 64 /* bytes of canary after (and offset room before) every output */
#define CANARY 0xA5

static test_op g_ops[TEST_MAX_OPS];
static size_t g_n_ops;

/* Byte offsets of the start of x, y and bias: every float offset modulo 64
 * bytes and byte-misaligned ones; under the sanitizers (100x slower) the
 * first six, which have both kinds. */
static const size_t offsets[] = {0,  4,  28, 60, 1,  3,  8,  12, 16, 20,
                                 24, 32, 36, 40, 44, 48, 52, 56, 2};
#define N_OFFSETS (TEST_SANITIZED ? 6 : sizeof offsets / sizeof offsets[0])

/* Lengths tried at every offset pair (all lengths are tried at offset 0). */
static const size_t short_lengths[] = {1, 2, 3, 5, 7, 8, 9, 13, 15, 16, 17, 31, 33, 65, 300};
#define N_SHORT (sizeof short_lengths / sizeof short_lengths[0])

static const size_t unary_widths[] = {1};
static const size_t bias_widths[] = {1, 3, 7, 8, 9, 16, 63, 64, 65, 100, 300};

typedef struct where {
  const char *what;
  size_t n, width, xo, yo, bo;
} where;

/* got (maybe misaligned) must equal expect bit for bit, and the GUARD bytes
 * after it and the `before` bytes before it must still be canaries. */
static void check(const test_case *tc, const where *w, const float *x, const unsigned char *got,
                  size_t before, const float *expect) {
  for (size_t i = 0; i < w->n; i++) {
    uint32_t g = f2u(load_f(got, i)), e = f2u(expect[i]);
    if (g != e)
      test_fail("%s: %s n=%zu width=%zu x+%zuB y+%zuB bias+%zuB: element %zu, x=%a (0x%08x): "
                "got 0x%08x (%a), one-element call gave 0x%08x (%a)",
                tc->name, w->what, w->n, w->width, w->xo, w->yo, w->bo, i, (double)x[i], f2u(x[i]),
                g, (double)u2f(g), e, (double)u2f(e));
  }
  for (size_t b = 0; b < GUARD; b++)
    if (got[w->n * sizeof(float) + b] != CANARY)
      test_fail("%s: %s n=%zu width=%zu x+%zuB y+%zuB: byte %zu after y[n-1] was written", tc->name,
                w->what, w->n, w->width, w->xo, w->yo, b);
  for (size_t b = 1; b <= before; b++)
    if (got[-(ptrdiff_t)b] != CANARY)
      test_fail("%s: %s n=%zu width=%zu x+%zuB y+%zuB: byte %zu before y[0] was written", tc->name,
                w->what, w->n, w->width, w->xo, w->yo, b);
}

static void expect_ok(const test_case *tc, const where *w, actk_status s) {
  if (s != ACTK_OK)
    test_fail("%s: %s n=%zu width=%zu x+%zuB y+%zuB bias+%zuB: status %s", tc->name, w->what, w->n,
              w->width, w->xo, w->yo, w->bo, test_status_name(s));
}

/* misaligned_bias: only the offset sweep (b), with the bias at byte offsets
 * 1..3 (kept apart: under UBSan a misaligned access aborts the process, and
 * this way it aborts only after everything else has run) */
static void shapes(test_case *tc, int misaligned_bias) {
  const test_op *op = tc->op;
  test_use_isa(tc);

  float x[N], bias[N], expect[N];
  test_fill_inputs(x, N, 0x5eed0001u ^ test_seed(op));
  uint64_t s = 0xb1a5u;
  for (size_t i = 0; i < N; i++) bias[i] = (i % 5 == 4) ? test_input(&s) : rng_uniform(&s, -4, 4);

  /* byte buffers: [GUARD offset room][N floats][GUARD canaries] */
  enum { BUF = GUARD + N * sizeof(float) + GUARD };
  unsigned char *xb = malloc(BUF), *yb = malloc(BUF), *bb = malloc(BUF);
  assert_non_null(xb);
  assert_non_null(yb);
  assert_non_null(bb);

  const size_t *widths = op->kind == OP_BIAS ? bias_widths : unary_widths;
  size_t n_widths = op->kind == OP_BIAS ? sizeof bias_widths / sizeof bias_widths[0] : 1;
  for (size_t wi = 0; wi < n_widths; wi++) {
    const size_t width = widths[wi];
    where w = {"", 0, width, 0, 0, 0};

    /* (d) one-element calls give the expected value of every element */
    w.what = "one-element call";
    for (size_t i = 0; i < N; i++) {
      w.n = 1;
      expect_ok(tc, &w, test_run(op, &x[i], &bias[i % width], 1, &expect[i], 1));
    }

    /* (a) every length, aligned heap buffers */
    w.what = "length sweep";
    for (size_t n = 0; n <= (misaligned_bias ? 0 : N); n += width) {
      w.n = n;
      memset(yb, CANARY, BUF);
      expect_ok(tc, &w, test_run(op, x, bias, width, (float *)(void *)yb, n));
      check(tc, &w, x, yb, 0, expect);
    }

    /* (c) in place, every length */
    w.what = "in place";
    for (size_t n = 0; n <= (misaligned_bias ? 0 : N); n += width) {
      w.n = n;
      memset(yb, CANARY, BUF);
      memcpy(yb, x, n * sizeof(float));
      float *y = (float *)(void *)yb;
      expect_ok(tc, &w, test_run(op, y, bias, width, y, n));
      check(tc, &w, x, yb, 0, expect);
    }

    /* (b) every offset of x, y and bias, out of place and in place */
    for (size_t xi = 0; xi < N_OFFSETS; xi++) {
      for (size_t yi = 0; yi <= N_OFFSETS; yi++) {
        const int in_place = yi == N_OFFSETS;
        w.xo = offsets[xi];
        w.yo = in_place ? w.xo : offsets[yi];
        w.bo = misaligned_bias ? 1 + (xi + yi) % 3 : 4 * ((xi + yi) % 16);
        w.what = in_place ? "in place, offset" : "offset";
        memset(bb, CANARY, BUF);
        memcpy(bb + w.bo, bias, width * sizeof(float));
        const float *bp = (const float *)(void *)(bb + w.bo);
        for (size_t li = 0; li < N_SHORT; li++) {
          const size_t n = short_lengths[li] / width * width;
          if (n == 0) continue;
          w.n = n;
          memset(xb, CANARY, BUF);
          memcpy(xb + w.xo, x, n * sizeof(float));
          memset(yb, CANARY, BUF);
          float *xp = (float *)(void *)(xb + w.xo);
          float *yp = in_place ? xp : (float *)(void *)(yb + w.yo);
          expect_ok(tc, &w, test_run(op, xp, bp, width, yp, n));
          check(tc, &w, x, (const unsigned char *)yp, w.yo, expect);
          if (!in_place) /* x is read-only */
            test_check(memcmp(xp, x, n * sizeof(float)) == 0, "%s: x was modified (n=%zu x+%zuB)",
                       tc->name, n, w.xo);
          test_check(memcmp(bp, bias, width * sizeof(float)) == 0,
                     "%s: bias was modified (n=%zu width=%zu)", tc->name, n, width);
        }
      }
    }
  }
  free(xb);
  free(yb);
  free(bb);
}

static void test_shapes(void **state) { shapes(*state, 0); }
static void test_misaligned_bias(void **state) { shapes(*state, 1); }

/* ---- every ISA vs the scalar ISA on a dense sample ---- */

static size_t dense_sample(float *out) {
  size_t k = 0;
  for (uint64_t i = 0; i * 65521u <= UINT32_MAX; i++) out[k++] = u2f((uint32_t)(i * 65521u));
  for (uint32_t i = 0; i < 4096; i++) {
    out[k++] = u2f(i);               /* +0 and the smallest subnormals */
    out[k++] = u2f(0x80000000u | i); /* -0 ... */
  }
  for (int sign = 0; sign < 2; sign++) {
    uint32_t c = f2u(1e-40f);
    for (uint32_t i = c - 2048; i < c + 2048; i++) out[k++] = u2f(i | (sign ? 0x80000000u : 0));
    for (int i = 0; i < 40000; i++) { /* 0.5 .. 20 */
      float v = (float)(0.5 + 19.5 * i / 39999.0);
      out[k++] = sign ? -v : v;
    }
    for (int i = 0; i < 20000; i++) { /* 80 .. 110 */
      float v = (float)(80.0 + 30.0 * i / 19999.0);
      out[k++] = sign ? -v : v;
    }
    for (int i = -64; i <= 64; i++) { /* around 1, where several kernels switch */
      out[k++] = u2f(f2u(sign ? -1.0f : 1.0f) + (uint32_t)i);
    }
  }
  for (size_t i = 0; i < TEST_N_SPECIALS; i++) out[k++] = u2f(test_specials[i]);
  return k;
}

#define DENSE_MAX 262144

/* Ordinary biases (0, 1, -0.5, 3.25, -7, 1e-30, 0.1), and ones that make
 * every sum special: +-inf (inf - inf is NaN), a quiet NaN with a payload, a
 * negative signalling NaN (with a NaN x, the sum's NaN is x's on every isa). */
static const uint32_t isa_bias_bits[] = {0x00000000u, 0x3f800000u, 0xbf000000u, 0x40500000u,
                                         0xc0e00000u, 0x0da24260u, 0x3dcccccdu, 0x7f800000u,
                                         0xff800000u, 0x7fc12345u, 0xff800123u};
#define ISA_WIDTH (sizeof isa_bias_bits / sizeof isa_bias_bits[0])

/* The dense sample (padded with zeros to whole bias rows) and, per op, the
 * scalar ISA's results on it, computed once for all ISAs. */
static float *g_dense;
static size_t g_dense_n;
static float *g_scalar[TEST_MAX_OPS];

/* Runs op on the dense sample on the test's ISA and compares with the scalar
 * ISA; nan_bits selects what is compared: 0 = every result that is not NaN on
 * both ISAs (bit for bit, and a NaN on one ISA must be a NaN on the other);
 * 1 = the NaN results' bits. */
static void isas_compare(void **state, int nan_bits) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  const char *isa = actk_isa_name(tc->isa);
  tc->saved = actk_isa_active();
  if (!actk_isa_supported(tc->isa) || !actk_isa_supported(ACTK_ISA_SCALAR)) {
    print_message("isa %s (or scalar) not supported here: skipped\n", isa);
    skip();
  }
  float bias[ISA_WIDTH];
  for (size_t j = 0; j < ISA_WIDTH; j++) bias[j] = u2f(isa_bias_bits[j]);
  const float *x = g_dense;
  const size_t n = g_dense_n;

  const size_t k = (size_t)(op - g_ops);
  assert_true(k < TEST_MAX_OPS);
  if (!g_scalar[k]) {
    float *ys = malloc(n * sizeof(float));
    assert_non_null(ys);
    assert_int_equal(actk_isa_force(ACTK_ISA_SCALAR), ACTK_OK);
    assert_int_equal(test_run(op, x, bias, ISA_WIDTH, ys, n), ACTK_OK);
    g_scalar[k] = ys;
  }
  const float *ys = g_scalar[k];
  float *yv = malloc(n * sizeof(float));
  assert_non_null(yv);
  assert_int_equal(actk_isa_force(tc->isa), ACTK_OK);
  assert_int_equal(actk_isa_active(), tc->isa);
  assert_int_equal(test_run(op, x, bias, ISA_WIDTH, yv, n), ACTK_OK);

  size_t bad = 0, first = 0, nans = 0;
  for (size_t i = 0; i < n; i++) {
    int both_nan = isnan(ys[i]) && isnan(yv[i]);
    nans += both_nan;
    if (both_nan == nan_bits && f2u(ys[i]) != f2u(yv[i]) && bad++ == 0) first = i;
  }
  float v0 = yv[first];
  free(yv);
  if (bad) {
    char bias_txt[64] = "";
    if (op->kind == OP_BIAS) {
      float b = bias[first % ISA_WIDTH];
      snprintf(bias_txt, sizeof bias_txt, " bias=%a (0x%08x)", (double)b, f2u(b));
    }
    float x0 = x[first], s0 = ys[first];
    test_fail("%s: scalar and %s give different %s on %zu of %zu inputs (%zu NaN results); "
              "first: x=%a (0x%08x)%s: scalar 0x%08x (%a), %s 0x%08x (%a)",
              op->name, isa, nan_bits ? "NaN bits" : "results", bad, n, nans, (double)x0, f2u(x0),
              bias_txt, f2u(s0), (double)s0, isa, f2u(v0), (double)v0);
  }
}

static void test_isas_agree(void **state) { isas_compare(state, 0); }
static void test_isas_agree_nan_bits(void **state) { isas_compare(state, 1); }

/* One test per (op, ISA other than scalar), named "op/isa=scalar" + suffix. */
static int run_isas_group(const char *group, const char *suffix, CMUnitTestFunction fn) {
  const size_t n_isa = (size_t)test_n_isa();
  const size_t n = g_n_ops * n_isa;
  test_case *cases = calloc(n ? n : 1, sizeof *cases);
  struct CMUnitTest *tests = calloc(n ? n : 1, sizeof *tests);
  if (!cases || !tests) return 1;
  size_t k = 0;
  for (size_t i = 0; i < g_n_ops; i++)
    for (size_t a = 0; a < n_isa; a++) {
      if ((actk_isa)a == ACTK_ISA_SCALAR) continue;
      test_case *tc = &cases[k];
      tc->op = &g_ops[i];
      tc->isa = (actk_isa)a;
      snprintf(tc->name, sizeof tc->name, "%.31s/%.15s=scalar%s", g_ops[i].name,
               actk_isa_name(tc->isa), suffix);
      struct CMUnitTest t = {tc->name, fn, NULL, test_restore_isa, tc};
      tests[k++] = t;
    }
  int failed = _cmocka_run_group_tests(group, tests, k, NULL, NULL);
  free(tests);
  free(cases);
  return failed;
}

/* Arguments no accuracy test can use (there is no finite reference) but whose
 * bits must still agree: swish with alpha NaN, +-inf, 0. */
static const uint32_t extra_alphas[] = {0x7fc12345u, 0x7f800000u, 0xff800000u, 0x00000000u};
#define N_EXTRA (sizeof extra_alphas / sizeof extra_alphas[0])

int main(void) {
  g_n_ops = test_ops(g_ops);
  const size_t n_catalog = g_n_ops;
  for (size_t j = 0; j < n_catalog; j++) {
    if (g_ops[j].kind != OP_SWISH || g_ops[j].alpha != test_swish_alphas[0]) continue;
    for (size_t i = 0; i < N_EXTRA && g_n_ops < TEST_MAX_OPS; i++, g_n_ops++) {
      test_op *op = &g_ops[g_n_ops];
      *op = g_ops[j];
      op->alpha = u2f(extra_alphas[i]);
      snprintf(op->name, sizeof op->name, "%s(0x%08x)%s%s", op->info->name, extra_alphas[i],
               op->info->tier ? "/" : "", op->info->tier ? op->info->tier_name : "");
    }
  }
  int failed =
      test_run_op_isa_group("bits: lengths, offsets, in place", g_ops, g_n_ops, test_shapes);
  g_dense = malloc((DENSE_MAX + ISA_WIDTH) * sizeof(float));
  if (!g_dense) return 1;
  g_dense_n = dense_sample(g_dense);
  if (g_dense_n > DENSE_MAX) return 1;
  while (g_dense_n % ISA_WIDTH) g_dense[g_dense_n++] = 0.0f;
  failed += run_isas_group("bits: every isa == scalar isa", "", test_isas_agree);
  failed += run_isas_group("bits: every isa == scalar isa, NaN results", " NaN bits",
                           test_isas_agree_nan_bits);
  for (size_t i = 0; i < TEST_MAX_OPS; i++) free(g_scalar[i]);
  free(g_dense);

  test_op bias_ops[TEST_MAX_OPS];
  size_t n_bias = 0;
  for (size_t i = 0; i < g_n_ops; i++)
    if (g_ops[i].kind == OP_BIAS) bias_ops[n_bias++] = g_ops[i];
  failed +=
      test_run_op_isa_group("bits: byte-misaligned bias", bias_ops, n_bias, test_misaligned_bias);
  return failed != 0;
}
