/* actk_floor16: how low the fast 16-bit kernels can go on this CPU, from their pieces
 * (issue 13's speed bars, judged on the AVX-512 arm; issue 35's, on both x86 arms).
 *
 *   build/bench/actk_floor16 [--isa avx512|avx2] [--repeats R] [--calls C] [--n N]
 *
 * --isa: the arm whose kernels are timed, the floor16 ones and the library's (forced by
 * actk_isa_force); default the best of the two this CPU runs. The output names it.
 *
 * One thread, n = N elements (default 65536, in L2; RoPE's Llama-3 prefill is 524288), inputs N(0,
 * 3) clipped to [-12, 12] (actk_ratio's), rounded to f16 and bf16. Every kernel and library call
 * below is timed in the same interleaved rounds (R rounds of C calls each, thread CPU time,
 * medians): ns/element.
 *
 *   pieces    memcpy/16: memcpy of the 16-bit bytes (what RoPE's bar is against);
 *             copy/<type>: load, widen, narrow, store with no math (the shipped
 *             conversions; f32: a plain vector copy); copy/bf16/cvtne: the narrowing
 *             by VCVTNEPS2BF16 where no lane is an f32 subnormal (the one use of it
 *             that keeps actk's bits); div/f32: VDIVPS alone; rcp/f32: its FMA
 *             replacement (integer seed + two Newton steps)
 *   per op    f32f: actk_<op>_f32_fast; core: the op's 16-bit core on f32 data (f32
 *             loads and stores: its math alone, the floor of the design even if the
 *             conversions were free; it moves twice the bytes of a 16-bit kernel, all
 *             in L2 at this size); 16f: actk_<op>_<type>_fast; conv = 16f - core,
 *             what the type's conversions add in that op; bar: issue 13's (f16 0.75x,
 *             bf16 0.6x f32f)
 *   issue 35  the same pieces against 0.8 f32f for both types, and "conv" where the
 *             conversions alone (16f - core) reach that bar: no core can go under it
 *   accurate  actk_<op>_f32, _f16, _bf16, and est = f32 + conv (the fast kernel's, same
 *             type), against the bar 1.1x f32
 *   design    the logistic cores with the FMA reciprocal in place of VDIVPS; the bf16
 *             loads and stores two vectors at a time (as shipped) and by VCVTNEPS2BF16,
 *             each against one vector per step
 *
 * The kernels (bench/research/floor16_body.h, built per arm by floor16_avx512.c and
 * floor16_avx2.c) are built from the library's own headers; VCVTNEPS2BF16's rows are
 * AVX-512's only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actk.h"
#include "floor16.h"

enum { MAXV = 192 };
static size_t N = 65536; /* --n: a multiple of 32 */

typedef actk_status (*f32_api)(actk_pool *, const float *, float *, size_t);
typedef actk_status (*u16_api)(actk_pool *, const uint16_t *, uint16_t *, size_t);

typedef struct {
  const char *name;
  f32_api f32, f32f;
  u16_api f16, f16f, bf16, bf16f;
} lib_op;

#define LIB_OP(op)                                                                                 \
  {                                                                                                \
#op, actk_##op##_f32, actk_##op##_f32_fast, actk_##op##_f16, actk_##op##_f16_fast,             \
        actk_##op##_bf16, actk_##op##_bf16_fast                                                    \
  }
/* elu at alpha 1, in the unary ops' shape */
static actk_status elu_f32_1(actk_pool *p, const float *x, float *y, size_t n) {
  return actk_elu_f32(p, x, y, n, 1.0f);
}
static actk_status elu_f32_fast_1(actk_pool *p, const float *x, float *y, size_t n) {
  return actk_elu_f32_fast(p, x, y, n, 1.0f);
}
#define ELU16_1(name, T)                                                                           \
  static actk_status name##_1(actk_pool *p, const uint16_t *x, uint16_t *y, size_t n) {            \
    return actk_##name(p, (const T *)x, (T *)y, n, 1.0f);                                          \
  }
ELU16_1(elu_f16, actk_f16)
ELU16_1(elu_f16_fast, actk_f16)
ELU16_1(elu_bf16, actk_bf16)
ELU16_1(elu_bf16_fast, actk_bf16)

/* bias_gelu over rows of bias_w (4096, or 32 where n is not a multiple of it), the bias the
 * first row's inputs / 8 (as actk_ratio's, small: the sums stay inside the fast cores' clamps) */
static size_t bias_w;
static float *b32;
static uint16_t *bf16b, *bbf16b;
#define BIAS32_W(name)                                                                             \
  static actk_status name##_w(actk_pool *p, const float *x, float *y, size_t n) {                  \
    return actk_##name(p, x, b32, bias_w, y, n);                                                   \
  }
BIAS32_W(bias_gelu_f32)
BIAS32_W(bias_gelu_f32_fast)
BIAS32_W(bias_gelu_tanh_f32)
BIAS32_W(bias_gelu_tanh_f32_fast)
#define BIAS16_W(name, T, b)                                                                       \
  static actk_status name##_w(actk_pool *p, const uint16_t *x, uint16_t *y, size_t n) {            \
    return actk_##name(p, (const T *)x, (const T *)(b), bias_w, (T *)y, n);                        \
  }
BIAS16_W(bias_gelu_f16, actk_f16, bf16b)
BIAS16_W(bias_gelu_f16_fast, actk_f16, bf16b)
BIAS16_W(bias_gelu_bf16, actk_bf16, bbf16b)
BIAS16_W(bias_gelu_bf16_fast, actk_bf16, bbf16b)
BIAS16_W(bias_gelu_tanh_f16, actk_f16, bf16b)
BIAS16_W(bias_gelu_tanh_f16_fast, actk_f16, bf16b)
BIAS16_W(bias_gelu_tanh_bf16, actk_bf16, bbf16b)
BIAS16_W(bias_gelu_tanh_bf16_fast, actk_bf16, bbf16b)

static const lib_op ops[] = {
    LIB_OP(erf),
    LIB_OP(tanh),
    LIB_OP(sigmoid),
    LIB_OP(silu),
    LIB_OP(quick_gelu),
    LIB_OP(gelu),
    LIB_OP(gelu_tanh),
    LIB_OP(hardsigmoid),
    LIB_OP(hardswish),
    LIB_OP(softplus),
    LIB_OP(mish),
    {"elu", elu_f32_1, elu_f32_fast_1, elu_f16_1, elu_f16_fast_1, elu_bf16_1, elu_bf16_fast_1},
    {"bias_gelu", bias_gelu_f32_w, bias_gelu_f32_fast_w, bias_gelu_f16_w, bias_gelu_f16_fast_w,
     bias_gelu_bf16_w, bias_gelu_bf16_fast_w},
    {"bias_gelu_tanh", bias_gelu_tanh_f32_w, bias_gelu_tanh_f32_fast_w, bias_gelu_tanh_f16_w,
     bias_gelu_tanh_f16_fast_w, bias_gelu_tanh_bf16_w, bias_gelu_tanh_bf16_fast_w}};
enum { NOPS = sizeof ops / sizeof ops[0] };

/* one timed variant: a floor16 kernel or a library call */
typedef struct {
  char name[48];
  const floor16_kernel *k;
  f32_api a32;
  u16_api a16;
  int type; /* floor16_type: 0 f32, 1 f16, 2 bf16 */
  double *t;
  double med;
} var;

static float *x32, *y32;
static uint16_t *xf16, *xbf16, *y16;

static double thread_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void run(const var *v) {
  const void *x = v->type == 0 ? (const void *)x32 : v->type == 1 ? xf16 : xbf16;
  void *y = v->type == 0 ? (void *)y32 : (void *)y16;
  actk_status st = ACTK_OK;
  if (v->k)
    v->k->fn(x, y, N);
  else if (v->a32)
    st = v->a32(NULL, (const float *)x, (float *)y, N);
  else
    st = v->a16(NULL, (const uint16_t *)x, (uint16_t *)y, N);
  if (st != ACTK_OK) {
    fprintf(stderr, "actk_floor16: %s: %s\n", v->name, actk_status_string(st));
    exit(1);
  }
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static var vars[MAXV];
static int nv;

static var *add(const char *name, int type) {
  if (nv == MAXV) {
    fprintf(stderr, "actk_floor16: too many variants\n");
    exit(1);
  }
  var *v = &vars[nv++];
  snprintf(v->name, sizeof v->name, "%s", name);
  v->type = type;
  return v;
}

static double med(const char *name) {
  for (int i = 0; i < nv; i++)
    if (!strcmp(vars[i].name, name)) return vars[i].med;
  return -1;
}

/* med() of the variant named fmt with op in its %s */
static double med_of(const char *fmt, const char *op) {
  char b[64];
  snprintf(b, sizeof b, fmt, op);
  return med(b);
}

/* one op's medians: the library's six entry points and its two 16-bit cores on f32 */
typedef struct {
  double f32, f32f, f16, f16f, bf16, bf16f, core16, corebf;
} op_meds;
static op_meds meds_of(const char *o) {
  op_meds m = {med_of("lib/%s/f32", o),      med_of("lib/%s/f32f", o),
               med_of("lib/%s/f16", o),      med_of("lib/%s/f16f", o),
               med_of("lib/%s/bf16", o),     med_of("lib/%s/bf16f", o),
               med_of("core/%s/f16/f32", o), med_of("core/%s/bf16/f32", o)};
  return m;
}

/* the arm --isa picked: its name, kernels and narrowing */
typedef struct {
  const char *name;
  actk_isa isa;
  const floor16_kernel *(*kernels)(size_t *count);
  void (*narrow)(const float *x, uint16_t *f16, uint16_t *bf16, size_t n);
} floor16_arm;
static const floor16_arm arms[] = {
    {"avx512", ACTK_ISA_AVX512, floor16_kernels_avx512, floor16_narrow_avx512},
    {"avx2", ACTK_ISA_AVX2, floor16_kernels_avx2, floor16_narrow_avx2},
};
static void (*narrow)(const float *x, uint16_t *f16, uint16_t *bf16, size_t n);

static void gen_inputs(void) {
  uint64_t s = 0x9e3779b97f4a7c15ULL;
  for (size_t i = 0; i < N; i += 2) { /* Box-Muller over splitmix64 */
    double u[2];
    for (int j = 0; j < 2; j++) {
      uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      u[j] = ((double)(z >> 11) + 0.5) / 9007199254740992.0;
    }
    double r = 3.0 * __builtin_sqrt(-2.0 * __builtin_log(u[0]));
    double a = 6.283185307179586 * u[1];
    double g[2] = {r * __builtin_cos(a), r * __builtin_sin(a)};
    for (int j = 0; j < 2; j++) x32[i + j] = (float)(g[j] > 12 ? 12 : g[j] < -12 ? -12 : g[j]);
  }
  narrow(x32, xf16, xbf16, N);
  bias_w = N % 4096 ? 32 : 4096;
  for (size_t i = 0; i < bias_w; i++) b32[i] = x32[i] * 0.125f;
  narrow(b32, bf16b, bbf16b, bias_w);
}

int main(int argc, char **argv) {
  int reps = 21, calls = 20;
  const char *isa = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--isa") && i + 1 < argc)
      isa = argv[++i];
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
      calls = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--n") && i + 1 < argc)
      N = (size_t)strtoul(argv[++i], NULL, 10);
    else {
      fprintf(stderr, "usage: %s [--isa avx512|avx2] [--repeats R] [--calls C] [--n N]\n", argv[0]);
      return 2;
    }
  }
  if (reps < 1 || calls < 1 || N < 32 || N % 32 || N > (1u << 26)) {
    fprintf(stderr, "%s: --repeats and --calls >= 1, --n a multiple of 32 in [32, 2^26]\n",
            argv[0]);
    return 2;
  }
  const floor16_arm *arm = NULL;
  for (size_t i = 0; i < sizeof arms / sizeof arms[0] && !arm; i++)
    if (isa ? !strcmp(isa, arms[i].name) : actk_isa_supported(arms[i].isa)) arm = &arms[i];
  if (!arm && isa) {
    fprintf(stderr, "%s: --isa avx512 or avx2, not %s\n", argv[0], isa);
    return 2;
  }
  /* the library's arm stands for the kernels' too: AVX2 + FMA + F16C, or AVX-512
   * F/DQ/BW/VL (src/dispatch's checks) */
  if (!arm || !actk_isa_supported(arm->isa)) {
    printf("actk_floor16: needs actk's %s arm: not on this CPU\n", arm ? arm->name : "avx2");
    return 0;
  }
  actk_status st = actk_isa_force(arm->isa);
  if (st != ACTK_OK) {
    fprintf(stderr, "actk_floor16: actk_isa_force(%s): %s\n", arm->name, actk_status_string(st));
    return 1;
  }
  narrow = arm->narrow;
  int has_bf16 = arm->isa == ACTK_ISA_AVX512 && __builtin_cpu_supports("avx512bf16");
  x32 = aligned_alloc(64, N * 4);
  y32 = aligned_alloc(64, N * 4);
  xf16 = aligned_alloc(64, N * 2);
  xbf16 = aligned_alloc(64, N * 2);
  y16 = aligned_alloc(64, N * 2);
  b32 = aligned_alloc(64, 4096 * 4);
  bf16b = aligned_alloc(64, 4096 * 2);
  bbf16b = aligned_alloc(64, 4096 * 2);
  if (!x32 || !y32 || !xf16 || !xbf16 || !y16 || !b32 || !bf16b || !bbf16b) return 1;
  gen_inputs();

  size_t nk;
  const floor16_kernel *k = arm->kernels(&nk);
  for (size_t i = 0; i < nk; i++) {
    if (k[i].needs_bf16 && !has_bf16) continue;
    var *v = add(k[i].name, (int)k[i].type);
    v->k = &k[i];
  }
  for (int i = 0; i < NOPS; i++) {
    char b[48];
    snprintf(b, sizeof b, "lib/%s/f32", ops[i].name), add(b, 0)->a32 = ops[i].f32;
    snprintf(b, sizeof b, "lib/%s/f32f", ops[i].name), add(b, 0)->a32 = ops[i].f32f;
    snprintf(b, sizeof b, "lib/%s/f16", ops[i].name), add(b, 1)->a16 = ops[i].f16;
    snprintf(b, sizeof b, "lib/%s/f16f", ops[i].name), add(b, 1)->a16 = ops[i].f16f;
    snprintf(b, sizeof b, "lib/%s/bf16", ops[i].name), add(b, 2)->a16 = ops[i].bf16;
    snprintf(b, sizeof b, "lib/%s/bf16f", ops[i].name), add(b, 2)->a16 = ops[i].bf16f;
  }

  /* each alternative store must give the shipped kernel's bits on these inputs */
  static const char *const same[][2] = {
      {"copy/bf16/cvtne", "copy/bf16"},      {"cvtne/erf/bf16", "core/erf/bf16"},
      {"cvtne/tanh/bf16", "core/tanh/bf16"}, {"eo/copy/bf16", "copy/bf16"},
      {"eo/erf/bf16", "core/erf/bf16"},      {"eo/tanh/bf16", "core/tanh/bf16"}};
  for (size_t p = 0; p < sizeof same / sizeof same[0]; p++) {
    uint16_t *a = y16, *b = malloc(N * 2);
    if (!b) return 1;
    const floor16_kernel *alt = NULL, *ship = NULL;
    for (size_t i = 0; i < nk; i++) {
      if (!strcmp(k[i].name, same[p][0])) alt = &k[i];
      if (!strcmp(k[i].name, same[p][1])) ship = &k[i];
    }
    if (!alt || !ship || (alt->needs_bf16 && !has_bf16)) continue;
    alt->fn(xbf16, a, N), ship->fn(xbf16, b, N);
    int differ = memcmp(a, b, N * 2) != 0;
    free(b);
    if (differ) {
      fprintf(stderr, "actk_floor16: %s gives other bits than %s\n", same[p][0], same[p][1]);
      return 1;
    }
  }

  for (int i = 0; i < nv; i++) {
    vars[i].t = malloc(sizeof(double) * (size_t)reps);
    if (!vars[i].t) return 1;
    run(&vars[i]); /* warm */
  }
  for (int r = 0; r < reps; r++)
    for (int j = 0; j < nv; j++) {
      var *v = &vars[(j + r) % nv]; /* rotate the order each round */
      run(v);
      double t0 = thread_ns();
      for (int c = 0; c < calls; c++) run(v);
      v->t[r] = (thread_ns() - t0) / calls / N;
    }
  for (int i = 0; i < nv; i++) {
    qsort(vars[i].t, (size_t)reps, sizeof(double), cmp_d);
    vars[i].med = vars[i].t[reps / 2];
  }

  const double c32 = med("copy/f32"), c16 = med("copy/f16"), cb = med("copy/bf16");
  printf("actk_floor16: n = %zu, one thread, %d interleaved rounds x %d calls, medians, "
         "ns/element (thread CPU time), actk's %s arm\n\n",
         N, reps, calls, arm->name);
  printf("pieces\n");
  printf("  memcpy/16   %.3f  memcpy of the 16-bit elements' bytes (RoPE's bar: 1.3x this)\n",
         med("memcpy/16"));
  printf("  copy/bf16 pairs %.3f  the bf16 kernels' pair load + store alone: %.2fx memcpy/16\n",
         med("eo/copy/bf16"), med("eo/copy/bf16") / med("memcpy/16"));
  printf("  copy/f32    %.3f  vector load + store, no math (the f32 kernels' own I/O)\n", c32);
  printf("  copy/f16    %.3f  VCVTPH2PS + VCVTPS2PH (the copies are bound by memory, not by\n"
         "                    the conversions: the 16-bit ones move half the bytes)\n",
         c16);
  printf("  copy/bf16   %.3f  %s (one vector per step)\n", cb,
         arm->isa == ACTK_ISA_AVX512 ? "zero-extend + shift, integer RNE + VPERMW"
                                     : "broadcast + VPSHUFB, integer RNE + VPSHUFB + VPERMQ");
  if (has_bf16)
    printf("  copy/bf16/cvtne %.3f  VCVTNEPS2BF16 unless a lane is subnormal\n",
           med("copy/bf16/cvtne"));
  else
    printf("  copy/bf16/cvtne  -  (%s)\n", arm->isa == ACTK_ISA_AVX512
                                               ? "no AVX512_BF16 on this CPU"
                                               : "VCVTNEPS2BF16 is AVX-512's");
  printf("  div/f32     %.3f  VDIVPS alone\n", med("div/f32"));
  printf("  rcp/f32     %.3f  integer seed + two Newton steps (5 FMA-port operations)\n\n",
         med("rcp/f32"));

  /* per op: the core alone (its math on f32 data: free conversions) is the floor of
   * the shipped design; conv = the library kernel - its core: what the type's
   * conversions add in that op */
  int f16_miss = 0, bf16_miss = 0, f16_core_miss = 0, bf16_core_miss = 0;
  double dv = med("div/f32");
  printf("fast tier (bars: f16f <= 0.75 f32f, bf16f <= 0.6 f32f; core: the 16-bit core on f32 "
         "data, conv = 16f - core)\n");
  printf("%-14s %6s | %6s %6s %6s %6s %6s | %6s %6s %6s %6s %6s\n", "op", "f32f", "core", "conv",
         "f16f", "bar", "f16f/", "core", "conv", "bf16f", "bar", "bf16f/");
  for (int i = 0; i < NOPS; i++) {
    const char *o = ops[i].name;
    op_meds m = meds_of(o);
    double f32f = m.f32f, k16 = m.core16, kb = m.corebf, l16 = m.f16f, lb = m.bf16f;
    f16_miss += l16 > 0.75 * f32f, bf16_miss += lb > 0.6 * f32f;
    f16_core_miss += k16 > 0.75 * f32f, bf16_core_miss += kb > 0.6 * f32f;
    printf("%-14s %6.3f | %6.3f %6.3f %6.3f %6.3f %5.2fx | %6.3f %6.3f %6.3f %6.3f %5.2fx\n", o,
           f32f, k16, l16 - k16, l16, 0.75 * f32f, l16 / f32f, kb, lb - kb, lb, 0.6 * f32f,
           lb / f32f);
  }
  printf("  over the bar: f16f %d of %d, bf16f %d of %d; the core alone (conversions free) "
         "over it: f16 %d, bf16 %d\n",
         f16_miss, NOPS, bf16_miss, NOPS, f16_core_miss, bf16_core_miss);
  printf("  sigmoid, silu, quick_gelu (and gelu_tanh) hold one VDIVPS per element: %.3f alone\n\n",
         dv);

  /* issue 35's bar, 0.8 f32f for both types, against the conversions' cost two ways:
   * conv = 16f - core (what the type's loads and stores add over the core's f32 ones) and
   * copy = the type's load, widen, narrow and store with no math (bf16: the pairs the
   * library's kernels use). Where either reaches the bar, no core, however cheap, brings the
   * kernel under it ("floor"); math = loop - copy, the core's own cost once it runs between
   * the conversions (loop: the core in the type's one-vector loop), against room = bar - copy
   * (math over room: the core and the conversions together miss the bar) */
  const double cbp = med("eo/copy/bf16");
  printf("issue 35 (bar: 16f <= 0.8 f32f, both types; conv = 16f - core; copy: copy/f16, bf16 "
         "pairs; math = loop - copy; room = bar - copy; floor: conv or copy >= bar)\n");
  printf("%-14s %6s %6s | %6s %6s %6s %6s %6s %6s %5s | %6s %6s %6s %6s %6s %6s %5s\n", "op",
         "f32f", "bar", "core", "conv", "math", "room", "f16f", "f16f/", "floor", "core", "conv",
         "math", "room", "bf16f", "bf16f/", "floor");
  for (int i = 0; i < NOPS; i++) {
    const char *o = ops[i].name;
    op_meds m = meds_of(o);
    double bar = 0.8 * m.f32f, cv16 = m.f16f - m.core16, cvbf = m.bf16f - m.corebf;
    double mt16 = med_of("core/%s/f16", o) - c16, mtbf = med_of("core/%s/bf16", o) - cb;
    printf("%-14s %6.3f %6.3f | %6.3f %6.3f %6.3f %6.3f %6.3f %5.2fx %5s | %6.3f %6.3f %6.3f %6.3f "
           "%6.3f %5.2fx %5s\n",
           o, m.f32f, bar, m.core16, cv16, mt16, bar - c16, m.f16f, m.f16f / m.f32f,
           cv16 >= bar || c16 >= bar ? "conv" : "-", m.corebf, cvbf, mtbf, bar - cbp, m.bf16f,
           m.bf16f / m.f32f, cvbf >= bar || cbp >= bar ? "conv" : "-");
  }
  printf("  copy/f16 %.3f, copy/bf16 pairs %.3f (single %.3f): a 16-bit kernel with no math\n\n",
         c16, cbp, cb);

  printf("accurate tier (bar: <= 1.1 f32; est = f32 + the fast kernel's conv of the same type)\n");
  printf("%-14s %6s | %6s %6s %6s | %6s %6s %6s\n", "op", "f32", "f16", "est", "f16/", "bf16",
         "est", "bf16/");
  int acc_est_miss = 0;
  for (int i = 0; i < NOPS; i++) {
    const char *o = ops[i].name;
    op_meds m = meds_of(o);
    double a32 = m.f32, a16 = m.f16, ab = m.bf16;
    double cv16 = m.f16f - m.core16, cvbf = m.bf16f - m.corebf;
    acc_est_miss += (cv16 > 0.1 * a32) + (cvbf > 0.1 * a32);
    printf("%-14s %6.3f | %6.3f %6.3f %5.2fx | %6.3f %6.3f %5.2fx\n", o, a32, a16, a32 + cv16,
           a16 / a32, ab, a32 + cvbf, ab / a32);
  }
  printf("  est over the bar: %d of %d\n\n", acc_est_miss, 2 * NOPS);

  printf("design: the logistic cores with the FMA reciprocal instead of VDIVPS (rcp / div)\n");
  const char *rc[] = {"sigmoid", "silu"};
  const char *ty[] = {"f32", "f16", "bf16"};
  for (int i = 0; i < 2; i++) {
    printf("  %-8s", rc[i]);
    for (int j = 0; j < 3; j++) {
      char b[64], d[64];
      snprintf(b, sizeof b, "rcpcore/%s/%s", rc[i], ty[j]);
      if (j == 0)
        snprintf(d, sizeof d, "core/%s/bf16/f32", rc[i]);
      else
        snprintf(d, sizeof d, "core/%s/%s", rc[i], ty[j]);
      printf("  %s %.3f / %.3f = %.2fx", ty[j], med(b), med(d), med(b) / med(d));
    }
    printf("\n");
  }
  printf("design: the f32 fast gelu one vector per step / the library's (software-pipelined "
         "where the arm sets ACTK_PIPE_f32: AVX2) %.3f / %.3f = %.2fx\n",
         med("unpiped/gelu/f32"), med("lib/gelu/f32f"),
         med("unpiped/gelu/f32") / med("lib/gelu/f32f"));
  printf("design: bf16 loads and stores, same bits checked (pairs: the even/odd halves the "
         "library's x86 kernels use; single: one vector per step, as before; but f16core: other "
         "bits)\n");
  static const char *const alt[][3] = {
      {"eo/copy/bf16", "copy/bf16", "pairs / single, copy"},
      {"eo/erf/bf16", "core/erf/bf16", "pairs / single, erf"},
      {"eo/tanh/bf16", "core/tanh/bf16", "pairs / single, tanh"},
      {"eo/tanh/bf16/f16core", "eo/tanh/bf16", "tanh bf16 pairs, f16's core / its own"},
      {"cvtne/erf/bf16", "core/erf/bf16", "VCVTNEPS2BF16 / single, erf"},
      {"cvtne/tanh/bf16", "core/tanh/bf16", "VCVTNEPS2BF16 / single, tanh"}};
  for (size_t p = 0; p < sizeof alt / sizeof alt[0]; p++)
    if (med(alt[p][0]) >= 0)
      printf("  %-38s %.3f / %.3f = %.2fx\n", alt[p][2], med(alt[p][0]), med(alt[p][1]),
             med(alt[p][0]) / med(alt[p][1]));
  return 0;
}
