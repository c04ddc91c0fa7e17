/* The floor16 kernels (floor16.h) on the AVX2 arm: floor16_body.h over vec_avx2.h,
 * built with the flags of src/x86/impl_avx2.c. No VCVTNEPS2BF16 rows: that
 * instruction is AVX-512's. */
#include "x86/vec_avx2.h"
/* (vec_avx2.h first: the body reads VLEN) */
#define FLOOR16_NARROW floor16_narrow_avx2
#include "floor16_body.h"

static const floor16_kernel table[] = {FLOOR16_COMMON_ROWS};

const floor16_kernel *floor16_kernels_avx2(size_t *count) {
  *count = sizeof table / sizeof table[0];
  return table;
}
