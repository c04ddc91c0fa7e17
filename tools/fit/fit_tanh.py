#!/usr/bin/env python3
"""Generate src/math/coeffs_tanh.h: the coefficients of the accurate tanh (src/math/tanh.h).

Run: /usr/bin/python3 tools/fit/fit_tanh.py (Debian python3-numpy, python3-mpmath; with
clang-format on the PATH the output is the committed header byte for byte). The printed errors
are of the float32 polynomials evaluated in double; build/tools/actk_sweep tanh --mono 1
measures what the kernel achieves over all floats.

Two polynomials, one division (tanh.h says why):
  small a (a < TANH_SPLIT): tanh(a) = a - a^3 / D(a^2), D(z) = D0 + z (D1 + z D2), relative
    error of D, fitted on z in [0, TANH_SPLIT^2] (D(0) = 3 exactly);
  large a: e^2r = 1 + r (E1 + r (E2 + ... + r E6)), r in [0, ln2/2] (floor reduction: every
    Horner term is >= 0, so each step rises with r), relative error, the target tilted
    EXP_BIAS below e^2r at ln2/2 so that where n steps, 2^n E(ln2/2^-) <= 2^(n+1) E(0^+)."""
import numpy as np
import mpmath as mp
from fitlib import fit
from gen_coeffs import write
from gen_fast import mlit

mp.mp.dps = 40
LN2 = float(mp.log(2))
# The split is ln2 as a float (ACTK_LN2_F), the first float where floor(2a/ln2) reaches 2: the
# large form then has S >= 4, so its quotient 2/(S+1) is <= 2/5 and the error of S is damped to
# 8/15 of it; below, a^3/D is <= 0.16 of the result, so D's own error is damped to 0.16 of it.
TANH_SPLIT = float.fromhex('0x1.62e43p-1')
D_DEG = 2
E_DEG = 6
E_LO, E_HI = -2.0 ** -16, LN2 / 2 + 2.0 ** -16  # r = a - n ln2/2 (ln2 as a float, n rounded)
EXP_BIAS = 2.0 ** -26


def d_target(z):
    """a^3 / (a - tanh a) at a = sqrt(z) (3 at 0)."""
    out = []
    for v in z:
        v = mp.mpf(v)
        if v == 0:
            out.append(3.0)
            continue
        a = mp.sqrt(v)
        out.append(float(a ** 3 / (a - mp.tanh(a))))
    return np.array(out)


def d_coeffs():
    zhi = TANH_SPLIT ** 2 * (1 + 2.0 ** -10)
    c, e = fit(d_target, 0.0, zhi, list(range(1, D_DEG + 1)), rel=True,
               fixed=lambda z: 3.0 * np.ones_like(z), m=2000)
    out = ['/* a^3 / (a - tanh a) ~ 3 + z (D1 + z (D2 + ...)), z = a^2 <= %.9g^2: relative error '
           '2^%.1f */\n#define ACTK_TANH_D0 3.0f\n' % (TANH_SPLIT, np.log2(e))]
    for k, v in enumerate(c):
        out.append('#define ACTK_TANH_D%d %s\n' % (k + 1, mlit(v)))
    return ''.join(out)


def e_coeffs():
    half = LN2 / 2

    def tgt(r):
        return np.exp(2 * r) * (1 - EXP_BIAS * r / half)
    c, _ = fit(tgt, E_LO, E_HI, list(range(1, E_DEG + 1)), rel=True,
               fixed=lambda x: np.ones_like(x), m=3000)
    x = np.linspace(E_LO, E_HI, 20001)
    p = np.zeros_like(x)
    for ck in reversed(c):
        p = (p + ck) * x
    rel = (p + 1) / np.exp(2 * x) - 1
    out = ['/* e^2r ~ 1 + r (E1 + r (E2 + ... + r E%d)), r in [0, ln2/2]: relative error 2^%.1f, '
           '%.2f ulp below e^2r at ln2/2 */\n' % (E_DEG, np.log2(np.abs(rel).max()),
                                                  -rel[np.argmin(np.abs(x - half))] * 2 ** 23)]
    for k, v in enumerate(c):
        out.append('#define ACTK_TANH_E%d %s\n' % (k + 1, mlit(v)))
    return ''.join(out)


if __name__ == '__main__':
    body = d_coeffs() + e_coeffs()
    write('coeffs_tanh.h', 'ACTK_MATH_COEFFS_TANH_H', body, 'fit_tanh.py')
