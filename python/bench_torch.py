"""actk's torch ops against torch's own kernels: F.gelu (none, tanh), F.silu, sigmoid, tanh,
mish, softplus, elu, hardswish and SwiGLU as torch users write it (F.silu(g) * u), in
float32 and bfloat16, at 64 Ki and 4 Mi elements, at 1 and 2 torch threads. Each round
times every case, torch then actk, interleaved in one process; a figure is the median
over the rounds of the time per call (each call makes a new tensor, as F.gelu does).

    flock /tmp/actk-bench.lock taskset -c 0,1 chrt -f 10 \\
        env ACTK_LIBRARY=build/libactk.so .venv/bin/python python/bench_torch.py

Prints a Markdown table: per case, torch's time, actk's and torch / actk (> 1: actk faster).
"""
import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import actk.torch as at  # noqa: E402

F = torch.nn.functional

# name -> (torch's call, actk's call); one argument x, or (g, u) for the gated op
CASES = {
    "gelu": (F.gelu, at.gelu),
    "gelu tanh": (lambda x: F.gelu(x, approximate="tanh"), at.gelu_tanh),
    "silu": (F.silu, at.silu),
    "sigmoid": (torch.sigmoid, at.sigmoid),
    "tanh": (torch.tanh, at.tanh),
    "mish": (F.mish, at.mish),
    "softplus": (F.softplus, at.softplus),
    "elu": (F.elu, at.elu),
    "hardswish": (F.hardswish, at.hardswish),
    "swiglu": (lambda g, u: F.silu(g) * u, at.swiglu),
}


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def per_call(fn, args, number):
    fn(*args)  # untimed: the case's first call after another size pays the allocator's faults
    t = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - t) / number


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--sizes", default="65536,4194304")
    ap.add_argument("--ops", default=",".join(CASES))
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    sizes = [int(s) for s in a.sizes.split(",")]
    dtypes = [torch.float32, torch.bfloat16]
    g = torch.Generator().manual_seed(0)
    data = {}
    for d in dtypes:
        for n in sizes:
            x = (torch.randn(n, generator=g) * 3).to(d)
            u = torch.randn(n, generator=g).to(d)
            data[d, n] = x, u
    keys = [(t, d, n, op) for t in threads for d in dtypes for n in sizes
            for op in a.ops.split(",")]
    times = {k: ([], []) for k in keys}
    with torch.inference_mode():
        for r in range(a.rounds + 1):  # round 0 warms up (pools, first-touch pages)
            for k in keys:
                t, d, n, op = k
                torch.set_num_threads(t)
                x, u = data[d, n]
                args = (x, u) if op == "swiglu" else (x,)
                number = max(1, (1 << 22) // n)
                for i, fn in enumerate(CASES[op]):
                    s = per_call(fn, args, number)
                    if r:
                        times[k][i].append(s)
    print("%s; torch %s; actk.torch (torch.library ops over ctypes); %s UTC; OMP_WAIT_POLICY=%s"
          % (cpu_model(), torch.__version__, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
             os.environ.get("OMP_WAIT_POLICY", "(unset)")))
    print("median of %d interleaved rounds, time per call (a new tensor)" % a.rounds)
    print()
    print("| threads | type | n | op | torch | actk | torch / actk |")
    print("|---:|---|---:|---|---:|---:|---:|")
    for k in keys:
        t, d, n, op = k
        tt, ta = statistics.median(times[k][0]), statistics.median(times[k][1])
        size = "%d Ki" % (n >> 10) if n < (1 << 20) else "%d Mi" % (n >> 20)
        unit = (1e6, "us") if tt < 1e-3 else (1e3, "ms")
        print("| %d | %s | %s | %s | %.1f %s | %.1f %s | %.2f |" % (
            t, str(d).replace("torch.", ""), size, op, tt * unit[0], unit[1], ta * unit[0],
            unit[1], tt / ta))


if __name__ == "__main__":
    main()
