/* The fused bias kernels equal, bit for bit, the unfused computation
 *   t[i] = x[i] + bias[i % width]   (one float addition)
 *   y = actk_gelu_f32(t) / actk_gelu_tanh_f32(t)
 * for many widths and row counts, out of place and in place, on every ISA.
 * A kernel that rotates the bias (starts a row at the wrong bias element),
 * rounds the sum differently or skips it fails here. When both x[i] and the
 * bias are NaN the sum is x[i]'s NaN (quieted), as x86 ADDPS gives it, on
 * every ISA: the reference add below spells that out rather than leaving the
 * choice to how the compiler orders the operands of `x + b`. */
#include "actk_test.h"
#include "dispatch.h"

static const size_t widths[] = {1, 3, 7, 8, 9, 63, 64, 65, 4099};
static const size_t rows[] = {1, 2, 3, 5, 17};
#define N_WIDTHS (sizeof widths / sizeof widths[0])
#define N_ROWS (sizeof rows / sizeof rows[0])
#define MAX_N (4099 * 17)

static test_op g_ops[TEST_MAX_OPS];

/* x + b rounded to float, a NaN operand passed through quieted, x's first. */
static float add_x_first(float x, float b) {
  if (isnan(x)) return u2f(f2u(x) | 0x00400000u);
  if (isnan(b)) return u2f(f2u(b) | 0x00400000u);
  return x + b;
}

/* y = fused op on x (n = width * rows), out of place and in place, must
 * equal the unfused computation bit for bit; t, want, y: n floats of room. */
static void compare(const test_case *tc, const float *x, const float *bias, size_t width,
                    size_t rows, float *t, float *want, float *y) {
  const test_op *op = tc->op;
  const size_t n = width * rows;
  for (size_t i = 0; i < n; i++) t[i] = add_x_first(x[i], bias[i % width]);
  assert_int_equal(actk_op_call(op->unfused, NULL, t, NULL, 0, want, n, 0.0f), ACTK_OK);

  for (int in_place = 0; in_place < 2; in_place++) {
    const float *src = x;
    if (in_place) {
      memcpy(y, x, n * sizeof(float));
      src = y;
    }
    actk_status st = test_run(op, src, bias, width, y, n);
    test_check(st == ACTK_OK, "%s: width=%zu n=%zu%s: status %s", tc->name, width, n,
               in_place ? " in place" : "", test_status_name(st));
    for (size_t i = 0; i < n; i++)
      if (f2u(y[i]) != f2u(want[i]))
        test_fail("%s: width=%zu rows=%zu%s: element %zu (row %zu, column %zu): x=%a (0x%08x) "
                  "bias=%a (0x%08x): fused 0x%08x (%a), add then %s 0x%08x (%a)",
                  tc->name, width, rows, in_place ? " in place" : "", i, i / width, i % width,
                  (double)x[i], f2u(x[i]), (double)bias[i % width], f2u(bias[i % width]), f2u(y[i]),
                  (double)y[i], op->unfused->name, f2u(want[i]), (double)want[i]);
  }
}

static void test_fused_equals_unfused(void **state) {
  test_case *tc = *state;
  test_use_isa(tc);

  float *x = malloc(MAX_N * sizeof(float)), *t = malloc(MAX_N * sizeof(float));
  float *want = malloc(MAX_N * sizeof(float)), *y = malloc(MAX_N * sizeof(float));
  float *bias = malloc(4099 * sizeof(float));
  assert_non_null(x);
  assert_non_null(t);
  assert_non_null(want);
  assert_non_null(y);
  assert_non_null(bias);
  /* ordinary values, where the bias moves the result, with every 13th from
   * all regimes (tiny, huge, subnormal, +-0, +-inf, NaN) */
  uint64_t sx = 0xb1a5b1a5u;
  for (size_t i = 0; i < MAX_N; i++)
    x[i] = (i % 13 == 12) ? test_input(&sx) : rng_uniform(&sx, -5.0f, 5.0f);
  /* mostly ordinary biases, each distinct, so that any rotation shows;
   * every 11th drawn from all regimes (inf + -inf = NaN included) */
  uint64_t s = 42;
  for (size_t j = 0; j < 4099; j++)
    bias[j] = (j % 11 == 10) ? test_input(&s) : rng_uniform(&s, -6.0f, 6.0f);

  for (size_t wi = 0; wi < N_WIDTHS; wi++)
    for (size_t ri = 0; ri < N_ROWS; ri++) compare(tc, x, bias, widths[wi], rows[ri], t, want, y);
  free(x);
  free(t);
  free(want);
  free(y);
  free(bias);
}

/* Every pair (x special, bias special): NaN + NaN (x's NaN), NaN + inf,
 * inf - inf, signalling NaNs, subnormal sums. Row r holds special r, the bias
 * row is all specials, so element (r, c) is special r + special c. */
static void test_special_pairs(void **state) {
  test_case *tc = *state;
  test_use_isa(tc);
  enum { W = TEST_N_SPECIALS, N = TEST_N_SPECIALS * TEST_N_SPECIALS };
  float x[N], bias[W], t[N], want[N], y[N];
  for (size_t c = 0; c < W; c++) bias[c] = u2f(test_specials[c]);
  for (size_t i = 0; i < N; i++) x[i] = u2f(test_specials[i / W]);
  compare(tc, x, bias, W, W, t, want, y);
}

/* White box: the bias kernels pick the plain x + b row only for a bias row
 * without NaN. With this compiler both rows give the same bits (x stays the
 * first operand of the add), so the outputs above cannot see a wrong pick:
 * check the scan itself, NaN at every position of every width up to 200
 * (the vector body, the masked tail, one element) and at the ends and tail
 * positions of wide rows, from aligned and misaligned starts. */
static void test_nan_scan(void **state) {
  (void)state;
  enum { MAXW = 4099, OFF = 3 };
  static float buf[MAXW + OFF];
  const float nans[] = {u2f(0x7fc00000u), u2f(0xff800001u), u2f(0x7fc12345u)};
  for (int isa = 0; isa < test_n_isa(); isa++) {
    const actk_impl *impl = actk_dispatch_find((actk_isa)isa);
    if (!impl) continue; /* not supported here */
    for (size_t off = 0; off < OFF; off++) {
      float *b = buf + off;
      for (size_t w = 1; w <= MAXW; w = (w < 200) ? w + 1 : (w < 4096 ? 4096 : w + 3)) {
        for (size_t i = 0; i < w; i++) b[i] = (float)i - 7.5f;
        b[w / 2] = INFINITY; /* infinities are not NaN */
        if (w > 1) b[w - 1] = -INFINITY;
        test_check(!impl->bias_has_nan(b, w),
                   "%s: NaN reported in a NaN-free row of %zu (offset %zu)", impl->facts.name, w,
                   off);
        for (size_t p = 0; p < w; p++) {
          if (w > 200 && p > 20 && p + 20 < w) continue;
          float keep = b[p];
          b[p] = nans[p % 3];
          test_check(impl->bias_has_nan(b, w), "%s: NaN at %zu of a row of %zu (offset %zu) missed",
                     impl->facts.name, p, w, off);
          b[p] = keep;
        }
      }
    }
  }
}

int main(void) {
  test_op all[TEST_MAX_OPS];
  size_t n = test_ops(all), k = 0;
  for (size_t i = 0; i < n; i++)
    if (all[i].kind == OP_BIAS) g_ops[k++] = all[i];
  if (k == 0) return 1; /* the catalog lost its bias ops */
  int failed =
      test_run_op_isa_group("bias: fused == add then gelu", g_ops, k, test_fused_equals_unfused);
  failed +=
      test_run_op_isa_group("bias: every pair of special values", g_ops, k, test_special_pairs);
  const struct CMUnitTest scan[] = {cmocka_unit_test(test_nan_scan)};
  failed += cmocka_run_group_tests_name("bias: NaN scan of the bias row", scan, NULL, NULL);
  return failed != 0;
}
