/* The bodies of the element-wise entry points, one per shape (src/api.c):
 * check the arguments, pick the active implementation's kernel, run it over
 * the pool in the fpenv the calls promise. Each public entry point is one
 * call of these (src/ops.gen.c, generated from src/ops.toml). Internal: the
 * library's symbols are hidden unless ACTK_API exports them. */
#ifndef ACTK_API_SHAPES_H
#define ACTK_API_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#include "actk.h"
#include "plan.h"
#include "registry.h"

actk_status actk_unary_call(actk_pool *pool, actk_unary_id op, actk_tier tier, actk_type type,
                            actk_cost cost, size_t esize, const void *x, void *y, size_t n);
actk_status actk_param_call(actk_pool *pool, actk_param_id op, actk_tier tier, actk_type type,
                            actk_cost cost, size_t esize, const void *x, void *y, size_t n,
                            float alpha);
actk_status actk_bias_call(actk_pool *pool, actk_bias_id op, actk_tier tier, actk_type type,
                           actk_cost cost, size_t esize, const void *x, const void *bias,
                           size_t width, void *y, size_t n);
/* gated: y = f(gate) * up over n elements; packed: x [rows][2d], gate first, y [rows][d] */
actk_status actk_gated_call(actk_pool *pool, actk_gated_id op, actk_tier tier, actk_type type,
                            actk_cost cost, size_t esize, const void *gate, const void *up, void *y,
                            size_t n);
actk_status actk_gated_packed_call(actk_pool *pool, actk_gated_id op, actk_tier tier,
                                   actk_type type, actk_cost cost, size_t esize, const void *x,
                                   void *y, size_t rows, size_t d);
/* RoPE (src/rope.c): x and y of the type, f32 caches */
actk_status actk_rope_call(actk_pool *pool, actk_type type, size_t esize,
                           const actk_rope_desc *desc, const void *x, const int64_t *position_ids,
                           const float *cos_cache, const float *sin_cache, void *y);

#endif
