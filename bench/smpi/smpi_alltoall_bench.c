/*
 * SimGrid SMPI benchmark: times one all-to-all
 * implementation on a Cartesian communicator laid over the simulated torus.
 * Built with smpicc and run by bench/smpi/run.sh once per implementation:
 *   smpi_alltoall_bench totex D1xD2[xD3] [ITERS [MAX_BLOCK [one]]]  -> totex_alltoall
 *   smpi_alltoall_bench mpi   D1xD2[xD3] [ITERS [MAX_BLOCK [one]]]  -> MPI_Alltoall, i.e. the
 *       SMPI algorithm chosen with --cfg=smpi/alltoall:NAME
 * Per block size (8 B * 4^k up to 8 KiB, then doubling: 16 KiB, 32 KiB, ... up
 * to MAX_BLOCK, then MAX_BLOCK; default 65536;
 * "one": MAX_BLOCK only, for tori of hundreds of ranks): one untimed call
 * (totex plans and caches there), one timed call alone, then ITERS (default 3) calls after a barrier;
 * then one call alone after a barrier (the first call after the choice), then
 * the ITERS calls; the slowest rank's simulated time per call is printed as
 *   "<impl> <block bytes> <seconds per call> <check> <seconds of the first call>"
 * where check is "ok" when the result equals the expected blocks (every byte
 * encodes source, destination and position), else "WRONG".
 * SMPI_SHARED=1 in the environment (simulation-only, for tori whose buffers
 * exceed the machine's memory): the send and receive buffers come from
 * SMPI_SHARED_MALLOC, one physical copy shared by every rank, whose contents
 * SMPI neither copies nor keeps per rank; the buffers are neither filled nor
 * checked and check reads "unverified". Simulated times do not depend on the
 * bytes moved, so they are those of the verified run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "smpi_torus.h"
#include "totex/mpi.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[3] = {1, 1, 1}, nd = 0;
    const char *impl = argc > 1 ? argv[1] : "";
    int use_totex = strcmp(impl, "totex") == 0;
    if (argc > 2)
        nd = sscanf(argv[2], "%dx%dx%d", &dims[0], &dims[1], &dims[2]);
    int iters = argc > 3 ? atoi(argv[3]) : 3;
    long maxb = argc > 4 ? atol(argv[4]) : 65536;
    int one = argc > 5 && strcmp(argv[5], "one") == 0;
    if ((!use_totex && strcmp(impl, "mpi") != 0) || nd < 1 || dims[0] * dims[1] * dims[2] != size || iters < 1 ||
        maxb < 8) {
        if (rank == 0)
            fprintf(stderr, "usage: %s totex|mpi D1xD2[xD3] (product = ranks) [ITERS [MAX_BLOCK [one]]]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm cart = smpi_torus_comm(nd, dims); /* rank r on simulated host node-r */
    size_t cap = (size_t)size * (size_t)maxb;
    const char *sh = getenv("SMPI_SHARED");
    int shared = sh && strcmp(sh, "1") == 0;
#ifdef SMPI_H
    unsigned char *send = shared ? SMPI_SHARED_MALLOC(cap) : malloc(cap);
    unsigned char *recv = shared ? SMPI_SHARED_MALLOC(cap) : malloc(cap);
#else
    if (shared) {
        if (rank == 0)
            fprintf(stderr, "%s: SMPI_SHARED=1 needs SimGrid's smpi.h (build with smpicc)\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    unsigned char *send = malloc(cap), *recv = malloc(cap);
#endif
    if (!send || !recv)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int status = 0;
    long sizes[16];
    int ns = 0;
    for (long b = 8; !one && b <= maxb && ns < 15; b *= b < 8192 ? 4 : 2)
        sizes[ns++] = b;
    if (!ns || sizes[ns - 1] != maxb)
        sizes[ns++] = maxb;
    for (int si = 0; si < ns; si++) {
        long block = sizes[si];
        for (int d = 0; d < size && !shared; d++)
            for (long i = 0; i < block; i++)
                send[(size_t)d * (size_t)block + (size_t)i] = smpi_expect(rank, d, i);
        if (!shared)
            memset(recv, 0, (size_t)size * (size_t)block);
        int rc = use_totex ? totex_alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart)
                           : MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart);
        int ok = rc == MPI_SUCCESS, all = 0;
        for (int s = 0; s < size && ok && !shared; s++)
            for (long i = 0; i < block && ok; i++)
                ok = recv[(size_t)s * (size_t)block + (size_t)i] == smpi_expect(s, rank, i);
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, cart);
        /* the first call after the choice, alone: what an application calling once per phase sees */
        MPI_Barrier(cart);
        double t1 = MPI_Wtime();
        use_totex ? totex_alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart)
                  : MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart);
        /* from the moment the last rank called to the moment the last one returned: SMPI's clock is
           the simulation's, one for all ranks, so the barrier's exit skew is not counted */
        double span[2] = {t1, MPI_Wtime()}, last[2] = {0, 0};
        MPI_Allreduce(span, last, 2, MPI_DOUBLE, MPI_MAX, cart);
        const double first_worst = last[1] - last[0];
        MPI_Barrier(cart);
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; it++)
            use_totex ? totex_alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart)
                      : MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart);
        double t = (MPI_Wtime() - t0) / iters, worst = 0;
        MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, cart);
        if (rank == 0) { /* flushed per size: a run stopped early keeps the sizes it finished */
            printf("%s %ld %.9e %s %.9e\n", impl, block, worst, !all ? "WRONG" : shared ? "unverified" : "ok",
                   first_worst);
            fflush(stdout);
        }
        status |= !all;
    }
#ifdef SMPI_H
    if (shared) {
        SMPI_SHARED_FREE(send);
        SMPI_SHARED_FREE(recv);
    } else
#endif
    {
        free(send);
        free(recv);
    }
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return status;
}
