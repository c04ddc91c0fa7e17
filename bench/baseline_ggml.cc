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

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <string>
#include <utility>
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
  decltype(&::ggml_new_tensor_2d) ggml_new_tensor_2d = nullptr;
  decltype(&::ggml_view_2d) ggml_view_2d = nullptr;
  decltype(&::ggml_glu) ggml_glu = nullptr;
  decltype(&::ggml_glu_split) ggml_glu_split = nullptr;
  decltype(&::ggml_mul) ggml_mul = nullptr;
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
      sym(h, "ggml_new_tensor_2d", l.ggml_new_tensor_2d, l) &&
      sym(h, "ggml_view_2d", l.ggml_view_2d, l) && sym(h, "ggml_glu", l.ggml_glu, l) &&
      sym(h, "ggml_glu_split", l.ggml_glu_split, l) && sym(h, "ggml_mul", l.ggml_mul, l) &&
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

// The graph that computes out, and its plan for one thread (its work buffer in work).
ggml_cgraph *plan(const lib &l, ggml_context *ctx, ggml_tensor *out, ggml_cplan *p,
                  std::vector<uint8_t> *work) {
  ggml_cgraph *g = l.ggml_new_graph(ctx);
  l.ggml_build_forward_expand(g, out);
  *p = l.ggml_graph_plan(g, 1, l.pool);
  work->resize(p->work_size + 64);
  p->work_data = p->work_size ? work->data() : nullptr;
  return g;
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
  g->g = plan(l, ctx, g->y, &g->plan, &g->work);
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

// ---- the gated ops (bench_ops.h's gated_peer) ----
//
// actk's gated op -> ggml's GLU op and the unary op of its two-pass form.
// ggml's GLU applies the activation to each row's first half unless swapped
// (ggml's header calls the other half the gate), so swapped = false is actk's
// packed layout. ggml_geglu is the tanh form (GELU through its f16 table, as
// ggml_gelu), ggml_geglu_erf the erf form; ggml_geglu_quick (QuickGELU) has
// no actk twin.
struct gated_def {
  const char *name;
  ggml_glu_op glu;
  int act; // kOps index of the activation
};
const gated_def kGated[] = {
    {"swiglu", GGML_GLU_OP_SWIGLU, 2},
    {"geglu", GGML_GLU_OP_GEGLU_ERF, 4},
    {"geglu_tanh", GGML_GLU_OP_GEGLU, 5},
};

// FUSED: ggml_glu on x = [rows][2d] (its packed form); SPLIT: ggml_glu_split
// on the two halves as [rows][d] views of x; TWO_PASS: the unary op on the
// gate view into a scratch tensor, then ggml_mul of it and the up view.
enum gated_form { FUSED, SPLIT, TWO_PASS };

struct gated_graph {
  const lib *l;
  int op;
  gated_form form;
  ggml_type type;
  size_t rows, d;
  ggml_context *ctx;
  ggml_tensor *x, *g, *u, *a, *y;
  ggml_cgraph *gr;
  ggml_cplan plan;
  std::vector<uint8_t> work;
};
std::vector<gated_graph *> g_gated;

gated_graph *find_gated(lib &l, int op, gated_form form, ggml_type type, size_t rows, size_t d) {
  for (gated_graph *g : g_gated)
    if (g->l == &l && g->op == op && g->form == form && g->type == type && g->rows == rows &&
        g->d == d)
      return g;
  ggml_init_params ip = {1 << 20, nullptr, true};
  ggml_context *ctx = l.ggml_init(ip);
  if (!ctx) return nullptr;
  auto *g = new gated_graph{&l,      op,      form,    type,    rows,    d,  ctx, nullptr,
                            nullptr, nullptr, nullptr, nullptr, nullptr, {}, {}};
  g->x = l.ggml_new_tensor_2d(ctx, type, (int64_t)(2 * d), (int64_t)rows);
  g->g = l.ggml_view_2d(ctx, g->x, (int64_t)d, (int64_t)rows, g->x->nb[1], 0);
  g->u = l.ggml_view_2d(ctx, g->x, (int64_t)d, (int64_t)rows, g->x->nb[1], d * g->x->nb[0]);
  const gated_def &def = kGated[op];
  if (form == FUSED)
    g->y = l.ggml_glu(ctx, g->x, def.glu, false);
  else if (form == SPLIT)
    g->y = l.ggml_glu_split(ctx, g->g, g->u, def.glu);
  else
    g->a = (l.*kOps[def.act].fn)(ctx, g->g), g->y = l.ggml_mul(ctx, g->a, g->u);
  g->gr = plan(l, ctx, g->y, &g->plan, &g->work);
  g_gated.push_back(g);
  return g;
}

// The tensors were made without data (no_alloc): each call points them, the
// views included (ggml computes on tensor->data), at the caller's buffers.
void run_gated(lib &l0, int op, gated_form form, int type, const void *x, void *y, void *scratch,
               size_t rows, size_t d) {
  static const ggml_type kType[3] = {GGML_TYPE_F32, GGML_TYPE_F16, GGML_TYPE_BF16};
  lib &l = get(l0);
  gated_graph *g = l.ok ? find_gated(l, op, form, kType[type], rows, d) : nullptr;
  if (g) {
    char *xb = static_cast<char *>(const_cast<void *>(x));
    g->x->data = xb;
    g->g->data = xb;
    g->u->data = xb + d * g->x->nb[0];
    if (g->a) g->a->data = scratch;
    g->y->data = y;
    if (l.ggml_graph_compute(g->gr, &g->plan) == GGML_STATUS_SUCCESS) return;
  }
  g_error.set(l.ok ? "ggml: a gated graph failed" : "ggml: not loaded");
  const size_t n = rows * d;
  if (type == 0)
    std::fill_n(static_cast<float *>(y), n, NAN);
  else
    std::fill_n(static_cast<uint16_t *>(y), n, type == 1 ? 0x7e00 : 0x7fc0);
}

template <lib *L, gated_form Form, int Op, int Type>
void kg(const void *x, void *y, void *scratch, size_t rows, size_t d) {
  run_gated(*L, Op, Form, Type, x, y, scratch, rows, d);
}

// every op in every type: [op][type]
template <lib *L, gated_form Form, size_t... I>
std::vector<gated_kernel> gated_table(std::index_sequence<I...>) {
  return {
      gated_kernel{kGated[I / 3].name, (int)(I % 3), kg<L, Form, (int)(I / 3), (int)(I % 3)>}...};
}
template <lib *L, gated_form Form>
std::vector<gated_kernel> gated_table() {
  return gated_table<L, Form>(std::make_index_sequence<3 * std::size(kGated)>());
}

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

namespace {
// one of ggml's gated columns: a form, on the native or the AVX2 build
gated_peer ggml_peer(const char *name, gated_form form, bool avx2, const char *describes) {
  auto table = [form](auto l) {
    constexpr lib *L = decltype(l)::value;
    return form == FUSED   ? gated_table<L, FUSED>()
           : form == SPLIT ? gated_table<L, SPLIT>()
                           : gated_table<L, TWO_PASS>();
  };
  return {name,
          avx2 ? &ggml_avx2_baseline : &ggml_baseline,
          form == TWO_PASS,
          avx2 ? "avx2" : "avx512",
          describes,
          avx2 ? table(std::integral_constant<lib *, &g_avx2>())
               : table(std::integral_constant<lib *, &g_native>())};
}
} // namespace

const gated_peer ggml_gated_peer =
    ggml_peer("ggml", FUSED, false,
              "ggml (native) fused GLU on x = [rows][2d] (ggml_glu, not swapped: the gate first)");
const gated_peer ggml_avx2_gated_peer =
    ggml_peer("ggml_avx2", FUSED, true, "the same, ggml's AVX2 build");
const gated_peer ggml_split_gated_peer =
    ggml_peer("ggml_split", SPLIT, false,
              "ggml (native) fused GLU on the two halves as views of x (ggml_glu_split)");
const gated_peer ggml_2p_gated_peer =
    ggml_peer("ggml_2p", TWO_PASS, false,
              "ggml (native) two-pass: the unary op on the gate view into scratch, then "
              "ggml_mul by the up view, one graph");
const gated_peer ggml_avx2_2p_gated_peer =
    ggml_peer("ggml_avx2_2p", TWO_PASS, true, "the same two-pass graph, ggml's AVX2 build");

} // namespace actkb
