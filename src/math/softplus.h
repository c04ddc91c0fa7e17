/* softplus(x) = log(1 + e^x), the mathematical function; accurate tier.
 *   error:    under 1 ULP over all 2^32 inputs (README has the sweep's maximum; documented
 *             bound 2 ULP).
 *   domain:   every float.
 *   specials: NaN x -> the same NaN quieted; +inf -> +inf, -inf -> +0; strictly positive
 *             wherever the true value rounds to a positive float: e^x within 1 ULP down
 *             through the subnormals (over [-104, -70] max 0.90 ULP, 95-97% correctly
 *             rounded: v's rounding, and scale_down's second one for subnormal results),
 *             +0 only below x = -103.97 (e^x < 2^-150).
 *   PyTorch's nn.Softplus (beta 1) returns x itself above its threshold 20: in f32 that
 *   changes nothing for any threshold >= 14.55609, since x + log1p(e^-x) rounds to x from
 *   the next float, 14.556091, up (e^-x under half an ulp of x; measured over the floats).
 *
 * softplus(x) = max(x, 0) + log1p(u), u = e^-|x| in (0, 1] (log1p_core.h). u = 2^n (1 + p)
 * (1 - rl) from exp_core.h's reduction and polynomial, with the rounding of r kept as rl
 * (softplus_exp_of); uh = fl(2^n + 2^n p) by one fma, its rounding 2^n p - (uh - 2^n) by
 * another (uh - 2^n exact by Sterbenz), and - uh rl joined to that low part ul: the only
 * error u carries into the log1p is the polynomial's 2^-28.3. max(x, 0) + log1p's hi by
 * TwoSum, so the sum rounds once. |x| is clamped at 87 (n >= -126: 2^n a normal float;
 * e^-87 is far below half an ulp of any x >= 87, so the sum is x there). For x in [-70, 0]
 * the result is log1p(u) itself, whose relative error is at most u's; below -70 ul would be
 * subnormal and lose bits: those lanes (and NaN, which fails every compare, and +inf, where
 * the TwoSum would form inf - inf) take softplus_tail: e^x (the next term, e^2x / 2, is far
 * below its ulp), |x| clamped at 104 (e^-104 rounds to +0 as every smaller e^x does). */
#ifndef ACTK_MATH_SOFTPLUS_H
#define ACTK_MATH_SOFTPLUS_H

#include "exp_core.h"
#include "log1p_core.h"
#include "rare_lanes.h"

#define ACTK_SOFTPLUS_CLAMP 87.0f   /* |x| above: the sum is x */
#define ACTK_SOFTPLUS_TAIL (-70.0f) /* x below: e^x alone */

/* e^-a = 2^n (1 + p) (1 - rl), a >= 0: exp_core's reduction with the rounding of r kept,
 * r + rl = a + n ln2 (a + n ln2_hi is exact; n ln2_lo is rounded once, 2^-24 of 1.8e-4 at
 * most; Fast2Sum for the sum, which is exact to far below the result's ulp also where
 * |a + n ln2_hi| < |n ln2_lo|, both then under 2^-12). Without rl, r's rounding (up to
 * 2^-26) measured 1.015 ULP at x = -59.96. */
typedef struct {
  exp_core e;
  vf rl;
} softplus_exp;

ACTK_INLINE softplus_exp softplus_exp_of(vf a) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  softplus_exp x;
  x.e.t = vf_fma(a, vf_splat(-ACTK_LOG2E), magic);
  vf n = vf_sub(x.e.t, magic);
  vf rh = vf_fma(n, vf_splat(ACTK_LN2_HI), a);
  vf nl = vf_mul(n, vf_splat(ACTK_LN2_LO));
  vf r = vf_add(rh, nl);
  x.rl = vf_add(vf_sub(rh, r), nl);
  x.e.p = exp_core_poly_neg(r);
  return x;
}

/* The rare lanes: x < -70 (-inf included), +inf and NaN. e^x (its next term, e^2x / 2, is
 * under 2^-100 of it) as v = (1 + p)(1 - rl) rounded once (1 + p = w + e1 by Fast2Sum), then
 * scaled: exact where the result is normal, one more rounding into the subnormals. */
ACTK_INLINE vf softplus_tail(vf x) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  const vf one = vf_splat(1.0f);
  /* NaN passes the clamp; +inf is clamped too (its lane is x) */
  softplus_exp e = softplus_exp_of(vf_min(vf_splat(104.0f), vf_and(x, abs_mask)));
  vf w = vf_add(one, e.e.p);
  vf e1 = vf_add(vf_sub(one, w), e.e.p);
  vf v = vf_add(w, vf_fnma(e.rl, w, e1));
  vf y = scale_down(v, exp_core_n(&e.e));
  y = vf_select(vm_ge(x, vf_splat(0.0f)), x, y);
  return ACTK_NAN_PASSTHROUGH(x, y);
}

ACTK_RARE_LANES(softplus_v_rare, softplus_tail)

ACTK_INLINE vf softplus_v(vf x) {
  const vf abs_mask = vi_bits(vi_splat(0x7fffffff));
  vf a = vf_min(vf_splat(ACTK_SOFTPLUS_CLAMP), vf_and(x, abs_mask));
  softplus_exp e = softplus_exp_of(a);
  vf s = exp_core_scale(&e.e);
  vf uh = vf_fma(s, e.e.p, s);
  vf ul = vf_fma(s, e.e.p, vf_sub(s, uh));
  ul = vf_fnma(uh, e.rl, ul); /* u = uh + ul - uh rl */
  /* m = max(+0, x): +0 for x < 0, x otherwise (-0 for -0, which the sum turns into log1p);
   * m + hi by TwoSum (either may be the larger), so the sum rounds once */
  vf m = vf_max(vf_splat(0.0f), x);
  log1p_pair l = log1p_unit2(uh, ul);
  vf sum = vf_add(m, l.hi);
  vf bb = vf_sub(sum, m);
  vf err = vf_add(vf_sub(m, vf_sub(sum, bb)), vf_sub(l.hi, bb));
  vf y = vf_add(sum, vf_add(err, l.lo));
  /* +inf: the TwoSum's inf - inf */
  vm main = vm_and(vm_ge(x, vf_splat(ACTK_SOFTPLUS_TAIL)), vm_le(x, vf_splat(0x1.fffffep127f)));
  if (ACTK_UNLIKELY(!vm_all(main))) return softplus_v_rare(main, y, x);
  return y;
}

#endif
