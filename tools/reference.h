/* Double-precision references of every actk op (SPEC.md's definitions) and
 * the ULP measure the README reports. Shared by tests, tools and bench. */
#ifndef ACTK_TOOLS_REFERENCE_H
#define ACTK_TOOLS_REFERENCE_H

#include <stddef.h>

#include "actk.h"

#ifdef __cplusplus
extern "C" {
#endif

double actk_ref_erf(double x);
double actk_ref_tanh(double x);
double actk_ref_sigmoid(double x);
double actk_ref_swish(double x, double alpha);
double actk_ref_silu(double x);
double actk_ref_quick_gelu(double x);
double actk_ref_gelu(double x);
double actk_ref_gelu_tanh(double x);

/* |y - r| in units of ulp(r) = 2^(max(floor(log2|r|), -126) - 23), the float
 * ulp at the reference. Returns INFINITY when y is NaN and r is not (or the
 * reverse), when an infinity is missed, or when the signs differ (zeros
 * included: odd functions keep the sign of +-0, tiny negative results round
 * to -0). */
double actk_ulp_error(float y, double r);

/* The unary ops as the tools see them: the public entry point and its
 * reference. silu and quick_gelu are swish with alpha 1 and 1.702f. */
typedef struct actk_op_info {
  const char *name;
  actk_status (*run)(actk_pool *pool, const float *x, float *y, size_t n);
  double (*ref)(double x);
  const char *cost; /* the op's cost class, for the runner: "medium", "expensive" */
} actk_op_info;

extern const actk_op_info actk_ops[];
extern const size_t actk_n_ops;
const actk_op_info *actk_op_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
