/* Accuracy against the double references of tools/reference.c, on every arm:
 *   - a dense deterministic sample (every 4099th bit pattern of all 2^32, and
 *     1M evenly spaced floats in [-16, 16]) within the library's bound of
 *     2 ULP, measured with actk_ulp_error (the failure names the worst input);
 *   - special values: NaN -> the same NaN quieted (sign and payload kept), the
 *     limits at +-inf, signed zeros;
 *   - erf and tanh are exactly odd on the sample: f(-x) == -f(x) bitwise.
 * The full 2^32 sweep is tools/actk_sweep; this is the CI-sized sample. */
#include "actk_test.h"

#define BOUND_ULP 2.0
#define STRIDE 4099u
#define N_UNIFORM 1000000u

static test_op g_ops[TEST_MAX_OPS];
static size_t g_n_ops;
static float *g_x;
static size_t g_n;

/* reference values of the op last asked for (tests run op by op) */
static const test_op *g_ref_op;
static double *g_ref;

static double ref_of(const test_op *op, double x) {
  return op->kind == OP_SWISH ? actk_ref_swish(x, (double)op->alpha) : op->ref(x);
}

static const double *reference(const test_op *op) {
  if (g_ref_op != op) {
    for (size_t i = 0; i < g_n; i++) g_ref[i] = ref_of(op, (double)g_x[i]);
    g_ref_op = op;
  }
  return g_ref;
}

static void build_sample(void) {
  size_t n_stride = (size_t)((0xffffffffull / STRIDE) + 1);
  g_n = n_stride + N_UNIFORM;
  g_x = malloc(g_n * sizeof(float));
  g_ref = malloc(g_n * sizeof(double));
  if (!g_x || !g_ref) abort();
  size_t k = 0;
  for (uint64_t i = 0; i < n_stride; i++) g_x[k++] = u2f((uint32_t)(i * STRIDE));
  for (uint32_t i = 0; i < N_UNIFORM; i++)
    g_x[k++] = (float)(-16.0 + 32.0 * (double)i / (double)(N_UNIFORM - 1));
}

static void test_sample(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_arm(tc);

  float *y = malloc(g_n * sizeof(float));
  assert_non_null(y);
  assert_int_equal(test_run(op, g_x, NULL, 0, y, g_n), ACTK_OK);
  const double *r = reference(op);
  double worst = 0;
  size_t at = 0, over = 0;
  for (size_t i = 0; i < g_n; i++) {
    double e = actk_ulp_error(y[i], r[i]);
    if (e > BOUND_ULP) over++;
    if (e > worst || (isnan(e) && !isnan(worst))) {
      worst = e;
      at = i;
    }
  }
  print_message("%-16s max error %.3f ULP at x=%a\n", tc->name, worst, (double)g_x[at]);
  float xw = g_x[at], yw = y[at];
  free(y);
  if (!(worst <= BOUND_ULP))
    test_fail("%s: %zu of %zu inputs over %.1f ULP; worst %.3f ULP at x=%a (0x%08x): got %a "
              "(0x%08x), reference %.17g",
              tc->name, over, g_n, BOUND_ULP, worst, (double)xw, f2u(xw), (double)yw, f2u(yw),
              r[at]);
}

/* ---- special values ---- */

static float run1(const test_op *op, float x) {
  float y = u2f(0x12345678u);
  actk_status s = test_run(op, &x, NULL, 0, &y, 1);
  if (s != ACTK_OK) test_fail("%s(%a): status %s", op->name, (double)x, test_status_name(s));
  return y;
}

static void expect_bits(const test_case *tc, float x, float want) {
  float got = run1(tc->op, x);
  if (f2u(got) != f2u(want))
    test_fail("%s(%a) = %a (0x%08x), want %a (0x%08x)", tc->name, (double)x, (double)got, f2u(got),
              (double)want, f2u(want));
}

static void test_special_values(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_arm(tc);
  const float inf = INFINITY;

  /* NaN in, NaN out, whatever the sign and payload (quiet or signaling) */
  static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                  0x7fffffffu, 0xffffffffu, 0x7fa00000u, 0xffc12345u};
  for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
    float y = run1(op, u2f(nans[i]));
    test_check(isnan(y), "%s(NaN 0x%08x) = %a (0x%08x), want a NaN", tc->name, nans[i], (double)y,
               f2u(y));
    /* and the same NaN, quieted: sign and payload kept, on every arm */
    test_check(f2u(y) == (nans[i] | 0x00400000u),
               "%s(NaN 0x%08x) = NaN 0x%08x, want the input quieted, 0x%08x", tc->name, nans[i],
               f2u(y), nans[i] | 0x00400000u);
  }

  /* the limits: exact values */
  const char *name = op->name;
  if (!strcmp(name, "erf") || !strcmp(name, "tanh")) {
    expect_bits(tc, inf, 1.0f);
    expect_bits(tc, -inf, -1.0f);
    expect_bits(tc, 0.0f, 0.0f);
    expect_bits(tc, -0.0f, -0.0f);
  } else if (!strcmp(name, "sigmoid")) {
    expect_bits(tc, inf, 1.0f);
    expect_bits(tc, -inf, 0.0f);
    expect_bits(tc, 0.0f, 0.5f);
    expect_bits(tc, -0.0f, 0.5f);
  } else {
    /* gelu, gelu_tanh, silu, quick_gelu, swish(alpha > 0): x at +inf, -0 at -inf */
    float lo = -0.0f, hi = inf;
    if (op->kind == OP_SWISH && op->alpha < 0) { /* x sigmoid(alpha x), alpha < 0 */
      lo = -inf;
      hi = 0.0f;
    }
    expect_bits(tc, inf, hi);
    expect_bits(tc, -inf, lo);
  }
  /* every op: +-inf and +-0 exactly as the reference says (ULP error 0) */
  static const float exact[] = {INFINITY, -INFINITY, 0.0f, -0.0f};
  for (size_t i = 0; i < 4; i++) {
    float y = run1(op, exact[i]);
    double r = ref_of(op, (double)exact[i]);
    double e = actk_ulp_error(y, r);
    test_check(e == 0, "%s(%a) = %a (0x%08x), reference %g: error %g ULP", tc->name,
               (double)exact[i], (double)y, f2u(y), r, e);
  }
}

/* erf and tanh: f(-x) == -f(x) bit for bit on the whole sample */
static void test_odd(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_arm(tc);
  float *xn = malloc(g_n * sizeof(float));
  float *yp = malloc(g_n * sizeof(float)), *yn = malloc(g_n * sizeof(float));
  assert_non_null(xn);
  assert_non_null(yp);
  assert_non_null(yn);
  for (size_t i = 0; i < g_n; i++) xn[i] = u2f(f2u(g_x[i]) ^ 0x80000000u);
  assert_int_equal(test_run(op, g_x, NULL, 0, yp, g_n), ACTK_OK);
  assert_int_equal(test_run(op, xn, NULL, 0, yn, g_n), ACTK_OK);
  for (size_t i = 0; i < g_n; i++) {
    if (isnan(g_x[i])) continue; /* NaN: only NaN-ness is promised */
    if (f2u(yn[i]) != (f2u(yp[i]) ^ 0x80000000u)) {
      float x = g_x[i], a = yp[i], b = yn[i];
      free(xn);
      free(yp);
      free(yn);
      test_fail("%s is not exactly odd: f(%a) = %a (0x%08x) but f(%a) = %a (0x%08x)", tc->name,
                (double)x, (double)a, f2u(a), -(double)x, (double)b, f2u(b));
    }
  }
  free(xn);
  free(yp);
  free(yn);
}

int main(void) {
  test_op all[TEST_MAX_OPS];
  size_t n_all = test_ops(all);
  for (size_t i = 0; i < n_all; i++)
    if (all[i].kind != OP_BIAS) g_ops[g_n_ops++] = all[i]; /* bias ops: see test_bias */
  build_sample();

  int failed = test_run_op_arm_group("accuracy: dense sample", g_ops, g_n_ops, test_sample);
  failed += test_run_op_arm_group("accuracy: special values", g_ops, g_n_ops, test_special_values);
  test_op odd[2];
  size_t n_odd = 0;
  for (size_t i = 0; i < g_n_ops; i++)
    if (!strcmp(g_ops[i].name, "erf") || !strcmp(g_ops[i].name, "tanh")) odd[n_odd++] = g_ops[i];
  failed += test_run_op_arm_group("accuracy: odd functions", odd, n_odd, test_odd);
  free(g_x);
  free(g_ref);
  return failed != 0;
}
