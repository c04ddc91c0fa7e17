"""README.md's (and docs/*.md's) ```python blocks, run as written: the
examples cannot drift from the binding (.ci/readme_snippets.py sends them here)."""
import glob
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
README = os.path.join(ROOT, "README.md")


def _blocks(pages=None):
    found = []
    for page in pages or [README] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        if os.path.exists(page):
            with open(page, encoding="utf-8") as f:
                found += re.findall(r"^```python\n(.*?)^```", f.read(), flags=re.S | re.M)
    return found


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
    assert len(_blocks([README])) >= 2
