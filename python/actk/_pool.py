"""Thread pools: Pool (actk_pool_create), default_pool() (the library's) and
_PoolUse, which keeps a pool from closing under a call."""
import ctypes
import threading

from ._args import _bool_arg, _int_arg
from ._errors import ActkError, Status, _check
from ._library import _PoolConfig, _pool_create, _pool_default, _pool_destroy, _pool_threads, _vp



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

