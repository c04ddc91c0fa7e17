/* The monotonic clock on Windows: the performance counter (MinGW-w64 and
 * MSVC alike; MSVC's C runtime has no clock_gettime). Its frequency is fixed
 * at boot, so it is read once; the racing first reads all store the same
 * value. */
#include "platform/clock.h"

#define WIN32_LEAN_AND_MEAN
#define NOMINMAX
#include <windows.h>

#include <stdatomic.h>

static _Atomic uint64_t g_freq; /* counts per second; 0 until first read */

uint64_t actk_clock_ns(void) {
  uint64_t freq = atomic_load_explicit(&g_freq, memory_order_relaxed);
  if (freq == 0) {
    LARGE_INTEGER f;
    QueryPerformanceFrequency(&f); /* never fails since Windows XP */
    freq = (uint64_t)f.QuadPart;
    atomic_store_explicit(&g_freq, freq, memory_order_relaxed);
  }
  LARGE_INTEGER c;
  QueryPerformanceCounter(&c);
  const uint64_t count = (uint64_t)c.QuadPart;
  /* whole seconds and the rest apart: count * 1e9 overflows 64 bits after
   * ~30 minutes of uptime at 10 MHz; rest * 1e9 stays under freq * 1e9 */
  return count / freq * 1000000000u + count % freq * 1000000000u / freq;
}
