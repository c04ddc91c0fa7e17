# Cross-compiling for 64-bit Windows with Debian's MinGW-w64 gcc, tests run
# under Wine (CI: .ci/run windows; docs/platforms.md):
#
#   apt-get install gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64
#   tools/build-mingw-deps.sh build-win/deps   # cmocka, GMP, MPFR for the tests
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-w64-mingw32.cmake \
#     -DCMAKE_PREFIX_PATH=$PWD/build-win/deps
#   cmake --build build-win -j2 && ctest --test-dir build-win
#
# The posix flavour of the compiler (x86_64-w64-mingw32-gcc-posix): its
# runtime has winpthreads, which the pool's threads use (docs/platforms.md
# says why); the win32 flavour has no <pthread.h>.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ACTK_MINGW_PREFIX x86_64-w64-mingw32)
find_program(CMAKE_C_COMPILER NAMES ${ACTK_MINGW_PREFIX}-gcc-posix ${ACTK_MINGW_PREFIX}-gcc)
find_program(CMAKE_CXX_COMPILER NAMES ${ACTK_MINGW_PREFIX}-g++-posix ${ACTK_MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${ACTK_MINGW_PREFIX}-windres)
# the target's headers and libraries; BOTH, so that a prefix given by
# CMAKE_PREFIX_PATH (tools/build-mingw-deps.sh's) is searched as it is, not
# under the root. Host libraries stay out: pkg-config sees only the target's
# .pc files (below), and a host .so is no library to the MinGW linker.
set(CMAKE_FIND_ROOT_PATH /usr/${ACTK_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config sees only the target's .pc files (the deps prefix adds its own
# from CMAKE_PREFIX_PATH: pkg_check_modules searches its lib/pkgconfig)
set(ENV{PKG_CONFIG_LIBDIR} /usr/${ACTK_MINGW_PREFIX}/lib/pkgconfig)
# ctest runs every test program under Wine. WINEDEBUG=-all keeps Wine's
# fixme lines out of the tests' output.
find_program(ACTK_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(ACTK_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ACTK_WINE})
endif()
