#!/usr/bin/env bash
# Installs the bench's PyPI peers into one virtual environment, pinned, once:
# ONNX Runtime (MLAS, for bench/mlas/run.py) and onnx (to write its models);
# later oneDNN 3 (onednn-devel), ggml and torch go here too. None of their code
# is committed; nothing is written outside the venv's directory.
#
#   bench/setup-peers.sh [--print-python]
#
# The venv: $ACTK_PEERS_DIR/venv (default build/peers/venv in the repository),
# made by Debian's /usr/bin/python3 -m venv (Debian 12: 3.11; falls back to
# python3 on PATH where there is no /usr/bin/python3). Reruns only install what
# is missing or pinned differently. --print-python prints the venv's python
# (after installing) for scripts: python=$(bench/setup-peers.sh --print-python).
# Needs PyPI (pip) the first time; about 90 MB of wheels.
set -euo pipefail
here=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
dir=${ACTK_PEERS_DIR:-$repo/build/peers}
venv=$dir/venv

# The pins: what the numbers in docs/performance.md were measured with.
pins=(
  "onnxruntime==${ACTK_ORT_VERSION:-1.31.1}"
  "onnx==1.20.1"
)

say() { printf 'setup-peers: %s\n' "$*" >&2; }

base=/usr/bin/python3
[[ -x $base ]] || base=$(command -v python3)
if [[ ! -x $venv/bin/python ]]; then
  say "creating $venv with $base ($("$base" --version 2>&1))"
  mkdir -p "$dir"
  "$base" -m venv "$venv"
fi
missing=()
for p in "${pins[@]}"; do
  name=${p%%==*} want=${p##*==}
  have=$("$venv/bin/python" -m pip show "$name" 2>/dev/null | sed -n 's/^Version: //p' || true) 
  [[ $have == "$want" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  say "pip install ${missing[*]}"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q "${missing[@]}" >&2
fi
if [[ ${1:-} == --print-python ]]; then
  echo "$venv/bin/python"
else
  say "ready: $venv ($(du -sh "$venv" | cut -f1))"
fi
