/* e^z for z <= 0 as parts: e^z = 2^n (1 + ph + pl), |ph| < 0.42, |pl| tiny.
 *
 * Every op in actk that needs an exponential uses e^(-something) and needs it
 * to more than float precision (the op's own rounding comes after), so the
 * core returns an unrounded pair and an integer exponent instead of a float:
 * callers fold 1 + ph + pl into their final operation and apply 2^n last,
 * which also keeps subnormal results correctly rounded. Keeping e^r - 1
 * rather than e^r also gives 1 - e^z without cancellation (tanh needs it).
 *
 * Reduction: n = round(z / ln2), r = z - n ln2 with ln2 split in three so that
 * n * LN2_HI is exact for |n| < 512; the rounding error of r, and the caller's
 * low part zl of z, go into ml. Then e^r - 1 = r + r^2 Q(r), Q of degree 4
 * (relative error 2^-28.3 on |r| <= ln2/2), split into a head and tail. */
#ifndef ACTK_MATH_EXP_PARTS_H
#define ACTK_MATH_EXP_PARTS_H

#include "vec_contract.h"

#define ACTK_LOG2E 0x1.715476p+0f
#define ACTK_LN2_HI 0x1.62e400p-1f /* 16 significant bits */
#define ACTK_LN2_LO 0x1.7f7d1cp-20f
#define ACTK_ROUND_MAGIC 0x1.8p23f /* adding it rounds to an integer in the low bits */

typedef struct {
  vf ph, pl; /* e^r - 1 = ph + pl */
  vi n;      /* integer exponent */
} exp_parts;

/* zh <= 0 and zh >= -2^20 (callers clamp); zl is a low-order correction of zh
 * (0 if none). NaN in zh gives NaN in m. */
ACTK_INLINE exp_parts exp_parts_of(vf zh, vf zl) {
  const vf magic = vf_splat(ACTK_ROUND_MAGIC);
  vf t = vf_fma(zh, vf_splat(ACTK_LOG2E), magic);
  vf nf = vf_sub(t, magic);
  exp_parts e;
  e.n = vi_sub(vf_bits(t), vf_bits(magic));
  vf r1 = vf_fma(nf, vf_splat(-ACTK_LN2_HI), zh); /* exact */
  vf rm = vf_mul(nf, vf_splat(ACTK_LN2_LO));
  vf r = vf_sub(r1, rm);
  vf rl = vf_add(vf_sub(vf_sub(r1, r), rm), zl);
  vf q = vf_fma(vf_splat(0x1.6a4d1ap-10f), r, vf_splat(0x1.12398cp-7f));
  q = vf_fma(q, r, vf_splat(0x1.5558b0p-5f));
  q = vf_fma(q, r, vf_splat(0x1.555492p-3f));
  q = vf_fma(q, r, vf_splat(0x1.fffffcp-2f));
  vf s = vf_mul(vf_mul(r, r), q);
  vf ph = vf_add(r, s);
  vf pl = vf_add(vf_sub(r, ph), s); /* exact: |s| < |r| */
  /* e^(r + rl) = (1 + ph + pl)(1 + rl) to 2^-40 */
  e.ph = ph;
  e.pl = vf_add(pl, vf_fma(ph, rl, rl));
  return e;
}

/* e^r = m + ml with m = fl(1 + ph) */
ACTK_INLINE void exp_parts_m(const exp_parts *e, vf *m, vf *ml) {
  *m = vf_add(vf_splat(1.0f), e->ph);
  *ml = vf_add(vf_add(vf_sub(vf_splat(1.0f), *m), e->ph), e->pl); /* exact head error */
}

/* 2^k as a float, for k in [-126, 127]. */
ACTK_INLINE vf exp2i(vi k) { return vi_bits(vi_sll(vi_add(k, vi_splat(127)), 23)); }

#endif
