# The ISAs. Their one list is include/actk.h's enum actk_isa (ACTK_ISA_<NAME> =
# <value>: public, only appended); this file reads it into ACTK_ISAS (lower
# case, in the header's order) and says how each is built: the architecture
# it runs on (any, X86 or ARM64: ACTK_X86/ACTK_ARM64 of the top CMakeLists),
# its implementation file and that file's own target flags, per compiler (only that file
# gets them: docs/contributing.md, adding an ISA). ACTK_BUILD_ISAS: the ISAs
# this build compiles; ACTK_ISA_FLAGS_<isa>: each one's flags, as a list (the
# tests that compile code per ISA take them). A header ISA without its build
# facts here stops the configure.
file(STRINGS ${PROJECT_SOURCE_DIR}/include/actk.h actk_isa_lines
     REGEX "^[ \t]*ACTK_ISA_[A-Z0-9_]+[ \t]*=[ \t]*[0-9]+")
set(ACTK_ISAS "")
foreach(line IN LISTS actk_isa_lines)
  string(REGEX REPLACE "^[ \t]*ACTK_ISA_([A-Z0-9_]+).*" "\\1" isa "${line}")
  string(TOLOWER "${isa}" isa)
  list(APPEND ACTK_ISAS ${isa})
endforeach()
if(NOT "scalar" IN_LIST ACTK_ISAS)
  message(FATAL_ERROR "cmake/isas.cmake: could not read the isas from include/actk.h (got: ${ACTK_ISAS})")
endif()
# a new ISA in the header re-runs the configure step
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/actk.h)

# <isa>: architecture, implementation file, its flags for GCC and clang, its
# flags for MSVC (each space-separated; MSVC's /arch:AVX2 implies FMA and
# F16C, /arch:AVX512 F, CD, BW, DQ and VL; untested: docs/platforms.md)
set(actk_isa_scalar any src/scalar/impl_scalar.c "" "")
set(actk_isa_avx2 X86 src/x86/impl_avx2.c "-mavx2 -mfma -mf16c" "/arch:AVX2")
set(actk_isa_avx512 X86 src/x86/impl_avx512.c
                    "-mavx512f -mavx512dq -mavx512bw -mavx512vl -mfma -mf16c" "/arch:AVX512")
set(actk_isa_neon ARM64 src/arm/impl_neon.c "" "") # NEON is AArch64's baseline: no flags

set(ACTK_BUILD_ISAS "")
set(ACTK_ISA_SOURCES "")
foreach(isa IN LISTS ACTK_ISAS)
  if(NOT DEFINED actk_isa_${isa})
    message(FATAL_ERROR "cmake/isas.cmake: include/actk.h declares the isa '${isa}' but it has no "
                        "build facts here: add set(actk_isa_${isa} <arch> <file> <flags>)")
  endif()
  list(LENGTH actk_isa_${isa} n_facts)
  if(NOT n_facts EQUAL 4)
    message(FATAL_ERROR "cmake/isas.cmake: actk_isa_${isa} has ${n_facts} entries, want 4: "
                        "<arch> <file> <gcc/clang flags> <msvc flags> (\"\" for none)")
  endif()
  list(GET actk_isa_${isa} 0 arch)
  list(GET actk_isa_${isa} 1 file)
  if(ACTK_MSVC)
    list(GET actk_isa_${isa} 3 flags)
  else()
    list(GET actk_isa_${isa} 2 flags)
  endif()
  if(arch STREQUAL "any" OR ACTK_${arch})
    separate_arguments(flags UNIX_COMMAND "${flags}")
    set(ACTK_ISA_FLAGS_${isa} ${flags})
    list(APPEND ACTK_BUILD_ISAS ${isa})
    list(APPEND ACTK_ISA_SOURCES ${file})
    if(flags)
      set_source_files_properties(${file} PROPERTIES COMPILE_OPTIONS "${flags}")
    endif()
  endif()
endforeach()
