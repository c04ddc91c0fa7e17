"""actk for Python: a small ctypes binding of the actk shared library.

Every op takes numpy arrays and returns a numpy array::

    import numpy as np, actk
    x = np.linspace(-4, 4, 1000, dtype=np.float32)
    y = actk.gelu(x)                    # new array, same shape as x
    actk.gelu(x, out=x)                 # in place (out is x)
    with actk.Pool(threads=4) as p:     # an own thread pool
        actk.tanh(x, out=y, pool=p)

Inputs: no silent copies
------------------------
The binding never converts or copies an array behind your back. Every float
array (x, bias, out, the RoPE caches) must be a numpy.ndarray of its element
type (float32, float16, bfloat16 as an ml_dtypes array or uint16 patterns
with dtype='bfloat16'; native byte order), C-contiguous and aligned; RoPE
position ids must be int64 the same way. A CPU DLPack array (a torch tensor,
a JAX array) or an __array_interface__ object is taken as a numpy view of
its own memory (_foreign.py), then checked the same way. Anything else is
refused before the library is called:

* not an ndarray, or the wrong dtype  -> TypeError
* not C-contiguous, not aligned, out read-only, out of the wrong shape,
  a RoPE shape that does not match the caches -> ValueError

The message says what is wrong and how to fix it, e.g. "x must be float32,
got float64: pass np.asarray(x, dtype=np.float32)". A copy is then an
explicit line in your code (np.ascontiguousarray(x, dtype=np.float32)), never
a hidden cost or a write into a temporary that silently goes nowhere.

Numeric parameters take numbers only: alpha and theta a real number (int,
float, numpy integer or floating scalar), the sizes, start and Pool's counts
an int or numpy integer; a str, bytes, bool, None, list or 0-d array is a
TypeError naming the parameter. fast= and pin= take True or False.

Errors from the library
-----------------------
Every actk call returns a status; anything but ACTK_OK raises ActkError,
carrying the status code (.status, an int), its enum name (.name, e.g.
"ACTK_ERR_OVERLAP") and actk_status_string's text (.message). On an error the
library writes nothing. Overlap rules are the library's: out may *be* x (in
place), any other overlap of out with an input is ACTK_ERR_OVERLAP.

Finding the library
-------------------
1. the path in the environment variable ACTK_LIBRARY;
2. libactk.so (or libactk.so.N, as pip installs it) next to this file;
3. when this package sits in actk's source tree (python/actk), libactk.so in
   a build directory of that tree: build/, then the other build*/
   directories, newest first (one that fails to load, e.g. a sanitizer
   build, is skipped);
4. ctypes.util.find_library("actk") (an installed library).

Threads
-------
pool=None (the default) runs on the calling thread: actk starts no thread.
Pool(...) creates an own pool (a context manager; close() joins its threads),
default_pool() is the library's process-wide pool (close() and with are
no-ops on it: it lives as long as the process). Results are bit-identical
whatever pool is used. ctypes releases the GIL during a call, so several
Python threads can run actk calls at once (also on one pool).
"""

import ctypes
import enum

import numpy as np

# The element-wise ops (src/ops.toml, through tools/gen_ops.py): UNARY_OPS,
# PARAM_OPS, BIAS_OPS, TIERS and TYPES. Their C functions are
# actk_<op>_<type><tier suffix>; tests/test_actk.py checks the table against
# the library's exported symbols, both ways.
from ._ops import BIAS_OPS, DERIVED_OPS, GATED_OPS, PARAM_OPS, TIERS, TYPES, UNARY_OPS
# Arrays that are not numpy's (DLPack producers on the CPU, __array_interface__
# objects) go in as views of their own memory: the ops' checked paths take them.
from ._foreign import taking_foreign

# The package's parts, each with one job; their names stay importable from
# actk (actk.torch and the tests use some of the private ones).
from ._args import _SIZE_MAX, _bool_arg, _int_arg, _real_arg  # noqa: F401
from ._library import (  # noqa: F401
    _C, _HERE, _IN_SOURCE_TREE, _ROPE, _SOURCE_ROOT, _PoolConfig, _RopeDesc, _c_name,
    _candidates, _cpu_summary, _fn, _i64p, _f32p, _isa_active, _isa_best, _isa_force,
    _isa_name, _isa_reason, _isa_supported, _lib, _lib_path, _load, _pool_create,
    _pool_default, _pool_destroy, _pool_threads, _rope_cache, _size, _status,
    _status_string, _version, _version_string, _vp, c_functions,
)
from ._errors import ActkError, Status, _check, status_string  # noqa: F401
from ._pool import Pool, _PoolUse, default_pool  # noqa: F401
from ._arrays import (  # noqa: F401
    _BY_DTYPE, _CA, _CAW, _DATA_AT_ID, _DTYPE_NAMES, _F16, _F32, _HEAD, _HOT, _STORAGE,
    _U16, _array, _data, _is_bf16_dtype, _out_for, _ptr, _storage, _tier, _type_of, _typed,
    _vp_at,
)

# the public classes under the package's name, as before the split
for _cls in (ActkError, Status, Pool):
    _cls.__module__ = __name__

__all__ = [
    "ActkError",
    "Status",
    "Isa",
    "Layout",
    "Style",
    "Pool",
    "default_pool",
    "rope",
    "rope_cache",
    "version",
    "version_info",
    "library_path",
    "isa",
    "isa_reason",
    "isa_supported",
    "supported_isas",
    "best_isa",
    "c_functions",
    "UNARY_OPS",
    "PARAM_OPS",
    "BIAS_OPS",
    "GATED_OPS",
    "DERIVED_OPS",
    "TIERS",
    "TYPES",
    "force_isa",
    "cpu_summary",
    "status_string",
] + list(UNARY_OPS) + list(PARAM_OPS) + list(BIAS_OPS) + list(GATED_OPS)
__all__ += [op + "_packed" for op in GATED_OPS]


class Isa(enum.IntEnum):
    """actk_isa: the instruction-set isas."""

    SCALAR = 0
    AVX2 = 1
    AVX512 = 2
    NEON = 3


class Layout(enum.IntEnum):
    """actk_rope_layout: "bshd" ([B, S, H, D], also [B, S, H*D]) or "bhsd"."""

    BSHD = 0
    BHSD = 1


class Style(enum.IntEnum):
    """actk_rope_style: "split_half" (GPT-NeoX/Llama) or "interleaved" (GPT-J)."""

    SPLIT_HALF = 0
    INTERLEAVED = 1


# ---- library facts ----------------------------------------------------------


def version():
    """The loaded library's version string, e.g. "0.1.0"."""
    return _version_string().decode()


def version_info():
    """The loaded library's version as (major, minor, patch)."""
    v = _version()
    return (v // 10000, v // 100 % 100, v % 100)


def library_path():
    """The path (or name) of the shared library this module loaded."""
    return _lib_path


def _isa_str(value):
    name = _isa_name(int(value))
    return name.decode() if name is not None else None


def _isa_value(isa):
    if isinstance(isa, str):
        try:
            return Isa[isa.upper()]
        except KeyError:
            raise ValueError(
                "unknown isa %r (isas: %s)" % (isa, ", ".join(i.name.lower() for i in Isa))
            ) from None
    if isinstance(isa, bool) or not isinstance(isa, (int, np.integer)):
        raise TypeError("isa must be a name (str), an actk.Isa or an int, got %r" % (isa,))
    return _int_arg(isa, "isa", -(2**31), 2**31 - 1)


def isa():
    """The active isa's name: "scalar", "avx2", "avx512" or "neon"."""
    return _isa_str(_isa_active())


def isa_reason():
    """Why the active isa was chosen (actk_isa_reason)."""
    return _isa_reason().decode()


def isa_supported(isa):
    """True if this CPU and OS can run the isa (a name or an Isa)."""
    return bool(_isa_supported(_isa_value(isa)))


def best_isa():
    """The isa dispatch picks on its own on this machine (actk_isa_best)."""
    return _isa_str(_isa_best())


def supported_isas():
    """Names of the isas this machine can run: the best first (best_isa()),
    then the others in the library's order."""
    names = [i.name.lower() for i in Isa if _isa_supported(int(i))]
    best = best_isa()
    return [best] + [n for n in names if n != best]


def force_isa(isa):
    """Switch the process-wide isa (for tests and benchmarks): affects every
    thread of the process. Raises ActkError (ACTK_ERR_UNSUPPORTED_ISA) if the
    machine cannot run it."""
    _check(_isa_force(_isa_value(isa)), "actk_isa_force")


def cpu_summary():
    """One line of CPU facts dispatch used."""
    return _cpu_summary().decode()


# ---- ops ----------------------------------------------------------------------


_TYPES_DOC = (
    "x: a C-contiguous array of any shape: float32, float16, or bfloat16 as the "
    "uint16 patterns with dtype='bfloat16' (an ml_dtypes bfloat16 array works as "
    "is). out: None (a new array), x itself (in place) or an array of x's shape "
    "and dtype. fast: the fast tier (relative error <= 2^-18 for float32, "
    "faithful for the 16-bit types) instead of the accurate one. pool: None or "
    "an actk.Pool. Returns out."
)


# The common call takes a short way, checked inline in each op (one helper
# function call was a sixth of the overhead, by callgrind's count): x a
# non-empty ndarray (not a subclass) of a dtype in _BY_DTYPE (dtype=None) or
# in _STORAGE[t] (dtype= a name of t as _DTYPE_NAMES spells it), C-contiguous
# and aligned; out None, or an ndarray of x's very dtype object and of x's
# shape, C-contiguous, aligned and writeable; a bias a non-empty ndarray of
# x's very dtype object, C-contiguous and aligned; fast a bool; alpha a
# float; pool None. Only attribute reads: no helper, no numpy
# Python code (x.ctypes alone costs microseconds). The op then calls the same
# C function with the same arguments as the checked path. The short way
# accepts a subset of what the checked path accepts: anything else (a
# subclass, out in another storage dtype, dtype= as a numpy dtype, an empty
# array, a pool, every error) goes the checked path, which says what is
# wrong. test_common_calls_make_no_python_calls holds both to it.
_ndarray = np.ndarray
_empty = np.empty


def _fns(op):
    """t -> (accurate C function, fast C function), to index by fast (a bool)."""
    return {t: (_C[op, t, "accurate"], _C[op, t, "fast"]) for t in TYPES}


def _failed(st, op, t, fast):
    raise ActkError(st, _c_name(op, t, "fast" if fast else "accurate"))


def _unary(op, doc):
    fns = _fns(op)
    ndarray, empty, by_dtype, names, storage = _ndarray, _empty, _BY_DTYPE, _DTYPE_NAMES, _STORAGE
    vp_at, head, ca, caw, hot = _vp_at, _HEAD, _CA, _CAW, _HOT

    def checked(x, out, pool, fast, dtype):
        t = _type_of(x, dtype)
        _typed(x, "x", t, x)
        tier = _tier(fast)
        y = _out_for(x, out, t)
        with _PoolUse(pool) as h:
            _check(_C[op, t, tier](h, _ptr(x), _ptr(y), x.size), _c_name(op, t, tier))
        return y

    checked = taking_foreign(checked)

    def f(x, out=None, pool=None, fast=False, dtype=None):
        if pool is None and type(x) is ndarray and (fast is False or fast is True) and hot:
            dt = x.dtype
            if dtype is None:
                t = by_dtype.get(dt)
            elif type(dtype) is str:
                t = names.get(dtype)
                if t is not None and dt not in storage[t]:
                    t = None
            else:
                t = None
            if t is not None and x.flags.num & ca == ca:
                n = x.size
                if out is None:
                    y = empty(x.shape, dt)
                elif (
                    type(out) is ndarray
                    and out.dtype is dt
                    and out.flags.num & caw == caw
                    and (out is x or out.shape == x.shape)
                ):
                    y = out
                else:
                    n = 0
                if n:
                    st = fns[t][fast](None, vp_at(id(x) + head), vp_at(id(y) + head), n)
                    if st:
                        _failed(st, op, t, fast)
                    return y
        return checked(x, out, pool, fast, dtype)

    f.__name__ = f.__qualname__ = op
    f.__doc__ = "%s, elementwise (actk_%s_<type>[_fast]).\n\n%s" % (doc, op, _TYPES_DOC)
    return f


# actk.erf, actk.tanh, ...: one function per unary op of the table
for _op, _doc in UNARY_OPS.items():
    globals()[_op] = _unary(_op, _doc)


def _param(op, doc):
    """The binding of param op op (swish, elu): f(x, alpha, ...)."""
    fns = _fns(op)
    ndarray, empty, by_dtype, names, storage = _ndarray, _empty, _BY_DTYPE, _DTYPE_NAMES, _STORAGE
    vp_at, head, ca, caw, hot = _vp_at, _HEAD, _CA, _CAW, _HOT

    def checked(x, alpha, out, pool, fast, dtype):
        alpha = _real_arg(alpha, "alpha")
        t = _type_of(x, dtype)
        _typed(x, "x", t, x)
        tier = _tier(fast)
        y = _out_for(x, out, t)
        with _PoolUse(pool) as h:
            _check(
                _C[op, t, tier](h, _ptr(x), _ptr(y), x.size, alpha),
                _c_name(op, t, tier),
            )
        return y

    checked = taking_foreign(checked)

    def f(x, alpha=1.0, out=None, pool=None, fast=False, dtype=None):
        """(actk_<op>_<type>[_fast]). alpha: a real number
        (int, float, a numpy integer or floating scalar; a str, bool or None is a
        TypeError), rounded to a C float first (the library takes a float).
        Otherwise as gelu()."""
        if (
            pool is None
            and type(x) is ndarray
            and type(alpha) is float
            and (fast is False or fast is True)
            and hot
        ):
            dt = x.dtype
            if dtype is None:
                t = by_dtype.get(dt)
            elif type(dtype) is str:
                t = names.get(dtype)
                if t is not None and dt not in storage[t]:
                    t = None
            else:
                t = None
            if t is not None and x.flags.num & ca == ca:
                n = x.size
                if out is None:
                    y = empty(x.shape, dt)
                elif (
                    type(out) is ndarray
                    and out.dtype is dt
                    and out.flags.num & caw == caw
                    and (out is x or out.shape == x.shape)
                ):
                    y = out
                else:
                    n = 0
                if n:
                    st = fns[t][fast](None, vp_at(id(x) + head), vp_at(id(y) + head), n, alpha)
                    if st:
                        _failed(st, op, t, fast)
                    return y
        return checked(x, alpha, out, pool, fast, dtype)

    f.__doc__ = "%s %s" % (doc, f.__doc__.replace("<op>", op))
    f.__name__ = f.__qualname__ = op
    return f


for _op, _doc in PARAM_OPS.items():
    globals()[_op] = _param(_op, _doc)


def _bias(op):
    base = BIAS_OPS[op]
    fns = _fns(op)
    ndarray, empty, by_dtype, names, storage = _ndarray, _empty, _BY_DTYPE, _DTYPE_NAMES, _STORAGE
    vp_at, head, ca, caw, hot = _vp_at, _HEAD, _CA, _CAW, _HOT

    def checked(x, bias, out, pool, fast, dtype):
        t = _type_of(x, dtype)
        _typed(x, "x", t, x)
        _typed(bias, "bias", t, x)
        tier = _tier(fast)
        y = _out_for(x, out, t)
        with _PoolUse(pool) as h:
            _check(
                _C[op, t, tier](h, _ptr(x), _ptr(bias), bias.size, _ptr(y), x.size),
                _c_name(op, t, tier),
            )
        return y

    checked = taking_foreign(checked)

    def f(x, bias, out=None, pool=None, fast=False, dtype=None):
        if (
            pool is None
            and type(x) is ndarray
            and type(bias) is ndarray
            and (fast is False or fast is True)
            and hot
        ):
            dt = x.dtype
            if dtype is None:
                t = by_dtype.get(dt)
            elif type(dtype) is str:
                t = names.get(dtype)
                if t is not None and dt not in storage[t]:
                    t = None
            else:
                t = None
            if (
                t is not None
                and x.flags.num & ca == ca
                and bias.dtype is dt
                and bias.flags.num & ca == ca
            ):
                n, w = x.size, bias.size
                if out is None:
                    y = empty(x.shape, dt)
                elif (
                    type(out) is ndarray
                    and out.dtype is dt
                    and out.flags.num & caw == caw
                    and (out is x or out.shape == x.shape)
                ):
                    y = out
                else:
                    n = 0
                if n and w:
                    st = fns[t][fast](
                        None, vp_at(id(x) + head), vp_at(id(bias) + head), w,
                        vp_at(id(y) + head), n,
                    )
                    if st:
                        _failed(st, op, t, fast)
                    return y
        return checked(x, bias, out, pool, fast, dtype)

    f.__name__ = f.__qualname__ = op
    f.__doc__ = (
        "%s(x[i] + bias[i mod width]) (actk_%s_<type>[_fast]); width = bias.size, bias in "
        "x's type.\n\nThe sum is formed in float32 (for float32 x: the same bits as np.add "
        "then %s()). x.size must be a multiple of bias.size (else ActkError "
        "ACTK_ERR_WIDTH_MISMATCH; an empty bias is ACTK_ERR_ZERO_WIDTH); bias must not "
        "overlap out. Otherwise as %s()." % (base, op, base, base)
    )
    return f


# actk.bias_gelu, ...: one function per bias op of the table
for _op in BIAS_OPS:
    globals()[_op] = _bias(_op)

# actk.swiglu, actk.swiglu_packed, ...: two per gated op (python/actk/_gated.py)
from ._gated import FUNCTIONS as _GATED_FUNCTIONS  # noqa: E402

globals().update({name: taking_foreign(f) for name, f in _GATED_FUNCTIONS.items()})


def _enum(value, cls, what):
    if isinstance(value, str):
        try:
            return int(cls[value.upper()])
        except KeyError:
            raise ValueError(
                "unknown %s %r (%s)" % (what, value, ", ".join(m.name.lower() for m in cls))
            ) from None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)  # out-of-range ints go to the library: ACTK_ERR_INVALID_ARGUMENT
    raise TypeError("%s must be a str or an int, got %r" % (what, value))


@taking_foreign
def rope(
    x,
    cos,
    sin,
    positions=None,
    start=0,
    layout="bshd",
    style="split_half",
    rotary_dim=0,
    heads=None,
    out=None,
    pool=None,
    dtype=None,
):
    """Rotary position embedding (actk_rope_<type>; ONNX Runtime
    com.microsoft RotaryEmbedding semantics). x: float32, float16, or bf16
    patterns in uint16 with dtype='bfloat16'; the caches are float32.

    x: [batch, seq, heads, head_size] (layout "bshd"), [batch, heads, seq,
    head_size] ("bhsd"), or [batch, seq, heads * head_size] with heads= given
    ("bshd" only). cos, sin: [max_position, rotary_dim / 2] (rope_cache()
    makes them). positions: None (token s of every batch is at start + s) or
    an int64 [batch, seq] array. style: "split_half" (pairs j, j + rotary_dim/2)
    or "interleaved" (pairs 2j, 2j+1). rotary_dim: even, <= head_size, 0 means
    head_size; channels past it are copied. start, rotary_dim, heads: ints (int
    or a numpy integer; a str, float, bool is a TypeError). out: None, x (in
    place) or an array of x's shape and type. A position outside [0, max_position) is
    ActkError ACTK_ERR_OUT_OF_RANGE and nothing is written.
    """
    t = _type_of(x, dtype)
    _typed(x, "x", t, x)
    _array(cos, "cos")
    _array(sin, "sin")
    lay = _enum(layout, Layout, "layout")
    sty = _enum(style, Style, "style")
    start = _int_arg(start, "start", -(2**63), 2**63 - 1)
    rotary_dim = _int_arg(rotary_dim, "rotary_dim")
    if heads is not None:
        heads = _int_arg(heads, "heads", 1)
    if x.ndim == 4:
        if heads is not None and heads != x.shape[2 if lay == Layout.BSHD else 1]:
            raise ValueError("heads=%r does not match x's shape %s" % (heads, x.shape))
        if lay == Layout.BHSD:
            b, h, s, d = x.shape
        else:
            b, s, h, d = x.shape
    elif x.ndim == 3 and lay == Layout.BSHD and heads is not None:
        b, s, hd = x.shape
        h = heads
        if hd % h:
            raise ValueError("x's last dimension %d is not a multiple of heads=%r" % (hd, heads))
        d = hd // h
    else:
        raise ValueError(
            "x must be [batch, seq, heads, head_size] (bshd), [batch, heads, seq, "
            "head_size] (bhsd), or [batch, seq, heads*head_size] with heads= (bshd); "
            "got shape %s" % (x.shape,)
        )
    if cos.ndim != 2 or cos.shape != sin.shape:
        raise ValueError(
            "cos and sin must both be [max_position, rotary_dim/2]; got %s and %s"
            % (cos.shape, sin.shape)
        )
    rd = rotary_dim if rotary_dim else d
    if rd % 2 == 0 and rd <= d and cos.shape[1] != rd // 2:
        raise ValueError(
            "cos/sin have %d columns, rotary_dim %d needs %d" % (cos.shape[1], rd, rd // 2)
        )
    if positions is not None:
        _array(positions, "positions", dtype=np.int64)
        if positions.shape != (b, s) and not (positions.size == b * s and positions.ndim == 1):
            raise ValueError(
                "positions must be [batch, seq] = %s, got %s" % ((b, s), positions.shape)
            )
    y = _out_for(x, out, t)
    desc = _RopeDesc()  # as the header's inline actk_rope_desc_init: zeros, then
    desc.struct_size = ctypes.sizeof(_RopeDesc)
    desc.batch, desc.seq_len, desc.heads, desc.head_size = b, s, h, d
    desc.rotary_dim = rotary_dim
    desc.layout = lay
    desc.style = sty
    desc.max_position = cos.shape[0]
    desc.position_start = start
    with _PoolUse(pool) as ph:
        st = _ROPE[t](
            ph,
            ctypes.byref(desc),
            _ptr(x),
            None if positions is None else _ptr(positions),
            _ptr(cos),
            _ptr(sin),
            _ptr(y),
        )
    _check(st, "actk_rope_%s" % t)
    return y


@taking_foreign
def rope_cache(max_position, rotary_dim, theta=10000.0, cos_out=None, sin_out=None):
    """cos and sin caches [max_position, rotary_dim / 2] for angles
    p * theta^(-2j / rotary_dim), computed in double and rounded once
    (actk_rope_cache_f32; theta 0 means 10000). max_position, rotary_dim: ints
    (int or a numpy integer); theta: a real number (a str, bool or None is a
    TypeError). Returns (cos, sin)."""
    max_position = _int_arg(max_position, "max_position")
    rotary_dim = _int_arg(rotary_dim, "rotary_dim")
    theta = _real_arg(theta, "theta")
    half = rotary_dim // 2
    shape = (max_position, half)
    cos = np.empty(shape, np.float32) if cos_out is None else _array(cos_out, "cos_out", writeable=True)
    sin = np.empty(shape, np.float32) if sin_out is None else _array(sin_out, "sin_out", writeable=True)
    for name, a in (("cos_out", cos), ("sin_out", sin)):
        if a.size != shape[0] * shape[1]:
            raise ValueError("%s must hold %d x %d floats, has %d" % (name, shape[0], shape[1], a.size))
    _check(
        _rope_cache(_ptr(cos), _ptr(sin), max_position, rotary_dim, theta),
        "actk_rope_cache_f32",
    )
    return cos, sin
