#!/usr/bin/env python3
"""Generate src/math/coeffs_*.h: the polynomial coefficients of erf and gelu.

Run: /usr/bin/python3 tools/fit/gen_coeffs.py (Debian python3-numpy, python3-mpmath).
The printed fit errors are of the float32 polynomials evaluated in double; the
sweep tool measures what the kernels actually achieve over all floats."""
import os
import numpy as np
import mpmath as mp
from fitlib import fit, f32

mp.mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'src', 'math')

ERF_SMALL = 0.754        # erf: |x| below uses a + a P(a^2); past 0.75 + 0.40625/256 (see erf.h)
ERF_TAIL = (0.75, 4.0, 8)  # 8 equal intervals, one polynomial each
ERF_TAIL_DEG = 5
GELU_IV = [(0, 0.5), (0.5, 1), (1, 2), (2, 3), (3, 4), (4, 6), (6, 8), (8, 16)]
GELU_DEG = 7


def lit(v):
    """C float literal that round-trips: shortest hex mantissa, then f."""
    if v == 0:
        return '0.0f'
    mant, exp = float(np.float32(v)).hex().split('p')
    mant = mant.rstrip('0').rstrip('.')
    return '%sp%sf' % (mant, exp)


def split(v):
    h = f32(v)
    return h, f32(v - h)


def vec(name, vals, comment=None):
    s = '' if comment is None else '/* %s */\n' % comment
    return s + 'static const float %s[8] = {%s};\n' % (name, ', '.join(lit(v) for v in vals))


def mpf_fun(f):
    return lambda x: np.array([float(f(mp.mpf(v))) for v in x])


def float_valued_center(f, mid, tol):
    """The float nearest mid, walking outwards, where f is within tol of a float."""
    c = np.float32(mid)
    step = float(np.spacing(c))
    for j in range(1 << 20):
        for cand in (float(c) + j * step, float(c) - j * step):
            v = f(mp.mpf(cand))
            h = f32(float(v))
            if abs(v - h) < tol:
                return cand, h
    raise ValueError('no float-valued center near %g' % mid)


def erf_coeffs():
    out = []
    # small: erf(a) = a + a P(w), w = a^2; error weighted as relative error of erf
    def P(w):
        return mp.erf(mp.sqrt(w)) / mp.sqrt(w) - 1 if w > 0 else 2 / mp.sqrt(mp.pi) - 1
    def rel_w(w):
        return np.array([float(1 / (mp.erf(mp.sqrt(mp.mpf(v))) / mp.sqrt(mp.mpf(v)))) if v > 0
                         else float(mp.sqrt(mp.pi) / 2) for v in w])
    W = ERF_SMALL ** 2
    c, e = fit(mpf_fun(P), 0, W, list(range(6)), rel=False, m=2000, err_scale=rel_w)
    out.append('/* erf(a) = a + a P(a^2) for |a| < %g: relative error 2^%.1f */\n' %
               (ERF_SMALL, np.log2(e)))
    out.append('#define ACTK_ERF_SMALL %sf\n' % repr(ERF_SMALL))
    out.append('static const float actk_erf_small[%d] = {%s};\n' %
               (len(c), ', '.join(lit(v) for v in c)))
    lo, hi, N = ERF_TAIL
    wid = (hi - lo) / N
    centers, cols = [], [[] for _ in range(ERF_TAIL_DEG + 1)]
    worst = 0
    for i in range(N):
        a = lo + i * wid
        b = a + wid
        # the kernel's index rounds (a - lo)/wid - 0.5 - 2^-8: a lane up to wid 2^-8 above a
        # boundary takes the interval below it, so each fit reaches that far past its end
        b1 = b + wid * 2 ** -8
        # A center near the middle where the minimax constant term is a float to 2^-36:
        # then it is one float (no lo part, no lookup for it), and s = a - center stays
        # exact (Sterbenz). The constant of a free fit sits d from erf(center); d barely
        # moves with the center, so the search asks erf(c) + d to be a float.
        mid = (a + b) / 2
        cf, _ = fit(mpf_fun(mp.erf), a, b1, list(range(ERF_TAIL_DEG + 1)), center=mid,
                    rel=False, m=1500, split0=True)
        d = mp.mpf(cf[0]) - mp.erf(mp.mpf(mid))
        ctr, c0 = float_valued_center(lambda c: mp.erf(c) + d, mid, 2.0 ** -36)
        cc, e = fit(mpf_fun(mp.erf), a, b1, list(range(1, ERF_TAIL_DEG + 1)),
                    center=ctr, rel=False, m=1500, fixed=lambda x, c0=c0: np.full_like(x, c0))
        worst = max(worst, e)
        centers.append(ctr)
        cols[0].append(c0)
        for k in range(1, ERF_TAIL_DEG + 1):
            cols[k].append(cc[k - 1])
    out.append('\n/* erf(a) for a in [%g, %g): %d intervals of %g, each a degree-%d polynomial in\n'
               ' * s = a - center, the center a float near the middle where the constant term\n'
               ' * c0 of the fit is a float: absolute error 2^%.1f */\n' % (lo, hi, N, wid, ERF_TAIL_DEG,
                                                             np.log2(worst)))
    out.append('#define ACTK_ERF_TAIL_LO %sf\n#define ACTK_ERF_TAIL_WIDTH %sf\n' %
               (repr(lo), repr(wid)))
    out.append(vec('actk_erf_center', centers))
    out.append(vec('actk_erf_c0', cols[0]))
    for k in range(1, ERF_TAIL_DEG + 1):
        out.append(vec('actk_erf_c%d' % k, cols[k]))
    return ''.join(out)


def gelu_coeffs():
    # K(t) = t Q(t) e^(t^2/2) on [0, 15], Q the upper normal tail, one polynomial in
    # s = t - center per interval; the intervals follow the float's exponent and first mantissa
    # bit so the index is a shift, and s is exact. A rational variable such as (t - 4)/(t + 4)
    # needs fewer terms, but its rounding alone costs two ulps near t = 0.7, where K is steep.
    # On [0, 0.5) the center is 0 and K = t/2 + t^2 (...): no constant term, so K keeps its
    # relative accuracy as t -> 0 (it is the whole result for small negative x).
    def K(t):
        return t * 0.5 * mp.erfc(t / mp.sqrt(2)) * mp.exp(t * t / 2)
    # Past t = 13.2 the result t Q(t) is subnormal and needs only an absolute 2^-149: relative
    # error is weighted down there, which lets [8, 16) make do with one polynomial.
    def subnormal_weight(t):
        v = np.array([float(mp.mpf(x) * 0.5 * mp.erfc(mp.mpf(x) / mp.sqrt(2))) for x in t])
        return np.minimum(1.0, v / 2.0 ** -126)
    cols = [[] for _ in range(GELU_DEG + 2)]
    worst = 0
    for (a, b) in GELU_IV:
        if a == 0:
            ctr = 0.0
            cc, e = fit(mpf_fun(K), 2 ** -20, b, list(range(2, GELU_DEG + 1)), center=0.0,
                        rel=True, m=1500, fixed=lambda x: 0.5 * x)
            cc = [0.0, 0.5] + cc
        else:
            # as for erf: a center near the middle where the constant term of the fit is a
            # float, so it needs no lo part (d: a free fit's constant minus K(mid))
            b1, mid = min(b, 15.0), (a + b) / 2
            cf, _ = fit(mpf_fun(K), a, b1, list(range(GELU_DEG + 1)), center=mid, rel=True,
                        m=1500, split0=True, err_scale=subnormal_weight)
            d = mp.mpf(cf[0]) - K(mp.mpf(mid))
            ctr, c0 = float_valued_center(lambda c: K(c) + d, mid, 2.0 ** -36)
            cc, e = fit(mpf_fun(K), a, b1, list(range(1, GELU_DEG + 1)), center=ctr, rel=True,
                        m=1500, err_scale=subnormal_weight,
                        fixed=lambda x, c0=c0: np.full_like(x, c0))
            cc = [c0] + cc
        worst = max(worst, e)
        cols[0].append(ctr)
        for k in range(0, GELU_DEG + 1):
            cols[k + 1].append(cc[k])
    out = ['/* K(t) = t Q(t) e^(t^2/2) for t in [0, 15], Q the upper normal tail: on each of\n'
           ' * %s a degree-%d polynomial in s = t - center, the center a float\n'
           ' * near the middle where the constant term is a float (0 on the first, where\n'
           ' * K(0) = 0): relative error 2^%.1f, weighted down where the result is subnormal */\n'
           % (' '.join('[%g,%g)' % iv for iv in GELU_IV), GELU_DEG, np.log2(worst))]
    out.append(vec('actk_gelu_center', cols[0]))
    for k in range(0, GELU_DEG + 1):
        out.append(vec('actk_gelu_k%d' % k, cols[k + 1]))
    return ''.join(out)


def write(name, guard, body):
    path = os.path.join(OUT, name)
    with open(path, 'w') as f:
        f.write('/* Generated by tools/fit/gen_coeffs.py; do not edit. */\n')
        f.write('#ifndef %s\n#define %s\n\n' % (guard, guard))
        f.write(body)
        f.write('\n#endif\n')
    # the repo's .clang-format, if clang-format is here (the tables are long lines)
    try:
        import subprocess
        subprocess.run(['clang-format', '-i', path], check=False)
    except OSError:
        pass
    print('wrote', os.path.relpath(path))


if __name__ == '__main__':
    write('coeffs_erf.h', 'ACTK_MATH_COEFFS_ERF_H', erf_coeffs())
    write('coeffs_gelu.h', 'ACTK_MATH_COEFFS_GELU_H', gelu_coeffs())
