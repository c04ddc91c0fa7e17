# Reads the version from include/actk.h, its single source of truth:
#
#   #define ACTK_VERSION_MAJOR <n>
#   #define ACTK_VERSION_MINOR <n>
#   #define ACTK_VERSION_PATCH <n>
#
# and sets ACTK_HEADER_VERSION (MAJOR.MINOR.PATCH) for project(VERSION ...).
# Fails the configure step when a macro is missing, repeated or not a plain
# number, or when MINOR or PATCH does not fit the ACTK_VERSION encoding
# (MAJOR * 10000 + MINOR * 100 + PATCH). Included before project(), so it uses
# nothing project() sets up. Editing the header re-runs the configure step.

set(_actk_header "${CMAKE_CURRENT_LIST_DIR}/../include/actk.h")
get_filename_component(_actk_header "${_actk_header}" ABSOLUTE)
if(NOT EXISTS "${_actk_header}")
  message(FATAL_ERROR "actk version: ${_actk_header} not found")
endif()

set(ACTK_HEADER_VERSION "")
foreach(_part MAJOR MINOR PATCH)
  file(STRINGS "${_actk_header}" _lines REGEX "^[ \t]*#[ \t]*define[ \t]+ACTK_VERSION_${_part}[ \t]")
  list(LENGTH _lines _count)
  if(NOT _count EQUAL 1)
    message(FATAL_ERROR "actk version: expected one '#define ACTK_VERSION_${_part} <number>' "
                        "in ${_actk_header}, found ${_count}")
  endif()
  if(NOT _lines MATCHES "^[ \t]*#[ \t]*define[ \t]+ACTK_VERSION_${_part}[ \t]+([0-9]+)[ \t]*(/\\*.*)?$")
    message(FATAL_ERROR "actk version: ACTK_VERSION_${_part} in ${_actk_header} is not a plain "
                        "decimal number: '${_lines}'")
  endif()
  set(_value "${CMAKE_MATCH_1}")
  # "007" would be an octal literal in C: require the canonical spelling
  if(_value MATCHES "^0[0-9]")
    message(FATAL_ERROR "actk version: ACTK_VERSION_${_part} has a leading zero: '${_value}'")
  endif()
  if(NOT _part STREQUAL "MAJOR" AND _value GREATER 99)
    message(FATAL_ERROR "actk version: ACTK_VERSION_${_part} = ${_value} does not fit "
                        "ACTK_VERSION = MAJOR * 10000 + MINOR * 100 + PATCH (0..99)")
  endif()
  set(ACTK_HEADER_VERSION_${_part} "${_value}")
  list(APPEND ACTK_HEADER_VERSION "${_value}")
endforeach()
list(JOIN ACTK_HEADER_VERSION "." ACTK_HEADER_VERSION)

set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_actk_header}")
unset(_actk_header)
unset(_lines)
unset(_count)
unset(_part)
unset(_value)
