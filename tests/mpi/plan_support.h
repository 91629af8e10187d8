/* Helpers of the MPI tests that compile one rank's program without MPI (test_carry.c,
   test_recv_window.c): the program of a unit-step schedule as plan.c compiles it. */
#ifndef TOTEX_TESTS_MPI_PLAN_SUPPORT_H
#define TOTEX_TESTS_MPI_PLAN_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Rank @p me's program of unit-step algorithm @p a under @p ports on @p net (rank = node), blocks of
   @p slot bytes, @p chunks per transfer, lanes staggered or not, the default arena of
   TOTEX_PROG_ARENA_BLOCKS_PER_RANK blocks per rank or (@p tight) bytes reused as soon as free, messages
   under @p pad bytes padded (0: none), window 1 and the check's ring as plan.c sets them. Returns the
   plan (free with totex_mpi_plan_free), or NULL with the reason in @p why (@p cap bytes). */
totex_mpi_plan *mpi_test_compile_unit(const totex_network *net, const totex_algorithm *a, totex_ports ports,
                                      uint32_t me, long long slot, int chunks, int stagger, int tight, int pad,
                                      char *why, size_t cap);

#endif
