"""Per-call overhead of the Python binding: actk.gelu(x, out=y) on a tiny
array (n = 16 by default), per element type, against a raw ctypes call of
the same C function (pointers computed once: the floor ctypes itself sets).

    ACTK_LIBRARY=build/libactk.so /usr/bin/python3 python/bench_overhead.py
    ... python/bench_overhead.py --n 16 --number 20000 --repeat 15

Each figure is the median over --repeat runs of timeit's --number calls,
per call, in microseconds (the fastest run in parentheses: on a busy
machine the steadier of the two). bfloat16 goes in as its bit patterns in a uint16
array with dtype="bfloat16" (and as an ml_dtypes array, when ml_dtypes is
installed). Single-threaded; run on an idle machine for stable numbers.
"""

import argparse
import ctypes
import os
import platform
import statistics
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import actk  # noqa: E402


def per_call_us(stmt, env, number, repeat):
    """(median, min) over the repeats, in microseconds per call."""
    times = timeit.repeat(stmt, number=number, repeat=repeat, globals=env)
    return statistics.median(times) / number * 1e6, min(times) / number * 1e6


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            info = dict(
                line.split(":", 1) for line in f.read().splitlines() if ":" in line
            )
        info = {k.strip(): v.strip() for k, v in info.items()}
        return "%s (family %s, model %s)" % (
            info.get("model name", "?"),
            info.get("cpu family", "?"),
            info.get("model", "?"),
        )
    except OSError:
        return platform.processor() or "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16, help="elements per call (16)")
    ap.add_argument("--number", type=int, default=20000, help="calls per run (20000)")
    ap.add_argument("--repeat", type=int, default=15, help="runs; the median is shown (15)")
    a = ap.parse_args()

    lib = ctypes.CDLL(actk.library_path())
    vp, size = ctypes.c_void_p, ctypes.c_size_t
    xs = np.linspace(-4, 4, a.n, dtype=np.float32)
    cases = [
        ("float32", "f32", xs, {}),
        ("float16", "f16", xs.astype(np.float16), {}),
        ("bfloat16 (uint16, dtype=)", "bf16", (xs.view(np.uint32) >> 16).astype(np.uint16),
         {"dtype": "bfloat16"}),
    ]
    try:
        import ml_dtypes

        cases.append(("bfloat16 (ml_dtypes)", "bf16", xs.astype(ml_dtypes.bfloat16), {}))
    except ImportError:
        pass

    print("actk %s, isa %s, %s" % (actk.version(), actk.isa(), actk.library_path()))
    print("CPU: %s; Python %s, numpy %s" % (cpu_name(), platform.python_version(), np.__version__))
    print("n = %d, median (min) of %d x %d calls, us per call" % (a.n, a.repeat, a.number))
    print("%-26s %17s %17s %17s" % ("type", "actk.gelu", "raw ctypes", "overhead"))
    for label, t, x, kw in cases:
        y = np.empty_like(x)
        raw = getattr(lib, "actk_gelu_%s" % t)
        raw.restype = ctypes.c_int
        raw.argtypes = [vp, vp, vp, size]
        xp, yp, n = x.ctypes.data, y.ctypes.data, x.size
        env = dict(gelu=actk.gelu, raw=raw, x=x, y=y, xp=xp, yp=yp, n=n)
        call = "gelu(x, out=y, dtype='bfloat16')" if kw else "gelu(x, out=y)"
        ours = per_call_us(call, env, a.number, a.repeat)
        floor = per_call_us("raw(None, xp, yp, n)", env, a.number, a.repeat)
        print(
            "%-26s %8.3f (%6.3f) %8.3f (%6.3f) %8.3f (%6.3f)"
            % (label, ours[0], ours[1], floor[0], floor[1], ours[0] - floor[0], ours[1] - floor[1])
        )


if __name__ == "__main__":
    main()
