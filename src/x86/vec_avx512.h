/* AVX-512 (F + DQ) implementation of the vector contract in
 * src/math/vec_contract.h: 16 floats per vector, real mask registers, masked
 * loads and stores for tails. Only for translation units compiled with
 * -mavx512f -mavx512dq (see CMakeLists.txt). */
#ifndef ACTK_X86_VEC_AVX512_H
#define ACTK_X86_VEC_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

typedef __m512 vf;
typedef __m512i vi;
typedef __mmask16 vm;
#define VLEN 16

static inline vf vf_splat(float a) { return _mm512_set1_ps(a); }
static inline vi vi_splat(int32_t a) { return _mm512_set1_epi32(a); }
static inline vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm512_div_ps(a, b); }
static inline vf vf_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return _mm512_fnmadd_ps(a, b, c); }
static inline vf vf_fms(vf a, vf b, vf c) { return _mm512_fmsub_ps(a, b, c); }
static inline vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }
static inline vf vf_min(vf a, vf b) { return _mm512_min_ps(a, b); }
static inline vf vf_floor(vf a) {
  return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}
static inline vf vf_and(vf a, vf b) { return _mm512_and_ps(a, b); }
static inline vf vf_or(vf a, vf b) { return _mm512_or_ps(a, b); }
static inline vf vf_xor(vf a, vf b) { return _mm512_xor_ps(a, b); }
static inline vf vf_andnot(vf a, vf b) { return _mm512_andnot_ps(a, b); }
static inline vm vm_lt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline vm vm_le(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline vm vm_ge(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
static inline vm vm_eq(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline vm vm_and(vm a, vm b) { return (vm)(a & b); }
static inline vm vm_isnan(vf a) { return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q); }
static inline vm vm_unord(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q); }
static inline vf vf_select(vm m, vf t, vf f) { return _mm512_mask_blend_ps(m, f, t); }
static inline vf vf_keep(vm m, vf a) { return _mm512_maskz_mov_ps(m, a); }
static inline vf vf_select_sign(vf x, vf neg, vf pos) {
  return _mm512_mask_blend_ps(_mm512_movepi32_mask(_mm512_castps_si512(x)), pos, neg);
}
static inline int vm_all(vm m) { return m == 0xffff; }
static inline int vm_any(vm m) { return m != 0; }
static inline vi vf_bits(vf a) { return _mm512_castps_si512(a); }
static inline vf vi_bits(vi a) { return _mm512_castsi512_ps(a); }
static inline vi vi_add(vi a, vi b) { return _mm512_add_epi32(a, b); }
static inline vi vi_sub(vi a, vi b) { return _mm512_sub_epi32(a, b); }
static inline vi vf_to_vi_trunc(vf a) { return _mm512_cvttps_epi32(a); }
static inline vi vi_max(vi a, vi b) { return _mm512_max_epi32(a, b); }
static inline vi vi_min(vi a, vi b) { return _mm512_min_epi32(a, b); }
#define vi_sll(a, imm) _mm512_slli_epi32((a), (imm))
#define vi_srl(a, imm) _mm512_srli_epi32((a), (imm))
#define vi_sra(a, imm) _mm512_srai_epi32((a), (imm))
/* RoPE pairs: swap (2j, 2j+1), sign on even lanes, first k floats of p
 * (k <= 8) each duplicated into a pair of lanes. */
#define ACTK_ROPE_PAIRS 1
static inline vf vf_swap_pairs(vf a) { return _mm512_permute_ps(a, 0xB1); }
static inline vf vf_even_sign(void) {
  return _mm512_castsi512_ps(_mm512_set1_epi64((long long)0x0000000080000000ULL));
}
static inline vf vf_load_dup_first(const float *p, size_t k) {
  __m512 h = _mm512_maskz_loadu_ps((__mmask16)((1u << k) - 1u), p);
  return _mm512_permutexvar_ps(_mm512_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7),
                               h);
}
/* The 8 entries twice: permutexvar uses 4 index bits, so this is t[k & 7]. */
static inline vf vf_lookup8(const float t[8], vi k) {
  return _mm512_permutexvar_ps(k, _mm512_broadcast_f32x8(_mm256_loadu_ps(t)));
}
static inline vf vf_lookup16(const float t[16], vi k) {
  return _mm512_permutexvar_ps(k, _mm512_loadu_ps(t));
}

/* c 2^n and a 2^n for an integer-valued float n in [-126, 127] (t = n + ACTK_ROUND_MAGIC is
 * not needed here): one VSCALEFPS each, rounded once. */
static inline vf vf_ldexp_exact(vf c, vf n, vf t) {
  (void)t;
  return _mm512_scalef_ps(c, n);
}
static inline vf vf_ldexp(vf a, vf n, vf t) {
  (void)t;
  return _mm512_scalef_ps(a, n);
}

static inline __mmask16 first_lanes(size_t k) { return (__mmask16)((1u << k) - 1u); }
static inline vf vf_load_f32(const float *p) { return _mm512_loadu_ps(p); }
static inline void vf_store_f32(float *p, vf a) { _mm512_storeu_ps(p, a); }
/* Masked lanes are neither read nor written, and cannot fault. */
static inline vf vf_load_first_f32(const float *p, size_t k) {
  return _mm512_maskz_loadu_ps(first_lanes(k), p);
}
static inline void vf_store_first_f32(float *p, size_t k, vf a) {
  _mm512_mask_storeu_ps(p, first_lanes(k), a);
}

/* 16-bit lanes: zero-extended to 32 bits, and back (VPMOVDW: the low halves);
 * tails by 16-bit masked loads and stores (AVX-512 BW + VL). */
static inline vi vi_load_u16(const uint16_t *p) {
  return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline void vi_store_u16(uint16_t *p, vi a) {
  _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(a));
}
static inline vi vi_load_first_u16(const uint16_t *p, size_t k) {
  return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(first_lanes(k), p));
}
static inline void vi_store_first_u16(uint16_t *p, size_t k, vi a) {
  _mm256_mask_storeu_epi16(p, first_lanes(k), _mm512_cvtepi32_epi16(a));
}

/* The types natively (math/vec_types.h gives the semantics; ACTK_GENERIC_TYPES
 * builds its generic ones instead, for tests/test_convert.c). */
#ifndef ACTK_GENERIC_TYPES
#define ACTK_NATIVE_F16 1
#define ACTK_NATIVE_BF16 1
/* f16: VCVTPH2PS and
 * VCVTPS2PH (exact IEEE, no DAZ/FTZ); bf16: the bits shifted, and round to
 * nearest even on the integer bits (VCVTNEPS2BF16 flushes subnormals, so it
 * cannot be used). Tails: 16-bit masked loads (AVX-512 BW + VL) and stores.
 * bf16: widened by a zero-extending move and a shift (one VPERMW over a zero
 * word measured 2-5% slower in the kernels), rounded in three integer
 * operations, the NaN lanes' quiet bit merged under a mask (two more, which
 * the kernels' _q stores leave out), the top halves gathered by one VPERMW: 6
 * to 8 vector uops for a load and a store where nine integer operations and
 * VPMOVDW's two uops took 13 (the bf16 kernels spent a third of their time
 * converting). tests/test_convert.c checks the scalar semantics on every rounding case. */
/* clang rewrites a compare of a widened f16 value into a compare of halves, which
 * this ISA lacks, and then widens and compares lane by lane (the fast f16 logistic
 * ops ran 9x slower than bf16 under clang 14): the widened value is made opaque to
 * the optimizer, which costs no instruction. */
static inline vf vf_opaque_widened(vf a) {
#if defined(__clang__)
  __asm__("" : "+v"(a));
#endif
  return a;
}
static inline vf vf_load_f16(const uint16_t *p) {
  return vf_opaque_widened(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p)));
}
static inline __m256i vf_narrow_f16(vf a) {
  return _mm512_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline void vf_store_f16(uint16_t *p, vf a) {
  _mm256_storeu_si256((__m256i *)(void *)p, vf_narrow_f16(a));
}
static inline vf vf_widen_bf16(__m256i h) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
static inline vf vf_load_bf16(const uint16_t *p) {
  return vf_widen_bf16(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
/* the top halves of the lanes, in order */
static inline __m256i vf_gather_bf16(__m512i r) {
  const __m512i idx = _mm512_set_epi16(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 31, 29, 27,
                                       25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  return _mm512_castsi512_si256(_mm512_permutexvar_epi16(idx, r));
}
/* round to nearest even on the bits: half up (+0x8000), then a tie (the bottom half 0 after
 * the add) loses the bit it carried in when that made the top half odd (VPTESTNMD, a masked
 * AND): (u + 0x7fff + lsb) >> 16 for every u, NaN or not */
static inline __m512i vf_round_bf16(vf a) {
  __m512i t = _mm512_add_epi32(_mm512_castps_si512(a), _mm512_set1_epi32(0x8000));
  return _mm512_mask_and_epi32(t, _mm512_testn_epi32_mask(t, _mm512_set1_epi32(0xffff)), t,
                               _mm512_set1_epi32((int)0xfffeffff));
}
/* the NaN lanes: the top half with the quiet bit */
static inline __m256i vf_narrow_bf16(vf a) {
  __m512i u = _mm512_castps_si512(a);
  return vf_gather_bf16(_mm512_mask_or_epi32(
      vf_round_bf16(a), _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), u, _mm512_set1_epi32(0x00400000)));
}
static inline void vf_store_bf16(uint16_t *p, vf a) {
  _mm256_storeu_si256((__m256i *)(void *)p, vf_narrow_bf16(a));
}
static inline void vf_store_bf16_q(uint16_t *p, vf a) {
  _mm256_storeu_si256((__m256i *)(void *)p, vf_gather_bf16(vf_round_bf16(a)));
}
static inline vf vf_load_first_f16(const uint16_t *p, size_t k) {
  return vf_opaque_widened(_mm512_cvtph_ps(_mm256_maskz_loadu_epi16(first_lanes(k), p)));
}
static inline void vf_store_first_f16(uint16_t *p, size_t k, vf a) {
  _mm256_mask_storeu_epi16(p, first_lanes(k), vf_narrow_f16(a));
}
static inline vf vf_load_first_bf16(const uint16_t *p, size_t k) {
  return vf_widen_bf16(_mm256_maskz_loadu_epi16(first_lanes(k), p));
}
static inline void vf_store_first_bf16(uint16_t *p, size_t k, vf a) {
  _mm256_mask_storeu_epi16(p, first_lanes(k), vf_narrow_bf16(a));
}
static inline void vf_store_first_bf16_q(uint16_t *p, size_t k, vf a) {
  _mm256_mask_storeu_epi16(p, first_lanes(k), vf_gather_bf16(vf_round_bf16(a)));
}
/* bf16 two vectors at a time (ACTK_PAIR_bf16, src/kernels/instantiate.h): one 64-byte
 * load holds 32 elements, the even ones in the low halves of the dwords and the odd
 * ones in the top halves, so one shift and one AND widen them (two uops for 32
 * elements where the zero-extending move and the shift take four); the rounded results
 * go back with one shift and one VPTERNLOGD in place of two VPERMW. The lanes hold
 * elements 0, 2, 4 .. and 1, 3, 5 ..: the kernels are elementwise, each element's
 * result is the same (bench/actk_floor16: 0.77-0.89x the single-vector kernels' time
 * for erf and tanh). */
#define ACTK_PAIR_bf16 1
static inline void vf_load_pair_bf16(const uint16_t *p, vf *even, vf *odd) {
  __m512i w = _mm512_loadu_si512((const void *)p);
  *even = _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
  *odd = _mm512_castsi512_ps(_mm512_and_si512(w, _mm512_set1_epi32((int)0xffff0000)));
}
static inline void vf_store_pair_bf16_q(uint16_t *p, vf even, vf odd) {
  __m512i e = _mm512_srli_epi32(vf_round_bf16(even), 16), o = vf_round_bf16(odd);
  _mm512_storeu_si512((void *)p, /* e | (o & 0xffff0000) */
                      _mm512_ternarylogic_epi32(e, o, _mm512_set1_epi32((int)0xffff0000), 0xf8));
}
#endif /* ACTK_GENERIC_TYPES */

#include "../math/vec_types.h"

#endif
