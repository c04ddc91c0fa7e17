"""python -m actk: what the library chose on this machine, and a short check
of its speed and accuracy (as the actk CLI prints, in brief)."""
import math
import time

import numpy as np

import actk


def _best(f, repeats=7):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    v = actk.version_info()
    print("actk %s (library %d.%d.%d) from %s" % ((actk.version(),) + v + (actk.library_path(),)))
    print("active isa: %s -- %s" % (actk.isa(), actk.isa_reason()))
    print("cpu:        %s" % actk.cpu_summary())
    print("isas:       %s" % ", ".join(actk.supported_isas()))
    try:
        import actk.torch as at

        print("torch:      torch %s, ops torch.ops.actk.* (registered from %s)"
              % (at.torch.__version__, at.__file__))
    except ImportError as e:
        print("torch:      not available (%s)" % e)

    # accuracy: f32 gelu and tanh against double-precision references on a grid
    x = np.linspace(-10, 10, 200001, dtype=np.float32)
    xd = x.astype(np.float64)
    refs = {
        "gelu": 0.5 * xd * np.array([math.erfc(-v / math.sqrt(2)) for v in xd]),
        "tanh": np.tanh(xd),
        "sigmoid": 1 / (1 + np.exp(-xd)),
    }
    print("\naccuracy (f32, %d points in [-10, 10], max error in ulps of the result):" % x.size)
    for op, r in refs.items():
        for fast in (False, True):
            y = getattr(actk, op)(x, fast=fast).astype(np.float64)
            e = np.maximum(np.floor(np.log2(np.maximum(np.abs(r), 2.0**-126))), -126)
            ulp = np.max(np.abs(y - r) / 2.0 ** (e - 23))
            print("  %-8s %-8s %8.2f" % (op, "fast" if fast else "accurate", ulp))

    # speed: one thread, n = 1 Mi, the fastest of 7; numpy's tanh as a yardstick
    n = 1 << 20
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.empty_like(x)
    print("\nspeed (ns/element, n = %d, one thread, best of 7):" % n)
    print("  %-10s %9s %9s" % ("op", "accurate", "fast"))
    for op in ("erf", "tanh", "sigmoid", "silu", "gelu", "gelu_tanh"):
        f = getattr(actk, op)
        row = [_best(lambda: f(x, out=y, fast=fast)) / n * 1e9 for fast in (False, True)]
        print("  %-10s %9.3f %9.3f" % (op, row[0], row[1]))
    print("  %-10s %9.3f" % ("numpy.tanh", _best(lambda: np.tanh(x, out=y)) / n * 1e9))


if __name__ == "__main__":
    main()
