"""Status codes and ActkError: a call that returned anything but ACTK_OK
raises, and the library has written nothing."""
import enum

from ._args import _int_arg
from ._library import _status_string


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


def _check(status, function):
    if status != 0:
        raise ActkError(status, function)



def status_string(status):
    """actk_status_string: the library's English text for a status code."""
    return _status_string(_int_arg(status, "status", -(2**31), 2**31 - 1)).decode()

