"""torch (>= 2.4) and actk.torch for the torch tests: `from torch_or_skip import torch, at`.
Without them the importing test module is skipped, or fails where ACTK_REQUIRE_TORCH=1 (CI)."""
import os

import pytest

try:
    import torch  # noqa: F401
    import actk.torch as at  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the machine
    if os.environ.get("ACTK_REQUIRE_TORCH") == "1":
        raise
    pytest.skip("torch >= 2.4 not available: %s" % e, allow_module_level=True)
