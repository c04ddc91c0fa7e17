/* floor16: the pieces of the fast 16-bit kernels, timed apart (bench/actk_floor16.c).
 *
 * Each kernel runs n elements (a multiple of 16) through one loop of the AVX-512 arm's
 * vector contract (src/x86/vec_avx512.h): load a type, apply a core, store the type, so
 * that the cost of the widening and narrowing, of a division, and of each 16-bit core
 * alone can be read off one run. They are built from the library's own headers (the
 * same loads, stores and cores its kernels inline), outside the library. */
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

/* The table and its length. */
const floor16_kernel *floor16_kernels(size_t *count);

/* x rounded to f16 and to bf16 (the library's narrowing), n a multiple of 16 */
void floor16_narrow(const float *x, uint16_t *f16, uint16_t *bf16, size_t n);

#endif
