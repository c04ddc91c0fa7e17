// Op table, actk calls, data generation and the copy floor. Built without
// target flags: everything here runs on any x86-64 (or non-x86) CPU.
#include "bench_ops.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace actkb {

const op_desc ops[OP_COUNT] = {
    {"erf", false},       {"tanh", false},       {"sigmoid", false},
    {"silu", false},      {"quick_gelu", false}, {"gelu", false},
    {"gelu_tanh", false}, {"bias_gelu", true},   {"bias_gelu_tanh", true},
};

actk_status run_actk(op_id op, const float *x, const float *bias, size_t width, float *y,
                     size_t n) {
  switch (op) {
  case OP_ERF:
    return actk_erf_f32(nullptr, x, y, n);
  case OP_TANH:
    return actk_tanh_f32(nullptr, x, y, n);
  case OP_SIGMOID:
    return actk_sigmoid_f32(nullptr, x, y, n);
  case OP_SILU:
    return actk_silu_f32(nullptr, x, y, n);
  case OP_QUICK_GELU:
    return actk_quick_gelu_f32(nullptr, x, y, n);
  case OP_GELU:
    return actk_gelu_f32(nullptr, x, y, n);
  case OP_GELU_TANH:
    return actk_gelu_tanh_f32(nullptr, x, y, n);
  case OP_BIAS_GELU:
    return actk_bias_gelu_f32(nullptr, x, bias, width, y, n);
  case OP_BIAS_GELU_TANH:
    return actk_bias_gelu_tanh_f32(nullptr, x, bias, width, y, n);
  case OP_COUNT:
    break;
  }
  return ACTK_ERR_INVALID_ARGUMENT;
}

void copy_kernel(const float *x, const float *, size_t, float *y, size_t n) {
  std::memcpy(y, x, n * sizeof(float));
}

bool simd_baselines_runnable() { return actk_isa_supported(ACTK_ISA_AVX2) != 0; }

float *alloc_floats(size_t n) {
  size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
  if (bytes == 0) bytes = 64;
  void *p = std::aligned_alloc(64, bytes);
  if (!p) std::abort();
  std::memset(p, 0, bytes);
  return static_cast<float *>(p);
}

void free_floats(float *p) { std::free(p); }

namespace {

uint64_t splitmix64(uint64_t &s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in (0, 1]: 53 random bits, never 0 (log below).
double uniform01(uint64_t &s) { return (double)((splitmix64(s) >> 11) + 1) * 0x1p-53; }

void fill_normal(float *x, size_t n, uint64_t seed, double sigma, double clip) {
  uint64_t s = seed;
  const double two_pi = 6.283185307179586476925;
  for (size_t i = 0; i < n; i += 2) {
    double r = std::sqrt(-2.0 * std::log(uniform01(s))), t = two_pi * uniform01(s);
    double z[2] = {sigma * r * std::cos(t), sigma * r * std::sin(t)};
    for (size_t k = 0; k < 2 && i + k < n; k++)
      x[i + k] = (float)(z[k] > clip ? clip : z[k] < -clip ? -clip : z[k]);
  }
}

} // namespace

void fill_activations(float *x, size_t n, uint64_t seed) { fill_normal(x, n, seed, 3.0, 12.0); }
void fill_bias(float *b, size_t n, uint64_t seed) { fill_normal(b, n, seed, 1.0, 4.0); }

const char *input_description() {
  return "x ~ N(0, 3) clipped to [-12, 12], Box-Muller over splitmix64, fixed seed";
}

} // namespace actkb
