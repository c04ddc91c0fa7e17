/* Rotary embedding of one row (one token and head): pairs (a, b) with cache
 * entries (c, s) become a c - fl(b s) and b c + fl(a s), one fma each. Both
 * styles and every implementation use exactly this sequence, so they agree bit for bit.
 *
 * Split-half pairs channel j with j + half: plain vectors of a, b, c, s.
 * Interleaved pairs 2j with 2j + 1: the vector implementations keep the pairs in place,
 * y = x c2 + fl(swap(x) s2) with c2 = (c0, c0, c1, c1 ..) and
 * s2 = (-s0, s0, -s1, s1 ..): lane 2j is a c + fl(-b s) = a c - fl(b s).
 * Tails are masked; nothing is read past the row or the cache row. */
#ifndef ACTK_MATH_ROPE_H
#define ACTK_MATH_ROPE_H

#include <stddef.h>

#include "vec_contract.h"

/* An output with NaN inputs is the default quiet NaN: which of several NaN
 * operands an fma passes on depends on the operand order the compiler picked
 * for that implementation, so payloads cannot be kept identical across
 * implementations. (So every NaN a RoPE kernel stores is that one, with a
 * zero low half: the stores are the _q ones of the vector contract.) */
ACTK_INLINE vf rope_nan(vf y) { return vf_select(vm_isnan(y), vf_splat(actk_qnanf()), y); }

/* a c - fl(b s) and b c + fl(a s), one fma each (vf_fms: a c - fl(b s) with one
 * rounding, the value of a c + fl(b (-s)) without negating s); the NaN lanes
 * replaced only where one of the two has any (one compare for both). */
ACTK_INLINE void rope_pair(vf a, vf b, vf c, vf s, vf *ya, vf *yb) {
  vf u = vf_fms(a, c, vf_mul(b, s)), v = vf_fma(b, c, vf_mul(a, s));
  if (vm_any(vm_unord(u, v))) u = rope_nan(u), v = rope_nan(v);
  *ya = u;
  *yb = v;
}

#if VLEN > 1 && defined(ACTK_ROPE_PAIRS)
/* Expand (c, s) to pairs (c0, c0, c1, c1 ..) and (-s0, s0, -s1, s1 ..), half
 * entries each; masked, nothing read past the row. */
static void rope_expand(const float *c, const float *s, float *c2, float *s2, size_t half) {
  const vf even = vf_even_sign();
  size_t j = 0;
  for (; j + VLEN / 2 <= half; j += VLEN / 2) { /* plain stores: masked ones are slow on AMD */
    vf_store_f32(c2 + 2 * j, vf_load_dup_first(c + j, VLEN / 2));
    vf_store_f32(s2 + 2 * j, vf_xor(vf_load_dup_first(s + j, VLEN / 2), even));
  }
  if (j < half) {
    size_t k = half - j;
    vf_store_first_f32(c2 + 2 * j, 2 * k, vf_load_dup_first(c + j, k));
    vf_store_first_f32(s2 + 2 * j, 2 * k, vf_xor(vf_load_dup_first(s + j, k), even));
  }
}
#endif

/* The row kernels for x and y of one element type (the caches are f32):
 * ACTK_ROPE_KERNELS(type, T) defines rope_rows_kernel_<type>. */
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type name */
#if VLEN > 1 && defined(ACTK_ROPE_PAIRS)
/* c2, s2: the cache row expanded to pairs (rope_expand), rd = 2 half entries; c, s
 * the row itself. Types the implementation loads two vectors at a time
 * (ACTK_PAIR_<type>: the even elements and the odd ones) take whole pairs of
 * vectors first, as split-half takes its two halves: a = x[2j], b = x[2j + 1]
 * with the row's c and s as they are (no swap, no expanded row), the same
 * rope_pair, so the same bits. (ACTK_PAIR, ACTK_LOAD_PAIR, ACTK_STORE_PAIR: from
 * src/kernels/instantiate.h, where these macros are expanded.) */
#define ACTK_ROPE_INTERLEAVED_PAIRS(type, T)                                                       \
  static void rope_interleaved_pairs_##type(const T *x, const float *c, const float *s,            \
                                            const float *c2, const float *s2, T *y, size_t rd) {   \
    size_t j = 0;                                                                                  \
    if (ACTK_PAIR(type))                                                                           \
      for (; j + 2 * VLEN <= rd; j += 2 * VLEN) {                                                  \
        vf a, b, ya, yb;                                                                           \
        ACTK_LOAD_PAIR(type, x + j, &a, &b);                                                       \
        rope_pair(a, b, vf_load_f32(c + j / 2), vf_load_f32(s + j / 2), &ya, &yb);                 \
        ACTK_STORE_PAIR(type, y + j, ya, yb);                                                      \
      }                                                                                            \
    for (; j + VLEN <= rd; j += VLEN) {                                                            \
      vf v = vf_load_##type(x + j);                                                                \
      vf_store_##type##_q(y + j, rope_nan(vf_fma(v, vf_load_f32(c2 + j),                           \
                                                 vf_mul(vf_swap_pairs(v), vf_load_f32(s2 + j))))); \
    }                                                                                              \
    if (j < rd) {                                                                                  \
      size_t k = rd - j;                                                                           \
      vf v = vf_load_first_##type(x + j, k);                                                       \
      vf_store_first_##type##_q(                                                                   \
          y + j, k,                                                                                \
          rope_nan(vf_fma(v, vf_load_first_f32(c2 + j, k),                                         \
                          vf_mul(vf_swap_pairs(v), vf_load_first_f32(s2 + j, k)))));               \
    }                                                                                              \
  }
/* The interleaved style expands a cache row once for all the rows that share
 * it, in blocks of 256 pairs (not at all where whole pairs of vectors cover the
 * block). */
#define ACTK_ROPE_INTERLEAVED_ROWS(type, T)                                                        \
  ACTK_ROPE_INTERLEAVED_PAIRS(type, T)                                                             \
  static void rope_interleaved_rows_##type(const T *x, T *y, size_t rows, size_t stride,           \
                                           const float *c, const float *s, size_t cstride,         \
                                           size_t half) {                                          \
    enum { BLOCK = 256 };                                                                          \
    float c2[2 * BLOCK], s2[2 * BLOCK];                                                            \
    size_t group = cstride ? 1 : rows; /* rows that share a cache row */                           \
    for (size_t r0 = 0; r0 < rows; r0 += group) {                                                  \
      const float *cr = c + r0 * cstride, *sr = s + r0 * cstride;                                  \
      for (size_t j0 = 0; j0 < half; j0 += BLOCK) {                                                \
        size_t h = half - j0 < BLOCK ? half - j0 : BLOCK;                                          \
        if (!ACTK_PAIR(type) || h % VLEN) rope_expand(cr + j0, sr + j0, c2, s2, h);                \
        for (size_t i = r0; i < r0 + group; i++)                                                   \
          rope_interleaved_pairs_##type(x + i * stride + 2 * j0, cr + j0, sr + j0, c2, s2,         \
                                        y + i * stride + 2 * j0, 2 * h);                           \
      }                                                                                            \
    }                                                                                              \
  }
#else
/* one pair at a time, with the same rope_pair (one lane; or an implementation
 * without the pair helpers: lane 0 of one-element loads, nothing past it read
 * or written) */
#define ACTK_ROPE_INTERLEAVED_ROWS(type, T)                                                        \
  static void rope_interleaved_rows_##type(const T *x, T *y, size_t rows, size_t stride,           \
                                           const float *c, const float *s, size_t cstride,         \
                                           size_t half) {                                          \
    for (size_t i = 0; i < rows; i++) {                                                            \
      const T *xr = x + i * stride;                                                                \
      const float *cr = c + i * cstride, *sr = s + i * cstride;                                    \
      T *yr = y + i * stride;                                                                      \
      for (size_t j = 0; j < half; j++) {                                                          \
        vf ya, yb;                                                                                 \
        rope_pair(vf_load_first_##type(xr + 2 * j, 1), vf_load_first_##type(xr + 2 * j + 1, 1),    \
                  vf_load_first_f32(cr + j, 1), vf_load_first_f32(sr + j, 1), &ya, &yb);           \
        vf_store_first_##type##_q(yr + 2 * j, 1, ya);                                              \
        vf_store_first_##type##_q(yr + 2 * j + 1, 1, yb);                                          \
      }                                                                                            \
    }                                                                                              \
  }
#endif

/* Split-half: plain vectors of a (channels j), b (j + half), c, s. */
#define ACTK_ROPE_KERNELS(type, T)                                                                 \
  static void rope_split_row_##type(const T *x, const float *c, const float *s, T *y,              \
                                    size_t half) {                                                 \
    size_t j = 0;                                                                                  \
    vf ya, yb;                                                                                     \
    for (; j + VLEN <= half; j += VLEN) {                                                          \
      rope_pair(vf_load_##type(x + j), vf_load_##type(x + half + j), vf_load_f32(c + j),           \
                vf_load_f32(s + j), &ya, &yb);                                                     \
      vf_store_##type##_q(y + j, ya);                                                              \
      vf_store_##type##_q(y + half + j, yb);                                                       \
    }                                                                                              \
    if (VLEN > 1 && j < half) {                                                                    \
      size_t k = half - j;                                                                         \
      rope_pair(vf_load_first_##type(x + j, k), vf_load_first_##type(x + half + j, k),             \
                vf_load_first_f32(c + j, k), vf_load_first_f32(s + j, k), &ya, &yb);               \
      vf_store_first_##type##_q(y + j, k, ya);                                                     \
      vf_store_first_##type##_q(y + half + j, k, yb);                                              \
    }                                                                                              \
  }                                                                                                \
  ACTK_ROPE_INTERLEAVED_ROWS(type, T)                                                              \
  /* Rows sharing one position (cstride 0) or at consecutive positions                             \
   * (cstride = half). */                                                                          \
  static void rope_rows_kernel_##type(const void *xv, void *yv, size_t rows, size_t stride,        \
                                      const float *c, const float *s, size_t cstride, size_t half, \
                                      int interleaved) {                                           \
    const T *x = (const T *)xv;                                                                    \
    T *y = (T *)yv;                                                                                \
    if (interleaved) {                                                                             \
      rope_interleaved_rows_##type(x, y, rows, stride, c, s, cstride, half);                       \
      return;                                                                                      \
    }                                                                                              \
    for (size_t i = 0; i < rows; i++)                                                              \
      rope_split_row_##type(x + i * stride, c + i * cstride, s + i * cstride, y + i * stride,      \
                            half);                                                                 \
  }
/* NOLINTEND(bugprone-macro-parentheses) */

#endif
