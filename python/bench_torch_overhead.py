"""Per-call overhead of actk's torch ops at a tiny size (n = 16): torch.ops.actk.gelu (a new
tensor; the in-place form; actk.torch.gelu, the function over it) against torch's own
F.gelu, and the numpy call actk.gelu(x, out=y), per element type (float32, bfloat16).

    flock /tmp/actk-bench.lock taskset -c 1 chrt -f 10 \\
        env ACTK_LIBRARY=build/libactk.so .venv/bin/python python/bench_torch_overhead.py
    # the C++ extension of before (torch 1.13, Debian's): torch.ops.actk.gelu from a built
    # _actk_torch*.so against that torch's F.gelu
    ... /usr/bin/python3 python/bench_torch_overhead.py --old-extension /path/_actk_torch.so

Each figure is the median over --repeat runs of timeit's --number calls, per call, in
microseconds (the fastest run in parentheses). One torch thread.
"""
import argparse
import os
import platform
import statistics
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402


def per_call_us(stmt, env, number, repeat):
    times = timeit.repeat(stmt, number=number, repeat=repeat, globals=env)
    return statistics.median(times) / number * 1e6, min(times) / number * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--old-extension", help="a built _actk_torch*.so (the C++ ops of before)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    env = {"torch": torch, "F": torch.nn.functional}
    if a.old_extension:
        torch.ops.load_library(a.old_extension)
        rows = [("torch.ops.actk.gelu(x) (C++ extension)", "torch.ops.actk.gelu(x, False)"),
                ("torch.ops.actk.gelu_(y) (C++ extension)", "torch.ops.actk.gelu_(y, False)")]
    else:
        import actk
        import actk.torch as at

        env.update(at=at, actk=actk)
        rows = [("torch.ops.actk.gelu(x)", "torch.ops.actk.gelu(x)"),
                ("torch.ops.actk.gelu_(y)", "torch.ops.actk.gelu_(y)"),
                ("actk.torch.gelu(x)", "at.gelu(x)"),
                ("numpy actk.gelu(a, out=b)", "actk.gelu(a, out=b)")]
    rows += [("F.gelu(x)", "F.gelu(x)"), ("torch.sigmoid(x)", "torch.sigmoid(x)")]
    print("torch %s, Python %s, %s" % (torch.__version__, platform.python_version(),
                                       platform.processor() or platform.machine()))
    print("n = %d, median (min) of %d x %d calls, us per call, 1 thread" % (a.n, a.repeat,
                                                                          a.number))
    for dtype in (torch.float32, torch.bfloat16):
        x = torch.linspace(-4, 4, a.n).to(dtype)
        env.update(x=x, y=x.clone())
        if "actk" in env:
            import numpy as np

            if dtype == torch.float32:
                env.update(a=x.numpy(), b=np.empty(a.n, np.float32))
            else:
                import ml_dtypes  # numpy's bfloat16

                env.update(a=x.float().numpy().astype(ml_dtypes.bfloat16),
                           b=np.empty(a.n, ml_dtypes.bfloat16))
        print(str(dtype))
        for label, stmt in rows:
            try:
                med, lo = per_call_us(stmt, env, a.number, a.repeat)
                print("  %-42s %8.2f (%6.2f)" % (label, med, lo))
            except Exception as e:  # noqa: BLE001 (a row this install cannot run)
                print("  %-42s   n/a: %s" % (label, str(e).splitlines()[0][:60]))


if __name__ == "__main__":
    main()
