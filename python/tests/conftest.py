"""Makes python/actk importable without installing it. The library is found
as actk/__init__.py says (ACTK_LIBRARY, then build*/libactk.so, then
ctypes.util.find_library).

ACTK_TEST_INSTALLED=1: test the installed actk instead (a pip install in a
venv, the tests run from outside the repository: .ci/run python)."""
import os
import sys

if os.environ.get("ACTK_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
