// Baselines "ggml" and "ggml_avx2": ggml's CPU kernels (the ggml inside PyPI's
// llama-cpp-python source distribution, built by bench/setup-peers.sh twice:
// -march=native, and AVX2 + FMA + F16C without AVX-512), through ggml's
// public graph API, one thread:
//
//   tanh ggml_tanh, sigmoid ggml_sigmoid, silu ggml_silu, quick_gelu
//   ggml_gelu_quick, gelu ggml_gelu_erf, gelu_tanh ggml_gelu (ggml's tanh-form
//   GELU), hardsigmoid, hardswish, softplus, elu (alpha 1): ggml_<op>
//
// Why the graph API and not ggml's vector routines (ggml_vec_gelu_f32 ...):
// most of those are static inline in ggml-cpu's private headers and take
// ggml-cpu's tables (the f16 GELU table, filled by ggml_cpu_init), so calling
// them means compiling ggml's internals into this file; the graph API is what
// an engine calls, runs the same routines (one row of n elements, so one
// vector call), and its fixed cost per call is measured out (fixed_cost: actk_ratio times the
// same op on 16 elements in the same rounds and subtracts it).
//
// Each variant's libggml-cpu.so (and its libggml-base.so) is loaded with
// dlmopen into a link-map namespace of its own, so the two builds' identical
// symbols and sonames do not meet; only ggml's public functions are called,
// through dlsym. Per op, type and n, a context (no_alloc: the tensors point at
// the caller's x and y), a graph of the one node and a plan are made once and
// kept; a call sets the two tensors' data pointers and runs
// ggml_graph_compute on a threadpool of one thread (made once, as llama.cpp
// keeps one), which runs the node on the calling thread.
//
// ggml_f16, ggml_bf16 (bench_ops.h's baseline16, actk_ratio --types): the same
// ops on F16 and BF16 tensors of the native build (ggml's own 16-bit paths).
#include "bench_ops.h"

#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <string>
#include <vector>

#include <ggml-cpu.h>
#include <ggml.h>

namespace actkb {
namespace {

struct lib {
  const char *path;
  bool need_avx512;
  // ggml's public functions used, typed from its own declarations (dlsym)
  decltype(&::ggml_init) ggml_init = nullptr;
  decltype(&::ggml_new_tensor_1d) ggml_new_tensor_1d = nullptr;
  decltype(&::ggml_new_graph) ggml_new_graph = nullptr;
  decltype(&::ggml_build_forward_expand) ggml_build_forward_expand = nullptr;
  decltype(&::ggml_graph_plan) ggml_graph_plan = nullptr;
  decltype(&::ggml_graph_compute) ggml_graph_compute = nullptr;
  decltype(&::ggml_threadpool_params_default) ggml_threadpool_params_default = nullptr;
  decltype(&::ggml_threadpool_new) ggml_threadpool_new = nullptr;
  decltype(&::ggml_tanh) ggml_tanh = nullptr;
  decltype(&::ggml_sigmoid) ggml_sigmoid = nullptr;
  decltype(&::ggml_silu) ggml_silu = nullptr;
  decltype(&::ggml_gelu_quick) ggml_gelu_quick = nullptr;
  decltype(&::ggml_gelu_erf) ggml_gelu_erf = nullptr;
  decltype(&::ggml_gelu) ggml_gelu = nullptr;
  decltype(&::ggml_hardsigmoid) ggml_hardsigmoid = nullptr;
  decltype(&::ggml_hardswish) ggml_hardswish = nullptr;
  decltype(&::ggml_softplus) ggml_softplus = nullptr;
  decltype(&::ggml_elu) ggml_elu = nullptr;
  decltype(&::ggml_cpu_has_avx2) ggml_cpu_has_avx2 = nullptr;
  decltype(&::ggml_cpu_has_avx512) ggml_cpu_has_avx512 = nullptr;
  decltype(&::ggml_version) ggml_version = nullptr;
  bool ok = false;
  std::string why = {};
  ggml_threadpool *pool = nullptr;
};

using unary_fn = ggml_tensor *(*)(ggml_context *, ggml_tensor *);
struct op_def {
  const char *name;
  unary_fn lib::*fn; // the lib's entry for it
};

const op_def kOps[] = {
    {"tanh", &lib::ggml_tanh},
    {"sigmoid", &lib::ggml_sigmoid},
    {"silu", &lib::ggml_silu},
    {"quick_gelu", &lib::ggml_gelu_quick},
    {"gelu", &lib::ggml_gelu_erf},
    {"gelu_tanh", &lib::ggml_gelu},
    {"hardsigmoid", &lib::ggml_hardsigmoid},
    {"hardswish", &lib::ggml_hardswish},
    {"softplus", &lib::ggml_softplus},
    {"elu", &lib::ggml_elu},
};

// f = name's address in h; false (and why) if it has none
template <class F>
bool sym(void *h, const char *name, F &f, lib &l) {
  f = reinterpret_cast<F>(dlsym(h, name));
  if (!f) l.why = std::string("no ") + name + " in " + l.path;
  return f != nullptr;
}

bool load(lib &l) {
  if (!l.path[0]) {
    l.why = "not built (bench/setup-peers.sh builds it)";
    return false;
  }
  if (l.need_avx512 ? !avx512_baselines_runnable() : !simd_baselines_runnable()) {
    l.why = "this CPU cannot run the build";
    return false;
  }
  void *h = dlmopen(LM_ID_NEWLM, l.path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    l.why = std::string("dlmopen: ") + dlerror();
    return false;
  }
  const bool all =
      sym(h, "ggml_init", l.ggml_init, l) &&
      sym(h, "ggml_new_tensor_1d", l.ggml_new_tensor_1d, l) &&
      sym(h, "ggml_new_graph", l.ggml_new_graph, l) &&
      sym(h, "ggml_build_forward_expand", l.ggml_build_forward_expand, l) &&
      sym(h, "ggml_graph_plan", l.ggml_graph_plan, l) &&
      sym(h, "ggml_graph_compute", l.ggml_graph_compute, l) &&
      sym(h, "ggml_threadpool_params_default", l.ggml_threadpool_params_default, l) &&
      sym(h, "ggml_threadpool_new", l.ggml_threadpool_new, l) &&
      sym(h, "ggml_tanh", l.ggml_tanh, l) && sym(h, "ggml_sigmoid", l.ggml_sigmoid, l) &&
      sym(h, "ggml_silu", l.ggml_silu, l) && sym(h, "ggml_gelu_quick", l.ggml_gelu_quick, l) &&
      sym(h, "ggml_gelu_erf", l.ggml_gelu_erf, l) && sym(h, "ggml_gelu", l.ggml_gelu, l) &&
      sym(h, "ggml_hardsigmoid", l.ggml_hardsigmoid, l) &&
      sym(h, "ggml_hardswish", l.ggml_hardswish, l) &&
      sym(h, "ggml_softplus", l.ggml_softplus, l) && sym(h, "ggml_elu", l.ggml_elu, l) &&
      sym(h, "ggml_cpu_has_avx2", l.ggml_cpu_has_avx2, l) &&
      sym(h, "ggml_cpu_has_avx512", l.ggml_cpu_has_avx512, l) &&
      sym(h, "ggml_version", l.ggml_version, l);
  if (!all) return false;
  ggml_threadpool_params tp = l.ggml_threadpool_params_default(1);
  l.pool = l.ggml_threadpool_new(&tp);
  if (!l.pool) {
    l.why = "ggml_threadpool_new failed";
    return false;
  }
  return true;
}

lib g_native{ACTK_GGML_NATIVE, false}, g_avx2{ACTK_GGML_AVX2, false};

lib &get(lib &l) {
  static bool tried[2];
  bool &t = tried[&l == &g_avx2];
  if (!t) {
    t = true;
    l.ok = load(l);
  }
  return l;
}

struct graph {
  const lib *l;
  int op;
  ggml_type type;
  size_t n;
  ggml_context *ctx;
  ggml_tensor *x, *y;
  ggml_cgraph *g;
  ggml_cplan plan;
  std::vector<uint8_t> work;
};
std::vector<graph *> g_graphs;
peer_error g_error;

graph *find(lib &l, int op, ggml_type type, size_t n) {
  for (graph *g : g_graphs)
    if (g->l == &l && g->op == op && g->type == type && g->n == n) return g;
  ggml_init_params ip = {1 << 20, nullptr, true}; // a graph of one node and its two tensors
  ggml_context *ctx = l.ggml_init(ip);
  if (!ctx) return nullptr;
  auto *g = new graph{&l, op, type, n, ctx, nullptr, nullptr, nullptr, {}, {}};
  g->x = l.ggml_new_tensor_1d(ctx, type, (int64_t)n);
  g->y = (l.*kOps[op].fn)(ctx, g->x);
  g->g = l.ggml_new_graph(ctx);
  l.ggml_build_forward_expand(g->g, g->y);
  g->plan = l.ggml_graph_plan(g->g, 1, l.pool);
  g->work.resize(g->plan.work_size + 64);
  g->plan.work_data = g->plan.work_size ? g->work.data() : nullptr;
  g_graphs.push_back(g);
  return g;
}

template <class T>
void run(lib &l0, int op, ggml_type type, const T *x, T *y, size_t n, T nan) {
  lib &l = get(l0);
  graph *g = l.ok ? find(l, op, type, n) : nullptr;
  if (g) {
    g->x->data = const_cast<T *>(x);
    g->y->data = y;
    if (l.ggml_graph_compute(g->g, &g->plan) == GGML_STATUS_SUCCESS) return;
  }
  g_error.set(l.ok ? "ggml: a graph failed" : "ggml: not loaded");
  for (size_t i = 0; i < n; i++) y[i] = nan;
}

template <lib *L, int Op>
void k(const float *x, const float *, size_t, float *y, size_t n) {
  run<float>(*L, Op, GGML_TYPE_F32, x, y, n, NAN);
}
template <int Op>
void k_f16(const uint16_t *x, const uint16_t *, size_t, uint16_t *y, size_t n) {
  run<uint16_t>(g_native, Op, GGML_TYPE_F16, x, y, n, 0x7e00);
}
template <int Op>
void k_bf16(const uint16_t *x, const uint16_t *, size_t, uint16_t *y, size_t n) {
  run<uint16_t>(g_native, Op, GGML_TYPE_BF16, x, y, n, 0x7fc0);
}

const std::vector<named_kernel> native_table = kernel_table<named_kernel>(
    kOps, [](auto i) -> kernel_fn { return k<&g_native, decltype(i)::value>; });
const std::vector<named_kernel> avx2_table = kernel_table<named_kernel>(
    kOps, [](auto i) -> kernel_fn { return k<&g_avx2, decltype(i)::value>; });
const std::vector<named_kernel16> f16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_f16<decltype(i)::value>; });
const std::vector<named_kernel16> bf16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_bf16<decltype(i)::value>; });

bool native_ok() { return get(g_native).ok; }
bool avx2_ok() { return get(g_avx2).ok; }
const char *describe(lib &l0) {
  lib &l = get(l0);
  static std::string s[2];
  std::string &r = s[&l0 == &g_avx2];
  if (l.ok)
    r = std::string("ggml ") + l.ggml_version() + ", " + l.path +
        (l.ggml_cpu_has_avx512() ? ": AVX-512"
         : l.ggml_cpu_has_avx2() ? ": AVX2"
                                 : ": no AVX2") +
        ", threadpool of 1";
  else
    r = l.why;
  return r.c_str();
}
const char *native_runtime() { return describe(g_native); }
const char *avx2_runtime() { return describe(g_avx2); }
const char *ggml_error() { return g_error.take(); }
} // namespace

const baseline ggml_baseline = {
    "ggml",
    "ggml (llama-cpp-python's sdist, -march=native) unary ops through its graph API (gelu_tanh: "
    "ggml_gelu; gelu: ggml_gelu_erf), one node per graph, threadpool of 1",
    native_ok,
    native_table.data(),
    native_table.size(),
    native_runtime,
    ggml_error,
    true};

const baseline ggml_avx2_baseline = {
    "ggml_avx2",       "the same ggml built with AVX2 + FMA + F16C, no AVX-512",
    avx2_ok,           avx2_table.data(),
    avx2_table.size(), avx2_runtime,
    ggml_error,        true};

const baseline16 ggml_f16_baseline = {"ggml_f16",
                                      "ggml",
                                      "f16",
                                      "ggml (native) unary ops on F16 tensors",
                                      native_ok,
                                      f16_table.data(),
                                      f16_table.size(),
                                      native_runtime,
                                      ggml_error,
                                      true};
const baseline16 ggml_bf16_baseline = {"ggml_bf16",
                                       "ggml",
                                       "bf16",
                                       "ggml (native) unary ops on BF16 tensors",
                                       native_ok,
                                       bf16_table.data(),
                                       bf16_table.size(),
                                       native_runtime,
                                       ggml_error,
                                       true};

} // namespace actkb
