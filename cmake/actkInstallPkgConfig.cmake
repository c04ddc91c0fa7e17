# Runs at install time (install(SCRIPT) from the top-level CMakeLists.txt):
# writes actk.pc for the prefix actually installed to, which
# `cmake --install <build> --prefix <P>` sets only now, and installs it into
# <libdir>/pkgconfig (DESTDIR is honoured by file(INSTALL)).
#
# Set by the install(CODE) just before: ACTK_PC_TEMPLATE, ACTK_PC_BINARY_DIR,
# ACTK_PC_VERSION, ACTK_PC_LIBDIR, ACTK_PC_INCLUDEDIR (GNUInstallDirs values,
# relative or absolute), ACTK_PC_REQUIRES_PRIVATE, ACTK_PC_LIBS_PRIVATE.

set(ACTK_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
if(IS_ABSOLUTE "${ACTK_PC_LIBDIR}")
  set(ACTK_PC_LIBDIR_VALUE "${ACTK_PC_LIBDIR}")
  set(_actk_pc_dir "${ACTK_PC_LIBDIR}/pkgconfig")
else()
  set(ACTK_PC_LIBDIR_VALUE "\${exec_prefix}/${ACTK_PC_LIBDIR}")
  set(_actk_pc_dir "${CMAKE_INSTALL_PREFIX}/${ACTK_PC_LIBDIR}/pkgconfig")
endif()
if(IS_ABSOLUTE "${ACTK_PC_INCLUDEDIR}")
  set(ACTK_PC_INCLUDEDIR_VALUE "${ACTK_PC_INCLUDEDIR}")
else()
  set(ACTK_PC_INCLUDEDIR_VALUE "\${prefix}/${ACTK_PC_INCLUDEDIR}")
endif()

# libcpuid's own libcpuid.pc supplies -lcpuid (and its -L) to pkg-config --static.
if(ACTK_PC_REQUIRES_PRIVATE)
  set(ACTK_PC_REQUIRES_PRIVATE_LINE "Requires.private: ${ACTK_PC_REQUIRES_PRIVATE}")
else()
  set(ACTK_PC_REQUIRES_PRIVATE_LINE "")
endif()

configure_file("${ACTK_PC_TEMPLATE}" "${ACTK_PC_BINARY_DIR}/pkgconfig/actk.pc" @ONLY)
file(INSTALL "${ACTK_PC_BINARY_DIR}/pkgconfig/actk.pc" DESTINATION "${_actk_pc_dir}")
unset(_actk_pc_dir)
