/* The vector contract's primitives where instruction sets differ, on every
 * implementation this machine runs, against their definitions in
 * src/math/vec_contract.h (written out below in plain C), bit for bit:
 *   vf_max/vf_min     a > b ? a : b (a < b): b when either is NaN, b of two zeros
 *   vf_to_vi_trunc    toward zero; INT32_MIN for NaN and outside [-2^31, 2^31)
 *   vf_select_sign    the sign bit, NaNs and -0 included
 *   vm_all/vm_any     every lane pattern of a vector
 *   vf_lookup8        t[k & 7], k negative and past 7 too
 *   vf_lookup16       t[k & 15], k negative and past 15 too
 *   tails             vf_load_first_f32 / vi_load_first_u16 with the k
 *                     elements at the end of a page followed by an
 *                     inaccessible one (a read past k faults), the other
 *                     lanes 0; vf_store_first_f32 / vi_store_first_u16 write
 *                     the k elements and nothing after them (the same page)
 * The kernels' math keeps most of these differences out of its results (a
 * clamp's NaN is the second operand), so test_bits alone would not see an
 * arm that maps them naively. Caught on NEON: vmaxq_f32 for vf_max (the
 * first operand's NaN, FMAX's zero), FCVTZS without the fixup (0 for NaN,
 * saturation), a tail that loads a whole vector (SIGSEGV). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actk.h"
#include "test_os.h"

#define CONTRACT_DECLARE(isa)                                                                      \
  size_t contract_##isa##_vlen(void);                                                              \
  void contract_##isa##_max(const float *, const float *, float *, size_t);                        \
  void contract_##isa##_min(const float *, const float *, float *, size_t);                        \
  void contract_##isa##_trunc(const float *, int32_t *, size_t);                                   \
  void contract_##isa##_select_sign(const float *, const float *, const float *, float *, size_t); \
  void contract_##isa##_all_any(const float *, int *, int *, size_t);                              \
  void contract_##isa##_lookup8(const float *, const int32_t *, float *, size_t);                  \
  void contract_##isa##_lookup16(const float *, const int32_t *, float *, size_t);                 \
  void contract_##isa##_ldexp(const float *, const float *, float *, float *, size_t);             \
  void contract_##isa##_load_first(const float *, size_t, float *);                                \
  void contract_##isa##_store_first(float *, size_t, const float *);                               \
  void contract_##isa##_load_first_u16(const uint16_t *, size_t, int32_t *);                       \
  void contract_##isa##_store_first_u16(uint16_t *, size_t, const int32_t *);
CONTRACT_DECLARE(scalar)
#ifdef ACTK_TEST_X86
CONTRACT_DECLARE(avx2)
CONTRACT_DECLARE(avx512)
#endif
#ifdef ACTK_TEST_ARM64
CONTRACT_DECLARE(neon)
#endif

typedef struct {
  const char *name;
  actk_isa isa;
  size_t (*vlen)(void);
  void (*max)(const float *, const float *, float *, size_t);
  void (*min)(const float *, const float *, float *, size_t);
  void (*trunc)(const float *, int32_t *, size_t);
  void (*select_sign)(const float *, const float *, const float *, float *, size_t);
  void (*all_any)(const float *, int *, int *, size_t);
  void (*lookup8)(const float *, const int32_t *, float *, size_t);
  void (*lookup16)(const float *, const int32_t *, float *, size_t);
  void (*ldexp)(const float *, const float *, float *, float *, size_t);
  void (*load_first)(const float *, size_t, float *);
  void (*store_first)(float *, size_t, const float *);
  void (*load_first_u16)(const uint16_t *, size_t, int32_t *);
  void (*store_first_u16)(uint16_t *, size_t, const int32_t *);
} impl;

#define CONTRACT_IMPL(isa, ISA)                                                                    \
  {                                                                                                \
#isa, ISA, contract_##isa##_vlen, contract_##isa##_max, contract_##isa##_min,                  \
        contract_##isa##_trunc, contract_##isa##_select_sign, contract_##isa##_all_any,            \
        contract_##isa##_lookup8, contract_##isa##_lookup16, contract_##isa##_ldexp,               \
        contract_##isa##_load_first, contract_##isa##_store_first,                                 \
        contract_##isa##_load_first_u16, contract_##isa##_store_first_u16                          \
  }
static const impl g_impls[] = {
    CONTRACT_IMPL(scalar, ACTK_ISA_SCALAR),
#ifdef ACTK_TEST_X86
    CONTRACT_IMPL(avx2, ACTK_ISA_AVX2),
    CONTRACT_IMPL(avx512, ACTK_ISA_AVX512),
#endif
#ifdef ACTK_TEST_ARM64
    CONTRACT_IMPL(neon, ACTK_ISA_NEON),
#endif
};
#define N_IMPLS (sizeof g_impls / sizeof g_impls[0])

static unsigned g_failures;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    if (!(cond) && g_failures++ < 20) {                                                            \
      fprintf(stderr, "FAIL " __VA_ARGS__);                                                        \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* the values where the instruction sets differ */
static const uint32_t g_special[] = {
    0x7fc00000u, 0xffc00000u, 0x7fa00001u, 0xff800001u, /* quiet and signalling NaNs, both signs */
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, /* zeros, +-1 */
    0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u, /* infinities, subnormals */
    0x4f000000u, 0xcf000000u, 0x4effffffu, 0xcf000001u, /* +-2^31, the floats next to them */
    0x3fc00000u, 0xbfc00000u, 0x7f7fffffu, 0xff7fffffu, /* +-1.5, +-FLT_MAX */
};
#define N_SPECIAL (sizeof g_special / sizeof g_special[0])
#define PAIRS (N_SPECIAL * N_SPECIAL)
#define PAD 16 /* every length a multiple of every VLEN */
#define ROUND_UP(n) (((n) + PAD - 1) / PAD * PAD)

static void check_arith(const impl *m) {
  static float a[ROUND_UP(PAIRS)], b[ROUND_UP(PAIRS)], y[ROUND_UP(PAIRS)];
  const size_t n = ROUND_UP(PAIRS);
  for (size_t i = 0; i < n; i++) {
    a[i] = u2f(g_special[i % PAIRS / N_SPECIAL]);
    b[i] = u2f(g_special[i % N_SPECIAL]);
  }
  m->max(a, b, y, n);
  for (size_t i = 0; i < PAIRS; i++) {
    const float want = a[i] > b[i] ? a[i] : b[i];
    CHECK(f2u(y[i]) == f2u(want), "%s vf_max(0x%08x, 0x%08x) = 0x%08x, the contract 0x%08x",
          m->name, f2u(a[i]), f2u(b[i]), f2u(y[i]), f2u(want));
  }
  m->min(a, b, y, n);
  for (size_t i = 0; i < PAIRS; i++) {
    const float want = a[i] < b[i] ? a[i] : b[i];
    CHECK(f2u(y[i]) == f2u(want), "%s vf_min(0x%08x, 0x%08x) = 0x%08x, the contract 0x%08x",
          m->name, f2u(a[i]), f2u(b[i]), f2u(y[i]), f2u(want));
  }
  /* select_sign: x from the specials, neg and pos distinct values */
  static float neg[ROUND_UP(N_SPECIAL)], pos[ROUND_UP(N_SPECIAL)], x[ROUND_UP(N_SPECIAL)];
  const size_t ns = ROUND_UP(N_SPECIAL);
  for (size_t i = 0; i < ns; i++) {
    x[i] = u2f(g_special[i % N_SPECIAL]);
    neg[i] = -2.0f - (float)i;
    pos[i] = 2.0f + (float)i;
  }
  m->select_sign(x, neg, pos, y, ns);
  for (size_t i = 0; i < N_SPECIAL; i++) {
    const float want = (f2u(x[i]) >> 31) ? neg[i] : pos[i];
    CHECK(y[i] == want, "%s vf_select_sign(0x%08x) took %g, the contract %g", m->name, f2u(x[i]),
          (double)y[i], (double)want);
  }
  /* truncation: the specials and a ramp across the integer range's ends */
  static float t[ROUND_UP(N_SPECIAL + 64)];
  static int32_t r[ROUND_UP(N_SPECIAL + 64)];
  const size_t nt = ROUND_UP(N_SPECIAL + 64);
  for (size_t i = 0; i < nt; i++)
    t[i] = i < N_SPECIAL ? x[i] : u2f((i & 1 ? 0xcf000000u : 0x4f000000u) + (uint32_t)i - 48u);
  m->trunc(t, r, nt);
  for (size_t i = 0; i < nt; i++) {
    const int32_t want = (t[i] >= -0x1p31f && t[i] < 0x1p31f) ? (int32_t)t[i] : INT32_MIN;
    CHECK(r[i] == want, "%s vf_to_vi_trunc(0x%08x = %g) = %d, the contract %d", m->name, f2u(t[i]),
          (double)t[i], r[i], want);
  }
  /* lookup8: k from -24 to 39 */
  static const float tab[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  static int32_t k[64];
  static float l[64];
  for (int i = 0; i < 64; i++) k[i] = i - 24;
  m->lookup8(tab, k, l, 64);
  for (int i = 0; i < 64; i++)
    CHECK(l[i] == tab[k[i] & 7], "%s vf_lookup8(k = %d) = %g, the contract t[%d] = %g", m->name,
          k[i], (double)l[i], k[i] & 7, (double)tab[k[i] & 7]);
  /* lookup16: k from -40 to 39 */
  static const float tab16[16] = {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35};
  static int32_t k16[80];
  static float l16[80];
  for (int i = 0; i < 80; i++) k16[i] = i - 40;
  m->lookup16(tab16, k16, l16, 80);
  for (int i = 0; i < 80; i++)
    CHECK(l16[i] == tab16[k16[i] & 15], "%s vf_lookup16(k = %d) = %g, the contract t[%d] = %g",
          m->name, k16[i], (double)l16[i], k16[i] & 15, (double)tab16[k16[i] & 15]);
}

/* vf_ldexp: a 2^n rounded once as a multiply by the float 2^n rounds it, the
 * results that land among the subnormals included; vf_ldexp_exact where a
 * and a 2^n are normal */
static void check_ldexp(const impl *m) {
  static const float as[] = {1.0f,          1.5f,       -1.75f,  0x1.fffffep0f,
                             0x1.000002p0f, -0x1.7p-3f, 0x1.8p5f};
  enum { NA = sizeof as / sizeof as[0], NN = 254, LEN = (NA * NN + PAD - 1) / PAD * PAD };
  static float a[LEN], n[LEN], y[LEN], ye[LEN];
  for (size_t i = 0; i < LEN; i++) {
    a[i] = as[i / NN % NA];
    n[i] = (float)((int)(i % NN) - 126);
  }
  m->ldexp(a, n, y, ye, LEN);
  for (size_t i = 0; i < (size_t)(NA * NN); i++) {
    const float p2 = ldexpf(1.0f, (int)n[i]), want = a[i] * p2; /* rounded once */
    CHECK(f2u(y[i]) == f2u(want), "%s vf_ldexp(%a, %d) = %a, the contract %a", m->name,
          (double)a[i], (int)n[i], (double)y[i], (double)want);
    const float e = fabsf(want);
    if (e >= 0x1p-126f && e <= 0x1.fffffep127f)
      CHECK(f2u(ye[i]) == f2u(want), "%s vf_ldexp_exact(%a, %d) = %a, the contract %a", m->name,
            (double)a[i], (int)n[i], (double)ye[i], (double)want);
  }
}

/* every lane pattern of one vector (VLEN <= 16) */
static void check_masks(const impl *m, size_t vlen) {
  const size_t patterns = (size_t)1 << vlen;
  float *a = malloc(patterns * vlen * sizeof *a);
  int *all = malloc(patterns * sizeof *all), *any = malloc(patterns * sizeof *any);
  if (!a || !all || !any) abort();
  for (size_t p = 0; p < patterns; p++)
    for (size_t j = 0; j < vlen; j++) a[p * vlen + j] = (p >> j) & 1 ? 1.0f : 0.0f;
  m->all_any(a, all, any, patterns * vlen);
  for (size_t p = 0; p < patterns; p++) {
    CHECK(!!all[p] == (p == patterns - 1), "%s vm_all(lanes 0x%zx) = %d", m->name, p, all[p]);
    CHECK(!!any[p] == (p != 0), "%s vm_any(lanes 0x%zx) = %d", m->name, p, any[p]);
  }
  free(a);
  free(all);
  free(any);
}

/* A page of data followed by an inaccessible page: the k elements end at the boundary. */
static void check_tails(const impl *m, size_t vlen) {
  const size_t page = test_page_size();
  char *mem = test_pages_map(2 * page, 1);
  if (!mem || test_pages_noaccess(mem + page, page)) abort();
  float *end = (float *)(void *)(mem + page);
  uint16_t *end16 = (uint16_t *)(void *)(mem + page);
  for (size_t k = 1; k < vlen; k++) {
    float lanes[16], src[16];
    for (size_t j = 0; j < k; j++) end[(ptrdiff_t)j - (ptrdiff_t)k] = 1.0f + (float)j;
    memset(lanes, 0xee, sizeof lanes);
    m->load_first(end - k, k, lanes);
    for (size_t j = 0; j < vlen; j++) {
      const float want = j < k ? 1.0f + (float)j : 0.0f;
      CHECK(f2u(lanes[j]) == f2u(want), "%s vf_load_first_f32(k = %zu) lane %zu = %g, want %g",
            m->name, k, j, (double)lanes[j], (double)want);
    }
    for (size_t j = 0; j < vlen; j++) src[j] = 100.0f + (float)j;
    float *dst = end - vlen; /* k elements, then vlen - k that must stay as they are */
    for (size_t j = 0; j < vlen; j++) dst[j] = -1.0f;
    m->store_first(dst, k, src);
    for (size_t j = 0; j < vlen; j++)
      CHECK(dst[j] == (j < k ? src[j] : -1.0f), "%s vf_store_first_f32(k = %zu) element %zu = %g",
            m->name, k, j, (double)dst[j]);
    m->store_first(end - k, k, src); /* the last k floats: a write past k would fault */

    int32_t w[16];
    for (size_t j = 0; j < k; j++) end16[(ptrdiff_t)j - (ptrdiff_t)k] = (uint16_t)(0xfff0u + j);
    m->load_first_u16(end16 - k, k, w);
    for (size_t j = 0; j < vlen; j++) {
      const int32_t want = j < k ? (int32_t)(0xfff0u + j) : 0;
      CHECK(w[j] == want, "%s vi_load_first_u16(k = %zu) lane %zu = 0x%x, want 0x%x", m->name, k, j,
            (unsigned)w[j], (unsigned)want);
    }
    int32_t v[16];
    for (size_t j = 0; j < vlen; j++) v[j] = (int32_t)(0x1234u + j);
    uint16_t *d16 = end16 - vlen;
    for (size_t j = 0; j < vlen; j++) d16[j] = 0xeeeeu;
    m->store_first_u16(d16, k, v);
    for (size_t j = 0; j < vlen; j++)
      CHECK(d16[j] == (j < k ? (uint16_t)v[j] : 0xeeeeu),
            "%s vi_store_first_u16(k = %zu) element %zu = 0x%04x", m->name, k, j, d16[j]);
    m->store_first_u16(end16 - k, k, v);
  }
  test_pages_unmap(mem, 2 * page);
}

static void on_segv(int sig) {
  (void)sig;
  static const char msg[] = "FAIL a tail read or wrote past its k elements (SIGSEGV)\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(1);
  _exit(1);
}

int main(void) {
  signal(SIGSEGV, on_segv);
  for (size_t i = 0; i < N_IMPLS; i++) {
    const impl *m = &g_impls[i];
    if (!actk_isa_supported(m->isa)) {
      printf("%s: not supported here\n", m->name);
      continue;
    }
    const size_t vlen = m->vlen();
    if (vlen > 16 || PAD % vlen) abort();
    check_arith(m);
    check_masks(m, vlen);
    check_ldexp(m);
    check_tails(m, vlen);
    printf("%s (%zu lanes): checked\n", m->name, vlen);
  }
  printf("%u mismatches\n", g_failures);
  return g_failures != 0;
}
