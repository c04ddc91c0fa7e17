/* actk_gated_bench: the gated ops (actk_swiglu_*, actk_geglu_*, actk_geglu_tanh_*) against
 * what an engine does without them, one thread, measured interleaved.
 *
 *   actk_gated_bench [--quick] [--csv] [--ops swiglu,geglu_tanh] [--types bf16,f32]
 *                    [--tier fast|accurate] [--rows R] [--d D]
 *
 * Default shape: Llama-3-8B's MLP at prefill, rows 128, d 14336 (x = [rows, 2d]
 * of the fused gate/up projection, gate first), the fast tier, every gated op
 * and type. Variants (ns per output element, medians of the timed calls):
 *   packed    actk_<op>_packed_<type>: x -> y
 *   plain     actk_<op>_<type>: separate gate and up arrays -> y
 *   2-pass    the way without a gated op: the activation (actk_<act>_<type>)
 *             of every row's gate half into a scratch tensor, then a multiply
 *             pass scratch * up -> y (a vectorized loop here: AVX-512 where the
 *             CPU has it, else plain C the compiler vectorizes)
 *   act       the activation alone over the same rows x d elements, gate -> y
 *   copy      memcpy of y's bytes: the control (it must stay flat across rows)
 * Ratios: packed/2-pass (the bar: <= 0.6) and packed/act (<= 1.2).
 * Every variant's output is checked once before timing: packed == plain, and
 * 2-pass within the 16-bit type's rounding of it (the multiply pass rounds the
 * activation first: not the same bits, which is the point of the gated op). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"
#include "bench_util.h"
#include "catalog.h"
#include "harness.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

typedef struct gcall {
  const actk_gated_info *g;
  const actk_op_info *act;
  size_t rows, d;
  const void *x;    /* [rows][2d] */
  const void *gate; /* [rows][d], the gate halves */
  const void *up;   /* [rows][d], the up halves */
  void *scratch, *y;
} gcall;

static void call_packed(void *p) {
  const gcall *c = p;
  actk_status s = c->g->call_packed(NULL, c->x, c->y, c->rows, c->d);
  if (s != ACTK_OK) die(c->g->packed_function, s);
}

static void call_plain(void *p) {
  const gcall *c = p;
  actk_status s = c->g->call(NULL, c->gate, c->up, c->y, c->rows * c->d);
  if (s != ACTK_OK) die(c->g->function, s);
}

static void call_act(void *p) {
  const gcall *c = p;
  actk_status s = actk_op_call(c->act, NULL, c->gate, NULL, 0, c->y, c->rows * c->d, 0.0f);
  if (s != ACTK_OK) die(c->act->function, s);
}

/* ---- the multiply pass: y = a * u, rounded to the type ---- */

static void mul_f32_c(const float *a, const float *u, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = a[i] * u[i];
}

static void mul_bf16_c(const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    y[i] = actk_f32_to_bf16(actk_bf16_to_f32(a[i]) * actk_bf16_to_f32(u[i]));
}

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw"))) static void
mul_bf16_avx512(const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n) {
  size_t i = 0;
  const __m512i bias = _mm512_set1_epi32(0x7fff), one = _mm512_set1_epi32(1);
  for (; i + 16 <= n; i += 16) {
    __m512 af = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)(a + i))), 16));
    __m512 uf = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)(u + i))), 16));
    __m512i pb = _mm512_castps_si512(_mm512_mul_ps(af, uf));
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(pb, 16), one);
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(pb, _mm512_add_epi32(bias, lsb)), 16);
    _mm256_storeu_si256((void *)(y + i), _mm512_cvtepi32_epi16(r));
  }
  mul_bf16_c(a + i, u + i, y + i, n - i);
}
__attribute__((target("avx512f"))) static void mul_f32_avx512(const float *a, const float *u,
                                                              float *y, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(u + i)));
  mul_f32_c(a + i, u + i, y + i, n - i);
}
#endif

static int g_avx512;

static void mul_pass(const gcall *c, const void *a, const void *u, void *y, size_t n) {
  int f32 = c->g->esize == 4;
#if defined(__x86_64__)
  if (g_avx512) {
    if (f32)
      mul_f32_avx512(a, u, y, n);
    else
      mul_bf16_avx512(a, u, y, n);
    return;
  }
#endif
  if (f32)
    mul_f32_c(a, u, y, n);
  else
    mul_bf16_c(a, u, y, n);
}

/* the activation of each row's gate half into scratch, then scratch * up */
static void call_two_pass(void *p) {
  const gcall *c = p;
  size_t es = c->g->esize, d = c->d;
  for (size_t r = 0; r < c->rows; r++) {
    const char *row = (const char *)c->x + 2 * r * d * es;
    actk_status s = actk_op_call(c->act, NULL, row, NULL, 0, (char *)c->scratch + r * d * es, d, 0);
    if (s != ACTK_OK) die(c->act->function, s);
  }
  for (size_t r = 0; r < c->rows; r++)
    mul_pass(c, (const char *)c->scratch + r * d * es, (const char *)c->x + (2 * r + 1) * d * es,
             (char *)c->y + r * d * es, d);
}

typedef struct copy_call {
  void *dst;
  const void *src;
  size_t bytes;
} copy_call;

static void call_copy(void *p) {
  const copy_call *c = p;
  memcpy(c->dst, c->src, c->bytes);
}

int main(int argc, char **argv) {
  const char *ops = NULL, *types = "bf16,f32", *tier = "fast";
  size_t rows = 128, d = 14336;
  for (int i = 1; i < argc; i++) {
    if (bench_flag(argv[i])) continue;
    if (!strcmp(argv[i], "--ops") && i + 1 < argc)
      ops = argv[++i];
    else if (!strcmp(argv[i], "--types") && i + 1 < argc)
      types = argv[++i];
    else if (!strcmp(argv[i], "--tier") && i + 1 < argc)
      tier = argv[++i];
    else if (!strcmp(argv[i], "--rows") && i + 1 < argc)
      rows = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--d") && i + 1 < argc)
      d = strtoul(argv[++i], NULL, 10);
    else {
      fprintf(stderr,
              "usage: %s [--quick] [--csv] [--ops a,b] [--types bf16,f32 (no f16)] [--tier "
              "fast|accurate] "
              "[--rows R] [--d D]\n",
              argv[0]);
      return 2;
    }
  }
  bench_init("actk_gated_bench");
  if (rows == 0 || d == 0) die("rows and d must be positive", ACTK_ERR_INVALID_ARGUMENT);
  /* its inputs and multiply pass are bf16's for a 16-bit type: f16 is actk_ratio --gated's */
  if (bench_in_list(types, "f16"))
    die("f16: use actk_ratio --gated --dtypes f16 (this bench converts as bf16)",
        ACTK_ERR_INVALID_ARGUMENT);
#if defined(__x86_64__)
  __builtin_cpu_init();
  g_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
  bench_header("actk_gated_bench");
  note("rows %zu, d %zu, tier %s, one thread, multiply pass %s", rows, d, tier,
       g_avx512 ? "AVX-512" : "C");
  const size_t n = rows * d;
  static const col cols[] = {{"op", 12},    {"type", 5},    {"packed", 8}, {"plain", 8},
                             {"2-pass", 8}, {"act", 8},     {"copy", 8},   {"pk/2pass", 9},
                             {"pk/act", 7}, {"plain/2p", 9}};
  const int nc = (int)(sizeof cols / sizeof cols[0]);
  t_head("gated", cols, nc);
  for (size_t k = 0; k < actk_gated_catalog_size; k++) {
    const actk_gated_info *g = &actk_gated_catalog[k];
    if (strcmp(g->tier_name, tier) || !bench_in_list(ops, g->name) ||
        !bench_in_list(types, g->type_name))
      continue;
    const actk_op_info *act = actk_catalog_find(g->activation, g->tier_name, g->type_name);
    if (!act) die("no unary entry for a gated op's activation", ACTK_ERR_INVALID_ARGUMENT);
    size_t es = g->esize;
    char *x = xalloc(2 * n * es), *gate = xalloc(n * es), *up = xalloc(n * es);
    char *y = xalloc(n * es), *y2 = xalloc(n * es), *scratch = xalloc(n * es);
    /* gate ~ N(0, 2), up ~ N(0, 1)-ish: a projection's outputs, from a fixed seed */
    uint64_t s = 0x9a7edull + k;
    for (size_t i = 0; i < 2 * n; i++) {
      double u1 = ((double)(actk_splitmix64(&s) >> 11) + 0.5) * 0x1p-53;
      double u2 = ((double)(actk_splitmix64(&s) >> 11) + 0.5) * 0x1p-53;
      float v = (float)(sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
      size_t r = i / (2 * d), j = i % (2 * d);
      if (j < d) v *= 2.0f;
      if (es == 4)
        memcpy(x + i * 4, &v, 4);
      else {
        uint16_t h = actk_f32_to_bf16(v);
        memcpy(x + i * 2, &h, 2);
      }
      memcpy((j < d ? gate + (r * d + j) * es : up + (r * d + j - d) * es), x + i * es, es);
    }
    gcall c = {g, act, rows, d, x, gate, up, scratch, y};
    gcall c2 = c;
    c2.y = y2;
    /* packed == plain, bit for bit; 2-pass close (it rounds twice) */
    call_packed(&c);
    call_plain(&c2);
    if (memcmp(y, y2, n * es)) die("packed and plain differ", ACTK_ERR_INVALID_ARGUMENT);
    call_two_pass(&c2);
    size_t far = 0;
    for (size_t i = 0; i < n; i++) {
      float a, b;
      if (es == 4) {
        memcpy(&a, y + i * 4, 4);
        memcpy(&b, y2 + i * 4, 4);
      } else {
        uint16_t ha, hb;
        memcpy(&ha, y + i * 2, 2);
        memcpy(&hb, y2 + i * 2, 2);
        a = actk_bf16_to_f32(ha);
        b = actk_bf16_to_f32(hb);
      }
      far += fabsf(a - b) > fabsf(a) * (es == 4 ? 0x1p-16f : 0x1p-6f) + 0x1p-120f;
    }
    if (far) die("2-pass far from packed", ACTK_ERR_INVALID_ARGUMENT);
    copy_call cc = {y2, y, n * es};
    variant v[5] = {{"packed", call_packed, &c, NULL, 0, 0, 0, 0},
                    {"plain", call_plain, &c, NULL, 0, 0, 0, 0},
                    {"2-pass", call_two_pass, &c, NULL, 0, 0, 0, 0},
                    {"act", call_act, &c, NULL, 0, 0, 0, 0},
                    {"copy", call_copy, &cc, NULL, 0, 0, 0, 0}};
    measure(v, 5, 0, 0, g_quick ? 1500 : 6000, g_quick ? 3 : 7, 400, median_u64);
    for (int j = 0; j < 5; j++) {
      v[j].med /= (double)n;
      free(v[j].s);
    }
    const char *row[] = {g->name,
                         g->type_name,
                         F("%.3f", v[0].med),
                         F("%.3f", v[1].med),
                         F("%.3f", v[2].med),
                         F("%.3f", v[3].med),
                         F("%.3f", v[4].med),
                         F("%.2f", v[0].med / v[2].med),
                         F("%.2f", v[0].med / v[3].med),
                         F("%.2f", v[1].med / v[2].med)};
    t_row("gated", cols, nc, row);
    free(x), free(gate), free(up), free(y), free(y2), free(scratch);
  }
  note("ns per output element, medians; pk/2pass <= 0.6 and pk/act <= 1.2 are issue 23's bars "
       "(bf16, fast tier)");
  return 0;
}
