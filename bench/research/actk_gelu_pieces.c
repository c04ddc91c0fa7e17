/* actk_gelu_pieces: what sets the AVX2 fast gelu loop's time, piece by piece (issue 35's
 * AVX2 gelu row in docs/performance.md).
 *
 *   build/bench/research/actk_gelu_pieces [--n N] [--rounds R] [--calls C] [--no-rare]
 *
 * One thread (run it pinned, under chrt -f), n = N elements (default 65536, in L2), inputs
 * N(0, 3) clipped to [-12, 12] as actk_ratio's (Box-Muller over splitmix64; --no-rare: the
 * ones below -9 set to -9, so no lane takes the accurate kernel). Each loop of
 * gelu_pieces_avx2.c runs C calls per round, the loops interleaved, R rounds: the median
 * ns/element and its difference from all_pieces (the shipped math, one vector per step). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gelu_pieces.h"

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t *s) { return ((double)(splitmix64(s) >> 11) + 0.5) * 0x1p-53; }

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double d = *(const double *)a - *(const double *)b;
  return (d > 0) - (d < 0);
}

int main(int argc, char **argv) {
  size_t n = 65536;
  int rounds = 21, calls = 200, no_rare = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--n") && a + 1 < argc)
      n = strtoul(argv[++a], NULL, 0);
    else if (!strcmp(argv[a], "--rounds") && a + 1 < argc)
      rounds = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--calls") && a + 1 < argc)
      calls = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--no-rare"))
      no_rare = 1;
    else {
      fprintf(stderr, "usage: %s [--n N] [--rounds R] [--calls C] [--no-rare]\n", argv[0]);
      return 2;
    }
  }
  if (n < 16 || rounds < 1 || calls < 1) {
    fprintf(stderr, "%s: --n 16 or more, --rounds and --calls 1 or more\n", argv[0]);
    return 2;
  }
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  double *t = malloc(gelu_pieces_count * (size_t)rounds * sizeof *t);
  if (!x || !y || !t) return 1;
  uint64_t seed = 0x61636b746b5f78u;
  for (size_t i = 0; i < n; i++) {
    double z = 3.0 * sqrt(-2.0 * log(uniform01(&seed))) * cos(6.283185307179586 * uniform01(&seed));
    z = z > 12 ? 12 : z < -12 ? -12 : z;
    x[i] = (float)(no_rare && z < -9 ? -9 : z);
  }
  for (int r = 0; r < rounds; r++)
    for (size_t v = 0; v < gelu_pieces_count; v++) {
      double t0 = now_s();
      for (int c = 0; c < calls; c++) {
        gelu_pieces[v].loop(x, y, n);
        __asm__ volatile("" ::: "memory");
      }
      t[v * (size_t)rounds + (size_t)r] = (now_s() - t0) / calls / (double)n * 1e9;
    }
  printf("fast gelu loops, AVX2, n = %zu%s, %d rounds x %d calls, medians, ns/element\n", n,
         no_rare ? " (no rare lanes)" : "", rounds, calls);
  double base = 0;
  for (size_t v = 0; v < gelu_pieces_count; v++) {
    double *tv = t + v * (size_t)rounds;
    qsort(tv, (size_t)rounds, sizeof *tv, cmp_double);
    double med = tv[rounds / 2];
    if (!strcmp(gelu_pieces[v].name, "all_pieces")) base = med;
    printf("%-12s %.4f", gelu_pieces[v].name, med);
    if (base > 0)
      printf(" %+.4f", med - base);
    else
      printf("        ");
    printf("  %s\n", gelu_pieces[v].what);
  }
  free(x);
  free(y);
  free(t);
  return 0;
}
