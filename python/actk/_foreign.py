"""Arrays that are not numpy's, taken as numpy views of their own memory,
never copied: any DLPack producer on the CPU (``__dlpack__`` and
``__dlpack_device__``: torch tensors, JAX arrays, ...) and any object with
``__array_interface__``. The views then go through the same checks as an
ndarray (type, contiguity, alignment, writeable out), so an error says what
is wrong with the caller's object and nothing is written.

Only the ops' checked paths come here: an ndarray never does, so the common
call pays nothing for it."""
import functools
import inspect

import numpy as np

_ndarray = np.ndarray
_KDL_CPU = 1  # DLDeviceType kDLCPU (dlpack.h)

# numpy 1.x takes DLPack 0.x, which cannot say whether memory is writeable:
# its views are all read-only, so out= (written) cannot come that way there
_NUMPY1 = int(np.__version__.split(".")[0]) < 2
_NUMPY1_DLPACK = (
    " (numpy %s marks every DLPack view read-only; numpy >= 2 does not): pass out as a "
    "numpy array over the same memory (for a torch tensor: out=t.numpy())" % np.__version__
)

# the ops' parameters that take arrays
ARRAY_PARAMS = frozenset(["x", "gate", "up", "bias", "out", "cos", "sin", "positions",
                          "cos_out", "sin_out"])


def as_ndarray(a, name):
    """a itself if it is an ndarray or None, or not an array this module knows
    (the caller's checks then refuse it); else an ndarray over a's memory."""
    if a is None or isinstance(a, _ndarray):
        return a
    if hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
        device = a.__dlpack_device__()
        if int(device[0]) != _KDL_CPU:
            raise ValueError(
                "%s (%s) is on DLPack device %s, not the CPU (%d): actk runs on the CPU; "
                "copy it to host memory first" % (name, type(a).__name__, tuple(device), _KDL_CPU)
            )
        try:
            view = np.from_dlpack(a)
        except (BufferError, RuntimeError, TypeError, ValueError) as e:
            raise TypeError(
                "%s (%s) cannot be viewed as a numpy array through DLPack: %s. actk takes "
                "float32 or float16, and bfloat16 as an ml_dtypes array or uint16 with "
                "dtype='bfloat16'" % (name, type(a).__name__, e)
            ) from e
        if name == "out" and not view.flags.writeable:
            raise ValueError(
                "out (%s) is read-only as numpy sees it through DLPack%s; nothing was written"
                % (type(a).__name__, _NUMPY1_DLPACK if _NUMPY1 else "")
            )
        return view
    if hasattr(a, "__array_interface__"):
        # np.asarray keeps the interface's data pointer: a view, no copy
        return np.asarray(a)
    return a


def taking_foreign(f):
    """f, also taking foreign arrays in its ARRAY_PARAMS (converted by
    as_ndarray). When out= was a foreign array, the result is that object."""
    params = list(inspect.signature(f).parameters)
    where = [(i, p) for i, p in enumerate(params) if p in ARRAY_PARAMS]

    @functools.wraps(f)
    def g(*args, **kwargs):
        args = list(args)
        out = None
        for i, p in where:
            if i < len(args):
                a = args[i]
                args[i] = as_ndarray(a, p)
                changed = args[i] is not a
            elif p in kwargs:
                a = kwargs[p]
                kwargs[p] = as_ndarray(a, p)
                changed = kwargs[p] is not a
            else:
                continue
            if p == "out" and changed:
                out = a
        y = f(*args, **kwargs)
        return y if out is None else out

    return g
