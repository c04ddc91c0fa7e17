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
static inline vf vf_fma(vf a, vf b, vf c) { return fmaf(a, b, c); }
static inline vf vf_fnma(vf a, vf b, vf c) { return fmaf(-a, b, c); }
static inline vf vf_fms(vf a, vf b, vf c) { return fmaf(a, b, -c); }
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
/* ---- 16-bit types: the conversions every implementation reproduces ----
 * f16 -> f32 exact (subnormals included, no DAZ), a NaN quieted with its
 * sign and payload kept: what F16C's VCVTPH2PS does. f32 -> f16 round to
 * nearest even, subnormal results kept (no FTZ), overflow to infinity from
 * 65520 up, a NaN quieted with its sign and its top 10 payload bits: what
 * VCVTPS2PH with imm8 = round to nearest does (checked against it for every
 * f32 and every f16, with and without DAZ/FTZ). bf16 -> f32: the 16 bits on
 * top; f32 -> bf16: round to nearest even on the bits (so subnormals stay
 * subnormal and overflow goes to infinity exactly as the rounding says), a
 * NaN quieted with its sign and top 7 payload bits. */
static inline uint32_t actk_f16_to_f32_bits(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1f) return sign | 0x7f800000u | (m << 13) | (m ? 0x00400000u : 0u);
  if (e) return sign | ((e + 112u) << 23) | (m << 13);
  if (!m) return sign;
  e = 113; /* subnormal: normalise */
  while (!(m & 0x400u)) {
    m <<= 1;
    e--;
  }
  return sign | (e << 23) | ((m & 0x3ffu) << 13);
}

static inline uint16_t actk_f32_to_f16_bits(uint32_t u) {
  uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* 65520 and up round to inf */
  if (a >= 0x38800000u) {                                  /* a normal f16, 2^-14 and up */
    uint32_t r = a - 0x38000000u;                          /* the exponent rebiased */
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
  }
  if (a <= 0x33000000u) return (uint16_t)sign; /* at most 2^-25: rounds to 0 (a tie to even) */
  uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126u - e; /* a subnormal f16: m 2^(e - 150) in units of 2^-24 */
  uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  if (rem > half || (rem == half && (q & 1u))) q++;
  return (uint16_t)(sign | q);
}

/* round to nearest even on the bits, NaN or not (a quiet NaN whose bottom half is 0
 * keeps its bits: the add carries nothing out of the bottom half) */
static inline uint16_t actk_f32_to_bf16_bits_q(uint32_t u) {
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
static inline uint16_t actk_f32_to_bf16_bits(uint32_t u) {
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);
  return actk_f32_to_bf16_bits_q(u);
}

static inline vf vf_load_f16(const uint16_t *p) {
  uint16_t h;
  memcpy(&h, p, sizeof h);
  return vi_bits((vi)actk_f16_to_f32_bits(h));
}
static inline void vf_store_f16(uint16_t *p, vf a) {
  uint16_t h = actk_f32_to_f16_bits((uint32_t)vf_bits(a));
  memcpy(p, &h, sizeof h);
}
static inline vf vf_load_bf16(const uint16_t *p) {
  uint16_t h;
  memcpy(&h, p, sizeof h);
  return vi_bits((vi)((uint32_t)h << 16));
}
static inline void vf_store_bf16(uint16_t *p, vf a) {
  uint16_t h = actk_f32_to_bf16_bits((uint32_t)vf_bits(a));
  memcpy(p, &h, sizeof h);
}
static inline void vf_store_bf16_q(uint16_t *p, vf a) {
  uint16_t h = actk_f32_to_bf16_bits_q((uint32_t)vf_bits(a));
  memcpy(p, &h, sizeof h);
}

/* One lane has no tail; these exist so the shared loops compile. */
static inline vf vf_load_first_f32(const float *p, size_t k) { return k ? vf_load_f32(p) : 0.0f; }
static inline void vf_store_first_f32(float *p, size_t k, vf a) {
  if (k) vf_store_f32(p, a);
}
static inline vf vf_load_first_f16(const uint16_t *p, size_t k) {
  return k ? vf_load_f16(p) : 0.0f;
}
static inline void vf_store_first_f16(uint16_t *p, size_t k, vf a) {
  if (k) vf_store_f16(p, a);
}
static inline vf vf_load_first_bf16(const uint16_t *p, size_t k) {
  return k ? vf_load_bf16(p) : 0.0f;
}
static inline void vf_store_first_bf16(uint16_t *p, size_t k, vf a) {
  if (k) vf_store_bf16(p, a);
}
static inline void vf_store_first_bf16_q(uint16_t *p, size_t k, vf a) {
  if (k) vf_store_bf16_q(p, a);
}
#define vf_store_f32_q vf_store_f32
#define vf_store_first_f32_q vf_store_first_f32
#define vf_store_f16_q vf_store_f16
#define vf_store_first_f16_q vf_store_first_f16

#endif
