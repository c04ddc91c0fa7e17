/* elu(x, alpha) = x for x > 0, alpha (e^x - 1) otherwise (PyTorch's ELU, scale 1); accurate tier.
 *   error:    x > 0 exact; below, alpha (e^x - 1) from expm1_core.h's parts with alpha folded
 *             in (expm1_times): under 1 ULP over all 2^32 inputs at alpha 1 (README has the
 *             sweep's maximum; bound 2 ULP); other alphas shift how the fnma's roundings meet
 *             the result's ulp: measured (dense range sweeps) up to 1.10 ULP for normal alphas
 *             (1.2: 1.098 at x = -0.3803; 1.702: 1.052; 3: 1.046) and 1.67 for a subnormal
 *             alpha (alpha 2^n inexact there); near 0 alpha x + alpha w with no cancellation
 *             (elu(-1e-10) = fl(-1e-10 alpha), subnormal x included); below -17.5 (where
 *             e^x < 2^-25.2) the clamp gives -alpha, rounded once.
 *   domain:   any float x and alpha. alpha is not validated: the result is alpha (e^x - 1)
 *             in IEEE arithmetic. alpha = +-0 gives zeros of the sign of alpha * (e^x - 1)
 *             (-0 for alpha = +0 and x <= -0); a negative alpha mirrors the x <= 0 half.
 *   specials: NaN x -> the same NaN quieted; +inf -> +inf; -inf -> -alpha; elu(+-0) =
 *             alpha * +-0 (elu(-0) = -0 for alpha > 0), and every zero result (an underflow
 *             with a tiny alpha) has the sign of alpha (e^x - 1); a NaN the definition makes
 *             from a non-NaN x (alpha NaN and x <= 0, or alpha +-inf and x = +-0) is the
 *             default NaN, 0x7fc00000; alpha = +-inf and x < 0: -+inf.
 *
 * The common path (alpha finite and >= 2^-100, tested once per call: the test is loop-invariant)
 * gets every special right by construction: the x < 0 half is taken from the core with its sign bit
 * set (every such result is negative or -0: an underflow, a flush under the caller's FTZ, or a
 * zero sum of the fmas keep it so), the rest is x + -0 (x itself, zeros kept; a NaN quieted;
 * the clamp takes NaN second, so a NaN reaches no sign-dependent step). Any other alpha (NaN,
 * +-inf, zero, negative or under 2^-100) rebuilds the lanes whose result is a zero or a NaN: alpha
 * times a stand-in for e^x - 1 with its sign and zeros, max(-1, x), gives the sign (or the NaN,
 * made the default one: its bits would depend on operand order). */
#ifndef ACTK_MATH_ELU_H
#define ACTK_MATH_ELU_H

#include "expm1_core.h"

/* alpha finite and >= 2^-100 (every lane: alpha is splatted): then alpha 2^n is a normal float
 * for every n the cores reach (n >= -25), so exact. A smaller alpha takes the rare path. */
ACTK_INLINE int elu_alpha_plain(vf alpha) {
  return vm_all(vm_and(vm_le(vf_splat(0x1p-100f), alpha), vm_lt(alpha, vf_splat(INFINITY))));
}

/* Another alpha: the x <= 0 half from ye with its zero and NaN lanes rebuilt (see above; ye * inf
 * is NaN exactly there), x > 0 as x. The halves are told apart by bits, not by a compare: under
 * the caller's DAZ a compare reads a subnormal x as 0, and elu(+0) = alpha * +0 differs in sign
 * from elu(+2^-149) for alpha < 0. min(bits(x), bits(x) - 1), as int32, has its sign bit set
 * exactly for x <= 0 (+0: -1; -0: INT32_MIN; negative NaNs included). */
ACTK_INLINE vf elu_rare(vf x, vf alpha, vf ye) {
  const vf sign = vf_splat(-0.0f), dnan = vf_splat(actk_qnanf());
  /* at and below the clamp the result is -alpha exactly (e^x < 2^-25.2: alpha (1 - e^x) rounds
   * to alpha for every alpha), which alpha 2^n, inexact for a tiny alpha, would miss (fuzz_bits:
   * alpha 0x1.fffd06p-124 at -inf gave a float off by one) */
  ye = vf_select(vm_le(x, vf_splat(ACTK_EXPM1_LO)), vf_xor(alpha, sign), ye);
  vf z = vf_mul(alpha, vf_max(vf_splat(-1.0f), x));
  vf zs = vf_select(vm_eq(ye, vf_splat(0.0f)), vf_and(z, sign), z);
  zs = vf_select(vm_isnan(z), dnan, zs);
  vf e = vf_select(vm_isnan(vf_mul(ye, vf_splat(INFINITY))), zs, ye);
  vi b = vf_bits(x);
  vf nonpos = vi_bits(vi_min(b, vi_sub(b, vi_splat(1))));
  return ACTK_NAN_PASSTHROUGH(x, vf_select_sign(nonpos, e, x));
}

/* y from ye = alpha (e^x - 1) (the caller's core) on the x < 0 half, x elsewhere. */
ACTK_INLINE vf elu_finish(vf x, vf alpha, vf ye) {
  const vf sign = vf_splat(-0.0f);
  /* x + -0 is x, a NaN quieted; the -0 is -0 alpha, which a compiler cannot fold to the
   * constant (x + -0.0f would be folded to x, a signalling NaN left as it is). Formed before
   * the branch: only there may a compiler that keeps FP traps hoist it out of the loop */
  const vf mzero = vf_mul(sign, alpha);
  if (ACTK_UNLIKELY(!elu_alpha_plain(alpha))) return elu_rare(x, alpha, ye);
  return vf_select(vm_lt(x, vf_splat(0.0f)), vf_or(ye, sign), vf_add(x, mzero));
}

ACTK_INLINE vf elu_v(vf x, vf alpha) {
  /* the clamp takes NaN second: it reaches the special branch */
  expm1_parts e = expm1_core(vf_max(vf_splat(ACTK_EXPM1_LO), x));
  return elu_finish(x, alpha, expm1_times(&e, alpha));
}

/* The 16-bit types' accurate tier: the f32 result narrowed, with its ties settled. For
 * -2^-20 < x < 0 the truth alpha x (1 + x/2 + ...) lies strictly between alpha x and its
 * neighbour toward zero wherever the f32 result is alpha x exactly (the kernel's sum
 * fl(alpha x + fl(alpha w)) keeps alpha x only when alpha w is at most half its ulp), and
 * alpha x can be a 16-bit midpoint (bf16 x, alpha = 3: 3 m of 9 bits), where round-to-even
 * picks the wrong side half the time. There the result is handed on rounded to odd toward
 * zero, (bits - 1) | 1, never a 16-bit midpoint (half_tie.h has the argument). */
ACTK_INLINE vf elu_tie(vf x, vf alpha, vf y) {
  vm small = vm_and(vm_lt(vf_splat(-0x1p-20f), x), vm_lt(x, vf_splat(0.0f)));
  if (ACTK_UNLIKELY(vm_any(small))) {
    vm exact = vm_and(small, vm_eq(vf_fms(alpha, x, y), vf_splat(0.0f)));
    exact = vm_and(exact, vm_lt(vf_splat(0.0f), vf_andnot(vf_splat(-0.0f), y)));
    vf ro = vf_or(vi_bits(vi_sub(vf_bits(y), vi_splat(1))), vi_bits(vi_splat(1)));
    y = vf_select(exact, ro, y);
  }
  return y;
}
ACTK_INLINE vf elu_v_f16(vf x, vf alpha) { return elu_tie(x, alpha, elu_v(x, alpha)); }
ACTK_INLINE vf elu_v_bf16(vf x, vf alpha) { return elu_tie(x, alpha, elu_v(x, alpha)); }

#endif
