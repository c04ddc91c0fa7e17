#!/usr/bin/env python3
"""End-to-end latency of torchvision models with torch's activations and with
actk's (actk.torch.replace), and the activations' share of the time.

    python bench_models.py                       # every model, f32 and bf16, batch 1 and 8
    python bench_models.py --models efficientnet_b0 --dtypes bf16 --batches 8 --runs 30

Per row: the median of --runs forward passes of each model, the two
interleaved run by run (torch's, then actk's, ...) so that drift on a busy
machine hits both alike, at each of --threads (torch.set_num_threads: actk
runs on torch's threads). "act %" is the activations' share of a profiled
pass (torch.profiler, self CPU time of aten::gelu/silu/sigmoid/tanh and of
actk::*). Random weights (no downloads), calibrated as python/tests/
test_models.py does (so no vanishing activations or subnormals); inference
mode. Needs the installed package with its torch ops (python/README.md).
"""
import argparse
import copy
import os
import statistics
import sys
import time

# The installed actk (with its torch ops), not the source tree's python/actk
# beside this script, unless ACTK_LIBRARY points the source tree at a library.
if not os.environ.get("ACTK_LIBRARY"):
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]

import torch
import torchvision

import actk
import actk.torch as at

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}
ACT_OPS = ("aten::gelu", "aten::silu", "aten::silu_", "aten::sigmoid", "aten::sigmoid_",
           "aten::tanh", "aten::tanh_")


def build(name):
    torch.manual_seed(0)
    m = getattr(torchvision.models, name)(weights=None)
    if name.startswith("vit"):
        torch.nn.init.normal_(m.heads.head.weight, std=0.02)
    for mod in m.modules():
        if hasattr(mod, "layer_scale"):
            mod.layer_scale.data.fill_(1.0)
    bns = [b for b in m.modules() if isinstance(b, torch.nn.BatchNorm2d)]
    if bns:
        for b in bns:
            b.reset_running_stats()
            b.momentum = None
        m.train()
        with torch.no_grad():
            m(torch.randn(4, 3, 224, 224))
    return m.eval()


def act_share(model, x):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        model(x)
    total = act = 0.0
    for e in prof.key_averages():
        total += e.self_cpu_time_total
        if e.key in ACT_OPS or e.key.startswith("actk::"):
            act += e.self_cpu_time_total
    return act / total if total else 0.0


def timed(model, x):
    t0 = time.perf_counter()
    model(x)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="efficientnet_b0,convnext_tiny,vit_b_16")
    ap.add_argument("--dtypes", default="f32,bf16")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=15, help="timed passes per model and thread count")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--fast", action="store_true", help="actk's fast tier")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    print("actk %s (%s), torch %s, torchvision %s; %s tier; median of %d interleaved runs"
          % (actk.version(), actk.isa(), torch.__version__, torchvision.__version__,
             "fast" if a.fast else "accurate", a.runs))
    print("%-16s %-5s %5s %3s %11s %11s %7s %8s %8s" % (
        "model", "type", "batch", "thr", "torch ms", "actk ms", "ratio", "act% t", "act% a"))
    for name in a.models.split(","):
        base = build(name)
        for dname in a.dtypes.split(","):
            dtype = DTYPES[dname]
            ref = copy.deepcopy(base).to(dtype)
            ours = copy.deepcopy(ref)
            at.replace(ours, fast=a.fast)
            for batch in [int(b) for b in a.batches.split(",")]:
                x = torch.randn(batch, 3, 224, 224).to(dtype)
                with torch.inference_mode():
                    torch.set_num_threads(threads[0])
                    share = (act_share(ref, x), act_share(ours, x))
                    for t in threads:
                        torch.set_num_threads(t)
                        for _ in range(a.warmup):
                            timed(ref, x), timed(ours, x)
                        tr, ta = [], []
                        for _ in range(a.runs):
                            tr.append(timed(ref, x))
                            ta.append(timed(ours, x))
                        mr, ma = statistics.median(tr), statistics.median(ta)
                        print("%-16s %-5s %5d %3d %11.1f %11.1f %6.2fx %7.0f%% %7.0f%%" % (
                            name, dname, batch, t, mr * 1e3, ma * 1e3, ma / mr,
                            100 * share[0], 100 * share[1]), flush=True)


if __name__ == "__main__":
    main()
