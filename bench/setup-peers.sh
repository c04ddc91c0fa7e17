#!/usr/bin/env bash
# Installs and builds the bench's peers from PyPI, pinned, once; none of their
# code is committed and nothing is written outside the cache directory:
#   oneDNN 3      onednn-devel (headers, libdnnl) and the runtime it loads:
#                 TBB, the SYCL runtime and the OpenCL CPU runtime (PyPI's
#                 oneDNN is a SYCL build: its CPU engine is an OpenCL CPU device)
#   ggml          llama-cpp-python's source distribution (pip download), whose
#                 vendor/llama.cpp/ggml is built here, CPU backend only, twice:
#                 -march=native and AVX2 + FMA + F16C (cmake, the C/C++ compiler)
#   torch         the torch wheel without its CUDA dependencies but the two
#                 libraries libtorch_cpu.so loads (CUDA runtime, CUPTI): the
#                 bench calls ATen from C++, nothing imports torch
#   onnxruntime   ONNX Runtime (MLAS) and onnx, numpy: bench/mlas/run.py
#
#   bench/setup-peers.sh [--print-python]
#
# Then configure the bench (cmake finds the peers in the same directory) and
# run bench/peers.sh. The directory: $ACTK_PEERS_DIR, default
# ${XDG_CACHE_HOME:-~/.cache}/actk-peers (cmake's ACTK_PEERS_DIR has the same
# default); the venv is made there by Debian's /usr/bin/python3 -m venv (3.11
# on Debian 12; python3 on PATH where there is none). Reruns install and build
# only what is missing or pinned differently, and print the time taken and the
# disk used. --print-python prints the venv's python (after installing).
set -euo pipefail
dir=${ACTK_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/actk-peers}
venv=$dir/venv
start=$(date +%s)

# The pins: what docs/performance.md's numbers were measured with.
# with_deps: installed with their dependencies; pins: without (--no-deps).
with_deps=("onnxruntime==${ACTK_ORT_VERSION:-1.31.1}" "onnx==1.20.1" "numpy==2.4.6")
pins=(
  # oneDNN 3.13.2 and the runtime libdnnl.so needs, without the rest of
  # onednn's dependency tree (dpcpp-cpp-rt, intel-openmp ...: not loaded)
  "onednn-devel==2026.1.0" "onednn==2026.1.0" "tbb==2023.2.0" "tbb-devel==2023.2.0"
  "intel-sycl-rt==2026.2.0" "intel-cmplr-lib-rt==2026.2.0" "intel-cmplr-lib-ur==2026.2.0"
  "intel-opencl-rt==2026.2.0" "umf==1.2.0" "tcmlib==1.6.0"
  "torch==2.15.0" "nvidia-cuda-runtime==13.2.86" "nvidia-cuda-cupti==13.2.86"
)
llama=0.3.36 # llama-cpp-python: the ggml it vendors

say() { printf 'setup-peers: %s\n' "$*" >&2; }

base=/usr/bin/python3
[[ -x $base ]] || base=$(command -v python3)
if [[ ! -x $venv/bin/python ]]; then
  say "creating $venv with $base ($("$base" --version 2>&1))"
  mkdir -p "$dir"
  "$base" -m venv "$venv"
fi
have=$("$venv/bin/python" -m pip list --disable-pip-version-check --format=freeze 2>/dev/null |
  tr 'A-Z_' 'a-z-')
# pip_missing [--no-deps] PINS...: installs the pins not installed at that version
pip_missing() {
  local opt=() p missing=()
  [[ $1 == --no-deps ]] && opt=(--no-deps) && shift
  for p in "$@"; do
    grep -qx -- "$(tr 'A-Z_' 'a-z-' <<<"$p")" <<<"$have" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  say "pip install ${opt[*]} ${missing[*]}"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q "${opt[@]}" \
    "${missing[@]}" >&2
}
pip_missing "${with_deps[@]}"
pip_missing --no-deps "${pins[@]}"

# ggml: the sdist's sources, then one build per variant.
src=$dir/src/llama_cpp_python-$llama
if [[ ! -d $src/vendor/llama.cpp/ggml ]]; then
  say "pip download llama-cpp-python==$llama (source distribution)"
  mkdir -p "$dir/dl" "$dir/src"
  "$venv/bin/python" -m pip download --disable-pip-version-check -q --no-deps \
    --no-binary llama-cpp-python -d "$dir/dl" "llama-cpp-python==$llama" >&2
  tar -xzf "$dir/dl/llama_cpp_python-$llama.tar.gz" -C "$dir/src"
  # the sdist leaves out ggml's pkg-config template, which its CMakeLists reads
  touch "$src/vendor/llama.cpp/ggml/ggml.pc.in"
fi
ln -sfn "$src/vendor/llama.cpp/ggml" "$dir/ggml-src"
declare -A ggml_flags=(
  [native]="-DGGML_NATIVE=ON"
  [avx2]="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
)
for v in native avx2; do
  b=$dir/ggml-build-$v
  [[ -f $b/src/libggml-cpu.so && $(cat "$b/.actk-llama" 2>/dev/null) == "$llama" ]] && continue
  say "building ggml ($v) into $b (log: $b.log)"
  # shellcheck disable=SC2086 # the flags are words
  if ! { cmake -S "$dir/ggml-src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DGGML_OPENMP=OFF -DGGML_BACKEND_DL=OFF -DGGML_CPU=ON -DGGML_BUILD_TESTS=OFF \
    -DGGML_BUILD_EXAMPLES=OFF ${ggml_flags[$v]} &&
    cmake --build "$b" -j"$(nproc)" --target ggml-cpu; } >"$b.log" 2>&1; then
    tail -20 "$b.log" >&2
    say "error: the ggml build failed (see $b.log)"
    exit 1
  fi
  echo "$llama" >"$b/.actk-llama"
done

if [[ ${1:-} == --print-python ]]; then
  echo "$venv/bin/python"
else
  say "ready in $(($(date +%s) - start)) s: $dir ($(du -sh "$dir" | cut -f1); venv $(du -sh "$venv" | cut -f1))"
fi
