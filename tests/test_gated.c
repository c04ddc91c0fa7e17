/* The gated ops, y = activation(gate) * up, and their packed form (x =
 * [rows, 2d], gate first): every entry of tools/catalog.h's
 * actk_gated_catalog on every ISA.
 *
 * Their definition (include/actk.h): a = the activation's f32 result of the
 * same tier (accurate: actk_<activation>_f32 in every type; fast: the type's
 * fast core), y = a * up rounded once in f32, narrowed once for 16-bit; a NaN
 * gate gives its NaN, else a NaN up its NaN, else inf * 0 the default NaN.
 * Checked here:
 *   composition  y is that, bit for bit, against the public unary entry
 *                (catalog.h's act_type_name: the f32 one, or for the fast
 *                16-bit cores the type's own, with up = +-1): a product
 *                rounded twice, or the wrong core or tier, fails it;
 *   specials     every pair of special values (NaNs of both signs, quiet
 *                and signalling, +-inf, +-0, +-1, extremes): NaN bits;
 *   faithful16   16-bit, both tiers, every ISA: every gate times up = +-2^k for every
 *                exponent k of the type, and random pairs, against the exact reference
 *                (tools/exact.h): faithful, infinity only where the exact
 *                product rounds to it; the share correctly rounded printed;
 *   isa          every ISA == scalar on random pairs and lengths, with y
 *                in place of gate and of up, and the packed form == the
 *                plain form row by row, serially and over a 2-thread pool
 *                that is seen to split the call (halves swapped, or a cut
 *                mid-row that loses the row's column, fail it);
 *   errors       bad arguments: the status, and nothing written. */
#include <stdatomic.h>

#include "actk_test.h"
#include "exact.h"
#include "plan.h"   /* actk_plan_min_parallel: which calls the pool splits */
#include "runner.h" /* actk_runner_parallel_calls: that it did */

static uint16_t rand16(uint64_t *s) {
  uint32_t r = rng_u32(s);
  /* every pattern, with NaNs, infinities, zeros and subnormals over-weighted */
  static const uint16_t sp[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d01, 0x7f80,
                                0xff80, 0x7fc0, 0x7f81, 0x0001, 0x8001, 0x03ff, 0x007f};
  if ((r & 15u) == 0) return sp[(r >> 4) % (sizeof sp / sizeof sp[0])];
  return (uint16_t)(r >> 16);
}

static int is_f32(const actk_gated_info *e) { return e->esize == 4; }
static const actk_fmt16 *fmt_of(const actk_gated_info *e) {
  return strcmp(e->type_name, "f16") == 0 ? &actk_fmt_f16 : &actk_fmt_bf16;
}
static float widen(const actk_gated_info *e, uint16_t h) {
  return strcmp(e->type_name, "f16") == 0 ? actk_f16_to_f32(h) : actk_bf16_to_f32(h);
}
static uint16_t narrow(const actk_gated_info *e, float f) {
  return strcmp(e->type_name, "f16") == 0 ? actk_f32_to_f16(f) : actk_f32_to_bf16(f);
}

/* The product rule on floats: a the activation's result, u up. */
static float gated_ref(float a, float u) {
  if (isnan(a)) return a;
  if (isnan(u)) return u2f(f2u(u) | 0x00400000u);
  float p = a * u;
  return isnan(p) ? u2f(0x7fc00000u) : p;
}

static void fill_pair(const actk_gated_info *e, void *g, void *u, size_t n, uint64_t seed) {
  if (is_f32(e)) {
    test_fill_inputs(g, n, seed);
    test_fill_inputs(u, n, seed ^ 0x9e3779b97f4a7c15ull);
    return;
  }
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++) {
    ((uint16_t *)g)[i] = rand16(&s);
    ((uint16_t *)u)[i] = rand16(&s);
  }
}

/* ---- composition ---- */

/* The fast 16-bit entries whose a is their type's fast core: a is not
 * observable, but the 16-bit unary entry rounds it once, so up = +1 gives its
 * bits and up = -1 their negation (a NaN gate: its NaN either way). */
static void run_composition16(const actk_gated_info *e, const actk_op_info *act) {
  enum { N = 65536 };
  uint16_t *g = malloc(N * sizeof *g), *u = malloc(N * sizeof *u), *y = malloc(N * sizeof *y);
  uint16_t *a = malloc(N * sizeof *a);
  test_check(g && u && y && a, "out of memory");
  for (size_t i = 0; i < N; i++) g[i] = (uint16_t)i;
  test_check(actk_op_call(act, NULL, g, NULL, 0, a, N, 0.0f) == ACTK_OK, "%s failed",
             act->function);
  for (int s = 1; s >= -1; s -= 2) {
    uint16_t one = narrow(e, (float)s);
    for (size_t i = 0; i < N; i++) u[i] = one;
    test_check(e->call(NULL, g, u, y, N) == ACTK_OK, "%s failed", e->function);
    for (size_t i = 0; i < N; i++) {
      int nan = isnan(widen(e, g[i]));
      uint16_t want = (uint16_t)(nan || s > 0 ? a[i] : a[i] ^ 0x8000u);
      test_check(y[i] == want, "%s on %s: gate 0x%04x up %s1: 0x%04x, want 0x%04x (%s gave 0x%04x)",
                 e->function, actk_isa_name(actk_isa_active()), g[i], s < 0 ? "-" : "+", y[i], want,
                 act->function, a[i]);
    }
  }
  free(g), free(u), free(y), free(a);
}

static void run_composition(const actk_gated_info *e) {
  /* the unary entry that defines a (catalog.h: act_type_name) */
  const char *act_type = e->act_type_name;
  const actk_op_info *act = actk_catalog_find(e->activation, e->tier_name, act_type);
  test_check(act != NULL, "%s: no unary entry %s/%s/%s", e->function, e->activation, e->tier_name,
             act_type);
  if (strcmp(act_type, "f32") != 0) {
    run_composition16(e, act);
    return;
  }
  const size_t n = TEST_SMALL ? 4096 : 1 << 16;
  char *g = malloc(n * e->esize), *u = malloc(n * e->esize), *y = malloc(n * e->esize);
  float *gf = malloc(n * sizeof *gf), *af = malloc(n * sizeof *af);
  test_check(g && u && y && gf && af, "out of memory");
  fill_pair(e, g, u, n, 0x5eed0000u + (uint64_t)e->id * 7 + (uint64_t)e->type);
  for (size_t i = 0; i < n; i++) gf[i] = is_f32(e) ? ((float *)g)[i] : widen(e, ((uint16_t *)g)[i]);
  test_check(actk_op_call(act, NULL, gf, NULL, 0, af, n, 0.0f) == ACTK_OK, "%s failed",
             act->function);
  test_check(e->call(NULL, g, u, y, n) == ACTK_OK, "%s failed", e->function);
  for (size_t i = 0; i < n; i++) {
    if (is_f32(e)) {
      float want = gated_ref(af[i], ((float *)u)[i]);
      uint32_t got = ((uint32_t *)y)[i];
      test_check(got == f2u(want),
                 "%s on %s: gate %a (0x%08x) up %a (0x%08x): 0x%08x, want 0x%08x = fl32(%s(gate) "
                 "0x%08x * up)",
                 e->function, actk_isa_name(actk_isa_active()), (double)gf[i], f2u(gf[i]),
                 (double)((float *)u)[i], f2u(((float *)u)[i]), got, f2u(want), act->function,
                 f2u(af[i]));
    } else {
      uint16_t gh = ((uint16_t *)g)[i], uh = ((uint16_t *)u)[i];
      uint16_t want = narrow(e, gated_ref(af[i], widen(e, uh)));
      uint16_t got = ((uint16_t *)y)[i];
      test_check(got == want,
                 "%s on %s: gate 0x%04x up 0x%04x: 0x%04x, want 0x%04x = narrow(fl32(%s(gate) %a "
                 "* up))",
                 e->function, actk_isa_name(actk_isa_active()), gh, uh, got, want, act->function,
                 (double)af[i]);
    }
  }
  free(g), free(u), free(y), free(gf), free(af);
}

/* ---- specials: every pair of special values, the NaN rule ---- */

static void run_specials(const actk_gated_info *e) {
  static const uint32_t f32s[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                  0xffc00000u, 0x7fc12345u, 0xffd00001u, 0x7f800001u, 0xffa00000u,
                                  0x3f800000u, 0xbf800000u, 0x00000001u, 0x80000001u, 0x7f7fffffu,
                                  0xff7fffffu, 0xc2c80000u, 0x42c80000u};
  static const uint16_t f16s[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01,
                                  0x7d55, 0xffff, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x7bff, 0xfbff};
  static const uint16_t bf16s[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff81,
                                   0x7fa5, 0xffff, 0x3f80, 0xbf80, 0x0001, 0x8001, 0x7f7f, 0xff7f};
  const int f16 = strcmp(e->type_name, "f16") == 0;
  const size_t ns = is_f32(e) ? sizeof f32s / 4 : f16 ? sizeof f16s / 2 : sizeof bf16s / 2;
  const size_t n = ns * ns, es = e->esize;
  char *g = malloc(n * es), *u = malloc(n * es), *y = malloc(n * es);
  test_check(g && u && y, "out of memory");
  for (size_t i = 0; i < ns; i++)
    for (size_t j = 0; j < ns; j++) {
      size_t k = i * ns + j;
      if (is_f32(e)) {
        memcpy(g + k * 4, &f32s[i], 4);
        memcpy(u + k * 4, &f32s[j], 4);
      } else {
        const uint16_t *v = f16 ? f16s : bf16s;
        memcpy(g + k * 2, &v[i], 2);
        memcpy(u + k * 2, &v[j], 2);
      }
    }
  test_check(e->call(NULL, g, u, y, n) == ACTK_OK, "%s failed", e->function);
  for (size_t k = 0; k < n; k++) {
    uint32_t gb, ub, yb, want;
    float gf, uf, yf;
    if (is_f32(e)) {
      memcpy(&gb, g + k * 4, 4), memcpy(&ub, u + k * 4, 4), memcpy(&yb, y + k * 4, 4);
      gf = u2f(gb), uf = u2f(ub), yf = u2f(yb);
    } else {
      uint16_t h;
      memcpy(&h, g + k * 2, 2), gb = h, gf = widen(e, h);
      memcpy(&h, u + k * 2, 2), ub = h, uf = widen(e, h);
      memcpy(&h, y + k * 2, 2), yb = h, yf = widen(e, h);
    }
    const uint32_t quiet = is_f32(e) ? 0x00400000u : f16 ? 0x0200u : 0x0040u;
    const uint32_t dnan = is_f32(e) ? 0x7fc00000u : f16 ? 0x7e00u : 0x7fc0u;
    if (isnan(gf))
      want = gb | quiet;
    else if (isnan(uf))
      want = ub | quiet;
    else if ((isinf(gf) && gf > 0 && uf == 0) || isnan(yf)) /* act(+inf) = +inf times 0, or */
      want = dnan; /* another inf * 0 (an activation of 0 or -0 times +-inf): the default NaN */
    else
      continue; /* no NaN: the value is composition's and faithful16's to check */
    test_check(yb == want,
               "%s on %s: gate 0x%x up 0x%x: 0x%x, want the NaN 0x%x (gate's NaN, else up's, else "
               "the default)",
               e->function, actk_isa_name(actk_isa_active()), gb, ub, yb, want);
  }
  free(g), free(u), free(y);
}

/* ---- faithful16 ---- */

/* The neighbours of a finite 16-bit pattern's value, as doubles (past the
 * largest finite value: the power of two above it). */
static double fmt_step(const actk_fmt16 *f, uint16_t h, int up) {
  double v = actk_fmt16_value(f, h);
  uint16_t mag = h & 0x7fff;
  int neg = (h >> 15) != 0;
  if (v == 0) return (up ? 1 : -1) * ldexp(1.0, f->emin - f->mant);
  int away = (up != 0) != neg; /* a step away from zero */
  if (away && mag + 1 == f->inf)
    return (neg ? -1 : 1) * ldexp(1.0, f->emin + (f->inf >> f->mant) - 2 + 1);
  return actk_fmt16_value(f, (uint16_t)(away ? h + 1 : h - 1));
}

/* sign(p - c) for p = s 2^k t, exactly: s 2^k (t - s c 2^-k). */
static int cmp_scaled(const actk_xval *t, int s, int k, double c) {
  return s * actk_x_cmp(t, s * ldexp(c, -k));
}

typedef struct {
  uint64_t checked, correct, subnormal_a;
} tally;

static void judge16(const actk_gated_info *e, uint16_t gh, const actk_xval *t, int s, int k,
                    uint16_t y, tally *tl) {
  const actk_fmt16 *f = fmt_of(e);
  const char *isa = actk_isa_name(actk_isa_active());
  if (t->nan) { /* a NaN gate: its own NaN, quieted */
    uint16_t q = (uint16_t)(gh | (1u << (f->mant - 1)));
    test_check(y == q, "%s on %s: NaN gate 0x%04x times %s2^%d: 0x%04x, want 0x%04x", e->function,
               isa, gh, s < 0 ? "-" : "", k, y, q);
    return;
  }
  tl->checked++;
  if (t->exact && (isinf(t->hi) || t->hi == 0)) {
    double want = s * t->hi;
    double v = actk_fmt16_value(f, y);
    test_check(v == want && (want != 0 || signbit(v) == signbit(want)),
               "%s on %s: gate 0x%04x times %s2^%d: 0x%04x, want the exact %g", e->function, isa,
               gh, s < 0 ? "-" : "", k, y, want);
    tl->correct++;
    return;
  }
  double v = actk_fmt16_value(f, y);
  int ok;
  if (isinf(v)) {
    /* only where p rounds to it: |p| at or past the largest value + half an ULP */
    uint16_t maxf = (uint16_t)(f->inf - 1);
    double mid = (actk_fmt16_value(f, maxf) + fmt_step(f, maxf, 1)) / 2;
    ok = v > 0 ? cmp_scaled(t, s, k, mid) >= 0 : cmp_scaled(t, s, k, -mid) <= 0;
    tl->correct += (uint64_t)ok;
  } else {
    double lo = fmt_step(f, y, 0), hi = fmt_step(f, y, 1);
    ok = cmp_scaled(t, s, k, lo) > 0 && cmp_scaled(t, s, k, hi) < 0;
    /* An activation below 2^-126 is a subnormal float: its own bound is absolute
     * there (accurate 2 ULP = 2^-148, fast 2^-18 of 2^-126 = 2^-144), and the
     * product carries it times |up|. y must then be faithful to some value
     * within that of the exact product. */
    if (!ok && actk_x_cmp(t, 0x1p-126) < 0 && actk_x_cmp(t, -0x1p-126) > 0) {
      double slack = ldexp(strcmp(e->tier_name, "fast") == 0 ? 0x1p-144 : 0x1p-148, k);
      ok = cmp_scaled(t, s, k, lo - slack) > 0 && cmp_scaled(t, s, k, hi + slack) < 0;
      tl->subnormal_a += (uint64_t)ok;
    }
    int even = (y & 1u) == 0;
    int clo = cmp_scaled(t, s, k, (lo + v) / 2), chi = cmp_scaled(t, s, k, (v + hi) / 2);
    if ((clo > 0 || (clo == 0 && even)) && (chi < 0 || (chi == 0 && even))) tl->correct++;
  }
  test_check(ok, "%s on %s: gate 0x%04x (%a) times %s2^%d: 0x%04x = %a is not faithful to %a",
             e->function, isa, gh, (double)widen(e, gh), s < 0 ? "-" : "", k, y, v,
             s * ldexp(actk_x_approx(t), k));
}

/* sign(p - c) for p in P + [L - R, L + R]: 0 where that cannot tell (c inside
 * it). P - c is split exactly (two-sum); what is left is rounded with its
 * error bounded. */
static int cmp_enc(double P, double L, double R, double c) {
  double s = P - c, bb = s - P;
  double e = (P - (s - bb)) + (-c - bb); /* P - c = s + e exactly */
  double v = e + L, tot = s + v;
  double bound = R + fabs(v) * 0x1p-52 + fabs(tot) * 0x1p-52;
  return tot > bound ? 1 : tot < -bound ? -1 : 0;
}

/* Random gate and up pairs (up any finite non-zero value of the type): the
 * exact product t * up enclosed from t's double enclosure (the product of hi
 * split exactly by an fma), faithfulness decided where the enclosure decides
 * it; the pairs it cannot decide are counted (none may be left). */
static void run_random_pairs(const actk_gated_info *e, const actk_op_info *act) {
  const actk_fmt16 *f = fmt_of(e);
  const size_t n = TEST_SMALL ? 1 << 13 : 1 << 18;
  uint16_t *g = malloc(n * sizeof *g), *u = malloc(n * sizeof *u), *y = malloc(n * sizeof *y);
  test_check(g && u && y, "out of memory");
  uint64_t st = 0x7a11e5u + (uint64_t)e->id * 31 + (uint64_t)e->type;
  for (size_t i = 0; i < n; i++) {
    do g[i] = (uint16_t)rng_u32(&st);
    while ((g[i] & f->inf) == f->inf);
    do u[i] = (uint16_t)rng_u32(&st);
    while ((u[i] & f->inf) == f->inf || (u[i] & 0x7fff) == 0);
  }
  test_check(e->call(NULL, g, u, y, n) == ACTK_OK, "%s failed", e->function);
  size_t undecided = 0, checked = 0, tiny = 0;
  for (size_t i = 0; i < n; i++) {
    actk_xval t = actk_xval_of(act->xref, (double)widen(e, g[i]), 0.0);
    if (t.exact) continue; /* zero gates: exact zeros, the exhaustive pass has them */
    if (t.hi == 0) {       /* t below double's range (silu, gelu of a huge negative gate): its */
      tiny++; /* enclosure is only |t| < err; the exhaustive pass decides those by MPFR */
      continue;
    }
    double uv = actk_fmt16_value(f, u[i]);
    double P = t.hi * uv, E = fma(t.hi, uv, -P), lu = t.lo * uv;
    double L = E + lu;
    double R = t.err * fabs(uv) + (fabs(lu) + fabs(L)) * 0x1p-52;
    /* an f32-subnormal activation: y faithful to some point within its bound (as above) */
    double S = 0;
    if (actk_x_cmp(&t, 0x1p-126) < 0 && actk_x_cmp(&t, -0x1p-126) > 0)
      S = (strcmp(e->tier_name, "fast") == 0 ? 0x1p-144 : 0x1p-148) * fabs(uv);
    double v = actk_fmt16_value(f, y[i]);
    int lo_c, hi_c;
    if (isinf(v)) {
      uint16_t maxf = (uint16_t)(f->inf - 1);
      double mid = (actk_fmt16_value(f, maxf) + fmt_step(f, maxf, 1)) / 2;
      lo_c = v > 0 ? cmp_enc(P, L + S, R, mid) : 1;
      hi_c = v > 0 ? -1 : -cmp_enc(-P, -L + S, R, mid);
    } else {
      lo_c = cmp_enc(P, L + S, R, fmt_step(f, y[i], 0)); /* p + S above the lower neighbour */
      hi_c = cmp_enc(P, L - S, R, fmt_step(f, y[i], 1)); /* p - S below the upper one */
    }
    if (lo_c == 0 || hi_c == 0) {
      undecided++;
      continue;
    }
    checked++;
    test_check(lo_c > 0 && hi_c < 0,
               "%s on %s: gate 0x%04x (%a) up 0x%04x (%a): 0x%04x = %a is not faithful to %a",
               e->function, actk_isa_name(actk_isa_active()), g[i], (double)widen(e, g[i]), u[i],
               uv, y[i], v, P + L);
  }
  print_message("%s on %s: %zu random pairs faithful, %zu the enclosure could not decide, %zu "
                "with an activation below double's range (left to the exhaustive pass)\n",
                e->function, actk_isa_name(actk_isa_active()), checked, undecided, tiny);
  test_check(undecided == 0, "%s: %zu random pairs undecided", e->function, undecided);
  free(g), free(u), free(y);
}

static void run_faithful16(const actk_gated_info *e) {
  const actk_fmt16 *f = fmt_of(e);
  const actk_op_info *act = actk_catalog_find(e->activation, "accurate", "f32");
  test_check(act != NULL, "no unary entry for %s", e->activation);
  enum { N = 65536 };
  uint16_t *g = malloc(N * sizeof *g), *u = malloc(N * sizeof *u), *y = malloc(N * sizeof *y);
  actk_xval *t = malloc(N * sizeof *t);
  test_check(g && u && y && t, "out of memory");
  for (size_t i = 0; i < N; i++) {
    g[i] = (uint16_t)i;
    t[i] = actk_xval_of(act->xref, (double)widen(e, g[i]), 0.0);
  }
  /* every exponent of the type, subnormal ones included: 2^k for k from the
   * smallest subnormal's to the largest normal's */
  int kmin = f->emin - f->mant, kmax = -f->emin + 1;
  /* every exponent on the best ISA; every 5th on the others (all equal scalar's bits anyway);
   * every 23rd in a quick run */
  int step = !test_exhaustive()                     ? 23
             : TEST_SMALL                           ? 7
             : actk_isa_active() == actk_isa_best() ? 1
                                                    : 5;
  tally tl = {0, 0, 0};
  for (int k = kmin; k <= kmax; k++) {
    if ((k - kmin) % step != 0 && k != kmax) continue;
    for (int s = 1; s >= -1; s -= 2) {
      uint16_t uh = narrow(e, (float)(s * ldexp(1.0, k)));
      for (size_t i = 0; i < N; i++) u[i] = uh;
      test_check(e->call(NULL, g, u, y, N) == ACTK_OK, "%s failed", e->function);
      for (size_t i = 0; i < N; i++) judge16(e, g[i], &t[i], s, k, y[i], &tl);
    }
  }
  print_message("%s on %s: %llu products faithful, %.4f%% correctly rounded; %llu within an "
                "f32-subnormal activation's bound only\n",
                e->function, actk_isa_name(actk_isa_active()), (unsigned long long)tl.checked,
                100.0 * (double)tl.correct / (double)tl.checked,
                (unsigned long long)tl.subnormal_a);
  free(g), free(u), free(y), free(t);
  run_random_pairs(e, act);
}

/* ---- isa, in place, packed ---- */

static int same_bits(const actk_gated_info *e, const void *a, const void *b, size_t n,
                     size_t *where) {
  for (size_t i = 0; i < n * e->esize; i++)
    if (((const unsigned char *)a)[i] != ((const unsigned char *)b)[i]) {
      *where = i / e->esize;
      return 0;
    }
  return 1;
}

static void run_isa(const actk_gated_info *e) {
  const size_t n = TEST_SMALL ? 3000 : 40000;
  const size_t es = e->esize;
  char *g = malloc(n * es), *u = malloc(n * es), *y = malloc(n * es), *ref = malloc(n * es);
  char *x = malloc(2 * n * es), *yp = malloc(n * es), *buf = malloc(n * es);
  test_check(g && u && y && ref && x && yp && buf, "out of memory");
  fill_pair(e, g, u, n, 0xabcdefu + (uint64_t)e->type * 3 + (uint64_t)e->id);
  actk_isa isa = actk_isa_active();
  /* the scalar ISA's results: the reference of every other */
  test_check(actk_isa_force(ACTK_ISA_SCALAR) == ACTK_OK, "no scalar ISA");
  test_check(e->call(NULL, g, u, ref, n) == ACTK_OK, "%s failed", e->function);
  test_check(actk_isa_force(isa) == ACTK_OK, "actk_isa_force failed");
  size_t at = 0;
  /* lengths and offsets: element i depends on gate[i] and up[i] only */
  static const size_t lens[] = {1, 3, 15, 16, 17, 31, 33, 64, 100, 1000};
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
    for (size_t off = 0; off + lens[li] <= n && off < 40; off += 13) {
      memset(y, 0xa5, n * es);
      test_check(e->call(NULL, g + off * es, u + off * es, y, lens[li]) == ACTK_OK, "call failed");
      test_check(same_bits(e, y, ref + off * es, lens[li], &at),
                 "%s on %s: n = %zu at offset %zu differs from scalar at element %zu", e->function,
                 actk_isa_name(isa), lens[li], off, off + at);
    }
  test_check(e->call(NULL, g, u, y, n) == ACTK_OK, "call failed");
  test_check(same_bits(e, y, ref, n, &at), "%s on %s: differs from scalar at element %zu",
             e->function, actk_isa_name(isa), at);
  /* in place: y == gate, y == up */
  memcpy(buf, g, n * es);
  test_check(e->call(NULL, buf, u, buf, n) == ACTK_OK, "in place (gate) failed");
  test_check(same_bits(e, buf, ref, n, &at), "%s on %s: y == gate differs at %zu", e->function,
             actk_isa_name(isa), at);
  memcpy(buf, u, n * es);
  test_check(e->call(NULL, g, buf, buf, n) == ACTK_OK, "in place (up) failed");
  test_check(same_bits(e, buf, ref, n, &at), "%s on %s: y == up differs at %zu", e->function,
             actk_isa_name(isa), at);
  /* packed: rows of [gate d | up d], against the plain form row by row, serially
   * and over a pool; d not a multiple of any vector so rows start anywhere */
  actk_pool *pool = NULL;
  actk_pool_config cfg;
  actk_pool_config_init(&cfg);
  cfg.threads = 2;
  test_check(actk_pool_create(&cfg, &pool) == ACTK_OK, "actk_pool_create failed");
  const size_t ds[] = {1, 7, 33, 1000, 4099, n}; /* n: one row, split mid-row */
  for (size_t di = 0; di < sizeof ds / sizeof ds[0]; di++) {
    size_t d = ds[di], rows = n / d;
    for (size_t r = 0; r < rows; r++) {
      memcpy(x + 2 * r * d * es, g + r * d * es, d * es);
      memcpy(x + (2 * r + 1) * d * es, u + r * d * es, d * es);
    }
    /* on the pool: again until the runner has split a call (its plan weighs how
     * recently the pool ran), where the planner splits that many elements at all */
    int want_split = rows * d >= actk_plan_min_parallel((actk_cost)e->cost), split = 0;
    for (int pass = 0; pass < 2 || (want_split && !split && pass < 40); pass++) {
      unsigned long before = atomic_load(&actk_runner_parallel_calls);
      memset(yp, 0x5a, n * es);
      test_check(e->call_packed(pass ? pool : NULL, x, yp, rows, d) == ACTK_OK, "%s failed",
                 e->packed_function);
      split |= pass && atomic_load(&actk_runner_parallel_calls) != before;
      test_check(same_bits(e, yp, ref, rows * d, &at),
                 "%s on %s, rows %zu, d %zu%s: row %zu column %zu differs from %s of the row's "
                 "halves",
                 e->packed_function, actk_isa_name(isa), rows, d, pass ? ", 2 threads" : "", at / d,
                 at % d, e->function);
      test_check(rows * d == n || ((unsigned char *)yp)[rows * d * es] == 0x5a,
                 "%s wrote past rows * d", e->packed_function);
    }
    test_check(split || !want_split, "%s on %s, rows %zu, d %zu: the 2-thread pool never split it",
               e->packed_function, actk_isa_name(isa), rows, d);
  }
  actk_pool_destroy(pool);
  free(g), free(u), free(y), free(ref), free(x), free(yp), free(buf);
}

/* ---- errors ---- */

static void run_errors(const actk_gated_info *e) {
  const size_t n = 64, es = e->esize;
  char *g = calloc(4 * n, es), *y = malloc(4 * n * es);
  test_check(g && y, "out of memory");
  char *u = g + n * es;
  struct {
    const void *g, *u;
    void *y;
    size_t n;
    actk_status want;
    const char *what;
  } bad[] = {
      {NULL, u, y, n, ACTK_ERR_NULL_POINTER, "gate NULL"},
      {g, NULL, y, n, ACTK_ERR_NULL_POINTER, "up NULL"},
      {g, u, NULL, n, ACTK_ERR_NULL_POINTER, "y NULL"},
      {g, u, g + es, n, ACTK_ERR_OVERLAP, "y overlapping gate"},
      {g, u, u - es, n, ACTK_ERR_OVERLAP, "y overlapping up"},
      {g, u, y, SIZE_MAX / 2, ACTK_ERR_TOO_LARGE, "n too large"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memset(y, 0x77, 4 * n * es);
    char *gsave = malloc(2 * n * es);
    test_check(gsave != NULL, "out of memory");
    memcpy(gsave, g, 2 * n * es);
    actk_status s = e->call(NULL, bad[i].g, bad[i].u, bad[i].y, bad[i].n);
    test_check(s == bad[i].want, "%s with %s: %s, want %s", e->function, bad[i].what,
               test_status_name(s), test_status_name(bad[i].want));
    for (size_t b = 0; b < 4 * n * es; b++)
      test_check(((unsigned char *)y)[b] == 0x77, "%s with %s wrote y", e->function, bad[i].what);
    test_check(memcmp(gsave, g, 2 * n * es) == 0, "%s with %s wrote an input", e->function,
               bad[i].what);
    free(gsave);
  }
  test_check(e->call(NULL, NULL, NULL, NULL, 0) == ACTK_OK, "%s: n = 0 is not ACTK_OK",
             e->function);
  /* the packed form: x [rows][2d] must not overlap y at all */
  struct {
    const void *x;
    void *y;
    size_t rows, d;
    actk_status want;
    const char *what;
  } pbad[] = {
      {NULL, y, 2, 8, ACTK_ERR_NULL_POINTER, "x NULL"},
      {g, NULL, 2, 8, ACTK_ERR_NULL_POINTER, "y NULL"},
      {g, g, 2, 8, ACTK_ERR_OVERLAP, "y == x"},
      {g, g + 31 * es, 2, 8, ACTK_ERR_OVERLAP, "y overlapping x's last element"},
      {g, y, SIZE_MAX / 4, 4, ACTK_ERR_TOO_LARGE, "rows * 2d too large"},
      {g, y, 1, SIZE_MAX / 2 + 1, ACTK_ERR_TOO_LARGE, "2d overflowing"},
  };
  for (size_t i = 0; i < sizeof pbad / sizeof pbad[0]; i++) {
    memset(y, 0x77, 4 * n * es);
    actk_status s = e->call_packed(NULL, pbad[i].x, pbad[i].y, pbad[i].rows, pbad[i].d);
    test_check(s == pbad[i].want, "%s with %s: %s, want %s", e->packed_function, pbad[i].what,
               test_status_name(s), test_status_name(pbad[i].want));
    for (size_t b = 0; b < 4 * n * es; b++)
      test_check(((unsigned char *)y)[b] == 0x77, "%s with %s wrote y", e->packed_function,
                 pbad[i].what);
  }
  test_check(e->call_packed(NULL, NULL, NULL, 0, 8) == ACTK_OK &&
                 e->call_packed(NULL, NULL, NULL, 8, 0) == ACTK_OK,
             "%s: an empty shape is not ACTK_OK", e->packed_function);
  /* the last element of x next to y's first: no overlap */
  test_check(e->call_packed(NULL, g, g + 32 * es, 2, 8) == ACTK_OK, "%s: adjacent x and y refused",
             e->packed_function);
  free(g), free(y);
}

/* ---- the groups: one cmocka test per (entry, ISA) ---- */

typedef void (*entry_fn)(const actk_gated_info *e);
static entry_fn g_fn;

static void run_case(void **state) {
  test_case *tc = *state;
  test_use_isa(tc);
  g_fn((const actk_gated_info *)(const void *)tc->op);
}

static int run_group(const char *group, entry_fn fn, int (*want)(const actk_gated_info *),
                     int all_isas) {
  const size_t n_isa = (size_t)test_n_isa();
  test_case *cases = calloc(actk_gated_catalog_size * n_isa, sizeof *cases);
  struct CMUnitTest *tests = calloc(actk_gated_catalog_size * n_isa, sizeof *tests);
  if (!cases || !tests) return 1;
  size_t n = 0;
  for (size_t i = 0; i < actk_gated_catalog_size; i++) {
    const actk_gated_info *e = &actk_gated_catalog[i];
    if (!want(e)) continue;
    for (size_t a = 0; a < n_isa; a++) {
      actk_isa isa = (actk_isa)a;
      if (!all_isas && isa != actk_isa_best()) continue;
      test_case *tc = &cases[n];
      tc->op = (const test_op *)(const void *)e; /* the entry, through the shared case */
      tc->isa = isa;
      snprintf(tc->name, sizeof tc->name, "%.40s/%.15s", e->function + 5, actk_isa_name(isa));
      struct CMUnitTest t = {tc->name, run_case, NULL, test_restore_isa, tc};
      tests[n++] = t;
    }
  }
  g_fn = fn;
  int failed = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
  free(tests);
  free(cases);
  return failed;
}

static int want_16(const actk_gated_info *e) { return !is_f32(e); }
static int want_all(const actk_gated_info *e) { return e != NULL; }

int main(void) {
  int failed = 0;
  failed += run_group("composition", run_composition, want_all, 1);
  failed += run_group("specials", run_specials, want_all, 1);
  failed += run_group("faithful16", run_faithful16, want_16, 1);
  failed += run_group("isa", run_isa, want_all, 1);
  failed += run_group("errors", run_errors, want_all, 0);
  return failed;
}
