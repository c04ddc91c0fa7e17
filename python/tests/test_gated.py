"""The gated ops through the binding: actk.swiglu(gate, up) and
actk.swiglu_packed(x), and the GeGLUs; their definition against the unary
ops (the library's tests/test_gated.c checks it exhaustively)."""
import numpy as np
import pytest

import actk


def _pair(n, seed):
    rng = np.random.default_rng(seed)
    gate = (rng.standard_normal(n) * 4).astype(np.float32)
    up = (rng.standard_normal(n) * 2).astype(np.float32)
    return gate, up


@pytest.mark.parametrize("op", sorted(actk.GATED_OPS))
@pytest.mark.parametrize("fast", [False, True])
def test_float32_is_the_activation_times_up(op, fast):
    gate, up = _pair(1000, 1)
    act = getattr(actk, actk.GATED_OPS[op])
    want = act(gate, fast=fast) * up  # numpy's float32 product: one rounding
    got = getattr(actk, op)(gate, up, fast=fast)
    assert got.dtype == np.float32 and np.array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("op", sorted(actk.GATED_OPS))
@pytest.mark.parametrize("dtype", [np.float16, "bfloat16"])
def test_packed_is_the_halves(op, dtype):
    gate, up = _pair(6 * 37, 2)
    if dtype == "bfloat16":
        to = lambda a: (a.view(np.uint32) >> 16).astype(np.uint16)  # noqa: E731 (truncation is fine)
        kw = {"dtype": "bfloat16"}
    else:
        to = lambda a: a.astype(np.float16)  # noqa: E731
        kw = {}
    g, u = to(gate).reshape(6, 37), to(up).reshape(6, 37)
    x = np.concatenate([g, u], axis=1)  # [rows, 2d], gate first
    y = getattr(actk, op + "_packed")(x, **kw)
    assert y.shape == (6, 37) and y.dtype == x.dtype
    assert np.array_equal(y, getattr(actk, op)(g, u, **kw))
    # in place over either input of the plain form
    gg = g.copy()
    assert getattr(actk, op)(gg, u, out=gg, **kw) is gg and np.array_equal(gg, y)


def test_errors():
    gate, up = _pair(8, 3)
    with pytest.raises(ValueError):
        actk.swiglu(gate, up[:4])
    with pytest.raises(TypeError):
        actk.swiglu(gate, up.astype(np.float16))
    with pytest.raises(ValueError):
        actk.swiglu_packed(np.zeros((2, 5), np.float32))  # odd last dimension
    x = np.zeros((2, 8), np.float32)
    with pytest.raises(actk.ActkError) as e:
        actk.swiglu_packed(x, out=x.reshape(-1)[:8].reshape(2, 4))  # y inside x
    assert e.value.status == actk.Status.ACTK_ERR_OVERLAP
