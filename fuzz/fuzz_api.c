/* libFuzzer target: the public API's contract under arbitrary arguments.
 *
 * Each input decodes into one call (fuzz/README.md has the byte format): the
 * op (every element-wise entry of the catalog, tools/catalog.h: each op, tier
 * and type, f32, f16 and bf16, swish with any alpha; the gated ops of
 * actk_gated_catalog, plain or packed; RoPE in each of those types; the RoPE
 * cache), the ISA (any supported one), the pool (NULL, a
 * 1-thread, a 3-thread, or a host pool whose parallel-for runs the tasks
 * backwards), n, offsets, how x and y alias (separate, y == x, partial
 * overlaps either way, adjacent, NULL), the bias width and where the bias
 * lies, RoPE descriptor fields, positions (ids or start) and where the caches
 * and ids lie. Sizes and offsets count elements of the op's type; 16-bit
 * arrays may also sit at odd byte addresses.
 *
 * Memory: one mapping per call holding an arena per array, each between
 * PROT_NONE guard pages. Read-only arrays (x, bias, caches, ids) sit at the
 * very start or the very end of their arena, so reading past them faults; y
 * sits inside the I/O arena between canaries (or x and y share it, for the
 * aliasing cases). Everything that is not an input is a signalling-NaN canary
 * of the output's type, on y's element grid, which no kernel can produce.
 *
 * The oracle is the contract in include/actk.h, computed here from the
 * actual pointers and sizes (not from the library's code): the set of
 * statuses the call may return (every error that applies; empty for a good
 * call). Then:
 *   - bad input: the status is one of the applicable errors, and not one byte
 *     of any arena changed (y's whole region included);
 *   - good input: ACTK_OK, nothing outside y (cos and sin for the cache op)
 *     changed, and y is bit-identical to the same call made with the scalar
 *     ISA and no pool into a separate buffer from aligned copies of x and
 *     the bias (made first, so in-place calls compare against the untouched
 *     x); element-wise ops leave no signalling NaN in y and give a NaN
 *     input back quieted (bias ops: x's first); RoPE equals the header's
 *     definition computed here (rope_oracle), which no isa's code shares.
 * A violation prints what happened and aborts (libFuzzer saves the input). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "actk.h"
#include "catalog.h"
#include "ops.gen.h"
#include "fuzz_types.h"

#define MAX_ELEMS (1u << 17) /* large enough that every op reaches its pool */
#define MAX_ROWS 512u        /* RoPE cache rows */

/* ---- input reader: bytes past the end read as 0 ---- */

typedef struct {
  const uint8_t *p;
  size_t n;
} reader;

static uint8_t rd8(reader *r) {
  if (!r->n) return 0;
  r->n--;
  return *r->p++;
}
static uint16_t rd16(reader *r) { return (uint16_t)(rd8(r) | (unsigned)rd8(r) << 8); }
static uint32_t rd32(reader *r) { return rd16(r) | (uint32_t)rd16(r) << 16; }
static uint64_t rd64(reader *r) { return rd32(r) | (uint64_t)rd32(r) << 32; }

static uint64_t g_rng;
static uint32_t rng32(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (uint32_t)(g_rng >> 16);
}

/* A float of every kind: mostly where the ops change, sometimes any bits. */
static float rng_float(void) {
  uint32_t k = rng32() % 8, b = rng32();
  float f;
  switch (k) {
  case 0:
  case 1:
    memcpy(&f, &b, sizeof f);
    return f;
  case 2:
    return ((float)(b % 2001) - 1000.0f) / 8.0f;
  default:
    return ((float)(b % 200001) - 100000.0f) / 5000.0f;
  }
}

/* One element of type t at p: a float of every kind, sometimes (16-bit
 * types) any 16 bits. */
static void rng_elem(const elem_type *t, unsigned char *p) {
  float f = rng_float();
  if (!t->narrow) {
    memcpy(p, &f, sizeof f);
    return;
  }
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint16_t h = rng32() % 4 == 0 ? (uint16_t)rng32() : t->narrow(u);
  memcpy(p, &h, sizeof h);
}

/* ---- pools and ISAs, made once ---- */

#define N_POOLS 5
static actk_pool *g_pools[N_POOLS]; /* NULL, 1 thread, 3 threads, host, 2 threads */
#define MAX_ISAS 8
static actk_isa g_isas[MAX_ISAS], g_best;
static void make_ops(void);
static size_t g_n_isas;
static size_t g_page;
static int g_verbose; /* ACTK_FUZZ_VERBOSE set: print each call first (a crash then names it) */
/* ACTK_FUZZ_KNOWN=empty-cache-overlap: accept ACTK_ERR_OVERLAP for an empty
 * (max_position 0) cache that starts inside y (reported; the call is an
 * error either way) */
static int g_known_empty_cache;

/* The engine's parallel-for, as an engine may run it: here all on this
 * thread, last task first. */
static void host_parallel_for(void *host, void (*fn)(void *, size_t), size_t total,
                              size_t num_batch, void *data) {
  (void)host;
  (void)num_batch;
  for (size_t i = total; i-- > 0;) fn(data, i);
}

/* A pool's workers sleep between fuzz calls, and a pool that has to wake its
 * workers splits only calls of a million elements or so: the own pools would
 * never run a job. Before a call big enough to split on a pool whose workers
 * are awake, one large call wakes them (they then spin for 300 us) and the
 * call under test comes 50 us later. The runner counts a pool as awake only
 * when every worker spins: the 2-thread pool then splits such calls every
 * time; the 3-thread pool on a 2-core machine about a third of the time. */
#define WARM_N (1u << 20)
static float *g_warm;

static void warm_up(actk_pool *pool, size_t elements) {
  if ((pool != g_pools[2] && pool != g_pools[4]) || elements < 8192) return;
  actk_erf_f32(pool, g_warm, g_warm + WARM_N, WARM_N);
  /* let the workers finish their last task and start spinning */
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000);
}

static void die(const char *what) {
  fprintf(stderr, "fuzz_api: setup: %s\n", what);
  abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  long ps = sysconf(_SC_PAGESIZE);
  if (ps <= 0) die("page size");
  g_page = (size_t)ps;
  g_best = actk_isa_active();
  make_ops();
  g_verbose = getenv("ACTK_FUZZ_VERBOSE") != NULL;
  const char *known = getenv("ACTK_FUZZ_KNOWN");
  g_known_empty_cache = known && strstr(known, "empty-cache-overlap") != NULL;
  for (int i = 0; actk_isa_name((actk_isa)i) && g_n_isas < MAX_ISAS; i++)
    if (actk_isa_supported((actk_isa)i)) g_isas[g_n_isas++] = (actk_isa)i;
  actk_pool_config c;
  actk_pool_config_init(&c);
  c.threads = 1;
  if (actk_pool_create(&c, &g_pools[1]) != ACTK_OK) die("1-thread pool");
  c.threads = 3;
  c.spin_us = 300; /* see warm_up() */
  c.spin_backoff_max = 8;
  if (actk_pool_create(&c, &g_pools[2]) != ACTK_OK) die("3-thread pool");
  if (actk_pool_create_host(host_parallel_for, NULL, 4, &g_pools[3]) != ACTK_OK) die("host pool");
  c.threads = 2;
  if (actk_pool_create(&c, &g_pools[4]) != ACTK_OK) die("2-thread pool");
  g_warm = calloc(2 * (size_t)WARM_N, sizeof(float));
  if (!g_warm) die("malloc");
  return 0;
}

/* ---- arenas: one mapping, [guard][arena 0][guard][arena 1]...[guard] ---- */

enum { A_IO, A_X, A_BIAS, A_COS, A_SIN, A_POS, N_ARENAS };
static const char *const arena_name[N_ARENAS] = {"io (y)", "x", "bias", "cos", "sin", "ids"};

typedef struct {
  unsigned char *map;
  size_t map_size;
  unsigned char *a[N_ARENAS];
  size_t size[N_ARENAS];
  unsigned char *shadow; /* a copy of every arena before the call */
} arenas;

static size_t round_page(size_t b) { return (b + g_page - 1) / g_page * g_page; }

/* What an arena holds: at least bytes; canaries of type (NULL: f32) whose
 * elements start at byte phase (mod its size), y's grid for the I/O arena. */
typedef struct {
  size_t bytes;
  const elem_type *type;
  size_t phase;
} arena_spec;

static void arenas_map(arenas *A, const arena_spec spec[N_ARENAS]) {
  size_t total = g_page;
  for (int i = 0; i < N_ARENAS; i++) total += round_page(spec[i].bytes) + g_page;
  void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) die("mmap");
  A->map = m;
  A->map_size = total;
  unsigned char *p = A->map;
  if (mprotect(p, g_page, PROT_NONE)) die("mprotect");
  p += g_page;
  size_t shadow = 0;
  for (int i = 0; i < N_ARENAS; i++) {
    A->a[i] = p;
    A->size[i] = round_page(spec[i].bytes);
    const elem_type *t = spec[i].type ? spec[i].type : T_F32;
    unsigned char blk[64]; /* a page is whole blocks */
    for (size_t k = 0; k < sizeof blk; k++)
      blk[k] =
          (unsigned char)(t->canary >> 8 * ((k + t->esize - spec[i].phase % t->esize) % t->esize));
    for (size_t o = 0; o < A->size[i]; o += sizeof blk) memcpy(p + o, blk, sizeof blk);
    p += A->size[i];
    if (mprotect(p, g_page, PROT_NONE)) die("mprotect");
    p += g_page;
    shadow += A->size[i];
  }
  A->shadow = malloc(shadow ? shadow : 1);
  if (!A->shadow) die("malloc");
}

static void arenas_unmap(arenas *A) {
  munmap(A->map, A->map_size);
  free(A->shadow);
}

/* count elements of elem bytes at the start, start + skip elements, or end
 * of arena i; odd (0 or 1) bytes further in (the arena needs them) */
static void *arena_place(arenas *A, int i, size_t count, size_t elem, unsigned where, size_t skip,
                         size_t odd) {
  size_t b = count * elem;
  if (where == 0) return A->a[i] + A->size[i] - b - odd;
  return A->a[i] + (where == 2 ? skip * elem : 0) + odd;
}

static void snapshot(arenas *A) {
  size_t o = 0;
  for (int i = 0; i < N_ARENAS; i++) {
    memcpy(A->shadow + o, A->a[i], A->size[i]);
    o += A->size[i];
  }
}

/* ---- the decoded call ---- */

/* The ops, by fuzz_api's op ids (fuzz/ops.gen.h, from src/ops.toml: an id
 * keeps its call when ops are added, so seeds do): every element-wise op
 * and tier of the catalog (tools/catalog.h), RoPE and the RoPE cache. An
 * input's first byte picks one, its fourth the element type (g_types); the
 * entry called is the catalog's entry of that op and tier in that type (the
 * RoPE cache is f32 only). */
#define MAX_ELEMENTWISE 64
static const actk_op_info *g_elementwise[MAX_ELEMENTWISE][N_TYPES]; /* NULL: not element-wise */
/* the gated ops (tools/catalog.h's actk_gated_catalog, apart from the
 * element-wise ones): by the same ids, the entry of that op and tier */
static const actk_gated_info *g_gated[MAX_ELEMENTWISE][N_TYPES];
static int g_op_rope = -1, g_op_rope_cache = -1, g_n_ops;

static const elem_type *type_named(const char *name) {
  for (size_t t = 0; t < N_TYPES; t++)
    if (!strcmp(g_types[t].name, name)) return &g_types[t];
  return NULL;
}

static const actk_gated_info *gated_find(const char *op, const char *tier, const char *type) {
  for (size_t i = 0; i < actk_gated_catalog_size; i++) {
    const actk_gated_info *g = &actk_gated_catalog[i];
    if (!strcmp(g->name, op) && !strcmp(g->tier_name, tier) && !strcmp(g->type_name, type))
      return g;
  }
  return NULL;
}

static void make_ops(void) {
  /* never fuzz fewer entries, silently: every type of the catalogs is here,
   * with its element size, every op and tier exists in every type, and every
   * entry of both catalogs has an id */
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const elem_type *t = type_named(actk_catalog[i].type_name);
    if (!t || t->esize != actk_catalog[i].esize) die("a catalog type fuzz_types.h lacks");
  }
  for (size_t i = 0; i < actk_gated_catalog_size; i++) {
    const elem_type *t = type_named(actk_gated_catalog[i].type_name);
    if (!t || t->esize != actk_gated_catalog[i].esize) die("a gated type fuzz_types.h lacks");
  }
  if (FUZZ_N_OP_IDS > MAX_ELEMENTWISE) die("raise MAX_ELEMENTWISE");
  size_t covered = 0, covered_gated = 0;
  for (size_t k = 0; k < sizeof g_fuzz_op_ids / sizeof g_fuzz_op_ids[0]; k++) {
    const fuzz_op_id *id = &g_fuzz_op_ids[k];
    if (!id->tier) {
      if (!strcmp(id->op, "rope")) g_op_rope = (int)id->id;
      if (!strcmp(id->op, "rope_cache")) g_op_rope_cache = (int)id->id;
      continue;
    }
    /* an op is in one catalog or the other, in every type */
    int gated = gated_find(id->op, id->tier, g_types[0].name) != NULL;
    for (size_t t = 0; t < N_TYPES; t++) {
      if (gated) {
        const actk_gated_info *g = gated_find(id->op, id->tier, g_types[t].name);
        if (!g || actk_catalog_find(id->op, id->tier, g_types[t].name))
          die("a gated op and tier missing in a type, or in both catalogs");
        g_gated[id->id][t] = g;
        covered_gated++;
        continue;
      }
      const actk_op_info *f = actk_catalog_find(id->op, id->tier, g_types[t].name);
      if (!f) die("an op and tier missing in a type");
      g_elementwise[id->id][t] = f;
      covered++;
    }
  }
  if (covered != actk_catalog_size) die("catalog entries without a fuzz id");
  if (covered_gated != actk_gated_catalog_size) die("gated catalog entries without a fuzz id");
  if (g_op_rope < 0 || g_op_rope_cache < 0) die("no fuzz ids for rope and rope_cache");
  for (int op = 0; op < FUZZ_N_OP_IDS; op++)
    if (!g_elementwise[op][0] && !g_gated[op][0] && op != g_op_rope && op != g_op_rope_cache)
      die("a fuzz id unused");
  g_n_ops = FUZZ_N_OP_IDS;
}

static int is_bias_op(int op) {
  return g_elementwise[op][0] && g_elementwise[op][0]->shape == ACTK_SHAPE_BIAS;
}
static int is_param_op(int op) {
  return g_elementwise[op][0] && g_elementwise[op][0]->shape == ACTK_SHAPE_PARAM;
}

typedef struct {
  int op;
  const elem_type *type;         /* of x, y and the bias (RoPE: x and y) */
  const actk_op_info *entry;     /* element-wise ops: the catalog's entry called */
  const actk_gated_info *gentry; /* gated ops: the gated catalog's entry called */
  actk_pool *pool;
  int pool_index;
  actk_isa isa;
  /* unary / bias */
  const void *x;
  void *y;
  size_t n;
  const void *bias;
  size_t width;
  float alpha;
  /* gated: gate and up (plain), or x (packed, rows x 2d) */
  int packed;
  const void *gate, *up;
  size_t rows, d;
  /* rope */
  actk_rope_desc desc;
  const actk_rope_desc *descp;
  const int64_t *ids;
  const float *cosc, *sinc;
  /* rope_cache */
  float *cos_out, *sin_out;
  size_t max_pos, rdim;
  double theta;
} call;

static actk_status run(const call *c, const void *x, void *y, actk_pool *pool) {
  if (c->op == g_op_rope) return c->type->rope(pool, c->descp, x, c->ids, c->cosc, c->sinc, y);
  if (c->op == g_op_rope_cache) return ACTK_ERR_INVALID_ARGUMENT;
  return actk_op_call(c->entry, pool, x, c->bias, c->width, y, c->n, c->alpha);
}

/* position id i, at any byte address (the header allows any) */
static int64_t id_get(const int64_t *ids, size_t i) {
  int64_t p;
  memcpy(&p, (const unsigned char *)ids + i * sizeof p, sizeof p);
  return p;
}

/* ---- the oracle: which statuses the contract allows ---- */

#define BIT(s) (1u << (s))

/* [a, a + na) and [b, b + nb) (bytes) share a byte; both non-empty, no wrap */
static int overlap(const void *a, size_t na, const void *b, size_t nb) {
  uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
  return na && nb && pa < pb + nb && pb < pa + na;
}

/* The header's highest user address (ACTK_ERR_TOO_LARGE): 2^57 on 64-bit
 * targets, else the address space. */
#if UINTPTR_MAX > 0xffffffffu
#define USER_LIMIT ((uintptr_t)1 << 57)
#else
#define USER_LIMIT UINTPTR_MAX
#endif

/* count elements of elem bytes at p would run past the highest user address */
static int too_large(const void *p, size_t count, size_t elem) {
  if (count > SIZE_MAX / elem) return 1;
  return p && ((uintptr_t)p > USER_LIMIT || count * elem > USER_LIMIT - (uintptr_t)p);
}

/* Sizes count elements of the op's type (include/actk.h: every rule of the
 * f32 calls holds for the 16-bit ones, in their element size). */
static unsigned expect_unary(const call *c) {
  const size_t es = c->type->esize;
  unsigned e = 0;
  if (is_bias_op(c->op)) {
    if (c->width == 0)
      e |= BIT(ACTK_ERR_ZERO_WIDTH); /* even with n == 0 */
    else if (c->n % c->width)
      e |= BIT(ACTK_ERR_WIDTH_MISMATCH);
  }
  if (c->n == 0) return e;
  if (!c->x || !c->y) e |= BIT(ACTK_ERR_NULL_POINTER);
  int huge = too_large(c->x, c->n, es) || too_large(c->y, c->n, es);
  if (huge) {
    e |= BIT(ACTK_ERR_TOO_LARGE);
    /* sizes that wrap make the overlap test meaningless: either error will do */
    if (c->x != c->y) e |= BIT(ACTK_ERR_OVERLAP);
  } else if (c->x && c->y && c->x != c->y && overlap(c->x, c->n * es, c->y, c->n * es)) {
    e |= BIT(ACTK_ERR_OVERLAP);
  }
  if (is_bias_op(c->op)) {
    if (!c->bias)
      e |= BIT(ACTK_ERR_NULL_POINTER);
    else if (too_large(c->bias, c->width, es))
      e |= BIT(ACTK_ERR_TOO_LARGE);
    else if (!huge && c->y && overlap(c->bias, c->width * es, c->y, c->n * es))
      e |= BIT(ACTK_ERR_OVERLAP);
  }
  return e;
}

static int mul(size_t a, size_t b, size_t *r) { return __builtin_mul_overflow(a, b, r); }

/* elements of y, or 0 */
static unsigned expect_rope(const call *c, size_t *elements_out) {
  const actk_rope_desc *d = c->descp;
  *elements_out = 0;
  if (!d) return BIT(ACTK_ERR_NULL_POINTER);
  unsigned e = 0;
  /* struct_size: at least the first version's (this header's: 72 bytes on
   * LP64); bytes past the fields this header knows must be zero */
  if (d->struct_size < sizeof *d) return BIT(ACTK_ERR_INVALID_ARGUMENT);
  for (size_t i = sizeof *d; i < d->struct_size; i++)
    if (((const unsigned char *)d)[i]) return BIT(ACTK_ERR_INVALID_ARGUMENT);
  if ((unsigned)d->layout > 1 || (unsigned)d->style > 1) e |= BIT(ACTK_ERR_INVALID_ARGUMENT);
  size_t rd = d->rotary_dim ? d->rotary_dim : d->head_size;
  if (rd % 2 || rd > d->head_size) e |= BIT(ACTK_ERR_BAD_SHAPE);
  size_t tokens, rows, elements, cache;
  int of = mul(d->batch, d->seq_len, &tokens);
  of |= mul(tokens, d->heads, &rows);
  of |= mul(rows, d->head_size, &elements);
  of |= mul(d->max_position, rd / 2, &cache);
  int empty = !d->batch || !d->seq_len || !d->heads || !d->head_size;
  if (of) {
    /* a product past size_t: an error, but with a zero factor nothing is
     * read or written and ACTK_OK is as right */
    return e | BIT(ACTK_ERR_TOO_LARGE) | (empty && !e ? BIT(ACTK_OK) : 0);
  }
  if (e) return e;
  const size_t es = c->type->esize; /* of x and y; the caches are f32 in every type */
  int bytes_of = elements > SIZE_MAX / es || cache > SIZE_MAX / 4;
  if (bytes_of) {
    if (elements == 0) return BIT(ACTK_ERR_TOO_LARGE) | BIT(ACTK_OK); /* as above */
    e |= BIT(ACTK_ERR_TOO_LARGE);
  }
  *elements_out = elements;
  if (elements == 0) return 0; /* nothing to read or write */
  if (!c->x || !c->y || !c->cosc || !c->sinc) e |= BIT(ACTK_ERR_NULL_POINTER);
  if (too_large(c->x, elements, es) || too_large(c->y, elements, es) ||
      too_large(c->cosc, cache, 4) || too_large(c->sinc, cache, 4))
    e |= BIT(ACTK_ERR_TOO_LARGE);
  if (e & BIT(ACTK_ERR_TOO_LARGE)) return e; /* ranges that wrap: no overlap or position test */
  size_t yb = elements * es;
  if (c->y) {
    if (c->x && c->x != c->y && overlap(c->x, yb, c->y, yb)) e |= BIT(ACTK_ERR_OVERLAP);
    if ((c->cosc && overlap(c->cosc, cache * 4, c->y, yb)) ||
        (c->sinc && overlap(c->sinc, cache * 4, c->y, yb)))
      e |= BIT(ACTK_ERR_OVERLAP);
    /* known: an empty cache (max_position 0) that starts inside y */
    if (g_known_empty_cache && cache == 0 &&
        ((c->cosc && overlap(c->cosc, 1, c->y, yb)) || (c->sinc && overlap(c->sinc, 1, c->y, yb))))
      e |= BIT(ACTK_ERR_OVERLAP);
    if (c->ids && overlap(c->ids, tokens * 8, c->y, yb)) e |= BIT(ACTK_ERR_OVERLAP);
  }
  /* positions: only readable when they do not overlap y (else already an error) */
  if (c->ids) {
    for (size_t i = 0; i < tokens; i++)
      if (id_get(c->ids, i) < 0 || (uint64_t)id_get(c->ids, i) >= d->max_position) {
        e |= BIT(ACTK_ERR_OUT_OF_RANGE);
        break;
      }
  } else {
    int64_t s0 = d->position_start;
    /* positions s0 .. s0 + seq_len - 1 */
    if (s0 < 0 || (uint64_t)s0 >= d->max_position || d->seq_len > d->max_position - (uint64_t)s0)
      e |= BIT(ACTK_ERR_OUT_OF_RANGE);
  }
  return e;
}

static unsigned expect_cache(const call *c) {
  unsigned e = 0;
  double th = c->theta == 0 ? 10000.0 : c->theta;
  if (!(th > 0) || isinf(th)) e |= BIT(ACTK_ERR_INVALID_ARGUMENT);
  if (c->rdim == 0 || c->rdim % 2) e |= BIT(ACTK_ERR_BAD_SHAPE);
  size_t n;
  if (mul(c->max_pos, c->rdim / 2, &n) || n > SIZE_MAX / 4) e |= BIT(ACTK_ERR_TOO_LARGE);
  if (e || n == 0) return e;
  if (!c->cos_out || !c->sin_out) return e | BIT(ACTK_ERR_NULL_POINTER);
  if (too_large(c->cos_out, n, 4) || too_large(c->sin_out, n, 4))
    return e | BIT(ACTK_ERR_TOO_LARGE);
  if (overlap(c->cos_out, n * 4, c->sin_out, n * 4)) e |= BIT(ACTK_ERR_OVERLAP);
  return e;
}

/* ---- reporting ---- */

static char g_desc[512];

/* y - x in bytes (16-bit arrays may be an odd number apart) */
static long byte_gap(const void *x, const void *y) {
  return x && y ? (long)((uintptr_t)y - (uintptr_t)x) : 0;
}

static void describe(const call *c) {
  if (c->op == g_op_rope) {
    const actk_rope_desc *d = &c->desc;
    snprintf(g_desc, sizeof g_desc,
             "rope_%s isa=%s pool=%d desc=%s B=%zu S=%zu H=%zu D=%zu rd=%zu layout=%d style=%d "
             "max_pos=%zu start=%lld struct_size=%zu x=%p y=%p (y-x=%ld bytes) ids=%p cos=%p "
             "sin=%p",
             c->type->name, actk_isa_name(c->isa), c->pool_index, c->descp ? "set" : "NULL",
             d->batch, d->seq_len, d->heads, d->head_size, d->rotary_dim, (int)d->layout,
             (int)d->style, d->max_position, (long long)d->position_start, d->struct_size, c->x,
             c->y, byte_gap(c->x, c->y), (const void *)c->ids, (const void *)c->cosc,
             (const void *)c->sinc);
  } else if (c->op == g_op_rope_cache) {
    snprintf(g_desc, sizeof g_desc,
             "rope_cache max_pos=%zu rotary_dim=%zu theta=%a cos=%p sin=%p (sin-cos=%td floats)",
             c->max_pos, c->rdim, c->theta, (void *)c->cos_out, (void *)c->sin_out,
             c->cos_out && c->sin_out ? c->sin_out - c->cos_out : 0);
  } else {
    snprintf(g_desc, sizeof g_desc,
             "%s isa=%s pool=%d n=%zu x=%p y=%p (y-x=%ld bytes) bias=%p width=%zu alpha=%a",
             c->entry->function, actk_isa_name(c->isa), c->pool_index, c->n, c->x, c->y,
             byte_gap(c->x, c->y), c->bias, c->width, (double)c->alpha);
  }
}

static void announce(void) {
  if (g_verbose) fprintf(stderr, "fuzz_api: %s\n", g_desc);
}

static void finding(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void finding(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "\nfuzz_api: CONTRACT VIOLATION: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n  call: %s\n", g_desc);
  va_end(ap);
  abort();
}

static const char *status_name(actk_status s) {
  static const char *const names[] = {"ACTK_OK",
                                      "ACTK_ERR_NULL_POINTER",
                                      "ACTK_ERR_OVERLAP",
                                      "ACTK_ERR_TOO_LARGE",
                                      "ACTK_ERR_ZERO_WIDTH",
                                      "ACTK_ERR_WIDTH_MISMATCH",
                                      "ACTK_ERR_UNSUPPORTED_ISA",
                                      "ACTK_ERR_INVALID_ARGUMENT",
                                      "ACTK_ERR_OUT_OF_MEMORY",
                                      "ACTK_ERR_NO_THREADS",
                                      "ACTK_ERR_OUT_OF_RANGE",
                                      "ACTK_ERR_BAD_SHAPE"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "(not a status)";
}

static void mask_names(unsigned m, char *buf, size_t len) {
  buf[0] = '\0';
  for (int s = 0; s < 32; s++)
    if (m & BIT(s)) {
      size_t l = strlen(buf);
      snprintf(buf + l, len - l, "%s%s", l ? "|" : "", status_name((actk_status)s));
    }
}

/* The first byte of [a, a + n) that differs from the snapshot s, or NULL
 * (memcmp first: the byte loop runs only on a failure). */
static const unsigned char *first_diff(const unsigned char *a, const unsigned char *s, size_t n) {
  if (!n || memcmp(a, s, n) == 0) return NULL;
  while (*a == *s) a++, s++;
  return a;
}

/* every arena byte equals the snapshot, but for [w0, w0 + wn0) and [w1, w1 + wn1) */
static void check_untouched(const arenas *A, const void *w0, size_t wn0, const void *w1,
                            size_t wn1) {
  size_t o = 0;
  for (int i = 0; i < N_ARENAS; i++) {
    const unsigned char *a = A->a[i], *end = a + A->size[i], *s = A->shadow + o;
    /* the allowed windows clipped to this arena, in address order */
    const unsigned char *lo[2] = {w0, w1};
    const unsigned char *hi[2] = {w0 ? (const unsigned char *)w0 + wn0 : NULL,
                                  w1 ? (const unsigned char *)w1 + wn1 : NULL};
    for (int k = 0; k < 2; k++) {
      if (!lo[k] || hi[k] <= a || lo[k] >= end) lo[k] = hi[k] = end; /* not in this arena */
      if (lo[k] < a) lo[k] = a;
      if (hi[k] > end) hi[k] = end;
    }
    if (lo[1] < lo[0]) {
      const unsigned char *t = lo[0], *u = hi[0];
      lo[0] = lo[1], hi[0] = hi[1], lo[1] = t, hi[1] = u;
    }
    /* checked: [a, lo0) [hi0, lo1) [hi1, end) */
    const unsigned char *seg[3][2] = {{a, lo[0]}, {hi[0], lo[1]}, {hi[1], end}};
    for (int k = 0; k < 3; k++) {
      const unsigned char *b0 = seg[k][0], *b1 = seg[k][1];
      if (b1 <= b0) continue;
      const unsigned char *p = first_diff(b0, s + (b0 - a), (size_t)(b1 - b0));
      if (!p) continue;
      size_t off = (size_t)(p - a);
      const unsigned char *ref = w0 ? (const unsigned char *)w0 : a;
      finding("byte %p of arena %s was written (%td bytes from the start of y/cos, allowed "
              "region %zu bytes; arena offset %zu of %zu): 0x%02x -> 0x%02x",
              (const void *)p, arena_name[i], p - ref, wn0, off, A->size[i], s[off], *p);
    }
    o += A->size[i];
  }
}

/* A call the contract calls bad (expect: the statuses it allows; BIT(ACTK_OK)
 * among them when the call has nothing to do anyway): an allowed status,
 * and not one byte of any arena changed. */
static void check_bad(const arenas *A, unsigned expect, actk_status st) {
  if ((unsigned)st >= 32 || !(expect & BIT(st))) {
    char want[256];
    mask_names(expect, want, sizeof want);
    finding("bad input: returned %s, the contract allows %s", status_name(st), want);
  }
  check_untouched(A, NULL, 0, NULL, 0);
}

/* y[0..n) of type t equals want[0..n) bit for bit; what names want */
static void check_same(const elem_type *t, const void *y, const void *want, size_t n,
                       const char *what) {
  if (!n || memcmp(y, want, n * t->esize) == 0) return;
  size_t i = 0;
  while (elem_get(t, y, i) == elem_get(t, want, i)) i++;
  int w = 2 * (int)t->esize;
  finding("y[%zu] = 0x%0*x, %s gives 0x%0*x", i, w, (unsigned)elem_get(t, y, i), what, w,
          (unsigned)elem_get(t, want, i));
}

/* After a good element-wise call: no element of y is a signalling NaN. A NaN
 * comes out quieted (include/actk.h, README "Special values") and nothing else
 * is one, so a canary left in y is an element never written. */
static void check_written(const elem_type *t, const void *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (elem_is_snan(t, elem_get(t, y, i)))
      finding("y[%zu] = 0x%0*x, a signalling NaN: never written, or a NaN not quieted", i,
              2 * (int)t->esize, (unsigned)elem_get(t, y, i));
}

/* NaN in, the same NaN out, quieted (sign and payload kept), whatever alpha
 * is; bias ops: x's NaN, else the bias's. Checked on the reference before the call under test
 * (which equals it bit for bit, and may overwrite x). */
static void check_nan_kept(const call *c, const void *x, const void *ref) {
  const elem_type *t = c->type;
  const int bias = is_bias_op(c->op);
  for (size_t i = 0; i < c->n; i++) {
    /* bias ops: the float add x + bias first, which gives x's NaN where x
     * is one, else the bias's (README: the bits of an add, then the op) */
    uint32_t v = elem_get(t, x, i);
    const char *what = "x";
    size_t at = i;
    if (bias && !elem_is_nan(t, v)) {
      at = i % c->width;
      v = elem_get(t, c->bias, at);
      what = "bias";
    }
    if (elem_is_nan(t, v) && elem_get(t, ref, i) != (v | t->quiet))
      finding("%s[%zu] = 0x%0*x (NaN) gives y[%zu] = 0x%0*x with the scalar isa, not the same NaN "
              "quieted",
              what, at, 2 * (int)t->esize, (unsigned)v, i, 2 * (int)t->esize,
              (unsigned)elem_get(t, ref, i));
  }
}

/* ---- decoding ---- */

static void fill(const elem_type *t, void *p, size_t n) {
  for (size_t i = 0; i < n; i++) rng_elem(t, (unsigned char *)p + i * t->esize);
}

/* n for the element-wise ops, elements of es bytes */
static size_t decode_n(reader *r, size_t es, int *huge) {
  uint8_t k = rd8(r) % 16;
  *huge = 0;
  if (k < 9) return rd8(r);
  if (k < 12) return rd16(r) % 4096;
  if (k < 15) return (size_t)rd16(r) * 2; /* up to 131070: past every pool threshold */
  *huge = 1;
  switch (rd8(r) % 4) {
  case 0:
    return SIZE_MAX / es + 1 + rd32(r); /* n * es overflows */
  case 1:
    return SIZE_MAX - rd8(r);
  case 2:
    return SIZE_MAX / es - rd32(r); /* n * es fits, p + n * es wraps */
  default:
    return SIZE_MAX / es + 1 + rd16(r); /* n * es wraps to a small product */
  }
}

/* 16-bit arrays off the element grid (the header asks no alignment of them):
 * the last byte of a 16-bit call, bit 0 putting y at an odd address, bit 1 x
 * (in its own arena: at an odd address; in y's arena: one byte off y's grid,
 * bit 2 saying which way, so that "in place" and "adjacent" become overlaps
 * by all but one byte or by one), bit 3 the bias likewise. Float arrays stay
 * 4-byte aligned, as float pointers are. */
#define ODD_Y 1u
#define ODD_X 2u
#define ODD_DOWN 4u
#define ODD_BIAS 8u

/* The I/O arena of a call: pre and post elements of slack around [lo, hi) (y
 * at 0, the inputs placed in it at their offsets), y's offset from the page's
 * start so that y ends post elements before the page end, odd or even as
 * ODD_Y asks; canaries on y's element grid. Returns y's offset. */
static size_t io_arena(arena_spec *io, const elem_type *t, size_t es, size_t pre, size_t post,
                       long lo, long hi, unsigned odd) {
  io->bytes = (pre + post) * es + (size_t)(hi - lo) + 1;
  size_t y_at = round_page(io->bytes) - post * es - (size_t)hi;
  if ((y_at & 1) != (odd & ODD_Y)) y_at--;
  io->type = t;
  io->phase = y_at % es;
  return y_at;
}

static void fuzz_elementwise(reader *r, call *c, int is_bias) {
  const elem_type *t = c->type;
  const size_t es = t->esize;
  int huge;
  size_t n = decode_n(r, es, &huge);
  uint8_t alias = rd8(r) % 10, xwhere = rd8(r) % 3, skip = rd8(r) % 16;
  size_t pre = rd8(r) % 40, post = rd8(r) % 40;
  uint16_t dsel = rd16(r);
  c->alpha = 1.0f;
  if (is_param_op(c->op)) {
    uint32_t b = rd32(r);
    memcpy(&c->alpha, &b, sizeof b);
  }
  /* bias */
  uint8_t wsel = rd8(r) % 8, bwhere = rd8(r) % 7;
  uint16_t wv = rd16(r), boff = rd16(r);
  unsigned odd = es < 4 ? rd8(r) : 0;
  size_t width = 1;
  if (is_bias) {
    switch (wsel) {
    case 0:
      width = 0;
      break;
    case 1:
      width = n ? n : 1;
      break;
    case 2:
      width = 1;
      break;
    case 3:
    case 4:
    case 5:
      width = (size_t)(wv % 300) + 1;
      if (!huge) n = n / width * width;
      break;
    case 6:
      width = (size_t)(wv % 300) + 1; /* likely a mismatch */
      break;
    default:
      width = huge ? (size_t)wv + 1 : (size_t)(wv % 70) + 1;
      if (!huge) n = n / width * width + (size_t)(dsel % width);
    }
  }
  size_t na = huge ? 64 : n; /* elements actually behind x and y */
  if (na > MAX_ELEMS) na = MAX_ELEMS;
  /* x's place relative to y (in elements), for the shared I/O arena */
  long d = 0;
  int x_in_io = 1, x_null = 0, y_null = 0;
  switch (alias) {
  case 0:
  case 1:
  case 2:
    x_in_io = 0;
    break;
  case 3:
    d = 0; /* in place */
    break;
  case 4: /* partial overlap, either side */
    if (na > 1) {
      d = (long)(dsel % (na - 1)) + 1;
      if (dsel & 0x8000) d = -d;
    } else {
      d = 1; /* one element: x right after y, not an overlap */
    }
    break;
  case 5:
    d = (long)na; /* x right after y */
    break;
  case 6:
    d = -(long)na; /* x right before y */
    break;
  case 7:
    d = (dsel & 1 ? 1 : -1) * (long)(na + (dsel >> 1) % 64); /* near, not touching */
    break;
  case 8:
    x_null = 1;
    x_in_io = 0;
    break;
  default:
    y_null = 1;
    x_in_io = 0;
  }
  /* bias relative to y (elements), when it is in the I/O arena */
  int b_in_io = 0, b_in_x = 0, b_null = 0;
  long bd = 0;
  size_t wa = width ? width : 1;
  if (is_bias) {
    if (huge && wa > 4096) wa = 4096;
    switch (bwhere) {
    case 0:
    case 1:
      break; /* its own arena */
    case 2:
      b_in_x = wa <= na; /* inside x: allowed, read-only */
      break;
    case 3: /* overlapping y */
      b_in_io = 1;
      bd = (long)(boff % (na + wa)) - (long)wa + 1;
      break;
    case 4:
      b_null = 1;
      break;
    case 5:
      b_in_io = 1;
      bd = (long)na; /* right after y */
      break;
    default:
      b_in_io = 1;
      bd = -(long)wa; /* right before y */
    }
  }
  /* the I/O arena, in bytes: [pre][lo .. hi relative to y][post], one byte
   * more to put y at an odd address */
  const long shift = odd & ODD_DOWN ? -1 : 1;
  long xo = d * (long)es + (x_in_io && (odd & ODD_X) ? shift : 0);
  long bo = bd * (long)es + (b_in_io && (odd & ODD_BIAS) ? shift : 0);
  long lo = 0, hi = (long)(na * es);
  if (x_in_io) {
    if (xo < lo) lo = xo;
    if (xo + (long)(na * es) > hi) hi = xo + (long)(na * es);
  }
  if (b_in_io) {
    if (bo < lo) lo = bo;
    if (bo + (long)(wa * es) > hi) hi = bo + (long)(wa * es);
  }
  arena_spec spec[N_ARENAS] = {{0}};
  size_t y_at = io_arena(&spec[A_IO], t, es, pre, post, lo, hi, odd);
  size_t x_odd = !x_in_io && (odd & ODD_X), b_odd = !b_in_io && (odd & ODD_BIAS);
  spec[A_X] = (arena_spec){x_in_io ? 0 : (na + skip) * es + 1, t, x_odd};
  spec[A_BIAS] = (arena_spec){is_bias ? (wa + skip) * es + 1 : 0, t, b_odd};
  arenas A;
  arenas_map(&A, spec);
  unsigned char *y0 = A.a[A_IO] + y_at;
  unsigned char *x = x_in_io ? y0 + xo : arena_place(&A, A_X, na, es, xwhere, skip, x_odd);
  if (x_null) x = NULL;
  unsigned char *y = y_null ? NULL : y0;
  unsigned char *bias = NULL;
  if (is_bias) {
    if (b_in_io)
      bias = y0 + bo;
    else if (b_in_x && x)
      bias = x + (na - wa ? boff % (na - wa + 1) : 0) * es; /* on x's grid: never past x */
    else
      bias = arena_place(&A, A_BIAS, wa, es, bwhere % 3, skip, b_odd);
    if (b_null) bias = NULL;
  }
  /* inputs: x, then bias (when separate; in place they take what is there) */
  if (x) fill(t, x, na);
  if (bias && !b_in_x) fill(t, bias, wa); /* in y's arena: y's canaries become bias values */
  c->x = x;
  c->y = y;
  c->n = n;
  c->bias = bias;
  c->width = width;
  describe(c);
  announce();

  unsigned expect = expect_unary(c);
  unsigned char *ref = NULL;
  if (!expect && n) {
    /* the reference: scalar isa, no pool, separate output, on aligned
     * copies of x and the bias (malloc's): a bug that depends on where the
     * arrays lie, shared by every isa (they share the templates), then
     * cannot agree with itself */
    ref = calloc(n, es);
    unsigned char *xc = malloc(n * es), *bc = NULL;
    if (!ref || !xc) die("malloc");
    memcpy(xc, x, n * es);
    call rc = *c;
    if (c->bias) {
      bc = malloc(c->width * es);
      if (!bc) die("malloc");
      memcpy(bc, c->bias, c->width * es);
      rc.bias = bc;
    }
    actk_isa_force(ACTK_ISA_SCALAR);
    actk_status s = run(&rc, xc, ref, NULL);
    free(xc);
    free(bc);
    if (s != ACTK_OK) finding("reference call (scalar, no pool) returned %s", status_name(s));
    check_nan_kept(c, x, ref);
  }
  snapshot(&A);
  if (!expect) warm_up(c->pool, n);
  actk_isa_force(c->isa);
  actk_status st = run(c, x, y, c->pool);
  actk_isa_force(g_best);
  if (expect) {
    check_bad(&A, expect, st);
  } else {
    if (st != ACTK_OK) finding("good input: returned %s, want ACTK_OK", status_name(st));
    check_untouched(&A, y, n * es, NULL, 0);
    check_same(t, y, ref, n, "the scalar isa with no pool");
    check_written(t, y, n);
  }
  free(ref);
  arenas_unmap(&A);
}

/* ---- gated ops: y = activation(gate) * up, plain or packed ---- */

/* The statuses a plain gated call allows: as a unary call's, for two inputs,
 * each of which may be y itself (in place) but overlap it no other way;
 * gate and up may overlap each other (both are only read). */
static unsigned expect_gated(const call *c) {
  const size_t es = c->type->esize, n = c->n;
  if (n == 0) return 0;
  unsigned e = 0;
  if (!c->gate || !c->up || !c->y) e |= BIT(ACTK_ERR_NULL_POINTER);
  if (too_large(c->gate, n, es) || too_large(c->up, n, es) || too_large(c->y, n, es)) {
    e |= BIT(ACTK_ERR_TOO_LARGE);
    /* sizes that wrap make the overlap test meaningless: either error will do */
    if (c->gate != c->y || c->up != c->y) e |= BIT(ACTK_ERR_OVERLAP);
    return e;
  }
  if (c->y && ((c->gate && c->gate != c->y && overlap(c->gate, n * es, c->y, n * es)) ||
               (c->up && c->up != c->y && overlap(c->up, n * es, c->y, n * es))))
    e |= BIT(ACTK_ERR_OVERLAP);
  return e;
}

/* Packed: x is rows x 2d elements, y rows x d, and y may not overlap x at
 * all (in place would overwrite a later row's input); nothing to do when a
 * factor is 0. Sets *elements to y's elements (0 when they overflow). */
static unsigned expect_gated_packed(const call *c, size_t *elements) {
  const size_t es = c->type->esize;
  *elements = 0;
  if (c->rows == 0 || c->d == 0) return 0;
  unsigned e = 0;
  if (!c->x || !c->y) e |= BIT(ACTK_ERR_NULL_POINTER);
  size_t ny, nx;
  if (mul(c->rows, c->d, &ny) || mul(ny, 2, &nx) || too_large(c->x, nx, es) ||
      too_large(c->y, ny, es))
    return e | BIT(ACTK_ERR_TOO_LARGE); /* ranges that wrap: no overlap test */
  *elements = ny;
  if (c->x && c->y && overlap(c->x, nx * es, c->y, ny * es)) e |= BIT(ACTK_ERR_OVERLAP);
  return e;
}

/* NaN in, NaN out (src/math/gated.h): a NaN gate's own NaN quieted, else a
 * NaN up's, whatever the other operand is; element i of the plain form's
 * gate and up. Checked on the reference, before the call under test. */
static void check_nan_gated(const elem_type *t, const void *gate, const void *up, const void *ref,
                            size_t n, size_t row_d) {
  for (size_t i = 0; i < n; i++) {
    uint32_t g = elem_get(t, gate, i), u = elem_get(t, up, i), v = g;
    const char *what = "gate";
    if (!elem_is_nan(t, g)) v = u, what = "up";
    if (elem_is_nan(t, v) && elem_get(t, ref, i) != (v | t->quiet))
      finding("%s[%zu] = 0x%0*x (NaN) gives y[%zu] = 0x%0*x with the scalar isa, not the same NaN "
              "quieted (row width %zu)",
              what, i, 2 * (int)t->esize, (unsigned)v, i, 2 * (int)t->esize,
              (unsigned)elem_get(t, ref, i), row_d);
  }
}

static void describe_gated(const call *c) {
  if (c->packed)
    snprintf(g_desc, sizeof g_desc, "%s isa=%s pool=%d rows=%zu d=%zu x=%p y=%p (y-x=%ld bytes)",
             c->gentry->packed_function, actk_isa_name(c->isa), c->pool_index, c->rows, c->d, c->x,
             c->y, byte_gap(c->x, c->y));
  else
    snprintf(g_desc, sizeof g_desc,
             "%s isa=%s pool=%d n=%zu gate=%p up=%p y=%p (y-gate=%ld, y-up=%ld bytes)",
             c->gentry->function, actk_isa_name(c->isa), c->pool_index, c->n, c->gate, c->up, c->y,
             byte_gap(c->gate, c->y), byte_gap(c->up, c->y));
}

static actk_status run_gated(const call *c, const void *gate, const void *up, const void *x,
                             void *y, actk_pool *pool) {
  return c->packed ? c->gentry->call_packed(pool, x, y, c->rows, c->d)
                   : c->gentry->call(pool, gate, up, y, c->n);
}

/* An input's place relative to y, in elements (both forms): 0-2 its own
 * arena, 3 y itself, 4 a partial overlap either side, 5 right after y, 6
 * right before, 7 NULL; plain up also 8: at gate + k elements, k of either
 * sign (0: up == gate), in gate's arena. Sets *in_io and *null; returns the
 * distance for modes 3-6. nin: the input's elements, ny y's. */
static long gated_place(unsigned mode, uint16_t sel, size_t nin, size_t ny, int *in_io, int *null) {
  *in_io = mode >= 3 && mode <= 6;
  *null = mode == 7;
  switch (mode) {
  case 4: /* [o, o + nin) meets [0, ny): o in (-nin, ny), not 0 (mode 3) */
    if (nin + ny > 2) {
      long o = (long)(sel % (nin + ny - 1)) - (long)nin + 1;
      return o ? o : 1;
    }
    return 1; /* one element each: after y, not an overlap */
  case 5:
    return (long)ny;
  case 6:
    return -(long)nin;
  default:
    return 0;
  }
}

/* [lo, hi) grows to hold [o, o + b) */
static void extent(long *lo, long *hi, long o, long b) {
  if (o < *lo) *lo = o;
  if (o + b > *hi) *hi = o + b;
}

/* 16-bit gated calls: ODD_Y and ODD_DOWN as above, ODD_X for the gate (or
 * packed x), ODD_BIAS's bit for up */
#define ODD_UP ODD_BIAS

static void fuzz_gated(reader *r, call *c) {
  const elem_type *t = c->type;
  const size_t es = t->esize;
  c->packed = rd8(r) & 1;
  int huge = 0;
  size_t nx, ny; /* elements of x (plain: of gate and up each) and of y */
  if (c->packed) {
    uint8_t k = rd8(r) % 16;
    uint16_t a = rd16(r), b = rd16(r);
    if (k < 8) {
      c->rows = a % 17, c->d = b % 256;
    } else if (k < 15) {
      /* up to MAX_ELEMS outputs: past every pool threshold */
      c->rows = a % 1024, c->d = (size_t)(b % 4096) + 1;
      while (c->rows * c->d > MAX_ELEMS) c->rows /= 2;
    } else {
      /* rows x 2d past size_t, or its bytes, or x + its bytes past the
       * address space; or one factor 0 beside a huge one (nothing to do) */
      huge = 1;
      switch (a % 5) {
      case 0:
        c->rows = 1, c->d = SIZE_MAX / 2 + 1 + b; /* 2d overflows */
        break;
      case 1:
        c->rows = (size_t)b + 2, c->d = SIZE_MAX / 4; /* rows x 2d overflows */
        break;
      case 2: /* bytes fit and x + bytes wraps, or ends past 2^57 without wrapping */
        c->rows = 1, c->d = (b & 1 ? SIZE_MAX / (2 * es) : SIZE_MAX / (4 * es)) - b / 2;
        break;
      case 3:
        c->rows = SIZE_MAX / (2 * es) + 1 + b, c->d = 1; /* bytes overflow */
        break;
      default:
        c->rows = b & 1 ? 0 : SIZE_MAX, c->d = b & 1 ? SIZE_MAX : 0;
      }
    }
    ny = huge ? 64 : c->rows * c->d;
    nx = 2 * ny;
  } else {
    c->n = decode_n(r, es, &huge);
    ny = nx = huge ? 64 : c->n > MAX_ELEMS ? MAX_ELEMS : c->n;
  }
  unsigned gmode = rd8(r) % 8, umode = c->packed ? 0 : rd8(r) % 9;
  uint8_t gwhere = rd8(r) % 3, uwhere = rd8(r) % 3, skip = rd8(r) % 16;
  size_t pre = rd8(r) % 40, post = rd8(r) % 40;
  uint16_t gsel = rd16(r), usel = rd16(r);
  int y_null = rd8(r) % 12 == 11;
  unsigned odd = es < 4 ? rd8(r) : 0;

  /* places, in bytes relative to y (inputs in the I/O arena) */
  int g_io, g_null, u_io, u_null;
  long dg = gated_place(gmode, gsel, nx, ny, &g_io, &g_null);
  long du = gated_place(umode == 8 ? 0 : umode, usel, nx, ny, &u_io, &u_null);
  /* up == gate + k: in gate's arena, or beside it in the I/O arena */
  long k = umode == 8 ? (long)(usel % (2 * nx + 1)) - (long)nx : 0;
  int u_by_g = umode == 8 && !g_null;
  const long shift = odd & ODD_DOWN ? -1 : 1;
  long go = dg * (long)es + (g_io && (odd & ODD_X) ? shift : 0);
  long uo = du * (long)es + (u_io && (odd & ODD_UP) ? shift : 0);
  if (u_by_g && g_io) u_io = 1, uo = go + k * (long)es;
  long lo = 0, hi = (long)(ny * es);
  if (g_io) extent(&lo, &hi, go, (long)(nx * es));
  if (u_io) extent(&lo, &hi, uo, (long)(nx * es));
  arena_spec spec[N_ARENAS] = {{0}};
  size_t y_at = io_arena(&spec[A_IO], t, es, pre, post, lo, hi, odd);
  /* gate (or x) in A_X, with up beside it when up is gate + k; up in A_BIAS */
  size_t kk = (size_t)(k < 0 ? -k : k), g_odd = !g_io && (odd & ODD_X);
  size_t u_odd = !u_io && !u_by_g && (odd & ODD_UP);
  size_t gspan = nx + (u_by_g && !g_io ? kk : 0);
  spec[A_X] = (arena_spec){g_io ? 0 : (gspan + skip) * es + 1, t, g_odd};
  spec[A_BIAS] = (arena_spec){!u_io && !u_by_g ? (nx + skip) * es + 1 : 0, t, u_odd};
  arenas A;
  arenas_map(&A, spec);
  unsigned char *y0 = A.a[A_IO] + y_at;
  unsigned char *g = g_io ? y0 + go : arena_place(&A, A_X, gspan, es, gwhere, skip, g_odd);
  if (!g_io && u_by_g && k < 0) g += kk * es; /* up below it, still inside the arena */
  unsigned char *u = u_io     ? y0 + uo
                     : u_by_g ? g + k * (long)es
                              : arena_place(&A, A_BIAS, nx, es, uwhere, skip, u_odd);
  if (g_null) g = NULL;
  if (u_null) u = NULL;
  unsigned char *y = y_null ? NULL : y0;
  /* values: gate, then up (where they overlap, up's win; in place they take
   * what is there) */
  if (g) fill(t, g, nx);
  if (u && !u_by_g) fill(t, u, nx);
  if (u_by_g && k > 0 && u) fill(t, g + nx * es, kk); /* up's elements past gate's */
  if (u_by_g && k < 0 && u) fill(t, u, kk);           /* and before it */
  c->y = y;
  if (c->packed) {
    c->x = g;
  } else {
    c->gate = g;
    c->up = u;
  }
  describe_gated(c);
  announce();

  size_t el = c->n;
  unsigned expect = c->packed ? expect_gated_packed(c, &el) : expect_gated(c);
  unsigned char *ref = NULL;
  if (!expect && el) {
    /* the reference: scalar isa, no pool, separate output, aligned copies
     * of the inputs; packed: the plain form row by row (the halves of each
     * row of x as gate and up), which pins the layout and whole rows */
    ref = calloc(el, es);
    size_t nin = c->packed ? 2 * el : el;
    unsigned char *gc = malloc(nin * es), *uc = malloc(nin * es);
    if (!ref || !gc || !uc) die("malloc");
    memcpy(gc, g, nin * es);
    if (!c->packed) memcpy(uc, u, nin * es);
    actk_isa_force(ACTK_ISA_SCALAR);
    if (c->packed) {
      /* gate and up gathered into their own arrays, so the NaN check below
       * reads them in y's order */
      for (size_t i = 0; i < c->rows; i++) {
        memcpy(uc + i * c->d * es, gc + (2 * i + 1) * c->d * es, c->d * es);
        memmove(gc + i * c->d * es, gc + 2 * i * c->d * es, c->d * es);
      }
      for (size_t i = 0; i < c->rows; i++) {
        actk_status s = c->gentry->call(NULL, gc + i * c->d * es, uc + i * c->d * es,
                                        ref + i * c->d * es, c->d);
        if (s != ACTK_OK)
          finding("reference row %zu (plain form, scalar) returned %s", i, status_name(s));
      }
    } else {
      actk_status s = c->gentry->call(NULL, gc, uc, ref, el);
      if (s != ACTK_OK) finding("reference call (scalar, no pool) returned %s", status_name(s));
    }
    check_nan_gated(t, gc, uc, ref, el, c->packed ? c->d : el);
    free(gc);
    free(uc);
  }
  snapshot(&A);
  if (!expect) warm_up(c->pool, el);
  actk_isa_force(c->isa);
  actk_status st = run_gated(c, c->gate, c->up, c->x, c->y, c->pool);
  actk_isa_force(g_best);
  if (expect) {
    check_bad(&A, expect, st);
  } else {
    if (st != ACTK_OK) finding("good input: returned %s, want ACTK_OK", status_name(st));
    check_untouched(&A, c->y, el * es, NULL, 0);
    check_same(t, c->y, ref, el,
               c->packed ? "the plain form row by row (scalar isa, no pool)"
                         : "the scalar isa with no pool");
    check_written(t, c->y, el);
  }
  free(ref);
  arenas_unmap(&A);
}

/* RoPE as include/actk.h defines it, for a good call, computed before it (x
 * may be y): for each token (b, s), head h and pair (a, b) of channels with
 * cache entries (c, s) at the token's position, a' = a c - fl(b s) and
 * b' = b c + fl(a s), one fused multiply-add each, in f32 on the exactly
 * widened inputs, rounded once to the type; a NaN among a, b, c, s makes
 * both the default quiet NaN; channels from rotary_dim on are copied, bits
 * and all. Where only the arithmetic makes a NaN (Inf * 0) any NaN is right
 * (any_nan[i] = 1): the comparison with the scalar isa pins its bits. */
static void rope_oracle(const call *c, const void *x, void *want, unsigned char *any_nan) {
  const elem_type *t = c->type;
  const actk_rope_desc *d = c->descp;
  const size_t S = d->seq_len, H = d->heads, D = d->head_size;
  const size_t rd = d->rotary_dim ? d->rotary_dim : D, half = rd / 2;
  for (size_t b = 0; b < d->batch; b++)
    for (size_t s = 0; s < S; s++) {
      int64_t pos = c->ids ? id_get(c->ids, b * S + s) : d->position_start + (int64_t)s;
      const float *cr = c->cosc + (size_t)pos * half, *sr = c->sinc + (size_t)pos * half;
      for (size_t h = 0; h < H; h++) {
        size_t row = (d->layout == ACTK_ROPE_BSHD ? (b * S + s) * H + h : (b * H + h) * S + s) * D;
        for (size_t j = 0; j < half; j++) {
          size_t ia = row + (d->style == ACTK_ROPE_INTERLEAVED ? 2 * j : j);
          size_t ib = row + (d->style == ACTK_ROPE_INTERLEAVED ? 2 * j + 1 : j + half);
          float a = t->widen(elem_get(t, x, ia)), bv = t->widen(elem_get(t, x, ib));
          float cv = cr[j], sv = sr[j];
          if (isnan(a) || isnan(bv) || isnan(cv) || isnan(sv)) {
            elem_set(t, want, ia, t->default_nan);
            elem_set(t, want, ib, t->default_nan);
            continue;
          }
          float bs = bv * sv, as = a * sv; /* fl(b s), fl(a s) */
          float u = fmaf(a, cv, -bs), v = fmaf(bv, cv, as);
          any_nan[ia] = (unsigned char)isnan(u);
          any_nan[ib] = (unsigned char)isnan(v);
          elem_set(t, want, ia, t->round(u));
          elem_set(t, want, ib, t->round(v));
        }
        for (size_t k = rd; k < D; k++) elem_set(t, want, row + k, elem_get(t, x, row + k));
      }
    }
}

static void check_rope(const call *c, const void *y, const void *want, const unsigned char *any_nan,
                       size_t el) {
  const elem_type *t = c->type;
  const int w = 2 * (int)t->esize;
  for (size_t i = 0; i < el; i++) {
    uint32_t got = elem_get(t, y, i), ok = elem_get(t, want, i);
    if (got == ok || (any_nan[i] && elem_is_nan(t, got))) continue;
    size_t D = c->descp->head_size, rd = c->descp->rotary_dim ? c->descp->rotary_dim : D;
    finding("y[%zu] (row %zu, channel %zu of %zu, rotary_dim %zu) = 0x%0*x, the header's "
            "RoPE gives 0x%0*x%s",
            i, i / D, i % D, D, rd, w, (unsigned)got, w, (unsigned)ok,
            any_nan[i] ? " or any NaN" : "");
  }
}

static void fuzz_rope(reader *r, call *c) {
  const elem_type *t = c->type;
  const size_t es = t->esize;
  actk_rope_desc *d = &c->desc;
  actk_rope_desc_init(d);
  uint8_t shape_mode = rd8(r);
  d->batch = rd8(r) % 4;
  d->seq_len = rd8(r) % 48;
  d->heads = rd8(r) % 33;
  d->head_size = rd8(r) % 140;
  uint8_t rsel = rd8(r), rv = rd8(r);
  switch (rsel % 5) {
  case 0:
    d->rotary_dim = 0;
    break;
  case 1:
    d->rotary_dim = d->head_size;
    break;
  case 2:
  case 3:
    d->rotary_dim = (size_t)(rv % (d->head_size / 2 + 1)) * 2;
    break;
  default:
    d->rotary_dim = rv; /* odd, or past head_size, or fine */
  }
  uint8_t lay = rd8(r), sty = rd8(r);
  d->layout = (actk_rope_layout)(lay < 240 ? lay % 2 : lay - 238);
  d->style = (actk_rope_style)(sty < 240 ? sty % 2 : sty - 238);
  /* struct_size: this header's, older (too small), or a newer caller's
   * larger struct whose unknown tail is zero (fine) or not (an error) */
  uint8_t ss = rd8(r), ss_extra = (uint8_t)(1 + rd8(r) % 32);
  size_t tail = 0;
  if (ss == 0xff) d->struct_size = sizeof *d - 8 * (1 + ss_extra % 3);
  if (ss == 0xfe || ss == 0xfd) d->struct_size = sizeof *d + (tail = ss_extra);
  size_t rd_eff = d->rotary_dim ? d->rotary_dim : d->head_size;
  size_t half = rd_eff / 2;
  uint16_t mp = rd16(r);
  d->max_position = mp % 8 == 0 ? 0 : (size_t)(mp >> 3) % MAX_ROWS;
  uint8_t pos_mode = rd8(r) % 6, cache_mode = rd8(r) % 6, alias = rd8(r) % 7;
  uint8_t where = rd8(r), skip = rd8(r) % 8;
  uint16_t dsel = rd16(r);
  uint64_t start_raw = rd64(r);
  size_t pre = rd8(r) % 40, post = rd8(r) % 40;
  unsigned odd = es < 4 ? rd8(r) : 0;
  /* keep y within MAX_ELEMS elements, unless the call is meant to overflow */
  int huge = shape_mode >= 0xf0;
  if (huge) {
    /* a size whose product with anything non-zero overflows, or wraps the
     * address space in elements of the type */
    size_t big = SIZE_MAX / 2 - (shape_mode & 7);
    switch (shape_mode % 5) {
    case 0:
      d->batch = big;
      break;
    case 1:
      d->seq_len = big;
      break;
    case 2:
      d->heads = big;
      break;
    case 3:
      d->head_size = big & ~(size_t)1;
      d->rotary_dim = 2;
      break;
    default:
      d->max_position = big; /* times rotary_dim / 2 overflows (or is 0) */
    }
  } else {
    while (d->batch * d->seq_len * d->heads * d->head_size > MAX_ELEMS) d->seq_len /= 2;
  }
  size_t tokens = 0, elements = 0;
  int of = mul(d->batch, d->seq_len, &tokens) || mul(tokens, d->heads, &elements) ||
           mul(elements, d->head_size, &elements);
  size_t ea = of || elements > MAX_ELEMS ? 64 : elements; /* elements behind x/y */
  size_t ta = of || tokens > MAX_ELEMS ? 8 : tokens;      /* ids behind ids */
  size_t cache = 0;
  int cof = mul(d->max_position, half, &cache);
  /* floats behind each cache: exactly the declared size (a cache that
   * overflows the address space only comes with an error) */
  size_t ca = cof || cache > SIZE_MAX / 4 ? 64 : (cache ? cache : 1);
  /* positions */
  if (d->max_position > 0) {
    int64_t span = (int64_t)(d->max_position < 4096 ? d->max_position : 4096);
    switch (start_raw % 4) {
    case 0:
    case 1:
      d->position_start = (int64_t)((start_raw >> 8) % (uint64_t)(span + 2)) - 1;
      break;
    case 2:
      d->position_start =
          (int64_t)(span - (int64_t)d->seq_len + (int64_t)((start_raw >> 8) % 3) - 1);
      break;
    default:
      d->position_start = (int64_t)start_raw;
    }
  } else {
    d->position_start = (int64_t)(start_raw >> 60) - 2;
  }
  /* x relative to y, as in fuzz_elementwise (elements) */
  long dx = 0;
  int x_in_io = 1, x_null = 0, y_null = 0, desc_null = 0;
  switch (alias) {
  case 0:
  case 1:
    x_in_io = 0;
    break;
  case 2:
    dx = 0;
    break;
  case 3:
    dx = ea > 1 ? (long)(dsel % (ea - 1)) + 1 : 1;
    if (dsel & 0x8000) dx = -dx;
    break;
  case 4:
    dx = dsel & 1 ? (long)ea : -(long)ea;
    break;
  case 5:
    x_in_io = 0;
    x_null = dsel % 3 == 0;
    y_null = dsel % 3 == 1;
    desc_null = dsel % 3 == 2;
    break;
  default:
    x_in_io = 0;
  }
  /* ids / sin relative to y when they overlap it (bad), in bytes: ids at any
   * byte address (the header allows it), sin a float array, so 4-aligned
   * (moved down by up to 3 bytes once y's address is known) */
  int ids_in_io = pos_mode == 4, sin_in_io = cache_mode == 2;
  const long ide = (long)(ta * 8 / es), cae = (long)(ca * 4 / es); /* in elements of x */
  long ido = 0, so = 0;
  if (ids_in_io) ido = (((long)(dsel >> 4) % ((long)ea + ide + 1)) - ide + 1) * (long)es;
  if (sin_in_io) so = (((long)(dsel >> 3) % ((long)ea + cae)) - cae + 1) * (long)es;
  const long shift = odd & ODD_DOWN ? -1 : 1;
  long xo = dx * (long)es + (x_in_io && (odd & ODD_X) ? shift : 0);
  long lo = 0, hi = (long)(ea * es);
  if (x_in_io) {
    if (xo < lo) lo = xo;
    if (xo + (long)(ea * es) > hi) hi = xo + (long)(ea * es);
  }
  if (ids_in_io) {
    if (ido < lo) lo = ido;
    if (ido + 8 * (long)ta > hi) hi = ido + 8 * (long)ta;
  }
  if (sin_in_io) {
    if (so - 3 < lo) lo = so - 3;
    if (so + 4 * (long)ca > hi) hi = so + 4 * (long)ca;
  }
  arena_spec spec[N_ARENAS] = {{0}};
  size_t y_at = io_arena(&spec[A_IO], t, es, pre, post, lo, hi, odd);
  size_t x_odd = !x_in_io && (odd & ODD_X);
  spec[A_X] = (arena_spec){x_in_io ? 0 : (ea + skip) * es + 1, t, x_odd};
  spec[A_COS].bytes = spec[A_SIN].bytes = (ca + skip) * 4;
  spec[A_POS].bytes = (ta + skip) * 8;
  arenas A;
  arenas_map(&A, spec);
  unsigned char *y0 = A.a[A_IO] + y_at;
  unsigned char *x = x_in_io ? y0 + xo : arena_place(&A, A_X, ea, es, where % 3, skip, x_odd);
  float *cosc = arena_place(&A, A_COS, ca, 4, (where >> 2) % 3, skip, 0);
  float *sinc = sin_in_io ? (float *)(void *)(y0 + so - ((uintptr_t)(y0 + so) & 3))
                          : arena_place(&A, A_SIN, ca, 4, (where >> 4) % 3, skip, 0);
  if (cache_mode == 1) sinc = cosc; /* the same cache for both: allowed */
  if (cache_mode == 3) cosc = NULL;
  if (cache_mode == 4) sinc = NULL;
  unsigned char *ids = NULL;
  if (pos_mode == 2 || pos_mode == 3 || pos_mode == 5)
    ids = arena_place(&A, A_POS, ta, 8, (where >> 6) % 3, skip, 0);
  if (ids_in_io) ids = y0 + ido;
  /* fill: caches, x, ids (ids last: they may overlap y's canaries) */
  if (cosc) fill(T_F32, cosc, ca);
  if (sinc && sinc != cosc) fill(T_F32, sinc, ca);
  if (x) fill(t, x, ea);
  if (ids) {
    for (size_t i = 0; i < ta; i++) {
      uint32_t v = rng32();
      int64_t p = d->max_position ? (int64_t)(v % d->max_position) : 0;
      if (pos_mode == 5 && v % 97 == 0)
        p = (v & 0x100)                               ? -1 - (int64_t)(v >> 20)
            : d->max_position > (size_t)INT64_MAX / 2 ? INT64_MAX
                                                      : (int64_t)d->max_position + (v >> 24);
      if (pos_mode == 5 && v % 1009 == 1) p = INT64_MIN;
      memcpy(ids + i * sizeof p, &p, sizeof p);
    }
  }
  /* the caller's struct: exactly struct_size bytes on the heap (ASan sees any
   * read past it) */
  unsigned char *dbuf = malloc(sizeof *d + tail);
  if (!dbuf) die("malloc");
  memcpy(dbuf, d, sizeof *d);
  memset(dbuf + sizeof *d, 0, tail);
  if (ss == 0xfd) dbuf[sizeof *d + (size_t)(dsel % tail)] = (unsigned char)(1 + (dsel >> 8) % 255);
  c->descp = desc_null ? NULL : (const actk_rope_desc *)(void *)dbuf;
  c->x = x_null ? NULL : x;
  c->y = y_null ? NULL : y0;
  c->ids = (const int64_t *)(void *)ids;
  c->cosc = cosc;
  c->sinc = sinc;
  describe(c);
  announce();

  size_t el;
  unsigned expect = expect_rope(c, &el);
  unsigned char *ref = NULL, *want = NULL, *any_nan = NULL;
  if (!expect && el) {
    ref = calloc(el, es);
    want = calloc(el, es);
    any_nan = calloc(el, 1);
    if (!ref || !want || !any_nan) die("malloc");
    rope_oracle(c, c->x, want, any_nan);
    actk_isa_force(ACTK_ISA_SCALAR);
    actk_status s = run(c, c->x, ref, NULL);
    if (s != ACTK_OK) finding("reference call (scalar, no pool) returned %s", status_name(s));
  }
  snapshot(&A);
  if (!expect) warm_up(c->pool, el);
  actk_isa_force(c->isa);
  actk_status st = run(c, c->x, c->y, c->pool);
  actk_isa_force(g_best);
  if (expect) {
    check_bad(&A, expect, st);
  } else {
    if (st != ACTK_OK) finding("good input: returned %s, want ACTK_OK", status_name(st));
    check_untouched(&A, c->y, el * es, NULL, 0);
    check_same(t, c->y, ref, el, "the scalar isa with no pool");
    check_rope(c, c->y, want, any_nan, el);
  }
  free(ref);
  free(want);
  free(any_nan);
  free(dbuf);
  arenas_unmap(&A);
}

static void fuzz_rope_cache(reader *r, call *c) {
  uint16_t mp = rd16(r);
  uint8_t rsel = rd8(r), rv = rd8(r), mode = rd8(r) % 8, where = rd8(r), skip = rd8(r) % 8;
  uint16_t dsel = rd16(r);
  uint64_t tb = rd64(r);
  c->max_pos = mp % 600;
  c->rdim = rsel % 4 ? (size_t)(rv % 64) * 2 : rv;
  if (rsel == 0xff) c->max_pos = SIZE_MAX / 2 + mp; /* overflows with any rotary_dim > 2 */
  switch (tb % 4) {
  case 0:
    c->theta = 0;
    break;
  case 1:
    c->theta = 10000.0;
    break;
  case 2:
    c->theta = (double)(tb >> 40) / 64.0 + 1.0;
    break;
  default: {
    uint64_t b = tb >> 2 | (tb << 62);
    memcpy(&c->theta, &b, sizeof b); /* any double: NaN, inf, negative, tiny */
  }
  }
  size_t half = c->rdim / 2, n = 0;
  int of = mul(c->max_pos, half, &n) || n > SIZE_MAX / 4;
  size_t na = of || n > 600 * 64 ? 64 : (n ? n : 1);
  arena_spec spec[N_ARENAS] = {{0}}; /* f32 canaries */
  long ds = 0;
  int shared = mode == 3 || mode == 4;
  if (mode == 3) ds = 0; /* sin == cos */
  if (mode == 4) {
    ds = na > 1 ? (long)(dsel % (na - 1)) + 1 : 1;
    if (dsel & 0x8000) ds = -ds;
  }
  long lo = ds < 0 ? ds : 0, hi = ds + (long)na > (long)na ? ds + (long)na : (long)na;
  spec[A_COS].bytes = ((size_t)(hi - lo) + skip) * 4;
  spec[A_SIN].bytes = shared ? 0 : (na + skip) * 4;
  arenas A;
  arenas_map(&A, spec);
  float *cos0 = shared ? (float *)(void *)(A.a[A_COS] + A.size[A_COS]) - (size_t)hi
                       : arena_place(&A, A_COS, na, 4, where % 3, skip, 0);
  float *sin0 = shared ? cos0 + ds : arena_place(&A, A_SIN, na, 4, (where >> 2) % 3, skip, 0);
  c->cos_out = mode == 5 ? NULL : cos0;
  c->sin_out = mode == 6 ? NULL : sin0;
  describe(c);
  announce();
  unsigned expect = expect_cache(c);
  float *ref = NULL;
  if (!expect && n) {
    ref = malloc(2 * n * sizeof(float));
    if (!ref) die("malloc");
    actk_status s = actk_rope_cache_f32(ref, ref + n, c->max_pos, c->rdim, c->theta);
    if (s != ACTK_OK) finding("reference call (separate buffers) returned %s", status_name(s));
  }
  snapshot(&A);
  actk_status st = actk_rope_cache_f32(c->cos_out, c->sin_out, c->max_pos, c->rdim, c->theta);
  if (expect) {
    check_bad(&A, expect, st);
  } else {
    if (st != ACTK_OK) finding("good input: returned %s, want ACTK_OK", status_name(st));
    check_untouched(&A, c->cos_out, n * 4, c->sin_out, n * 4);
    if (n && (memcmp(c->cos_out, ref, n * 4) || memcmp(c->sin_out, ref + n, n * 4)))
      finding("the caches differ from the same call into separate buffers");
    for (size_t i = 0; i < n; i++)
      if (!(fabsf(c->cos_out[i]) <= 1.0f) || !(fabsf(c->sin_out[i]) <= 1.0f))
        finding("cache entry %zu is not in [-1, 1]: cos %a sin %a", i, (double)c->cos_out[i],
                (double)c->sin_out[i]);
  }
  free(ref);
  arenas_unmap(&A);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  call c;
  memset(&c, 0, sizeof c);
  c.op = rd8(&r) % g_n_ops;
  c.pool_index = rd8(&r) % N_POOLS;
  c.pool = g_pools[c.pool_index];
  c.isa = g_isas[rd8(&r) % g_n_isas];
  c.type = &g_types[rd8(&r) % N_TYPES];            /* the RoPE cache ignores it: f32 only */
  c.entry = g_elementwise[c.op][c.type - g_types]; /* NULL for rope, rope_cache, gated */
  c.gentry = g_gated[c.op][c.type - g_types];      /* NULL but for the gated ops */
  /* values: the rest of the input seeds the generator */
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3u;
  g_rng = h | 1;
  if (c.op == g_op_rope)
    fuzz_rope(&r, &c);
  else if (c.op == g_op_rope_cache)
    fuzz_rope_cache(&r, &c);
  else if (c.gentry)
    fuzz_gated(&r, &c);
  else
    fuzz_elementwise(&r, &c, is_bias_op(c.op));
  return 0;
}
