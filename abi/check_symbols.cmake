# cmake -DNM=<nm> -DLIB=<libactk.so> -DLIST=<abi/actk.symbols> [-DUPDATE=ON] -P check_symbols.cmake
#
# The shared library's exported symbols (`nm -D --defined-only`, version
# suffixes dropped) must be exactly the names in abi/actk.symbols, one per
# line, sorted as `LC_ALL=C sort` sorts them. Any addition or removal fails
# with a diff:
#   + name   exported by the library, not in the list
#   - name   in the list, no longer exported
# A removal breaks every program linked against the library (a MAJOR
# version bump, a new soname). An addition is fine in a MINOR release, but it
# is a promise: the list changes in the same commit, where review sees it.
#
# -DUPDATE=ON rewrites the list from the library instead of checking
# (cmake --build <build> --target abi_update_symbols).

cmake_minimum_required(VERSION 3.20)

foreach(var NM LIB LIST)
  if(NOT ${var})
    message(FATAL_ERROR "abi_symbols: -D${var}=... is required")
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/read_exports.cmake)
actk_read_exports("${NM}" "${LIB}" exported)
list(LENGTH exported n_exported)

if(UPDATE)
  list(JOIN exported "\n" text)
  file(WRITE "${LIST}" "${text}\n")
  message(STATUS "abi_symbols: wrote ${n_exported} symbols of ${LIB} to ${LIST}")
  return()
endif()

if(NOT EXISTS "${LIST}")
  message(FATAL_ERROR "abi_symbols: ${LIST} does not exist")
endif()
file(STRINGS "${LIST}" listed)
set(problems "")
set(prev "")
set(sorted_ok TRUE)
foreach(name IN LISTS listed)
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    string(APPEND problems "${LIST}: not a symbol name: '${name}'\n")
  endif()
  if(NOT prev STREQUAL "" AND NOT prev STRLESS name)
    set(sorted_ok FALSE)
  endif()
  set(prev "${name}")
endforeach()
if(NOT sorted_ok)
  string(APPEND problems "${LIST} is not sorted and unique (LC_ALL=C sort -u)\n")
endif()

set(diff "")
set(n_added 0)
set(n_removed 0)
set(all ${exported} ${listed})
list(REMOVE_DUPLICATES all)
list(SORT all COMPARE STRING)
foreach(name IN LISTS all)
  if(NOT name IN_LIST listed)
    string(APPEND diff "  + ${name}\n")
    math(EXPR n_added "${n_added} + 1")
  elseif(NOT name IN_LIST exported)
    string(APPEND diff "  - ${name}\n")
    math(EXPR n_removed "${n_removed} + 1")
  endif()
endforeach()
if(diff)
  string(APPEND problems
         "the exported symbols of ${LIB} differ from ${LIST} "
         "(+ exported, not listed: ${n_added}; - listed, not exported: ${n_removed}):\n"
         "${diff}"
         "A removal breaks the ABI (major version, new soname). An addition belongs in a "
         "minor release: update the list in the same commit with\n"
         "  cmake --build <build> --target abi_update_symbols\n")
endif()

if(problems)
  # NOTICE prints the text as it is (FATAL_ERROR would re-wrap the diff)
  message(NOTICE "abi_symbols: ${problems}")
  message(FATAL_ERROR "abi_symbols: failed")
endif()
message(STATUS "abi_symbols: ${n_exported} exported symbols, exactly ${LIST}")
