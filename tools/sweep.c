/* actk_sweep: measure one op on one instruction set against its double
 * reference over every float (2^32 bit patterns), or a deterministic stride of
 * them, on all cores. Prints the max ULP error, where it occurs, the max
 * relative error (|y - r| / max(|r|, 2^-126)) and a histogram; exits 1 if the
 * max exceeds --bound or any special value is wrong.
 *
 *   actk_sweep OP [--isa NAME] [--stride S] [--threads N] [--bound B]
 *                 [--tier NAME]      accurate (default)
 *                 [--alpha A]        for a param op (swish): its alpha (default 1)
 *                 [--vs-isa NAME]    also require bit identity with another set
 *                 [--from X --to Y]  only floats in [X, Y] (same sign), for analysis
 *
 * OP is any unary or param op of the catalog (tools/catalog.h: erf, tanh, ...,
 * swish), or all (the unary ops). The kernels are called through the
 * implementation tables directly (XNNPACK's eval style), so the forced
 * instruction set is exactly the one measured. */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "dispatch.h"
#include "reference.h"

#define BLOCK 65536
#define NBUCKET 7
static const char *const bucket_name[NBUCKET] = {"0",       "(0,0.5]", "(0.5,1]", "(1,1.5]",
                                                 "(1.5,2]", "(2,4]",   ">4"};

typedef struct {
  const actk_op_info *op;
  float alpha; /* param ops */
  const actk_impl *impl, *vs;
  uint64_t stride, count; /* patterns first + i*stride for i < count */
  uint32_t first;
  uint64_t next; /* next block, shared */
  pthread_mutex_t lock;
} job;

typedef struct {
  double max_err;
  uint32_t max_at;
  double max_rel;
  uint32_t max_rel_at;
  uint64_t hist[NBUCKET];
  uint64_t failures; /* infinite error: NaN, sign or infinity wrong */
  uint32_t first_failure;
  uint64_t mismatches; /* bits differ from the --vs-isa impl */
  uint32_t first_mismatch;
} tally;

static void run_op(const job *j, const actk_impl *impl, const float *x, float *y, size_t n) {
  const actk_op_info *op = j->op;
  if (op->shape == ACTK_SHAPE_PARAM)
    impl->param[op->id][op->tier][op->type](x, y, n, j->alpha);
  else
    impl->unary[op->id][op->tier][op->type](x, y, n);
}

static double ref_of(const job *j, double x) {
  return j->op->shape == ACTK_SHAPE_PARAM ? j->op->ref_param(x, (double)j->alpha) : j->op->ref(x);
}

static int bucket_of(double e) {
  if (e == 0) return 0;
  if (e <= 0.5) return 1;
  if (e <= 1) return 2;
  if (e <= 1.5) return 3;
  if (e <= 2) return 4;
  if (e <= 4) return 5;
  return 6;
}

static void *worker(void *arg) {
  job *j = ((void **)arg)[0];
  tally *t = ((void **)arg)[1];
  float *x = malloc(BLOCK * sizeof(float)), *y = malloc(BLOCK * sizeof(float));
  float *y2 = malloc(BLOCK * sizeof(float));
  memset(t, 0, sizeof *t);
  t->max_err = -1;
  t->max_rel = -1;
  for (;;) {
    pthread_mutex_lock(&j->lock);
    uint64_t b = j->next++;
    pthread_mutex_unlock(&j->lock);
    uint64_t i0 = b * BLOCK;
    if (i0 >= j->count) break;
    size_t n = (size_t)((j->count - i0) < BLOCK ? (j->count - i0) : BLOCK);
    for (size_t k = 0; k < n; k++) {
      uint32_t u = (uint32_t)(j->first + (i0 + k) * j->stride);
      memcpy(&x[k], &u, 4);
    }
    run_op(j, j->impl, x, y, n);
    if (j->vs) run_op(j, j->vs, x, y2, n);
    for (size_t k = 0; k < n; k++) {
      uint32_t u;
      memcpy(&u, &x[k], 4);
      double r = ref_of(j, (double)x[k]);
      double e = actk_ulp_error(y[k], r);
      if (isinf(e)) {
        if (!t->failures++) t->first_failure = u;
        continue;
      }
      t->hist[bucket_of(e)]++;
      if (e > t->max_err) {
        t->max_err = e;
        t->max_at = u;
      }
      double rel = actk_rel_error(y[k], r);
      if (rel > t->max_rel) {
        t->max_rel = rel;
        t->max_rel_at = u;
      }
      if (j->vs && memcmp(&y[k], &y2[k], 4) != 0 && !(isnan(y[k]) && isnan(y2[k]))) {
        if (!t->mismatches++) t->first_mismatch = u;
      }
    }
  }
  free(x);
  free(y);
  free(y2);
  return NULL;
}

static float as_float(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static int sweep_one(const actk_op_info *op, float alpha, const actk_impl *impl,
                     const actk_impl *vs, uint64_t stride, int threads, double bound,
                     uint32_t first, uint64_t span) {
  job j = {.op = op, .alpha = alpha, .impl = impl, .vs = vs, .stride = stride, .first = first};
  j.count = (span + stride - 1) / stride;
  pthread_mutex_init(&j.lock, NULL);
  pthread_t th[256];
  tally tl[256];
  void *args[256][2];
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int started = 0;
  for (int i = 0; i < threads; i++) {
    args[i][0] = &j;
    args[i][1] = &tl[i];
    if (pthread_create(&th[started], NULL, worker, args[i]) == 0) started++;
  }
  if (started == 0) worker(args[0]); /* no threads: sweep on this one */
  tally all = {.max_err = -1, .max_rel = -1};
  for (int i = 0; i < (started ? started : 1); i++) {
    if (started) pthread_join(th[i], NULL);
    for (int b = 0; b < NBUCKET; b++) all.hist[b] += tl[i].hist[b];
    if (tl[i].max_err > all.max_err ||
        (tl[i].max_err == all.max_err && tl[i].max_at < all.max_at)) {
      all.max_err = tl[i].max_err;
      all.max_at = tl[i].max_at;
    }
    if (tl[i].max_rel > all.max_rel ||
        (tl[i].max_rel == all.max_rel && tl[i].max_rel_at < all.max_rel_at)) {
      all.max_rel = tl[i].max_rel;
      all.max_rel_at = tl[i].max_rel_at;
    }
    if (tl[i].failures && (!all.failures || tl[i].first_failure < all.first_failure))
      all.first_failure = tl[i].first_failure;
    all.failures += tl[i].failures;
    if (tl[i].mismatches && (!all.mismatches || tl[i].first_mismatch < all.first_mismatch))
      all.first_mismatch = tl[i].first_mismatch;
    all.mismatches += tl[i].mismatches;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  int ok = all.max_err <= bound && all.failures == 0 && all.mismatches == 0;
  float xm = as_float(all.max_at);
  char label[48];
  if (op->shape == ACTK_SHAPE_PARAM)
    snprintf(label, sizeof label, "%s(%g)", op->name, (double)alpha);
  else
    snprintf(label, sizeof label, "%s", op->name);
  printf("%-10s %-8s %-6s inputs=%" PRIu64 " max_ulp=%.3f at x=%a (%.9g) y=", label, op->tier_name,
         impl->facts.name, j.count, all.max_err, (double)xm, (double)xm);
  float ym;
  run_op(&j, impl, &xm, &ym, 1);
  printf("%a ref=%a  [%.1fs] %s\n", (double)ym, ref_of(&j, (double)xm), secs, ok ? "ok" : "FAIL");
  float xr = as_float(all.max_rel_at);
  printf("  max relative error %.3g = 2^%.2f at x=%a (%.9g)\n", all.max_rel,
         all.max_rel > 0 ? log2(all.max_rel) : -INFINITY, (double)xr, (double)xr);
  printf("  histogram:");
  for (int b = 0; b < NBUCKET; b++) printf(" %s:%" PRIu64, bucket_name[b], all.hist[b]);
  printf("\n");
  if (all.failures) {
    float xf = as_float(all.first_failure), yf;
    run_op(&j, impl, &xf, &yf, 1);
    printf("  special-value failures: %" PRIu64 ", first at x=%a: y=%a ref=%a\n", all.failures,
           (double)xf, (double)yf, ref_of(&j, (double)xf));
  }
  if (vs) {
    printf("  vs %s: %" PRIu64 " results differ in bits", vs->facts.name, all.mismatches);
    if (all.mismatches) printf(", first at x=%a", (double)as_float(all.first_mismatch));
    printf("\n");
  }
  pthread_mutex_destroy(&j.lock);
  return ok;
}

static const actk_impl *impl_by_name(const char *s) {
  for (int i = 0; actk_isa_name((actk_isa)i); i++) {
    if (strcmp(actk_isa_name((actk_isa)i), s)) continue;
    const actk_impl *a = actk_dispatch_find((actk_isa)i);
    if (!a) fprintf(stderr, "instruction set %s is not supported on this machine\n", s);
    return a;
  }
  fprintf(stderr, "unknown instruction set %s\n", s);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s OP|all [--isa NAME] [--tier NAME] [--alpha A] [--stride S] [--threads N] "
            "[--bound B] [--vs-isa NAME] [--from X --to Y]\n",
            argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* a long sweep into a file shows each op as it ends */
  const char *opname = argv[1];
  const actk_impl *impl = actk_dispatch_active(), *vs = NULL;
  const char *tier = "accurate";
  float alpha = 1.0f;
  uint64_t stride = 1;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = ncpu > 0 ? (int)ncpu : 1;
  double bound = 2.0;
  float from = 0, to = 0;
  int ranged = 0;
  for (int i = 2; i < argc; i += 2) { /* option, value */
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) {
      fprintf(stderr, "%s needs a value\n", a);
      return 2;
    }
    if (!strcmp(a, "--isa"))
      impl = impl_by_name(v);
    else if (!strcmp(a, "--vs-isa"))
      vs = impl_by_name(v);
    else if (!strcmp(a, "--tier"))
      tier = v;
    else if (!strcmp(a, "--alpha"))
      alpha = strtof(v, NULL);
    else if (!strcmp(a, "--stride"))
      stride = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--threads"))
      threads = atoi(v);
    else if (!strcmp(a, "--bound"))
      bound = atof(v);
    else if (!strcmp(a, "--from"))
      from = strtof(v, NULL), ranged = 1;
    else if (!strcmp(a, "--to"))
      to = strtof(v, NULL), ranged = 1;
    else {
      fprintf(stderr, "unknown option %s\n", a);
      return 2;
    }
    if ((!strcmp(a, "--isa") && !impl) || (!strcmp(a, "--vs-isa") && !vs)) return 2;
  }
  if (stride == 0 || threads < 1 || threads > 256) {
    fprintf(stderr, "bad --stride or --threads\n");
    return 2;
  }
  uint32_t first = 0;
  uint64_t span = UINT64_C(1) << 32;
  if (ranged) {
    float lo = fabsf(from) < fabsf(to) ? from : to, hi = lo == from ? to : from;
    uint32_t ulo, uhi;
    memcpy(&ulo, &lo, 4);
    memcpy(&uhi, &hi, 4);
    if (signbit(from) != signbit(to) || uhi < ulo) {
      fprintf(stderr, "--from and --to must have the same sign\n");
      return 2;
    }
    first = ulo;
    span = (uint64_t)(uhi - ulo) + 1;
  }
  int ok = 1, any = 0;
  for (size_t i = 0; i < actk_catalog_size; i++) {
    const actk_op_info *op = &actk_catalog[i];
    if (op->shape == ACTK_SHAPE_BIAS || op->type != ACTK_TYPE_f32 || strcmp(op->tier_name, tier))
      continue;
    if (strcmp(opname, op->name) && (strcmp(opname, "all") || op->shape != ACTK_SHAPE_UNARY))
      continue;
    any = 1;
    ok &= sweep_one(op, alpha, impl, vs, stride, threads, bound, first, span);
  }
  if (!any) {
    fprintf(stderr, "unknown op %s (or tier %s)\n", opname, tier);
    return 2;
  }
  return ok ? 0 : 1;
}
