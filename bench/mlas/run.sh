#!/usr/bin/env bash
# ONNX Runtime's CPU kernels (MLAS) per element, one thread, beside actk's two
# tiers in the same run (bench/mlas/run.py: the method and the columns).
#
#   bench/mlas/run.sh [--quick] [--ops a,b,c] [--isa NAME] [--actk-lib PATH]
#
# Installs the PyPI peers once (bench/setup-peers.sh: its venv under
# ~/.cache/actk-peers, Debian's /usr/bin/python3 -m venv) and runs run.py with
# that venv's python; actk is build/libactk.so (or ACTK_LIBRARY, or
# --actk-lib). Needs PyPI the first time.
set -euo pipefail
here=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=$("$here/../setup-peers.sh" --print-python)
exec "$python" "$here/run.py" "$@"
