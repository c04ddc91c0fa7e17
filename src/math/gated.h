/* The gated ops' product, y = a * up with a = f(gate) the activation's f32
 * result (src/ops.toml: accurate tier its f32 math in every type, fast tier
 * its type's fast core): rounded once in f32, then narrowed once by the
 * store for the 16-bit types.
 *
 * NaNs, the same bits on every implementation (which operand a multiply
 * returns when both are NaN is not portable, vec_contract.h): a NaN gate
 * gives its own NaN quieted (the activation passes it), whatever up is;
 * otherwise a NaN up gives up's NaN quieted; a NaN from inf * 0 (gate
 * +-inf or an activation of +inf, up 0) the default NaN. Those lanes are rare:
 * one compare and a branch per vector on the common path. */
#ifndef ACTK_MATH_GATED_H
#define ACTK_MATH_GATED_H

#include "vec_contract.h"

ACTK_INLINE vf gated_mul(vf a, vf up) {
  vf p = vf_mul(a, up);
  vm nan = vm_isnan(p);
  if (ACTK_UNLIKELY(vm_any(nan))) {
    vf q = vf_select(vm_isnan(up), vf_add(up, up), vf_splat(__builtin_nanf("")));
    q = vf_select(vm_isnan(a), a, q);
    p = vf_select(nan, q, p);
  }
  return p;
}

#endif
