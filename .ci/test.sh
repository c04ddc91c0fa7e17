#!/usr/bin/env bash
# The test command README.md documents, so that README and CI run the same
# thing. With no arguments and no environment it is exactly:
#
#   tools/setup-debian.sh && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DACTK_BUILD_TESTS=ON && cmake --build build -j2 && ctest --test-dir build -j2 --output-on-failure --no-tests=error
#
# That ctest is the quick suite (every invariant on samples; docs/testing.md).
#
# .ci/run reuses it for its compiler stages: arguments are added to the cmake
# configure line (e.g. -DACTK_WERROR=ON), ACTK_BUILD_DIR replaces "build" and
# ACTK_JOBS replaces "2"; CC/CXX pick the compiler as usual; ACTK_CI_EXHAUSTIVE=1
# then runs the exhaustive suite too: ctest ... -L exhaustive (every 16-bit
# input, the dense MPFR and f32 samples, the long pool and stress runs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
b=${ACTK_BUILD_DIR:-build}
j=${ACTK_JOBS:-2}
set -x
tools/setup-debian.sh && cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DACTK_BUILD_TESTS=ON "$@" && cmake --build "$b" -j"$j" && ctest --test-dir "$b" -j"$j" --output-on-failure --no-tests=error || exit
if [[ "${ACTK_CI_EXHAUSTIVE:-0}" == 1 ]]; then
  ctest --test-dir "$b" -j"$j" --output-on-failure --no-tests=error -L exhaustive
fi
