/* Accuracy against the exact reference of tools/exact.h (ties and
 * representable values settled exactly, by MPFR where a double cannot tell),
 * on every ISA:
 *   - a dense deterministic sample (every 4099th bit pattern of all 2^32,
 *     1M evenly spaced floats in [-16, 16], and the floats around each op's
 *     worst input and around every point where a kernel switches interval,
 *     path or clamp) within the library's bound of 2 ULP, decided exactly
 *     (the failure names the worst input), and each README op within the
 *     maximum and the share correctly rounded that README's accuracy
 *     table gives for all 2^32 inputs (a change to the arithmetic that costs
 *     accuracy fails here even under 2 ULP: the table and the code must move
 *     together);
 *   - special values: NaN -> the same NaN quieted (sign and payload kept), the
 *     limits at +-inf, signed zeros;
 *   - the ops the registry calls odd (erf, tanh) are exactly odd on the
 *     sample: f(-x) == -f(x) bitwise;
 *   - the ops it calls monotone (erf, tanh, sigmoid) never step down between
 *     neighbouring floats, on runs of consecutive floats spread over [-32, 32].
 * The full 2^32 sweep is tools/actk_sweep; this is the CI-sized sample. */
#include "actk_test.h"
#include "exact.h"
#include "readme_table.h"

/* README's accuracy table (tests/readme_table.h): the max over all 2^32
 * inputs (printed to three decimals, so + 0.001 here), where it occurs, and
 * the share of all inputs correctly rounded (percent, two decimals), and how
 * many of this test's every-4099th-pattern sample are correctly rounded (the
 * sweep counts that subset exactly as it counts all inputs: tools/sweep.c,
 * sample_correct in the data). Every op of the table's tier and type must have
 * a row. The sample is a subset of all inputs, so its maximum cannot exceed
 * the documented one, and it holds the WORST_RUN floats around each worst
 * input, so a change that makes the worst case worse fails here. A change that
 * costs accuracy elsewhere, or leaves the maximum alone, moves the sample's
 * count (erf's P(0) one float off: the same maximum, 92.61% correctly rounded
 * instead of 99.14%), and the count must match exactly: a sample's share is no
 * estimate of the full share (silu's fast tier on a 16-entry table: 92.98% of
 * the sample, 93.03% of all inputs), so the count of the very inputs the test
 * runs is what is held. A loss confined to a narrow range may still miss the
 * sample: the max and the switch-point windows are what guard those. */
/* One table per tier ("f32 accurate", "f32 fast"): the accurate tier's
 * maximum in ULP, the fast tier's as a relative error (its bound is one). */
#define MAX_TIERS 4
#define MAX_DOCUMENTED 32
static readme_row documented[MAX_TIERS][MAX_DOCUMENTED];
static int n_documented[MAX_TIERS];
static const char *tier_names[MAX_TIERS];
static int n_tiers;
#define WORST_RUN 4096u

static const readme_row *documented_row(int tier, const char *name) {
  for (int i = 0; i < n_documented[tier]; i++)
    if (!strcmp(documented[tier][i].op, name)) return &documented[tier][i];
  return NULL;
}

/* The error a tier's bound is stated in: relative (the fast tier) or ULP. */
static int measures_rel(const actk_op_info *e) { return e->bound_rel > 0; }
static double bound_of(const actk_op_info *e) {
  return measures_rel(e) ? e->bound_rel : e->bound_ulp;
}

/* Where the kernels switch interval, path or clamp (in |x|, src/ops.toml's
 * breaks): a wrong switch costs a few floats and a coarse sample steps over
 * them, so the sample holds the BREAK_RUN floats around each, both signs. */
#define MAX_BREAKPOINTS 160
#define BREAK_RUN 512u

/* Every op's breaks (src/ops.toml, through the catalog), each value once. */
static size_t switch_points(double *b) {
  size_t n = 0;
  for (size_t e = 0; e < actk_catalog_size; e++) {
    const actk_op_info *o = &actk_catalog[e];
    int seen = 0; /* every tier and type of an op shares its function */
    for (size_t f = 0; f < e && !seen; f++) seen = actk_catalog[f].breaks == o->breaks;
    if (seen) continue;
    double v[ACTK_MAX_BREAKS];
    size_t m = o->breaks(v);
    for (size_t i = 0; i < m; i++) {
      size_t d = 0;
      while (d < n && b[d] != v[i]) d++;
      if (d == n) {
        if (n == MAX_BREAKPOINTS) abort();
        b[n++] = v[i];
      }
    }
  }
  return n;
}

/* In a quick run (plain ctest), and at any level under the sanitizers (100x
 * slower), a sample an eighth the size (TEST_SMALL): the share within 0.5 ULP
 * is not checked there; `ctest -L exhaustive` runs the dense sample. */
#define STRIDE (TEST_SMALL ? 32795u : 4099u)
#define N_UNIFORM (TEST_SMALL ? 125000u : 1000000u)

static test_op g_ops[TEST_MAX_OPS];
static size_t g_n_ops;
static float *g_x;
static size_t g_n;

static size_t g_n_stride; /* g_x[0 .. g_n_stride): every STRIDE-th bit pattern */

/* What the exact reference says of one op's results on the sample: the worst
 * error (the tier's measure) and where, how many over the tier's bound
 * (decided exactly), and the share of the stride part correctly rounded
 * (as the sweep counts it, NaN inputs included). Made once per op and tier:
 * every ISA gives the same bits (test_bits), and an ISA that does not is
 * judged on its own. */
typedef struct {
  double worst;
  size_t at, over, correct, counted;
} sample_verdict;

static const test_op *g_verdict_op;
static float *g_verdict_y;
static sample_verdict g_verdict;

static const sample_verdict *verdict_of(const test_op *op, const float *y) {
  if (g_verdict_op == op && !memcmp(g_verdict_y, y, g_n * sizeof *y)) return &g_verdict;
  const actk_op_info *e = op->info;
  const int rel = measures_rel(e);
  const double bound = bound_of(e);
  sample_verdict v = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < g_n; i++) {
    actk_xval t = actk_xval_of(e->xref, (double)g_x[i], op->kind == OP_SWISH ? op->alpha : 0.0);
    actk_x_verdict j = actk_x_judge_f32(y[i], &t);
    double err = rel ? j.rel : j.ulp;
    v.over += (size_t)(rel ? err > bound : j.over[(int)bound]);
    if (i < g_n_stride) {
      v.counted++;
      v.correct += (size_t)j.correct;
    }
    if (err > v.worst || (isnan(err) && !isnan(v.worst))) {
      v.worst = err;
      v.at = i;
    }
  }
  if (!g_verdict_y) g_verdict_y = malloc(g_n * sizeof *g_verdict_y);
  if (!g_verdict_y) abort();
  memcpy(g_verdict_y, y, g_n * sizeof *y);
  g_verdict_op = op;
  g_verdict = v;
  return &g_verdict;
}

static void add_window(size_t *k, double at) {
  for (int sgn = 0; sgn < 2; sgn++) {
    uint32_t c = f2u((float)at) | (sgn ? 0x80000000u : 0u);
    for (uint32_t i = 0; i < BREAK_RUN; i++) g_x[(*k)++] = u2f(c - BREAK_RUN / 2 + i);
  }
}

static void build_sample(void) {
  double points[MAX_BREAKPOINTS];
  size_t n_points = switch_points(points);
  if (n_points > MAX_BREAKPOINTS) abort();
  g_n_stride = (size_t)((0xffffffffull / STRIDE) + 1);
  size_t n_rows = 0;
  for (int t = 0; t < n_tiers; t++) n_rows += (size_t)n_documented[t];
  g_n = g_n_stride + N_UNIFORM + n_rows * WORST_RUN + n_points * 2 * BREAK_RUN;
  g_x = malloc(g_n * sizeof(float));
  if (!g_x) abort();
  size_t k = 0;
  for (uint64_t i = 0; i < g_n_stride; i++) g_x[k++] = u2f((uint32_t)(i * STRIDE));
  for (uint32_t i = 0; i < N_UNIFORM; i++)
    g_x[k++] = (float)(-16.0 + 32.0 * (double)i / (double)(N_UNIFORM - 1));
  for (int t = 0; t < n_tiers; t++)
    for (int d = 0; d < n_documented[t]; d++)
      for (uint32_t i = 0; i < WORST_RUN; i++)
        g_x[k++] = u2f(f2u(documented[t][d].worst_x) - WORST_RUN / 2 + i);
  for (size_t b = 0; b < n_points; b++) add_window(&k, points[b]);
  if (k != g_n) abort();
}

static void test_sample(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_isa(tc);

  float *y = malloc(g_n * sizeof(float));
  assert_non_null(y);
  assert_int_equal(test_run(op, g_x, NULL, 0, y, g_n), ACTK_OK);
  const actk_op_info *e = op->info;
  const int rel = measures_rel(e);
  const double bound = bound_of(e);
  const char *unit = rel ? "relative" : "ULP";
  const sample_verdict *sv = verdict_of(op, y);
  const double worst = sv->worst;
  const size_t at = sv->at;
  double share = 100.0 * (double)sv->correct / (double)sv->counted;
  print_message("%-20s max error %.4g %s at x=%a; %.2f%% correctly rounded\n", tc->name, worst,
                unit, (double)g_x[at], share);
  float xw = g_x[at], yw = y[at];
  free(y);
  if (sv->over) {
    actk_xval t = actk_xval_of(op->info->xref, (double)xw, op->kind == OP_SWISH ? op->alpha : 0.0);
    test_fail("%s: %zu of %zu inputs over the tier's bound %.4g %s; worst %.4g at x=%a (0x%08x): "
              "got %a (0x%08x), true value %.17g",
              tc->name, sv->over, g_n, bound, unit, worst, (double)xw, f2u(xw), (double)yw, f2u(yw),
              actk_x_approx(&t));
  }
  if (!test_documented(op)) return; /* README documents the unary ops (and elu at alpha 1) */
  const readme_row *row = documented_row(e->tier, e->name);
  test_check(row, "%s: README's accuracy table \"f32 %s\" has no row for %s", tc->name,
             e->tier_name, e->name);
  /* README prints ULP to three decimals and relative errors to four digits */
  double doc = rel ? row->max * 1.0005 : row->max + 0.001;
  if (!(worst <= doc))
    test_fail("%s: %.4g %s at x=%a, over the %.4g README documents for %s (all 2^32 "
              "inputs): the arithmetic changed; re-run tools/actk_sweep and update the table",
              tc->name, worst, unit, (double)xw, row->max, op->name);
  if (TEST_SMALL) return; /* the quick run's sample is another subset */
  test_check(row->sample_correct >= 0,
             "%s: docs/accuracy.tsv's row has no sample_correct: python3 tools/readme_rows.py "
             "--sample fills it",
             tc->name);
  if ((long)sv->correct != row->sample_correct)
    test_fail("%s: %zu of the sample's %zu inputs correctly rounded (%.4f%%), docs/accuracy.tsv "
              "documents %ld (%.4f%%; all 2^32 inputs %.2f%%): the arithmetic changed; re-run "
              "python3 tools/readme_rows.py --all --op %s and tools/gen_ops.py",
              tc->name, sv->correct, sv->counted, share, row->sample_correct,
              100.0 * (double)row->sample_correct / (double)sv->counted, row->correct_pct, e->name);
}

/* ---- special values ---- */

static float run1(const test_op *op, float x) {
  float y = u2f(0x12345678u);
  actk_status s = test_run(op, &x, NULL, 0, &y, 1);
  if (s != ACTK_OK) test_fail("%s(%a): status %s", op->name, (double)x, test_status_name(s));
  return y;
}

static void test_special_values(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_isa(tc);

  /* NaN in, NaN out, whatever the sign and payload (quiet or signaling) */
  static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                  0x7fffffffu, 0xffffffffu, 0x7fa00000u, 0xffc12345u};
  for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
    float y = run1(op, u2f(nans[i]));
    test_check(isnan(y), "%s(NaN 0x%08x) = %a (0x%08x), want a NaN", tc->name, nans[i], (double)y,
               f2u(y));
    /* and the same NaN, quieted: sign and payload kept, on every ISA */
    test_check(f2u(y) == (nans[i] | 0x00400000u),
               "%s(NaN 0x%08x) = NaN 0x%08x, want the input quieted, 0x%08x", tc->name, nans[i],
               f2u(y), nans[i] | 0x00400000u);
  }

  /* every op: the limits at +-inf and the signed results at +-0, exactly as
   * the reference says (ULP error 0 also means the same sign); where the value at +-0
   * is not a float (softplus: ln 2), correctly rounded */
  static const float exact[] = {INFINITY, -INFINITY, 0.0f, -0.0f};
  for (size_t i = 0; i < 4; i++) {
    float y = run1(op, exact[i]);
    actk_xval t =
        actk_xval_of(op->info->xref, (double)exact[i], op->kind == OP_SWISH ? op->alpha : 0.0);
    double e = actk_x_ulp_error(y, &t);
    int ok = t.exact ? e == 0 : exact[i] == 0 && actk_x_correct_f32(y, &t);
    test_check(ok, "%s(%a) = %a (0x%08x), true value %g: error %g ULP", tc->name, (double)exact[i],
               (double)y, f2u(y), actk_x_approx(&t), e);
  }
}

/* erf and tanh: f(-x) == -f(x) bit for bit on the whole sample */
static void test_odd(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_isa(tc);
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

/* Monotone ops: y never decreases as x steps to the next float. Runs of
 * RUN consecutive floats start at N_RUNS evenly spaced bit patterns between
 * 2^-8 and 32 on each side, walked in increasing x (a dip is between
 * neighbours, so a coarse grid would step over it); the whole sequence is
 * increasing, so it is checked across runs too. Then the BREAK_RUN floats
 * around each of the op's breaks, both signs, each run on its own: where a
 * kernel switches form or interval, the two sides' errors meet, and that is
 * where a step down lives (tanh's switch at ln2 and its steps of n). */
#define RUN 2048u
#define N_RUNS 256u

static void test_monotone(void **state) {
  test_case *tc = *state;
  test_use_isa(tc);
  const size_t n = 2 * (size_t)N_RUNS * RUN;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  assert_non_null(x);
  assert_non_null(y);
  const uint32_t lo = 0x3b800000u /* 2^-8 */, hi = 0x42000000u /* 32 */;
  size_t k = 0;
  for (uint32_t r = N_RUNS; r-- > 0;) /* negative side, most negative first */
    for (uint32_t i = RUN; i-- > 0;)
      x[k++] = u2f(0x80000000u | (lo + r * ((hi - lo) / N_RUNS) + i));
  for (uint32_t r = 0; r < N_RUNS; r++)
    for (uint32_t i = 0; i < RUN; i++) x[k++] = u2f(lo + r * ((hi - lo) / N_RUNS) + i);
  assert_int_equal(test_run(tc->op, x, NULL, 0, y, n), ACTK_OK);
  size_t dips = 0, first = 0;
  for (size_t i = 1; i < n; i++)
    if (y[i] < y[i - 1] && dips++ == 0) first = i;
  if (dips) {
    float x0 = x[first - 1], x1 = x[first], y0 = y[first - 1], y1 = y[first];
    free(x);
    free(y);
    test_fail("%s is not monotone: %zu steps down in %zu inputs; first f(%a) = %a (0x%08x) then "
              "f(%a) = %a (0x%08x)",
              tc->name, dips, n, (double)x0, (double)y0, f2u(y0), (double)x1, (double)y1, f2u(y1));
  }
  double b[ACTK_MAX_BREAKS];
  size_t nb = tc->op->info->breaks(b);
  for (size_t j = 0; j < 2 * nb; j++) {
    if (!(b[j / 2] > 0) || !isfinite(b[j / 2])) continue;
    /* j even: the positive side; odd: the negative one, walked from its most negative float */
    uint32_t c = f2u((float)b[j / 2]) - BREAK_RUN / 2;
    for (uint32_t i = 0; i < BREAK_RUN; i++)
      x[i] = j % 2 ? u2f(0x80000000u | (c + BREAK_RUN - 1 - i)) : u2f(c + i);
    assert_int_equal(test_run(tc->op, x, NULL, 0, y, BREAK_RUN), ACTK_OK);
    for (uint32_t i = 1; i < BREAK_RUN; i++)
      if (y[i] < y[i - 1]) {
        float x0 = x[i - 1], x1 = x[i], y0 = y[i - 1], y1 = y[i];
        free(x);
        free(y);
        test_fail("%s is not monotone around its break %.9g: f(%a) = %a (0x%08x) then f(%a) = "
                  "%a (0x%08x)",
                  tc->name, b[j / 2], (double)x0, (double)y0, f2u(y0), (double)x1, (double)y1,
                  f2u(y1));
      }
  }
  free(x);
  free(y);
}

/* The param ops' NaN rule as their headers state it, on every ISA and tier: a NaN x comes
 * back as itself, quieted (sign and payload kept), whatever alpha is; where the
 * definition is NaN for a non-NaN x (swish: alpha * x NaN, alpha NaN or 0 * +-inf;
 * elu: alpha (e^x - 1) NaN, test_param_nan_at) the result is the default quiet NaN,
 * 0x7fc00000. (The header used to promise the default
 * NaN for a NaN x too; every arm returns x's.) */
static void test_swish_nan_rule(void **state) {
  test_case *tc = *state;
  test_use_isa(tc);
  static const uint32_t alphas[] = {0x7fc00000u, 0xffd12345u, 0x7f800001u, 0xffa00000u,
                                    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                    0x3f800000u, 0xc0000000u};
  static const uint32_t xs[] = {0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0xffd00001u, 0x7f800001u,
                                0xffa00000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                0x3f800000u, 0xbf800000u, 0x00000001u, 0x7f7fffffu};
  enum { NX = sizeof xs / sizeof xs[0] };
  float x[NX], y[NX];
  for (size_t i = 0; i < NX; i++) x[i] = u2f(xs[i]);
  size_t checked = 0;
  for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
    const float alpha = u2f(alphas[a]);
    test_check(actk_op_call(tc->op->info, NULL, x, NULL, 0, y, NX, alpha) == ACTK_OK, "%s: status",
               tc->name);
    for (size_t i = 0; i < NX; i++) {
      uint32_t want;
      if (isnan(x[i]))
        want = xs[i] | 0x00400000u;
      else if (test_param_nan_at(tc->op->info, (double)x[i], (double)alpha))
        want = 0x7fc00000u;
      else
        continue;
      checked++;
      test_check(f2u(y[i]) == want, "%s: %s(x = 0x%08x, alpha = 0x%08x) = 0x%08x, want 0x%08x (%s)",
                 tc->name, tc->op->info->name, xs[i], alphas[a], f2u(y[i]), want,
                 isnan(x[i]) ? "x's NaN, quieted" : "the definition is NaN: the default NaN");
    }
  }
  test_check(checked >= 60, "%s: only %zu NaN cases checked", tc->name, checked);
}

/* The ops whose definition has property prop (ACTK_OP_ODD, ...). */
static size_t with_property(int prop, test_op *out) {
  size_t n = 0;
  for (size_t i = 0; i < g_n_ops; i++)
    if (g_ops[i].kind == OP_UNARY && (g_ops[i].info->props & prop)) out[n++] = g_ops[i];
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s README.md\n", argv[0]);
    return 2;
  }
  char err[512];
  for (size_t i = 0; i < actk_catalog_size; i++) { /* the tiers, in the catalog's order */
    const actk_op_info *e = &actk_catalog[i];
    if (e->tier >= MAX_TIERS) return 1;
    if (!tier_names[e->tier]) tier_names[e->tier] = e->tier_name;
    if (e->tier + 1 > n_tiers) n_tiers = e->tier + 1;
  }
  for (int t = 0; t < n_tiers; t++) {
    char key[64];
    snprintf(key, sizeof key, "f32 %s", tier_names[t]);
    n_documented[t] = readme_accuracy(argv[1], key, documented[t], MAX_DOCUMENTED, err, sizeof err);
    if (n_documented[t] < 0) {
      fprintf(stderr, "test_accuracy: %s\n", err);
      return 1;
    }
  }
  test_op all[TEST_MAX_OPS];
  size_t n_all = test_ops(all);
  for (size_t i = 0; i < n_all; i++)
    if (all[i].kind != OP_BIAS) g_ops[g_n_ops++] = all[i]; /* bias ops: see test_bias */
  build_sample();

  int failed = test_run_op_isa_group("accuracy: dense sample", g_ops, g_n_ops, test_sample);
  failed += test_run_op_isa_group("accuracy: special values", g_ops, g_n_ops, test_special_values);
  test_op odd[TEST_MAX_OPS], mono[TEST_MAX_OPS];
  size_t n_odd = with_property(ACTK_OP_ODD, odd), n_mono = with_property(ACTK_OP_MONOTONE, mono);
  if (n_odd == 0 || n_mono == 0) return 1; /* the registry lost its properties */
  failed += test_run_op_isa_group("accuracy: odd functions", odd, n_odd, test_odd);
  failed += test_run_op_isa_group("accuracy: monotone functions", mono, n_mono, test_monotone);
  test_op swish_nan[TEST_MAX_OPS];
  size_t n_swish = test_param_ops_once(g_ops, g_n_ops, swish_nan);
  failed += test_run_op_isa_group("accuracy: param ops where alpha makes a NaN", swish_nan, n_swish,
                                  test_swish_nan_rule);
  free(g_x);
  free(g_verdict_y);
  return failed != 0;
}
