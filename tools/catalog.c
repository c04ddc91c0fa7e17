/* The catalog, expanded from src/registry.h (see catalog.h). */
#include "catalog.h"

#include <string.h>

#include "plan.h"
#include "exact.h"
#include "reference.h"
#include "registry.h"

/* "ACTK_COST_MEDIUM" from its 10th character: "MEDIUM" */
#define CAT_COST_NAME(cost) (&(#cost)[10])

/* One trampoline per entry: the catalog's untyped call to the typed function. */
#define CAT_UNARY_CALL(type, T, op, cost, tier, suffix)                                            \
  static actk_status call_##op##_##type##_##tier(const actk_op_info *o, actk_pool *pool,           \
                                                 const void *x, const void *b, size_t w, void *y,  \
                                                 size_t n, float a) {                              \
    (void)o, (void)b, (void)w, (void)a;                                                            \
    return actk_##op##_##type##suffix(pool, (const T *)x, (T *)y, n);                              \
  }
#define CAT_PARAM_CALL(type, T, op, cost, tier, suffix)                                            \
  static actk_status call_##op##_##type##_##tier(const actk_op_info *o, actk_pool *pool,           \
                                                 const void *x, const void *b, size_t w, void *y,  \
                                                 size_t n, float a) {                              \
    (void)o, (void)b, (void)w;                                                                     \
    return actk_##op##_##type##suffix(pool, (const T *)x, (T *)y, n, a);                           \
  }
#define CAT_BIAS_CALL(type, T, op, cost, tier, suffix)                                             \
  static actk_status call_##op##_##type##_##tier(const actk_op_info *o, actk_pool *pool,           \
                                                 const void *x, const void *b, size_t w, void *y,  \
                                                 size_t n, float a) {                              \
    (void)o, (void)a;                                                                              \
    return actk_##op##_##type##suffix(pool, (const T *)x, (const T *)b, w, (T *)y, n);             \
  }

/* The entries' fields common to every shape. */
/* (the parameters are not named like the fields they fill: .tier would be replaced) */
#define CAT_COMMON(ty, T, op, co, ti, suffix, ulp, rel)                                            \
  .name = #op, .function = "actk_" #op "_" #ty #suffix, .tier = ACTK_TIER_##ti, .tier_name = #ti,  \
  .type = ACTK_TYPE_##ty, .type_name = #ty, .esize = sizeof(T), .cost = ACTK_TIER_COST_##ti(co),   \
  .cost_name = CAT_COST_NAME(co), .call = call_##op##_##ty##_##ti, .bound_ulp = (ulp),             \
  .bound_rel = (rel)

#define CAT_UNARY_ENTRY(type, T, op, cost, tier, suffix, ulp, rel, pr)                             \
  {CAT_COMMON(type, T, op, cost, tier, suffix, ulp, rel),                                          \
   .shape = ACTK_SHAPE_UNARY,                                                                      \
   .id = ACTK_UNARY_##op,                                                                          \
   .props = (pr),                                                                                  \
   .ref = actk_ref_##op,                                                                           \
   .xref = &actk_xref_##op},
#define CAT_PARAM_ENTRY(type, T, op, cost, tier, suffix, ulp, rel, u, v)                           \
  {CAT_COMMON(type, T, op, cost, tier, suffix, ulp, rel),                                          \
   .shape = ACTK_SHAPE_PARAM,                                                                      \
   .id = ACTK_PARAM_##op,                                                                          \
   .ref_param = actk_ref_##op,                                                                     \
   .xref = &actk_xref_##op,                                                                        \
   .unary_of = #u,                                                                                 \
   .unary_alpha = (v)},
#define CAT_BIAS_ENTRY(type, T, op, cost, tier, suffix, ulp, rel, f)                               \
  {CAT_COMMON(type, T, op, cost, tier, suffix, ulp, rel),                                          \
   .shape = ACTK_SHAPE_BIAS,                                                                       \
   .id = ACTK_BIAS_##op,                                                                           \
   .ref = actk_ref_##f,                                                                            \
   .xref = &actk_xref_##f,                                                                         \
   .activation = #f},

/* Every (tier, type) of an op, for a per-entry macro M(type, T, op, cost,
 * tier, suffix, ulp bound, relative bound, ...): a type's own bound (in ULP
 * of the type) replaces the tier's. */
#define CAT_TT(type, T, core, tulp, M, op, cost, tier, suffix, ulp, rel, ...)                      \
  M(type, T, op, cost, tier, suffix, ((tulp) ? (tulp) : (ulp)), ((tulp) ? 0.0 : (rel)), __VA_ARGS__)
#define CAT_T(tier, suffix, ulp, rel, M, op, cost, ...)                                            \
  ACTK_FOR_EACH_TYPE(CAT_TT, M, op, cost, tier, suffix, ulp, rel, __VA_ARGS__)

#define CAT_UNARY_CALLS(op, cost, props, ...) ACTK_FOR_EACH_TIER(CAT_T, CAT_UNARY_CALL_, op, cost, )
#define CAT_UNARY_CALL_(type, T, op, cost, tier, suffix, ...)                                      \
  CAT_UNARY_CALL(type, T, op, cost, tier, suffix)
#define CAT_PARAM_CALLS(op, cost, u, v, ...) ACTK_FOR_EACH_TIER(CAT_T, CAT_PARAM_CALL_, op, cost, )
#define CAT_PARAM_CALL_(type, T, op, cost, tier, suffix, ...)                                      \
  CAT_PARAM_CALL(type, T, op, cost, tier, suffix)
#define CAT_BIAS_CALLS(op, f, cost, ...) ACTK_FOR_EACH_TIER(CAT_T, CAT_BIAS_CALL_, op, cost, )
#define CAT_BIAS_CALL_(type, T, op, cost, tier, suffix, ...)                                       \
  CAT_BIAS_CALL(type, T, op, cost, tier, suffix)
ACTK_FOR_EACH_UNARY(CAT_UNARY_CALLS, )
ACTK_FOR_EACH_PARAM(CAT_PARAM_CALLS, )
ACTK_FOR_EACH_BIAS(CAT_BIAS_CALLS, )

#define CAT_UNARY_ENTRIES(op, cost, props, ...)                                                    \
  ACTK_FOR_EACH_TIER(CAT_T, CAT_UNARY_ENTRY, op, cost, props)
#define CAT_PARAM_ENTRIES(op, cost, u, v, ...)                                                     \
  ACTK_FOR_EACH_TIER(CAT_T, CAT_PARAM_ENTRY, op, cost, u, v)
#define CAT_BIAS_ENTRIES(op, f, cost, ...) ACTK_FOR_EACH_TIER(CAT_T, CAT_BIAS_ENTRY, op, cost, f)

_Static_assert(ACTK_OP_ODD == ACTK_PROP_ODD && ACTK_OP_MONOTONE == ACTK_PROP_MONOTONE,
               "catalog.h's property bits are the registry's");

const actk_op_info actk_catalog[] = {ACTK_FOR_EACH_UNARY(CAT_UNARY_ENTRIES, ) ACTK_FOR_EACH_PARAM(
    CAT_PARAM_ENTRIES, ) ACTK_FOR_EACH_BIAS(CAT_BIAS_ENTRIES, )};
const size_t actk_catalog_size = sizeof actk_catalog / sizeof actk_catalog[0];

const actk_op_info *actk_catalog_find(const char *op, const char *tier, const char *type) {
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (!strcmp(e->name, op) && !strcmp(e->tier_name, tier) && !strcmp(e->type_name, type))
      return e;
  }
  return NULL;
}
