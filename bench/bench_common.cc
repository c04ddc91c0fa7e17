// Op table, actk calls, data generation and the copy floor. Built without
// target flags: everything here runs on any x86-64 (or non-x86) CPU.
#include "bench_ops.h"

#include "harness.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace actkb {

namespace {
// a param op's alpha: its default (src/ops.toml's param.value, elu's 1), as the peers get it
float default_alpha(const actk_op_info *e) {
  return e->shape == ACTK_SHAPE_PARAM ? e->unary_alpha : 0.0f;
}
} // namespace

const std::vector<bench_op> &bench_ops() {
  static const std::vector<bench_op> v = [] {
    std::vector<bench_op> r;
    for (size_t i = 0; i < actk_catalog_size; i++) {
      const actk_op_info *e = &actk_catalog[i];
      // param ops with a unary twin (swish: silu) are benched as that op; the others (elu)
      // at their default alpha (run_actk)
      if (std::strcmp(e->type_name, "f32") != 0 || (e->shape == ACTK_SHAPE_PARAM && e->unary_of))
        continue;
      r.push_back({e->name, e, e->shape == ACTK_SHAPE_BIAS});
    }
    return r;
  }();
  return v;
}

actk_status run_actk(const bench_op &op, const float *x, const float *bias, size_t width, float *y,
                     size_t n) {
  return actk_op_call(op.info, nullptr, x, bias, width, y, n, default_alpha(op.info));
}

const std::vector<bench_op> &bench_ops_typed() {
  static const std::vector<bench_op> v = [] {
    std::vector<bench_op> r;
    for (size_t i = 0; i < actk_catalog_size; i++) {
      const actk_op_info *e = &actk_catalog[i];
      if (e->shape == ACTK_SHAPE_PARAM && e->unary_of) continue;
      r.push_back({e->name, e, e->shape == ACTK_SHAPE_BIAS});
    }
    return r;
  }();
  return v;
}

actk_status run_actk_typed(const bench_op &op, const void *x, const void *bias, size_t width,
                           void *y, size_t n) {
  return actk_op_call(op.info, nullptr, x, bias, width, y, n, default_alpha(op.info));
}

actk_status run_engine16(const bench_op &op, int type, const uint16_t *x, const uint16_t *bias,
                         size_t width, float *scratch, float *sb, uint16_t *y, size_t n) {
  auto widen = type == 1 ? widen_f16 : widen_bf16;
  widen(x, scratch, n);
  if (op.has_bias) widen(bias, sb, width);
  actk_status s = run_actk(op, scratch, sb, width, scratch, n);
  (type == 1 ? narrow_f16 : narrow_bf16)(scratch, y, n);
  return s;
}

// ---- 16-bit types ----

int distance16(uint16_t a, uint16_t b, bool bf16) {
  const unsigned inf = bf16 ? 0x7f80u : 0x7c00u;
  const bool na = (a & 0x7fffu) > inf, nb = (b & 0x7fffu) > inf;
  if (na || nb) return na && nb ? 0 : 1 << 20;
  // both types order like sign-magnitude integers
  auto ord = [](uint16_t h) { return (h & 0x8000u) ? -(int)(h & 0x7fffu) : (int)(h & 0x7fffu); };
  const int d = ord(a) - ord(b);
  return d < 0 ? -d : d;
}

// ---- the engine's whole-tensor passes ----

namespace {
void widen_f16_scalar(const uint16_t *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f16_to_f32(x[i]);
}
void narrow_f16_scalar(const float *x, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f32_to_f16(x[i]);
}
void widen_bf16_scalar(const uint16_t *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_bf16_to_f32(x[i]);
}
void narrow_bf16_scalar(const float *x, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = actk_f32_to_bf16(x[i]);
}
} // namespace

// the active ISA's pass (the engine's loops follow actk's forced ISA, so an
// avx2 run compares AVX2 with AVX2)
#if defined(ACTK_BENCH_HAVE_ENGINE16_X86)
#define ACTK_BENCH_PASS(name, In, Out)                                                             \
  void name(const In *x, Out *y, size_t n) {                                                       \
    switch (actk_isa_active()) {                                                                   \
    case ACTK_ISA_AVX512:                                                                          \
      return name##_avx512(x, y, n);                                                               \
    case ACTK_ISA_AVX2:                                                                            \
      return name##_avx2(x, y, n);                                                                 \
    default:                                                                                       \
      return name##_scalar(x, y, n);                                                               \
    }                                                                                              \
  }
#else
#define ACTK_BENCH_PASS(name, In, Out)                                                             \
  void name(const In *x, Out *y, size_t n) { name##_scalar(x, y, n); }
#endif
ACTK_BENCH_PASS(widen_f16, uint16_t, float)
ACTK_BENCH_PASS(narrow_f16, float, uint16_t)
ACTK_BENCH_PASS(widen_bf16, uint16_t, float)
ACTK_BENCH_PASS(narrow_bf16, float, uint16_t)
#undef ACTK_BENCH_PASS

void mul16_scalar(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n) {
  auto from = bf16 ? actk_bf16_to_f32 : actk_f16_to_f32;
  auto to = bf16 ? actk_f32_to_bf16 : actk_f32_to_f16;
  for (size_t i = 0; i < n; i++) y[i] = to(from(a[i]) * from(u[i]));
}

void gated_mul(int type, const void *a, const void *u, void *y, size_t n) {
  const auto *a32 = static_cast<const float *>(a), *u32 = static_cast<const float *>(u);
  const auto *a16 = static_cast<const uint16_t *>(a), *u16 = static_cast<const uint16_t *>(u);
  const bool bf16 = type == 2;
#if defined(ACTK_BENCH_HAVE_ENGINE16_X86)
  const actk_isa isa = actk_isa_active();
  if (isa == ACTK_ISA_AVX512 || isa == ACTK_ISA_AVX2) {
    const bool z = isa == ACTK_ISA_AVX512;
    if (type == 0)
      (z ? mul_f32_avx512 : mul_f32_avx2)(a32, u32, static_cast<float *>(y), n);
    else
      (z ? mul16_avx512 : mul16_avx2)(bf16, a16, u16, static_cast<uint16_t *>(y), n);
    return;
  }
#endif
  if (type == 0)
    for (size_t i = 0; i < n; i++) static_cast<float *>(y)[i] = a32[i] * u32[i];
  else
    mul16_scalar(bf16, a16, u16, static_cast<uint16_t *>(y), n);
}

#if defined(ACTK_BENCH_HAVE_TORCH)
// torch's peers, from its module (bench/CMakeLists.txt says why it is loaded
// apart; RTLD_DEEPBIND: its libraries bind to their own SLEEF and cpuinfo
// first); nullptr, said once on stderr, when it does not load.
const torch_peers *torch_module() {
  static const torch_peers *const p = []() -> const torch_peers * {
    void *h = dlopen(ACTK_TORCH_MODULE, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    void *entry = h ? dlsym(h, "actk_bench_torch_peers") : nullptr;
    if (!entry) {
      std::fprintf(stderr, "bench: no torch peer: %s\n", dlerror());
      return nullptr;
    }
    return reinterpret_cast<const torch_peers *(*)()>(entry)();
  }();
  return p;
}
#endif

const std::vector<const baseline16 *> &baselines16() {
  static const std::vector<const baseline16 *> v = [] {
    std::vector<const baseline16 *> r = {
#if defined(ACTK_BENCH_HAVE_ONEDNN)
      &onednn_bf16_baseline,
      &onednn_f16_baseline,
#endif
#if defined(ACTK_BENCH_HAVE_GGML)
      &ggml_f16_baseline,
      &ggml_bf16_baseline,
#endif
    };
#if defined(ACTK_BENCH_HAVE_TORCH)
    if (const torch_peers *t = torch_module()) r.insert(r.end(), {t->bf16, t->f16});
#endif
    return r;
  }();
  return v;
}

kernel16_fn baseline16_kernel(const baseline16 *b, const char *op) {
  if (!b) return nullptr;
  for (size_t i = 0; i < b->count; i++)
    if (!std::strcmp(b->kernels[i].op, op)) return b->kernels[i].fn;
  return nullptr;
}

const std::vector<const gated_peer *> &gated_peers() {
  static const std::vector<const gated_peer *> v = [] {
    std::vector<const gated_peer *> r = {
#if defined(ACTK_BENCH_HAVE_GGML)
      &ggml_gated_peer,
      &ggml_avx2_gated_peer,
      &ggml_split_gated_peer,
      &ggml_2p_gated_peer,
      &ggml_avx2_2p_gated_peer,
#endif
    };
#if defined(ACTK_BENCH_HAVE_TORCH)
    if (const torch_peers *t = torch_module()) r.push_back(t->gated_2p);
#endif
    return r;
  }();
  return v;
}

gated_fn gated_peer_kernel(const gated_peer *p, const char *op, int type) {
  for (const gated_kernel &k : p->kernels)
    if (!std::strcmp(k.op, op) && k.type == type) return k.fn;
  return nullptr;
}

const std::vector<const baseline *> &baselines() {
  static const std::vector<const baseline *> v = [] {
    std::vector<const baseline *> r = {
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
#if defined(ACTK_BENCH_HAVE_GGML)
      &ggml_baseline,
      &ggml_avx2_baseline,
#endif
    };
#if defined(ACTK_BENCH_HAVE_TORCH)
    if (const torch_peers *t = torch_module()) r.push_back(t->f32);
#endif
    return r;
  }();
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
