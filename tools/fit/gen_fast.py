#!/usr/bin/env python3
"""Generate src/math/coeffs_fast.h: the coefficients of the fast tier (relative error <= 2^-18).

Run: /usr/bin/python3 tools/fit/gen_fast.py (Debian python3-numpy, python3-mpmath; with
clang-format on the PATH the output is the committed table byte for byte). The printed fit
errors are of the float32 polynomials evaluated in double; tools/sweep.c --fast 1 measures what
the kernels achieve over all floats."""
import os
import numpy as np
import mpmath as mp
from fitlib import fit, f32
from gen_coeffs import lit, vec, mpf_fun, write

mp.mp.dps = 40
LN2 = float(mp.log(2))

# exp: e^r = 1 + r (c1 + r (c2 + ... + r c5)) on r in [0, ln2] (a floor reduction, so every
# term is >= 0 and Horner is monotone), fitted to e^r (1 - EXP_BIAS r / ln2): at r -> ln2 the
# polynomial sits EXP_BIAS below 2 e^0, so 2^(n-1) P(ln2^-) <= 2^n P(0^+) where n steps and e^z
# never steps down.
EXP_DEG = 5
EXP_BIAS = 2.0 ** -23
# tanh and erf: 8 intervals between the roots of g(a) = a (A + B a) = k (B < 0: narrow near 0,
# wide further out), the last ending at the saturation point SAT, where g < 8 - 2^-8 (so the
# index needs no clamp). Beyond SAT the result is 1 (relative error 1 - f(SAT)); the last
# interval's target rises to 1 + 2^-21 at SAT, (a - left)^2-shaped, so that the polynomial
# reaches 1 there and min(y, 1) holds it. The first interval: y = a + a W(a); the others
# y = c0 + s W(s): tanh about each interval's left end (c0 = tanh(left end) <= a, so
# V = min(c0, a) picks the right one), erf about a float near the middle.
TANH_A, TANH_B, TANH_DEG, TANH_SAT = 1.8, -0.094, 6, 7.0
ERF_A, ERF_B, ERF_DEG, ERF_SAT = 3.0, -0.21, 5, 3.5
RAMP_TOP = 1 + 2.0 ** -21
# gelu: K(t) = t Q(t) e^(t^2/2) (Q the upper normal tail) on [0, GELU_T], 8 intervals between
# the roots of t (A + B t) = k, degree GELU_DEG: the first y = t W(t) (K(0) = 0, relative
# accuracy to t -> 0), the others y = c0 + s W(s) about a float near the middle.
GELU_A, GELU_B, GELU_DEG, GELU_T = 1.77, -0.0982, 6, 9.0


def exp_coeffs():
    def tgt(x):
        return np.exp(x) * (1 - EXP_BIAS * x / LN2)
    c, e = fit(tgt, -2.0 ** -12, LN2 + 2.0 ** -12, list(range(1, EXP_DEG + 1)), rel=True,
               fixed=lambda x: np.ones_like(x), m=3000)
    x = np.linspace(-2.0 ** -12, LN2 + 2.0 ** -12, 100001)
    p = np.zeros_like(x)
    for ck in reversed(c):
        p = (p + ck) * x
    rel = (p + 1) / np.exp(x) - 1
    out = ['/* e^r ~ 1 + r (C1 + r (C2 + ... + r C%d)) on [0, ln2]: relative error 2^%.1f, '
           '%.2f ulp below e^r at ln2 */\n' % (EXP_DEG, np.log2(np.abs(rel).max()), rel[-1] * 2 ** 23)]
    for k, v in enumerate(c):
        out.append('#define ACTK_FEXP_C%d %s\n' % (k + 1, lit(v)))
    return ''.join(out)


def breakpoints(A, B, sat):
    assert sat * (A + B * sat) < 8 - 2.0 ** -8 and A + 2 * B * sat > 0
    return [0.0] + [(-A + np.sqrt(A * A + 4 * B * k)) / (2 * B) for k in range(1, 8)] + [sat]


# Each interval's target is tilted by MONO_TILT: f (1 + MONO_TILT) at its left end down to
# f (1 - MONO_TILT) at its right end, so that where the index steps up the polynomial above
# starts 2 MONO_TILT (~4 ulps) above where the one below ends: no step down there.
MONO_TILT = 2.0 ** -22


def piecewise(name, f, bps, deg, first_rel, left_centers, ramp=True, tilt=0.0):
    """Tables for y = V + s W(s): interval 0 (if first_rel) y = a + a W(a); others
    y = c0 + s W(s), s = a - center."""
    cols = [[] for _ in range(deg)]
    centers, c0s, errs = [], [], []
    for i in range(8):
        a, b = bps[i], bps[i + 1]
        b1 = b + 0.004 if i < 7 else b
        lo, hi = a - 0.004, b1
        def fi(v, lo=lo, hi=hi):
            return f(v) * (1 - tilt * (2 * (v - lo) / (hi - lo) - 1))
        if i == 7 and ramp:  # the ramp to RAMP_TOP at the saturation point
            top = RAMP_TOP - f(mp.mpf(b))
            def fi(v, a=a, b=b, top=top, lo=lo, hi=hi):
                return (f(v) * (1 - tilt * (2 * (v - lo) / (hi - lo) - 1)) +
                        top * ((v - a) / (b - a)) ** 2)
        if i == 0 and first_rel and first_rel != 'zero':
            lo = 0.0
            def fi(v, lo=lo, hi=hi):
                return f(v) * (1 - tilt * (2 * (v - lo) / (hi - lo) - 1))
        if i == 0 and first_rel == 'zero':
            def g(x):
                return np.array([float(f(mp.mpf(v)) / mp.mpf(v)) for v in x])
            c, e = fit(g, 2.0 ** -12, b1, list(range(0, deg)), rel=True, m=1500)
            ctr, c0, w = 0.0, 0.0, c
        elif i == 0 and first_rel:
            def g(x):
                return np.array([float(fi(mp.mpf(v)) / mp.mpf(v) - 1) for v in x])
            c, e = fit(g, 2.0 ** -12, b1, list(range(0, deg)), rel=False, m=1500,
                       err_scale=lambda x: np.array([float(mp.mpf(v) / f(mp.mpf(v))) for v in x]))
            ctr, c0 = 0.0, 2.0 ** 100  # never below a: V = min(c0, a) = a
            w = c
        else:
            ctr = f32(a) if left_centers else f32((a + b) / 2)
            if left_centers:
                c0 = f32(float(fi(mp.mpf(ctr))))
                c, e = fit(mpf_fun(fi), a - 0.004, b1, list(range(1, deg + 1)), center=ctr,
                           rel=True, m=1500, fixed=lambda x, c0=c0: np.full_like(x, c0))
                w = c
            else:
                c, e = fit(mpf_fun(fi), a - 0.004, b1, list(range(deg + 1)), center=ctr,
                           rel=True, m=1500)
                c0, w = c[0], c[1:]
        errs.append(e)
        centers.append(ctr)
        c0s.append(c0)
        for k in range(deg):
            cols[k].append(w[k])
    out = [vec('actk_%s_fast_center' % name, centers), vec('actk_%s_fast_c0' % name, c0s)]
    for k in range(deg):
        out.append(vec('actk_%s_fast_w%d' % (name, k), cols[k]))
    return errs, ''.join(out)


def pw_coeffs(name, f, A, B, sat, deg, left):
    bps = breakpoints(A, B, sat)
    errs, body = piecewise(name, f, bps, deg, True, left, tilt=MONO_TILT)
    N = name.upper()
    return ('/* %s(a), a in [0, %g]: 8 intervals between the roots of a (%g + %g a) = k '
            '(%s), degree %d; fit errors (relative, of the ramped target on the last) 2^%s; '
            '1 past %g (relative error %.2g) */\n'
            '#define ACTK_%s_FAST_A %sf\n#define ACTK_%s_FAST_B %sf\n#define ACTK_%s_FAST_SAT %sf\n'
            % (name, sat, A, B, ' '.join('%.3f' % v for v in bps[1:8]), deg,
               ' '.join('%.1f' % np.log2(e) for e in errs), sat, float(1 - f(mp.mpf(sat))),
               N, repr(A), N, repr(B), N, repr(sat)) + body)


def tanh_coeffs():
    return pw_coeffs('tanh', mp.tanh, TANH_A, TANH_B, TANH_SAT, TANH_DEG, True)


def erf_coeffs():
    return pw_coeffs('erf', mp.erf, ERF_A, ERF_B, ERF_SAT, ERF_DEG, False)


def gelu_coeffs():
    def K(t):
        return t * 0.5 * mp.erfc(t / mp.sqrt(2)) * mp.exp(t * t / 2)
    bps = breakpoints(GELU_A, GELU_B, GELU_T)
    errs, body = piecewise('gelu', K, bps, GELU_DEG, 'zero', False, ramp=False)
    return ('/* K(t) = t Q(t) e^(t^2/2), t in [0, %g]: 8 intervals between the roots of '
            't (%g + %g t) = k (%s), degree %d; relative errors 2^%s */\n'
            '#define ACTK_GELU_FAST_A %sf\n#define ACTK_GELU_FAST_B %sf\n#define ACTK_GELU_FAST_T %sf\n'
            % (GELU_T, GELU_A, GELU_B, ' '.join('%.3f' % v for v in bps[1:8]), GELU_DEG,
               ' '.join('%.1f' % np.log2(e) for e in errs), repr(GELU_A), repr(GELU_B),
               repr(GELU_T)) + body)


if __name__ == '__main__':
    body = exp_coeffs() + tanh_coeffs() + erf_coeffs() + gelu_coeffs()
    write('coeffs_fast.h', 'ACTK_MATH_COEFFS_FAST_H', body, 'gen_fast.py')
