/* floor16: the pieces of the fast 16-bit kernels, timed apart (bench/actk_floor16.c).
 *
 * Each kernel runs n elements (a multiple of 32) through one loop of an x86 arm's
 * vector contract (src/x86/vec_avx512.h or vec_avx2.h): load a type, apply a core, store the type,
 * so that the cost of the widening and narrowing, of a division, and of each 16-bit core alone can
 * be read off one run. They are built from the library's own headers (the same loads, stores and
 * cores its kernels inline), outside the library, once per arm from one source (floor16_body.h). */
#ifndef ACTK_BENCH_FLOOR16_H
#define ACTK_BENCH_FLOOR16_H

#include <stddef.h>
#include <stdint.h>

typedef void (*floor16_fn)(const void *x, void *y, size_t n);

/* the data a kernel runs on: the bench's f32, f16 or bf16 input and output arrays */
typedef enum { FLOOR_F32, FLOOR_F16, FLOOR_BF16 } floor16_type;

typedef struct floor16_kernel {
  const char *name; /* "copy/bf16", "core/sigmoid/bf16/f32", ... */
  floor16_type type;
  floor16_fn fn;
  int needs_bf16; /* 1: runs only where the CPU has AVX512_BF16 */
} floor16_kernel;

/* An arm's table and its length (the AVX-512 one only where the CPU runs AVX-512 F/DQ/BW/VL,
 * the AVX2 one only where it runs AVX2 + FMA + F16C). */
const floor16_kernel *floor16_kernels_avx512(size_t *count);
const floor16_kernel *floor16_kernels_avx2(size_t *count);

/* x rounded to f16 and to bf16 (the library's narrowing, the same bits on both arms), n a
 * multiple of 32; each on its arm's CPUs only */
void floor16_narrow_avx512(const float *x, uint16_t *f16, uint16_t *bf16, size_t n);
void floor16_narrow_avx2(const float *x, uint16_t *f16, uint16_t *bf16, size_t n);

#endif
