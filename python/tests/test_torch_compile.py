"""torch.library: opcheck for every op, form and dtype (AOT dispatch: every op in float32,
one op per shape in the others); fake and meta tensors; grad refused;
torch.compile (no graph break, each actk op's eager bits, the model as close to eager as
stock torch's compiled model) and torch.export of a model replace() swapped. Skipped
without torch >= 2.4 unless ACTK_REQUIRE_TORCH=1 (CI)."""
import contextlib
import copy

import pytest

from torch_or_skip import at, torch  # noqa: E402  (skips the module without torch)

from actk._torch_modules import OPS  # noqa: E402

DTYPES = [torch.float32, torch.float16, torch.bfloat16]


def bits(t):
    return t.view(torch.int16 if t.element_size() == 2 else torch.int32)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(bits(a), bits(b))


def op_args(name, dtype):
    """Sample arguments of op name (a key of OPS) at dtype: (args, the out= tensor)."""
    g = torch.Generator().manual_seed(1)
    x = (torch.randn(6, 34, generator=g) * 3).to(dtype)
    shape = OPS[name][0]
    if shape == "unary":
        return (x,), torch.empty_like(x)
    if shape == "param":
        return (x, 0.75), torch.empty_like(x)
    if shape == "bias":
        return (x, torch.randn(34, generator=g).to(dtype)), torch.empty_like(x)
    if shape == "gated":
        return (x, torch.randn(6, 34, generator=g).to(dtype)), torch.empty_like(x)
    if shape == "packed":
        return (x,), torch.empty(6, 17, dtype=dtype)
    raise AssertionError("a shape this test does not know: %s" % shape)


# opcheck's aot_dispatch_dynamic (compile's path through AOTAutograd) costs about 10x its
# other checks together and goes through the same fake kernel for every dtype: every op runs
# it in float32, and one op of each shape (the first in OPS) in float16 and bfloat16; the
# schema, autograd-registration and fake-tensor checks run for every op, form and dtype.
FULL = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
FIRST_OF_SHAPE = {shape: name for name, (shape, *_) in reversed(list(OPS.items()))}


def opcheck(op, args, kwargs=None, test_utils=FULL):
    result = torch.library.opcheck(op, args, kwargs or {}, test_utils=test_utils)
    assert set(result) == set(test_utils), result
    assert all(v == "SUCCESS" for v in result.values()), result


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", list(OPS))
def test_opcheck_every_op_and_form(name, dtype):
    """schema, autograd registration, fake tensor and AOT dispatch (compile's path) for the
    op, its in-place form and its out= form (AOT dispatch: above)."""
    args, out = op_args(name, dtype)
    ops = torch.ops.actk
    utils = FULL if dtype == torch.float32 or FIRST_OF_SHAPE[OPS[name][0]] == name else FULL[:3]
    opcheck(getattr(ops, name).default, args, {"fast": True}, utils)
    opcheck(getattr(ops, name).out, args, {"out": out}, utils)
    if OPS[name][2] is not None:
        opcheck(getattr(ops, name + "_").default, tuple(a.clone() if isinstance(a, torch.Tensor)
                                                        else a for a in args), None, utils)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_opcheck_rope(dtype):
    cos, sin = at.rope_cache(16, 8)
    x = torch.randn(2, 5, 3, 8).to(dtype)
    pos = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]])
    opcheck(torch.ops.actk.rope.default, (x, cos, sin, pos))
    opcheck(torch.ops.actk.rope_.default, (x.clone(), cos, sin), {"style": "interleaved"})
    opcheck(torch.ops.actk.rope.out, (x, cos, sin), {"start": 2, "out": torch.empty_like(x)})
    opcheck(torch.ops.actk.rope_cache.default, (16, 8))


def test_fake_kernels_check_as_the_real_ones():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 8)
        y = torch.ops.actk.gelu(x.t())  # a dense permutation keeps its layout
        assert y.shape == (8, 4) and y.stride() == (1, 8)
        assert torch.ops.actk.swiglu_packed(x).shape == (4, 4)
        with pytest.raises(TypeError, match="float32, float16 or bfloat16"):
            torch.ops.actk.gelu(x.double())
        with pytest.raises(RuntimeError, match="contiguous"):
            torch.ops.actk.gelu(x[:, ::2])
        with pytest.raises(RuntimeError, match="strides"):
            torch.ops.actk.gelu.out(x, out=torch.empty(8, 4).t())
        with pytest.raises(RuntimeError, match="bias must have"):
            torch.ops.actk.bias_gelu(x, torch.empty(7))
    m = torch.empty(3, 5, device="meta", dtype=torch.bfloat16)
    y = at.silu(m)
    assert y.device.type == "meta" and y.dtype == torch.bfloat16 and y.shape == (3, 5)


def test_grad_is_refused_with_a_clear_message():
    x = torch.randn(16, requires_grad=True)
    for call in (lambda: torch.ops.actk.gelu(x), lambda: at.Hardswish()(x),
                 lambda: torch.ops.actk.swiglu(x, x.detach()),
                 lambda: torch.ops.actk.silu.out(x.detach(), out=torch.empty(16, requires_grad=True))):
        with pytest.raises(RuntimeError, match="inference only"):
            call()
    with torch.no_grad():
        assert not at.gelu(x).requires_grad


# ---- modules and replace() --------------------------------------------------------------

def test_module_signatures_are_torchs():
    assert at.Softplus(beta=2).beta == 2.0  # used to raise a TypeError naming an internal class
    assert at.Softplus(2.0, 10.0).threshold == 10.0
    assert at.SiLU(True).inplace and at.Mish(True).inplace and at.Hardswish(True).inplace
    assert at.ELU(0.5, True).alpha == 0.5 and at.ELU(0.5, True).inplace
    assert at.GELU("tanh").approximate == "tanh" and at.GELU(approximate="none").fast is False
    assert at.SiLU(fast=True).fast and not at.SiLU(fast=True).inplace


def test_softplus_any_beta_and_threshold_is_torchs_function():
    # not one actk op there (replace() leaves them), but the module computes torch's function
    x = torch.cat([torch.randn(4096) * 8, torch.linspace(-30, 30, 601)])
    for beta, threshold in ((2.0, 20.0), (0.5, 5.0), (1.0, 5.0), (3.0, 100.0)):
        # torch's own f32 rounds beta x as actk's module does (its error grows with |beta x|
        # alike): what is left is actk's softplus and the division, a few ulp
        want = torch.nn.functional.softplus(x, beta, threshold)
        got = at.Softplus(beta, threshold)(x)
        # where torch's float exp overflows (beta x >= 88.72284 under the threshold) torch
        # gives inf; actk the function's value
        over = torch.isinf(want)
        assert bool(over.any()) == (threshold > 88.72284 / beta)
        torch.testing.assert_close(got[~over], want[~over], rtol=4e-7, atol=1e-30)
        truth = torch.nn.functional.softplus(x[over].double(), beta, threshold).float()
        torch.testing.assert_close(got[over], truth, rtol=4e-7, atol=0)
        y = x.clone()
        assert at.Softplus(beta, threshold, inplace=True)(y) is y and torch.equal(y, got)


def test_hard_modules_are_the_c_functions_and_swapped(capsys):
    x = torch.randn(4099) * 4
    for name, cls, ref in (("hardswish", at.Hardswish, torch.nn.functional.hardswish),
                           ("hardsigmoid", at.Hardsigmoid, torch.nn.functional.hardsigmoid)):
        assert same_bits(cls()(x), getattr(at, name)(x))
        torch.testing.assert_close(cls()(x), ref(x), rtol=2e-7, atol=1e-7)
    model = torch.nn.Sequential(torch.nn.Hardswish(), torch.nn.Hardsigmoid(inplace=True),
                                torch.nn.Softplus(beta=2.0), torch.nn.ReLU())
    swapped = at.replace(model, verbose=True)
    assert [n for n, _, _ in swapped] == ["0", "1"]
    assert isinstance(model[0], at.Hardswish) and not model[0].inplace
    assert isinstance(model[1], at.Hardsigmoid) and model[1].inplace
    assert type(model[2]) is torch.nn.Softplus and type(model[3]) is torch.nn.ReLU
    assert "left 2: Softplus(beta=2.0, threshold=20.0)" in capsys.readouterr().out


def test_mobilenet_v3_small_hard_activations_are_swapped():
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v3_small(weights=None).eval()
    stock = copy.deepcopy(model)
    swapped = at.replace(model)
    kinds = {}
    for _, old, new in swapped:
        kinds[type(old).__name__] = kinds.get(type(old).__name__, 0) + 1
        assert type(new).__name__ == type(old).__name__ and new.inplace == old.inplace
    assert kinds == {"Hardswish": 19, "Hardsigmoid": 9}
    assert not any(type(m) in (torch.nn.Hardswish, torch.nn.Hardsigmoid) for m in model.modules())
    x = torch.randn(2, 3, 224, 224)
    with torch.no_grad():
        want, got = stock(x), model(x)
    scale = float(want.abs().max())
    assert scale > 0 and float((got - want).abs().max()) <= 1e-5 * scale


# ---- torch.compile and torch.export ---------------------------------------------------------

class Net(torch.nn.Module):
    """Every swappable activation between linear layers (one in place)."""

    def __init__(self):
        super().__init__()
        self.l1, self.l2, self.l3 = (torch.nn.Linear(32, 64), torch.nn.Linear(64, 64),
                                     torch.nn.Linear(64, 32))
        self.acts = torch.nn.ModuleList([
            torch.nn.GELU(), torch.nn.GELU(approximate="tanh"), torch.nn.SiLU(inplace=True),
            torch.nn.Hardswish(), torch.nn.Hardsigmoid(), torch.nn.ELU(0.5), torch.nn.Mish(),
            torch.nn.Softplus(), torch.nn.Sigmoid(), torch.nn.Tanh()])

    def forward(self, x):
        h = self.l1(x)
        for i, a in enumerate(self.acts):
            h = a(h) if i % 2 == 0 else self.l2(a(h))
        return self.l3(h)


def swapped_net(dtype):
    torch.manual_seed(0)
    stock = Net().eval().to(dtype)
    model = copy.deepcopy(stock)
    assert len(at.replace(model)) == 10
    return stock, model


@contextlib.contextmanager
def recording():
    """Every actk CPU kernel call as (name, the inputs' copies, the result's copy), through
    a probe registered over the kernels for the duration (the compiled code's calls go to
    the dispatcher, so they come here too)."""
    calls = []
    lib = torch.library.Library("actk", "IMPL")

    def probe(name, kernel):
        def k(*args, **kwargs):
            ins = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
            r = kernel(*args, **kwargs)
            calls.append((name, ins, kwargs, args[0].clone() if r is None else r.clone()))
            return r

        return k

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "overriding a previously registered kernel"
        for name, kernel in at.KERNELS.items():
            if name != "rope_cache":
                lib.impl(name, probe(name, kernel), "CPU")
    try:
        yield calls
    finally:
        lib._destroy()


def test_compile_has_no_graph_break_and_keeps_each_ops_eager_bits():
    import torch._dynamo

    for dtype in (torch.float32, torch.bfloat16):
        _, model = swapped_net(dtype)
        x = torch.randn(8, 32).to(dtype)
        with torch.no_grad():
            torch._dynamo.reset()
            explain = torch._dynamo.explain(model)(x)
            assert explain.graph_break_count == 0 and explain.graph_count == 1, explain
            compiled = torch.compile(model)
            with recording() as calls:
                compiled(x)
        names = [c[0] for c in calls]
        for op in ("gelu", "gelu_tanh", "silu_", "hardswish", "hardsigmoid", "elu", "mish",
                   "softplus", "sigmoid", "tanh"):
            assert op in names, (op, names)
        # each call the compiled model made: the op run eagerly on the same input, same bits
        for name, ins, kwargs, got in calls:
            base = name.rstrip("_")
            want = getattr(torch.ops.actk, base)(*ins, **kwargs)
            assert same_bits(got, want), name


def test_compiled_model_is_as_close_to_eager_as_stock_torchs():
    import torch._dynamo

    stock, model = swapped_net(torch.float32)
    x = torch.randn(8, 32)
    with torch.no_grad():
        torch._dynamo.reset()
        d_actk = float((torch.compile(model)(x) - model(x)).abs().max())
        d_stock = float((torch.compile(stock)(x) - stock(x)).abs().max())
    assert d_actk <= d_stock, (d_actk, d_stock)


def test_export_of_a_swapped_model():
    for dtype in (torch.float32, torch.bfloat16):
        _, model = swapped_net(dtype)
        x = torch.randn(8, 32).to(dtype)
        with torch.no_grad():
            ep = torch.export.export(model, (x,))
            targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
            assert sum(t.startswith("actk.") for t in targets) == 10, targets
            assert same_bits(ep.module()(x), model(x))


@pytest.mark.parametrize("name", ["efficientnet_b0", "convnext_tiny"])
def test_torchvision_models_trace_and_export_whole(name):
    """dynamo traces the swapped model in one graph, and torch.export keeps every swapped
    activation as an actk op whose exported module gives eager's bits."""
    torchvision = pytest.importorskip("torchvision")
    import torch._dynamo

    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    n = len(at.replace(model))
    # 64x64, not 224x224: tracing and export see the same graph at any size past the
    # models' 32x downsampling; the three eager passes cost 12x less
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        torch._dynamo.reset()
        explain = torch._dynamo.explain(model)(x)
        assert explain.graph_break_count == 0, explain.break_reasons
        ep = torch.export.export(model, (x,))
        nodes = [n_ for n_ in ep.graph.nodes if str(n_.target).startswith("actk.")]
        assert n > 0 and len(nodes) == n, (n, len(nodes))
        assert same_bits(ep.module()(x), model(x))
