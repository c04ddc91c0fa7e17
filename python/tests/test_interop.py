"""Arrays from elsewhere: float16 as numpy's own, bfloat16 as ml_dtypes
arrays, any CPU DLPack producer (numpy's own __dlpack__, torch tensors) and
__array_interface__ objects, taken without a copy; the errors say what is
wrong and write nothing. Runs on numpy 1.24 (Debian) and 2.x, with and
without ml_dtypes and torch (their tests skip)."""
import numpy as np
import pytest

import actk

X = np.linspace(-6, 6, 4096, dtype=np.float32)


def _bits16(a):
    return a.view(np.uint16)


class DLPackOnly:
    """A DLPack producer that is not an ndarray (numpy >= 1.22 exports its
    arrays through DLPack): what JAX's or another library's array looks like
    to actk."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


class InterfaceOnly:
    """An object exposing its memory through __array_interface__ only."""

    def __init__(self, a, readonly=False):
        self.a = a
        iface = dict(a.__array_interface__)
        iface["data"] = (iface["data"][0], readonly)
        self.__array_interface__ = iface


class OnAnotherDevice:
    """A DLPack producer on a non-CPU device (kDLCUDA = 2)."""

    def __dlpack__(self, **kwargs):
        raise AssertionError("__dlpack__ must not be called for a non-CPU array")

    def __dlpack_device__(self):
        return (2, 0)


WRAPPERS = [DLPackOnly, InterfaceOnly]
# numpy 1.x views every DLPack array read-only (DLPack 0.x has no flag for it)
NUMPY1 = int(np.__version__.split(".")[0]) < 2
OUT_WRAPPERS = [InterfaceOnly] if NUMPY1 else WRAPPERS


# ---- float16: numpy's own ---------------------------------------------------


def test_float16_is_numpys_float16():
    h = X.astype(np.float16)
    y = actk.gelu(h)
    assert y.dtype == np.float16
    # the same bits as the uint16 patterns with dtype= (one kernel, two spellings)
    assert np.array_equal(_bits16(y), actk.gelu(_bits16(h), dtype="float16"))


# ---- bfloat16: ml_dtypes ----------------------------------------------------


def _bf16(x):
    """x rounded to bfloat16 bits (nearest even; the test inputs are finite)."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


@pytest.fixture
def ml_dtypes():
    return pytest.importorskip("ml_dtypes")


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("op", ["gelu", "silu", "tanh", "sigmoid", "mish"])
def test_ml_dtypes_bfloat16_is_native(ml_dtypes, op, fast):
    bits = _bf16(X)
    b = bits.view(ml_dtypes.bfloat16)
    y = getattr(actk, op)(b, fast=fast)
    assert y.dtype == ml_dtypes.bfloat16 and y.shape == b.shape
    want = getattr(actk, op)(bits, dtype="bfloat16", fast=fast)
    assert np.array_equal(_bits16(y), want), op
    # into an out of its own (the common call) and through a pool (the checked one)
    out = np.empty_like(b)
    assert getattr(actk, op)(b, out=out, fast=fast) is out
    assert np.array_equal(_bits16(out), want)
    with actk.Pool(threads=2) as pool:
        assert np.array_equal(_bits16(getattr(actk, op)(b, fast=fast, pool=pool)), want)


def test_ml_dtypes_bfloat16_bias_gated_rope(ml_dtypes):
    bits = _bf16(X).reshape(-1, 64)
    b = bits.view(ml_dtypes.bfloat16)
    bias_bits = _bf16(np.linspace(-1, 1, 64, dtype=np.float32))
    got = actk.bias_gelu(b, bias_bits.view(ml_dtypes.bfloat16))
    assert got.dtype == ml_dtypes.bfloat16
    assert np.array_equal(_bits16(got), actk.bias_gelu(bits, bias_bits, dtype="bfloat16"))
    got = actk.swiglu(b, b[::-1].copy())
    assert np.array_equal(_bits16(got), actk.swiglu(bits, bits[::-1].copy(), dtype="bfloat16"))
    cos, sin = actk.rope_cache(64, 32)
    q = bits.reshape(2, 4, 8, 64)
    got = actk.rope(q.view(ml_dtypes.bfloat16), cos, sin, rotary_dim=32)
    assert np.array_equal(_bits16(got), actk.rope(q, cos, sin, rotary_dim=32, dtype="bfloat16"))


def test_ml_dtypes_bfloat16_errors_write_nothing(ml_dtypes):
    b = _bf16(X).view(ml_dtypes.bfloat16)
    out = np.full(X.shape, 7, np.float16)
    with pytest.raises(TypeError, match="out must be"):
        actk.gelu(b, out=out)  # bf16 x, f16 out: refused, not converted
    assert (out == 7).all()
    with pytest.raises(TypeError, match="bias must be"):
        actk.bias_gelu(b.reshape(-1, 64), np.zeros(64, np.float32))
    with pytest.raises(TypeError, match="uint16"):
        actk.gelu(_bf16(X))  # uint16 without dtype= stays an error


# ---- DLPack and __array_interface__ -------------------------------------------


@pytest.mark.parametrize("wrap", WRAPPERS, ids=lambda w: w.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_foreign_arrays_give_the_ndarrays_bits(wrap, dtype):
    x = X.astype(dtype)
    for op in ("gelu", "erf", "hardswish"):
        y = getattr(actk, op)(wrap(x))
        assert type(y) is np.ndarray and y.dtype == dtype
        assert np.array_equal(y.view(np.uint8), getattr(actk, op)(x).view(np.uint8)), op
    assert np.array_equal(actk.swish(wrap(x), 1.5), actk.swish(x, 1.5))
    bias = np.linspace(-1, 1, 64).astype(dtype)
    x2 = x.reshape(-1, 64)
    assert np.array_equal(actk.bias_gelu(wrap(x2), wrap(bias)), actk.bias_gelu(x2, bias))
    assert np.array_equal(actk.geglu(wrap(x), wrap(x[::-1].copy())), actk.geglu(x, x[::-1].copy()))
    assert np.array_equal(actk.swiglu_packed(wrap(x2)), actk.swiglu_packed(x2))


@pytest.mark.parametrize("wrap", OUT_WRAPPERS, ids=lambda w: w.__name__)
def test_foreign_out_is_written_in_place_without_a_copy(wrap):
    x = X.copy()
    want = actk.gelu(X)
    out = np.zeros_like(x)
    wrapped = wrap(out)
    assert actk.gelu(wrap(x), out=wrapped) is wrapped  # the caller's object back
    assert np.array_equal(out, want)  # written into its memory, not a copy's
    # in place: x and out the same foreign memory
    assert actk.gelu(wrap(x), out=wrap(x)) is not None
    assert np.array_equal(x, want)
    q = np.ones((1, 4, 2, 16), np.float32)
    cos, sin = actk.rope_cache(8, 16)
    want = actk.rope(q, cos, sin)
    actk.rope(wrap(q), wrap(cos), wrap(sin), out=wrap(q))
    assert np.array_equal(q, want)


def test_foreign_errors_write_nothing():
    x = X.copy()
    out = np.full(X.shape, 7, np.float32)
    with pytest.raises(ValueError, match="not the CPU"):
        actk.gelu(OnAnotherDevice())
    with pytest.raises(ValueError, match="not the CPU"):
        actk.gelu(x, out=OnAnotherDevice())
    with pytest.raises(ValueError, match="out is read-only"):
        actk.gelu(x, out=InterfaceOnly(out, readonly=True))
    with pytest.raises(TypeError, match="float64"):
        actk.gelu(DLPackOnly(x.astype(np.float64)), out=out)
    with pytest.raises(ValueError, match="C-contiguous"):
        actk.gelu(InterfaceOnly(x[::2]), out=InterfaceOnly(out[::2]))
    with pytest.raises(TypeError, match="must be a numpy.ndarray, a CPU DLPack array"):
        actk.gelu([1.0, 2.0])  # a list is still not an array: no silent conversion
    assert (out == 7).all()


@pytest.mark.skipif(not NUMPY1, reason="numpy >= 2 takes writeable DLPack arrays as out")
def test_dlpack_out_on_numpy1_is_refused_clearly():
    out = np.full(X.shape, 7, np.float32)
    with pytest.raises(ValueError, match="read-only as numpy sees it through DLPack.*numpy >= 2"):
        actk.gelu(X, out=DLPackOnly(out))
    assert (out == 7).all()


def test_torch_tensors_go_in_without_a_copy():
    torch = pytest.importorskip("torch")
    for tdtype, ndtype in ((torch.float32, np.float32), (torch.float16, np.float16)):
        t = torch.from_numpy(X.astype(ndtype))
        y = actk.gelu(t)
        assert np.array_equal(y, actk.gelu(X.astype(ndtype)))
        if NUMPY1:
            continue  # out= through DLPack: numpy >= 2 (test_dlpack_out_on_numpy1...)
        out = torch.zeros_like(t)
        assert actk.gelu(t, out=out) is out
        assert np.array_equal(out.numpy(), y)
        actk.silu(t, out=t)  # in place in the tensor's own memory
        assert np.array_equal(t.numpy(), actk.silu(X.astype(ndtype)))


def test_torch_errors_are_clear_and_write_nothing():
    torch = pytest.importorskip("torch")
    out = torch.full((8,), 7.0)
    with pytest.raises(TypeError, match="x \\(Tensor\\) cannot be viewed .* bfloat16"):
        actk.gelu(torch.zeros(8, dtype=torch.bfloat16), out=out.numpy())
    with pytest.raises(ValueError, match="C-contiguous"):
        actk.gelu(torch.zeros(16)[::2], out=out.numpy())
    assert (out == 7).all()
