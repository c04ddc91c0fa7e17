#!/usr/bin/env bash
# Cross-builds what the Windows tests and tools link, from Debian's source
# packages, into a prefix: cmocka (the tests), GMP and MPFR (the exact
# reference, tools/exact.c). Debian 12 has none of them for MinGW-w64.
#
#   tools/build-mingw-deps.sh PREFIX     # then -DCMAKE_PREFIX_PATH=PREFIX
#
# Needs a deb-src entry for Debian's main archive (tools/setup-debian.sh
# --windows adds one) and the MinGW-w64 toolchain. Static libraries only, so
# the test programs need no DLL beside them. GMP is configured without its
# assembly (--disable-assembly): its x86-64 asm assumes the SysV ABI in places
# and the tests need correctness from MPFR, not speed. Skips a library whose
# files are already in PREFIX.
set -euo pipefail
prefix=$(realpath -m "${1:?usage: $0 PREFIX}")
toolchain=$(realpath "$(dirname "$0")/../cmake/x86_64-w64-mingw32.cmake")
host=x86_64-w64-mingw32
jobs=$(nproc)
work="$prefix/src"
mkdir -p "$work"
say() { printf 'mingw-deps: %s\n' "$*"; }

fetch() { # SOURCE-PACKAGE: unpacked into $work/<dir>, printed
  local pkg=$1
  (cd "$work" && ls "${pkg}"_*.dsc >/dev/null 2>&1 || apt-get source --download-only "$pkg" >/dev/null 2>&1) || {
    say "apt-get source $pkg failed: is there a deb-src entry? (tools/setup-debian.sh --windows)"
    return 1
  }
  # unpacked with Debian's patches (GMP's +dfsg tarball needs them: its doc/ is cut)
  local dir="$work/$pkg-src"
  [[ -d "$dir" ]] || (cd "$work" && dpkg-source --no-check -x "$(ls "${pkg}"_*.dsc | head -1)" "$dir" >/dev/null)
  printf '%s\n' "$dir"
}

if [[ ! -f "$prefix/lib/libcmocka.a" ]]; then
  d=$(fetch cmocka)
  say "cmocka from $d"
  cmake -S "$d" -B "$work/cmocka-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
    -DWITH_STATIC_LIB=ON -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF >"$work/cmocka.log" 2>&1
  cmake --build "$work/cmocka-build" -j"$jobs" >>"$work/cmocka.log" 2>&1
  cmake --install "$work/cmocka-build" >>"$work/cmocka.log" 2>&1
  # cmocka 1.1.5 builds its DLL regardless: keep the static one, under the
  # name -lcmocka (cmocka.pc) finds
  cp "$prefix/lib/libcmocka-static.a" "$prefix/lib/libcmocka.a"
  rm -f "$prefix/lib/libcmocka.dll.a" "$prefix/bin/cmocka.dll"
fi

if [[ ! -f "$prefix/lib/libgmp.a" ]]; then
  d=$(fetch gmp)
  say "gmp from $d"
  # Debian's +dfsg tarball has no doc/ (its build autoreconfs without it):
  # drop doc from the generated configure and Makefile.in instead
  sed -i 's| doc/Makefile||' "$d/configure"
  sed -i 's|^\(SUBDIRS = .*\) doc$|\1|' "$d/Makefile.in"
  (cd "$d" && ./configure --host=$host --prefix="$prefix" --disable-shared --enable-static \
    --disable-assembly >"$work/gmp.log" 2>&1 && make -j"$jobs" >>"$work/gmp.log" 2>&1 &&
    make install >>"$work/gmp.log" 2>&1) || { tail -30 "$work/gmp.log"; exit 1; }
fi

if [[ ! -f "$prefix/lib/libmpfr.a" ]]; then
  d=$(fetch mpfr4)
  say "mpfr from $d"
  (cd "$d" && ./configure --host=$host --prefix="$prefix" --disable-shared --enable-static \
    --with-gmp="$prefix" >"$work/mpfr.log" 2>&1 && make -j"$jobs" >>"$work/mpfr.log" 2>&1 &&
    make install >>"$work/mpfr.log" 2>&1) || { tail -30 "$work/mpfr.log"; exit 1; }
fi
say "done: $(cd "$prefix/lib" && ls *.a | tr '\n' ' ')"
