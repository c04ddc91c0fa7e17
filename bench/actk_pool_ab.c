/* actk_pool_ab: the engine pattern as an A/B, one variant per process.
 *
 *   actk_pool_ab pool   serial vs actk_pool_default(), interleaved
 *   actk_pool_ab omp    serial vs an OpenMP parallel-for of the same kernel
 *
 * gelu, tanh, erf at 64 Ki, 1 Mi and 4 Mi floats, with idle gaps of 0, 20 and
 * 500 us before each call (busy-wait under 100 us, nanosleep above): per
 * repeat, 3 untimed calls then 5 timed ones with the same gaps; medians of 15
 * repeats. Run pool and omp as two processes: two spinning runtimes in one
 * process take each other's cores (libgomp keeps spinning for milliseconds).
 * README's threading table comes from this program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench_util.h"

typedef actk_status (*op_fn)(actk_pool *, const float *, float *, size_t);

/* Two contiguous halves (per thread), whole 16-float vectors. */
static void omp_call(op_fn f, const float *x, float *y, size_t n) {
#ifdef _OPENMP
#pragma omp parallel
  {
    size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
    size_t per = ((n / nt) + 15) & ~(size_t)15, lo = t * per, hi = lo + per < n ? lo + per : n;
    if (lo < hi) f(NULL, x + lo, y + lo, hi - lo);
  }
#else
  f(NULL, x, y, n);
#endif
}

static void call(int variant, int omp, actk_pool *pool, op_fn f, const float *x, float *y,
                 size_t n) {
  if (variant && omp)
    omp_call(f, x, y, n);
  else
    f(variant ? pool : NULL, x, y, n);
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "pool") && strcmp(argv[1], "omp"))) {
    fprintf(stderr, "usage: %s pool|omp\n", argv[0]);
    return 2;
  }
  const int omp = !strcmp(argv[1], "omp");
#ifndef _OPENMP
  if (omp) {
    fprintf(stderr, "%s: built without OpenMP\n", argv[0]);
    return 2;
  }
#endif
  const op_fn ops[] = {actk_gelu_f32, actk_tanh_f32, actk_erf_f32};
  const char *names[] = {"gelu", "tanh", "erf"};
  const size_t sizes[] = {65536, 1 << 20, 4 << 20};
  const unsigned gaps[] = {0, 20, 500};
  enum { R = 15, TIMED = 5 };
  bench_init(argv[0]);
  size_t cap = 4 << 20;
  float *x = xalloc(cap * sizeof *x), *y = xalloc(cap * sizeof *y);
  for (size_t i = 0; i < cap; i++) x[i] = (float)(i % 1000) / 100 - 5;
  actk_pool *pool = omp ? NULL : actk_pool_default();
  printf("%s: op    n        gap_us   serial_us  %s_us  serial/%s\n", argv[1], argv[1], argv[1]);
  for (int o = 0; o < 3; o++)
    for (int a = 0; a < 3; a++)
      for (int g = 0; g < 3; g++) {
        uint64_t ts[2][R]; /* per repeat: ns of TIMED calls */
        for (int r = 0; r < R; r++)
          for (int v = 0; v < 2; v++) {
            for (int w = 0; w < 3; w++) {
              gap_wait(gaps[g]);
              call(v, omp, pool, ops[o], x, y, sizes[a]);
            }
            uint64_t acc = 0;
            for (int k = 0; k < TIMED; k++) {
              gap_wait(gaps[g]);
              uint64_t t0 = now_ns();
              call(v, omp, pool, ops[o], x, y, sizes[a]);
              acc += now_ns() - t0;
            }
            ts[v][r] = acc;
          }
        double serial = median_u64(ts[0], R) / TIMED / 1e3,
               par = median_u64(ts[1], R) / TIMED / 1e3;
        printf("%s: %-5s %-8zu %6u %10.1f %9.1f %8.2f\n", argv[1], names[o], sizes[a], gaps[g],
               serial, par, serial / par);
      }
  free(x);
  free(y);
  return 0;
}
