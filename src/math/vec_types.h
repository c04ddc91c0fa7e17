/* The vector contract's type layer: the loads and stores of every element
 * type of the op table (src/ops.toml), written once on the ISA core
 * (vec_contract.h), for every implementation that includes it after its
 * vec_<isa>.h. An implementation gets every type from the core's 16-bit
 * lane memory (vi_load_u16, vi_store_u16 and their first-k forms); one that
 * converts a type natively says so, and its own functions are used instead:
 *   ACTK_NATIVE_F16    vf_load_f16 .. vf_store_first_f16 (F16C)
 *   ACTK_NATIVE_BF16   vf_load_bf16 .. vf_store_first_bf16_q
 *   ACTK_PAIR_<type>   vf_load_pair_<type>, vf_store_pair_<type>_q (two
 *                      vectors at a time, where that converts cheaper)
 * Native or not, the bits are these (tests/test_convert.c checks every value
 * on every implementation, and this layer on the x86 cores too):
 *   f16 -> f32: exact; a NaN quieted (sign and payload kept).
 *   f32 -> f16: round to nearest even, subnormals kept, overflow to infinity
 *               as the rounding says, a NaN quieted with its sign and top 10
 *               payload bits; the caller's DAZ/FTZ change nothing (F16C's
 *               IEEE: every float operation below has normal operands and
 *               results, and a subnormal f32 input rounds to 0 either way).
 *   bf16 -> f32: the bits shifted up.
 *   f32 -> bf16: round to nearest even on the bits, (u + 0x7fff + lsb) >> 16,
 *               a NaN quieted with its sign and top 7 payload bits; the _q
 *               store leaves out the NaN test (vec_contract.h says when that
 *               is exact).
 * f32's are the core's own loads and stores. */
#ifndef ACTK_MATH_VEC_TYPES_H
#define ACTK_MATH_VEC_TYPES_H

#include <stdint.h>

#include "vec_contract.h"

/* bitwise ops on the integer lanes, through the float ones */
ACTK_INLINE vi vt_or(vi a, vi b) { return vf_bits(vf_or(vi_bits(a), vi_bits(b))); }

/* ---- f32 ---- */
#define vf_store_f32_q vf_store_f32
#define vf_store_first_f32_q vf_store_first_f32

/* ---- f16 ---- */
#ifndef ACTK_NATIVE_F16

/* h: 16-bit patterns in the low halves of the lanes */
ACTK_INLINE vf vt_f16_to_f32(vi h) {
  const vi sign = vi_sll(vi_srl(h, 15), 31);
  const vi mag = vi_srl(vi_sll(h, 17), 17);
  /* the exponent rebiased (15 -> 127): every normal value, and a float whose
   * compares below tell the other classes apart (all normal floats) */
  const vf nb = vi_bits(vi_add(vi_sll(mag, 13), vi_splat(0x38000000)));
  /* subnormal: 2^-14 (1 + m / 2^10) - 2^-14 = m 2^-24, exact */
  const vf sub = vf_sub(vi_bits(vi_add(vi_sll(mag, 13), vi_splat(0x38800000))), vf_splat(0x1p-14f));
  /* infinity and NaN: the exponent all ones, a NaN's quiet bit set */
  const vf special = vi_bits(vi_add(vf_bits(nb), vi_splat(0x38000000)));
  const vf nan = vf_or(special, vi_bits(vi_splat(0x00400000)));
  vf v = vf_select(vm_lt(nb, vf_splat(0x1p-14f)), sub, nb);
  v = vf_select(vm_ge(nb, vf_splat(65536.0f)), special, v);
  v = vf_select(vm_lt(vf_splat(65536.0f), nb), nan, v);
  return vf_or(v, vi_bits(sign));
}

/* the 16-bit patterns in the low halves of the lanes */
ACTK_INLINE vi vt_f32_to_f16(vf a) {
  const vf sign_mask = vf_splat(-0.0f);
  const vi sign = vi_srl(vf_bits(vf_and(a, sign_mask)), 16);
  const vf ax = vf_andnot(sign_mask, a);
  const vi ua = vf_bits(ax);
  /* normal: the exponent rebiased, rounded to nearest even on the bits */
  const vi r = vi_sub(ua, vi_splat(0x38000000));
  const vi lsb = vi_srl(vi_sll(r, 18), 31); /* bit 13 */
  const vi normal = vi_srl(vi_add(r, vi_add(vi_splat(0xfff), lsb)), 13);
  /* below 2^-14: 0.5 + |a| rounds |a| to a multiple of 2^-24 (0.5's ulp) */
  const vi subnormal = vi_sub(vf_bits(vf_add(ax, vf_splat(0.5f))), vi_splat(0x3f000000));
  const vi nan = vt_or(vi_splat(0x7e00), vi_srl(vi_sll(ua, 9), 22)); /* top 10 payload bits */
  vi h = vf_bits(vf_select(vm_lt(ax, vf_splat(0x1p-14f)), vi_bits(subnormal), vi_bits(normal)));
  h = vf_bits(vf_select(vm_ge(ax, vf_splat(65520.0f)), vi_bits(vi_splat(0x7c00)), vi_bits(h)));
  h = vf_bits(vf_select(vm_isnan(a), vi_bits(nan), vi_bits(h)));
  return vt_or(h, sign);
}

ACTK_INLINE vf vf_load_f16(const uint16_t *p) { return vt_f16_to_f32(vi_load_u16(p)); }
ACTK_INLINE void vf_store_f16(uint16_t *p, vf a) { vi_store_u16(p, vt_f32_to_f16(a)); }
ACTK_INLINE vf vf_load_first_f16(const uint16_t *p, size_t k) {
  return vt_f16_to_f32(vi_load_first_u16(p, k));
}
ACTK_INLINE void vf_store_first_f16(uint16_t *p, size_t k, vf a) {
  vi_store_first_u16(p, k, vt_f32_to_f16(a));
}
#endif /* ACTK_NATIVE_F16 */
#define vf_store_f16_q vf_store_f16
#define vf_store_first_f16_q vf_store_first_f16

/* ---- bf16 ---- */
#ifndef ACTK_NATIVE_BF16
ACTK_INLINE vf vt_bf16_to_f32(vi h) { return vi_bits(vi_sll(h, 16)); }
/* (u + 0x7fff + lsb) >> 16 for every u */
ACTK_INLINE vi vt_f32_to_bf16_q(vf a) {
  const vi u = vf_bits(a), lsb = vi_srl(vi_sll(u, 15), 31);
  return vi_srl(vi_add(u, vi_add(vi_splat(0x7fff), lsb)), 16);
}
/* and a NaN quieted: its top half with the quiet bit */
ACTK_INLINE vi vt_f32_to_bf16(vf a) {
  const vi nan = vt_or(vi_srl(vf_bits(a), 16), vi_splat(0x40));
  return vf_bits(vf_select(vm_isnan(a), vi_bits(nan), vi_bits(vt_f32_to_bf16_q(a))));
}

ACTK_INLINE vf vf_load_bf16(const uint16_t *p) { return vt_bf16_to_f32(vi_load_u16(p)); }
ACTK_INLINE void vf_store_bf16(uint16_t *p, vf a) { vi_store_u16(p, vt_f32_to_bf16(a)); }
ACTK_INLINE void vf_store_bf16_q(uint16_t *p, vf a) { vi_store_u16(p, vt_f32_to_bf16_q(a)); }
ACTK_INLINE vf vf_load_first_bf16(const uint16_t *p, size_t k) {
  return vt_bf16_to_f32(vi_load_first_u16(p, k));
}
ACTK_INLINE void vf_store_first_bf16(uint16_t *p, size_t k, vf a) {
  vi_store_first_u16(p, k, vt_f32_to_bf16(a));
}
ACTK_INLINE void vf_store_first_bf16_q(uint16_t *p, size_t k, vf a) {
  vi_store_first_u16(p, k, vt_f32_to_bf16_q(a));
}
#endif /* ACTK_NATIVE_BF16 */

#endif
