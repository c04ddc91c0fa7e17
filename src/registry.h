/* The op registry: every element-wise op actk has, listed once.
 *
 * Each list is an X-macro (XNNPACK's .inc files, as a macro): a consumer
 * defines X to say what one entry becomes and expands the list. The public
 * entry points (src/api.c), the kernel tables of every instruction set
 * (src/kernels/instantiate.h), the tools' and tests' catalog of ops with their
 * references (tools/catalog.c), the CLI, the sweep, the benchmarks and
 * the fuzzers all expand these lists; none of them spells the op set out.
 *
 * Dimensions: op x tier x type. The public name of an entry point is
 * actk_<op>_<type><tier suffix>; its kernel loads <type>, widens it to f32
 * lanes, computes <op> with the tier's math function for the type
 * (ACTK_MATH_<tier> below) in f32 registers, narrows once with round to
 * nearest even and stores <type> (the vector contract's vf_load_<type> and
 * vf_store_<type>): one pass, no scratch.
 *
 * Adding a unary op: its math (src/math/, included below) for each tier,
 * <op>_v and <op>_fast_v, and the fast core of each 16-bit type
 * (<op>_fast_f16_v, <op>_fast_bf16_v; math/fast16.h maps them), one line in
 * ACTK_FOR_EACH_UNARY, its declarations in include/actk.h, its accurate
 * name per 16-bit type (math/accurate16.h), its exact reference in
 * tools/exact.c, its rows in README.md (the accuracy rows
 * of each tier and type are what the tests hold it to), the Python
 * binding's op table, and abi/actk.symbols (cmake --build <build> --target
 * abi_update_symbols; abi_header_* fail until the count matches). */
#ifndef ACTK_REGISTRY_H
#define ACTK_REGISTRY_H

/* Every list is ACTK_FOR_EACH_<LIST>(X, ...): X is called once per entry
 * with the entry's fields followed by the list's extra arguments, so that
 * lists nest (an X of one list expands the next, passing its fields on).
 * Invoke a list with at least an empty extra argument, ACTK_FOR_EACH_UNARY(X, ),
 * and give X a trailing "..." if it does not use the extras. */

/* Element types: X(type, storage C type, core suffix, bound in ULP of the
 * type). The core suffix names a tier's math for the type where the tier has
 * one per type (ACTK_MATH_fast). A bound other than 0 replaces the tier's:
 * the 16-bit types are faithful in every tier (strictly within 1 ULP of the
 * type, that ULP taken at the true value). */
#define ACTK_FOR_EACH_TYPE(X, ...)                                                                 \
  X(f32, float, , 0.0, __VA_ARGS__)                                                                \
  X(f16, actk_f16, _f16, 1.0, __VA_ARGS__)                                                         \
  X(bf16, actk_bf16, _bf16, 1.0, __VA_ARGS__)

/* Accuracy tiers: X(tier, public suffix, bound in ULP, relative bound). The
 * public suffix is appended to actk_<op>_<type>. The documented bound of
 * every op of the tier over all inputs (where the type sets none): at most
 * that many ULP (0: none), and at most that relative error
 * |y - r| / max(|r|, 2^-126) (0: none). */
#define ACTK_FOR_EACH_TIER(X, ...)                                                                 \
  X(accurate, , 2.0, 0.0, __VA_ARGS__)                                                             \
  X(fast, _fast, 0.0, 0x1p-18, __VA_ARGS__)

/* The cost class (src/plan.h) a tier plans an op's calls with, from the op's
 * class: the fast tier is about a class cheaper (the lower class is the safe
 * side: it splits a call only when the real work surely pays for it). */
#define ACTK_TIER_COST_accurate(cost) (cost)
#define ACTK_TIER_COST_fast(cost)                                                                  \
  ((cost) == ACTK_COST_EXPENSIVE ? ACTK_COST_MEDIUM                                                \
   : (cost) == ACTK_COST_MEDIUM  ? ACTK_COST_LIGHT                                                 \
                                 : (cost))

/* A tier's math function for op in a type (core: the type's core suffix).
 * accurate: the f32 math for every type, so a 16-bit result is the f32
 * result rounded once, but for the ties at x/2 that f32 cannot see
 * (math/half_tie.h: <op>_v_f16 and <op>_v_bf16 where an op has them,
 * math/accurate16.h maps the others to <op>_v); fast: a
 * core per type, the cheapest that meets the type's bound (erf_fast_v,
 * erf_fast_bf16_v, ...). The bias ops take ACTK_MATH_SUM_<tier>
 * (math/bias16.h): their f32 sums also reach the x asymptote of gelu in a
 * 16-bit midpoint, the type's overflow midpoint included. */
#define ACTK_MATH_accurate(op, core) op##_v##core
#define ACTK_MATH_fast(op, core) op##_fast##core##_v
#define ACTK_MATH_SUM_accurate(op, core) op##_sum_v##core
#define ACTK_MATH_SUM_fast(op, core) op##_sum_fast##core##_v

/* Cost classes (src/plan.h): what the planner weighs a call's length by. */

/* Properties of an op's definition that every tier keeps (the tests check
 * them): odd, f(-x) = -f(x) bit for bit; monotone, the result never steps
 * down from one float to the next. */
#define ACTK_PROP_ODD 1
#define ACTK_PROP_MONOTONE 2

/* Unary activations y = f(x): X(op, cost class, properties). */
#define ACTK_FOR_EACH_UNARY(X, ...)                                                                \
  X(erf, ACTK_COST_MEDIUM, ACTK_PROP_ODD | ACTK_PROP_MONOTONE, __VA_ARGS__)                        \
  X(tanh, ACTK_COST_MEDIUM, ACTK_PROP_ODD | ACTK_PROP_MONOTONE, __VA_ARGS__)                       \
  X(sigmoid, ACTK_COST_MEDIUM, ACTK_PROP_MONOTONE, __VA_ARGS__)                                    \
  X(silu, ACTK_COST_MEDIUM, 0, __VA_ARGS__)                                                        \
  X(quick_gelu, ACTK_COST_MEDIUM, 0, __VA_ARGS__)                                                  \
  X(gelu, ACTK_COST_EXPENSIVE, 0, __VA_ARGS__)                                                     \
  X(gelu_tanh, ACTK_COST_EXPENSIVE, 0, __VA_ARGS__)

/* Activations with a float parameter, y = f(x, alpha): X(op, cost class,
 * unary op u, value v). With alpha == v the op is u by definition, and the
 * call runs u's kernel, so that it gives u's bits (swish(x, 1) = silu(x)). */
#define ACTK_FOR_EACH_PARAM(X, ...) X(swish, ACTK_COST_MEDIUM, silu, 1.0f, __VA_ARGS__)

/* Bias + activation, y[i] = f(x[i] + bias[i % width]): X(op, unary f, cost
 * class), f an entry of ACTK_FOR_EACH_UNARY. */
#define ACTK_FOR_EACH_BIAS(X, ...)                                                                 \
  X(bias_gelu, gelu, ACTK_COST_EXPENSIVE, __VA_ARGS__)                                             \
  X(bias_gelu_tanh, gelu_tanh, ACTK_COST_EXPENSIVE, __VA_ARGS__)

/* Dense indices, for the kernel tables. */
#define ACTK_REGISTRY_ENUM_UNARY(op, cost, props, ...) ACTK_UNARY_##op,
#define ACTK_REGISTRY_ENUM_PARAM(op, cost, u, v, ...) ACTK_PARAM_##op,
#define ACTK_REGISTRY_ENUM_BIAS(op, f, cost, ...) ACTK_BIAS_##op,
#define ACTK_REGISTRY_ENUM_TIER(tier, suffix, ulp, rel, ...) ACTK_TIER_##tier,
#define ACTK_REGISTRY_ENUM_TYPE(type, ctype, core, tulp, ...) ACTK_TYPE_##type,
typedef enum { ACTK_FOR_EACH_UNARY(ACTK_REGISTRY_ENUM_UNARY, ) ACTK_N_UNARY } actk_unary_id;
typedef enum { ACTK_FOR_EACH_PARAM(ACTK_REGISTRY_ENUM_PARAM, ) ACTK_N_PARAM } actk_param_id;
typedef enum { ACTK_FOR_EACH_BIAS(ACTK_REGISTRY_ENUM_BIAS, ) ACTK_N_BIAS } actk_bias_id;
typedef enum { ACTK_FOR_EACH_TIER(ACTK_REGISTRY_ENUM_TIER, ) ACTK_N_TIERS } actk_tier;
typedef enum { ACTK_FOR_EACH_TYPE(ACTK_REGISTRY_ENUM_TYPE, ) ACTK_N_TYPES } actk_type;
#undef ACTK_REGISTRY_ENUM_UNARY
#undef ACTK_REGISTRY_ENUM_PARAM
#undef ACTK_REGISTRY_ENUM_BIAS
#undef ACTK_REGISTRY_ENUM_TIER
#undef ACTK_REGISTRY_ENUM_TYPE

#endif

/* The math of the ops (src/math/), for the one file that instantiates the
 * kernels (src/kernels/instantiate.h defines ACTK_REGISTRY_MATH): a new op's
 * header is included here, beside its line above. */
#if defined(ACTK_REGISTRY_MATH) && !defined(ACTK_REGISTRY_MATH_INCLUDED)
#define ACTK_REGISTRY_MATH_INCLUDED
#include "math/bias.h"
#include "math/erf.h"
#include "math/erf_fast.h"
#include "math/gelu.h"
#include "math/gelu_fast.h"
#include "math/gelu_tanh.h"
#include "math/gelu_tanh_fast.h"
#include "math/sigmoid.h"      /* sigmoid, silu, quick_gelu, swish */
#include "math/sigmoid_fast.h" /* the same, fast */
#include "math/tanh.h"
#include "math/tanh_fast.h"
#include "math/fast16.h"     /* the fast cores of the 16-bit types */
#include "math/accurate16.h" /* the accurate tier's names per 16-bit type */
#include "math/bias16.h"     /* the bias ops' activations per tier and type */
#endif
