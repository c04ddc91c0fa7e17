/* No access outside [x, x + n), [bias, bias + width) and no write outside
 * [y, y + n), on every isa, for every op of every tier and element type and
 * every length 1..70:
 *   - x, y and bias end exactly at a page boundary followed by a PROT_NONE
 *     guard page, or start exactly after one: any read or write past either
 *     end faults (the test names the call that faulted);
 *   - y in a heap buffer between canary elements (a signalling NaN of the
 *     type), at several element offsets: nothing
 *     outside y is written; x is malloc'ed with its exact size so ASan builds
 *     also see heap over-reads.
 * Results of the guarded calls must also equal an ordinary call's. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (glibc hides it under strict POSIX 2008) */
#include "actk_test.h"
#include "test_os.h"

#define MAX_LEN 70
#define MAX_ESIZE 4     /* bytes per element of the widest type (f32) */
#define CANARY_WORDS 16 /* elements of canary on each side of y */

static test_op g_ops[4 * TEST_MAX_OPS];
static size_t g_n_ops;

/* A signalling NaN of the op's type (by its element size and name): kernels
 * write only quiet NaNs, so no result is a canary. */
static uint32_t canary_of(const actk_op_info *e) {
  if (e->esize == 4) return 0x7fa5a5a5u;
  return strcmp(e->type_name, "bf16") == 0 ? 0x7f8au : 0x7d5au;
}
static void put(unsigned char *p, size_t es, uint32_t v) { memcpy(p, &v, es); } /* little endian */
static uint32_t get(const unsigned char *p, size_t es) {
  uint32_t v = 0;
  memcpy(&v, p, es);
  return v;
}

/* n values of the op's type from floats: f32 as they are, a 16-bit type the
 * top half of each (bf16's value, any bits as f16) */
static void typed_inputs(unsigned char *dst, const float *src, size_t n, size_t es) {
  for (size_t i = 0; i < n; i++) memcpy(dst + i * es, (const unsigned char *)&src[i] + 4 - es, es);
}

/* ---- guarded regions: [PROT_NONE page][one RW page][PROT_NONE page] ---- */

typedef struct guarded {
  unsigned char *base, *lo, *hi; /* lo, hi: the RW page */
  size_t page;
} guarded;

static void guarded_map(guarded *g) {
  g->page = test_page_size();
  assert_true(g->page > 0);
  void *p = test_pages_map(3 * g->page, 1);
  assert_non_null(p);
  g->base = p;
  g->lo = g->base + g->page;
  g->hi = g->lo + g->page;
  assert_int_equal(test_pages_noaccess(g->base, g->page), 0);
  assert_int_equal(test_pages_noaccess(g->hi, g->page), 0);
}

static void guarded_unmap(guarded *g) { test_pages_unmap(g->base, 3 * g->page); }

/* n elements of es bytes ending at the guard page (at_end) or starting right after one */
static unsigned char *guarded_place(const guarded *g, int at_end, size_t n, size_t es) {
  return at_end ? g->hi - n * es : g->lo;
}

static const size_t bias_widths[] = {1, 2, 3, 5, 7, 8, 9, 16, 35, 64, 65};
#define N_BIAS_WIDTHS (sizeof bias_widths / sizeof bias_widths[0])

static void test_guard_pages(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  test_use_isa(tc);

  const size_t es = op->info->esize;
  guarded gx, gy, gb;
  guarded_map(&gx);
  guarded_map(&gy);
  guarded_map(&gb);
  float fsrc[MAX_LEN], fbias[MAX_LEN];
  unsigned char src[MAX_LEN * MAX_ESIZE], bias_src[MAX_LEN * MAX_ESIZE], want[MAX_LEN * MAX_ESIZE];
  test_fill_inputs(fsrc, MAX_LEN, 0x9a9e ^ test_seed(op));
  uint64_t s = 7;
  for (size_t j = 0; j < MAX_LEN; j++) fbias[j] = rng_uniform(&s, -3.0f, 3.0f);
  typed_inputs(src, fsrc, MAX_LEN, es);
  typed_inputs(bias_src, fbias, MAX_LEN, es);

  static const char *const pos_name[2] = {"after guard", "before guard"};
  test_watch_faults();
  for (size_t n = 1; n <= MAX_LEN; n++) {
    size_t n_w = op->kind == OP_BIAS ? N_BIAS_WIDTHS + 1 : 1;
    for (size_t wi = 0; wi < n_w; wi++) {
      size_t width = op->kind != OP_BIAS ? 1 : wi < N_BIAS_WIDTHS ? bias_widths[wi] : n;
      if (n % width) continue;
      /* the ordinary call */
      snprintf(test_context, sizeof test_context, "%s n=%zu width=%zu plain call", tc->name, n,
               width);
      assert_int_equal(test_call(op, NULL, src, bias_src, width, want, n), ACTK_OK);
      /* x, y, bias each at the start or the end of its guarded page; then in place */
      for (int c = 0; c < 8 + 2; c++) {
        const int in_place = c >= 8;
        const int xe = in_place ? c - 8 : c & 1, ye = in_place ? xe : (c >> 1) & 1;
        const int be = in_place ? !xe : (c >> 2) & 1;
        unsigned char *x = guarded_place(&gx, xe, n, es);
        unsigned char *y = in_place ? x : guarded_place(&gy, ye, n, es);
        unsigned char *b = guarded_place(&gb, be, width, es);
        memcpy(x, src, n * es);
        memcpy(b, bias_src, width * es);
        if (!in_place) memset(y, 0xA5, n * es);
        snprintf(test_context, sizeof test_context, "%s n=%zu width=%zu x %s, y %s, bias %s%s",
                 tc->name, n, width, pos_name[xe], in_place ? "= x" : pos_name[ye],
                 op->kind == OP_BIAS ? pos_name[be] : "unused", in_place ? " (in place)" : "");
        actk_status st = test_call(op, NULL, x, b, width, y, n);
        test_check(st == ACTK_OK, "%s: status %s", test_context, test_status_name(st));
        test_check(memcmp(y, want, n * es) == 0, "%s: result differs from the ordinary call",
                   test_context);
      }
    }
  }
  test_context[0] = '\0';
  guarded_unmap(&gx);
  guarded_unmap(&gy);
  guarded_unmap(&gb);
}

/* y between canary elements on the heap, at element offsets 0..7 (x exact-size). */
static void test_canaries(void **state) {
  test_case *tc = *state;
  const test_op *op = tc->op;
  const size_t es = op->info->esize;
  const uint32_t canary = canary_of(op->info);
  test_use_isa(tc);

  enum { OFFS = 8, TOTAL = CANARY_WORDS + OFFS + MAX_LEN + CANARY_WORDS };
  unsigned char *buf = malloc(TOTAL * es);
  float fbias[MAX_LEN], fx[MAX_LEN];
  unsigned char bias[MAX_LEN * MAX_ESIZE];
  uint64_t s = 99;
  for (size_t j = 0; j < MAX_LEN; j++) fbias[j] = rng_uniform(&s, -3.0f, 3.0f);
  typed_inputs(bias, fbias, MAX_LEN, es);
  assert_non_null(buf);
  for (size_t n = 1; n <= MAX_LEN; n++) {
    unsigned char *x = malloc(n * es); /* exact: ASan sees any over-read */
    assert_non_null(x);
    test_fill_inputs(fx, n, 0xca1a + n);
    typed_inputs(x, fx, n, es);
    for (size_t off = 0; off < OFFS; off++) {
      for (size_t i = 0; i < TOTAL; i++) put(buf + i * es, es, canary);
      unsigned char *y = buf + (CANARY_WORDS + off) * es;
      size_t width = op->kind == OP_BIAS ? (n % 7 == 0 ? 7 : n) : 1;
      actk_status st = test_call(op, NULL, x, bias, width, y, n);
      test_check(st == ACTK_OK, "%s: n=%zu: status %s", tc->name, n, test_status_name(st));
      for (size_t i = 0; i < TOTAL; i++) {
        int inside = i >= CANARY_WORDS + off && i < CANARY_WORDS + off + n;
        uint32_t v = get(buf + i * es, es);
        if (!inside && v != canary)
          test_fail("%s: n=%zu, y at element offset %zu: element y[%td] outside [y, y+n) was "
                    "written (0x%0*x)",
                    tc->name, n, off, (ptrdiff_t)i - (ptrdiff_t)(CANARY_WORDS + off), (int)(2 * es),
                    v);
        if (inside && v == canary)
          test_fail("%s: n=%zu: y[%zu] was not written", tc->name, n, i - (CANARY_WORDS + off));
      }
    }
    free(x);
  }
  free(buf);
}

int main(void) {
  /* every element type of the catalog */
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const char *type = actk_catalog[i].type_name;
    int seen = 0;
    for (size_t j = 0; j < i; j++) seen |= !strcmp(actk_catalog[j].type_name, type);
    if (!seen) g_n_ops += test_ops_of_type(g_ops + g_n_ops, type);
  }
  int failed = test_run_op_isa_group("bounds: guard pages", g_ops, g_n_ops, test_guard_pages);
  failed += test_run_op_isa_group("bounds: canaries", g_ops, g_n_ops, test_canaries);
  return failed != 0;
}
