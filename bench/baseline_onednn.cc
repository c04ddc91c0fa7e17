// Baseline "onednn": oneDNN 3 (PyPI's onednn-devel, installed by
// bench/setup-peers.sh: 3.13.2 there) f32 eltwise forward primitives
// (forward_inference, a dense 1-D tensor of n floats):
//
//   erf         -            (oneDNN has no erf eltwise)
//   tanh        eltwise_tanh
//   sigmoid     eltwise_logistic
//   silu        eltwise_swish, alpha 1
//   quick_gelu  eltwise_swish, alpha 1.702
//   gelu        eltwise_gelu_erf
//   gelu_tanh   eltwise_gelu_tanh
//   hardsigmoid eltwise_hardsigmoid, alpha 1/6, beta 1/2
//   hardswish   eltwise_hardswish, alpha 1/6, beta 1/2
//   softplus    eltwise_soft_relu, alpha 1 (log(1 + e^x))
//   elu         eltwise_elu, alpha 1
//   mish        eltwise_mish
//   bias_gelu, bias_gelu_tanh
//               a binary_add primitive ([n / width, width] + a broadcast
//               [1, width] bias) with the gelu_erf / gelu_tanh eltwise as its
//               post-op: the fused way oneDNN does bias + activation
//
// The same primitives over bf16 and f16 tensors (onednn_bf16, onednn_f16:
// bench_ops.h's baseline16, for actk_ratio --types): src, dst (and the bias)
// in the 16-bit type, computed by oneDNN's own 16-bit path where this CPU has
// one (f16 needs AVX-512 FP16 or AVX10: elsewhere runtime() says so and the
// column is not runnable).
//
// PyPI's build is oneDNN with the SYCL CPU runtime and TBB threading: its CPU
// engine is a SYCL CPU device, which is the OpenCL CPU runtime
// (intel-opencl-rt's libintelocl.so, found through OCL_ICD_FILENAMES: set here
// to ACTK_ONEDNN_OCL when not set already), and a call's work runs on a SYCL
// host-task thread, not the caller's, after a fixed cost of about 10 us per
// primitive execution. So: one TBB thread (tbb::global_control
// max_allowed_parallelism 1, process-wide, before the engine is made), the
// wall clock times it (actk_ratio's default; its others-threads note names the
// column), and fixed_cost: actk_ratio times the same call on 16 floats in the
// same rounds and subtracts it (the cost a fused graph or a bigger tensor
// would not pay per element). Each primitive is created once per op and size
// (the benchmarks make an untimed call first) and kept; a call points its
// memory objects at x and y, executes and waits. oneDNN picks its JIT code by
// itself (runtime() names the implementation and the effective ISA).
#include "bench_ops.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>
#include <tbb/global_control.h>

namespace actkb {
namespace {

using dnnl::algorithm;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

struct op_def {
  const char *name;
  algorithm alg;
  float alpha, beta;
  bool bias;
};
const op_def kOps[] = {
    {"tanh", algorithm::eltwise_tanh, 0.0f, 0.0f, false},
    {"sigmoid", algorithm::eltwise_logistic, 0.0f, 0.0f, false},
    {"silu", algorithm::eltwise_swish, 1.0f, 0.0f, false},
    {"quick_gelu", algorithm::eltwise_swish, 1.702f, 0.0f, false},
    {"gelu", algorithm::eltwise_gelu_erf, 0.0f, 0.0f, false},
    {"gelu_tanh", algorithm::eltwise_gelu_tanh, 0.0f, 0.0f, false},
    {"bias_gelu", algorithm::eltwise_gelu_erf, 0.0f, 0.0f, true},
    {"bias_gelu_tanh", algorithm::eltwise_gelu_tanh, 0.0f, 0.0f, true},
    {"hardsigmoid", algorithm::eltwise_hardsigmoid, 1.0f / 6, 0.5f, false},
    {"hardswish", algorithm::eltwise_hardswish, 1.0f / 6, 0.5f, false},
    {"softplus", algorithm::eltwise_soft_relu, 1.0f, 0.0f, false},
    {"elu", algorithm::eltwise_elu, 1.0f, 0.0f, false},
    {"mish", algorithm::eltwise_mish, 0.0f, 0.0f, false},
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
  int threads = -1; // TBB's max_allowed_parallelism read back
  dnnl::engine eng;
  dnnl::stream strm;
  std::vector<prim *> prims;
};

peer_error g_error;

state &st() {
  static tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  static state s = [] {
    state r;
    setenv("OCL_ICD_FILENAMES", ACTK_ONEDNN_OCL, 0);
    r.threads =
        (int)tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    try {
      r.eng = dnnl::engine(dnnl::engine::kind::cpu, 0);
      r.strm = dnnl::stream(r.eng);
      r.ok = true;
      r.why.clear();
    } catch (const std::exception &e) {
      r.why = std::string("oneDNN CPU engine (a SYCL CPU device: the OpenCL CPU runtime, "
                          "OCL_ICD_FILENAMES=") +
              (getenv("OCL_ICD_FILENAMES") ? getenv("OCL_ICD_FILENAMES") : "") + "): " + e.what();
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
      dnnl::eltwise_forward::primitive_desc pd(s.eng, dnnl::prop_kind::forward_inference, d.alg, md,
                                               md, d.alpha, d.beta);
      p->impl = pd.impl_info_str();
      p->p = dnnl::eltwise_forward(pd);
      p->src = dnnl::memory(md, s.eng, nullptr);
      p->dst = dnnl::memory(md, s.eng, nullptr);
      p->args = {{DNNL_ARG_SRC, p->src}, {DNNL_ARG_DST, p->dst}};
    } else {
      const auto rows = (dnnl::memory::dim)(n / w), cols = (dnnl::memory::dim)w;
      dnnl::memory::desc md({rows, cols}, type, tag::ab);
      dnnl::memory::desc bd({1, cols}, type, tag::ab);
      dnnl::post_ops po;
      po.append_eltwise(d.alg, d.alpha, d.beta);
      dnnl::primitive_attr attr;
      attr.set_post_ops(po);
      dnnl::binary::primitive_desc pd(s.eng, algorithm::binary_add, md, bd, md, attr);
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
    g_error.set(std::string("onednn ") + kOps[op].name + ": " + e.what());
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

// "oneDNN 3.13.2, TBB threads 1; impl: tanh jit:avx512_core, ..." (the
// implementations of 64 Ki-float primitives, made here for the query).
const char *dnnl_runtime() {
  static std::string r = [] {
    state &s = st();
    const dnnl_version_t *v = dnnl_version();
    char head[160];
    std::snprintf(head, sizeof head, "oneDNN %d.%d.%d (cpu runtime %s), TBB threads %d", v->major,
                  v->minor, v->patch, v->cpu_runtime == DNNL_RUNTIME_SYCL ? "SYCL" : "other",
                  s.threads);
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

const char *dnnl_error() { return g_error.take(); }

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

const std::vector<named_kernel> onednn_table =
    kernel_table<named_kernel>(kOps, [](auto i) -> kernel_fn { return k<decltype(i)::value>; });
const std::vector<named_kernel16> onednn_bf16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_bf16<decltype(i)::value>; });
const std::vector<named_kernel16> onednn_f16_table = kernel_table<named_kernel16>(
    kOps, [](auto i) -> kernel16_fn { return k_f16<decltype(i)::value>; });

} // namespace

const baseline onednn_baseline = {
    "onednn",
    "oneDNN 3 (PyPI onednn-devel) eltwise_forward (tanh, logistic, swish alpha 1 / 1.702, "
    "gelu_erf, gelu_tanh, hardsigmoid, hardswish, soft_relu, elu alpha 1, mish; bias ops: "
    "binary_add + eltwise post-op), created once per op and size, SYCL CPU engine, TBB limited "
    "to 1 thread; no erf in oneDNN",
    dnnl_runnable,
    onednn_table.data(),
    onednn_table.size(),
    dnnl_runtime,
    dnnl_error,
    true};

const baseline16 onednn_bf16_baseline = {
    "onednn_bf16",
    "onednn",
    "bf16",
    "oneDNN 3 eltwise_forward / binary_add + post-op on bf16 src and dst (its own bf16 path), "
    "as the f32 baseline otherwise",
    bf16_runnable,
    onednn_bf16_table.data(),
    onednn_bf16_table.size(),
    bf16_runtime,
    dnnl_error,
    true};

const baseline16 onednn_f16_baseline = {
    "onednn_f16",
    "onednn",
    "f16",
    "oneDNN 3 eltwise_forward / binary_add + post-op on f16 src and dst",
    f16_runnable,
    onednn_f16_table.data(),
    onednn_f16_table.size(),
    f16_runtime,
    dnnl_error,
    true};

} // namespace actkb
