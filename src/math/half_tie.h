/* The ties of the 16-bit types' accurate tier at the asymptotes of x *
 * sigmoid(alpha x) and of the GELUs, which a rounded f32 result cannot see.
 *
 * swish(x, alpha) = x/2 + (x/2) tanh(alpha x / 2), gelu(x) = x/2 + (x/2)
 * erf(x / sqrt 2), gelu_tanh(x) = x/2 + (x/2) tanh(u): for small |x| the true
 * value is x/2 plus a deviation of the sign of alpha (gelu, gelu_tanh: +) that
 * f32 arithmetic loses once it is below half an ulp of x/2. The f32 result is
 * then exactly x/2, and where that is a midpoint of the 16-bit type (x/2 of
 * a bf16 below 2^-125, of an f16 below 2^-13, of a bias op's sum) the
 * narrowing's round-to-even picks the wrong side half the time. Handed to the
 * narrowing instead is t rounded to odd (of the two floats around t, the one
 * with the odd pattern): an odd float is never a 16-bit midpoint (those have
 * 13+ trailing zero bits), and rounding to odd and then to nearest with
 * fewer bits gives the nearest of t itself. The same at the other asymptote,
 * |t| < |x| strictly for large x, where a bias op's f32 sum s can make
 * fl(t) = s a 16-bit midpoint.
 *
 * f32 results are left as they are: there the tie is x/2 itself for |x| <
 * 2^-125, within the 2 ULP bound, and a test on the hot path measured 6-21%
 * of the f32 kernels' time (silu is 10 cycles a vector).
 *
 * A lane is changed only where the result is exactly x/2 (or x), not 0, so
 * every other result keeps its bits, and under the caller's FTZ/DAZ (a
 * flushed result is 0; DAZ reads a subnormal y as 0) the fix stays out of the
 * way: those ties are not settled there. The fix is done on the kernel's own
 * result, in registers, for the vectors that hold a small lane only: the
 * common case pays three instructions (docs/performance.md). */
#ifndef ACTK_MATH_HALF_TIE_H
#define ACTK_MATH_HALF_TIE_H

#include <stdint.h>

#include "vec_contract.h"

/* Where a lane can tie at x/2 (0 < |x| below, as float bits): */
#define ACTK_TIE_BF16 0x01000000 /* 2^-125: x/2 is a bf16 midpoint only below */
#define ACTK_TIE_F16 0x39000000  /* 2^-13: below, x/2 may be an f16 subnormal midpoint */
/* 2^-20: a deviation c x^2 with c >= 1/4 (silu, quick_gelu, gelu, gelu_tanh)
 * is under 2 ulps of x/2 only below 2^-21.6, and the kernels' error is under
 * 2 ulps: above, the result is never exactly x/2 (f16 inputs, and the bias
 * ops' sums, which make any f32 x/2) */
#define ACTK_TIE_LOST 0x35800000

/* Lanes m (y == x/2 exactly, not 0): t lies between y and its neighbour on
 * the side of dir's sign (a zero dir: t is x/2, left alone). */
ACTK_INLINE vf half_tie_fix(vf x, vf y, vm m, vf dir) {
  const vf sign = vf_splat(-0.0f), one = vi_bits(vi_splat(1));
  const vf ay = vf_andnot(sign, y);
  /* the magnitude steps up where x and dir have the same sign */
  const vf up = vi_bits(vi_add(vf_bits(ay), vf_bits(one)));
  const vf down = vi_bits(vi_sub(vf_bits(ay), vf_bits(one)));
  const vf other = vf_select_sign(vf_xor(x, dir), down, up);
  /* the odd one of y and other (their lowest bits differ) */
  const vf odd = vf_select_sign(vi_bits(vi_sll(vf_bits(ay), 31)), ay, other);
  const vm fix = vm_and(m, vm_lt(vf_splat(0.0f), vf_andnot(sign, dir)));
  return vf_select(fix, vf_or(odd, vf_and(x, sign)), y);
}

/* The tie at x: what a bias op needs in both tiers (the fast one's results are faithful
 * only but must not round a sum at the overflow midpoint up). A sum s of two f16 or
 * bf16 values can be a midpoint of the type, and past ~5.3 gelu(s) and gelu_tanh(s)
 * are s less a hair: y == x, and the narrowing's round-to-even goes up half the time
 * where the true value, below x, rounds down. Handed to the narrowing instead, on every
 * lane with y == x, is y's float neighbour toward zero, y (1 - 2^-24): for a normal y,
 * y 2^-24 is more than half the step below y and at most that step, so the product
 * rounds to the neighbour; zeros and infinities keep their bits (+inf still narrows to
 * inf). Round to nearest even narrows the neighbour as y itself except where
 * y is the lowest float that rounds to its result: a midpoint that rounds up, the lane
 * to fix (f16's 65520 now gives 65504, bf16's 0x7f7f8000 0x7f7f), or one step past a
 * midpoint that rounds down. No sum of two f16 or bf16 values of 1 or more has that
 * last pattern (checked over all 2^32 pairs of each type), and y == x only at large
 * sums and the zeros, so
 * on a bias op's sums this changes the midpoint lanes alone. Not a general round to
 * odd: on any other float one step past a midpoint it would step it down wrongly.
 * No midpoint test and no branch: y == x holds for every gelu sum past ~5.3, so a
 * branch on those lanes was taken at random (bf16 bias_gelu_fast at 4 Mi: 1.37
 * ns/element with a branch on y == x, 0.73 with the midpoint test too, 0.52 without a
 * branch; 0.39 for gelu itself). Two vector instructions on AVX-512 (a compare and a
 * masked VMULPS), three on AVX2 and NEON, where round to odd at a tested midpoint took
 * seven on AVX-512 and ten on AVX2; the same 16-bit results on every such sum, each core
 * and tier, under FTZ/DAZ too (docs/performance.md has the check). */
/* half_tie's at_x: settle the tie at x too (the bias ops' sums, either 16-bit type) */
#define ACTK_AT_X 1

ACTK_INLINE vf x_tie(vf x, vf y) {
  return vf_select(vm_eq(y, x), vf_mul(y, vf_splat(0x1.fffffep-1f)), y);
}

/* The result y of the op at x with the ties settled: at x/2 on the lanes 0 <
 * |x| < limit (a bits pattern, ACTK_TIE_*), at x too for a bias op's sum
 * (at_x nonzero: x_tie). dir: the deviation's sign at x/2. The small lanes
 * in one compare: bits(|x|) - 2^13 read as a float is below bits(limit) - 2^13 (x = 0 gives
 * 0xffffe000, a NaN, which no ordered compare passes: zeros keep the fast
 * path; every nonzero value of a 16-bit type, or sum of two, has bits(|x|)
 * >= 2^16; under DAZ the subnormal patterns read as 0, and the fix skips
 * them). */
ACTK_INLINE vf half_tie(vf x, vf y, vf dir, int32_t limit, int at_x) {
  const vf sign = vf_splat(-0.0f);
  const vf w = vi_bits(vi_sub(vf_bits(vf_andnot(sign, x)), vi_splat(0x2000)));
  const vm small = vm_lt(w, vi_bits(vi_splat(limit - 0x2000)));
  if (ACTK_UNLIKELY(vm_any(small))) {
    const vm at_half =
        vm_and(vm_eq(y, vf_mul(x, vf_splat(0.5f))), vm_lt(vf_splat(0.0f), vf_andnot(sign, y)));
    y = half_tie_fix(x, y, vm_and(at_half, small), dir);
  }
  return at_x ? x_tie(x, y) : y;
}

#endif
