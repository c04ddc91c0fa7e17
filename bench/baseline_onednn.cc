// Baseline "onednn": oneDNN (Debian's libdnnl-dev, 2.6) f32 eltwise forward
// primitives (forward_inference, a dense 1-D tensor of n floats):
//
//   tanh        eltwise_tanh
//   sigmoid     eltwise_logistic
//   silu        eltwise_swish, alpha 1
//   quick_gelu  eltwise_swish, alpha 1.702
//   gelu        eltwise_gelu_erf
//   gelu_tanh   eltwise_gelu_tanh
//   hardswish   eltwise_hardswish (its alpha and beta ignored in 2.6; no hardsigmoid before 2.7)
//   softplus    eltwise_soft_relu (log(1 + e^x); alpha and beta ignored in 2.6, which has no
//               soft_relu_v2 and so no beta)
//   elu         eltwise_elu, alpha 1
//   mish        eltwise_mish (alpha and beta ignored)
//   bias_gelu, bias_gelu_tanh
//               a binary_add primitive ([n / width, width] + a broadcast
//               [1, width] bias) with the gelu_erf / gelu_tanh eltwise as its
//               post-op: the fused way oneDNN does bias + activation
//
// oneDNN 2.6 has no erf eltwise, so no erf here.
//
// The same primitives over bf16 and f16 tensors (onednn_bf16, onednn_f16:
// bench_ops.h's baseline16, for actk_ratio --types): src, dst (and the bias)
// in the 16-bit type, the op computed by oneDNN's own bf16/f16 path. oneDNN
// 2.6 on AVX-512 with AVX512-BF16 runs bf16 eltwise in its jit:avx512_core_bf16
// code (its conversion, VCVTNEPS2BF16, flushes subnormal results to zero) and
// the bias forms in jit:uni binary + post-op; it has no f16 eltwise or binary
// on x86 CPUs, so onednn_f16 reports that (runtime()) and is not runnable.
// Each primitive is created
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
    {"hardswish", algorithm::eltwise_hardswish, 0.0f, false},
    {"softplus", algorithm::eltwise_soft_relu, 0.0f, false},
    {"elu", algorithm::eltwise_elu, 1.0f, false},
    {"mish", algorithm::eltwise_mish, 0.0f, false},
};
constexpr int kNumOps = sizeof kOps / sizeof kOps[0];

struct prim {
  int op;
  dt type;
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

prim *make(state &s, int op, dt type, size_t n, size_t w) {
  const op_def &d = kOps[op];
  auto *p = new prim{op, type, n, w, {}, {}, {}, {}, {}, {}};
  try {
    if (!d.bias) {
      dnnl::memory::desc md({(dnnl::memory::dim)n}, type, tag::a);
      dnnl::eltwise_forward::desc ed(dnnl::prop_kind::forward_inference, d.alg, md, d.alpha, 0.0f);
      dnnl::eltwise_forward::primitive_desc pd(ed, s.eng);
      p->impl = pd.impl_info_str();
      p->p = dnnl::eltwise_forward(pd);
      p->src = dnnl::memory(md, s.eng, nullptr);
      p->dst = dnnl::memory(md, s.eng, nullptr);
      p->args = {{DNNL_ARG_SRC, p->src}, {DNNL_ARG_DST, p->dst}};
    } else {
      const auto rows = (dnnl::memory::dim)(n / w), cols = (dnnl::memory::dim)w;
      dnnl::memory::desc md({rows, cols}, type, tag::ab);
      dnnl::memory::desc bd({1, cols}, type, tag::ab);
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

prim *find(state &s, int op, dt type, size_t n, size_t w) {
  for (prim *p : s.prims)
    if (p->op == op && p->type == type && p->n == n && p->w == w) return p;
  return make(s, op, type, n, w);
}

// T: float, or uint16_t for bf16 / f16 (nan: the type's quiet NaN pattern).
template <class T>
void run(int op, dt type, const T *x, const T *b, size_t w, T *y, size_t n, T nan) {
  state &s = st();
  try {
    if (!s.ok) throw std::runtime_error(s.why);
    if (n == 0) return;
    if (!kOps[op].bias) w = n;
    if (w == 0 || n % w) throw std::runtime_error("n is not a multiple of the bias width");
    prim *p = find(s, op, type, n, w);
    p->src.set_data_handle(const_cast<T *>(x));
    if (kOps[op].bias) p->src1.set_data_handle(const_cast<T *>(b));
    p->dst.set_data_handle(y);
    p->p.execute(s.strm, p->args);
    s.strm.wait();
  } catch (const std::exception &e) {
    static std::string msg;
    if (!g_error) {
      msg = std::string("onednn ") + kOps[op].name + ": " + e.what();
      g_error = msg.c_str();
    }
    for (size_t i = 0; i < n; i++) y[i] = nan;
  }
}

template <int Op>
void k(const float *x, const float *b, size_t w, float *y, size_t n) {
  run<float>(Op, dt::f32, x, b, w, y, n, NAN);
}
template <int Op>
void k_bf16(const uint16_t *x, const uint16_t *b, size_t w, uint16_t *y, size_t n) {
  run<uint16_t>(Op, dt::bf16, x, b, w, y, n, 0x7fc0);
}
template <int Op>
void k_f16(const uint16_t *x, const uint16_t *b, size_t w, uint16_t *y, size_t n) {
  run<uint16_t>(Op, dt::f16, x, b, w, y, n, 0x7e00);
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
               find(s, op, dt::f32, 65536, kOps[op].bias ? kBiasWidth : 65536)->impl;
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

// The 16-bit baselines: runnable when every op's 64 Ki primitive can be made
// in the type; runtime() names the implementations (or what failed).
struct probe16 {
  bool ok = false;
  std::string text;
};
probe16 probe_type(dt type, const char *tname) {
  probe16 r;
  state &s = st();
  if (!s.ok) {
    r.text = s.why;
    return r;
  }
  r.ok = true;
  r.text = std::string("oneDNN ") + tname + ":";
  for (int op = 0; op < kNumOps; op++) {
    try {
      r.text += std::string(op ? ", " : " ") + kOps[op].name + " " +
                find(s, op, type, 65536, kOps[op].bias ? kBiasWidth : 65536)->impl;
    } catch (const std::exception &e) {
      r.ok = false;
      r.text += std::string(op ? ", " : " ") + kOps[op].name + " failed (" + e.what() + ")";
    }
  }
  if (!r.ok) r.text += std::string(": no ") + tname + " eltwise in this oneDNN on this CPU";
  return r;
}
const probe16 &probe_bf16() {
  static const probe16 p = probe_type(dt::bf16, "bf16");
  return p;
}
const probe16 &probe_f16() {
  static const probe16 p = probe_type(dt::f16, "f16");
  return p;
}
bool bf16_runnable() { return probe_bf16().ok; }
bool f16_runnable() { return probe_f16().ok; }
const char *bf16_runtime() { return probe_bf16().text.c_str(); }
const char *f16_runtime() { return probe_f16().text.c_str(); }

const named_kernel16 onednn_bf16_table[] = {
    {"tanh", k_bf16<0>},       {"sigmoid", k_bf16<1>},        {"silu", k_bf16<2>},
    {"quick_gelu", k_bf16<3>}, {"gelu", k_bf16<4>},           {"gelu_tanh", k_bf16<5>},
    {"bias_gelu", k_bf16<6>},  {"bias_gelu_tanh", k_bf16<7>}, {"hardswish", k_bf16<8>},
    {"softplus", k_bf16<9>},   {"elu", k_bf16<10>},           {"mish", k_bf16<11>},
};
const named_kernel16 onednn_f16_table[] = {
    {"tanh", k_f16<0>},       {"sigmoid", k_f16<1>},        {"silu", k_f16<2>},
    {"quick_gelu", k_f16<3>}, {"gelu", k_f16<4>},           {"gelu_tanh", k_f16<5>},
    {"bias_gelu", k_f16<6>},  {"bias_gelu_tanh", k_f16<7>}, {"hardswish", k_f16<8>},
    {"softplus", k_f16<9>},   {"elu", k_f16<10>},           {"mish", k_f16<11>},
};

const named_kernel onednn_table[] = {
    {"tanh", k<0>},      {"sigmoid", k<1>},   {"silu", k<2>},      {"quick_gelu", k<3>},
    {"gelu", k<4>},      {"gelu_tanh", k<5>}, {"bias_gelu", k<6>}, {"bias_gelu_tanh", k<7>},
    {"hardswish", k<8>}, {"softplus", k<9>},  {"elu", k<10>},      {"mish", k<11>},
};
} // namespace

const baseline onednn_baseline = {
    "onednn",
    "oneDNN 2.6 eltwise_forward (tanh, logistic, swish alpha 1 / 1.702, gelu_erf, gelu_tanh, "
    "hardswish, soft_relu, elu alpha 1, mish; "
    "bias ops: binary_add + eltwise post-op), created once per op and size, CPU stream, "
    "OpenMP pinned to 1 thread (omp_set_num_threads); no erf in oneDNN 2.6",
    dnnl_runnable,
    onednn_table,
    sizeof onednn_table / sizeof onednn_table[0],
    dnnl_runtime,
    dnnl_error};

const baseline16 onednn_bf16_baseline = {
    "onednn_bf16",
    "onednn",
    "bf16",
    "oneDNN 2.6 eltwise_forward / binary_add + post-op on bf16 src and dst (its own bf16 path), "
    "as the f32 baseline otherwise",
    bf16_runnable,
    onednn_bf16_table,
    sizeof onednn_bf16_table / sizeof onednn_bf16_table[0],
    bf16_runtime,
    dnnl_error};

const baseline16 onednn_f16_baseline = {
    "onednn_f16",
    "onednn",
    "f16",
    "oneDNN 2.6 eltwise_forward / binary_add + post-op on f16 src and dst",
    f16_runnable,
    onednn_f16_table,
    sizeof onednn_f16_table / sizeof onednn_f16_table[0],
    f16_runtime,
    dnnl_error};

} // namespace actkb
