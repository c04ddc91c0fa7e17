/* softplus(x) = log(1 + e^x), fast tier: one core for f32, f16 and bf16.
 *   error:    relative under 2^-19 over all floats (README has the sweep's maximum; bound
 *             2^-18): faithful once narrowed to a 16-bit type.
 *   specials: those of the accurate tier (softplus.h).
 *
 * max(x, 0) + log1p(u), u = e^-|x| = s p rounded once (exp_fast.h's nearest form of the
 * 16-entry table, 2^-21.1; |x| clamped at 87: u normal, j = round(-16 |x| / ln2) in
 * [-2008, 0]), where it was 2^n times a degree-5 P with a VSCALEFPS: AVX-512 0.427 -> 0.369
 * ns/element, AVX2 0.571 -> 0.523 (64 Ki, one thread; docs/performance.md); log1p_unit_fast
 * (log1p_core.h: degree-5 Q, no division). Lanes below x = -87 (where the clamp would change u) and
 * NaN take the accurate kernel. Not monotone (so softplus is not "monotone" in src/ops.toml): with
 * the prop set, test_accuracy's runs of consecutive floats find 11380 steps down in 1048576, the
 * first at x = 0x1.0001a6p-8 (the nearest-form exp and Q's roundings; 11350 with the degree-5
 * exp before the table); the accurate tier passes there. */
#ifndef ACTK_MATH_SOFTPLUS_FAST_H
#define ACTK_MATH_SOFTPLUS_FAST_H

#include "exp_fast.h"
#include "softplus.h"
#include "rare_lanes.h"

ACTK_RARE_LANES(softplus_fast_v_rare, softplus_v)

ACTK_INLINE vf softplus_fast_v(vf x) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  vf a = vf_min(vf_splat(ACTK_SOFTPLUS_CLAMP), vf_and(x, abs_mask));
  exp_fast_lut e = exp_fast_neg_round_lut(a);
  vf u = vf_mul(e.s, e.p);
  vf y = vf_add(vf_max(vf_splat(0.0f), x), log1p_unit_fast(u));
  vm main = vm_ge(x, vf_splat(-ACTK_SOFTPLUS_CLAMP));
  if (ACTK_UNLIKELY(!vm_all(main))) return softplus_fast_v_rare(main, y, x);
  return y;
}

#endif
