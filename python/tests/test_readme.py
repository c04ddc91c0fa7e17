"""README.md's ```python blocks, run as written: the examples cannot drift
from the binding (.ci/readme_snippets.py sends them here)."""
import os
import re

import pytest

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")


def _blocks():
    if not os.path.exists(README):
        return []
    with open(README, encoding="utf-8") as f:
        return re.findall(r"^```python\n(.*?)^```", f.read(), flags=re.S | re.M)


@pytest.mark.parametrize("i", range(len(_blocks())))
def test_readme_python_block(i):
    code = _blocks()[i]
    if "actk.torch" in code:
        pytest.importorskip("torch")
        pytest.importorskip("torchvision")
        try:
            import actk.torch  # noqa: F401
        except ImportError as e:  # the source tree without a built extension
            pytest.skip(str(e))
    exec(compile(code, "README.md python block %d" % i, "exec"), {})


def test_readme_has_python_blocks():
    if not os.path.exists(README):
        pytest.skip("README.md not beside the tests")
    assert len(_blocks()) >= 2
