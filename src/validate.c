#include "validate.h"

#include <stdint.h>

/* Byte ranges [a, a + na) and [b, b + nb) share a byte. */
static int ranges_overlap(const void *a, size_t na, const void *b, size_t nb) {
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return pa < pb + nb && pb < pa + na;
}

/* n floats starting at p fit in the address space. */
static int span_ok(const void *p, size_t n) {
  if (n > SIZE_MAX / sizeof(float)) return 0;
  return (uintptr_t)p <= UINTPTR_MAX - n * sizeof(float);
}

actk_status actk_check_unary(const float *x, const float *y, size_t n) {
  if (n == 0) return ACTK_OK;
  if (!x || !y) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(x, n) || !span_ok(y, n)) return ACTK_ERR_TOO_LARGE;
  if (x != y && ranges_overlap(x, n * sizeof(float), y, n * sizeof(float)))
    return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

actk_status actk_check_bias(const float *x, const float *bias, size_t width, const float *y,
                            size_t n) {
  if (width == 0) return ACTK_ERR_ZERO_WIDTH;
  if (n % width != 0) return ACTK_ERR_WIDTH_MISMATCH;
  actk_status s = actk_check_unary(x, y, n);
  if (s != ACTK_OK || n == 0) return s;
  if (!bias) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(bias, width)) return ACTK_ERR_TOO_LARGE;
  if (ranges_overlap(bias, width * sizeof(float), y, n * sizeof(float))) return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}
