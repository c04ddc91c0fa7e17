// The engine's whole-tensor 16-bit passes (bench_ops.h, widen_f16 ...) for
// AVX-512 (F, BW, VL) + F16C, 32 elements per iteration, a scalar tail. Built
// with -mavx512f -mavx512dq -mavx512bw -mavx512vl -mfma -mf16c; called only
// when actk's avx512 ISA is active. bf16 narrowing is integer rounding, not
// AVX512-BF16's VCVTNEPS2BF16 (which flushes subnormals; actk does not use it
// either, README "Types").
//
// GCC 12's avx512fintrin.h seeds unmasked intrinsics with _mm512_undefined_*
// (), which -Wmaybe-uninitialized reports once they inline (GCC bug 105593,
// fixed in 12.3/13): silenced for this file only, as in baseline_eigen512.cc.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "bench_ops.h"

#include <immintrin.h>

namespace actkb {

void widen_f16_avx512(const uint16_t *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(x + i + 16));
    _mm512_storeu_ps(y + i, _mm512_cvtph_ps(a));
    _mm512_storeu_ps(y + i + 16, _mm512_cvtph_ps(b));
  }
  for (; i < n; i++) y[i] = actk_f16_to_f32(x[i]);
}

void narrow_f16_avx512(const float *x, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = _mm512_cvtps_ph(_mm512_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
    const __m256i b = _mm512_cvtps_ph(_mm512_loadu_ps(x + i + 16), _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256((__m256i *)(void *)(y + i), a);
    _mm256_storeu_si256((__m256i *)(void *)(y + i + 16), b);
  }
  for (; i < n; i++) y[i] = actk_f32_to_f16(x[i]);
}

void widen_bf16_avx512(const uint16_t *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(x + i + 16));
    _mm512_storeu_si512(y + i, _mm512_slli_epi32(_mm512_cvtepu16_epi32(a), 16));
    _mm512_storeu_si512(y + i + 16, _mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
  }
  for (; i < n; i++) y[i] = actk_bf16_to_f32(x[i]);
}

namespace {
// 16 floats to bf16: round to nearest even on the bits, NaN quieted.
__m256i round_bf16(__m512 v) {
  const __m512i u = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  __m512i r =
      _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  r = _mm512_mask_or_epi32(r, nan, _mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
  return _mm512_cvtepi32_epi16(r);
}
} // namespace

void narrow_bf16_avx512(const float *x, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    _mm256_storeu_si256((__m256i *)(void *)(y + i), round_bf16(_mm512_loadu_ps(x + i)));
    _mm256_storeu_si256((__m256i *)(void *)(y + i + 16), round_bf16(_mm512_loadu_ps(x + i + 16)));
  }
  for (; i < n; i++) y[i] = actk_f32_to_bf16(x[i]);
}

// the gated two-pass way's multiply (bench_ops.h gated_mul): f32, which the
// compiler vectorizes for this file's flags, and 16-bit, one rounding
void mul_f32_avx512(const float *a, const float *u, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = a[i] * u[i];
}

namespace {
__m512 widen16(bool bf16, const uint16_t *p) {
  const __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)p);
  return bf16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16))
              : _mm512_cvtph_ps(h);
}
} // namespace

void mul16_avx512(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 p = _mm512_mul_ps(widen16(bf16, a + i), widen16(bf16, u + i));
    const __m256i r = bf16 ? round_bf16(p) : _mm512_cvtps_ph(p, _MM_FROUND_TO_NEAREST_INT);
    _mm256_storeu_si256((__m256i *)(void *)(y + i), r);
  }
  mul16_scalar(bf16, a + i, u + i, y + i, n - i);
}

} // namespace actkb
