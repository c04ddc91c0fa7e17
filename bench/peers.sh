#!/usr/bin/env bash
# actk against every peer, one command, one run: the table of issue 35's goals
# (met or missed) that docs/performance.md shows.
#
#   bench/peers.sh [--build DIR] [--quick] [--cpu N] [--isa a,b] [--out DIR]
#                  [--before DIR] [actk_ratio options...]
#
# For each ISA of --isa (default: avx512 and avx2 where this CPU runs both,
# else the best it runs), one part at a time, each under flock
# /tmp/actk-bench.lock, pinned to CPU N (taskset -c N, default 1) at real-time
# priority (chrt -f 10; without root, normal priority and a note):
#   1. DIR/bench/actk_ratio --isa ISA: per op, actk accurate and fast against
#      the peers of that arm (avx512: eigen512, sleef512u35, xnnpack, onednn,
#      ggml, torch; avx2: eigen, sleef, onednn, ggml_avx2, torch, with
#      ONEDNN_MAX_CPU_ISA=AVX2 and ATEN_CPU_CAPABILITY=avx2 so that oneDNN and
#      torch run their AVX2 code; XNNPACK cannot be held to AVX2: left out
#      where the CPU runs AVX-512, in on one that does not (its AVX2 code);
#      any other ISA: every peer), 64 Ki and 4 Mi, interleaved, medians, the
#      memcpy column as control -> OUT/f32-ISA.csv
#   2. actk_ratio --types --isa ISA: actk's 16-bit tiers beside f32 (no 16-bit
#      peers: the goal is actk's own ratio) -> OUT/types-ISA.csv
#   3. bench/mlas/run.py --isa ISA: ONNX Runtime's MLAS per node of a 32-node
#      chain, actk's two tiers timed in the same process -> OUT/mlas-ISA.csv
#   4. the gated ops: actk_ratio --gated (packed against ggml's fused GLU and
#      the two-pass way) where this actk_ratio has it, else actk_gated_bench
#      (ACTK_ISA=ISA; the two-pass way only) -> OUT/gated-ISA.csv
# then bench/goals.py (Debian's /usr/bin/python3, standard library only)
# merges that run's files into one table per ISA and size, OUT/goals.md, and
# prints it. OUT defaults to DIR/peers/<UTC time>; OUT/log.txt holds every
# part's own table. --before OUT2 puts an earlier run's control rows beside.
# Other options go to actk_ratio (--ops ..., --peers ..., --repeats 31);
# --ops goes to run.py too. DIR defaults to build; configure it after
# bench/setup-peers.sh so that cmake finds the peers.
set -euo pipefail
here=$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../build cpu=1 quick=() isas="" out="" before=() pass=()
while (($#)); do # ours, anywhere; the rest (with their values) go to actk_ratio
  case $1 in
  --build) build=$2 && shift ;;
  --cpu) cpu=$2 && shift ;;
  --quick) quick=(--quick) ;;
  --isa) isas=$2 && shift ;;
  --out) out=$2 && shift ;;
  --before) before=(--before "$2") && shift ;;
  *) pass+=("$1") ;;
  esac
  shift
done
set -- "${pass[@]}"
# what is timed is the tree's code: an incremental build first, so that a stale
# build directory never stands in a table under the tree's git hash
if [[ -f $build/CMakeCache.txt ]]; then
  cmake --build "$build" -j "$(nproc)" >/dev/null || { echo "peers.sh: building $build failed" >&2; exit 2; }
fi
ratio=$build/bench/actk_ratio gated=$build/bench/actk_gated_bench
[[ -x $ratio ]] || { echo "peers.sh: no $ratio (build the bench first)" >&2; exit 2; }
ops=() # actk_ratio's --ops, for run.py too
for ((i = 1; i < $#; i++)); do [[ ${!i} == --ops ]] && j=$((i + 1)) && ops=(--ops "${!j}"); done
help=$("$ratio" --help 2>&1 || true) # its usage: the ISAs and the peers built
if grep -q '^bench: no torch peer' <<<"$help"; then # built but not loadable: say so, stop
  echo "peers.sh: $(grep '^bench: no torch peer' <<<"$help")" >&2
  exit 2
fi
# the ISAs this actk runs here ("(not supported here)" marks the others)
runs=$(sed -n 's/^  NAME: one of //p' <<<"$help" | sed 's/ [a-z0-9_]* (not supported here)//g')
if [[ -z $isas ]]; then
  for a in avx512 avx2; do [[ " $runs " == *" $a "* ]] && isas+=${isas:+,}$a; done
  [[ -n $isas ]] || isas=$(awk '{print $NF}' <<<"$runs")
fi
built=" $(sed -n 's/^  peers: *//p' <<<"$help") "
peers_for() { # the default peers of an arm that this build has
  local want p list=""
  case $1 in
  avx512) want="eigen512 sleef512u35 xnnpack onednn ggml torch" ;;
  avx2) # XNNPACK picks its code by the CPU: on one without AVX-512 its best is AVX2's
    want="eigen sleef onednn ggml_avx2 torch"
    [[ " $runs " == *" avx512 "* ]] || want+=" xnnpack" ;;
  *) want=$built ;;
  esac
  for p in $want; do [[ $built == *" $p "* ]] && list+=${list:+,}$p; done
  echo "$list"
}
env_for() { # the environment that holds the peers to an arm's code
  if [[ $1 == avx2 ]]; then echo "ONEDNN_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2"; fi
}

out=${out:-$build/peers/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
log=$out/log.txt
rt=(chrt -f 10)
"${rt[@]}" true 2>/dev/null || { rt=(); echo "note: chrt -f 10 refused: normal priority" | tee -a "$log"; }
# shellcheck disable=SC2046 # env_for's words are meant to split
run() { # run ISA CMD...: one part, locked, pinned, at real-time priority
  local isa=$1 && shift
  env $(env_for "$isa") flock /tmp/actk-bench.lock taskset -c "$cpu" "${rt[@]}" "$@" 2>&1 | tee -a "$log"
}
python=$("$here/setup-peers.sh" --print-python)
py() { "$python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || echo "?"; }
deb() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || echo "?"; }
{
  echo "command: bench/peers.sh ${quick[*]:+${quick[*]} }--isa $isas $*"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') (family $(lscpu | sed -n 's/^CPU family: *//p') model $(lscpu | sed -n 's/^Model: *//p'); $(nproc) CPUs online; pinned to CPU $cpu${rt[*]:+, ${rt[*]}})"
  echo "kernel: $(uname -sr); date: $(date -u +%Y-%m-%dT%H:%M:%SZ); git: $(git -C "$here" describe --always --dirty 2>/dev/null || echo ?)"
  echo "PyPI: onnxruntime $(py onnxruntime), onnx $(py onnx), onednn-devel $(py onednn-devel), torch $(py torch), numpy $(py numpy); ggml from llama-cpp-python $(sed -n 's/^llama=\([^ ]*\).*/\1/p' "$here/setup-peers.sh")'s sdist; Debian: Eigen $(deb libeigen3-dev), SLEEF $(deb libsleef-dev), XNNPACK $(deb libxnnpack-dev)"
} | tee "$out/meta.txt" | tee -a "$log"

IFS=, read -ra isa_list <<<"$isas"
status=0
for isa in "${isa_list[@]}"; do
  echo "== $isa $(env_for "$isa")" | tee -a "$log"
  peers=$(peers_for "$isa") # none built: no --peers (actk_ratio refuses an empty list)
  run "$isa" "$ratio" --isa "$isa" ${peers:+--peers "$peers"} "${quick[@]}" "$@" \
    --csv-out "$out/f32-$isa.csv" || status=1
  run "$isa" "$ratio" --types --isa "$isa" "${quick[@]}" "$@" --peers none \
    --csv-out "$out/types-$isa.csv" || status=1
  ACTK_LIBRARY=${ACTK_LIBRARY:-$build/libactk.so} run "$isa" "$python" "$here/mlas/run.py" \
    "${quick[@]}" --isa "$isa" "${ops[@]}" --csv-out "$out/mlas-$isa.csv" || status=1
  # actk_ratio --gated (ggml's fused GLU as columns) where built, else the gated bench
  if grep -qa -- --gated "$ratio"; then
    run "$isa" "$ratio" --gated --csv --isa "$isa" "${quick[@]}" >"$out/gated-$isa.csv" || status=1
  elif [[ -x $gated ]]; then
    ACTK_ISA=$isa run "$isa" "$gated" "${quick[@]}" --csv-out="$out/gated-$isa.csv" || status=1
  fi
done
goals=/usr/bin/python3
[[ -x $goals ]] || goals=python3
"$goals" "$here/goals.py" "$out" "${before[@]}" >"$out/goals.md"
echo
cat "$out/goals.md"
echo
echo "peers.sh: every part's table in $log; the goals table in $out/goals.md"
exit $status
