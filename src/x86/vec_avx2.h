/* AVX2 + FMA3 implementation of the vector contract in src/math/vec_contract.h.
 * Only for translation units compiled with -mavx2 -mfma. */
#ifndef ACTK_X86_VEC_AVX2_H
#define ACTK_X86_VEC_AVX2_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef __m256 vf;
typedef __m256i vi;
typedef __m256 vm;
#define VLEN 8
/* Staged f32 kernels software-pipelined (src/kernels/instantiate.h, ACTK_PIPE): fast gelu's
 * loop is bound by the out-of-order window here, not by a pipe (docs/performance.md) */
#define ACTK_PIPE_f32 1

static inline vf vf_splat(float a) { return _mm256_set1_ps(a); }
static inline vi vi_splat(int32_t a) { return _mm256_set1_epi32(a); }
static inline vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return _mm256_fnmadd_ps(a, b, c); }
static inline vf vf_fms(vf a, vf b, vf c) { return _mm256_fmsub_ps(a, b, c); }
static inline vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }
static inline vf vf_floor(vf a) {
  return _mm256_round_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}
static inline vf vf_and(vf a, vf b) { return _mm256_and_ps(a, b); }
static inline vf vf_or(vf a, vf b) { return _mm256_or_ps(a, b); }
static inline vf vf_xor(vf a, vf b) { return _mm256_xor_ps(a, b); }
static inline vf vf_andnot(vf a, vf b) { return _mm256_andnot_ps(a, b); }
static inline vm vm_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vm vm_le(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline vm vm_ge(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline vm vm_eq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline vm vm_and(vm a, vm b) { return _mm256_and_ps(a, b); }
static inline vm vm_isnan(vf a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
static inline vm vm_unord(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_UNORD_Q); }
static inline vf vf_select(vm m, vf t, vf f) { return _mm256_blendv_ps(f, t, m); }
static inline vf vf_keep(vm m, vf a) { return _mm256_and_ps(m, a); }
/* x's sign bit picks: set -> neg, clear -> pos (one blendv, no compare) */
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return _mm256_blendv_ps(pos, neg, x); }
static inline int vm_all(vm m) { return _mm256_movemask_ps(m) == 0xff; }
static inline int vm_any(vm m) { return !_mm256_testz_ps(m, m); }
static inline vi vf_bits(vf a) { return _mm256_castps_si256(a); }
static inline vf vi_bits(vi a) { return _mm256_castsi256_ps(a); }
static inline vi vi_add(vi a, vi b) { return _mm256_add_epi32(a, b); }
static inline vi vi_sub(vi a, vi b) { return _mm256_sub_epi32(a, b); }
static inline vi vf_to_vi_trunc(vf a) { return _mm256_cvttps_epi32(a); }
static inline vi vi_max(vi a, vi b) { return _mm256_max_epi32(a, b); }
static inline vi vi_min(vi a, vi b) { return _mm256_min_epi32(a, b); }
#define vi_sll(a, imm) _mm256_slli_epi32((a), (imm))
#define vi_srl(a, imm) _mm256_srli_epi32((a), (imm))
#define vi_sra(a, imm) _mm256_srai_epi32((a), (imm))
/* RoPE pairs: swap (2j, 2j+1), sign on even lanes, first k floats of p
 * (k <= 4) each duplicated into a pair of lanes. */
#define ACTK_ROPE_PAIRS 1
static inline vf vf_swap_pairs(vf a) { return _mm256_permute_ps(a, 0xB1); }
static inline vf vf_even_sign(void) {
  return _mm256_setr_ps(-0.f, 0.f, -0.f, 0.f, -0.f, 0.f, -0.f, 0.f);
}
static inline vf vf_load_dup_first(const float *p, size_t k) {
  static const int32_t ramp[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
  __m128 h = _mm_maskload_ps(p, _mm_loadu_si128((const __m128i *)(ramp + 4 - k)));
  return _mm256_permutevar8x32_ps(_mm256_castps128_ps256(h),
                                  _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3));
}
static inline vf vf_lookup8(const float t[8], vi k) {
  return _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), k);
}
/* each half looked up by k & 7; bit 3 of k, shifted up to the sign bit, picks the half */
static inline vf vf_lookup16(const float t[16], vi k) {
  __m256 lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t), k);
  __m256 hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t + 8), k);
  return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(k, 28)));
}

/* t = n + ACTK_ROUND_MAGIC holds n in its low mantissa bits (two's complement): shifted up,
 * they are n added to an exponent field. c 2^n (c and the result normal): n added to c's
 * exponent; a 2^n: a times the float 2^n, rounded once. */
static inline vf vf_ldexp_exact(vf c, vf n, vf t) {
  (void)n;
  return _mm256_castsi256_ps(
      _mm256_add_epi32(_mm256_slli_epi32(_mm256_castps_si256(t), 23), _mm256_castps_si256(c)));
}
static inline vf vf_ldexp(vf a, vf n, vf t) {
  return _mm256_mul_ps(a, vf_ldexp_exact(_mm256_set1_ps(1.0f), n, t));
}

/* Lane-count masks for tails: lanes [0, k) set. */
static inline vi vi_first_lanes(size_t k) {
  static const int32_t ramp[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  return _mm256_loadu_si256((const __m256i *)(ramp + 8 - k));
}
static inline vf vf_load_f32(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store_f32(float *p, vf a) { _mm256_storeu_ps(p, a); }
/* Masked lanes are neither read nor written, and cannot fault. */
static inline vf vf_load_first_f32(const float *p, size_t k) {
  return _mm256_maskload_ps(p, vi_first_lanes(k));
}
static inline void vf_store_first_f32(float *p, size_t k, vf a) {
  _mm256_maskstore_ps(p, vi_first_lanes(k), a);
}

/* 16-bit lanes: zero-extended to 32 bits, and back (each lane's value below
 * 2^16: the unsigned saturation of VPACKUSDW keeps it). AVX2 has no 16-bit
 * masked loads or stores: tails go through a vector's worth of stack (the
 * same arithmetic, nothing read or written past k). */
static inline vi vi_load_u16(const uint16_t *p) {
  return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline void vi_store_u16(uint16_t *p, vi a) {
  __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, a), 0x08); /* quadwords 0, 2 */
  _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(w));
}
static inline vi vi_load_first_u16(const uint16_t *p, size_t k) {
  uint16_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vi_load_u16(t);
}
static inline void vi_store_first_u16(uint16_t *p, size_t k, vi a) {
  uint16_t t[8];
  vi_store_u16(t, a);
  memcpy(p, t, k * sizeof *p);
}

/* The types natively (math/vec_types.h gives the semantics; ACTK_GENERIC_TYPES
 * builds its generic ones instead, for tests/test_convert.c). */
#ifndef ACTK_GENERIC_TYPES
#define ACTK_NATIVE_F16 1
#define ACTK_NATIVE_BF16 1
/* f16: F16C. bf16:
 * the bits shifted, and round to nearest even done on the integer bits. AVX2
 * has no 16-bit masked loads or stores: tails go through a zeroed vector's
 * worth of stack (the same arithmetic, nothing read or written past k). */
/* the widened f16 hidden from clang's compare-of-halves rewrite (vec_avx512.h says why) */
static inline vf vf_opaque_widened(vf a) {
#if defined(__clang__)
  __asm__("" : "+v"(a));
#endif
  return a;
}
static inline vf vf_load_f16(const uint16_t *p) {
  return vf_opaque_widened(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p)));
}
static inline void vf_store_f16(uint16_t *p, vf a) {
  _mm_storeu_si128((__m128i *)(void *)p,
                   _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}
/* the 8 words broadcast to both 128-bit halves (a load, no shuffle uop), then one
 * byte shuffle puts words 0-3 and 4-7 on the top halves of the lanes over zeros
 * (a widening move and a shift before) */
static inline vf vf_load_bf16(const uint16_t *p) {
  const __m256i spread =
      _mm256_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7, -1, -1, 8, 9, -1, -1,
                       10, 11, -1, -1, 12, 13, -1, -1, 14, 15);
  __m256i h = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p));
  return _mm256_castsi256_ps(_mm256_shuffle_epi8(h, spread));
}
/* (u + 0x7fff + lsb) >> 16 in the top halves, for every u */
static inline __m256i vf_round_bf16(vf a) {
  __m256i u = _mm256_castps_si256(a);
  __m256i inc = _mm256_add_epi32(_mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1)),
                                 _mm256_set1_epi32(0x7fff));
  return _mm256_add_epi32(u, inc);
}
/* the top halves gathered with one byte shuffle and one quadword permute */
static inline __m128i vf_gather_bf16(__m256i r) {
  const __m256i gather =
      _mm256_setr_epi8(2, 3, 6, 7, 10, 11, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 6, 7, 10,
                       11, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1);
  r = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(r, gather), 0x08); /* quadwords 0, 2 */
  return _mm256_castsi256_si128(r);
}
/* the NaN lanes blended back as the top half with the quiet bit */
static inline __m128i vf_narrow_bf16(vf a) {
  __m256i q = _mm256_or_si256(_mm256_castps_si256(a), _mm256_set1_epi32(0x00400000));
  __m256i r = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(vf_round_bf16(a)),
                                                   _mm256_castsi256_ps(q),
                                                   _mm256_cmp_ps(a, a, _CMP_UNORD_Q)));
  return vf_gather_bf16(r);
}
static inline void vf_store_bf16(uint16_t *p, vf a) {
  _mm_storeu_si128((__m128i *)(void *)p, vf_narrow_bf16(a));
}
static inline void vf_store_bf16_q(uint16_t *p, vf a) {
  _mm_storeu_si128((__m128i *)(void *)p, vf_gather_bf16(vf_round_bf16(a)));
}
static inline vf vf_load_first_f16(const uint16_t *p, size_t k) {
  uint16_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vf_load_f16(t);
}
static inline void vf_store_first_f16(uint16_t *p, size_t k, vf a) {
  uint16_t t[8];
  vf_store_f16(t, a);
  memcpy(p, t, k * sizeof *p);
}
static inline vf vf_load_first_bf16(const uint16_t *p, size_t k) {
  uint16_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  memcpy(t, p, k * sizeof *p);
  return vf_load_bf16(t);
}
static inline void vf_store_first_bf16(uint16_t *p, size_t k, vf a) {
  uint16_t t[8];
  vf_store_bf16(t, a);
  memcpy(p, t, k * sizeof *p);
}
static inline void vf_store_first_bf16_q(uint16_t *p, size_t k, vf a) {
  uint16_t t[8];
  vf_store_bf16_q(t, a);
  memcpy(p, t, k * sizeof *p);
}
/* bf16 two vectors at a time (ACTK_PAIR_bf16, src/kernels/instantiate.h), as on
 * AVX-512: one 32-byte load holds 16 elements, the even ones widen by a shift, the
 * odd ones by an AND; the rounded results merge back by a shift and one VPBLENDW (no
 * byte shuffle, no cross-lane permute). */
#define ACTK_PAIR_bf16 1
static inline void vf_load_pair_bf16(const uint16_t *p, vf *even, vf *odd) {
  __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)p);
  *even = _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
  *odd = _mm256_castsi256_ps(_mm256_and_si256(w, _mm256_set1_epi32((int)0xffff0000)));
}
static inline void vf_store_pair_bf16_q(uint16_t *p, vf even, vf odd) {
  __m256i e = _mm256_srli_epi32(vf_round_bf16(even), 16), o = vf_round_bf16(odd);
  _mm256_storeu_si256((__m256i *)(void *)p, _mm256_blend_epi16(e, o, 0xaa)); /* odd words: o */
}
#endif /* ACTK_GENERIC_TYPES */

#include "../math/vec_types.h"

#endif
