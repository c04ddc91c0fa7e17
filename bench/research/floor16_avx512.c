/* The floor16 kernels (floor16.h) on the AVX-512 arm: floor16_body.h over
 * vec_avx512.h, built with the flags of src/x86/impl_avx512.c, plus the rows only this
 * arm has: VCVTNEPS2BF16, inside functions that ask for AVX512_BF16 themselves (the
 * caller checks the CPU first). */
#include "x86/vec_avx512.h"
/* (vec_avx512.h first: the body reads VLEN) */
#define FLOOR16_NARROW floor16_narrow_avx512
#include "floor16_body.h"

/* bf16 narrowing by VCVTNEPS2BF16 where no lane is an f32 subnormal (which it would
 * flush), else the shipped integer rounding: the best use of the instruction that
 * keeps actk's bits for every non-NaN value (a signalling NaN comes out quieted, where
 * vf_store_bf16_q keeps it; the kernels' results are quiet already). */
__attribute__((target("avx512bf16"), noinline)) static void copy_bf16_cvtne(const void *xv,
                                                                            void *yv, size_t n) {
  const uint16_t *x = (const uint16_t *)xv;
  uint16_t *y = (uint16_t *)yv;
  for (size_t i = 0; i + VLEN <= n; i += VLEN) {
    vf a = vf_load_bf16(x + i);
    if (_mm512_fpclass_ps_mask(a, 0x20)) /* 0x20: denormal */
      vf_store_bf16_q(y + i, a);
    else
      _mm256_storeu_si256((__m256i *)(void *)(y + i), (__m256i)_mm512_cvtneps_pbh(a));
  }
}

/* The bf16 store by VCVTNEPS2BF16 inside a kernel (as copy_bf16_cvtne). */
#define FLOOR_CVTNE(name, fn)                                                                      \
  __attribute__((target("avx512bf16"), noinline)) static void name(const void *xv, void *yv,       \
                                                                   size_t n) {                     \
    const uint16_t *x = (const uint16_t *)xv;                                                      \
    uint16_t *y = (uint16_t *)yv;                                                                  \
    for (size_t i = 0; i + VLEN <= n; i += VLEN) {                                                 \
      vf a = fn(vf_load_bf16(x + i));                                                              \
      if (_mm512_fpclass_ps_mask(a, 0x20))                                                         \
        vf_store_bf16_q(y + i, a);                                                                 \
      else                                                                                         \
        _mm256_storeu_si256((__m256i *)(void *)(y + i), (__m256i)_mm512_cvtneps_pbh(a));           \
    }                                                                                              \
  }
FLOOR_CVTNE(cvtne_erf_bf16, erf_fast_bf16_v)
FLOOR_CVTNE(cvtne_tanh_bf16, tanh_fast_bf16_v)

static const floor16_kernel table[] = {
    FLOOR16_COMMON_ROWS{"copy/bf16/cvtne", FLOOR_BF16, copy_bf16_cvtne, 1},
    {"cvtne/erf/bf16", FLOOR_BF16, cvtne_erf_bf16, 1},
    {"cvtne/tanh/bf16", FLOOR_BF16, cvtne_tanh_bf16, 1},
};

const floor16_kernel *floor16_kernels_avx512(size_t *count) {
  *count = sizeof table / sizeof table[0];
  return table;
}
