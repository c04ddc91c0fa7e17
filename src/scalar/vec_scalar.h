/* Portable one-lane implementation of the vector contract in
 * src/math/vec_contract.h. Every operation mirrors the x86 instruction the AVX2
 * implementation uses, NaN rules included, so both implementations give the same bits. */
#ifndef ACTK_SCALAR_VEC_SCALAR_H
#define ACTK_SCALAR_VEC_SCALAR_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef float vf;
typedef int32_t vi;
typedef int vm;
#define VLEN 1

static inline vf vf_splat(float a) { return a; }
static inline vi vi_splat(int32_t a) { return a; }
static inline vf vf_add(vf a, vf b) { return a + b; }
static inline vf vf_sub(vf a, vf b) { return a - b; }
static inline vf vf_mul(vf a, vf b) { return a * b; }
static inline vf vf_div(vf a, vf b) { return a / b; }
#ifdef _WIN32
/* MinGW-w64's fmaf (libmingwex) rounds a*b+c twice, through double: under
 * Wine it differed from the hardware FMA on 299347 of 2000000 random inputs,
 * and the scalar arm from the vector ones on thousands of test_bits inputs.
 * (MSVC's is not trusted either: untested.) This one is exact: a*b is exact
 * in double (24 + 24 bits), the sum with c is rounded to odd (TwoSum gives its
 * error; an inexact sum with an even last bit steps one ulp toward it), and
 * a double rounded to odd, with 29 bits to spare, rounds once more to the
 * correctly rounded float (Boldo and Melquiond). 0 of the 2000000 differ. */
static inline float actk_fmaf(float a, float b, float c) {
  const double p = (double)a * (double)b, cd = (double)c;
  double s = p + cd;
  if (!isfinite(s)) return (float)s; /* NaN, Inf: as the sum gives them */
  const double bv = s - p, err = (p - (s - bv)) + (cd - bv);
  uint64_t u;
  memcpy(&u, &s, sizeof u);
  if (err != 0.0 && !(u & 1u)) {
    u = (err > 0.0) == (s > 0.0) ? u + 1u : u - 1u; /* |s| up or down one ulp */
    memcpy(&s, &u, sizeof s);
  }
  return (float)s;
}
#else
#define actk_fmaf fmaf
#endif
static inline vf vf_fma(vf a, vf b, vf c) { return actk_fmaf(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return actk_fmaf(-a, b, c); }
static inline vf vf_fms(vf a, vf b, vf c) { return actk_fmaf(a, b, -c); }
static inline vf vf_max(vf a, vf b) { return a > b ? a : b; }
static inline vf vf_min(vf a, vf b) { return a < b ? a : b; }
static inline vf vf_floor(vf a) { return floorf(a); }
static inline vi vf_bits(vf a) {
  vi r;
  memcpy(&r, &a, sizeof r);
  return r;
}
static inline vf vi_bits(vi a) {
  vf r;
  memcpy(&r, &a, sizeof r);
  return r;
}
static inline vf vf_and(vf a, vf b) { return vi_bits(vf_bits(a) & vf_bits(b)); }
static inline vf vf_or(vf a, vf b) { return vi_bits(vf_bits(a) | vf_bits(b)); }
static inline vf vf_xor(vf a, vf b) { return vi_bits(vf_bits(a) ^ vf_bits(b)); }
static inline vf vf_andnot(vf a, vf b) { return vi_bits(~vf_bits(a) & vf_bits(b)); }
static inline vm vm_lt(vf a, vf b) { return a < b; }
static inline vm vm_le(vf a, vf b) { return a <= b; }
static inline vm vm_ge(vf a, vf b) { return a >= b; }
static inline vm vm_eq(vf a, vf b) { return a == b; }
static inline vm vm_and(vm a, vm b) { return a && b; }
static inline vm vm_isnan(vf a) { return a != a; }
static inline vm vm_unord(vf a, vf b) { return a != a || b != b; }
static inline vf vf_select(vm m, vf t, vf f) { return m ? t : f; }
static inline vf vf_keep(vm m, vf a) { return m ? a : 0.0f; }
static inline vf vf_select_sign(vf x, vf neg, vf pos) { return signbit(x) ? neg : pos; }
static inline int vm_all(vm m) { return m != 0; }
static inline int vm_any(vm m) { return m != 0; }
/* Shifts go through uint32_t: no signed-overflow or negative-shift UB. */
static inline vi vi_add(vi a, vi b) { return (vi)((uint32_t)a + (uint32_t)b); }
static inline vi vi_sub(vi a, vi b) { return (vi)((uint32_t)a - (uint32_t)b); }
/* CVTTPS2DQ: truncation, INT32_MIN for NaN and out of range (no UB cast) */
static inline vi vf_to_vi_trunc(vf a) { return (a >= -0x1p31f && a < 0x1p31f) ? (vi)a : INT32_MIN; }
static inline vi vi_max(vi a, vi b) { return a > b ? a : b; }
static inline vi vi_min(vi a, vi b) { return a < b ? a : b; }
static inline vi vi_sll(vi a, int s) { return (vi)((uint32_t)a << s); }
static inline vi vi_srl(vi a, int s) { return (vi)((uint32_t)a >> s); }
static inline vi vi_sra(vi a, int s) {
  uint32_t u = (uint32_t)a >> s;
  if (a < 0) u |= ~(UINT32_MAX >> s);
  return (vi)u;
}
static inline vf vf_lookup8(const float t[8], vi k) { return t[(uint32_t)k & 7u]; }
static inline vf vf_lookup16(const float t[16], vi k) { return t[(uint32_t)k & 15u]; }

/* c 2^n and a 2^n as the AVX2 implementation: n from t's low bits added to c's exponent
 * field; a times the float 2^n. */
static inline vf vf_ldexp_exact(vf c, vf n, vf t) {
  (void)n;
  return vi_bits((vi)(((uint32_t)vf_bits(t) << 23) + (uint32_t)vf_bits(c)));
}
static inline vf vf_ldexp(vf a, vf n, vf t) { return a * vf_ldexp_exact(1.0f, n, t); }

/* memcpy: pointers need not be 4-byte aligned (callers from other languages). */
static inline vf vf_load_f32(const float *p) {
  vf r;
  memcpy(&r, p, sizeof r);
  return r;
}
static inline void vf_store_f32(float *p, vf a) { memcpy(p, &a, sizeof a); }
/* 16-bit lanes (the type layer, math/vec_types.h, builds f16 and bf16 on them) */
static inline vi vi_load_u16(const uint16_t *p) {
  uint16_t h;
  memcpy(&h, p, sizeof h);
  return (vi)h;
}
static inline void vi_store_u16(uint16_t *p, vi a) {
  uint16_t h = (uint16_t)a;
  memcpy(p, &h, sizeof h);
}

/* One lane has no tail; these exist so the shared loops compile. */
static inline vf vf_load_first_f32(const float *p, size_t k) { return k ? vf_load_f32(p) : 0.0f; }
static inline void vf_store_first_f32(float *p, size_t k, vf a) {
  if (k) vf_store_f32(p, a);
}
static inline vi vi_load_first_u16(const uint16_t *p, size_t k) { return k ? vi_load_u16(p) : 0; }
static inline void vi_store_first_u16(uint16_t *p, size_t k, vi a) {
  if (k) vi_store_u16(p, a);
}

#include "../math/vec_types.h"

#endif
