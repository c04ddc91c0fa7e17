/* Double-precision references of every actk op (README's definitions, in
 * real arithmetic) and the ULP measure the README reports. Shared by tests,
 * tools and bench; tools/catalog.h pairs each op with its reference. */
#ifndef ACTK_TOOLS_REFERENCE_H
#define ACTK_TOOLS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "actk.h"
#include "registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One per op of the registry: double actk_ref_<op>(double x) for the unary
 * ops, double actk_ref_<op>(double x, double alpha) for the param ops (the
 * bias ops use their activation's). Defined in reference.c. */
#define ACTK_REF_UNARY(op, ...) double actk_ref_##op(double x);
#define ACTK_REF_PARAM(op, ...) double actk_ref_##op(double x, double alpha);
ACTK_FOR_EACH_UNARY(ACTK_REF_UNARY, )
ACTK_FOR_EACH_PARAM(ACTK_REF_PARAM, )
#undef ACTK_REF_UNARY
#undef ACTK_REF_PARAM

/* |y - r| in units of ulp(r) = 2^(max(floor(log2|r|), -126) - 23), the float
 * ulp at the reference. Returns INFINITY when y is NaN and r is not (or the
 * reverse), when an infinity is missed, or when the signs differ (zeros
 * included: odd functions keep the sign of +-0, tiny negative results round
 * to -0). */
double actk_ulp_error(float y, double r);

/* |y - r| / max(|r|, 2^-126): the relative error, held to an absolute bound
 * where the result is subnormal. INFINITY in the same cases as actk_ulp_error. */
double actk_rel_error(float y, double r);

/* ---- 16-bit formats: their values, rounding from double once, and the
 * checks of a 16-bit result against a double reference ---- */
typedef struct actk_fmt16 {
  const char *name;
  int mant;     /* stored mantissa bits: f16 10, bf16 7 */
  int emin;     /* exponent of the smallest normal: f16 -14, bf16 -126 */
  uint16_t inf; /* the pattern of +inf */
} actk_fmt16;
extern const actk_fmt16 actk_fmt_f16, actk_fmt_bf16;

/* The value of a pattern (NaN for NaN patterns). */
double actk_fmt16_value(const actk_fmt16 *f, uint16_t bits);
/* r rounded once to the format, to nearest even (overflow to infinity past
 * the largest finite value plus half an ULP; NaN: the default quiet NaN). */
uint16_t actk_fmt16_round(const actk_fmt16 *f, double r);

typedef struct {
  int faithful; /* y is r, or one of the two values around r (NaN: both NaN) */
  int correct;  /* y is r rounded to nearest even */
  double ulp;   /* |y - r| in ULPs of the format at r (the ulp of f32's rule with
                 * the format's precision and emin); INFINITY for a wrong sign,
                 * NaN or infinity */
} actk_check16;
actk_check16 actk_fmt16_check(const actk_fmt16 *f, uint16_t y, double r);

#ifdef __cplusplus
}
#endif

#endif
