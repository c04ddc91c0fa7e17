/* The exact reference: the true value t of an op at an input, held as an
 * enclosure that every decision the tests and tools make about a result
 * (correctly rounded? faithful? over k ULP? which binade?) can be settled
 * from exactly.
 *
 * A double-precision reference rounded to a format cannot see a tie: where
 * the true value sits a hair off a midpoint or a representable value of the
 * format (silu(x) = x/2 + x^2/4 at |x| < 2^-125, tanh(x) = x - x^3/3, 1 - erfc
 * at large x), the double result lands on it exactly and a share or a
 * faithfulness check is decided by luck. Here every comparison of t with a
 * number c is made in two steps:
 *
 *   1. a double enclosure (tier 1): t lies in hi + [lo - err, lo + err], and
 *      where it matters the strict side of t against hi (t < 1 for tanh, t >
 *      x/2 for silu) and the sign of t are known by the op's mathematics, not
 *      measured. Near a dyadic asymptote (x, x/2, 1/2, +-1, 0) hi is the
 *      asymptote and lo the deviation from it, computed to its own relative
 *      bound (a series with its remainder, or exp/erfc of the tail), so the
 *      sides of such ties are decided without any extended precision. Elsewhere hi is a libm
 *      composition held to a relative error of 2^-38 (the compositions are
 *      within about 2^-42 by their condition numbers; tests/test_reference.c
 *      checks every enclosure against MPFR over all regimes).
 *   2. where c lies inside the enclosure, GNU MPFR: the op's definition in
 *      interval arithmetic with directed rounding at 64, 128, ... 4096 bits
 *      (Ziv's strategy) until the interval excludes c, or shrinks to c itself
 *      (an exact result, x = 0). A comparison MPFR cannot settle at 4096 bits
 *      aborts with a message: it is never guessed.
 *
 * The reference definitions are README's, in real arithmetic (gelu_tanh's
 * 0.044715 is the decimal constant; quick_gelu's alpha the float 1.702f). */
#ifndef ACTK_TOOLS_EXACT_H
#define ACTK_TOOLS_EXACT_H

#include <stdint.h>

#include "reference.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One op's exact reference: its double enclosure and its MPFR interval
 * evaluation (exact.c). One per unary and param op of the registry:
 * actk_xref_<op>; the bias ops use their activation's. */
typedef struct actk_xref actk_xref;
#define ACTK_XREF_DECL(op, ...) extern const actk_xref actk_xref_##op;
ACTK_FOR_EACH_UNARY(ACTK_XREF_DECL, )
ACTK_FOR_EACH_PARAM(ACTK_XREF_DECL, )
#undef ACTK_XREF_DECL

/* The true value of an op at x (and alpha, for a param op). */
typedef struct {
  const actk_xref *op;
  double x, alpha;
  int nan;             /* t is NaN (x NaN, alpha NaN, 0 * inf) */
  int exact;           /* t == hi exactly (hi may be +-0 or +-inf) */
  double hi, lo, err;  /* otherwise t in hi + [lo - err, lo + err] */
  signed char side_hi; /* +1 / -1: t > hi / t < hi, strictly; 0: not known */
  signed char sign;    /* +1 / -1: t > 0 / t < 0, strictly; 0: not known */
} actk_xval;

/* t at x (alpha: param ops only; pass 0 otherwise). x, alpha: any doubles
 * (f32 and 16-bit values are exact in double). */
actk_xval actk_xval_of(const actk_xref *op, double x, double alpha);

/* hi + lo: t to about 2^-50 in practice (the error measures print this). */
double actk_x_approx(const actk_xval *t);

/* The sign of t - c, exactly: -1, 0 or +1 (t not NaN; c any non-NaN double). */
int actk_x_cmp(const actk_xval *t, double c);

/* t rounded to nearest even, to float and to a 16-bit format (overflow to
 * infinity as IEEE; a result rounding to zero keeps the sign of t). */
float actk_x_round_f32(const actk_xval *t);
uint16_t actk_x_round16(const actk_fmt16 *f, const actk_xval *t);

/* A float result against t, as README measures it (NaN: both or neither;
 * a sign that differs from t's, an infinity missed: INFINITY):
 * |y - t| / ulp(t), ulp(t) = 2^(max(floor(log2|t|), -126) - 23) with the
 * binade of t decided exactly; the relative error |y - t| / max(|t|,
 * 2^-126). The magnitudes come from hi + lo. */
double actk_x_ulp_error(float y, const actk_xval *t);
double actk_x_rel_error(float y, const actk_xval *t);
/* y == t rounded to nearest even (bits, the sign of zero included). */
int actk_x_correct_f32(float y, const actk_xval *t);
/* |y - t| > k ulp(t), exactly (k a small integer: 1 for README's count of
 * inputs over 1 ULP, 2 for the accurate tier's bound). */
int actk_x_over_ulps(float y, const actk_xval *t, int k);

/* All of the above in one pass (the sweeps'): ulp and rel as there, correct
 * (y is t rounded to nearest even), over[k] = |y - t| > k ulp(t) for k = 1,
 * 2, decided exactly. */
typedef struct {
  double ulp, rel;
  int correct;
  int over[3]; /* over[0] unused */
} actk_x_verdict;
actk_x_verdict actk_x_judge_f32(float y, const actk_xval *t);

/* A 16-bit result against t: faithful (t itself if the format holds it, else
 * one of its two neighbours; infinity only where t rounds to it), correctly
 * rounded, and the error in ULPs of the format at t, all decided exactly. */
actk_check16 actk_x_check16(const actk_fmt16 *f, uint16_t y, const actk_xval *t);

/* Statistics: how many comparisons the double enclosures settled and how
 * many needed MPFR (this thread's counts since the last reset). */
typedef struct {
  uint64_t compares, mpfr;
  unsigned max_prec;  /* the most bits an MPFR comparison needed */
  uint64_t undecided; /* MPFR-only values: comparisons MPFR could not settle */
} actk_x_stats;
actk_x_stats actk_x_stats_get(void);
void actk_x_stats_reset(void);

/* For tests/test_reference.c. t with its double enclosure thrown away (only its exact special
 * values kept): every decision on it is made by MPFR, and one MPFR cannot settle at 4096 bits (t
 * within 2^-4096 of c) counts in actk_x_stats.undecided instead of aborting (its result is then
 * meaningless). */
actk_xval actk_xval_mpfr_only(const actk_xref *op, double x, double alpha);
/* Checks t's double enclosure against MPFR's interval at prec bits: the
 * interval must lie within hi + [lo - err, lo + err], and must not
 * contradict the claimed sides (t > hi ...). Returns 1 if it holds, 0 with
 * a message in why if it does not, -1 if MPFR cannot form the interval (an
 * input beyond its exponent range). *proved: set to 1 where the interval
 * also proves the claimed sides (at some inputs they lie beyond prec bits). */
int actk_x_validate(const actk_xval *t, unsigned prec, int *proved, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
