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

/* p = a * up where p is NaN: the lanes by the rule above */
ACTK_INLINE vf gated_nan(vf a, vf up, vf p) {
  vf q = vf_select(vm_isnan(up), vf_add(up, up), vf_splat(actk_qnanf()));
  q = vf_select(vm_isnan(a), a, q);
  return vf_select(vm_isnan(p), q, p);
}

ACTK_INLINE vf gated_mul(vf a, vf up) {
  vf p = vf_mul(a, up);
  if (ACTK_UNLIKELY(vm_any(vm_isnan(p)))) p = gated_nan(a, up, p);
  return p;
}

/* two vectors at once: one unordered compare tests both products */
ACTK_INLINE void gated_mul2(vf a0, vf u0, vf a1, vf u1, vf *p0, vf *p1) {
  *p0 = vf_mul(a0, u0);
  *p1 = vf_mul(a1, u1);
  if (ACTK_UNLIKELY(vm_any(vm_unord(*p0, *p1)))) {
    *p0 = gated_nan(a0, u0, *p0);
    *p1 = gated_nan(a1, u1, *p1);
  }
}

#endif
