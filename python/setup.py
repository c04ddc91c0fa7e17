"""Builds and installs actk for Python: the ctypes binding (actk/), the
library itself (libactk.so, built here with the repository's CMakeLists.txt
and put inside the package) and the PyTorch ops (actk/torch.py: pure Python
over torch.library, nothing built against torch).

    pip install --no-build-isolation ./python     # from the repository root
    pip wheel --no-build-isolation ./python       # a wheel for machines like this one

--no-build-isolation: the build uses the setuptools and wheel already
installed (Debian's), so it works offline. The source tree (python/ and the
repository above it) must be present: python/ alone is not a source package.

Environment: ACTK_CMAKE_ARGS (extra CMake arguments, split on spaces).
"""
import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _header_version():
    # The version lives in include/actk.h only (CMakeLists.txt reads it there too).
    with open(os.path.join(ROOT, "include", "actk.h")) as f:
        text = f.read()
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(r"^#define ACTK_VERSION_%s (\d+)$" % part, text, re.M)
        if not m:
            sys.exit("setup.py: ACTK_VERSION_%s not found in include/actk.h" % part)
        parts.append(m.group(1))
    return ".".join(parts)


VERSION = _header_version()
MAJOR = VERSION.split(".")[0]
# The file name the dynamic linker looks for (the library's SONAME): the torch
# extension records it, and actk/__init__.py loads it from the package.
SONAME = "libactk.so.%s" % MAJOR


def _cmake_library(build_temp):
    """Configures and builds only the library target; returns its path."""
    out = os.path.join(os.path.abspath(build_temp), "libactk-cmake")
    lib = os.path.join(out, "libactk.so")
    if os.path.exists(lib) and getattr(_cmake_library, "done", False):
        return lib
    args = [
        "cmake", "-S", ROOT, "-B", out, "-DCMAKE_BUILD_TYPE=Release",
        "-DACTK_BUILD_TESTS=OFF", "-DACTK_BUILD_BENCH=OFF", "-DACTK_BUILD_TOOLS=OFF",
        "-DACTK_INSTALL=OFF",
        # self-contained: no libcpuid to need at run time (dispatch reads CPUID itself)
        "-DACTK_WITH_LIBCPUID=OFF",
    ] + os.environ.get("ACTK_CMAKE_ARGS", "").split()
    subprocess.check_call(args)
    subprocess.check_call(["cmake", "--build", out, "--target", "actk", "-j%d" % (os.cpu_count() or 2)])
    _cmake_library.done = True
    return lib


class BuildPy(build_py):
    def run(self):
        super().run()
        lib = _cmake_library(self.get_finalized_command("build_ext").build_temp)
        dest = os.path.join(self.build_lib, "actk")
        os.makedirs(dest, exist_ok=True)
        # one file, under its SONAME (the real file, not the symlink chain)
        shutil.copyfile(os.path.realpath(lib), os.path.join(dest, SONAME))
        # an earlier build's torch extension (before actk.torch became pure
        # Python) in the in-tree build/ would otherwise be installed with this one
        for stale in glob.glob(os.path.join(dest, "_actk_torch*.so")):
            os.remove(stale)


class BinaryDistribution(Distribution):
    # libactk.so is inside: the wheel is for this platform
    def has_ext_modules(self):
        return True


cmdclass = {"build_ext": build_ext}
cmdclass["build_py"] = BuildPy

setup(
    name="actk",
    version=VERSION,
    description="Elementwise activation kernels for ML inference (numpy and PyTorch)",
    license="MIT",
    packages=["actk"],
    package_dir={"actk": "actk"},
    python_requires=">=3.8",
    install_requires=["numpy"],
    cmdclass=cmdclass,
    distclass=BinaryDistribution,
    zip_safe=False,
)
