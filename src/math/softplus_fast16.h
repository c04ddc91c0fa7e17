/* softplus(x) = log(1 + e^x) for the 16-bit types, fast tier (exp_fast16.h has the family).
 *   error:    relative about 2^-13.1 (f16 core: exp16's cubic 2^-13.25 and log1p's degree-6
 *             fit 2^-16.66) and 2^-10.5 (bf16 core: its degree-4 fit 2^-11.02): under the 2^-12
 *             and 2^-9 that make each type faithful once rounded (README has the measured
 *             maxima). Not monotone (nor is the f32 fast tier's: softplus_fast.h).
 *   domain:   every float; lanes below x = -87 (where the clamp would change u) and NaN take
 *             the accurate kernel (softplus.h), as softplus_fast.h's do.
 *   specials: those of the accurate tier: NaN kept, +inf -> +inf, -0 -> ln2.
 *
 * max(x, 0) + log1p(u), u = e^-|x| (|x| clamped at 87: u normal) = 2^n p by exp16_neg, and
 * log1p(u) = u + u^2 L(u) on all of [0, 1] with no reduction (log1p(u) / u is smooth there;
 * the f32 fast tier's degree-5 Q needs the k = 0/1 split of log1p_core.h): the exp's degree
 * 5 and VSCALEFPS, the reduction's compare, selects and fms, and the f32 Q's 6 terms become
 * a cubic, a shift and a multiply, and 4 (f16) or 2 (bf16) fmas for L. fma(u L, u, u) keeps
 * a tiny u to its last bit. */
#ifndef ACTK_MATH_SOFTPLUS_FAST16_H
#define ACTK_MATH_SOFTPLUS_FAST16_H

#include "exp_fast16.h"
#include "softplus.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(softplus16_v_rare, softplus_v)

/* u = e^-|x|, |x| clamped at 87 */
ACTK_INLINE vf softplus16_u(vf x) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  exp16 e = exp16_neg(vf_min(vf_splat(ACTK_SOFTPLUS_CLAMP), vf_and(x, abs_mask)));
  return vf_mul(exp16_scale(&e), e.p);
}

/* max(x, 0) + u + u^2 l, lanes below -87 (and NaN) from the accurate kernel */
ACTK_INLINE vf softplus16_sum(vf x, vf u, vf l) {
  vf y = vf_add(vf_max(vf_splat(0.0f), x), vf_fma(vf_mul(u, l), u, u));
  vm main = vm_ge(x, vf_splat(-ACTK_SOFTPLUS_CLAMP));
  if (ACTK_UNLIKELY(!vm_all(main))) return softplus16_v_rare(main, y, x);
  return y;
}

ACTK_INLINE vf softplus16_f16_v(vf x) {
  vf u = softplus16_u(x);
  vf l = vf_fma(vf_splat(ACTK_SOFTPLUS_F16_L5), u, vf_splat(ACTK_SOFTPLUS_F16_L4));
  l = vf_fma(l, u, vf_splat(ACTK_SOFTPLUS_F16_L3));
  l = vf_fma(l, u, vf_splat(ACTK_SOFTPLUS_F16_L2));
  l = vf_fma(l, u, vf_splat(ACTK_SOFTPLUS_F16_L1));
  return softplus16_sum(x, u, l);
}

ACTK_INLINE vf softplus16_bf16_v(vf x) {
  vf u = softplus16_u(x);
  vf l = vf_fma(vf_splat(ACTK_SOFTPLUS_BF16_L3), u, vf_splat(ACTK_SOFTPLUS_BF16_L2));
  l = vf_fma(l, u, vf_splat(ACTK_SOFTPLUS_BF16_L1));
  return softplus16_sum(x, u, l);
}

#endif
