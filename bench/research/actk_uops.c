/* actk_uops: what one AVX2 instruction of the fast kernels costs on this CPU,
 * in FMA-pipe slots: the throughput of independent VMULPS, VADDPS, VPERMPS,
 * VPERMILPS, VBLENDVPS and VDIVPS on ymm registers, alone and each
 * interleaved one-for-one with VMULPS (or one division per seven). VMULPS is
 * the unit: it issues on the FMA pipes at an FMA's rate but, unlike an FMA,
 * does not read its destination, so no row has a dependency chain (an FMA
 * row of 8 destinations is 8 accumulators: latency-bound in the mixes).
 *
 * Why: a table-selected polynomial pays one lookup (VPERMPS) per
 * coefficient, and a lookup's price differs between CPUs: on Zen 4 a VPERMPS
 * takes about an FMA's slot, on Zen 3 about two (docs/performance.md, the
 * Zen 3 floors). Each row: 8 destinations per group, none read, sources
 * never written (throughput, not latency), 32 instructions per loop step,
 * the best of 7 rounds of 3 M steps, ns per instruction and its ratio to the
 * VMULPS row. A mixed row's ratio is per instruction of the mix: (VMULPS +
 * VPERMPS) at 1.5 means the pair takes 3 slots, so the VPERMPS took 2.
 *
 *   flock /tmp/actk-bench.lock taskset -c 1 chrt -f 10 build/bench/research/actk_uops
 */
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One instruction on each of the 8 destinations ymm2..ymm9 from ymm0, ymm1. */
#define MUL(d) "vmulps %%ymm0, %%ymm1, %%ymm" d ";"
#define ADD(d) "vaddps %%ymm0, %%ymm1, %%ymm" d ";"
#define PERM(d) "vpermps %%ymm1, %%ymm0, %%ymm" d ";"
#define PERMIL(d) "vpermilps %%ymm1, %%ymm0, %%ymm" d ";"
#define BLENDV(d) "vblendvps %%ymm1, %%ymm0, %%ymm0, %%ymm" d ";"
#define DIV(d) "vdivps %%ymm1, %%ymm0, %%ymm" d ";"
#define ALL8(I) I("2") I("3") I("4") I("5") I("6") I("7") I("8") I("9")
#define MIX8(I) I("2") MUL("3") I("4") MUL("5") I("6") MUL("7") I("8") MUL("9")
#define DIV_7MUL DIV("2") MUL("3") MUL("4") MUL("5") MUL("6") MUL("7") MUL("8") MUL("9")
#define X4(s) s s s s
#define CLOBBER "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"

enum { kSteps = 3000000, kRounds = 7, kPerStep = 32 };

/* Each row is a function of its own, so the asm string is a literal. */
#define ROW(fn, body)                                                                              \
  static double fn(void) {                                                                         \
    double t0 = now();                                                                             \
    for (long i = 0; i < kSteps; i++) __asm__ volatile(X4(body)::: CLOBBER);                       \
    return (now() - t0) / kSteps / kPerStep * 1e9;                                                 \
  }
ROW(row_mul, ALL8(MUL))
ROW(row_add, ALL8(ADD))
ROW(row_perm, ALL8(PERM))
ROW(row_permil, ALL8(PERMIL))
ROW(row_blendv, ALL8(BLENDV))
ROW(row_div, ALL8(DIV))
ROW(row_perm_mul, MIX8(PERM))
ROW(row_permil_mul, MIX8(PERMIL))
ROW(row_blendv_mul, MIX8(BLENDV))
ROW(row_div_7mul, DIV_7MUL)

struct row {
  const char *name;
  double (*run)(void);
  double best;
};

int main(void) {
  struct row rows[] = {
      {"VMULPS", row_mul, 1e9},
      {"VADDPS", row_add, 1e9},
      {"VPERMPS", row_perm, 1e9},
      {"VPERMILPS", row_permil, 1e9},
      {"VBLENDVPS", row_blendv, 1e9},
      {"VDIVPS", row_div, 1e9},
      {"VPERMPS + VMULPS", row_perm_mul, 1e9},
      {"VPERMILPS + VMULPS", row_permil_mul, 1e9},
      {"VBLENDVPS + VMULPS", row_blendv_mul, 1e9},
      {"VDIVPS + 7 VMULPS", row_div_7mul, 1e9},
  };
  const int n = (int)(sizeof rows / sizeof rows[0]);
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    puts("actk_uops: this CPU has no AVX2 and FMA");
    return 0;
  }
  __asm__ volatile("vxorps %%ymm0, %%ymm0, %%ymm0; vxorps %%ymm1, %%ymm1, %%ymm1" ::
                       : "xmm0", "xmm1");
  for (int r = 0; r < kRounds; r++) /* rows interleaved, round by round */
    for (int i = 0; i < n; i++) {
      double t = rows[i].run();
      if (t < rows[i].best) rows[i].best = t;
    }
  printf("ymm throughput, independent instructions, best of %d rounds: ns per instruction, "
         "and in FMA-pipe slots (VMULPS = 1)\n",
         kRounds);
  for (int i = 0; i < n; i++)
    printf("%-19s %.4f ns  %.2f\n", rows[i].name, rows[i].best, rows[i].best / rows[0].best);
  return 0;
}

#else
int main(void) {
  puts("actk_uops: x86-64 with GCC or Clang only");
  return 0;
}
#endif
