/* One implementation's vector-contract primitives where instruction sets
 * differ (src/math/vec_contract.h), over arrays, for tests/test_contract.c:
 * compiled once per implementation with its own target flags and
 * CONTRACT_ISA set to its name. n is a multiple of VLEN. */
#include <stddef.h>
#include <stdint.h>

#define CONTRACT_CAT2(a, b) a##b
#define CONTRACT_CAT(a, b) CONTRACT_CAT2(a, b)
#define CONTRACT_NAME(what) CONTRACT_CAT(CONTRACT_CAT(contract_, CONTRACT_ISA), what)

#if defined(CONTRACT_ISA_AVX512)
#include "x86/vec_avx512.h"
#elif defined(CONTRACT_ISA_AVX2)
#include "x86/vec_avx2.h"
#elif defined(CONTRACT_ISA_NEON)
#include "arm/vec_neon.h"
#else
#include "scalar/vec_scalar.h"
#endif

size_t CONTRACT_NAME(_vlen)(void) { return VLEN; }

void CONTRACT_NAME(_max)(const float *a, const float *b, float *y, size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32(y + i, vf_max(vf_load_f32(a + i), vf_load_f32(b + i)));
}
void CONTRACT_NAME(_min)(const float *a, const float *b, float *y, size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32(y + i, vf_min(vf_load_f32(a + i), vf_load_f32(b + i)));
}
void CONTRACT_NAME(_trunc)(const float *a, int32_t *y, size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32((float *)(void *)(y + i), vi_bits(vf_to_vi_trunc(vf_load_f32(a + i))));
}
void CONTRACT_NAME(_select_sign)(const float *x, const float *neg, const float *pos, float *y,
                                 size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32(y + i,
                 vf_select_sign(vf_load_f32(x + i), vf_load_f32(neg + i), vf_load_f32(pos + i)));
}
/* per vector of a: vm_all and vm_any of a > 0.5 (lanes 1.0 or 0.0) */
void CONTRACT_NAME(_all_any)(const float *a, int *all, int *any, size_t n) {
  for (size_t i = 0; i < n; i += VLEN) {
    vm m = vm_lt(vf_splat(0.5f), vf_load_f32(a + i));
    all[i / VLEN] = vm_all(m);
    any[i / VLEN] = vm_any(m);
  }
}
void CONTRACT_NAME(_lookup8)(const float t[8], const int32_t *k, float *y, size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32(y + i, vf_lookup8(t, vf_bits(vf_load_f32((const float *)(const void *)(k + i)))));
}
void CONTRACT_NAME(_lookup16)(const float t[16], const int32_t *k, float *y, size_t n) {
  for (size_t i = 0; i < n; i += VLEN)
    vf_store_f32(y + i, vf_lookup16(t, vf_bits(vf_load_f32((const float *)(const void *)(k + i)))));
}
/* a 2^n through both forms, n integer-valued in [-126, 127] */
void CONTRACT_NAME(_ldexp)(const float *a, const float *n, float *y, float *y_exact, size_t len) {
  for (size_t i = 0; i < len; i += VLEN) {
    vf vn = vf_load_f32(n + i), t = vf_add(vn, vf_splat(0x1.8p23f)); /* ACTK_ROUND_MAGIC */
    vf_store_f32(y + i, vf_ldexp(vf_load_f32(a + i), vn, t));
    vf_store_f32(y_exact + i, vf_ldexp_exact(vf_load_f32(a + i), vn, t));
  }
}
/* tails: the k first elements of p, the lanes as loaded (VLEN of them in y) */
void CONTRACT_NAME(_load_first)(const float *p, size_t k, float *y) {
  vf_store_f32(y, vf_load_first_f32(p, k));
}
void CONTRACT_NAME(_store_first)(float *p, size_t k, const float *x) {
  vf_store_first_f32(p, k, vf_load_f32(x));
}
void CONTRACT_NAME(_load_first_u16)(const uint16_t *p, size_t k, int32_t *y) {
  vf_store_f32((float *)(void *)y, vi_bits(vi_load_first_u16(p, k)));
}
void CONTRACT_NAME(_store_first_u16)(uint16_t *p, size_t k, const int32_t *x) {
  vi_store_first_u16(p, k, vf_bits(vf_load_f32((const float *)(const void *)x)));
}
