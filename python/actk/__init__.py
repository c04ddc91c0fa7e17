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
array (x, bias, out, the RoPE caches) must be a numpy.ndarray with dtype
numpy.float32 (native byte order), C-contiguous and aligned; RoPE position
ids must be int64 the same way. Anything else is refused before the library
is called:

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
import ctypes.util
import enum
import glob
import numbers
import os
import platform
import threading

import numpy as np

# The element-wise ops (src/ops.toml, through tools/gen_ops.py): UNARY_OPS,
# PARAM_OPS, BIAS_OPS, TIERS and TYPES. Their C functions are
# actk_<op>_<type><tier suffix>; tests/test_actk.py checks the table against
# the library's exported symbols, both ways.
from ._ops import BIAS_OPS, DERIVED_OPS, GATED_OPS, PARAM_OPS, TIERS, TYPES, UNARY_OPS
# Arrays that are not numpy's (DLPack producers on the CPU, __array_interface__
# objects) go in as views of their own memory: the ops' checked paths take them.
from ._foreign import taking_foreign

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


class Status(enum.IntEnum):
    """actk_status (include/actk.h); values are part of the ABI."""

    ACTK_OK = 0
    ACTK_ERR_NULL_POINTER = 1
    ACTK_ERR_OVERLAP = 2
    ACTK_ERR_TOO_LARGE = 3
    ACTK_ERR_ZERO_WIDTH = 4
    ACTK_ERR_WIDTH_MISMATCH = 5
    ACTK_ERR_UNSUPPORTED_ISA = 6
    ACTK_ERR_INVALID_ARGUMENT = 7
    ACTK_ERR_OUT_OF_MEMORY = 8
    ACTK_ERR_NO_THREADS = 9
    ACTK_ERR_OUT_OF_RANGE = 10
    ACTK_ERR_BAD_SHAPE = 11


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


class ActkError(RuntimeError):
    """A call returned a status other than ACTK_OK (nothing was written).

    Attributes: status (int), name ("ACTK_ERR_..."), message
    (actk_status_string), function (the C function that returned it).
    """

    def __init__(self, status, function):
        self.status = int(status)
        try:
            self.name = Status(self.status).name
        except ValueError:
            self.name = "ACTK_STATUS_%d" % self.status
        self.message = status_string(self.status)
        self.function = function
        super().__init__("%s: %s: %s" % (function, self.name, self.message))


# ---- loading --------------------------------------------------------------

_HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCE_ROOT = os.path.dirname(os.path.dirname(_HERE))
# (a copy of the package elsewhere has no source tree above it to search)
_IN_SOURCE_TREE = os.path.exists(os.path.join(_SOURCE_ROOT, "include", "actk.h"))


def _candidates():
    env = os.environ.get("ACTK_LIBRARY")
    if env:
        return [env], True
    found = []
    beside = os.path.join(_HERE, "libactk.so")
    if os.path.exists(beside):
        found.append(beside)
    # pip's install puts it there under its SONAME (python/setup.py)
    found += sorted(glob.glob(os.path.join(_HERE, "libactk.so.[0-9]*")))
    if _IN_SOURCE_TREE:
        first = os.path.join(_SOURCE_ROOT, "build", "libactk.so")
        if os.path.exists(first):
            found.append(first)
        others = [
            p
            for p in glob.glob(os.path.join(_SOURCE_ROOT, "build*", "libactk.so"))
            if os.path.abspath(p) != os.path.abspath(first)
        ]
        others.sort(key=os.path.getmtime, reverse=True)
        found += others
    name = ctypes.util.find_library("actk")
    if name:
        found.append(name)
    return found, False


def _load():
    paths, explicit = _candidates()
    errors = []
    for p in paths:
        try:
            return ctypes.CDLL(p), p
        except OSError as e:
            if explicit:
                raise ImportError("actk: cannot load ACTK_LIBRARY=%s: %s" % (p, e)) from e
            errors.append("%s: %s" % (p, e))
    looked = ["ACTK_LIBRARY (not set)", os.path.join(_HERE, "libactk.so")]
    if _IN_SOURCE_TREE:
        looked.append(os.path.join(_SOURCE_ROOT, "build*", "libactk.so"))
    looked.append("the system's library path (ctypes.util.find_library)")
    raise ImportError(
        "actk: libactk.so not found. Set ACTK_LIBRARY=/path/to/libactk.so, put "
        "libactk.so next to %s, or install actk (cmake --install). Looked in: %s.%s"
        % (
            __file__,
            ", ".join(looked),
            " Failed to load: " + "; ".join(errors) if errors else "",
        )
    )


_lib, _lib_path = _load()

_f32p = ctypes.POINTER(ctypes.c_float)
_i64p = ctypes.POINTER(ctypes.c_int64)
_vp = ctypes.c_void_p
_size = ctypes.c_size_t
_status = ctypes.c_int


class _PoolConfig(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("threads", ctypes.c_uint),
        ("spin_us", ctypes.c_uint),
        ("spin_backoff_max", ctypes.c_uint),
        ("pin", ctypes.c_int),
    ]


class _RopeDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("batch", ctypes.c_size_t),
        ("seq_len", ctypes.c_size_t),
        ("heads", ctypes.c_size_t),
        ("head_size", ctypes.c_size_t),
        ("rotary_dim", ctypes.c_size_t),
        ("layout", ctypes.c_int),
        ("style", ctypes.c_int),
        ("max_position", ctypes.c_size_t),
        ("position_start", ctypes.c_int64),
    ]


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_version = _fn("actk_version", ctypes.c_uint)
_version_string = _fn("actk_version_string", ctypes.c_char_p)
_status_string = _fn("actk_status_string", ctypes.c_char_p, _status)
_isa_active = _fn("actk_isa_active", ctypes.c_int)
_isa_name = _fn("actk_isa_name", ctypes.c_char_p, ctypes.c_int)
_isa_supported = _fn("actk_isa_supported", ctypes.c_int, ctypes.c_int)
_isa_reason = _fn("actk_isa_reason", ctypes.c_char_p)
_isa_force = _fn("actk_isa_force", _status, ctypes.c_int)
_cpu_summary = _fn("actk_cpu_summary", ctypes.c_char_p)
_pool_create = _fn(
    "actk_pool_create", _status, ctypes.POINTER(_PoolConfig), ctypes.POINTER(_vp)
)
_pool_destroy = _fn("actk_pool_destroy", None, _vp)
_pool_default = _fn("actk_pool_default", _vp)
_pool_threads = _fn("actk_pool_threads", ctypes.c_uint, _vp)
_rope_cache = _fn("actk_rope_cache_f32", _status, _vp, _vp, _size, _size, ctypes.c_double)

_isa_best = _fn("actk_isa_best", ctypes.c_int)

def _c_name(op, dtype="f32", tier="accurate"):
    return "actk_%s_%s%s" % (op, dtype, TIERS[tier])


def c_functions():
    """Every element-wise C function this module binds, by name."""
    return sorted(
        _c_name(op, t, tier)
        for op in list(UNARY_OPS) + list(PARAM_OPS) + list(BIAS_OPS)
        + list(GATED_OPS) + [g + "_packed" for g in GATED_OPS]
        for t in TYPES
        for tier in TIERS
    )


_C = {}  # (op, type, tier) -> the C function
for _t in TYPES:
    for _tier in TIERS:
        for _op in UNARY_OPS:
            _C[_op, _t, _tier] = _fn(_c_name(_op, _t, _tier), _status, _vp, _vp, _vp, _size)
        for _op in PARAM_OPS:
            _C[_op, _t, _tier] = _fn(
                _c_name(_op, _t, _tier), _status, _vp, _vp, _vp, _size, ctypes.c_float
            )
        for _op in BIAS_OPS:
            _C[_op, _t, _tier] = _fn(
                _c_name(_op, _t, _tier), _status, _vp, _vp, _vp, _size, _vp, _size
            )
_ROPE = {
    _t: _fn("actk_rope_%s" % _t, _status, _vp, ctypes.POINTER(_RopeDesc), _vp, _vp, _vp, _vp, _vp)
    for _t in TYPES
}


def _check(status, function):
    if status != 0:
        raise ActkError(status, function)


# ---- numeric parameters -----------------------------------------------------
# A numeric parameter takes numbers only: never a str or bytes that float() or
# int() would parse, never None, never a bool (a flag is not a count or a
# scale), never a 0-d array or a list. Reals: int, float, numpy integer and
# floating scalars (any numbers.Real); ints: int and numpy integer scalars.

_SIZE_MAX = 2**64 - 1


def _real_arg(value, name):
    if type(value) is float:
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            "%s must be a real number (int, float or a numpy integer/floating scalar), "
            "got %r" % (name, value)
        )
    return float(value)


def _int_arg(value, name, lo=0, hi=_SIZE_MAX):
    if type(value) is not int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                "%s must be an int (or a numpy integer scalar), got %r" % (name, value)
            )
        value = int(value)
    if not lo <= value <= hi:
        raise ValueError("%s must be in [%d, %d], got %d" % (name, lo, hi, value))
    return value


def _bool_arg(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError("%s must be True or False, got %r" % (name, value))
    return bool(value)


# ---- library facts ----------------------------------------------------------


def status_string(status):
    """actk_status_string: the library's English text for a status code."""
    return _status_string(_int_arg(status, "status", -(2**31), 2**31 - 1)).decode()


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


# ---- pools --------------------------------------------------------------------


class Pool:
    """A thread pool for large calls (actk_pool_create).

    Pool(threads=0, spin_us=1000, spin_backoff_max=1, pin=False): threads is
    the total, the calling thread included (0: one per physical core the
    process may run on); after a job workers spin spin_us microseconds, then
    sleep. threads, spin_us and spin_backoff_max are ints in [0, 2^32) (int
    or a numpy integer, not a bool); pin is True or False. Use as a context
    manager, or call close() (also run when the object is collected).
    close() while a call is using the pool raises RuntimeError: see close().
    """

    def __init__(self, threads=0, spin_us=1000, spin_backoff_max=1, pin=False):
        # actk_pool_config_init is inline in the header (it records the
        # caller's struct size): the same, here
        cfg = _PoolConfig(ctypes.sizeof(_PoolConfig), 0, 1000, 1, 0)
        cfg.threads = _int_arg(threads, "Pool: threads", 0, 0xFFFFFFFF)
        cfg.spin_us = _int_arg(spin_us, "Pool: spin_us", 0, 0xFFFFFFFF)
        cfg.spin_backoff_max = _int_arg(spin_backoff_max, "Pool: spin_backoff_max", 0, 0xFFFFFFFF)
        cfg.pin = 1 if _bool_arg(pin, "Pool: pin") else 0
        handle = _vp()
        _check(_pool_create(ctypes.byref(cfg), ctypes.byref(handle)), "actk_pool_create")
        self._handle = handle.value
        self._owned = True
        self._lock = threading.Lock()
        self._busy = 0

    @classmethod
    def _wrap(cls, handle):
        self = cls.__new__(cls)
        self._handle = handle
        self._owned = False
        self._lock = threading.Lock()
        self._busy = 0
        return self

    @property
    def threads(self):
        """Threads a call may use, the caller included. Raises ValueError if
        the pool is closed; holds the pool as an op does, so a close() from
        another thread meanwhile is refused, never frees it under the call."""
        handle = self._enter_call()
        try:
            return int(_pool_threads(handle))
        finally:
            self._leave_call()

    @property
    def closed(self):
        return self._handle is None

    def _live(self):
        if self._handle is None:
            raise ValueError("actk.Pool: the pool is closed")
        return self._handle

    def _enter_call(self):
        with self._lock:
            handle = self._live()
            self._busy += 1
            return handle

    def _leave_call(self):
        with self._lock:
            self._busy -= 1

    def close(self):
        """Join the workers and free the pool; closing twice is fine. A no-op
        for default_pool(), which lives as long as the process.

        While a call from another thread is using the pool (an op with
        pool=this pool, .threads, repr()), close() raises RuntimeError and
        leaves the pool open and working. close() does not wait for calls and
        does not block new ones: while other threads call on the pool back to
        back, close() can be refused again and again, for as long as they keep
        calling. Stop and join those threads first (then close() succeeds), or
        catch the RuntimeError and retry. Leaving a with block calls close():
        the same applies there.
        """
        if not self._owned:
            return  # the library's pool: never ours to free, stays usable
        with self._lock:
            if self._handle is None:
                return
            if self._busy:
                raise RuntimeError("actk.Pool.close: a call is using the pool")
            handle, self._handle = self._handle, None
        _pool_destroy(handle)

    def __enter__(self):
        self._live()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        try:
            n = self.threads  # guarded: see threads
        except ValueError:
            return "<actk.Pool closed>"
        kind = "own" if self._owned else "default"
        return "<actk.Pool %s, %d threads>" % (kind, n)


_default_pool = None
_default_lock = threading.Lock()


def default_pool():
    """The library's process-wide pool (actk_pool_default), created on first
    use; never closed by Python: close() and leaving a with block are no-ops
    on it, so it stays usable for the rest of the process. Raises ActkError
    if it could not be made."""
    global _default_pool
    with _default_lock:
        if _default_pool is None:
            h = _pool_default()
            if not h:
                raise ActkError(Status.ACTK_ERR_OUT_OF_MEMORY, "actk_pool_default")
            _default_pool = Pool._wrap(h)
        return _default_pool


class _PoolUse:
    """with _PoolUse(pool) as handle: keeps the pool from closing mid-call."""

    def __init__(self, pool):
        if pool is not None and not isinstance(pool, Pool):
            raise TypeError("pool must be an actk.Pool or None, got %s" % type(pool).__name__)
        self.pool = pool

    def __enter__(self):
        return None if self.pool is None else self.pool._enter_call()

    def __exit__(self, *exc):
        if self.pool is not None:
            self.pool._leave_call()


# ---- argument checks --------------------------------------------------------


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
