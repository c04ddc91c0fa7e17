/* Argument checks, run before any kernel or pool is touched. On an error the
 * caller returns the status and writes nothing. */
#ifndef ACTK_VALIDATE_H
#define ACTK_VALIDATE_H

#include <stddef.h>

#include "actk.h"

/* x[0..n) -> y[0..n), y == x allowed. */
actk_status actk_check_unary(const float *x, const float *y, size_t n);

/* As unary, plus bias[0..width) read-only: width > 0, n % width == 0, and
 * bias must not overlap y. */
actk_status actk_check_bias(const float *x, const float *bias, size_t width, const float *y,
                            size_t n);

#endif
