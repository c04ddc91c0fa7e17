/* bench_util: measurement and output helpers for the plain-C bench programs
 * (see bench_util.h). */
#define _GNU_SOURCE
#include "bench_util.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "harness.h"
#include "bench_internal.h" /* the planner, the pool, the runner, the topology */

int g_quick, g_csv, g_pin;
FILE *g_csv_out;
static const char *g_prog = "bench";

int bench_flag(const char *arg) {
  if (!strcmp(arg, "--quick"))
    g_quick = 1;
  else if (!strcmp(arg, "--csv"))
    g_csv = 1;
  else if (!strncmp(arg, "--csv-out=", 10)) {
    if (g_csv_out) fclose(g_csv_out);
    g_csv_out = fopen(arg + 10, "w");
    if (!g_csv_out) {
      fprintf(stderr, "cannot write %s\n", arg + 10);
      exit(2);
    }
    setvbuf(g_csv_out, NULL, _IOLBF, 0);
  } else if (!strcmp(arg, "--pin"))
    g_pin = 1;
  else
    return 0;
  return 1;
}

void bench_init(const char *prog) {
  g_prog = prog;
#ifdef __linux__
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
  setvbuf(stdout, NULL, _IOLBF, 0);
}

void bench_header(const char *what) {
  double load[3] = {0, 0, 0};
  FILE *la = fopen("/proc/loadavg", "r");
  if (la) {
    if (fscanf(la, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
    fclose(la);
  }
  note("%s: actk %s, isa %s, %s; %ld online cpus, load average %.2f %.2f %.2f", what,
       actk_version_string(), actk_isa_name(actk_isa_active()), g_quick ? "--quick" : "full run",
       sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
  note("cpu: %s", actk_cpu_summary());
}

void die(const char *what, actk_status st) {
  fprintf(stderr, "%s: %s: %s\n", g_prog, what, actk_status_string(st));
  exit(1);
}

void *xalloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 64, bytes) != 0) die("posix_memalign", ACTK_ERR_OUT_OF_MEMORY);
  memset(p, 0, bytes);
  return p;
}

float *bench_inputs(size_t n) {
  float *x = xalloc(n * sizeof(float));
  uint32_t s = 12345;
  for (size_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    x[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * 10.0f;
  }
  return x;
}

/* ---- time ---- */

uint64_t now_ns(void) { return actk_now_ns(); }

void sleep_ns(uint64_t ns) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t t = (uint64_t)ts.tv_nsec + ns;
  ts.tv_sec += (time_t)(t / 1000000000u);
  ts.tv_nsec = (long)(t % 1000000000u);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

void gap_wait(unsigned us) {
  if (us == 0) return;
  if (us < SLEEP_MIN_US) {
    uint64_t end = now_ns() + (uint64_t)us * 1000u;
    while (now_ns() < end) cpu_relax();
    return;
  }
  sleep_ns((uint64_t)us * 1000u);
}

unsigned long par_calls(void) {
  return atomic_load_explicit(&actk_runner_parallel_calls, memory_order_relaxed);
}

/* ---- statistics ---- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

double pct(uint64_t *v, size_t n, double p) {
  if (n == 0) return 0;
  qsort(v, n, sizeof *v, cmp_u64);
  size_t k = (size_t)(p / 100.0 * (double)n + 0.999999);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return (double)v[k - 1];
}

double median_rank_u64(uint64_t *v, size_t n) { return pct(v, n, 50); }

double median_u64(uint64_t *v, size_t n) {
  if (n == 0) return 0;
  qsort(v, n, sizeof *v, cmp_u64);
  return n % 2 ? (double)v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

/* ---- interleaved measurement ---- */

void measure(variant *v, int nv, unsigned gap_us, unsigned settle_us, double budget_ms,
             int min_reps, int max_reps, double (*median)(uint64_t *, size_t)) {
  for (int j = 0; j < nv; j++) {
    v[j].cap = (size_t)max_reps * BLOCK_CALLS;
    v[j].s = malloc(v[j].cap * sizeof *v[j].s);
    if (!v[j].s) die("malloc", ACTK_ERR_OUT_OF_MEMORY);
    v[j].ns = 0;
    v[j].par = 0;
  }
  uint64_t start = now_ns();
  for (int rep = 0; rep < max_reps; rep++) {
    if (rep >= min_reps && (double)(now_ns() - start) > budget_ms * 1e6) break;
    for (int j = 0; j < nv; j++) {
      variant *w = &v[(rep + j) % nv];
      if (settle_us) sleep_ns((uint64_t)settle_us * 1000u);
      /* untimed warm-up: calls for WARM_NS at least, so a woken worker has
       * arrived and a gap-0 block measures the steady state */
      uint64_t warm_end = now_ns() + WARM_NS;
      do w->fn(w->ctx);
      while (now_ns() < warm_end);
      unsigned long p0 = par_calls();
      for (int k = 0; k < BLOCK_CALLS; k++) {
        gap_wait(gap_us);
        uint64_t t0 = now_ns();
        w->fn(w->ctx);
        w->s[w->ns++] = now_ns() - t0;
      }
      w->par += par_calls() - p0;
    }
  }
  for (int j = 0; j < nv; j++) {
    v[j].med = median(v[j].s, v[j].ns);
    free(v[j].s);
    v[j].s = NULL;
  }
}

/* ---- the planner ---- */

uint64_t g_hot_ns = ACTK_DISPATCH_HOT_NS, g_cold_ns = ACTK_DISPATCH_COLD_NS;

static void noop_probe(void *ctx, size_t i) {
  (void)ctx;
  (void)i;
}

void probe_dispatch_costs(void) {
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.spin_us = 0;
  actk_pool *cold = NULL, *hot = NULL;
  if (actk_pool_create(&cfg, &cold) == ACTK_OK && actk_pool_width(cold) > 1) {
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    g_cold_ns = actk_pool_dispatch_cost_ns(cold);
  }
  cfg.spin_us = 200000;
  if (actk_pool_create(&cfg, &hot) == ACTK_OK && actk_pool_width(hot) > 1) {
    /* the pool reads hot once every worker spins; on a machine whose other
     * cores are busy a worker may not have run yet: a few tries, the least */
    for (int k = 0; k < 5; k++) {
      actk_pool_run(hot, noop_probe, NULL, actk_pool_width(hot));
      struct timespec ts = {0, 1000000};
      nanosleep(&ts, NULL);
      uint64_t c = actk_pool_dispatch_cost_ns(hot);
      if (k == 0 || c < g_hot_ns) g_hot_ns = c;
      if (g_hot_ns < g_cold_ns) break;
    }
  }
  actk_pool_destroy(cold);
  actk_pool_destroy(hot);
}

const char *plan_str(size_t n, size_t granule, unsigned threads, actk_cost cost, uint64_t disp) {
  if (n < actk_plan_min_parallel(cost)) return "skip";
  actk_plan p = actk_plan_split(n, granule, threads, cost, disp);
  if (p.n_chunks <= 1) return "serial";
  return F("%ux%zu", p.threads, p.n_chunks);
}

/* ---- output ---- */

const char *F(const char *fmt, ...) {
  static char ring[64][192];
  static unsigned next;
  char *b = ring[next++ % 64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof ring[0], fmt, ap);
  va_end(ap);
  return b;
}

const char *US(double ns) {
  double us = ns / 1000.0;
  return us < 10 ? F("%.3f", us) : us < 1000 ? F("%.1f", us) : F("%.0f", us);
}

void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (g_csv_out) {
    va_list aq;
    va_copy(aq, ap);
    fputs("# ", g_csv_out);
    vfprintf(g_csv_out, fmt, aq);
    fputc('\n', g_csv_out);
    va_end(aq);
  }
  if (g_csv) fputs("# ", stdout);
  vprintf(fmt, ap);
  va_end(ap);
  fputc('\n', stdout);
}

static void csv_line(FILE *f, const char *sec, const char *const *v, const col *c, int nc) {
  fprintf(f, "%s", sec);
  for (int i = 0; i < nc; i++) fprintf(f, ",%s", v ? v[i] : c[i].name);
  fprintf(f, "\n");
}

void t_head(const char *sec, const col *c, int nc) {
  if (g_csv_out) csv_line(g_csv_out, sec, NULL, c, nc);
  if (g_csv) {
    csv_line(stdout, sec, NULL, c, nc);
    return;
  }
  int w = 0;
  for (int i = 0; i < nc; i++) {
    printf(i == 0 ? "%-*s" : " %*s", c[i].width, c[i].name);
    w += c[i].width + (i > 0);
  }
  printf("\n");
  for (int i = 0; i < w; i++) putchar('-');
  printf("\n");
}

void t_row(const char *sec, const col *c, int nc, const char *const *v) {
  if (g_csv_out) csv_line(g_csv_out, sec, v, c, nc);
  if (g_csv) {
    printf("%s", sec);
    for (int i = 0; i < nc; i++) printf(",%s", v[i]);
  } else {
    for (int i = 0; i < nc; i++) printf(i == 0 ? "%-*s" : " %*s", c[i].width, v[i]);
  }
  printf("\n");
}

int bench_in_list(const char *list, const char *name) {
  if (!list) return 1;
  size_t len = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == len && !strncmp(p, name, len)) return 1;
    if (!e) break;
    p = e + 1;
  }
  return 0;
}

int bench_parse_list(const char *s, unsigned *v, int cap, unsigned long max) {
  int k = 0;
  for (const char *p = s; *p && k < cap;) {
    char *end;
    unsigned long x = strtoul(p, &end, 10);
    if (end == p || x > max) return -1;
    v[k++] = (unsigned)x;
    if (*end == ',')
      p = end + 1;
    else if (*end == '\0')
      break;
    else
      return -1;
  }
  return k;
}

void bench_pin_self_to(int cpu) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof set, &set);
#else
  (void)cpu;
#endif
}

const char *kib(size_t n) {
  return n >= ((size_t)1 << 20) ? F("%zuMi", n >> 20) : F("%zuKi", n >> 10);
}

const char *par_pct(const variant *v, int flag_zero) {
  if (v->ns == 0) return "-";
  if (flag_zero && v->par == 0) return "0!";
  return F("%.0f", 100.0 * (double)v->par / (double)v->ns);
}

int bench_wait_all(atomic_uint *arrived, unsigned n, uint64_t timeout_ns) {
  const uint64_t deadline = now_ns() + timeout_ns;
  while (atomic_load(arrived) < n) {
    if (now_ns() > deadline) return 0;
    cpu_relax();
  }
  return 1;
}
