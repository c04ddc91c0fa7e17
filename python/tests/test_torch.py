"""torch.ops.actk and actk.torch: dtypes, out= and in place, errors, threads,
TorchScript and fx. Skipped without torch >= 2.4 (actk.torch refuses an older one),
unless ACTK_REQUIRE_TORCH=1 (CI), which makes that a failure."""

import numpy as np
import pytest

import actk

from torch_or_skip import at, torch  # noqa: E402  (skips the module without torch)

DTYPES = [torch.float32, torch.float16, torch.bfloat16]
UNARY = list(actk.UNARY_OPS)


def numpy_ref(op, x, fast, *extra):
    """The same op through actk's numpy binding (the C entry points named
    actk_<op>_<type>[_fast]): the torch op must give exactly its bits."""
    if x.dtype == torch.bfloat16:
        a = x.view(torch.int16).numpy().view(np.uint16)
        ex = [e.view(torch.int16).numpy().view(np.uint16) if isinstance(e, torch.Tensor) else e
              for e in extra]
        y = getattr(actk, op)(a, *ex, fast=fast, dtype="bfloat16")
        return torch.from_numpy(y.view(np.int16)).view(torch.bfloat16)
    ex = [e.numpy() if isinstance(e, torch.Tensor) else e for e in extra]
    return torch.from_numpy(getattr(actk, op)(x.numpy(), *ex, fast=fast))


def sample(dtype, n=4099, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g) * 4
    x[:6] = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30])
    return x.to(dtype)


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    ia = a.view(torch.int16 if a.element_size() == 2 else torch.int32)
    ib = b.view(torch.int16 if b.element_size() == 2 else torch.int32)
    return torch.equal(ia, ib)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("op", UNARY)
def test_unary_bits_are_the_c_functions(op, fast, dtype):
    x = sample(dtype)
    want = numpy_ref(op, x, fast)
    got = getattr(torch.ops.actk, op)(x, fast)
    assert got.dtype == dtype and got.shape == x.shape
    assert same_bits(got, want)
    # the registered in-place and out= ops return nothing (torch.compile's functionalization
    # takes no custom op whose output aliases an input); the functions return the tensor
    out = torch.empty_like(x)
    assert getattr(torch.ops.actk, op).out(x, fast, out=out) is None and same_bits(out, want)
    y = x.clone()
    assert getattr(torch.ops.actk, op + "_")(y, fast) is None and same_bits(y, want)
    out2, y2 = torch.empty_like(x), x.clone()
    assert getattr(at, op)(x, fast, out=out2) is out2 and same_bits(out2, want)
    assert getattr(at, op + "_")(y2, fast) is y2 and same_bits(y2, want)


def test_fast_tier_is_not_the_accurate_one():
    # the two tiers differ somewhere on f32: a swapped registration shows
    x = sample(torch.float32, 1 << 16)
    for op in UNARY:
        assert not same_bits(getattr(at, op)(x), getattr(at, op)(x, fast=True)), op


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fast", [False, True])
def test_swish_and_bias_ops(dtype, fast):
    x = sample(dtype, 64 * 33).reshape(64, 33)
    for alpha in (1.0, 1.702, -0.5):
        assert same_bits(at.swish(x, alpha, fast=fast), numpy_ref("swish", x, fast, alpha))
    b = sample(dtype, 33, seed=1)
    for op in actk.BIAS_OPS:
        want = numpy_ref(op, x, fast, b)
        assert same_bits(getattr(at, op)(x, b, fast=fast), want)
        out = torch.empty_like(x)
        getattr(at, op)(x, b, fast=fast, out=out)
        assert same_bits(out, want)
        y = x.clone()
        getattr(at, op + "_")(y, b, fast=fast)
        assert same_bits(y, want)


def test_functions_match_torch_closely():
    x = sample(torch.float32)[6:]
    F = torch.nn.functional
    pairs = [(at.gelu, F.gelu), (at.silu, F.silu), (at.sigmoid, torch.sigmoid),
             (at.tanh, torch.tanh), (at.gelu_tanh, lambda v: F.gelu(v, approximate="tanh"))]
    for a, t in pairs:
        torch.testing.assert_close(a(x), t(x), rtol=1e-5, atol=1e-6)


def test_in_place_on_a_view_writes_the_base():
    base = torch.zeros(10)
    base[2:8] = 1.0
    at.tanh_(base[2:8])
    want = at.tanh(torch.ones(6))  # out of place: the same bits (tanh is within 2 ULP, not exact)
    torch.testing.assert_close(want, torch.full((6,), float(np.tanh(1.0))))
    assert torch.equal(base[2:8], want)
    assert base[0] == 0 and base[9] == 0


def test_dense_permutations_are_handled_in_place():
    x = sample(torch.float32, 2 * 3 * 5 * 7).reshape(2, 3, 5, 7)
    cl = x.contiguous(memory_format=torch.channels_last)
    y = at.gelu(cl)
    assert y.stride() == cl.stride()  # the output takes x's layout
    assert same_bits(y.contiguous(), at.gelu(x))
    t = x.reshape(6, 35).t()
    assert same_bits(at.silu(t), at.silu(t.contiguous()))


def test_errors_are_clear():
    x = sample(torch.float32, 64)
    with pytest.raises(TypeError, match="float32, float16 or bfloat16"):
        at.gelu(x.double())
    with pytest.raises(TypeError, match="float32, float16 or bfloat16"):
        at.gelu(torch.arange(4))
    with pytest.raises(RuntimeError, match="contiguous"):
        at.gelu(x[::2])
    with pytest.raises(RuntimeError, match="contiguous"):
        at.gelu_(x[::2])
    with pytest.raises(RuntimeError, match="sizes"):
        at.gelu(x, out=torch.empty(63))
    with pytest.raises(TypeError, match="out must be"):
        at.gelu(x, out=torch.empty(64, dtype=torch.float16))
    with pytest.raises(RuntimeError, match="strides"):
        at.gelu(x.reshape(8, 8), out=torch.empty(8, 8).t())
    with pytest.raises(RuntimeError, match="bias"):
        at.bias_gelu(x.reshape(8, 8), torch.empty(7))
    with pytest.raises(TypeError, match="bias must be"):
        at.bias_gelu(x.reshape(8, 8), torch.empty(8, dtype=torch.bfloat16))
    with pytest.raises(RuntimeError, match="contiguous"):
        at.bias_gelu(x.reshape(8, 8).t(), torch.empty(8))
    # overlap other than exactly in place: the library's ACTK_ERR_OVERLAP
    buf = torch.zeros(65)
    with pytest.raises(RuntimeError, match="overlap"):
        at.gelu(buf[:64], out=buf[1:])
    assert torch.equal(buf, torch.zeros(65))  # nothing written


def test_requires_grad_is_refused():
    x = torch.randn(16, requires_grad=True)
    with pytest.raises(RuntimeError, match="inference only"):
        at.gelu(x)
    with pytest.raises(RuntimeError, match="inference only"):
        at.SiLU()(x)
    with pytest.raises(RuntimeError, match="inference only"):
        at.gelu(x.detach(), out=torch.empty(16, requires_grad=True))
    with torch.no_grad():
        y = at.gelu(x)
    assert not y.requires_grad
    with torch.inference_mode():
        assert same_bits(at.gelu(x), y)
    assert same_bits(at.gelu(x.detach()), y)


@pytest.fixture
def threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_thread_counts_give_the_same_bits_and_follow_torchs_count(dtype, threads):
    x = sample(dtype, (1 << 21) + 37)
    b = sample(dtype, 1000, seed=3)
    xb = x[: 2000 * 1000].reshape(2000, 1000)
    torch.set_num_threads(1)
    assert at.pool_threads() == 1  # one thread: actk runs on the caller
    one = [at.gelu(x), at.silu(x, fast=True), at.swish(x, 0.7), at.bias_gelu(xb, b)]
    torch.set_num_threads(2)
    assert at.pool_threads() == 2  # torch.set_num_threads sets actk's width too
    two = [at.gelu(x), at.silu(x, fast=True), at.swish(x, 0.7), at.bias_gelu(xb, b)]
    for a, b2 in zip(one, two):
        assert same_bits(a, b2)


def test_concurrent_calls_from_python_threads(threads):
    # several Python threads at once on one actk pool (ctypes drops the GIL): right bits
    torch.set_num_threads(2)
    x = sample(torch.float32, 1 << 20)
    want = at.gelu(x)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as ex:
        outs = list(ex.map(lambda _: at.gelu(x), range(8)))
    assert all(same_bits(o, want) for o in outs)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)
        self.act = at.GELU()
        self.act2 = at.SiLU(inplace=True)
        self.gate = at.Sigmoid(fast=True)
        self.t = at.GELU("tanh")

    def forward(self, x):
        h = self.act2(self.act(self.lin(x)))
        return self.t(h) * self.gate(x) + torch.ops.actk.swish(x, 0.5, False)


def test_torchscript_sees_the_ops():
    torch.manual_seed(0)
    m = Block().eval()
    x = torch.randn(4, 16)
    with torch.no_grad():
        want = m(x)
        s = torch.jit.script(m)
        got = s(x)
    graph = str(s.inlined_graph)
    for op in ("actk::gelu(", "actk::silu_(", "actk::sigmoid(", "actk::gelu_tanh(", "actk::swish("):
        assert op in graph, op
    assert torch.equal(got, want)


def test_fx_sees_the_ops():
    import torch.fx

    gm = torch.fx.symbolic_trace(Block().eval())
    targets = {n.target for n in gm.graph.nodes if n.op == "call_function"}
    for op in ("gelu", "silu_", "sigmoid", "gelu_tanh", "swish"):
        assert getattr(torch.ops.actk, op).default in targets or getattr(torch.ops.actk, op) in targets, op


def test_modules_and_replace():
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(8, 8), torch.nn.GELU(), torch.nn.GELU(approximate="tanh"),
        torch.nn.Sequential(torch.nn.SiLU(inplace=True), torch.nn.Sigmoid()), torch.nn.Tanh(),
        torch.nn.ReLU(),
    ).eval()
    x = torch.randn(3, 8)
    with torch.no_grad():
        want = model(x)
        swapped = at.replace(model)
        got = model(x)
    names = [n for n, _, _ in swapped]
    assert names == ["1", "2", "3.0", "3.1", "4"]
    assert isinstance(model[1], at.GELU) and model[1].approximate == "none"
    assert model[2].approximate == "tanh"
    assert isinstance(model[3][0], at.SiLU) and model[3][0].inplace
    assert isinstance(model[5], torch.nn.ReLU)  # not ours to swap
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    assert at.replace(model) == []  # nothing left to swap


def test_softplus_module_and_replace():
    # torch.nn.Softplus (beta 1, threshold 20) is the mathematical function in f32: swapped;
    # another beta, or a threshold under 14.55609 (torch returns x where log1p(e^-x) still
    # counts), is not
    # a threshold from 88.72284 up is not swapped either: torch's float exp overflows below it
    # (inf where actk gives x), checked here against torch itself
    big = torch.tensor([88.72283, 88.72284, 90.0])
    assert torch.isinf(torch.nn.functional.softplus(big, threshold=100.0)[1:]).all()
    assert not torch.isinf(at.softplus(big)).any()
    model = torch.nn.Sequential(
        torch.nn.Softplus(), torch.nn.Softplus(beta=2.0), torch.nn.Softplus(threshold=10.0),
        torch.nn.Softplus(threshold=14.5), torch.nn.Softplus(threshold=14.56),
        torch.nn.Softplus(threshold=88.7228), torch.nn.Softplus(threshold=88.72284),
        torch.nn.Softplus(threshold=float("inf")),
    ).eval()
    swapped = at.replace(model)
    assert [n for n, _, _ in swapped] == ["0", "4", "5"]
    assert all(isinstance(model[i], at.Softplus) for i in (0, 4, 5))
    assert all(type(model[i]) is torch.nn.Softplus for i in (1, 2, 3, 6, 7))
    # the threshold's bound, on both sides: x = 14.55609 is the last float where softplus(x)
    # differs from x, the next one is x itself
    last = torch.tensor([14.55609, 14.556091])
    assert at.softplus(last)[0] != last[0] and at.softplus(last)[1] == last[1]
    for dtype in DTYPES:
        x = sample(dtype)
        for fast in (False, True):
            m = at.Softplus(fast=fast)
            with torch.no_grad():
                assert same_bits(m(x), numpy_ref("softplus", x, fast))
    # against torch's own: over x = N(0, 16) and the threshold region, within 2 ULP in f32
    x = torch.cat([sample(torch.float32), torch.linspace(-120, 40, 4001)])
    with torch.no_grad():
        want = torch.nn.functional.softplus(x.double()).float()
        got = model[0](x)
    torch.testing.assert_close(got, want, rtol=3e-7, atol=2.0**-148, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fast", [False, True])
def test_elu_module_and_replace(dtype, fast):
    """actk.torch.ELU gives the C function's bits (through the numpy binding) at torch.nn.ELU's
    alpha, and replace() swaps torch.nn.ELU for it, alpha and inplace kept."""
    x = sample(dtype)
    for alpha in (1.0, 0.5, 2.25):
        assert same_bits(at.ELU(alpha, fast=fast)(x), numpy_ref("elu", x, fast, alpha))
    model = torch.nn.Sequential(torch.nn.ELU(0.5), torch.nn.ELU(inplace=True)).eval()
    want = numpy_ref("elu", numpy_ref("elu", x, fast, 0.5), fast, 1.0)
    swapped = at.replace(model, fast=fast)
    assert [n for n, _, _ in swapped] == ["0", "1"]
    assert isinstance(model[0], at.ELU) and model[0].alpha == 0.5 and not model[0].inplace
    assert model[1].alpha == 1.0 and model[1].inplace
    with torch.no_grad():
        assert same_bits(model(x.clone()), want)


def test_mish_module_is_the_c_function():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Mish(), torch.nn.Mish(inplace=True))
    swapped = at.replace(model)
    assert [n for n, _, _ in swapped] == ["1", "2"]
    assert isinstance(model[1], at.Mish) and not model[1].inplace and model[2].inplace
    for dtype in DTYPES:
        for fast in (False, True):
            x = sample(dtype)
            want = numpy_ref("mish", x, fast)
            assert same_bits(at.Mish(fast=fast)(x), want)
            y = x.clone()
            assert same_bits(at.Mish(fast=fast, inplace=True)(y), want) and same_bits(y, want)
    x = torch.randn(4099) * 4
    torch.testing.assert_close(at.Mish()(x), torch.nn.functional.mish(x), rtol=1e-6, atol=1e-7)


def test_replace_fast_and_verbose(capsys):
    model = torch.nn.Sequential(torch.nn.SiLU(), torch.nn.SiLU())
    swapped = at.replace(model, fast=True, verbose=True)
    assert all(new.fast for _, _, new in swapped)
    assert "2 module(s) swapped" in capsys.readouterr().out


def test_gelu_rejects_unknown_approximate():
    with pytest.raises(ValueError, match="approximate"):
        at.GELU("sigmoid")


GATED = list(getattr(actk, "GATED_OPS", {}))
ACT_OF = {"silu": torch.nn.functional.silu, "gelu": torch.nn.functional.gelu,
          "gelu_tanh": lambda v: torch.nn.functional.gelu(v, approximate="tanh")}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("op", GATED)
def test_gated_and_packed(op, fast, dtype):
    x = sample(dtype, 64 * 512 + 6, seed=4)[6:].reshape(64, 512)  # finite values only
    gate, up = x[:, :256].contiguous(), x[:, 256:].contiguous()
    y = getattr(at, op)(gate, up, fast=fast)
    # the C functions' bits (through the numpy binding), plain and packed
    assert same_bits(y, numpy_ref(op, gate, fast, up))
    assert same_bits(getattr(at, op + "_packed")(x, fast=fast), numpy_ref(op + "_packed", x, fast))
    # the packed form gives the plain form's bits on the split halves
    assert same_bits(getattr(at, op + "_packed")(x, fast=fast), y)
    out = torch.empty_like(gate)
    getattr(at, op)(gate, up, fast=fast, out=out)
    assert same_bits(out, y)
    pout = torch.empty(64, 256, dtype=dtype)
    getattr(at, op + "_packed")(x, fast=fast, out=pout)
    assert same_bits(pout, y)
    g2 = gate.clone()
    getattr(at, op + "_")(g2, up, fast=fast)
    assert same_bits(g2, y)
    want = ACT_OF[actk.GATED_OPS[op]](gate.float()) * up.float()
    tol = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}[dtype]
    torch.testing.assert_close(y.float(), want, rtol=tol, atol=tol)


def test_gated_errors():
    if not GATED:
        pytest.skip("no gated ops")
    op = GATED[0]
    g = torch.randn(4, 8)
    with pytest.raises(RuntimeError, match="up must have"):
        getattr(at, op)(g, torch.randn(4, 7))
    with pytest.raises(TypeError, match="up must be"):
        getattr(at, op)(g, g.to(torch.bfloat16))
    with pytest.raises(RuntimeError, match="even"):
        getattr(at, op + "_packed")(torch.randn(4, 7))
    with pytest.raises(RuntimeError, match="out must be contiguous with sizes"):
        getattr(at, op + "_packed")(torch.randn(4, 8), out=torch.empty(4, 8))
