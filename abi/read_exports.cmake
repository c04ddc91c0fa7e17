# actk_read_exports(<nm> <library> <out-var>): the names the shared library
# exports (`nm -D --defined-only`, "@version" suffixes dropped), sorted and
# unique. Shared by abi/check_symbols.cmake and tests/test_symbols.cmake.
function(actk_read_exports nm lib out)
  execute_process(COMMAND "${nm}" -D --defined-only "${lib}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${nm} -D --defined-only ${lib} failed (${rc}): ${err}")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(names "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      continue()
    endif()
    # "<address> <type> <name>[@[@]version]": the name is the last field
    string(REGEX REPLACE "^.*[ \t]" "" name "${line}")
    string(REGEX REPLACE "@.*$" "" name "${name}")
    list(APPEND names "${name}")
  endforeach()
  list(REMOVE_DUPLICATES names)
  list(SORT names COMPARE STRING)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
