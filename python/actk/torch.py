"""actk for PyTorch: the ops on torch.Tensor, on torch's own threads.

    import torch, actk.torch as at
    y = at.gelu(x)                          # a new tensor (float32, float16, bfloat16)
    at.gelu(x, out=y); at.gelu_(x)          # into y; in place
    torch.ops.actk.gelu(x, fast=True)       # the registered op (TorchScript, fx)
    at.replace(model)                       # torch.nn activations -> actk's

Every op is registered as torch.ops.actk.<op>(x, ..., fast=False), the in
place torch.ops.actk.<op>_ and torch.ops.actk.<op>.out(..., out=y), so
torch.jit.script and torch.fx see them as ops. Tensors are used where they
are, never copied: x must be on the CPU, float32/float16/bfloat16, and dense
(contiguous, or a dense permutation such as channels_last; bias ops need it
contiguous); out must match x's dtype, sizes and strides. Anything else is an
error (TypeError for a dtype, RuntimeError otherwise) that says what to pass.

Inference only: no backward. A tensor that requires grad while grad mode is
on is refused; run under torch.no_grad() or torch.inference_mode().

Threads: a call large enough to split runs its chunks through
at::parallel_for, on torch's intra-op threads: torch.set_num_threads governs
actk too, and actk starts no threads of its own. Results are the same bits
for every thread count.
"""
import glob
import os

import torch

from . import _ops

__all__ = ["GELU", "replace", "extension_path", "host_calls"] + [op + s for op in list(_ops.UNARY_OPS)
                                                         + list(_ops.PARAM_OPS)
                                                         + list(_ops.BIAS_OPS)
                                                         for s in ("", "_")]

_HERE = os.path.dirname(os.path.abspath(__file__))


def _find_extension():
    env = os.environ.get("ACTK_TORCH_EXTENSION")
    if env:
        return env
    hits = sorted(glob.glob(os.path.join(_HERE, "_actk_torch*.so")))
    if not hits:
        raise ImportError(
            "actk.torch: the PyTorch ops are not built in this install (%s has no "
            "_actk_torch*.so): reinstall where torch is importable, "
            "pip install --no-build-isolation ./python (or set ACTK_TORCH_EXTENSION)" % _HERE)
    return hits[0]


_EXTENSION = _find_extension()
# loads libactk.so.N beside it (rpath $ORIGIN) unless one is loaded already
torch.ops.load_library(_EXTENSION)
_ops_ns = torch.ops.actk


def extension_path():
    """The path of the loaded extension (the torch.ops.actk kernels)."""
    return _EXTENSION


def host_calls():
    """How many calls actk has handed to torch's threads so far (a diagnostic:
    it grows only for calls large enough to split, with torch threads > 1)."""
    return int(_ops_ns._host_calls())


# ---- functions: actk.torch.gelu(x, fast=False, out=None), gelu_(x, fast) ...


def _unary(op):
    f_new, f_inplace, f_out = getattr(_ops_ns, op), getattr(_ops_ns, op + "_"), getattr(_ops_ns, op).out

    def f(x, fast=False, out=None):
        if out is None:
            return f_new(x, fast)
        return f_out(x, fast, out=out)

    def f_(x, fast=False):
        return f_inplace(x, fast)

    f.__name__, f_.__name__ = op, op + "_"
    f.__doc__ = "%s (torch.ops.actk.%s): a new tensor, or into out." % (_ops.UNARY_OPS[op], op)
    f_.__doc__ = "%s in place (torch.ops.actk.%s_): returns x." % (_ops.UNARY_OPS[op], op)
    return f, f_


def _param(op):
    f_new, f_inplace, f_out = getattr(_ops_ns, op), getattr(_ops_ns, op + "_"), getattr(_ops_ns, op).out

    def f(x, alpha=1.0, fast=False, out=None):
        if out is None:
            return f_new(x, alpha, fast)
        return f_out(x, alpha, fast, out=out)

    def f_(x, alpha=1.0, fast=False):
        return f_inplace(x, alpha, fast)

    f.__name__, f_.__name__ = op, op + "_"
    f.__doc__ = "%s (torch.ops.actk.%s)." % (_ops.PARAM_OPS[op], op)
    f_.__doc__ = "%s in place (torch.ops.actk.%s_)." % (_ops.PARAM_OPS[op], op)
    return f, f_


def _bias(op):
    f_new, f_inplace, f_out = getattr(_ops_ns, op), getattr(_ops_ns, op + "_"), getattr(_ops_ns, op).out

    def f(x, bias, fast=False, out=None):
        if out is None:
            return f_new(x, bias, fast)
        return f_out(x, bias, fast, out=out)

    def f_(x, bias, fast=False):
        return f_inplace(x, bias, fast)

    f.__name__, f_.__name__ = op, op + "_"
    f.__doc__ = "%s(x + bias) along the last dimension (torch.ops.actk.%s)." % (
        _ops.BIAS_OPS[op], op)
    f_.__doc__ = "the same, in place (torch.ops.actk.%s_)." % op
    return f, f_


def _gated(op):
    f_new, f_inplace, f_out = getattr(_ops_ns, op), getattr(_ops_ns, op + "_"), getattr(_ops_ns, op).out
    p_new, p_out = getattr(_ops_ns, op + "_packed"), getattr(_ops_ns, op + "_packed").out

    def f(gate, up, fast=False, out=None):
        if out is None:
            return f_new(gate, up, fast)
        return f_out(gate, up, fast, out=out)

    def f_(gate, up, fast=False):
        return f_inplace(gate, up, fast)

    def packed(x, fast=False, out=None):
        if out is None:
            return p_new(x, fast)
        return p_out(x, fast, out=out)

    f.__name__, f_.__name__, packed.__name__ = op, op + "_", op + "_packed"
    f.__doc__ = "%s(gate) * up (torch.ops.actk.%s)." % (_ops.GATED_OPS[op], op)
    f_.__doc__ = "the same, into gate (torch.ops.actk.%s_)." % op
    packed.__doc__ = ("the same over x = [..., 2d], each row's gate first: y = [..., d] "
                      "(torch.ops.actk.%s_packed)." % op)
    return f, f_, packed


for _op in getattr(_ops, "GATED_OPS", {}):
    globals()[_op], globals()[_op + "_"], globals()[_op + "_packed"] = _gated(_op)
    __all__ += [_op, _op + "_", _op + "_packed"]
for _op in _ops.UNARY_OPS:
    globals()[_op], globals()[_op + "_"] = _unary(_op)
for _op in _ops.PARAM_OPS:
    globals()[_op], globals()[_op + "_"] = _param(_op)
for _op in _ops.BIAS_OPS:
    globals()[_op], globals()[_op + "_"] = _bias(_op)



# ---- RoPE: actk.rope's shapes and arguments, on tensors ----------------------


def rope(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half", rotary_dim=0,
         heads=None, out=None):
    """Rotary position embedding (torch.ops.actk.rope; actk_rope_<type>, ONNX
    Runtime RotaryEmbedding semantics). x: contiguous float32, float16 or
    bfloat16, [batch, seq, heads, head_size] ("bshd"), [batch, heads, seq,
    head_size] ("bhsd") or [batch, seq, heads * head_size] with heads=
    ("bshd"). cos, sin: float32 [max_position, rotary_dim / 2] (rope_cache()).
    positions: None (token s at start + s) or int64 [batch, seq]. style:
    "split_half" or "interleaved". rotary_dim 0 means head_size; channels past
    it are copied. A position outside [0, max_position) is a RuntimeError and
    nothing is written."""
    if out is None:
        return _ops_ns.rope(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
    return _ops_ns.rope.out(x, cos, sin, positions, start, layout, style, rotary_dim, heads,
                            out=out)


def rope_(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half", rotary_dim=0,
          heads=None):
    """rope in place (torch.ops.actk.rope_): returns x."""
    return _ops_ns.rope_(x, cos, sin, positions, start, layout, style, rotary_dim, heads)


def rope_cache(max_position, rotary_dim, theta=10000.0):
    """(cos, sin), float32 [max_position, rotary_dim / 2], for angles
    p * theta^(-2j / rotary_dim), computed in double and rounded once
    (torch.ops.actk.rope_cache; actk_rope_cache_f32)."""
    return _ops_ns.rope_cache(max_position, rotary_dim, theta)


__all__ += ["rope", "rope_", "rope_cache"]

# ---- modules: drop-ins for torch.nn's activations ---------------------------
# forward calls torch.ops.actk.* directly, so torch.jit.script and fx see the
# ops. inplace=True writes the input, as torch.nn.SiLU(inplace=True) does:
# safe only where nothing else reads the input afterwards.


class GELU(torch.nn.Module):
    """torch.nn.GELU: approximate='none' (erf) or 'tanh'; fast: actk's fast tier."""

    def __init__(self, approximate: str = "none", fast: bool = False, inplace: bool = False):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError("approximate must be 'none' or 'tanh', got %r" % (approximate,))
        self.approximate, self.fast, self.inplace = approximate, bool(fast), bool(inplace)

    def forward(self, x):
        if self.approximate == "tanh":
            if self.inplace:
                return torch.ops.actk.gelu_tanh_(x, self.fast)
            return torch.ops.actk.gelu_tanh(x, self.fast)
        if self.inplace:
            return torch.ops.actk.gelu_(x, self.fast)
        return torch.ops.actk.gelu(x, self.fast)

    def extra_repr(self):
        return "approximate=%r, fast=%s, inplace=%s" % (self.approximate, self.fast, self.inplace)


# The modules of the ops with a torch entry in src/ops.toml (SiLU, Sigmoid, Tanh,
# QuickGELU, Softplus, Mish, Swish, ELU ...) and replace()'s table of them:
# generated (python/actk/_torch_modules.py). GELU, which covers two ops, and
# Softplus's swap rule are written here.
from . import _torch_modules  # noqa: E402
from ._torch_modules import MODULES, NN_SWAPS, _Unary  # noqa: E402,F401

for _name in MODULES:
    globals()[_name] = getattr(_torch_modules, _name)
__all__ += list(MODULES)

_torch_modules.Softplus.__doc__ = """torch.nn.Softplus with beta = 1: log(1 + e^x), the mathematical function. torch's
    threshold shortcut (x itself above it, 20 by default) gives the same values for any
    threshold from 14.55609 (the last float where x + log1p(e^-x) does not round to x in
    f32; the 16-bit types round to x earlier) up to, not including, 88.72284: from there
    torch's float exp overflows below the threshold and torch gives inf (actk: x).
    replace() swaps only such modules."""


# the largest float x with softplus(x) != x in f32 (measured: every float above rounds to x)
_SOFTPLUS_LAST = float.fromhex("0x1.d1cb7ep+3")  # 14.55609
# the first float whose exp overflows in f32: torch's log1p(exp(x)) is inf from there up to
# its threshold (torch 1.13, every dtype: the 16-bit types compute in float)
_SOFTPLUS_TORCH_INF = float.fromhex("0x1.62e430p+6")  # 88.72284


def _softplus_swap(m, fast):
    # another beta is another function; a lower threshold returns x where f32 does not, a
    # higher one gives inf where actk gives x
    beta, threshold = float(getattr(m, "beta", 1.0)), float(getattr(m, "threshold", 20.0))
    if beta != 1.0 or not _SOFTPLUS_LAST <= threshold < _SOFTPLUS_TORCH_INF:
        return None
    return _torch_modules.Softplus(fast=fast)


def _swap_of(cls, param):
    """replace()'s rule for a generated module: the parameter kept, inplace only where the
    original was in place (torch.nn.SiLU(inplace=True): the model already lets it write
    its input)."""
    if param is None:
        return lambda m, fast: cls(fast=fast, inplace=bool(getattr(m, "inplace", False)))
    return lambda m, fast: cls(getattr(m, param), fast=fast,
                               inplace=bool(getattr(m, "inplace", False)))


# torch.nn type -> its actk module (or None: not swapped)
_SWAPS = {getattr(torch.nn, nn): _swap_of(cls, param) for nn, (cls, param) in NN_SWAPS.items()
          if hasattr(torch.nn, nn)}
_SWAPS[torch.nn.GELU] = lambda m, fast: GELU(getattr(m, "approximate", "none"), fast=fast)
_SWAPS[torch.nn.Softplus] = _softplus_swap  # None: not swapped (see Softplus)


def replace(model, fast=False, verbose=False):
    """Swaps, in place, every torch.nn.GELU submodule of model and every one of a
    torch.nn type that src/ops.toml names for an op (NN_SWAPS: SiLU, Sigmoid, Tanh,
    Mish, ELU ...; exact types, not subclasses) for actk's, a torch.nn.Softplus only
    with beta = 1 and 14.55609 <= threshold < 88.72284 (the others compute something
    else). Returns the list of what it
    swapped, (qualified name, old module, new module) in the model's order;
    verbose=True prints it. The model itself, if it is an activation, is not
    replaced (its parent holds the reference)."""
    swapped = []
    seen = set()

    def walk(parent, prefix):
        # depth first, children in order: the model's own order
        if id(parent) in seen:  # a module shared by two parents: once
            return
        seen.add(id(parent))
        for cname, child in list(parent.named_children()):
            make = _SWAPS.get(type(child))
            if make is None:
                walk(child, prefix + cname + ".")
                continue
            new = make(child, fast)
            if new is None:
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
    return swapped
