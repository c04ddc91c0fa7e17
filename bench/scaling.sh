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
# Parts (--only takes a comma-separated list of them): scale, seed, latency,
# idle, contend, place (actk_pool_bench's parts of those names, at T threads
# or, scale, every count: its header and docs/performance.md say what each
# measures; contend runs again with OMP_WAIT_POLICY=passive as
# contend_passive), and rope (its rope part: llama3 prefill, B1 S128 H32
# D128, BSHD, both styles, f32 and bf16, on an own pool of each count).
#
# --quick: fewer repeats everywhere (the default is sized to finish in under
# 3 minutes on 2 cores and under 8 on 16). The exit status is non-zero if a
# part failed (a wrong status, bits that differ between serial and pool, the
# ISA changing); every part runs either way.
set -euo pipefail

root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-scaling"
parts="scale,seed,latency,idle,rope,contend,place"
tag=scaling
# shellcheck source=bench/run_lib.sh
. "$root/bench/run_lib.sh"
run_args "$@"
t_start=$(date +%s)

cpuid=OFF
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcpuid 2>/dev/null; then
  cpuid=ON
fi
t0=$(date +%s)
run_build "$results/build.log" -S "$root/bench/scaling" -B "$build" -DACTK_WITH_LIBCPUID="$cpuid"
openmp=no
grep -q 'actk scaling: OpenMP' "$results/build.log" && openmp=yes
say "built in $(($(date +%s) - t0)) s (libcpuid $cpuid); OpenMP: $openmp"
bin="$build"

# ---- the machine --------------------------------------------------------------
{
  run_machine
  echo "online cpus: $(nproc --all 2>/dev/null || echo ?), allowed: $(nproc 2>/dev/null || echo ?)"
  grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
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
pool="$bin/actk_pool_bench"
want scale && run_csv scale "$pool" scale "${q[@]}"
want seed && run_csv seed "$pool" seed "${q[@]}"
want latency && run_csv latency "$pool" latency --quick --threads "$single" \
  --gaps 0,20,100,500,5000 --spins 0,100,1000
want idle && run_csv idle "$pool" idle --quick --threads "$single"
want rope && run_csv rope "$pool" rope --quick --shapes prefill128 --layouts bshd \
  --types f32,bf16 --gaps 0,20 --threads "$threads"
want contend && run_csv contend "$pool" contend "${q[@]}"
if want contend && [[ $openmp == yes ]]; then
  run_csv contend_passive env OMP_WAIT_POLICY=passive "$pool" contend "${q[@]}"
fi
want place && run_csv place "$pool" place "${q[@]}"

say "done in $(($(date +%s) - t_start)) s"
run_done
