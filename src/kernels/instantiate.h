/* Instantiates every kernel of the registry (src/registry.h: op x tier x type)
 * and the implementation's table, for the vector type the including file set
 * up (its vec_<isa>.h). An implementation's translation unit is
 *
 *   #include "vec_<isa>.h"
 *   #include "../kernels/instantiate.h"
 *   ACTK_DEFINE_IMPL(actk_impl_<isa>, ACTK_FACTS_<ISA>)
 *
 * The kernels themselves are listed in kernels.gen.h (generated from the op
 * table, src/ops.toml): one line each, k_<op>_<type>_<tier>, naming the shape
 * below, its math function and its type. Loops run whole vectors, then one
 * masked vector for the tail through the same arithmetic: element i depends
 * only on x[i], never on n or on where a chunk began. Each kernel loads its
 * type, computes in f32 registers with the op's math function (src/math/) and
 * stores its
 * type (vf_load_<type>, vf_store_<type>_q of the vector contract: every kernel's
 * NaN result is its input's NaN quieted or the default NaN, which lets the bf16
 * store skip its NaN test; tests/test_types.c checks the NaN bits of every op). */
#ifndef ACTK_KERNELS_INSTANTIATE_H
#define ACTK_KERNELS_INSTANTIATE_H

#include <string.h>

#include "../impl.h"
#include "../math/bias.h"
#include "../math/gated.h"
#include "../math/rope.h"
#include "../registry.h"
#include "pipe_loop.h"

/* Pair loads and stores for the types whose implementation converts two vectors cheaper
 * at once (ACTK_PAIR_<type> of the vector contract: bf16 on AVX-512 and AVX2); for the
 * others ACTK_LOAD_PAIR and ACTK_STORE_PAIR name two single-vector steps. ACTK_STEP2(type)
 * below, a constant 0 or 1, says whether a loop takes pairs (otherwise its pair loop is dead
 * code). Whole pairs first, then single vectors, then the masked tail: each element's result
 * is the same whichever step it falls in. */
#ifndef ACTK_PAIR_f32
#define ACTK_PAIR_f32 0
#endif
#ifndef ACTK_PAIR_f16
#define ACTK_PAIR_f16 0
#endif
#ifndef ACTK_PAIR_bf16
#define ACTK_PAIR_bf16 0
#endif
#define ACTK_PAIR(type) ACTK_PAIR_##type
/* Whether a loop takes two vectors per step: the pair types above, and f16 with two single
 * loads, whose cores are serial chains (gelu's: Horner's G, then e^G) that leave the
 * out-of-order window short of work one vector at a time. Zen 4, 64 Ki, old and new binaries
 * alternated 6 times: packed swiglu, geglu and geglu_tanh f16 fast 8% faster on AVX-512, 5-11%
 * on AVX2 (actk_ratio --gated); the unary f16 kernels 1-5% (fast) and 2-8% (accurate) on
 * AVX-512, 2-7% and 2-12% on AVX2 (actk_ratio --types). f32 the same way measured mixed
 * (gated swiglu 0.207 -> 0.194 on AVX-512, geglu and geglu_tanh level): one. On AVX2 (16
 * registers) the two-vector loops keep some constants in stack slots, read as folded operands
 * (no extra instruction; tools/hotloop.py splits them out); one vector a step there measured
 * slower for every 16-bit kernel all the same (Zen 4, 64 Ki, 6 alternations: f16 fast 2-9%,
 * f16 accurate 1-10%; bf16, which then also loses its pair conversion, 10-27% and 1-18%). */
#define ACTK_STEP2_f32 ACTK_PAIR_f32
#define ACTK_STEP2_f16 1
#define ACTK_STEP2_bf16 ACTK_PAIR_bf16
#define ACTK_STEP2(type) ACTK_STEP2_##type
#define ACTK_PAIR_IMPL_0(type, op, q) op##_single_##type
#define ACTK_PAIR_IMPL_1(type, op, q) vf_##op##_pair_##type##q
#define ACTK_PAIR_IMPL(flag, type, op, q) ACTK_PAIR_IMPL_##flag(type, op, q)
#define ACTK_PAIR_FN(flag, type, op, q) ACTK_PAIR_IMPL(flag, type, op, q)
#define ACTK_LOAD_PAIR(type, p, a, b) ACTK_PAIR_FN(ACTK_PAIR_##type, type, load, )(p, a, b)
#define ACTK_STORE_PAIR(type, p, a, b) ACTK_PAIR_FN(ACTK_PAIR_##type, type, store, _q)(p, a, b)
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type name */
#define ACTK_SINGLE_PAIR(type, T)                                                                  \
  static inline void load_single_##type(const T *p, vf *a, vf *b) {                                \
    *a = vf_load_##type(p);                                                                        \
    *b = vf_load_##type(p + VLEN);                                                                 \
  }                                                                                                \
  static inline void store_single_##type(T *p, vf a, vf b) {                                       \
    vf_store_##type##_q(p, a);                                                                     \
    vf_store_##type##_q(p + VLEN, b);                                                              \
  }
/* NOLINTEND(bugprone-macro-parentheses) */
#define ACTK_I_SINGLE_PAIR(type, T, ...) ACTK_SINGLE_PAIR(type, T)

/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type name, f a function */

/* ---- unary: y = f(x) ---- */

/* pre: a staged kernel's ACTK_PIPE_LOOP, or nothing */
#define ACTK_UNARY_KERNEL_WITH(name, fn, type, T, pre)                                             \
  ACTK_NOINLINE static void name(const void *xv, void *yv, size_t n) {                             \
    const T *x = (const T *)xv;                                                                    \
    T *y = (T *)yv;                                                                                \
    size_t i = 0;                                                                                  \
    pre;                                                                                           \
    if (ACTK_STEP2(type))                                                                          \
      for (; i + 2 * VLEN <= n; i += 2 * VLEN) {                                                   \
        vf a, b;                                                                                   \
        ACTK_LOAD_PAIR(type, x + i, &a, &b);                                                       \
        ACTK_STORE_PAIR(type, y + i, fn(a), fn(b));                                                \
      }                                                                                            \
    for (; i + VLEN <= n; i += VLEN) vf_store_##type##_q(y + i, fn(vf_load_##type(x + i)));        \
    if (VLEN > 1 && i < n)                                                                         \
      vf_store_first_##type##_q(y + i, n - i, fn(vf_load_first_##type(x + i, n - i)));             \
  }
#define ACTK_UNARY_KERNEL(name, fn, type, T) ACTK_UNARY_KERNEL_WITH(name, fn, type, T, )
#define ACTK_UNARY_KERNEL_STAGED(name, fn, st, type, T)                                            \
  ACTK_UNARY_KERNEL_WITH(                                                                          \
      name, fn, type, T,                                                                           \
      ACTK_PIPE_LOOP(st, type, i, n, y, vf_load_##type(x + i), ACTK_PIPE_AS_IS))

/* ---- with a parameter: y = f(x, alpha); alpha == v runs unary op u ---- */

/* The loop over x with alpha splatted (shared by both forms below). */
#define ACTK_PARAM_LOOP(fn, type, T)                                                               \
  const T *x = (const T *)xv;                                                                      \
  T *y = (T *)yv;                                                                                  \
  const vf va = vf_splat(alpha);                                                                   \
  size_t i = 0;                                                                                    \
  if (ACTK_STEP2(type))                                                                            \
    for (; i + 2 * VLEN <= n; i += 2 * VLEN) {                                                     \
      vf a, b;                                                                                     \
      ACTK_LOAD_PAIR(type, x + i, &a, &b);                                                         \
      ACTK_STORE_PAIR(type, y + i, fn(a, va), fn(b, va));                                          \
    }                                                                                              \
  for (; i + VLEN <= n; i += VLEN) vf_store_##type##_q(y + i, fn(vf_load_##type(x + i), va));      \
  if (VLEN > 1 && i < n)                                                                           \
    vf_store_first_##type##_q(y + i, n - i, fn(vf_load_first_##type(x + i, n - i), va));

#define ACTK_PARAM_KERNEL(name, uname, v, fn, type, T)                                             \
  static void name(const void *xv, void *yv, size_t n, float alpha) {                              \
    if (alpha == (v)) {                                                                            \
      uname(xv, yv, n);                                                                            \
      return;                                                                                      \
    }                                                                                              \
    ACTK_PARAM_LOOP(fn, type, T)                                                                   \
  }

/* A param op that equals no unary op at any value (elu): always its own kernel. */
#define ACTK_PARAM_KERNEL_OWN(name, fn, type, T)                                                   \
  static void name(const void *xv, void *yv, size_t n, float alpha) { ACTK_PARAM_LOOP(fn, type, T) }

/* ---- bias: y = f(x + bias[i % width]) ---- */

/* One row, y[j] = f(add(x[j], b[j])) for j < len, add = bias_add (x's NaN
 * first) or the plain vf_add (rows whose bias holds no NaN); pre as the unary kernel's. */
#define ACTK_BIAS_ROW(name, f, add, type, T, pre)                                                  \
  ACTK_NOINLINE static void name(const T *x, const T *b, T *y, size_t len) {                       \
    size_t j = 0;                                                                                  \
    pre;                                                                                           \
    if (ACTK_STEP2(type))                                                                          \
      for (; j + 2 * VLEN <= len; j += 2 * VLEN) {                                                 \
        vf x0, x1, b0, b1;                                                                         \
        ACTK_LOAD_PAIR(type, x + j, &x0, &x1);                                                     \
        ACTK_LOAD_PAIR(type, b + j, &b0, &b1); /* the same order as x's */                         \
        ACTK_STORE_PAIR(type, y + j, f(add(x0, b0)), f(add(x1, b1)));                              \
      }                                                                                            \
    for (; j + VLEN <= len; j += VLEN)                                                             \
      vf_store_##type##_q(y + j, f(add(vf_load_##type(x + j), vf_load_##type(b + j))));            \
    if (VLEN > 1 && j < len)                                                                       \
      vf_store_first_##type##_q(                                                                   \
          y + j, len - j,                                                                          \
          f(add(vf_load_first_##type(x + j, len - j), vf_load_first_##type(b + j, len - j))));     \
  }

/* Narrow rows would be mostly tail: repeat the bias into a row of at least
 * ACTK_BIAS_MIN_ROW elements first (the same values, so the same results). */
#define ACTK_BIAS_MIN_ROW 64
#define ACTK_BIAS_KERNEL(name, nanrow, row_, fn, type, T)                                          \
  ACTK_BIAS_ROW(nanrow, fn, bias_add, type, T, )                                                   \
  ACTK_BIAS_ROW(row_, fn, vf_add, type, T, )                                                       \
  ACTK_BIAS_ROWS(name, nanrow, row_, type, T)
#define ACTK_BIAS_PIPE_LOOP(st, add, type)                                                         \
  ACTK_PIPE_LOOP(st, type, j, len, y, add(vf_load_##type(x + j), vf_load_##type(b + j)),           \
                 ACTK_PIPE_AS_IS)
#define ACTK_BIAS_KERNEL_STAGED(name, nanrow, row_, fn, st, type, T)                               \
  ACTK_BIAS_ROW(nanrow, fn, bias_add, type, T, ACTK_BIAS_PIPE_LOOP(st, bias_add, type))            \
  ACTK_BIAS_ROW(row_, fn, vf_add, type, T, ACTK_BIAS_PIPE_LOOP(st, vf_add, type))                  \
  ACTK_BIAS_ROWS(name, nanrow, row_, type, T)
/* The kernel: the bias row by row, each with the row kernel its bias's NaNs pick. */
#define ACTK_BIAS_ROWS(name, nanrow, row_, type, T)                                                \
  static void name(const void *xv, const void *bv, size_t width, void *yv, size_t n) {             \
    const T *x = (const T *)xv, *b = (const T *)bv;                                                \
    T *y = (T *)yv;                                                                                \
    T rep[2 * ACTK_BIAS_MIN_ROW];                                                                  \
    size_t w = width;                                                                              \
    if (VLEN > 1 && width < ACTK_BIAS_MIN_ROW) {                                                   \
      w = 0;                                                                                       \
      while (w < ACTK_BIAS_MIN_ROW) {                                                              \
        memcpy(rep + w, b, width * sizeof(T)); /* b may be unaligned */                            \
        w += width;                                                                                \
      }                                                                                            \
      b = rep;                                                                                     \
    }                                                                                              \
    void (*row)(const T *, const T *, T *, size_t) = bias_any_nan_##type(b, w) ? nanrow : row_;    \
    size_t i = 0;                                                                                  \
    for (; i + w <= n; i += w) row(x + i, b, y + i, w);                                            \
    if (i < n) row(x + i, b, y + i, n - i);                                                        \
  }

/* ---- gated: y = f(gate) * up (math/gated.h) ---- */

/* pre as the unary kernel's */
#define ACTK_GATED_KERNEL_WITH(name, fn, type, T, pre)                                             \
  ACTK_NOINLINE static void name(const void *gv, const void *uv, void *yv, size_t n) {             \
    const T *g = (const T *)gv, *u = (const T *)uv;                                                \
    T *y = (T *)yv;                                                                                \
    size_t i = 0;                                                                                  \
    pre;                                                                                           \
    if (ACTK_STEP2(type))                                                                          \
      for (; i + 2 * VLEN <= n; i += 2 * VLEN) {                                                   \
        vf g0, g1, u0, u1, p0, p1;                                                                 \
        ACTK_LOAD_PAIR(type, g + i, &g0, &g1);                                                     \
        ACTK_LOAD_PAIR(type, u + i, &u0, &u1); /* the same order as g's */                         \
        gated_mul2(fn(g0), u0, fn(g1), u1, &p0, &p1);                                              \
        ACTK_STORE_PAIR(type, y + i, p0, p1);                                                      \
      }                                                                                            \
    for (; i + VLEN <= n; i += VLEN)                                                               \
      vf_store_##type##_q(y + i, gated_mul(fn(vf_load_##type(g + i)), vf_load_##type(u + i)));     \
    if (VLEN > 1 && i < n)                                                                         \
      vf_store_first_##type##_q(                                                                   \
          y + i, n - i,                                                                            \
          gated_mul(fn(vf_load_first_##type(g + i, n - i)), vf_load_first_##type(u + i, n - i)));  \
  }
#define ACTK_GATED_KERNEL(name, fn, type, T) ACTK_GATED_KERNEL_WITH(name, fn, type, T, )
/* the staged loop's product: the activation of the gate at k times up at k */
#define ACTK_PIPE_GATED(v, k, type) gated_mul((v), vf_load_##type(u + (k)))
#define ACTK_GATED_KERNEL_STAGED(name, fn, st, type, T)                                            \
  ACTK_GATED_KERNEL_WITH(                                                                          \
      name, fn, type, T,                                                                           \
      ACTK_PIPE_LOOP(st, type, i, n, y, vf_load_##type(g + i), ACTK_PIPE_GATED))

/* NOLINTEND(bugprone-macro-parentheses) */

/* ---- every (op, tier, type) of the registry ---- */

/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type name */
ACTK_FOR_EACH_TYPE(ACTK_I_SINGLE_PAIR, )
#define ACTK_I_ANY_NAN(type, T, ...) ACTK_BIAS_ANY_NAN(type, T)
ACTK_FOR_EACH_TYPE(ACTK_I_ANY_NAN, )
#define ACTK_I_ROPE(type, T, ...) ACTK_ROPE_KERNELS(type, T)
ACTK_FOR_EACH_TYPE(ACTK_I_ROPE, )
/* NOLINTEND(bugprone-macro-parentheses) */

/* every kernel of the op table, each with its math (src/ops.toml) */
#include "kernels.gen.h"

static int bias_has_nan_kernel(const float *b, size_t len) { return bias_any_nan_f32(b, len); }

/* ---- the table ---- */

#define ACTK_T_ROPE(type, T, ...) [ACTK_TYPE_##type] = rope_rows_kernel_##type,

/* NOLINTBEGIN(bugprone-macro-parentheses): the arguments are initializer values */
#define ACTK_DEFINE_IMPL(sym, isa_facts)                                                           \
  const actk_impl sym = {.facts = isa_facts,                                                       \
                         ACTK_KERNEL_TABLE,                                                        \
                         .rope = {ACTK_FOR_EACH_TYPE(ACTK_T_ROPE, )},                              \
                         .bias_has_nan = bias_has_nan_kernel};
/* NOLINTEND(bugprone-macro-parentheses) */

#endif
