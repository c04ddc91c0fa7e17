"""The installed package (ACTK_TEST_INSTALLED=1, after pip install): it is the
venv's copy, self-contained, and carries the library's version."""
import os
import re
import subprocess
import sys

import pytest

import actk

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
installed = pytest.mark.skipif(
    os.environ.get("ACTK_TEST_INSTALLED") != "1", reason="ACTK_TEST_INSTALLED=1 tests a pip install"
)


@installed
def test_imported_from_the_install_not_the_repo():
    here = os.path.dirname(os.path.abspath(actk.__file__))
    assert here != os.path.join(REPO, "python", "actk"), here  # not the source tree's
    assert os.path.basename(os.path.dirname(here)) == "site-packages", here


@installed
def test_the_library_is_the_packaged_one():
    here = os.path.dirname(os.path.abspath(actk.__file__))
    assert "ACTK_LIBRARY" not in os.environ
    assert os.path.dirname(os.path.abspath(actk.library_path())) == here


def test_version_is_the_headers():
    with open(os.path.join(REPO, "include", "actk.h")) as f:
        text = f.read()
    want = ".".join(re.search(r"#define ACTK_VERSION_%s (\d+)" % k, text).group(1)
                    for k in ("MAJOR", "MINOR", "PATCH"))
    assert actk.version() == want


@installed
def test_distribution_version_is_the_libraries():
    from importlib.metadata import version

    assert version("actk") == actk.version()


@installed
def test_python_m_actk_prints_the_summary():
    out = subprocess.run([sys.executable, "-m", "actk"], capture_output=True, text=True,
                         check=True, cwd="/").stdout
    assert "active isa: %s" % actk.isa() in out
    assert "accuracy" in out and "speed" in out
    # the accurate tier's grid check stays inside its 2-ulp bound
    accuracy = out.split("accuracy")[1].split("speed")[0]
    for line in accuracy.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "accurate":
            assert float(parts[2]) <= 2.0, line


def test_import_actk_works_without_torch():
    # torch made unimportable: the numpy binding works, actk.torch says why not
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import numpy, actk\n"
        "assert actk.gelu(numpy.zeros(4, numpy.float32))[0] == 0\n"
        "try:\n    import actk.torch\nexcept ImportError as e:\n    print('ImportError', e)\n"
    )
    env = dict(os.environ)
    if os.environ.get("ACTK_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = os.path.join(REPO, "python")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd="/")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ImportError"), out.stdout
