/* The fast gelu loops actk_gelu_pieces times, built as the AVX2 arm is (vec_avx2.h and the
 * math headers, -mavx2 -mfma -mf16c): the shipped kernel's two loops, then one variant per
 * piece (gelu_pieces_body.h). */
#include "x86/vec_avx2.h"

#include "kernels/pipe_loop.h"
#include "math/gelu_fast.h"
#include "gelu_pieces.h"

/* the shipped math, one vector per step (the loop before software pipelining) */
ACTK_NOINLINE static void shipped(const float *x, float *y, size_t n) {
  for (size_t i = 0; i + VLEN <= n; i += VLEN) vf_store_f32(y + i, gelu_fast_v(vf_load_f32(x + i)));
}

/* the shipped math software-pipelined (instantiate.h's ACTK_PIPE_LOOP) */
ACTK_NOINLINE static void pipelined(const float *x, float *y, size_t n) {
  size_t i = 0;
  ACTK_PIPE_LOOP(gelu_fast, f32, i, n, y, vf_load_f32(x + i), ACTK_PIPE_AS_IS)
}

#define PIECE_NAME all_pieces
#include "gelu_pieces_body.h"
#define PIECE_NAME no_division
#define PIECE_DIV 0
#include "gelu_pieces_body.h"
#define PIECE_NAME lookup8
#define PIECE_LUT 8
#include "gelu_pieces_body.h"
#define PIECE_NAME no_lookup
#define PIECE_LUT 0
#include "gelu_pieces_body.h"
#define PIECE_NAME gather
#define PIECE_LUT 1
#include "gelu_pieces_body.h"
#define PIECE_NAME pblendvb
#define PIECE_LUT 2
#include "gelu_pieces_body.h"
#define PIECE_NAME no_check
#define PIECE_CHECK 0
#include "gelu_pieces_body.h"
#define PIECE_NAME no_clamps
#define PIECE_CLAMP 0
#include "gelu_pieces_body.h"
#define PIECE_NAME no_split
#define PIECE_SPLIT 0
#include "gelu_pieces_body.h"
#define PIECE_NAME and_or
#define PIECE_EXTRA 4
#include "gelu_pieces_body.h"
#define PIECE_NAME add4_off
#define PIECE_EXTRA 1
#include "gelu_pieces_body.h"
#define PIECE_NAME fma4_off
#define PIECE_EXTRA 2
#include "gelu_pieces_body.h"
#define PIECE_NAME add4_on
#define PIECE_EXTRA 3
#include "gelu_pieces_body.h"
#define PIECE_NAME step2
#define PIECE_STEP2 1
#include "gelu_pieces_body.h"

const gelu_piece gelu_pieces[] = {
    {"shipped", "actk's fast gelu, one vector per step (before this change)", shipped},
    {"pipelined", "the same math, each head one step before its tail (shipped)", pipelined},
    {"all_pieces", "this file's copy of the math (the reference for the rows below)", all_pieces},
    {"no_division", "a VMULPS in the VDIVPS's place", no_division},
    {"lookup8", "the 16-entry table as one VPERMPS (8 entries)", lookup8},
    {"no_lookup", "no table (2^(n/16) as 2^(n>>4))", no_lookup},
    {"gather", "the table by VGATHERDPS", gather},
    {"pblendvb", "the two halves blended by VPBLENDVB", pblendvb},
    {"no_check", "no rare-lane test (and no rare lanes)", no_check},
    {"no_clamps", "no VMINPS clamp of t, no VMAXPS of max(-0, x)", no_clamps},
    {"no_split", "t^2 not split (no VFMSUB, no VADDPS)", no_split},
    {"and_or", "+ an and and an or (what keeps the dummy chains below)", and_or},
    {"add4_off", "+4 VADDPS on a chain beside the kernel's (and an and, an or)", add4_off},
    {"fma4_off", "+4 FMAs on a chain beside the kernel's (and an and, an or)", fma4_off},
    {"add4_on", "+4 VADDPS at the end of the kernel's chain (and an and, an or)", add4_on},
    {"step2", "two vectors per step", step2},
};
const size_t gelu_pieces_count = sizeof gelu_pieces / sizeof gelu_pieces[0];
