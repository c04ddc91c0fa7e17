#!/usr/bin/env python3
"""Generate src/math/coeffs_fast16.h: the coefficients of the fast tier's 16-bit cores.

Run: /usr/bin/python3 tools/fit/gen_fast16.py (Debian python3-numpy, python3-mpmath; with
clang-format on the PATH the output is the committed table byte for byte). The cores only
need to be faithful once rounded to the type: a relative error under 2^-9 (bf16) or 2^-12
(f16) guarantees it for every float input (the weakest case is a result just above a power
of two, where the value below is half an ULP away), so the fits aim at 2^-10 and 2^-13. The
printed fit errors are of the float32 polynomials evaluated in double; tests/test_types.c
and tools/sweep.c --type measure what the kernels achieve on every 16-bit input."""
import numpy as np
import mpmath as mp
from fitlib import fit, f32
from gen_coeffs import lit, write

mp.mp.dps = 40
LN2 = float(mp.log(2))


def define(name, v, comment=None):
    s = '' if comment is None else '/* %s */\n' % comment
    if isinstance(v, float):
        v = '(%s)' % lit(v) if v < 0 else lit(v)  # negative: parenthesised
    return s + '#define %s %s\n' % (name, v)


def bisect(g, lo, hi):
    for _ in range(200):
        m = 0.5 * (lo + hi)
        if (g(lo) > 0) == (g(m) > 0):
            lo = m
        else:
            hi = m
    return 0.5 * (lo + hi)


# ---- bf16's logistic: e^r on |r| <= ln2/16 (reduction to nearest in steps of ln2/8), a line --
# e^-z = 2^(n/8) P(r), 2^(j/8) from an 8-entry table (vf_lookup8: one VPERMPS on AVX2 and
# AVX-512), P = C0 + C1 r with both free: the minimax line on |r| <= ln2/16 (+ the rounding of
# the index) is 2^-11.0 relative, a quarter of bf16's 2^-9. Entry j: the bits of 2^(j/8)
# rounded to float less j << 20, so that adding the bits of t = n + ACTK_ROUND_MAGIC shifted
# left by 20 (n's low 3 bits land on j's, the others on the exponent) gives the bits of 2^(n/8).
# (f16 kept the cubic below: the f32 tier's 16-entry table and a line, 2^-13.0, did not pay,
# exp_fast16.h.)
def exp_table_coeffs():
    N = 8
    a = LN2 / (2 * N) + 2.0 ** -12
    c, e = fit(np.exp, -a, a, [0, 1], rel=True, m=3000)
    out = ['/* bf16: e^r ~ C0 + C1 r on |r| <= ln2/16 (2^(j/8) from actk_exp16_tab8): relative '
           'error 2^%.2f */\n' % np.log2(e)]
    for k, v in enumerate(c):
        out.append(define('ACTK_EXP16T_BF16_C%d' % k, v))
    tab = []
    for j in range(N):
        b = int(np.float32(2.0 ** (j / N)).view(np.uint32)) - (j << 20)
        tab.append(float(np.uint32(b).view(np.float32)))
    out.append('/* 2^(j/8) as float bits less j << 20 (exp16_pow8) */\n')
    out.append('static const float actk_exp16_tab8[8] = {%s};\n' % ', '.join(lit(v) for v in tab))
    return ''.join(out)


# ---- e^r on |r| <= ln2/2 (round-to-nearest reduction), degree 3 (gelu's e^G) -------------
def exp_coeffs():
    c, e = fit(np.exp, -LN2 / 2 - 2.0 ** -10, LN2 / 2 + 2.0 ** -10, [1, 2, 3], rel=True,
               fixed=lambda x: np.ones_like(x), m=3000)
    out = ['/* e^r ~ 1 + r (C1 + r (C2 + r C3)) on |r| <= ln2/2: relative error 2^%.2f */\n'
           % np.log2(e)]
    for k, v in enumerate(c):
        out.append(define('ACTK_EXP16_C%d' % (k + 1), v))
    return ''.join(out)


# ---- odd polynomials: f(x) ~ x Q(x^2) on [-A, A], x clamped there ----------------------
def odd_ramp(name, f, f0, A, nt, below):
    """Q of nt coefficients; the target rises to 1 at A from a0, where 1 - f(a0) = below
    (the type's values around f there are 1 and the one below), (a - a0)^2-shaped, so the
    clamped result rounds to exactly 1."""
    a0 = bisect(lambda a: float(1 - f(mp.mpf(a))) - below, 0.3, A)
    top = 1 - float(f(mp.mpf(A)))

    def Q(s):
        out = []
        for v in s:
            if v < 1e-20:
                out.append(f0)
                continue
            a = mp.sqrt(mp.mpf(v))
            t = f(a) + (top * ((a - a0) / (A - a0)) ** 2 if a > a0 else 0)
            out.append(float(t / a))
        return np.array(out)
    c, e = fit(Q, 0.0, A * A, list(range(nt)), rel=True, m=3000)
    out = ['/* %s: x Q(x^2) on [-%g, %g] (x clamped), Q of degree %d in x^2, the target rising '
           'to 1 at %g from %.3f: relative error 2^%.2f */\n'
           % (name, A, A, nt - 1, A, a0, np.log2(e))]
    N = 'ACTK_' + name.upper()
    out.append(define(N + '_A', repr(A) + 'f'))
    for k, v in enumerate(c):
        out.append(define('%s_Q%d' % (N, k), v))
    return ''.join(out)


def erf_coeffs():
    k = float(2 / mp.sqrt(mp.pi))
    return (odd_ramp('erf_bf16', mp.erf, k, 2.2, 5, 0.75 * 2.0 ** -8) +
            odd_ramp('erf_f16', mp.erf, k, 2.6, 7, 0.75 * 2.0 ** -11))


# ---- rationals: f(x) ~ x P(x^2) / Q(x^2) on [-A, A], Q(0) = 1 ----------------------------
def rational(f, A, m, k, iters=60, npts=6000):
    """Minimax relative fit by Loeb's iteration (weighted least squares of P - f Q / x over
    the last Q, Lawson's multiplicative weights), coefficients rounded to float32; the error
    returned is of the rounded rational evaluated in double."""
    i = np.arange(npts)
    x = A * 0.5 * (1 - np.cos(np.pi * (i + 0.5) / npts))
    x = x[x > 1e-6]
    s, fx = x * x, f(x)
    g = fx / x
    w0 = x / np.abs(fx)
    lam, Qv, best = np.ones_like(x) / len(x), np.ones_like(x), None
    for _ in range(iters):
        M = np.stack([s ** j for j in range(m + 1)] + [-g * s ** j for j in range(1, k + 1)], 1)
        ww = np.sqrt(lam) * w0 / np.abs(Qv)
        c, *_ = np.linalg.lstsq(M * ww[:, None], g * ww, rcond=None)
        pc, qc = [f32(v) for v in c[:m + 1]], [1.0] + [f32(v) for v in c[m + 1:]]
        P = sum(pc[j] * s ** j for j in range(m + 1))
        Q = sum(qc[j] * s ** j for j in range(k + 1))
        err = np.abs(x * P / Q - fx) / np.abs(fx)
        if best is None or err.max() < best[2]:
            best = (pc, qc, err.max())
        Qv = sum(c_ * s ** j for j, c_ in enumerate([1.0] + list(c[m + 1:])))
        lam = lam * err
        lam /= lam.sum()
    return best


def tanh_rational(name, A, m, k):
    pc, qc, e = rational(np.tanh, A, m, k)
    N = 'ACTK_' + name.upper()
    out = ['/* %s: x P(x^2) / Q(x^2) on [-%g, %g] (x clamped; tanh(%g) = 1 - 2^%.1f rounds to 1), '
           'P of degree %d, Q of degree %d with Q(0) = 1: relative error 2^%.2f */\n'
           % (name, A, A, A, np.log2(1 - np.tanh(A)), m, k, np.log2(e))]
    out.append(define(N + '_A', repr(A) + 'f'))
    for j, v in enumerate(pc):
        out.append(define('%s_P%d' % (N, j), v))
    for j, v in enumerate(qc[1:]):
        out.append(define('%s_Q%d' % (N, j + 1), v))
    return ''.join(out)


def tanh_coeffs():
    # both rationals with one exact division (a polynomial: bf16 degree 7 in x^2, 11
    # operations against 7 and the divider, slower on AVX2; f16 degree 30). bf16: P of
    # degree 1, Q of 2 (2^-11.9, the clamp where the rational still rises: at 3.8 it
    # peaks inside); P and Q of degree 1 reach only 2^-7.8
    return (tanh_rational('tanh_bf16', 3.7, 1, 2) + tanh_rational('tanh_f16', 4.9, 2, 2))


# ---- gelu: log Q(t), Q the upper normal tail, as one polynomial on [0, T] -----------------
def gelu_logq(name, T, deg):
    def logq(t):
        return np.array([float(mp.log(mp.erfc(mp.mpf(v) / mp.sqrt(2)) / 2)) for v in t])
    c, e = fit(logq, 0.0, T, list(range(deg + 1)), rel=False, m=3000)
    N = 'ACTK_' + name.upper()
    out = ['/* %s: log Q(t) ~ G(t) = G0 + t (G1 + ... + t G%d) on [0, %g], Q(t) = erfc(t / sqrt 2) '
           '/ 2: absolute error 2^%.2f (so Q = e^G has that relative error) */\n'
           % (name, deg, T, np.log2(e))]
    out.append(define(N + '_T', repr(T) + 'f'))
    for j, v in enumerate(c):
        out.append(define('%s_G%d' % (N, j), v))
    return ''.join(out)


def gelu_coeffs():
    return gelu_logq('gelu_bf16', 12.9, 7) + gelu_logq('gelu_f16', 5.9, 6)


# ---- softplus and elu: log1p(u) and e^r - 1 of lower degree than the f32 fast tier's -----
# (mish needs no fit of its own: exp16_pos's cubic and one division)
def log1p_unit16(name, deg):
    """log1p(u) ~ u + u^2 (L1 + u (L2 + ... + u Ldeg)) on [0, 1] (u = e^-|x|, no reduction:
    log1p(u) / u is smooth there, its nearest singularity at u = -1), relative error."""
    def h(u):
        return np.array([1.0 if v == 0 else float(mp.log1p(mp.mpf(v)) / v) for v in u])
    c, e = fit(h, 0.0, 1.0, list(range(1, deg + 1)), rel=True,
               fixed=lambda u: np.ones_like(u), m=3000)
    out = ['/* %s: log1p(u) ~ u + u^2 (L1 + ... + u^%d L%d) on [0, 1]: relative error 2^%.2f */\n'
           % (name, deg - 1, deg, np.log2(e))]
    for k, v in enumerate(c):
        out.append(define('ACTK_%s_L%d' % (name.upper(), k + 1), v))
    return ''.join(out)


def expm1_r16(name, deg):
    """e^r - 1 ~ r (1 + r Q(r)) on |r| <= ln2/2 (round-to-nearest reduction), Q of degree
    deg, fitted for the relative error of e^r - 1 (r dQ / (1 + r Q))."""
    a = LN2 / 2 + 2.0 ** -10

    def q(r):
        return np.array([float((mp.expm1(mp.mpf(v)) - v) / mp.mpf(v) ** 2) for v in r])

    def scale(r):
        return np.abs(r) / np.abs(np.expm1(r) / r)
    c, e = fit(q, -a, a, list(range(deg + 1)), rel=False, m=3000, err_scale=scale)
    out = ['/* %s: e^r - 1 ~ r (1 + r Q(r)) on |r| <= ln2/2, Q of degree %d: relative error '
           '2^%.2f */\n' % (name, deg, np.log2(e))]
    for k, v in enumerate(c):
        out.append(define('ACTK_%s_Q%d' % (name.upper(), k), v))
    return ''.join(out)


def softplus_elu_coeffs():
    return (log1p_unit16('softplus_f16', 5) + log1p_unit16('softplus_bf16', 3) +
            expm1_r16('elu_f16', 2) + expm1_r16('elu_bf16', 1))


if __name__ == '__main__':
    body = (exp_table_coeffs() + exp_coeffs() + erf_coeffs() + tanh_coeffs() + gelu_coeffs() +
            softplus_elu_coeffs())
    write('coeffs_fast16.h', 'ACTK_MATH_COEFFS_FAST16_H', body, 'gen_fast16.py')
