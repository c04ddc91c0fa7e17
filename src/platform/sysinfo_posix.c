/* Any other POSIX host (the BSDs ...): online CPUs from sysconf, each taken
 * as a core (no portable topology or affinity query). Untested
 * (docs/platforms.md). */
#include "../topology.h"
#include "sysinfo.h"

#include <limits.h>
#include <unistd.h>

int actk_sys_logical_cpus(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 && online <= INT_MAX ? (int)online : 0;
}

void actk_sys_cpu_features(actk_cpu *c) {
#if defined(__aarch64__)
  c->is_arm64 = 1; /* no portable feature query: NEON (baseline) only */
  c->has_asimd = 1;
  c->source = "baseline";
#else
  (void)c;
#endif
}

int actk_topology_core_cpus(int *cpus, int max) {
  int n = actk_sys_logical_cpus(), i;
  if (n < 1) n = 1;
  for (i = 0; i < n && i < max; i++) cpus[i] = i;
  return i;
}
