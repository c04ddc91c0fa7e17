#!/usr/bin/env python3
"""Writes the one-op chain models bench/mlas/run.js times (ONNX Runtime's CPU
kernels, MLAS underneath). Needs the onnx package (Debian: python3-onnx).

    make_models.py OUTDIR

For every op and L in {1, 32}: OUTDIR/<op>_<L>.onnx, a chain of L nodes of
that op, each consuming the previous node's output (the first the graph
input). Unary ops take X of shape [N] (N symbolic: one model serves every
length); the bias ops X of shape [R, 4096] (R symbolic) and a constant bias of
4096 floats (N(0, 1) clipped to [-4, 4], fixed seed), the same bias for every
node (also written as OUTDIR/bias.f32, 4096 little-endian floats, for
run.js's check). The Identity chain is the in-process control: its per-node cost is
ONNX Runtime's cost of running a node, without a kernel's arithmetic.

    op              ONNX node (domain)                 what it is
    erf             Erf (ai.onnx 13)                   erf(x)
    tanh            Tanh (ai.onnx 13)                  tanh(x)
    sigmoid         Sigmoid (ai.onnx 13)               1 / (1 + e^-x)
    silu            QuickGelu alpha=1 (com.microsoft)  x sigmoid(x)
    quick_gelu      QuickGelu alpha=1.702 (ms)         x sigmoid(1.702 x)
    gelu            Gelu (com.microsoft)               0.5 x (1 + erf(x / sqrt 2))
    gelu_tanh       FastGelu (com.microsoft)           0.5 x (1 + tanh(u))
    bias_gelu       BiasGelu (com.microsoft)           gelu(x + bias)
    bias_gelu_tanh  FastGelu with bias (ms)            gelu_tanh(x + bias)
    identity        Identity (ai.onnx 13)              the control
"""
import array
import os
import random
import sys

import onnx
from onnx import TensorProto, helper

WIDTH = 4096
LENGTHS = (1, 32)

# op -> (node type, domain, attributes, has bias)
OPS = {
    "erf": ("Erf", "", {}, False),
    "tanh": ("Tanh", "", {}, False),
    "sigmoid": ("Sigmoid", "", {}, False),
    "silu": ("QuickGelu", "com.microsoft", {"alpha": 1.0}, False),
    "quick_gelu": ("QuickGelu", "com.microsoft", {"alpha": 1.702}, False),
    "gelu": ("Gelu", "com.microsoft", {}, False),
    "gelu_tanh": ("FastGelu", "com.microsoft", {}, False),
    "bias_gelu": ("BiasGelu", "com.microsoft", {}, True),
    "bias_gelu_tanh": ("FastGelu", "com.microsoft", {}, True),
    "identity": ("Identity", "", {}, False),
}


def bias_values():
    rng = random.Random(0x61636B746B5F62)
    return [max(-4.0, min(4.0, rng.gauss(0.0, 1.0))) for _ in range(WIDTH)]


def chain(op, length):
    node_type, domain, attrs, has_bias = OPS[op]
    shape = ["R", WIDTH] if has_bias else ["N"]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)]
    inits = []
    if has_bias:
        inits.append(helper.make_tensor("bias", TensorProto.FLOAT, [WIDTH], bias_values()))
    nodes = []
    prev = "x"
    for i in range(length):
        out = "y" if i == length - 1 else "t%d" % i
        ins = [prev, "bias"] if has_bias else [prev]
        nodes.append(helper.make_node(node_type, ins, [out], name="n%d" % i, domain=domain, **attrs))
        prev = out
    graph = helper.make_graph(nodes, "%s_x%d" % (op, length), inputs, outputs, inits)
    opsets = [helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="actk bench/mlas")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_models.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "bias.f32"), "wb") as f:
        a = array.array("f", bias_values())
        if sys.byteorder != "little":
            a.byteswap()
        a.tofile(f)
    for op in OPS:
        for length in LENGTHS:
            onnx.save(chain(op, length), os.path.join(out, "%s_%d.onnx" % (op, length)))
    print("make_models.py: %d models in %s (onnx %s)" % (len(OPS) * len(LENGTHS), out, onnx.__version__))


if __name__ == "__main__":
    main()
