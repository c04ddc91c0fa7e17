#!/usr/bin/env bash
# bench/aarch64/run.sh: actk's first measured numbers on real AArch64 hardware
# (issue 22). docs/aarch64-estimates.md holds what llvm-mca predicts; this
# script measures, on the machine it runs on, what those estimates guess at.
# Not run by CI (there is no AArch64 runner); qemu timings mean nothing, so
# run it natively.
#
#   bench/aarch64/run.sh [--quick] [--build DIR] [--results DIR]
#
# Needs (Debian 12: tools/setup-debian.sh installs them all): cmake 3.20+, gcc
# and g++ (or CC/CXX), pkg-config, libmpfr-dev (the bench checks outputs against
# the exact reference); optional: libsleef-dev
# (the "sleef" column: SLEEF 3.5 u10 AdvSIMD, bench/baseline_sleef_advsimd.cc),
# python3 with llvm-objdump and llvm-mca (any version with neoverse-n1/v1, or
# llvm-*-19) for the estimates of this very build next to the measurements.
#
# Steps, each writing RESULTS/<step>.txt (RESULTS defaults to
# DIR/results/<host>-<date>-<time>/; DIR to build-aarch64-bench/):
#   build    native Release build of the library, tools and bench (no tests)
#   machine  lscpu, the CPU's features, compiler, git revision, load
#   cli      `actk --isa neon`: ns/element at 64 Ki on one thread against the
#            plain libm loop, both tiers, every type; and the accuracy check
#   ratio    actk_ratio --isa neon: every f32 op, accurate and fast, against
#            SLEEF's AdvSIMD functions (where Debian's libsleef-dev has the op:
#            erf, tanh and exp, the rest built from them), the libm loop and
#            a memcpy, interleaved, at 64 Ki and 4 Mi elements, one thread
#   types    actk_ratio --types --isa neon: f16 and bf16 against f32 and the
#            engine way (widen, f32 kernel, narrow), one thread
#   rope     actk_pool_bench rope on one thread (an own pool of 1), gap 0
#   hotloop  tools/hotloop.py on this build's objects: llvm-mca's cycles per
#            element on neoverse-n1/v1 next to the measured ones (skipped
#            without python3, llvm-objdump and llvm-mca)
# --quick: fewer repeats, shorter timings (how long either takes on hardware
# is not known yet). The exit status is non-zero if a step failed; every step
# runs.
set -euo pipefail

root=$(cd -P "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build="$root/build-aarch64-bench"
parts=""
tag=aarch64
# shellcheck source=bench/run_lib.sh
. "$root/bench/run_lib.sh"
arch=$(uname -m)
if [[ $arch != aarch64 && $arch != arm64 ]]; then
  say "error: this is $arch: run this natively on AArch64 (qemu timings mean nothing)" >&2
  exit 2
fi
run_args "$@"
run_build "$results/build.txt" -S "$root" -B "$build" -DACTK_BUILD_TESTS=OFF \
  -DACTK_BUILD_TOOLS=ON -DACTK_BUILD_BENCH=ON
grep -q 'SLEEF AdvSIMD baseline' "$results/build.txt" && sleef=yes || sleef="no (libsleef-dev adds it)"
say "built; SLEEF column: $sleef"

# ---- the machine --------------------------------------------------------------
{
  run_machine
  echo "sleef: $sleef"
  lscpu 2>/dev/null || true
  echo "features: $(grep -m1 -i '^Features' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
  # the clock, for cycles per element: the cpufreq limits where the kernel has them
  for f in cpuinfo_max_freq scaling_max_freq scaling_cur_freq scaling_governor; do
    p=/sys/devices/system/cpu/cpu0/cpufreq/$f
    [[ -r $p ]] && echo "cpu0 $f: $(cat "$p")"
  done
} >"$results/machine.txt" 2>&1
say "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"

bin="$build"
if ((quick)); then
  cli=(--quick)
  ratio=(--quick)
  rope=(--quick)
else
  cli=()
  ratio=()
  rope=()
fi

run_step cli "$bin/tools/actk" --isa neon "${cli[@]}"
run_step ratio "$bin/bench/actk_ratio" --isa neon "${ratio[@]}"
run_step types "$bin/bench/actk_ratio" --types --isa neon "${ratio[@]}"
run_step rope env ACTK_ISA=neon "$bin/bench/actk_pool_bench" rope --threads 1 --gaps 0 "${rope[@]}"

# ---- the estimates of this build, beside the measurements ----------------------
tool() { # the first of the names given that is on PATH
  local n
  for n in "$@"; do
    command -v "$n" >/dev/null 2>&1 && {
      echo "$n"
      return
    }
  done
}
objdump=$(tool llvm-objdump-19 llvm-objdump)
mca=$(tool llvm-mca-19 llvm-mca)
if command -v python3 >/dev/null 2>&1 && [[ -n $objdump && -n $mca ]]; then
  run_step hotloop python3 "$root/tools/hotloop.py" "$build" --objdump "$objdump" --mca "$mca"
else
  say "hotloop: skipped (needs python3, llvm-objdump and llvm-mca)"
fi

run_done
