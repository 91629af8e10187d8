/* What the SMPI bench programs (first_call.c, overlap.c, smpi_alltoall_bench.c, smpi_alltoallv_bench.c)
 * share: the periodic Cartesian communicator laid over the simulated torus of platform.sh, and send blocks
 * whose bytes say where they go. */
#ifndef TOTEX_BENCH_SMPI_TORUS_H
#define TOTEX_BENCH_SMPI_TORUS_H

#include <stdlib.h>

#include <mpi.h>

/* byte i of the block rank src sends to rank dst */
static inline unsigned char smpi_expect(int src, int dst, long i)
{
    return (unsigned char)(src * 131 + dst * 29 + i * 7 + (i >> 8));
}

/* a periodic Cartesian communicator of @p nd (1 .. 3) sides @p dims (their product: the world's size) with
   rank r on simulated host node-r (SimGrid numbers the first side fastest, MPI the last) */
static inline MPI_Comm smpi_torus_comm(int nd, const int *dims)
{
    int periods[3] = {1, 1, 1}, rdims[3];
    for (int i = 0; i < nd; i++)
        rdims[i] = dims[nd - 1 - i];
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, nd, rdims, periods, 0, &cart);
    return cart;
}

/* @p size blocks of @p block bytes (block d for rank d, byte i smpi_expect(rank, d, i)), malloc'ed; MPI_Abort
   when out of memory */
static inline unsigned char *smpi_send_blocks(int rank, int size, long block)
{
    unsigned char *send = malloc((size_t)size * (size_t)block);
    if (!send)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int d = 0; d < size; d++)
        for (long i = 0; i < block; i++)
            send[(size_t)d * (size_t)block + (size_t)i] = smpi_expect(rank, d, i);
    return send;
}

#endif
