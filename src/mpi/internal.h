/* Shared by the totex_alltoall library entry and the MPI_Alltoall drop-in (pmpi.c). */
#ifndef TOTEX_MPI_INTERNAL_H
#define TOTEX_MPI_INTERNAL_H

#include <mpi.h>

/* Returned by totex_mpi_alltoall() when totex does not apply and the caller asked to fall back. */
#define TOTEX_MPI_FALLBACK (-1)

typedef struct totex_mpi_options {
    int fallback; /* nonzero: return TOTEX_MPI_FALLBACK (silently) where totex does not apply (intercommunicators) */
    int verbose;  /* nonzero: rank 0 prints once per communicator which algorithm runs or why it falls back */
    int unit;     /* nonzero: run a unit-step (store-and-forward) algorithm of totex/algorithm.h instead */
    const char *unit_algorithm; /* its name (NULL, "" or "auto": totex_algorithm_auto) */
    int unit_ports;             /* its port model: 0 multiport, k >= 1 k-port */
} totex_mpi_options;

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt);

#endif
