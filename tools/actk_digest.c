/* actk_digest: a digest of the outputs of every entry point of the catalog
 * (every op x tier x type, the param ops at several alphas) and of RoPE in
 * every type, on every ISA this machine runs. Two machines of different
 * architectures that print the same digest for an entry computed the same
 * bits: CI compares the x86 arms' lines with the AArch64 arms' (.ci/run
 * aarch64).
 *
 *   actk_digest [--stride S] [--isa NAME]
 *
 * Inputs: for f32 every S-th bit pattern of 2^32 (default 4099, an odd
 * stride, so every exponent and the low mantissa bits are visited), for the
 * 16-bit types all 65536; bias ops add a fixed row of 4096 values holding a
 * NaN and both infinities; RoPE runs both layouts and both pairings with a
 * partial rotary dimension over inputs of every class. The gated ops
 * (actk_gated_catalog) take the same patterns as the gate and a fixed
 * pseudo-random up of every exponent; their packed form digests two shapes of
 * x = [rows, 2d] (chained: one line). Output: one line per entry and ISA,
 * "entry ISA inputs fnv1a-64". */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actk.h"
#include "catalog.h"

#define BLOCK 65536u
#define WIDTH 4096u

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* f32 pattern u as the entry's element type (16-bit types: its low half) */
static void put(void *p, size_t esize, size_t k, uint32_t u) {
  if (esize == 4)
    memcpy((char *)p + 4 * k, &u, 4);
  else {
    uint16_t h = (uint16_t)u;
    memcpy((char *)p + 2 * k, &h, 2);
  }
}

/* the bias row in the element type: ordinary values, a NaN and infinities */
static void make_bias(void *b, size_t esize, int type) {
  for (uint32_t j = 0; j < WIDTH; j++) {
    float v = (float)((int)(j * 2654435761u % 2001u) - 1000) / 256;
    if (j == 7) v = __builtin_nanf("");
    if (j == 8) v = __builtin_inff();
    if (j == 9) v = -__builtin_inff();
    uint32_t u;
    if (esize == 4)
      memcpy(&u, &v, 4);
    else
      u = type == 1 ? actk_f32_to_f16(v) : actk_f32_to_bf16(v);
    put(b, esize, j, u);
  }
}

/* The param ops' alphas: the unary op's own (its kernel), and others. */
static const float g_alphas[] = {0.25f, 1.702f, -0.5f, 3.0f};
#define N_ALPHAS (sizeof g_alphas / sizeof g_alphas[0])

static int digest_entry(const actk_op_info *op, float alpha, uint64_t stride, const char *isa,
                        void *x, void *y, const void *bias) {
  const uint64_t space = op->esize == 4 ? UINT64_C(1) << 32 : UINT64_C(1) << 16;
  const uint64_t step = op->esize == 4 ? stride : 1;
  const uint64_t count = (space + step - 1) / step;
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint64_t i0 = 0; i0 < count; i0 += BLOCK) {
    size_t n = (size_t)(count - i0 < BLOCK ? count - i0 : BLOCK);
    for (size_t k = 0; k < n; k++) put(x, op->esize, k, (uint32_t)((i0 + k) * step));
    size_t m = op->shape == ACTK_SHAPE_BIAS ? n / WIDTH * WIDTH : n; /* whole rows */
    if (m == 0) continue;
    if (actk_op_call(op, NULL, x, bias, WIDTH, y, m, alpha) != ACTK_OK) {
      fprintf(stderr, "%s on %s: call failed\n", op->function, isa);
      return 1;
    }
    h = fnv(h, y, m * op->esize);
  }
  char name[96];
  if (op->shape == ACTK_SHAPE_PARAM)
    snprintf(name, sizeof name, "%s(%g)", op->function, (double)alpha);
  else
    snprintf(name, sizeof name, "%s", op->function);
  printf("%-34s %-7s %" PRIu64 " %016" PRIx64 "\n", name, isa, count, h);
  return 0;
}

/* up's element k for the gated ops in type esize (f16: type 1): random sign
 * and mantissa, the exponent field stepping through every value (zeros,
 * subnormals, infinities and NaNs included) at a stride co-prime to its
 * size, so that the gate patterns meet up of every magnitude */
static uint32_t up_pattern(uint64_t k, size_t esize, int type) {
  uint32_t r = (uint32_t)((k + 1) * 0x9e3779b97f4a7c15ull >> 32);
  if (esize == 4) return (r & 0x807fffffu) | (uint32_t)(k * 7 % 256) << 23;
  if (type == 1) return (r & 0x83ffu) | (uint32_t)(k * 7 % 32) << 10;
  return (r & 0x807fu) | (uint32_t)(k * 7 % 256) << 7;
}

/* The packed shapes, rows x d outputs per call: an odd width (no whole
 * vectors) and a narrow one of many rows. */
static const size_t g_packed[][2] = {{7, 4099}, {512, 64}};
#define N_PACKED (sizeof g_packed / sizeof g_packed[0])

/* A gated entry, plain (packed 0) or packed, over the patterns of
 * digest_entry: gate element i is pattern i, up element i up_pattern(i);
 * packed calls lay them out as rows of [gate | up]. x holds 2 BLOCK
 * elements, y BLOCK. */
static int digest_gated(const actk_gated_info *g, int packed, uint64_t stride, const char *isa,
                        void *x, void *y) {
  const uint64_t space = g->esize == 4 ? UINT64_C(1) << 32 : UINT64_C(1) << 16;
  const uint64_t step = g->esize == 4 ? stride : 1;
  const uint64_t count = (space + step - 1) / step;
  uint64_t h = 0xcbf29ce484222325ull, inputs = 0;
  for (size_t s = 0; s < (packed ? N_PACKED : 1); s++) {
    const size_t d = packed ? g_packed[s][1] : BLOCK, per = packed ? g_packed[s][0] * d : BLOCK;
    for (uint64_t i0 = 0; i0 < count; i0 += per) {
      size_t n = (size_t)(count - i0 < per ? count - i0 : per);
      size_t rows = packed ? n / d : 1;
      if (packed) n = rows * d; /* whole rows; the rest of the patterns is left out */
      if (n == 0) continue;
      actk_status st;
      if (packed) {
        for (size_t k = 0; k < n; k++) {
          size_t r = k / d, j = k % d;
          put(x, g->esize, 2 * r * d + j, (uint32_t)((i0 + k) * step));
          put(x, g->esize, 2 * r * d + d + j, up_pattern(i0 + k, g->esize, g->type));
        }
        st = g->call_packed(NULL, x, y, rows, d);
      } else {
        char *up = (char *)x + BLOCK * g->esize;
        for (size_t k = 0; k < n; k++) {
          put(x, g->esize, k, (uint32_t)((i0 + k) * step));
          put(up, g->esize, k, up_pattern(i0 + k, g->esize, g->type));
        }
        st = g->call(NULL, x, up, y, n);
      }
      if (st != ACTK_OK) {
        fprintf(stderr, "%s on %s: call failed\n", packed ? g->packed_function : g->function, isa);
        return 1;
      }
      h = fnv(h, y, n * g->esize);
      inputs += n;
    }
  }
  printf("%-34s %-7s %" PRIu64 " %016" PRIx64 "\n", packed ? g->packed_function : g->function, isa,
         inputs, h);
  return 0;
}

/* RoPE: batch 2, seq 5, heads 3, head size 24, rotary 16 (8 channels
 * copied), positions from ids; each layout and pairing, digests chained. */
#define R_B 2
#define R_S 5
#define R_H 3
#define R_D 24
#define R_ROT 16
#define R_MAXPOS 64
#define R_N (R_B * R_S * R_H * R_D)

static int digest_rope(int type, const char *isa) {
  static const char *const names[] = {"actk_rope_f32", "actk_rope_f16", "actk_rope_bf16"};
  float cosc[R_MAXPOS * R_ROT / 2], sinc[R_MAXPOS * R_ROT / 2];
  if (actk_rope_cache_f32(cosc, sinc, R_MAXPOS, R_ROT, 10000.0) != ACTK_OK) return 1;
  int64_t pos[R_B * R_S];
  for (int i = 0; i < R_B * R_S; i++) pos[i] = (i * 37) % R_MAXPOS;
  const size_t esize = type == 0 ? 4 : 2;
  static float xf[R_N], yf[R_N];
  static uint16_t xh[R_N], yh[R_N];
  void *x = type == 0 ? (void *)xf : (void *)xh;
  const void *y = type == 0 ? (const void *)yf : (const void *)yh;
  uint64_t h = 0xcbf29ce484222325ull, inputs = 0;
  for (uint32_t round = 0; round < 64; round++) {
    for (size_t k = 0; k < R_N; k++) { /* every class: a spread of patterns */
      uint32_t u = (uint32_t)((round * R_N + k) * 2654435761u);
      put(x, esize, k, esize == 4 ? u : u >> 16);
    }
    for (int layout = 0; layout < 2; layout++)
      for (int style = 0; style < 2; style++) {
        actk_rope_desc d;
        actk_rope_desc_init(&d);
        d.batch = R_B, d.seq_len = R_S, d.heads = R_H, d.head_size = R_D;
        d.rotary_dim = R_ROT, d.max_position = R_MAXPOS;
        d.layout = (actk_rope_layout)layout, d.style = (actk_rope_style)style;
        actk_status s;
        if (type == 0)
          s = actk_rope_f32(NULL, &d, xf, pos, cosc, sinc, yf);
        else if (type == 1)
          s = actk_rope_f16(NULL, &d, xh, pos, cosc, sinc, yh);
        else
          s = actk_rope_bf16(NULL, &d, xh, pos, cosc, sinc, yh);
        if (s != ACTK_OK) {
          fprintf(stderr, "%s on %s: call failed\n", names[type], isa);
          return 1;
        }
        h = fnv(h, y, R_N * esize);
        inputs += R_N;
      }
  }
  printf("%-34s %-7s %" PRIu64 " %016" PRIx64 "\n", names[type], isa, inputs, h);
  return 0;
}

int main(int argc, char **argv) {
  uint64_t stride = 4099;
  const char *only_isa = NULL;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 < argc && !strcmp(argv[i], "--stride"))
      stride = strtoull(argv[i + 1], NULL, 0);
    else if (i + 1 < argc && !strcmp(argv[i], "--isa"))
      only_isa = argv[i + 1];
    else {
      fprintf(stderr, "usage: %s [--stride S] [--isa NAME]\n", argv[0]);
      return 2;
    }
  }
  if (stride == 0) return 2;
  /* x: the gated ops' two inputs (or packed x) */
  void *x = malloc(2 * BLOCK * 4), *y = malloc(BLOCK * 4), *bias = malloc(WIDTH * 4);
  if (!x || !y || !bias) return 2;
  setvbuf(stdout, NULL, _IOLBF, 0);
  int isas = 0, rc = 0;
  for (int v = 0; actk_isa_name((actk_isa)v) && !rc; v++) {
    const char *isa = actk_isa_name((actk_isa)v);
    if (!actk_isa_supported((actk_isa)v) || (only_isa && strcmp(only_isa, isa))) continue;
    isas++;
    if (actk_isa_force((actk_isa)v) != ACTK_OK) return 1;
    for (size_t e = 0; e < actk_catalog_size && !rc; e++) {
      const actk_op_info *op = &actk_catalog[e];
      if (op->shape == ACTK_SHAPE_BIAS) make_bias(bias, op->esize, op->type);
      if (op->shape != ACTK_SHAPE_PARAM) {
        rc = digest_entry(op, 0, stride, isa, x, y, bias);
        continue;
      }
      rc = digest_entry(op, op->unary_alpha, stride, isa, x, y, bias);
      for (size_t a = 0; a < N_ALPHAS && !rc; a++)
        if (g_alphas[a] != op->unary_alpha)
          rc = digest_entry(op, g_alphas[a], stride, isa, x, y, bias);
    }
    for (size_t e = 0; e < actk_gated_catalog_size && !rc; e++)
      for (int packed = 0; packed < 2 && !rc; packed++)
        rc = digest_gated(&actk_gated_catalog[e], packed, stride, isa, x, y);
    for (int type = 0; type < 3 && !rc; type++) rc = digest_rope(type, isa);
  }
  free(x);
  free(y);
  free(bias);
  if (!isas) fprintf(stderr, "%s: no ISA '%s' that this machine runs\n", argv[0], only_isa);
  return rc ? 1 : isas ? 0 : 2;
}
