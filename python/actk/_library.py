"""Finding and loading libactk (the order is __init__'s docstring's), and its
C functions as ctypes sees them: the raw bindings, the ops' table _C and
RoPE's _ROPE."""
import ctypes
import ctypes.util
import glob
import os

from ._ops import BIAS_OPS, GATED_OPS, PARAM_OPS, TIERS, TYPES, UNARY_OPS

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
    # pip's install puts it there under its SONAME (python/CMakeLists.txt)
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
        "libactk.so next to %s, or install actk (pip install ./python, or cmake --install). "
        "Looked in: %s.%s"
        % (
            os.path.join(_HERE, "__init__.py"),
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

