/* The ties of the 16-bit types' accurate tier at the asymptotes of x *
 * sigmoid(alpha x) and of the GELUs, which a rounded f32 result cannot see.
 *
 * swish(x, alpha) = x/2 + (x/2) tanh(alpha x / 2), gelu(x) = x/2 + (x/2)
 * erf(x / sqrt 2), gelu_tanh(x) = x/2 + (x/2) tanh(u): for small |x| the true
 * value is x/2 plus a deviation of the sign of alpha (gelu, gelu_tanh: +) that
 * f32 arithmetic loses once it is below half an ulp of x/2. The f32 result is
 * then exactly x/2, and where that is a midpoint of the 16-bit type (x/2 of
 * a bf16 subnormal, of the smallest f16 ones, of a bias op's sum) the
 * narrowing's round-to-even picks the wrong side half the time. Handed to the
 * narrowing instead is t rounded to odd (of the two floats around t, the one
 * with the odd pattern): an odd float is never a 16-bit midpoint (those have
 * 13+ trailing zero bits), and rounding to odd and then to nearest with
 * fewer bits gives the nearest of t itself. The same at the other asymptote,
 * |t| < |x| strictly for large x, where a bias op's f32 sum s can make fl(t) = s
 * a 16-bit midpoint.
 *
 * f32 results are left as they are: there the tie is x/2 itself for |x| <
 * 2^-125, within the 2 ULP bound, and the one-compare test below measured
 * 6-21% of the f32 kernels' time (silu is 10 cycles a vector).
 *
 * A lane is changed only where the result is exactly x/2 (or x), so every
 * other result keeps its bits; the fix runs only for the vectors that hold a
 * small lane (or one at x). */
#ifndef ACTK_MATH_HALF_TIE_H
#define ACTK_MATH_HALF_TIE_H

#include "vec_contract.h"

/* Lanes m, where y == h == x/2 exactly (x a 16-bit value, or a sum of two,
 * both small: x/2 is exact): t lies between h and its neighbour on the side
 * of dir's sign (a zero dir: t is x/2, left alone). */
ACTK_INLINE vf half_tie_fix(vf x, vf y, vm m, vf dir) {
  const vf sign = vf_splat(-0.0f), one = vi_bits(vi_splat(1));
  const vf ah = vf_andnot(sign, y);
  /* the magnitude steps up where x and dir have the same sign */
  const vf up = vi_bits(vi_add(vf_bits(ah), vf_bits(one)));
  const vf down = vi_bits(vi_sub(vf_bits(ah), vf_bits(one)));
  const vf other = vf_select_sign(vf_xor(x, dir), down, up);
  /* the odd one of y and other (their lowest bits differ) */
  const vf odd = vf_select_sign(vi_bits(vi_sll(vf_bits(ah), 31)), ah, other);
  const vm fix = vm_and(m, vm_lt(vf_splat(0.0f), vf_andnot(sign, dir)));
  return vf_select(fix, vf_or(odd, vf_and(x, sign)), y);
}

/* |t| < |x|: where fl(t) = x (large x only), t rounded to odd is x if x is
 * odd, else its neighbour toward zero: (bits - 1) | 1 is both. */
ACTK_INLINE vf x_tie_fix(vf x, vf y) {
  const vm m = vm_and(vm_eq(y, x), vm_lt(vf_splat(1.0f), vf_andnot(vf_splat(-0.0f), x)));
  const vf ro = vf_or(vi_bits(vi_sub(vf_bits(y), vi_splat(1))), vi_bits(vi_splat(1)));
  return vf_select(m, ro, y);
}

/* The lanes that may need half_tie_fix are 0 < |x| < 2^-13, ax = |x| (or
 * |x| clamped above 2^-13); 2^-13 holds every x whose x/2 is a 16-bit
 * subnormal midpoint, and the bias ops' sums small enough to lose the
 * deviation. The ops send them to their general path, where half_tie_fix
 * settles them, so the fast path pays one subtract and one compare, into
 * the fast-lane mask it has (the cost: docs/performance.md).
 * Their complement in one compare: bits(|x|) - 2^13 read as a float is not
 * below bits(2^-13) - 2^13. x = 0 gives 0xffffe000, a NaN, which passes
 * (zeros keep the fast path); every nonzero value of a 16-bit type, or
 * sum of two, has bits(|x|) >= 2^16 (its smallest, 2^-133); under DAZ the
 * subnormal patterns read as 0, which is still below. */
#define ACTK_TIE_SMALL 0x39000000 /* 2^-13 */
ACTK_INLINE vm half_tie_not_small(vf ax) {
  const vf w = vi_bits(vi_sub(vf_bits(ax), vi_splat(0x2000)));
  return vm_nlt(w, vi_bits(vi_splat(ACTK_TIE_SMALL - 0x2000)));
}

/* y with the ties at x/2 settled (in an op's general path). */
ACTK_INLINE vf half_tie_at(vf x, vf y, vf dir) {
  const vf ax = vf_andnot(vf_splat(-0.0f), x);
  const vm small = vm_and(vm_lt(ax, vi_bits(vi_splat(ACTK_TIE_SMALL))), vm_lt(vf_splat(0.0f), ax));
  return half_tie_fix(x, y, vm_and(vm_eq(y, vf_mul(x, vf_splat(0.5f))), small), dir);
}

/* A bias op's GELU of its sum x: the tie at x as well (a branch taken by the
 * vectors that hold a large lane at x only). */
ACTK_INLINE vf x_tie(vf x, vf y) {
  if (ACTK_UNLIKELY(vm_any(vm_eq(y, x)))) y = x_tie_fix(x, y);
  return y;
}

#endif
