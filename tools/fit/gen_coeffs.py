#!/usr/bin/env python3
"""Generate src/math/coeffs_*.h: the polynomial coefficients of erf and gelu.

Run: /usr/bin/python3 tools/fit/gen_coeffs.py (Debian python3-numpy, python3-mpmath;
with clang-format on the PATH the output is byte for byte the committed tables).
The printed fit errors are of the float32 polynomials evaluated in double; the
sweep tool measures what the kernels actually achieve over all floats."""
import os
import numpy as np
import mpmath as mp
from fitlib import fit, f32

mp.mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'src', 'math')

ERF_IV = (4.0, 8)        # erf: [0, 4) in 8 equal intervals, one polynomial each
ERF_DEG = 6
GELU_IV = [(0, 0.5), (0.5, 1), (1, 2), (2, 3), (3, 4), (4, 6), (6, 8), (8, 16)]
GELU_DEG = 7


def lit(v):
    """C float literal that round-trips: shortest hex mantissa, then f."""
    if v == 0:
        return '0.0f'
    mant, exp = float(np.float32(v)).hex().split('p')
    mant = mant.rstrip('0').rstrip('.')
    return '%sp%sf' % (mant, exp)


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
    hi, N = ERF_IV
    wid = hi / N
    cols = [[] for _ in range(ERF_DEG + 1)]  # cols[0]: P's constant term, one float
    centers, worst = [], [0.0, 0.0]
    for i in range(N):
        a, b = i * wid, (i + 1) * wid
        # the kernel's index truncates a / wid - 2^-8: a lane up to wid 2^-8 above a boundary
        # takes the interval below it, so each fit reaches that far past its end
        b1 = b + wid * 2 ** -8
        if i == 0:
            # erf(a) = a + a P(a): P(s) = erf(s)/s - 1, its error weighted as the relative
            # error it gives erf (no constant term of erf to hold, so s = a, center 0).
            # P(0) = 2/sqrt(pi) - 1 is the whole error for tiny a, which are most floats: pin
            # it to its nearest float (a free fit lands 0.9 ulp of it away: 7% of all inputs
            # then lose 0.5 ulp) and fit the rest around it
            def P(x):
                return np.array([float(mp.erf(mp.mpf(v)) / mp.mpf(v) - 1) if v > 0 else
                                 float(2 / mp.sqrt(mp.pi) - 1) for v in x])
            def rel(x):
                return np.array([float(mp.mpf(v) / mp.erf(mp.mpf(v))) if v > 0 else
                                 float(mp.sqrt(mp.pi) / 2) for v in x])
            ctr, c0 = 0.0, f32(2 / mp.sqrt(mp.pi) - 1)
            cc, e = fit(P, 0, b1, list(range(1, ERF_DEG + 1)), rel=False, m=1500, err_scale=rel,
                        fixed=lambda x: np.full_like(x, c0))
            worst[0] = e
        else:
            # erf(a) = P(a - center) = c0 + s (...), rounded once by the kernel's last fma: a
            # center near the middle (s = a - center stays exact, Sterbenz) where the minimax
            # constant term is nearly a float, so that one float c0 holds it. The constant of
            # a free fit at the middle sits d from erf(mid); assuming d barely moves with the
            # center, the search asks erf(c) + d to be a float to 2^-36. At the centers found,
            # a free fit's constant is within 2^-33.6 of c0 (interval 1; 2^-35 or closer for
            # the rest): 0.001 ulp.
            mid = (a + b) / 2
            cf, _ = fit(mpf_fun(mp.erf), a, b1, list(range(ERF_DEG + 1)), center=mid,
                        rel=False, m=1500, split0=True)
            d = mp.mpf(cf[0]) - mp.erf(mp.mpf(mid))
            ctr, c0 = float_valued_center(lambda c: mp.erf(c) + d, mid, 2.0 ** -36)
            cc, e = fit(mpf_fun(mp.erf), a, b1, list(range(1, ERF_DEG + 1)), center=ctr,
                        rel=False, m=1500, fixed=lambda x, c0=c0: np.full_like(x, c0))
            worst[1] = max(worst[1], e)
        centers.append(ctr)
        for k, v in enumerate([c0] + cc):
            cols[k].append(v)
    out = ['/* erf(a) for a in [0, %g): %d intervals of %g, each a degree-%d polynomial P in\n'
           ' * s = a - center. The first: erf = a + a P(a), P = erf(a)/a - 1, relative error\n'
           ' * 2^%.1f; the others: erf = P(s), the center a float near the middle where P\'s\n'
           ' * constant term is a float, absolute error 2^%.1f */\n'
           % (hi, N, wid, ERF_DEG, np.log2(worst[0]), np.log2(worst[1]))]
    out.append('#define ACTK_ERF_WIDTH %sf\n' % repr(wid))
    out.append(vec('actk_erf_center', centers))
    for k in range(ERF_DEG + 1):
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


def write(name, guard, body, generator='gen_coeffs.py'):
    path = os.path.join(OUT, name)
    with open(path, 'w') as f:
        f.write('/* Generated by tools/fit/%s; do not edit. */\n' % generator)
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
