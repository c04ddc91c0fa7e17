/* The rare lanes of a fast kernel (past its clamp, NaN), computed by the accurate kernel out
 * of the loop's line. Inlined into the loop, the accurate kernel's constants took the fast
 * path's registers: on AVX2 (16 vector registers) sigmoid's fast loop reloaded its constants
 * from the stack every vector and ran 0.317 ns/element where it runs 0.257 out of line
 * (Zen 4, 64 Ki). The bits are the same: the same lanes take the same math.
 *
 *   ACTK_RARE_LANES(name, acc)        vf name(vm fast, vf y, vf x): fast ? y : acc(x)
 *   ACTK_RARE_LANES_PARAM(name, acc)  vf name(vm fast, vf y, vf x, vf a): fast ? y : acc(x, a)
 *
 * A kernel returns y when every lane is fast and name(...) otherwise. */
#ifndef ACTK_MATH_RARE_LANES_H
#define ACTK_MATH_RARE_LANES_H

/* Win64 passes vector arguments by reference, and MinGW gcc reads them with aligned moves from
 * the caller's stack, which that ABI keeps only 16-byte aligned (akin to GCC bug 54412): out of
 * line, these functions faulted under Wine on every NaN lane. There they stay inline, as before. */
#if defined(_WIN64)
#define ACTK_RARE_FN ACTK_INLINE
#else
#define ACTK_RARE_FN ACTK_NOINLINE static
#endif

#define ACTK_RARE_LANES(name, acc)                                                                 \
  ACTK_RARE_FN vf name(vm fast, vf y, vf x) { return vf_select(fast, y, acc(x)); }
#define ACTK_RARE_LANES_PARAM(name, acc)                                                           \
  ACTK_RARE_FN vf name(vm fast, vf y, vf x, vf a) { return vf_select(fast, y, acc(x, a)); }

#endif
