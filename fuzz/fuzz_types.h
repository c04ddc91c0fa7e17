/* fuzz_api's element types: the catalog's type names (tools/catalog.h), with
 * what the fuzzer needs of each: size, a canary, a narrowing for input values
 * and the type's RoPE entry point. */
#ifndef ACTK_FUZZ_TYPES_H
#define ACTK_FUZZ_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "actk.h"

typedef struct {
  const char *name;               /* the catalog's type_name */
  size_t esize;                   /* bytes per element */
  uint32_t canary;                /* a signalling NaN: kernels write only quiet NaNs */
  uint16_t (*narrow)(uint32_t f); /* 16-bit types: an f32's bits to the type, roughly (inputs) */
  actk_status (*rope)(actk_pool *pool, const actk_rope_desc *desc, const void *x,
                      const int64_t *ids, const float *cos_cache, const float *sin_cache, void *y);
} elem_type;

/* ---- f16: sign, 5 exponent bits (bias 15), 10 mantissa bits ---- */

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
    {"f32", 4, 0x7f8a5a5au, NULL, rope_f32},
    {"f16", 2, 0x7d5au, narrow_f16, rope_f16},    /* quiet bit 0x0200 clear */
    {"bf16", 2, 0x7f8au, narrow_bf16, rope_bf16}, /* quiet bit 0x0040 clear */
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

#endif
