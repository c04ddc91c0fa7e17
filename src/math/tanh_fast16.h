/* tanh(x) for the 16-bit types, fast tier (fast16.h).
 *   error:    relative 2^-9.6 (bf16 core, under the 2^-9 that makes bf16 faithful) up to
 *             3.26, where bf16's two values around tanh become 1 and the one below, and
 *             from there the polynomial rises to 1 at the clamp (up to 2^-8.8 off tanh);
 *             2^-14.4 (f16 core) everywhere: faithful once rounded for every float (README
 *             has the measured maxima); monotone.
 *   domain:   every float; x clamped to [-A, A] (bf16 3.5, f16 4.9), where the result rounds
 *             to 1 in the type: past it +-1.
 *   specials: odd (odd functions of the clamped x: -0 -> -0), +-Inf -> +-1, NaN -> the same
 *             NaN quieted (the clamps pass it, the products quiet it).
 *
 * bf16: y = xc Q(xc^2), Q of degree 7 (the form of erf_fast16.h). f16: y = xc P(xc^2) /
 * Q(xc^2), both of degree 2, one division: tanh's poles at +-i pi/2 make a polynomial on
 * [-4.9, 4.9] over degree 30 and a rational 5 coefficients; the division is exact (no
 * reciprocal instruction). bf16 takes the polynomial: on AVX-512 the divider bounds the
 * rational (0.85x of the f32 twin's time against 0.69x; on AVX2 0.66x against 0.78x). */
#ifndef ACTK_MATH_TANH_FAST16_H
#define ACTK_MATH_TANH_FAST16_H

#include "coeffs_fast16.h"
#include "vec_contract.h"

ACTK_INLINE vf tanh16_bf16_v(vf x) {
  vf xc = vf_max(vf_splat(-ACTK_TANH_BF16_A), vf_min(vf_splat(ACTK_TANH_BF16_A), x));
  vf s = vf_mul(xc, xc);
  vf q = vf_fma(vf_splat(ACTK_TANH_BF16_Q7), s, vf_splat(ACTK_TANH_BF16_Q6));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q5));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q4));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q3));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q2));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q1));
  q = vf_fma(q, s, vf_splat(ACTK_TANH_BF16_Q0));
  return vf_mul(xc, q);
}

ACTK_INLINE vf tanh16_f16_v(vf x) {
  vf xc = vf_max(vf_splat(-ACTK_TANH_F16_A), vf_min(vf_splat(ACTK_TANH_F16_A), x));
  vf s = vf_mul(xc, xc);
  vf p = vf_fma(vf_splat(ACTK_TANH_F16_P2), s, vf_splat(ACTK_TANH_F16_P1));
  p = vf_fma(p, s, vf_splat(ACTK_TANH_F16_P0));
  vf q = vf_fma(vf_splat(ACTK_TANH_F16_Q2), s, vf_splat(ACTK_TANH_F16_Q1));
  q = vf_fma(q, s, vf_splat(1.0f));
  return vf_div(vf_mul(xc, p), q);
}

#endif
