/* What the operating system says about the CPUs, behind one interface with
 * one file per OS (sysinfo_linux.c, sysinfo_windows.c, sysinfo_macos.c,
 * sysinfo_posix.c for any other POSIX host; CMakeLists.txt picks one). The
 * core list of the affinity mask is topology.h's actk_topology_core_cpus,
 * implemented in the same file. x86 CPUID itself is OS-neutral (cpu.c). */
#ifndef ACTK_PLATFORM_SYSINFO_H
#define ACTK_PLATFORM_SYSINFO_H

#include "../cpu.h"

/* Logical CPUs online (all processor groups on Windows); 0 if unknown. */
int actk_sys_logical_cpus(void);

/* The facts only the OS can give, on top of what CPUID put in c: AArch64's
 * features (Linux HWCAP, macOS sysctl), macOS's AVX-512 state (the kernel
 * enables ZMM state lazily, so XCR0 may not show it yet). */
void actk_sys_cpu_features(actk_cpu *c);

#endif
