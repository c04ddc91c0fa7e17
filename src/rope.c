/* RoPE entry point: validate everything (positions included) before any
 * write, then run rows, grouped into chunks of whole rows by the runner. */
#include <math.h>
#include <string.h>

#include "actk.h"
#include "dispatch.h"
#include "fpenv.h"
#include "registry.h"
#include "runner.h"
#include "validate.h"
#include "versioned.h"

typedef struct {
  actk_rope_kernel kernel;
  const actk_rope_desc *d;
  const char *x;
  const float *cos_cache, *sin_cache;
  const int64_t *ids;
  char *y;
  size_t head, half, esize; /* esize: bytes per element of x and y */
} rope_ctx;

/* Rows [begin, end) (as element offsets, whole rows). In BSHD the heads of
 * a token are adjacent and share a position; in BHSD with implicit positions
 * a head's tokens are adjacent with consecutive positions: either way a run
 * of rows goes to the kernel at once. Counters step per run, no division. */
static void rope_rows(void *p, size_t begin_el, size_t end_el) {
  const rope_ctx *c = p;
  const actk_rope_desc *d = c->d;
  const size_t S = d->seq_len, H = d->heads, D = c->head;
  const int inter = d->style == ACTK_ROPE_INTERLEAVED;
  size_t r = begin_el / D, r_end = end_el / D;
  /* (b, s, h) of row r */
  size_t b, s, h;
  if (d->layout == ACTK_ROPE_BSHD) {
    h = r % H;
    s = (r / H) % S;
    b = r / (H * S);
  } else {
    s = r % S;
    h = (r / S) % H;
    b = r / (S * H);
  }
  while (r < r_end) {
    /* rows the kernel can take at once: the rest of the token's heads in
     * BSHD (one position); in BHSD without position ids, the rest of this
     * head's tokens (consecutive positions) */
    size_t n, cstride = 0;
    if (d->layout == ACTK_ROPE_BSHD) {
      n = H - h;
    } else if (!c->ids) {
      n = S - s;
      cstride = c->half;
    } else {
      n = 1;
    }
    if (n > r_end - r) n = r_end - r;
    int64_t pos = c->ids ? actk_position_id(c->ids, b * S + s) : d->position_start + (int64_t)s;
    size_t off = (size_t)pos * c->half;
    const size_t es = c->esize;
    const char *xr = c->x + r * D * es;
    char *yr = c->y + r * D * es;
    if (c->half)
      c->kernel(xr, yr, n, D, c->cos_cache + off, c->sin_cache + off, cstride, c->half, inter);
    if (yr != xr && D > 2 * c->half) /* the channels past rotary_dim: copied, bits and all */
      for (size_t i = 0; i < n; i++)
        memcpy(yr + (i * D + 2 * c->half) * es, xr + (i * D + 2 * c->half) * es,
               (D - 2 * c->half) * es);
    r += n;
    if (d->layout == ACTK_ROPE_BSHD) {
      h += n;
      if (h == H) {
        h = 0;
        if (++s == S) s = 0, b++;
      }
    } else {
      s += n;
      if (s == S) {
        s = 0;
        if (++h == H) h = 0, b++;
      }
    }
  }
}

actk_status actk_rope_call(actk_pool *pool, actk_type type, size_t esize,
                           const actk_rope_desc *desc, const void *x, const int64_t *position_ids,
                           const float *cos_cache, const float *sin_cache, void *y) {
  if (!desc) return ACTK_ERR_NULL_POINTER;
  actk_rope_desc d;
  actk_rope_desc_init(&d);
  if (!actk_read_versioned(&d, sizeof d, desc, desc->struct_size, ACTK_ROPE_DESC_V1_SIZE))
    return ACTK_ERR_INVALID_ARGUMENT;
  desc = &d;
  actk_rope_shape shape;
  actk_status st = actk_check_rope(desc, x, position_ids, cos_cache, sin_cache, y, esize, &shape);
  if (st != ACTK_OK || shape.elements == 0) return st;
  if (shape.half && (st = actk_check_rope_positions(desc, position_ids)) != ACTK_OK) return st;
  rope_ctx c = {actk_dispatch_active()->rope[type],
                desc,
                x,
                cos_cache,
                sin_cache,
                position_ids,
                y,
                shape.head,
                shape.half,
                esize};
  actk_fpenv env = actk_fpenv_enter();
  actk_run_ranges(pool, ACTK_COST_CHEAP, shape.elements, shape.head, rope_rows, &c);
  actk_fpenv_leave(env);
  return ACTK_OK;
}

/* actk_rope_<type>, one per element type: src/ops.gen.c */

actk_status actk_rope_cache_f32(float *cos_cache, float *sin_cache, size_t max_position,
                                size_t rotary_dim, double theta) {
  actk_status st = actk_check_rope_cache(cos_cache, sin_cache, max_position, rotary_dim, theta);
  if (st != ACTK_OK || max_position == 0) return st;
  size_t half = rotary_dim / 2;
  /* +-0 is the default; by its bits too, before the environment is ours */
  uint64_t bits;
  memcpy(&bits, &theta, sizeof bits);
  if ((bits << 1) == 0) theta = 10000.0;
  actk_fpenv env = actk_fpenv_enter();
  /* A base that makes an angle non-finite is no base: p theta^(-2j/rd) peaks
   * at the last position and, for theta < 1, the last pair (the first pair's
   * frequency is 1); 0 * inf would be NaN even at position 0. Checked before
   * anything is written (the environment is ours: pow cannot trap). */
  const double peak = pow(theta, -(double)(2 * (half - 1)) / (double)rotary_dim);
  if (!isfinite(peak) || !isfinite((double)(max_position - 1) * fmax(peak, 1.0))) {
    actk_fpenv_leave(env);
    return ACTK_ERR_INVALID_ARGUMENT;
  }
  for (size_t j = 0; j < half; j++) {
    double inv_freq = pow(theta, -(double)(2 * j) / (double)rotary_dim);
    for (size_t p = 0; p < max_position; p++) {
      double angle = (double)p * inv_freq;
      cos_cache[p * half + j] = (float)cos(angle);
      sin_cache[p * half + j] = (float)sin(angle);
    }
  }
  actk_fpenv_leave(env);
  return ACTK_OK;
}
