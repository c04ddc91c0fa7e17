/* CPUID and XGETBV, the one place that spells them per compiler: GCC and
 * clang (Linux, MinGW-w64, macOS) through <cpuid.h> and inline asm, MSVC
 * through its intrinsics (untested: docs/platforms.md). */
#ifndef ACTK_PLATFORM_X86_CPUID_H
#define ACTK_PLATFORM_X86_CPUID_H

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
/* r = {eax, ebx, ecx, edx} of CPUID leaf/sub. */
static inline void actk_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
  int x[4];
  __cpuidex(x, (int)leaf, (int)sub);
  for (int i = 0; i < 4; i++) r[i] = (unsigned)x[i];
}
/* XCR0; only legal once CPUID.1:ECX.OSXSAVE is set (callers check). */
static inline unsigned long long actk_xgetbv0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static inline void actk_cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
  __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}
/* the instruction, not _xgetbv: that one needs -mxsave on this file */
static inline unsigned long long actk_xgetbv0(void) {
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}
#endif

#endif
