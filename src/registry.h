/* The op registry: every element-wise op actk has, from the op table.
 *
 * src/ops.toml lists the ops, their tiers and element types once;
 * tools/gen_ops.py writes from it the plain code that names them: the
 * ids and lists here (registry.gen.h), the entry points (ops.gen.c), every
 * ISA's kernels and table (kernels/kernels.gen.h), the tests' catalog
 * (tools/catalog.gen.c), the header's declarations, the ABI lists, the
 * Python binding's table and fuzz_api's op ids. An entry point
 * actk_<op>_<type><tier suffix> and a kernel k_<op>_<type>_<tier> are each
 * one line of generated code that grep finds.
 *
 * Dimensions: op x tier x type. An entry point's kernel loads <type>, widens
 * it to f32 lanes, computes <op> with its math function (the table's math
 * field, src/math/) in f32 registers, narrows once with round to nearest even
 * and stores <type> (the vector contract's vf_load_<type> and
 * vf_store_<type>): one pass, no scratch.
 *
 * The lists below (X-macros: a consumer defines X to say what one entry
 * becomes) are for code that iterates over the types or ops generically;
 * each is one level deep. Invoke a list with at least an empty extra
 * argument, ACTK_FOR_EACH_UNARY(X, ), and give X a trailing "..." if it does
 * not use the extras. */
#ifndef ACTK_REGISTRY_H
#define ACTK_REGISTRY_H

/* Properties of an op's definition that every tier keeps (the tests check
 * them): odd, f(-x) = -f(x) bit for bit; monotone, the result never steps
 * down from one float to the next. */
#define ACTK_PROP_ODD 1
#define ACTK_PROP_MONOTONE 2

/* The cost class (src/plan.h) a tier plans an op's calls with, from the op's
 * class: the fast tier is about a class cheaper (the lower class is the safe
 * side: it splits a call only when the real work surely pays for it). The
 * generated entry points carry the result; this is for programs that plan
 * like them (bench/). */
#define ACTK_TIER_COST_accurate(cost) (cost)
#define ACTK_TIER_COST_fast(cost)                                                                  \
  ((cost) == ACTK_COST_EXPENSIVE ? ACTK_COST_MEDIUM                                                \
   : (cost) == ACTK_COST_MEDIUM  ? ACTK_COST_LIGHT                                                 \
                                 : (cost))

/* ACTK_FOR_EACH_TYPE, _TIER, _UNARY, _PARAM, _BIAS and the enums
 * actk_unary_id, actk_param_id, actk_bias_id, actk_tier, actk_type */
#include "registry.gen.h"

#endif
