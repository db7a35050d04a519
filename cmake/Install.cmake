# The C package: `cmake --install <build> --prefix <prefix>` installs
#
#   <prefix>/lib/realmdb/libdb.so.<version>       the library (SONAME libdb.so.<ABI major>)
#   <prefix>/lib/realmdb/libdb.so.<major>, libdb.so  its links
#   <prefix>/include/realmdb/db.h                  the header
#   <prefix>/lib/pkgconfig/realmdb.pc              for `cc app.c $(pkg-config --cflags --libs realmdb)`
#   <prefix>/lib/cmake/realmdb/                    for `find_package(realmdb)`, target realmdb::db
#   <prefix>/bin/realmdb                           the command (realmdb --help), with the Python
#   <prefix>/lib/realmdb/python/realmdb/           binding it runs on, driving the library above
#
# The library and header sit in a realmdb/ directory of their own: Berkeley DB installs
# <prefix>/lib/<arch>/libdb.so as its development link, and the two must coexist. Programs
# built through either file find the library at run time by the RUNPATH they are linked with.
# Included by CMakeLists.txt when it compiles the library (not for a prebuilt REALMDB_LIBRARY).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(REALMDB_INSTALL_LIBDIR "${CMAKE_INSTALL_LIBDIR}/realmdb")
set(REALMDB_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/realmdb")
set(REALMDB_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/realmdb")

target_include_directories(db INTERFACE "$<INSTALL_INTERFACE:${REALMDB_INSTALL_INCLUDEDIR}>")
install(TARGETS db EXPORT realmdbTargets
    LIBRARY DESTINATION "${REALMDB_INSTALL_LIBDIR}")
install(FILES "${REALMDB_PUBLIC_INCLUDE}/db.h" DESTINATION "${REALMDB_INSTALL_INCLUDEDIR}")

install(EXPORT realmdbTargets NAMESPACE realmdb:: DESTINATION "${REALMDB_INSTALL_CMAKEDIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/realmdbConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/realmdbConfig.cmake" INSTALL_DESTINATION "${REALMDB_INSTALL_CMAKEDIR}")
# A program built against one ABI major version runs with any later minor version of it.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/realmdbConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/realmdbConfig.cmake" "${PROJECT_BINARY_DIR}/realmdbConfigVersion.cmake"
    DESTINATION "${REALMDB_INSTALL_CMAKEDIR}")

# pkg-config: paths relative to the .pc file's own directory, so that the installed tree may move.
file(RELATIVE_PATH REALMDB_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" REALMDB_PC_TO_PREFIX "${REALMDB_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/realmdb.pc.in" "${PROJECT_BINARY_DIR}/realmdb.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/realmdb.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# The realmdb command: the Python binding's, run by python3 with the binding installed beside the
# library (no pip needed), on the library installed here.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/bindings/python/realmdb" DESTINATION "${REALMDB_INSTALL_LIBDIR}/python"
    PATTERN "__pycache__" EXCLUDE)
file(RELATIVE_PATH REALMDB_BIN_TO_LIBDIR "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${REALMDB_INSTALL_LIBDIR}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/realmdb-command.in" "${PROJECT_BINARY_DIR}/realmdb" @ONLY)
install(PROGRAMS "${PROJECT_BINARY_DIR}/realmdb" DESTINATION "${CMAKE_INSTALL_BINDIR}")
