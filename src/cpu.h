/* CPU facts that dispatch and the pool need, read once. */
#ifndef ACTK_CPU_H
#define ACTK_CPU_H

#include <stdint.h>

/* CPU features an implementation may require. */
enum {
  ACTK_FEATURE_X86 = 1u << 0,
  ACTK_FEATURE_AVX2 = 1u << 1,
  ACTK_FEATURE_FMA = 1u << 2,
  ACTK_FEATURE_AVX512F = 1u << 3,
  ACTK_FEATURE_AVX512DQ = 1u << 4,
  ACTK_FEATURE_OS_YMM = 1u << 5, /* OSXSAVE, and XCR0 says the OS saves YMM state */
  ACTK_FEATURE_OS_ZMM = 1u << 6, /* ... and ZMM and opmask state */
  ACTK_FEATURE_F16C = 1u << 7,
  ACTK_FEATURE_AVX512BW = 1u << 8,
  ACTK_FEATURE_AVX512VL = 1u << 9,
  ACTK_FEATURE_ARM64 = 1u << 10,
  ACTK_FEATURE_ASIMD = 1u << 11, /* AArch64 Advanced SIMD (HWCAP_ASIMD) */
  ACTK_FEATURE_BF16 = 1u << 12   /* AArch64 FEAT_BF16 (HWCAP2_BF16) */
};
/* the architecture bits: an implementation requires exactly one of them */
#define ACTK_FEATURE_ARCH_MASK (ACTK_FEATURE_X86 | ACTK_FEATURE_ARM64)
/* bit i: name i */
#define ACTK_FEATURE_NAMES                                                                         \
  {                                                                                                \
    "x86", "avx2", "fma", "avx512f", "avx512dq", "os-ymm", "os-zmm", "f16c", "avx512bw",           \
        "avx512vl", "arm64", "asimd", "bf16"                                                       \
  }
#define ACTK_N_FEATURES 13

typedef struct actk_cpu {
  uint32_t features; /* ACTK_FEATURE_* bits, from the fields below */
  int is_x86;
  int has_avx2, has_fma; /* CPUID feature bits */
  int has_avx512f, has_avx512dq;
  int has_f16c, has_avx512bw, has_avx512vl;
  int os_saves_ymm, os_saves_zmm; /* OSXSAVE and XCR0 */
  int is_arm64;
  int has_asimd, has_bf16; /* AArch64: the kernel's HWCAP and HWCAP2 */
  int physical_cores;      /* in the affinity mask, from the kernel (0 if unknown) */
  int logical_cpus;        /* 0 if unknown */
  char vendor[16];
  char brand[64];
  const char *source; /* "libcpuid", "cpuid" (x86) or "auxv" (AArch64 Linux) */
} actk_cpu;

/* Filled on first call; later calls return the same object. Never NULL. */
const actk_cpu *actk_cpu_get(void);

/* The ACTK_FEATURE_* mask of the fields of c. */
uint32_t actk_cpu_features(const actk_cpu *c);

/* Raw CPUID + XCR0 reading (x86) or HWCAP (AArch64), without libcpuid; also
 * used to cross-check it. */
void actk_cpu_read_raw(actk_cpu *out);

#endif
