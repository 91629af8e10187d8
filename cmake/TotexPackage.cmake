# The CMake package (issue 15), installed beside totex.pc:
#   <libdir>/cmake/totex/totexConfig.cmake, totexConfigVersion.cmake,
#   totexTargets.cmake (totex::totex, totex::totex_static) and, when MPI was
#   found, totexMPITargets.cmake (the MPI component: totex::mpi).
# The same package works from the build tree (issue 31): find_package(totex)
# with totex_DIR=<build dir> finds totexConfig.cmake there, and the targets
# exported below (totexTargets.cmake, totexMPITargets.cmake) name the build's
# libraries and the source tree's headers.
# Tested by tests/cmake_consumer_test.sh (a consumer project built against an
# installed copy and against the build tree). Included from the top-level
# CMakeLists.txt after the targets.
include(CMakePackageConfigHelpers)
set(TOTEX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/totex)
set_target_properties(totex_shared PROPERTIES EXPORT_NAME totex)
set_target_properties(totex PROPERTIES EXPORT_NAME totex_static)
target_include_directories(totex_shared PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(EXPORT totexTargets NAMESPACE totex:: DESTINATION ${TOTEX_CMAKE_DIR})
export(EXPORT totexTargets NAMESPACE totex:: FILE ${PROJECT_BINARY_DIR}/totexTargets.cmake)
if(TOTEX_HAVE_MPI)
  set_target_properties(totex_mpi PROPERTIES EXPORT_NAME mpi)
  install(TARGETS totex_mpi EXPORT totexMPITargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT totexMPITargets NAMESPACE totex:: DESTINATION ${TOTEX_CMAKE_DIR})
  export(EXPORT totexMPITargets NAMESPACE totex:: FILE ${PROJECT_BINARY_DIR}/totexMPITargets.cmake)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/totexConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/totexConfig.cmake INSTALL_DESTINATION ${TOTEX_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/totexConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/totexConfig.cmake ${PROJECT_BINARY_DIR}/totexConfigVersion.cmake
        DESTINATION ${TOTEX_CMAKE_DIR})
