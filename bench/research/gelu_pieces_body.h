/* One variant of the fast gelu loop for actk_gelu_pieces (gelu_pieces_avx2.c includes this
 * once per variant, PIECE_NAME set): the shipped math (src/math/gelu_fast.h) with at most
 * one piece taken out or added, so the time it moves is that piece's. Wrong results are
 * the point: only the time is read. */
#ifndef PIECE_DIV
#define PIECE_DIV 1 /* 0: a VMULPS in the division's place */
#endif
#ifndef PIECE_LUT
#define PIECE_LUT 16 /* 8: one VPERMPS; 0: none; 1: VGATHERDPS; 2: VPBLENDVB */
#endif
#ifndef PIECE_CHECK
#define PIECE_CHECK 1 /* 0: no rare-lane test (and no rare lanes) */
#endif
#ifndef PIECE_CLAMP
#define PIECE_CLAMP 1 /* 0: no min(9, |x|), no max(-0, x) */
#endif
#ifndef PIECE_SPLIT
#define PIECE_SPLIT 1 /* 0: t^2 not split (no fms, no add of the low part) */
#endif
/* 1: 4 VADDPS off the critical path; 2: 4 FMAs off it; 3: 4 VADDPS on it; 4: only the and
 * and the or that keep them */
#ifndef PIECE_EXTRA
#define PIECE_EXTRA 0
#endif
#ifndef PIECE_STEP2
#define PIECE_STEP2 0 /* 1: two vectors per step */
#endif

#define PIECE_JOIN2(a, b) a##b
#define PIECE_JOIN(a, b) PIECE_JOIN2(a, b)
#define PIECE_V PIECE_JOIN(PIECE_NAME, _v)

/* 2^(n/16) from tt's bits, by the table's form the variant names */
ACTK_INLINE vf PIECE_JOIN(PIECE_NAME, _pow16)(vf tt) {
  vi tb = vf_bits(tt);
#if PIECE_LUT == 16
  vi e = vf_bits(vf_lookup16(actk_fexpt_tab, tb));
#elif PIECE_LUT == 8
  vi e = vf_bits(vf_lookup8(actk_fexpt_tab, tb));
#elif PIECE_LUT == 1
  vi e = vf_bits(_mm256_i32gather_ps(actk_fexpt_tab, _mm256_and_si256(tb, vi_splat(15)), 4));
#elif PIECE_LUT == 2
  vi e = _mm256_blendv_epi8(vf_bits(vf_lookup8(actk_fexpt_tab, tb)),
                            vf_bits(vf_lookup8(actk_fexpt_tab + 8, tb)), vi_sll(tb, 28));
#else
  vi e = vi_splat(0);
#endif
  return vi_bits(vi_add(vi_sll(tb, 19), e));
}

/* gelu_fast.h's operations in its order, the variant's piece changed */
ACTK_INLINE vf PIECE_V(vf x) {
  const vf sign = vf_splat(-0.0f), magic = vf_splat(ACTK_ROUND_MAGIC);
  vf t = PIECE_CLAMP ? vf_min(vf_splat(ACTK_GELU_FAST_T), vf_andnot(sign, x)) : vf_andnot(sign, x);
  vf th = vf_mul(t, t);
#if PIECE_SPLIT
  vf tl = vf_fms(t, t, th);
#endif
  vf tt = vf_fma(th, vf_splat(-8.0f * ACTK_LOG2E), magic);
  vf n = vf_sub(tt, magic);
#if PIECE_SPLIT
  vf v = vf_add(vf_fma(n, vf_splat(ACTK_LN2_F / 8.0f), th), tl);
#else
  vf v = vf_fma(n, vf_splat(ACTK_LN2_F / 8.0f), th);
#endif
  vf p = vf_fma(vf_fma(vf_splat(ACTK_GELU_FAST_C2), v, vf_splat(ACTK_GELU_FAST_C1)), v,
                vf_splat(1.0f));
  /* K(t)'s numerator and denominator by Horner, as gelu_fast.h's */
  static const float num_c[4] = {ACTK_GELU_FAST_P3, ACTK_GELU_FAST_P2, ACTK_GELU_FAST_P1,
                                 ACTK_GELU_FAST_P0},
                     den_c[5] = {ACTK_GELU_FAST_R4, ACTK_GELU_FAST_R3, ACTK_GELU_FAST_R2,
                                 ACTK_GELU_FAST_R1, 1.0f};
  vf kp = vf_splat(num_c[0]), kr = vf_splat(den_c[0]);
  for (int k = 1; k < 4; k++) kp = vf_fma(kp, t, vf_splat(num_c[k]));
  for (int k = 1; k < 5; k++) kr = vf_fma(kr, t, vf_splat(den_c[k]));
#if PIECE_DIV
  vf tq = vf_div(vf_mul(vf_mul(t, kp), vf_mul(p, PIECE_JOIN(PIECE_NAME, _pow16)(tt))), kr);
#else
  vf tq = vf_mul(vf_mul(vf_mul(t, kp), vf_mul(p, PIECE_JOIN(PIECE_NAME, _pow16)(tt))), kr);
#endif
  vf y = vf_sub(PIECE_CLAMP ? vf_max(vf_splat(-0.0f), x) : x, tq);
#if PIECE_EXTRA == 1 || PIECE_EXTRA == 2
  vf d = x;
  for (int q = 0; q < 4; q++) {
    d = PIECE_EXTRA == 1 ? vf_add(d, d) : vf_fma(d, d, d);
    __asm__("" : "+x"(d)); /* kept: four operations */
  }
  y = vf_or(y, vf_and(d, vf_splat(0x1p-149f)));
#elif PIECE_EXTRA == 4
  y = vf_or(y, vf_and(x, vf_splat(0x1p-149f)));
#elif PIECE_EXTRA == 3
  vf z = vf_splat(0x1p-149f);
  __asm__("" : "+x"(z));
  for (int q = 0; q < 4; q++) y = vf_add(y, z);
  y = vf_or(y, vf_and(x, vf_splat(0x1p-149f)));
#endif
#if PIECE_CHECK
  vm fast = vm_ge(x, vf_splat(-ACTK_GELU_FAST_T));
  if (ACTK_UNLIKELY(!vm_all(fast))) return gelu_fast_v_rare(fast, y, x);
#endif
  return y;
}

ACTK_NOINLINE static void PIECE_NAME(const float *x, float *y, size_t n) {
  size_t i = 0;
  if (PIECE_STEP2)
    for (; i + 2 * VLEN <= n; i += 2 * VLEN) {
      vf a = PIECE_V(vf_load_f32(x + i)), b = PIECE_V(vf_load_f32(x + i + VLEN));
      vf_store_f32(y + i, a);
      vf_store_f32(y + i + VLEN, b);
    }
  for (; i + VLEN <= n; i += VLEN) vf_store_f32(y + i, PIECE_V(vf_load_f32(x + i)));
}

#undef PIECE_NAME
#undef PIECE_V
#undef PIECE_DIV
#undef PIECE_LUT
#undef PIECE_CHECK
#undef PIECE_CLAMP
#undef PIECE_SPLIT
#undef PIECE_EXTRA
#undef PIECE_STEP2
