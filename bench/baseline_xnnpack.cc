// Baseline "xnnpack": XNNPACK (Debian's libxnnpack-dev, a February 2022
// snapshot) through its operator API. That snapshot's f32 elementwise
// operators include sigmoid but no tanh, erf or GELU (its other unary ones,
// abs, clamp, leaky_relu, ..., are not ours; hardswish and elu are), so:
//
//   sigmoid         xnn_sigmoid_nc_f32 over the whole array, x -> y
//   hardswish       xnn_hardswish_nc_f32 over the whole array, x -> y
//   elu             xnn_elu_nc_f32, alpha 1, over the whole array, x -> y
//   silu            x sigmoid(x)           composed around its sigmoid, in
//   quick_gelu      x sigmoid(1.702 x)     chunks of kChunk floats (L1): a
//   gelu_tanh       x sigmoid(2u)          loop writes the sigmoid's argument
//   bias_gelu_tanh  t sigmoid(2u(t)),      into a scratch, the sigmoid runs
//                   t = x + bias            in place on it, a loop multiplies
//
// (x sigmoid(2u) is 0.5 x (1 + tanh(u)) exactly, u = sqrt(2/pi)(x + 0.044715
// x^3)). No tanh (2 sigmoid(2x) - 1 loses all relative accuracy near 0), erf,
// gelu or bias_gelu: XNNPACK has nothing to build them from.
//
// Operators are created once (xnn_initialize, then one sigmoid operator for
// whole arrays, set up per call, and one set up once on the scratch). The
// threadpool argument is NULL, so everything runs on the calling thread.
// XNNPACK picks its sigmoid microkernel itself at xnn_initialize (from
// cpuinfo: its AVX-512F one on a CPU that has AVX-512F, whatever actk's
// forced ISA); there is no API to ask which. The glue loops are plain C++
// compiled with this file's -mavx2 -mfma (the compiler vectorizes them), so
// call it only when simd_baselines_runnable(). Not thread-safe (one scratch),
// like the rest of the bench.
#include "bench_ops.h"

#include <cmath>
#include <cstring>
#include <xnnpack.h>

namespace actkb {
namespace {

constexpr size_t kChunk = 2048;
constexpr float kTwoSqrt2OverPi = 1.59576912160573071176f; // 2 sqrt(2/pi)
constexpr float kTwoSqrt2OverPiC = 0.07135481627159f;      // 2 sqrt(2/pi) 0.044715

struct state {
  bool ok = false;
  const char *why = "not initialized";
  xnn_operator_t whole = nullptr;     // set up per call on (x, y, n)
  xnn_operator_t chunk = nullptr;     // set up once: scratch -> scratch, kChunk floats
  xnn_operator_t tail = nullptr;      // set up per short chunk on the scratch
  xnn_operator_t hardswish = nullptr; // set up per call on (x, y, n)
  xnn_operator_t elu = nullptr;       // alpha 1, set up per call on (x, y, n)
  alignas(64) float scratch[kChunk + XNN_EXTRA_BYTES / sizeof(float)];
};

peer_error g_error;

// Initializes s in place (the chunk operator keeps a pointer to s.scratch).
void init(state &s) {
  if (xnn_initialize(nullptr) != xnn_status_success) {
    s.why = "xnn_initialize failed";
    return;
  }
  if (xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &s.whole) != xnn_status_success ||
      xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &s.chunk) != xnn_status_success ||
      xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &s.tail) != xnn_status_success) {
    s.why = "xnn_create_sigmoid_nc_f32 failed";
    return;
  }
  if (xnn_create_hardswish_nc_f32(1, 1, 1, 0, &s.hardswish) != xnn_status_success) {
    s.why = "xnn_create_hardswish_nc_f32 failed";
    return;
  }
  if (xnn_create_elu_nc_f32(1, 1, 1, 1.0f, 0, &s.elu) != xnn_status_success) {
    s.why = "xnn_create_elu_nc_f32 failed";
    return;
  }
  std::memset(s.scratch, 0, sizeof s.scratch);
  if (xnn_setup_sigmoid_nc_f32(s.chunk, kChunk, s.scratch, s.scratch, nullptr) !=
      xnn_status_success) {
    s.why = "xnn_setup_sigmoid_nc_f32 failed";
    return;
  }
  s.ok = true;
  s.why = nullptr;
}

state &st() {
  static state s;
  static const bool once = (init(s), true);
  (void)once;
  return s;
}

void fail(const char *what, float *y, size_t n) {
  g_error.set(what);
  for (size_t i = 0; i < n; i++) y[i] = NAN;
}

// The scratch's sigmoid, in place, on its first k floats.
bool sigmoid_scratch(state &s, size_t k) {
  if (k == kChunk) return xnn_run_operator(s.chunk, nullptr) == xnn_status_success;
  return xnn_setup_sigmoid_nc_f32(s.tail, k, s.scratch, s.scratch, nullptr) == xnn_status_success &&
         xnn_run_operator(s.tail, nullptr) == xnn_status_success;
}

// y = t sigmoid(arg(t)) chunk by chunk, t = x (+ bias when b != nullptr,
// bias indexed from 0 at x: one row or part of one).
template <class Arg>
bool compose(state &s, const float *x, const float *b, float *y, size_t n, Arg arg) {
  for (size_t i = 0; i < n; i += kChunk) {
    const size_t k = n - i < kChunk ? n - i : kChunk;
    const float *xi = x + i;
    float *t = s.scratch;
    if (b) {
      const float *bi = b + i;
      for (size_t j = 0; j < k; j++) t[j] = arg(xi[j] + bi[j]);
    } else {
      for (size_t j = 0; j < k; j++) t[j] = arg(xi[j]);
    }
    if (!sigmoid_scratch(s, k)) return false;
    float *yi = y + i;
    if (b) {
      const float *bi = b + i;
      for (size_t j = 0; j < k; j++) yi[j] = (xi[j] + bi[j]) * t[j];
    } else {
      for (size_t j = 0; j < k; j++) yi[j] = xi[j] * t[j];
    }
  }
  return true;
}

inline float gelu_tanh_arg(float v) { return v * (kTwoSqrt2OverPi + kTwoSqrt2OverPiC * (v * v)); }

void xnn_sigmoid(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || xnn_setup_sigmoid_nc_f32(s.whole, n, x, y, nullptr) != xnn_status_success ||
      xnn_run_operator(s.whole, nullptr) != xnn_status_success)
    fail("xnnpack sigmoid failed", y, n);
}
void xnn_hardswish(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || xnn_setup_hardswish_nc_f32(s.hardswish, n, x, y, nullptr) != xnn_status_success ||
      xnn_run_operator(s.hardswish, nullptr) != xnn_status_success)
    fail("xnnpack hardswish failed", y, n);
}
void xnn_elu(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || xnn_setup_elu_nc_f32(s.elu, n, x, y, nullptr) != xnn_status_success ||
      xnn_run_operator(s.elu, nullptr) != xnn_status_success)
    fail("xnnpack elu failed", y, n);
}
void xnn_silu(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || !compose(s, x, nullptr, y, n, [](float v) { return v; }))
    fail("xnnpack silu failed", y, n);
}
void xnn_quick_gelu(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || !compose(s, x, nullptr, y, n, [](float v) { return 1.702f * v; }))
    fail("xnnpack quick_gelu failed", y, n);
}
void xnn_gelu_tanh(const float *x, const float *, size_t, float *y, size_t n) {
  state &s = st();
  if (!s.ok || !compose(s, x, nullptr, y, n, gelu_tanh_arg)) fail("xnnpack gelu_tanh failed", y, n);
}
void xnn_bias_gelu_tanh(const float *x, const float *b, size_t w, float *y, size_t n) {
  state &s = st();
  bool good = s.ok;
  for (size_t r = 0; good && r < n; r += w) good = compose(s, x + r, b, y + r, w, gelu_tanh_arg);
  if (!good) fail("xnnpack bias_gelu_tanh failed", y, n);
}

bool xnn_runnable() { return simd_baselines_runnable() && st().ok; }

const char *xnn_runtime() {
  return "threadpool NULL (calling thread); microkernels chosen by XNNPACK from cpuinfo";
}
const char *xnn_error() { return g_error.take(); }

const named_kernel xnnpack_table[] = {
    {"sigmoid", xnn_sigmoid},
    {"silu", xnn_silu},
    {"quick_gelu", xnn_quick_gelu},
    {"gelu_tanh", xnn_gelu_tanh},
    {"bias_gelu_tanh", xnn_bias_gelu_tanh},
    {"hardswish", xnn_hardswish},
    {"elu", xnn_elu},
};
} // namespace

const baseline xnnpack_baseline = {
    "xnnpack",
    "XNNPACK 2022-02 (ae108ef) xnn_sigmoid_nc_f32, xnn_hardswish_nc_f32 and xnn_elu_nc_f32 "
    "(alpha 1), created once, "
    "threadpool "
    "NULL; silu, "
    "quick_gelu, gelu_tanh = x sigmoid(2u), bias_gelu_tanh composed around it in 2048-float "
    "chunks (glue -mavx2 -mfma); no tanh/erf/gelu in XNNPACK",
    xnn_runnable,
    xnnpack_table,
    sizeof xnnpack_table / sizeof xnnpack_table[0],
    xnn_runtime,
    xnn_error};

} // namespace actkb
