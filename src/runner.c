#include "runner.h"

/* No pool object can exist yet (there is no constructor), so any non-NULL
 * pointer is not one of ours. */
actk_status actk_run_unary(actk_pool *pool, actk_unary_kernel k, const float *x, float *y,
                           size_t n) {
  if (pool) return ACTK_ERR_INVALID_ARGUMENT;
  k(x, y, n);
  return ACTK_OK;
}

actk_status actk_run_swish(actk_pool *pool, actk_swish_kernel k, const float *x, float *y,
                           size_t n, float alpha) {
  if (pool) return ACTK_ERR_INVALID_ARGUMENT;
  k(x, y, n, alpha);
  return ACTK_OK;
}

actk_status actk_run_bias(actk_pool *pool, actk_bias_kernel k, const float *x, const float *bias,
                          size_t width, float *y, size_t n) {
  if (pool) return ACTK_ERR_INVALID_ARGUMENT;
  k(x, bias, width, y, n);
  return ACTK_OK;
}
