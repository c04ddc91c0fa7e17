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
//   actk_ratio --types ...      the 16-bit types (below, at types_main)
//   actk_ratio --gated [--csv] [--dtypes f32,f16,bf16] [--d D] ...   the gated
//              ops (below, at gated_main): packed against ggml's fused GLU
//              and the two-pass way (actk's, ggml's, ATen's)
//   actk_ratio --accuracy [--stride S] [--isa NAME] [--ops a,b,c] [--peers a,b,c]
//   --csv-out PATH (with the timed tables) also writes every median to PATH
//   for bench/goals.py: '#' lines (the header, the peers, the notes), then
//   one line per cell, table,isa,n,op,column,value (table f32 or types; value
//   the median in ns/element, or off / err as in the printed table, or failed
//   for the status column of a row whose actk call failed).
//
// --accuracy times nothing: what each peer gives up, next to actk's two tiers.
// Every unary op (the bias ops are their activations on x + bias: left out)
// of actk and of every peer on a sample of all floats against the op's double
// reference (tools/reference.c, through the catalog): every S-th bit pattern
// (S = 4099: about a million floats of every sign and binade; NaNs skipped)
// and every 257th float of [-120, -2] (where gelu, silu and quick_gelu head for
// 0 and a 1 + erf or 1 + tanh form cancels). One line per op and kernel:
// max_rel = max |y - r| / max(|r|, 2^-126) over non-NaN results (log2 of it,
// and the x where it occurs), max_ulp (ulp(r) = 2^(max(floor(log2|r|), -126)
// - 23)), rel|x|<=8 (max_rel where pre-activations live), zero (y == 0 where
// |r| >= 2^-126: flushed or cancelled away), nan (NaN for a non-NaN input); a
// missed infinity is error inf. Signs of zero are tests/' business.
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
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
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
  bool isa_given = false;
  int repeats = 15, calls = 20, big_calls = 3;
  bool thread_clock = false;
  bool types = false;                  // --types
  bool accuracy = false;               // --accuracy
  bool gated = false, csv = false;     // --gated, --csv (with --gated)
  size_t d = 4096;                     // --gated's row length (of y)
  std::vector<std::string> dtypes;     // --gated's types: empty: all
  uint64_t stride = 4099;              // --accuracy's sample: every stride-th bit pattern
  std::vector<std::string> ops, peers; // empty: all
};

// printf into a std::string
std::string F(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string F(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

struct quartiles {
  double p25, med, p75;
};

// --csv-out: the same medians, one cell a line, for bench/goals.py.
FILE *g_csv;
const char *g_csv_isa = "";
void csv_note(const std::string &s) {
  if (g_csv) std::fprintf(g_csv, "# %s\n", s.c_str());
}
void csv_cell(const char *table, size_t n, const char *op, const std::string &col,
              const std::string &val) {
  if (g_csv)
    std::fprintf(g_csv, "%s,%s,%zu,%s,%s,%s\n", table, g_csv_isa, n, op, col.c_str(), val.c_str());
}

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
  std::fprintf(
      stderr,
      "usage: %s [--types | --accuracy [--stride S] | --gated [--csv] [--dtypes f32,f16,bf16] "
      "[--d D]]\n"
      "          [--isa NAME] [--ops a,b,c] [--peers a,b,c]\n"
      "          [--clock wall|thread] [--repeats R] [--calls C] [--big-calls C] "
      "[--quick]\n"
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
  std::fprintf(stderr, "\n  --gated ops:");
  for (size_t i = 0; i < actk_gated_catalog_size; i++) // each op's entries are adjacent
    if (i == 0 || std::strcmp(actk_gated_catalog[i].name, actk_gated_catalog[i - 1].name))
      std::fprintf(stderr, " %s", actk_gated_catalog[i].name);
  std::fprintf(stderr, "\n  --gated peers:");
  for (const gated_peer *p : gated_peers()) std::fprintf(stderr, " %s", p->name);
  std::fprintf(stderr,
               "\n  --csv-out PATH: the medians also to PATH, one cell a line (bench/goals.py)\n");
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

// ---- the harness: a row's columns, checked, then timed interleaved ----

// One row: an op in every type and tier the catalog has ([f32, f16, bf16][accurate, fast]).
struct row {
  const char *name;
  bool bias = false;
  const bench_op *e[3][2] = {};
};

// Every op of ops, grouped into rows in catalog order; --ops filters them (an
// unknown name is said and sets *bad).
std::vector<row> rows_of(const std::vector<bench_op> &ops, const options &opt, bool *bad) {
  std::vector<row> rows;
  for (const bench_op &op : ops) {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const row &r) { return !std::strcmp(r.name, op.name); });
    if (it == rows.end()) rows.push_back(row{op.name, op.has_bias}), it = rows.end() - 1;
    const int t = op.info->type, tier = op.info->tier;
    if (t >= 0 && t < 3 && (tier == 0 || !std::strcmp(op.info->tier_name, "fast")))
      it->e[t][tier ? 1 : 0] = &op;
  }
  for (const std::string &name : opt.ops)
    if (std::none_of(rows.begin(), rows.end(), [&](const row &r) { return name == r.name; })) {
      std::fprintf(stderr, "actk_ratio: unknown op '%s'\n", name.c_str());
      *bad = true;
    }
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const row &r) { return !listed(opt.ops, r.name); }),
             rows.end());
  return rows;
}

// A timed column: actk (a tier and type), the engine way, a peer (a table
// entry of bench_ops.h) or a copy. call() runs it once over the row's buffers.
struct column {
  enum kind_t { ACTK, ENGINE, PEER, COPY, FLOOR } kind;
  std::string name;
  int type; // 0 f32, 1 f16, 2 bf16
  std::function<actk_status()> call;
  const void *peer = nullptr;       // its baseline or baseline16
  const char *(*error)() = nullptr; // the peer's error(), if any
  bool off = false, err = false;
  double others = 0; // max over blocks: other threads' CPU time / this thread's
  std::vector<double> t;
  column(kind_t k, std::string nm, int ty, std::function<actk_status()> f, const void *p = nullptr,
         const char *(*e)() = nullptr)
      : kind(k), name(std::move(nm)), type(ty), call(std::move(f)), peer(p), error(e) {}
  bool usable() const { return !off && !err && !t.empty(); }
  double med() const { return usable() ? quart(t).med : NAN; }
};

const column *find(const std::vector<column> &cols, const char *name) {
  for (const column &c : cols)
    if (c.name == name) return &c;
  return nullptr;
}
double med(const std::vector<column> &cols, const char *name) {
  const column *c = find(cols, name);
  return c ? c->med() : NAN;
}

// A row's run: the notes it leaves and whether actk failed (why).
struct run_state {
  const char *row;
  std::vector<std::string> *notes;
  actk_status status = ACTK_OK; // the first failing actk status
  bool bad = false;
  std::string why;
  run_state(const char *r, std::vector<std::string> *n) : row(r), notes(n) {}
  void fail(const std::string &s) {
    if (!bad) why = s;
    bad = true;
  }
  // the peer's error(): noted, and the column no longer timed
  void poll(column &c) {
    if (!c.error) return;
    if (const char *e = c.error()) {
      notes->push_back(c.name + " " + row + ": " + e);
      c.err = true;
    }
  }
};

// An actk call as a column's body: its status kept in st.
std::function<actk_status()> actk_body(run_state &st, const bench_op *op, const void *x,
                                       const void *b, size_t w, void *y, size_t n) {
  return [&st, op, x, b, w, y, n]() {
    actk_status s = run_actk_typed(*op, x, b, w, y, n);
    if (s != ACTK_OK && st.status == ACTK_OK) st.status = s;
    return s;
  };
}

// R rounds over the columns, each round starting one column further on, each
// block C calls; wall (or thread CPU) time per element. The active ISA is
// checked around every block, actk's status and the peers' error() after it;
// the process's CPU time beside the thread's shows work on other threads.
void time_row(std::vector<column> &cols, const options &opt, int calls, size_t n, run_state &st) {
  const size_t nc = cols.size();
  for (int r = 0; r < opt.repeats && !st.bad; r++)
    for (size_t j = 0; j < nc; j++) {
      column &c = cols[(j + (size_t)r) % nc];
      if (c.off || c.err) continue;
      if (actk_isa_active() != opt.isa) st.fail("active isa changed");
      const double w0 = now_ns(CLOCK_MONOTONIC), t0 = now_ns(CLOCK_THREAD_CPUTIME_ID),
                   p0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
      for (int k = 0; k < calls; k++) c.call();
      const double p1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t1 = now_ns(CLOCK_THREAD_CPUTIME_ID),
                   w1 = now_ns(CLOCK_MONOTONIC);
      c.others = std::max(c.others, ((p1 - p0) - (t1 - t0)) / (t1 - t0));
      c.t.push_back((opt.thread_clock ? t1 - t0 : w1 - w0) / ((double)calls * (double)n));
      if (actk_isa_active() != opt.isa) st.fail("active isa changed");
      if (st.status != ACTK_OK) st.fail(std::string("status ") + actk_status_string(st.status));
      st.poll(c);
    }
  for (const column &c : cols)
    if (c.others > 0.05)
      st.notes->push_back(c.name + " " + st.row +
                          F(": other threads of the process used up to %.0f%% of its thread's "
                            "CPU time while it was timed",
                            100.0 * c.others));
}

// A peer with a per-call floor: each repeat's floor (its block timed in the
// same round) subtracted from the peer's time of that round, so the medians
// are of the paired differences. Each peer's first row notes its floor (seen:
// the peers noted so far).
void floor_from(std::vector<column> &cols, size_t n, std::vector<std::string> *notes,
                std::vector<std::string> *seen) {
  for (column &f : cols) {
    if (f.kind != column::FLOOR) continue;
    const std::string peer = f.name.substr(0, f.name.size() - 6); // less ".floor"
    for (column &c : cols)
      if (c.kind == column::PEER && c.name == peer && c.t.size() == f.t.size()) {
        for (size_t r = 0; r < c.t.size(); r++) c.t[r] -= f.t[r];
        if (std::find(seen->begin(), seen->end(), peer) != seen->end()) continue;
        seen->push_back(peer);
        notes->push_back(F("%s: its fixed cost per call (the op on 16 elements: %.2f us in "
                           "this row, median) is subtracted from its column",
                           peer.c_str(), quart(f.t).med * (double)n / 1e3));
      }
  }
}

// A checked row's timing: a failed actk status first fails the row, then
// time_row and floor_from; false when the row failed (st.why says why).
bool time_checked(std::vector<column> &cols, const options &opt, int calls, size_t n, run_state &st,
                  std::vector<std::string> *floors_seen) {
  if (st.status != ACTK_OK) st.fail(std::string("status ") + actk_status_string(st.status));
  time_row(cols, opt, calls, n, st);
  floor_from(cols, n, st.notes, floors_seen);
  return !st.bad;
}

// The largest (p75 - p25) / median of the columns picked.
double spread_of(const std::vector<const column *> &cs) {
  double s = 0;
  for (const column *c : cs)
    if (c && c->usable()) {
      quartiles q = quart(c->t);
      s = std::max(s, (q.p75 - q.p25) / q.med);
    }
  return s;
}

// A peer's cell: its median, "-" (no such column), "off" or "err".
std::string peer_cell(const std::vector<column> &cols, const void *peer, int wd) {
  for (const column &c : cols)
    if (c.peer == peer) {
      if (c.off || c.err) return F(" %*s", wd, c.off ? "off" : "err");
      return F(" %*.3f", wd, c.med());
    }
  return F(" %*s", wd, "-");
}

// --csv-out: a row's columns (their fixed-cost floors left out: already subtracted).
void csv_row(const char *table, size_t n, const char *op, const std::vector<column> &cols) {
  for (const column &c : cols)
    if (c.kind != column::FLOOR)
      csv_cell(table, n, op, c.name, c.off ? "off" : c.err ? "err" : F("%.4f", c.med()));
}

// Forces --isa and prints the run's header line; false if the isa cannot run.
bool start(const options &opt, const char *title, actk_isa *before) {
  *before = actk_isa_active();
  const char *before_reason = actk_isa_reason(); // before the force below replaces it
  actk_status fs = actk_isa_force(opt.isa);
  if (fs != ACTK_OK || actk_isa_active() != opt.isa) {
    std::fprintf(stderr, "actk_ratio: cannot run isa %s here: %s\n", actk_isa_name(opt.isa),
                 actk_status_string(fs));
    return false;
  }
  std::printf("%sactk %s, isa %s (%s); cpu: %s\n", title, actk_version_string(),
              actk_isa_name(opt.isa), opt.isa_given ? "--isa" : "default: the best supported isa",
              actk_cpu_summary());
  g_csv_isa = actk_isa_name(opt.isa);
  csv_note(F("actk %s, isa %s; cpu: %s; %d repeats, %d calls (64 Ki), %d (4 Mi)",
             actk_version_string(), g_csv_isa, actk_cpu_summary(), opt.repeats, opt.calls,
             opt.big_calls));
  if (*before != actk_isa_best())
    std::printf("note: dispatch's own choice in this process is %s (%s)\n", actk_isa_name(*before),
                before_reason);
  return true;
}

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

// ---- --types: the 16-bit types against f32, the engine way and oneDNN ----

const char *const kTypeName[3] = {"f32", "f16", "bf16"};

// The bars issue 13 sets (64 Ki: [0]; 4 Mi: [1]); a ratio above its bar is
// printed with a '!' after it.
struct bar {
  const char *head;
  double at[2];
};

int types_main(const options &opt) {
  bool bad_op = false;
  std::vector<row> rows = rows_of(bench_ops_typed(), opt, &bad_op);
  if (bad_op) return 2;
  rows.erase(std::remove_if(rows.begin(), rows.end(),
                            [&](const row &r) {
                              for (int t = 0; t < 3; t++)
                                for (int k = 0; k < 2; k++)
                                  if (!r.e[t][k]) return true;
                              return false;
                            }),
             rows.end());

  actk_isa before;
  if (!start(opt, "actk_ratio --types: ", &before)) return 2;
  std::printf("input: %s; the 16-bit inputs are those floats rounded to f16 / bf16 (RNE)\n",
              input_description());
  std::printf("columns (ns per element, one thread, medians of interleaved repeats):\n"
              "  f32 f32f f16 f16f bf16 bf16f  actk accurate and fast (_fast) per type\n"
              "  eng16 engbf  the engine way, f16 / bf16: widen the tensor to an f32 scratch "
              "(one pass),\n"
              "               actk_<op>_f32_fast in place on it, narrow back (another pass); "
              "the passes:\n"
              "               %s\n",
              opt.isa == ACTK_ISA_AVX512 ? "AVX-512 VCVTPH2PS/VCVTPS2PH; VPMOVZXWD+VPSLLD, "
                                           "integer RNE + NaN guard + VPMOVDW (bf16)"
              : opt.isa == ACTK_ISA_AVX2 ? "AVX2+F16C VCVTPH2PS/VCVTPS2PH; VPMOVZXWD+VPSLLD, "
                                           "integer RNE + NaN guard + VPACKUSDW (bf16)"
                                         : "scalar conversion loops");
  std::vector<const baseline16 *> peers;
  for (const baseline16 *b : baselines16()) {
    if (!listed(opt.peers, b->lib) && !listed(opt.peers, b->name)) continue;
    if (!b->runnable()) {
      std::printf("  %-12s built, cannot run here: %s\n", b->name, b->runtime());
      continue;
    }
    peers.push_back(b);
    std::printf("  %-12s %s\n  %-12s   at run time: %s\n", b->name, b->describes, "", b->runtime());
    csv_note(std::string("peer ") + b->name + ": " + b->describes +
             "; at run time: " + b->runtime());
  }
  if (baselines16().empty()) std::printf("  (no 16-bit peer built: oneDNN not found)\n");
  std::printf("  cp32 cp16    memcpy of the same n elements in f32 / in 16 bits (the controls)\n");
  std::fflush(stdout);

  const size_t sizes[2] = {65536, 4194304};
  const bar bars[] = {
      {"f16/f32", {1.1, 0.9}},    {"bf16/f32", {1.1, 0.9}}, {"f16f/f32f", {0.75, 0.9}},
      {"bf16f/f32f", {0.6, 0.9}}, {"f16f/eng", {0.5, 0.5}}, {"bf16f/eng", {0.5, 0.5}},
  };
  const int nbars = (int)(sizeof bars / sizeof bars[0]);
  int tally[2][8][2] = {}; // [size][bar]: {missed, rows}
  int status = 0;
  for (int si = 0; si < 2; si++) {
    const size_t n = sizes[si];
    const int calls = si == 0 ? opt.calls : opt.big_calls;
    const size_t w = bias_width_for(n);
    float *x32 = alloc_floats(n), *y32 = alloc_floats(n), *b32 = alloc_floats(kBiasWidth);
    float *scratch = alloc_floats(n), *sb = alloc_floats(kBiasWidth);
    fill_activations(x32, n, 0x61636b746b5f78ULL);
    fill_bias(b32, kBiasWidth, 0x61636b746b5f62ULL);
    std::vector<uint16_t> x16[3], b16[3], y16[3], ref16[3];
    auto to16 = [](int t, float f) { return t == 1 ? actk_f32_to_f16(f) : actk_f32_to_bf16(f); };
    auto from16 = [](int t, uint16_t h) {
      return t == 1 ? actk_f16_to_f32(h) : actk_bf16_to_f32(h);
    };
    for (int t = 1; t < 3; t++) {
      x16[t].resize(n), y16[t].resize(n), ref16[t].resize(n), b16[t].resize(kBiasWidth);
      for (size_t i = 0; i < n; i++) x16[t][i] = to16(t, x32[i]);
      for (size_t i = 0; i < kBiasWidth; i++) b16[t][i] = to16(t, b32[i]);
    }
    std::vector<float> ref32(n);
    std::vector<std::string> notes, floors_seen;

    std::printf("\nn = %zu, %d interleaved repeats x %d calls, medians, ns/element (%s)\n", n,
                opt.repeats, calls, opt.thread_clock ? "thread CPU time" : "wall clock");
    std::string head = F("%-15s %6s %6s %6s %6s %6s %6s %6s %6s", "op", "f32", "f32f", "f16",
                         "f16f", "bf16", "bf16f", "eng16", "engbf");
    for (const baseline16 *b : peers)
      head += F(" %*s", std::max(6, (int)std::strlen(b->name)), b->name);
    head += F(" %6s %6s %6s", "cp32", "cp16", "spread");
    std::string rhead = F("%-15s", "op");
    for (const bar &b : bars) rhead += F(" %10s", b.head);
    for (const baseline16 *b : peers)
      if (std::strcmp(b->type, "bf16") == 0) rhead += F(" bf16f/%s", b->name);
    std::vector<std::string> rlines;
    std::printf("%s\n", head.c_str());

    for (const row &rw : rows) {
      run_state st(rw.name, &notes);
      std::vector<column> cols;
      const char *an[3][2] = {{"f32", "f32f"}, {"f16", "f16f"}, {"bf16", "bf16f"}};
      for (int t = 0; t < 3; t++)
        for (int k = 0; k < 2; k++) {
          const void *x = t ? (const void *)x16[t].data() : (const void *)x32;
          const void *b = t ? (const void *)b16[t].data() : (const void *)b32;
          void *y = t ? (void *)y16[t].data() : (void *)y32;
          cols.emplace_back(column::ACTK, an[t][k], t, actk_body(st, rw.e[t][k], x, b, w, y, n));
        }
      // the engine way: widen, the f32 fast kernel in place, narrow
      for (int t = 1; t < 3; t++) {
        const bench_op *f32f = rw.e[0][1];
        const uint16_t *xs = x16[t].data(), *bs = b16[t].data();
        uint16_t *ys = y16[t].data();
        run_state *sp = &st;
        cols.emplace_back(column::ENGINE, t == 1 ? "eng16" : "engbf", t, [=]() {
          actk_status s = run_engine16(*f32f, t, xs, bs, w, scratch, sb, ys, n);
          if (s != ACTK_OK && sp->status == ACTK_OK) sp->status = s;
          return s;
        });
      }
      for (const baseline16 *p : peers) {
        kernel16_fn k = baseline16_kernel(p, rw.name);
        if (!k) continue;
        const int t = std::strcmp(p->type, "f16") == 0 ? 1 : 2;
        const uint16_t *xs = x16[t].data(), *bs = b16[t].data();
        uint16_t *ys = y16[t].data();
        cols.emplace_back(
            column::PEER, p->name, t,
            [=]() {
              k(xs, bs, w, ys, n);
              return ACTK_OK;
            },
            p, p->error);
        if (p->fixed_cost) // its fixed cost per call, as in the f32 table
          cols.emplace_back(column::FLOOR, std::string(p->name) + ".floor", t, [=]() {
            k(xs, bs, 16, ys, 16);
            return ACTK_OK;
          });
      }
      cols.emplace_back(column::COPY, "cp32", 0, [&]() {
        std::memcpy(y32, x32, n * sizeof(float));
        return ACTK_OK;
      });
      cols.emplace_back(column::COPY, "cp16", 2, [&]() {
        std::memcpy(y16[2].data(), x16[2].data(), n * sizeof(uint16_t));
        return ACTK_OK;
      });

      // ---- the checks, before any timing ----
      cols[0].call();
      std::copy(y32, y32 + n, ref32.begin());
      for (int t = 1; t < 3; t++) {
        cols[2 * t].call();
        ref16[t] = y16[t];
      }
      if (st.status != ACTK_OK) st.fail(std::string("status ") + actk_status_string(st.status));
      // accurate 16-bit = the accurate f32 result of the widened input, rounded once
      for (int t = 1; t < 3 && !st.bad; t++) {
        std::vector<float> wx(n), wy(n), wb(kBiasWidth);
        for (size_t i = 0; i < n; i++) wx[i] = from16(t, x16[t][i]);
        for (size_t i = 0; i < kBiasWidth; i++) wb[i] = from16(t, b16[t][i]);
        run_actk(*rw.e[0][0], wx.data(), wb.data(), w, wy.data(), n);
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < n; i++)
          if (to16(t, wy[i]) != ref16[t][i] && diff++ == 0) first = i;
        if (diff)
          notes.push_back(F("%s %s accurate: %zu of %zu elements differ from the f32 accurate "
                            "result rounded once (first at x = %.6g: 0x%04x, rounded f32 0x%04x)",
                            rw.name, kTypeName[t], diff, n, (double)wx[first], ref16[t][first],
                            to16(t, wy[first])));
      }
      for (column &c : cols) {
        if (c.kind == column::FLOOR) c.call(); // made and warm, not checked
        if (c.kind == column::COPY || c.kind == column::FLOOR || st.bad) continue;
        if (c.kind == column::ACTK && (&c == &cols[0] || &c == &cols[2] || &c == &cols[4]))
          continue;
        if (c.type == 0) {
          std::fill(y32, y32 + n, NAN);
          c.call();
          verdict v = compare(y32, ref32.data(), n, fast_tol);
          if (v.worst > 1.0) {
            notes.push_back(F("f32 fast %s: off by %.3g x 2^-17 relative at x = %.9g", rw.name,
                              v.worst, (double)x32[v.at]));
            st.fail("actk f32 fast failed its check");
          }
          continue;
        }
        const int t = c.type;
        std::fill(y16[t].begin(), y16[t].end(), (uint16_t)0x5555);
        c.call();
        st.poll(c);
        if (c.err) continue;
        int worst = 0;
        size_t at = 0, over1 = 0, zeros = 0;
        const uint16_t *r = ref16[t].data(), *y = y16[t].data();
        for (size_t i = 0; i < n; i++) {
          const int d = distance16(y[i], r[i], t == 2);
          if (d > worst) worst = d, at = i;
          if (d > 1) over1++;
          if ((y[i] & 0x7fffu) == 0 && (r[i] & 0x7fffu) != 0) zeros++;
        }
        if (worst <= 1) continue;
        const float xi = from16(t, x16[t][at]), bi = rw.bias ? from16(t, b16[t][at % w]) : 0.0f;
        notes.push_back(F("%s %s: %zu of %zu elements more than 1 %s ULP from actk's accurate %s "
                          "(worst %d ULP: x%s = %.6g gives %.6g, accurate %.6g)%s%s",
                          c.name.c_str(), rw.name, over1, n, kTypeName[t], kTypeName[t], worst,
                          rw.bias ? " + bias" : "", (double)(xi + bi), (double)from16(t, y[at]),
                          (double)from16(t, r[at]),
                          zeros ? F(", %zu results 0 where actk's is not", zeros).c_str() : "",
                          c.kind == column::PEER ? " (flagged, still timed)" : "; not timed"));
        if (c.kind == column::ACTK)
          st.fail(std::string("actk ") + kTypeName[t] + " fast is not within 1 ULP of accurate");
        else if (c.kind == column::ENGINE)
          c.off = true;
      }

      if (!time_checked(cols, opt, calls, n, st, &floors_seen)) {
        std::printf("%-15s actk failed: %s\n", rw.name, st.why.c_str());
        csv_cell("types", n, rw.name, "status", "failed");
        rlines.push_back(F("%-15s -", rw.name));
        status = 1;
        continue;
      }
      std::string line = F("%-15s", rw.name);
      for (const char *nm : {"f32", "f32f", "f16", "f16f", "bf16", "bf16f", "eng16", "engbf"})
        line += F(" %6.3f", med(cols, nm));
      for (const baseline16 *b : peers)
        line += peer_cell(cols, b, std::max(6, (int)std::strlen(b->name)));
      std::vector<const column *> tiers;
      for (const column &c : cols)
        if (c.kind == column::ACTK) tiers.push_back(&c);
      line +=
          F(" %6.3f %6.3f %5.1f%%", med(cols, "cp32"), med(cols, "cp16"), 100.0 * spread_of(tiers));
      csv_row("types", n, rw.name, cols);
      csv_cell("types", n, rw.name, "spread", F("%.4f", spread_of(tiers)));
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);

      const double ratio[] = {
          med(cols, "f16") / med(cols, "f32"),    med(cols, "bf16") / med(cols, "f32"),
          med(cols, "f16f") / med(cols, "f32f"),  med(cols, "bf16f") / med(cols, "f32f"),
          med(cols, "f16f") / med(cols, "eng16"), med(cols, "bf16f") / med(cols, "engbf")};
      std::string rl = F("%-15s", rw.name);
      for (int b = 0; b < nbars; b++) {
        const bool miss = !(ratio[b] <= bars[b].at[si]);
        rl += F(" %9.2f%c", ratio[b], miss ? '!' : ' ');
        tally[si][b][0] += miss;
        tally[si][b][1]++;
      }
      for (const baseline16 *b : peers) {
        if (std::strcmp(b->type, "bf16") != 0) continue;
        const int wd = (int)std::strlen(b->name) + 6;
        const double p = med(cols, b->name);
        rl += std::isnan(p) ? F(" %*s", wd, "-") : F(" %*.2f", wd, med(cols, "bf16f") / p);
      }
      rlines.push_back(rl);
    }
    std::printf("\nratios at n = %zu (bars: %s; '!' = above its bar)\n", n,
                si == 0 ? "f16/f32 and bf16/f32 (accurate) <= 1.1, f16f/f32f <= 0.75, bf16f/f32f "
                          "<= 0.6, fast 16-bit / the engine way <= 0.5"
                        : "every 16-bit op / its f32 twin of the same tier <= 0.9, fast 16-bit / "
                          "the engine way <= 0.5");
    std::printf("%s\n", rhead.c_str());
    for (const std::string &l : rlines) std::printf("%s\n", l.c_str());
    for (const std::string &s : notes) {
      std::printf("  note: %s\n", s.c_str());
      csv_note("note: " + s);
    }
    std::fflush(stdout);
    for (float *p : {x32, y32, b32, scratch, sb}) free_floats(p);
  }
  std::printf("\nbars (rows above the bar / rows):");
  for (int si = 0; si < 2; si++) {
    std::printf("\n  n = %zu:", sizes[si]);
    for (int b = 0; b < nbars; b++)
      std::printf("  %s <= %.2f: %d/%d", bars[b].head, bars[b].at[si], tally[si][b][0],
                  tally[si][b][1]);
  }
  std::printf("\n");
  actk_isa_force(before);
  return status;
}

// ---- the f32 table: both tiers against every peer ----

int f32_main(const options &opt, const char *argv0) {
  bool bad_op = false;
  std::vector<row> rows = rows_of(bench_ops(), opt, &bad_op);
  if (bad_op) return usage(argv0);
  rows.erase(std::remove_if(rows.begin(), rows.end(), [](const row &r) { return !r.e[0][0]; }),
             rows.end());

  // The peers: every baseline but libm, in bench_ops.h's order.
  for (const std::string &name : opt.peers)
    if (std::none_of(baselines().begin(), baselines().end(), [&](const baseline *b) {
          return name == b->name && std::strcmp(b->name, "libm");
        })) {
      std::fprintf(stderr, "actk_ratio: unknown or not built peer '%s'\n", name.c_str());
      return usage(argv0);
    }
  const baseline *libm = find_baseline("libm");
  actk_isa before;
  if (!start(opt, "", &before)) return 2;
  std::printf("input: %s\n", input_description());
  std::printf("peers (each runs its own code, whatever --isa):\n");
  std::vector<const baseline *> peers;
  for (const baseline *b : baselines()) {
    if (!std::strcmp(b->name, "libm") || !listed(opt.peers, b->name)) continue;
    if (!b->runnable()) {
      std::printf("  %-12s built, cannot run here: left out\n", b->name);
      continue;
    }
    peers.push_back(b);
    std::printf("  %-12s %s\n", b->name, b->describes);
    if (b->runtime) std::printf("  %-12s   at run time: %s\n", "", b->runtime());
    csv_note(std::string("peer ") + b->name + ": " + b->describes +
             (b->runtime ? std::string("; at run time: ") + b->runtime() : ""));
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
    std::vector<std::string> notes, floors_seen;

    std::printf("\nn = %zu (%zu KiB in + out), %d interleaved repeats x %d calls, medians, "
                "ns/element (%s)\n",
                n, n * 8 / 1024, opt.repeats, calls,
                opt.thread_clock ? "thread CPU time" : "wall clock");
    std::string head = F("%-15s %7s %7s", "op", "acc", "fast");
    for (const baseline *b : peers)
      head += F(" %*s", std::max(7, (int)std::strlen(b->name)), b->name);
    head += F(" %9s %-11s %8s %8s %6s %6s%s", "fast/best", "best", "acc/best", "libm", "copy",
              "spread", si == 1 ? "  acc4M/64K fast4M/64K" : "");
    std::printf("%s\n", head.c_str());

    for (size_t o = 0; o < rows.size(); o++) {
      const row &rw = rows[o];
      run_state st(rw.name, &notes);
      std::vector<column> cols;
      cols.emplace_back(column::ACTK, "acc", 0, actk_body(st, rw.e[0][0], x, bias, w, y, n));
      if (rw.e[0][1])
        cols.emplace_back(column::ACTK, "fast", 0, actk_body(st, rw.e[0][1], x, bias, w, y, n));
      auto add_peer = [&](const baseline *b) {
        if (kernel_fn k = baseline_kernel(b, rw.name))
          cols.emplace_back(
              column::PEER, b->name, 0,
              [=]() {
                k(x, bias, w, y, n);
                return ACTK_OK;
              },
              b, b->error);
      };
      for (const baseline *b : peers) add_peer(b);
      add_peer(libm);
      // a peer's fixed cost per call: its kernel on 16 elements, timed beside it
      // (floor_from below)
      for (const baseline *b : peers)
        if (kernel_fn k = b->fixed_cost ? baseline_kernel(b, rw.name) : nullptr)
          cols.emplace_back(column::FLOOR, std::string(b->name) + ".floor", 0, [=]() {
            k(x, bias, 16, y, 16);
            return ACTK_OK;
          });
      cols.emplace_back(column::COPY, "copy", 0, [=]() {
        copy_kernel(x, bias, w, y, n);
        return ACTK_OK;
      });

      // One untimed call of each first (code and data warm, oneDNN's
      // primitives made); the outputs are compared with actk accurate's.
      cols[0].call();
      std::copy(y, y + n, ref.begin());
      for (column &c : cols) {
        if (c.kind == column::FLOOR) c.call(); // made (oneDNN) and warm, not checked
        if (c.kind == column::COPY || c.kind == column::FLOOR) continue;
        std::fill(y, y + n, NAN);
        c.call();
        if (&c == &cols[0]) continue;
        const bool fast = c.kind == column::ACTK;
        verdict v =
            fast ? compare(y, ref.data(), n, fast_tol) : compare(y, ref.data(), n, peer_tol);
        st.poll(c);
        if (v.worst <= 1.0) continue;
        const float xi = x[v.at] + (rw.bias ? bias[v.at % w] : 0.0f);
        notes.push_back(F("%s %s: off by up to %.3g x its tolerance (%s): at x%s = %.9g it gives "
                          "%.9g, actk accurate %.9g%s",
                          c.name.c_str(), rw.name, v.worst,
                          fast ? "2^-17 relative" : "1e-4 absolute or 1e-3 relative",
                          rw.bias ? " + bias" : "", (double)xi, (double)y[v.at], (double)ref[v.at],
                          fast ? "" : "; not timed"));
        if (fast)
          st.fail("actk fast failed its check");
        else
          c.off = true;
      }
      if (!time_checked(cols, opt, calls, n, st, &floors_seen)) {
        std::printf("%-15s actk failed: %s\n", rw.name, st.why.c_str());
        csv_cell("f32", n, rw.name, "status", "failed");
        status = 1;
        for (const std::string &s : notes) {
          std::printf("  note: %s\n", s.c_str());
          csv_note("note: " + s);
        }
        notes.clear();
        continue;
      }

      const column *ca = find(cols, "acc"), *cf = find(cols, "fast"), *best = nullptr;
      for (const column &c : cols)
        if (c.kind == column::PEER && c.peer != libm && c.usable() &&
            (!best || c.med() < best->med()))
          best = &c;
      const double acc_t = ca->med(), fast_t = cf ? cf->med() : NAN;
      const double best_t = best ? best->med() : INFINITY;
      std::string line = F("%-15s %7.3f", rw.name, acc_t);
      line += cf ? F(" %7.3f", fast_t) : F(" %7s", "-");
      for (const baseline *b : peers)
        line += peer_cell(cols, b, std::max(7, (int)std::strlen(b->name)));
      line += best && cf ? F(" %9.2f %-11s", fast_t / best_t, best->name.c_str())
                         : F(" %9s %-11s", "-", best ? best->name.c_str() : "-");
      line += best ? F(" %8.2f", acc_t / best_t) : F(" %8s", "-");
      const column *cl = find(cols, "libm");
      line += cl && cl->usable() ? F(" %8.3f", cl->med()) : F(" %8s", cl ? "off" : "-");
      line += F(" %6.3f %5.1f%%", med(cols, "copy"), 100.0 * spread_of({ca, cf, best}));
      csv_row("f32", n, rw.name, cols);
      csv_cell("f32", n, rw.name, "spread", F("%.4f", spread_of({ca, cf, best})));
      if (si == 0)
        small_acc[o] = acc_t, small_fast[o] = fast_t;
      else // NaN: a row missing at 64 Ki or no fast tier
        line += F("  %9.2f %10.2f", acc_t / small_acc[o], fast_t / small_fast[o]);
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
    }
    for (const std::string &s : notes) {
      std::printf("  note: %s\n", s.c_str());
      csv_note("note: " + s);
    }
    for (float *p : {x, y, bias}) free_floats(p);
  }
  actk_isa_force(before);
  return status;
}

// ---- --gated: the packed gated ops against ggml's fused GLU and the two-pass way ----
//
// Rows: each gated op (swiglu, geglu, geglu_tanh; --ops) in each type (f32,
// f16, bf16; --dtypes), at about 64 Ki and 4 Mi elements of y: rows of d (--d,
// default 4096; Llama-3-8B's MLP: 14336) x = [rows][2d], gate first. Columns,
// interleaved, checked first as in the other tables (ns per element of y):
// actk packed accurate and fast; act (the fast activation alone on the gate
// halves: the packed call's floor); actk_2p (the two-pass way with actk: the
// activation into scratch, then bench_ops.h's gated_mul for the forced
// isa); the gated peers built (bench_ops.h's gated_peer: ggml's fused GLU,
// packed and split, and its two-pass graph, each build; ATen's two-pass),
// their fixed cost per call subtracted; copy (memcpy of y's bytes, the
// control). Ratios: fast / ggml's fused GLU of the build for the isa (the
// faster of packed and split), fast / the fastest two-pass way (actk_2p, or a
// peer's for the isa). A peer up to 8x over its check's tolerance is timed and
// said (ggml's tanh-form GELU reads an f16 table); further out, "off".
// --csv: the same rows as CSV (a header line of named columns; the notes and
// the header as "# " lines), for a table script to merge.

// A 16-bit or f32 element of type t (0 f32, 1 f16, 2 bf16) at p[i], as a float.
float elem(int t, const void *p, size_t i) {
  if (t == 0) return static_cast<const float *>(p)[i];
  const uint16_t h = static_cast<const uint16_t *>(p)[i];
  return t == 1 ? actk_f16_to_f32(h) : actk_bf16_to_f32(h);
}

// Whether a gated peer's column is the one for the forced isa (ggml's AVX2
// build goes with --isa avx2, its native build with avx512; torch picks its
// code by itself: ATEN_CPU_CAPABILITY=avx2 makes it take its AVX2 kernels).
bool peer_for_isa(const gated_peer *p, actk_isa isa) {
  return !p->isa || !std::strcmp(p->isa, actk_isa_name(isa));
}

int gated_main(const options &opt, const char *argv0) {
  // rows: each gated op and type of the catalog, [accurate, fast]
  struct grow {
    const char *name;
    int type;
    const actk_gated_info *e[2];
  };
  std::vector<grow> rows;
  for (const auto *list : {&opt.ops, &opt.dtypes}) // every name given must be one
    for (const std::string &name : *list) {
      bool known = false;
      for (size_t i = 0; i < actk_gated_catalog_size; i++)
        known |= name ==
                 (list == &opt.ops ? actk_gated_catalog[i].name : actk_gated_catalog[i].type_name);
      if (!known) {
        std::fprintf(stderr, "actk_ratio --gated: unknown %s '%s'\n",
                     list == &opt.ops ? "op" : "type", name.c_str());
        return usage(argv0);
      }
    }
  for (size_t i = 0; i < actk_gated_catalog_size; i++) {
    const actk_gated_info *g = &actk_gated_catalog[i];
    if (!listed(opt.ops, g->name) || !listed(opt.dtypes, g->type_name)) continue;
    auto it = std::find_if(rows.begin(), rows.end(), [&](const grow &r) {
      return !std::strcmp(r.name, g->name) && r.type == g->type;
    });
    if (it == rows.end()) rows.push_back(grow{g->name, g->type, {}}), it = rows.end() - 1;
    it->e[std::strcmp(g->tier_name, "fast") ? 0 : 1] = g;
  }
  rows.erase(
      std::remove_if(rows.begin(), rows.end(), [](const grow &r) { return !r.e[0] || !r.e[1]; }),
      rows.end());
  if (rows.empty() || opt.d == 0) {
    std::fprintf(stderr, "actk_ratio --gated: no gated op of those names and types\n");
    return usage(argv0);
  }
  actk_isa before;
  if (!start(opt, opt.csv ? "# actk_ratio --gated: " : "actk_ratio --gated: ", &before)) return 2;
  const char *hash = opt.csv ? "# " : "";
  std::printf("%sx = [rows][2d] (gate first, actk's packed layout), y = [rows][d], d = %zu; gate: "
              "%s; up: N(0, 1) clipped to [-4, 4]; rounded once to the type\n",
              hash, opt.d, input_description());
  std::printf("%scolumns (ns per element of y, one thread, medians of interleaved repeats):\n"
              "%s  acc fast   actk_<op>_packed_<type>, accurate and fast tiers\n"
              "%s  act        actk_<act>_<type>_fast alone on each row's gate half (the "
              "packed call's floor)\n"
              "%s  actk_2p    the two-pass way with actk: actk_<act>_<type>_fast on each row's "
              "gate half into scratch, then a multiply pass for the isa (16-bit: widened, "
              "multiplied, rounded once)\n",
              hash, hash, hash, hash);
  std::vector<const gated_peer *> peers;
  for (const gated_peer *p : gated_peers()) {
    if (!listed(opt.peers, p->lib->name) && !listed(opt.peers, p->name)) continue;
    if (!p->lib->runnable()) {
      std::printf("%s  %-12s built, cannot run here: %s\n", hash, p->name, p->lib->runtime());
      continue;
    }
    peers.push_back(p);
    std::printf("%s  %-12s %s\n%s  %-12s   at run time: %s\n", hash, p->name, p->describes, hash,
                "", p->lib->runtime());
  }
  if (gated_peers().empty())
    std::printf("%s  (no gated peer built: ggml and torch not found)\n", hash);
  std::printf("%s  copy       memcpy of y's bytes (the control)\n"
              "%sratios: fast / ggml's fused GLU for this isa (the fastest of its forms; bar 1.0), "
              "fast / the fastest two-pass way (bar 0.6); '!' = above the bar\n",
              hash, hash);
  if (opt.csv) {
    std::printf("isa,n,rows,d,op,type,acc,fast,act,actk_2p");
    for (const gated_peer *p : gated_peers()) std::printf(",%s", p->name);
    std::printf(",copy,ggml_fused,two_pass,best_2pass,fast_over_ggml,fast_over_2pass,spread\n");
  }
  std::fflush(stdout);

  const size_t sizes[2] = {65536, 4194304};
  int tally[2][2][2] = {}; // [size][bar]: {above, rows}
  int status = 0;
  for (int si = 0; si < 2; si++) {
    const size_t nrows = std::max<size_t>(1, sizes[si] / opt.d), d = opt.d, n = nrows * d;
    const int calls = si == 0 ? opt.calls : opt.big_calls;
    std::vector<float> gate(n), up(n);
    fill_activations(gate.data(), n, 0x61636b746b5f78ULL);
    fill_bias(up.data(), n, 0x61636b746b5f62ULL);
    // buffers of f32 size, used at each type's element size
    float *x = alloc_floats(2 * n), *y = alloc_floats(n), *scratch = alloc_floats(n);
    std::vector<uint8_t> ref(n * 4);
    std::vector<std::string> notes, floors_seen;
    if (!opt.csv) {
      std::printf("\nrows %zu x d %zu = %zu elements of y, %d interleaved repeats x %d calls, "
                  "medians, ns/element (%s)\n",
                  nrows, d, n, opt.repeats, calls,
                  opt.thread_clock ? "thread CPU time" : "wall clock");
      std::string head =
          F("%-10s %-4s %6s %6s %6s %7s", "op", "type", "acc", "fast", "act", "actk_2p");
      for (const gated_peer *p : peers)
        head += F(" %*s", std::max(6, (int)std::strlen(p->name)), p->name);
      head += F(" %6s %9s %9s %-12s %6s", "copy", "fast/ggml", "fast/2p", "best 2-pass", "spread");
      std::printf("%s\n", head.c_str());
    }
    for (const grow &rw : rows) {
      const int t = rw.type;
      const size_t es = rw.e[0]->esize;
      for (size_t r = 0; r < nrows; r++)
        for (size_t j = 0; j < 2 * d; j++) {
          const float v = j < d ? gate[r * d + j] : up[r * d + j - d];
          const size_t i = r * 2 * d + j;
          if (t == 0)
            x[i] = v;
          else
            reinterpret_cast<uint16_t *>(x)[i] = t == 1 ? actk_f32_to_f16(v) : actk_f32_to_bf16(v);
        }
      const actk_op_info *act = actk_catalog_find(rw.e[1]->activation, "fast", rw.e[1]->type_name);
      run_state st(rw.name, &notes);
      std::vector<column> cols;
      for (int k = 0; k < 2; k++) {
        const actk_gated_info *g = rw.e[k];
        run_state *sp = &st;
        cols.emplace_back(column::ACTK, k ? "fast" : "acc", t, [=]() {
          actk_status s = g->call_packed(nullptr, x, y, nrows, d);
          if (s != ACTK_OK && sp->status == ACTK_OK) sp->status = s;
          return s;
        });
      }
      if (act) {
        run_state *sp = &st;
        cols.emplace_back(column::ENGINE, "actk_2p", t, [=]() {
          actk_status s = ACTK_OK;
          const char *xb = reinterpret_cast<const char *>(x);
          char *sb = reinterpret_cast<char *>(scratch), *yb = reinterpret_cast<char *>(y);
          for (size_t r = 0; r < nrows && s == ACTK_OK; r++)
            s = actk_op_call(act, nullptr, xb + 2 * r * d * es, nullptr, 0, sb + r * d * es, d,
                             0.0f);
          for (size_t r = 0; r < nrows; r++)
            gated_mul(t, sb + r * d * es, xb + (2 * r + 1) * d * es, yb + r * d * es, d);
          if (s != ACTK_OK && sp->status == ACTK_OK) sp->status = s;
          return s;
        });
      }
      if (act) { // the activation alone on the gate halves: what the packed call cannot beat
        run_state *sp = &st;
        cols.emplace_back(column::ENGINE, "act", t, [=]() {
          actk_status s = ACTK_OK;
          const char *xb = reinterpret_cast<const char *>(x);
          char *yb = reinterpret_cast<char *>(y);
          for (size_t r = 0; r < nrows && s == ACTK_OK; r++)
            s = actk_op_call(act, nullptr, xb + 2 * r * d * es, nullptr, 0, yb + r * d * es, d,
                             0.0f);
          if (s != ACTK_OK && sp->status == ACTK_OK) sp->status = s;
          return s;
        });
      }
      for (const gated_peer *p : peers) {
        gated_fn k = gated_peer_kernel(p, rw.name, t);
        if (!k) continue;
        cols.emplace_back(
            column::PEER, p->name, t,
            [=]() {
              k(x, y, scratch, nrows, d);
              return ACTK_OK;
            },
            p, p->lib->error);
        if (p->lib->fixed_cost) // one row of 16: its fixed cost per call
          cols.emplace_back(column::FLOOR, std::string(p->name) + ".floor", t, [=]() {
            k(x, y, scratch, 1, 16);
            return ACTK_OK;
          });
      }
      cols.emplace_back(column::COPY, "copy", t, [=]() {
        std::memcpy(y, x, n * es);
        return ACTK_OK;
      });

      // The checks, before any timing: every column's y against actk
      // accurate's (the reference): actk fast within its tier's bound (f32:
      // 2^-17 relative; 16-bit: 1 step of the type), the two-pass ways and the
      // peers within 1e-4 absolute or 1e-3 relative (16-bit: or 2 steps of
      // the type: a two-pass way rounds twice). A peer outside is "off", not
      // timed; actk fast outside fails the run.
      cols[0].call();
      std::memcpy(ref.data(), y, n * es);
      for (column &c : cols) {
        if (c.kind == column::FLOOR) c.call(); // made and warm, not checked
        if (c.kind == column::COPY || c.kind == column::FLOOR || &c == &cols[0] || c.name == "act")
          continue;
        std::memset(y, 0xff, n * es); // NaN in every type
        c.call();
        st.poll(c);
        if (c.err) continue;
        const bool fast = c.kind == column::ACTK;
        double worst = 0;
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
          const double r = elem(t, ref.data(), i), v = elem(t, y, i), dd = std::fabs(v - r);
          double q;
          if (std::isnan(r) || std::isnan(v))
            q = std::isnan(r) && std::isnan(v) ? 0 : INFINITY;
          else if (t != 0) {
            const int steps = distance16(reinterpret_cast<const uint16_t *>(y)[i],
                                         reinterpret_cast<const uint16_t *>(ref.data())[i], t == 2);
            q = fast ? steps : std::min(steps / 2.0, dd / peer_tol(r));
          } else
            q = dd / (fast ? fast_tol(r) : peer_tol(r));
          if (q > worst) worst = q, at = i;
        }
        if (worst <= 1.0) continue;
        // a peer up to 8x over (ggml's GELU through its f16 table: about 2x)
        // computed the op, less closely: timed, and said
        const bool off = fast || worst > 8.0;
        const size_t gi = at / d * 2 * d + at % d;
        notes.push_back(F("%s %s %s: off by up to %.3g x its tolerance: at gate %.9g, up %.9g it "
                          "gives %.9g, actk accurate %.9g%s",
                          c.name.c_str(), rw.name, kTypeName[t], worst, (double)elem(t, x, gi),
                          (double)elem(t, x, gi + d), (double)elem(t, y, at),
                          (double)elem(t, ref.data(), at),
                          fast  ? ""
                          : off ? "; not timed"
                                : " (within 8x: still timed)"));
        if (fast)
          st.fail("actk fast failed its check");
        else
          c.off = off;
      }
      if (!time_checked(cols, opt, calls, n, st, &floors_seen)) {
        std::printf("%s%-10s %-4s actk failed: %s\n", hash, rw.name, kTypeName[t], st.why.c_str());
        status = 1;
        continue;
      }
      // the bars' denominators: ggml's fused GLU for this isa, the fastest two-pass way
      const column *fused = nullptr, *two = find(cols, "actk_2p");
      if (two && !two->usable()) two = nullptr;
      for (const column &c : cols) {
        if (c.kind != column::PEER || !c.usable()) continue;
        const auto *p = static_cast<const gated_peer *>(c.peer);
        if (!peer_for_isa(p, opt.isa)) continue;
        const column *&best = p->two_pass ? two : fused;
        if (!best || c.med() < best->med()) best = &c;
      }
      const double fast_t = med(cols, "fast");
      const double rg = fused ? fast_t / fused->med() : NAN, r2 = two ? fast_t / two->med() : NAN;
      const double spread = spread_of({find(cols, "fast"), fused, two});
      for (int b = 0; b < 2; b++) {
        const double rv = b ? r2 : rg;
        if (std::isnan(rv)) continue;
        tally[si][b][0] += !(rv <= (b ? 0.6 : 1.0));
        tally[si][b][1]++;
      }
      if (opt.csv) {
        std::string line =
            F("%s,%zu,%zu,%zu,%s,%s", actk_isa_name(opt.isa), n, nrows, d, rw.name, kTypeName[t]);
        auto cell = [&](const char *nm) {
          const column *c = find(cols, nm);
          return c && c->usable() ? F(",%.4f", c->med()) : std::string(",");
        };
        line += cell("acc") + cell("fast") + cell("act") + cell("actk_2p");
        for (const gated_peer *p : gated_peers()) line += cell(p->name);
        line += cell("copy");
        line += fused ? F(",%.4f", fused->med()) : std::string(",");
        line += two ? F(",%.4f,%s", two->med(), two->name.c_str()) : std::string(",,");
        line += std::isnan(rg) ? std::string(",") : F(",%.3f", rg);
        line += std::isnan(r2) ? std::string(",") : F(",%.3f", r2);
        line += F(",%.3f", spread);
        std::printf("%s\n", line.c_str());
      } else {
        std::string line = F("%-10s %-4s %6.3f %6.3f %6.3f", rw.name, kTypeName[t],
                             med(cols, "acc"), fast_t, med(cols, "act"));
        const column *c2 = find(cols, "actk_2p");
        line += c2 && c2->usable() ? F(" %7.3f", c2->med()) : F(" %7s", c2 ? "off" : "-");
        for (const gated_peer *p : peers)
          line += peer_cell(cols, p, std::max(6, (int)std::strlen(p->name)));
        line += F(" %6.3f", med(cols, "copy"));
        line += std::isnan(rg) ? F(" %9s", "-") : F(" %8.2f%c", rg, rg <= 1.0 ? ' ' : '!');
        line += std::isnan(r2) ? F(" %9s", "-") : F(" %8.2f%c", r2, r2 <= 0.6 ? ' ' : '!');
        line += F(" %-12s %5.1f%%", two ? two->name.c_str() : "-", 100.0 * spread);
        std::printf("%s\n", line.c_str());
      }
      std::fflush(stdout);
    }
    for (const std::string &s : notes) std::printf("%snote: %s\n", hash, s.c_str());
    for (float *p : {x, y, scratch}) free_floats(p);
  }
  for (int si = 0; si < 2; si++)
    std::printf("%sbars at %zu: fast/ggml <= 1.0: %d above of %d; fast/2p <= 0.6: %d above of %d\n",
                hash, sizes[si], tally[si][0][0], tally[si][0][1], tally[si][1][0],
                tally[si][1][1]);
  actk_isa_force(before);
  return status;
}

// ---- --accuracy: what each peer gives up, next to actk's two tiers ----

struct acc_stats {
  double max_rel = 0, rel_at = 0, max_ulp = 0, core_rel = 0;
  size_t zeros = 0, nans = 0;
};

acc_stats accuracy_of(const float *x, const float *y, const double *r, size_t n) {
  acc_stats s;
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
      int e = std::max(r[i] != 0 ? std::ilogb(r[i]) : -126, -126);
      rel = d / std::fmax(std::fabs(r[i]), 0x1p-126);
      ulp = d / std::ldexp(1.0, e - 23);
      if (y[i] == 0 && std::fabs(r[i]) >= 0x1p-126) s.zeros++;
    }
    if (rel > s.max_rel) s.max_rel = rel, s.rel_at = x[i];
    if (std::fabs(x[i]) <= 8.0f && rel > s.core_rel) s.core_rel = rel;
    if (ulp > s.max_ulp) s.max_ulp = ulp;
  }
  return s;
}

int accuracy_main(const options &opt, const char *argv0) {
  bool bad_op = false;
  std::vector<row> rows = rows_of(bench_ops(), opt, &bad_op);
  if (bad_op) return usage(argv0);
  actk_isa before;
  if (!start(opt, "actk_ratio --accuracy: ", &before)) return 2;
  auto wanted = [&](const baseline *b) { // libm always: the plain loop's accuracy
    return b->runnable() && (listed(opt.peers, b->name) || !std::strcmp(b->name, "libm"));
  };
  for (const baseline *b : baselines())
    if (wanted(b)) std::printf("  %-12s %s\n", b->name, b->describes);
  std::vector<float> xs;
  for (uint64_t i = 0; i < (1ULL << 32); i += opt.stride) {
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
  std::printf("%zu inputs: every %llu-th bit pattern (%zu, NaNs skipped) and every 257th float in "
              "[-120, -2] (%zu)\n",
              n, (unsigned long long)opt.stride, dense, n - dense);
  std::printf("\n%-11s %-12s %10s %7s %15s %11s %10s %7s %7s\n", "op", "kernel", "max_rel", "log2",
              "at x", "max_ulp", "rel|x|<=8", "zero", "nan");
  int status = 0;
  for (const row &r : rows) {
    if (r.bias || !r.e[0][0]) continue;
    // a param op (elu) at the alpha run_actk and the peers use (peer_accuracy
    // called the NULL ref of such an op and crashed at elu)
    const actk_op_info *info = r.e[0][0]->info;
    for (size_t i = 0; i < n; i++)
      ref[i] =
          info->ref ? info->ref((double)x[i]) : info->ref_param((double)x[i], info->unary_alpha);
    auto report = [&](const char *who) {
      acc_stats s = accuracy_of(x, y, ref.data(), n);
      std::printf("%-11s %-12s %10.3g %7.1f %15.9g %11.4g %10.3g %7zu %7zu\n", r.name, who,
                  s.max_rel, s.max_rel > 0 ? std::log2(s.max_rel) : -INFINITY, s.rel_at, s.max_ulp,
                  s.core_rel, s.zeros, s.nans);
    };
    for (int tier = 0; tier < 2; tier++) {
      if (!r.e[0][tier]) continue;
      const char *who = tier ? "actk_fast" : "actk_acc";
      actk_status st = run_actk(*r.e[0][tier], x, nullptr, 0, y, n);
      if (st != ACTK_OK) {
        std::printf("%-11s %-12s failed: %s\n", r.name, who, actk_status_string(st));
        status = 1;
        continue;
      }
      report(who);
    }
    for (const baseline *b : baselines()) {
      kernel_fn k = wanted(b) ? baseline_kernel(b, r.name) : nullptr;
      if (!k) continue;
      k(x, nullptr, 0, y, n);
      if (b->error)
        if (const char *e = b->error()) {
          std::printf("%-11s %-12s error: %s\n", r.name, b->name, e);
          continue;
        }
      report(b->name);
    }
    std::fflush(stdout);
  }
  if (actk_isa_active() != opt.isa) {
    std::printf("the active isa changed during the run\n");
    status = 1;
  }
  free_floats(x);
  free_floats(y);
  actk_isa_force(before);
  return status;
}
} // namespace

int main(int argc, char **argv) {
  options opt;
  opt.isa = actk_isa_best();
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!std::strcmp(a, "--quick")) {
      opt.repeats = 7, opt.calls = 5, opt.big_calls = 1;
    } else if (!std::strcmp(a, "--types")) {
      opt.types = true;
    } else if (!std::strcmp(a, "--accuracy")) {
      opt.accuracy = true;
    } else if (!std::strcmp(a, "--gated")) {
      opt.gated = true;
    } else if (!std::strcmp(a, "--csv")) {
      opt.csv = true;
    } else if (!std::strcmp(a, "--dtypes") && i + 1 < argc) {
      opt.dtypes = split(argv[++i]);
    } else if (!std::strcmp(a, "--d") && i + 1 < argc) {
      int v;
      if (!parse_int(argv[++i], &v)) return usage(argv[0]);
      opt.d = (size_t)v;
    } else if (!std::strcmp(a, "--stride") && i + 1 < argc) {
      char *end;
      opt.stride = std::strtoull(argv[++i], &end, 0);
      if (opt.stride == 0 || *end) return usage(argv[0]);
    } else if (!std::strcmp(a, "--isa") && i + 1 < argc) {
      const char *name = argv[++i];
      bool found = false;
      for (int v = 0; actk_isa_name((actk_isa)v); v++)
        if (!std::strcmp(actk_isa_name((actk_isa)v), name)) opt.isa = (actk_isa)v, found = true;
      if (!found) {
        std::fprintf(stderr, "actk_ratio: unknown isa '%s'\n", name);
        return usage(argv[0]);
      }
      opt.isa_given = true;
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
    } else if (!std::strcmp(a, "--csv-out") && i + 1 < argc) {
      if (!(g_csv = std::fopen(argv[++i], "w"))) {
        std::fprintf(stderr, "actk_ratio: cannot write %s\n", argv[i]);
        return 2;
      }
      std::setvbuf(g_csv, nullptr, _IOLBF, 0); // whole lines, whatever ends the run
    } else {
      return usage(argv[0]);
    }
  }
  if (opt.csv && !opt.gated) return usage(argv[0]); // only --gated writes CSV
  if (opt.gated) return gated_main(opt, argv[0]);
  if (opt.accuracy) return accuracy_main(opt, argv[0]);
  return opt.types ? types_main(opt) : f32_main(opt, argv[0]);
}
