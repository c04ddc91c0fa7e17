/* Shared helpers for the actk cmocka tests: the op list every test iterates
 * over (the catalog of tools/catalog.h, swish with several alphas), ISA
 * switching, deterministic inputs that cover every regime,
 * and bit-exact comparison with readable failure messages.
 *
 * Tests never compare against hard-coded outputs: the kernel math may change
 * bit-wise at any time. They compare ISAs, lengths, offsets and call shapes
 * against each other, and results against the references (tools/exact.h). */
#ifndef ACTK_TEST_H
#define ACTK_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actk.h"

#ifdef __MINGW32__
/* MinGW's gcc checks cmocka's print_message/print_error in MSVC's printf
 * dialect (no %zu); the same output through MinGW's C99 printf
 * (__USE_MINGW_ANSI_STDIO, CMakeLists.txt) and checked as C99. */
__attribute__((format(gnu_printf, 1, 2))) static inline void test_print_(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vprintf(f, ap);
  va_end(ap);
}
__attribute__((format(gnu_printf, 1, 2))) static inline void test_eprint_(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vfprintf(stderr, f, ap);
  va_end(ap);
}
#define print_message test_print_
#define print_error test_eprint_
#endif
#include "catalog.h"
#include "harness.h"
#include "reference.h"

/* Built with ThreadSanitizer or AddressSanitizer: tests scale their work down
 * (the kernels run ~100x slower there). */
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
/* Sanitized builds run 3-15x slower, and so does an emulated target
 * (ACTK_TEST_EMULATED: tests/CMakeLists.txt, under qemu-user): the long
 * tests take smaller samples then (never fewer kinds of input). */
#if defined(TEST_TSAN) || defined(TEST_ASAN) || defined(ACTK_TEST_EMULATED)
#define TEST_SANITIZED 1
#else
#define TEST_SANITIZED 0
#endif

/* ---- quick and exhaustive runs ----
 * ctest runs every test quick by default: every invariant, on samples. The
 * long tests are registered a second time with ACTK_TEST_LEVEL=exhaustive
 * (label "exhaustive", tests/CMakeLists.txt; `ctest -L exhaustive`): every
 * 16-bit input, the dense MPFR and f32 samples, the long pool and stress runs.
 * A test run by hand is quick unless ACTK_TEST_LEVEL=exhaustive is set. */
static inline int test_exhaustive(void) {
  const char *v = getenv("ACTK_TEST_LEVEL");
  return v && !strcmp(v, "exhaustive");
}

/* The small samples: quick runs, and sanitized or emulated builds at either
 * level (their exhaustive run is the sample they always ran). */
#define TEST_SMALL (TEST_SANITIZED || !test_exhaustive())

#include "test_watchdog.h" /* the time limit: a message before ctest's bare ***Timeout */

/* fail() with a formatted message (cmocka's fail_msg needs a GNU extension). */
#define test_fail(...)                                                                             \
  do {                                                                                             \
    char test_fail_buf_[2048];                                                                     \
    snprintf(test_fail_buf_, sizeof test_fail_buf_, __VA_ARGS__);                                  \
    print_error("%s\n", test_fail_buf_);                                                           \
    fail();                                                                                        \
  } while (0)

#define test_check(cond, ...)                                                                      \
  do {                                                                                             \
    if (!(cond)) test_fail(__VA_ARGS__);                                                           \
  } while (0)

/* "ACTK_ERR_OVERLAP" etc.: failure messages name the enum, not its text. */
static inline const char *test_status_name(actk_status s) {
  switch (s) {
  case ACTK_OK:
    return "ACTK_OK";
  case ACTK_ERR_NULL_POINTER:
    return "ACTK_ERR_NULL_POINTER";
  case ACTK_ERR_OVERLAP:
    return "ACTK_ERR_OVERLAP";
  case ACTK_ERR_TOO_LARGE:
    return "ACTK_ERR_TOO_LARGE";
  case ACTK_ERR_ZERO_WIDTH:
    return "ACTK_ERR_ZERO_WIDTH";
  case ACTK_ERR_WIDTH_MISMATCH:
    return "ACTK_ERR_WIDTH_MISMATCH";
  case ACTK_ERR_UNSUPPORTED_ISA:
    return "ACTK_ERR_UNSUPPORTED_ISA";
  case ACTK_ERR_INVALID_ARGUMENT:
    return "ACTK_ERR_INVALID_ARGUMENT";
  case ACTK_ERR_OUT_OF_MEMORY:
    return "ACTK_ERR_OUT_OF_MEMORY";
  case ACTK_ERR_NO_THREADS:
    return "ACTK_ERR_NO_THREADS";
  case ACTK_ERR_OUT_OF_RANGE:
    return "ACTK_ERR_OUT_OF_RANGE";
  case ACTK_ERR_BAD_SHAPE:
    return "ACTK_ERR_BAD_SHAPE";
  }
  return "(not an actk_status)";
}

/* ---- naming the call that crashed ----
 * cmocka turns SIGSEGV/SIGBUS into a test failure but cannot say which call
 * faulted. Tests write what they are about to call into test_context and call
 * test_watch_faults() at the start of the test (after cmocka installed its
 * handler): a fault then prints the context and hands over to cmocka. */

#include <signal.h>
#include <unistd.h>

static char test_context[256];
static void (*test_cmocka_handler)(int);

static inline void test_on_fault(int sig) {
  static const char head[] = "\nfault in: ";
  ssize_t r = write(2, head, sizeof head - 1);
  r = write(2, test_context, strnlen(test_context, sizeof test_context));
  r = write(2, "\n", 1);
  (void)r;
  if (test_cmocka_handler && test_cmocka_handler != SIG_DFL && test_cmocka_handler != SIG_IGN &&
      test_cmocka_handler != test_on_fault)
    test_cmocka_handler(sig); /* cmocka's handler fails the test and goes on */
  signal(sig, SIG_DFL);
  raise(sig);
}

static inline void test_watch_faults(void) {
  test_context[0] = '\0';
  test_cmocka_handler = signal(SIGSEGV, test_on_fault);
#ifdef SIGBUS
  signal(SIGBUS, test_on_fault);
#endif
}

/* ---- bits ---- */

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Element i of a float array that may be misaligned (the library accepts
 * any byte address; the tests must not dereference such a pointer). */
static inline float load_f(const void *base, size_t i) {
  float f;
  memcpy(&f, (const char *)base + i * sizeof(float), sizeof f);
  return f;
}

static inline void store_f(void *base, size_t i, float f) {
  memcpy((char *)base + i * sizeof(float), &f, sizeof f);
}

/* ---- deterministic random numbers (splitmix64, tools/harness.h) ---- */

static inline uint64_t rng_next(uint64_t *s) { return actk_splitmix64(s); }

static inline uint32_t rng_u32(uint64_t *s) { return (uint32_t)(rng_next(s) >> 32); }

/* uniform in [lo, hi) */
static inline float rng_uniform(uint64_t *s, float lo, float hi) {
  double u = (double)(rng_next(s) >> 11) * 0x1p-53;
  return (float)(lo + (hi - lo) * u);
}

static const uint32_t test_specials[] = {
    0x00000000u, 0x80000000u, /* +-0 */
    0x7f800000u, 0xff800000u, /* +-inf */
    0x7fc00000u, 0xffc00000u, /* quiet NaNs */
    0x7fc12345u, 0xffd00001u, /* quiet NaNs with payload */
    0x7f800001u, 0xffa00000u, /* signaling NaNs */
    0x00000001u, 0x80000001u, /* smallest subnormals */
    0x007fffffu, 0x807fffffu, /* largest subnormals */
    0x00800000u, 0x80800000u, /* smallest normals */
    0x7f7fffffu, 0xff7fffffu, /* largest finite */
    0x3f800000u, 0xbf800000u, /* +-1 */
    0x3f000000u, 0xbf000000u, /* +-0.5 */
    0x33800000u, 0xb3800000u, /* +-2^-24 */
    0x39800000u, 0xb9800000u, /* +-2^-12 */
};
#define TEST_N_SPECIALS (sizeof test_specials / sizeof test_specials[0])

/* One input drawn from every regime in turn: ordinary values in [-20, 20],
 * the region where the kernels switch formulas, tiny, huge, subnormal, the
 * overflow/underflow edges of the exponentials, and the special values. */
static inline float test_input(uint64_t *s) {
  uint32_t r = rng_u32(s);
  float sign = (r & 1u) ? -1.0f : 1.0f;
  switch ((r >> 1) % 10u) {
  case 0:
  case 1:
  case 2:
    return rng_uniform(s, -20.0f, 20.0f);
  case 3:
    return sign * rng_uniform(s, 0.5f, 5.0f);
  case 4: /* tiny: 2^-126 .. 2^-10 */
    return sign * ldexpf(rng_uniform(s, 1.0f, 2.0f), -10 - (int)(rng_u32(s) % 117u));
  case 5: /* huge: 2^5 .. 2^127 */
    return sign * ldexpf(rng_uniform(s, 1.0f, 2.0f), 5 + (int)(rng_u32(s) % 123u));
  case 6: /* subnormal */
    return u2f((r & 0x80000000u) | (1u + rng_u32(s) % 0x7fffffu));
  case 7: /* exponent edges */
    return sign * rng_uniform(s, 75.0f, 110.0f);
  case 8: /* any bit pattern at all */
    return u2f(rng_u32(s));
  default:
    return u2f(test_specials[rng_u32(s) % TEST_N_SPECIALS]);
  }
}

/* An array of inputs: the specials first, then test_input(). */
static inline void test_fill_inputs(float *x, size_t n, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    x[i] = i < TEST_N_SPECIALS ? u2f(test_specials[i]) : test_input(&s);
}

/* ---- ops ----
 * Every entry of the catalog (tools/catalog.h, expanded from the op
 * registry), the param ops once per alpha of test_swish_alphas. */

typedef enum { OP_UNARY, OP_SWISH, OP_BIAS } op_kind;

typedef struct test_op {
  char name[48];
  op_kind kind;
  const actk_op_info *info;    /* the catalog entry */
  float alpha;                 /* OP_SWISH */
  const actk_op_info *unfused; /* OP_BIAS: the activation it applies, same tier and type */
} test_op;

static const float test_swish_alphas[] = {0.25f, 1.0f, 1.702f, 3.0f, -0.5f};
#define TEST_N_ALPHAS (sizeof test_swish_alphas / sizeof test_swish_alphas[0])

#define TEST_MAX_OPS 64

/* Fills ops[] (TEST_MAX_OPS entries) with the ops of the catalog of one
 * element type and returns how many. Names: "gelu", "swish(0.25)", with the
 * tier appended past the first ("gelu/fast") and the type past f32
 * ("gelu/bf16", "gelu/fast/bf16"). */
static inline size_t test_ops_of_type(test_op *ops, const char *type) {
  size_t k = 0;
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (strcmp(e->type_name, type) != 0) continue;
    char tier[32];
    snprintf(tier, sizeof tier, "%s%s%s", e->tier == 0 ? "" : e->tier_name,
             e->tier != 0 && e->type != 0 ? "/" : "", e->type == 0 ? "" : e->type_name);
    size_t reps = e->shape == ACTK_SHAPE_PARAM ? TEST_N_ALPHAS : 1;
    if (k + reps > TEST_MAX_OPS) { /* never test fewer ops than the catalog has, silently */
      fprintf(stderr, "test_ops_of_type(%s): more than TEST_MAX_OPS (%d) ops: raise it\n", type,
              TEST_MAX_OPS);
      abort();
    }
    for (size_t r = 0; r < reps; r++, k++) {
      memset(&ops[k], 0, sizeof ops[k]);
      ops[k].info = e;
      if (e->shape == ACTK_SHAPE_PARAM) {
        ops[k].kind = OP_SWISH;
        ops[k].alpha = test_swish_alphas[r];
        snprintf(ops[k].name, sizeof ops[k].name, "%s(%g)%s%s", e->name, (double)ops[k].alpha,
                 *tier ? "/" : "", tier);
      } else {
        ops[k].kind = e->shape == ACTK_SHAPE_BIAS ? OP_BIAS : OP_UNARY;
        snprintf(ops[k].name, sizeof ops[k].name, "%s%s%s", e->name, *tier ? "/" : "", tier);
        if (e->shape == ACTK_SHAPE_BIAS)
          ops[k].unfused = actk_catalog_find(e->activation, e->tier_name, e->type_name);
      }
    }
  }
  return k;
}

/* The f32 ops of the catalog. */
static inline size_t test_ops(test_op *ops) { return test_ops_of_type(ops, "f32"); }

/* The param ops (swish, elu) among ops[0, n), once each (at the first alpha),
 * copied to out; returns how many. */
static inline size_t test_param_ops_once(const test_op *ops, size_t n, test_op *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (ops[i].kind == OP_SWISH && ops[i].alpha == test_swish_alphas[0]) out[k++] = ops[i];
  return k;
}

/* README's accuracy tables document the unary ops, and a param op that equals
 * no unary op (elu: unary_of NULL) at its default alpha (unary_alpha). */
static inline int test_documented(const test_op *op) {
  return op->kind == OP_UNARY ||
         (op->kind == OP_SWISH && !op->info->unary_of && op->alpha == op->info->unary_alpha);
}

/* Whether a param op's definition is NaN at a non-NaN x (the kernels then give
 * the default NaN): swish where alpha x is (alpha NaN, 0 * inf); elu where
 * alpha (e^x - 1) is, for x <= 0 only (alpha NaN, or alpha +-inf at x = +-0;
 * max(-1, x) has the sign and the zeros of e^x - 1). Exact in double. */
static inline int test_param_nan_at(const actk_op_info *e, double x, double alpha) {
  if (!strcmp(e->name, "elu")) return !(x > 0) && isnan(alpha * fmax(-1.0, x));
  return isnan(alpha * x);
}

/* Runs op on n elements on a pool; bias and width are used by bias ops only. */
static inline actk_status test_call(const test_op *op, actk_pool *pool, const void *x,
                                    const void *bias, size_t width, void *y, size_t n) {
  return actk_op_call(op->info, pool, x, bias, width, y, n, op->alpha);
}

/* The same without a pool. */
static inline actk_status test_run(const test_op *op, const float *x, const float *bias,
                                   size_t width, float *y, size_t n) {
  return test_call(op, NULL, x, bias, width, y, n);
}

/* A seed that differs per op (FNV-1a of the name). */
static inline uint64_t test_seed(const test_op *op) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char *c = op->name; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
  return h;
}

/* ---- ISAs ----
 * Every loop over ISAs runs isa = 0, 1, ... while actk_isa_name(isa) is not
 * NULL (the header appends ISAs and never renumbers them), so a new ISA is
 * tested without editing the tests; ISAs this machine cannot run are skipped
 * (with actk_isa_supported), visibly. */

#define TEST_MAX_ISA 64 /* a sanity cap: no library has this many ISAs */

/* How many ISAs the library knows: actk_isa values 0 .. test_n_isa()-1. */
static inline int test_n_isa(void) {
  int n = 0;
  while (n < TEST_MAX_ISA && actk_isa_name((actk_isa)n) != NULL) n++;
  return n;
}

/* Per-test state of the (op, isa) tests. */
typedef struct test_case {
  const test_op *op;
  actk_isa isa;
  actk_isa saved; /* ISA active before the test, restored by the teardown */
  char name[64];
} test_case;

/* Forces the test's isa, or skips the test if this machine cannot run it. */
static inline void test_use_isa(test_case *tc) {
  tc->saved = actk_isa_active();
  if (!actk_isa_supported(tc->isa)) {
    print_message("isa %s not supported here: skipped\n", actk_isa_name(tc->isa));
    skip();
  }
  actk_status s = actk_isa_force(tc->isa);
  test_check(s == ACTK_OK, "actk_isa_force(%s) = %s", actk_isa_name(tc->isa), test_status_name(s));
  test_check(actk_isa_active() == tc->isa, "actk_isa_force(%s) did not take",
             actk_isa_name(tc->isa));
}

static inline int test_restore_isa(void **state) {
  test_case *tc = *state;
  if (tc) actk_isa_force(tc->saved);
  return 0;
}

/* Builds one cmocka test per (op, isa) pair, named "op/ISA", for every ISA
 * the library knows (the test itself skips an ISA this machine cannot run:
 * see test_use_isa), and runs them. */
static inline int test_run_op_isa_group(const char *group, const test_op *ops, size_t n_ops,
                                        CMUnitTestFunction fn) {
  const size_t n_isa = (size_t)test_n_isa();
  size_t n = n_ops * n_isa;
  test_case *cases = calloc(n ? n : 1, sizeof *cases);
  struct CMUnitTest *tests = calloc(n ? n : 1, sizeof *tests);
  if (!cases || !tests) return 1;
  for (size_t i = 0; i < n_ops; i++)
    for (size_t a = 0; a < n_isa; a++) {
      test_case *tc = &cases[i * n_isa + a];
      tc->op = &ops[i];
      tc->isa = (actk_isa)a;
      snprintf(tc->name, sizeof tc->name, "%.31s/%.15s", ops[i].name, actk_isa_name(tc->isa));
      struct CMUnitTest t = {tc->name, fn, NULL, test_restore_isa, tc};
      tests[i * n_isa + a] = t;
    }
  int failed = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
  free(tests);
  free(cases);
  return failed;
}

#endif
