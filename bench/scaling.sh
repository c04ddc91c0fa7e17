#!/usr/bin/env bash
# bench/scaling.sh: issue 14's scaling measurements of actk's pool in one
# command, for any Linux machine with N cores (made for a 16-core machine
# that reaches no package registry). Not run by CI.
#
#   bench/scaling.sh [--quick] [--build DIR] [--results DIR] [--only PARTS]
#
# Builds, from this tree, the library and the plain-C bench programs
# (bench/scaling/CMakeLists.txt: the library as a subproject, no tests, tools
# or C++) into DIR (default build-scaling/, beside bench/), needing only
# cmake (3.20+), a C compiler and pthreads; OpenMP when the compiler has it
# (its columns and rows are left out otherwise); libcpuid when pkg-config
# finds it (-DACTK_WITH_LIBCPUID=OFF otherwise: topology from /sys). Then
# runs the parts below, each printing its table(s) and writing
# RESULTS/<part>.txt (what it printed) and RESULTS/<part>.csv (the same
# tables as CSV, section name first, notes as "# " lines); RESULTS defaults
# to DIR/results/<host>-<date>-<time>/, with machine.txt (CPU, topology,
# load, compiler) and build.log. Every measurement is a same-run ratio:
# variants interleaved in rotating blocks, medians of repeats (the programs'
# headers say how). N = physical cores in the affinity mask; thread counts
# 1, 2, 4, 8, 16 and N, only those <= N; "T" below is min(16, N).
#
# Parts (--only takes a comma-separated list of these names):
#   scale    erf, gelu, tanh and gelu_bf16_fast at 64 Ki, 1 Mi, 4 Mi and
#            16 Mi elements on each thread count: an own pool, the default
#            pool (at its own count), and OpenMP `parallel for` over the same
#            kernel in a separate process (actk_pool_bench scale [--omp])
#   seed     a 524288-element gelu after idle gaps of 0, 20, 100, 500 us and
#            5 ms at T threads: time per call over back to back, speedup, and
#            whether the planner split (par%, actk_runner_parallel_calls);
#            own pool (spin 1000 us and 0), default pool, OpenMP (own process)
#   latency  dispatch latency of an empty job after the same gaps, p50/p99,
#            pools of T threads with spin_us 0, 100, 1000 (actk_pool_bench a)
#   idle     CPU time burnt while idle after a burst (actk_pool_bench c)
#   rope     RoPE llama3 prefill (B1 S128 H32 D128, BSHD, split-half and
#            interleaved, f32 and bf16) on an own pool of each thread count,
#            gaps 0 and 20 us, against a copy of the same bytes
#   contend  two runtimes in one process, T threads each: actk pool beside
#            actk pool (default spin, spin 0), beside an OpenMP team, and an
#            OpenMP team beside actk (OMP_WAIT_POLICY unset; the same again
#            with OMP_WAIT_POLICY=passive as contend_passive)
#   place    pinned vs unpinned own pools (actk_pool_config.pin), and where
#            the allowed CPUs have SMT siblings, compact vs spread placement
#
# --quick: fewer repeats everywhere (the default is sized to finish in under
# 3 minutes on 2 cores and under 8 on 16). The exit status is non-zero if a
# part failed (a wrong status, bits that differ between serial and pool, the
# ISA changing); every part runs either way.
set -euo pipefail

root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-scaling"
results=""
quick=0
only="scale,seed,latency,idle,rope,contend,place"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case "$1" in
  --quick) quick=1 ;;
  --build)
    (($# > 1)) || usage
    build=$2
    shift
    ;;
  --results)
    (($# > 1)) || usage
    results=$2
    shift
    ;;
  --only)
    (($# > 1)) || usage
    only=$2
    shift
    ;;
  -h | --help) usage ;;
  *) usage ;;
  esac
  shift
done
for p in ${only//,/ }; do
  case "$p" in
  scale | seed | latency | idle | rope | contend | place) ;;
  *)
    echo "scaling.sh: unknown part '$p'" >&2
    usage
    ;;
  esac
done
want() { [[ ",$only," == *",$1,"* ]]; }

t_start=$(date +%s)
host=$(hostname 2>/dev/null || echo host)
[[ -n "$results" ]] || results="$build/results/$host-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$build" "$results"
results=$(cd -P "$results" && pwd)

say() { printf 'scaling: %s\n' "$*"; }

# ---- build ------------------------------------------------------------------
cpuid=OFF
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcpuid 2>/dev/null; then
  cpuid=ON
fi
jobs=$(nproc 2>/dev/null || echo 2)
say "building into $build (libcpuid $cpuid, -j$jobs); log: $results/build.log"
t0=$(date +%s)
if ! {
  cmake -S "$root/bench/scaling" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DACTK_WITH_LIBCPUID="$cpuid" &&
    cmake --build "$build" -j"$jobs"
} >"$results/build.log" 2>&1; then
  tail -30 "$results/build.log" >&2
  say "error: the build failed (see $results/build.log)" >&2
  exit 1
fi
openmp=no
grep -q 'actk scaling: OpenMP' "$results/build.log" && openmp=yes
say "built in $(($(date +%s) - t0)) s; OpenMP: $openmp"
bin="$build"

# ---- the machine --------------------------------------------------------------
{
  echo "host: $host"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel: $(uname -srm)"
  echo "online cpus: $(nproc --all 2>/dev/null || echo ?), allowed: $(nproc 2>/dev/null || echo ?)"
  grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
  echo "load average: $(cat /proc/loadavg 2>/dev/null || echo ?)"
  echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -1 || echo ?)"
  echo "git: $(git -C "$root" describe --always --dirty 2>/dev/null || echo ?)"
  echo "SMT siblings (cpu: thread_siblings_list):"
  for f in /sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list; do
    [[ -r "$f" ]] || continue
    c=${f#/sys/devices/system/cpu/cpu}
    printf '  %s: %s\n' "${c%%/*}" "$(cat "$f")"
  done | sort -n -k1 | head -64
  "$bin/actk_pool_bench" info
} >"$results/machine.txt" 2>&1
threads=$("$bin/actk_pool_bench" info | awk '$1 == "threads" {print $2}')
single=$("$bin/actk_pool_bench" info | awk '$1 == "single" {print $2}')
say "machine: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), thread counts $threads, T = $single"
say "results: $results"

q=()
((quick)) && q=(--quick)
failed=()
# part NAME CMD...: run, show, keep the text and the CSV
part() {
  local name=$1
  shift
  local t rc=0
  t=$(date +%s)
  say "---- $name: $* ----"
  "$@" "--csv-out=$results/$name.csv" 2>&1 | tee "$results/$name.txt" || rc=$?
  if ((rc != 0)); then
    failed+=("$name (exit $rc)")
    say "$name FAILED (exit $rc)"
  fi
  say "$name: $(($(date +%s) - t)) s"
}

if want scale; then
  omp_args=()
  if [[ $openmp == yes ]]; then
    part scale_omp "$bin/actk_pool_bench" scale --omp "${q[@]}"
    omp_args=(--omp-results "$results/scale_omp.csv")
  fi
  part scale "$bin/actk_pool_bench" scale "${q[@]}" "${omp_args[@]}"
fi
if want seed; then
  omp_args=()
  if [[ $openmp == yes ]]; then
    part seed_omp "$bin/actk_pool_bench" seed --omp "${q[@]}"
    omp_args=(--omp-results "$results/seed_omp.csv")
  fi
  part seed "$bin/actk_pool_bench" seed "${q[@]}" "${omp_args[@]}"
fi
if want latency; then
  part latency "$bin/actk_pool_bench" --only a --quick --threads "$single" \
    --gaps 0,20,100,500,5000 --spins 0,100,1000
fi
if want idle; then
  part idle "$bin/actk_pool_bench" --only c --quick --threads "$single"
fi
if want rope; then
  part rope "$bin/actk_rope_bench" --quick --shapes prefill128 --layouts bshd --types f32,bf16 \
    --gaps 0,20 --threads "$threads"
fi
if want contend; then
  part contend "$bin/actk_pool_bench" contend "${q[@]}"
  if [[ $openmp == yes ]]; then
    part contend_passive env OMP_WAIT_POLICY=passive "$bin/actk_pool_bench" contend "${q[@]}"
  fi
fi
if want place; then
  part place "$bin/actk_pool_bench" place "${q[@]}"
fi

say "done in $(($(date +%s) - t_start)) s; results in $results"
if ((${#failed[@]})); then
  say "failed: ${failed[*]}"
  exit 1
fi
