# trx_install.cmake - the shared library (versioned soname) next to the static
# one, and `make install` / `cmake --install`: the trx CLI, its man page, the
# public headers, libtrx.a and libtrx.so.X.Y.Z, the recorder sources, ports
# and the FreeRTOS integration for firmware builds, the GDB script, a
# pkg-config file and a CMake package (find_package(trx): trx::trx,
# trx::trx_static and trx_add_recorder()). Included by the top CMakeLists.txt.
include(GNUInstallDirs)

# The same sources as the static library, position-independent, as libtrx.so.
add_library(trx_shared SHARED ${TRX_LIB_SOURCES} ${TRX_CATALOG_C} ${TRX_REPORT_C})
add_dependencies(trx_shared trx_report_assets) # the report page is generated once
target_include_directories(trx_shared PUBLIC "${CMAKE_SOURCE_DIR}/include"
                           PRIVATE "${CMAKE_SOURCE_DIR}/lib")
target_compile_definitions(trx_shared PRIVATE _POSIX_C_SOURCE=200809L _DEFAULT_SOURCE)
if(TRX_LIBC_HAS_PTHREAD AND NOT WIN32)
  target_compile_definitions(trx_shared PRIVATE TRX_HAVE_PTHREAD) # see CMakeLists.txt
endif()
set_target_properties(trx_shared PROPERTIES OUTPUT_NAME trx VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR}
                      LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/shared")
if(NOT WIN32)
  target_link_libraries(trx_shared PRIVATE m)
endif()

set(TRX_SHARE "${CMAKE_INSTALL_DATADIR}/trx")
install(TARGETS trx_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(TARGETS trx ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS trx_shared LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(FILES "${CMAKE_SOURCE_DIR}/docs/trx.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/include/trx" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
# Firmware side: recorder sources, ports, integrations (no build files).
install(DIRECTORY "${CMAKE_SOURCE_DIR}/recorder/" DESTINATION "${TRX_SHARE}/recorder"
        FILES_MATCHING PATTERN "*.c" PATTERN "*.h" PATTERN "*.trxc")
install(FILES "${CMAKE_SOURCE_DIR}/tools/gdb/trx.py" DESTINATION "${TRX_SHARE}/gdb")

# pkg-config and the CMake package, with paths relative to the prefix.
configure_file("${CMAKE_SOURCE_DIR}/cmake/trx.pc.in" "${CMAKE_BINARY_DIR}/package/trx.pc" @ONLY)
configure_file("${CMAKE_SOURCE_DIR}/cmake/trxConfig.cmake.in"
               "${CMAKE_BINARY_DIR}/package/trxConfig.cmake" @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/package/trxConfigVersion.cmake"
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES "${CMAKE_BINARY_DIR}/package/trx.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
install(FILES "${CMAKE_BINARY_DIR}/package/trxConfig.cmake"
              "${CMAKE_BINARY_DIR}/package/trxConfigVersion.cmake"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/trx")
