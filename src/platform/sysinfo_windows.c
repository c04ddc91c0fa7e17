/* Windows: logical CPUs in every processor group, and one logical processor
 * per physical core of the process's affinity mask in the calling thread's
 * processor group (GetLogicalProcessorInformationEx: SMT siblings share a
 * RelationProcessorCore entry). A machine past 64 logical CPUs has several
 * groups; the pool's workers stay in one (docs/platforms.md). */
#if !defined(_WIN32_WINNT) || _WIN32_WINNT < 0x0601
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0601 /* Windows 7: processor groups */
#endif
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include <stdlib.h>

#include "../topology.h"
#include "sysinfo.h"

int actk_sys_logical_cpus(void) {
  DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  return n > 0 && n <= 0x7fffffff ? (int)n : 0;
}

void actk_sys_cpu_features(actk_cpu *c) {
  (void)c; /* x86: CPUID and XGETBV tell it all (cpu.c); Windows saves ZMM state eagerly */
}

/* the affinity mask and group the pool works in: the process's mask when it
 * has one group, else the calling thread's group */
static int allowed(WORD *group, KAFFINITY *mask) {
  GROUP_AFFINITY ga;
  if (!GetThreadGroupAffinity(GetCurrentThread(), &ga)) return 0;
  *group = ga.Group;
  *mask = ga.Mask;
  DWORD_PTR proc, sys;
  if (GetProcessAffinityMask(GetCurrentProcess(), &proc, &sys) && proc != 0) *mask = proc;
  return *mask != 0;
}

int actk_topology_core_cpus(int *cpus, int max) {
  int n = 0;
  WORD group;
  KAFFINITY mask;
  if (max <= 0) return 0;
  if (!allowed(&group, &mask)) {
    cpus[0] = 0;
    return 1;
  }
  DWORD len = 0;
  (void)GetLogicalProcessorInformationEx(RelationProcessorCore, NULL, &len);
  char *buf = len ? malloc(len) : NULL;
  if (buf && GetLogicalProcessorInformationEx(
                 RelationProcessorCore, (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX)buf, &len)) {
    /* each core: its lowest allowed logical processor in our group */
    for (DWORD off = 0; off < len && n < max;) {
      PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX e =
          (PSYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX)(buf + off);
      for (WORD g = 0; g < e->Processor.GroupCount; g++) {
        if (e->Processor.GroupMask[g].Group != group) continue;
        KAFFINITY m = e->Processor.GroupMask[g].Mask & mask;
        for (int cpu = 0; m && cpu < (int)(8 * sizeof m); cpu++)
          if (m & ((KAFFINITY)1 << cpu)) {
            cpus[n++] = cpu;
            break;
          }
      }
      off += e->Size;
    }
  }
  free(buf);
  if (n == 0) /* no topology: every allowed logical processor */
    for (int cpu = 0; cpu < (int)(8 * sizeof mask) && n < max; cpu++)
      if (mask & ((KAFFINITY)1 << cpu)) cpus[n++] = cpu;
  if (n == 0) cpus[n++] = 0;
  /* in CPU order, as on Linux */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && cpus[j - 1] > cpus[j]; j--) {
      int t = cpus[j];
      cpus[j] = cpus[j - 1];
      cpus[j - 1] = t;
    }
  return n;
}
