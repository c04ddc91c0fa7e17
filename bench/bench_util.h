/* bench_util: measurement and output helpers for the plain-C bench programs
 * (actk_pool_bench, actk_gated_bench, actk_pool_ab).
 *
 *   time      now_ns, sleep_ns, gap_wait (busy below SLEEP_MIN_US, asleep
 *             from there), par_calls (actk_runner_parallel_calls),
 *             bench_wait_all (a rendezvous's wait)
 *   stats     pct (nearest rank), median_rank_u64 (pct 50), median_u64
 *             (mean of the two middle ones)
 *   measure   interleaved blocks of a few variants of one call, medians
 *   planner   the dispatch costs src/pool.c plans with, and what the planner
 *             does with n elements (plan_str)
 *   output    aligned tables or CSV (g_csv): col, F, US, kib, par_pct, note,
 *             t_head, t_row
 *   options   bench_in_list (a name in a comma-separated list), bench_parse_list
 *             (a comma-separated list of numbers)
 *   pinning   bench_pin_self_to
 *   misc      bench_flag (--quick, --csv, --csv-out=FILE, --pin), bench_init (timer
 *             slack, line-buffered stdout, the name die() prints),
 *             bench_header (a run's first notes), die, xalloc
 *
 * Reads the internals through bench_internal.h, the one way bench/ does: link
 * actk_static and add src/ to the include path. */
#ifndef ACTK_BENCH_UTIL_H
#define ACTK_BENCH_UTIL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "actk.h"
#include "bench_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
static inline void cpu_relax(void) { _mm_pause(); }
#else
static inline void cpu_relax(void) {}
#endif

#define SLEEP_MIN_US 100u /* gaps from here on sleep; shorter ones busy-wait */
#define BLOCK_CALLS 8     /* timed calls per interleaved block */
#define WARM_NS 60000u    /* untimed calls before each block (at least one) */

/* The options the programs take: --quick (shorter budgets), --csv (tables
 * as CSV with the section name first, notes as "# " lines), --csv-out=FILE
 * (the tables as text on stdout and, the same run, as CSV into FILE, notes
 * too), --pin (the caller and the pool's workers on CPUs of their own; each
 * program says how). */
extern int g_quick, g_csv, g_pin;
extern FILE *g_csv_out; /* --csv-out's file, or NULL */

/* 1 if arg is --quick, --csv, --csv-out=FILE or --pin (and sets its flag),
 * else 0 (a --csv-out file that cannot be opened: die) */
int bench_flag(const char *arg);

/* Timer slack 1 ns (Linux: a sleep is the gap asked for), stdout line
 * buffered, and prog as the name die() prints. Call in main once the options
 * are read, before any output. */
void bench_init(const char *prog);

/* A run's first two notes: "what: actk <version>, isa <active>, --quick or full
 * run; online cpus, /proc/loadavg's averages (-1: unreadable)" and "cpu: ..." */
void bench_header(const char *what);

/* 1 if name is one of the comma-separated list's entries (list NULL: every name) */
int bench_in_list(const char *list, const char *name);

/* A comma-separated list of unsigned numbers, each at most max, into v (at most cap
 * of them): their count, or -1 if s is not such a list */
int bench_parse_list(const char *s, unsigned *v, int cap, unsigned long max);

/* the calling thread on CPU cpu alone (Linux; elsewhere nothing) */
void bench_pin_self_to(int cpu);

/* prints "prog: what: status" to stderr and exits 1 */
void die(const char *what, actk_status st);

/* 64-byte aligned and zeroed (every page touched before timing), dies when
 * out of memory */
void *xalloc(size_t bytes);
/* n floats in [-5, 5) from a fixed LCG (every program the same inputs) */
float *bench_inputs(size_t n);

/* ---- time ---- */

uint64_t now_ns(void);
void sleep_ns(uint64_t ns);
/* The idle gap before a call: busy below SLEEP_MIN_US, asleep from there. */
void gap_wait(unsigned us);
/* calls that took the runner's parallel branch so far */
unsigned long par_calls(void);
/* Spins until *arrived reaches n (the threads of a rendezvous, each having
 * counted itself in): 1, or 0 once timeout_ns have passed. */
int bench_wait_all(atomic_uint *arrived, unsigned n, uint64_t timeout_ns);

/* ---- statistics ---- */

/* Nearest-rank percentile (sorts v). */
double pct(uint64_t *v, size_t n, double p);
/* pct(v, n, 50): the lower middle sample for even n (sorts v) */
double median_rank_u64(uint64_t *v, size_t n);
/* the middle sample, or the mean of the two middle ones (sorts v) */
double median_u64(uint64_t *v, size_t n);

/* ---- interleaved measurement of a few variants of one call ---- */

typedef void (*call_fn)(void *ctx);

typedef struct variant {
  const char *name;
  call_fn fn;
  void *ctx;
  uint64_t *s; /* per-call times */
  size_t ns, cap;
  unsigned long par; /* parallel-branch calls among the timed ones */
  double med;
} variant;

/* Rounds of blocks, one block per variant in rotating order: a settle sleep
 * of settle_us (none if 0), untimed calls for WARM_NS (so a gap-0 block runs
 * in steady state), then BLOCK_CALLS timed calls, each after the gap. Runs at
 * least min_reps rounds and stops when budget_ms is spent (or max_reps).
 * v[j].med = median(all of v[j]'s timed calls). */
void measure(variant *v, int nv, unsigned gap_us, unsigned settle_us, double budget_ms,
             int min_reps, int max_reps, double (*median)(uint64_t *, size_t));

/* ---- the planner ---- */

/* The hot and cold dispatch costs src/pool.c plans with, read back through
 * actk_pool_dispatch_cost_ns by probe_dispatch_costs (src/plan.h's defaults
 * until then): a pool whose workers have parked (cold), and one whose workers
 * are still spinning after a job (hot; the least of up to 5 tries, since a
 * worker of a machine busy elsewhere may not have started spinning). Probe
 * before pinning the caller: it needs two CPUs. */
extern uint64_t g_hot_ns, g_cold_ns;
void probe_dispatch_costs(void);

/* What the planner does with n elements: "skip" (below
 * actk_plan_min_parallel: the pool is not even read), "serial", or
 * "<threads>x<chunks>". */
const char *plan_str(size_t n, size_t granule, unsigned threads, actk_cost cost, uint64_t disp);

/* ---- output: aligned tables, or CSV with the section name first ---- */

typedef struct col {
  const char *name;
  int width;
} col;

/* printf into one of a ring of 64 buffers, for building a row inline */
const char *F(const char *fmt, ...);
/* microseconds with a precision that suits the size */
const char *US(double ns);
/* a line of text (a "# " comment under --csv) */
void note(const char *fmt, ...);
void t_head(const char *sec, const col *c, int nc);
void t_row(const char *sec, const col *c, int nc, const char *const *v);
/* n as "<n/Ki>Ki" or, from 1 Mi, "<n/Mi>Mi" */
const char *kib(size_t n);
/* the share of v's timed calls that took the parallel branch, in percent ("-"
 * if none timed; "0!" when flag_zero and none went parallel) */
const char *par_pct(const variant *v, int flag_zero);

#endif
