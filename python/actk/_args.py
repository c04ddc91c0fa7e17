"""The numeric and flag parameters' checks (alpha, theta, sizes, counts,
fast=, pin=)."""
import numbers

import numpy as np

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

