/* The plain libm loops (see libm_loops.h). */
#include "libm_loops.h"

#include <math.h>
#include <string.h>

#define SQRT1_2F 0.70710678118654752440f
#define SQRT2_PIF 0.79788456080286535588f

static float gelu1(float x) { return 0.5f * x * (1.0f + erff(x * SQRT1_2F)); }
static float gelu_tanh1(float x) {
  return 0.5f * x * (1.0f + tanhf(SQRT2_PIF * (x + 0.044715f * x * x * x)));
}
static float sigmoid1(float x) { return 1.0f / (1.0f + expf(-x)); }
static float silu1(float x) { return x / (1.0f + expf(-x)); }
static float quick_gelu1(float x) { return x / (1.0f + expf(-1.702f * x)); }

/* One unary loop and one bias loop per scalar function. */
#define UNARY(name, f)                                                                             \
  static void libm_##name(const float *x, const float *b, size_t w, float *y, size_t n) {          \
    (void)b, (void)w;                                                                              \
    for (size_t i = 0; i < n; i++) y[i] = f(x[i]);                                                 \
  }
#define BIAS(name, f)                                                                              \
  static void libm_##name(const float *x, const float *b, size_t w, float *y, size_t n) {          \
    for (size_t r = 0; r < n; r += w)                                                              \
      for (size_t j = 0; j < w; j++) y[r + j] = f(x[r + j] + b[j]);                                \
  }
UNARY(erf, erff)
UNARY(tanh, tanhf)
UNARY(sigmoid, sigmoid1)
UNARY(silu, silu1)
UNARY(quick_gelu, quick_gelu1)
UNARY(gelu, gelu1)
UNARY(gelu_tanh, gelu_tanh1)
BIAS(bias_gelu, gelu1)
BIAS(bias_gelu_tanh, gelu_tanh1)

const actk_libm_loop actk_libm_loops[] = {
    {"erf", libm_erf},
    {"tanh", libm_tanh},
    {"sigmoid", libm_sigmoid},
    {"silu", libm_silu},
    {"quick_gelu", libm_quick_gelu},
    {"gelu", libm_gelu},
    {"gelu_tanh", libm_gelu_tanh},
    {"bias_gelu", libm_bias_gelu},
    {"bias_gelu_tanh", libm_bias_gelu_tanh},
};
const size_t actk_libm_loops_size = sizeof actk_libm_loops / sizeof actk_libm_loops[0];

actk_libm_loop_fn actk_libm_loop_for(const char *op) {
  for (size_t i = 0; i < actk_libm_loops_size; i++)
    if (!strcmp(actk_libm_loops[i].op, op)) return actk_libm_loops[i].fn;
  return NULL;
}
