/* tanh(x) for the 16-bit types, fast tier (fast16.h).
 *   error:    relative 2^-11.9 (bf16 core) and 2^-14.4 (f16 core), under the 2^-9 and 2^-12
 *             that make each faithful once rounded for every float (README has the measured
 *             maxima); monotone.
 *   domain:   every float; x clamped to [-A, A] (bf16 3.7, f16 4.9), where the result rounds
 *             to 1 in the type: past it +-1.
 *   specials: odd (odd functions of the clamped x: -0 -> -0), +-Inf -> +-1, NaN -> the same
 *             NaN quieted (the clamps pass it, the products quiet it).
 *
 * y = xc P(xc^2) / Q(xc^2), one division: tanh's poles at +-i pi/2 make a polynomial on
 * [-A, A] long (bf16 degree 7 in x^2 for 2^-9.6, f16 over 30) and a rational short. bf16: P
 * of degree 1, Q of 2 (P and Q of degree 1 reach only 2^-7.8; the clamp 3.7 is where the
 * rational still rises: fitted to 3.8 it peaks inside); f16: both of degree 2. The division
 * is exact (no reciprocal instruction), so every arm gives the same bits. bf16 took the
 * degree-7 polynomial before: this rational is 7 operations and the divider against its 11,
 * and faster on AVX2 (Zen 3; the figures: docs/performance.md, row Z3-F16-tanh). Not yet
 * timed on AVX-512 (no AVX-512 on the machine of the change). */
#ifndef ACTK_MATH_TANH_FAST16_H
#define ACTK_MATH_TANH_FAST16_H

#include "coeffs_fast16.h"
#include "vec_contract.h"

ACTK_INLINE vf tanh16_bf16_v(vf x) {
  vf xc = vf_max(vf_splat(-ACTK_TANH_BF16_A), vf_min(vf_splat(ACTK_TANH_BF16_A), x));
  vf s = vf_mul(xc, xc);
  vf p = vf_fma(vf_splat(ACTK_TANH_BF16_P1), s, vf_splat(ACTK_TANH_BF16_P0));
  vf q = vf_fma(vf_splat(ACTK_TANH_BF16_Q2), s, vf_splat(ACTK_TANH_BF16_Q1));
  q = vf_fma(q, s, vf_splat(1.0f));
  return vf_div(vf_mul(xc, p), q);
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
