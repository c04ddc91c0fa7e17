// actk_ratio: same-run ratios on a noisy machine.
//
// For n = 65536 and n = 4194304 and every op, runs actk (one isa, forced),
// Eigen (if built), the plain libm loop and a memcpy of the same bytes
// interleaved: A, B, C, D, A, B, C, D, ... for R repeats, each repeat timing
// C back-to-back calls. Interleaving spreads frequency changes and neighbours'
// load over all four alike, so ratios of the medians are much steadier than
// ratios of numbers taken minutes apart. The copy column is the control: if
// it moves between rows, the machine's memory bandwidth moved.
//
//   actk_ratio [--isa NAME] [--repeats R] [--calls C] [--big-calls C] [--quick]
//
// --isa takes any ISA the library names (scalar, avx2, avx512, ...). Defaults:
// the best supported ISA (the highest-numbered one, as dispatch ranks them,
// whatever ACTK_ISA says; the first line of output names it), R = 15, C = 20
// calls per repeat at 64 Ki, 3 at 4 Mi (each 4 Mi call streams 32 MiB).
// Columns, all ns per element, medians over the repeats:
//   actk, eigen (Eigen 3.4 AVX2, the baseline whatever actk's isa),
//   actk/eigen (< 1: actk faster), libm, vs libm (libm / actk),
//   copy, spread (actk's (p75 - p25) / median, a noise gauge), and on the 4 Mi
//   table 4Mi/64Ki (actk's per-element time at 4 Mi over 64 Ki: > 1 means
//   the op became memory-bound or cache-hostile).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench_ops.h"

namespace {

using namespace actkb;
using clk = std::chrono::steady_clock;

struct options {
  actk_isa isa;
  int repeats = 15, calls = 20, big_calls = 3;
};

struct quartiles {
  double p25, med, p75;
};

quartiles quart(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    double pos = q * (double)(v.size() - 1);
    size_t i = (size_t)pos;
    double f = pos - (double)i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  };
  return {at(0.25), at(0.5), at(0.75)};
}

int usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--isa NAME] [--repeats R] [--calls C] [--big-calls C] [--quick]\n"
               "  NAME: one of",
               argv0);
  for (int v = 0; actk_isa_name((actk_isa)v); v++)
    std::fprintf(stderr, " %s%s", actk_isa_name((actk_isa)v),
                 actk_isa_supported((actk_isa)v) ? "" : " (not supported here)");
  std::fprintf(stderr, "\n");
  return 2;
}

// The best ISA this machine runs, as dispatch ranks them.
actk_isa best_isa() { return actk_isa_best(); }

bool parse_int(const char *s, int *out) {
  char *end;
  long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 100000) return false;
  *out = (int)v;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  options opt;
  opt.isa = best_isa();
  bool isa_given = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!std::strcmp(a, "--quick")) {
      opt.repeats = 7, opt.calls = 5, opt.big_calls = 1;
    } else if (!std::strcmp(a, "--isa") && i + 1 < argc) {
      const char *name = argv[++i];
      bool found = false;
      for (int v = 0; actk_isa_name((actk_isa)v); v++)
        if (!std::strcmp(actk_isa_name((actk_isa)v), name)) opt.isa = (actk_isa)v, found = true;
      if (!found) {
        std::fprintf(stderr, "actk_ratio: unknown isa '%s'\n", name);
        return usage(argv[0]);
      }
      isa_given = true;
    } else if (!std::strcmp(a, "--repeats") && i + 1 < argc) {
      if (!parse_int(argv[++i], &opt.repeats)) return usage(argv[0]);
    } else if (!std::strcmp(a, "--calls") && i + 1 < argc) {
      if (!parse_int(argv[++i], &opt.calls)) return usage(argv[0]);
    } else if (!std::strcmp(a, "--big-calls") && i + 1 < argc) {
      if (!parse_int(argv[++i], &opt.big_calls)) return usage(argv[0]);
    } else {
      return usage(argv[0]);
    }
  }
  const actk_isa before = actk_isa_active();
  const char *before_reason = actk_isa_reason(); // before the force below replaces it
  actk_status fs = actk_isa_force(opt.isa);
  if (fs != ACTK_OK || actk_isa_active() != opt.isa) {
    std::fprintf(stderr, "actk_ratio: cannot run isa %s here: %s\n", actk_isa_name(opt.isa),
                 actk_status_string(fs));
    return 2;
  }
  const baseline *eigen = find_baseline("eigen"), *libm = find_baseline("libm");
  const bool eigen_built = [] {
    for (const baseline *b : baselines())
      if (!std::strcmp(b->name, "eigen")) return true;
    return false;
  }();
  const std::vector<bench_op> &ops = bench_ops();

  std::printf("actk %s, isa %s (%s); cpu: %s\n", actk_version_string(), actk_isa_name(opt.isa),
              isa_given ? "--isa" : "default: the best supported isa", actk_cpu_summary());
  if (before != best_isa())
    std::printf("note: dispatch's own choice in this process is %s (%s)\n", actk_isa_name(before),
                before_reason);
  std::printf("input: %s; eigen: %s\n", input_description(),
              eigen ? "3.4 avx2" : (eigen_built ? "built, but no avx2 here" : "not built"));

  const size_t sizes[2] = {65536, 4194304};
  std::vector<double> small_actk(ops.size(), 0.0);
  int status = 0;
  for (int si = 0; si < 2; si++) {
    const size_t n = sizes[si];
    const int calls = si == 0 ? opt.calls : opt.big_calls;
    const size_t w = bias_width_for(n);
    float *x = alloc_floats(n), *y = alloc_floats(n), *bias = alloc_floats(kBiasWidth);
    fill_activations(x, n, 0x61636b746b5f78ULL);
    fill_bias(bias, kBiasWidth, 0x61636b746b5f62ULL);

    std::printf("\nn = %zu (%zu KiB in + out), %d interleaved repeats x %d calls, medians, "
                "ns/element\n",
                n, n * 8 / 1024, opt.repeats, calls);
    std::printf("%-15s %8s %8s %11s %8s %8s %7s %7s%s\n", "op", "actk", "eigen", "actk/eigen",
                "libm", "vs libm", "copy", "spread", si == 1 ? "  4Mi/64Ki" : "");

    for (size_t o = 0; o < ops.size(); o++) {
      const bench_op &op = ops[o];
      kernel_fn k_eigen = baseline_kernel(eigen, op.name), k_libm = baseline_kernel(libm, op.name);
      char label[40];
      std::snprintf(label, sizeof label, "%s%s%s", op.name, op.info->tier ? "_" : "",
                    op.info->tier ? op.info->tier_name : "");
      std::vector<double> t_actk, t_eigen, t_libm, t_copy;
      actk_status bad = ACTK_OK;
      bool isa_changed = false;
      // One untimed call of each first: code and data paths warm. Their
      // results are compared, so a baseline that computes something else
      // (a wrong constant, a broken build) is caught, not timed.
      run_actk(op, x, bias, w, y, n);
      std::vector<float> ref(y, y + n);
      auto check = [&](const char *who) {
        double worst = 0;
        for (size_t i = 0; i < n; i++) worst = std::max(worst, (double)std::fabs(y[i] - ref[i]));
        if (!(worst <= 1e-4)) { // NaN fails too
          std::printf("warning: %s %s differs from actk by up to %g (absolute)\n", who, label,
                      worst);
          status = 1;
        }
      };
      if (k_eigen) k_eigen(x, bias, w, y, n), check("eigen");
      if (k_libm) k_libm(x, bias, w, y, n), check("libm");
      copy_kernel(x, bias, w, y, n);

      auto time_block = [&](auto &&body) {
        auto t0 = clk::now();
        for (int c = 0; c < calls; c++) body();
        auto t1 = clk::now();
        return std::chrono::duration<double, std::nano>(t1 - t0).count() / ((double)calls * n);
      };
      for (int r = 0; r < opt.repeats; r++) {
        t_actk.push_back(time_block([&] {
          actk_status s = run_actk(op, x, bias, w, y, n);
          if (s != ACTK_OK) bad = s;
        }));
        if (actk_isa_active() != opt.isa) isa_changed = true;
        if (k_eigen) t_eigen.push_back(time_block([&] { k_eigen(x, bias, w, y, n); }));
        if (k_libm) t_libm.push_back(time_block([&] { k_libm(x, bias, w, y, n); }));
        t_copy.push_back(time_block([&] { copy_kernel(x, bias, w, y, n); }));
      }
      if (bad != ACTK_OK || isa_changed) {
        std::printf("%-15s actk call failed: %s\n", label,
                    isa_changed ? "active isa changed" : actk_status_string(bad));
        status = 1;
        continue;
      }
      quartiles qa = quart(t_actk);
      double libm_t = k_libm ? quart(t_libm).med : NAN, copy = quart(t_copy).med;
      char eig[16] = "-", ratio[16] = "-", slow[24] = "";
      if (k_eigen) {
        double e = quart(t_eigen).med;
        std::snprintf(eig, sizeof eig, "%.3f", e);
        std::snprintf(ratio, sizeof ratio, "%.2f", qa.med / e);
      }
      if (si == 0)
        small_actk[o] = qa.med;
      else
        std::snprintf(slow, sizeof slow, "  %8.2f", qa.med / small_actk[o]);
      std::printf("%-15s %8.3f %8s %11s %8.3f %7.1fx %7.3f %6.1f%%%s\n", label, qa.med, eig, ratio,
                  libm_t, libm_t / qa.med, copy, 100.0 * (qa.p75 - qa.p25) / qa.med, slow);
      std::fflush(stdout);
    }
    free_floats(x);
    free_floats(y);
    free_floats(bias);
  }
  actk_isa_force(before);
  return status;
}
