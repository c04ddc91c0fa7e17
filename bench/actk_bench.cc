// actk_bench: google-benchmark harness for actk's public C API.
//
// Benchmarks are named OP/IMPL/N/real_time (wall clock is what is timed):
//   OP    every f32 unary and bias op of the catalog (erf tanh sigmoid silu
//         quick_gelu gelu gelu_tanh bias_gelu bias_gelu_tanh; another tier than
//         the first adds its name: gelu_fast), or "copy" (memcpy of the same
//         bytes: the memory-bound floor)
//   IMPL  actk_<ISA> for every ISA the library names and this machine supports
//         (actk_scalar, actk_avx2, actk_avx512, ...; forced with actk_isa_force),
//         for both tiers (gelu/actk_avx512, gelu_fast/actk_avx512), and, on the
//         accurate tier's name only, every baseline library built that runs
//         here and has the op (bench_ops.h, in its order: libm, the plain
//         scalar loop; eigen, eigen512: Eigen 3.4 AVX2, AVX-512; sleef,
//         sleef512, sleef512u35: SLEEF u10 AVX2, u10 and u35 AVX-512;
//         xnnpack; onednn), e.g. gelu/onednn/65536
//   N     16 64 4096 65536 2097152 (512 x 4096) 4194304
// Bias ops use rows of width 4096 (width = N when N < 4096).
//
// Counters: ns_per_elem (wall time per element), bytes_per_second counts
// 8 bytes per element (read x, write y), items_per_second elements.
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
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench_ops.h"

namespace {

using namespace actkb;

const size_t kSizes[] = {16, 64, 4096, 65536, 2097152, 4194304};
constexpr uint64_t kSeedX = 0x61636b746b5f78ULL, kSeedBias = 0x61636b746b5f62ULL;

// One input/output/bias set per length, made once and kept: the same floats
// for every impl, every page touched before any timing.
struct data_set {
  float *x, *y, *bias;
};

const data_set &data_for(size_t n) {
  static std::map<size_t, data_set> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  data_set d{alloc_floats(n), alloc_floats(n), alloc_floats(kBiasWidth)};
  fill_activations(d.x, n, kSeedX);
  fill_bias(d.bias, kBiasWidth, kSeedBias);
  return cache.emplace(n, d).first->second;
}

// ns_per_elem is computed here from our own clock around the whole timed
// loop (a plain number: JSON and CSV carry it as is). The Counter way,
// kIsIterationInvariantRate | kInvert, gives seconds per element, which the
// console prints as e.g. "1.29ns" but the JSON as 1.29e-09.
void set_counters(benchmark::State &state, size_t n, double loop_ns) {
  const auto iters = static_cast<int64_t>(state.iterations());
  state.SetItemsProcessed(iters * static_cast<int64_t>(n));
  state.SetBytesProcessed(iters * static_cast<int64_t>(n * 2 * sizeof(float)));
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
void bm_actk(benchmark::State &state, const bench_op &op, actk_isa isa, size_t n) {
  const data_set &d = data_for(n);
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
  for (auto _ : state) {
    actk_status s = run_actk(op, d.x, d.bias, w, d.y, n);
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
  set_counters(state, n, loop_ns);
}

// A baseline's kernel (or the copy floor: b == nullptr). One untimed call
// first (oneDNN makes its primitive for this size there); a baseline that
// reports an error (bench_ops.h's error()) before or after the timed loop
// fails instead of reporting a number.
void bm_kernel(benchmark::State &state, const baseline *b, kernel_fn k, size_t n) {
  const data_set &d = data_for(n);
  const size_t w = bias_width_for(n);
  k(d.x, d.bias, w, d.y, n);
  const char *e = b && b->error ? b->error() : nullptr;
  if (e) {
    state.SkipWithError(e);
    return;
  }
  const auto t0 = bclock::now();
  for (auto _ : state) {
    k(d.x, d.bias, w, d.y, n);
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
  for (const bench_op &op : bench_ops()) {
    // the first tier keeps the bare op name, the others add theirs: gelu, gelu_fast
    const std::string base =
        std::string(op.name) + (op.info->tier ? std::string("_") + op.info->tier_name : "") + "/";
    for (size_t n : kSizes) {
      const std::string tail = "/" + std::to_string(n);
      if (first)
        reg("copy/memcpy" + tail,
            [n](benchmark::State &s) { bm_kernel(s, nullptr, copy_kernel, n); });
      for (actk_isa isa : isas)
        reg(base + "actk_" + actk_isa_name(isa) + tail,
            [&op, isa, n](benchmark::State &s) { bm_actk(s, op, isa, n); });
      if (op.info->tier) continue; /* baselines once per op */
      for (const baseline *b : baselines()) {
        kernel_fn k = b->runnable() ? baseline_kernel(b, op.name) : nullptr;
        if (k)
          reg(base + b->name + tail, [b, k, n](benchmark::State &s) { bm_kernel(s, b, k, n); });
      }
    }
    first = false;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
