/* Runs a kernel over a validated array. Until the pool lands every call runs
 * on the calling thread; the pool argument is accepted and must be NULL. */
#ifndef ACTK_RUNNER_H
#define ACTK_RUNNER_H

#include "arm.h"

actk_status actk_run_unary(actk_pool *pool, actk_unary_kernel k, const float *x, float *y,
                           size_t n);
actk_status actk_run_swish(actk_pool *pool, actk_swish_kernel k, const float *x, float *y,
                           size_t n, float alpha);
actk_status actk_run_bias(actk_pool *pool, actk_bias_kernel k, const float *x, const float *bias,
                          size_t width, float *y, size_t n);

#endif
