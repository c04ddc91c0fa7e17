"""numpy arrays as the ops take them: the element types and their dtypes
(float32, float16, bfloat16 as ml_dtypes or uint16 patterns), the checks
(type, contiguity, alignment, writeable out) and the data pointer, read
without numpy's Python code where the probes allow (the ops' common call)."""
import ctypes
import platform

import numpy as np

from ._args import _bool_arg



def _array(a, name, dtype=np.float32, writeable=False):
    if not isinstance(a, np.ndarray):
        raise TypeError(
            "%s must be a numpy.ndarray of %s, got %s: pass np.asarray(%s, dtype=np.%s)"
            % (name, np.dtype(dtype).name, type(a).__name__, name, np.dtype(dtype).name)
        )
    if a.dtype != np.dtype(dtype):
        raise TypeError(
            "%s must be %s (native byte order), got %s: the binding makes no silent "
            "copies; pass np.asarray(%s, dtype=np.%s)"
            % (name, np.dtype(dtype).name, a.dtype, name, np.dtype(dtype).name)
        )
    if not a.flags.c_contiguous:
        raise ValueError(
            "%s is not C-contiguous (strides %s): the binding makes no silent copies; "
            "pass np.ascontiguousarray(%s)" % (name, a.strides, name)
        )
    if not a.flags.aligned:
        raise ValueError("%s is not aligned to its element size: copy it (%s.copy())" % (name, name))
    if writeable and not a.flags.writeable:
        raise ValueError("%s is read-only" % name)
    return a


# An array's data pointer. a.ctypes.data and a.__array_interface__ cost
# microseconds a call (a Python object or a dict built each time), more than
# the C call at small n. numpy's C ABI puts the data pointer first after the
# object header in every ndarray (PyArrayObject_fields.data), and CPython's
# id() is the object's address: a c_void_p over that field (what ctypes
# passes for a void * argument) costs a few hundred ns. Used only where the
# probe below agrees with __array_interface__ on every kind of array;
# otherwise (another implementation or layout) a.ctypes.data.
_vp_at = ctypes.c_void_p.from_address
_HEAD = object.__basicsize__


def _data_probe():
    if platform.python_implementation() != "CPython":
        return False
    try:
        base = np.arange(64, dtype=np.float32)
        ro = base[7:].copy()
        ro.setflags(write=False)
        for a in (base, base[3:], base[5:45].reshape(5, 8), base.view(np.uint16),
                  np.empty((2, 3), np.float16), ro, np.empty(0, np.float32),
                  np.frombuffer(bytearray(64), dtype=np.float32, offset=4, count=8)):
            if _vp_at(id(a) + _HEAD).value != a.__array_interface__["data"][0]:
                return False
        return True
    except Exception:  # pragma: no cover - any surprise: the slow, sure way
        return False


_DATA_AT_ID = _data_probe()


def _data(a):
    """a's data pointer as an int (tests; the ops use _ptr's c_void_p)."""
    return _vp_at(id(a) + _HEAD).value if _DATA_AT_ID else a.ctypes.data


if _DATA_AT_ID:

    def _ptr(a):
        return _vp_at(id(a) + _HEAD) if a.size else None

else:  # pragma: no cover - not CPython, or a layout the probe did not find

    def _ptr(a):
        return a.ctypes.data if a.size else None


# numpy's array flags (NPY_ARRAY_*, numpy's C ABI) the ops need, read in one
# a.flags.num: x C-contiguous and aligned; out also writeable. Probed too.
_CA = 0x0001 | 0x0100  # NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED
_CAW = _CA | 0x0400  # | NPY_ARRAY_WRITEABLE


def _flags_probe():
    a = np.zeros((4, 4), np.float32)
    ro = a.copy()
    ro.setflags(write=False)
    odd = np.frombuffer(bytearray(4 * 5), dtype=np.float32, offset=1, count=4)
    return (
        a.flags.num & _CAW == _CAW
        and a[:, 0].flags.num & 0x0001 == 0
        and ro.flags.num & _CAW == _CA
        and odd.flags.num & 0x0100 == 0
    )


# The common call goes the inline way (no helper functions) only when both
# probes agree; everything else, and every error, takes the checked path.
_HOT = _DATA_AT_ID and _flags_probe()


# The element types: how each is held in numpy. f16 is np.float16; bf16 has
# no numpy dtype: its 16-bit patterns in a uint16 array (or an ml_dtypes
# bfloat16 array, whose dtype is named "bfloat16").
_DTYPE_NAMES = {
    "f32": "f32", "float32": "f32",
    "f16": "f16", "float16": "f16", "half": "f16",
    "bf16": "bf16", "bfloat16": "bf16",
}


_F32, _F16, _U16 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.uint16)
# the actk type of an array's own dtype (dtype=None); an ml_dtypes bfloat16
# dtype is added when first seen (_type_of)
_BY_DTYPE = {_F32: "f32", _F16: "f16"}
# the dtypes an array of actk type t may have when dtype= names the type
_STORAGE = {"f32": frozenset([_F32]), "f16": frozenset([_F16, _U16]), "bf16": frozenset([_U16])}


def _is_bf16_dtype(dt):
    if dt in _BY_DTYPE:
        return _BY_DTYPE[dt] == "bf16"
    if dt == _U16 or dt.itemsize != 2:
        return False
    if dt.name == "bfloat16":  # (dtype.name: microseconds; once per dtype)
        _BY_DTYPE[dt] = "bf16"
        return True
    return False


def _type_of(x, dtype, name="x"):
    """The actk type of array x, given the dtype= argument (None: from x)."""
    if not isinstance(x, np.ndarray):
        raise TypeError(
            "%s must be a numpy.ndarray, a CPU DLPack array or an __array_interface__ object "
            "(float32, float16, ml_dtypes bfloat16, or uint16 with dtype='bfloat16'), got %s"
            % (name, type(x).__name__)
        )
    if dtype is not None:
        key = dtype if isinstance(dtype, str) else np.dtype(dtype).name
        t = _DTYPE_NAMES.get(str(key).lower())
        if t is None:
            raise ValueError(
                "dtype must be 'float32', 'float16' or 'bfloat16', got %r" % (dtype,)
            )
        return t
    if x.dtype == _F32:
        return "f32"
    if x.dtype == _F16:
        return "f16"
    if _is_bf16_dtype(x.dtype):
        return "bf16"
    if x.dtype == np.uint16:
        raise TypeError(
            "%s is uint16: say what its 16-bit patterns are with dtype='bfloat16' (or "
            "'float16')" % name
        )
    raise TypeError(
        "%s must be float32, float16 or bfloat16 (uint16 with dtype='bfloat16'), got %s: the "
        "binding makes no silent copies; pass np.asarray(%s, dtype=np.float32)"
        % (name, x.dtype, name)
    )


def _storage(t, x):
    """The numpy dtypes that hold actk type t: x's own where it is one of them."""
    if t == "f32":
        return (_F32,)
    if t == "f16":
        return (_F16, _U16)
    allowed = (_U16,)
    if _is_bf16_dtype(x.dtype):
        allowed += (x.dtype,)
    return allowed


def _typed(a, name, t, like, writeable=False):
    """Checks a as _array does, for an actk type t (storage dtypes: _storage)."""
    allowed = _storage(t, like)
    if not isinstance(a, np.ndarray):
        raise TypeError("%s must be a numpy.ndarray, got %s" % (name, type(a).__name__))
    if a.dtype not in allowed:
        raise TypeError(
            "%s must be %s for %s, got %s: the binding makes no silent copies"
            % (name, " or ".join(d.name for d in allowed), t, a.dtype)
        )
    return _array(a, name, dtype=a.dtype, writeable=writeable)


def _out_for(x, out, t="f32"):
    if out is None:
        return np.empty_like(x, order="C")
    _typed(out, "out", t, x, writeable=True)
    if out.shape != x.shape:
        raise ValueError("out has shape %s, x has shape %s" % (out.shape, x.shape))
    return out


def _tier(fast):
    return "fast" if _bool_arg(fast, "fast") else "accurate"

