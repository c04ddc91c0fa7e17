/* Bad arguments return their named status and write nothing: y is filled
 * with canaries before every call and checked after. Every op is tried (the
 * unary ops, swish, the two bias ops), in each tier and element type (sizes,
 * offsets and overlaps count elements of the op's type; byte shifts inside an
 * element overlap too), on every ISA: validation must not depend on the ISA. Also the small library
 * facts: status strings, ISA names, forcing an unknown ISA. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "actk_test.h"
#include "test_os.h"

#define LEN 64
#define MAX_ESIZE 4 /* bytes per element of the widest type (f32) */

static test_op g_ops[4 * TEST_MAX_OPS];
static size_t g_n_ops;

/* One buffer holds x, y and bias where the test needs them to overlap: 4 LEN
 * elements of the op's type (bytes past that stay as they are). */
static unsigned char g_mem[4 * LEN * MAX_ESIZE];
/* The first byte of a PROT_NONE page, after LEN f32 inputs: calls with a huge
 * n point LEN elements before it, so a library that ran the kernel anyway
 * faults at once instead of scribbling over the process (and the fault is
 * reported with what was called). */
static unsigned char *g_page_end;

/* the op's element size, and element k of the shared buffer in it */
static size_t g_es;
static unsigned char *M(size_t k) { return g_mem + k * g_es; }
static unsigned char *edge(void) { return g_page_end - LEN * g_es; }

/* y's LEN elements reset between calls (what an error must leave alone is
 * checked by comparing all the test memory, whatever it holds) */
static void fill_canary(unsigned char *p) { memset(p, 0x7d, LEN * g_es); }

/* Calls op and requires status `want`; every byte of the whole test memory
 * that was not meant to change (all of it, on an error) is checked. */
static void expect_status(const test_case *tc, const char *what, const void *x, const void *bias,
                          size_t width, void *y, size_t n, actk_status want) {
  unsigned char before[sizeof g_mem], edge_before[LEN * MAX_ESIZE];
  memcpy(before, g_mem, sizeof before);
  memcpy(edge_before, g_page_end - sizeof edge_before, sizeof edge_before);
  snprintf(test_context, sizeof test_context, "%s: %s (want %s)", tc->name, what,
           test_status_name(want));
  actk_status got = test_call(tc->op, NULL, x, bias, width, y, n);
  test_check(got == want, "%s: %s: got %s, want %s", tc->name, what, test_status_name(got),
             test_status_name(want));
  if (want != ACTK_OK || n == 0)
    test_check(memcmp(before, g_mem, sizeof before) == 0 &&
                   memcmp(edge_before, g_page_end - sizeof edge_before, sizeof edge_before) == 0,
               "%s: %s: returned %s but wrote memory", tc->name, what, test_status_name(got));
}

static void test_bad_arguments(void **state) {
  test_case *tc = *state;
  const int is_bias = tc->op->kind == OP_BIAS;
  g_es = tc->op->info->esize;
  test_use_isa(tc);
  test_watch_faults();

  /* inputs: any bits of the type (16-bit ones from floats' top halves) */
  uint64_t s = 5;
  for (size_t i = 0; i < sizeof g_mem; i++) g_mem[i] = (unsigned char)(rng_next(&s) >> 56);
  for (size_t i = 0; i < 4 * LEN; i++) {
    float f = rng_uniform(&s, -4.0f, 4.0f);
    memcpy(M(i), (const unsigned char *)&f + (g_es == 4 ? 0 : 4 - g_es), g_es);
  }
  unsigned char *x = M(0), *y = M(LEN), *bias = M(3 * LEN);
  fill_canary(y);
  const size_t w = is_bias ? 8 : 1; /* width used where the width is not the point */

  /* sanity: the arguments used below are good ones */
  expect_status(tc, "good call", x, bias, w, y, LEN, ACTK_OK);
  fill_canary(y);

  /* NULL pointers with n > 0 */
  expect_status(tc, "x NULL", NULL, bias, w, y, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "y NULL", x, bias, w, NULL, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "x and y NULL", NULL, bias, w, NULL, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "x NULL, n=1", NULL, bias, 1, y, 1, ACTK_ERR_NULL_POINTER);

  /* n == 0: OK, nothing touched, NULL pointers allowed */
  expect_status(tc, "n=0, all NULL", NULL, NULL, w, NULL, 0, ACTK_OK);
  expect_status(tc, "n=0", x, bias, w, y, 0, ACTK_OK);
  expect_status(tc, "n=0, bogus pointers", (const void *)(uintptr_t)0x10, (const void *)0x20, w,
                (void *)(uintptr_t)0x30, 0, ACTK_OK);

  /* partial overlap of x and y, in both directions, by elements and by bytes */
  static const size_t shifts[] = {1, 2, 7, 8, 9, LEN / 2, LEN - 1};
  unsigned char *z = M(LEN); /* room on both sides of z */
  for (size_t k = 0; k < sizeof shifts / sizeof shifts[0]; k++) {
    char what[96];
    size_t d = shifts[k] * g_es;
    snprintf(what, sizeof what, "y = x + %zu (n=%d)", shifts[k], LEN);
    expect_status(tc, what, z, bias, w, z + d, LEN, ACTK_ERR_OVERLAP);
    snprintf(what, sizeof what, "x = y + %zu (n=%d)", shifts[k], LEN);
    expect_status(tc, what, z + d, bias, w, z, LEN, ACTK_ERR_OVERLAP);
    snprintf(what, sizeof what, "y = x - %zu (n=%d)", shifts[k], LEN);
    expect_status(tc, what, z, bias, w, z - d, LEN, ACTK_ERR_OVERLAP);
  }
  for (size_t b = 1; b < g_es; b++) {
    char what[96];
    snprintf(what, sizeof what, "y = x + %zu bytes", b);
    expect_status(tc, what, z, bias, w, z + b, LEN, ACTK_ERR_OVERLAP);
    snprintf(what, sizeof what, "x = y + %zu bytes", b);
    expect_status(tc, what, z + b, bias, w, z, LEN, ACTK_ERR_OVERLAP);
  }
  /* adjacent is not overlapping; y == x is in place: both OK */
  fill_canary(y);
  expect_status(tc, "y = x + n (adjacent)", x, bias, w, M(LEN), LEN, ACTK_OK);
  memcpy(M(2 * LEN), x, LEN * g_es);
  expect_status(tc, "x = y + n (adjacent)", M(2 * LEN), bias, w, y, LEN, ACTK_OK);
  expect_status(tc, "y == x (in place)", y, bias, w, y, LEN, ACTK_OK);
  fill_canary(y);

  /* n * esize overflows size_t, or the range wraps the address space (the
   * first n that does, and more), or ends past the highest user address:
   * TOO_LARGE, and no memory is touched (a kernel would fault) */
  const size_t wraps = (SIZE_MAX - (uintptr_t)edge()) / g_es + 1;
  /* and one that fits size_t and does not wrap, but ends past any user address
   * (it started the call and faulted: issue 26) */
  const size_t past = sizeof(void *) == 8 ? (size_t)(UINT64_C(1) << 58) / g_es : wraps;
  const size_t huge[] = {SIZE_MAX, SIZE_MAX / g_es + 1, SIZE_MAX / g_es, wraps, past};
  for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
    char what[96];
    snprintf(what, sizeof what, "n = %zu", huge[k]);
    expect_status(tc, what, edge(), bias, 1, y, huge[k], ACTK_ERR_TOO_LARGE);
    snprintf(what, sizeof what, "n = %zu, in place", huge[k]);
    expect_status(tc, what, edge(), bias, 1, edge(), huge[k], ACTK_ERR_TOO_LARGE);
  }

  /* Small calls never read the pool: a pointer that would fault if
   * dereferenced still gives ACTK_OK and the NULL-pool result, and argument
   * errors are still reported first. (A run that read the pool crashes.) */
  {
    actk_pool *bogus = (actk_pool *)(uintptr_t)0x1000;
    unsigned char want[LEN * MAX_ESIZE], got_y[LEN * MAX_ESIZE];
    actk_status got = ACTK_OK, ref = ACTK_OK;
    snprintf(test_context, sizeof test_context, "%s: bogus pool", tc->name);
    ref = test_call(tc->op, NULL, x, bias, w, want, LEN);
    got = test_call(tc->op, bogus, x, bias, w, got_y, LEN);
    test_check(ref == ACTK_OK && got == ACTK_OK, "%s: small call with an unused pool: got %s",
               tc->name, test_status_name(got));
    test_check(memcmp(want, got_y, LEN * g_es) == 0, "%s: small call with an unused pool differs",
               tc->name);
    unsigned char before[sizeof g_mem];
    memcpy(before, g_mem, sizeof before);
    got = test_call(tc->op, bogus, x, bias, w, M(1), LEN);
    test_check(got == ACTK_ERR_OVERLAP, "%s: overlap with a bogus pool: got %s", tc->name,
               test_status_name(got));
    test_check(memcmp(before, g_mem, sizeof before) == 0, "%s: bogus pool: wrote memory", tc->name);
  }

  if (!is_bias) return;

  /* bias-only checks */
  expect_status(tc, "width 0", x, bias, 0, y, LEN, ACTK_ERR_ZERO_WIDTH);
  expect_status(tc, "width 0, n=0", x, bias, 0, y, 0, ACTK_ERR_ZERO_WIDTH);
  expect_status(tc, "n % width != 0 (64 % 7)", x, bias, 7, y, LEN, ACTK_ERR_WIDTH_MISMATCH);
  expect_status(tc, "n % width != 0 (64 % 65)", x, bias, 65, y, LEN, ACTK_ERR_WIDTH_MISMATCH);
  expect_status(tc, "n % width != 0 (63 % 2)", x, bias, 2, y, LEN - 1, ACTK_ERR_WIDTH_MISMATCH);
  expect_status(tc, "bias NULL", x, NULL, w, y, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "bias NULL, width 1", x, NULL, 1, y, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "bias NULL, in place", y, NULL, w, y, LEN, ACTK_ERR_NULL_POINTER);
  expect_status(tc, "bias == y", x, y, w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y + 1", x, M(LEN + 1), w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y + n - 1", x, M(2 * LEN - 1), w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y - 1 (width 8)", x, M(LEN - 1), w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y - 7 (width 8)", x, M(LEN - 7), w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y + half an element", x, y + g_es / 2, w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias = y, in place", y, y, w, y, LEN, ACTK_ERR_OVERLAP);
  expect_status(tc, "bias huge width", edge(), bias, SIZE_MAX / 2, y, SIZE_MAX / 2,
                ACTK_ERR_TOO_LARGE);
  /* bias may overlap x (both are read-only), and may end right before y */
  fill_canary(y);
  expect_status(tc, "bias = x", x, x, w, y, LEN, ACTK_OK);
  fill_canary(y);
  expect_status(tc, "bias = y - width (adjacent)", x, M(LEN - w), w, y, LEN, ACTK_OK);
}

static void test_library_facts(void **state) {
  (void)state;
  static const actk_status all[] = {ACTK_OK,
                                    ACTK_ERR_NULL_POINTER,
                                    ACTK_ERR_OVERLAP,
                                    ACTK_ERR_TOO_LARGE,
                                    ACTK_ERR_ZERO_WIDTH,
                                    ACTK_ERR_WIDTH_MISMATCH,
                                    ACTK_ERR_UNSUPPORTED_ISA,
                                    ACTK_ERR_INVALID_ARGUMENT};
  const size_t n = sizeof all / sizeof all[0];
  for (size_t i = 0; i < n; i++) {
    const char *si = actk_status_string(all[i]);
    test_check(si != NULL && si[0] != '\0', "actk_status_string(%d) is NULL or empty", (int)all[i]);
    for (size_t j = 0; j < i; j++)
      test_check(strcmp(si, actk_status_string(all[j])) != 0,
                 "actk_status_string(%d) == actk_status_string(%d) == \"%s\"", (int)all[i],
                 (int)all[j], si);
  }
  test_check(actk_status_string((actk_status)99) != NULL, "actk_status_string(99) is NULL");
  test_check(actk_status_string((actk_status)-1) != NULL, "actk_status_string(-1) is NULL");

  test_check(actk_isa_name((actk_isa)99) == NULL, "actk_isa_name(99) is not NULL");
  test_check(actk_isa_name((actk_isa)-1) == NULL, "actk_isa_name(-1) is not NULL");
  /* the names the header documents, for the values it fixes */
  static const struct {
    actk_isa isa;
    const char *name;
  } documented[] = {{ACTK_ISA_SCALAR, "scalar"},
                    {ACTK_ISA_AVX2, "avx2"},
                    {ACTK_ISA_AVX512, "avx512"},
                    {ACTK_ISA_NEON, "neon"}};
  for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++) {
    const char *got = actk_isa_name(documented[i].isa);
    test_check(got && strcmp(got, documented[i].name) == 0,
               "actk_isa_name(%d) is \"%s\", not \"%s\"", (int)documented[i].isa,
               got ? got : "(null)", documented[i].name);
  }
  /* every ISA: a distinct non-empty name; the first value without a name is
   * not an ISA: not supported, and forcing it is an invalid argument */
  const int n_isa = test_n_isa();
  test_check(n_isa < TEST_MAX_ISA, "actk_isa_name() names every value up to %d", TEST_MAX_ISA);
  for (int a = 0; a < n_isa; a++) {
    const char *na = actk_isa_name((actk_isa)a);
    test_check(na[0] != '\0', "actk_isa_name(%d) is empty", a);
    for (int b = 0; b < a; b++)
      test_check(strcmp(na, actk_isa_name((actk_isa)b)) != 0,
                 "actk_isa_name(%d) == actk_isa_name(%d) == \"%s\"", a, b, na);
  }
  test_check(actk_isa_supported((actk_isa)n_isa) == 0, "actk_isa_supported(%d) (no name) is not 0",
             n_isa);
  test_check(actk_isa_supported((actk_isa)99) == 0, "actk_isa_supported(99) is not 0");
  test_check(actk_isa_supported((actk_isa)-1) == 0, "actk_isa_supported(-1) is not 0");

  actk_isa before = actk_isa_active();
  actk_status st = actk_isa_force((actk_isa)99);
  test_check(st == ACTK_ERR_INVALID_ARGUMENT, "actk_isa_force(99) = %s, want %s",
             test_status_name(st), test_status_name(ACTK_ERR_INVALID_ARGUMENT));
  st = actk_isa_force((actk_isa)-1);
  test_check(st == ACTK_ERR_INVALID_ARGUMENT, "actk_isa_force(-1) = %s, want %s",
             test_status_name(st), test_status_name(ACTK_ERR_INVALID_ARGUMENT));
  st = actk_isa_force((actk_isa)n_isa);
  test_check(st == ACTK_ERR_INVALID_ARGUMENT, "actk_isa_force(%d) (no name) = %s, want %s", n_isa,
             test_status_name(st), test_status_name(ACTK_ERR_INVALID_ARGUMENT));
  test_check(actk_isa_active() == before, "a failed actk_isa_force changed the active isa");
  /* every ISA this machine cannot run: UNSUPPORTED_ISA, and nothing changes */
  for (int a = 0; a < n_isa; a++) {
    if (actk_isa_supported((actk_isa)a)) continue;
    st = actk_isa_force((actk_isa)a);
    test_check(st == ACTK_ERR_UNSUPPORTED_ISA, "actk_isa_force(%s) on a CPU without it = %s",
               actk_isa_name((actk_isa)a), test_status_name(st));
    test_check(actk_isa_active() == before, "a failed actk_isa_force(%s) changed the active isa",
               actk_isa_name((actk_isa)a));
  }

  test_check(actk_version() == ACTK_VERSION, "actk_version() = %u, header says %d", actk_version(),
             ACTK_VERSION);
  char v[32];
  snprintf(v, sizeof v, "%d.%d.%d", ACTK_VERSION_MAJOR, ACTK_VERSION_MINOR, ACTK_VERSION_PATCH);
  test_check(actk_version_string() && strcmp(actk_version_string(), v) == 0,
             "actk_version_string() = \"%s\", want \"%s\"",
             actk_version_string() ? actk_version_string() : "(null)", v);
}

int main(void) {
  size_t page = test_page_size();
  unsigned char *m = test_pages_map(2 * page, 1);
  if (!m || test_pages_noaccess(m + page, page) != 0) return 1;
  g_page_end = m + page;
  uint64_t s = 11;
  for (size_t i = 0; i < LEN; i++) {
    float f = rng_uniform(&s, -4.0f, 4.0f);
    memcpy(g_page_end - (LEN - i) * sizeof f, &f, sizeof f);
  }
  /* every element type of the catalog, in its order: validation counts
   * elements of the op's type */
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const char *type = actk_catalog[i].type_name;
    int seen = 0;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(actk_catalog[j].type_name, type);
    if (!seen) g_n_ops += test_ops_of_type(g_ops + g_n_ops, type);
  }
  int failed = test_run_op_isa_group("errors: bad arguments", g_ops, g_n_ops, test_bad_arguments);
  const struct CMUnitTest facts[] = {cmocka_unit_test(test_library_facts)};
  failed += cmocka_run_group_tests_name("errors: library facts", facts, NULL, NULL);
  return failed != 0;
}
