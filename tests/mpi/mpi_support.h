/* Helpers shared by the MPI tests that compare totex_alltoall with PMPI_Alltoall. */
#ifndef TOTEX_TESTS_MPI_SUPPORT_H
#define TOTEX_TESTS_MPI_SUPPORT_H

#include <stddef.h>

#include <mpi.h>

/* Fill len bytes of b with a pattern that differs per rank, per byte and per salt. */
void mpi_test_fill(unsigned char *b, size_t len, int rank, int salt);

/* A committed struct type of an int and a double, 4 bytes of gap between them and
   an extent of 24 (a trailing gap); the caller frees it with MPI_Type_free. */
MPI_Datatype mpi_test_struct_type(void);

#endif
