/* The exact reference (exact.h): each op's double enclosure (tier 1) and its
 * MPFR interval evaluation (tier 2), and the decisions made from them. */
#include "exact.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tier 1's relative bound on a libm composition (or on a deviation from an
 * asymptote), and its absolute slack for doubles that may be subnormal (a
 * libm result below 2^-1022 is good to about 2^-1074 only). */
#define X_REL 0x1p-38
#define X_TINY 0x1p-1060
/* The slack of a product x * e where e may be a subnormal double. */
#define X_TINY_TIMES(x) (fabs(x) * 0x1p-1070)

#define X_SQRT1_2 0.70710678118654752440
#define X_SQRT_2_PI 0.79788456080286535588 /* sqrt(2 / pi) */
#define X_GT_CUBIC 0.044715

struct iv; /* an MPFR interval (tier 2, below) */

struct actk_xref {
  const char *name;
  void (*approx)(actk_xval *t);
  /* t at x (alpha) as an interval into r (initialised at the working
   * precision by the caller): the definition in outward-rounded steps. */
  void (*interval)(struct iv *r, double x, double alpha);
  /* a derived op (src/ops.toml's derived): t = sy base(sx x), sx, sy = +-1;
   * approx and interval NULL. Negation is exact: the base's enclosure, sides
   * and interval carry over with their signs flipped. */
  const struct actk_xref *base;
  int sx, sy;
};

static _Thread_local actk_x_stats g_stats;

actk_x_stats actk_x_stats_get(void) { return g_stats; }
void actk_x_stats_reset(void) { memset(&g_stats, 0, sizeof g_stats); }

/* ---- tier 1: the double enclosures ---- */

static int sign_of(double v) { return signbit(v) ? -1 : 1; }

static void set_exact(actk_xval *t, double v) {
  t->exact = 1;
  t->hi = v;
}

/* t = r (a libm composition) to X_REL, of sign s (0: unknown). */
static void set_generic(actk_xval *t, double r, int s, double slack) {
  t->hi = r;
  t->err = X_REL * fabs(r) + X_TINY + slack;
  t->sign = (signed char)s;
}

/* t = hi + lo, hi an exact asymptote, lo the deviation to X_REL; t - hi has
 * the strict sign side, t the strict sign s. */
static void set_asym(actk_xval *t, double hi, double lo, int side, int s, double slack) {
  t->hi = hi;
  t->lo = lo;
  t->err = X_REL * fabs(lo) + X_TINY + slack;
  t->side_hi = (signed char)side;
  t->sign = (signed char)s;
}

static void erf_approx(actk_xval *t) {
  const double x = t->x, a = fabs(x);
  const int s = sign_of(x);
  if (isinf(x)) return set_exact(t, s);
  if (x == 0) return set_exact(t, x); /* odd: the sign of zero kept */
  if (a < 2) return set_generic(t, erf(x), s, 0);
  /* 1 - erf(a) = erfc(a) > 0: |t| < 1 */
  set_asym(t, s, -s * erfc(a), -s, s, 0);
}

static void tanh_approx(actk_xval *t) {
  const double x = t->x, a = fabs(x);
  const int s = sign_of(x);
  if (isinf(x)) return set_exact(t, s);
  if (x == 0) return set_exact(t, x);
  if (a < 0x1p-8) {
    /* x - x^3/3 + 2x^5/15, alternating with decreasing terms: the rest is
     * below the next term, 17 |x|^7 / 315; |t| < |x| */
    double x2 = x * x;
    double lo = x * x2 * (-1.0 / 3 + x2 * (2.0 / 15));
    double a2 = a * a;
    return set_asym(t, x, lo, -s, s, 0.06 * a * a2 * a2 * a2);
  }
  if (a < 1) return set_generic(t, tanh(x), s, 0);
  /* 1 - tanh(a) = 2 e^-2a / (1 + e^-2a): |t| < 1 */
  double e = exp(-2 * a);
  set_asym(t, s, -s * (2 * e / (1 + e)), -s, s, 0);
}

static void sigmoid_approx(actk_xval *t) {
  const double x = t->x;
  if (isinf(x)) return set_exact(t, x > 0 ? 1.0 : 0.0);
  if (x == 0) return set_exact(t, 0.5);
  if (fabs(x) < 1) /* 1/2 + tanh(x/2)/2 */
    return set_asym(t, 0.5, 0.5 * tanh(0.5 * x), sign_of(x), 1, 0);
  if (x > 0) { /* 1 - e^-x / (1 + e^-x) */
    double e = exp(-x);
    return set_asym(t, 1.0, -(e / (1 + e)), -1, 1, 0);
  }
  double e = exp(x);
  set_generic(t, e / (1 + e), 1, 0);
}

/* swish(x, alpha) = x sigmoid(alpha x); alpha x is exact in double for float
 * x and alpha (24 + 24 significant bits). */
static void swish_approx(actk_xval *t) {
  const double x = t->x, alpha = t->alpha, z = alpha * x;
  if (isnan(alpha) || isnan(z)) { /* alpha NaN, 0 * inf */
    t->nan = 1;
    return;
  }
  if (isinf(z)) return set_exact(t, z > 0 ? x : copysign(0.0, x)); /* sigmoid 1 or 0 */
  if (x == 0) return set_exact(t, x);
  if (alpha == 0) return set_exact(t, 0.5 * x);
  const int s = sign_of(x);
  if (fabs(z) < 1) /* x/2 + (x/2) tanh(z/2): the deviation has the sign of alpha */
    return set_asym(t, 0.5 * x, 0.5 * x * tanh(0.5 * z), sign_of(alpha), s, 0);
  if (z > 0) { /* x - x e^-z / (1 + e^-z): |t| < |x| */
    double e = exp(-z);
    return set_asym(t, x, -(x * e / (1 + e)), -s, s, X_TINY_TIMES(x));
  }
  double e = exp(z);
  set_generic(t, x * e / (1 + e), s, X_TINY_TIMES(x));
}

static void silu_approx(actk_xval *t) {
  t->alpha = 1.0;
  swish_approx(t);
}

static void quick_gelu_approx(actk_xval *t) {
  t->alpha = (double)1.702f;
  swish_approx(t);
}

/* gelu(x) = (x/2) erfc(-x / sqrt 2) = x/2 + (x/2) erf(x / sqrt 2) */
static void gelu_approx(actk_xval *t) {
  const double x = t->x;
  if (isinf(x)) return set_exact(t, x > 0 ? x : -0.0);
  if (x == 0) return set_exact(t, x);
  if (fabs(x) < 1) return set_asym(t, 0.5 * x, 0.5 * x * erf(x * X_SQRT1_2), 1, sign_of(x), 0);
  if (x > 0) return set_asym(t, x, -0.5 * x * erfc(x * X_SQRT1_2), -1, 1, X_TINY_TIMES(x));
  set_generic(t, 0.5 * x * erfc(-x * X_SQRT1_2), -1, X_TINY_TIMES(x));
}

/* gelu_tanh(x) = x / (1 + e^-v), v = 2 sqrt(2/pi) (x + 0.044715 x^3)
 *              = x/2 + (x/2) tanh(v/2) */
static void gelu_tanh_approx(actk_xval *t) {
  const double x = t->x;
  if (isinf(x)) return set_exact(t, x > 0 ? x : -0.0);
  if (x == 0) return set_exact(t, x);
  const double v = 2 * X_SQRT_2_PI * (x + X_GT_CUBIC * x * x * x);
  if (fabs(v) < 1) return set_asym(t, 0.5 * x, 0.5 * x * tanh(0.5 * v), 1, sign_of(x), 0);
  if (v > 0) {
    double e = exp(-v);
    return set_asym(t, x, -(x * e / (1 + e)), -1, 1, X_TINY_TIMES(x));
  }
  double e = exp(v);
  set_generic(t, x * e / (1 + e), -1, X_TINY_TIMES(x));
}

/* hardsigmoid(x) = relu6(x + 3) / 6. For |x| >= 1 a float x plus 3 is exact in double (and /6
 * the one rounding); below, 1/2 + x/6 with the deviation x/6 of the sign of x. */
static void hardsigmoid_approx(actk_xval *t) {
  const double x = t->x;
  if (x <= -3) return set_exact(t, 0.0);
  if (x >= 3) return set_exact(t, 1.0);
  if (x == 0) return set_exact(t, 0.5);
  if (fabs(x) < 1) return set_asym(t, 0.5, x / 6, sign_of(x), 1, 0);
  set_generic(t, (x + 3) / 6, 1, 0);
}

/* hardswish(x) = x relu6(x + 3) / 6 = x/2 + x^2/6 on (-3, 3): below |x| = 1 the asymptote x/2
 * and the deviation x^2/6 > 0; above, x (x + 3) is exact in double (24 + 26 bits), so even
 * near the zero at -3 the one division keeps the relative bound. x <= -3: -0 (torch's x * 0,
 * and the limit at -inf). */
static void hardswish_approx(actk_xval *t) {
  const double x = t->x;
  if (x <= -3) return set_exact(t, -0.0);
  if (x >= 3) return set_exact(t, x);
  if (x == 0) return set_exact(t, x);
  if (fabs(x) < 1) return set_asym(t, 0.5 * x, x * x / 6, 1, sign_of(x), 0);
  set_generic(t, x * (x + 3) / 6, sign_of(x), 0);
}

/* softplus(x) = log(1 + e^x) > 0. For x >= 1 the asymptote x and the deviation
 * log1p(e^-x) > 0 (so x itself, where e^-x underflows in double, is decided by the side);
 * below, log1p(e^x) (e^x subnormal in double below -708: X_TINY covers its absolute error;
 * 0 below -745, where t < 2^-1074). Never a tie: log(1 + e^x) = q rational would make
 * e^q - e^x - e^0 = 0 (Lindemann-Weierstrass), and x = 0 gives ln 2. */
static void softplus_approx(actk_xval *t) {
  const double x = t->x;
  if (isinf(x)) return set_exact(t, x > 0 ? x : 0.0);
  if (x >= 1) return set_asym(t, x, log1p(exp(-x)), 1, 1, 0);
  set_generic(t, log1p(exp(x)), 1, 0);
}

/* elu(x, alpha) = x for x > 0, alpha (e^x - 1) otherwise. Near 0 the asymptote alpha x (exact
 * in double: 24 + 24 bits) and the deviation alpha (e^x - 1 - x) = alpha x^2/2 (1 + x/3 + ...)
 * of alpha's sign, by its series (the rest under x^4/360 of it); below -1 the asymptote -alpha
 * and the deviation alpha e^x of alpha's sign (strictly, even where e^x underflows). */
static void elu_approx(actk_xval *t) {
  const double x = t->x, alpha = t->alpha;
  if (x > 0) return set_exact(t, x);
  /* the stand-in max(-1, x) has the sign and zeros of e^x - 1 */
  const double z = alpha * fmax(-1.0, x);
  if (isnan(z)) { /* alpha NaN, inf * 0 */
    t->nan = 1;
    return;
  }
  if (x == 0 || alpha == 0 || isinf(alpha)) return set_exact(t, z);
  const int sa = sign_of(alpha);
  if (isinf(x)) return set_exact(t, -alpha);
  if (x > -0x1p-8) {
    double lo = alpha * x * x * (0.5 + x * (1.0 / 6 + x * (1.0 / 24 + x * (1.0 / 120))));
    return set_asym(t, alpha * x, lo, sa, -sa, 0x1p-40 * fabs(lo));
  }
  if (x > -1) return set_generic(t, alpha * expm1(x), -sa, 0);
  /* alpha e^x where e^x alone would underflow but the product not (alpha 1e30, x -800) */
  double e = exp(x);
  set_asym(t, -alpha, e > 0x1p-900 ? alpha * e : sa * exp(x + log(fabs(alpha))), sa, -sa, 0);
}

/* mish(x) = x tanh(log(1 + e^x)) = x n / (n + 2), n = u (u + 2), u = e^x. For x >= 1 the
 * asymptote x and the deviation -2x / (n + 2) = -2x e^2 / (1 + 2e + 2e^2) < 0, e = e^-x (no
 * cancellation, no overflow; e^2 a subnormal double or 0 past x = 354: the absolute slack of
 * the product); below, the composition (for x < -708 e^x is a subnormal double or 0: the
 * same slack). */
static void mish_approx(actk_xval *t) {
  const double x = t->x;
  if (isinf(x)) return set_exact(t, x > 0 ? x : -0.0);
  if (x == 0) return set_exact(t, x);
  if (x >= 1) {
    const double e = exp(-x), e2 = e * e;
    return set_asym(t, x, -2 * x * e2 / (1 + 2 * e + 2 * e2), -1, 1, X_TINY_TIMES(x));
  }
  if (fabs(x) < 0x1p-20) {
    /* mish(x) = 0.6x + 0.32x^2 - 0.016x^3 + ...: 0.6x is a float wherever x's significand is
     * a multiple of 5, and t a hair off it, which the composition cannot see. hi = fl(3x/5)
     * (3x is exact, 26 bits; hi is not 3x/5 itself unless 5 divides x's significand), its
     * exact rest r/5, r = 3x - 5 hi by one exact fma (|r| <= 2.5 ulp(hi)), and the x^2 term;
     * the tail (-0.016x^3 - 0.0459x^4 ..., not alternating for x > 0) is under 0.02|x|^3.
     * The two terms of lo may cancel (|x| near 2^-54, where |r/5| meets 0.32x^2), so their
     * roundings are bounded by their own sizes, not lo's; a slack relative to hi instead would
     * exceed 0.32x^2 below |x| = 2^-99 and send every multiple of 5 there to MPFR (2.9M comparisons
     * a stride 97) */
    const double hi = 3 * x / 5, r = fma(-5.0, hi, 3 * x), r5 = r / 5, q = 0.32 * x * x;
    return set_asym(t, hi, r5 + q, 0, sign_of(x),
                    0.02 * fabs(x * x * x) + 0x1p-51 * (fabs(r5) + q));
  }
  const double u = exp(x), n = u * (u + 2);
  set_generic(t, x * (n / (n + 2)), sign_of(x), X_TINY_TIMES(x));
}

/* ---- tier 2: MPFR intervals ---- */

typedef struct iv {
  mpfr_t l, h;
} iv;

static void iv_init(iv *a, mpfr_prec_t p) {
  mpfr_init2(a->l, p);
  mpfr_init2(a->h, p);
}
static void iv_clear(iv *a) {
  mpfr_clear(a->l);
  mpfr_clear(a->h);
}
/* exact for p >= 53 */
static void iv_point(iv *a, double x) {
  mpfr_set_d(a->l, x, MPFR_RNDD);
  mpfr_set_d(a->h, x, MPFR_RNDU);
}
static void iv_add(iv *r, iv *a, iv *b) {
  mpfr_add(r->l, a->l, b->l, MPFR_RNDD);
  mpfr_add(r->h, a->h, b->h, MPFR_RNDU);
}
static void iv_add_d(iv *r, iv *a, double d) {
  mpfr_add_d(r->l, a->l, d, MPFR_RNDD);
  mpfr_add_d(r->h, a->h, d, MPFR_RNDU);
}
static void iv_neg(iv *r, iv *a) {
  if (r != a) {
    mpfr_set(r->l, a->l, MPFR_RNDD);
    mpfr_set(r->h, a->h, MPFR_RNDU);
  }
  mpfr_swap(r->l, r->h);
  mpfr_neg(r->l, r->l, MPFR_RNDD);
  mpfr_neg(r->h, r->h, MPFR_RNDU);
}

/* r = a * b or a / b (b not containing 0), any signs: the extremes of the
 * four corner products, each rounded outward. */
static void iv_corners(iv *r, iv *a, iv *b, int divide) {
  mpfr_prec_t p = mpfr_get_prec(r->l);
  mpfr_t c, lo, hi;
  mpfr_inits2(p, c, lo, hi, (mpfr_ptr)0);
  mpfr_ptr av[2] = {a->l, a->h}, bv[2] = {b->l, b->h};
  for (int i = 0; i < 4; i++) {
    for (int up = 0; up < 2; up++) {
      mpfr_rnd_t rnd = up ? MPFR_RNDU : MPFR_RNDD;
      if (divide)
        mpfr_div(c, av[i >> 1], bv[i & 1], rnd);
      else
        mpfr_mul(c, av[i >> 1], bv[i & 1], rnd);
      if (up && (i == 0 || mpfr_cmp(c, hi) > 0)) mpfr_set(hi, c, MPFR_RNDU);
      if (!up && (i == 0 || mpfr_cmp(c, lo) < 0)) mpfr_set(lo, c, MPFR_RNDD);
    }
  }
  mpfr_set(r->l, lo, MPFR_RNDD);
  mpfr_set(r->h, hi, MPFR_RNDU);
  mpfr_clears(c, lo, hi, (mpfr_ptr)0);
}
static void iv_mul(iv *r, iv *a, iv *b) { iv_corners(r, a, b, 0); }
static void iv_div(iv *r, iv *a, iv *b) { iv_corners(r, a, b, 1); }
static void iv_mul_d(iv *r, iv *a, double d) { /* d > 0 */
  mpfr_mul_d(r->l, a->l, d, MPFR_RNDD);
  mpfr_mul_d(r->h, a->h, d, MPFR_RNDU);
}

typedef int (*mpfr_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
/* r = f(a), f increasing */
static void iv_up(iv *r, iv *a, mpfr_fn f) {
  f(r->l, a->l, MPFR_RNDD);
  f(r->h, a->h, MPFR_RNDU);
}
/* r = f(a), f decreasing (r == a allowed: the swap first) */
static void iv_down(iv *r, iv *a, mpfr_fn f) {
  if (r == a) mpfr_swap(r->l, r->h);
  f(r->l, r == a ? r->l : a->h, MPFR_RNDD);
  f(r->h, r == a ? r->h : a->l, MPFR_RNDU);
}

/* 1 / (1 + e^-z) in place */
static void iv_sigmoid(iv *z) {
  iv_neg(z, z);
  iv_up(z, z, mpfr_exp);
  iv_add_d(z, z, 1.0);
  iv one;
  iv_init(&one, mpfr_get_prec(z->l));
  iv_point(&one, 1.0);
  iv_div(z, &one, z);
  iv_clear(&one);
}

/* ---- the definitions in interval arithmetic ---- */

static void erf_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv_point(r, x);
  iv_up(r, r, mpfr_erf);
}

static void tanh_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv_point(r, x);
  iv_up(r, r, mpfr_tanh);
}

static void sigmoid_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv_point(r, x);
  iv_sigmoid(r);
}

static void swish_interval(iv *r, double x, double alpha) {
  iv xs, a;
  iv_init(&xs, mpfr_get_prec(r->l));
  iv_init(&a, mpfr_get_prec(r->l));
  iv_point(&xs, x);
  iv_point(&a, alpha);
  iv_mul(r, &a, &xs); /* exact: 48 significant bits */
  iv_sigmoid(r);
  iv_mul(r, &xs, r);
  iv_clear(&xs);
  iv_clear(&a);
}

static void silu_interval(iv *r, double x, double alpha) {
  (void)alpha;
  swish_interval(r, x, 1.0);
}

static void quick_gelu_interval(iv *r, double x, double alpha) {
  (void)alpha;
  swish_interval(r, x, (double)1.702f);
}

/* (x/2) erfc(-x / sqrt 2) */
static void gelu_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv xs, k;
  iv_init(&xs, mpfr_get_prec(r->l));
  iv_init(&k, mpfr_get_prec(r->l));
  iv_point(&xs, x);
  iv_point(&k, 0.5);
  iv_up(&k, &k, mpfr_sqrt); /* sqrt(1/2) */
  iv_neg(&k, &k);
  iv_mul(r, &xs, &k);
  iv_down(r, r, mpfr_erfc);
  iv_mul(r, &xs, r);
  iv_mul_d(r, r, 0.5);
  iv_clear(&xs);
  iv_clear(&k);
}

/* x / (1 + e^-2u), u = sqrt(2/pi) (x + 0.044715 x^3), 0.044715 the decimal */
static void gelu_tanh_interval(iv *r, double x, double alpha) {
  (void)alpha;
  const mpfr_prec_t p = mpfr_get_prec(r->l);
  iv xs, k, c, w;
  iv_init(&xs, p);
  iv_init(&k, p);
  iv_init(&c, p);
  iv_init(&w, p);
  iv_point(&xs, x);
  /* sqrt(2 / pi) */
  mpfr_const_pi(c.l, MPFR_RNDD);
  mpfr_const_pi(c.h, MPFR_RNDU);
  iv_point(&k, 2.0);
  iv_div(&k, &k, &c);
  iv_up(&k, &k, mpfr_sqrt);
  mpfr_set_str(c.l, "0.044715", 10, MPFR_RNDD);
  mpfr_set_str(c.h, "0.044715", 10, MPFR_RNDU);
  iv_mul(&w, &xs, &xs);
  iv_mul(&w, &w, &xs);
  iv_mul(&w, &w, &c);
  iv_add(&w, &w, &xs);
  iv_mul(&w, &w, &k);
  iv_mul_d(&w, &w, 2.0); /* 2u */
  iv_sigmoid(&w);
  iv_mul(r, &xs, &w);
  iv_clear(&xs);
  iv_clear(&k);
  iv_clear(&c);
  iv_clear(&w);
}

static void iv_div6(iv *r, iv *a) {
  mpfr_div_ui(r->l, a->l, 6, MPFR_RNDD);
  mpfr_div_ui(r->h, a->h, 6, MPFR_RNDU);
}

static void hardsigmoid_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv_point(r, x <= -3 ? -3.0 : x >= 3 ? 3.0 : x);
  iv_add_d(r, r, 3.0);
  iv_div6(r, r);
}

static void hardswish_interval(iv *r, double x, double alpha) {
  (void)alpha;
  if (x <= -3) return iv_point(r, -0.0);
  if (x >= 3) return iv_point(r, x);
  iv xs;
  iv_init(&xs, mpfr_get_prec(r->l));
  iv_point(&xs, x);
  iv_add_d(r, &xs, 3.0);
  iv_mul(r, &xs, r);
  iv_div6(r, r);
  iv_clear(&xs);
}

/* x + log1p(e^-x) for x > 0, log1p(e^x) otherwise: neither overflows */
static void softplus_interval(iv *r, double x, double alpha) {
  (void)alpha;
  iv_point(r, -fabs(x));
  iv_up(r, r, mpfr_exp);
  iv_up(r, r, mpfr_log1p);
  if (x > 0) iv_add_d(r, r, x);
}

static void elu_interval(iv *r, double x, double alpha) {
  if (x > 0) return iv_point(r, x);
  iv a;
  iv_init(&a, mpfr_get_prec(r->l));
  iv_point(&a, alpha);
  iv_point(r, x);
  iv_up(r, r, mpfr_expm1);
  iv_mul(r, &a, r);
  iv_clear(&a);
}

/* x n / (n + 2) with e = e^-|x| (MPFR's exponent range holds it where e^|x| would not):
 * x < 0: n = e (e + 2); x >= 0: n / (n + 2) = (1 + 2e) / (1 + 2e + 2e^2) (divided by u^2) */
static void mish_interval(iv *r, double x, double alpha) {
  (void)alpha;
  const mpfr_prec_t p = mpfr_get_prec(r->l);
  iv xs, e, a, d;
  iv_init(&xs, p);
  iv_init(&e, p);
  iv_init(&a, p);
  iv_init(&d, p);
  iv_point(&xs, x);
  iv_point(&e, -fabs(x));
  iv_up(&e, &e, mpfr_exp);
  if (x < 0) {
    iv_add_d(&a, &e, 2.0);
    iv_mul(&a, &e, &a); /* n */
    iv_add_d(&d, &a, 2.0);
  } else {
    iv_mul(&d, &e, &e);
    iv_mul_d(&d, &d, 2.0); /* 2e^2 */
    iv_mul_d(&a, &e, 2.0);
    iv_add_d(&a, &a, 1.0); /* 1 + 2e */
    iv_add(&d, &a, &d);
  }
  iv_div(&a, &a, &d);
  iv_mul(r, &xs, &a);
  iv_clear(&xs);
  iv_clear(&e);
  iv_clear(&a);
  iv_clear(&d);
}

#define XREF(op) const actk_xref actk_xref_##op = {#op, op##_approx, op##_interval, NULL, 1, 1};
XREF(erf)
XREF(tanh)
XREF(sigmoid)
XREF(silu)
XREF(quick_gelu)
XREF(gelu)
XREF(gelu_tanh)
XREF(hardsigmoid)
XREF(hardswish)
XREF(softplus)
XREF(mish)
XREF(swish)
XREF(elu)
#undef XREF
#define XREF_DERIVED(op, of, x_sign, y_sign)                                                       \
  const actk_xref actk_xref_##op = {#op, NULL, NULL, &actk_xref_##of, x_sign, y_sign};
#include "xref_derived.gen.h"
#undef XREF_DERIVED

/* ---- the value and comparisons ---- */

/* A derived op's value: its base's at sx x, times sy (exact). */
static void derived_approx(actk_xval *t) {
  const actk_xref *op = t->op;
  actk_xval b = actk_xval_of(op->base, op->sx * t->x, t->alpha);
  t->nan = b.nan;
  t->exact = b.exact;
  t->hi = op->sy * b.hi;
  t->lo = op->sy * b.lo;
  t->err = b.err;
  t->side_hi = (signed char)(op->sy * b.side_hi);
  t->sign = (signed char)(op->sy * b.sign);
}

actk_xval actk_xval_of(const actk_xref *op, double x, double alpha) {
  actk_xval t;
  memset(&t, 0, sizeof t);
  t.op = op;
  t.x = x;
  t.alpha = alpha;
  if (isnan(x))
    t.nan = 1;
  else if (op->base)
    derived_approx(&t);
  else
    op->approx(&t);
  return t;
}

double actk_x_approx(const actk_xval *t) {
  if (t->nan) return NAN;
  /* no "+ 0": -0 + 0 would be +0 (an underflowed negative result) */
  return t->exact || t->lo == 0 ? t->hi : t->hi + t->lo;
}

#define X_MIN_PREC 64
#define X_MAX_PREC 4096

/* t's interval at r's precision; 0 if a NaN, an overflow or an underflow of MPFR's
 * exponent range made it meaningless (a flushed result could look exact). */
static int interval_at(const actk_xref *op, double x, double alpha, iv *r) {
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_clear_flags();
  if (op->base) {
    int ok = interval_at(op->base, op->sx * x, alpha, r);
    if (op->sy < 0) iv_neg(r, r);
    return ok;
  }
  op->interval(r, x, alpha);
  return !(mpfr_nanflag_p() || mpfr_overflow_p() || mpfr_underflow_p() || mpfr_nan_p(r->l) ||
           mpfr_nan_p(r->h));
}

/* MPFR's comparison; where it cannot tell at X_MAX_PREC bits: an abort, or
 * for an MPFR-only value (a test's, err infinite) 0 and a count. */
static int cmp_by_mpfr(const actk_xref *op, double x, double alpha, double c, int may_fail) {
  g_stats.mpfr++;
  for (mpfr_prec_t p = X_MIN_PREC; p <= X_MAX_PREC; p *= 2) {
    iv r;
    iv_init(&r, p);
    int ok = interval_at(op, x, alpha, &r), res = 2;
    if (ok) {
      if (mpfr_cmp_d(r.h, c) < 0)
        res = -1;
      else if (mpfr_cmp_d(r.l, c) > 0)
        res = 1;
      else if (mpfr_equal_p(r.l, r.h)) /* t is c exactly */
        res = 0;
    }
    iv_clear(&r);
    mpfr_free_cache(); /* pi: no per-thread cache left behind */
    if (res != 2) {
      if ((unsigned)p > g_stats.max_prec) g_stats.max_prec = (unsigned)p;
      return res;
    }
  }
  if (may_fail) {
    g_stats.undecided++;
    return 0;
  }
  fprintf(stderr,
          "actk exact reference: %s(x = %a, alpha = %a) cannot be compared with %a at %d bits\n",
          op->name, x, alpha, c, X_MAX_PREC);
  abort();
}

actk_xval actk_xval_mpfr_only(const actk_xref *op, double x, double alpha) {
  actk_xval t = actk_xval_of(op, x, alpha);
  if (t.nan || (t.exact && (isinf(x) || isinf(t.hi)))) return t; /* beyond MPFR's arithmetic */
  t.hi = actk_x_approx(&t);                                      /* a starting point only */
  t.lo = 0;
  t.err = INFINITY;
  t.exact = 0;
  t.side_hi = t.sign = 0;
  return t;
}

/* One try of actk_x_validate at p bits: 1 holds, 0 refuted (why filled),
 * 2 the interval is too wide to tell. */
static int validate_at(const actk_xval *t, mpfr_prec_t p, int *proved, char *why, size_t why_size) {
  iv r;
  iv_init(&r, p);
  if (!interval_at(t->op, t->x, t->alpha, &r)) {
    iv_clear(&r);
    mpfr_free_cache();
    return -1;
  }
  /* the enclosure's ends, exactly (any three doubles sum exactly in 2200 bits) */
  mpfr_t elo, ehi, hi;
  mpfr_inits2(2200, elo, ehi, hi, (mpfr_ptr)0);
  mpfr_set_d(hi, t->hi, MPFR_RNDN);
  mpfr_set(elo, hi, MPFR_RNDN);
  mpfr_set(ehi, hi, MPFR_RNDN);
  if (!t->exact) {
    mpfr_add_d(elo, elo, t->lo, MPFR_RNDN);
    mpfr_sub_d(elo, elo, t->err, MPFR_RNDN);
    mpfr_add_d(ehi, ehi, t->lo, MPFR_RNDN);
    mpfr_add_d(ehi, ehi, t->err, MPFR_RNDN);
  }
  const char *bad = NULL;
  int res = 1;
  if (mpfr_cmp(r.h, elo) < 0 || mpfr_cmp(r.l, ehi) > 0) {
    bad = "the MPFR interval is not inside hi + [lo - err, lo + err]";
  } else if (mpfr_cmp(r.l, elo) < 0 || mpfr_cmp(r.h, ehi) > 0) {
    res = 2; /* overlaps: more bits will tell */
  } else if (t->side_hi > 0 && mpfr_cmp(r.h, hi) <= 0) {
    bad = "claims t > hi";
  } else if (t->side_hi < 0 && mpfr_cmp(r.l, hi) >= 0) {
    bad = "claims t < hi";
  } else if (t->sign > 0 && mpfr_sgn(r.h) <= 0) {
    bad = "claims t > 0";
  } else if (t->sign < 0 && mpfr_sgn(r.l) >= 0) {
    bad = "claims t < 0";
  }
  if (bad) {
    res = 0;
    snprintf(why, why_size,
             "%s(x = %a, alpha = %a): %s: MPFR [%.20g, %.20g] at %ld bits; hi %a lo %a err %a "
             "side %d sign %d exact %d",
             t->op->name, t->x, t->alpha, bad, mpfr_get_d(r.l, MPFR_RNDD),
             mpfr_get_d(r.h, MPFR_RNDU), (long)p, t->hi, t->lo, t->err, t->side_hi, t->sign,
             t->exact);
  } else if (res == 1) {
    int side_ok =
        t->side_hi == 0 || (t->side_hi > 0 ? mpfr_cmp(r.l, hi) > 0 : mpfr_cmp(r.h, hi) < 0);
    int sign_ok = t->sign == 0 || (t->sign > 0 ? mpfr_sgn(r.l) > 0 : mpfr_sgn(r.h) < 0);
    *proved = side_ok && sign_ok;
  }
  mpfr_clears(elo, ehi, hi, (mpfr_ptr)0);
  iv_clear(&r);
  mpfr_free_cache();
  return res;
}

int actk_x_validate(const actk_xval *t, unsigned prec, int *proved, char *why, size_t why_size) {
  *proved = 0;
  if (t->nan || (t->exact && isinf(t->hi))) return 1; /* not MPFR's to check */
  for (mpfr_prec_t p = (mpfr_prec_t)prec; p <= X_MAX_PREC; p *= 2) {
    int r = validate_at(t, p, proved, why, why_size);
    if (r != 2) return r;
  }
  snprintf(why, why_size,
           "%s(x = %a, alpha = %a): the MPFR interval is not inside hi + [lo - err, lo + err] "
           "at %d bits; hi %a lo %a err %a",
           t->op->name, t->x, t->alpha, X_MAX_PREC, t->hi, t->lo, t->err);
  return 0;
}

int actk_x_cmp(const actk_xval *t, double c) {
  g_stats.compares++;
  if (t->exact) return (t->hi > c) - (t->hi < c);
  if (isinf(c)) return c > 0 ? -1 : 1; /* an inexact t is finite */
  if (t->sign > 0 && c <= 0) return 1;
  if (t->sign < 0 && c >= 0) return -1;
  if (t->side_hi > 0 && c <= t->hi) return 1;
  if (t->side_hi < 0 && c >= t->hi) return -1;
  /* c - (hi + lo), c - hi by TwoSum (its rounding error dl exactly), the
   * rest with a margin for its own roundings */
  double dh = c - t->hi, bb = dh - c;
  double dl = (c - (dh - bb)) + (-t->hi - bb);
  double diff = (dh - t->lo) + dl;
  double slack = t->err + 0x1p-50 * (fabs(dh) + fabs(t->lo)) + 0x1p-1070;
  if (diff > slack) return -1;
  if (diff < -slack) return 1;
  return cmp_by_mpfr(t->op, t->x, t->alpha, c, isinf(t->err));
}

/* ---- binary formats: f32 and the 16-bit ones, by magnitude patterns ---- */

typedef struct {
  int mant, emin;
  uint32_t inf; /* the pattern of +inf; patterns below it are finite */
} xfmt;

static const xfmt g_f32 = {23, -126, 0x7f800000u};

static xfmt fmt_of16(const actk_fmt16 *f) { return (xfmt){f->mant, f->emin, f->inf}; }

/* The value of magnitude pattern p <= inf, where "inf" stands for the value
 * the next finite one would have (2^(emax + 1)): midpoints then give IEEE's
 * overflow threshold. */
static double fmt_value(const xfmt *f, uint32_t p) {
  uint32_t e = p >> f->mant, m = p & ((1u << f->mant) - 1u);
  if (e == 0) return ldexp((double)m, f->emin - f->mant);
  return ldexp((double)((1u << f->mant) | m), (int)e - 1 + f->emin - f->mant);
}

/* The largest pattern whose value is at most a >= 0 (a double, so only a
 * start: the decisions below move it). */
static uint32_t fmt_floor_d(const xfmt *f, double a) {
  if (!(a < fmt_value(f, f->inf))) return f->inf;
  int e;
  (void)frexp(a, &e);
  e -= 1; /* floor(log2 a) */
  if (a == 0 || e < f->emin) return (uint32_t)floor(ldexp(a, f->mant - f->emin));
  double m = floor(ldexp(a, f->mant - e)) - ldexp(1.0, f->mant);
  return ((uint32_t)(e - f->emin + 1) << f->mant) | (uint32_t)m;
}

/* |t| against c >= 0, exactly (s: the sign of t, +1 or -1). */
static int cmp_abs(const actk_xval *t, int s, double c) {
  return s > 0 ? actk_x_cmp(t, c) : -actk_x_cmp(t, -c);
}

/* Where |t| lies in a format, exactly. */
typedef struct {
  int s;       /* the sign of t: +1 or -1 (a zero's sign bit) */
  uint32_t p;  /* the largest pattern whose value is at most |t| (inf: |t| >= 2^(emax+1)) */
  int exact;   /* |t| is the value of p */
  uint32_t rn; /* |t| rounded to nearest even (inf on overflow) */
  int binade;  /* max(floor(log2 |t|), emin): the exponent of its ulp + mant */
} xplace;

static xplace place(const xfmt *f, const actk_xval *t) {
  xplace r;
  memset(&r, 0, sizeof r);
  if (t->exact && (t->hi == 0 || isinf(t->hi))) {
    r.s = sign_of(t->hi);
    r.p = r.rn = t->hi == 0 ? 0 : f->inf;
    r.exact = 1;
    r.binade = f->emin;
    return r;
  }
  r.s = t->sign ? t->sign : actk_x_cmp(t, 0.0); /* not 0: t = 0 only where exact */
  if (r.s == 0) r.s = sign_of(t->hi);
  uint32_t p = fmt_floor_d(f, fabs(actk_x_approx(t)));
  while (p > 0 && cmp_abs(t, r.s, fmt_value(f, p)) < 0) p--;
  while (p < f->inf && cmp_abs(t, r.s, fmt_value(f, p + 1)) >= 0) p++;
  r.p = p;
  if (p == f->inf) { /* beyond every finite value */
    r.rn = f->inf;
    r.binade = (int)(f->inf >> f->mant) - 1 + f->emin;
    return r;
  }
  r.exact = cmp_abs(t, r.s, fmt_value(f, p)) == 0;
  if (r.exact) {
    r.rn = p;
  } else {
    double mid = 0.5 * (fmt_value(f, p) + fmt_value(f, p + 1)); /* exact: few bits */
    int c = cmp_abs(t, r.s, mid);
    r.rn = c < 0 ? p : c > 0 ? p + 1 : (p & 1u) ? p + 1 : p;
  }
  uint32_t e = p >> f->mant;
  r.binade = e == 0 ? f->emin : (int)e - 1 + f->emin;
  return r;
}

float actk_x_round_f32(const actk_xval *t) {
  if (t->nan) return NAN;
  xplace r = place(&g_f32, t);
  uint32_t u = r.rn | (r.s < 0 ? 0x80000000u : 0u);
  float y;
  memcpy(&y, &u, 4);
  return y;
}

uint16_t actk_x_round16(const actk_fmt16 *f, const actk_xval *t) {
  if (t->nan) return (uint16_t)(f->inf | (1u << (f->mant - 1))); /* the default quiet NaN */
  xfmt F = fmt_of16(f);
  xplace r = place(&F, t);
  return (uint16_t)(r.rn | (r.s < 0 ? 0x8000u : 0u));
}

static uint32_t f2u_(float y) {
  uint32_t u;
  memcpy(&u, &y, 4);
  return u;
}

/* A result of a format against t: -1 if the error is infinite (a NaN
 * mismatch, a wrong sign, an infinity missed), 1 if both are NaN, else 0 with
 * the place of t filled in. */
static int screen(const xfmt *f, int y_nan, int y_neg, uint32_t y_mag, const actk_xval *t,
                  xplace *r) {
  if (t->nan || y_nan) return (t->nan && y_nan) ? 1 : -1;
  *r = place(f, t);
  if ((r->s < 0) != y_neg) return -1;
  int t_inf = t->exact && isinf(t->hi);
  if (t_inf || y_mag == f->inf) return (t_inf && y_mag == f->inf) ? 1 : -1;
  return 0;
}

int actk_x_correct_f32(float y, const actk_xval *t) {
  if (t->nan || isnan(y)) return t->nan && isnan(y);
  return f2u_(y) == f2u_(actk_x_round_f32(t));
}

int actk_x_over_ulps(float y, const actk_xval *t, int k) {
  xplace r;
  uint32_t u = f2u_(y);
  int s = screen(&g_f32, isnan(y), (u >> 31) != 0, u & 0x7fffffffu, t, &r);
  if (s) return s < 0;
  double ulp = ldexp(1.0, r.binade - g_f32.mant);
  return actk_x_cmp(t, (double)y - k * ulp) < 0 || actk_x_cmp(t, (double)y + k * ulp) > 0;
}

actk_x_verdict actk_x_judge_f32(float y, const actk_xval *t) {
  actk_x_verdict v;
  memset(&v, 0, sizeof v);
  xplace r;
  const uint32_t u = f2u_(y);
  const int k = screen(&g_f32, isnan(y), (u >> 31) != 0, u & 0x7fffffffu, t, &r);
  if (k) {
    v.ulp = v.rel = k > 0 ? 0.0 : INFINITY;
    v.correct = k > 0; /* both NaN, or the same infinity */
    v.over[1] = v.over[2] = k < 0;
    return v;
  }
  v.correct = (u & 0x7fffffffu) == r.rn;
  if (actk_x_cmp(t, (double)y) == 0) return v; /* exact: every error 0 */
  const double a = actk_x_approx(t), d = fabs((double)y - a), ulp = ldexp(1.0, r.binade - 23);
  v.ulp = d / ulp;
  v.rel = d / fmax(fabs(a), 0x1p-126);
  /* a is within 2^-14 ULP of t (X_REL at 24 bits): decide exactly when
   * closer than that to the threshold */
  for (int m = 1; m <= 2; m++)
    v.over[m] = fabs(v.ulp - m) > 0x1p-12 ? v.ulp > m
                                          : actk_x_cmp(t, (double)y - m * ulp) < 0 ||
                                                actk_x_cmp(t, (double)y + m * ulp) > 0;
  return v;
}

double actk_x_ulp_error(float y, const actk_xval *t) { return actk_x_judge_f32(y, t).ulp; }
double actk_x_rel_error(float y, const actk_xval *t) { return actk_x_judge_f32(y, t).rel; }

actk_check16 actk_x_check16(const actk_fmt16 *f, uint16_t y, const actk_xval *t) {
  actk_check16 c = {0, 0, INFINITY};
  const xfmt F = fmt_of16(f);
  const uint32_t mag = y & 0x7fffu;
  const int y_neg = (y & 0x8000u) != 0;
  if (t->nan || mag > F.inf) {
    c.faithful = c.correct = t->nan && mag > F.inf;
    c.ulp = c.faithful ? 0.0 : INFINITY;
    return c;
  }
  xplace r = place(&F, t);
  if ((r.s < 0) != y_neg) return c; /* a wrong sign, zeros included */
  if (t->exact && isinf(t->hi)) {
    c.faithful = c.correct = mag == F.inf;
    c.ulp = c.faithful ? 0.0 : INFINITY;
    return c;
  }
  c.correct = mag == r.rn;
  /* t itself where the format holds it, else one of its two neighbours, and
   * infinity only where t rounds to it */
  c.faithful = (mag == r.p || (!r.exact && mag == r.p + 1)) && (mag != F.inf || r.rn == F.inf);
  if (mag == F.inf) return c; /* ulp: infinite */
  double vy = fmt_value(&F, mag) * (y_neg ? -1 : 1);
  c.ulp =
      (r.exact && mag == r.p) ? 0.0 : fabs(vy - actk_x_approx(t)) / ldexp(1.0, r.binade - F.mant);
  return c;
}
