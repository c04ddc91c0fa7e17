/* x + bias ahead of an activation: bias_gelu(x, b) = gelu(fl(x + b)).
 *
 * Contract: the sum rounded once to float, so a fused bias op gives exactly
 * the bits of a float add followed by the activation. When both x and b are
 * NaN the result is x's NaN quieted (an add keeps either operand's NaN,
 * depending on an operand order the compiler may swap); one NaN operand is
 * what an add returns, quieted.
 *
 * bias_add zeroes b where x is NaN (a compare and an and, on the dependency
 * chain: 7% of bias_gelu's time on AVX2), so rows whose bias holds no NaN
 * take the plain add instead, which gives the same bits there. */
#ifndef ACTK_MATH_BIAS_H
#define ACTK_MATH_BIAS_H

#include "vec_contract.h"

/* x + b with x's NaN first; NaN + 0 is x quieted. */
ACTK_INLINE vf bias_add(vf x, vf b) { return vf_add(x, vf_keep(vm_le(x, vf_splat(INFINITY)), b)); }

/* bias_any_nan_<type>(b, len): whether any of b[0..len) is NaN (-inf <=
 * +inf; a NaN compares false; the masked tail load fills with 0). One per
 * element type (src/kernels/instantiate.h expands it). */
#define ACTK_BIAS_ANY_NAN(type, T)                                                                 \
  ACTK_INLINE int bias_any_nan_##type(const T *b, size_t len) {                                    \
    const vf inf = vf_splat(INFINITY);                                                             \
    size_t j = 0;                                                                                  \
    for (; j + VLEN <= len; j += VLEN)                                                             \
      if (!vm_all(vm_le(vf_load_##type(b + j), inf))) return 1;                                    \
    return VLEN > 1 && j < len && !vm_all(vm_le(vf_load_first_##type(b + j, len - j), inf));       \
  }

#endif
