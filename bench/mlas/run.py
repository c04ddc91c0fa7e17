#!/usr/bin/env python3
"""ONNX Runtime's CPU kernels (MLAS underneath) per element, one thread, next
to actk's two tiers in the same run: the MLAS column beside actk_ratio's.

    bench/mlas/run.sh [--quick] [--ops a,b,c] [--isa NAME] [--actk-lib PATH]

(run.sh installs the peers' venv with bench/setup-peers.sh and runs this file
with its python: PyPI's onnxruntime and onnx, numpy.) For every op and n in
{65536, 4194304}: one session per chain model (1 node, and 32 nodes each
consuming the previous one's output), intra_op_num_threads = 1,
inter_op_num_threads = 1, sequential, graph optimizations off (so the chain
stays 32 nodes), CPU execution provider only. Each repeat times C runs of the
32-chain, the 1-chain, then C calls of actk accurate and actk fast (libactk.so
through ctypes, pool NULL, on --isa, default the best), rotating the start
column every repeat; medians over R repeats, and

    per node = (median run of the 32-chain - median run of the 1-chain) / 31

cancels what a run costs besides its nodes (the Python binding, copying the
input in and the output out). Columns, ns per element:
  mlas       per node / n
  -identity  the same minus the Identity chain's per node (ONNX Runtime's cost
             of running one node without arithmetic: the in-process control)
  acc, fast  actk_<op>_f32 and actk_<op>_f32_fast per call / n (a ctypes call
             costs ~0.35 us: < 2% of a 64 Ki call)
  fast/mlas  fast over mlas; spread: (p75 - p25) / median of the 32-chain
  check      the 1-chain's output (and actk's, same input) against a double
             formula: max |d| / max(1e-4, 1e-3 |ref|), worst of the three;
             a column over 1 is named and the run exits 1 (the kernel under
             test did not compute the op)
--csv-out PATH also writes the medians for bench/goals.py: '#' lines (versions,
the session options), then one cell a line, mlas,isa,n,op,column,value, the
columns above by name (mlas, -identity as mlas_net, acc, fast, spread, check;
ns/element, spread a fraction).
Inside a chain the nodes after the first see the previous node's output, not
x: values drift towards the op's fixed points; the kernels are branch-free over
those ranges. Input: x ~ N(0, 3) clipped to [-12, 12] (fixed seed).
"""
import argparse
import ctypes
import math
import os
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

WIDTH = 4096
LONG = 32
# op -> (ONNX node, domain, attributes, has bias, double reference)
ERF = np.vectorize(math.erf, otypes=[np.float64])


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _gelu_t(v):
    return 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v**3)))


def _gelu(v):
    return 0.5 * v * (1 + ERF(v / math.sqrt(2)))


OPS = {
    "identity": ("Identity", "", {}, False, lambda v: v),
    "erf": ("Erf", "", {}, False, ERF),
    "tanh": ("Tanh", "", {}, False, np.tanh),
    "sigmoid": ("Sigmoid", "", {}, False, _sig),
    "silu": ("QuickGelu", "com.microsoft", {"alpha": 1.0}, False, lambda v: v * _sig(v)),
    "quick_gelu": ("QuickGelu", "com.microsoft", {"alpha": 1.702}, False, lambda v: v * _sig(1.702 * v)),
    "gelu": ("Gelu", "com.microsoft", {}, False, _gelu),
    "gelu_tanh": ("FastGelu", "com.microsoft", {}, False, _gelu_t),
    "bias_gelu": ("BiasGelu", "com.microsoft", {}, True, _gelu),
    "bias_gelu_tanh": ("FastGelu", "com.microsoft", {}, True, _gelu_t),
}


def chain(op, length, bias):
    node, domain, attrs, has_bias, _ = OPS[op]
    shape = ["R", WIDTH] if has_bias else ["N"]
    nodes, prev = [], "x"
    for i in range(length):
        out = "y" if i == length - 1 else "t%d" % i
        ins = [prev, "bias"] if has_bias else [prev]
        nodes.append(helper.make_node(node, ins, [out], name="n%d" % i, domain=domain, **attrs))
        prev = out
    inits = [helper.make_tensor("bias", TensorProto.FLOAT, [WIDTH], bias.tolist())] if has_bias else []
    graph = helper.make_graph(
        nodes,
        "%s_x%d" % (op, length),
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        inits,
    )
    opsets = [helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="actk bench/mlas")
    model.ir_version = 8
    onnx.checker.check_model(model)
    opt = ort.SessionOptions()
    opt.intra_op_num_threads = opt.inter_op_num_threads = 1
    opt.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opt.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), opt, providers=["CPUExecutionProvider"])


class Actk:
    """libactk.so through ctypes: the op's two tiers, on a forced ISA."""

    def __init__(self, path, isa):
        self.lib = ctypes.CDLL(path)
        self.path = path
        lib = self.lib
        lib.actk_isa_name.restype = ctypes.c_char_p
        names = []
        while True:
            nm = lib.actk_isa_name(len(names))
            if not nm:
                break
            names.append(nm.decode())
        want = names.index(isa) if isa else lib.actk_isa_best()
        if lib.actk_isa_force(want) != 0:
            sys.exit("run.py: this machine cannot run actk's %s arm" % names[want])
        self.isa = names[want]

    def fn(self, op, tier):
        if op == "identity":
            return None
        f = getattr(self.lib, "actk_%s_f32%s" % (op, "_fast" if tier == "fast" else ""))
        f.restype = ctypes.c_int
        return f

    def call(self, f, op, x, y, bias):
        """A call with its arguments bound once (least ctypes work per call)."""
        vp, sz = ctypes.c_void_p, ctypes.c_size_t
        if OPS[op][3]:
            args = (None, vp(x.ctypes.data), vp(bias.ctypes.data), sz(WIDTH), vp(y.ctypes.data), sz(x.size))
        else:
            args = (None, vp(x.ctypes.data), vp(y.ctypes.data), sz(x.size))
        return lambda: f(*args)


def quart(v):
    return np.percentile(v, [25, 50, 75])


def check(y, ref):
    d = np.abs(y.astype(np.float64) - ref)
    q = d / np.maximum(1e-4, 1e-3 * np.abs(ref))
    return math.inf if np.isnan(q).any() else float(q.max())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="R = 7, C = 5 (1 at 4 Mi)")
    ap.add_argument("--ops", default=",".join(o for o in OPS if o != "identity"))
    ap.add_argument("--isa", default=None, help="actk's arm (default: the best)")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--actk-lib", default=os.environ.get("ACTK_LIBRARY", os.path.join(root, "build", "libactk.so")))
    ap.add_argument("--csv-out", default=None, metavar="PATH", help="also write the medians to PATH (bench/goals.py reads it)")
    a = ap.parse_args()
    ops = [o for o in a.ops.split(",") if o]
    # an actk op with no ONNX node here (peers.sh passes actk_ratio's --ops on)
    # is said and skipped; nothing left is an error
    skipped = [o for o in ops if o not in OPS]
    ops = [o for o in ops if o in OPS]
    if skipped:
        print("no ONNX Runtime node here for: %s (ops: %s)" % (", ".join(skipped), ", ".join(OPS)))
    if not ops:
        ap.error("none of the ops has an ONNX Runtime node here")
    repeats, calls, big = (7, 5, 1) if a.quick else (15, 20, 3)
    actk = Actk(a.actk_lib, a.isa)
    rng = np.random.default_rng(0x61636B746B5F78)
    bias = np.clip(rng.normal(0, 1, WIDTH), -4, 4).astype(np.float32)
    csv = open(a.csv_out, "w") if a.csv_out else None
    head = ("onnxruntime %s (PyPI), onnx %s, numpy %s, Python %s; actk %s on %s"
            % (ort.__version__, onnx.__version__, np.__version__, sys.version.split()[0], actk.path, actk.isa),
            "sessions: CPU EP, intra_op_num_threads 1, inter_op_num_threads 1, sequential, graph "
            "optimizations off; mlas per node = (32-chain - 1-chain) / 31; actk: pool NULL; "
            "%d repeats, %d runs (64 Ki), %d (4 Mi)" % (repeats, calls, big))
    for line in head:
        print(line)
        if csv:
            csv.write("# %s\n" % line)
    bad = []
    for n, c in ((65536, calls), (4194304, big)):
        x = np.clip(rng.normal(0, 3, n), -12, 12).astype(np.float32)
        print("\nn = %d, %d interleaved repeats x %d runs, medians, ns/element" % (n, repeats, c))
        print("%-15s %8s %9s %8s %8s %9s %7s %7s" % ("op", "mlas", "-identity", "acc", "fast", "fast/mlas", "spread", "check"))
        identity = math.nan
        for op in ["identity"] + ops:
            shape = (n // WIDTH, WIDTH) if OPS[op][3] else (n,)
            feeds = {"x": x.reshape(shape)}
            s1, s32 = chain(op, 1, bias), chain(op, LONG, bias)
            v = (x.reshape(shape) + bias).reshape(-1) if OPS[op][3] else x
            ref = OPS[op][4](v.astype(np.float64))
            worst = {"mlas": check(s1.run(None, feeds)[0].reshape(-1), ref)}
            s32.run(None, feeds)
            y = np.empty_like(x)
            cols = [("mlas32", lambda: s32.run(None, feeds)), ("mlas1", lambda: s1.run(None, feeds))]
            for tier in ("acc", "fast"):
                f = actk.fn(op, tier)
                if f is None:
                    continue
                call = actk.call(f, op, x, y, bias)
                if call() != 0:
                    sys.exit("run.py: actk_%s_f32 (%s) failed" % (op, tier))
                worst[tier] = check(y, ref)
                cols.append((tier, call))
            t = {name: [] for name, _ in cols}
            for r in range(repeats):
                for k in range(len(cols)):
                    name, run = cols[(r + k) % len(cols)]
                    t0 = time.perf_counter_ns()
                    st = 0
                    for _ in range(c):
                        out = run()  # ORT: a list of outputs (dropped); actk: a status
                        st |= out if type(out) is int else 0
                    t[name].append((time.perf_counter_ns() - t0) / c)
                    if st:
                        sys.exit("run.py: actk %s (%s) failed while timed" % (op, name))
            q32, q1 = quart(t["mlas32"]), quart(t["mlas1"])
            node = (q32[1] - q1[1]) / (LONG - 1) / n
            if op == "identity":
                identity = node
            acc = np.median(t["acc"]) / n if "acc" in t else math.nan
            fast = np.median(t["fast"]) / n if "fast" in t else math.nan
            print("%-15s %8.3f %9s %8s %8s %9s %6.1f%% %7.3f" % (
                op, node, "-" if op == "identity" else "%.3f" % (node - identity),
                "-" if math.isnan(acc) else "%.3f" % acc, "-" if math.isnan(fast) else "%.3f" % fast,
                "-" if math.isnan(fast) else "%.2f" % (fast / node), 100 * (q32[2] - q32[0]) / q32[1],
                max(worst.values())))
            bad += ["%s %s at n = %d" % (col, op, n) for col, q in worst.items() if q > 1]
            if csv:
                cells = {"mlas": node, "mlas_net": node - identity, "acc": acc, "fast": fast,
                         "spread": (q32[2] - q32[0]) / q32[1], "check": max(worst.values())}
                for col, val in cells.items():
                    if not math.isnan(val):
                        csv.write("mlas,%s,%d,%s,%s,%.4f\n" % (actk.isa, n, op, col, val))
    if csv:
        csv.close()
    if bad:
        print("\noff (check > 1: a kernel did not compute its op): " + ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
