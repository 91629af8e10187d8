/* Shared by the totex_alltoall library entry and the MPI_Alltoall drop-in (pmpi.c). */
#ifndef TOTEX_MPI_INTERNAL_H
#define TOTEX_MPI_INTERNAL_H

#include <mpi.h>

/* Returned by totex_mpi_alltoall() when totex does not apply and the caller asked to fall back. */
#define TOTEX_MPI_FALLBACK (-1)

typedef struct totex_mpi_options {
    int fallback; /* nonzero: return TOTEX_MPI_FALLBACK (silently) where totex does not apply (intercommunicators) */
    int verbose;  /* nonzero: rank 0 prints once per communicator which algorithm runs or why it falls back */
} totex_mpi_options;

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt);

#endif
