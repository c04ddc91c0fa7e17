/* Calls actk's GELU on the calling thread and on the default pool, checks the
 * results, and prints the library's version and instruction-set dispatch:
 *
 *   actk version: 0.1.0 (header 0.1.0)
 *   isa active: avx512
 *   isa supported: scalar=1 avx2=1 avx512=1
 *   isa reason: ...
 *
 * (the "isa active" and "isa supported" lines are what .ci/run compares
 * between builds with and without libcpuid). Exit status 0 when every check
 * passed. */
#include <actk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - want| <= 1e-6 * max(|want|, 1e-30): well inside actk's 2 ULP bound. */
static int close_to(float got, double want) {
  double err = (double)got - want, scale = want < 0 ? -want : want;
  if (err < 0) err = -err;
  return err <= 1e-6 * (scale > 1e-30 ? scale : 1e-30);
}

int main(void) {
  int ok = 1;

  printf("actk version: %s (header %d.%d.%d)\n", actk_version_string(), ACTK_VERSION_MAJOR,
         ACTK_VERSION_MINOR, ACTK_VERSION_PATCH);
  /* Same major version: the ABI this program was compiled against. */
  if (actk_version() / 10000 != ACTK_VERSION_MAJOR) {
    fprintf(stderr, "error: library major version %u, header %d\n", actk_version() / 10000,
            ACTK_VERSION_MAJOR);
    ok = 0;
  }

  /* gelu(x) = 0.5 x (1 + erf(x / sqrt 2)), the reference values in double */
  const float x[] = {-3.0f, -1.0f, 0.0f, 0.5f, 1.0f, 3.0f};
  const double want[] = {-0.00404969409489031, -0.15865525393145707, 0.0,
                         0.34573123063700656,  0.8413447460685429,   2.99595030590511};
  enum { N = sizeof x / sizeof x[0] };
  float y[N];
  actk_status s = actk_gelu_f32(NULL, x, y, N); /* NULL pool: this thread, no threads created */
  if (s != ACTK_OK) {
    fprintf(stderr, "error: actk_gelu_f32: %s\n", actk_status_string(s));
    return 1;
  }
  for (int i = 0; i < N; i++) {
    printf("gelu(%g) = %.9g\n", x[i], y[i]);
    if (!close_to(y[i], want[i])) {
      fprintf(stderr, "error: gelu(%g) = %.9g, expected %.9g\n", x[i], y[i], want[i]);
      ok = 0;
    }
  }

  /* The fast tier and bfloat16 (its bits in a uint16_t): gelu(1) in bf16 is
   * 0x3f57 (0.83984375, the bf16 value nearest 0.8413...), in either tier. */
  float yf;
  const float one = 1.0f;
  const actk_bf16 xb = 0x3f80; /* 1.0 */
  actk_bf16 yb = 0, yb_fast = 0;
  int called = actk_gelu_f32_fast(NULL, &one, &yf, 1) == ACTK_OK &&
               actk_gelu_bf16(NULL, &xb, &yb, 1) == ACTK_OK &&
               actk_gelu_bf16_fast(NULL, &xb, &yb_fast, 1) == ACTK_OK;
  double rel = ((double)yf - want[4]) / want[4]; /* the fast tier: within 2^-18 */
  if (!called || rel > 0x1p-18 || rel < -0x1p-18 || yb != 0x3f57 || yb_fast != 0x3f57) {
    fprintf(stderr, "error: fast gelu(1) = %.9g, bf16 gelu(1) = 0x%04x / 0x%04x\n", yf, yb,
            yb_fast);
    ok = 0;
  } else {
    printf("gelu_f32_fast(1) = %.9g, gelu_bf16(1) = 0x%04x\n", yf, yb);
  }

  /* A large call on the process-wide pool gives the same bits as on this
   * thread alone. */
  size_t n = (size_t)1 << 20;
  float *big = malloc(n * sizeof *big), *serial = malloc(n * sizeof *serial),
        *pooled = malloc(n * sizeof *pooled);
  if (!big || !serial || !pooled) {
    fprintf(stderr, "error: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n; i++) big[i] = (float)((double)i / (double)n * 16.0 - 8.0);
  actk_pool *pool = actk_pool_default();
  if (actk_gelu_f32(NULL, big, serial, n) != ACTK_OK ||
      actk_gelu_f32(pool, big, pooled, n) != ACTK_OK) {
    fprintf(stderr, "error: actk_gelu_f32 on %zu floats failed\n", n);
    ok = 0;
  } else if (memcmp(serial, pooled, n * sizeof *serial) != 0) {
    fprintf(stderr, "error: the pooled result differs from the serial one\n");
    ok = 0;
  } else {
    printf("default pool: %u threads, %zu floats, same bits as one thread\n",
           actk_pool_threads(pool), n);
  }
  free(big);
  free(serial);
  free(pooled);

  printf("isa active: %s\n", actk_isa_name(actk_isa_active()));
  printf("isa supported:");
  for (int i = 0; actk_isa_name((actk_isa)i) != NULL; i++)
    printf(" %s=%d", actk_isa_name((actk_isa)i), actk_isa_supported((actk_isa)i));
  printf("\n");
  printf("isa reason: %s\n", actk_isa_reason());

  printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
