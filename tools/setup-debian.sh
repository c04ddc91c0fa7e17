#!/usr/bin/env bash
# Installs what building, testing, benchmarking and linting actk needs on a
# fresh Debian 12 (bookworm) machine. Idempotent: when every package is
# already installed it runs no apt-get at all.
#
#   tools/setup-debian.sh            # as root, or as a user with sudo
#   tools/setup-debian.sh --aarch64  # only the AArch64 cross build and qemu-user
#                                    # (.ci/run aarch64; adds dpkg's arm64 architecture)
#   tools/setup-debian.sh --windows  # only the MinGW-w64 cross build and Wine (.ci/run
#                                    # windows; adds a deb-src entry for Debian's main
#                                    # archive: tools/build-mingw-deps.sh builds cmocka,
#                                    # GMP and MPFR from their source packages)
#
# Exits non-zero if anything could not be installed.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config
  # dependencies: CPU facts (libcpuid, optional), tests (cmocka), bench harness,
  # the exact reference of the tests and tools (GNU MPFR)
  libcpuid-dev libcmocka-dev libbenchmark-dev libmpfr-dev
  # optional bench baselines (bench/CMakeLists.txt skips them when absent);
  # libxnnpack-dev's header needs libpthreadpool-dev's. (bench/mlas/run.sh,
  # not part of CI, also needs nodejs npm python3-onnx.)
  libeigen3-dev libsleef-dev libxnnpack-dev libpthreadpool-dev libdnnl-dev
  # CI: the second compiler, and tools/lint.sh (clang-format, cppcheck,
  # clang-tidy; git ls-files picks the files to check)
  clang clang-tidy clang-format cppcheck git
  # CI: the Python binding's tests (python/), libFuzzer's runtime for clang 14
  # (fuzz/), memcheck (the valgrind stage)
  python3 python3-numpy python3-pytest libclang-rt-14-dev valgrind
  # CI: the Python package's install into a venv (pip, offline: Debian's
  # setuptools and wheel), its PyTorch ops (torch's headers and libraries:
  # libtorch-dev) and the model tests (torchvision's efficientnet/convnext/vit)
  python3-venv python3-pip python3-setuptools python3-wheel python3-torch python3-torchvision
  libtorch-dev
  # CI: the Rust binding (rust/): Debian's toolchain and the crates it uses,
  # as a directory registry under /usr/share/cargo/registry (offline builds)
  cargo rustc librust-half-dev librust-rayon-dev librust-libc-dev librust-cc-dev
  librust-pkg-config-dev
)

say() { printf 'setup-debian: %s\n' "$*"; }

aarch64=0
windows=0
if [[ "${1:-}" == --windows ]]; then
  windows=1
  # the cross compilers (posix flavour: winpthreads), Wine to run the tests,
  # and what building cmocka/GMP/MPFR from source needs (dpkg-source, m4)
  packages=(gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine wine64 dpkg-dev m4 cmake)
elif [[ "${1:-}" == --aarch64 ]]; then
  aarch64=1
  # the cross compilers, the emulator, and the target's libraries the tests
  # and tools link (Debian multiarch; libc6 and libstdc++6 for the emulator's
  # loader: cmake/aarch64-linux-gnu.cmake)
  packages=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static libc6:arm64
    libstdc++6:arm64 libcmocka-dev:arm64 libmpfr-dev:arm64)
elif (($#)); then
  say "usage: $0 [--aarch64|--windows]" >&2
  exit 2
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  say "error: dpkg-query/apt-get not found; this script is for Debian 12" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  # one line per installed architecture (a multiarch machine may have the
  # package for arm64 too: .ci/run aarch64)
  status=$(dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null || true)
  if ! grep -qx installed <<<"$status"; then
    missing+=("$p")
  fi
done

# --windows: apt-get source needs a deb-src entry for Debian's main archive
# (deb822 format, as Debian 12's /etc/apt/sources.list.d/debian.sources)
need_update=0
sudo_cmd=()
[[ "$(id -u)" == 0 ]] || sudo_cmd=(sudo)
if ((windows)) && ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list \
  /etc/apt/sources.list.d/; then
  say "adding /etc/apt/sources.list.d/actk-deb-src.sources (deb-src, bookworm main)"
  printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
    'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
    "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/actk-deb-src.sources >/dev/null
  need_update=1
fi

if ((${#missing[@]} == 0 && need_update)); then
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
fi
if ((${#missing[@]} == 0)); then
  say "all ${#packages[@]} packages already installed: ${packages[*]}"
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

export DEBIAN_FRONTEND=noninteractive
if ((aarch64)) && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  say "running: ${as_root[*]+${as_root[*]} }dpkg --add-architecture arm64"
  "${as_root[@]}" dpkg --add-architecture arm64
fi
say "running: ${as_root[*]+${as_root[*]} }apt-get update"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
say "running: ${as_root[*]+${as_root[*]} }apt-get install -y --no-install-recommends ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"

# Check that apt really installed everything it was asked for.
still=()
for p in "${missing[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null || true)
  grep -qx installed <<<"$status" || still+=("$p")
done
if ((${#still[@]} != 0)); then
  say "error: still not installed: ${still[*]}" >&2
  exit 1
fi
say "installed: ${missing[*]}"
