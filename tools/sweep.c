/* actk_sweep: measure one op on one instruction set against its exact
 * reference (tools/exact.h: ties and representable values settled exactly,
 * by MPFR where a double cannot tell) over every float (2^32 bit patterns),
 * or a deterministic stride of them, on all cores. Prints the max ULP error,
 * where it occurs, the max relative error (|y - t| / max(|t|, 2^-126)), the
 * share correctly rounded and a histogram; exits 1 if any result is over
 * the bound or any special value is wrong.
 *
 *   actk_sweep OP [--isa NAME] [--stride S] [--threads N] [--bound B]
 *                 [--tier NAME]      accurate (default) or fast
 *                 [--type NAME]      f32 (default); f16 or bf16: all 65536 inputs, faithful,
 *                                    the share correctly rounded, the max in ULPs of the type
 *                 [--alpha A]        for a param op (swish): its alpha (default 1)
 *                 [--bound ULP] [--rel-bound R]   override the tier's bounds (0: none)
 *                 [--mono 1]         also count steps down between neighbouring floats
 *                                    (ops the registry calls monotone; stride 1 only)
 *                 [--readme 1]       print the op's row of README's accuracy table
 *                 [--vs-isa NAME]    also require bit identity with another set
 *                 [--from X --to Y]  only floats in [X, Y] (same sign), for analysis
 *
 * Over all floats (stride 1, or --stride 4099 alone in seconds) it also counts
 * test_accuracy's sample, every 4099th bit pattern, correctly rounded: the
 * count docs/accuracy.tsv keeps (sample_correct) and the test compares.
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
#include "exact.h"
#include "reference.h"

#define BLOCK 65536
#define NBLOCKS ((UINT64_C(1) << 32) / BLOCK)
#define NBUCKET 7
static const char *const bucket_name[NBUCKET] = {"0",       "(0,0.5]", "(0.5,1]", "(1,1.5]",
                                                 "(1.5,2]", "(2,4]",   ">4"};
/* relative error buckets: 0, then up to 2^-24, -22, -20, -19, -18, more */
#define NRBUCKET 7
static const char *const rbucket_name[NRBUCKET] = {
    "0", "(0,2^-24]", "(2^-24,2^-22]", "(2^-22,2^-20]", "(2^-20,2^-19]", "(2^-19,2^-18]", ">2^-18"};
/* test_accuracy's sample holds every SAMPLE_STRIDE-th bit pattern; a sweep over
 * all 2^32 (or over that stride) also counts that subset's correctly rounded
 * results, which the test then compares exactly (docs/accuracy.tsv's
 * sample_correct): the sample's share is no estimate of the full one */
#define SAMPLE_STRIDE 4099u

typedef struct {
  const actk_op_info *op;
  float alpha; /* param ops */
  double bound_ulp, bound_rel;
  const actk_impl *impl, *vs;
  uint64_t stride, count; /* patterns first + i*stride for i < count */
  uint32_t first;
  uint64_t next; /* next block, shared */
  pthread_mutex_t lock;
  /* --mono: each block's first and last result, for the steps between blocks */
  int mono;
  float *block_first, *block_last;
} job;

typedef struct {
  double max_err;
  uint32_t max_at;
  double max_rel;
  uint32_t max_rel_at;
  uint64_t hist[NBUCKET], rhist[NRBUCKET];
  uint64_t dips; /* --mono: steps down between neighbouring floats */
  uint32_t first_dip;
  uint64_t failures; /* infinite error: NaN, sign or infinity wrong */
  uint32_t first_failure;
  uint64_t mismatches; /* bits differ from the --vs-isa impl */
  uint32_t first_mismatch;
  uint64_t correct;                       /* correctly rounded */
  uint64_t sample_correct, sample_judged; /* the same over u % SAMPLE_STRIDE == 0 */
  uint64_t over1;                         /* more than 1 ULP off, exactly */
  uint64_t over_bound;                    /* over the bound, exactly */
  uint64_t mpfr;                          /* comparisons MPFR settled */
} tally;

static void run_op(const job *j, const actk_impl *impl, const float *x, float *y, size_t n) {
  const actk_op_info *op = j->op;
  if (op->shape == ACTK_SHAPE_PARAM)
    impl->param[op->id][op->tier][op->type](x, y, n, j->alpha);
  else
    impl->unary[op->id][op->tier][op->type](x, y, n);
}

static actk_xval xval_of(const job *j, double x) {
  return actk_xval_of(j->op->xref, x, j->op->shape == ACTK_SHAPE_PARAM ? (double)j->alpha : 0.0);
}

static double ref_of(const job *j, double x) {
  actk_xval t = xval_of(j, x);
  return actk_x_approx(&t);
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

static int rbucket_of(double e) {
  if (e == 0) return 0;
  if (e <= 0x1p-24) return 1;
  if (e <= 0x1p-22) return 2;
  if (e <= 0x1p-20) return 3;
  if (e <= 0x1p-19) return 4;
  if (e <= 0x1p-18) return 5;
  return 6;
}

/* x steps to the next float from a to b (a, b of one sign, or -0 to +0):
 * whether y stepped down. NaNs are no step. */
static int stepped_down(float xa, float ya, float xb, float yb) {
  if (isnan(xa) || isnan(xb) || isnan(ya) || isnan(yb)) return 0;
  return xa < xb || (xa == xb && signbit(xa)) ? yb < ya : ya < yb; /* in increasing x */
}

/* Steps down in a run of results of consecutive bit patterns of one sign:
 * with increasing patterns x increases on the positive side and decreases on
 * the negative one. */
static void count_dips(tally *t, const float *x, const float *y, size_t n) {
  for (size_t k = 1; k < n; k++)
    if (stepped_down(x[k - 1], y[k - 1], x[k], y[k]) && !t->dips++) memcpy(&t->first_dip, &x[k], 4);
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
    if (j->mono) {
      count_dips(t, x, y, n);
      j->block_first[b] = y[0];
      j->block_last[b] = y[n - 1];
    }
    for (size_t k = 0; k < n; k++) {
      uint32_t u;
      memcpy(&u, &x[k], 4);
      actk_xval tv = xval_of(j, (double)x[k]);
      actk_x_verdict v = actk_x_judge_f32(y[k], &tv);
      double e = v.ulp;
      if (j->vs && memcmp(&y[k], &y2[k], 4) != 0 && !(isnan(y[k]) && isnan(y2[k]))) {
        if (!t->mismatches++) t->first_mismatch = u;
      }
      const int in_sample = u % SAMPLE_STRIDE == 0;
      t->sample_judged += (uint64_t)in_sample;
      if (isinf(e)) {
        if (!t->failures++) t->first_failure = u;
        continue;
      }
      t->correct += (uint64_t)v.correct;
      t->sample_correct += (uint64_t)(in_sample && v.correct);
      t->over1 += (uint64_t)v.over[1];
      /* the bound, exactly where it is 1 or 2 ULP (the accurate tier's) */
      int over = j->bound_ulp == 1 || j->bound_ulp == 2 ? v.over[(int)j->bound_ulp]
                 : j->bound_ulp > 0                     ? e > j->bound_ulp
                                                        : 0;
      if (j->bound_rel > 0 && v.rel > j->bound_rel) over = 1;
      t->over_bound += (uint64_t)over;
      t->hist[bucket_of(e)]++;
      if (e > t->max_err) {
        t->max_err = e;
        t->max_at = u;
      }
      double rel = v.rel;
      t->rhist[rbucket_of(rel)]++;
      if (rel > t->max_rel) {
        t->max_rel = rel;
        t->max_rel_at = u;
      }
    }
  }
  t->mpfr = actk_x_stats_get().mpfr;
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

/* The bounds a sweep holds an op to: the tier's (the catalog's), unless
 * given; 0 for no bound of that kind. */
typedef struct {
  double ulp, rel;
  int mono;   /* 1: count steps down (stride 1 over all floats only) */
  int readme; /* 1: print README's accuracy row */
} bounds;

static int sweep_one(const actk_op_info *op, float alpha, const actk_impl *impl,
                     const actk_impl *vs, uint64_t stride, int threads, bounds bd, uint32_t first,
                     uint64_t span) {
  job j = {.op = op,
           .alpha = alpha,
           .bound_ulp = bd.ulp,
           .bound_rel = bd.rel,
           .impl = impl,
           .vs = vs,
           .stride = stride,
           .first = first};
  j.count = (span + stride - 1) / stride;
  j.mono = bd.mono && stride == 1 && span == (UINT64_C(1) << 32) && first == 0;
  if (j.mono) {
    j.block_first = malloc(NBLOCKS * sizeof(float));
    j.block_last = malloc(NBLOCKS * sizeof(float));
    if (!j.block_first || !j.block_last) {
      free(j.block_first);
      free(j.block_last);
      return 0;
    }
  }
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
    for (int b = 0; b < NRBUCKET; b++) all.rhist[b] += tl[i].rhist[b];
    if (tl[i].dips && (!all.dips || tl[i].first_dip < all.first_dip))
      all.first_dip = tl[i].first_dip;
    all.dips += tl[i].dips;
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
    all.correct += tl[i].correct;
    all.sample_correct += tl[i].sample_correct;
    all.sample_judged += tl[i].sample_judged;
    all.over1 += tl[i].over1;
    all.over_bound += tl[i].over_bound;
    all.mpfr += tl[i].mpfr;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (j.mono) { /* the steps between blocks: pattern order within each sign, and -0 to +0 */
    for (uint64_t b = 1; b < NBLOCKS; b++) {
      if (b == NBLOCKS / 2) continue; /* +max .. NaN | -0: not neighbours */
      float xa = as_float((uint32_t)(b * BLOCK - 1)), xb = as_float((uint32_t)(b * BLOCK));
      if (stepped_down(xa, j.block_last[b - 1], xb, j.block_first[b]) && !all.dips++)
        all.first_dip = (uint32_t)(b * BLOCK);
    }
    if (stepped_down(-0.0f, j.block_first[NBLOCKS / 2], 0.0f, j.block_first[0]) && !all.dips++)
      all.first_dip = 0;
    free(j.block_first);
    free(j.block_last);
  }
  int ok = all.over_bound == 0 && all.failures == 0 && all.mismatches == 0 && all.dips == 0;
  float xm = as_float(all.max_at);
  char label[48];
  if (op->shape == ACTK_SHAPE_PARAM)
    snprintf(label, sizeof label, "%s(%g)", op->name, (double)alpha);
  else
    snprintf(label, sizeof label, "%s", op->name);
  /* README's row of a param op is at its default alpha (elu), named as the op */
  const char *row = op->shape == ACTK_SHAPE_PARAM && alpha == op->unary_alpha ? op->name : label;
  printf("%-10s %-8s %-6s inputs=%" PRIu64 " max_ulp=%.3f at x=%a (%.9g) y=", label, op->tier_name,
         impl->facts.name, j.count, all.max_err, (double)xm, (double)xm);
  float ym;
  run_op(&j, impl, &xm, &ym, 1);
  printf("%a ref=%a  [%.1fs] %s\n", (double)ym, ref_of(&j, (double)xm), secs, ok ? "ok" : "FAIL");
  float xr = as_float(all.max_rel_at);
  printf("  max relative error %.3g = 2^%.2f at x=%a (%.9g)\n", all.max_rel,
         all.max_rel > 0 ? log2(all.max_rel) : -INFINITY, (double)xr, (double)xr);
  printf("  histogram (ULP):");
  for (int b = 0; b < NBUCKET; b++) printf(" %s:%" PRIu64, bucket_name[b], all.hist[b]);
  printf("\n  histogram (relative):");
  for (int b = 0; b < NRBUCKET; b++) printf(" %s:%" PRIu64, rbucket_name[b], all.rhist[b]);
  printf("\n  bound: %s%g ULP%s%s%g relative: %" PRIu64 " inputs over it\n",
         bd.ulp ? "" : "(none) ", bd.ulp, bd.ulp && bd.rel ? ", " : "; ", bd.rel ? "" : "(none) ",
         bd.rel, all.over_bound);
  uint64_t judged = all.failures;
  for (int b = 0; b < NBUCKET; b++) judged += all.hist[b];
  printf("  correctly rounded: %" PRIu64 " of %" PRIu64 " (%.4f%%, NaN inputs included); over 1 "
         "ULP: %" PRIu64 "; comparisons settled by MPFR: %" PRIu64 "\n",
         all.correct, judged, 100.0 * (double)all.correct / (double)judged, all.over1, all.mpfr);
  /* the test's sample is whole when the sweep covers every pattern, or every
   * SAMPLE_STRIDE-th one (a prime: no other stride holds it) */
  const int sample_whole =
      first == 0 && span == (UINT64_C(1) << 32) && (stride == 1 || stride == SAMPLE_STRIDE);
  char sample[24] = "-";
  if (sample_whole) {
    snprintf(sample, sizeof sample, "%" PRIu64, all.sample_correct);
    printf("  test_accuracy's sample (every %uth pattern): %" PRIu64 " of %" PRIu64
           " correctly rounded (%.4f%%)\n",
           SAMPLE_STRIDE, all.sample_correct, all.sample_judged,
           100.0 * (double)all.sample_correct / (double)all.sample_judged);
  }
  if (bd.readme) { /* README's accuracy row for this tier (tests/readme_table.h reads it) */
    uint64_t total = 0, over1 = all.over1;
    for (int b = 0; b < NBUCKET; b++) total += all.hist[b];
    float xw = op->bound_rel > 0 ? xr : xm;
    char pct[16];
    snprintf(pct, sizeof pct, "%.2f%%",
             100.0 * (double)all.correct / (double)(total + all.failures));
    if (op->bound_rel > 0)
      printf("  readme: | %s | %.4g (2^%.2f) | %.9g | %s | %.3f | %s |\n", row, all.max_rel,
             log2(all.max_rel), (double)xw, pct, all.max_err, sample);
    else
      printf("  readme: | %s | %.3f | %.9g | %s | %" PRIu64 " | %s |\n", row, all.max_err,
             (double)xw, pct, over1, sample);
  }
  if (j.mono) {
    printf("  monotone: %" PRIu64 " steps down", all.dips);
    if (all.dips) printf(", first at x=%a", (double)as_float(all.first_dip));
    printf("\n");
  }
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

/* A 16-bit type: all 65536 inputs, faithfulness, the share correctly rounded
 * and the max error in ULPs of the type (as tests/test_types.c measures). */
static int sweep16_one(const actk_op_info *op, float alpha, const actk_impl *impl,
                       const actk_impl *vs, int readme) {
  const actk_fmt16 *f = !strcmp(op->type_name, "f16") ? &actk_fmt_f16 : &actk_fmt_bf16;
  const uint16_t quiet = (uint16_t)(1u << (f->mant - 1));
  uint16_t *x = malloc(65536 * 2), *y = malloc(65536 * 2), *y2 = malloc(65536 * 2);
  if (!x || !y || !y2) return 0;
  for (uint32_t i = 0; i < 65536; i++) x[i] = (uint16_t)i;
  job j = {.op = op, .alpha = alpha};
  run_op(&j, impl, (const float *)(void *)x, (float *)(void *)y, 65536);
  if (vs) run_op(&j, vs, (const float *)(void *)x, (float *)(void *)y2, 65536);
  uint64_t correct = 0, counted = 0, unfaithful = 0, nan_bad = 0, mismatches = 0;
  double worst = 0;
  uint16_t worst_at = 0, first_bad = 0;
  for (uint32_t i = 0; i < 65536; i++) {
    if (vs && y[i] != y2[i] && !mismatches++) first_bad = (uint16_t)i;
    if ((x[i] & 0x7fffu) > f->inf) {
      nan_bad += y[i] != (x[i] | quiet);
      continue;
    }
    actk_xval tv = xval_of(&j, actk_fmt16_value(f, x[i]));
    actk_check16 c = actk_x_check16(f, y[i], &tv);
    counted++;
    correct += (uint64_t)c.correct;
    if (!c.faithful && !unfaithful++) first_bad = (uint16_t)i;
    if (c.ulp > worst) worst = c.ulp, worst_at = (uint16_t)i;
  }
  double share = 100.0 * (double)correct / (double)counted;
  char label[48];
  if (op->shape == ACTK_SHAPE_PARAM)
    snprintf(label, sizeof label, "%s(%g)", op->name, (double)alpha);
  else
    snprintf(label, sizeof label, "%s", op->name);
  /* README's row of a param op is at its default alpha (elu), named as the op */
  const char *row = op->shape == ACTK_SHAPE_PARAM && alpha == op->unary_alpha ? op->name : label;
  int ok = !unfaithful && !nan_bad && !mismatches;
  printf("%-10s %-8s %-4s %-6s all 65536: max %.3f ULP of %s at x=0x%04x (%.6g); %.2f%% correctly "
         "rounded; %" PRIu64 " not faithful; %" PRIu64 " NaNs wrong %s\n",
         label, op->tier_name, op->type_name, impl->facts.name, worst, f->name, worst_at,
         actk_fmt16_value(f, worst_at), share, unfaithful, nan_bad, ok ? "ok" : "FAIL");
  if (unfaithful || mismatches)
    printf("  first bad input 0x%04x: y=0x%04x (vs %s: 0x%04x)\n", first_bad, y[first_bad],
           vs ? vs->facts.name : "-", vs ? y2[first_bad] : 0);
  if (vs) printf("  vs %s: %" PRIu64 " results differ in bits\n", vs->facts.name, mismatches);
  if (readme)
    printf("  readme: | %s | %.3f | %.6g | %.2f%% |\n", row, worst, actk_fmt16_value(f, worst_at),
           share);
  free(x);
  free(y);
  free(y2);
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
            "[--bound ULP] [--rel-bound R] [--mono 1] [--vs-isa NAME] [--from X --to Y]\n",
            argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* a long sweep into a file shows each op as it ends */
  const char *opname = argv[1];
  const actk_impl *impl = actk_dispatch_active(), *vs = NULL;
  const char *tier = "accurate", *type = "f32";
  float alpha = 1.0f;
  uint64_t stride = 1;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = ncpu > 0 ? (int)ncpu : 1;
  double ulp_bound = -1, rel_bound = -1; /* < 0: the tier's */
  int mono = 0, readme = 0;
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
    else if (!strcmp(a, "--type"))
      type = v;
    else if (!strcmp(a, "--alpha"))
      alpha = strtof(v, NULL);
    else if (!strcmp(a, "--stride"))
      stride = strtoull(v, NULL, 0);
    else if (!strcmp(a, "--threads"))
      threads = atoi(v);
    else if (!strcmp(a, "--bound"))
      ulp_bound = atof(v);
    else if (!strcmp(a, "--rel-bound"))
      rel_bound = atof(v);
    else if (!strcmp(a, "--mono"))
      mono = atoi(v);
    else if (!strcmp(a, "--readme"))
      readme = atoi(v);
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
    if (op->shape == ACTK_SHAPE_BIAS || strcmp(op->type_name, type) || strcmp(op->tier_name, tier))
      continue;
    if (strcmp(opname, op->name) && (strcmp(opname, "all") || op->shape != ACTK_SHAPE_UNARY))
      continue;
    any = 1;
    bounds bd = {ulp_bound >= 0 ? ulp_bound : op->bound_ulp,
                 rel_bound >= 0 ? rel_bound : op->bound_rel, mono, readme};
    if (mono && (op->props & ACTK_OP_MONOTONE) == 0) bd.mono = 0;
    if (op->esize == 2)
      ok &= sweep16_one(op, alpha, impl, vs, readme);
    else
      ok &= sweep_one(op, alpha, impl, vs, stride, threads, bd, first, span);
  }
  if (!any) {
    fprintf(stderr, "unknown op %s (or tier %s)\n", opname, tier);
    return 2;
  }
  return ok ? 0 : 1;
}
