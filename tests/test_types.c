/* The 16-bit types, exhaustively: for every op of the catalog in f16 and
 * bf16, both tiers, on every ISA, all 65536 inputs:
 *   - faithful against the exact reference (tools/exact.h: the true value,
 *     ties and representable values settled exactly, by MPFR where a double
 *     cannot tell): the result is the true value if the type holds it, else
 *     one of the two values around it; infinity only where the true value
 *     rounds to it; bias ops: the reference of the f32 sum x + bias;
 *   - NaN in gives the input NaN quieted (sign and payload kept), x's NaN
 *     first for the bias ops; swish where alpha * x is NaN for a non-NaN x
 *     (alpha NaN, 0 * inf) gives the type's default NaN;
 *   - the ops the registry calls monotone (erf, tanh, sigmoid) never step down:
 *     over every non-NaN input in increasing order, each result is at least the
 *     one before (the 16-bit result: an f32 core can be monotone and its
 *     rounding not, or the reverse);
 *   - every ISA gives the scalar ISA's bits;
 *   - the share correctly rounded and the maximum error (in ULPs of the type)
 *     are exactly README's table for the type and tier ("<!-- accuracy:
 *     bf16 accurate -->" ...): the table is the measurement, so a change of
 *     the arithmetic that moves either fails here until the table moves too;
 *     the accurate tier is correctly rounded on at least 99.9% of the inputs;
 *   - element i depends on x[i] only: calls at offsets 1..3 and lengths
 *     across the vector widths, starting every 1021 inputs (so tails fall in
 *     every exponent range), give the same bits as the full call, and a
 *     tail ending at a PROT_NONE page reads nothing past it;
 *   - a large call through a pool (which takes the parallel branch) gives the
 *     serial call's bits.
 * Caught: a narrowing that truncated instead of rounding to nearest (every
 * op unfaithful), a NaN turned into infinity by the bf16 rounding without its
 * NaN guard, a chunk start of a 16-bit call off the 16-element grid, and a
 * fast bf16 tanh scaled by 1 + 2^-10 on every other input (faithful, but it
 * stepped down at x = -3.375), and an AVX2 bf16 tail store that truncated
 * (with starts 21841 apart the tails fell only on tiny, huge and NaN inputs,
 * where truncating is exact: tanh and sigmoid passed). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <unistd.h>

#include "actk_test.h"
#include "test_os.h"
#include "exact.h"
#include "readme_table.h"
#include "runner.h"

#define N16 65536u
#define WIDTH 4096 /* bias ops: rows of 4096 (N16 is 16 of them) */

typedef struct {
  const char *type;
  const actk_fmt16 *fmt;
  uint16_t quiet;       /* the quiet bit of a NaN */
  uint16_t default_nan; /* 0x7fc00000 narrowed (include/actk.h) */
} type16;

static const type16 g_types[] = {{"f16", &actk_fmt_f16, 0x0200u, 0x7e00u},
                                 {"bf16", &actk_fmt_bf16, 0x0040u, 0x7fc0u}};

static uint16_t g_x[N16], g_bias[N16];
static test_op g_ops[2 * TEST_MAX_OPS];
static const type16 *g_type_of[2 * TEST_MAX_OPS];
static size_t g_n_ops;

/* README's tables, per type and tier */
#define MAX_ROWS 32
static readme_row g_doc[2][4][MAX_ROWS];
static int g_n_doc[2][4];
static const char *g_readme;

static int type_index(const type16 *t) { return t == &g_types[0] ? 0 : 1; }

static float value_f(const type16 *t, uint16_t h) { return (float)actk_fmt16_value(t->fmt, h); }

/* The inputs held to the exact reference (the costly part: MPFR decides the
 * close cases): every one in an exhaustive run (ACTK_TEST_LEVEL=exhaustive,
 * `ctest -L exhaustive`); in a quick run every 23rd, every magnitude below
 * 0x0400 (the subnormals and their ties, FTZ/DAZ's inputs) and the largest
 * finite values (overflow), both signs.
 * The checks that need no reference (NaNs, monotony, bit identity across
 * ISAs) see every input at both levels. */
static int g_all_inputs = -1;
/* and the inputs docs/accuracy.tsv names as each row's worst (at_x, in either
 * type): a table made stricter than the code then fails in a quick run too
 * (caught: bf16 fast sigmoid's 0.510 ULP at -2.3125 edited to 0.505 passed) */
static unsigned char g_doc_worst[N16];

static int sampled(size_t i) {
  if (g_all_inputs < 0) g_all_inputs = test_exhaustive();
  const uint16_t m = g_x[i] & 0x7fffu;
  return g_all_inputs || i % 23u == 0 || g_doc_worst[g_x[i]] || m < 0x0400u ||
         (m >= 0x7bfcu && m <= 0x7bffu) || (m >= 0x7f7cu && m <= 0x7f7fu);
}

/* The true value of element i (bias ops: of the f32 sum). */
static actk_xval xval_at(const test_op *op, const type16 *t, size_t i, size_t width) {
  float x = value_f(t, g_x[i]);
  if (op->kind == OP_BIAS) x = x + value_f(t, g_bias[i % width]);
  return actk_xval_of(op->info->xref, (double)x, op->kind == OP_SWISH ? (double)op->alpha : 0.0);
}

/* The NaN an input NaN must give, or 0 if element i has no NaN input. */
static int nan_expected(const test_op *op, const type16 *t, size_t i, size_t width,
                        uint16_t *want) {
  uint16_t x = g_x[i], inf = t->fmt->inf;
  if ((x & 0x7fffu) > inf) {
    *want = x | t->quiet;
    return 1;
  }
  if (op->kind == OP_BIAS) {
    uint16_t b = g_bias[i % width];
    if ((b & 0x7fffu) > inf) {
      *want = b | t->quiet;
      return 1;
    }
  }
  return 0;
}

/* Every non-NaN input of a type in increasing order of value (the two zeros
 * side by side), for the monotone ops. */
static uint32_t g_order[2][N16];
static size_t g_n_order[2];
static const type16 *g_sort_type;

static int by_value(const void *a, const void *b) {
  double u = actk_fmt16_value(g_sort_type->fmt, (uint16_t) * (const uint32_t *)a);
  double v = actk_fmt16_value(g_sort_type->fmt, (uint16_t) * (const uint32_t *)b);
  return (u > v) - (u < v);
}

static const uint32_t *order_of(const type16 *t, size_t *n) {
  const int ti = t == &g_types[0] ? 0 : 1;
  if (!g_n_order[ti]) {
    for (uint32_t i = 0; i < N16; i++)
      if (!isnan(actk_fmt16_value(t->fmt, (uint16_t)i))) g_order[ti][g_n_order[ti]++] = i;
    g_sort_type = t;
    qsort(g_order[ti], g_n_order[ti], sizeof g_order[ti][0], by_value);
  }
  *n = g_n_order[ti];
  return g_order[ti];
}

/* y[] of every input g_x[i] = i: the first step down in increasing x, or -1. */
static long first_step_down(const type16 *t, const uint16_t *y, uint16_t *at_x) {
  size_t n;
  const uint32_t *o = order_of(t, &n);
  for (size_t k = 1; k < n; k++)
    if (actk_fmt16_value(t->fmt, y[o[k]]) < actk_fmt16_value(t->fmt, y[o[k - 1]])) {
      *at_x = (uint16_t)o[k];
      return (long)o[k - 1];
    }
  return -1;
}

static uint16_t *g_scalar[2 * TEST_MAX_OPS]; /* the scalar ISA's results, per op */

/* The true values of the op last asked for (the ops' tests run op by op,
 * every ISA of one op before the next op). */
static actk_xval *g_xv;
static size_t g_xv_op = (size_t)-1;

static const actk_xval *xvals_of(size_t k) {
  if (!g_xv) g_xv = malloc(N16 * sizeof *g_xv);
  if (!g_xv) abort();
  if (g_xv_op != k) {
    for (size_t i = 0; i < N16; i++)
      if (sampled(i)) g_xv[i] = xval_at(&g_ops[k], g_type_of[k], i, WIDTH);
    g_xv_op = k;
  }
  return g_xv;
}

static void check_all_inputs(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  const size_t k = (size_t)(op - g_ops);
  const type16 *t = g_type_of[k];
  test_use_isa(tc);
  uint16_t *y = malloc(N16 * sizeof *y);
  assert_non_null(y);
  actk_status s = test_call(op, NULL, g_x, g_bias, WIDTH, y, N16);
  test_check(s == ACTK_OK, "%s: status %s", tc->name, test_status_name(s));

  const actk_xval *xv = xvals_of(k);
  size_t correct = 0, unfaithful = 0, first_bad = 0, counted = 0, worst_at = 0;
  /* the smallest subnormals: x/2 is a midpoint of the type and the f32 result of an op near
   * x/2 is often exactly x/2 (half_tie.h's ties); one input each, under the share's slack */
  long tie_missed = -1;
  double worst = 0;
  for (size_t i = 0; i < N16; i++) {
    uint16_t want;
    if (nan_expected(op, t, i, WIDTH, &want)) {
      test_check(y[i] == want, "%s(0x%04x) = 0x%04x: want the NaN quieted, 0x%04x", tc->name,
                 g_x[i], y[i], want);
      continue;
    }
    if (!sampled(i)) continue;
    actk_check16 c = actk_x_check16(t->fmt, y[i], &xv[i]);
    counted++;
    correct += (size_t)c.correct;
    if (!c.correct && (g_x[i] & 0x7fffu) == 1) tie_missed = (long)i;
    if (!c.faithful && unfaithful++ == 0) first_bad = i;
    if (c.ulp > worst) {
      worst = c.ulp;
      worst_at = i;
    }
  }
  double share = 100.0 * (double)correct / (double)counted;
  print_message("%-28s max %.3f ULP of %s at x=0x%04x (%.6g); %.2f%% correctly rounded\n", tc->name,
                worst, t->type, g_x[worst_at], (double)value_f(t, g_x[worst_at]), share);
  if (unfaithful) {
    size_t i = first_bad;
    test_fail("%s: %zu of %zu inputs not faithful; first x=0x%04x (%.9g): got 0x%04x (%.9g), "
              "true value %.17g (rounds to 0x%04x)",
              tc->name, unfaithful, counted, g_x[i], (double)value_f(t, g_x[i]), y[i],
              actk_fmt16_value(t->fmt, y[i]), actk_x_approx(&xv[i]),
              actk_x_round16(t->fmt, &xv[i]));
  }
  if (op->info->tier == 0 && op->kind == OP_UNARY)
    test_check(tie_missed < 0, "%s(0x%04x) = 0x%04x: not correctly rounded at the tie of x/2",
               tc->name, tie_missed < 0 ? 0u : g_x[tie_missed],
               tie_missed < 0 ? 0u : y[tie_missed]);
  if (op->info->tier == 0 && g_all_inputs) /* a share over all inputs */
    test_check(share >= 99.9, "%s: %.3f%% correctly rounded, under the accurate tier's 99.9%%",
               tc->name, share);
  if (op->kind == OP_UNARY && (op->info->props & ACTK_OP_MONOTONE)) {
    uint16_t hi = 0;
    long lo = first_step_down(t, y, &hi);
    test_check(lo < 0,
               "%s: not monotone: x=0x%04x (%.9g) gives 0x%04x (%.9g), the next x=0x%04x (%.9g) "
               "gives 0x%04x (%.9g)",
               tc->name, (unsigned)lo, lo < 0 ? 0.0 : actk_fmt16_value(t->fmt, (uint16_t)lo),
               lo < 0 ? 0u : y[lo], lo < 0 ? 0.0 : actk_fmt16_value(t->fmt, y[lo]), hi,
               actk_fmt16_value(t->fmt, hi), y[hi], actk_fmt16_value(t->fmt, y[hi]));
  }

  /* bit identity with the scalar ISA (which runs first: ISAs in the header's order) */
  if (tc->isa == ACTK_ISA_SCALAR) {
    g_scalar[k] = y;
  } else {
    test_check(g_scalar[k] != NULL, "%s: no scalar results to compare with", tc->name);
    for (size_t i = 0; i < N16; i++)
      if (y[i] != g_scalar[k][i]) {
        uint16_t got = y[i], want = g_scalar[k][i];
        free(y);
        test_fail("%s: x=0x%04x gives 0x%04x, the scalar ISA 0x%04x", tc->name, g_x[i], got, want);
      }
    free(y);
  }

  if (!test_documented(op)) return; /* README documents the unary ops (and elu at alpha 1) */
  const int ti = type_index(t), tier = op->info->tier;
  const readme_row *row = NULL;
  for (int r = 0; r < g_n_doc[ti][tier]; r++)
    if (!strcmp(g_doc[ti][tier][r].op, op->info->name)) row = &g_doc[ti][tier][r];
  test_check(row, "%s: README's table \"%s %s\" has no row for %s", tc->name, t->type,
             op->info->tier_name, op->info->name);
  if (!g_all_inputs) { /* a sample: never worse than the table's maximum */
    test_check(
        worst <= row->max + 0.0015,
        "%s: measured %.3f ULP at 0x%04x (a quick run's sample), over the %.3f ULP "
        "the accuracy table (%s) documents: the arithmetic changed (tools/actk_sweep %s --type %s "
        "--tier %s --readme 1)",
        tc->name, worst, g_x[worst_at], row->max, g_readme, op->info->name, t->type,
        op->info->tier_name);
    return;
  }
  test_check(fabs(worst - row->max) <= 0.0015 && fabs(share - row->correct_pct) <= 0.006,
             "%s: measured %.3f ULP at 0x%04x and %.2f%% correctly rounded over all inputs; README "
             "says %.3f ULP and %.2f%%: update the table (tools/actk_sweep %s --type %s --tier %s "
             "--readme 1)",
             tc->name, worst, g_x[worst_at], share, row->max, row->correct_pct, op->info->name,
             t->type, op->info->tier_name);
}

/* swish's NaN rule in the type, over all inputs, on every ISA and tier: a
 * NaN x comes back as itself quieted whatever alpha is; where alpha * x is
 * NaN for a non-NaN x (alpha NaN, or 0 * +-inf) the result is the type's
 * default NaN (the header's 0x7fc00000 narrowed). */
static void check_swish_nan(void **state) {
  test_case *tc = *state;
  const type16 *t = !strcmp(tc->op->info->type_name, "f16") ? &g_types[0] : &g_types[1];
  test_use_isa(tc);
  static const uint32_t alphas[] = {0x7fc00000u, 0xffd12345u, 0x7f800001u, 0x7f800000u,
                                    0xff800000u, 0x00000000u, 0x80000000u};
  uint16_t *y = malloc(N16 * sizeof *y);
  assert_non_null(y);
  size_t checked = 0;
  for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
    const float alpha = u2f(alphas[a]);
    test_check(actk_op_call(tc->op->info, NULL, g_x, NULL, 0, y, N16, alpha) == ACTK_OK,
               "%s: status", tc->name);
    for (size_t i = 0; i < N16; i++) {
      const float x = value_f(t, g_x[i]);
      uint16_t want;
      if (isnan(x))
        want = g_x[i] | t->quiet;
      else if (test_param_nan_at(tc->op->info, (double)x, (double)alpha))
        want = t->default_nan;
      else
        continue;
      checked++;
      if (y[i] != want) {
        uint16_t got = y[i];
        free(y);
        test_fail("%s: %s(x = 0x%04x, alpha = 0x%08x) = 0x%04x, want 0x%04x (%s)", tc->name,
                  tc->op->info->name, g_x[i], alphas[a], got, want,
                  isnan(x) ? "x's NaN, quieted" : "the definition is NaN: the default NaN");
      }
    }
  }
  free(y);
  /* elu's NaN alphas make NaNs of the x <= 0 half only */
  test_check(checked > (strcmp(tc->op->info->name, "elu") ? 3 * 60000u : 3 * 30000u),
             "%s: only %zu NaN cases checked", tc->name, checked);
}

/* swish at alphas across the scales, both signs: the accurate tier correctly
 * rounded on at least 99.9% of the inputs of every alpha (x sigmoid(alpha x)
 * is x/2 in f32 over a wide range of x when alpha is small: the ties of
 * src/math/half_tie.h), both tiers faithful, every ISA the scalar ISA's
 * bits. Caught: the tie fix ignoring alpha's sign (every negative alpha
 * under the bar, "swish(-0.5)/bf16/scalar: 99.608% correctly rounded"; also
 * by the all-inputs check at swish(-0.5)). */
static void check_swish_alphas(void **state) {
  (void)state;
  static const float alphas[] = {0x1p-20f, 0x1p-16f, 0x1p-12f, 0x1p-8f, 0x1p-4f, 0.001f,
                                 0.01f,    0.1f,     0.5f,     2.0f,    16.0f,   1024.0f,
                                 0x1p20f,  1e-30f,   1e30f,    0.0f};
  uint16_t *y = malloc(N16 * sizeof *y), *ys = malloc(N16 * sizeof *ys);
  actk_xval *xv = malloc(N16 * sizeof *xv);
  assert_non_null(y);
  assert_non_null(ys);
  assert_non_null(xv);
  const actk_isa saved = actk_isa_active();
  size_t checked = 0;
  for (size_t k = 0; k < g_n_ops; k++) {
    const test_op *op = &g_ops[k];
    if (op->kind != OP_SWISH || op->alpha != test_swish_alphas[0]) continue; /* each entry once */
    const type16 *t = g_type_of[k];
    for (size_t a = 0; a < 2 * sizeof alphas / sizeof alphas[0]; a++) {
      const float alpha = (a & 1 ? -1 : 1) * alphas[a / 2];
      for (size_t i = 0; i < N16; i++)
        if (sampled(i))
          xv[i] = actk_xval_of(op->info->xref, actk_fmt16_value(t->fmt, g_x[i]), (double)alpha);
      for (int isa = 0; isa < test_n_isa(); isa++) {
        if (!actk_isa_supported((actk_isa)isa)) continue;
        assert_int_equal(actk_isa_force((actk_isa)isa), ACTK_OK);
        uint16_t *out = isa ? y : ys;
        assert_int_equal(actk_op_call(op->info, NULL, g_x, NULL, 0, out, N16, alpha), ACTK_OK);
        size_t correct = 0, counted = 0, unfaithful = 0, first = 0;
        for (size_t i = 0; i < N16; i++) {
          if ((g_x[i] & 0x7fffu) > t->fmt->inf || !sampled(i)) continue;
          actk_check16 c = actk_x_check16(t->fmt, out[i], &xv[i]);
          counted++;
          correct += (size_t)c.correct;
          if (!c.faithful && !unfaithful++) first = i;
        }
        const double share = 100.0 * (double)correct / (double)counted;
        test_check(!unfaithful, "%s(%g)/%s/%s/%s: %zu inputs not faithful, first x=0x%04x",
                   op->info->name, (double)alpha, op->info->tier_name, t->type,
                   actk_isa_name((actk_isa)isa), unfaithful, g_x[first]);
        test_check(op->info->tier != 0 || !g_all_inputs || share >= 99.9,
                   "%s(%g)/%s/%s: %.3f%% correctly rounded, under the accurate tier's 99.9%%",
                   op->info->name, (double)alpha, t->type, actk_isa_name((actk_isa)isa), share);
        if (isa)
          for (size_t i = 0; i < N16; i++)
            test_check(y[i] == ys[i], "%s(%g)/%s/%s: x=0x%04x gives 0x%04x, scalar 0x%04x",
                       op->info->name, (double)alpha, t->type, actk_isa_name((actk_isa)isa), g_x[i],
                       y[i], ys[i]);
        checked++;
      }
    }
  }
  actk_isa_force(saved);
  free(y);
  free(ys);
  free(xv);
  test_check(checked >= 4 * 32, "only %zu param op runs checked", checked);
}

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define TEST_FTZ_DAZ 1
/* Under the caller's FTZ, DAZ and both (README: subnormal inputs and outputs
 * are flushed as the hardware does it): every 16-bit entry on every ISA, all
 * 65536 inputs, gives no NaN for a non-NaN input (and sum), a result of the
 * true value's sign (a flushed result a zero of that sign), every ISA the
 * scalar ISA's bits in the same mode, and the default mode's bits wherever
 * the input, the bias, the sum and that result are 2^-124 or more (or 0): far enough
 * from the subnormals that no f32 step of the kernel makes one. Caught: the tie
 * fix of src/math/half_tie.h applied where FTZ flushed the result to 0 (the
 * result and x * 0.5 both 0: a step down from 0 is 0xffffffff, narrowed to
 * +0): "silu/bf16/scalar under FTZ: x=0x8001 gives 0x0000, the true value is
 * negative", in 61 cases. */
static void check_ftz_daz(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  const type16 *t = g_type_of[op - g_ops];
  const actk_xval *xv = xvals_of((size_t)(op - g_ops));
  static const unsigned modes[] = {0x8000u, 0x0040u, 0x8040u};
  static const char *const mode_name[] = {"FTZ", "DAZ", "FTZ and DAZ"};
  test_use_isa(tc); /* first: an ISA not supported here skips (a longjmp) */
  uint16_t *want = malloc(N16 * sizeof *want), *ref = malloc(N16 * sizeof *ref);
  uint16_t *y = malloc(N16 * sizeof *y);
  assert_non_null(want);
  assert_non_null(ref);
  assert_non_null(y);
  assert_int_equal(test_call(op, NULL, g_x, g_bias, WIDTH, want, N16), ACTK_OK);
  const actk_isa isa = actk_isa_active();
  const unsigned saved = _mm_getcsr();
  for (size_t m = 0; m < 3; m++) {
    /* the scalar ISA's bits in this mode, then this ISA's */
    assert_int_equal(actk_isa_force(ACTK_ISA_SCALAR), ACTK_OK);
    _mm_setcsr(saved | modes[m]);
    actk_status s1 = test_call(op, NULL, g_x, g_bias, WIDTH, ref, N16);
    _mm_setcsr(saved);
    assert_int_equal(actk_isa_force(isa), ACTK_OK);
    _mm_setcsr(saved | modes[m]);
    actk_status s2 = test_call(op, NULL, g_x, g_bias, WIDTH, y, N16);
    _mm_setcsr(saved);
    test_check(s1 == ACTK_OK && s2 == ACTK_OK, "%s under %s: status", tc->name, mode_name[m]);
    for (size_t i = 0; i < N16; i++) {
      if (nan_expected(op, t, i, WIDTH, &(uint16_t){0})) continue;
      const float xf = value_f(t, g_x[i]);
      const float bf = op->kind == OP_BIAS ? value_f(t, g_bias[i % WIDTH]) : 0.0f;
      const float sum = op->kind == OP_BIAS ? xf + bf : xf;
      if (isnan(sum)) continue;
      const int known = sampled(i); /* the true value's sign */
      const int neg = !known        ? 0
                      : xv[i].exact ? signbit(xv[i].hi) != 0
                                    : actk_x_cmp(&xv[i], 0.0) < 0;
      const float yf = value_f(t, y[i]), wf = value_f(t, want[i]);
      test_check(!isnan(yf) && (!known || (signbit(yf) != 0) == neg),
                 "%s under %s: x=0x%04x gives 0x%04x, the true value is %s", tc->name, mode_name[m],
                 g_x[i], y[i], neg ? "negative" : "positive");
      test_check(y[i] == ref[i], "%s under %s: x=0x%04x gives 0x%04x, the scalar ISA 0x%04x",
                 tc->name, mode_name[m], g_x[i], y[i], ref[i]);
      /* (with a factor 4 of margin: an f32 result just below 2^-126 rounds
       * up to the smallest normal bf16, but FTZ flushes it first) */
      const int normal =
          (xf == 0 || fabsf(xf) >= 0x1p-124f) && (bf == 0 || fabsf(bf) >= 0x1p-124f) &&
          (sum == 0 || fabsf(sum) >= 0x1p-124f) && (wf == 0 || fabsf(wf) >= 0x1p-124f);
      test_check(!normal || y[i] == want[i],
                 "%s under %s: x=0x%04x gives 0x%04x, 0x%04x without it, and nothing is "
                 "subnormal there",
                 tc->name, mode_name[m], g_x[i], y[i], want[i]);
    }
  }
  free(want);
  free(ref);
  free(y);
}
#endif

/* Bias rows of any width give the bits of the same (x, bias) pairs in one
 * wide row (narrow rows are repeated into a wider one by the kernel). */
static void check_bias_widths(const test_case *tc) {
  static const size_t widths[] = {1, 2, 3, 7, 16, 17, 63, 64, 65, 100};
  enum { ROWS = 9 };
  uint16_t x[100 * ROWS], wide[100 * ROWS], want[100 * ROWS], got[100 * ROWS];
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
    const size_t w = widths[wi], n = w * ROWS;
    for (size_t i = 0; i < n; i++) {
      x[i] = g_x[(i * 7u + 3u * wi) % N16];
      wide[i] = g_bias[(i % w) * 13u + wi];
    }
    assert_int_equal(test_call(tc->op, NULL, x, wide, n, want, n), ACTK_OK);
    assert_int_equal(test_call(tc->op, NULL, x, wide, w, got, n), ACTK_OK);
    for (size_t i = 0; i < n; i++)
      test_check(got[i] == want[i],
                 "%s: width %zu, element %zu (x=0x%04x, bias=0x%04x): 0x%04x, one wide row gives "
                 "0x%04x",
                 tc->name, w, i, x[i], wide[i], got[i], want[i]);
  }
}

/* A bias op's sums on the ties of the type (src/math/half_tie.h): x a value
 * of each binade and parity, the bias half a unit in its last place (so the
 * f32 sum is a midpoint of the type where gelu(s) is s less a hair), the
 * smallest sums whose s/2 is a midpoint, and the largest value plus half a unit
 * (f16 65520, bf16 0x7f7f8000, where the true value rounds down to the largest, not
 * to infinity): the accurate tier correctly rounded, the fast tier faithful (no infinity
 * where the true value does not round to it). Caught: the bias ops without
 * their tie at x ("bias_gelu/f16/scalar: x=0x4825 + 0x1c00 gives 0x4826, the
 * true value rounds to 0x4825"), and the fast tier's f16 bias ops rounding
 * 65504 + 16 to infinity (they were: "bias_gelu/fast/f16/scalar: x=0x7bff +
 * 0x4c00 gives 0x7c00, the true value rounds to 0x7bff"), and with no tie at x the
 * bf16 fast tier's at 0x7f7f8000 ("bias_gelu/fast/bf16/avx512: x=0x7f7f + 0x7b00
 * gives 0x7f80, the true value rounds to 0x7f7f"), which no other sum here caught. */
static void check_bias_ties(const test_case *tc) {
  const test_op *op = tc->op;
  const type16 *t = g_type_of[op - g_ops];
  const int f16 = t == &g_types[0];
  enum { MAXN = 4096 };
  uint16_t x[MAXN], b[MAXN], y[MAXN];
  size_t n = 0;
  const int mant = t->fmt->mant;
  /* large sums: x = 2^e (1 + k / 2^mant), bias = 2^(e - mant - 1) */
  for (int e = 3; e <= (f16 ? 15 : 100); e++)
    for (uint32_t k = 0; k < 16 && n + 1 < MAXN; k++) {
      double v = ldexp(1.0 + (double)(k * 37 % (1u << mant)) / (double)(1u << mant), e);
      x[n] = actk_fmt16_round(t->fmt, v);
      b[n] = actk_fmt16_round(t->fmt, ldexp(1.0, e - mant - 1));
      n++;
    }
  /* small sums whose half is a midpoint: x = 2^e, bias = 2^(e - mant) */
  for (int e = f16 ? -14 : -120; e <= -24 && n + 1 < MAXN; e++)
    for (int sg = 0; sg < 2; sg++) {
      x[n] = (uint16_t)(actk_fmt16_round(t->fmt, ldexp(1.0, e)) | (sg ? 0x8000u : 0u));
      b[n] = (uint16_t)(actk_fmt16_round(t->fmt, ldexp(1.0, e - mant)) | (sg ? 0x8000u : 0u));
      n++;
    }
  /* the largest finite value plus half a unit: f16 65504 + 16, bf16 0x7f7f + 2^119 */
  x[n] = f16 ? 0x7bffu : 0x7f7fu;
  b[n] = f16 ? 0x4c00u : 0x7b00u;
  n++;
  for (size_t i = 0; i < n; i++) { /* one pair per row of width 1 */
    assert_int_equal(test_call(op, NULL, &x[i], &b[i], 1, &y[i], 1), ACTK_OK);
    const float sum = value_f(t, x[i]) + value_f(t, b[i]);
    actk_xval xv = actk_xval_of(op->info->xref, (double)sum, 0.0);
    actk_check16 c = actk_x_check16(t->fmt, y[i], &xv);
    test_check(c.faithful && (op->info->tier != 0 || c.correct),
               "%s: x=0x%04x + 0x%04x gives 0x%04x, the true value rounds to 0x%04x", tc->name,
               x[i], b[i], y[i], actk_x_round16(t->fmt, &xv));
  }
}

/* Offsets and lengths: the same bits as the full call (made above, per ISA). */
static void check_offsets(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_isa(tc); /* first: the teardown restores what it saved */
  if (op->kind == OP_BIAS) {
    check_bias_widths(tc);
    check_bias_ties(tc);
    return;
  }
  uint16_t *full = malloc(N16 * sizeof *full), *y = malloc((N16 + 8) * sizeof *y);
  assert_non_null(full);
  assert_non_null(y);
  assert_int_equal(test_call(op, NULL, g_x, NULL, 0, full, N16), ACTK_OK);
  static const size_t lengths[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 100};
  for (size_t o = 1; o < 4; o++)
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
      size_t n = lengths[li];
      for (size_t at = 0; at + o + n <= N16; at += 1021) { /* starts across every exponent range */
        memset(y, 0xee, (n + 8) * sizeof *y);
        assert_int_equal(test_call(op, NULL, g_x + at + o, NULL, 0, y + o, n), ACTK_OK);
        for (size_t i = 0; i < n; i++)
          test_check(y[o + i] == full[at + o + i],
                     "%s: x at offset %zu, n=%zu: element %zu is 0x%04x, the full call's 0x%04x",
                     tc->name, at + o, n, i, y[o + i], full[at + o + i]);
        test_check(y[0] == 0xeeeeu && y[o + n] == 0xeeeeu, "%s: n=%zu wrote outside y", tc->name,
                   n);
      }
    }
  /* a tail that ends at an inaccessible page: nothing past n is read or written */
  size_t page = test_page_size();
  char *map = test_pages_map(2 * page, 1);
  assert_non_null(map);
  assert_int_equal(test_pages_noaccess(map + page, page), 0);
  test_watch_faults();
  for (size_t n = 1; n <= 40; n++) {
    uint16_t *xe = (uint16_t *)(void *)(map + page) - n;
    memcpy(xe, g_x + 12345, n * sizeof *xe);
    snprintf(test_context, sizeof test_context, "%s, n=%zu in place at a page end", tc->name, n);
    assert_int_equal(test_call(op, NULL, xe, NULL, 0, xe, n), ACTK_OK);
    for (size_t i = 0; i < n; i++)
      test_check(xe[i] == full[12345 + i], "%s: n=%zu at a page end: element %zu differs", tc->name,
                 n, i);
  }
  test_pages_unmap(map, 2 * page);
  free(full);
  free(y);
}

/* A large 16-bit call through a pool: the parallel branch, the serial bits. */
static void check_pool(void **state) {
  (void)state;
  print_message("ISA %s (%s)\n", actk_isa_name(actk_isa_active()), actk_isa_reason());
  const size_t n = (TEST_SMALL ? 16 : 64) * (size_t)N16;
  uint16_t *x = malloc(n * sizeof *x), *want = malloc(n * sizeof *want), *got = malloc(n * 2);
  assert_non_null(x);
  assert_non_null(want);
  assert_non_null(got);
  for (size_t i = 0; i < n; i++) x[i] = g_x[(i * 40503u) % N16];
  actk_pool_config c;
  actk_pool_config_init(&c);
  c.threads = 3;
  actk_pool *pool;
  assert_int_equal(actk_pool_create(&c, &pool), ACTK_OK);
  for (size_t k = 0; k < g_n_ops; k++) {
    const test_op *op = &g_ops[k];
    if (op->kind == OP_SWISH && op->alpha != test_swish_alphas[0]) continue;
    assert_int_equal(test_call(op, NULL, x, g_bias, WIDTH, want, n), ACTK_OK);
    unsigned long before = atomic_load(&actk_runner_parallel_calls);
    /* until one goes parallel: a call that finds the workers asleep stays
     * serial at this length, and the next finds them spinning only if it
     * starts within their spin (a preemption in between can miss it) */
    int reps = 0;
    while (reps < 20 && atomic_load(&actk_runner_parallel_calls) == before) {
      assert_int_equal(test_call(op, pool, x, g_bias, WIDTH, got, n), ACTK_OK);
      reps++;
    }
    test_check(atomic_load(&actk_runner_parallel_calls) > before,
               "%.40s: %d calls of %zu elements on a 3-thread pool never took the parallel branch",
               op->name, reps, n);
    test_check(memcmp(want, got, n * 2) == 0,
               "%.40s: the pool's result differs from the serial one", op->name);
  }
  actk_pool_destroy(pool);
  free(x);
  free(want);
  free(got);
}

/* RoPE in each type: every rotated channel faithful to the double rotation of
 * its (widened) pair with the f32 caches, NaN inputs giving the type's default
 * NaN, the channels past rotary_dim copied bit for bit, every ISA the scalar
 * ISA's bits, both styles and layouts, with position ids and without. */
static void check_rope(void **state) {
  (void)state;
  /* RD = 104 runs every step of the row kernels: on AVX-512, split-half rows of 52
   * pairs take three vectors and a tail, interleaved rows three pairs of vectors and a
   * tail; on AVX2, interleaved ones six pairs, one vector (8) and no tail */
  enum { B = 2, S = 5, H = 3, D = 112, RD = 104, MAXP = 16, N = B * S * H * D };
  static float cs[MAXP * RD / 2], sn[MAXP * RD / 2];
  assert_int_equal(actk_rope_cache_f32(cs, sn, MAXP, RD, 10000.0), ACTK_OK);
  const int64_t ids[B * S] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
  uint16_t x[N], y[N], ys[N];
  const actk_isa saved = actk_isa_active();
  for (int ti = 0; ti < 2; ti++) {
    const type16 *t = &g_types[ti];
    for (size_t i = 0; i < N; i++) {
      uint16_t h = (uint16_t)(((i * 2654435761u) >> 13) & 0x3fffu); /* |x| < 2 (f16), 2^-? .. */
      h = (uint16_t)(h | ((i & 1) ? 0x8000u : 0u));
      if (t == &g_types[1]) h = (uint16_t)(h ^ 0x3000u); /* bf16: near 1 */
      x[i] = h;
    }
    x[5] = (uint16_t)(t->fmt->inf | 1u); /* a signalling NaN */
    x[D + 7] = t->fmt->inf;              /* +inf */
    for (int style = 0; style < 2; style++)
      for (int layout = 0; layout < 2; layout++)
        for (int with_ids = 0; with_ids < 2; with_ids++) {
          actk_rope_desc d;
          actk_rope_desc_init(&d);
          d.batch = B, d.seq_len = S, d.heads = H, d.head_size = D, d.rotary_dim = RD;
          d.layout = (actk_rope_layout)layout, d.style = (actk_rope_style)style;
          d.max_position = MAXP, d.position_start = 2;
          const int64_t *pid = with_ids ? ids : NULL;
          for (int isa = 0; isa < test_n_isa(); isa++) {
            if (!actk_isa_supported((actk_isa)isa)) continue;
            assert_int_equal(actk_isa_force((actk_isa)isa), ACTK_OK);
            const actk_status st = t == &g_types[0]
                                       ? actk_rope_f16(NULL, &d, x, pid, cs, sn, isa ? y : ys)
                                       : actk_rope_bf16(NULL, &d, x, pid, cs, sn, isa ? y : ys);
            test_check(st == ACTK_OK, "rope %s: status %s", t->type, test_status_name(st));
            if (isa)
              test_check(memcmp(y, ys, sizeof y) == 0,
                         "rope %s style %d layout %d ids %d: %s differs from scalar", t->type,
                         style, layout, with_ids, actk_isa_name((actk_isa)isa));
          }
          /* the reference, from the scalar results' positions */
          for (size_t row = 0; row < (size_t)B * S * H; row++) {
            size_t b, sq;
            if (layout == ACTK_ROPE_BSHD)
              b = row / (S * H), sq = (row / H) % S;
            else
              b = row / (S * H), sq = row % S;
            int64_t pos = with_ids ? ids[b * S + sq] : 2 + (int64_t)sq;
            const uint16_t *xr = x + row * D, *yr = ys + row * D;
            for (size_t j = 0; j < RD / 2; j++) {
              size_t ia = style ? 2 * j : j, ib = style ? 2 * j + 1 : j + RD / 2;
              double a = actk_fmt16_value(t->fmt, xr[ia]), bv = actk_fmt16_value(t->fmt, xr[ib]);
              double c = cs[pos * (RD / 2) + j], sv = sn[pos * (RD / 2) + j];
              double ra = a * c - bv * sv, rb = bv * c + a * sv;
              const uint16_t dnan = (uint16_t)(t->fmt->inf | t->quiet);
              for (int k = 0; k < 2; k++) {
                double r = k ? rb : ra;
                uint16_t got = yr[k ? ib : ia];
                if (isnan(a) || isnan(bv) || isnan(r)) {
                  test_check(got == dnan, "rope %s: a NaN channel gives 0x%04x, not 0x%04x",
                             t->type, got, dnan);
                  continue;
                }
                actk_check16 ck = actk_fmt16_check(t->fmt, got, r);
                test_check(ck.faithful,
                           "rope %s style %d layout %d: row %zu pair %zu: 0x%04x, reference %.9g",
                           t->type, style, layout, row, j, got, r);
              }
            }
            test_check(memcmp(xr + RD, yr + RD, (D - RD) * 2) == 0,
                       "rope %s: the channels past rotary_dim are not copied", t->type);
          }
        }
  }
  actk_isa_force(saved);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s README.md\n", argv[0]);
    return 2;
  }
  g_readme = argv[1];
  for (uint32_t i = 0; i < N16; i++) {
    g_x[i] = (uint16_t)i;
    g_bias[i] = (uint16_t)((i * 2654435761u) >> 16); /* every pattern, NaNs included */
  }
  char err[512];
  for (int ti = 0; ti < 2; ti++)
    for (size_t i = 0; i < actk_catalog_size; i++) {
      const actk_op_info *e = &actk_catalog[i];
      if (strcmp(e->type_name, g_types[ti].type) != 0 || e->tier >= 4 || g_n_doc[ti][e->tier])
        continue;
      char key[64];
      snprintf(key, sizeof key, "%s %s", g_types[ti].type, e->tier_name);
      g_n_doc[ti][e->tier] =
          readme_accuracy(g_readme, key, g_doc[ti][e->tier], MAX_ROWS, err, sizeof err);
      if (g_n_doc[ti][e->tier] < 0) {
        fprintf(stderr, "test_types: %s\n", err);
        return 1;
      }
      for (int r = 0; r < g_n_doc[ti][e->tier]; r++)
        g_doc_worst[actk_fmt16_round(g_types[ti].fmt, (double)g_doc[ti][e->tier][r].worst_x)] = 1;
    }
  for (int ti = 0; ti < 2; ti++) {
    size_t n = test_ops_of_type(g_ops + g_n_ops, g_types[ti].type);
    for (size_t i = 0; i < n; i++) g_type_of[g_n_ops + i] = &g_types[ti];
    g_n_ops += n;
  }
  if (g_n_ops == 0) return 1;
  int failed = test_run_op_isa_group("types: all 65536 inputs", g_ops, g_n_ops, check_all_inputs);
  failed +=
      test_run_op_isa_group("types: offsets, lengths, page ends", g_ops, g_n_ops, check_offsets);
#ifdef TEST_FTZ_DAZ
  failed += test_run_op_isa_group("types: under FTZ and DAZ", g_ops, g_n_ops, check_ftz_daz);
#endif
  test_op swish[2 * TEST_MAX_OPS];
  size_t n_swish = test_param_ops_once(g_ops, g_n_ops, swish);
  failed += test_run_op_isa_group("types: swish where x or alpha * x is NaN", swish, n_swish,
                                  check_swish_nan);
  const struct CMUnitTest more[] = {cmocka_unit_test(check_pool), cmocka_unit_test(check_rope),
                                    cmocka_unit_test(check_swish_alphas)};
  failed += cmocka_run_group_tests_name("types: pools, RoPE, swish's alphas", more, NULL, NULL);
  for (size_t k = 0; k < g_n_ops; k++) free(g_scalar[k]);
  free(g_xv);
  return failed != 0;
}
