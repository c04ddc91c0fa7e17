// actk_ratio: actk's two tiers against the fastest peers, same-run ratios on a
// noisy machine.
//
// For n = 65536 and n = 4194304 and every op, runs actk accurate and actk fast
// (one ISA, forced), every peer baseline built that has the op (bench_ops.h:
// Eigen AVX2 and AVX-512, SLEEF u10 AVX2, u10 and u35 AVX-512, XNNPACK,
// oneDNN), the plain libm loop and a memcpy of the same bytes, interleaved:
// A, B, C, ..., A, B, C, ... for R repeats (each repeat starting one column
// further on, so no column always follows the same one), each repeat timing
// C back-to-back calls. Interleaving spreads frequency changes and
// neighbours' load over all columns alike, so ratios of the medians are much
// steadier than ratios of numbers taken minutes apart. The copy column is the
// control: if it moves between rows, the machine's memory bandwidth moved.
//
//   actk_ratio [--isa NAME] [--ops a,b,c] [--peers a,b,c] [--clock wall|thread]
//              [--repeats R] [--calls C] [--big-calls C] [--quick]
//
// --isa takes any ISA the library names (scalar, avx2, avx512, ...); it
// forces actk only: each peer runs the code it was built for (eigen, sleef:
// AVX2; eigen512, sleef512*: AVX-512) or picks by itself (xnnpack, onednn:
// their best for this CPU, named in the header). --ops keeps those ops (the
// row names: erf, gelu, bias_gelu_tanh, ...), --peers those peers (by
// column name). Defaults: the best supported ISA (as dispatch ranks them,
// whatever ACTK_ISA says; the first line names it), every op and peer, R = 15,
// C = 20 calls per repeat at 64 Ki, 3 at 4 Mi (each 4 Mi call streams 32 MiB);
// --quick: R = 7, C = 5 and 1. --clock thread times each block by the calling
// thread's CPU time instead of the wall clock (default): on a machine shared
// with other work, time spent descheduled then stops counting (everything
// measured runs on the calling thread; the check below says if not).
//
// Columns, all ns per element, medians over the repeats:
//   op         the op; the accurate and fast tiers share its row
//   acc        actk accurate (actk_<op>_f32) on the forced ISA
//   fast       actk fast (actk_<op>_f32_fast) on the forced ISA ("-": none)
//   <peer>     each peer that was built and runs here, in bench_ops.h's fixed
//              order; "-": the peer lacks the op; "off": its output failed
//              the check below, so it was not timed; "err": it reported an
//              error while timed
//   fast/best  fast over the fastest peer of the row (< 1: actk faster)
//   best       that peer
//   acc/best   acc over the same peer's time
//   libm       the plain libm loop (checked like a peer, never "best")
//   copy       memcpy of the same bytes (the control)
//   spread     the largest (p75 - p25) / median of acc, fast and best: the
//              noise gauge of the ratios
//   acc4M/64K, fast4M/64K  (4 Mi table only) each tier's per-element time at
//              4 Mi over its 64 Ki one (> 1: the op became memory-bound or
//              cache-hostile)
//
// Confirming what was measured: before timing, every kernel's output on the
// same input is compared with actk accurate's: actk fast must be within 2^-17
// relative (|d| <= 2^-17 max(|ref|, 2^-126): both tiers' bounds together),
// a peer or libm within |d| <= 1e-4 or |d| <= 1e-3 |ref| (a NaN fails). A
// peer outside is listed under the table with its worst element and shown as
// "off", not timed; that does not make the exit status non-zero. actk's status
// is checked on every call and the active ISA before and after every block;
// peers that report errors (bench_ops.h's error()) are checked after every
// block, and a column during whose blocks the process's other threads used
// more than 5% of the calling thread's CPU time is named under the table
// (every kernel here is meant to run on the calling thread alone). Exit status 1 when an actk call
// failed, the ISA changed or actk fast failed its check; 2 for bad arguments.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <ctime>
#include <vector>

#include "bench_ops.h"

namespace {

using namespace actkb;
double now_ns(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct options {
  actk_isa isa;
  int repeats = 15, calls = 20, big_calls = 3;
  bool thread_clock = false;
  std::vector<std::string> ops, peers; // empty: all
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
               "usage: %s [--isa NAME] [--ops a,b,c] [--peers a,b,c] [--clock wall|thread]\n"
               "          [--repeats R] [--calls C] [--big-calls C] [--quick]\n"
               "  NAME: one of",
               argv0);
  for (int v = 0; actk_isa_name((actk_isa)v); v++)
    std::fprintf(stderr, " %s%s", actk_isa_name((actk_isa)v),
                 actk_isa_supported((actk_isa)v) ? "" : " (not supported here)");
  std::fprintf(stderr, "\n  ops:");
  const char *last = "";
  for (const bench_op &op : bench_ops())
    if (std::strcmp(op.name, last)) std::fprintf(stderr, " %s", last = op.name);
  std::fprintf(stderr, "\n  peers:");
  for (const baseline *b : baselines())
    if (std::strcmp(b->name, "libm")) std::fprintf(stderr, " %s", b->name);
  std::fprintf(stderr, "\n");
  return 2;
}

bool parse_int(const char *s, int *out) {
  char *end;
  long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 100000) return false;
  *out = (int)v;
  return true;
}

std::vector<std::string> split(const char *s) {
  std::vector<std::string> r;
  std::string cur;
  for (const char *p = s;; p++) {
    if (*p == ',' || *p == '\0') {
      if (!cur.empty()) r.push_back(cur);
      cur.clear();
      if (!*p) break;
    } else {
      cur += *p;
    }
  }
  return r;
}

bool listed(const std::vector<std::string> &v, const char *name) {
  return v.empty() || std::find(v.begin(), v.end(), name) != v.end();
}

// One row: an op with its tiers.
struct row {
  const char *name;
  const bench_op *acc, *fast;
};

// One timed column of a row.
struct column {
  enum kind_t { ACTK, PEER, COPY } kind;
  const char *name;
  const bench_op *op;   // ACTK
  const baseline *peer; // PEER
  kernel_fn fn;         // PEER, COPY
  bool off = false, err = false;
  double others = 0; // max over blocks: other threads' CPU time / this thread's
  std::vector<double> t;
  column(kind_t k, const char *nm, const bench_op *o, const baseline *p, kernel_fn f)
      : kind(k), name(nm), op(o), peer(p), fn(f) {}
};

// The worst element of y against ref under a tolerance: the largest
// |d| / tol(ref) (> 1 fails; NaN where ref is not NaN: infinite).
struct verdict {
  double worst = 0;
  size_t at = 0;
};
template <class Tol>
verdict compare(const float *y, const float *ref, size_t n, Tol tol) {
  verdict v;
  for (size_t i = 0; i < n; i++) {
    double r = ref[i], d = std::fabs((double)y[i] - r);
    double q = std::isnan(r) ? (std::isnan(y[i]) ? 0.0 : INFINITY)
                             : (std::isnan(d) ? INFINITY : d / tol(r));
    if (q > v.worst) v.worst = q, v.at = i;
  }
  return v;
}
double peer_tol(double r) { return std::max(1e-4, 1e-3 * std::fabs(r)); }
double fast_tol(double r) { return 0x1p-17 * std::max(std::fabs(r), 0x1p-126); }

} // namespace

int main(int argc, char **argv) {
  options opt;
  opt.isa = actk_isa_best();
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
    } else if (!std::strcmp(a, "--clock") && i + 1 < argc) {
      const char *c = argv[++i];
      if (!std::strcmp(c, "thread"))
        opt.thread_clock = true;
      else if (std::strcmp(c, "wall"))
        return usage(argv[0]);
    } else if (!std::strcmp(a, "--ops") && i + 1 < argc) {
      opt.ops = split(argv[++i]);
    } else if (!std::strcmp(a, "--peers") && i + 1 < argc) {
      opt.peers = split(argv[++i]);
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

  // The rows: ops in catalog order, each with its tiers.
  std::vector<row> rows;
  for (const bench_op &op : bench_ops()) {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const row &r) { return !std::strcmp(r.name, op.name); });
    if (it == rows.end()) rows.push_back({op.name, nullptr, nullptr}), it = rows.end() - 1;
    if (op.info->tier == 0)
      it->acc = &op;
    else if (!std::strcmp(op.info->tier_name, "fast"))
      it->fast = &op;
  }
  for (const std::string &name : opt.ops)
    if (std::none_of(rows.begin(), rows.end(), [&](const row &r) { return name == r.name; })) {
      std::fprintf(stderr, "actk_ratio: unknown op '%s'\n", name.c_str());
      return usage(argv[0]);
    }
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const row &r) { return !listed(opt.ops, r.name) || !r.acc; }),
             rows.end());

  // The peers: every baseline but libm, in bench_ops.h's order.
  for (const std::string &name : opt.peers)
    if (std::none_of(baselines().begin(), baselines().end(), [&](const baseline *b) {
          return name == b->name && std::strcmp(b->name, "libm");
        })) {
      std::fprintf(stderr, "actk_ratio: unknown or not built peer '%s'\n", name.c_str());
      return usage(argv[0]);
    }
  std::vector<const baseline *> peers;
  const baseline *libm = find_baseline("libm");

  const actk_isa before = actk_isa_active();
  const char *before_reason = actk_isa_reason(); // before the force below replaces it
  actk_status fs = actk_isa_force(opt.isa);
  if (fs != ACTK_OK || actk_isa_active() != opt.isa) {
    std::fprintf(stderr, "actk_ratio: cannot run isa %s here: %s\n", actk_isa_name(opt.isa),
                 actk_status_string(fs));
    return 2;
  }
  std::printf("actk %s, isa %s (%s); cpu: %s\n", actk_version_string(), actk_isa_name(opt.isa),
              isa_given ? "--isa" : "default: the best supported isa", actk_cpu_summary());
  if (before != actk_isa_best())
    std::printf("note: dispatch's own choice in this process is %s (%s)\n", actk_isa_name(before),
                before_reason);
  std::printf("input: %s\n", input_description());
  std::printf("peers (each runs its own code, whatever --isa):\n");
  for (const baseline *b : baselines()) {
    if (!std::strcmp(b->name, "libm") || !listed(opt.peers, b->name)) continue;
    if (!b->runnable()) {
      std::printf("  %-12s built, cannot run here: left out\n", b->name);
      continue;
    }
    peers.push_back(b);
    std::printf("  %-12s %s\n", b->name, b->describes);
    if (b->runtime) std::printf("  %-12s   at run time: %s\n", "", b->runtime());
  }
  if (peers.empty()) std::printf("  (none built or runnable)\n");
  std::fflush(stdout);

  const size_t sizes[2] = {65536, 4194304};
  std::vector<double> small_acc(rows.size(), NAN), small_fast(rows.size(), NAN);
  int status = 0;
  for (int si = 0; si < 2; si++) {
    const size_t n = sizes[si];
    const int calls = si == 0 ? opt.calls : opt.big_calls;
    const size_t w = bias_width_for(n);
    float *x = alloc_floats(n), *y = alloc_floats(n), *bias = alloc_floats(kBiasWidth);
    fill_activations(x, n, 0x61636b746b5f78ULL);
    fill_bias(bias, kBiasWidth, 0x61636b746b5f62ULL);
    std::vector<float> ref(n);
    std::vector<std::string> notes;

    std::printf("\nn = %zu (%zu KiB in + out), %d interleaved repeats x %d calls, medians, "
                "ns/element (%s)\n",
                n, n * 8 / 1024, opt.repeats, calls,
                opt.thread_clock ? "thread CPU time" : "wall clock");
    std::string head;
    char cell[160];
    std::snprintf(cell, sizeof cell, "%-15s %7s %7s", "op", "acc", "fast");
    head += cell;
    for (const baseline *b : peers) {
      std::snprintf(cell, sizeof cell, " %*s", std::max(7, (int)std::strlen(b->name)), b->name);
      head += cell;
    }
    std::snprintf(cell, sizeof cell, " %9s %-11s %8s %8s %6s %6s%s", "fast/best", "best",
                  "acc/best", "libm", "copy", "spread", si == 1 ? "  acc4M/64K fast4M/64K" : "");
    head += cell;
    std::printf("%s\n", head.c_str());

    for (size_t o = 0; o < rows.size(); o++) {
      const row &rw = rows[o];
      std::vector<column> cols;
      cols.emplace_back(column::ACTK, "acc", rw.acc, nullptr, nullptr);
      if (rw.fast) cols.emplace_back(column::ACTK, "fast", rw.fast, nullptr, nullptr);
      for (const baseline *b : peers)
        if (kernel_fn k = baseline_kernel(b, rw.name))
          cols.emplace_back(column::PEER, b->name, nullptr, b, k);
      kernel_fn k_libm = baseline_kernel(libm, rw.name);
      if (k_libm) cols.emplace_back(column::PEER, "libm", nullptr, libm, k_libm);
      cols.emplace_back(column::COPY, "copy", nullptr, nullptr, copy_kernel);

      bool actk_bad = false;
      std::string why;
      auto run_actk_checked = [&](const bench_op *op) {
        actk_status s = run_actk(*op, x, bias, w, y, n);
        if (s != ACTK_OK && !actk_bad)
          actk_bad = true, why = std::string("status ") + actk_status_string(s);
      };
      // One untimed call of each first (code and data warm, oneDNN's
      // primitives made); the outputs are compared with actk accurate's.
      run_actk_checked(rw.acc);
      std::copy(y, y + n, ref.begin());
      for (column &c : cols) {
        if (c.kind == column::COPY) continue;
        std::fill(y, y + n, NAN);
        if (c.kind == column::ACTK)
          run_actk_checked(c.op);
        else
          c.fn(x, bias, w, y, n);
        if (c.kind == column::ACTK && c.op == rw.acc) continue;
        const bool fast = c.kind == column::ACTK;
        verdict v =
            fast ? compare(y, ref.data(), n, fast_tol) : compare(y, ref.data(), n, peer_tol);
        if (c.peer && c.peer->error) {
          if (const char *e = c.peer->error()) {
            notes.push_back(std::string(c.name) + " " + rw.name + ": " + e);
            c.err = true;
          }
        }
        if (v.worst > 1.0) {
          const float xi = x[v.at] + (rw.acc->has_bias ? bias[v.at % w] : 0.0f);
          char buf[256];
          std::snprintf(
              buf, sizeof buf,
              "%s %s: off by up to %.3g x its tolerance (%s): at x%s = %.9g it gives %.9g, "
              "actk accurate %.9g%s",
              c.name, rw.name, v.worst, fast ? "2^-17 relative" : "1e-4 absolute or 1e-3 relative",
              rw.acc->has_bias ? " + bias" : "", (double)xi, (double)y[v.at], (double)ref[v.at],
              fast ? "" : "; not timed");
          notes.push_back(buf);
          if (fast) {
            actk_bad = true, why = "actk fast failed its check";
          } else {
            c.off = true;
          }
        }
      }

      // Wall (or thread CPU) time per element of one block of calls; the
      // process's CPU time beside the thread's shows work on other threads.
      auto time_block = [&](column &c, auto &&body) {
        const double w0 = now_ns(CLOCK_MONOTONIC), t0 = now_ns(CLOCK_THREAD_CPUTIME_ID),
                     p0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        for (int k = 0; k < calls; k++) body();
        const double p1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t1 = now_ns(CLOCK_THREAD_CPUTIME_ID),
                     w1 = now_ns(CLOCK_MONOTONIC);
        c.others = std::max(c.others, ((p1 - p0) - (t1 - t0)) / (t1 - t0));
        c.t.push_back((opt.thread_clock ? t1 - t0 : w1 - w0) / ((double)calls * (double)n));
      };
      const size_t nc = cols.size();
      for (int r = 0; r < opt.repeats && !actk_bad; r++) {
        for (size_t j = 0; j < nc; j++) {
          column &c = cols[(j + (size_t)r) % nc];
          if (c.off || c.err) continue;
          if (c.kind == column::ACTK) {
            if (actk_isa_active() != opt.isa) actk_bad = true, why = "active isa changed";
            time_block(c, [&] { run_actk_checked(c.op); });
            if (actk_isa_active() != opt.isa) actk_bad = true, why = "active isa changed";
          } else {
            time_block(c, [&] { c.fn(x, bias, w, y, n); });
            if (c.peer && c.peer->error)
              if (const char *e = c.peer->error()) {
                notes.push_back(std::string(c.name) + " " + rw.name + ": " + e);
                c.err = true;
              }
          }
        }
      }
      for (const column &c : cols)
        if (c.others > 0.05) {
          char buf[160];
          std::snprintf(buf, sizeof buf,
                        "%s %s: other threads of the process used up to %.0f%% of its thread's "
                        "CPU time while it was timed",
                        c.name, rw.name, 100.0 * c.others);
          notes.push_back(buf);
        }
      if (actk_bad) {
        std::printf("%-15s actk failed: %s\n", rw.name, why.c_str());
        status = 1;
        for (const std::string &s : notes) std::printf("  note: %s\n", s.c_str());
        notes.clear();
        continue;
      }

      auto med = [&](const char *name) -> const column * {
        for (const column &c : cols)
          if (!std::strcmp(c.name, name) && !c.off && !c.err && !c.t.empty()) return &c;
        return nullptr;
      };
      const column *ca = med("acc"), *cf = med("fast"), *best = nullptr;
      double best_t = INFINITY;
      for (const column &c : cols)
        if (c.kind == column::PEER && c.peer != libm && !c.off && !c.err && !c.t.empty()) {
          double m = quart(c.t).med;
          if (m < best_t) best_t = m, best = &c;
        }
      const quartiles qa = quart(ca->t);
      std::string line;
      std::snprintf(cell, sizeof cell, "%-15s %7.3f", rw.name, qa.med);
      line += cell;
      if (cf)
        std::snprintf(cell, sizeof cell, " %7.3f", quart(cf->t).med);
      else
        std::snprintf(cell, sizeof cell, " %7s", "-");
      line += cell;
      for (const baseline *b : peers) {
        const int wd = std::max(7, (int)std::strlen(b->name));
        const column *c = nullptr;
        for (const column &cc : cols)
          if (cc.peer == b) c = &cc;
        if (!c)
          std::snprintf(cell, sizeof cell, " %*s", wd, "-");
        else if (c->off || c->err)
          std::snprintf(cell, sizeof cell, " %*s", wd, c->off ? "off" : "err");
        else
          std::snprintf(cell, sizeof cell, " %*.3f", wd, quart(c->t).med);
        line += cell;
      }
      double spread = (qa.p75 - qa.p25) / qa.med;
      auto widen = [&](const column *c) {
        if (!c) return;
        quartiles q = quart(c->t);
        spread = std::max(spread, (q.p75 - q.p25) / q.med);
      };
      widen(cf);
      widen(best);
      const double fast_t = cf ? quart(cf->t).med : NAN;
      if (best && cf)
        std::snprintf(cell, sizeof cell, " %9.2f %-11s", fast_t / best_t, best->name);
      else
        std::snprintf(cell, sizeof cell, " %9s %-11s", "-", best ? best->name : "-");
      line += cell;
      if (best)
        std::snprintf(cell, sizeof cell, " %8.2f", qa.med / best_t);
      else
        std::snprintf(cell, sizeof cell, " %8s", "-");
      line += cell;
      const column *cl = med("libm"), *cc = med("copy");
      if (cl)
        std::snprintf(cell, sizeof cell, " %8.3f", quart(cl->t).med);
      else
        std::snprintf(cell, sizeof cell, " %8s", k_libm ? "off" : "-");
      line += cell;
      std::snprintf(cell, sizeof cell, " %6.3f %5.1f%%", quart(cc->t).med, 100.0 * spread);
      line += cell;
      if (si == 0) {
        small_acc[o] = qa.med, small_fast[o] = fast_t;
      } else {
        std::snprintf(cell, sizeof cell, "  %9.2f %10.2f", qa.med / small_acc[o],
                      fast_t / small_fast[o]); // NaN: a row missing at 64 Ki or no fast tier
        line += cell;
      }
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
    for (const std::string &s : notes) std::printf("  note: %s\n", s.c_str());
    free_floats(x);
    free_floats(y);
    free_floats(bias);
  }
  actk_isa_force(before);
  return status;
}
