"""actk for PyTorch (torch >= 2.4): the ops on torch.Tensor, as torch.library ops.

    import torch, actk.torch as at
    y = at.gelu(x)                          # a new tensor (float32, float16, bfloat16)
    at.gelu(x, out=y); at.gelu_(x)          # into y; in place
    torch.ops.actk.gelu(x, fast=True)       # the registered op (compile, export, fx)
    at.replace(model)                       # torch.nn activations -> actk's

Every op is defined with torch.library as torch.ops.actk.<op>(x, ...,
fast=False), the in place torch.ops.actk.<op>_ and torch.ops.actk.<op>.out(...,
out=y), with a fake kernel (the real one's checks of dtype, sizes, strides and
device, no data), so torch.compile, torch.export, fx and meta tensors see them
as ops. The kernels are Python calling the C library through ctypes on
tensor.data_ptr() (the loader of the numpy binding, actk/__init__.py): no
extension is built, any torch >= 2.4 works.

Tensors are used where they are, never copied: x must be on the CPU,
float32/float16/bfloat16, and dense (contiguous, or a dense permutation such as
channels_last; bias ops need it contiguous); out must match x's dtype, sizes
and strides. Anything else is an error (TypeError for a dtype, ValueError for
an argument's value, RuntimeError otherwise) that says what to pass.

Inference only: no backward. Each op's autograd kernel refuses a tensor that
requires grad while grad mode is on; run under torch.no_grad() or
torch.inference_mode().

Threads: at torch.get_num_threads() == 1 actk runs on the calling thread; at
n > 1 a call large enough to split runs on an actk pool of n threads (the
caller included), made on first use per n and kept: torch.set_num_threads
governs actk's width too. Results are the same bits for every thread count.
"""
import re
import threading

import torch


def _torch_version():
    parts = []
    for p in torch.__version__.split("+")[0].split(".")[:2]:
        digits = "".join(c for c in p if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


_NEEDS = (2, 4)
if _torch_version() < _NEEDS or not hasattr(torch.library, "register_fake"):
    raise ImportError(
        "actk.torch needs torch >= %d.%d (torch.library.register_fake), found torch %s: "
        "pip install 'torch>=%d.%d'; actk's numpy binding (import actk) works without it"
        % (_NEEDS + (torch.__version__,) + _NEEDS))

import actk as _actk  # noqa: E402  the numpy binding: its loaded library and C functions

from . import _ops  # noqa: E402
from . import _torch_modules  # noqa: E402
from ._torch_modules import MODULES, NN_SWAPS, OPS, _Unary  # noqa: E402,F401

__all__ = ["GELU", "Hardswish", "Hardsigmoid", "replace", "pool_threads"]

# ---- the C functions by dtype ----------------------------------------------------------

_DTYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}
_C = _actk._C  # (op, type, tier) -> ctypes function (gated ops: added by actk._gated)


def _kernels(op):
    """{torch dtype: (accurate, fast)} of an op's C functions."""
    return {d: (_C[op, t, "accurate"], _C[op, t, "fast"]) for d, t in _DTYPES.items()}


# ---- the pool: torch's thread count, actk's threads ---------------------------------------

_pools = {}
_pools_lock = threading.Lock()


def _pool():
    """The actk pool handle for torch.get_num_threads() (None at one thread: the caller)."""
    n = torch.get_num_threads()
    if n <= 1:
        return None
    p = _pools.get(n)
    if p is None:
        with _pools_lock:
            p = _pools.get(n)
            if p is None:
                p = _pools[n] = _actk.Pool(threads=n)  # kept for the process, as torch's are
    return p._handle


def pool_threads():
    """The width actk runs a large call at now: torch.get_num_threads() (1: the caller)."""
    n = torch.get_num_threads()
    if n <= 1:
        return 1
    _pool()
    return int(_actk._pool_threads(_pools[n]._handle))


# ---- checks: the same in the kernel and the fake kernel -------------------------------------


def _dense(x):
    if x.is_contiguous() or x.is_contiguous(memory_format=torch.channels_last):
        return True
    # any other dense permutation: strides a permutation of a contiguous tensor's
    dims = sorted((s, n) for s, n in zip(x.stride(), x.shape) if n != 1)
    expect = 1
    for s, n in dims:
        if s != expect:
            return False
        expect *= n
    return True


def _device_ok(t):
    # meta: shape propagation (fake tensors report the device they stand for)
    return t.device.type in ("cpu", "meta")


def _input(op, x, name="x"):
    if not _device_ok(x):
        raise RuntimeError("actk::%s: %s must be on the CPU, got %s" % (op, name, x.device))
    if x.dtype not in _DTYPES:
        raise TypeError("actk::%s: %s must be float32, float16 or bfloat16, got %s (actk converts "
                        "nothing: pass %s.float())" % (op, name, x.dtype, name))
    if not _dense(x):
        raise RuntimeError("actk::%s: %s must be contiguous (or a dense permutation such as "
                           "channels_last), got sizes %s strides %s: actk makes no hidden copies, "
                           "pass %s.contiguous()" % (op, name, list(x.shape), list(x.stride()), name))


def _out(op, x, out):
    if not _device_ok(out):
        raise RuntimeError("actk::%s: out must be on the CPU" % op)
    if out.dtype != x.dtype:
        raise TypeError("actk::%s: out must be %s like x, got %s" % (op, x.dtype, out.dtype))
    if out.shape != x.shape:
        raise RuntimeError("actk::%s: out must have x's sizes %s, got %s (out is never resized)"
                           % (op, list(x.shape), list(out.shape)))
    if out.stride() != x.stride():
        raise RuntimeError("actk::%s: out must have x's strides %s, got %s (make it with "
                           "torch.empty_like(x))" % (op, list(x.stride()), list(out.stride())))


def _run(op, status):
    if status:
        raise RuntimeError("actk::%s: %s" % (op, _actk.status_string(status)))


def _contiguous(op, x, name="x"):
    if not x.is_contiguous():
        raise RuntimeError("actk::%s: %s must be contiguous, got strides %s: actk makes no hidden "
                           "copies, pass %s.contiguous()" % (op, name, list(x.stride()), name))


def _bias_check(op, x, b):
    _input(op, x)
    _contiguous(op, x)
    if not _device_ok(b):
        raise RuntimeError("actk::%s: bias must be on the CPU" % op)
    if b.dtype != x.dtype:
        raise TypeError("actk::%s: bias must be %s like x, got %s" % (op, x.dtype, b.dtype))
    if b.dim() != 1 or not b.is_contiguous():
        raise RuntimeError("actk::%s: bias must be a contiguous 1-d tensor, got sizes %s"
                           % (op, list(b.shape)))
    if x.dim() < 1 or x.shape[-1] != b.shape[0]:
        raise RuntimeError("actk::%s: bias must have x's last dimension (%d), got %d"
                           % (op, x.shape[-1] if x.dim() else 0, b.shape[0]))


def _gated_check(op, g, u):
    _input(op, g, "gate")
    _input(op, u, "up")
    if u.dtype != g.dtype:
        raise TypeError("actk::%s: up must be %s like gate, got %s" % (op, g.dtype, u.dtype))
    if u.shape != g.shape or u.stride() != g.stride():
        raise RuntimeError("actk::%s: up must have gate's sizes %s and strides %s, got %s and %s"
                           % (op, list(g.shape), list(g.stride()), list(u.shape), list(u.stride())))


def _packed_sizes(op, x):
    _input(op, x)
    _contiguous(op, x)
    if x.dim() < 1 or x.shape[-1] % 2:
        raise RuntimeError("actk::%s: x's last dimension must be even (gate and up, d each), got "
                           "sizes %s" % (op, list(x.shape)))
    return list(x.shape[:-1]) + [x.shape[-1] // 2]


def _packed_out(op, x, sizes, out):
    if not _device_ok(out):
        raise RuntimeError("actk::%s: out must be on the CPU" % op)
    if out.dtype != x.dtype:
        raise TypeError("actk::%s: out must be %s like x, got %s" % (op, x.dtype, out.dtype))
    if list(out.shape) != sizes or not out.is_contiguous():
        raise RuntimeError("actk::%s: out must be contiguous with sizes %s, got sizes %s strides %s"
                           % (op, sizes, list(out.shape), list(out.stride())))


# ---- the shapes: per shape, (kernel, in-place kernel, out= kernel) and their fakes ----------
# Each maker takes the op's name and gives the three real kernels and the three fake ones.


def _unary(op):
    k = _kernels(op)

    def new(x, fast=False):
        _input(op, x)
        y = torch.empty_like(x)  # dense x: the same strides
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), y.data_ptr(), x.numel()))
        return y

    def inplace(x, fast=False):
        _input(op, x)
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), x.data_ptr(), x.numel()))
        return x

    def out(x, fast=False, *, out):
        _input(op, x)
        _out(op, x, out)
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), out.data_ptr(), x.numel()))
        return out

    def fake_new(x, fast=False):
        _input(op, x)
        return torch.empty_like(x)

    def fake_inplace(x, fast=False):
        _input(op, x)
        return x

    def fake_out(x, fast=False, *, out):
        _input(op, x)
        _out(op, x, out)
        return out

    return (new, inplace, out), (fake_new, fake_inplace, fake_out)


def _param_default(op):
    """The parameter's default, from the op's schema (src/ops.toml's value)."""
    m = re.search(r"float \w+=([^,)]+)", OPS[op][1])
    return float(m.group(1))


def _param(op):
    k = _kernels(op)
    d = _param_default(op)  # the dispatcher passes what the caller passed: no defaults

    def new(x, a=d, fast=False):
        _input(op, x)
        y = torch.empty_like(x)
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), y.data_ptr(), x.numel(), a))
        return y

    def inplace(x, a=d, fast=False):
        _input(op, x)
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), x.data_ptr(), x.numel(), a))
        return x

    def out(x, a=d, fast=False, *, out):
        _input(op, x)
        _out(op, x, out)
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), out.data_ptr(), x.numel(), a))
        return out

    def fake_new(x, a=d, fast=False):
        _input(op, x)
        return torch.empty_like(x)

    def fake_inplace(x, a=d, fast=False):
        _input(op, x)
        return x

    def fake_out(x, a=d, fast=False, *, out):
        _input(op, x)
        _out(op, x, out)
        return out

    return (new, inplace, out), (fake_new, fake_inplace, fake_out)


def _pair(op, check, call):
    """The kernels of an op over two tensors (x and a bias, or gate and up): the first one's
    shape and dtype are the output's; check(op, a, b) raises before anything is written."""

    def new(a, b, fast=False):
        check(op, a, b)
        y = torch.empty_like(a)
        call(a, b, y, fast)
        return y

    def inplace(a, b, fast=False):
        check(op, a, b)
        call(a, b, a, fast)
        return a

    def out(a, b, fast=False, *, out):
        check(op, a, b)
        _out(op, a, out)
        call(a, b, out, fast)
        return out

    def fake_new(a, b, fast=False):
        check(op, a, b)
        return torch.empty_like(a)

    def fake_inplace(a, b, fast=False):
        check(op, a, b)
        return a

    def fake_out(a, b, fast=False, *, out):
        check(op, a, b)
        _out(op, a, out)
        return out

    return (new, inplace, out), (fake_new, fake_inplace, fake_out)


def _bias(op):
    k = _kernels(op)

    def call(x, b, y, fast):
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), b.data_ptr(), b.numel(), y.data_ptr(),
                                  x.numel()))

    return _pair(op, _bias_check, call)


def _gated(op):
    k = _kernels(op)

    def call(g, u, y, fast):
        _run(op, k[g.dtype][fast](_pool(), g.data_ptr(), u.data_ptr(), y.data_ptr(), g.numel()))

    return _pair(op, _gated_check, call)


def _packed(op):
    k = _kernels(op)

    def call(x, y, sizes, fast):
        d = sizes[-1]
        rows = y.numel() // d if d else 0
        _run(op, k[x.dtype][fast](_pool(), x.data_ptr(), y.data_ptr(), rows, d))

    def new(x, fast=False):
        sizes = _packed_sizes(op, x)
        y = torch.empty(sizes, dtype=x.dtype, device=x.device)
        call(x, y, sizes, fast)
        return y

    def out(x, fast=False, *, out):
        sizes = _packed_sizes(op, x)
        _packed_out(op, x, sizes, out)
        call(x, out, sizes, fast)
        return out

    def fake_new(x, fast=False):
        return torch.empty(_packed_sizes(op, x), dtype=x.dtype, device=x.device)

    def fake_out(x, fast=False, *, out):
        _packed_out(op, x, _packed_sizes(op, x), out)
        return out

    return (new, None, out), (fake_new, None, fake_out)


# shape (tools/gen_ops.py's TORCH_SHAPES) -> its kernels' maker
_SHAPES = {"unary": _unary, "param": _param, "bias": _bias, "gated": _gated, "packed": _packed}

# ---- registration ------------------------------------------------------------------------

_lib = torch.library.Library("actk", "DEF")  # kept: the ops live as long as this object


def _refuse_grad(qualname):
    """The op's autograd kernel: inference only, so a tensor that requires grad (grad mode
    on) is refused; otherwise the call goes on below autograd to the CPU or fake kernel."""
    op_name = qualname.split("::")[1].split(".")[0]

    def autograd(op, *args, **kwargs):
        if torch.is_grad_enabled():
            for name, a in list(zip(_arg_names[qualname], args)) + list(kwargs.items()):
                if isinstance(a, torch.Tensor) and a.requires_grad:
                    raise RuntimeError(
                        "actk::%s: %s requires grad, but actk is inference only (no backward): "
                        "run under torch.no_grad() or torch.inference_mode(), or pass %s.detach()"
                        % (op_name, name, name))
        with torch._C._AutoDispatchBelowAutograd():
            return op(*args, **kwargs)

    return autograd


_arg_names = {}
KERNELS = {}  # "gelu", "gelu_", "gelu.out", ...: the CPU kernel registered (for tests' probes)


def _returns_nothing(f):
    """A kernel of a schema that returns () (in place, out=): the kernels above return the
    written tensor for the functions' use; the op returns nothing."""
    def g(*args, **kwargs):
        f(*args, **kwargs)

    return g


def _define(schema, kernel, fake):
    name = schema.split("(", 1)[0]
    if schema.endswith("-> ()"):
        kernel, fake = _returns_nothing(kernel), _returns_nothing(fake)
    _lib.define(schema)
    qualname = "actk::" + name
    op = _overload(name)
    _arg_names[qualname] = [a.name for a in op._schema.arguments]
    takes_tensors = any(a.type.isSubtypeOf(torch._C.TensorType.get())
                        or "Tensor" in str(a.type) for a in op._schema.arguments)
    # an op of no tensor (rope_cache) has nothing to dispatch on: one kernel for every key
    _lib.impl(name, kernel, "CPU" if takes_tensors else "CompositeExplicitAutograd")
    KERNELS[name] = kernel
    torch.library.register_fake(qualname, fake, lib=_lib)
    if takes_tensors:
        refuse = _refuse_grad(qualname)
        _lib.impl(name, lambda *a, **kw: refuse(op, *a, **kw), "Autograd")


def _overload(name):
    base, _, overload = name.partition(".")
    packet = getattr(torch.ops.actk, base)
    return getattr(packet, overload or "default")


for _name, (_shape, _s_new, _s_inplace, _s_out) in OPS.items():
    (_k_new, _k_inplace, _k_out), (_f_new, _f_inplace, _f_out) = _SHAPES[_shape](_name)
    _define(_s_new, _k_new, _f_new)
    if _s_inplace is not None:
        _define(_s_inplace, _k_inplace, _f_inplace)
    _define(_s_out, _k_out, _f_out)

_ops_ns = torch.ops.actk

# ---- functions: actk.torch.gelu(x, fast=False, out=None), gelu_(x, fast) ...


def _function(op, doc):
    f_new, f_out = getattr(_ops_ns, op).default, getattr(_ops_ns, op).out
    f_inplace = getattr(getattr(_ops_ns, op + "_", None), "default", None) \
        if OPS[op][2] is not None else None
    shape = OPS[op][0]
    # the in-place and out= ops return nothing (see tools/gen_ops.py): these return the
    # tensor written, as torch's functions do
    if shape in ("unary", "packed"):
        def f(x, fast=False, out=None):
            if out is None:
                return f_new(x, fast)
            f_out(x, fast, out=out)
            return out

        def f_(x, fast=False):
            f_inplace(x, fast)
            return x
    elif shape == "param":
        default = _param_default(op)

        def f(x, alpha=default, fast=False, out=None):
            if out is None:
                return f_new(x, alpha, fast)
            f_out(x, alpha, fast, out=out)
            return out

        def f_(x, alpha=default, fast=False):
            f_inplace(x, alpha, fast)
            return x
    else:  # bias, gated: two tensors
        def f(x, other, fast=False, out=None):
            if out is None:
                return f_new(x, other, fast)
            f_out(x, other, fast, out=out)
            return out

        def f_(x, other, fast=False):
            f_inplace(x, other, fast)
            return x
    f.__name__, f_.__name__ = op, op + "_"
    f.__doc__ = "%s (torch.ops.actk.%s): a new tensor, or into out." % (doc, op)
    f_.__doc__ = "%s in place (torch.ops.actk.%s_): returns the first tensor." % (doc, op)
    return f, (f_ if f_inplace is not None else None)


def _doc(op):
    for table in (_ops.UNARY_OPS, _ops.PARAM_OPS):
        if op in table:
            return table[op]
    if op in _ops.BIAS_OPS:
        return "%s(x + bias) along the last dimension" % _ops.BIAS_OPS[op]
    base = op[: -len("_packed")] if op.endswith("_packed") else op
    if op.endswith("_packed"):
        return "%s(x[..., :d]) * x[..., d:] over x = [..., 2d], each row's gate first" % (
            _ops.GATED_OPS[base])
    return "%s(gate) * up" % _ops.GATED_OPS[base]


for _name in OPS:
    _f, _f_ = _function(_name, _doc(_name))
    globals()[_name] = _f
    __all__.append(_name)
    if _f_ is not None:
        globals()[_name + "_"] = _f_
        __all__.append(_name + "_")

# ---- RoPE: actk.rope's shapes and arguments, on tensors ----------------------------------

from . import _torch_rope  # noqa: E402  defines torch.ops.actk.rope*, on _lib

rope, rope_, rope_cache = _torch_rope.define(_define, _input, _out, _run, _pool)
__all__ += ["rope", "rope_", "rope_cache"]

# ---- modules: drop-ins for torch.nn's activations -----------------------------------------
# forward calls torch.ops.actk.* directly, so compile, export, TorchScript and fx see the
# ops. inplace=True writes the input, as torch.nn.SiLU(inplace=True) does: safe only where
# nothing else reads the input afterwards. Signatures are torch.nn's, then fast= (keyword).


class GELU(torch.nn.Module):
    """torch.nn.GELU: approximate='none' (erf) or 'tanh'; fast: actk's fast tier."""

    def __init__(self, approximate: str = "none", *, fast: bool = False, inplace: bool = False):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError("approximate must be 'none' or 'tanh', got %r" % (approximate,))
        self.approximate, self.fast, self.inplace = approximate, bool(fast), bool(inplace)

    def forward(self, x):
        if self.approximate == "tanh":
            if self.inplace:
                torch.ops.actk.gelu_tanh_(x, self.fast)
                return x
            return torch.ops.actk.gelu_tanh(x, self.fast)
        if self.inplace:
            torch.ops.actk.gelu_(x, self.fast)
            return x
        return torch.ops.actk.gelu(x, self.fast)

    def extra_repr(self):
        return "approximate=%r, fast=%s, inplace=%s" % (self.approximate, self.fast, self.inplace)


# Hardswish and Hardsigmoid: src/ops.toml's rows carry no torch entry yet (the generator
# would write these two from one); written here meanwhile, in the generated modules' form.
class Hardswish(_Unary):
    """torch.nn.Hardswish: %s.""" % _ops.UNARY_OPS["hardswish"]

    def forward(self, x):
        if self.inplace:
            torch.ops.actk.hardswish_(x, self.fast)
            return x
        return torch.ops.actk.hardswish(x, self.fast)


class Hardsigmoid(_Unary):
    """torch.nn.Hardsigmoid: %s.""" % _ops.UNARY_OPS["hardsigmoid"]

    def forward(self, x):
        if self.inplace:
            torch.ops.actk.hardsigmoid_(x, self.fast)
            return x
        return torch.ops.actk.hardsigmoid(x, self.fast)


# the largest float x with softplus(x) != x in f32 (measured: every float above rounds to x)
_SOFTPLUS_LAST = float.fromhex("0x1.d1cb7ep+3")  # 14.55609
# the first float whose exp overflows in f32: torch's log1p(exp(x)) is inf from there up to
# its threshold (every dtype: the 16-bit types compute in float)
_SOFTPLUS_TORCH_INF = float.fromhex("0x1.62e430p+6")  # 88.72284


def _softplus_exact(beta, threshold):
    """Whether torch.nn.Softplus(beta, threshold) is actk's softplus, value for value."""
    return beta == 1.0 and _SOFTPLUS_LAST <= threshold < _SOFTPLUS_TORCH_INF


class Softplus(torch.nn.Module):
    """torch.nn.Softplus(beta=1.0, threshold=20.0): log(1 + e^(beta x)) / beta, and x itself
    where beta x > threshold. At beta = 1 with 14.55609 <= threshold < 88.72284 (torch's
    default 20 included) that is the mathematical log(1 + e^x) in f32 (above 14.55609 it
    rounds to x; from 88.72284 torch's float exp overflows to inf): one actk op, and
    replace() swaps only those. Any other beta or threshold works too, as torch computes it
    around actk's softplus (beta x, then / beta and the threshold's where): within a few
    ulp of torch, not its bits, and finite where torch's float exp overflows to inf."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0, *, fast: bool = False,
                 inplace: bool = False):
        super().__init__()
        self.beta, self.threshold = float(beta), float(threshold)
        self.fast, self.inplace = bool(fast), bool(inplace)
        self.exact = _softplus_exact(self.beta, self.threshold)

    def forward(self, x):
        if self.exact:
            if self.inplace:
                torch.ops.actk.softplus_(x, self.fast)
                return x
            return torch.ops.actk.softplus(x, self.fast)
        z = x * self.beta
        y = torch.ops.actk.softplus(z, self.fast) / self.beta
        y = torch.where(z > self.threshold, x, y)
        if self.inplace:
            return x.copy_(y)
        return y

    def extra_repr(self):
        return "beta=%s, threshold=%s, fast=%s, inplace=%s" % (
            self.beta, self.threshold, self.fast, self.inplace)


for _name in MODULES:
    if _name != "Softplus":
        globals()[_name] = getattr(_torch_modules, _name)
__all__ += [m for m in MODULES if m not in __all__]
_torch_modules.Softplus = Softplus  # one Softplus: torch.py's, with beta and threshold


def _softplus_swap(m, fast):
    # another beta is another function; a lower threshold returns x where f32 does not, a
    # higher one gives inf where actk gives x
    beta, threshold = float(getattr(m, "beta", 1.0)), float(getattr(m, "threshold", 20.0))
    if not _softplus_exact(beta, threshold):
        return None
    return Softplus(fast=fast)


def _swap_of(cls, param):
    """replace()'s rule for a module: the parameter kept, inplace only where the original
    was in place (torch.nn.SiLU(inplace=True): the model already lets it write its input)."""
    if param is None:
        return lambda m, fast: cls(bool(getattr(m, "inplace", False)), fast=fast)
    return lambda m, fast: cls(getattr(m, param), bool(getattr(m, "inplace", False)), fast=fast)


# torch.nn type -> its actk module (or None: not swapped)
_SWAPS = {getattr(torch.nn, nn): _swap_of(cls, param) for nn, (cls, param) in NN_SWAPS.items()
          if hasattr(torch.nn, nn)}
_SWAPS[torch.nn.GELU] = lambda m, fast: GELU(getattr(m, "approximate", "none"), fast=fast)
_SWAPS[torch.nn.Softplus] = _softplus_swap  # None: not swapped (see Softplus)
_SWAPS[torch.nn.Hardswish] = _swap_of(Hardswish, None)
_SWAPS[torch.nn.Hardsigmoid] = _swap_of(Hardsigmoid, None)


def _gelu_of_act(approximate):
    """Hugging Face transformers' GELUActivation / GELUTanh: swapped where their act is
    torch's F.gelu (of that approximation), not their Python formula (use_gelu_python)."""
    F = torch.nn.functional

    def swap(m, fast):
        act = getattr(m, "act", None)
        if approximate == "none" and act is F.gelu:
            return GELU("none", fast=fast)
        if (approximate == "tanh" and getattr(act, "func", None) is F.gelu and not act.args
                and act.keywords == {"approximate": "tanh"}):
            return GELU("tanh", fast=fast)
        return None

    return swap


# Other libraries' activation modules, by (module, class name): matched without importing
# them; the same function as actk's op (Hugging Face transformers: a BERT's
# hidden_act="gelu" is GELUActivation)
_FOREIGN_SWAPS = {
    ("transformers.activations", "GELUActivation"): _gelu_of_act("none"),
    ("transformers.activations", "GELUTanh"): _gelu_of_act("tanh"),
    ("transformers.activations", "SiLUActivation"): lambda m, fast: SiLU(fast=fast),
    ("transformers.activations", "QuickGELUActivation"): lambda m, fast: QuickGELU(fast=fast),
    ("transformers.activations", "MishActivation"):
        lambda m, fast: Mish(fast=fast) if getattr(m, "act", None) is torch.nn.functional.mish
        else None,
}


def _swap_rule(cls):
    rule = _SWAPS.get(cls)
    if rule is None:
        rule = _FOREIGN_SWAPS.get((cls.__module__, cls.__qualname__))
    return rule


def replace(model, fast=False, verbose=False):
    """Swaps, in place, every submodule of model whose exact torch.nn type actk computes
    with the same semantics for actk's module: GELU (both approximations), SiLU, Sigmoid,
    Tanh, Mish, ELU (alpha kept), Hardswish, Hardsigmoid (inplace kept for each), and
    Softplus only with beta = 1 and 14.55609 <= threshold < 88.72284 (the others compute
    something else: left as they are); and Hugging Face transformers' GELUActivation,
    GELUTanh (where they call F.gelu), SiLUActivation, QuickGELUActivation and
    MishActivation (where it calls F.mish). Subclasses are not swapped. Returns the list of
    what it swapped, (qualified name, old module, new module) in the model's order;
    verbose=True prints it, and how many of the activations it left and why. The model
    itself, if it is an activation, is not replaced (its parent holds the reference)."""
    swapped, left = [], []
    seen = set()

    def walk(parent, prefix):
        # depth first, children in order: the model's own order
        if id(parent) in seen:  # a module shared by two parents: once
            return
        seen.add(id(parent))
        for cname, child in list(parent.named_children()):
            make = _swap_rule(type(child))
            if make is None:
                walk(child, prefix + cname + ".")
                continue
            new = make(child, fast)
            if new is None:
                left.append((prefix + cname, child))
                continue
            setattr(parent, cname, new)
            swapped.append((prefix + cname, child, new))

    walk(model, "")
    if verbose:
        counts = {}
        for _, old, new in swapped:
            key = "%r -> actk.torch.%r" % (old, new)
            counts[key] = counts.get(key, 0) + 1
        print("actk.torch.replace: %d module(s) swapped" % len(swapped))
        for key, n in counts.items():
            print("  %4d x %s" % (n, key))
        for name, old in left:
            print("  left %s: %r (not the same function: see actk.torch.Softplus)" % (name, old))
    return swapped
