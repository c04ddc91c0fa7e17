/* AVX2 + FMA3 implementation of the vector contract in src/math/vec_contract.h.
 * Only for translation units compiled with -mavx2 -mfma. */
#ifndef ACTK_X86_VEC_AVX2_H
#define ACTK_X86_VEC_AVX2_H

#include <immintrin.h>
#include <stdint.h>

typedef __m256 vf;
typedef __m256i vi;
typedef __m256 vm;
#define VLEN 8

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
static inline vm vm_isnan(vf a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
static inline vf vf_select(vm m, vf t, vf f) { return _mm256_blendv_ps(f, t, m); }
static inline vf vf_keep(vm m, vf a) { return _mm256_and_ps(m, a); }
/* x's sign bit picks: set -> neg, clear -> pos (one blendv, no compare) */
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return _mm256_blendv_ps(pos, neg, x); }
static inline int vm_all(vm m) { return _mm256_movemask_ps(m) == 0xff; }
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

#endif
