/* macOS: everything from sysctl. Written for macOS, never built or run here
 * (docs/platforms.md).
 * - cores: hw.perflevel0.physicalcpu (the performance cores of Apple
 *   silicon: the efficiency cores are several times slower and would be the
 *   critical path of every chunked call), else hw.physicalcpu (Intel Macs,
 *   macOS before 12). macOS has no affinity masks: cpus[] are just indices.
 * - Apple silicon: NEON from hw.optional.neon (hw.optional.AdvSIMD on newer
 *   releases), BF16 from hw.optional.arm.FEAT_BF16 (macOS 12+).
 * - Intel Macs: the kernel turns AVX-512 state on at a thread's first AVX-512
 *   instruction, so XCR0 may not show ZMM state yet; hw.optional.avx512f is
 *   Apple's documented answer and replaces XCR0's ZMM bit. */
#include "../topology.h"
#include "sysinfo.h"

#include <sys/sysctl.h>
#include <sys/types.h>

static int sysctl_int(const char *name, int fallback) {
  int v = 0;
  size_t len = sizeof v;
  return sysctlbyname(name, &v, &len, NULL, 0) == 0 && len == sizeof v ? v : fallback;
}

int actk_sys_logical_cpus(void) { return sysctl_int("hw.logicalcpu", 0); }

void actk_sys_cpu_features(actk_cpu *c) {
  c->source = "sysctl";
#if defined(__aarch64__) || defined(__arm64__)
  c->is_arm64 = 1;
  c->has_asimd = sysctl_int("hw.optional.neon", 0) || sysctl_int("hw.optional.AdvSIMD", 0);
  c->has_bf16 = sysctl_int("hw.optional.arm.FEAT_BF16", 0);
#elif defined(__x86_64__)
  if (c->os_saves_ymm) c->os_saves_zmm = sysctl_int("hw.optional.avx512f", 0);
#endif
}

int actk_topology_core_cpus(int *cpus, int max) {
  int n = sysctl_int("hw.perflevel0.physicalcpu", 0);
  if (n < 1) n = sysctl_int("hw.physicalcpu", 1);
  if (n < 1) n = 1;
  int i;
  for (i = 0; i < n && i < max; i++) cpus[i] = i;
  return i;
}
