"""torch.ops.actk.rope / rope_ / rope.out / rope_cache (actk.torch.rope):
the numpy binding's bits on tensors, layouts, styles, positions, errors that
write nothing, torch's threads, TorchScript. Skipped without torch unless
ACTK_REQUIRE_TORCH=1 (CI)."""
import os

import numpy as np
import pytest

import actk

from torch_or_skip import at, torch  # noqa: E402  (skips the module without torch)

DTYPES = [torch.float32, torch.float16, torch.bfloat16]


def bits(t):
    return t.view(torch.int16 if t.element_size() == 2 else torch.int32)


def numpy_rope(x, cos, sin, positions=None, **kw):
    """actk.rope (numpy, the C function actk_rope_<type>) on x's data."""
    pos = None if positions is None else positions.numpy()
    if x.dtype == torch.bfloat16:
        a = x.view(torch.int16).numpy().view(np.uint16)
        y = actk.rope(a, cos.numpy(), sin.numpy(), pos, dtype="bfloat16", **kw)
        return torch.from_numpy(y.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(actk.rope(x.numpy(), cos.numpy(), sin.numpy(), pos, **kw))


def data(dtype, shape, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g) * 3).to(dtype)


def test_rope_cache_is_the_numpy_one():
    cos, sin = at.rope_cache(64, 24, 500000.0)
    nc, ns = actk.rope_cache(64, 24, 500000.0)
    assert cos.dtype == torch.float32 and cos.shape == (64, 12) and sin.shape == (64, 12)
    assert np.array_equal(cos.numpy(), nc) and np.array_equal(sin.numpy(), ns)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", ["bshd", "bhsd"])
@pytest.mark.parametrize("style", ["split_half", "interleaved"])
def test_bits_are_the_c_functions(dtype, layout, style):
    b, s, h, d = 2, 5, 3, 16
    shape = (b, s, h, d) if layout == "bshd" else (b, h, s, d)
    x = data(dtype, shape)
    cos, sin = at.rope_cache(32, 12)
    pos = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]], dtype=torch.int64)
    for kw in (dict(start=7), dict(positions=pos)):
        args = dict(layout=layout, style=style, rotary_dim=12, **kw)
        want = numpy_rope(x, cos, sin, **args)
        y = at.rope(x, cos, sin, **args)
        assert y.dtype == dtype and y.shape == x.shape
        assert torch.equal(bits(y), bits(want))
        # channels past rotary_dim are copied
        assert torch.equal(bits(y[..., 12:]), bits(x[..., 12:]))
        out = torch.empty_like(x)
        assert at.rope(x, cos, sin, out=out, **args) is out
        assert torch.equal(bits(out), bits(want))
        x2 = x.clone()
        assert at.rope_(x2, cos, sin, **args) is x2
        assert torch.equal(bits(x2), bits(want))
        # the registered op itself, positionally as TorchScript would call it
        y3 = torch.ops.actk.rope(x, cos, sin, kw.get("positions"), kw.get("start", 0), layout,
                                 style, 12, None)
        assert torch.equal(bits(y3), bits(want))


def test_flat_heads_layout_matches_4d():
    x = data(torch.float32, (2, 4, 3 * 8))
    cos, sin = at.rope_cache(16, 8)
    y = at.rope(x, cos, sin, heads=3)
    assert torch.equal(bits(y), bits(at.rope(x.view(2, 4, 3, 8), cos, sin).view(2, 4, 24)))


def test_rotation_is_right():
    # the definition, not only the C function: a' = a c - b s, b' = b c + a s at angle p theta_j
    x = data(torch.float32, (1, 3, 1, 4))
    cos, sin = at.rope_cache(8, 4)
    y = at.rope(x, cos, sin, start=2)
    p = torch.arange(2, 5, dtype=torch.float64)[:, None]
    ang = p * 10000.0 ** (-torch.arange(0, 4, 2, dtype=torch.float64) / 4)
    a, b = x[0, :, 0, :2].double(), x[0, :, 0, 2:].double()
    want = torch.cat([a * ang.cos() - b * ang.sin(), b * ang.cos() + a * ang.sin()], dim=1)
    torch.testing.assert_close(y[0, :, 0, :].double(), want, rtol=1e-6, atol=1e-6)


def test_errors_write_nothing():
    x = data(torch.float32, (1, 4, 2, 8))
    cos, sin = at.rope_cache(4, 8)
    keep = x.clone()
    bad = torch.tensor([[0, 1, 2, 4]], dtype=torch.int64)  # 4 is past max_position
    with pytest.raises(RuntimeError, match=r"outside \[0, max_position\)"):
        at.rope_(x, cos, sin, positions=bad)
    assert torch.equal(bits(x), bits(keep))
    with pytest.raises(RuntimeError):
        at.rope_(x, cos, sin, start=1)  # token 3 at position 4
    assert torch.equal(bits(x), bits(keep))
    with pytest.raises(TypeError, match="cos must be float32"):
        at.rope(x, cos.double(), sin)
    with pytest.raises(TypeError, match="positions must be int64"):
        at.rope(x, cos, sin, positions=bad.int())
    with pytest.raises(ValueError, match="positions must be"):
        at.rope(x, cos, sin, positions=torch.zeros(2, 4, dtype=torch.int64))
    with pytest.raises(ValueError, match="layout must be"):
        at.rope(x, cos, sin, layout="sbhd")
    with pytest.raises(ValueError, match="style must be"):
        at.rope(x, cos, sin, style="neox")
    with pytest.raises(ValueError, match="columns"):
        at.rope(x, cos, sin, rotary_dim=4)
    with pytest.raises(ValueError, match="x must be"):
        at.rope(x.view(1, 4, 16), cos, sin)
    with pytest.raises(RuntimeError, match="contiguous"):
        at.rope(x.transpose(1, 2), cos, sin)
    with pytest.raises(RuntimeError, match="out must have"):
        at.rope(x, cos, sin, out=torch.empty(1, 4, 2, 7))
    with pytest.raises(RuntimeError):
        at.rope(x, cos, sin, rotary_dim=7)  # odd: the C call refuses it
    with pytest.raises(RuntimeError, match="requires grad"):
        at.rope(x.clone().requires_grad_(), cos, sin)
    with pytest.raises(ValueError):
        at.rope_cache(-1, 8)
    with pytest.raises(RuntimeError):
        at.rope_cache(4, 8, -1.0)


def test_threads_give_the_same_bits():
    before = torch.get_num_threads()
    try:
        x = data(torch.bfloat16, (4, 512, 8, 128), seed=2)
        cos, sin = at.rope_cache(512, 128)
        torch.set_num_threads(1)
        one = at.rope(x, cos, sin)
        torch.set_num_threads(2)
        assert at.pool_threads() == 2
        two = at.rope(x, cos, sin)
        assert torch.equal(bits(one), bits(two))
    finally:
        torch.set_num_threads(before)


def test_torchscript_sees_rope():
    def f(x, cos, sin):
        return torch.ops.actk.rope(x, cos, sin, None, 3, "bshd", "interleaved", 0, None)

    s = torch.jit.script(f)
    assert "actk::rope" in str(s.graph)
    x = data(torch.float16, (1, 2, 2, 8))
    cos, sin = at.rope_cache(8, 8)
    assert torch.equal(bits(s(x, cos, sin)), bits(at.rope(x, cos, sin, start=3, style="interleaved")))
