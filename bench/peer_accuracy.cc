// peer_accuracy: how accurate the peers are, next to actk's two tiers.
//
// Runs every unary op of every baseline built (bench_ops.h: libm, Eigen AVX2
// and AVX-512, SLEEF, XNNPACK, oneDNN) and actk accurate and fast (on one ISA,
// forced) on a sample of all floats, and compares each result with the op's
// double reference (tools/reference.c, through the catalog). The bias ops are
// their activations on x + bias and are left out.
//
//   peer_accuracy [--isa NAME] [--stride S] [--ops a,b,c]
//
// The sample: every S-th bit pattern of all 2^32 (default S = 4099, about a
// million floats of every sign and binade; NaN patterns skipped), plus every
// 257th float of the negative tails [-120, -2] (where gelu, silu and
// quick_gelu head for 0 and subnormals and a 1 + erf or 1 + tanh form cancels).
//
// Columns, one line per op and kernel:
//   op, kernel  the op; actk_acc / actk_fast (the forced ISA) or the baseline
//   max_rel     max |y - r| / max(|r|, 2^-126) over inputs whose result is not
//               NaN (log2 of it alongside), and the input where it occurs
//   max_ulp     max |y - r| / ulp(r), ulp(r) = 2^(max(floor(log2|r|), -126) - 23)
//   rel|x|<=8   max_rel over the inputs with |x| <= 8 only (where pre-activations
//               live; the tails' errors, often from a subnormal or flushed
//               result, drive max_rel)
//   zero        results y == 0 where |r| >= 2^-126 (a normal float: the answer
//               flushed or cancelled away)
//   nan         NaN results for a non-NaN input
// where y misses an infinite r (or gives an infinity for a finite r) the
// error is inf. Signs of zero are not compared here (tests/ do that for actk).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_ops.h"

namespace {

using namespace actkb;

struct stats {
  double max_rel = 0, rel_at = 0, max_ulp = 0, core_rel = 0;
  size_t zeros = 0, nans = 0;
};

double ulp_of(double r) {
  double a = std::fabs(r);
  int e = a > 0 ? std::ilogb(a) : -126;
  if (e < -126) e = -126;
  return std::ldexp(1.0, e - 23);
}

stats measure(const float *x, const float *y, const double *r, size_t n) {
  stats s;
  for (size_t i = 0; i < n; i++) {
    if (std::isnan(y[i])) {
      s.nans++;
      continue;
    }
    double rel, ulp;
    if (std::isinf(r[i]) || std::isinf(y[i])) {
      rel = ulp = (double)y[i] == r[i] ? 0.0 : INFINITY;
    } else {
      double d = std::fabs((double)y[i] - r[i]);
      rel = d / std::fmax(std::fabs(r[i]), 0x1p-126);
      ulp = d / ulp_of(r[i]);
      if (y[i] == 0 && std::fabs(r[i]) >= 0x1p-126) s.zeros++;
    }
    if (rel > s.max_rel) s.max_rel = rel, s.rel_at = x[i];
    if (std::fabs(x[i]) <= 8.0f && rel > s.core_rel) s.core_rel = rel;
    if (ulp > s.max_ulp) s.max_ulp = ulp;
  }
  return s;
}

bool listed(const std::vector<std::string> &v, const char *name) {
  if (v.empty()) return true;
  for (const std::string &s : v)
    if (s == name) return true;
  return false;
}

int usage() {
  std::fprintf(stderr, "usage: peer_accuracy [--isa NAME] [--stride S] [--ops a,b,c]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  actk_isa isa = actk_isa_best();
  uint64_t stride = 4099;
  std::vector<std::string> ops;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--isa") && i + 1 < argc) {
      const char *name = argv[++i];
      bool found = false;
      for (int v = 0; actk_isa_name((actk_isa)v); v++)
        if (!std::strcmp(actk_isa_name((actk_isa)v), name)) isa = (actk_isa)v, found = true;
      if (!found) return usage();
    } else if (!std::strcmp(argv[i], "--stride") && i + 1 < argc) {
      stride = std::strtoull(argv[++i], nullptr, 0);
      if (stride == 0) return usage();
    } else if (!std::strcmp(argv[i], "--ops") && i + 1 < argc) {
      std::string cur;
      for (const char *p = argv[++i];; p++) {
        if (*p == ',' || !*p) {
          if (!cur.empty()) ops.push_back(cur);
          cur.clear();
          if (!*p) break;
        } else {
          cur += *p;
        }
      }
    } else {
      return usage();
    }
  }
  if (actk_isa_force(isa) != ACTK_OK || actk_isa_active() != isa) {
    std::fprintf(stderr, "peer_accuracy: cannot run isa %s here\n", actk_isa_name(isa));
    return 2;
  }

  std::vector<float> xs;
  for (uint64_t i = 0; i < (1ULL << 32); i += stride) {
    uint32_t u = (uint32_t)i;
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isnan(f)) xs.push_back(f);
  }
  const size_t dense = xs.size();
  for (uint32_t u = 0xC0000000u; u <= 0xC2F00000u; u += 257) { // -2 .. -120
    float f;
    std::memcpy(&f, &u, 4);
    xs.push_back(f);
  }
  const size_t n = xs.size();
  float *x = alloc_floats(n), *y = alloc_floats(n);
  std::copy(xs.begin(), xs.end(), x);
  std::vector<double> ref(n);

  std::printf("actk %s, isa %s; %zu inputs: every %llu-th bit pattern (%zu, NaNs skipped) and "
              "every 257th float in [-120, -2] (%zu)\n",
              actk_version_string(), actk_isa_name(isa), n, (unsigned long long)stride, dense,
              n - dense);
  for (const baseline *b : baselines())
    if (b->runnable()) std::printf("  %-12s %s\n", b->name, b->describes);
  std::printf("\n%-11s %-12s %10s %7s %15s %11s %10s %7s %7s\n", "op", "kernel", "max_rel", "log2",
              "at x", "max_ulp", "rel|x|<=8", "zero", "nan");

  int status = 0;
  for (const bench_op &op : bench_ops()) {
    if (op.has_bias || op.info->tier != 0 || !listed(ops, op.name)) continue;
    for (size_t i = 0; i < n; i++) ref[i] = op.info->ref((double)x[i]);
    auto report = [&](const char *who) {
      stats s = measure(x, y, ref.data(), n);
      std::printf("%-11s %-12s %10.3g %7.1f %15.9g %11.4g %10.3g %7zu %7zu\n", op.name, who,
                  s.max_rel, s.max_rel > 0 ? std::log2(s.max_rel) : -INFINITY, s.rel_at, s.max_ulp,
                  s.core_rel, s.zeros, s.nans);
    };
    for (const bench_op &t : bench_ops()) {
      if (std::strcmp(t.name, op.name) || t.has_bias) continue;
      actk_status st = run_actk(t, x, nullptr, 0, y, n);
      std::string who = std::string("actk_") + (t.info->tier ? t.info->tier_name : "acc");
      if (st != ACTK_OK) {
        std::printf("%-11s %-12s failed: %s\n", op.name, who.c_str(), actk_status_string(st));
        status = 1;
        continue;
      }
      report(who.c_str());
    }
    for (const baseline *b : baselines()) {
      kernel_fn k = b->runnable() ? baseline_kernel(b, op.name) : nullptr;
      if (!k) continue;
      k(x, nullptr, 0, y, n);
      if (b->error)
        if (const char *e = b->error()) {
          std::printf("%-11s %-12s error: %s\n", op.name, b->name, e);
          continue;
        }
      report(b->name);
    }
    std::fflush(stdout);
  }
  if (actk_isa_active() != isa) {
    std::printf("the active isa changed during the run\n");
    status = 1;
  }
  free_floats(x);
  free_floats(y);
  return status;
}
