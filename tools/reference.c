#include "reference.h"

#include "exact.h"

#include <math.h>

/* The double references are the exact reference's approximations
 * (tools/exact.c): each op's definition is written there once. */
#define REF_UNARY(op, ...)                                                                         \
  double actk_ref_##op(double x) {                                                                 \
    actk_xval t = actk_xval_of(&actk_xref_##op, x, 0.0);                                           \
    return actk_x_approx(&t);                                                                      \
  }
#define REF_PARAM(op, ...)                                                                         \
  double actk_ref_##op(double x, double alpha) {                                                   \
    actk_xval t = actk_xval_of(&actk_xref_##op, x, alpha);                                         \
    return actk_x_approx(&t);                                                                      \
  }
ACTK_FOR_EACH_UNARY(REF_UNARY, )
ACTK_FOR_EACH_PARAM(REF_PARAM, )
#undef REF_UNARY
#undef REF_PARAM

double actk_ulp_error(float y, double r) {
  if (isnan(r) || isnan(y)) return (isnan(r) && isnan(y)) ? 0.0 : INFINITY;
  if (!signbit(y) != !signbit(r)) return INFINITY; /* signbit() is any nonzero */
  if (isinf(r) || isinf(y)) return (double)y == r ? 0.0 : INFINITY;
  int e;
  (void)frexp(r, &e); /* r = f 2^e, f in [0.5, 1): floor(log2 |r|) = e - 1 */
  int k = r == 0 ? -126 : e - 1;
  if (k < -126) k = -126;
  return fabs((double)y - r) / ldexp(1.0, k - 23);
}

double actk_rel_error(float y, double r) {
  if (isnan(r) || isnan(y)) return (isnan(r) && isnan(y)) ? 0.0 : INFINITY;
  if (!signbit(y) != !signbit(r)) return INFINITY;
  if (isinf(r) || isinf(y)) return (double)y == r ? 0.0 : INFINITY;
  double d = fabs(r) > 0x1p-126 ? fabs(r) : 0x1p-126;
  return fabs((double)y - r) / d;
}

/* ---- 16-bit formats ---- */

const actk_fmt16 actk_fmt_f16 = {"f16", 10, -14, 0x7c00u};
const actk_fmt16 actk_fmt_bf16 = {"bf16", 7, -126, 0x7f80u};

double actk_fmt16_value(const actk_fmt16 *f, uint16_t bits) {
  uint16_t a = bits & 0x7fffu;
  double s = (bits & 0x8000u) ? -1.0 : 1.0;
  if (a > f->inf) return NAN;
  if (a == f->inf) return s * INFINITY;
  int e = a >> f->mant;
  double m = (double)(a & ((1u << f->mant) - 1u));
  if (e == 0) return s * ldexp(m, f->emin - f->mant); /* subnormal */
  return s * ldexp(1.0 + ldexp(m, -f->mant), e - 1 + f->emin);
}

/* The largest pattern whose value is at most a (a >= 0, not NaN): the
 * exponent from frexp, the mantissa truncated (exact in double). */
static uint16_t fmt16_floor(const actk_fmt16 *f, double a) {
  if (a >= INFINITY) return f->inf;
  const uint16_t max_finite = (uint16_t)(f->inf - 1u);
  if (a >= actk_fmt16_value(f, max_finite)) return max_finite;
  int e;
  (void)frexp(a, &e); /* a = m 2^e, m in [0.5, 1): floor(log2 a) = e - 1 */
  e -= 1;
  if (a == 0 || e < f->emin) /* zero or subnormal: units of 2^(emin - mant) */
    return (uint16_t)floor(ldexp(a, f->mant - f->emin));
  double m = floor(ldexp(a, f->mant - e)) - ldexp(1.0, f->mant); /* the stored mantissa */
  return (uint16_t)(((unsigned)(e - f->emin + 1) << f->mant) | (unsigned)m);
}

/* The next value above the largest finite, for the overflow midpoint. */
static double fmt16_next(const actk_fmt16 *f, uint16_t p) {
  if (p + 1u < f->inf) return actk_fmt16_value(f, (uint16_t)(p + 1u));
  int emax = (int)(f->inf >> f->mant) - 1 + f->emin - 1; /* the largest exponent */
  return ldexp(1.0, emax + 1);
}

uint16_t actk_fmt16_round(const actk_fmt16 *f, double r) {
  if (isnan(r)) return (uint16_t)(f->inf | (1u << (f->mant - 1))); /* the default quiet NaN */
  uint16_t sign = signbit(r) ? 0x8000u : 0u;
  double a = fabs(r);
  uint16_t lo = fmt16_floor(f, a);
  if (lo == f->inf || actk_fmt16_value(f, lo) == a) return (uint16_t)(sign | lo);
  double vlo = actk_fmt16_value(f, lo), vhi = fmt16_next(f, lo);
  double dlo = a - vlo, dhi = vhi - a; /* exact: both values have few bits */
  uint16_t p = dlo < dhi   ? lo
               : dhi < dlo ? (uint16_t)(lo + 1u)
               : (lo & 1u) ? (uint16_t)(lo + 1u)
                           : lo;
  return (uint16_t)(sign | p);
}

actk_check16 actk_fmt16_check(const actk_fmt16 *f, uint16_t y, double r) {
  actk_check16 c = {0, 0, 0.0};
  double vy = actk_fmt16_value(f, y);
  if (isnan(r) || isnan(vy)) {
    c.faithful = c.correct = isnan(r) && isnan(vy);
    c.ulp = c.faithful ? 0.0 : INFINITY;
    return c;
  }
  if (!signbit(vy) != !signbit(r)) {
    c.ulp = INFINITY;
    return c;
  }
  c.correct = y == actk_fmt16_round(f, r);
  double a = fabs(r);
  uint16_t lo = fmt16_floor(f, a), ya = y & 0x7fffu;
  /* faithful: the value itself if it is one, else one of its two neighbours */
  c.faithful = ya == lo || (actk_fmt16_value(f, lo) != a && ya == lo + 1u);
  /* infinity only where the true value rounds to it */
  if (ya == f->inf && (actk_fmt16_round(f, r) & 0x7fffu) != f->inf) c.faithful = 0;
  if (isinf(r) || isinf(vy)) {
    c.ulp = (isinf(r) && isinf(vy)) ? 0.0 : INFINITY;
    return c;
  }
  int e;
  (void)frexp(a, &e);
  int k = a == 0 ? f->emin : e - 1;
  if (k < f->emin) k = f->emin;
  c.ulp = fabs(vy - r) / ldexp(1.0, k - f->mant);
  return c;
}
