#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages actk needs, by purpose.
# Idempotent: when every package asked for is installed it runs no apt-get.
# Waits for the dpkg lock (another apt running) instead of failing.
#
#   tools/setup-debian.sh              # default: build the library, its tests
#                                      # and the demo (README's commands)
#   tools/setup-debian.sh --bench      # default + the bench harness and peers
#   tools/setup-debian.sh --lint --python --rust ...   # groups combine
#   tools/setup-debian.sh --ci         # every group .ci/run needs
#   tools/setup-debian.sh --list       # the groups and their packages
#
# Groups (default is always included unless only --aarch64 or --windows are
# given, which need nothing else):
#   default   library + tests + demo: compiler, cmake, pkg-config, libcpuid,
#             cmocka, MPFR (the tests' exact reference), python3 (gen_ops.py)
#   bench     the peer libraries bench/ compares with (Debian's; PyPI's: bench/setup-peers.sh)
#   lint      clang, clang-format, clang-tidy, cppcheck, git (tools/lint.sh;
#             clang is also CI's second compiler)
#   python    the Python binding: numpy 1.24, pytest, venv/pip (torch 2.x, numpy 2
#             and the build backend come from PyPI into venvs: .ci/run python)
#   rust      the Rust binding: Debian's cargo, rustc and packaged crates
#   ci        valgrind and libFuzzer's runtime (.ci/run valgrind, fuzz)
#   aarch64   the AArch64 cross build and qemu-user (adds dpkg's arm64)
#   windows   MinGW-w64 and Wine (the Windows build)
#
# ACTK_APT_LOCK_TIMEOUT: seconds to wait for the dpkg lock (default 600).
# Exits non-zero if anything could not be installed.
set -euo pipefail

declare -A group_doc group_pkgs
group_doc[default]="library + tests + demo (cmake build, ctest, build/tools/actk)"
group_pkgs[default]="build-essential cmake pkg-config libcpuid-dev libcmocka-dev libmpfr-dev python3"
group_doc[bench]="bench/: the Debian peers it measures (Eigen, SLEEF, XNNPACK)"
# libxnnpack-dev's header needs libpthreadpool-dev's. (The PyPI peers, oneDNN 3,
# ggml, torch and ONNX Runtime, not part of CI: bench/setup-peers.sh, which
# needs python3-venv.)
group_pkgs[bench]="libeigen3-dev libsleef-dev libxnnpack-dev libpthreadpool-dev"
group_doc[lint]="tools/lint.sh and CI's second compiler: clang, clang-format, clang-tidy, cppcheck, git"
group_pkgs[lint]="clang clang-tidy clang-format cppcheck git"
group_doc[python]="python/: the binding's tests on Debian's numpy, venvs for its pip install (torch from PyPI)"
group_pkgs[python]="python3 python3-numpy python3-pytest python3-venv python3-pip binutils"
group_doc[rust]="rust/: Debian's cargo and rustc and the crates it uses (offline directory registry)"
group_pkgs[rust]="cargo rustc librust-half-dev librust-rayon-dev librust-libc-dev librust-cc-dev librust-pkg-config-dev"
group_doc[ci]="the valgrind and fuzz stages of .ci/run: valgrind, libFuzzer's runtime for clang 14"
group_pkgs[ci]="valgrind clang libclang-rt-14-dev"
group_doc[aarch64]="the AArch64 cross build and its tests under qemu-user (.ci/run aarch64)"
# the target's libraries the tests and tools link (multiarch; libc6 and
# libstdc++6 for the emulator's loader: cmake/aarch64-linux-gnu.cmake)
group_pkgs[aarch64]="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static libc6:arm64 libstdc++6:arm64 libcmocka-dev:arm64 libmpfr-dev:arm64"
group_doc[windows]="the Windows build (MinGW-w64, posix flavour: winpthreads) and its tests under Wine; dpkg-dev and m4 build cmocka/GMP/MPFR from Debian's sources (tools/build-mingw-deps.sh; a deb-src entry is added)"
group_pkgs[windows]="gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine wine64 dpkg-dev m4 cmake"
all_groups=(default bench lint python rust ci aarch64 windows)
ci_groups=(default bench lint python rust ci)

say() { printf 'setup-debian: %s\n' "$*"; }

usage() {
  say "usage: $0 [--bench] [--lint] [--python] [--rust] [--ci] [--aarch64] [--windows] [--all] [--list]"
  say "  (no option: the default group; --ci: ${ci_groups[*]})"
}

list_groups() {
  local g
  for g in "${all_groups[@]}"; do
    printf '  %-8s %s\n           %s\n' "$g" "${group_doc[$g]}" "${group_pkgs[$g]}"
  done
}

groups=()
only_extra=1 # only --aarch64/--windows: no default group
for a in "$@"; do
  case "$a" in
  --bench | --lint | --python | --rust)
    groups+=("${a#--}")
    only_extra=0
    ;;
  --ci)
    groups+=("${ci_groups[@]}")
    only_extra=0
    ;;
  --aarch64 | --windows) groups+=("${a#--}") ;;
  --all)
    groups+=("${all_groups[@]}")
    only_extra=0
    ;;
  --list)
    list_groups
    exit 0
    ;;
  -h | --help)
    usage
    list_groups
    exit 0
    ;;
  *)
    usage >&2
    exit 2
    ;;
  esac
done
if ((${#groups[@]} == 0)) || ((only_extra == 0)); then
  groups=(default "${groups[@]}")
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  say "error: dpkg-query/apt-get not found; this script is for Debian 12" >&2
  exit 1
fi

# the groups once each, in the order of all_groups
packages=()
chosen=()
aarch64=0
for g in "${all_groups[@]}"; do
  for c in "${groups[@]}"; do
    if [[ "$c" == "$g" ]]; then
      chosen+=("$g")
      # shellcheck disable=SC2206 # the lists are words
      packages+=(${group_pkgs[$g]})
      [[ "$g" == aarch64 ]] && aarch64=1
      say "group $g: ${group_doc[$g]}"
      break
    fi
  done
done

installed() {
  # one line per installed architecture (a multiarch machine may have the
  # package for arm64 too)
  local status
  status=$(dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null || true)
  grep -qx installed <<<"$status"
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
# a package in two groups once
mapfile -t missing < <(printf '%s\n' "${missing[@]+"${missing[@]}"}" | awk 'NF && !seen[$0]++')

# windows: apt-get source (tools/build-mingw-deps.sh) needs a deb-src entry
# for Debian's main archive (deb822, as Debian 12's debian.sources)
if [[ " ${chosen[*]} " == *" windows "* ]] &&
  ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  say "adding /etc/apt/sources.list.d/actk-deb-src.sources (deb-src, bookworm main)"
  sudo_cmd=()
  [[ "$(id -u)" == 0 ]] || sudo_cmd=(sudo)
  printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
    'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
    "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/actk-deb-src.sources >/dev/null
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
fi

if ((${#missing[@]} == 0)); then
  say "groups ${chosen[*]}: all ${#packages[@]} packages already installed"
  exit 0
fi

say "missing: ${missing[*]}"

as_root=()
if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    say "error: not root and sudo is not available; install as root: ${missing[*]}" >&2
    exit 1
  fi
fi

# Another apt or dpkg (unattended-upgrades, a second setup) holds the lock:
# apt waits for it up to this long instead of failing at once.
lock_timeout=${ACTK_APT_LOCK_TIMEOUT:-600}
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$lock_timeout")

if ((aarch64)) && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  say "running: ${as_root[*]+${as_root[*]} }dpkg --add-architecture arm64"
  "${as_root[@]}" dpkg --add-architecture arm64
fi
# apt-get update takes the lists lock as well, which DPkg::Lock::Timeout may
# not cover (apt < 2.x): retry while apt says only that it could not get a lock.
say "running: apt-get update (waiting up to ${lock_timeout} s for the dpkg lock)"
t0=$SECONDS
until "${apt[@]}" update 2> >(tee /tmp/actk-setup-update.$$ >&2); do
  if ! grep -q 'Could not get lock' /tmp/actk-setup-update.$$ ||
    ((SECONDS - t0 >= lock_timeout)); then
    rm -f /tmp/actk-setup-update.$$
    say "error: apt-get update failed" >&2
    exit 1
  fi
  say "another apt holds the lock: waiting ($((SECONDS - t0)) s of ${lock_timeout} s)"
  sleep 5
done
rm -f /tmp/actk-setup-update.$$
say "running: apt-get install -y --no-install-recommends ${missing[*]}"
"${apt[@]}" install -y --no-install-recommends "${missing[@]}"

# Check that apt really installed everything it was asked for.
still=()
for p in "${missing[@]}"; do
  installed "$p" || still+=("$p")
done
if ((${#still[@]} != 0)); then
  say "error: still not installed: ${still[*]}" >&2
  exit 1
fi
say "installed: ${missing[*]}"
