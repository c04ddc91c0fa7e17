/* fuzz_api's element types: the catalog's type names (tools/catalog.h), with
 * what the fuzzer needs of each: size, NaN bits, a canary, conversions and the
 * type's RoPE entry point. The conversions are written from the formats (IEEE
 * binary16; bfloat16, the top half of an f32), not taken from the library:
 * the RoPE oracle must not share the library's bugs. */
#ifndef ACTK_FUZZ_TYPES_H
#define ACTK_FUZZ_TYPES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "actk.h"

typedef struct {
  const char *name;               /* the catalog's type_name */
  size_t esize;                   /* bytes per element */
  uint32_t inf;                   /* +Inf: a NaN's magnitude is above it */
  uint32_t quiet;                 /* a NaN's quiet bit */
  uint32_t canary;                /* a signalling NaN: kernels write only quiet NaNs */
  uint32_t default_nan;           /* 0x7fc00000 narrowed (RoPE's NaN, include/actk.h) */
  uint16_t (*narrow)(uint32_t f); /* 16-bit types: an f32's bits to the type, roughly (inputs) */
  float (*widen)(uint32_t bits);  /* exact; a NaN stays a NaN (payload not kept) */
  uint32_t (*round)(float f);     /* to nearest even */
  actk_status (*rope)(actk_pool *pool, const actk_rope_desc *desc, const void *x,
                      const int64_t *ids, const float *cos_cache, const float *sin_cache, void *y);
} elem_type;

/* ---- f32 ---- */

static float widen_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint32_t round_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* ---- f16: sign, 5 exponent bits (bias 15), 10 mantissa bits ---- */

static float widen_f16(uint32_t h) {
  uint32_t e = h >> 10 & 0x1fu, m = h & 0x3ffu;
  float v = e == 31 ? (m ? NAN : INFINITY)
            : e     ? ldexpf((float)(m | 0x400u), (int)e - 25)
                    : ldexpf((float)m, -24); /* subnormal: m * 2^-24 */
  return h & 0x8000u ? -v : v;
}

static uint32_t round_f16(float f) {
  uint32_t u = round_f32(f), s = u >> 16 & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return s | 0x7e00u | (a >> 13 & 0x3ffu);
  if (a >= 0x477ff000u)
    return s | 0x7c00u;  /* 65520 and up: a tie above 65504 rounds to even, Inf */
  if (a < 0x38800000u) { /* under 2^-14: a multiple of 2^-24 (exact in double) */
    double m = rint(fabs((double)f) * 0x1p24);
    return s | (uint32_t)m; /* 1024 is 2^-14's bits */
  }
  uint32_t h = ((a >> 23) - 112) << 10 | (a >> 13 & 0x3ffu), rest = a & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) h++; /* a carry steps the exponent */
  return s | h;
}

/* For input values only (truncating is fine): f16 keeps NaN, Inf and the
 * normal range, the rest goes to 0 or Inf (the any-bits kind makes the others). */
static uint16_t narrow_f16(uint32_t u) {
  uint16_t s = (uint16_t)(u >> 16 & 0x8000u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(s | 0x7e00u | (a >> 13 & 0x3ffu));
  int e = (int)(a >> 23) - 112; /* rebiased: 127 - 15 */
  if (e >= 31) return (uint16_t)(s | 0x7c00u);
  if (e <= 0) return s;
  return (uint16_t)(s | (unsigned)e << 10 | (a >> 13 & 0x3ffu));
}

/* ---- bf16: the top 16 bits of an f32 ---- */

static float widen_bf16(uint32_t h) { return widen_f32(h << 16); }

static uint32_t round_bf16(float f) {
  uint32_t u = round_f32(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return u >> 16 | 0x40u;
  return (u + 0x7fffu + (u >> 16 & 1)) >> 16; /* to nearest, ties to even; Inf past the top */
}

static uint16_t narrow_bf16(uint32_t u) { return (uint16_t)(u >> 16); }

/* ---- RoPE, one entry point per type ---- */

static actk_status rope_f32(actk_pool *p, const actk_rope_desc *d, const void *x,
                            const int64_t *ids, const float *c, const float *s, void *y) {
  return actk_rope_f32(p, d, x, ids, c, s, y);
}
static actk_status rope_f16(actk_pool *p, const actk_rope_desc *d, const void *x,
                            const int64_t *ids, const float *c, const float *s, void *y) {
  return actk_rope_f16(p, d, x, ids, c, s, y);
}
static actk_status rope_bf16(actk_pool *p, const actk_rope_desc *d, const void *x,
                             const int64_t *ids, const float *c, const float *s, void *y) {
  return actk_rope_bf16(p, d, x, ids, c, s, y);
}

/* In the catalog's type order (src/registry.h's ACTK_FOR_EACH_TYPE): an
 * input's type byte indexes it. A catalog type missing here aborts at start. */
static const elem_type g_types[] = {
    {"f32", 4, 0x7f800000u, 0x00400000u, 0x7f8a5a5au, 0x7fc00000u, NULL, widen_f32, round_f32,
     rope_f32},
    {"f16", 2, 0x7c00u, 0x0200u, 0x7d5au, 0x7e00u, narrow_f16, widen_f16, round_f16, rope_f16},
    {"bf16", 2, 0x7f80u, 0x0040u, 0x7f8au, 0x7fc0u, narrow_bf16, widen_bf16, round_bf16, rope_bf16},
};
#define N_TYPES (sizeof g_types / sizeof g_types[0])
static const elem_type *const T_F32 = &g_types[0];

/* element i of an array of type t at p (any byte address) */
static uint32_t elem_get(const elem_type *t, const void *p, size_t i) {
  const unsigned char *q = (const unsigned char *)p + i * t->esize;
  if (t->esize == 4) {
    uint32_t u;
    memcpy(&u, q, sizeof u);
    return u;
  }
  uint16_t h;
  memcpy(&h, q, sizeof h);
  return h;
}
static void elem_set(const elem_type *t, void *p, size_t i, uint32_t bits) {
  unsigned char *q = (unsigned char *)p + i * t->esize;
  if (t->esize == 4) {
    memcpy(q, &bits, sizeof bits);
    return;
  }
  uint16_t h = (uint16_t)bits;
  memcpy(q, &h, sizeof h);
}

static int elem_is_nan(const elem_type *t, uint32_t u) {
  uint32_t sign = (uint32_t)1 << (8 * t->esize - 1);
  return (u & (sign - 1)) > t->inf;
}
static int elem_is_snan(const elem_type *t, uint32_t u) {
  return elem_is_nan(t, u) && !(u & t->quiet);
}

#endif
