// Baseline "onednn": oneDNN (Debian's libdnnl-dev, 2.6) f32 eltwise forward
// primitives (forward_inference, a dense 1-D tensor of n floats):
//
//   tanh        eltwise_tanh
//   sigmoid     eltwise_logistic
//   silu        eltwise_swish, alpha 1
//   quick_gelu  eltwise_swish, alpha 1.702
//   gelu        eltwise_gelu_erf
//   gelu_tanh   eltwise_gelu_tanh
//   bias_gelu, bias_gelu_tanh
//               a binary_add primitive ([n / width, width] + a broadcast
//               [1, width] bias) with the gelu_erf / gelu_tanh eltwise as its
//               post-op: the fused way oneDNN does bias + activation
//
// oneDNN 2.6 has no erf eltwise, so no erf here. Each primitive is created
// once per op and size (on the first call with that size; the benchmarks make
// an untimed call first) and kept; a call points its memory objects at x and
// y and executes it on a CPU stream, then waits. oneDNN picks its JIT code by
// itself (runtime() names the implementation and the effective ISA: on this
// kind of CPU its AVX-512 code, whatever actk's forced ISA).
//
// Threads: Debian builds oneDNN with the OpenMP runtime (libgomp), which would
// use every CPU. Before oneDNN creates anything this file calls
// omp_set_num_threads(1) (looked up with dlsym in the OpenMP library oneDNN
// loaded, so nothing here links OpenMP) on the calling thread, whose
// omp_get_max_threads() oneDNN reads when it runs a primitive; runtime()
// reports the count read back. The ratio and benchmark programs call every
// kernel from their main thread. Built without target flags: only plain
// pointers and oneDNN's API cross this file.
#include "bench_ops.h"

#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

namespace actkb {
namespace {

using dnnl::algorithm;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

struct op_def {
  const char *name;
  algorithm alg;
  float alpha;
  bool bias;
};
const op_def kOps[] = {
    {"tanh", algorithm::eltwise_tanh, 0.0f, false},
    {"sigmoid", algorithm::eltwise_logistic, 0.0f, false},
    {"silu", algorithm::eltwise_swish, 1.0f, false},
    {"quick_gelu", algorithm::eltwise_swish, 1.702f, false},
    {"gelu", algorithm::eltwise_gelu_erf, 0.0f, false},
    {"gelu_tanh", algorithm::eltwise_gelu_tanh, 0.0f, false},
    {"bias_gelu", algorithm::eltwise_gelu_erf, 0.0f, true},
    {"bias_gelu_tanh", algorithm::eltwise_gelu_tanh, 0.0f, true},
};
constexpr int kNumOps = sizeof kOps / sizeof kOps[0];

struct prim {
  int op;
  size_t n, w;
  dnnl::primitive p;
  dnnl::memory src, src1, dst;
  std::unordered_map<int, dnnl::memory> args;
  std::string impl;
};

struct state {
  bool ok = false;
  std::string why = "not initialized";
  int threads = -1; // omp_get_max_threads() after pinning; -1: no OpenMP found
  dnnl::engine eng;
  dnnl::stream strm;
  std::vector<prim *> prims;
};

const char *g_error = nullptr;

// Pins oneDNN's OpenMP to one thread; returns the count read back.
int pin_openmp_to_one() {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  using set_fn = void (*)(int);
  using get_fn = int (*)();
  auto set = reinterpret_cast<set_fn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<get_fn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (!set || !get) return -1;
  set(1);
  return get();
#else
  return -1;
#endif
}

state &st() {
  static state s = [] {
    state r;
    r.threads = pin_openmp_to_one();
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
    if (r.threads != 1) {
      r.why = "could not set oneDNN's OpenMP to one thread";
      return r;
    }
#endif
    try {
      r.eng = dnnl::engine(dnnl::engine::kind::cpu, 0);
      r.strm = dnnl::stream(r.eng);
      r.ok = true;
      r.why.clear();
    } catch (const std::exception &e) {
      r.why = std::string("oneDNN engine: ") + e.what();
    }
    return r;
  }();
  return s;
}

prim *make(state &s, int op, size_t n, size_t w) {
  const op_def &d = kOps[op];
  auto *p = new prim{op, n, w, {}, {}, {}, {}, {}, {}};
  try {
    if (!d.bias) {
      dnnl::memory::desc md({(dnnl::memory::dim)n}, dt::f32, tag::a);
      dnnl::eltwise_forward::desc ed(dnnl::prop_kind::forward_inference, d.alg, md, d.alpha, 0.0f);
      dnnl::eltwise_forward::primitive_desc pd(ed, s.eng);
      p->impl = pd.impl_info_str();
      p->p = dnnl::eltwise_forward(pd);
      p->src = dnnl::memory(md, s.eng, nullptr);
      p->dst = dnnl::memory(md, s.eng, nullptr);
      p->args = {{DNNL_ARG_SRC, p->src}, {DNNL_ARG_DST, p->dst}};
    } else {
      const auto rows = (dnnl::memory::dim)(n / w), cols = (dnnl::memory::dim)w;
      dnnl::memory::desc md({rows, cols}, dt::f32, tag::ab);
      dnnl::memory::desc bd({1, cols}, dt::f32, tag::ab);
      dnnl::binary::desc bdesc(algorithm::binary_add, md, bd, md);
      dnnl::post_ops po;
      po.append_eltwise(1.0f, d.alg, d.alpha, 0.0f);
      dnnl::primitive_attr attr;
      attr.set_post_ops(po);
      dnnl::binary::primitive_desc pd(bdesc, attr, s.eng);
      p->impl = pd.impl_info_str();
      p->p = dnnl::binary(pd);
      p->src = dnnl::memory(md, s.eng, nullptr);
      p->src1 = dnnl::memory(bd, s.eng, nullptr);
      p->dst = dnnl::memory(md, s.eng, nullptr);
      p->args = {{DNNL_ARG_SRC_0, p->src}, {DNNL_ARG_SRC_1, p->src1}, {DNNL_ARG_DST, p->dst}};
    }
  } catch (...) {
    delete p;
    throw;
  }
  s.prims.push_back(p);
  return p;
}

prim *find(state &s, int op, size_t n, size_t w) {
  for (prim *p : s.prims)
    if (p->op == op && p->n == n && p->w == w) return p;
  return make(s, op, n, w);
}

void run(int op, const float *x, const float *b, size_t w, float *y, size_t n) {
  state &s = st();
  try {
    if (!s.ok) throw std::runtime_error(s.why);
    if (n == 0) return;
    if (!kOps[op].bias) w = n;
    if (w == 0 || n % w) throw std::runtime_error("n is not a multiple of the bias width");
    prim *p = find(s, op, n, w);
    p->src.set_data_handle(const_cast<float *>(x));
    if (kOps[op].bias) p->src1.set_data_handle(const_cast<float *>(b));
    p->dst.set_data_handle(y);
    p->p.execute(s.strm, p->args);
    s.strm.wait();
  } catch (const std::exception &e) {
    static std::string msg;
    if (!g_error) {
      msg = std::string("onednn ") + kOps[op].name + ": " + e.what();
      g_error = msg.c_str();
    }
    for (size_t i = 0; i < n; i++) y[i] = NAN;
  }
}

template <int Op>
void k(const float *x, const float *b, size_t w, float *y, size_t n) {
  run(Op, x, b, w, y, n);
}

bool dnnl_runnable() { return st().ok; }

const char *isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_sse41:
    return "sse41";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  default:
    return "other";
  }
}

// "oneDNN 2.6.3, effective ISA ..., OpenMP threads 1; tanh: jit:avx512_core, ..."
// (the implementations of 64 Ki-float primitives, made here for the query).
const char *dnnl_runtime() {
  static std::string r = [] {
    state &s = st();
    const dnnl_version_t *v = dnnl_version();
    char head[160];
    std::snprintf(head, sizeof head, "oneDNN %d.%d.%d, effective ISA %s, OpenMP threads %d",
                  v->major, v->minor, v->patch, isa_name(dnnl_get_effective_cpu_isa()), s.threads);
    std::string out = head;
    if (!s.ok) return out + "; " + s.why;
    out += "; impl:";
    for (int op = 0; op < kNumOps; op++) {
      try {
        out += std::string(op ? ", " : " ") + kOps[op].name + " " +
               find(s, op, 65536, kOps[op].bias ? kBiasWidth : 65536)->impl;
      } catch (const std::exception &e) {
        out += std::string(op ? ", " : " ") + kOps[op].name + " failed (" + e.what() + ")";
      }
    }
    return out;
  }();
  return r.c_str();
}

const char *dnnl_error() {
  const char *e = g_error;
  g_error = nullptr;
  return e;
}

const named_kernel onednn_table[] = {
    {"tanh", k<0>}, {"sigmoid", k<1>},   {"silu", k<2>},      {"quick_gelu", k<3>},
    {"gelu", k<4>}, {"gelu_tanh", k<5>}, {"bias_gelu", k<6>}, {"bias_gelu_tanh", k<7>},
};
} // namespace

const baseline onednn_baseline = {
    "onednn",
    "oneDNN 2.6 eltwise_forward (tanh, logistic, swish alpha 1 / 1.702, gelu_erf, gelu_tanh; "
    "bias ops: binary_add + eltwise post-op), created once per op and size, CPU stream, "
    "OpenMP pinned to 1 thread (omp_set_num_threads); no erf in oneDNN 2.6",
    dnnl_runnable,
    onednn_table,
    sizeof onednn_table / sizeof onednn_table[0],
    dnnl_runtime,
    dnnl_error};

} // namespace actkb
