/* AArch64 Advanced SIMD (NEON) implementation of the vector contract in
 * src/math/vec_contract.h: the ISA core only, on 4-float vectors; every
 * element type comes from the type layer (math/vec_types.h). NEON is part of
 * every AArch64 Linux target: no per-file flags.
 *
 * Where NEON's instructions differ from the contract (written to x86's
 * semantics), the contract is emulated:
 *   vf_max/vf_min    FMAX/FMIN give the NaN and FMAXNM drops it: the
 *                    contract's "b if either is NaN" is a compare and a BSL
 *   vf_to_vi_trunc   FCVTZS saturates and gives 0 for NaN: lanes outside
 *                    (-2^31, 2^31) and NaNs get INT32_MIN
 *   vf_select_sign   the sign bit broadcast by an arithmetic shift, then BSL
 *   vm_all/vm_any    across-lane UMINV/UMAXV
 *   vf_lookup8       TBL on bytes of the two 16-byte halves of the table
 *   tails            no masked loads: through a vector's worth of stack, so
 *                    nothing past k is read or written
 * FMLS negates its product operand: a NaN there comes out with its sign
 * flipped, as fmaf(-a, b, c) does on the scalar implementation (the math
 * applies ACTK_NAN_PASSTHROUGH where that can happen). */
#ifndef ACTK_ARM_VEC_NEON_H
#define ACTK_ARM_VEC_NEON_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef float32x4_t vf;
typedef int32x4_t vi;
typedef uint32x4_t vm;
#define VLEN 4

static inline vf vf_splat(float a) { return vdupq_n_f32(a); }
static inline vi vi_splat(int32_t a) { return vdupq_n_s32(a); }
static inline vf vf_add(vf a, vf b) { return vaddq_f32(a, b); }
static inline vf vf_sub(vf a, vf b) { return vsubq_f32(a, b); }
static inline vf vf_mul(vf a, vf b) { return vmulq_f32(a, b); }
static inline vf vf_div(vf a, vf b) { return vdivq_f32(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return vfmaq_f32(c, a, b); }
static inline vf vf_fnma(vf a, vf b, vf c) { return vfmsq_f32(c, a, b); }
static inline vf vf_fms(vf a, vf b, vf c) { return vfmaq_f32(vnegq_f32(c), a, b); }
static inline vf vf_max(vf a, vf b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
static inline vf vf_min(vf a, vf b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
static inline vf vf_floor(vf a) { return vrndmq_f32(a); }
static inline vi vf_bits(vf a) { return vreinterpretq_s32_f32(a); }
static inline vf vi_bits(vi a) { return vreinterpretq_f32_s32(a); }
static inline vf vf_and(vf a, vf b) {
  return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
static inline vf vf_or(vf a, vf b) {
  return vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
static inline vf vf_xor(vf a, vf b) {
  return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)));
}
/* ~a & b: BIC clears b's bits that a has */
static inline vf vf_andnot(vf a, vf b) {
  return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(b), vreinterpretq_u32_f32(a)));
}
static inline vm vm_lt(vf a, vf b) { return vcltq_f32(a, b); }
static inline vm vm_le(vf a, vf b) { return vcleq_f32(a, b); }
static inline vm vm_ge(vf a, vf b) { return vcgeq_f32(a, b); }
static inline vm vm_eq(vf a, vf b) { return vceqq_f32(a, b); }
static inline vm vm_and(vm a, vm b) { return vandq_u32(a, b); }
static inline vm vm_isnan(vf a) { return vmvnq_u32(vceqq_f32(a, a)); }
static inline vm vm_unord(vf a, vf b) {
  return vmvnq_u32(vandq_u32(vceqq_f32(a, a), vceqq_f32(b, b)));
}
static inline vf vf_select(vm m, vf t, vf f) { return vbslq_f32(m, t, f); }
static inline vf vf_keep(vm m, vf a) {
  return vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(a)));
}
static inline vf vf_select_sign(vf x, vf neg, vf pos) {
  return vbslq_f32(vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_f32(x), 31)), neg, pos);
}
static inline int vm_all(vm m) { return vminvq_u32(m) == 0xffffffffu; }
static inline int vm_any(vm m) { return vmaxvq_u32(m) != 0; }
static inline vi vi_add(vi a, vi b) { return vaddq_s32(a, b); }
static inline vi vi_sub(vi a, vi b) { return vsubq_s32(a, b); }
static inline vi vi_max(vi a, vi b) { return vmaxq_s32(a, b); }
static inline vi vi_min(vi a, vi b) { return vminq_s32(a, b); }
/* |a| < 2^31 is false for NaN: those lanes and the out-of-range ones get
 * CVTTPS2DQ's INT32_MIN (-2^31 itself converts to it exactly) */
static inline vi vf_to_vi_trunc(vf a) {
  return vbslq_s32(vcaltq_f32(a, vdupq_n_f32(0x1p31f)), vcvtq_s32_f32(a), vdupq_n_s32(INT32_MIN));
}
#define vi_sll(a, imm) vshlq_n_s32((a), (imm))
#define vi_srl(a, imm) vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(a), (imm)))
#define vi_sra(a, imm) vshrq_n_s32((a), (imm))
/* RoPE's interleaved style, a vector of pairs at a time: REV64 swaps the two
 * floats of each 64-bit half; the sign mask is bit 31 of each 64-bit lane,
 * the even float (lane order is register order on either endianness). */
#define ACTK_ROPE_PAIRS 1
static inline vf vf_swap_pairs(vf a) { return vrev64q_f32(a); }
static inline vf vf_even_sign(void) { return vreinterpretq_f32_u64(vdupq_n_u64(0x80000000u)); }
static inline vf vf_load_dup_first(const float *p, size_t k) {
  float32x2_t h;
  if (k == 2) {
    h = vld1_f32(p);
  } else { /* k = 1: nothing past p[0] read */
    h = vset_lane_f32(k ? p[0] : 0.0f, vdup_n_f32(0.0f), 0);
  }
  vf v = vcombine_f32(h, vdup_n_f32(0.0f));
  return vzip1q_f32(v, v); /* p0 p0 p1 p1 */
}

/* t[k & 7]: the byte indices 4 (k & 7) + 0..3 of each lane into the 32-byte
 * table */
static inline vf vf_lookup8(const float t[8], vi k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* one LD1 of two registers straight into TBL's pair: gcc 12 kept neither a
   * table built from two float loads (it reloaded each constant with an ADRP
   * and an LDR every iteration) nor the pair of a float LD1 (a MOV per
   * register); memory order is lane order here */
  uint8x16x2_t tab = vld1q_u8_x2((const uint8_t *)(const void *)t);
#else
  /* loaded as floats, so each lane's bytes are in register order */
  uint8x16x2_t tab = {{vreinterpretq_u8_f32(vld1q_f32(t)), vreinterpretq_u8_f32(vld1q_f32(t + 4))}};
#endif
  uint32x4_t w = vshlq_n_u32(vandq_u32(vreinterpretq_u32_s32(k), vdupq_n_u32(7)), 2);
  w = vaddq_u32(vmulq_n_u32(w, 0x01010101u), vdupq_n_u32(0x03020100u));
  return vreinterpretq_f32_u8(vqtbl2q_u8(tab, vreinterpretq_u8_u32(w)));
}
/* t[k & 15]: as vf_lookup8, into the 64-byte table of four registers */
static inline vf vf_lookup16(const float t[16], vi k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint8x16x4_t tab = vld1q_u8_x4((const uint8_t *)(const void *)t);
#else
  uint8x16x4_t tab = {{vreinterpretq_u8_f32(vld1q_f32(t)), vreinterpretq_u8_f32(vld1q_f32(t + 4)),
                       vreinterpretq_u8_f32(vld1q_f32(t + 8)),
                       vreinterpretq_u8_f32(vld1q_f32(t + 12))}};
#endif
  uint32x4_t w = vshlq_n_u32(vandq_u32(vreinterpretq_u32_s32(k), vdupq_n_u32(15)), 2);
  w = vaddq_u32(vmulq_n_u32(w, 0x01010101u), vdupq_n_u32(0x03020100u));
  return vreinterpretq_f32_u8(vqtbl4q_u8(tab, vreinterpretq_u8_u32(w)));
}

/* t = n + ACTK_ROUND_MAGIC holds n in its low mantissa bits: shifted up, they
 * are n added to c's exponent; a 2^n: a times the float 2^n, rounded once. */
static inline vf vf_ldexp_exact(vf c, vf n, vf t) {
  (void)n;
  return vreinterpretq_f32_s32(
      vaddq_s32(vshlq_n_s32(vreinterpretq_s32_f32(t), 23), vreinterpretq_s32_f32(c)));
}
static inline vf vf_ldexp(vf a, vf n, vf t) {
  return vmulq_f32(a, vf_ldexp_exact(vdupq_n_f32(1.0f), n, t));
}

static inline vf vf_load_f32(const float *p) { return vld1q_f32(p); }
static inline void vf_store_f32(float *p, vf a) { vst1q_f32(p, a); }
static inline vf vf_load_first_f32(const float *p, size_t k) {
  float t[4] = {0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vld1q_f32(t);
}
static inline void vf_store_first_f32(float *p, size_t k, vf a) {
  float t[4];
  vst1q_f32(t, a);
  memcpy(p, t, k * sizeof *p);
}
/* 16-bit lanes: UXTL to 32 bits, XTN back (each lane below 2^16) */
static inline vi vi_load_u16(const uint16_t *p) {
  return vreinterpretq_s32_u32(vmovl_u16(vld1_u16(p)));
}
static inline void vi_store_u16(uint16_t *p, vi a) {
  vst1_u16(p, vmovn_u32(vreinterpretq_u32_s32(a)));
}
static inline vi vi_load_first_u16(const uint16_t *p, size_t k) {
  uint16_t t[4] = {0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vi_load_u16(t);
}
static inline void vi_store_first_u16(uint16_t *p, size_t k, vi a) {
  uint16_t t[4];
  vi_store_u16(t, a);
  memcpy(p, t, k * sizeof *p);
}

/* The types natively where that is cheaper (math/vec_types.h gives the
 * semantics; ACTK_GENERIC_TYPES builds its generic ones instead, for
 * tests/test_convert.c). f16: FCVTL and FCVTN (ARMv8.0), F16C's bits with
 * FPCR.AHP = 0, DN = 0 and round to nearest, which src/fpenv.h sets;
 * conversions ignore FZ16, so no half is flushed, and the caller's FZ only
 * flushes a subnormal f32, which rounds to a signed zero either way. bf16
 * stays the type layer's integer rounding (BFCVTN is Armv8.6, and flushes
 * subnormals under the caller's FZ). */
#ifndef ACTK_GENERIC_TYPES
#define ACTK_NATIVE_F16 1
static inline vf vf_load_f16(const uint16_t *p) {
  return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}
static inline void vf_store_f16(uint16_t *p, vf a) {
  vst1_u16(p, vreinterpret_u16_f16(vcvt_f16_f32(a)));
}
static inline vf vf_load_first_f16(const uint16_t *p, size_t k) {
  uint16_t t[4] = {0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vf_load_f16(t);
}
static inline void vf_store_first_f16(uint16_t *p, size_t k, vf a) {
  uint16_t t[4];
  vf_store_f16(t, a);
  memcpy(p, t, k * sizeof *p);
}
#endif

#include "../math/vec_types.h"

#endif
