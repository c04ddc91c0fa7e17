/* libFuzzer target: the numbers, for any float bit patterns.
 *
 * The input is raw float bits (4 bytes each, little end first; at most 1024
 * floats). Every element-wise op runs on them on every ISA this machine
 * supports (forced with actk_isa_force, no pool), and:
 *   - the ISAs agree bit for bit, NaN results included;
 *   - a NaN input gives the same NaN quieted (bits | 0x00400000: sign and
 *     payload kept), as README.md documents;
 *   - +-Inf inputs give the documented limits and +-0 inputs the documented
 *     signed results: exactly the double reference rounded, sign included;
 *   - every other result is within its tier's bound of the double reference
 *     of tools/reference.c (the catalog's: accurate 2 ULP, ulp(r) =
 *     2^(max(floor(log2|r|), -126) - 23); fast a relative 2^-18);
 *   - element i does not depend on where it sits: the call on x + 1, n - 1
 *     gives y + 1 exactly.
 * The ops: every f32 entry of the catalog (tools/catalog.h: erf, tanh, ...),
 * a param op (swish) with alpha = the first input float (any bits) and with
 * alpha = 0.75; the bias ops pair x[i] with bias = the input reversed and must
 * equal their activation of the float sum x[i] + bias[j] (the header's
 * promise), bit for bit, when at most one of the two is NaN (with two NaNs
 * either payload may win, quieted).
 * A violation prints the op, isa, input and output bits and aborts. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"
#include "catalog.h"
#include "reference.h"

#define MAX_FLOATS 1024

#define MAX_ISAS 8
static actk_isa g_isas[MAX_ISAS], g_best;
static size_t g_n_isas;
/* ACTK_FUZZ_KNOWN=swish-inf-nan: skip the value check of swish(+-inf) when
 * alpha * x is NaN (alpha NaN or +-0): a known, reported bug (fuzz/README.md).
 * The ISAs must still agree. */
static int g_known_swish_inf_nan;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  g_best = actk_isa_active();
  const char *known = getenv("ACTK_FUZZ_KNOWN");
  g_known_swish_inf_nan = known && strstr(known, "swish-inf-nan") != NULL;
  /* every supported isa, scalar last (the loops below run it first) */
  for (int i = 0; actk_isa_name((actk_isa)i) && g_n_isas < MAX_ISAS; i++)
    if (actk_isa_supported((actk_isa)i)) g_isas[g_n_isas++] = (actk_isa)i;
  for (size_t a = 0; a < g_n_isas / 2; a++) {
    actk_isa t = g_isas[a];
    g_isas[a] = g_isas[g_n_isas - 1 - a];
    g_isas[g_n_isas - 1 - a] = t;
  }
  return 0;
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static void finding(const char *op, actk_isa isa, size_t i, float x, float y, const char *fmt, ...)
    __attribute__((format(printf, 6, 7), noreturn));
static void finding(const char *op, actk_isa isa, size_t i, float x, float y, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr,
          "\nfuzz_bits: FINDING: %s on %s, element %zu: x = %a (0x%08x) -> y = %a (0x%08x): ", op,
          actk_isa_name(isa), i, (double)x, bits_of(x), (double)y, bits_of(y));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* The ops: every f32 entry of the catalog (tools/catalog.h). */
static actk_status call(const actk_op_info *op, float alpha, const float *x, float *y, size_t n) {
  return actk_op_call(op, NULL, x, NULL, 0, y, n, alpha);
}

static double ref(const actk_op_info *op, float alpha, float x) {
  return op->shape == ACTK_SHAPE_PARAM ? op->ref_param((double)x, (double)alpha)
                                       : op->ref((double)x);
}

/* The value checks of one result against the reference, within op's tier
 * bound (the catalog's: ULP for accurate, relative for fast). */
static void check_value(const actk_op_info *op, const char *name, actk_isa isa, size_t i, float x,
                        float y, double r) {
  if (isnan(x)) {
    if (bits_of(y) != (bits_of(x) | 0x00400000u))
      finding(name, isa, i, x, y, "NaN in must give the same NaN, quieted (0x%08x)",
              bits_of(x) | 0x00400000u);
    return;
  }
  if (isinf(x) || x == 0.0f || isnan(r)) {
    /* the limits and signed zeros exactly; NaN where the definition is NaN */
    float rf = (float)r;
    if (isnan(r) ? !isnan(y) : bits_of(y) != bits_of(rf))
      finding(name, isa, i, x, y, "special input: the reference is %a: want %s", r,
              isnan(r) ? "a NaN" : "exactly that rounded");
    return;
  }
  if (op->bound_rel > 0) {
    double e = actk_rel_error(y, r);
    if (!(e <= op->bound_rel))
      finding(name, isa, i, x, y,
              "relative error %.3g (2^%.2f) from the reference %.17g (bound %g)", e, log2(e), r,
              op->bound_rel);
  } else {
    double e = actk_ulp_error(y, r);
    if (!(e <= op->bound_ulp))
      finding(name, isa, i, x, y, "%.3f ULP from the reference %.17g (bound %.1f)", e, r,
              op->bound_ulp);
  }
}

static void check_unary(const actk_op_info *op, float alpha, const float *x, size_t n, float *y,
                        float *y_scalar, float *y_shift) {
  char name[96];
  if (op->shape == ACTK_SHAPE_UNARY)
    snprintf(name, sizeof name, "%s", op->function);
  else
    snprintf(name, sizeof name, "%s(alpha=%a, 0x%08x)", op->function, (double)alpha,
             bits_of(alpha));
  for (size_t a = g_n_isas; a-- > 0;) { /* scalar first */
    actk_isa isa = g_isas[a];
    actk_isa_force(isa);
    actk_status st = call(op, alpha, x, isa == ACTK_ISA_SCALAR ? y_scalar : y, n);
    if (st != ACTK_OK) finding(name, isa, 0, x[0], 0, "status %d, not ACTK_OK", (int)st);
    if (isa == ACTK_ISA_SCALAR) {
      for (size_t i = 0; i < n; i++) {
        if (g_known_swish_inf_nan && op->shape == ACTK_SHAPE_PARAM && isinf(x[i]) &&
            isnan(alpha * x[i]))
          continue;
        check_value(op, name, isa, i, x[i], y_scalar[i], ref(op, alpha, x[i]));
      }
    } else {
      for (size_t i = 0; i < n; i++)
        if (bits_of(y[i]) != bits_of(y_scalar[i]))
          finding(name, isa, i, x[i], y[i], "the scalar isa gives 0x%08x", bits_of(y_scalar[i]));
    }
    /* the same elements one place further on */
    if (n > 1) {
      st = call(op, alpha, x + 1, y_shift, n - 1);
      if (st != ACTK_OK) finding(name, isa, 1, x[1], 0, "status %d (at x + 1)", (int)st);
      for (size_t i = 1; i < n; i++)
        if (bits_of(y_shift[i - 1]) != bits_of(y_scalar[i]))
          finding(name, isa, i, x[i], y_shift[i - 1],
                  "called at x + 1, n - 1; called at x the scalar isa gave 0x%08x",
                  bits_of(y_scalar[i]));
    }
  }
  actk_isa_force(g_best);
}

static void check_bias(const actk_op_info *op, const float *x, const float *bias, size_t n,
                       float *sum, float *y, float *want, float *y_scalar) {
  const char *name = op->function;
  const actk_op_info *act = actk_catalog_find(op->activation, op->tier_name, op->type_name);
  if (!act) finding(name, ACTK_ISA_SCALAR, 0, x[0], 0, "no catalog entry for %s", op->activation);
  for (size_t i = 0; i < n; i++) sum[i] = x[i] + bias[i];
  for (size_t a = g_n_isas; a-- > 0;) { /* scalar first */
    actk_isa isa = g_isas[a];
    actk_isa_force(isa);
    actk_status st = actk_op_call(op, NULL, x, bias, n, y, n, 0.0f);
    if (st != ACTK_OK) finding(name, isa, 0, x[0], 0, "status %d, not ACTK_OK", (int)st);
    st = actk_op_call(act, NULL, sum, NULL, 0, want, n, 0.0f);
    if (st != ACTK_OK) finding(name, isa, 0, x[0], 0, "status %d (gelu of the sum)", (int)st);
    if (isa == ACTK_ISA_SCALAR) memcpy(y_scalar, y, n * sizeof(float));
    for (size_t i = 0; i < n; i++) {
      /* every ISA gives the scalar ISA's bits, NaN + NaN included */
      if (bits_of(y[i]) != bits_of(y_scalar[i]))
        finding(name, isa, i, x[i], y[i], "bias 0x%08x: the scalar isa gives 0x%08x",
                bits_of(bias[i]), bits_of(y_scalar[i]));
      if (isnan(x[i]) && isnan(bias[i])) {
        uint32_t yb = bits_of(y[i]);
        if (yb != (bits_of(x[i]) | 0x00400000u) && yb != (bits_of(bias[i]) | 0x00400000u))
          finding(name, isa, i, x[i], y[i], "bias 0x%08x: NaN + NaN must give one of them, quieted",
                  bits_of(bias[i]));
        continue;
      }
      if (bits_of(y[i]) != bits_of(want[i]))
        finding(name, isa, i, x[i], y[i], "bias 0x%08x: gelu of the float sum 0x%08x gives 0x%08x",
                bits_of(bias[i]), bits_of(sum[i]), bits_of(want[i]));
    }
  }
  actk_isa_force(g_best);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = size / 4;
  if (n > MAX_FLOATS) n = MAX_FLOATS;
  if (n == 0) return 0;
  /* exact-size heap buffers: ASan sees any access past them */
  float *x = malloc(n * sizeof(float));
  float *bias = malloc(n * sizeof(float));
  float *y = malloc(n * sizeof(float));
  float *ys = malloc(n * sizeof(float));
  float *yh = malloc(n * sizeof(float));
  float *t = malloc(n * sizeof(float));
  if (!x || !bias || !y || !ys || !yh || !t) abort();
  memcpy(x, data, n * sizeof(float));
  for (size_t i = 0; i < n; i++) bias[i] = x[n - 1 - i];

  for (size_t k = 0; k < actk_catalog_size; k++) {
    const actk_op_info *op = &actk_catalog[k];
    if (strcmp(op->type_name, "f32") != 0) continue;
    if (op->shape == ACTK_SHAPE_UNARY) {
      check_unary(op, 1.0f, x, n, y, ys, yh);
    } else if (op->shape == ACTK_SHAPE_PARAM) {
      check_unary(op, x[0], x, n, y, ys, yh);
      check_unary(op, 0.75f, x, n, y, ys, yh);
    } else {
      check_bias(op, x, bias, n, t, y, ys, yh);
    }
  }
  free(x);
  free(bias);
  free(y);
  free(ys);
  free(yh);
  free(t);
  return 0;
}
