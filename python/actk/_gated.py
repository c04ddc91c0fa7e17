"""The gated ops: y = activation(gate) * up, and their packed form over
x = [..., 2d] with the gate in the first d columns (actk_<op>[_packed]_<type>).
Imported by the package once its internals exist."""
import ctypes

from . import (
    _C,
    GATED_OPS,
    TIERS,
    TYPES,
    _PoolUse,
    _c_name,
    _check,
    _fn,
    _int_arg,
    _out_for,
    _ptr,
    _status,
    _tier,
    _type_of,
    _typed,
)

_vp, _size = ctypes.c_void_p, ctypes.c_size_t
for _t in TYPES:
    for _tier_name in TIERS:
        for _op in GATED_OPS:
            _C[_op, _t, _tier_name] = _fn(
                _c_name(_op, _t, _tier_name), _status, _vp, _vp, _vp, _vp, _size
            )
            _p = _op + "_packed"
            _C[_p, _t, _tier_name] = _fn(
                _c_name(_p, _t, _tier_name), _status, _vp, _vp, _vp, _size, _size
            )


def _gated(op):
    act = GATED_OPS[op]

    def f(gate, up, out=None, pool=None, fast=False, dtype=None):
        t = _type_of(gate, dtype, "gate")
        _typed(gate, "gate", t, gate)
        _typed(up, "up", t, gate)
        if up.shape != gate.shape:
            raise ValueError("up has shape %s, gate has shape %s" % (up.shape, gate.shape))
        tier = _tier(fast)
        y = _out_for(gate, out, t)
        with _PoolUse(pool) as h:
            _check(
                _C[op, t, tier](h, _ptr(gate), _ptr(up), _ptr(y), gate.size),
                _c_name(op, t, tier),
            )
        return y

    f.__name__ = f.__qualname__ = op
    f.__doc__ = (
        "%s(gate) * up (actk_%s_<type>[_fast]): the activation's float32 result of the "
        "tier times up, rounded once in float32 and once to the 16-bit type.\n\ngate and up: "
        "C-contiguous arrays of one shape and type (as %s()'s x); out: None, gate, up, or an "
        "array of their shape and type. Returns out." % (act, op, act)
    )
    return f


def _packed(op):
    act = GATED_OPS[op]
    name = op + "_packed"

    def f(x, out=None, pool=None, fast=False, dtype=None):
        t = _type_of(x, dtype)
        _typed(x, "x", t, x)
        if x.ndim == 0 or x.shape[-1] % 2:
            raise ValueError("x's last dimension must be even (gate | up), got shape %s" % (x.shape,))
        d = x.shape[-1] // 2
        shape = x.shape[:-1] + (d,)
        if out is None:
            import numpy as np

            y = np.empty(shape, x.dtype)
        else:
            y = _typed(out, "out", t, x, writeable=True)
            if y.shape != shape:
                raise ValueError("out has shape %s, want %s" % (y.shape, shape))
        tier = _tier(fast)
        rows = x.size // (2 * d) if d else 0
        with _PoolUse(pool) as h:
            _check(
                _C[name, t, tier](h, _ptr(x), _ptr(y), _int_arg(rows, "rows"), d),
                _c_name(name, t, tier),
            )
        return y

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (
        "%s(x[..., :d]) * x[..., d:] (actk_%s_<type>[_fast]) for x of shape (..., 2d), "
        "the gate first (vLLM's layout; for the up-first layout pass the halves to %s()). "
        "Returns out, of shape (..., d); out must not overlap x." % (act, name, op)
    )
    return f


FUNCTIONS = {}
for _op in GATED_OPS:
    FUNCTIONS[_op] = _gated(_op)
    FUNCTIONS[_op + "_packed"] = _packed(_op)
