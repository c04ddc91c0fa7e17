"""Near-minimax polynomial fits with float32 coefficients.

Lawson's iteratively reweighted least squares on a dense Chebyshev grid gives
the minimax (relative or absolute) fit in double; coefficients are then rounded
to float32 one at a time, lowest degree first, re-fitting the remaining ones
after each rounding so later terms absorb earlier rounding error.
Dev-time tool: needs numpy and mpmath (Debian python3-numpy python3-mpmath).
"""
import numpy as np
import mpmath as mp

mp.mp.dps = 40


def f32(v):
    return float(np.float32(v))


def grid(a, b, m=4000):
    k = np.arange(m)
    return 0.5 * (a + b) + 0.5 * (b - a) * np.cos(np.pi * (k + 0.5) / m)[::-1]


def lawson(V, f, w, iters=200):
    """min_c max |w*(V c - f)| via Lawson: weighted LSQ with multiplicative updates."""
    lam = np.ones(len(f)) / len(f)
    best = None
    for _ in range(iters):
        sw = np.sqrt(lam) * w
        c, *_ = np.linalg.lstsq(V * sw[:, None], f * sw, rcond=None)
        e = np.abs(w * (V @ c - f))
        if best is None or e.max() < best[1]:
            best = (c, e.max())
        lam = lam * e
        s = lam.sum()
        if s == 0:
            break
        lam /= s
    return best


def fit(fun, a, b, powers, center=0.0, rel=True, fixed=None, m=4000, err_scale=None, split0=False):
    """split0: the first coefficient is kept as hi + lo floats (returned summed).

    Fit fun(x) ~ sum_k c_k * (x-center)^powers[k] (plus fixed(x) if given).

    fun: vectorised double function of x. Returns (float32 coefs, max error in
    double evaluation of the float32 polynomial)."""
    x = grid(a, b, m)
    s = x - center
    fx = fun(x)
    base = fixed(x) if fixed else 0.0
    target = fx - base
    w = 1.0 / np.abs(fx) if rel else np.ones_like(fx)
    if err_scale is not None:
        w = w * err_scale(x)
    V = np.stack([s ** p for p in powers], axis=1)
    coefs = []
    resid = target.copy()
    for k in range(len(powers)):
        c, _ = lawson(V[:, k:], resid, w)
        ck = f32(c[0])
        if k == 0 and split0:  # keep the leading coefficient as a float pair
            ck = ck + f32(c[0] - ck)
        coefs.append(ck)
        resid = resid - ck * V[:, k]
    err = np.abs(w * resid).max()
    return coefs, err


def ratfit(x, y, m, n, w, iters=100):
    """min over P (degree m), Q (degree n, Q(0) = 1) of max |w (P/Q - y)| on the points x:
    linearised weighted least squares (Loeb), reweighted Lawson-style. Returns (p, q, error),
    p and q lowest degree first, in double."""
    Q = np.ones_like(x)
    lam = np.ones_like(x) / len(x)
    best = None
    for _ in range(iters):
        A = np.hstack([np.stack([x ** j for j in range(m + 1)], 1),
                       -np.stack([y * x ** j for j in range(1, n + 1)], 1)])
        sw = np.sqrt(lam) * w / np.abs(Q)
        c, *_ = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)
        p, q = c[:m + 1], np.concatenate([[1.0], c[m + 1:]])
        P, Q = np.polyval(p[::-1], x), np.polyval(q[::-1], x)
        e = np.abs(w * (P / Q - y))
        if best is None or e.max() < best[2]:
            best = (p, q, e.max())
        lam = lam * e
        lam /= lam.sum()
    return best


def hexf(v):
    return float(v).hex()
