# coll/totex, the Open MPI collective component (src/ompi/): built when the MPI
# is Open MPI and its internal headers are found (Debian's libopenmpi-dev ships
# them under <include>/openmpi: ompi/mca/coll/coll.h, ompi_config.h). The
# module lands in ${CMAKE_BINARY_DIR}/ompi/mca_coll_totex.so (usable from the
# build tree: mpirun --mca mca_component_path <Open MPI's pkglibdir>:<that folder>)
# and `cmake --install` puts it where Open MPI looks for components: its
# pkglibdir (`ompi_info --path pkglibdir`) when totex's install prefix is Open
# MPI's own (-DCMAKE_INSTALL_PREFIX=/usr on Debian), else <prefix>/lib/openmpi
# (then name that folder in mca_component_path; a staged install never writes
# into the system's Open MPI). -DTOTEX_OMPI_COMPONENT_DIR=DIR installs it in DIR.
# Sets TOTEX_OMPI_COMPONENT (ON when built) and TOTEX_OMPI_PKGLIBDIR.
set(TOTEX_OMPI_COMPONENT OFF)
set(TOTEX_OMPI_INTERNAL_DIR "")
if(NOT TOTEX_MPI_FLAVOR STREQUAL "OpenMPI")
  message(STATUS "totex: the Open MPI component (coll/totex) is skipped: the MPI is ${TOTEX_MPI_FLAVOR}, not Open MPI")
  return()
endif()
foreach(dir IN LISTS MPI_C_INCLUDE_DIRS MPI_C_HEADER_DIR)
  foreach(sub "" "/openmpi")
    if(NOT TOTEX_OMPI_INTERNAL_DIR AND EXISTS "${dir}${sub}/ompi/mca/coll/coll.h" AND EXISTS "${dir}${sub}/ompi_config.h")
      set(TOTEX_OMPI_INTERNAL_DIR "${dir}${sub}")
    endif()
  endforeach()
endforeach()
if(NOT TOTEX_OMPI_INTERNAL_DIR)
  message(STATUS "totex: the Open MPI component (coll/totex) is skipped: Open MPI's internal headers "
                 "(ompi/mca/coll/coll.h, ompi_config.h) are not under ${MPI_C_INCLUDE_DIRS} "
                 "(Debian: apt-get install libopenmpi-dev)")
  return()
endif()
find_program(TOTEX_OMPI_INFO ompi_info HINTS ${MPI_C_COMPILER_DIR})
# ompi_info --path NAME: one of Open MPI's folders into OUT ("" without ompi_info)
function(totex_ompi_path name out)
  set(path "")
  if(TOTEX_OMPI_INFO)
    execute_process(COMMAND ${TOTEX_OMPI_INFO} --path ${name} --parsable OUTPUT_VARIABLE text ERROR_QUIET TIMEOUT 60)
    if(text MATCHES "path:${name}:([^\n]*)")
      set(path "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${path}" PARENT_SCOPE)
endfunction()
totex_ompi_path(pkglibdir TOTEX_OMPI_PKGLIBDIR)
totex_ompi_path(prefix TOTEX_OMPI_PREFIX)
if(TOTEX_OMPI_PKGLIBDIR AND TOTEX_OMPI_PREFIX AND CMAKE_INSTALL_PREFIX STREQUAL TOTEX_OMPI_PREFIX)
  set(default_dir "${TOTEX_OMPI_PKGLIBDIR}")
else()
  set(default_dir "${CMAKE_INSTALL_LIBDIR}/openmpi")
endif()
set(TOTEX_OMPI_COMPONENT_DIR "${default_dir}" CACHE PATH
    "where cmake --install puts mca_coll_totex.so (Open MPI's pkglibdir when the install prefix is Open MPI's)")
add_library(mca_coll_totex MODULE src/ompi/coll_totex_component.c src/ompi/coll_totex_module.c
            ${TOTEX_MPI_SOURCES} $<TARGET_OBJECTS:totex_objects>)
set_target_properties(mca_coll_totex PROPERTIES PREFIX "" LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/ompi
                      C_VISIBILITY_PRESET hidden)
target_include_directories(mca_coll_totex PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src/mpi
                                                  ${CMAKE_CURRENT_SOURCE_DIR}/src/program ${TOTEX_OMPI_INTERNAL_DIR})
# its own copy of totex binds to itself (a program linking libtotex_mpi too keeps its own)
target_link_options(mca_coll_totex PRIVATE -Wl,-Bsymbolic)
target_link_libraries(mca_coll_totex PRIVATE MPI::MPI_C PkgConfig::IGRAPH PkgConfig::JSONC PkgConfig::CAIRO
                      PkgConfig::LIBXML2 ${TOTEX_MIP_LIBS} m)
install(TARGETS mca_coll_totex LIBRARY DESTINATION ${TOTEX_OMPI_COMPONENT_DIR})
set(TOTEX_OMPI_COMPONENT ON)
message(STATUS "totex: building the Open MPI component coll/totex (${CMAKE_BINARY_DIR}/ompi/mca_coll_totex.so; "
               "installed to ${TOTEX_OMPI_COMPONENT_DIR})")
