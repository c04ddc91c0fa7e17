#!/usr/bin/env python3
"""Generate src/math/coeffs_fast.h: the coefficients of the fast tier (relative error <= 2^-18).

Run: /usr/bin/python3 tools/fit/gen_fast.py (Debian python3-numpy, python3-mpmath; with
clang-format on the PATH the output is the committed table byte for byte). The printed fit
errors are of the float32 coefficients evaluated in double; tools/sweep.c measures what the
kernels achieve over all floats (build/tools/actk_sweep OP --tier fast)."""
import numpy as np
import mpmath as mp
from fitlib import fit, f32, ratfit
from gen_coeffs import lit, vec, mpf_fun, write

mp.mp.dps = 40
LN2 = float(mp.log(2))

# Every exponential is 2^n P(r) with n from the add-magic trick. The monotone op (sigmoid) uses
# the floor reduction in steps of ln2/16, e^-x = 2^(n/16) P(r), r in [0, ln2/16] (+ the rounding
# of the index, EXPT_PAD), 2^(j/16) from a 16-entry table and P of degree 2: all of P's Horner
# terms are >= 0 and each step is monotone, and P sits below e^r at ln2/16 (checked: at least
# EXPT_BELOW ulp, more than the table's rounding) so that where n steps, 2^((n-1)/16) P(r^-)
# <= 2^(n/16) P(0^+). silu, swish, quick_gelu, mish and softplus (not monotone) round the
# index to nearest with the same table: e^-q ~ P(q) on |q| <= ln2/32 + EXPT_PAD, degree
# EXPTN_DEG.
EXPT_N, EXPT_DEG = 16, 2
EXPT_PAD = 2.0 ** -14
EXPT_BELOW = 2.0
EXPTN_DEG = 2
# tanh: (1 - e^-2a) / (1 + e^-2a) with e^-2a = 2^n e^-2r, p = -expm1(-2r)/2 = r + r^2 Q(r),
# |r| <= ln2/4 (+ the rounding of the index), Q of degree 3, relative error of p.
TANH_R = LN2 / 4 + 2.0 ** -17
TANH_QDEG = 3
# elu: e^r - 1 = r + r^2 Q(r) on |r| <= ln2/2 (+ the rounding of the index and ln2 as one float),
# Q of degree 3, relative error of e^r - 1 (n = 0 returns it as the result: no cancellation).
EXPM1_R = LN2 / 2 + 2.0 ** -12
EXPM1_QDEG = 3
# erf: k = round(ERF_A a), s = ERF_A a - k, degree ERF_DEG in s per interval (8 intervals, the
# last ends at the clamp). Interval 0: y = s + s W(s) (W = erf(a)/s - 1, relative accuracy to
# subnormal a); the others y = c0 + s W(s), c0 a float near erf(k / ERF_A). Where the index
# steps, the kernel's results on ERF_WIN floats each side are compared (in the kernel's own
# float arithmetic) and c0 of the interval above is raised until they never step down; the last
# interval's target rises to 1 + 2^-25 at 3.5, and ERF_SAT, the first float where the kernel
# gives 1, is the clamp.
ERF_A, ERF_DEG, ERF_TILT = 2.0, 5, 0.0
ERF_WIN = 256
ERF_END = 3.5
# gelu: K(t) = t Q(t) e^(t^2/2) = t P(t) / R(t) on [0, GELU_T], P of degree 3, R of degree 4
# (R(0) = 1); e^(-t^2/2) = 2^(n/16) e^(-v/2), 2^(n/16) from sigmoid's table, e^(-v/2) on
# |v| <= ln2/16 + 2^-12 (v = t^2 + n ln2/8), degree 2.
GELU_T = 9.0
GELU_V = LN2 / 16 + 2.0 ** -12
GELU_EXP_DEG = 2
# gelu_tanh: 2^(v) = 2^(n/16) 2^(f/16), n = round(16 v) (v = -2u log2(e)), 2^(n/16) from sigmoid's
# table, 2^(f/16) on |f| <= 1/2 + 2^-9 (f = 16 v - n), degree GT_EXP_DEG.
GT_F = 0.5 + 2.0 ** -9
GT_X = 10.0
GT_EXP_DEG = 2


def mlit(v):
    """A float literal for a #define: negative ones parenthesised."""
    return '(%s)' % lit(v) if v < 0 else lit(v)


def poly_fit(target, lo, hi, deg, m=3000):
    """P(v) = 1 + v (C1 + v (C2 + ... + v Cdeg)) ~ target(v), relative."""
    c, _ = fit(target, lo, hi, list(range(1, deg + 1)), rel=True, fixed=lambda x: np.ones_like(x),
               m=m)
    x = np.linspace(lo, hi, 20001)
    p = np.zeros_like(x)
    for ck in reversed(c):
        p = (p + ck) * x
    return c, x, p + 1


def exp_table_coeffs():
    top = LN2 / EXPT_N + EXPT_PAD
    c, x, p = poly_fit(np.exp, -EXPT_PAD, top, EXPT_DEG)
    rel = p / np.exp(x) - 1
    below = -rel[-1] * 2 ** 23
    assert below >= EXPT_BELOW, below
    # entry j: the bits of 2^(j/16) rounded to float, less j << 19, so that adding the bits of
    # t = n + ACTK_ROUND_MAGIC shifted left by 19 (n's low 4 bits land on j's, the others on
    # the exponent) gives the bits of 2^(n/16): that rounded 2^(j/16) times 2^(n >> 4)
    tab = []
    for j in range(EXPT_N):
        b = int(np.float32(2.0 ** (j / EXPT_N)).view(np.uint32)) - (j << 19)
        tab.append(float(np.uint32(b).view(np.float32)))
    out = ['/* e^r ~ 1 + r (C1 + r C2) on [0, ln2/16] (sigmoid, floor reduction): relative error '
           '2^%.1f, %.2f ulp below e^r at ln2/16; actk_fexpt_tab[j]: 2^(j/16) as float bits, less '
           'j << 19 (exp_fast.h) */\n' % (np.log2(np.abs(rel).max()), below)]
    for k, v in enumerate(c):
        out.append('#define ACTK_FEXPT_C%d %s\n' % (k + 1, mlit(v)))
    out.append('static const float actk_fexpt_tab[16] = {%s};\n' % ', '.join(lit(v) for v in tab))
    return ''.join(out)


def exp_table_round_coeffs():
    # P(q) ~ e^-q, |q| <= ln2/32 (+ the index's rounding): e^-z = 2^(n/16) P(z + n ln2/16)
    top = LN2 / (2 * EXPT_N) + EXPT_PAD
    c, x, p = poly_fit(lambda x: np.exp(-x), -top, top, EXPTN_DEG)
    rel = p / np.exp(-x) - 1
    out = ['/* e^-q ~ 1 + q (C1 + q C2) on |q| <= ln2/32 (silu, swish, quick_gelu, mish, '
           'softplus: table, nearest): relative error 2^%.1f */\n' % np.log2(np.abs(rel).max())]
    for k, v in enumerate(c):
        out.append('#define ACTK_FEXPTN_C%d %s\n' % (k + 1, mlit(v)))
    return ''.join(out)


def tanh_coeffs():
    def pm(v):
        return -mp.expm1(-2 * mp.mpf(v)) / 2
    def Qf(x):
        return np.array([float((pm(v) - mp.mpf(v)) / mp.mpf(v) ** 2) for v in x])
    def wt(x):
        return np.array([float(mp.mpf(v) ** 2 / abs(pm(v))) for v in x])
    c, e = fit(Qf, -TANH_R, TANH_R, list(range(TANH_QDEG + 1)), rel=False, err_scale=wt, m=3000)
    out = ['/* -expm1(-2r)/2 ~ r + r^2 (Q0 + r (Q1 + r (Q2 + r Q3))) on |r| <= ln2/4 (tanh): '
           'relative error 2^%.1f */\n' % np.log2(e)]
    for k, v in enumerate(c):
        out.append('#define ACTK_FTANH_Q%d %s\n' % (k, mlit(v)))
    return ''.join(out)


def expm1_coeffs():
    def pm(v):
        return mp.expm1(mp.mpf(v))
    def Qf(x):
        return np.array([float((pm(v) - mp.mpf(v)) / mp.mpf(v) ** 2) for v in x])
    def wt(x):
        return np.array([float(mp.mpf(v) ** 2 / abs(pm(v))) for v in x])
    c, e = fit(Qf, -EXPM1_R, EXPM1_R, list(range(EXPM1_QDEG + 1)), rel=False, err_scale=wt, m=3000)
    out = ['/* e^r - 1 ~ r + r^2 (Q0 + r (Q1 + r (Q2 + r Q3))) on |r| <= ln2/2 (elu, expm1_fast.h): '
           'relative error 2^%.1f */\n' % np.log2(e)]
    for k, v in enumerate(c):
        out.append('#define ACTK_FEXPM1_Q%d %s\n' % (k, mlit(v)))
    return ''.join(out)


def erf_tables():
    """Interval k: s = A a - k in [-1/2, 1/2] (interval 0: [0, 1/2], the last up to A ERF_END)."""
    A, N, end = ERF_A, 8, ERF_END
    cols = {'c0': [], **{'w%d' % j: [] for j in range(ERF_DEG)}}
    errs = []
    top = 1 + 2.0 ** -25
    for k in range(N):
        lo, hi = max(k - 0.5 - 2.0 ** -8, 0.0), min(k + 0.5 + 2.0 ** -8, end * A)
        last = k + 0.5 >= end * A

        def tf(a, lo=lo, hi=hi, k=k, last=last):
            r = mp.erf(a) * (1 - ERF_TILT * (2 * (a * A - lo) / (hi - lo) - 1))
            if last:
                left = (k - 0.5) / A
                bottom = mp.erf(mp.mpf(end)) * (1 - ERF_TILT * (2 * (end * A - lo) / (hi - lo) - 1))
                r = r + (top - bottom) * ((a - left) / (end - left)) ** 2
            return r
        if k == 0:
            # y = s + s W(s), W = erf(s / A) / s - 1; W(0) = 1/(A sqrt(pi)/2) - 1 pinned (the
            # whole result for tiny a)
            w0 = f32(2 / (A * mp.sqrt(mp.pi)) - 1)
            def g(x):
                return np.array([float(tf(mp.mpf(v) / A) / mp.mpf(v) - 1) if v > 0 else w0
                                 for v in x])
            c, e = fit(g, 0.0, hi, list(range(1, ERF_DEG)), rel=False, m=1500,
                       fixed=lambda x: np.full_like(x, w0),
                       err_scale=lambda x: np.array([float(mp.mpf(v) / mp.erf(mp.mpf(v) / A))
                                                     if v > 0 else A * float(mp.sqrt(mp.pi)) / 2
                                                     for v in x]))
            c0, w = 0.0, [w0] + list(c)
        else:
            c0 = f32(tf(mp.mpf(k) / A))
            def g(x, k=k):
                return np.array([float(tf((k + mp.mpf(v)) / A)) for v in x])
            w, e = fit(g, lo - k, hi - k, list(range(1, ERF_DEG + 1)), rel=True, m=1500,
                       fixed=lambda x, c0=c0: np.full_like(x, c0))
        errs.append(e)
        cols['c0'].append(c0)
        for j in range(ERF_DEG):
            cols['w%d' % j].append(w[j])
    return cols, errs


def erf_kernel32(a, cols):
    """The kernel's float32 arithmetic for 0 <= a (no clamp), each operation rounded once."""
    def rnd(v):
        with mp.workprec(24):
            return +v

    def fma(x, y, z):
        with mp.workprec(200):
            v = mp.mpf(x) * mp.mpf(y) + mp.mpf(z)
        return rnd(v)
    magic = mp.mpf(3 * 2 ** 22)
    a = mp.mpf(a)
    t = fma(a, ERF_A, magic)
    k = int(t - magic)
    s = fma(a, ERF_A, rnd(magic - t))
    w = fma(cols['w4'][k], s, cols['w3'][k])
    for j in (2, 1, 0):
        w = fma(w, s, cols['w%d' % j][k])
    return fma(s, w, max(mp.mpf(cols['c0'][k]), s))


def f32_step(v, k):
    """The float k steps above v (k < 0: below)."""
    b = np.float32(v).view(np.int32) + k if v > 0 else None
    return float(np.int32(b).view(np.float32))


def erf_boundaries(cols):
    """Raise c0 where the index steps until the result never steps down across the step."""
    fixes = []
    for k in range(1, 8):
        b = np.float32((k - 0.5) / ERF_A)  # 2b = k - 1/2: the first float of interval k is b or next
        lo = [erf_kernel32(f32_step(float(b), -j), cols) for j in range(1, ERF_WIN)]
        hi = [erf_kernel32(f32_step(float(b), j), cols) for j in range(0, ERF_WIN)]
        # the tie 2a = k - 1/2 rounds to the even k: it belongs to interval k if k is even
        with mp.workprec(24):  # the kernel's index at b: round(A b), ties to even
            at_b = int(+(mp.mpf(float(b)) * ERF_A + 3 * 2 ** 22) - 3 * 2 ** 22)
        if at_b != k:
            lo.append(hi.pop(0))
        steps = 0
        while max(lo) > min(hi):
            cols['c0'][k] = f32_step(cols['c0'][k], 1)
            hi = [erf_kernel32(f32_step(float(b), j), cols) for j in range(0, ERF_WIN)]
            if at_b != k:
                hi.pop(0)
            steps += 1
        fixes.append(steps)
    return fixes


def erf_coeffs():
    cols, errs = erf_tables()
    fixes = erf_boundaries(cols)
    # the clamp: the first float where the kernel's result is 1 (bisection over the float bits;
    # the result is monotone there, which the sweep checks)
    lo, hi = np.float32(3.0), np.float32(ERF_END)
    assert erf_kernel32(float(hi), cols) >= 1 and erf_kernel32(float(lo), cols) < 1
    ilo, ihi = int(lo.view(np.int32)), int(hi.view(np.int32))
    while ihi - ilo > 1:
        mid = (ilo + ihi) // 2
        if erf_kernel32(float(np.int32(mid).view(np.float32)), cols) >= 1:
            ihi = mid
        else:
            ilo = mid
    assert erf_kernel32(float(np.int32(ihi).view(np.float32)), cols) == 1
    sat = float(np.int32(ihi).view(np.float32))
    out = ['/* erf(a): k = round(%g a), s = %g a - k, y = V + s W(s), W of degree %d in s (8 '
           'intervals of 1/%g); interval 0 V = s (W = erf(a)/s - 1), the others V = c0; fit errors '
           '(relative) 2^%s; c0 raised by %s ulp where the index steps; the clamp '
           'ACTK_ERF_FAST_SAT is the first float where the result is 1 (1 - erf there: 2^%.1f) */\n'
           % (ERF_A, ERF_A, ERF_DEG - 1, ERF_A, ' '.join('%.1f' % np.log2(e) for e in errs),
              ' '.join('%d' % f for f in fixes), float(mp.log(1 - mp.erf(sat), 2)))]
    out.append('#define ACTK_ERF_FAST_A %sf\n#define ACTK_ERF_FAST_SAT %s\n'
               % (repr(ERF_A), lit(sat)))
    out.append(vec('actk_erf_fast_c0', cols['c0']))
    for j in range(ERF_DEG):
        out.append(vec('actk_erf_fast_w%d' % j, cols['w%d' % j]))
    return ''.join(out)


def gelu_coeffs():
    def KoverT(t):
        t = mp.mpf(t)
        if t == 0:
            return mp.mpf(1) / 2
        return 0.5 * mp.erfc(t / mp.sqrt(2)) * mp.exp(t * t / 2)
    x = np.cos(np.pi * (np.arange(3000) + 0.5) / 3000)[::-1] * GELU_T / 2 + GELU_T / 2
    y = np.array([float(KoverT(v)) for v in x])
    p, q, e = ratfit(x, y, 3, 4, 1 / y)
    pf, qf = [f32(v) for v in p], [f32(v) for v in q]
    ef = np.abs(np.polyval(pf[::-1], x) / np.polyval(qf[::-1], x) / y - 1).max()
    c, xs, ps = poly_fit(lambda v: np.exp(-v / 2), -GELU_V, GELU_V, GELU_EXP_DEG)
    rel = ps / np.exp(-xs / 2) - 1
    out = ['/* gelu: K(t)/t = Q(t) e^(t^2/2) ~ P(t)/R(t) on [0, %g], P = P0 + ... + P3 t^3, R = 1 + '
           'R1 t + ... + R4 t^4: relative error 2^%.1f (float coefficients); e^(-v/2) ~ 1 + v (C1 + '
           'v C2) on |v| <= ln2/16: relative error 2^%.1f */\n'
           % (GELU_T, np.log2(ef), np.log2(np.abs(rel).max()))]
    out.append('#define ACTK_GELU_FAST_T %sf\n' % repr(GELU_T))
    for k, v in enumerate(pf):
        out.append('#define ACTK_GELU_FAST_P%d %s\n' % (k, mlit(v)))
    assert qf[0] == 1.0
    for k, v in enumerate(qf[1:]):
        out.append('#define ACTK_GELU_FAST_R%d %s\n' % (k + 1, mlit(v)))
    for k, v in enumerate(c):
        out.append('#define ACTK_GELU_FAST_C%d %s\n' % (k + 1, mlit(v)))
    return ''.join(out)


def gelu_tanh_coeffs():
    # 16 v = -32u log2(e) = x (D1 + D3 x^2) (the factor 16 makes the kernel's pair arithmetic give
    # the table's index n = round(16 v) directly); D1 = D1H + D1L, D3 = D3H + D3L. The kernel's
    # wh = fl(D3H x^2 + D1H) (x clamped at GT_X) has |D1H| <= |wh| < 2^(e+1), e the exponent of
    # the largest: D1H a multiple of 2^(e-23) makes D1H and wh multiples of ulp(wh), so
    # |wh| - |D1H| in [0, |wh|) is exact, and leaves |D1L| <= 2^(e-24): x wl stays below 2^-12
    # and n = round(x wh) misses round(16 v) by no more than the fit's margin in f.
    C1 = 2 * mp.sqrt(2 / mp.pi)
    D1, D3 = -16 * C1 / mp.log(2), -16 * C1 * mp.mpf('0.044715') / mp.log(2)
    assert D1 * D3 > 0  # D3H x^2 and D1H of one sign: |wh| >= |D1H|
    e = int(mp.floor(mp.log(abs(D1) + abs(D3) * GT_X ** 2, 2)))
    g = mp.mpf(2) ** (e - 23)
    d1h = float(mp.nint(D1 / g) * g)
    d1l = f32(D1 - d1h)
    assert abs(GT_X * d1l) < 2.0 ** -12, d1l
    d3h = f32(D3)
    d3l = f32(D3 - d3h)
    c, xs, ps = poly_fit(lambda f: np.exp2(f / 16), -GT_F, GT_F, GT_EXP_DEG)
    rel = ps / np.exp2(xs / 16) - 1
    out = ['/* gelu_tanh: -32u log2(e) = x (D1 + D3 x^2), D1 = D1H + D1L (D1H on wh\'s grid), D3 = D3H + '
           'D3L; 2^(f/16) ~ 1 + f (C1 + %s) on |f| <= 1/2: relative error 2^%.1f */\n'
           % ('f C2' if GT_EXP_DEG == 2 else '... + f C%d' % GT_EXP_DEG,
              np.log2(np.abs(rel).max()))]
    for name, v in (('D1H', d1h), ('D1L', d1l), ('D3H', d3h), ('D3L', d3l)):
        out.append('#define ACTK_GT_FAST_%s %s\n' % (name, mlit(v)))
    for k, v in enumerate(c):
        out.append('#define ACTK_GT_FAST_C%d %s\n' % (k + 1, mlit(v)))
    return ''.join(out)


if __name__ == '__main__':
    body = (exp_table_coeffs() + exp_table_round_coeffs() + tanh_coeffs() + expm1_coeffs() + erf_coeffs() +
            gelu_coeffs() + gelu_tanh_coeffs())
    write('coeffs_fast.h', 'ACTK_MATH_COEFFS_FAST_H', body, 'gen_fast.py')
