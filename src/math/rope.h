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
 * for that implementation, so payloads cannot be kept identical across implementations. */
ACTK_INLINE vf rope_nan(vf y) { return vf_select(vm_isnan(y), vf_splat(__builtin_nanf("")), y); }

/* a c - fl(b s) written as a c + fl(b (-s)): the same value. */
ACTK_INLINE void rope_pair(vf a, vf b, vf c, vf s, vf *ya, vf *yb) {
  *ya = rope_nan(vf_fma(a, c, vf_mul(b, vf_xor(s, vf_splat(-0.0f)))));
  *yb = rope_nan(vf_fma(b, c, vf_mul(a, s)));
}

/* half = rotary_dim / 2; c, s: the position's cache row (half entries). */
static void rope_split_row(const float *x, const float *c, const float *s, float *y, size_t half) {
  size_t j = 0;
  vf ya, yb;
  for (; j + VLEN <= half; j += VLEN) {
    rope_pair(vf_load_f32(x + j), vf_load_f32(x + half + j), vf_load_f32(c + j), vf_load_f32(s + j),
              &ya, &yb);
    vf_store_f32(y + j, ya);
    vf_store_f32(y + half + j, yb);
  }
  if (VLEN > 1 && j < half) {
    size_t k = half - j;
    rope_pair(vf_load_first_f32(x + j, k), vf_load_first_f32(x + half + j, k),
              vf_load_first_f32(c + j, k), vf_load_first_f32(s + j, k), &ya, &yb);
    vf_store_first_f32(y + j, k, ya);
    vf_store_first_f32(y + half + j, k, yb);
  }
}

#if VLEN > 1
/* c2, s2: the cache row expanded to pairs (c0, c0, c1, c1 ..) and
 * (-s0, s0, -s1, s1 ..), rd = 2 half floats each. */
static void rope_interleaved_pairs(const float *x, const float *c2, const float *s2, float *y,
                                   size_t rd) {
  size_t j = 0;
  for (; j + VLEN <= rd; j += VLEN) {
    vf v = vf_load_f32(x + j);
    vf_store_f32(y + j, rope_nan(vf_fma(v, vf_load_f32(c2 + j),
                                        vf_mul(vf_swap_pairs(v), vf_load_f32(s2 + j)))));
  }
  if (j < rd) {
    size_t k = rd - j;
    vf v = vf_load_first_f32(x + j, k);
    vf_store_first_f32(y + j, k,
                       rope_nan(vf_fma(v, vf_load_first_f32(c2 + j, k),
                                       vf_mul(vf_swap_pairs(v), vf_load_first_f32(s2 + j, k)))));
  }
}

/* Expand (c, s) to pairs, half entries; masked, nothing read past the row. */
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

/* Rows sharing one position (cstride 0) or at consecutive positions
 * (cstride = half). The interleaved style expands a cache row once for all
 * the rows that share it, in blocks of 256 pairs. */
static void rope_rows_kernel(const float *x, float *y, size_t rows, size_t stride, const float *c,
                             const float *s, size_t cstride, size_t half, int interleaved) {
  if (!interleaved) {
    for (size_t i = 0; i < rows; i++)
      rope_split_row(x + i * stride, c + i * cstride, s + i * cstride, y + i * stride, half);
    return;
  }
#if VLEN > 1
  enum { BLOCK = 256 };
  float c2[2 * BLOCK], s2[2 * BLOCK];
  size_t group = cstride ? 1 : rows; /* rows that share a cache row */
  for (size_t r0 = 0; r0 < rows; r0 += group) {
    const float *cr = c + r0 * cstride, *sr = s + r0 * cstride;
    for (size_t j0 = 0; j0 < half; j0 += BLOCK) {
      size_t h = half - j0 < BLOCK ? half - j0 : BLOCK;
      rope_expand(cr + j0, sr + j0, c2, s2, h);
      for (size_t i = r0; i < r0 + group; i++)
        rope_interleaved_pairs(x + i * stride + 2 * j0, c2, s2, y + i * stride + 2 * j0, 2 * h);
    }
  }
#else
  for (size_t i = 0; i < rows; i++) {
    const float *xr = x + i * stride, *cr = c + i * cstride, *sr = s + i * cstride;
    float *yr = y + i * stride;
    for (size_t j = 0; j < half; j++) {
      vf ya, yb;
      rope_pair(vf_load_f32(xr + 2 * j), vf_load_f32(xr + 2 * j + 1), vf_load_f32(cr + j),
                vf_load_f32(sr + j), &ya, &yb);
      vf_store_f32(yr + 2 * j, ya);
      vf_store_f32(yr + 2 * j + 1, yb);
    }
  }
#endif
}

#endif
