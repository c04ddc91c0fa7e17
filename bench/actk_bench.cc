// actk_bench: google-benchmark harness for actk's public C API.
//
// Benchmarks are named OP/IMPL/N/real_time (wall clock is what is timed):
//   OP    every unary and bias op of the catalog (erf tanh sigmoid silu
//         quick_gelu gelu gelu_tanh bias_gelu bias_gelu_tanh) in every type
//         and tier: f32 keeps the bare name, another tier than the first adds
//         its name, another type its name before that (gelu, gelu_fast,
//         gelu_bf16, gelu_fast_bf16, gelu_f16, gelu_fast_f16), or "copy"
//         (memcpy of the same f32 bytes: the memory-bound floor; copy16 for
//         the 16-bit types' bytes)
//   IMPL  actk_<ISA> for every ISA the library names and this machine supports
//         (actk_scalar, actk_avx2, actk_avx512, ...; forced with actk_isa_force),
//         for every tier and type (gelu/actk_avx512, gelu_fast_bf16/actk_avx2),
//         and, on the accurate f32 name only, every baseline library built
//         that runs here and has the op (bench_ops.h, in its order: libm, the
//         plain scalar loop; eigen, eigen512: Eigen 3.4 AVX2, AVX-512; sleef,
//         sleef512, sleef512u35: SLEEF u10 AVX2, u10 and u35 AVX-512;
//         xnnpack; onednn), e.g. gelu/onednn/65536; on the accurate 16-bit
//         names, the 16-bit baselines that run here (onednn_bf16:
//         gelu_bf16/onednn_bf16/65536) and engine_<ISA> (the way engines run
//         16-bit tensors today: the tensor widened to an f32 scratch,
//         actk_<op>_f32_fast on that ISA, narrowed back, each a pass of its
//         own; bench_ops.h widen_f16 ...: gelu_bf16/engine_avx512/65536)
//   N     16 64 4096 65536 2097152 (512 x 4096) 4194304
// Bias ops use rows of width 4096 (width = N when N < 4096).
//
// Counters: ns_per_elem (wall time per element), bytes_per_second counts
// 2 x the element size per element (read x, write y), items_per_second
// elements. The 16-bit inputs are the f32 ones rounded to the type.
// Everything runs on the calling thread (pool = NULL).
//
//   actk_bench --benchmark_filter='^gelu/'           one op, all impls and sizes
//   actk_bench --benchmark_filter='/65536/'          every op at 64 Ki
//   actk_bench --benchmark_filter='actk_avx512|eigen'  two impls
//   actk_bench --benchmark_filter='^gelu(_fast)?/(actk_avx512|onednn)/65536'
//                                                    both tiers against a peer
//   actk_bench --benchmark_min_time=0.1              quicker, noisier
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bench_ops.h"

namespace {

using namespace actkb;

const size_t kSizes[] = {16, 64, 4096, 65536, 2097152, 4194304};
constexpr uint64_t kSeedX = 0x61636b746b5f78ULL, kSeedBias = 0x61636b746b5f62ULL;

// One input/output/bias set per length and type, made once and kept: the
// same floats for every impl (rounded to the 16-bit types for theirs), every
// page touched before any timing. scratch: the engine way's f32 tensor.
struct data_set {
  void *x, *y, *bias;
  float *scratch, *scratch_bias;
};

const data_set &data_for(size_t n, int type = 0) {
  static std::map<std::pair<size_t, int>, data_set> cache;
  auto it = cache.find({n, type});
  if (it != cache.end()) return it->second;
  float *x = alloc_floats(n), *y = alloc_floats(n), *bias = alloc_floats(kBiasWidth);
  fill_activations(x, n, kSeedX);
  fill_bias(bias, kBiasWidth, kSeedBias);
  data_set d{x, y, bias, nullptr, nullptr};
  if (type != 0) {
    // 16-bit patterns in the first half of each float buffer
    auto *x16 = reinterpret_cast<uint16_t *>(x), *b16 = reinterpret_cast<uint16_t *>(bias);
    for (size_t i = 0; i < n; i++) x16[i] = type == 1 ? f32_to_f16(x[i]) : f32_to_bf16(x[i]);
    for (size_t i = 0; i < kBiasWidth; i++)
      b16[i] = type == 1 ? f32_to_f16(bias[i]) : f32_to_bf16(bias[i]);
    d.scratch = alloc_floats(n);
    d.scratch_bias = alloc_floats(kBiasWidth);
  }
  return cache.emplace(std::make_pair(n, type), d).first->second;
}

// ns_per_elem is computed here from our own clock around the whole timed
// loop (a plain number: JSON and CSV carry it as is). The Counter way,
// kIsIterationInvariantRate | kInvert, gives seconds per element, which the
// console prints as e.g. "1.29ns" but the JSON as 1.29e-09.
void set_counters(benchmark::State &state, size_t n, double loop_ns, size_t esize = sizeof(float)) {
  const auto iters = static_cast<int64_t>(state.iterations());
  state.SetItemsProcessed(iters * static_cast<int64_t>(n));
  state.SetBytesProcessed(iters * static_cast<int64_t>(n * 2 * esize));
  if (iters > 0) state.counters["ns_per_elem"] = loop_ns / (static_cast<double>(iters) * n);
}

using bclock = std::chrono::steady_clock;
double ns_since(bclock::time_point t0) {
  return std::chrono::duration<double, std::nano>(bclock::now() - t0).count();
}

// actk through the public API on a forced ISA. The ISA is forced before the
// timed loop and restored after; actk_isa_active() is checked on both sides
// of the loop, and every call's status is checked, so a benchmark that did
// not run where its name says fails instead of reporting a number.
// engine: the op is a 16-bit one and what runs is the engine way (widen,
// the f32 fast twin f32f, narrow).
void bm_actk(benchmark::State &state, const bench_op &op, actk_isa isa, size_t n,
             const bench_op *engine_f32f = nullptr) {
  const int type = op.info->type;
  const data_set &d = data_for(n, type);
  const size_t w = bias_width_for(n);
  const actk_isa before = actk_isa_active();
  actk_status fs = actk_isa_force(isa);
  if (fs != ACTK_OK) {
    state.SkipWithError(actk_status_string(fs));
    return;
  }
  if (actk_isa_active() != isa) {
    actk_isa_force(before);
    state.SkipWithError("actk_isa_force returned ok but another isa is active");
    return;
  }
  actk_status bad = ACTK_OK;
  const auto t0 = bclock::now();
  const auto *x16 = static_cast<const uint16_t *>(d.x),
             *b16 = static_cast<const uint16_t *>(d.bias);
  auto *y16 = static_cast<uint16_t *>(d.y);
  for (auto _ : state) {
    actk_status s;
    if (!engine_f32f) {
      s = run_actk_typed(op, d.x, d.bias, w, d.y, n);
    } else {
      if (type == 1) {
        widen_f16(x16, d.scratch, n);
        if (op.has_bias) widen_f16(b16, d.scratch_bias, w);
      } else {
        widen_bf16(x16, d.scratch, n);
        if (op.has_bias) widen_bf16(b16, d.scratch_bias, w);
      }
      s = run_actk(*engine_f32f, d.scratch, d.scratch_bias, w, d.scratch, n);
      if (type == 1)
        narrow_f16(d.scratch, y16, n);
      else
        narrow_bf16(d.scratch, y16, n);
    }
    if (s != ACTK_OK) bad = s;
    benchmark::DoNotOptimize(d.y);
    benchmark::ClobberMemory();
  }
  const double loop_ns = ns_since(t0);
  const actk_isa ran = actk_isa_active();
  actk_isa_force(before);
  if (ran != isa) {
    state.SkipWithError("active isa changed during the timed loop");
    return;
  }
  if (bad != ACTK_OK) {
    state.SkipWithError(actk_status_string(bad));
    return;
  }
  set_counters(state, n, loop_ns, op.info->esize);
}

// A baseline's kernel (or the copy floor: b == nullptr). One untimed call
// first (oneDNN makes its primitive for this size there); a baseline that
// reports an error (bench_ops.h's error()) before or after the timed loop
// fails instead of reporting a number.
void bm_kernel(benchmark::State &state, const baseline *b, kernel_fn k, size_t n) {
  const data_set &d = data_for(n);
  const size_t w = bias_width_for(n);
  const auto *x = static_cast<const float *>(d.x), *bias = static_cast<const float *>(d.bias);
  auto *y = static_cast<float *>(d.y);
  k(x, bias, w, y, n);
  const char *e = b && b->error ? b->error() : nullptr;
  if (e) {
    state.SkipWithError(e);
    return;
  }
  const auto t0 = bclock::now();
  for (auto _ : state) {
    k(x, bias, w, y, n);
    benchmark::DoNotOptimize(d.y);
    benchmark::ClobberMemory();
  }
  const double loop_ns = ns_since(t0);
  e = b && b->error ? b->error() : nullptr;
  if (e) {
    state.SkipWithError(e);
    return;
  }
  set_counters(state, n, loop_ns);
}

// A 16-bit baseline's kernel (type 1 f16, 2 bf16), or the 16-bit copy
// floor (b == nullptr), as bm_kernel.
void bm_kernel16(benchmark::State &state, const baseline16 *b, kernel16_fn k, int type, size_t n) {
  const data_set &d = data_for(n, type);
  const size_t w = bias_width_for(n);
  const auto *x = static_cast<const uint16_t *>(d.x), *bias = static_cast<const uint16_t *>(d.bias);
  auto *y = static_cast<uint16_t *>(d.y);
  if (k) k(x, bias, w, y, n);
  const char *e = b && b->error ? b->error() : nullptr;
  if (e) {
    state.SkipWithError(e);
    return;
  }
  const auto t0 = bclock::now();
  for (auto _ : state) {
    if (k)
      k(x, bias, w, y, n);
    else
      std::memcpy(y, x, n * sizeof(uint16_t));
    benchmark::DoNotOptimize(d.y);
    benchmark::ClobberMemory();
  }
  const double loop_ns = ns_since(t0);
  e = b && b->error ? b->error() : nullptr;
  if (e) {
    state.SkipWithError(e);
    return;
  }
  set_counters(state, n, loop_ns, sizeof(uint16_t));
}

void reg(const std::string &name, std::function<void(benchmark::State &)> fn) {
  benchmark::RegisterBenchmark(name.c_str(), [fn](benchmark::State &st) { fn(st); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  std::vector<actk_isa> isas;
  std::string isa_list;
  for (int v = 0;; v++) {
    const char *name = actk_isa_name(static_cast<actk_isa>(v));
    if (!name) break;
    if (actk_isa_supported(static_cast<actk_isa>(v))) {
      isas.push_back(static_cast<actk_isa>(v));
      isa_list += std::string(isa_list.empty() ? "" : ",") + name;
    } else {
      std::fprintf(stderr, "actk_bench: isa %s not supported here, not benchmarked\n", name);
    }
  }
  std::string libs = "copy";
  for (const baseline *b : baselines())
    libs += std::string(" ") + b->name + (b->runnable() ? "" : " (cannot run here: skipped)");

  benchmark::AddCustomContext("actk_version", actk_version_string());
  benchmark::AddCustomContext("actk_isas", isa_list);
  benchmark::AddCustomContext("actk_default_isa", std::string(actk_isa_name(actk_isa_active())) +
                                                      " (" + actk_isa_reason() + ")");
  benchmark::AddCustomContext("actk_cpu", actk_cpu_summary());
  benchmark::AddCustomContext("input", input_description());
  benchmark::AddCustomContext("baselines", libs);
  for (const baseline *b : baselines())
    if (b->runnable())
      benchmark::AddCustomContext(std::string("baseline_") + b->name,
                                  std::string(b->describes) +
                                      (b->runtime ? std::string("; ") + b->runtime() : ""));

  bool first = true;
  for (const bench_op &op : bench_ops_typed()) {
    // f32's first tier keeps the bare op name, other tiers and types add
    // theirs: gelu, gelu_fast, gelu_bf16, gelu_fast_bf16
    const int type = op.info->type;
    const std::string base = std::string(op.name) +
                             (op.info->tier ? std::string("_") + op.info->tier_name : "") +
                             (type ? std::string("_") + op.info->type_name : "") + "/";
    // the f32 fast twin, for the engine way
    const bench_op *f32f = nullptr;
    for (const bench_op &t : bench_ops_typed())
      if (!std::strcmp(t.name, op.name) && t.info->type == 0 &&
          !std::strcmp(t.info->tier_name, "fast"))
        f32f = &t;
    for (size_t n : kSizes) {
      const std::string tail = "/" + std::to_string(n);
      if (first) {
        reg("copy/memcpy" + tail,
            [n](benchmark::State &s) { bm_kernel(s, nullptr, copy_kernel, n); });
        reg("copy16/memcpy" + tail,
            [n](benchmark::State &s) { bm_kernel16(s, nullptr, nullptr, 2, n); });
      }
      for (actk_isa isa : isas)
        reg(base + "actk_" + actk_isa_name(isa) + tail,
            [&op, isa, n](benchmark::State &s) { bm_actk(s, op, isa, n); });
      if (op.info->tier) continue; /* baselines once per op and type */
      if (type == 0) {
        for (const baseline *b : baselines()) {
          kernel_fn k = b->runnable() ? baseline_kernel(b, op.name) : nullptr;
          if (k)
            reg(base + b->name + tail, [b, k, n](benchmark::State &s) { bm_kernel(s, b, k, n); });
        }
        continue;
      }
      for (actk_isa isa : isas)
        if (f32f)
          reg(base + "engine_" + actk_isa_name(isa) + tail,
              [&op, f32f, isa, n](benchmark::State &s) { bm_actk(s, op, isa, n, f32f); });
      for (const baseline16 *b : baselines16()) {
        if (std::strcmp(b->type, op.info->type_name) || !b->runnable()) continue;
        if (kernel16_fn k = baseline16_kernel(b, op.name))
          reg(base + b->name + tail,
              [b, k, type, n](benchmark::State &s) { bm_kernel16(s, b, k, type, n); });
      }
    }
    first = false;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
