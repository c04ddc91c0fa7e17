/* One implementation's 16-bit conversions (the vector contract's
 * vf_load/store(_first)_f16/bf16), for tests/test_convert.c: compiled once
 * per implementation with its own target flags and CONVERT_ISA set to its
 * name (scalar, avx2, avx512, neon). Whole vectors, then one masked tail, as the
 * kernels run them; and the kernels' bf16 store (vf_store_bf16_q). */
#include <stddef.h>
#include <stdint.h>

#define CONVERT_CAT2(a, b) a##b
#define CONVERT_CAT(a, b) CONVERT_CAT2(a, b)
#define CONVERT_NAME(what) CONVERT_CAT(CONVERT_CAT(convert_, CONVERT_ISA), what)

#if defined(CONVERT_ISA_AVX512)
#include "x86/vec_avx512.h"
#elif defined(CONVERT_ISA_AVX2)
#include "x86/vec_avx2.h"
#elif defined(CONVERT_ISA_NEON)
#include "arm/vec_neon.h"
#else
#include "scalar/vec_scalar.h"
#endif

#define CONVERT_DEFINE(type)                                                                       \
  void CONVERT_NAME(_narrow_##type)(const float *x, uint16_t *y, size_t n) {                       \
    size_t i = 0;                                                                                  \
    for (; i + VLEN <= n; i += VLEN) vf_store_##type(y + i, vf_load_f32(x + i));                   \
    if (VLEN > 1 && i < n) vf_store_first_##type(y + i, n - i, vf_load_first_f32(x + i, n - i));   \
  }                                                                                                \
  void CONVERT_NAME(_widen_##type)(const uint16_t *x, float *y, size_t n) {                        \
    size_t i = 0;                                                                                  \
    for (; i + VLEN <= n; i += VLEN) vf_store_f32(y + i, vf_load_##type(x + i));                   \
    if (VLEN > 1 && i < n) vf_store_first_f32(y + i, n - i, vf_load_first_##type(x + i, n - i));   \
  }
CONVERT_DEFINE(f16)
CONVERT_DEFINE(bf16)

/* the kernels' store, vf_store_bf16_q */
void CONVERT_NAME(_narrow_bf16_q)(const float *x, uint16_t *y, size_t n) {
  size_t i = 0;
  for (; i + VLEN <= n; i += VLEN) vf_store_bf16_q(y + i, vf_load_f32(x + i));
  if (VLEN > 1 && i < n) vf_store_first_bf16_q(y + i, n - i, vf_load_first_f32(x + i, n - i));
}
