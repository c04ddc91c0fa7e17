// Op table, actk calls, data generation and the copy floor. Built without
// target flags: everything here runs on any x86-64 (or non-x86) CPU.
#include "bench_ops.h"

#include "harness.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace actkb {

const std::vector<bench_op> &bench_ops() {
  static const std::vector<bench_op> v = [] {
    std::vector<bench_op> r;
    for (size_t i = 0; i < actk_catalog_size; i++) {
      const actk_op_info *e = &actk_catalog[i];
      if (std::strcmp(e->type_name, "f32") != 0 || e->shape == ACTK_SHAPE_PARAM) continue;
      r.push_back({e->name, e, e->shape == ACTK_SHAPE_BIAS});
    }
    return r;
  }();
  return v;
}

actk_status run_actk(const bench_op &op, const float *x, const float *bias, size_t width, float *y,
                     size_t n) {
  return actk_op_call(op.info, nullptr, x, bias, width, y, n, 0.0f);
}

const std::vector<const baseline *> &baselines() {
  static const std::vector<const baseline *> v = {
    &libm_baseline,
#if defined(ACTK_BENCH_HAVE_EIGEN)
    &eigen_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_EIGEN512)
    &eigen512_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_SLEEF)
    &sleef_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_SLEEF512)
    &sleef512_baseline,
    &sleef512u35_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_XNNPACK)
    &xnnpack_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_ONEDNN)
    &onednn_baseline,
#endif
  };
  return v;
}

const baseline *find_baseline(const char *name) {
  for (const baseline *b : baselines())
    if (!std::strcmp(b->name, name)) return b->runnable() ? b : nullptr;
  return nullptr;
}

kernel_fn baseline_kernel(const baseline *b, const char *op) {
  if (!b) return nullptr;
  for (size_t i = 0; i < b->count; i++)
    if (!std::strcmp(b->kernels[i].op, op)) return b->kernels[i].fn;
  return nullptr;
}

void copy_kernel(const float *x, const float *, size_t, float *y, size_t n) {
  std::memcpy(y, x, n * sizeof(float));
}

bool simd_baselines_runnable() { return actk_isa_supported(ACTK_ISA_AVX2) != 0; }

bool avx512_baselines_runnable() {
#if defined(__x86_64__) || defined(__i386__)
  return actk_isa_supported(ACTK_ISA_AVX512) != 0 && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

float *alloc_floats(size_t n) {
  size_t bytes = (n * sizeof(float) + 63) / 64 * 64;
  if (bytes == 0) bytes = 64;
  void *p = std::aligned_alloc(64, bytes);
  if (!p) std::abort();
  std::memset(p, 0, bytes);
  return static_cast<float *>(p);
}

void free_floats(float *p) { std::free(p); }

void fill_activations(float *x, size_t n, uint64_t seed) {
  actk_fill_normal(x, n, seed, 3.0, 12.0);
}
void fill_bias(float *b, size_t n, uint64_t seed) { actk_fill_normal(b, n, seed, 1.0, 4.0); }

const char *input_description() {
  return "x ~ N(0, 3) clipped to [-12, 12], Box-Muller over splitmix64, fixed seed";
}

} // namespace actkb
