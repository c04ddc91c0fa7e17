"""tools/gen_ops.py's PyTorch writer (the OPS schemas of python/actk/_torch_modules.py):
every shape it knows gives the three forms (two for packed), and an unknown shape
stops it."""
import importlib.util
import os
import types

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def gen():
    spec = importlib.util.spec_from_file_location("gen_ops", os.path.join(REPO, "tools", "gen_ops.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def table(*ops):
    return types.SimpleNamespace(
        types=[{"name": "f32", "ctype": "float"}, {"name": "bf16", "ctype": "actk_bf16"}],
        tiers=[{"name": "accurate", "suffix": ""}, {"name": "fast", "suffix": "_fast"}],
        ops=[dict(o) for o in ops])


def test_coming_shapes_are_one_entry_each():
    g = gen()
    text = "\n".join(g.torch_schemas(table({"name": "swiglu", "shape": "gated"},
                                           {"name": "elu", "shape": "param",
                                            "param": {"name": "alpha", "value": "1.0f"}})))
    assert '"swiglu(Tensor gate, Tensor up, bool fast=False) -> Tensor",' in text
    assert '"swiglu_(Tensor(a!) gate, Tensor up, bool fast=False) -> ()",' in text
    # a gated op brings its packed form, which has no in-place one (y is half of x)
    assert '"swiglu_packed(Tensor x, bool fast=False) -> Tensor",' in text
    assert "swiglu_packed_(" not in text
    assert ('"swiglu_packed.out(Tensor x, bool fast=False, *, Tensor(a!) out) -> ()")'
            in text)
    assert '"elu(Tensor x, float alpha=1.0, bool fast=False) -> Tensor",' in text


def test_unknown_shape_fails_loudly():
    g = gen()
    with pytest.raises(SystemExit, match="no PyTorch binding"):
        g.torch_schemas(table({"name": "x", "shape": "ternary"}))


def test_generated_file_is_fresh():
    g = gen()
    t = g.Table(os.path.join(REPO, "src", "ops.toml"))
    with open(os.path.join(REPO, "python", "actk", "_torch_modules.py")) as f:
        assert f.read() == g.gen_torch_modules(t)
