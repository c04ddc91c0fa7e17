#!/usr/bin/env bash
# ONNX Runtime's CPU kernels (MLAS) per element, one thread: the MLAS column
# next to actk_ratio's, measured apart (ONNX Runtime is not a C++ dependency
# of the bench; this is not built by CMake).
#
#   bench/mlas/run.sh [--quick] [--ops a,b,c]
#
# 1. installs npm's onnxruntime-node (it carries ONNX Runtime's CPU library)
#    into $ACTK_MLAS_DIR/node_modules (default: build/mlas in the repository;
#    nothing is written outside that directory), once. --ignore-scripts: the
#    package's postinstall only fetches optional GPU binaries from
#    api.nuget.org; the CPU library is in the npm tarball itself.
#    ACTK_ORT_VERSION picks the version (default 1.30.0, what the numbers in
#    the commit that added this were measured with).
# 2. writes one-node and 32-node chain models with make_models.py into
#    $ACTK_MLAS_DIR/models (a Python with the onnx package: $PYTHON, else
#    Debian's /usr/bin/python3 with python3-onnx, else python3)
# 3. runs run.js: ns/element per node at 64 Ki and 4 Mi for every op (see its
#    header for the method and the columns)
#
# Needs node and npm (Debian: nodejs npm) and npm registry access for step 1.
set -euo pipefail
here=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${ACTK_MLAS_DIR:-$repo/build/mlas}
version=${ACTK_ORT_VERSION:-1.30.0}

say() { printf 'mlas: %s\n' "$*" >&2; }

for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { say "error: $tool not found (apt install nodejs npm)"; exit 1; }
done
python=""
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
  [[ -n "$p" ]] || continue
  if "$p" -c 'import onnx' >/dev/null 2>&1; then python=$p; break; fi
done
[[ -n "$python" ]] || { say "error: no python with the onnx package (apt install python3-onnx)"; exit 1; }

mkdir -p "$dir"
installed=$(node -e "try { console.log(require('$dir/node_modules/onnxruntime-node/package.json').version) } catch (e) {}")
if [[ "$installed" != "$version" ]]; then
  say "installing onnxruntime-node@$version into $dir (npm --ignore-scripts)"
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "onnxruntime-node@$version" >&2
fi
"$python" "$here/make_models.py" "$dir/models" >&2
NODE_PATH="$dir/node_modules" exec node "$here/run.js" "$dir/models" "$@"
