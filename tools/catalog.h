/* The catalog: every public element-wise entry point of actk, as tests, tools,
 * benchmarks and fuzzers see it, expanded from the op registry
 * (src/registry.h): one entry per op x tier x type, with its public
 * function, its references (tools/exact.c) and its facts. A
 * consumer iterates the catalog; none of them spells the op set out. */
#ifndef ACTK_TOOLS_CATALOG_H
#define ACTK_TOOLS_CATALOG_H

#include <stddef.h>

#include "actk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  ACTK_SHAPE_UNARY = 0, /* f(pool, x, y, n) */
  ACTK_SHAPE_PARAM = 1, /* f(pool, x, y, n, alpha) */
  ACTK_SHAPE_BIAS = 2   /* f(pool, x, bias, width, y, n) */
} actk_shape;

/* As src/registry.h's: f(-x) = -f(x) bit for bit; never steps down. */
#define ACTK_OP_ODD 1
#define ACTK_OP_MONOTONE 2

typedef struct actk_op_info actk_op_info;

#define ACTK_MAX_BREAKS 64 /* per op (tools/gen_ops.py checks the table) */
/* for the table's break expressions */
#define ACTK_LN2 0.69314718055994531
#define ACTK_QUICK_GELU_ALPHA 1.702
/* gelu_tanh's z = 2 sqrt(2/pi) (x + 0.044715 x^3) reaches zabs at this x > 0 */
double actk_gelu_tanh_x_at(double zabs);

struct actk_op_info {
  const char *name;     /* the op: "gelu", "swish", "bias_gelu" */
  const char *function; /* the public name: "actk_gelu_f32" */
  actk_shape shape;
  int id;                /* the op's index among those of its shape (src/registry.h) */
  int tier;              /* actk_tier of src/registry.h: 0 accurate */
  const char *tier_name; /* "accurate" */
  int type;              /* actk_type of src/registry.h: 0 f32 */
  const char *type_name; /* "f32" */
  size_t esize;          /* bytes per element of x, y and bias */
  int cost;              /* actk_cost of src/plan.h */
  const char *cost_name; /* "MEDIUM", "EXPENSIVE" */
  int props;             /* unary ops: ACTK_OP_ODD, ACTK_OP_MONOTONE */
  /* the tier's documented bound over all inputs: at most bound_ulp ULP, at
   * most bound_rel relative error |y - r| / max(|r|, 2^-126) (0: none) */
  double bound_ulp, bound_rel;
  /* Any shape, through its public function: bias and width are read by
   * bias ops only, alpha by param ops only. */
  actk_status (*call)(const actk_op_info *op, actk_pool *pool, const void *x, const void *bias,
                      size_t width, void *y, size_t n, float alpha);
  /* The double reference (the exact reference's approximation, for error
   * magnitudes): unary ops of x; bias ops of the float sum (their
   * activation's reference); param ops: ref_param(x, alpha). */
  double (*ref)(double x);
  double (*ref_param)(double x, double alpha);
  /* The exact reference (tools/exact.h) of the same definition: bias ops
   * their activation's, param ops with alpha passed to actk_xval_of. */
  const struct actk_xref *xref;
  /* Where the op's kernels (both tiers) switch interval, path or clamp, in
   * |x| (src/ops.toml's breaks; bias ops: their activation's, in the sum):
   * writes them to b[0 .. ACTK_MAX_BREAKS), returns how many. */
  size_t (*breaks)(double *b);
  /* Where its exact reference (tools/exact.c) switches regime, in |x|
   * (src/ops.toml's xbreaks; a derived op: its base's): tests/test_reference.c
   * samples the floats around each. The same contract as breaks; NULL: none. */
  size_t (*xbreaks)(double *b);
  /* bias ops: the unary entry of the same tier and type they apply */
  const char *activation;
  /* param ops: unary_alpha is the parameter's default (src/ops.toml's
   * param.value); where unary_of is not NULL, with alpha == unary_alpha the
   * op is that unary op (and runs its kernel); NULL: no such op */
  const char *unary_of;
  float unary_alpha;
};

/* The gated ops, y = activation(gate) * up, and their packed form over x =
 * [rows, 2d] with the gate in the first d columns: one entry per op x tier x
 * type. Kept apart from actk_catalog (two inputs, no reference of their own):
 * their result is defined by the unary entry `activation` of the same tier
 * (accurate: of f32 in every type), tests/test_gated.c. */
typedef struct actk_gated_info {
  const char *name;            /* "swiglu" */
  const char *function;        /* "actk_swiglu_f32" */
  const char *packed_function; /* "actk_swiglu_packed_f32" */
  const char *activation;      /* the unary op applied to the gate: "silu" */
  /* whose kernel computes a: "f32" (the activation's f32 entry of the tier: a is
   * what it returns) or the entry's own type (the type's fast core: a is what the
   * 16-bit unary entry rounds once, so with up = +-1 the results are its bits) */
  const char *act_type_name;
  int id; /* actk_gated_id of src/registry.h */
  int tier;
  const char *tier_name;
  int type;
  const char *type_name;
  size_t esize;
  int cost;
  actk_status (*call)(actk_pool *pool, const void *gate, const void *up, void *y, size_t n);
  actk_status (*call_packed)(actk_pool *pool, const void *x, void *y, size_t rows, size_t d);
} actk_gated_info;

extern const actk_op_info actk_catalog[];
extern const size_t actk_catalog_size;
extern const actk_gated_info actk_gated_catalog[];
extern const size_t actk_gated_catalog_size;

/* The entry of op (e.g. "gelu") in a tier and type (names), or NULL. */
const actk_op_info *actk_catalog_find(const char *op, const char *tier, const char *type);

/* Runs op as its shape says (alpha ignored unless it is a param op). */
static inline actk_status actk_op_call(const actk_op_info *op, actk_pool *pool, const void *x,
                                       const void *bias, size_t width, void *y, size_t n,
                                       float alpha) {
  return op->call(op, pool, x, bias, width, y, n, alpha);
}

#ifdef __cplusplus
}
#endif

#endif
