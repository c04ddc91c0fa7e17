# cmake -DOBJDUMP=<objdump> -DOBJECTS=<a.obj|b.obj|...> -P test_stack_align.cmake
#
# Windows x64 (MinGW-w64 gcc): GCC bug 54412. The Win64 ABI keeps the stack
# 16-byte aligned and upstream gcc does not realign it for 32- and 64-byte
# vectors, yet may spill them with aligned moves (vmovaps/vmovdqa ...): a
# fault on every other call, only on Windows. Debian's gcc-mingw-w64 carries a
# patch (Debian #939559, since 21.5) that emits unaligned moves instead; other
# MinGW toolchains may not. This check fails on any aligned 32/64-byte move
# whose memory operand is on the stack (rsp or rbp based, unless that function
# realigned rsp) or behind any other register: Win64 passes vector arguments by
# reference to a copy on the caller's stack, and that patch leaves masked loads
# aligned (out-of-line rare-lane functions faulted so under Wine). Aligned loads
# of constants from .rdata, rip-relative, are fine: the linker aligns them.
cmake_minimum_required(VERSION 3.20)
foreach(var OBJDUMP OBJECTS)
  if(NOT ${var})
    message(FATAL_ERROR "test_stack_align: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" objects "${OBJECTS}")
set(bad "")
set(n_vector 0)
foreach(obj IN LISTS objects)
  execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${obj}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -d ${obj} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "%[yz]mm[0-9]+" vector_regs "${text}")
  list(LENGTH vector_regs n)
  math(EXPR n_vector "${n_vector} + ${n}")
  # a function's header, a realignment of rsp, an aligned vector move: a
  # function that realigns rsp (clang does; upstream gcc on Win64 does not)
  # may use aligned moves on its own frame
  string(REGEX MATCHALL
         "[^\n]*(<[^>\n]+>:|and[ \t]+\\$0xf+[ce]0,%rsp|vmov(aps|apd|dqa|dqa32|dqa64|ntps|ntpd|ntdq)[ \t]+[^\n]*%[yz]mm[^\n]*)"
         lines "${text}")
  set(fn "?")
  set(realigned OFF)
  foreach(line IN LISTS lines)
    if(line MATCHES "<([^>]+)>:")
      set(fn "${CMAKE_MATCH_1}")
      set(realigned OFF)
    elseif(line MATCHES "and[ \t]+\\$0xf+[ce]0,%rsp")
      set(realigned ON)
    elseif(NOT realigned AND line MATCHES "\\((%rsp|%rbp)[),]")
      string(STRIP "${line}" line)
      get_filename_component(name "${obj}" NAME)
      list(APPEND bad "${name} ${fn}: ${line}")
    elseif(line MATCHES "\\(%r[a-z0-9]+[),]" AND NOT line MATCHES "%rip")
      # through a pointer: Win64 passes vector arguments by reference, to a copy on the
      # caller's 16-byte-aligned stack (the rare-lane functions faulted so under Wine)
      string(STRIP "${line}" line)
      get_filename_component(name "${obj}" NAME)
      list(APPEND bad "${name} ${fn}: ${line}")
    endif()
  endforeach()
endforeach()
if(n_vector EQUAL 0)
  message(FATAL_ERROR "test_stack_align: no ymm/zmm operand in the objects: wrong files?")
endif()
if(bad)
  list(LENGTH bad n_bad)
  list(SUBLIST bad 0 20 shown)
  string(REPLACE ";" "\n  " shown "${shown}")
  message(FATAL_ERROR "test_stack_align: ${n_bad} aligned 32/64-byte moves on the stack "
                      "(GCC bug 54412: they fault on Windows when the stack is only 16-byte "
                      "aligned):\n  ${shown}")
endif()
message(STATUS "test_stack_align: ${n_vector} ymm/zmm operands, no aligned move on the stack")
