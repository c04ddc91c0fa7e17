/* actk_uops: what one AVX2 instruction of the fast kernels costs on this CPU,
 * in FMA issue slots: the throughput of independent VFMADD231PS, VADDPS,
 * VPERMPS, VPERMILPS, VBLENDVPS and VDIVPS on ymm registers, alone and each
 * interleaved one-for-one with FMAs (or one division per seven FMAs).
 *
 * Why: a table-selected polynomial pays one lookup (VPERMPS) per
 * coefficient, and a lookup's price differs between CPUs: on Zen 4 a VPERMPS
 * takes about an FMA's slot, on Zen 3 about two (docs/performance.md, the
 * Zen 3 floors). Each row: 8 independent destinations per group, sources
 * never written (no dependency chain: throughput, not latency), 32
 * instructions per loop step, the best of 7 rounds of 3 M steps, ns per
 * instruction and its ratio to the FMA row. A mixed row's ratio is per
 * instruction of the mix: (FMA + VPERMPS) at 1.5 means the pair takes 3 FMA
 * slots, so the VPERMPS took 2 beside the FMA's 1.
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
#define FMA(d) "vfmadd231ps %%ymm0, %%ymm1, %%ymm" d ";"
#define ADD(d) "vaddps %%ymm0, %%ymm1, %%ymm" d ";"
#define PERM(d) "vpermps %%ymm1, %%ymm0, %%ymm" d ";"
#define PERMIL(d) "vpermilps %%ymm1, %%ymm0, %%ymm" d ";"
#define BLENDV(d) "vblendvps %%ymm1, %%ymm0, %%ymm0, %%ymm" d ";"
#define DIV(d) "vdivps %%ymm1, %%ymm0, %%ymm" d ";"
#define ALL8(I) I("2") I("3") I("4") I("5") I("6") I("7") I("8") I("9")
#define MIX8(I) I("2") FMA("3") I("4") FMA("5") I("6") FMA("7") I("8") FMA("9")
#define DIV_7FMA DIV("2") FMA("3") FMA("4") FMA("5") FMA("6") FMA("7") FMA("8") FMA("9")
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
ROW(row_fma, ALL8(FMA))
ROW(row_add, ALL8(ADD))
ROW(row_perm, ALL8(PERM))
ROW(row_permil, ALL8(PERMIL))
ROW(row_blendv, ALL8(BLENDV))
ROW(row_div, ALL8(DIV))
ROW(row_perm_fma, MIX8(PERM))
ROW(row_permil_fma, MIX8(PERMIL))
ROW(row_blendv_fma, MIX8(BLENDV))
ROW(row_div_7fma, DIV_7FMA)

struct row {
  const char *name;
  double (*run)(void);
  double best;
};

int main(void) {
  struct row rows[] = {
      {"VFMADD231PS", row_fma, 1e9},
      {"VADDPS", row_add, 1e9},
      {"VPERMPS", row_perm, 1e9},
      {"VPERMILPS", row_permil, 1e9},
      {"VBLENDVPS", row_blendv, 1e9},
      {"VDIVPS", row_div, 1e9},
      {"VPERMPS + FMA", row_perm_fma, 1e9},
      {"VPERMILPS + FMA", row_permil_fma, 1e9},
      {"VBLENDVPS + FMA", row_blendv_fma, 1e9},
      {"VDIVPS + 7 FMA", row_div_7fma, 1e9},
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
         "and in FMA slots\n",
         kRounds);
  for (int i = 0; i < n; i++)
    printf("%-17s %.4f ns  %.2f\n", rows[i].name, rows[i].best, rows[i].best / rows[0].best);
  return 0;
}

#else
int main(void) {
  puts("actk_uops: x86-64 with GCC or Clang only");
  return 0;
}
#endif
