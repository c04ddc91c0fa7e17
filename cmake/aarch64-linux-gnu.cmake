# Cross-compiling for AArch64 Linux with Debian's toolchain, tests run under
# qemu-user (CI: .ci/run aarch64):
#
#   apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install libcmocka-dev:arm64 libmpfr-dev:arm64   # for the tests and tools
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-aarch64 -j2 && ctest --test-dir build-aarch64
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# libraries and headers of the target (Debian multiarch), never the host's
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# ctest runs every test program through the emulator, with the target's
# loader and libraries: multiarch's (libc6:arm64, which libcmocka-dev:arm64
# brings) where installed, else the cross toolchain's. Never a mix: the cross
# package's ld.so (2.36-8cross1) with multiarch's libc.so.6 (2.36-9+deb12u14)
# hangs in the first pthread_create.
find_program(ACTK_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(ACTK_QEMU_AARCH64)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${ACTK_QEMU_AARCH64};-L;/)
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${ACTK_QEMU_AARCH64};-L;/usr/aarch64-linux-gnu)
  endif()
endif()
