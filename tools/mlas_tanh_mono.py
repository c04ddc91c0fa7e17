#!/usr/bin/env python3
"""ONNX Runtime's CPU Tanh (MLAS) over every float of [LO, HI]: its steps down (y[k] < y[k-1] for
consecutive floats) and its max error in ULP (ulp as docs/accuracy.md defines it) against numpy's
double tanh (a double rounded once: good to a few thousandths of an ulp, enough to name MLAS's
error, not to settle ties). The evidence behind docs/performance.md's floor row for the accurate
tanh. Run with the peers' venv (bench/setup-peers.sh --print-python), one thread:

    $(bench/setup-peers.sh --print-python) tools/mlas_tanh_mono.py 1e-4 4
    $(bench/setup-peers.sh --print-python) tools/mlas_tanh_mono.py 4 9.1
"""
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper


def session():
    vec = [None]
    graph = helper.make_graph([helper.make_node("Tanh", ["x"], ["y"])], "tanh",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, vec)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, vec)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    opt = ort.SessionOptions()
    opt.intra_op_num_threads = opt.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), opt, providers=["CPUExecutionProvider"])


def main():
    lo, hi = (int(np.float32(float(v)).view(np.uint32)) for v in sys.argv[1:3])
    s = session()
    dips, first, prev, max_ulp, max_x = 0, None, None, 0.0, 0.0
    chunk = 1 << 22
    for b in range(lo, hi + 1, chunk):
        x = np.arange(b, min(b + chunk, hi + 1), dtype=np.uint32).view(np.float32)
        y = s.run(None, {"x": x})[0]
        down = np.nonzero(y[1:] < y[:-1])[0]
        if prev is not None and y[0] < prev:
            dips += 1
            first = first if first is not None else float(x[0])
        if len(down) and first is None:
            first = float(x[down[0] + 1])
        dips += len(down)
        prev = y[-1]
        t = np.tanh(x.astype(np.float64))
        ulp = np.exp2(np.maximum(np.floor(np.log2(np.abs(t))), -126) - 23)
        err = np.abs(y.astype(np.float64) - t) / ulp
        k = int(np.argmax(err))
        if err[k] > max_ulp:
            max_ulp, max_x = float(err[k]), float(x[k])
    print("onnxruntime %s Tanh, every float of [%s, %s]: max %.3f ulp at x = %.9g; steps down: %d"
          " (first at x = %s)" % (ort.__version__, sys.argv[1], sys.argv[2], max_ulp, max_x, dips,
                                  first))


if __name__ == "__main__":
    main()
