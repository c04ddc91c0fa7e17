/* The vector contract: the small interface every instruction set's
 * implementation provides, so that each op's math is written once (the
 * headers in src/math/) and every implementation runs the same operation
 * sequence. Implementations that follow the rules below give bit-identical
 * results: that is the point, and tests check it (tests/test_bits.c, every
 * implementation against the scalar one; tools/actk_sweep --vs-isa over all inputs).
 *
 * An implementation header (src/scalar/vec_scalar.h, src/x86/vec_avx2.h,
 * src/x86/vec_avx512.h, src/arm/vec_neon.h) defines, before any src/math/
 * header is included:
 *
 * Types and width
 *   vf        VLEN float lanes          vi   VLEN int32 lanes
 *   vm        a lane mask (what compares return and selects take)
 *   VLEN      lanes per vector, a power of two (1 for the scalar implementation)
 *
 * Arithmetic: IEEE binary32, round to nearest even, one rounding each
 *   vf vf_splat(float)            vi vi_splat(int32_t)
 *   vf vf_add/sub/mul/div(a, b)   correctly rounded
 *   vf vf_fma(a, b, c)            a*b + c, one rounding
 *   vf vf_fnma(a, b, c)           c - a*b, one rounding
 *   vf vf_fms(a, b, c)            a*b - c, one rounding
 *   vf vf_max(a, b)               a > b ? a : b  (so b if either is NaN: x86 MAXPS)
 *   vf vf_min(a, b)               a < b ? a : b  (so b if either is NaN: x86 MINPS)
 *   vf vf_floor(a)                largest integer <= a, exact, NaN stays NaN
 *   vf vf_and/or/xor(a, b)        bitwise
 *   vf vf_andnot(a, b)            ~a & b, bitwise
 *
 * Compares and selects
 *   vm vm_lt/le/ge/eq(a, b)       ordered compares: false if either is NaN
 *   vm vm_and(m1, m2)             both masks set
 *   vm vm_isnan(a)                a is NaN
 *   vm vm_unord(a, b)             a or b is NaN (one compare for two vectors)
 *   vf vf_select(m, t, f)         m ? t : f per lane
 *   vf vf_keep(m, a)              m ? a : +0 per lane
 *   vf vf_select_sign(x, n, p)    sign bit of x set ? n : p, per lane (NaN and
 *                                 -0 included: the bit, not a compare)
 *   int vm_all(m)                 every lane of m is set
 *   int vm_any(m)                 some lane of m is set
 *
 * Integer lanes
 *   vi vf_bits(vf), vf vi_bits(vi) reinterpret the 32 bits
 *   vi vi_add/sub(a, b)           wrapping int32
 *   vi vi_max/min(a, b)           signed int32
 *   vi vf_to_vi_trunc(a)          toward zero; INT32_MIN if NaN or out of
 *                                 range (x86 CVTTPS2DQ)
 *   vi vi_sll/srl/sra(a, imm)     shifts by a constant 0..31 (srl logical,
 *                                 sra arithmetic)
 *   vf vf_lookup8(const float t[8], vi k)   t[k & 7] per lane
 *   vf vf_lookup16(const float t[16], vi k) t[k & 15] per lane (one VPERMPS on AVX-512; two
 *                                 and a blend on AVX2; one four-register TBL on NEON)
 *
 * Powers of two, for n an integer-valued float in [-126, 127] and t = n + ACTK_ROUND_MAGIC
 * (n in t's low mantissa bits): callers pass both, each implementation takes the cheaper (the
 * AVX-512 one VSCALEFPS on n; the others build the exponent from t)
 *   vf vf_ldexp_exact(vf c, vf n, vf t)   c 2^n, exact: c and c 2^n normal floats
 *   vf vf_ldexp(vf a, vf n, vf t)         a 2^n, rounded once (a subnormal result rounds as
 *                                 a multiply by the float 2^n rounds it)

 * Memory (pointers need only their element's alignment or none at all:
 * callers from other languages; implementations use unaligned accesses)
 *   vf vf_load_f32(const float *p)              p[0 .. VLEN)
 *   void vf_store_f32(float *p, vf a)
 *   vf vf_load_first_f32(const float *p, size_t k)  p[0 .. k), 0 < k <= VLEN; the
 *                                 other lanes +0; elements past k are never
 *                                 read (a masked load: they may be unmapped)
 *   void vf_store_first_f32(float *p, size_t k, vf a)   lanes [0, k) only;
 *                                 nothing past k is written
 *   vi vi_load_u16(const uint16_t *p)           p[0 .. VLEN), zero-extended
 *   void vi_store_u16(uint16_t *p, vi a)        each lane (below 2^16) to 16 bits
 *   vi vi_load_first_u16(p, k), void vi_store_first_u16(p, k, a)   the same for
 *                                 lanes [0, k), as the f32 ones
 *
 * That is the ISA core: an implementation of it gets every element type from
 * the type layer (math/vec_types.h, included at the end of each vec_<isa>.h),
 * which builds, per type T of the op table (f32, f16, bf16):
 *   vf vf_load_<T>(const T *p), void vf_store_<T>(T *p, vf a), and their
 *   _first forms: T widened to f32 lanes exactly, narrowed back with round to
 *   nearest even (for f32 plain copies of the bits, NaN payloads included);
 *   void vf_store_<T>_q(T *p, vf a), vf_store_first_<T>_q(p, k, a)
 *                                 the stores of the activation kernels: the bits
 *                                 of vf_store_<T> for every a whose NaN lanes
 *                                 hold quiet NaNs with the bottom 16 bits 0 (what
 *                                 arithmetic makes of a NaN loaded from a 16-bit
 *                                 type, and the default NaN), so that bf16 needs
 *                                 no NaN test: round to nearest even on the bits,
 *                                 (u + 0x7fff + lsb) >> 16, for every u on every
 *                                 implementation (f32, f16: the plain stores)
 * and an implementation may convert a type natively instead (ACTK_NATIVE_<T>:
 * the x86 ones use F16C and their own bf16 rounding), with the same bits, and
 * two vectors at a time where that converts cheaper:
 *   ACTK_PAIR_<T>                 defined to 1 with
 *     void vf_load_pair_<T>(const T *p, vf *a, vf *b)   p[0 .. 2 VLEN): a the even
 *                                 elements p[0], p[2] .. p[2 VLEN - 2], b the odd ones
 *                                 (the kernels are elementwise; RoPE's interleaved
 *                                 style takes a and b as the pairs' two halves)
 *     void vf_store_pair_<T>_q(T *p, vf a, vf b)        the inverse: a to the even
 *                                 elements, b to the odd ones (each with the bits of
 *                                 vf_store_<T>_q)
 *
 * Optional, for RoPE's interleaved style (ACTK_ROPE_PAIRS defined to 1 with
 * them; without, math/rope.h takes those rows one pair at a time, with the
 * same bits):
 *   vf vf_swap_pairs(a)           lanes (2j, 2j+1) swapped
 *   vf vf_even_sign()             -0 on even lanes, +0 on odd
 *   vf vf_load_dup_first(p, k)    p[0..k) (k <= VLEN/2), each in two lanes;
 *                                 others 0; nothing past k read
 *
 * Rules every implementation must reproduce (where instruction sets differ,
 * the math headers are written so that only these matter):
 *   - NaN operands: an arithmetic operation with exactly one NaN operand
 *     returns that NaN quieted (sign and payload kept), as x86 does; x + x
 *     quiets a signalling NaN. Which operand wins when several are NaN is
 *     not portable, so the math never depends on it (it selects or rebuilds
 *     such results explicitly: ACTK_NAN_PASSTHROUGH below, rope_nan).
 *     vf_fnma's NaN passes through unchanged on x86 while fmaf(-a, b, c)
 *     (and NEON's FMLS) flips a's sign, and vf_fms's NaN c likewise
 *     (fmaf(a, b, -c)): ops apply ACTK_NAN_PASSTHROUGH where a NaN can reach
 *     an fnma, and no result takes c's NaN from an fms. On AArch64 an fma
 *     whose product is inf * 0 gives the default NaN, not a quiet NaN
 *     addend: no op's math forms one.
 *   - No flush to zero of its own: subnormal inputs and results are IEEE
 *     (the caller's FTZ/DAZ apply, src/fpenv.h).
 *   - Saturation and clamps are written in the math as vf_min/vf_max with
 *     the NaN-carrying operand second, so a NaN passes a clamp.
 *   - Masked lanes of a tail go through the same arithmetic as full
 *     vectors: element i's result depends on x[i] only.
 *   - Integer conversions and shifts as above; no rounding mode other than
 *     nearest even is ever assumed or set (a call runs in the default
 *     environment, src/fpenv.h).
 */
#ifndef ACTK_MATH_VEC_CONTRACT_H
#define ACTK_MATH_VEC_CONTRACT_H

#ifndef VLEN
#error "include an implementation's vec_<isa>.h before the shared math"
#endif

/* The op math is a few dozen vector instructions per call site: it must be
 * inlined into the loops (the compiler's heuristics give up on tanh). */
#if defined(__GNUC__) || defined(__clang__)
#define ACTK_INLINE static inline __attribute__((always_inline))
/* A kernel loop inlined into another (silu into swish) shares its register
 * allocation and spills: measured 12% slower silu. Each loop stands alone. */
#define ACTK_NOINLINE __attribute__((noinline))
/* A branch taken for rare lanes only: its code goes out of the loop's line. */
#define ACTK_UNLIKELY(c) __builtin_expect(!!(c), 0)
#elif defined(_MSC_VER) /* untested (docs/platforms.md) */
#define ACTK_INLINE static __forceinline
#define ACTK_NOINLINE __declspec(noinline)
#define ACTK_UNLIKELY(c) (c)
#else
#define ACTK_INLINE static inline
#define ACTK_NOINLINE
#define ACTK_UNLIKELY(c) (c)
#endif

#include <math.h> /* INFINITY */
#include <stdint.h>
#include <string.h>

/* The one quiet NaN every arm returns, 0x7fc00000, in standard C (C's NAN
 * is not it everywhere: MSVC's is INFINITY * 0, the negative one). */
ACTK_INLINE float actk_qnanf(void) {
  const uint32_t u = 0x7fc00000u;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* NaN in, the same NaN out (quieted, sign and payload kept) on every implementation, for
 * ops with an fnma on a path a NaN can reach (in their rare-lane path: NaN
 * fails every fast-lane test). Ops without such a path propagate the input
 * NaN by construction. */
#define ACTK_NAN_PASSTHROUGH(x, y) vf_select(vm_isnan(x), vf_add((x), (x)), (y))

#endif
