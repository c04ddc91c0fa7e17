# bench/run_lib.sh: what bench/scaling.sh and bench/aarch64/run.sh share, sourced
# by both after they set root, build (the default build directory), parts (the
# names --only accepts, "" for no --only) and tag (say's prefix). The caller's
# header comment, up to its `set -euo pipefail`, is its usage text.
# shellcheck shell=bash disable=SC2034,SC2154 # the callers set and read these

quick=0
results=""
only=$parts
say() { printf '%s: %s\n' "$tag" "$*"; }
usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}
# run_args "$@": --quick, --build DIR, --results DIR and (where parts is set)
# --only a,b; then results is an absolute, existing directory
run_args() {
  while (($#)); do
    case "$1" in
    --quick) quick=1 ;;
    --build | --results | --only)
      if (($# < 2)) || [[ $1 == --only && -z $parts ]]; then usage; fi
      printf -v "${1#--}" '%s' "$2"
      shift
      ;;
    *) usage ;;
    esac
    shift
  done
  local p
  for p in ${only//,/ }; do
    [[ ",$parts," == *",$p,"* ]] || {
      say "unknown part '$p'" >&2
      usage
    }
  done
  host=$(hostname 2>/dev/null || echo host)
  [[ -n "$results" ]] || results="$build/results/$host-$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$build" "$results"
  results=$(cd -P "$results" && pwd)
}
want() { [[ ",$only," == *",$1,"* ]]; }

# run_build LOG CMAKE_ARGS...: configure (source and build directory in the
# arguments) and build with every CPU, the output into LOG; on failure its tail
# and exit 1
run_build() {
  local log=$1 jobs
  shift
  jobs=$(nproc 2>/dev/null || echo 2)
  say "building into $build (-j$jobs); log: $log"
  if ! { cmake "$@" -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j"$jobs"; } >"$log" 2>&1; then
    tail -30 "$log" >&2
    say "error: the build failed (see $log)" >&2
    exit 1
  fi
}

# the machine's lines both scripts record first
run_machine() {
  echo "host: $host"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel: $(uname -srm)"
  echo "load average: $(cat /proc/loadavg 2>/dev/null || echo ?)"
  echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -1 || echo ?)"
  echo "git: $(git -C "$root" describe --always --dirty 2>/dev/null || echo ?)"
}

# run_step NAME CMD...: run, show, keep what it printed in RESULTS/NAME.txt
# (run_csv: and its --csv-out=RESULTS/NAME.csv); a failure is recorded
failed=()
run_step() {
  local name=$1 t rc=0
  shift
  t=$(date +%s)
  say "---- $name: $* ----"
  "$@" 2>&1 | tee "$results/$name.txt" || rc=$?
  if ((rc != 0)); then
    failed+=("$name (exit $rc)")
    say "$name FAILED (exit $rc)"
  fi
  say "$name: $(($(date +%s) - t)) s"
}
run_csv() { run_step "$1" "${@:2}" "--csv-out=$results/$1.csv"; }

# the last line: the failed steps, exit 1 if any
run_done() {
  say "results: $results"
  if ((${#failed[@]})); then
    say "failed: ${failed[*]}"
    exit 1
  fi
}
