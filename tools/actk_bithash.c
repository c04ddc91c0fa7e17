/* actk_bithash: a digest of every output bit of every f32 element-wise op, on
 * every ISA this machine runs, over all 2^32 inputs (or a stride of them).
 * A restructuring that must not change results is checked by running it
 * before and after: the lines must be identical.
 *
 *   actk_bithash [--stride S] [--isa NAME] [--op NAME]
 *
 * Only the public API is used (actk_isa_force and the entry points, pool
 * NULL), so the same source builds against any version of the library. The
 * bias ops use a fixed bias row of 4096 floats (every input is added to one
 * of them); swish runs with several alphas. Output: one line per op and isa,
 * "op ISA inputs fnv1a-64". */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"

#define BLOCK 65536u
#define WIDTH 4096u

typedef actk_status (*unary_fn)(actk_pool *, const float *, float *, size_t);
typedef actk_status (*bias_fn)(actk_pool *, const float *, const float *, size_t, float *, size_t);

typedef struct {
  const char *name;
  unary_fn unary;
  bias_fn bias;
  float alpha; /* swish when unary and bias are NULL */
} op_t;

/* Written out rather than read from the op table, so that a tree from before
 * the table builds this same source: a new f32 op needs its row here. */
static const op_t g_ops[] = {
    {"erf", actk_erf_f32, NULL, 0},
    {"tanh", actk_tanh_f32, NULL, 0},
    {"sigmoid", actk_sigmoid_f32, NULL, 0},
    {"silu", actk_silu_f32, NULL, 0},
    {"quick_gelu", actk_quick_gelu_f32, NULL, 0},
    {"gelu", actk_gelu_f32, NULL, 0},
    {"gelu_tanh", actk_gelu_tanh_f32, NULL, 0},
    {"swish(0.25)", NULL, NULL, 0.25f},
    {"swish(1.702)", NULL, NULL, 1.702f},
    {"swish(-0.5)", NULL, NULL, -0.5f},
    {"bias_gelu", NULL, actk_bias_gelu_f32, 0},
    {"bias_gelu_tanh", NULL, actk_bias_gelu_tanh_f32, 0},
};

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static actk_status run(const op_t *op, const float *x, const float *bias, float *y, size_t n) {
  if (op->unary) return op->unary(NULL, x, y, n);
  if (op->bias) return op->bias(NULL, x, bias, WIDTH, y, n);
  return actk_swish_f32(NULL, x, y, n, op->alpha);
}

int main(int argc, char **argv) {
  uint64_t stride = 1;
  const char *only_isa = NULL, *only_op = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--stride"))
      stride = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--isa"))
      only_isa = argv[i + 1];
    else if (!strcmp(argv[i], "--op"))
      only_op = argv[i + 1];
    else {
      fprintf(stderr, "usage: %s [--stride S] [--isa NAME] [--op NAME]\n", argv[0]);
      return 2;
    }
  }
  if (stride == 0) return 2;
  if (only_op) { /* a name that matches nothing is an error, not an empty digest */
    size_t o = 0;
    while (o < sizeof g_ops / sizeof g_ops[0] && strcmp(only_op, g_ops[o].name)) o++;
    if (o == sizeof g_ops / sizeof g_ops[0]) {
      fprintf(stderr, "%s: no op '%s'; the ops:", argv[0], only_op);
      for (o = 0; o < sizeof g_ops / sizeof g_ops[0]; o++) fprintf(stderr, " %s", g_ops[o].name);
      fprintf(stderr, "\n");
      return 2;
    }
  }
  float *x = malloc(BLOCK * sizeof *x), *y = malloc(BLOCK * sizeof *y);
  float bias[WIDTH];
  if (!x || !y) return 2;
  /* a bias row of ordinary values, a NaN and infinities (the NaN-ordered row) */
  for (uint32_t j = 0; j < WIDTH; j++)
    bias[j] = (float)((int)(j * 2654435761u % 2001u) - 1000) / 256;
  bias[7] = __builtin_nanf("");
  bias[8] = __builtin_inff();
  bias[9] = -__builtin_inff();
  setvbuf(stdout, NULL, _IOLBF, 0);
  const uint64_t count = ((UINT64_C(1) << 32) + stride - 1) / stride;
  int isas = 0;
  for (int v = 0; actk_isa_name((actk_isa)v); v++) {
    const char *isa = actk_isa_name((actk_isa)v);
    if (!actk_isa_supported((actk_isa)v) || (only_isa && strcmp(only_isa, isa))) continue;
    isas++;
    if (actk_isa_force((actk_isa)v) != ACTK_OK) return 1;
    for (size_t o = 0; o < sizeof g_ops / sizeof g_ops[0]; o++) {
      const op_t *op = &g_ops[o];
      if (only_op && strcmp(only_op, op->name)) continue;
      uint64_t h = 0xcbf29ce484222325ull;
      for (uint64_t i0 = 0; i0 < count; i0 += BLOCK) {
        size_t n = (size_t)(count - i0 < BLOCK ? count - i0 : BLOCK);
        for (size_t k = 0; k < n; k++) {
          uint32_t u = (uint32_t)((i0 + k) * stride);
          memcpy(&x[k], &u, 4);
        }
        size_t m = op->bias ? n / WIDTH * WIDTH : n; /* whole rows */
        if (m == 0) continue;
        if (run(op, x, bias, y, m) != ACTK_OK) {
          fprintf(stderr, "%s on %s: call failed\n", op->name, isa);
          return 1;
        }
        h = fnv(h, y, m * sizeof *y);
      }
      printf("%-15s %-7s %" PRIu64 " %016" PRIx64 "\n", op->name, isa, count, h);
    }
  }
  free(x);
  free(y);
  if (!isas) fprintf(stderr, "%s: no ISA '%s' that this machine runs\n", argv[0], only_isa);
  return isas ? 0 : 2;
}
