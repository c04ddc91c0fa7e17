#!/usr/bin/env bash
# actk against every peer, one command: the table docs/performance.md shows.
#
#   bench/peers.sh [--build DIR] [--quick] [--cpu N] [actk_ratio options...]
#
# Runs, one at a time under flock /tmp/actk-bench.lock, pinned to CPU N
# (taskset -c N, default 1) at real-time priority (chrt -f 10; without root,
# normal priority and a note):
#   1. DIR/bench/actk_ratio: per op, actk accurate and fast and every peer built
#      into it (Eigen, SLEEF, XNNPACK from Debian; oneDNN 3, ggml native and
#      AVX2, torch from bench/setup-peers.sh), ns/element, fast / the fastest
#      peer, 64 Ki and 4 Mi, interleaved, medians, the memcpy column as control;
#      peers with a fixed cost per call have it subtracted (actk_ratio's notes)
#   2. bench/mlas/run.py: ONNX Runtime's MLAS per node of a 32-node chain, with
#      actk's two tiers in the same process (its own same-run ratio)
# Pass actk_ratio's options after ours (--isa avx2, --ops ..., --repeats 31).
# DIR defaults to build; configure it after bench/setup-peers.sh so that cmake
# finds the peers. The machine, date and versions are printed first.
set -euo pipefail
here=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../build cpu=1 quick=()
while (($#)); do
  case $1 in
  --build) build=$2 && shift ;;
  --cpu) cpu=$2 && shift ;;
  --quick) quick=(--quick) ;;
  *) break ;;
  esac
  shift
done
ratio=$build/bench/actk_ratio
[[ -x $ratio ]] || { echo "peers.sh: no $ratio (build the bench first)" >&2; exit 2; }
rt=(chrt -f 10)
"${rt[@]}" true 2>/dev/null || { rt=(); echo "note: chrt -f 10 refused: normal priority"; }
run() { flock /tmp/actk-bench.lock taskset -c "$cpu" "${rt[@]}" "$@"; }

echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) CPUs online; pinned to CPU $cpu)"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); git: $(git -C "$here" describe --always --dirty 2>/dev/null || echo ?)"
echo
run "$ratio" "${quick[@]}" "$@"
echo
isa=() # actk_ratio's --isa, for run.py's actk columns too
for ((i = 1; i < $#; i++)); do [[ ${!i} == --isa ]] && j=$((i + 1)) && isa=(--isa "${!j}"); done
python=$("$here/setup-peers.sh" --print-python)
ACTK_LIBRARY=${ACTK_LIBRARY:-$build/libactk.so} run "$python" "$here/mlas/run.py" "${quick[@]}" "${isa[@]}"
