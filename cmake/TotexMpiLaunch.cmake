# Included by the top-level CMakeLists.txt when MPI is found: how the MPI tests
# launch their ranks (sets TOTEX_MPI_FLAVOR, MPIEXEC_EXECUTABLE, TOTEX_MPI_RUN_TESTS,
# TOTEX_MPIEXEC_FLAGS, TOTEX_MPI_ENV, TOTEX_MPI_MAX_NP and totex_mpi_fits()).
# How the tests (tests/mpi, docs/examples) run mpiexec depends on the MPI:
# TOTEX_MPI_FLAVOR is OpenMPI or MPICH (mpi.h's OMPI_MAJOR_VERSION or
# MPICH_VERSION; MPICH's derivatives count as MPICH), else unknown, and
# the launcher MPIEXEC_EXECUTABLE must be the same MPI's (its --version
# names Open MPI or HYDRA/MPICH). Building against MPICH on Debian, where
# the default mpicc/mpiexec are Open MPI's, takes both hints:
#   -DMPI_C_COMPILER=/usr/bin/mpicc.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich
# (with the first only, FindMPI picks Open MPI's mpiexec: the one next to
# mpicc.mpich is used instead, and failing that the tests are skipped).
set(TOTEX_MPI_FLAVOR unknown)
foreach(dir IN LISTS MPI_C_INCLUDE_DIRS MPI_C_HEADER_DIR)
  if(EXISTS "${dir}/mpi.h")
    file(STRINGS "${dir}/mpi.h" TOTEX_MPI_H_DEFS REGEX "^#[ \t]*define[ \t]+(OMPI_MAJOR_VERSION|MPICH_VERSION)[ \t]")
    if(TOTEX_MPI_H_DEFS MATCHES "OMPI_MAJOR_VERSION")
      set(TOTEX_MPI_FLAVOR OpenMPI)
    elseif(TOTEX_MPI_H_DEFS MATCHES "MPICH_VERSION")
      set(TOTEX_MPI_FLAVOR MPICH)
    endif()
    break()
  endif()
endforeach()
function(totex_mpiexec_flavor exe out)
  set(flavor unknown)
  if(exe)
    execute_process(COMMAND ${exe} --version OUTPUT_VARIABLE text ERROR_VARIABLE text TIMEOUT 30)
    if(text MATCHES "Open MPI|OpenRTE")
      set(flavor OpenMPI)
    elseif(text MATCHES "HYDRA|MPICH")
      set(flavor MPICH)
    endif()
  endif()
  set(${out} ${flavor} PARENT_SCOPE)
endfunction()
totex_mpiexec_flavor("${MPIEXEC_EXECUTABLE}" TOTEX_MPIEXEC_FLAVOR)
set(TOTEX_MPI_RUN_TESTS ON)
if(NOT TOTEX_MPI_FLAVOR STREQUAL "unknown" AND NOT TOTEX_MPIEXEC_FLAVOR STREQUAL TOTEX_MPI_FLAVOR)
  # Debian names: mpiexec.mpich / mpiexec.openmpi next to mpicc.mpich / mpicc.openmpi
  get_filename_component(TOTEX_MPICC_DIR "${MPI_C_COMPILER}" DIRECTORY)
  string(TOLOWER "${TOTEX_MPI_FLAVOR}" TOTEX_MPI_SUFFIX)
  set(TOTEX_MPIEXEC_MATCH "")
  foreach(name mpiexec.${TOTEX_MPI_SUFFIX} mpirun.${TOTEX_MPI_SUFFIX} mpiexec.hydra)
    foreach(dir ${TOTEX_MPICC_DIR} /usr/bin)
      if(NOT TOTEX_MPIEXEC_MATCH AND dir AND EXISTS "${dir}/${name}")
        totex_mpiexec_flavor("${dir}/${name}" TOTEX_CANDIDATE_FLAVOR)
        if(TOTEX_CANDIDATE_FLAVOR STREQUAL TOTEX_MPI_FLAVOR)
          set(TOTEX_MPIEXEC_MATCH "${dir}/${name}")
        endif()
      endif()
    endforeach()
  endforeach()
  if(TOTEX_MPIEXEC_MATCH)
    message(STATUS "totex: mpiexec ${MPIEXEC_EXECUTABLE} is ${TOTEX_MPIEXEC_FLAVOR}'s, the library "
                   "${TOTEX_MPI_FLAVOR}'s: the tests run ${TOTEX_MPIEXEC_MATCH} (set MPIEXEC_EXECUTABLE)")
    set(MPIEXEC_EXECUTABLE "${TOTEX_MPIEXEC_MATCH}")
    set(TOTEX_MPIEXEC_FLAVOR ${TOTEX_MPI_FLAVOR})
  else()
    message(WARNING "totex: mpiexec ${MPIEXEC_EXECUTABLE} is ${TOTEX_MPIEXEC_FLAVOR}'s, the library "
                    "${TOTEX_MPI_FLAVOR}'s: MPI tests skipped (set MPIEXEC_EXECUTABLE to ${TOTEX_MPI_FLAVOR}'s)")
    set(TOTEX_MPI_RUN_TESTS OFF)
  endif()
endif()
if(TOTEX_MPI_FLAVOR STREQUAL "unknown")
  set(TOTEX_MPI_FLAVOR ${TOTEX_MPIEXEC_FLAVOR})
endif()
if(TOTEX_MPI_FLAVOR STREQUAL "MPICH" AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  # MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1 and its prototypes take
  # MPI_Status arrays: GCC >= 11 reports MPI_Waitall(n, req, MPI_STATUSES_IGNORE)
  # as "accessing 20 bytes in a region of size 0" (a false positive MPICH
  # keeps, pmodels/mpich#5687), an error with TOTEX_WERROR
  target_compile_options(totex_mpi PRIVATE -Wno-stringop-overflow)
  target_compile_options(totex_pmpi PRIVATE -Wno-stringop-overflow)
endif()
# TOTEX_MPIEXEC_FLAGS go first on every mpiexec line of the tests;
# TOTEX_MPI_ENV is the tests' environment (scripts' own mpirun lines).
# Variables for the ranks are not passed with launcher flags (Open MPI's
# -x VAR=VALUE, hydra's -genv VAR VALUE) but by starting
# `env VAR=VALUE program`, which both accept and which keeps LD_PRELOAD out
# of mpiexec itself.
set(TOTEX_MPIEXEC_FLAGS)
set(TOTEX_MPI_ENV)
if(TOTEX_MPI_FLAVOR STREQUAL "OpenMPI")
  # as root Open MPI refuses to run without --allow-run-as-root; more ranks than cores: oversubscribe
  set(TOTEX_MPIEXEC_FLAGS --oversubscribe)
  execute_process(COMMAND id -u OUTPUT_VARIABLE TOTEX_UID OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(TOTEX_UID STREQUAL "0")
    list(APPEND TOTEX_MPIEXEC_FLAGS --allow-run-as-root)
  endif()
  set(TOTEX_MPI_ENV OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
endif()
# MPICH's hydra runs as root and more ranks than cores without flags, but its
# ranks busy-poll without yielding (MPICH 4.0: no setting changes that), so a
# rank waiting on one that is not scheduled costs a time slice: with more
# ranks than cores each message takes milliseconds (a barrier on 4 ranks on
# 2 cores: 8 ms, against 6 us under Open MPI; test_alltoall on 16 ranks:
# minutes). So the MPI tests on more ranks than TOTEX_MPI_MAX_NP are
# skipped: 0 (Open MPI's default) means no limit; MPICH's default is the
# number of cores but at least 4 (the tests on 3 and 4 ranks, the drop-in's
# among them: about 50 s on 2 cores).
set(TOTEX_MPI_DEFAULT_MAX_NP 0)
if(TOTEX_MPI_FLAVOR STREQUAL "MPICH")
  cmake_host_system_information(RESULT TOTEX_MPI_DEFAULT_MAX_NP QUERY NUMBER_OF_LOGICAL_CORES)
  if(TOTEX_MPI_DEFAULT_MAX_NP LESS 4)
    set(TOTEX_MPI_DEFAULT_MAX_NP 4)
  endif()
endif()
set(TOTEX_MPI_MAX_NP ${TOTEX_MPI_DEFAULT_MAX_NP} CACHE STRING
    "MPI tests on more ranks than this are skipped (0: no limit; default: 0, under MPICH the cores but at least 4)")
# totex_mpi_fits(NAME NP OUT): OUT is ON if the test NAME on NP ranks is
# within TOTEX_MPI_MAX_NP, else OFF and NAME is listed as skipped
function(totex_mpi_fits name np out)
  if(TOTEX_MPI_MAX_NP GREATER 0 AND np GREATER TOTEX_MPI_MAX_NP)
    set_property(GLOBAL APPEND PROPERTY TOTEX_MPI_SKIPPED_TESTS "${name}(${np})")
    set(${out} OFF PARENT_SCOPE)
  else()
    set(${out} ON PARENT_SCOPE)
  endif()
endfunction()
list(JOIN TOTEX_MPIEXEC_FLAGS " " TOTEX_MPIEXEC_FLAGS_SHOWN)
message(STATUS "totex: MPI tests run ${MPIEXEC_EXECUTABLE} (${TOTEX_MPI_FLAVOR}) ${TOTEX_MPIEXEC_FLAGS_SHOWN}")

# add_test(NAME name) running COMMAND ... under mpiexec on np ranks (skipped and
# listed above TOTEX_MPI_MAX_NP, see totex_mpi_fits), time-out 120 s, environment
# TOTEX_MPI_ENV plus the ENV entries (VAR=VALUE). With STALL s (a test that prints
# a line per case): run by tests/mpi/progress_test.sh, which fails it after s
# seconds without a new line (a hang; it prints the ranks' stacks), and time-out
# 900 s (under MPICH with more ranks than cores a slow run is not a hang: issue 11).
function(totex_mpi_add_test name np)
  cmake_parse_arguments(T "" "STALL" "ENV;COMMAND" ${ARGN})
  totex_mpi_fits(${name} ${np} fits)
  if(fits)
    set(run ${MPIEXEC_EXECUTABLE} ${TOTEX_MPIEXEC_FLAGS} ${MPIEXEC_NUMPROC_FLAG} ${np} ${T_COMMAND})
    set(timeout 120)
    if(T_STALL)
      set(run ${CMAKE_SOURCE_DIR}/tests/mpi/progress_test.sh ${T_STALL} ${run})
      set(timeout 900)
    endif()
    add_test(NAME ${name} COMMAND ${run})
    set(env ${TOTEX_MPI_ENV} ${T_ENV})
    set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} ENVIRONMENT "${env}")
  endif()
endfunction()
