/* Helpers shared by the MPI tests that compare totex_alltoall with PMPI_Alltoall. */
#ifndef TOTEX_TESTS_MPI_SUPPORT_H
#define TOTEX_TESTS_MPI_SUPPORT_H

#include <stddef.h>

#include <mpi.h>

#include "totex/network.h"

/* Fill len bytes of b with a pattern that differs per rank, per byte and per salt. */
void mpi_test_fill(unsigned char *b, size_t len, int rank, int salt);

/* A committed struct type of an int and a double, 4 bytes of gap between them and
   an extent of 24 (a trailing gap); the caller frees it with MPI_Type_free. */
MPI_Datatype mpi_test_struct_type(void);

/* A duplicate of MPI_COMM_WORLD (*comm, this rank *rank, *size ranks) and the torus its ranks stand for in
   the unit-step tests (k2*ring:4 for 8, ring:3*ring:3 for 9, ring:3*ring:4 for 12, ring:4*ring:4 for 16,
   ring:SIZE otherwise), one node per rank; MPI_Abort with a line if it cannot be made. The caller frees
   both (totex_network_free, MPI_Comm_free). */
totex_network *mpi_test_world_torus(MPI_Comm *comm, int *rank, int *size);

#endif
