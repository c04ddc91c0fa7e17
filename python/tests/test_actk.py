"""Tests of the Python binding (python/actk) against numpy/double references.

The references are the definitions in README.md evaluated in double, written the way
tools/reference.c writes them (stable sigmoid, gelu through erfc, gelu_tanh
as x / (1 + e^-2u)); the error is measured in ULPs the way README.md reports
it: ulp(r) = 2^(max(floor(log2 |r|), -126) - 23). The bound is 2 ULP.

Run from the repository root (CI: .ci/run python):
    ACTK_LIBRARY=build/libactk.so /usr/bin/python3 -m pytest -q python/tests
"""
import fractions
import math
import os
import sys
import threading

import numpy as np
import pytest

import actk

F32 = np.float32
ULP_BOUND = 2.0
QUICK_GELU_ALPHA = float(np.float32(1.702))
SQRT1_2 = 0.70710678118654752440
SQRT_2_PI = math.sqrt(2.0 / math.pi)

# ---- references (double) -----------------------------------------------------

_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)
_tanh = np.frompyfunc(math.tanh, 1, 1)


def _d(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def ref_sigmoid_d(z):
    """1 / (1 + e^-z) for z >= 0, e^z / (1 + e^z) below (NaN goes there, stays NaN)."""
    with np.errstate(over="ignore", invalid="ignore"):
        pos = 1.0 / (1.0 + np.exp(-np.where(z >= 0, z, 0.0)))
        e = np.exp(np.where(z >= 0, 0.0, z))
        neg = e / (1.0 + e)
    return np.where(z >= 0, pos, neg)


def ref_erf(x):
    return _erf(_d(x)).astype(np.float64)


def ref_tanh(x):
    return _tanh(_d(x)).astype(np.float64)


def ref_sigmoid(x):
    return ref_sigmoid_d(_d(x))


def ref_swish(x, alpha):
    x = _d(x)
    alpha = float(np.float32(alpha))
    with np.errstate(over="ignore", invalid="ignore"):
        z = alpha * x  # exact in double
        s = ref_sigmoid_d(z)
        r = x * s
        lim = np.where(s > 0, x * s, np.copysign(0.0, x))
    return np.where(np.isinf(x) & ~np.isnan(z), lim, r)


def ref_silu(x):
    return ref_swish(x, 1.0)


def ref_quick_gelu(x):
    return ref_swish(x, QUICK_GELU_ALPHA)


def ref_gelu(x):
    x = _d(x)
    with np.errstate(invalid="ignore"):
        r = 0.5 * x * _erfc(-x * SQRT1_2).astype(np.float64)
    return np.where(np.isinf(x), np.where(x > 0, x, -0.0), r)


def ref_gelu_tanh(x):
    x = _d(x)
    with np.errstate(over="ignore", invalid="ignore"):
        u = SQRT_2_PI * (x + 0.044715 * x * x * x)
        r = x / (1.0 + np.exp(-2.0 * u))
    return np.where(np.isinf(x), np.where(x > 0, x, -0.0), r)


def ref_hardsigmoid(x):
    """relu6(x + 3) / 6; x + 3 is exact in double for |x| >= 2^-29 and the rounding of a
    smaller one is far below the float result's ulp."""
    x = _d(x)
    return np.clip(x + 3.0, 0.0, 6.0) / 6.0


def ref_hardswish(x):
    """x relu6(x + 3) / 6, -0 for x <= -3 (torch's x * 0, and the limit at -inf)."""
    x = _d(x)
    with np.errstate(invalid="ignore"):
        r = x * np.clip(x + 3.0, 0.0, 6.0) / 6.0
    return np.where(x <= -3.0, -0.0, np.where(x >= 3.0, x, r))


def ref_softplus(x):
    """log(1 + e^x) as max(x, 0) + log1p(e^-|x|) (numpy's logaddexp(0, x)): no overflow, e^x
    itself far down the negative side, the limits at +-inf."""
    return np.logaddexp(0.0, _d(x))


def ref_elu(x, alpha=1.0):
    """x for x > 0, alpha (e^x - 1) otherwise: numpy's expm1 in double has no cancellation
    near 0, and alpha * expm1(x) keeps the signs of zero (alpha * +-0) and the limit -alpha."""
    x = _d(x)
    alpha = float(np.float32(alpha))
    with np.errstate(invalid="ignore"):
        return np.where(x > 0, x, alpha * np.expm1(np.where(x > 0, 0.0, x)))


def ref_mish(x):
    """x n / (n + 2), n = u (u + 2), u = e^x (tanh(log(1 + u)) without the logarithm); for
    x >= 0 divided by u^2, in v = e^-x (nothing overflows); -0 at -inf (the limit)."""
    x = _d(x)
    with np.errstate(over="ignore", invalid="ignore"):
        u = np.exp(np.minimum(x, 0.0))
        n = u * (u + 2.0)
        v = np.exp(-np.maximum(x, 0.0))
        r = np.where(x < 0, x * (n / (n + 2.0)), x * (1.0 + 2.0 * v) / (1.0 + 2.0 * v + 2.0 * v * v))
    return np.where(np.isinf(x), np.where(x > 0, x, -0.0), r)


def ulp_error(y, r):
    """|y - r| / ulp(r), ulp(r) = 2^(max(floor(log2|r|), -126) - 23); inf when
    NaN-ness, infinities or signs (zeros included) disagree (as
    tools/reference.c's actk_ulp_error)."""
    y = np.asarray(y, dtype=np.float32)
    r = np.asarray(r, dtype=np.float64)
    yd = y.astype(np.float64)
    out = np.zeros(r.shape)
    ny, nr = np.isnan(yd), np.isnan(r)
    out[ny != nr] = np.inf
    both = ~ny & ~nr
    out[both & (np.signbit(yd) != np.signbit(r))] = np.inf
    inf = both & (np.isinf(yd) | np.isinf(r))
    out[inf & (yd != r)] = np.inf
    fin = both & ~np.isinf(yd) & ~np.isinf(r) & (np.signbit(yd) == np.signbit(r))
    _, e = np.frexp(np.where(fin, r, 1.0))
    k = np.where(r == 0, -126, e - 1)
    k = np.maximum(k, -126)
    with np.errstate(invalid="ignore"):
        err = np.abs(yd - r) / np.ldexp(1.0, k - 23)
    out[fin] = err[fin]
    return out


def ref_of(op):
    """The reference of a unary or param op: ref_<op> above, or for a derived op
    (src/ops.toml's derived: y = sy f(sx x), actk.DERIVED_OPS) its base's, signs flipped."""
    if "ref_" + op in globals():
        return globals()["ref_" + op]
    if op in actk.DERIVED_OPS:
        base, sx, sy = actk.DERIVED_OPS[op]
        f = ref_of(base)
        return lambda x: sy * f(F32(sx) * np.asarray(x, dtype=np.float32))

    def missing(x):
        pytest.fail("%s: no reference: write ref_%s(x) in python/tests/test_actk.py "
                    "(its definition in double)" % (op, op))

    return missing


# Every unary op of the table, and the param ops at other parameters than their defaults
OPS = {op: (getattr(actk, op), ref_of(op)) for op in actk.UNARY_OPS}
OPS.update({
    "elu": (actk.elu, ref_elu),
    "elu(0.5)": (lambda x, **k: actk.elu(x, 0.5, **k), lambda x: ref_elu(x, 0.5)),
    "elu(-2.25)": (lambda x, **k: actk.elu(x, -2.25, **k), lambda x: ref_elu(x, -2.25)),
    "swish(0.5)": (lambda x, **k: actk.swish(x, 0.5, **k), lambda x: ref_swish(x, 0.5)),
    "swish(2.25)": (lambda x, **k: actk.swish(x, 2.25, **k), lambda x: ref_swish(x, 2.25)),
    "swish(1.702)": (
        lambda x, **k: actk.swish(x, 1.702, **k),
        lambda x: ref_swish(x, QUICK_GELU_ALPHA),
    ),
})

# ---- inputs -------------------------------------------------------------------


def bits(u):
    return np.asarray(u, dtype=np.uint32).view(np.float32)


def fbits(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def sample_inputs():
    """Every exponent of both signs (a prime stride over all 2^32 patterns),
    a dense grid over [-12, 12] where the ops change, and tiny/huge values."""
    strided = bits(np.arange(0, 1 << 32, 65521, dtype=np.uint64).astype(np.uint32))
    strided = strided[np.isfinite(strided)]
    dense = np.linspace(-12.0, 12.0, 120001, dtype=np.float32)
    rng = np.random.default_rng(1234)
    rnd = rng.standard_normal(50000).astype(np.float32) * F32(4)
    edges = np.array(
        [0.0, -0.0, 1e-45, -1e-45, 1.17549435e-38, -1.17549435e-38, 3.4028235e38, -3.4028235e38,
         1e-20, -1e-20, 88.0, -88.0, 104.0, -104.0, 9.0, -9.0, 4.0, -4.0],
        dtype=np.float32,
    )
    return np.concatenate([strided, dense, rnd, edges]).astype(np.float32)


X = sample_inputs()
NAN_BITS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA5A5A5, 0x7FC12345, 0xFFFFFFFF]


@pytest.fixture
def restore_isa():
    before = actk.isa()
    yield
    actk.force_isa(before)


# ---- library facts -------------------------------------------------------------


def _exported_symbols():
    """The shared library's exported function names (nm -D), or None."""
    import shutil
    import subprocess

    nm = shutil.which("nm")
    path = actk.library_path()
    if not nm or not os.path.exists(path):
        return None
    out = subprocess.run(
        [nm, "-D", "--defined-only", path], capture_output=True, text=True, check=True
    ).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if " T " in line}


def test_op_table_matches_the_library_exports():
    """The binding's op table (actk.UNARY_OPS, PARAM_OPS, BIAS_OPS x TYPES x
    TIERS) names exactly the element-wise functions the library exports:
    a function added to the library without a binding, or a binding of a
    function that does not exist, fails here."""
    exports = _exported_symbols()
    if exports is None:
        pytest.skip("nm or the library file not found")
    suffixes = tuple("_%s%s" % (t, s) for t in actk.TYPES for s in actk.TIERS.values())
    # element-wise functions: actk_<op>_<type>[<tier suffix>], RoPE aside
    # (its own binding, actk.rope / actk.rope_cache)
    elementwise = {
        e
        for e in exports
        if e.endswith(suffixes) and not e.startswith(("actk_rope", "actk_pool", "actk_isa"))
    }
    bound = set(actk.c_functions())
    assert bound - exports == set(), "bound but not exported"
    assert elementwise - bound == set(), "exported but not bound"
    # and every bound op has a Python function of its name
    for op in list(actk.UNARY_OPS) + list(actk.PARAM_OPS) + list(actk.BIAS_OPS):
        assert callable(getattr(actk, op)), op
    # and this file has a reference for every unary op (a new op needs ref_<op> here,
    # unless it is derived from another)
    missing = [op for op in actk.UNARY_OPS if "ref_" + op not in globals() and op not in actk.DERIVED_OPS]
    assert missing == [], "unary ops without a reference (ref_<op> in this file): %s" % missing


def test_readme_snippet_runs():
    """python/README.md's first example runs as written (every name it uses
    defined), so a newcomer's first paste works."""
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
    with open(readme) as f:
        text = f.read()
    start = text.index("```python\n") + len("```python\n")
    code = text[start : text.index("```", start)]
    exec(compile(code, readme, "exec"), {})


def test_version_and_isa():
    major, minor, patch = actk.version_info()
    assert actk.version() == "%d.%d.%d" % (major, minor, patch)
    assert actk.isa() in actk.supported_isas()
    assert actk.supported_isas()[0] == actk.best_isa()
    assert "scalar" in actk.supported_isas()
    assert actk.isa_supported("scalar") and actk.isa_supported(actk.Isa.SCALAR)
    assert isinstance(actk.isa_reason(), str) and actk.isa_reason()
    assert actk.cpu_summary()
    assert actk.status_string(actk.Status.ACTK_OK) == "ok"
    assert actk.library_path()


def test_force_isa_errors(restore_isa):
    with pytest.raises(ValueError, match="unknown isa"):
        actk.force_isa("sse9")
    with pytest.raises(actk.ActkError) as e:
        actk.force_isa(7)
    assert e.value.name == "ACTK_ERR_INVALID_ARGUMENT"
    # Isa lists exactly the values the library names, by the same names
    named = {v: actk._isa_str(v) for v in range(32) if actk._isa_str(v) is not None}
    assert named == {i.value: i.name.lower() for i in actk.Isa}
    for isa in (i.name.lower() for i in actk.Isa):
        if not actk.isa_supported(isa):
            with pytest.raises(actk.ActkError) as e:
                actk.force_isa(isa)
            assert e.value.name == "ACTK_ERR_UNSUPPORTED_ISA"


# ---- accuracy --------------------------------------------------------------------


@pytest.mark.parametrize("name", list(OPS))
def test_accuracy(name):
    fn, ref = OPS[name]
    y = fn(X)
    assert y.dtype == np.float32 and y.shape == X.shape
    err = ulp_error(y, ref(X))
    worst = int(np.argmax(err))
    assert err[worst] <= ULP_BOUND, "%s(%r) = %r, reference %r: %.3g ULP" % (
        name, X[worst], y[worst], ref(X[worst : worst + 1])[0], err[worst])


@pytest.mark.parametrize("name", list(OPS))
def test_accuracy_every_isa(name, restore_isa):
    fn, ref = OPS[name]
    r = ref(X)
    results = {}
    for isa in actk.supported_isas():
        actk.force_isa(isa)
        assert actk.isa() == isa
        y = fn(X)
        assert ulp_error(y, r).max() <= ULP_BOUND, isa
        results[isa] = fbits(y)
    for isa, b in results.items():
        assert np.array_equal(b, results["scalar"]), "%s differs from scalar" % isa


@pytest.mark.parametrize("name", list(OPS))
def test_specials(name):
    fn, ref = OPS[name]
    nans = bits(NAN_BITS)
    y = fn(nans)
    # NaN in -> the same NaN out, quieted (sign and payload kept)
    assert np.array_equal(fbits(y), fbits(nans) | 0x00400000), [hex(v) for v in fbits(y)]
    sp = np.array([np.inf, -np.inf, 0.0, -0.0], dtype=np.float32)
    y = fn(sp)
    r = ref(sp)
    # the limits and signed zeros exactly, sign included
    assert np.array_equal(fbits(y), fbits(r.astype(np.float32))), (y, r)


def test_documented_limits():
    inf = np.array([np.inf, -np.inf], dtype=np.float32)
    assert list(actk.erf(inf)) == [1.0, -1.0]
    assert list(actk.tanh(inf)) == [1.0, -1.0]
    s = actk.sigmoid(inf)
    assert s[0] == 1.0 and s[1] == 0.0 and not np.signbit(s[1])
    for f in (actk.gelu, actk.gelu_tanh, actk.silu, actk.quick_gelu):
        y = f(inf)
        assert y[0] == np.inf and y[1] == 0.0 and np.signbit(y[1]), f.__name__
    z = np.array([0.0, -0.0], dtype=np.float32)
    for f in (actk.erf, actk.tanh, actk.gelu, actk.gelu_tanh, actk.silu, actk.quick_gelu):
        y = f(z)
        assert list(np.signbit(y)) == [False, True], f.__name__
        assert list(y) == [0.0, 0.0]


@pytest.mark.parametrize("op", ["bias_gelu", "bias_gelu_tanh"])
@pytest.mark.parametrize("width", [1, 3, 16, 17, 64, 250])
def test_bias(op, width):
    fn = getattr(actk, op)
    base = actk.gelu if op == "bias_gelu" else actk.gelu_tanh
    ref = ref_gelu if op == "bias_gelu" else ref_gelu_tanh
    rng = np.random.default_rng(width)
    rows = 37
    x = (rng.standard_normal(rows * width) * 3).astype(np.float32)
    x[::7] = X[: x[::7].size]  # every regime, specials but NaN + NaN pairs
    bias = (rng.standard_normal(width) * 2).astype(np.float32)
    y = fn(x, bias)
    s = (x.reshape(rows, width) + bias).reshape(-1)  # rounded to float, as documented
    assert np.array_equal(fbits(y), fbits(base(s)))
    assert ulp_error(y, ref(s)).max() <= ULP_BOUND
    # a 2-D x with a row-shaped bias is the same call
    y2 = fn(x.reshape(rows, width), bias)
    assert y2.shape == (rows, width)
    assert np.array_equal(fbits(y2).reshape(-1), fbits(y))


# ---- out=, in place, pools --------------------------------------------------------


@pytest.mark.parametrize("name", list(OPS))
def test_out_and_in_place(name):
    fn, _ = OPS[name]
    want = fn(X)
    out = np.full_like(X, np.nan)
    got = fn(X, out=out)
    assert got is out and np.array_equal(fbits(out), fbits(want))
    x = X.copy()
    got = fn(x, out=x)
    assert got is x and np.array_equal(fbits(x), fbits(want))
    # any shape: a 2-D array is its elements in order
    x2 = X[: 1000 * 7].reshape(1000, 7)
    assert np.array_equal(fbits(fn(x2)).reshape(-1), fbits(want[: 7000]))


@pytest.mark.parametrize("op", ["bias_gelu", "bias_gelu_tanh"])
def test_bias_in_place(op):
    fn = getattr(actk, op)
    x = np.linspace(-5, 5, 64 * 10, dtype=np.float32)
    b = np.linspace(-1, 1, 64, dtype=np.float32)
    want = fn(x, b)
    got = fn(x, b, out=x)
    assert got is x and np.array_equal(fbits(x), fbits(want))


def test_empty():
    e = np.empty(0, np.float32)
    for name, (fn, _) in OPS.items():
        assert fn(e).size == 0, name
    assert actk.bias_gelu(e, np.ones(4, np.float32)).size == 0


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(7)
    return (rng.standard_normal(1 << 20) * 4).astype(np.float32)


@pytest.mark.parametrize("name", list(OPS))
def test_pool_bit_identical(name, big):
    fn, _ = OPS[name]
    want = fbits(fn(big))
    with actk.Pool(threads=3, spin_us=20) as p3, actk.Pool(threads=2, spin_us=0) as p2:
        assert p3.threads >= 1 and p2.threads >= 1
        for pool in (p3, p2, actk.default_pool()):
            assert np.array_equal(fbits(fn(big, pool=pool)), want), repr(pool)
            x = big.copy()
            fn(x, out=x, pool=pool)
            assert np.array_equal(fbits(x), want), repr(pool)


def test_pool_bias_and_rope_bit_identical(big):
    b = np.linspace(-2, 2, 512, dtype=np.float32)
    x = big.reshape(-1, 512)
    cos, sin = actk.rope_cache(4096, 64)
    xr = big.reshape(4, 256, 8, 128)
    with actk.Pool(threads=3) as p:
        for f in (actk.bias_gelu, actk.bias_gelu_tanh):
            assert np.array_equal(fbits(f(x, b)), fbits(f(x, b, pool=p)))
        for style in ("split_half", "interleaved"):
            a = actk.rope(xr, cos, sin, start=100, style=style, rotary_dim=64)
            c = actk.rope(xr, cos, sin, start=100, style=style, rotary_dim=64, pool=p)
            assert np.array_equal(fbits(a), fbits(c)), style


def test_pool_object():
    p = actk.Pool(threads=2, spin_us=0, spin_backoff_max=4)
    assert p.threads in (1, 2) and not p.closed
    assert "2 threads" in repr(p) or "1 threads" in repr(p)
    p.close()
    p.close()  # twice is fine
    assert p.closed and "closed" in repr(p)
    with pytest.raises(ValueError, match="closed"):
        actk.gelu(X[:10], pool=p)
    with pytest.raises(ValueError, match="closed"):
        p.threads
    with actk.Pool(threads=1) as q:
        assert q.threads == 1
    assert q.closed
    d = actk.default_pool()
    assert d is actk.default_pool()
    d.close()  # not ours to destroy: a no-op
    assert not d.closed and d.threads >= 1
    with pytest.raises(TypeError, match="threads"):
        actk.Pool(threads=1.5)
    with pytest.raises(ValueError, match="threads"):
        actk.Pool(threads=-1)
    with pytest.raises(TypeError, match="actk.Pool or None"):
        actk.gelu(X[:10], pool=3)


def test_threads_share_a_pool(big):
    want = fbits(actk.gelu(big))
    errors = []
    with actk.Pool(threads=3, spin_us=50) as p:

        def work():
            try:
                for _ in range(5):
                    if not np.array_equal(fbits(actk.gelu(big, pool=p)), want):
                        errors.append("differs")
            except Exception as e:  # pragma: no cover - reported below
                errors.append(repr(e))

        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    assert not errors


def test_default_pool_survives_with_and_close():
    # close() and leaving a with block are no-ops for default_pool(): the
    # module hands out one wrapper, which must stay usable for the process
    with actk.default_pool() as p:
        want = fbits(actk.gelu(X[:100]))
        assert np.array_equal(fbits(actk.gelu(X[:100], pool=p)), want)
    assert not p.closed
    p.close()
    p.close()
    d = actk.default_pool()
    assert d is p and not d.closed
    assert d.threads >= 1 and "default" in repr(d)
    assert np.array_equal(fbits(actk.gelu(X[:100], pool=d)), want)
    with d:
        pass
    assert np.array_equal(fbits(actk.gelu(X[:100], pool=actk.default_pool())), want)


def test_pool_threads_and_repr_hold_the_pool(monkeypatch):
    # A close() from another thread landing between the handle's lookup and
    # actk_pool_threads must be refused (RuntimeError), never free the pool
    # that call is about to use. The C function is wrapped to run that
    # close() right there, in another thread, and to see what it was given.
    # (Pool lives in actk._pool and calls the C functions from there)
    pool_module = sys.modules["actk._pool"]
    real_threads, real_destroy = pool_module._pool_threads, pool_module._pool_destroy
    destroyed, outcomes = set(), []

    def destroy(h):
        destroyed.add(h)
        real_destroy(h)

    def threads_with_a_close_in_between(h):
        def try_close():
            try:
                p.close()
                outcomes.append("closed")
            except RuntimeError as e:
                outcomes.append(str(e))

        t = threading.Thread(target=try_close)
        t.start()
        t.join()
        if h in destroyed:
            return 0xDEAD  # the real call would read a freed pool
        return real_threads(h)

    monkeypatch.setattr(pool_module, "_pool_destroy", destroy)
    monkeypatch.setattr(pool_module, "_pool_threads", threads_with_a_close_in_between)
    for read in (lambda q: q.threads, repr):
        p = actk.Pool(threads=2, spin_us=0)
        outcomes.clear()
        destroyed.clear()  # (a new pool may reuse a freed one's address)
        got = read(p)
        assert outcomes == ["actk.Pool.close: a call is using the pool"], outcomes
        assert got != 0xDEAD and "57005" not in str(got), got
        assert not p.closed
        monkeypatch.setattr(pool_module, "_pool_threads", real_threads)
        p.close()
        assert p.closed
        monkeypatch.setattr(pool_module, "_pool_threads", threads_with_a_close_in_between)


def test_close_refused_while_in_use_and_documented():
    p = actk.Pool(threads=2, spin_us=0)
    p._enter_call()  # what an op in another thread holds during its C call
    with pytest.raises(RuntimeError, match="a call is using the pool"):
        p.close()
    assert not p.closed
    p._leave_call()
    p.close()
    assert p.closed
    # close() neither waits nor blocks new calls, so calls back to back from
    # other threads can keep it refused: said where users read about close()
    doc = " ".join(actk.Pool.close.__doc__.split())
    for phrase in ("RuntimeError", "back to back", "again and again", "join those threads"):
        assert phrase in doc, phrase
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
    with open(readme) as f:
        threads_section = " ".join(f.read().split("## Threads", 1)[1].split("\n## ", 1)[0].split())
    for phrase in ("RuntimeError", "back to back", "again and again", "join those threads"):
        assert phrase in threads_section, phrase


def test_close_racing_threads_and_repr():
    # real threads: readers call .threads and repr() back to back while one
    # thread closes; each read returns a value or raises the documented
    # ValueError, and close() either succeeds or is refused with RuntimeError
    # (readers stop after a bounded number of reads: back-to-back calls can
    # keep a close() refused that long, as Pool.close says)
    for _ in range(10):
        p = actk.Pool(threads=2, spin_us=0)
        n = p.threads
        bad, stop = [], threading.Event()

        def reader():
            for _ in range(2000):
                if stop.is_set():
                    break
                try:
                    if p.threads != n:
                        bad.append("threads changed")
                    r = repr(p)
                    if r not in ("<actk.Pool own, %d threads>" % n, "<actk.Pool closed>"):
                        bad.append(r)
                except ValueError as e:
                    if "closed" not in str(e):
                        bad.append(repr(e))
                    break
                except Exception as e:  # pragma: no cover - reported below
                    bad.append(repr(e))
                    break

        def closer():
            while True:
                try:
                    p.close()
                    break
                except RuntimeError as e:
                    if "using the pool" not in str(e):
                        bad.append(repr(e))
                        break
            stop.set()

        ts = [threading.Thread(target=reader) for _ in range(3)]
        ts.append(threading.Thread(target=closer))
        for t in ts:
            t.start()
        for t in ts:
            t.join(timeout=60)
        stop.set()
        assert not any(t.is_alive() for t in ts)
        assert not bad, bad[:5]
        assert p.closed


# ---- bad input ------------------------------------------------------------------


def test_wrong_dtype_is_type_error():
    for bad in (X.astype(np.float64), X.astype(">f4"), np.arange(10, dtype=np.int32)):
        with pytest.raises(TypeError, match="must be float32"):
            actk.gelu(bad)
    with pytest.raises(TypeError, match="dtype='bfloat16'"):
        actk.gelu(np.zeros(4, np.uint16))  # 16-bit patterns of which type?
    with pytest.raises(TypeError, match="bias must be float16"):
        actk.bias_gelu(X[:8].astype(np.float16), np.ones(8, np.float32))
    with pytest.raises(TypeError, match="out must be uint16"):
        actk.gelu(np.zeros(4, np.uint16), dtype="bfloat16", out=np.empty(4, np.float32))
    with pytest.raises(ValueError, match="dtype must be"):
        actk.gelu(X, dtype="float64")
    with pytest.raises(TypeError, match="fast must be"):
        actk.gelu(X, fast=1)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        actk.gelu([1.0, 2.0])
    with pytest.raises(TypeError, match="out must be float32"):
        actk.gelu(X, out=np.empty(X.shape, np.float64))
    with pytest.raises(TypeError, match="bias must be float32"):
        actk.bias_gelu(X[:8], np.ones(8))


def test_non_contiguous_is_value_error():
    with pytest.raises(ValueError, match="x is not C-contiguous"):
        actk.gelu(X[::2])
    with pytest.raises(ValueError, match="x is not C-contiguous"):
        actk.tanh(X[:600].reshape(20, 30).T)
    out = np.empty(2 * 100, np.float32)
    with pytest.raises(ValueError, match="out is not C-contiguous"):
        actk.gelu(X[:100], out=out[::2])
    with pytest.raises(ValueError, match="bias is not C-contiguous"):
        actk.bias_gelu(X[:8], np.ones(16, np.float32)[::2])
    unaligned = np.frombuffer(bytearray(4 * 11), dtype=np.float32, offset=1, count=10)
    with pytest.raises(ValueError, match="not aligned"):
        actk.gelu(unaligned)


def test_out_shape_and_read_only():
    with pytest.raises(ValueError, match="shape"):
        actk.gelu(X[:100], out=np.empty(99, np.float32))
    ro = np.zeros(100, np.float32)
    ro.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        actk.gelu(X[:100], out=ro)
    # a read-only input is fine (x is const)
    xr = X[:100].copy()
    xr.setflags(write=False)
    assert np.array_equal(fbits(actk.gelu(xr)), fbits(actk.gelu(X[:100])))


@pytest.mark.parametrize("name", list(OPS))
def test_overlapping_out_is_actk_error(name):
    fn, _ = OPS[name]
    buf = np.arange(200, dtype=np.float32)
    before = buf.copy()
    for shift in (1, 5, 63):
        with pytest.raises(actk.ActkError) as e:
            fn(buf[:100], out=buf[shift : shift + 100])
        assert e.value.name == "ACTK_ERR_OVERLAP"
        assert e.value.status == actk.Status.ACTK_ERR_OVERLAP
        assert e.value.message == actk.status_string(2)
        assert np.array_equal(buf, before), "an error wrote"
    # touching, not overlapping, is fine
    fn(buf[:100], out=buf[100:])


def test_bias_errors():
    x = np.linspace(-1, 1, 12, dtype=np.float32)
    out = np.full(12, 7.0, np.float32)
    with pytest.raises(actk.ActkError) as e:
        actk.bias_gelu(x, np.ones(5, np.float32), out=out)
    err = e.value
    assert err.name == "ACTK_ERR_WIDTH_MISMATCH" and err.status == 5
    assert err.message == actk.status_string(actk.Status.ACTK_ERR_WIDTH_MISMATCH)
    assert "ACTK_ERR_WIDTH_MISMATCH" in str(err) and err.function == "actk_bias_gelu_f32"
    assert isinstance(err, RuntimeError)
    with pytest.raises(actk.ActkError) as e:
        actk.bias_gelu_tanh(x, np.empty(0, np.float32), out=out)
    assert e.value.name == "ACTK_ERR_ZERO_WIDTH"
    # bias overlapping out
    buf = np.zeros(16, np.float32)
    with pytest.raises(actk.ActkError) as e:
        actk.bias_gelu(x, buf[:4], out=buf[2:14])
    assert e.value.name == "ACTK_ERR_OVERLAP"
    assert np.all(out == 7.0) and np.all(buf == 0.0)


# values a numeric parameter must refuse: text, flags, nothing, containers
NOT_REAL = ("1.5", b"1.5", None, True, np.bool_(True), 1.5j, np.array(1.5), [1.5])
NOT_INT = ("8", b"8", None, True, np.bool_(False), 8.0, np.float32(8), np.array(8), [8])


def test_real_parameters_are_real_numbers():
    x = X[:16]
    want = fbits(actk.swish(x, 1.5))
    for ok in (np.float32(1.5), np.float64(1.5), fractions.Fraction(3, 2)):
        assert np.array_equal(fbits(actk.swish(x, ok)), want), repr(ok)
    two = fbits(actk.swish(x, 2.0))
    for ok in (2, np.int32(2), np.int64(2), np.uint8(2)):
        assert np.array_equal(fbits(actk.swish(x, ok)), two), repr(ok)
    for t in (np.float16, np.float32):
        for fast in (False, True):
            for bad in NOT_REAL:
                with pytest.raises(TypeError, match="alpha must be a real number"):
                    actk.swish(x.astype(t), bad, fast=fast)
    cos, _ = actk.rope_cache(8, 8, np.float32(500))
    assert np.array_equal(cos, actk.rope_cache(8, 8, 500)[0])
    for bad in NOT_REAL:
        with pytest.raises(TypeError, match="theta must be a real number"):
            actk.rope_cache(8, 8, bad)


def test_integer_parameters_are_integers():
    x = np.ones((1, 4, 2, 8), np.float32)
    cos, sin = actk.rope_cache(np.int64(10), np.int32(8))
    want = fbits(actk.rope(x, cos, sin, start=1, rotary_dim=4 * 2))
    got = actk.rope(x, cos, sin, start=np.int64(1), rotary_dim=np.uint8(8))
    assert np.array_equal(fbits(got), want)
    x3 = x.reshape(1, 4, 16)
    got = actk.rope(x3, cos, sin, start=1, heads=np.int64(2))
    assert np.array_equal(fbits(got).ravel(), want.ravel())
    calls = {
        "max_position": lambda v: actk.rope_cache(v, 8),
        "rotary_dim": lambda v: actk.rope_cache(8, v),
        "start": lambda v: actk.rope(x, cos, sin, start=v),
        "rope rotary_dim": lambda v: actk.rope(x, cos, sin, rotary_dim=v),
        "heads": lambda v: actk.rope(x3, cos, sin, heads=v),
        "threads": lambda v: actk.Pool(threads=v),
        "spin_us": lambda v: actk.Pool(spin_us=v),
        "spin_backoff_max": lambda v: actk.Pool(spin_backoff_max=v),
        "isa": lambda v: actk.isa_supported(v),
        "status": lambda v: actk.status_string(v),
    }
    for what, call in calls.items():
        name = what.split()[-1]
        for bad in NOT_INT:
            if bad is None and name == "heads":
                continue  # heads=None: the default (from x's shape)
            if isinstance(bad, str) and name == "isa":
                continue  # an isa by name: "8" is an unknown one (ValueError)
            with pytest.raises(TypeError, match="%s must be a" % name):
                call(bad)
    for what, call in calls.items():
        if what in ("start", "isa", "status", "heads"):
            continue  # signed (start, isa, status) or checked against x (heads)
        with pytest.raises(ValueError, match=what.split()[-1]):
            call(-1)
    with pytest.raises(ValueError, match="heads"):
        actk.rope(x3, cos, sin, heads=-2)
    with pytest.raises(ValueError, match="start"):
        actk.rope(x, cos, sin, start=2**63)
    for bad in (1, 0, "yes", None, 1.0):
        with pytest.raises(TypeError, match="pin must be True or False"):
            actk.Pool(threads=1, pin=bad)
    with actk.Pool(threads=1, pin=np.bool_(False)) as p:
        assert p.threads == 1


# ---- per-call overhead ------------------------------------------------------------


def _python_calls(fn, *args, **kw):
    """The Python functions fn(*args, **kw) runs (fn itself first)."""
    seen = []

    def prof(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)

    sys.setprofile(prof)
    try:
        fn(*args, **kw)
    finally:
        sys.setprofile(None)
    return seen


def test_common_calls_make_no_python_calls():
    # the common call (a C-contiguous array of its type, out of its dtype and
    # shape or None, no pool) checks everything inline: no helper functions,
    # no numpy Python code (x.ctypes alone is microseconds); anything else
    # takes the general path and its messages (the tests above)
    if not actk._HOT:
        pytest.skip("no short way here (not CPython, or numpy's layout not found)")
    n = 16
    f32 = np.linspace(-4, 4, n, dtype=np.float32)
    cases = [(f32, {}), (f32.astype(np.float16), {}),
             ((f32.view(np.uint32) >> 16).astype(np.uint16), {"dtype": "bfloat16"})]
    for x, kw in cases:
        y = np.empty_like(x)
        for call in (
            lambda: (actk.gelu, (x,), dict(kw, out=y)),
            lambda: (actk.gelu, (x,), dict(kw, out=y, fast=True)),
            lambda: (actk.tanh, (x,), dict(kw, out=x.copy())),
            lambda: (actk.sigmoid, (x,), kw),
            lambda: (actk.swish, (x, 1.5), dict(kw, out=y)),
            lambda: (actk.bias_gelu, (x, x[:4].copy()), dict(kw, out=y)),
        ):
            fn, args, kws = call()
            calls = _python_calls(fn, *args, **kws)
            assert calls == [fn.__code__.co_name], (fn.__name__, x.dtype, sorted(kws), calls)
            # and the same bits as the general path (a subclass goes there)
            want = fn(args[0].view(_Sub), *args[1:], **dict(kws, out=None))
            got = fn(*args, **dict(kws, out=None))
            assert type(got) is np.ndarray and got.dtype == x.dtype and got.shape == x.shape
            assert got.tobytes() == want.tobytes(), fn.__name__


class _Sub(np.ndarray):
    pass


def test_short_way_edges():
    # what the short way hands to the checked path still works or fails as before
    x = np.linspace(-4, 4, 16, dtype=np.float32)
    want = fbits(actk.gelu(x))
    h = x.astype(np.float16)
    hw = actk.gelu(h)
    assert np.array_equal(actk.gelu(h, out=np.empty(16, np.uint16)), hw.view(np.uint16))
    assert np.array_equal(actk.gelu(h.view(np.uint16), dtype="float16"), hw.view(np.uint16))
    assert np.array_equal(actk.gelu(h.view(np.uint16), dtype=np.float16), hw.view(np.uint16))
    assert np.array_equal(fbits(actk.gelu(x, dtype="F32".lower())), want)
    meta = np.dtype(np.float32, metadata={"unit": "V"})
    assert np.array_equal(fbits(actk.gelu(x.astype(meta))), want)
    assert actk.gelu(np.full((), 0.5, np.float32)).shape == ()
    y = actk.gelu(x.reshape(2, 8), out=np.empty((2, 8), np.float32))
    assert np.array_equal(fbits(y).ravel(), want)
    with pytest.raises(ValueError, match="out has shape"):
        actk.gelu(x, out=np.empty((2, 8), np.float32))
    with pytest.raises(TypeError, match="out must be float32"):
        actk.gelu(x, out=np.empty(16, np.float16))
    with pytest.raises(TypeError, match="bias must be float32"):
        actk.bias_gelu(x, np.ones(4, np.float16))
    with pytest.raises(ValueError, match="bias is not C-contiguous"):
        actk.bias_gelu(x, np.ones(8, np.float32)[::2])
    with pytest.raises(actk.ActkError) as e:
        actk.bias_gelu(x, np.ones(5, np.float32))
    assert e.value.name == "ACTK_ERR_WIDTH_MISMATCH" and e.value.function == "actk_bias_gelu_f32"
    with pytest.raises(actk.ActkError) as e:
        actk.bias_gelu(x, np.ones(0, np.float32))
    assert e.value.name == "ACTK_ERR_ZERO_WIDTH"
    buf = np.zeros(40, np.float16)
    with pytest.raises(actk.ActkError) as e:
        actk.gelu(buf[:16], out=buf[3:19], fast=True)
    assert e.value.name == "ACTK_ERR_OVERLAP" and e.value.function == "actk_gelu_f16_fast"
    with pytest.raises(actk.ActkError) as e:
        actk.swish(buf[:16].view(np.uint16), 2.5, out=buf[1:17].view(np.uint16), dtype="bfloat16")
    assert e.value.function == "actk_swish_bf16"
    assert np.array_equal(fbits(actk.swish(x, 2)), fbits(actk.swish(x, 2.0)))
    with actk.Pool(threads=2) as p:  # a pool: the checked path
        assert np.array_equal(fbits(actk.gelu(x, pool=p)), want)


def test_data_pointers():
    # the binding reads an array's data pointer straight from the array
    # (actk._data); it must be numpy's, for every kind of array
    base = np.arange(64, dtype=np.float32)
    arrays = [base, base[3:], base[5:45].reshape(5, 8), base.view(np.uint32),
              np.empty((2, 3), np.float16), base.view(_Sub), np.empty(0, np.float32),
              np.frombuffer(bytearray(64), dtype=np.float32, offset=4, count=8)]
    ro = base.copy()
    ro.setflags(write=False)
    arrays.append(ro)
    for a in arrays:
        assert actk._data(a) == a.__array_interface__["data"][0], a


# ---- RoPE ------------------------------------------------------------------------


def fma_f32(a, b, c):
    """float32(a*b + c), rounded once (a, b, c float32): a*b is exact in
    double; TwoSum gives the exact a*b + c as s + e; rounding s to float is
    right unless s is exactly halfway between two floats and e != 0."""
    p = a.astype(np.float64) * b.astype(np.float64)
    c = c.astype(np.float64)
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    r = s.astype(np.float32)
    rd = r.astype(np.float64)
    lo = np.where(rd <= s, r, np.nextafter(r, F32(-np.inf)))
    hi = np.nextafter(lo, F32(np.inf))
    mid = (lo.astype(np.float64) + hi.astype(np.float64)) / 2
    tie = (s == mid) & (e != 0)
    return np.where(tie, np.where(e > 0, hi, lo), r)


def ref_rope(x, cos, sin, pos, layout, style, rd):
    """x: [B, S, H, D] or [B, H, S, D]; pos: [B, S] ints."""
    x = np.asarray(x, np.float32)
    xs = x if layout == "bshd" else x.transpose(0, 2, 1, 3)  # -> [B, S, H, D]
    half = rd // 2
    c = cos[pos][:, :, None, :]  # [B, S, 1, half]
    s = sin[pos][:, :, None, :]
    if style == "split_half":
        ia, ib = np.arange(half), np.arange(half) + half
    else:
        ia, ib = np.arange(0, rd, 2), np.arange(1, rd, 2)
    a, b = xs[..., ia], xs[..., ib]
    c, s = np.broadcast_to(c, a.shape), np.broadcast_to(s, a.shape)
    y = xs.copy()
    y[..., ia] = fma_f32(a, c, -(b * s))  # a c - fl(b s)
    y[..., ib] = fma_f32(b, c, a * s)  # b c + fl(a s)
    return y if layout == "bshd" else y.transpose(0, 2, 1, 3)


def test_fma_reference():
    a = np.array([1 + 2**-23, 1.0, 3.0], np.float32)
    b = np.array([1 - 2**-23, 1.0, 1 / 3], np.float32)
    c = np.array([-1.0, 2**-30, 0.0], np.float32)
    r = fma_f32(a, b, c)
    assert r[0] == np.float32(-(2.0**-46))  # a*b + c, no intermediate rounding
    assert r[1] == np.float32(1.0)
    assert r[2] == np.float32(np.float64(np.float32(3.0)) * np.float64(np.float32(1 / 3)))


def test_rope_cache():
    cos, sin = actk.rope_cache(64, 32, 10000.0)
    assert cos.shape == (64, 16) and sin.shape == (64, 16)
    for p in range(64):
        for j in range(16):
            ang = p * math.pow(10000.0, -(2.0 * j) / 32)
            assert cos[p, j] == np.float32(math.cos(ang)), (p, j)
            assert sin[p, j] == np.float32(math.sin(ang)), (p, j)
    c0, s0 = actk.rope_cache(64, 32, 0.0)  # theta 0 means 10000
    assert np.array_equal(c0, cos) and np.array_equal(s0, sin)
    with pytest.raises(actk.ActkError) as e:
        actk.rope_cache(8, 7)
    assert e.value.name == "ACTK_ERR_BAD_SHAPE"
    with pytest.raises(actk.ActkError) as e:
        actk.rope_cache(8, 8, -1.0)
    assert e.value.name == "ACTK_ERR_INVALID_ARGUMENT"


@pytest.mark.parametrize("style", ["split_half", "interleaved"])
@pytest.mark.parametrize("layout", ["bshd", "bhsd"])
@pytest.mark.parametrize("rd", [0, 32, 64, 6])
@pytest.mark.parametrize("use_ids", [False, True])
def test_rope(style, layout, rd, use_ids):
    B, S, H, D, P = 2, 11, 3, 64, 300
    rng = np.random.default_rng(rd * 4 + use_ids)
    shape = (B, S, H, D) if layout == "bshd" else (B, H, S, D)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    rot = rd or D
    cos, sin = actk.rope_cache(P, rot, 500.0)
    if use_ids:
        ids = rng.integers(0, P, size=(B, S), dtype=np.int64)
        y = actk.rope(x, cos, sin, positions=ids, layout=layout, style=style, rotary_dim=rd)
        pos = ids
    else:
        y = actk.rope(x, cos, sin, start=17, layout=layout, style=style, rotary_dim=rd)
        pos = np.broadcast_to(np.arange(17, 17 + S), (B, S))
    want = ref_rope(x, cos, sin, pos, layout, style, rot)
    assert np.array_equal(fbits(y), fbits(want)), np.argwhere(fbits(y) != fbits(want))[:5]
    # channels past rotary_dim copied bit for bit
    assert np.array_equal(fbits(y[..., rot:]), fbits(x[..., rot:]))
    # in place, every isa, the enum spellings
    z = x.copy()
    actk.rope(z, cos, sin, positions=pos.copy() if use_ids else None, start=0 if use_ids else 17,
              layout=actk.Layout[layout.upper()], style=actk.Style[style.upper()],
              rotary_dim=rd, out=z)
    assert np.array_equal(fbits(z), fbits(want))


def test_rope_every_isa(restore_isa):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((1, 37, 5, 80)) * 2).astype(np.float32)
    cos, sin = actk.rope_cache(64, 80)
    for style in ("split_half", "interleaved"):
        want = ref_rope(x, cos, sin, np.arange(37)[None, :], "bshd", style, 80)
        for isa in actk.supported_isas():
            actk.force_isa(isa)
            y = actk.rope(x, cos, sin, style=style)
            assert np.array_equal(fbits(y), fbits(want)), (style, isa)


def test_rope_nan_is_canonical(restore_isa):
    # the header: a rotated channel with a NaN among its inputs is 0x7fc00000;
    # channels past rotary_dim are copied (NaN bits kept)
    x = np.ones((1, 1, 1, 8), np.float32)
    x[0, 0, 0, 1] = bits([0xFFC12345])[0]  # pairs with channel 3 (split-half, rotary 4)
    x[0, 0, 0, 6] = bits([0x7F812345])[0]  # copied
    cos, sin = actk.rope_cache(2, 4)
    want = fbits(ref_rope(x, cos, sin, np.array([[1]]), "bshd", "split_half", 4)).reshape(-1)
    for isa in actk.supported_isas():
        actk.force_isa(isa)
        u = fbits(actk.rope(x, cos, sin, start=1, rotary_dim=4)).reshape(-1)
        assert u[1] == 0x7FC00000 and u[3] == 0x7FC00000, (isa, [hex(v) for v in u])
        assert u[6] == 0x7F812345, isa
        ok = [0, 2, 4, 5, 7]
        assert np.array_equal(u[ok], want[ok]), isa


def test_rope_3d_with_heads():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 7, 4 * 16)).astype(np.float32)
    cos, sin = actk.rope_cache(16, 16)
    y = actk.rope(x, cos, sin, heads=4)
    y4 = actk.rope(x.reshape(2, 7, 4, 16), cos, sin)
    assert y.shape == x.shape and np.array_equal(fbits(y).reshape(-1), fbits(y4).reshape(-1))
    with pytest.raises(ValueError, match="multiple of heads"):
        actk.rope(x, cos, sin, heads=5)
    with pytest.raises(ValueError, match="got shape"):
        actk.rope(x, cos, sin)


def test_rope_errors():
    x = np.ones((1, 4, 2, 8), np.float32)
    cos, sin = actk.rope_cache(10, 8)
    out = np.full_like(x, 3.0)
    ids = np.array([[0, 1, 10, 2]], np.int64)
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, cos, sin, positions=ids, out=out)
    assert e.value.name == "ACTK_ERR_OUT_OF_RANGE"
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, cos, sin, start=7, out=out)  # positions 7..10
    assert e.value.name == "ACTK_ERR_OUT_OF_RANGE"
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, cos, sin, start=-1, out=out)
    assert e.value.name == "ACTK_ERR_OUT_OF_RANGE"
    c3, s3 = np.ones((10, 3), np.float32), np.ones((10, 3), np.float32)
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, c3, s3, rotary_dim=7, out=out)
    assert e.value.name == "ACTK_ERR_BAD_SHAPE"
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, cos, sin, layout=2, out=out)
    assert e.value.name == "ACTK_ERR_INVALID_ARGUMENT"
    with pytest.raises(actk.ActkError) as e:
        actk.rope(x, cos, sin, style=5, out=out)
    assert e.value.name == "ACTK_ERR_INVALID_ARGUMENT"
    buf = np.zeros(2 * x.size, np.float32)
    xa = buf[: x.size].reshape(x.shape)
    with pytest.raises(actk.ActkError) as e:
        actk.rope(xa, cos, sin, out=buf[3 : 3 + x.size].reshape(x.shape))
    assert e.value.name == "ACTK_ERR_OVERLAP"
    assert np.all(out == 3.0) and np.all(buf == 0.0), "an error wrote"
    # checks in the binding (the C API cannot see them)
    with pytest.raises(ValueError, match="columns"):
        actk.rope(x, cos, sin, rotary_dim=4)
    with pytest.raises(ValueError, match="cos and sin"):
        actk.rope(x, cos, np.ones((10, 2), np.float32))
    with pytest.raises(TypeError, match="positions must be int64"):
        actk.rope(x, cos, sin, positions=ids.astype(np.int32))
    with pytest.raises(ValueError, match="positions must be"):
        actk.rope(x, cos, sin, positions=np.zeros((2, 4), np.int64))
    with pytest.raises(ValueError, match="unknown layout"):
        actk.rope(x, cos, sin, layout="sbhd")
    with pytest.raises(TypeError, match="cos must be float32"):
        actk.rope(x, cos.astype(np.float64), sin)


# ---- tiers and 16-bit types -------------------------------------------------


def _rel_err(y, r):
    r = np.asarray(r, np.float64)
    return np.abs(y.astype(np.float64) - r) / np.maximum(np.abs(r), 2.0**-126)


def test_fast_tier_keyword():
    """fast=True calls the fast tier: within its 2^-18 relative bound of the
    double reference, the same special values, and a different function
    from the accurate one (their bits differ somewhere)."""
    x = np.linspace(-12, 12, 100001, dtype=np.float32)
    for op, ref in (("gelu", ref_gelu), ("tanh", ref_tanh), ("sigmoid", ref_sigmoid)):
        f = getattr(actk, op)
        yf, ya = f(x, fast=True), f(x)
        r = ref(x.astype(np.float64))
        assert _rel_err(yf, r).max() <= 2.0**-18, op
        assert not np.array_equal(yf.view(np.uint32), ya.view(np.uint32)), op
        # in place and out= take the same path
        z = x.copy()
        f(z, out=z, fast=True)
        assert np.array_equal(z.view(np.uint32), yf.view(np.uint32)), op
    assert np.array_equal(actk.swish(x, 1.702, fast=True), actk.quick_gelu(x, fast=True))


def _f16_all():
    return np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)


def test_float16_all_inputs_faithful():
    """np.float16 in, np.float16 out: every one of the 65536 inputs within one
    f16 ULP of the double reference (the C tests check faithfulness exactly;
    this checks the binding passes the right type), NaN in -> NaN out."""
    x = _f16_all()
    xd = x.astype(np.float64)
    for fast in (False, True):
        y = actk.gelu(x, fast=fast)
        assert y.dtype == np.float16 and y.shape == x.shape
        finite = np.isfinite(xd)
        r = ref_gelu(xd[finite])  # (NaN inputs left out: a cast of one warns)
        # one ULP of the reference's binade (2^-24 below the normal range)
        ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(r), 2.0**-14))) - 10)
        assert np.all(np.abs(y[finite].astype(np.float64) - r) <= ulp)
        assert np.all(np.isnan(y[np.isnan(xd)]))


def _bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def test_bfloat16_as_uint16_all_inputs():
    """bfloat16 as uint16 patterns with dtype='bfloat16': uint16 out, every
    input within one bf16 ULP of the reference; the same bits as a float32
    call rounded once where the f32 result is exact in bf16 (+-0, +-1)."""
    x = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    xf = _bf16_value(x)
    for fast in (False, True):
        y = actk.sigmoid(x, dtype="bfloat16", fast=fast)
        assert y.dtype == np.uint16
        yf = _bf16_value(y).astype(np.float64)
        ok = np.isfinite(xf)
        r = ref_sigmoid(xf[ok].astype(np.float64))  # (NaN inputs left out: a cast warns)
        ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(r), 2.0**-126))) - 7)
        assert np.all(np.abs(yf[ok] - r) <= ulp)
    # NaN in, the same NaN quieted (x | 0x0040)
    nan_in = x[(x & 0x7FFF) > 0x7F80]
    assert np.array_equal(actk.erf(nan_in, dtype="bfloat16"), nan_in | 0x0040)
    # bias in the same type, in place
    b = np.arange(8, dtype=np.uint16) + 0x3F80
    z = x[:4096].copy()
    actk.bias_gelu(z, b, out=z, dtype="bfloat16")
    assert np.array_equal(z, actk.bias_gelu(x[:4096], b, dtype="bfloat16"))


def test_rope_bfloat16():
    """RoPE in bf16 (f32 caches) equals the f32 RoPE of the same values,
    rounded once, to within one bf16 ULP."""
    cos, sin = actk.rope_cache(64, 16)
    rng = np.random.default_rng(7)
    xf = rng.standard_normal((2, 5, 3, 16)).astype(np.float32)
    xb = (xf.view(np.uint32) >> 16).astype(np.uint16)  # truncated: exact bf16 values
    yb = actk.rope(xb, cos, sin, start=3, dtype="bfloat16")
    yf = actk.rope(_bf16_value(xb), cos, sin, start=3)
    got = _bf16_value(yb).astype(np.float64)
    ulp = 2.0 ** (np.floor(np.log2(np.maximum(np.abs(yf), 2.0**-126))) - 7)
    assert yb.dtype == np.uint16 and np.all(np.abs(got - yf) <= ulp)
