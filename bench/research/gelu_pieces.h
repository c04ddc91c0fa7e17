/* The loops actk_gelu_pieces times (gelu_pieces_avx2.c): y = a variant of fast gelu of x. */
#ifndef ACTK_BENCH_GELU_PIECES_H
#define ACTK_BENCH_GELU_PIECES_H

#include <stddef.h>

typedef struct {
  const char *name, *what;
  void (*loop)(const float *x, float *y, size_t n);
} gelu_piece;

extern const gelu_piece gelu_pieces[];
extern const size_t gelu_pieces_count;

#endif
