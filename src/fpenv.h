/* The floating-point environment a call runs in. The kernels' error bounds
 * assume round-to-nearest (the exp reduction's rounding trick does too), and
 * computing every path for every lane raises exceptions on the lanes that do
 * not use them. So a call runs in round-to-nearest with every exception
 * masked, keeping only the caller's FTZ/DAZ (documented: they flush
 * subnormals as the hardware does), and puts the caller's MXCSR back,
 * exception flags included, when it had to change it. The common case (the
 * default environment) costs one stmxcsr. */
#ifndef ACTK_FPENV_H
#define ACTK_FPENV_H

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

#define ACTK_MXCSR_FTZ_DAZ 0x8040u /* flush-to-zero, denormals-are-zero */
#define ACTK_MXCSR_DEFAULT 0x1f80u /* every exception masked, round to nearest */

typedef struct {
  unsigned saved;
  int changed;
} actk_fpenv;

static inline actk_fpenv actk_fpenv_enter(void) {
  unsigned c = _mm_getcsr();
  unsigned want = (c & ACTK_MXCSR_FTZ_DAZ) | ACTK_MXCSR_DEFAULT;
  actk_fpenv e = {c, (c & 0xffc0u) != want};
  if (e.changed) _mm_setcsr(want | (c & 0x3fu));
  return e;
}

static inline void actk_fpenv_leave(actk_fpenv e) {
  if (e.changed) _mm_setcsr(e.saved);
}
#else
typedef int actk_fpenv;
static inline actk_fpenv actk_fpenv_enter(void) { return 0; }
static inline void actk_fpenv_leave(actk_fpenv e) { (void)e; }
#endif

#endif
