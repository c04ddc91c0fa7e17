// Shared pieces of the actk benchmarks (actk_bench, actk_ratio): the op list,
// the actk entry points behind one signature, the baselines, the input data.
//
// Every kernel here has the bias kernels' shape; unary ops ignore bias and
// width. Baselines live in their own translation units so each gets its own
// compiler flags: baseline_libm.cc is built like the rest of the project,
// baseline_eigen.cc and baseline_sleef.cc with -mavx2 -mfma (and must only be
// called when the CPU and OS can run AVX2: see simd_baselines_runnable()).
#ifndef ACTK_BENCH_OPS_H
#define ACTK_BENCH_OPS_H

#include <cstddef>
#include <cstdint>

#include "actk.h"

namespace actkb {

using kernel_fn = void (*)(const float *x, const float *bias, size_t width, float *y, size_t n);

enum op_id {
  OP_ERF,
  OP_TANH,
  OP_SIGMOID,
  OP_SILU,
  OP_QUICK_GELU,
  OP_GELU,
  OP_GELU_TANH,
  OP_BIAS_GELU,
  OP_BIAS_GELU_TANH,
  OP_COUNT
};

// Per-op baselines, indexed by op_id. A table whose library was not found at
// configure time is all nullptr.
extern const kernel_fn libm_kernels[OP_COUNT];
extern const kernel_fn eigen_kernels[OP_COUNT];
extern const kernel_fn sleef_kernels[OP_COUNT];
extern const bool have_eigen, have_sleef;

struct op_desc {
  const char *name;
  bool has_bias;
};
extern const op_desc ops[OP_COUNT];

// The bias ops are benchmarked with rows of this width (a typical hidden
// size); a call shorter than one row uses width = n.
constexpr size_t kBiasWidth = 4096;
inline size_t bias_width_for(size_t n) { return n < kBiasWidth ? n : kBiasWidth; }

// The op through actk's public API on the calling thread (pool = NULL), on
// whatever arm is active.
actk_status run_actk(op_id op, const float *x, const float *bias, size_t width, float *y, size_t n);

// The memory-bound floor: memcpy of the same n floats.
void copy_kernel(const float *x, const float *bias, size_t width, float *y, size_t n);

// True when the CPU and OS can run the -mavx2 -mfma baselines.
bool simd_baselines_runnable();

// 64-byte aligned, zero-filled (so every page is touched before timing).
float *alloc_floats(size_t n);
void free_floats(float *p);

// Deterministic "realistic pre-activation" input: x ~ N(0, sigma = 3),
// clipped to [-12, 12]. Box-Muller over a fixed-seed splitmix64, so the same
// seed gives the same floats on every run. About 68% of the values lie in
// [-3, 3] (where the activations have their curvature), a few per cent out in
// the saturated tails past |x| = 6, and under 1e-4 hit the clip.
void fill_activations(float *x, size_t n, uint64_t seed);
// Bias values: N(0, 1) clipped to [-4, 4], same generator.
void fill_bias(float *b, size_t n, uint64_t seed);

const char *input_description();

} // namespace actkb

#endif
