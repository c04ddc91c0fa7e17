/* What the tests need from the operating system, one spelling per OS:
 * inaccessible guard pages, the environment, FP traps. POSIX (Linux, and
 * macOS/BSD untested) and Windows (MinGW-w64 under Wine in CI). */
#ifndef ACTK_TEST_OS_H
#define ACTK_TEST_OS_H

#include <stddef.h>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#define NOMINMAX /* windows.h's min/max macros would eat tests' ->min()/->max() */
#include <windows.h>
#include <xmmintrin.h>

#include <stdlib.h>

static inline size_t test_page_size(void) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return si.dwPageSize;
}
/* bytes (whole pages) of fresh memory, read-write or inaccessible; NULL on failure */
static inline void *test_pages_map(size_t bytes, int accessible) {
  return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT,
                      accessible ? PAGE_READWRITE : PAGE_NOACCESS);
}
/* makes [p, p + bytes) inaccessible: 0 on success */
static inline int test_pages_noaccess(void *p, size_t bytes) {
  DWORD old;
  return VirtualProtect(p, bytes, PAGE_NOACCESS, &old) ? 0 : -1;
}
static inline void test_pages_unmap(void *p, size_t bytes) {
  (void)bytes;
  VirtualFree(p, 0, MEM_RELEASE);
}
static inline long test_online_cpus(void) {
  return (long)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
}
static inline void test_setenv(const char *name, const char *value) { _putenv_s(name, value); }
/* the clock of a condition variable's timed wait: winpthreads takes the
 * deadline as CLOCK_REALTIME whatever pthread_condattr_setclock said */
#define TEST_COND_CLOCK CLOCK_REALTIME
static inline void test_unsetenv(const char *name) { _putenv_s(name, ""); } /* "" removes it */
/* feenableexcept/fedisableexcept (glibc): on x86-64 the SSE unit is what
 * the kernels use, so its masks in MXCSR (bit 7 + the FE_ bit's position) */
static inline void test_fp_traps(int excepts, int on) {
  unsigned m = ((unsigned)excepts & 0x3fu) << 7, c = _mm_getcsr();
  _mm_setcsr(on ? (c & ~m) : (c | m));
}
#else
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static inline size_t test_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }
static inline void *test_pages_map(size_t bytes, int accessible) {
  void *p = mmap(NULL, bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}
static inline int test_pages_noaccess(void *p, size_t bytes) {
  return mprotect(p, bytes, PROT_NONE);
}
static inline void test_pages_unmap(void *p, size_t bytes) { munmap(p, bytes); }
static inline long test_online_cpus(void) { return sysconf(_SC_NPROCESSORS_ONLN); }
static inline void test_setenv(const char *name, const char *value) { setenv(name, value, 1); }
#define TEST_COND_CLOCK CLOCK_MONOTONIC
static inline void test_unsetenv(const char *name) { unsetenv(name); }
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
#include <fenv.h>
static inline void test_fp_traps(int excepts, int on) {
  if (on)
    feenableexcept(excepts);
  else
    fedisableexcept(excepts);
}
#endif
#endif

#endif
