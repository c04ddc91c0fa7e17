# cmake -DNM=<nm> -DLIB=<libactk.so> -DHEADER=<include/actk.h> -P test_symbols.cmake
#
# The shared library exports only symbols starting with actk_ (nothing else,
# nothing ignored), and exactly the functions include/actk.h declares ACTK_API:
# an internal actk_ function leaking out of the hidden visibility fails too,
# and so does an API function that is declared but not exported.

cmake_minimum_required(VERSION 3.20) # IN_LIST

foreach(var NM LIB HEADER)
  if(NOT ${var})
    message(FATAL_ERROR "test_symbols: -D${var}=... is required")
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/../abi/read_exports.cmake)
actk_read_exports("${NM}" "${LIB}" names)
set(exported "")
set(foreign "")
foreach(name IN LISTS names)
  if(name MATCHES "^actk_")
    list(APPEND exported "${name}")
  else()
    list(APPEND foreign "${name}")
  endif()
endforeach()

file(READ "${HEADER}" header)
string(REGEX MATCHALL "ACTK_API[^;(]*[ *]actk_[A-Za-z0-9_]+[ \t]*\\(" decls "${header}")
set(declared "")
foreach(d IN LISTS decls)
  string(REGEX MATCH "actk_[A-Za-z0-9_]+[ \t]*\\($" fn "${d}")
  string(REGEX REPLACE "[ \t]*\\($" "" fn "${fn}")
  list(APPEND declared "${fn}")
endforeach()

list(LENGTH exported n_exported)
list(LENGTH declared n_declared)
set(problems "")
if(foreign)
  string(REPLACE ";" "\n  " f "${foreign}")
  string(APPEND problems "exported symbols without the actk_ prefix:\n  ${f}\n")
endif()
if(n_declared EQUAL 0)
  string(APPEND problems "found no ACTK_API declarations in ${HEADER}\n")
endif()
foreach(fn IN LISTS exported)
  if(NOT fn IN_LIST declared)
    string(APPEND problems "exported but not declared ACTK_API in actk.h: ${fn}\n")
  endif()
endforeach()
foreach(fn IN LISTS declared)
  if(NOT fn IN_LIST exported)
    string(APPEND problems "declared ACTK_API in actk.h but not exported: ${fn}\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "test_symbols: ${LIB}:\n${problems}")
endif()
message(STATUS "test_symbols: ${n_exported} symbols exported, all actk_, all declared in actk.h")
