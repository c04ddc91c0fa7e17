/* The 16-bit conversions of every implementation give the same bits: the
 * scalar implementation's (the type layer's generic ones, math/vec_types.h,
 * which has the semantics: round to nearest even, subnormals kept, NaNs
 * quieted with their sign and top payload bits), F16C's and the x86 ones'
 * native bf16, and the generic ones on the x86 cores: narrowing every top half of an f32 with each
 * of a set of bottom halves that covers every rounding case (0, 1, the tie 0x8000 and its
 * neighbours, 0xffff, which carries into the exponent; 2.6 M floats, NaN
 * payloads in the bottom half included), or every f32 with the argument
 * "all"; widening every 16-bit pattern; lengths 1..40 for the masked tails.
 * The kernels' bf16 store (vf_store_bf16_q, no NaN test) gives the same bits on
 * every implementation for every input, and the NaN-tested store's wherever its
 * precondition holds (no NaN, or a quiet one with a zero bottom half).
 * include/actk.h's one-value helpers (actk_f32_to_f16 ...) are checked the
 * same way, as one more implementation.
 * Caught: the bf16 narrowing without its NaN guard (0x7fffffff to -0), the
 * quiet bit left off, a word gather that took the bottom halves, a tie
 * (bottom half 0x8000) rounded up from an even top half; with the second
 * pass under DAZ and FTZ, a bf16 rounding on a float add (subnormals lost). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"
#include "test_watchdog.h"
#ifdef ACTK_TEST_X86
#include <xmmintrin.h>
#endif

typedef void (*narrow_fn)(const float *, uint16_t *, size_t);
typedef void (*widen_fn)(const uint16_t *, float *, size_t);

#define CONVERT_DECLARE(isa)                                                                       \
  void convert_##isa##_narrow_f16(const float *, uint16_t *, size_t);                              \
  void convert_##isa##_narrow_bf16(const float *, uint16_t *, size_t);                             \
  void convert_##isa##_widen_f16(const uint16_t *, float *, size_t);                               \
  void convert_##isa##_widen_bf16(const uint16_t *, float *, size_t);                              \
  void convert_##isa##_narrow_bf16_q(const float *, uint16_t *, size_t);
CONVERT_DECLARE(scalar)
#ifdef ACTK_TEST_X86
CONVERT_DECLARE(avx2)
CONVERT_DECLARE(avx512)
CONVERT_DECLARE(avx2_generic)
CONVERT_DECLARE(avx512_generic)
#endif
#ifdef ACTK_TEST_ARM64
CONVERT_DECLARE(neon)
CONVERT_DECLARE(neon_generic)
#endif

/* include/actk.h's one-value helpers, for arrays */
static void header_narrow_f16(const float *x, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f32_to_f16(x[i]);
}
static void header_narrow_bf16(const float *x, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f32_to_bf16(x[i]);
}
static void header_widen_f16(const uint16_t *h, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f16_to_f32(h[i]);
}
static void header_widen_bf16(const uint16_t *h, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_bf16_to_f32(h[i]);
}

typedef struct {
  const char *name;
  actk_isa isa;
  narrow_fn narrow[3]; /* f16, bf16, bf16 _q */
  widen_fn widen[2];
} impl;

static const impl g_impls[] = {
#ifdef ACTK_TEST_X86
    {"avx2",
     ACTK_ISA_AVX2,
     {convert_avx2_narrow_f16, convert_avx2_narrow_bf16, convert_avx2_narrow_bf16_q},
     {convert_avx2_widen_f16, convert_avx2_widen_bf16}},
    {"avx512",
     ACTK_ISA_AVX512,
     {convert_avx512_narrow_f16, convert_avx512_narrow_bf16, convert_avx512_narrow_bf16_q},
     {convert_avx512_widen_f16, convert_avx512_widen_bf16}},
    /* the type layer's generic conversions on the same cores */
    {"avx2_generic",
     ACTK_ISA_AVX2,
     {convert_avx2_generic_narrow_f16, convert_avx2_generic_narrow_bf16,
      convert_avx2_generic_narrow_bf16_q},
     {convert_avx2_generic_widen_f16, convert_avx2_generic_widen_bf16}},
    {"avx512_generic",
     ACTK_ISA_AVX512,
     {convert_avx512_generic_narrow_f16, convert_avx512_generic_narrow_bf16,
      convert_avx512_generic_narrow_bf16_q},
     {convert_avx512_generic_widen_f16, convert_avx512_generic_widen_bf16}},
#endif
#ifdef ACTK_TEST_ARM64
    {"neon",
     ACTK_ISA_NEON,
     {convert_neon_narrow_f16, convert_neon_narrow_bf16, convert_neon_narrow_bf16_q},
     {convert_neon_widen_f16, convert_neon_widen_bf16}},
    /* the type layer's generic conversions on the NEON core */
    {"neon_generic",
     ACTK_ISA_NEON,
     {convert_neon_generic_narrow_f16, convert_neon_generic_narrow_bf16,
      convert_neon_generic_narrow_bf16_q},
     {convert_neon_generic_widen_f16, convert_neon_generic_widen_bf16}},
#endif
    /* no _q helper: the header's bf16 narrowing is the NaN-tested one */
    {"actk.h helpers",
     ACTK_ISA_SCALAR,
     {header_narrow_f16, header_narrow_bf16, NULL},
     {header_widen_f16, header_widen_bf16}},
    {NULL, ACTK_ISA_SCALAR, {NULL, NULL, NULL}, {NULL, NULL}}};

static const narrow_fn g_scalar_narrow[3] = {convert_scalar_narrow_f16, convert_scalar_narrow_bf16,
                                             convert_scalar_narrow_bf16_q};
static const widen_fn g_scalar_widen[2] = {convert_scalar_widen_f16, convert_scalar_widen_bf16};
static const char *const g_type[3] = {"f16", "bf16", "bf16_q"};

static const uint16_t g_low[] = {0x0000, 0x0001, 0x0002, 0x00ff, 0x0fff, 0x1000, 0x1fff,
                                 0x2000, 0x3fff, 0x4000, 0x5555, 0x7ffe, 0x7fff, 0x8000,
                                 0x8001, 0x8002, 0xaaaa, 0xbfff, 0xc000, 0xdfff, 0xe000,
                                 0xefff, 0xf000, 0xfffe, 0xffff};
#define N_LOW (sizeof g_low / sizeof g_low[0])

static unsigned g_failures;

static int g_daz; /* the second pass: the caller's DAZ and FTZ on */

static void report(const char *isa, const char *type, const char *what, uint32_t in, unsigned got,
                   unsigned want) {
  if (g_failures++ < 10)
    fprintf(stderr, "FAIL %s %s %s%s: input 0x%08x gives 0x%08x, scalar 0x%08x\n", isa, type, what,
            g_daz ? " (DAZ and FTZ on)" : "", in, got, want);
}

/* n floats from bits[]; every implementation against scalar, at every
 * length of tail too (the first 40 of the block). */
static void narrow_block(const uint32_t *bits, size_t n) {
  float *x = malloc(n * sizeof *x);
  uint16_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
  if (!x || !want || !got) abort();
  memcpy(x, bits, n * sizeof *x);
  for (int t = 0; t < 3; t++) {
    g_scalar_narrow[t](x, want, n);
    if (t == 2) { /* _q: vf_store_bf16's bits wherever its precondition holds */
      uint16_t *plain = malloc(n * sizeof *plain);
      if (!plain) abort();
      g_scalar_narrow[1](x, plain, n);
      for (size_t i = 0; i < n; i++) {
        uint32_t a = bits[i] & 0x7fffffffu;
        int bad_nan = a > 0x7f800000u && ((a & 0xffffu) || !(a & 0x00400000u));
        if (!bad_nan && plain[i] != want[i])
          report("scalar", g_type[t], "narrow vs the NaN-tested store", bits[i], want[i], plain[i]);
      }
      free(plain);
    }
    for (const impl *m = g_impls; m->name; m++) {
      if (!actk_isa_supported(m->isa) || !m->narrow[t]) continue;
      m->narrow[t](x, got, n);
      for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) report(m->name, g_type[t], "narrow", bits[i], got[i], want[i]);
      for (size_t k = 1; k <= 40 && k <= n; k++) {
        uint16_t tail[40];
        memset(tail, 0xee, sizeof tail);
        m->narrow[t](x, tail, k);
        for (size_t i = 0; i < 40; i++)
          if (tail[i] != (i < k ? want[i] : 0xeeeeu))
            report(m->name, g_type[t], "narrow tail", i < k ? bits[i] : 0u, tail[i],
                   i < k ? want[i] : 0xeeeeu);
      }
    }
  }
  free(x);
  free(want);
  free(got);
}

static int check_all(int all) {
  enum { BLOCK = 1 << 20 };
  uint32_t *bits = malloc(BLOCK * sizeof *bits);
  if (!bits) return 1;
  size_t n = 0;
  if (all) {
    for (uint64_t u = 0; u < (UINT64_C(1) << 32); u++) {
      bits[n++] = (uint32_t)u;
      if (n == BLOCK) narrow_block(bits, n), n = 0;
    }
  } else {
    for (uint32_t hi = 0; hi < 65536u; hi++)
      for (size_t l = 0; l < N_LOW; l++) {
        bits[n++] = hi << 16 | g_low[l];
        if (n == BLOCK) narrow_block(bits, n), n = 0;
      }
  }
  if (n) narrow_block(bits, n);
  free(bits);

  /* widening: every pattern, and the tails */
  static uint16_t h[65536];
  static float want[65536], got[65536];
  for (uint32_t i = 0; i < 65536u; i++) h[i] = (uint16_t)i;
  for (int t = 0; t < 2; t++) {
    g_scalar_widen[t](h, want, 65536);
    for (const impl *m = g_impls; m->name; m++) {
      if (!actk_isa_supported(m->isa)) continue;
      for (size_t k = 1; k <= 40; k++) {
        float tail[40];
        m->widen[t](h + 31744, tail, k); /* around f16's infinities and NaNs */
        for (size_t i = 0; i < k; i++) {
          uint32_t a, b;
          memcpy(&a, &tail[i], 4);
          memcpy(&b, &want[31744 + i], 4);
          if (a != b) report(m->name, g_type[t], "widen tail", h[31744 + i], a, b);
        }
      }
      m->widen[t](h, got, 65536);
      for (uint32_t i = 0; i < 65536u; i++) {
        uint32_t a, b;
        memcpy(&a, &got[i], 4);
        memcpy(&b, &want[i], 4);
        if (a != b) report(m->name, g_type[t], "widen", i, a, b);
      }
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  const int all = argc > 1 && !strcmp(argv[1], "all");
  if (check_all(all)) return 1;
#ifdef ACTK_TEST_X86
  /* again with the caller's DAZ and FTZ on (README: they are the caller's
   * to keep): the conversions must not flush a subnormal either way */
  const unsigned csr = _mm_getcsr();
  const unsigned before = g_failures;
  g_daz = 1;
  _mm_setcsr(csr | 0x8040u);
  const int rc = check_all(all);
  _mm_setcsr(csr);
  if (rc) return 1;
  printf("with DAZ and FTZ on: %u mismatches\n", g_failures - before);
#elif defined(ACTK_TEST_ARM64)
  /* the same with FPCR.FZ (AArch64's FTZ and DAZ in one bit) */
  unsigned long long fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  const unsigned before = g_failures;
  g_daz = 1;
  __asm__ volatile("msr fpcr, %0" : : "r"(fpcr | (1ull << 24)));
  const int rc = check_all(all);
  __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
  if (rc) return 1;
  printf("with FPCR.FZ on: %u mismatches\n", g_failures - before);
#endif
  for (const impl *m = g_impls; m->name; m++)
    printf("%s: %s\n", m->name, actk_isa_supported(m->isa) ? "checked" : "not supported here");
  printf("%s: %u mismatches\n", all ? "every f32" : "sample", g_failures);
  return g_failures != 0;
}
