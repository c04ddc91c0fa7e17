"""The installed package (ACTK_TEST_INSTALLED=1, after pip install): it is the
venv's copy, self-contained, and carries the library's version."""
import os
import re
import shutil
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


def _header_version(path):
    with open(path) as f:
        text = f.read()
    return ".".join(re.search(r"#define ACTK_VERSION_%s (\d+)" % k, text).group(1)
                    for k in ("MAJOR", "MINOR", "PATCH"))


def test_pyproject_reads_the_headers_version():
    # pyproject.toml's version tables (the repository's and the sdist's) give
    # include/actk.h's version, as CMake reads it; the build also stops on a
    # mismatch (python/CMakeLists.txt)
    tomllib = pytest.importorskip("tomllib")
    path = os.path.join(REPO, "python", "pyproject.toml")
    if not os.path.exists(path):
        pytest.skip("no source tree beside the tests")
    with open(path, "rb") as f:
        tool = tomllib.load(f)["tool"]["scikit-build"]
    tables = [tool["metadata"]["version"]] + [o["metadata"]["version"] for o in tool["overrides"]]
    assert len(tables) == 2
    want = _header_version(os.path.join(REPO, "include", "actk.h"))
    for table in tables:
        assert table["provider"] == "scikit_build_core.metadata.regex"
        # the sdist's libactk/ is the repository's root
        header = os.path.normpath(os.path.join(
            REPO, "python", table["input"].replace("libactk/", "../")))
        assert header == os.path.join(REPO, "include", "actk.h"), table["input"]
        with open(header) as f:
            got = table["result"].format(**re.search(table["regex"], f.read()).groupdict())
        assert got == want, table


@installed
def test_the_packaged_library_needs_only_libc():
    # self-contained: nothing past libc, libm, libpthread and the loader
    readelf = shutil.which("readelf")
    if not sys.platform.startswith("linux") or readelf is None:
        pytest.skip("readelf on Linux")
    out = subprocess.run([readelf, "-d", actk.library_path()], capture_output=True, text=True,
                         check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)
    assert "libc.so.6" in needed, out
    extra = [n for n in needed if n not in ("libc.so.6", "libm.so.6", "libpthread.so.0")
             and not n.startswith("ld-linux")]
    assert not extra, needed


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
