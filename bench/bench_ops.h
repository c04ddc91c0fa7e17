// Shared pieces of actk_ratio (and the programs that reuse them):
// the op list (from the catalog), the actk entry points behind one signature,
// the baselines (by library and op name), the input data.
//
// Every kernel here has the bias kernels' shape; unary ops ignore bias and
// width. Baselines live in their own translation units so each gets its own
// compiler flags: baseline_libm.cc is built like the rest of the project;
// baseline_eigen.cc, baseline_sleef.cc and baseline_xnnpack.cc with -mavx2
// -mfma (call them only when simd_baselines_runnable()); baseline_eigen512.cc
// and baseline_sleef512.cc with -mavx512f -mavx512dq -mavx512vl -mfma (only
// when avx512_baselines_runnable()); baseline_onednn.cc without target flags
// (oneDNN dispatches by itself); on AArch64, baseline_sleef_advsimd.cc (the
// "sleef" column there: SLEEF's AdvSIMD functions) without target flags. Each
// is optional: bench/CMakeLists.txt builds the ones whose library it finds.
#ifndef ACTK_BENCH_OPS_H
#define ACTK_BENCH_OPS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "actk.h"
#include "catalog.h"

namespace actkb {

using kernel_fn = void (*)(const float *x, const float *bias, size_t width, float *y, size_t n);

// The ops benchmarked: the f32 unary and bias entries of the catalog
// (tools/catalog.h, expanded from the op registry), every tier, in its order.
struct bench_op {
  const char *name; // the op: "gelu", "bias_gelu"
  const actk_op_info *info;
  bool has_bias;
};
const std::vector<bench_op> &bench_ops();

// A baseline library: its kernels keyed by op name (an op it lacks is simply
// absent), and whether this machine can run them.
struct named_kernel {
  const char *op;
  kernel_fn fn;
};
struct baseline {
  const char *name;      // "libm", "eigen", ... (a column header: short, no spaces)
  const char *describes; // one line: version, flags, how the ops are made, threads
  bool (*runnable)();
  const named_kernel *kernels;
  size_t count;
  // Optional (nullptr: none). runtime(): what the library chose at run time
  // (its ISA, implementation names, thread count), for the output's header;
  // call it only when runnable(). error(): nullptr while every call since
  // the last error() call succeeded, else what failed (and clears it). A
  // failing call also fills y with NaN, so output checks catch it too.
  const char *(*runtime)();
  const char *(*error)();
  // True for a library with a fixed cost per call that an engine would not
  // pay per op (oneDNN's primitive execution, ggml's graph compute, ATen's
  // dispatch): actk_ratio times the same kernel on 16 elements in the same
  // rounds and subtracts it from the peer's time.
  bool fixed_cost = false;
};
// Each library's file defines its baselines (baseline_<lib>.cc); the list
// holds those found at configure time, in this fixed order (the order of
// actk_ratio's columns): libm, eigen, eigen512, sleef, sleef512, sleef512u35,
// xnnpack, onednn, ggml, ggml_avx2, torch.
extern const baseline libm_baseline, eigen_baseline, eigen512_baseline, sleef_baseline,
    sleef512_baseline, sleef512u35_baseline, xnnpack_baseline, onednn_baseline, ggml_baseline,
    ggml_avx2_baseline, torch_baseline;
const std::vector<const baseline *> &baselines();
// The baseline named name if it was built and runs here, else nullptr.
const baseline *find_baseline(const char *name);
// b's kernel for op, or nullptr.
kernel_fn baseline_kernel(const baseline *b, const char *op);

// The bias ops are benchmarked with rows of this width (a typical hidden
// size); a call shorter than one row uses width = n.
constexpr size_t kBiasWidth = 4096;
inline size_t bias_width_for(size_t n) { return n < kBiasWidth ? n : kBiasWidth; }

// The op through actk's public API on the calling thread (pool = NULL), on
// whatever ISA is active.
actk_status run_actk(const bench_op &op, const float *x, const float *bias, size_t width, float *y,
                     size_t n);

// ---- 16-bit types (actk_ratio --types) ----

// The unary and bias entries of the catalog in every type (f32, f16, bf16)
// and tier, in catalog order (bench_ops() is its f32 part).
const std::vector<bench_op> &bench_ops_typed();
// Any entry of bench_ops_typed() through its public function on the calling
// thread: x, bias and y hold elements of the entry's type (info->esize bytes).
actk_status run_actk_typed(const bench_op &op, const void *x, const void *bias, size_t width,
                           void *y, size_t n);

// The scalar conversions are actk.h's (actk_f32_to_f16 and friends): F16C's
// semantics for f16, round to nearest even with a NaN guard for bf16.
// How many steps of the type (bf16 or f16) a is from b: 0 equal (or both
// NaN), 1 neighbours (+0 and -0 are 0 apart), 1 << 20 when only one is NaN.
int distance16(uint16_t a, uint16_t b, bool bf16);

// "The way engines run a 16-bit tensor today" (ONNX Runtime inserts Cast
// nodes around its f32 kernels on x86): widen the whole tensor to an f32
// scratch in one pass, run the f32 kernel, narrow back in another pass. These
// are those passes, written the way an engine writes them: for the active
// actk ISA, AVX-512 (VCVTPH2PS / VCVTPS2PH for f16; VPMOVZXWD + VPSLLD for
// bf16 widening; round to nearest even on the integer bits with a NaN guard,
// then VPMOVDW, for bf16 narrowing), AVX2 + F16C (the same with 8 lanes:
// VCVTPH2PS / VCVTPS2PH, VPMOVZXWD + VPSLLD, VPACKUSDW + VPERMQ), else the
// scalar conversions above; a scalar loop for the tail. The results are
// exactly the scalar conversions'.
void widen_f16(const uint16_t *x, float *y, size_t n);
void narrow_f16(const float *x, uint16_t *y, size_t n);
void widen_bf16(const uint16_t *x, float *y, size_t n);
void narrow_bf16(const float *x, uint16_t *y, size_t n);
// The engine way once: x widened into scratch (bias into sb when op has one),
// op (an f32 entry: the fast twin) in place on it, narrowed into y; type 1
// f16, 2 bf16. Returns op's status.
actk_status run_engine16(const bench_op &op, int type, const uint16_t *x, const uint16_t *bias,
                         size_t width, float *scratch, float *sb, uint16_t *y, size_t n);
// The passes as the ISA files implement them (bench_common.cc dispatches).
void widen_f16_avx2(const uint16_t *x, float *y, size_t n);
void narrow_f16_avx2(const float *x, uint16_t *y, size_t n);
void widen_bf16_avx2(const uint16_t *x, float *y, size_t n);
void narrow_bf16_avx2(const float *x, uint16_t *y, size_t n);
void widen_f16_avx512(const uint16_t *x, float *y, size_t n);
void narrow_f16_avx512(const float *x, uint16_t *y, size_t n);
void widen_bf16_avx512(const uint16_t *x, float *y, size_t n);
void narrow_bf16_avx512(const float *x, uint16_t *y, size_t n);
// The multiply pass of the gated ops' two-pass way (actk_ratio --gated's
// actk_2p), for the active ISA as the passes above: y = a * u in type (0 f32,
// 1 f16, 2 bf16); 16-bit: widened, multiplied in f32 and rounded once, as the
// conversions above do, in one pass.
void gated_mul(int type, const void *a, const void *u, void *y, size_t n);
void mul_f32_avx2(const float *a, const float *u, float *y, size_t n);
void mul_f32_avx512(const float *a, const float *u, float *y, size_t n);
void mul16_scalar(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n);
void mul16_avx2(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n);
void mul16_avx512(bool bf16, const uint16_t *a, const uint16_t *u, uint16_t *y, size_t n);

// A 16-bit baseline (oneDNN's bf16 and f16 eltwise): kernels over 16-bit
// patterns of one type, with the bias kernels' shape. Fields as baseline's;
// runtime() may be called whether or not runnable() (it says why not).
using kernel16_fn = void (*)(const uint16_t *x, const uint16_t *bias, size_t width, uint16_t *y,
                             size_t n);
struct named_kernel16 {
  const char *op;
  kernel16_fn fn;
};
struct baseline16 {
  const char *name; // column header: "onednn_bf16"
  const char *lib;  // the library, as --peers names it: "onednn"
  const char *type; // "bf16" or "f16"
  const char *describes;
  bool (*runnable)();
  const named_kernel16 *kernels;
  size_t count;
  const char *(*runtime)();
  const char *(*error)();
  bool fixed_cost = false; // as baseline's
};
extern const baseline16 onednn_bf16_baseline, onednn_f16_baseline, ggml_f16_baseline,
    ggml_bf16_baseline, torch_bf16_baseline, torch_f16_baseline;
// The 16-bit baselines built (runnable here or not), in a fixed order.
const std::vector<const baseline16 *> &baselines16();
kernel16_fn baseline16_kernel(const baseline16 *b, const char *op);

// ---- the gated ops (actk_ratio --gated) ----

// A peer's way to a gated op, y = act(gate) * up, over actk's packed layout: x
// = [rows][2d] with the gate in each row's first d elements, y = [rows][d],
// elements of one type; scratch holds rows * d elements (a two-pass form's
// activations). A failing call fills y with the type's NaN and sets error().
using gated_fn = void (*)(const void *x, void *y, void *scratch, size_t rows, size_t d);
struct gated_kernel {
  const char *op; // actk's gated op it computes: "swiglu", "geglu", "geglu_tanh"
  int type;       // 0 f32, 1 f16, 2 bf16
  gated_fn fn;
};
struct gated_peer {
  const char *name;    // column header: "ggml", "ggml_split", "ggml_2p", "torch_2p"
  const baseline *lib; // the library's f32 baseline: its runnable(), runtime(), error()
                       // and fixed_cost (the floor: one row of 16)
  bool two_pass;       // the activation into scratch, then a multiply: "the two-pass way"
  const char *isa;     // the actk --isa it is the peer of ("avx2"); nullptr: every isa
  const char *describes;
  std::vector<gated_kernel> kernels;
};
extern const gated_peer ggml_gated_peer, ggml_avx2_gated_peer, ggml_split_gated_peer,
    ggml_2p_gated_peer, ggml_avx2_2p_gated_peer, torch_2p_gated_peer;
// The torch module's peers (baseline_torch.cc, loaded by bench_common.cc).
struct torch_peers {
  const baseline *f32;
  const baseline16 *bf16, *f16;
  const gated_peer *gated_2p;
};
// The gated peers built (runnable here or not), in a fixed order.
const std::vector<const gated_peer *> &gated_peers();
gated_fn gated_peer_kernel(const gated_peer *p, const char *op, int type);

// ---- what the peers' files share ----

// A peer's kernel table over its op list (an array of entries with a .name):
// entry I is {ops[I].name, make(std::integral_constant<int, I>)}, so that a
// kernel template instantiated per op index is one line per type.
template <class K, class Op, class Make, size_t... I>
std::vector<K> kernel_table(const Op *ops, Make make, std::index_sequence<I...>) {
  return {K{ops[I].name, make(std::integral_constant<int, (int)I>())}...};
}
template <class K, class Op, size_t N, class Make>
std::vector<K> kernel_table(const Op (&ops)[N], Make make) {
  return kernel_table<K>(ops, make, std::make_index_sequence<N>());
}

// A peer's error() (baseline::error): the first failure since the last
// take(), as text; a failing kernel also fills y with NaN.
struct peer_error {
  const char *what = nullptr;
  std::string text;
  void set(std::string w) {
    if (what) return;
    text = std::move(w);
    what = text.c_str();
  }
  const char *take() { return std::exchange(what, nullptr); }
};

// The memory-bound floor: memcpy of the same n floats.
void copy_kernel(const float *x, const float *bias, size_t width, float *y, size_t n);

// True when the CPU and OS can run the -mavx2 -mfma baselines.
bool simd_baselines_runnable();
// True when the CPU and OS can run the -mavx512f -mavx512dq -mavx512vl -mfma
// baselines (actk's avx512 ISA, which needs F + DQ and ZMM state, plus VL).
bool avx512_baselines_runnable();

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
