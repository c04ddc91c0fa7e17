#include "reference.h"

#include <math.h>

#define REF_PI 3.14159265358979323846
#define REF_SQRT1_2 0.70710678118654752440

double actk_ref_erf(double x) { return erf(x); }
double actk_ref_tanh(double x) { return tanh(x); }

double actk_ref_sigmoid(double x) {
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e); /* NaN falls through here and stays NaN */
}

/* alpha * x is exact in double (24 + 24 significant bits). */
double actk_ref_swish(double x, double alpha) {
  double z = alpha * x;
  double s = actk_ref_sigmoid(z);
  if (isinf(x) && !isnan(z)) return s > 0 ? x * s : copysign(0.0, x); /* the limit */
  return x * s;
}

double actk_ref_silu(double x) { return actk_ref_swish(x, 1.0); }
double actk_ref_quick_gelu(double x) { return actk_ref_swish(x, (double)1.702f); }

/* 0.5 x erfc(-x / sqrt 2): no cancellation for negative x. */
double actk_ref_gelu(double x) {
  if (isinf(x)) return x > 0 ? x : -0.0;
  return 0.5 * x * erfc(-x * REF_SQRT1_2);
}

/* x / (1 + e^-2u), u = sqrt(2/pi) (x + 0.044715 x^3): exact and cancellation-free. */
double actk_ref_gelu_tanh(double x) {
  if (isinf(x)) return x > 0 ? x : -0.0;
  double u = sqrt(2.0 / REF_PI) * (x + 0.044715 * x * x * x);
  return x / (1.0 + exp(-2.0 * u));
}

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
