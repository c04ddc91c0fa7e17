/* The plain libm loops an engine without a kernel library writes: glibc's
 * scalar erff/tanhf/expf per element, built with the project's ordinary
 * flags. The CLI's and the bench's "libm" column, written once here. */
#ifndef ACTK_TOOLS_LIBM_LOOPS_H
#define ACTK_TOOLS_LIBM_LOOPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = op(x[i]) for i < n; a bias op adds b[i % w] first (n a multiple of w). */
typedef void (*actk_libm_loop_fn)(const float *x, const float *b, size_t w, float *y, size_t n);

typedef struct {
  const char *op; /* the op's name: "gelu", "bias_gelu" */
  actk_libm_loop_fn fn;
} actk_libm_loop;

extern const actk_libm_loop actk_libm_loops[];
extern const size_t actk_libm_loops_size;

/* The loop for op, or NULL (an op without one gets no libm column). */
actk_libm_loop_fn actk_libm_loop_for(const char *op);

#ifdef __cplusplus
}
#endif

#endif
