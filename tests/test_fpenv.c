/* test_fpenv: a call's results never depend on the caller's rounding mode,
 * no input raises SIGFPE whatever traps the caller enabled, and the caller's
 * FP state (x86's MXCSR, AArch64's FPCR and FPSR) comes back unchanged when actk changed it, for
 * every op of the catalog, every type and tier. FTZ/DAZ
 * are the caller's to keep (README), so they are not varied here.
 * Caught: without src/fpenv.h, sigmoid(-11.09) under FE_UPWARD is 285 ULP off
 * the round-to-nearest result, and sigmoid(88.38) traps under FE_INVALID.
 * actk_rope_cache_f32 too: no theta traps, a bad one is an argument error. */
#define _GNU_SOURCE
#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <string.h>

#include "actk_test.h"
#include "test_os.h"

/* The caller's FP state, which a call must give back: x86's MXCSR (control
 * and flags), AArch64's FPCR and FPSR. */
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define FP_STATE "MXCSR"
static unsigned long long fp_state(void) { return _mm_getcsr(); }
#elif defined(__aarch64__)
#define FP_STATE "FPCR:FPSR"
static unsigned long long fp_state(void) {
  unsigned long long c, s;
  __asm__ volatile("mrs %0, fpcr" : "=r"(c));
  __asm__ volatile("mrs %0, fpsr" : "=r"(s));
  return c << 32 | s;
}
#endif

#ifdef FP_STATE
#define N 4099

static float g_x[N], g_want[N], g_got[N];
static uint16_t g_x16[N]; /* the 16-bit types' inputs: bit patterns 16 apart, every regime */

/* Wide and nasty inputs: every regime, the specials, values that overflow a
 * square or an exponential on the paths a lane does not take. */
static void fill(void) {
  for (int i = 0; i < N; i++) g_x[i] = (float)((i * 7919) % 4001 - 2000) * 0.0625f;
  const float special[] = {0.0f,   -0.0f,  INFINITY, -INFINITY, NAN,     88.38f, -88.38f, 1e30f,
                           -1e30f, 6178.f, 1512.f,   4e16f,     -10.05f, 1e-40f, -1e-40f, 3.4e38f};
  memcpy(g_x, special, sizeof special);
  for (int i = 0; i < N; i++) g_x16[i] = (uint16_t)(i * 16 + 7);
}

/* Element i's bits, f32 or 16-bit. */
static unsigned bits_at(const void *p, int i, size_t esize) {
  uint32_t b32 = 0;
  uint16_t b16 = 0;
  if (esize == 4)
    memcpy(&b32, (const char *)p + (size_t)i * 4, 4);
  else
    memcpy(&b16, (const char *)p + (size_t)i * 2, 2);
  return esize == 4 ? b32 : b16;
}

/* Every op of the catalog, every type (bias ops with a bias row of x itself). */
static actk_status call(const actk_op_info *op, const void *x, void *y) {
  return actk_op_call(op, NULL, x, x, N, y, N, 1.702f);
}

static void check_all_modes(void **state) {
  (void)state;
  fill();
  const int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  for (size_t o = 0; o < actk_catalog_size; o++) {
    const actk_op_info *op = &actk_catalog[o];
    const void *x = op->esize == 4 ? (const void *)g_x : (const void *)g_x16;
    const char *name = op->function;
    fesetround(FE_TONEAREST);
    test_check(call(op, x, g_want) == ACTK_OK, "%s: status", name);
    for (size_t m = 0; m < 3; m++) {
      fesetround(modes[m]);
      test_fp_traps(FE_INVALID | FE_OVERFLOW | FE_DIVBYZERO, 1);
      unsigned long long before = fp_state();
      actk_status st = call(op, x, g_got);
      unsigned long long after = fp_state();
      test_fp_traps(FE_ALL_EXCEPT, 0);
      fesetround(FE_TONEAREST);
      test_check(st == ACTK_OK, "%s: status under rounding mode %d", name, modes[m]);
      test_check(before == after, "%s: " FP_STATE " 0x%llx came back as 0x%llx", name, before,
                 after);
      for (int i = 0; i < N; i++)
        test_check(!memcmp((const char *)g_want + i * op->esize,
                           (const char *)g_got + i * op->esize, op->esize),
                   "%s, rounding mode %d, x bits 0x%x: got 0x%x, round-to-nearest gave 0x%x", name,
                   modes[m], bits_at(x, i, op->esize), bits_at(g_got, i, op->esize),
                   bits_at(g_want, i, op->esize));
    }
  }
}

#if defined(__aarch64__)
/* AArch64's other FPCR controls that change arithmetic: AHP (bit 26, the
 * alternative half format FCVTL/FCVTN would use), DN (25, default NaNs) and
 * FZ16 (19): set together, no result may change (actk clears AHP and DN, and
 * FZ16 does not apply to its conversions). */
static void check_fpcr_controls(void **state) {
  (void)state;
  fill();
  const unsigned long long controls = (1ull << 26) | (1ull << 25) | (1ull << 19);
  for (size_t o = 0; o < actk_catalog_size; o++) {
    const actk_op_info *op = &actk_catalog[o];
    const void *x = op->esize == 4 ? (const void *)g_x : (const void *)g_x16;
    test_check(call(op, x, g_want) == ACTK_OK, "%s: status", op->function);
    unsigned long long c;
    __asm__ volatile("mrs %0, fpcr" : "=r"(c));
    __asm__ volatile("msr fpcr, %0" : : "r"(c | controls));
    actk_status st = call(op, x, g_got);
    __asm__ volatile("msr fpcr, %0" : : "r"(c));
    test_check(st == ACTK_OK, "%s: status with FPCR.AHP, DN, FZ16", op->function);
    for (int i = 0; i < N; i++)
      test_check(!memcmp((const char *)g_want + i * op->esize, (const char *)g_got + i * op->esize,
                         op->esize),
                 "%s, FPCR.AHP, DN, FZ16 set, x bits 0x%x: got 0x%x, the default FPCR gave 0x%x",
                 op->function, bits_at(x, i, op->esize), bits_at(g_got, i, op->esize),
                 bits_at(g_want, i, op->esize));
  }
}
#endif

/* The same through a pool: the workers run with the environment actk set. */
static void check_pool(void **state) {
  (void)state;
  static float x[1 << 20], want[1 << 20], got[1 << 20];
  for (int i = 0; i < (1 << 20); i++) x[i] = (float)(i % 4001 - 2000) * 0.03125f;
  actk_pool_config c;
  actk_pool_config_init(&c);
  c.threads = 3;
  actk_pool *pool;
  test_check(actk_pool_create(&c, &pool) == ACTK_OK, "pool");
  test_check(actk_gelu_f32(NULL, x, want, 1 << 20) == ACTK_OK, "gelu");
  fesetround(FE_UPWARD);
  test_fp_traps(FE_INVALID | FE_OVERFLOW, 1);
  actk_status st = actk_gelu_f32(pool, x, got, 1 << 20);
  test_fp_traps(FE_ALL_EXCEPT, 0);
  fesetround(FE_TONEAREST);
  actk_pool_destroy(pool);
  test_check(st == ACTK_OK, "gelu on a pool: status");
  test_check(memcmp(want, got, sizeof want) == 0, "gelu on a pool under FE_UPWARD differs");
}

/* actk_rope_cache_f32 with traps on: a bad theta (NaN, quiet or signalling,
 * either sign; infinities; negative) is ACTK_ERR_INVALID_ARGUMENT with
 * nothing written, a good one (a subnormal one overflows pow, and 0 * inf is
 * then an invalid operation) gives the caches it
 * gives without traps, and neither raises SIGFPE or changes the MXCSR.
 * Caught: gcc compared theta with an ordered (signalling) compare before the
 * call set up its environment, so theta NaN under FE_INVALID trapped. */
static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static void check_rope_cache(void **state) {
  (void)state;
  enum { MAXP = 33, RD = 64, NC = MAXP * RD / 2 };
  static const uint64_t bad[] = {
      0x7ff8000000000000u, 0xfff8000000000000u, /* quiet NaN */
      0x7ff0000000000001u, 0xfff4000000000000u, /* signalling NaN */
      0x7ff0000000000000u, 0xfff0000000000000u, /* +-inf */
      0xbff0000000000000u, 0x8000000000000001u, /* -1, the negative subnormal */
      0x0000000000000001u, /* the smallest subnormal: theta^(-62/64) overflows (pow traps) */
  };
  static const uint64_t good[] = {
      0x0000000000000000u, 0x8000000000000000u, /* +-0: the default */
      0x40c3880000000000u,                      /* 10000 */
      0x01a56e1fc2f8f359u,                      /* 1e-300: 1e290, still finite */
      0x7fefffffffffffffu,                      /* DBL_MAX */
  };
  static float c[NC], s[NC], wc[NC], ws[NC];
  const int traps = FE_INVALID | FE_OVERFLOW | FE_DIVBYZERO | FE_UNDERFLOW;
  test_watch_faults();
  signal(SIGFPE, test_on_fault); /* a trap names the call (test_context) */
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    for (int k = 0; k < NC; k++) c[k] = s[k] = 1.5f;
    snprintf(test_context, sizeof test_context, "actk_rope_cache_f32, theta 0x%016llx, traps on",
             (unsigned long long)bad[i]);
    test_fp_traps(traps, 1);
    const unsigned long long before = fp_state();
    actk_status st = actk_rope_cache_f32(c, s, MAXP, RD, from_bits(bad[i]));
    const unsigned long long after = fp_state();
    test_fp_traps(FE_ALL_EXCEPT, 0);
    test_check(st == ACTK_ERR_INVALID_ARGUMENT,
               "cache, theta 0x%016llx: %s, want "
               "ACTK_ERR_INVALID_ARGUMENT",
               (unsigned long long)bad[i], test_status_name(st));
    test_check(before == after, "cache, theta 0x%016llx: " FP_STATE " 0x%llx came back as 0x%llx",
               (unsigned long long)bad[i], before, after);
    for (int k = 0; k < NC; k++)
      test_check(c[k] == 1.5f && s[k] == 1.5f, "cache, theta 0x%016llx: returned %s but wrote",
                 (unsigned long long)bad[i], test_status_name(st));
  }
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    const double theta = from_bits(good[i]);
    test_check(actk_rope_cache_f32(wc, ws, MAXP, RD, theta) == ACTK_OK, "cache, theta %a, no traps",
               theta);
    snprintf(test_context, sizeof test_context, "actk_rope_cache_f32, theta %a, traps on", theta);
    test_fp_traps(traps, 1);
    const unsigned long long before = fp_state();
    actk_status st = actk_rope_cache_f32(c, s, MAXP, RD, theta);
    const unsigned long long after = fp_state();
    test_fp_traps(FE_ALL_EXCEPT, 0);
    test_check(st == ACTK_OK, "cache, theta %a, traps on: %s", theta, test_status_name(st));
    test_check(before == after, "cache, theta %a: " FP_STATE " 0x%llx came back as 0x%llx", theta,
               before, after);
    test_check(memcmp(c, wc, sizeof c) == 0 && memcmp(s, ws, sizeof s) == 0,
               "cache, theta %a: traps on changed the caches", theta);
  }
  test_context[0] = '\0';
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(check_all_modes),
    cmocka_unit_test(check_pool),
#if defined(__aarch64__)
    cmocka_unit_test(check_fpcr_controls),
#endif
    cmocka_unit_test(check_rope_cache)
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
#error "test_fpenv: no FP state reader for this architecture"
#endif
