// The engine's whole-tensor 16-bit passes (bench_ops.h, widen_f16 ...) for
// AVX2 + F16C, 16 elements per iteration, a scalar tail. Built with -mavx2
// -mfma -mf16c; called only when actk's avx2 ISA is active.
#include "bench_ops.h"

#include <immintrin.h>

namespace actkb {

void widen_f16_avx2(const uint16_t *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(x + i));
    const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(x + i + 8));
    _mm256_storeu_ps(y + i, _mm256_cvtph_ps(a));
    _mm256_storeu_ps(y + i + 8, _mm256_cvtph_ps(b));
  }
  for (; i < n; i++) y[i] = actk_f16_to_f32(x[i]);
}

void narrow_f16_avx2(const float *x, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT);
    const __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(x + i + 8), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128((__m128i *)(void *)(y + i), a);
    _mm_storeu_si128((__m128i *)(void *)(y + i + 8), b);
  }
  for (; i < n; i++) y[i] = actk_f32_to_f16(x[i]);
}

void widen_bf16_avx2(const uint16_t *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
    const __m256i lo = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(h)), 16);
    const __m256i hi = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(h, 1)), 16);
    _mm256_storeu_si256((__m256i *)(void *)(y + i), lo);
    _mm256_storeu_si256((__m256i *)(void *)(y + i + 8), hi);
  }
  for (; i < n; i++) y[i] = actk_bf16_to_f32(x[i]);
}

namespace {
// 8 floats to their bf16 patterns in the low halves of 32-bit lanes: round
// to nearest even on the bits, NaN quieted (x >> 16 | 0x40).
__m256i round_bf16(__m256 v) {
  const __m256i u = _mm256_castps_si256(v);
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  const __m256i r =
      _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
  const __m256i q = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
  const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(r, q, nan);
}
} // namespace

void narrow_bf16_avx2(const float *x, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i a = round_bf16(_mm256_loadu_ps(x + i));
    const __m256i b = round_bf16(_mm256_loadu_ps(x + i + 8));
    // packus works per 128-bit lane: a0 b0 a1 b1 -> a0 a1 b0 b1
    const __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8);
    _mm256_storeu_si256((__m256i *)(void *)(y + i), p);
  }
  for (; i < n; i++) y[i] = actk_f32_to_bf16(x[i]);
}

// the gated two-pass way's multiply (bench_ops.h gated_mul): f32, which the
// compiler vectorizes for this file's flags, and 16-bit, one rounding
void mul_f32_avx2(const float *a, const float *u, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = a[i] * u[i];
}

namespace {
// 16 elements of a 16-bit type widened, in two halves
void widen16(bool bf16, const uint16_t *p, __m256 *lo, __m256 *hi) {
  const __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)p);
  const __m128i l = _mm256_castsi256_si128(h), u = _mm256_extracti128_si256(h, 1);
  if (bf16) {
    *lo = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(l), 16));
    *hi = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(u), 16));
  } else {
    *lo = _mm256_cvtph_ps(l);
    *hi = _mm256_cvtph_ps(u);
  }
}
} // namespace

void mul16_avx2(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256 al, ah, ul, uh;
    widen16(bf16, a + i, &al, &ah);
    widen16(bf16, u + i, &ul, &uh);
    const __m256 pl = _mm256_mul_ps(al, ul), ph = _mm256_mul_ps(ah, uh);
    if (bf16) { // as narrow_bf16_avx2
      const __m256i r = _mm256_packus_epi32(round_bf16(pl), round_bf16(ph));
      _mm256_storeu_si256((__m256i *)(void *)(y + i), _mm256_permute4x64_epi64(r, 0xd8));
    } else {
      _mm_storeu_si128((__m128i *)(void *)(y + i), _mm256_cvtps_ph(pl, _MM_FROUND_TO_NEAREST_INT));
      _mm_storeu_si128((__m128i *)(void *)(y + i + 8),
                       _mm256_cvtps_ph(ph, _MM_FROUND_TO_NEAREST_INT));
    }
  }
  mul16_scalar(bf16, a + i, u + i, y + i, n - i);
}

} // namespace actkb
