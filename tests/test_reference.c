/* The exact reference (tools/exact.h), which every accuracy test and tool
 * judges results with, against GNU MPFR alone:
 *   - every double enclosure holds: for each op (swish at alphas from 2^-20
 *     to 1e30, both signs, and 0), at inputs across all 2^32 floats (a
 *     strided sample), every binade of both signs, a dense scan of
 *     [-800, 800] (where e^x and erfc under- and overflow in double) and the
 *     floats around every switch between the enclosure's regimes, MPFR's
 *     interval of the definition lies inside hi + [lo - err, lo + err] and
 *     does not contradict the claimed sides (t > hi, t < 0, ...);
 *   - its decisions are MPFR's: rounded to f32 and to f16 and bf16, the
 *     place of t between two values (faithfulness), the binade (ULP error),
 *     "over k ULP" (k = 1, 2) and the sweeps' one-pass verdict: the same as
 *     when every comparison goes to MPFR, on the
 *     inputs where t sits on or next to a tie or a value (tiny, huge, the
 *     subnormals) and a spread of the others;
 *   - the ties a double reference gets wrong are decided right: silu of
 *     bf16 2^-133 rounds to 0x0001 (double: 0x0000), swish_f16(2^-24,
 *     0.001f) to 0x0001, tanh(20) in bf16 has the faithful neighbour below 1
 *     (double: 1.0 is the only one), the ULP of tanh(20) in f32 is 2^-24.
 * A quick run (plain ctest) takes every 24th of a sparser sample;
 * `ctest -L exhaustive` the dense one (ACTK_TEST_LEVEL, tests/actk_test.h).
 * Caught: the side of swish's x/2 asymptote taken from the sign of x instead
 * of alpha ("claims t > hi" at alpha -0.5), tanh's series without its x^5
 * term (the interval not inside the enclosure at x = 2^-8). */
#include <float.h>

#include <mpfr.h>

#include "actk_test.h"
#include "exact.h"

/* The distinct references: the f32 accurate entries' (bias ops reuse their
 * activation's), swish once per alpha. */
typedef struct {
  const actk_xref *op;
  double alpha;
  char name[48];
} ref_case;

static const double g_alphas[] = {1.0,    (double)1.702f, -0.5,           0x1p-20, -0x1p-20,
                                  1e-30f, 1e30f,          (double)0.001f, 0.0};
#define MAX_CASES 64
static ref_case g_cases[MAX_CASES];
static size_t g_n_cases;

static void collect_cases(void) {
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (e->type != 0 || e->tier != 0 || e->shape == ACTK_SHAPE_BIAS) continue;
    size_t reps = e->shape == ACTK_SHAPE_PARAM ? sizeof g_alphas / sizeof g_alphas[0] : 1;
    for (size_t r = 0; r < reps; r++) {
      if (g_n_cases >= MAX_CASES) abort();
      ref_case *c = &g_cases[g_n_cases++];
      c->op = e->xref;
      c->alpha = e->shape == ACTK_SHAPE_PARAM ? g_alphas[r] : 0.0;
      if (e->shape == ACTK_SHAPE_PARAM)
        snprintf(c->name, sizeof c->name, "%s(%g)", e->name, c->alpha);
      else
        snprintf(c->name, sizeof c->name, "%s", e->name);
    }
  }
}

/* The sample: floats only (the references are held to float inputs). */
static float *g_x;
static size_t g_n;

static void add(size_t *k, size_t cap, float x) {
  if (*k < cap) g_x[(*k)++] = x;
}

/* x and the floats around it, both signs */
static void add_around(size_t *k, size_t cap, double at) {
  uint32_t c = f2u((float)fabs(at));
  for (int d = -3; d <= 3; d++)
    for (int s = 0; s < 2; s++) add(k, cap, u2f((c + (uint32_t)d) | (s ? 0x80000000u : 0u)));
}

static void build_sample(void) {
  const size_t cap = 32768;
  g_x = malloc(cap * sizeof *g_x);
  assert_non_null(g_x);
  size_t k = 0;
  const uint32_t stride = !test_exhaustive() ? 30000001u : TEST_SMALL ? 18000041u : 6000029u;
  for (uint64_t u = 12345; u < (UINT64_C(1) << 32); u += stride)
    if (!isnan(u2f((uint32_t)u))) add(&k, cap, u2f((uint32_t)u));
  for (int e = -149; e <= 127; e++) /* every binade, both signs */
    for (int s = 0; s < 2; s++) {
      static const double m[] = {1.0, 1.99999};
      for (int j = 0; j < 2; j++) add(&k, cap, (float)((s ? -1 : 1) * ldexp(m[j], e + j)));
    }
  for (double x = -800; x <= 800; x += !test_exhaustive() ? 11.37 : TEST_SMALL ? 4.37 : 2.37)
    add(&k, cap, (float)x);
  /* the regime switches of exact.c (in |x|, or in |alpha x| = 1, or in gelu_tanh's v = 1),
   * the smallest floats, the double exp/erfc limits */
  static const double at[] = {0x1p-8, 1.0, 2.0, 0x1p-149, 0x2p-149, 0x3p-149, 0x1p-126, 0x1p-125,
                              0.5, 0.6, 354.9, 372.6, 708.4, 745.1, 26.5, 27.3, 37.5, 38.6,
                              1 / 1.702, 1e-30, 1e30, 1e20, FLT_MAX, 0x1p20, 0x1p-20, 3.0, 1.5,
                              /* (an op's own points: its row's xbreaks, below) */
                              0x1p-13, 17.5, 17.33, 623.8, 1.19, 108.7};
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) add_around(&k, cap, at[i]);
  /* each op's own (src/ops.toml's xbreaks: a new op lists its regimes there) */
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (e->type != 0 || e->tier != 0 || e->shape == ACTK_SHAPE_BIAS || !e->xbreaks) continue;
    double b[ACTK_MAX_BREAKS];
    size_t nb = e->xbreaks(b);
    for (size_t j = 0; j < nb; j++) add_around(&k, cap, b[j]);
  }
  for (size_t i = 0; i < sizeof g_alphas / sizeof g_alphas[0]; i++)
    if (g_alphas[i] != 0) add_around(&k, cap, 1 / g_alphas[i]);
  add(&k, cap, 0.0f);
  add(&k, cap, -0.0f);
  add(&k, cap, INFINITY);
  add(&k, cap, -INFINITY);
  test_check(k < cap, "test_reference: the sample overflowed");
  g_n = k;
}

static void test_enclosures(void **state) {
  (void)state;
  for (size_t c = 0; c < g_n_cases; c++) {
    const ref_case *rc = &g_cases[c];
    size_t checked = 0, beyond = 0, proved = 0;
    for (size_t i = 0; i < g_n; i++) {
      actk_xval t = actk_xval_of(rc->op, (double)g_x[i], rc->alpha);
      char why[512];
      int pr = 0, r = actk_x_validate(&t, 256, &pr, why, sizeof why);
      if (r == 0) test_fail("%s: %s", rc->name, why);
      if (r < 0) { /* e^z or erfc past MPFR's exponent range: |z| > emax ln 2 */
        double x = (double)g_x[i];
        double z = rc->op == &actk_xref_gelu_tanh ? x + 0.044715 * x * x * x
                                                  : x * (rc->alpha != 0 ? rc->alpha : 1.0);
        /* where MPFR's exponent is a 32-bit long (Windows: emax 2^30 - 1),
         * e^-e leaves its range from e = emax ln 2 = 7.4e8: e = x^2/2 for
         * gelu (erfc), 1.6 |z| for gelu_tanh (e^-2u), 1.702 |x| for
         * quick_gelu, 2 |x| for mish (tanh's e^-2x), |z| for the rest; with a 64-bit long this
         * never decides (the 1e9 rule does) */
        const double e = rc->op == &actk_xref_gelu         ? 0.5 * x * x
                         : rc->op == &actk_xref_gelu_tanh  ? 1.6 * fabs(z)
                         : rc->op == &actk_xref_quick_gelu ? 1.702 * fabs(z)
                         : rc->op == &actk_xref_mish       ? 2.0 * fabs(z)
                                                           : fabs(z);
        test_check(fabs(z) > 1e9 || e > 0.69 * (double)mpfr_get_emax_max(),
                   "%s(x = %a): MPFR cannot form the interval", rc->name, (double)g_x[i]);
        beyond++;
        continue;
      }
      checked++;
      proved += (size_t)pr;
    }
    print_message("%-18s %zu enclosures hold (%zu with their sides proved at <= 4096 bits), %zu "
                  "inputs beyond MPFR's range\n",
                  rc->name, checked, proved, beyond);
    /* beyond: only the enclosure's claims decide there (t in (0, 2^-1060], t < 1 ...) */
    test_check(checked > g_n / 5, "%s: only %zu of %zu inputs checked", rc->name, checked, g_n);
  }
}

/* ---- decisions: hybrid vs MPFR alone ---- */

static const actk_fmt16 *const g_fmts[] = {&actk_fmt_f16, &actk_fmt_bf16};

/* The 16-bit inputs an MPFR-only check takes: every subnormal and the
 * binade above (every third: where x/2 lands on a midpoint), every 41st of the other tiny
 * and large ones (t near an asymptote), every 97th of the rest. */
static int interesting16(const actk_fmt16 *f, uint16_t h) {
  double v = fabs(actk_fmt16_value(f, h));
  if (v < ldexp(1.0, f->emin + 1)) return h % 3 == 0;
  if (v < 0x1p-10 || v > 4) return h % 41 == 0;
  return h % 97 == 0;
}

static void test_decisions16(void **state) {
  (void)state;
  const unsigned every = !test_exhaustive() ? 24 : TEST_SMALL ? 8 : 1;
  for (size_t c = 0; c < g_n_cases; c++)
    for (size_t fi = 0; fi < 2; fi++) {
      const ref_case *rc = &g_cases[c];
      const actk_fmt16 *f = g_fmts[fi];
      size_t compared = 0, k = 0, skipped = 0;
      for (uint32_t h = 0; h < 65536; h++) {
        double xv = actk_fmt16_value(f, (uint16_t)h);
        if (isnan(xv) || !interesting16(f, (uint16_t)h) || k++ % every) continue;
        if (fabs(xv) > 30 || fabs(xv * rc->alpha) > 1e4) continue; /* as in the f32 check */
        actk_xval t = actk_xval_of(rc->op, xv, rc->alpha);
        actk_xval m = actk_xval_mpfr_only(rc->op, xv, rc->alpha);
        uint64_t und = actk_x_stats_get().undecided;
        uint16_t rt = actk_x_round16(f, &t), rm = actk_x_round16(f, &m);
        if (actk_x_stats_get().undecided != und) { /* t within 2^-4096 of a value */
          skipped++;
          continue;
        }
        test_check(rt == rm, "%s %s x=0x%04x: rounds to 0x%04x, by MPFR alone 0x%04x", rc->name,
                   f->name, h, rt, rm);
        for (int d = -2; d <= 2; d++) { /* results around it */
          uint16_t y = (uint16_t)(rt + d);
          if ((y & 0x7fffu) > f->inf || ((rt ^ y) & 0x8000u)) continue;
          actk_check16 a = actk_x_check16(f, y, &t), b = actk_x_check16(f, y, &m);
          test_check(a.faithful == b.faithful && a.correct == b.correct &&
                         (a.ulp == b.ulp || fabs(a.ulp - b.ulp) <= 1e-9),
                     "%s %s x=0x%04x, y=0x%04x: faithful %d correct %d ulp %.12g; by MPFR alone "
                     "%d %d %.12g",
                     rc->name, f->name, h, y, a.faithful, a.correct, a.ulp, b.faithful, b.correct,
                     b.ulp);
        }
        compared++;
      }
      print_message("%-18s %-4s %zu inputs decided alike, %zu beyond MPFR at 4096 bits\n", rc->name,
                    f->name, compared, skipped);
      /* alpha 1e30: alpha x is past 1e4 for every f16 but the smallest */
      test_check(compared >= (fabs(rc->alpha) > 1e20 ? 1 : 300 / every),
                 "%s %s: only %zu inputs compared", rc->name, f->name, compared);
    }
}

static void test_decisions_f32(void **state) {
  (void)state;
  const size_t every = !test_exhaustive() ? 24 : TEST_SMALL ? 8 : 2;
  for (size_t c = 0; c < g_n_cases; c++) {
    const ref_case *rc = &g_cases[c];
    size_t compared = 0, skipped = 0;
    for (size_t i = 0; i < g_n; i += every) {
      double x = (double)g_x[i];
      /* past 30 (or alpha x past 1e4) t is within 2^-4096 of its asymptote: MPFR
       * alone cannot place it, the enclosure's sides do (checked above) */
      if (isinf(x) || fabs(x) > 30 || fabs(x * rc->alpha) > 1e4) continue;
      actk_xval t = actk_xval_of(rc->op, x, rc->alpha);
      actk_xval m = actk_xval_mpfr_only(rc->op, x, rc->alpha);
      uint64_t und = actk_x_stats_get().undecided;
      float rt = actk_x_round_f32(&t), rm = actk_x_round_f32(&m);
      if (actk_x_stats_get().undecided != und) {
        skipped++;
        continue;
      }
      test_check(f2u(rt) == f2u(rm), "%s x=%a: rounds to %a, by MPFR alone %a", rc->name, x,
                 (double)rt, (double)rm);
      for (int d = -2; d <= 2; d++) {
        uint32_t u = f2u(rt) + (uint32_t)d;
        if ((u & 0x7fffffffu) >= 0x7f800000u || ((u ^ f2u(rt)) & 0x80000000u)) continue;
        float y = u2f(u);
        double ea = actk_x_ulp_error(y, &t), eb = actk_x_ulp_error(y, &m);
        /* the sweeps' one-pass verdict too: the same decisions, and as the
         * functions above */
        actk_x_verdict ja = actk_x_judge_f32(y, &t), jb = actk_x_judge_f32(y, &m);
        test_check(ja.correct == jb.correct && ja.over[1] == jb.over[1] &&
                       ja.over[2] == jb.over[2] && fabs(ja.ulp - jb.ulp) <= 1e-9 &&
                       ja.correct == actk_x_correct_f32(y, &t) &&
                       ja.over[1] == actk_x_over_ulps(y, &t, 1) &&
                       ja.over[2] == actk_x_over_ulps(y, &t, 2) && fabs(ja.ulp - ea) <= 1e-12,
                   "%s x=%a, y=%a: judge_f32 correct %d over1 %d over2 %d %.12g ULP; by MPFR "
                   "alone %d %d %d %.12g",
                   rc->name, x, (double)y, ja.correct, ja.over[1], ja.over[2], ja.ulp, jb.correct,
                   jb.over[1], jb.over[2], jb.ulp);
        test_check(actk_x_over_ulps(y, &t, 1) == actk_x_over_ulps(y, &m, 1) &&
                       actk_x_correct_f32(y, &t) == actk_x_correct_f32(y, &m) &&
                       (ea == eb || fabs(ea - eb) <= 1e-9),
                   "%s x=%a, y=%a: over 1 ULP %d, correct %d, %.12g ULP; by MPFR alone %d %d "
                   "%.12g",
                   rc->name, x, (double)y, actk_x_over_ulps(y, &t, 1), actk_x_correct_f32(y, &t),
                   ea, actk_x_over_ulps(y, &m, 1), actk_x_correct_f32(y, &m), eb);
      }
      compared++;
    }
    print_message("%-18s f32  %zu inputs decided alike, %zu beyond MPFR at 4096 bits\n", rc->name,
                  compared, skipped);
    /* sanitized builds take every 8th input, quick runs every 24th, not every 2nd: the floor
     * scaled so */
    test_check(compared > (fabs(rc->alpha) > 1e20 ? 100 : 300) * 2 / every,
               "%s: only %zu inputs compared", rc->name, compared);
  }
}

/* ---- the ties a double reference misjudges ---- */

static void test_known_ties(void **state) {
  (void)state;
  actk_xval t = actk_xval_of(&actk_xref_silu, 0x1p-133, 0);
  /* silu(2^-133) = 2^-134 + 2^-268 - ...: just above the midpoint of 0 and 0x0001 */
  test_check(actk_x_round16(&actk_fmt_bf16, &t) == 0x0001, "silu bf16 0x0001 rounds to 0x%04x",
             actk_x_round16(&actk_fmt_bf16, &t));
  test_check(actk_fmt16_round(&actk_fmt_bf16, actk_ref_silu(0x1p-133)) == 0x0000,
             "the double reference no longer lands on the tie: this test's premise changed");
  t = actk_xval_of(&actk_xref_silu, -0x1p-133, 0);
  test_check(actk_x_round16(&actk_fmt_bf16, &t) == 0x8000, "silu bf16 0x8001 rounds to 0x%04x",
             actk_x_round16(&actk_fmt_bf16, &t));
  /* f32: silu(2^-149) just above 2^-150 rounds up, silu(-2^-149) to -0 */
  t = actk_xval_of(&actk_xref_silu, 0x1p-149, 0);
  test_check(f2u(actk_x_round_f32(&t)) == 0x00000001u, "silu f32 2^-149 rounds to %a",
             (double)actk_x_round_f32(&t));
  t = actk_xval_of(&actk_xref_gelu_tanh, -0x3p-149, 0);
  test_check(f2u(actk_x_round_f32(&t)) == 0x80000001u, "gelu_tanh f32 -3 2^-149 rounds to %a",
             (double)actk_x_round_f32(&t));
  /* swish with alpha 0.001f: x/2 + 0.001 x^2 / 4 above the midpoint 2^-25 */
  t = actk_xval_of(&actk_xref_swish, 0x1p-24, (double)0.001f);
  test_check(actk_x_round16(&actk_fmt_f16, &t) == 0x0001, "swish f16 (0x0001, 0.001f) -> 0x%04x",
             actk_x_round16(&actk_fmt_f16, &t));
  /* with a negative alpha the other side */
  t = actk_xval_of(&actk_xref_swish, 0x1p-24, -(double)0.001f);
  test_check(actk_x_round16(&actk_fmt_f16, &t) == 0x0000, "swish f16 (0x0001, -0.001f) -> 0x%04x",
             actk_x_round16(&actk_fmt_f16, &t));
  /* alpha 0: x/2 exactly, a true tie, to even */
  t = actk_xval_of(&actk_xref_swish, 0x3p-24, 0.0);
  test_check(t.exact && actk_x_round16(&actk_fmt_f16, &t) == 0x0002,
             "swish f16 (0x0003, 0) -> 0x%04x (exact %d)", actk_x_round16(&actk_fmt_f16, &t),
             t.exact);
  /* elu(-2^-24, 1.5) = -1.5 2^-24 + 1.5 2^-49: just inside the f16 midpoint -1.5 2^-24, so
   * -2^-24 (0x8001), where the f32 kernel's alpha x (the midpoint) would round to even */
  t = actk_xval_of(&actk_xref_elu, -0x1p-24, 1.5);
  test_check(actk_x_round16(&actk_fmt_f16, &t) == 0x8001, "elu f16 (0x8001, 1.5) -> 0x%04x",
             actk_x_round16(&actk_fmt_f16, &t));
  /* elu(-1e-10) at alpha 1: the truth x + x^2/2 rounds to x itself (no cancellation) */
  t = actk_xval_of(&actk_xref_elu, (double)-1e-10f, 1.0);
  test_check(actk_x_round_f32(&t) == -1e-10f, "elu f32 (-1e-10, 1) rounds to %a",
             (double)actk_x_round_f32(&t));
  /* tanh(20) = 1 - 8.5e-18 is 1.0 in double: the bf16 below 1 is faithful too */
  t = actk_xval_of(&actk_xref_tanh, 20.0, 0);
  actk_check16 c = actk_x_check16(&actk_fmt_bf16, 0x3f7f, &t);
  test_check(c.faithful && !c.correct, "tanh(20) bf16 0x3f7f: faithful %d correct %d", c.faithful,
             c.correct);
  test_check(!actk_fmt16_check(&actk_fmt_bf16, 0x3f7f, actk_ref_tanh(20.0)).faithful,
             "the double reference no longer calls 0x3f7f unfaithful: this test's premise changed");
  /* ... and in f32 its ULP is 2^-24: 1 - 2^-24 is one ULP off, not half */
  double e = actk_x_ulp_error(u2f(0x3f7fffffu), &t);
  test_check(fabs(e - 1.0) < 1e-6 && !actk_x_over_ulps(u2f(0x3f7fffffu), &t, 1),
             "tanh(20) f32 1 - 2^-24: %.9g ULP", e);
  /* tanh(x) = x - x^3/3 for tiny x: x is correctly rounded, prev(x) within one ULP */
  t = actk_xval_of(&actk_xref_tanh, 0x1p-100, 0);
  test_check(actk_x_correct_f32(0x1p-100f, &t) && !actk_x_correct_f32(u2f(0x0d7fffffu), &t) &&
                 !actk_x_over_ulps(u2f(0x0d7fffffu), &t, 1),
             "tanh(2^-100): x and its neighbour below misjudged");
  actk_x_stats s = actk_x_stats_get();
  print_message("comparisons %llu, by MPFR %llu (at most %u bits)\n",
                (unsigned long long)s.compares, (unsigned long long)s.mpfr, s.max_prec);
}

int main(void) {
  collect_cases();
  build_sample();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_ties),
      cmocka_unit_test(test_enclosures),
      cmocka_unit_test(test_decisions_f32),
      cmocka_unit_test(test_decisions16),
  };
  int failed = cmocka_run_group_tests_name("reference: exact vs MPFR", tests, NULL, NULL);
  free(g_x);
  return failed != 0;
}
