/* actk: the program to run first. Says which library and ISA you got and why,
 * how fast each op is here (both tiers, every type) against a plain libm
 * loop, and whether each op on each ISA is within its documented bound.
 *
 *   actk [--full] [--quick] [--isa NAME] [--help]
 *
 * By default (the demo README runs first; seconds): the active ISA only, the
 * f32 entries of every op of the catalog in both tiers (the param ops at the
 * catalog's default parameter: swish at alpha 1, elu at alpha 1), the gated
 * ops and RoPE, one speed row and one accuracy row each, on a sparse sample
 * (every 65537th f32 bit pattern). --full: every ISA this machine supports,
 * every type (f16, bf16 over all 65536 inputs), the packed gated forms, and
 * the denser sample below (about a minute or more).
 *
 * Speed: ns per element at n = 65536 on the calling thread, the fastest of
 * many calls timed one by one in interleaved repeats (each ISA and the libm
 * loop take turns, so a noisy neighbour hits them alike; noise only adds
 * time, so the fastest call is the one a busy machine disturbs least). A
 * value whose median call is more than 30% slower than its fastest is marked:
 * the machine was too busy for the figure to mean much. Input x ~ N(0, 3) clipped to [-12, 12] (the
 * 16-bit rows: the same values rounded to the type).
 * Accuracy, against the double references of tools/reference.c: f32, every
 * 4099th float bit pattern (every 65537th with --quick) plus special values:
 * the accurate tier's max error in ULPs (PASS at <= 2), the fast tier's max
 * relative error (PASS at <= 2^-18); f16 and bf16, all 65536 inputs: the max
 * error in ULPs of the type and the share correctly rounded (PASS when every
 * result is faithful).
 * The gated ops (y = activation(gate) * up, tools/catalog.h's
 * actk_gated_catalog): speed of the plain form (gate as x above, up ~ N(0, 1)
 * clipped to [-4, 4]) and of the packed form (x = [16, 2 x 4096]) per output
 * element; accuracy of the plain form (the packed one is it row by row, bit
 * for bit: tests/test_gated.c) with up = +-2^k, so that the exact product is
 * the activation's reference scaled: f32 over the same gates, k in [-24, 0],
 * held to the activation's bound plus half an ULP (its rounding where the
 * product is subnormal; relative: 2^-24); 16-bit over all 65536 gates, k
 * stepping through every exponent of the type, faithful to the exact product
 * (an activation below 2^-126, a subnormal float, within its own absolute
 * bound times up, as tests/test_gated.c holds it).
 * Both tables have one column per ISA this machine supports (every ISA the
 * library names, in its order: scalar, avx2, avx512, neon, ...); --isa NAME
 * measures that ISA only (`actk --help` lists the names). Exit status: 0, 1
 * if an accuracy check fails, 2 on a usage error or an ISA that cannot run
 * here. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "actk.h"
#include "catalog.h"
#include "exact.h"
#include "harness.h"
#include "libm_loops.h"
#include "reference.h"

/* the op column: the longest label, "geglu_tanh_packed/bf16/fast", and a space */
#define CLI_NAME_W "28"

#define SPEED_N 65536
#define BIAS_WIDTH 4096
#define PACKED_D 4096 /* the packed gated rows' d: SPEED_N / PACKED_D rows */
#define MAX_ISAS 8

/* ---- the ops: the catalog's unary and bias ops, and the gated ops ---- */

/* What an op is held to: the accurate f32 tier in ULP, the fast f32 tier in
 * relative error, the 16-bit types faithful (in ULPs of the type). */
typedef enum { M_ULP, M_REL, M_TYPE } measure;

typedef struct {
  const char *name;             /* the label */
  const actk_op_info *info;     /* its ref: of x, or of the float sum x + bias for a bias op;
                                   gated ops: the f32 entry of their activation, same tier */
  const actk_gated_info *gated; /* gated ops, else NULL */
  actk_libm_loop_fn libm;       /* NULL if there is no libm loop for it */
  double bound;                 /* in m's unit */
  measure m;
  int packed;  /* gated ops: the packed form */
  float alpha; /* param ops: the catalog's default parameter (unary_alpha) */
  char label[40];
} cli_op;

static measure measure_of(const actk_op_info *e) {
  return e->esize == 2 ? M_TYPE : e->bound_rel > 0 ? M_REL : M_ULP;
}

/* Every op of the catalog: f32 first (accurate, fast), then (full) the
 * 16-bit types. Labels: gelu, gelu/fast, gelu/bf16, gelu/bf16/fast; a param
 * op with its parameter: swish(1). */
static size_t collect_ops(cli_op *out, size_t cap, int full) {
  size_t k = 0;
  for (int pass = 0; pass < (full ? 2 : 1); pass++) /* f32, then the rest */
    for (size_t i = 0; i < actk_catalog_size && k < cap; i++) {
      const actk_op_info *e = &actk_catalog[i];
      if ((e->esize == 4) != (pass == 0)) continue;
      cli_op *c = &out[k++];
      c->info = e;
      c->alpha = e->shape == ACTK_SHAPE_PARAM ? e->unary_alpha : 0.0f;
      c->libm = e->esize == 4 && e->tier == 0 && e->shape != ACTK_SHAPE_PARAM
                    ? actk_libm_loop_for(e->name)
                    : NULL;
      char param[24] = "";
      if (e->shape == ACTK_SHAPE_PARAM) snprintf(param, sizeof param, "(%g)", (double)c->alpha);
      snprintf(c->label, sizeof c->label, "%s%s%s%s%s%s", e->name, param, e->esize == 4 ? "" : "/",
               e->esize == 4 ? "" : e->type_name, e->tier ? "/" : "", e->tier ? e->tier_name : "");
      c->name = c->label;
      c->gated = NULL;
      c->packed = 0;
      c->m = measure_of(e);
      c->bound = c->m == M_REL ? e->bound_rel : e->bound_ulp;
    }
  /* the gated ops, f32 then (full) the rest, each plain then (full) packed */
  for (int pass = 0; pass < (full ? 2 : 1); pass++)
    for (size_t i = 0; i < actk_gated_catalog_size; i++)
      for (int packed = 0; packed < (full ? 2 : 1) && k < cap; packed++) {
        const actk_gated_info *g = &actk_gated_catalog[i];
        const actk_op_info *act = actk_catalog_find(g->activation, g->tier_name, "f32");
        if ((g->esize == 4) != (pass == 0) || !act) continue;
        cli_op *c = &out[k++];
        c->info = act;
        c->gated = g;
        c->packed = packed;
        c->alpha = 0.0f;
        c->libm = NULL;
        snprintf(c->label, sizeof c->label, "%s%s%s%s%s%s", g->name, packed ? "_packed" : "",
                 g->esize == 4 ? "" : "/", g->esize == 4 ? "" : g->type_name, g->tier ? "/" : "",
                 g->tier ? g->tier_name : "");
        c->name = c->label;
        /* f32: up = +-2^k carries the activation's error into y as it is,
         * and where the product is subnormal its rounding adds half an ULP
         * (2^-150 of the relative measure's floor 2^-126: 2^-24) */
        c->m = g->esize == 2 ? M_TYPE : measure_of(act);
        c->bound = c->m == M_REL ? act->bound_rel + 0x1p-24 : act->bound_ulp + 0.5;
      }
  return k;
}

/* x, b, y: buffers of the op's element type (n must be a multiple of
 * BIAS_WIDTH for a bias op). Gated ops: x the gate and b up; packed: x the
 * [n / PACKED_D, 2 PACKED_D] input (n a multiple of PACKED_D). */
static actk_status run_op(const cli_op *op, const void *x, const void *b, void *y, size_t n) {
  if (op->gated)
    return op->packed ? op->gated->call_packed(NULL, x, y, n / PACKED_D, PACKED_D)
                      : op->gated->call(NULL, x, b, y, n);
  return actk_op_call(op->info, NULL, x, b, BIAS_WIDTH, y, n, op->alpha);
}

/* The 16-bit format of an op's type, or NULL for f32. */
static const actk_fmt16 *fmt_named(size_t esize, const char *type_name) {
  if (esize == 4) return NULL;
  return strcmp(type_name, "f16") == 0 ? &actk_fmt_f16 : &actk_fmt_bf16;
}
static const actk_fmt16 *fmt_of(const cli_op *op) {
  return op->gated ? fmt_named(op->gated->esize, op->gated->type_name)
                   : fmt_named(op->info->esize, op->info->type_name);
}

/* x rounded to an op's type: the op's input buffer (f32: x itself). */
typedef struct {
  const float *f32;
  uint16_t *f16, *bf16;
} typed_input;

static const void *input_for(const typed_input *in, const actk_fmt16 *f) {
  return !f ? (const void *)in->f32 : f == &actk_fmt_f16 ? (const void *)in->f16 : in->bf16;
}

static void round_to_types(const float *x, size_t n, uint16_t *f16, uint16_t *bf16) {
  for (size_t i = 0; i < n; i++) {
    f16[i] = actk_fmt16_round(&actk_fmt_f16, (double)x[i]);
    bf16[i] = actk_fmt16_round(&actk_fmt_bf16, (double)x[i]);
  }
}

/* ---- data ---- */

/* N(0, sigma) clipped to [-clip, clip]: the same input as bench/. */
static void fill_normal(float *x, size_t n, uint64_t seed, double sigma, double clip) {
  actk_fill_normal(x, n, seed, sigma, clip);
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "actk: out of memory\n");
    exit(2);
  }
  return p;
}

static double now_ns(void) { return (double)actk_now_ns(); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The fastest of n samples, and whether their median is over NOISY times it. */
#define NOISY 1.3
typedef struct {
  double best;
  int noisy;
} timing;

static timing summarize(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return (timing){v[0], med > NOISY * v[0]};
}

/* ---- options ---- */

typedef struct {
  int quick, full;
  int repeats, calls;
  uint32_t stride;
  actk_isa isas[MAX_ISAS];
  int n_isas;
} options;

static void usage(FILE *f) {
  fprintf(f, "usage: actk [--full] [--quick] [--isa NAME] [--help]\n"
             "  (default: the active isa, f32, one speed and one accuracy row per op)\n"
             "  --full      every supported isa, every type, the packed gated forms,\n"
             "              a denser accuracy sample\n"
             "  --quick     with --full: smaller accuracy sample and fewer timing repeats\n"
             "  --isa NAME  measure only this isa (");
  for (int v = 0; actk_isa_name((actk_isa)v); v++)
    fprintf(f, "%s%s", v ? ", " : "", actk_isa_name((actk_isa)v));
  fprintf(f, ")\n"
             "Exit status: 0 ok, 1 an accuracy check failed, 2 usage or isa error.\n");
}

/* ---- the three parts ---- */

static void print_facts(const options *o) {
  unsigned v = actk_version();
  printf("actk %s (library %u.%u.%u, header %d.%d.%d%s)\n", actk_version_string(), v / 10000,
         v / 100 % 100, v % 100, ACTK_VERSION_MAJOR, ACTK_VERSION_MINOR, ACTK_VERSION_PATCH,
         v == ACTK_VERSION ? "" : " -- MISMATCH");
  printf("active isa: %s -- %s\n", actk_isa_name(actk_isa_active()), actk_isa_reason());
  printf("cpu:        %s\n", actk_cpu_summary());
  printf("isas:      ");
  for (int v = 0; actk_isa_name((actk_isa)v); v++)
    printf(" %s (%s)", actk_isa_name((actk_isa)v),
           actk_isa_supported((actk_isa)v) ? "supported" : "not supported here");
  printf("\nmeasuring: ");
  for (int a = 0; a < o->n_isas; a++) printf("%s%s", a ? ", " : "", actk_isa_name(o->isas[a]));
  printf(" and a plain libm loop\n");
}

static int force(actk_isa isa) {
  if (actk_isa_force(isa) != ACTK_OK || actk_isa_active() != isa) {
    fprintf(stderr, "actk: could not switch to isa %s\n", actk_isa_name(isa));
    return 0;
  }
  return 1;
}

/* Returns 0 if an actk call failed. */
static int speed(const options *o, const cli_op *ops, size_t n_ops) {
  const size_t n = SPEED_N;
  float *x = xmalloc(n * sizeof *x), *y = xmalloc(n * sizeof *y);
  float *b = xmalloc(BIAS_WIDTH * sizeof *b);
  uint16_t *x16 = xmalloc(n * 2), *xb16 = xmalloc(n * 2), *b16 = xmalloc(BIAS_WIDTH * 2);
  uint16_t *bb16 = xmalloc(BIAS_WIDTH * 2);
  fill_normal(x, n, 0x61636b746b5f78ULL, 3.0, 12.0);
  fill_normal(b, BIAS_WIDTH, 0x61636b746b5f62ULL, 1.0, 4.0);
  round_to_types(x, n, x16, xb16);
  round_to_types(b, BIAS_WIDTH, b16, bb16);
  /* the gated ops' up, and the packed input: rows of [gate | up] */
  float *u = xmalloc(n * sizeof *u), *pk = xmalloc(2 * n * sizeof *pk);
  uint16_t *u16 = xmalloc(n * 2), *ub16 = xmalloc(n * 2);
  uint16_t *pk16 = xmalloc(2 * n * 2), *pkb16 = xmalloc(2 * n * 2);
  fill_normal(u, n, 0x61636b746b5f75ULL, 1.0, 4.0);
  for (size_t i = 0; i < n; i++) {
    size_t r = i / PACKED_D, j = i % PACKED_D;
    pk[2 * r * PACKED_D + j] = x[i];
    pk[2 * r * PACKED_D + PACKED_D + j] = u[i];
  }
  round_to_types(u, n, u16, ub16);
  round_to_types(pk, 2 * n, pk16, pkb16);
  const typed_input xin = {x, x16, xb16}, bin = {b, b16, bb16}, uin = {u, u16, ub16};
  const typed_input pin = {pk, pk16, pkb16};
  memset(y, 0, n * sizeof *y);
  const int nimpl = o->n_isas + 1;       /* ISAs, then libm */
  const int per = o->repeats * o->calls; /* samples per implementation */
  double *t = xmalloc((size_t)nimpl * (size_t)per * sizeof *t);
  int ok = 1, any_noisy = 0;

  printf("\nspeed: ns/element at n = %zu, one thread, the fastest of %d interleaved repeats x %d "
         "calls\n       timed one by one; input x ~ N(0, 3) clipped to [-12, 12]; bias ops use "
         "rows of %d;\n       gated ops: gate = x, up ~ N(0, 1) clipped to [-4, 4], packed x = "
         "[%d, 2 x %d], per output element\n",
         n, o->repeats, o->calls, BIAS_WIDTH, (int)(n / PACKED_D), PACKED_D);
  printf("%-" CLI_NAME_W "s", "op");
  for (int a = 0; a < o->n_isas; a++) printf(" %9s %8s", actk_isa_name(o->isas[a]), "vs libm");
  printf(" %9s\n", "libm");

  for (size_t k = 0; k < n_ops && ok; k++) {
    const cli_op *op = &ops[k];
    const actk_fmt16 *f = fmt_of(op);
    const void *xo = input_for(op->packed ? &pin : &xin, f);
    const void *bo = input_for(op->gated ? &uin : &bin, f);
    for (int r = 0; r < o->repeats && ok; r++) {
      for (int a = 0; a < nimpl && ok; a++) {
        int is_libm = a == o->n_isas;
        double *slot = t + a * per + r * o->calls;
        if (is_libm && !op->libm) {
          for (int c = 0; c < o->calls; c++) slot[c] = NAN;
          continue;
        }
        if (!is_libm && !force(o->isas[a])) ok = 0;
        if (r == 0) { /* one untimed call: warm code and data */
          if (is_libm)
            op->libm(x, b, BIAS_WIDTH, y, n);
          else if (run_op(op, xo, bo, y, n) != ACTK_OK)
            ok = 0;
        }
        for (int c = 0; c < o->calls && ok; c++) {
          double t0 = now_ns();
          if (is_libm)
            op->libm(x, b, BIAS_WIDTH, y, n);
          else if (run_op(op, xo, bo, y, n) != ACTK_OK)
            ok = 0;
          slot[c] = (now_ns() - t0) / (double)n;
        }
        if (!is_libm && actk_isa_active() != o->isas[a]) ok = 0;
      }
    }
    if (!ok) {
      printf("%-" CLI_NAME_W "s actk call failed or the isa changed under it\n", op->name);
      break;
    }
    timing libm = op->libm ? summarize(t + o->n_isas * per, per) : (timing){NAN, 0};
    printf("%-" CLI_NAME_W "s", op->name);
    for (int a = 0; a < o->n_isas; a++) {
      timing m = summarize(t + a * per, per);
      any_noisy |= m.noisy;
      if (op->libm)
        printf(" %8.3f%c %7.1fx", m.best, m.noisy ? '~' : ' ', libm.best / m.best);
      else
        printf(" %8.3f%c %8s", m.best, m.noisy ? '~' : ' ', "-");
    }
    any_noisy |= libm.noisy;
    if (op->libm)
      printf(" %8.3f%c\n", libm.best, libm.noisy ? '~' : ' ');
    else
      printf(" %9s\n", "-");
    fflush(stdout);
  }
  if (any_noisy)
    printf("~ the median call was over %.0f%% slower than the fastest: this machine is busy, and "
           "the figure may be off (rerun, or see bench/ for a longer comparison)\n",
           (NOISY - 1) * 100);
  free(t);
  free(x);
  free(y);
  free(b);
  free(x16);
  free(xb16);
  free(b16);
  free(bb16);
  free(u);
  free(pk);
  free(u16);
  free(ub16);
  free(pk16);
  free(pkb16);
  return ok;
}

static const uint32_t special_bits[] = {
    0x00000000u, 0x80000000u,                           /* +-0 */
    0x7f800000u, 0xff800000u,                           /* +-inf */
    0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu, /* NaNs, one signaling */
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* subnormal min, max */
    0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu, /* FLT_MIN, FLT_MAX */
    0x3f800000u, 0xbf800000u, 0x3f000000u, 0xbf000000u, /* +-1, +-0.5 */
    0x1e3ce508u, 0x9e3ce508u, 0x33d6bf95u, 0xb3d6bf95u, /* +-1e-20, +-1e-7 */
    0x41100000u, 0xc1100000u, 0x41200000u, 0xc1200000u, /* +-9, +-10 */
    0x42b17218u, 0xc2b17218u, 0x42b20000u, 0xc2b20000u, /* +-88.72 (exp overflow), +-89 */
    0x42c80000u, 0xc2c80000u,                           /* +-100 */
};
#define N_SPECIALS (sizeof special_bits / sizeof special_bits[0])

typedef struct {
  double max_err; /* in the op's unit: ULP, relative, or ULP of the 16-bit type */
  double worst_x; /* the function's argument (x + bias for bias ops) */
  double worst_y, worst_ref;
  size_t over;        /* inputs over the bound (16-bit: not faithful) */
  double correct_pct; /* 16-bit: the share correctly rounded */
  int call_failed;
} acc_result;

/* f32 inputs (n, whole rows) or the 65536 16-bit patterns: one op on the
 * active ISA, against the references. */
static void evaluate(const cli_op *op, const float *x, size_t n, const float *b,
                     const uint16_t *b16, const double *ref, void *y, acc_result *r) {
  const actk_op_info *e = op->info;
  const measure m = op->m;
  const actk_fmt16 *f = fmt_of(op);
  const int bias = e->shape == ACTK_SHAPE_BIAS;
  r->max_err = -1;
  if (m == M_TYPE) {
    static uint16_t x16[65536];
    for (uint32_t i = 0; i < 65536; i++) x16[i] = (uint16_t)i;
    if (run_op(op, x16, b16, y, 65536) != ACTK_OK) {
      r->call_failed = 1;
      return;
    }
    const uint16_t *y16 = y;
    size_t correct = 0, counted = 0;
    for (uint32_t i = 0; i < 65536; i++) {
      double xv = actk_fmt16_value(f, x16[i]);
      if (isnan(xv)) continue; /* NaN in: checked by the tests, bit for bit */
      double arg =
          bias ? (double)((float)xv + (float)actk_fmt16_value(f, b16[i % BIAS_WIDTH])) : xv;
      actk_xval tv = actk_xval_of(e->xref, arg, (double)op->alpha);
      double rv = actk_x_approx(&tv);
      actk_check16 c = actk_x_check16(f, y16[i], &tv); /* ties settled exactly */
      counted++;
      correct += (size_t)c.correct;
      if (!c.faithful) r->over++;
      if (c.ulp > r->max_err) {
        r->max_err = c.ulp;
        r->worst_x = arg;
        r->worst_y = actk_fmt16_value(f, y16[i]);
        r->worst_ref = rv;
      }
    }
    r->correct_pct = 100.0 * (double)correct / (double)counted;
    return;
  }
  if (run_op(op, x, b, y, n) != ACTK_OK) {
    r->call_failed = 1;
    return;
  }
  const float *yf = y;
  const double bound = op->bound;
  for (size_t j = 0; j < n; j++) {
    double err = m == M_REL ? actk_rel_error(yf[j], ref[j]) : actk_ulp_error(yf[j], ref[j]);
    if (err > bound) r->over++;
    if (err > r->max_err) {
      r->max_err = err;
      r->worst_x = bias ? (double)(x[j] + b[j % BIAS_WIDTH]) : (double)x[j];
      r->worst_y = yf[j];
      r->worst_ref = ref[j];
    }
  }
}

/* ---- the gated ops' accuracy ---- */

/* up element i, +-2^k: f32 k in [-24, 0]; 16-bit k through every exponent
 * of the type (kmin .. kmax), at a stride co-prime to the count so that
 * neighbouring gates meet different ones; the sign alternates in threes */
static double gated_up(size_t i, int kmin, int kmax) {
  int span = kmax - kmin + 1;
  return ((i / 3) % 2 ? -1.0 : 1.0) * ldexp(1.0, kmin + (int)(i * 7 % (size_t)span));
}

/* The value one step from a finite 16-bit pattern's, away from zero or
 * toward it (past the largest finite value: the next power of two, 2^(2 -
 * emin); zero's steps are the smallest subnormals). */
static double step16(const actk_fmt16 *f, uint16_t h, int away) {
  uint16_t mag = h & 0x7fff;
  double sign = h >> 15 ? -1.0 : 1.0;
  if (mag == 0) return away ? ldexp(1.0, f->emin - f->mant) : 0.0;
  if (away && mag + 1 == f->inf) return sign * ldexp(1.0, 2 - f->emin);
  return actk_fmt16_value(f, (uint16_t)(away ? h + 1 : h - 1));
}

/* sign(p - c) for the exact product p = s 2^k t: s 2^k (t - s c 2^-k) */
static int cmp_prod(const actk_xval *t, int s, int k, double c) {
  return s * actk_x_cmp(t, s * ldexp(c, -k));
}

/* A 16-bit gated result y for the product of t and up = s 2^k, decided
 * exactly: faithful (an activation below 2^-126 within its absolute bound
 * times up: slack), correctly rounded; the error in ULPs of the type. */
static void judge_gated16(const actk_fmt16 *f, uint16_t y, const actk_xval *t, int s, int k,
                          double slack, acc_result *r, size_t *correct) {
  double v = actk_fmt16_value(f, y), err;
  int ok, cr;
  if (isnan(v)) {
    ok = cr = 0, err = INFINITY;
  } else if (t->exact && (t->hi == 0 || isinf(t->hi))) {
    double want = s * t->hi;
    ok = cr = v == want && signbit(v) == signbit(want);
    err = ok ? 0 : INFINITY;
  } else if (isinf(v)) {
    /* only where p rounds to it: past the largest value plus half an ULP */
    uint16_t maxf = (uint16_t)(f->inf - 1);
    double mid = (actk_fmt16_value(f, maxf) + step16(f, maxf, 1)) / 2;
    ok = cr = v > 0 ? cmp_prod(t, s, k, mid) >= 0 : cmp_prod(t, s, k, -mid) <= 0;
    err = ok ? 0 : INFINITY;
  } else {
    /* the neighbours below and above v */
    double a = step16(f, y, 0), b = step16(f, y, 1);
    double lo = v > 0 || (v == 0 && !signbit(v)) ? a : b, hi = lo == a ? b : a;
    if (v == 0) lo = -ldexp(1.0, f->emin - f->mant), hi = -lo;
    ok = cmp_prod(t, s, k, lo) > 0 && cmp_prod(t, s, k, hi) < 0;
    int by_slack = 0;
    if (!ok && actk_x_cmp(t, 0x1p-126) < 0 && actk_x_cmp(t, -0x1p-126) > 0)
      ok = by_slack = cmp_prod(t, s, k, lo - slack) > 0 && cmp_prod(t, s, k, hi + slack) < 0;
    int even = (y & 1u) == 0;
    int clo = cmp_prod(t, s, k, (lo + v) / 2), chi = cmp_prod(t, s, k, (v + hi) / 2);
    cr = (clo > 0 || (clo == 0 && even)) && (chi < 0 || (chi == 0 && even));
    double p = s * ldexp(actk_x_approx(t), k), ap = fabs(p);
    int e = ap > 0 ? ilogb(ap) : f->emin;
    err = fabs(v - p) / ldexp(1.0, (e > f->emin ? e : f->emin) - f->mant);
    /* held to an absolute bound there, not to ULPs of the product */
    if (by_slack) err = 0;
  }
  *correct += (size_t)cr;
  if (!ok) r->over++;
  if (err > r->max_err) r->max_err = err;
}

/* A plain gated op on the active ISA: f32 over the gates x[0..n) against the
 * activation's double reference act_ref[j] times up; 16-bit over every gate
 * pattern against the exact product. */
static void evaluate_gated(const cli_op *op, const float *x, size_t n, const double *act_ref,
                           void *y, acc_result *r) {
  const actk_gated_info *g = op->gated;
  const actk_fmt16 *f = fmt_of(op);
  r->max_err = -1;
  if (!f) {
    float *up = xmalloc(n * sizeof *up);
    for (size_t j = 0; j < n; j++) up[j] = (float)gated_up(j, -24, 0);
    if (g->call(NULL, x, up, y, n) != ACTK_OK) r->call_failed = 1;
    const float *yf = y;
    for (size_t j = 0; j < n && !r->call_failed; j++) {
      double ref = act_ref[j] * up[j]; /* exact: up is a power of two */
      double err = op->m == M_REL ? actk_rel_error(yf[j], ref) : actk_ulp_error(yf[j], ref);
      if (err > op->bound) r->over++;
      if (err > r->max_err) {
        r->max_err = err;
        r->worst_x = x[j];
        r->worst_y = yf[j];
        r->worst_ref = ref;
      }
    }
    free(up);
    return;
  }
  enum { N16 = 65536 };
  const int kmin = f->emin - f->mant, kmax = 1 - f->emin;
  uint16_t *gt = xmalloc(N16 * 2), *up = xmalloc(N16 * 2);
  for (size_t i = 0; i < N16; i++) {
    gt[i] = (uint16_t)i;
    up[i] = actk_fmt16_round(f, gated_up(i, kmin, kmax));
  }
  if (g->call(NULL, gt, up, y, N16) != ACTK_OK) r->call_failed = 1;
  /* the activation's own absolute bound where it is an f32 subnormal */
  const double slack0 = op->info->bound_rel > 0 ? 0x1p-144 : 0x1p-148;
  size_t correct = 0, counted = 0;
  for (size_t i = 0; i < N16 && !r->call_failed; i++) {
    double gv = actk_fmt16_value(f, gt[i]);
    if (isnan(gv)) continue; /* NaN in: checked by the tests, bit for bit */
    int k = kmin + (int)(i * 7 % (size_t)(kmax - kmin + 1)), s = (i / 3) % 2 ? -1 : 1;
    actk_xval t = actk_xval_of(op->info->xref, gv, 0.0);
    counted++;
    judge_gated16(f, ((const uint16_t *)y)[i], &t, s, k, ldexp(slack0, k), r, &correct);
  }
  r->correct_pct = counted ? 100.0 * (double)correct / (double)counted : 0;
  free(gt);
  free(up);
}

static int passes(const cli_op *op, const acc_result *r) {
  if (r->call_failed) return 0;
  return op->m == M_TYPE ? r->over == 0 : r->max_err <= op->bound;
}

static void format_err(const cli_op *op, const acc_result *r, char *buf, size_t size) {
  if (r->call_failed)
    snprintf(buf, size, "error");
  else if (op->m == M_TYPE)
    snprintf(buf, size, "%.2f %.1f%%", r->max_err, r->correct_pct);
  else if (op->m == M_REL)
    snprintf(buf, size, r->max_err > 0 ? "2^%.1f" : "0", log2(r->max_err));
  else
    snprintf(buf, size, "%.3f", r->max_err);
}

/* Returns 1 if every checked op on every ISA passed. */
static int accuracy(const options *o, const cli_op *ops, size_t n_ops) {
  size_t n_pat = (size_t)((UINT64_C(1) << 32) / o->stride) + 1; /* 0, s, 2s, ... < 2^32 */
  size_t n = n_pat + N_SPECIALS;
  n = (n + BIAS_WIDTH - 1) / BIAS_WIDTH * BIAS_WIDTH; /* whole rows for the bias ops */
  float *x = xmalloc(n * sizeof *x), *y = xmalloc((n > 65536 ? n : 65536) * sizeof *y);
  float *b = xmalloc(BIAS_WIDTH * sizeof *b);
  uint16_t *b16 = xmalloc(BIAS_WIDTH * 2), *bb16 = xmalloc(BIAS_WIDTH * 2);
  double *ref = xmalloc(n * sizeof *ref);
  size_t i = 0;
  for (uint64_t p = 0; p < (UINT64_C(1) << 32); p += o->stride) x[i++] = from_bits((uint32_t)p);
  for (size_t s = 0; s < N_SPECIALS; s++) x[i++] = from_bits(special_bits[s]);
  for (; i < n; i++) x[i] = 1.0f; /* padding to whole rows */
  fill_normal(b, BIAS_WIDTH, 0x61636b746b5f62ULL, 1.0, 4.0);
  round_to_types(b, BIAS_WIDTH, b16, bb16);
  acc_result *res = xmalloc(n_ops * (size_t)o->n_isas * sizeof *res);
  int all_ok = 1;

  printf("\naccuracy vs the references (bias ops: of the float sum x + bias, N(0,1) bias;\n"
         "  16-bit: the exact reference, ties settled; f32: its double approximation)\n"
         "  f32: %zu bit patterns (every %u-th) + %zu specials; accurate: max ULP (bound 2),\n"
         "       fast: max relative error (bound 2^-18)\n"
         "  f16, bf16: all 65536 inputs; max error in ULPs of the type and the share correctly\n"
         "       rounded (bound: every result faithful)\n"
         "  gated ops (plain; packed is it row by row): up = +-2^k, y vs the exact product;\n"
         "       f32 over the same gates, k in [-24, 0], bound the activation's + 0.5 ULP\n"
         "       (fast: + 2^-24); 16-bit over all gates, k through every exponent: faithful\n",
         n_pat, o->stride, (size_t)N_SPECIALS);
  printf("%-" CLI_NAME_W "s", "op");
  for (int a = 0; a < o->n_isas; a++) printf(" %18s", actk_isa_name(o->isas[a]));
  printf("\n");

  for (size_t k = 0; k < n_ops; k++) {
    const cli_op *op = &ops[k];
    if (op->packed) continue; /* the plain form row by row, bit for bit */
    if (op->m != M_TYPE)
      for (size_t j = 0; j < n; j++) {
        float arg = op->info->shape == ACTK_SHAPE_BIAS ? x[j] + b[j % BIAS_WIDTH] : x[j];
        ref[j] = op->info->shape == ACTK_SHAPE_PARAM
                     ? op->info->ref_param((double)arg, (double)op->alpha)
                     : op->info->ref((double)arg);
      }
    const uint16_t *bt = fmt_of(op) == &actk_fmt_f16 ? b16 : bb16;
    printf("%-" CLI_NAME_W "s", op->name);
    for (int a = 0; a < o->n_isas; a++) {
      acc_result *r = &res[k * (size_t)o->n_isas + (size_t)a];
      memset(r, 0, sizeof *r);
      if (!force(o->isas[a]))
        r->call_failed = 1;
      else if (op->gated)
        evaluate_gated(op, x, n, ref, y, r);
      else
        evaluate(op, x, n, b, bt, ref, y, r);
      if (actk_isa_active() != o->isas[a]) r->call_failed = 1;
      int pass = passes(op, r);
      all_ok &= pass;
      char num[24];
      format_err(op, r, num, sizeof num);
      printf(" %13s %s", num, pass ? "PASS" : "FAIL");
    }
    printf("\n");
    fflush(stdout);
  }

  for (size_t k = 0; k < n_ops; k++)
    for (int a = 0; a < o->n_isas && !ops[k].packed; a++) {
      const acc_result *r = &res[k * (size_t)o->n_isas + (size_t)a];
      if (r->call_failed)
        printf("  FAIL %s on %s: the call failed or ran on another isa\n", ops[k].name,
               actk_isa_name(o->isas[a]));
      else if (!passes(&ops[k], r))
        printf("  FAIL %s on %s: max %.4g at %s = %a (%.9g), y = %a, ref = %a; %zu input(s) "
               "over the bound\n",
               ops[k].name, actk_isa_name(o->isas[a]), r->max_err,
               ops[k].gated                            ? "gate"
               : ops[k].info->shape == ACTK_SHAPE_BIAS ? "x + bias"
                                                       : "x",
               r->worst_x, r->worst_x, r->worst_y, r->worst_ref, r->over);
    }
  printf("accuracy: %s\n", all_ok ? "PASS" : "FAIL");
  free(res);
  free(ref);
  free(x);
  free(y);
  free(b);
  free(b16);
  free(bb16);
  return all_ok;
}

/* ---- RoPE (not an element-wise op: outside the catalog) ----
 * f32, split-half, [B, S, H, D] = [1, 16, 32, 128] (65536 elements), full
 * rotary, positions 1000 + s, caches from actk_rope_cache_f32 (theta 10000).
 * Speed as above; accuracy against a' = a c - b s, b' = b c + a s in double
 * over the f32 inputs and caches, in ULPs of |a c| + |b s| (b': |b c| + |a s|;
 * the magnitude the two roundings are made at: fl(b s), then one rounding of
 * the fused a c - fl(b s); bound 1, as a difference may cancel). Returns 0 on
 * a failure. */
static double rope_err(float y, double a, double b, double c, double s, int first) {
  double r = first ? a * c - b * s : b * c + a * s;
  double m = first ? fabs(a * c) + fabs(b * s) : fabs(b * c) + fabs(a * s);
  if (m == 0) return y == 0 ? 0 : INFINITY;
  int e;
  frexp(m, &e); /* m in [2^(e-1), 2^e) */
  return fabs((double)y - r) / ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
}

static int rope(const options *o) {
  enum { S = 16, H = 32, D = 128, MAXP = 2048, START = 1000 };
  const size_t n = (size_t)S * H * D;
  float *x = xmalloc(n * sizeof *x), *y = xmalloc(n * sizeof *y);
  float *cs = xmalloc((size_t)MAXP * (D / 2) * sizeof *cs);
  float *sn = xmalloc((size_t)MAXP * (D / 2) * sizeof *sn);
  fill_normal(x, n, 0x61636b746b5f72ULL, 1.0, 4.0);
  int ok = actk_rope_cache_f32(cs, sn, MAXP, D, 10000.0) == ACTK_OK;
  actk_rope_desc d;
  actk_rope_desc_init(&d);
  d.batch = 1, d.seq_len = S, d.heads = H, d.head_size = D, d.rotary_dim = D;
  d.max_position = MAXP, d.position_start = START;
  double best[MAX_ISAS], err[MAX_ISAS];
  for (int a = 0; a < o->n_isas && ok; a++) {
    ok = force(o->isas[a]) && actk_rope_f32(NULL, &d, x, NULL, cs, sn, y) == ACTK_OK;
    double t[64];
    const int per = o->repeats * o->calls < 64 ? o->repeats * o->calls : 64;
    for (int c = 0; c < per && ok; c++) {
      double t0 = now_ns();
      ok = actk_rope_f32(NULL, &d, x, NULL, cs, sn, y) == ACTK_OK;
      t[c] = (now_ns() - t0) / (double)n;
    }
    best[a] = ok ? summarize(t, per).best : NAN;
    err[a] = 0;
    for (size_t tok = 0; tok < (size_t)S * H && ok; tok++) {
      const size_t p = (size_t)START + tok / H;
      const float *xi = x + tok * D, *yi = y + tok * D;
      for (size_t j = 0; j < D / 2; j++) {
        double av = xi[j], bv = xi[j + D / 2], c = cs[p * (D / 2) + j], sv = sn[p * (D / 2) + j];
        double e0 = rope_err(yi[j], av, bv, c, sv, 1),
               e1 = rope_err(yi[j + D / 2], av, bv, c, sv, 0);
        if (e0 > err[a]) err[a] = e0;
        if (e1 > err[a]) err[a] = e1;
      }
    }
  }
  printf("\nrope f32 (split-half, [1, %d, %d, %d], positions %d..%d; error in ULPs of |a c| + |b "
         "s| (b': |b c| + |a s|), bound 1)\n%-" CLI_NAME_W "s",
         S, H, D, START, START + S - 1, "rope");
  int pass = ok;
  for (int a = 0; a < o->n_isas; a++) {
    int p = ok && err[a] <= 1.0;
    pass &= p;
    printf(" %s: %.3f ns/element, max %.3f %s ", actk_isa_name(o->isas[a]), ok ? best[a] : NAN,
           ok ? err[a] : NAN, p ? "PASS" : "FAIL");
  }
  printf("\n");
  free(x), free(y), free(cs), free(sn);
  return pass;
}

int main(int argc, char **argv) {
  options o = {0, 0, 9, 10, 4099, {ACTK_ISA_SCALAR}, 0};
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      o.quick = 1;
    else if (!strcmp(argv[i], "--full"))
      o.full = 1;
    else if (!strcmp(argv[i], "--isa") && i + 1 < argc)
      only = argv[++i];
    else if (!strncmp(argv[i], "--isa=", 6))
      only = argv[i] + 6;
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "actk: unknown argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (o.quick || !o.full) o.repeats = 5, o.calls = 2, o.stride = 65537;
  /* the default: the active isa alone, unless --isa names one */
  if (!o.full && !only) only = actk_isa_name(actk_isa_active());

  for (int v = 0; actk_isa_name((actk_isa)v); v++) {
    const char *name = actk_isa_name((actk_isa)v);
    if (only && strcmp(only, name) != 0) continue;
    if (!actk_isa_supported((actk_isa)v)) {
      if (only) {
        fprintf(stderr, "actk: isa %s is not supported by this CPU, OS or build\n", name);
        return 2;
      }
      continue;
    }
    if (o.n_isas == MAX_ISAS) {
      fprintf(stderr, "actk: more than %d isas: %s and later ones not measured\n", MAX_ISAS, name);
      break;
    }
    o.isas[o.n_isas++] = (actk_isa)v;
  }
  if (o.n_isas == 0) {
    fprintf(stderr, "actk: unknown isa '%s'\n", only ? only : "?");
    usage(stderr);
    return 2;
  }

  cli_op ops[256];
  size_t n_ops = collect_ops(ops, sizeof ops / sizeof ops[0], o.full);
  const actk_isa start = actk_isa_active();

  print_facts(&o);
  int speed_ok = speed(&o, ops, n_ops);
  int acc_ok = accuracy(&o, ops, n_ops);
  acc_ok &= rope(&o);
  actk_isa_force(start);
  if (!o.full) printf("(actk --full: every isa, f16 and bf16 over all inputs, a denser sample)\n");
  if (!speed_ok) printf("speed: an actk call failed\n");
  return acc_ok && speed_ok ? 0 : 1;
}
