// Baseline "libm": the plain libm loop an engine without a kernel library writes.
// Built with the project's ordinary flags (no -mavx2, -ffp-contract=off): glibc's
// scalar erff/tanhf/expf per element, as-is.
#include "bench_ops.h"

#include <cmath>

namespace actkb {
namespace {

constexpr float kSqrt1_2 = 0.70710678118654752440f;
constexpr float kSqrt2OverPi = 0.79788456080286535588f;

inline float gelu1(float x) { return 0.5f * x * (1.0f + erff(x * kSqrt1_2)); }
inline float gelu_tanh1(float x) {
  return 0.5f * x * (1.0f + tanhf(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

void libm_erf(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = erff(x[i]);
}
void libm_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = tanhf(x[i]);
}
void libm_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = 1.0f / (1.0f + expf(-x[i]));
}
void libm_silu(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = x[i] / (1.0f + expf(-x[i]));
}
void libm_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = x[i] / (1.0f + expf(-1.702f * x[i]));
}
void libm_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = gelu1(x[i]);
}
void libm_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = gelu_tanh1(x[i]);
}
void libm_bias_gelu(const float *x, const float *b, size_t w, float *y, size_t n) {
  for (size_t r = 0; r < n; r += w)
    for (size_t j = 0; j < w; j++) y[r + j] = gelu1(x[r + j] + b[j]);
}
void libm_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  for (size_t r = 0; r < n; r += w)
    for (size_t j = 0; j < w; j++) y[r + j] = gelu_tanh1(x[r + j] + b[j]);
}

bool always_runnable() { return true; }

const named_kernel libm_table[] = {
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
} // namespace

const baseline libm_baseline = {
    "libm",
    "the plain libm loop an engine without a kernel library writes (glibc, scalar)",
    always_runnable,
    libm_table,
    sizeof libm_table / sizeof libm_table[0],
    nullptr,
    nullptr};

} // namespace actkb
