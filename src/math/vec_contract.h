/* The small vector interface every arm implements, so that each op's math is
 * written once (the headers in src/math/) and every arm runs the same operation sequence.
 * Arms that implement these operations with IEEE single rounding produce
 * bit-identical results: that is the point, and tests check it.
 *
 * An arm header defines, before including any src/math/ header:
 *
 *   types   vf (floats), vi (int32 lanes), vm (lane mask)
 *   VLEN    lanes per vf
 *
 *   vf vf_splat(float)            vi vi_splat(int32_t)
 *   vf vf_add/sub/mul/div(a, b)   correctly rounded
 *   vf vf_fma(a, b, c)            a*b + c, one rounding
 *   vf vf_fnma(a, b, c)           c - a*b, one rounding
 *   vf vf_fms(a, b, c)            a*b - c, one rounding
 *   vf vf_max(a, b)               a > b ? a : b   (x86 MAXPS: b if either is NaN)
 *   vf vf_min(a, b)               a < b ? a : b   (x86 MINPS: b if either is NaN)
 *   vf vf_floor(a)                largest integer <= a (exact)
 *   vf vf_and/or/xor(a, b)        bitwise
 *   vf vf_andnot(a, b)            ~a & b, bitwise
 *   vm vm_lt/le/ge(a, b)          ordered compares: false if either is NaN
 *   vm vm_isnan(a)                a is NaN
 *   vf vf_select(m, t, f)         m ? t : f per lane
 *   vf vf_keep(m, a)              m ? a : +0 per lane
 *   vf vf_select_sign(x, n, p)    sign bit of x set ? n : p, per lane
 *   int vm_all(m)                 every lane of m is set
 *   vi vf_bits(vf), vf vi_bits(vi) reinterpret
 *   vi vi_add/sub(a, b)           wrapping int32
 *   vi vi_max/min(a, b)           signed int32
 *   vi vf_to_vi_trunc(a)          toward zero; INT32_MIN if NaN or out of range
 *   vi vi_sll/srl/sra(a, imm)     shifts by a constant
 *   vf vf_lookup8(const float t[8], vi k)   t[k & 7] per lane
 *
 * Vector arms (VLEN even) also define, for interleaved RoPE:
 *   vf vf_swap_pairs(a)           lanes (2j, 2j+1) swapped
 *   vf vf_even_sign()             -0 on even lanes, +0 on odd
 *   vf vf_load_dup_first(p, k)    p[0..k) (k <= VLEN/2), each in two lanes; others 0
 */
#ifndef ACTK_MATH_VEC_CONTRACT_H
#define ACTK_MATH_VEC_CONTRACT_H

#ifndef VLEN
#error "include an arm's vec_<arm>.h before the shared math"
#endif

/* The op math is a few dozen vector instructions per call site: it must be
 * inlined into the loops (the compiler's heuristics give up on tanh). */
#if defined(__GNUC__) || defined(__clang__)
#define ACTK_INLINE static inline __attribute__((always_inline))
/* A kernel loop inlined into another (silu into swish) shares its register
 * allocation and spills: measured 12% slower silu. Each loop stands alone. */
#define ACTK_NOINLINE __attribute__((noinline))
#else
#define ACTK_INLINE static inline
#define ACTK_NOINLINE
#endif

/* NaN in, the same NaN out (quieted, sign and payload kept) on every arm.
 * x86 FNMADD passes a NaN operand through unchanged while the scalar arm's
 * fmaf(-a, b, c) flips its sign, so ops that use fnma on a path a NaN can
 * reach apply this there (in their rare-lane path: NaN fails every fast-lane
 * test). Ops without such a path propagate the input NaN by construction.
 * x + x quiets a signalling NaN. */
#define ACTK_NAN_PASSTHROUGH(x, y) vf_select(vm_isnan(x), vf_add((x), (x)), (y))

#endif
