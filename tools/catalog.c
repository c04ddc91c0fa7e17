/* The catalog (see catalog.h): the lookup; the entries are catalog.gen.c. */
#include "catalog.h"

#include <string.h>

#include "registry.h"

/* The entries themselves: catalog.gen.c (generated from src/ops.toml). */

_Static_assert(ACTK_OP_ODD == ACTK_PROP_ODD && ACTK_OP_MONOTONE == ACTK_PROP_MONOTONE,
               "catalog.h's property bits are the registry's");

const actk_op_info *actk_catalog_find(const char *op, const char *tier, const char *type) {
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *e = &actk_catalog[i];
    if (!strcmp(e->name, op) && !strcmp(e->tier_name, tier) && !strcmp(e->type_name, type))
      return e;
  }
  return NULL;
}

double actk_gelu_tanh_x_at(double zabs) {
  double lo = 0, hi = 32; /* z(x) is increasing: bisect */
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (2 * 0.79788456080286536 * (mid + 0.044715 * mid * mid * mid) < zabs)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}
