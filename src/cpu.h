/* CPU facts that dispatch and the pool need, read once. */
#ifndef ACTK_CPU_H
#define ACTK_CPU_H

typedef struct actk_cpu {
  int is_x86;
  int has_avx2, has_fma; /* CPUID feature bits */
  int has_avx512f, has_avx512dq;
  int os_saves_ymm, os_saves_zmm; /* OSXSAVE and XCR0 */
  int physical_cores;             /* 0 if unknown */
  int logical_cpus;               /* 0 if unknown */
  char vendor[16];
  char brand[64];
  const char *source; /* "libcpuid" or "cpuid" */
} actk_cpu;

/* Filled on first call; later calls return the same object. Never NULL. */
const actk_cpu *actk_cpu_get(void);

/* Raw CPUID + XCR0 reading, without libcpuid; also used to cross-check it. */
void actk_cpu_read_raw(actk_cpu *out);

#endif
