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
  unsigned saved_status; /* AArch64: FPSR (x86 keeps its flags in MXCSR) */
} actk_fpenv;

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>

#define ACTK_MXCSR_FTZ_DAZ 0x8040u /* flush-to-zero, denormals-are-zero */
#define ACTK_MXCSR_DEFAULT 0x1f80u /* every exception masked, round to nearest */

static inline actk_fpcsr actk_fpcsr_get(void) { return _mm_getcsr(); }
static inline void actk_fpcsr_set(actk_fpcsr c) { _mm_setcsr(c); }

static inline actk_fpenv actk_fpenv_enter(void) {
  unsigned c = _mm_getcsr();
  unsigned want = (c & ACTK_MXCSR_FTZ_DAZ) | ACTK_MXCSR_DEFAULT;
  actk_fpenv e = {c, (c & 0xffc0u) != want, 0};
  if (e.changed) _mm_setcsr(want | (c & 0x3fu)); /* keep the caller's flags */
  return e;
}

static inline void actk_fpenv_leave(actk_fpenv e) {
  if (e.changed) actk_fpcsr_set(e.saved);
}
#elif defined(__aarch64__) || defined(_M_ARM64)
#include <stdint.h>

/* FPCR's bits a call sets to the IEEE default (0): FEAT_AFP's AH and NEP
 * (bits 1-2: AH changes NaN and max/min rules), the trap enables IOE..IXE
 * (8-12) and IDE (15), RMode (22-23: round to nearest), DN (25: NaNs
 * propagate) and AHP (26: IEEE half). The flush settings stay the caller's,
 * as FTZ/DAZ do on x86: FZ (24: with AH 0, inputs and results flushed) and
 * FEAT_AFP's FIZ (0: inputs flushed); the others (FZ16 ...) are left alone. */
#define ACTK_FPCR_FORCED 0x06c09f06u

/* The registers, per compiler: GCC and clang through inline asm, MSVC
 * through its system-register intrinsics (untested: docs/platforms.md). */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
/* ARM64_SYSREG(op0 3, op1 3, CRn 4, CRm 4, op2 0 / 1), as <winnt.h> names
 * them; spelled out so this header needs no <windows.h> */
#ifndef ARM64_FPCR
#define ARM64_FPCR 0x5A20
#endif
#ifndef ARM64_FPSR
#define ARM64_FPSR 0x5A21
#endif
static inline actk_fpcsr actk_fpcsr_get(void) { return (actk_fpcsr)_ReadStatusReg(ARM64_FPCR); }
static inline void actk_fpcsr_set(actk_fpcsr c) { _WriteStatusReg(ARM64_FPCR, (__int64)c); }
static inline unsigned actk_fpsr_get(void) { return (unsigned)_ReadStatusReg(ARM64_FPSR); }
static inline void actk_fpsr_set(unsigned s) { _WriteStatusReg(ARM64_FPSR, (__int64)s); }
#else
static inline actk_fpcsr actk_fpcsr_get(void) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpcr" : "=r"(r));
  return (actk_fpcsr)r;
}
static inline void actk_fpcsr_set(actk_fpcsr c) {
  uint64_t r = c;
  __asm__ volatile("msr fpcr, %0" : : "r"(r) : "memory");
}
static inline unsigned actk_fpsr_get(void) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpsr" : "=r"(r));
  return (unsigned)r;
}
static inline void actk_fpsr_set(unsigned s) {
  uint64_t r = s;
  __asm__ volatile("msr fpsr, %0" : : "r"(r) : "memory");
}
#endif

/* Written only when a forced bit is set; then the caller's FPSR (its
 * cumulative exception flags) comes back with its FPCR, as x86's MXCSR. */
static inline actk_fpenv actk_fpenv_enter(void) {
  actk_fpcsr c = actk_fpcsr_get();
  actk_fpenv e = {c, (c & ACTK_FPCR_FORCED) != 0, 0};
  if (e.changed) {
    e.saved_status = actk_fpsr_get();
    actk_fpcsr_set(c & ~ACTK_FPCR_FORCED);
  }
  return e;
}

static inline void actk_fpenv_leave(actk_fpenv e) {
  if (e.changed) {
    actk_fpcsr_set(e.saved);
    actk_fpsr_set(e.saved_status);
  }
}
#else
/* Elsewhere the kernels assume the C default environment, which is what
 * threads start with. */
static inline actk_fpcsr actk_fpcsr_get(void) { return 0; }
static inline void actk_fpcsr_set(actk_fpcsr c) { (void)c; }
static inline actk_fpenv actk_fpenv_enter(void) {
  actk_fpenv e = {0, 0, 0};
  return e;
}
static inline void actk_fpenv_leave(actk_fpenv e) { (void)e; }
#endif

#endif
