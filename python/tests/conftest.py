"""Makes python/actk importable without installing it. The library is found
as actk/__init__.py says (ACTK_LIBRARY, then build*/libactk.so, then
ctypes.util.find_library)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
