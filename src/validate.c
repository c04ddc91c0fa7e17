#include "validate.h"

#include <stdint.h>
#include <string.h>

/* Byte ranges [a, a + na) and [b, b + nb) share a byte (an empty one never does). */
static int ranges_overlap(const void *a, size_t na, const void *b, size_t nb) {
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return na && nb && pa < pb + nb && pb < pa + na;
}

/* The highest address an array can end at. On 64-bit targets user space ends
 * far below the top (2^47 on x86-64, 2^56 with its 5-level paging, 2^52 on
 * AArch64's largest VA): an array that runs past 2^57 is a wrong n, caught
 * before anything is touched (a wrong n below it cannot be told from a right
 * one). Elsewhere, the address space. */
#if UINTPTR_MAX > 0xffffffffu
#define ACTK_ADDRESS_LIMIT ((uintptr_t)1 << 57)
#else
#define ACTK_ADDRESS_LIMIT UINTPTR_MAX
#endif

/* n elements of esize bytes starting at p end at or below ACTK_ADDRESS_LIMIT. */
static int span_ok(const void *p, size_t n, size_t esize) {
  if (n > SIZE_MAX / esize) return 0;
  uintptr_t a = (uintptr_t)p;
  return a <= ACTK_ADDRESS_LIMIT && n * esize <= ACTK_ADDRESS_LIMIT - a;
}

actk_status actk_check_unary(const void *x, const void *y, size_t n, size_t esize) {
  if (n == 0) return ACTK_OK;
  if (!x || !y) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(x, n, esize) || !span_ok(y, n, esize)) return ACTK_ERR_TOO_LARGE;
  if (x != y && ranges_overlap(x, n * esize, y, n * esize)) return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

actk_status actk_check_bias(const void *x, const void *bias, size_t width, const void *y, size_t n,
                            size_t esize) {
  if (width == 0) return ACTK_ERR_ZERO_WIDTH;
  if (n % width != 0) return ACTK_ERR_WIDTH_MISMATCH;
  actk_status s = actk_check_unary(x, y, n, esize);
  if (s != ACTK_OK || n == 0) return s;
  if (!bias) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(bias, width, esize)) return ACTK_ERR_TOO_LARGE;
  if (ranges_overlap(bias, width * esize, y, n * esize)) return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

actk_status actk_check_gated(const void *gate, const void *up, const void *y, size_t n,
                             size_t esize) {
  if (n == 0) return ACTK_OK;
  if (!gate || !up || !y) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(gate, n, esize) || !span_ok(up, n, esize) || !span_ok(y, n, esize))
    return ACTK_ERR_TOO_LARGE;
  size_t bytes = n * esize;
  if ((y != gate && ranges_overlap(gate, bytes, y, bytes)) ||
      (y != up && ranges_overlap(up, bytes, y, bytes)))
    return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

actk_status actk_check_gated_packed(const void *x, const void *y, size_t rows, size_t d,
                                    size_t esize) {
  if (rows == 0 || d == 0) return ACTK_OK;
  if (!x || !y) return ACTK_ERR_NULL_POINTER;
  /* y = rows * d elements, x twice that: both inside the address space */
  if (d > SIZE_MAX / 2 || rows > SIZE_MAX / (2 * d)) return ACTK_ERR_TOO_LARGE;
  size_t ny = rows * d;
  if (!span_ok(x, 2 * ny, esize) || !span_ok(y, ny, esize)) return ACTK_ERR_TOO_LARGE;
  /* row r's output would overwrite later rows' inputs, across threads */
  if (ranges_overlap(x, 2 * ny * esize, y, ny * esize)) return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

/* a * b, or 0 with *ok cleared on overflow */
static size_t mul_ok(size_t a, size_t b, int *ok) {
  if (a != 0 && b > SIZE_MAX / a) {
    *ok = 0;
    return 0;
  }
  return a * b;
}

actk_status actk_check_rope(const actk_rope_desc *desc, const void *x, const int64_t *position_ids,
                            const float *cos_cache, const float *sin_cache, const void *y,
                            size_t esize, actk_rope_shape *shape) {
  if (!desc) return ACTK_ERR_NULL_POINTER;
  if ((unsigned)desc->layout > ACTK_ROPE_BHSD || (unsigned)desc->style > ACTK_ROPE_INTERLEAVED)
    return ACTK_ERR_INVALID_ARGUMENT;
  size_t rd = desc->rotary_dim ? desc->rotary_dim : desc->head_size;
  if (rd % 2 != 0 || rd > desc->head_size) return ACTK_ERR_BAD_SHAPE;
  int ok = 1;
  size_t tokens = mul_ok(desc->batch, desc->seq_len, &ok);
  shape->rows = mul_ok(tokens, desc->heads, &ok);
  shape->head = desc->head_size;
  shape->half = rd / 2;
  shape->elements = mul_ok(shape->rows, desc->head_size, &ok);
  size_t cache = mul_ok(desc->max_position, shape->half, &ok);
  if (!ok) return ACTK_ERR_TOO_LARGE;
  if (shape->elements == 0) return ACTK_OK; /* nothing to read or write */
  if (!x || !y || !cos_cache || !sin_cache) return ACTK_ERR_NULL_POINTER;
  if (rd == 0) return ACTK_OK; /* a pure copy: the caches are never read */
  if (!span_ok(x, shape->elements, esize) || !span_ok(y, shape->elements, esize) ||
      !span_ok(cos_cache, cache, sizeof(float)) || !span_ok(sin_cache, cache, sizeof(float)))
    return ACTK_ERR_TOO_LARGE;
  size_t bytes = shape->elements * esize;
  if (x != y && ranges_overlap(x, bytes, y, bytes)) return ACTK_ERR_OVERLAP;
  if (ranges_overlap(cos_cache, cache * sizeof(float), y, bytes) ||
      ranges_overlap(sin_cache, cache * sizeof(float), y, bytes))
    return ACTK_ERR_OVERLAP;
  if (position_ids && !span_ok(position_ids, tokens, sizeof(int64_t))) return ACTK_ERR_TOO_LARGE;
  if (position_ids && ranges_overlap(position_ids, tokens * sizeof(int64_t), y, bytes))
    return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}

actk_status actk_check_rope_positions(const actk_rope_desc *desc, const int64_t *position_ids) {
  const int64_t max = desc->max_position > INT64_MAX ? INT64_MAX : (int64_t)desc->max_position;
  if (!position_ids) {
    /* start + s for s < seq_len, written to avoid overflow */
    int64_t start = desc->position_start;
    if (start < 0 || start >= max || (uint64_t)(max - start) < desc->seq_len)
      return ACTK_ERR_OUT_OF_RANGE;
    return ACTK_OK;
  }
  size_t tokens = desc->batch * desc->seq_len; /* checked by actk_check_rope */
  for (size_t i = 0; i < tokens; i++) {
    int64_t p = actk_position_id(position_ids, i);
    if (p < 0 || p >= max) return ACTK_ERR_OUT_OF_RANGE;
  }
  return ACTK_OK;
}

/* theta from its bits: an ordered compare of a NaN raises FE_INVALID, which
 * traps for a caller who unmasked it, before the call's floating-point
 * environment is set up (and a compiler may compare earlier than written). */
static int theta_ok(double theta) {
  uint64_t t;
  memcpy(&t, &theta, sizeof t);
  const uint64_t exponent = 0x7ff0000000000000u;
  if ((t & exponent) == exponent) return 0; /* inf or NaN */
  return (t >> 63) == 0 || (t << 1) == 0;   /* not negative, or -0 */
}

actk_status actk_check_rope_cache(const float *cos_cache, const float *sin_cache,
                                  size_t max_position, size_t rotary_dim, double theta) {
  if (!theta_ok(theta)) return ACTK_ERR_INVALID_ARGUMENT;
  if (rotary_dim == 0 || rotary_dim % 2) return ACTK_ERR_BAD_SHAPE;
  int ok = 1;
  size_t n = mul_ok(max_position, rotary_dim / 2, &ok);
  if (!ok || n > SIZE_MAX / sizeof(float)) return ACTK_ERR_TOO_LARGE;
  if (n == 0) return ACTK_OK;
  if (!cos_cache || !sin_cache) return ACTK_ERR_NULL_POINTER;
  if (!span_ok(cos_cache, n, sizeof(float)) || !span_ok(sin_cache, n, sizeof(float)))
    return ACTK_ERR_TOO_LARGE;
  if (ranges_overlap(cos_cache, n * sizeof(float), sin_cache, n * sizeof(float)))
    return ACTK_ERR_OVERLAP;
  return ACTK_OK;
}
