/* Argument checks, run before any kernel or pool is touched. On an error the
 * caller returns the status and writes nothing. */
#ifndef ACTK_VALIDATE_H
#define ACTK_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "actk.h"

/* x[0..n) -> y[0..n), elements of esize bytes, y == x allowed. */
actk_status actk_check_unary(const void *x, const void *y, size_t n, size_t esize);

/* As unary, plus bias[0..width) read-only: width > 0, n % width == 0, and
 * bias must not overlap y. */
actk_status actk_check_bias(const void *x, const void *bias, size_t width, const void *y, size_t n,
                            size_t esize);

/* gate[0..n), up[0..n) -> y[0..n): y may equal gate or up (or both); any
 * other overlap with y is refused; gate and up may overlap each other. */
actk_status actk_check_gated(const void *gate, const void *up, const void *y, size_t n,
                             size_t esize);
/* x[rows][2d] -> y[rows][d]: y must not overlap x at all (in place would
 * overwrite rows other chunks still read). */
actk_status actk_check_gated_packed(const void *x, const void *y, size_t rows, size_t d,
                                    size_t esize);

/* RoPE: everything but the positions themselves; fills the derived sizes.
 * Positions are checked by actk_check_rope_positions (a pass over B*S). */
typedef struct actk_rope_shape {
  size_t rows;     /* batch * seq_len * heads */
  size_t head;     /* head_size */
  size_t half;     /* rotary_dim / 2 */
  size_t elements; /* rows * head */
} actk_rope_shape;

/* x and y: elements of esize bytes; the caches are float. */
actk_status actk_check_rope(const actk_rope_desc *desc, const void *x, const int64_t *position_ids,
                            const float *cos_cache, const float *sin_cache, const void *y,
                            size_t esize, actk_rope_shape *shape);
actk_status actk_check_rope_positions(const actk_rope_desc *desc, const int64_t *position_ids);

/* position_ids[i], read byte by byte: the API does not require the array to
 * be 8-byte aligned (the compiler makes it one load where that is allowed). */
static inline int64_t actk_position_id(const int64_t *position_ids, size_t i) {
  int64_t p;
  memcpy(&p, (const char *)position_ids + i * sizeof p, sizeof p);
  return p;
}

/* actk_rope_cache_f32's arguments: theta finite and not negative (+-0 picks
 * the default), checked on its bits so that no compare can trap; rotary_dim
 * even and non-zero; both caches [max_position][rotary_dim / 2] inside the
 * address space and disjoint. */
actk_status actk_check_rope_cache(const float *cos_cache, const float *sin_cache,
                                  size_t max_position, size_t rotary_dim, double theta);

#endif
