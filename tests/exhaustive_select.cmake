# Included by ctest (TEST_INCLUDE_FILES of tests/CMakeLists.txt) each time it
# reads the test list: adds the exhaustive entries (ACTK_EXHAUSTIVE_TESTS, a
# generated file) only when this ctest was asked for them, so that plain
# `ctest` neither runs nor lists them, without "Not Run" or "Disabled" lines.
#
# Asked for: ACTK_TEST_EXHAUSTIVE=1 in the environment (0 keeps them out), or
# a label regex (-L/--label-regex) on ctest's command line that matches
# "exhaustive". ctest does not tell a test file its arguments, so they are
# read from /proc/self/cmdline (Linux; elsewhere use the variable).
set(actk_want_exhaustive OFF)
if(DEFINED ENV{ACTK_TEST_EXHAUSTIVE} AND NOT "$ENV{ACTK_TEST_EXHAUSTIVE}" STREQUAL "")
  if("$ENV{ACTK_TEST_EXHAUSTIVE}")
    set(actk_want_exhaustive ON)
  endif()
elseif(EXISTS /proc/self/cmdline)
  file(STRINGS /proc/self/cmdline actk_ctest_args) # split at the NULs
  set(actk_next_is_label OFF)
  foreach(a IN LISTS actk_ctest_args)
    if(actk_next_is_label AND "exhaustive" MATCHES "${a}")
      set(actk_want_exhaustive ON)
    endif()
    set(actk_next_is_label OFF)
    if(a STREQUAL "-L" OR a STREQUAL "--label-regex")
      set(actk_next_is_label ON)
    endif()
  endforeach()
endif()
if(actk_want_exhaustive)
  include("${ACTK_EXHAUSTIVE_TESTS}")
endif()
