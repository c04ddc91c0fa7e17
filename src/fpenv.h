/* The floating-point environment, behind one arch-neutral interface.
 *
 * A call runs in round-to-nearest with every exception masked: the kernels'
 * error bounds assume round-to-nearest (the exp reduction's rounding trick
 * does too), and computing every path for every lane raises exceptions on
 * the lanes that do not use them. The one setting kept is the caller's
 * flush-to-zero / denormals-are-zero (documented: subnormals are flushed as
 * the hardware does it). actk_fpenv_leave puts the caller's state back,
 * exception flags included, when enter had to change it; in the default
 * environment the check costs one read of the control register.
 *
 * A pool carries the caller's control word to the workers that run its
 * tasks (actk_fpcsr_get / actk_fpcsr_set), so a result never depends on
 * which thread computed it. */
#ifndef ACTK_FPENV_H
#define ACTK_FPENV_H

typedef unsigned actk_fpcsr; /* the control (and status) register, opaque */

typedef struct {
  actk_fpcsr saved;
  int changed;
} actk_fpenv;

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

#define ACTK_MXCSR_FTZ_DAZ 0x8040u /* flush-to-zero, denormals-are-zero */
#define ACTK_MXCSR_DEFAULT 0x1f80u /* every exception masked, round to nearest */

static inline actk_fpcsr actk_fpcsr_get(void) { return _mm_getcsr(); }
static inline void actk_fpcsr_set(actk_fpcsr c) { _mm_setcsr(c); }

static inline actk_fpenv actk_fpenv_enter(void) {
  unsigned c = _mm_getcsr();
  unsigned want = (c & ACTK_MXCSR_FTZ_DAZ) | ACTK_MXCSR_DEFAULT;
  actk_fpenv e = {c, (c & 0xffc0u) != want};
  if (e.changed) _mm_setcsr(want | (c & 0x3fu)); /* keep the caller's flags */
  return e;
}
#else
/* Elsewhere the kernels assume the C default environment, which is what
 * threads start with; an aarch64 implementation would read FPCR here. */
static inline actk_fpcsr actk_fpcsr_get(void) { return 0; }
static inline void actk_fpcsr_set(actk_fpcsr c) { (void)c; }
static inline actk_fpenv actk_fpenv_enter(void) {
  actk_fpenv e = {0, 0};
  return e;
}
#endif

static inline void actk_fpenv_leave(actk_fpenv e) {
  if (e.changed) actk_fpcsr_set(e.saved);
}

#endif
