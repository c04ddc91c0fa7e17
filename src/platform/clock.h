/* The pool's clock: monotonic nanoseconds, behind one interface with one file
 * per platform (clock_posix.c: clock_gettime(CLOCK_MONOTONIC);
 * clock_windows.c: QueryPerformanceCounter, which MSVC's C runtime needs, as
 * it has no clock_gettime). Only differences of its values mean anything. */
#ifndef ACTK_PLATFORM_CLOCK_H
#define ACTK_PLATFORM_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point; never goes back. */
uint64_t actk_clock_ns(void);

#endif
