/* Linux: physical cores in the affinity mask from sysfs (libcpuid counts the
 * machine's cores, not the ones a container or taskset lets us use), the
 * online CPUs, and AArch64's features from the auxiliary vector. */
#define _GNU_SOURCE
#include "../topology.h"
#include "sysinfo.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef __aarch64__
#include <sys/auxv.h>
/* the kernel's bits (asm/hwcap.h), named here so no kernel header is needed */
#define ACTK_HWCAP_ASIMD (1ul << 1)
#define ACTK_HWCAP2_BF16 (1ul << 14)
#endif

int actk_sys_logical_cpus(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 && online <= INT_MAX ? (int)online : 0;
}

void actk_sys_cpu_features(actk_cpu *c) {
#ifdef __aarch64__
  c->is_arm64 = 1;
  c->source = "auxv";
  c->has_asimd = (getauxval(AT_HWCAP) & ACTK_HWCAP_ASIMD) != 0;
  c->has_bf16 = (getauxval(AT_HWCAP2) & ACTK_HWCAP2_BF16) != 0;
#else
  (void)c;
#endif
}

static int read_int(const char *fmt, int cpu) {
  char path[128], buf[32];
  snprintf(path, sizeof path, fmt, cpu);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *got = fgets(buf, sizeof buf, f);
  (void)fclose(f); /* read-only: nothing to lose */
  if (!got) return -1;
  char *end;
  long v = strtol(buf, &end, 10);
  return (end == buf || v < 0 || v > INT_MAX) ? -1 : (int)v;
}

int actk_topology_core_cpus(int *cpus, int max) {
  int n = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) {
    cpus[0] = 0;
    return 1;
  }
  /* (package, core) of each kept CPU; SMT siblings share both */
  int pkg[CPU_SETSIZE], core[CPU_SETSIZE];
  for (int cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++) {
    if (!CPU_ISSET(cpu, &set)) continue;
    int p = read_int("/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    int c = read_int("/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
    int dup = 0;
    for (int i = 0; i < n && p >= 0 && c >= 0; i++)
      if (pkg[i] == p && core[i] == c) dup = 1;
    if (dup) continue;
    pkg[n] = p;
    core[n] = c;
    cpus[n++] = cpu;
  }
  if (n == 0 && max > 0) {
    cpus[0] = 0;
    n = 1;
  }
  return n;
}
