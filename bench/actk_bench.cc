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

// One body for every benchmark: call() is one call of actk (isa: the ISA
// forced before the timed loop and restored after, checked on both sides; -1:
// not actk), of a baseline (error: its error(), checked before and after the
// loop; one untimed call first, where oneDNN makes its primitive for this
// size) or a copy. Every call's status is checked, so a benchmark that did not
// run where its name says fails instead of reporting a number.
using call_fn = std::function<actk_status(const data_set &)>;
void bm(benchmark::State &state, const call_fn &body, int isa, const char *(*error)(), size_t n,
        int type, size_t esize) {
  const data_set &d = data_for(n, type); // made on first use: only what the filter picks
  auto call = [&] { return body(d); };
  const actk_isa before = actk_isa_active();
  if (isa >= 0) {
    actk_status fs = actk_isa_force((actk_isa)isa);
    if (fs != ACTK_OK || actk_isa_active() != (actk_isa)isa) {
      actk_isa_force(before);
      state.SkipWithError(fs != ACTK_OK ? actk_status_string(fs) : "another isa is active");
      return;
    }
  }
  actk_status bad = call();
  const char *e = error ? error() : nullptr;
  const auto t0 = bclock::now();
  for (auto _ : state) {
    if (e) break;
    actk_status s = call();
    if (s != ACTK_OK) bad = s;
    benchmark::ClobberMemory();
  }
  const double loop_ns = ns_since(t0);
  const bool moved = isa >= 0 && actk_isa_active() != (actk_isa)isa;
  actk_isa_force(before);
  if (!e && error) e = error();
  if (e || moved || bad != ACTK_OK) {
    state.SkipWithError(e       ? e
                        : moved ? "active isa changed during the timed loop"
                                : actk_status_string(bad));
    return;
  }
  set_counters(state, n, loop_ns, esize);
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
    const size_t es = op.info->esize;
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
      const size_t w = bias_width_for(n);
      auto add = [&](const std::string &name, call_fn call, int isa, const char *(*error)(), int ty,
                     size_t esize) {
        reg(name + tail, [=](benchmark::State &s) { bm(s, call, isa, error, n, ty, esize); });
      };
      using u16 = uint16_t;
      if (first) {
        add(
            "copy/memcpy", [n](const data_set &d) { return std::memcpy(d.y, d.x, n * 4), ACTK_OK; },
            -1, nullptr, 0, 4);
        add(
            "copy16/memcpy",
            [n](const data_set &d) { return std::memcpy(d.y, d.x, n * 2), ACTK_OK; }, -1, nullptr,
            2, 2);
      }
      for (actk_isa isa : isas)
        add(
            base + "actk_" + actk_isa_name(isa),
            [&op, w, n](const data_set &d) { return run_actk_typed(op, d.x, d.bias, w, d.y, n); },
            isa, nullptr, type, es);
      if (op.info->tier) continue; /* baselines once per op and type */
      if (type == 0) {
        for (const baseline *p : baselines())
          if (kernel_fn k = p->runnable() ? baseline_kernel(p, op.name) : nullptr)
            add(
                base + p->name,
                [=](const data_set &d) {
                  k((const float *)d.x, (const float *)d.bias, w, (float *)d.y, n);
                  return ACTK_OK;
                },
                -1, p->error, 0, 4);
        continue;
      }
      for (actk_isa isa : isas)
        if (f32f)
          add(
              base + "engine_" + actk_isa_name(isa),
              [=](const data_set &d) {
                return run_engine16(*f32f, type, (const u16 *)d.x, (const u16 *)d.bias, w,
                                    d.scratch, d.scratch_bias, (u16 *)d.y, n);
              },
              isa, nullptr, type, es);
      for (const baseline16 *p : baselines16()) {
        if (std::strcmp(p->type, op.info->type_name) || !p->runnable()) continue;
        if (kernel16_fn k = baseline16_kernel(p, op.name))
          add(
              base + p->name,
              [=](const data_set &d) {
                k((const u16 *)d.x, (const u16 *)d.bias, w, (u16 *)d.y, n);
                return ACTK_OK;
              },
              -1, p->error, type, 2);
      }
    }
    first = false;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
