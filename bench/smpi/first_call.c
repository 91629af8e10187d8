/*
 * First call of totex_alltoall at scale on SimGrid SMPI (docs/performance.md,
 * "First call at scale"): one call on a periodic Cartesian
 * communicator laid over the simulated torus, with whatever TOTEX_TUNE,
 * TOTEX_ALGORITHM... say (first_call.sh runs it with TOTEX_TUNE=0). SMPI runs
 * every rank in one process, so memory is measured on that process: the
 * growth of its peak RSS during the call (planning of every rank, buffers,
 * the exchange) and of its RSS after it (what the ranks keep: plans, arenas,
 * the cached state), each also divided by the number of ranks. Prints
 *   first_call totex|smpi RANKS DIMS BLOCK sim_s CPU_s PEAK_KIB KEPT_KIB PEAK_PER_RANK_KIB KEPT_PER_RANK_KIB ok|WRONG
 * (CPU_s: the process's CPU time during the call, every rank's planning included)
 * Usage: first_call D1xD2[xD3] [BLOCK_BYTES [mpi]]  (product of the sides = ranks;
 *        mpi: MPI_Alltoall instead, SMPI's algorithm of --cfg=smpi/alltoall, the baseline)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <mpi.h>

#include "totex/mpi.h"
#include "bench_util.h"
#include "smpi_torus.h"


/* CPU seconds of the process (every rank: SMPI runs them in it; its clocks are simulated) */
static double cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[3] = {1, 1, 1}, nd = argc > 1 ? sscanf(argv[1], "%dx%dx%d", &dims[0], &dims[1], &dims[2]) : 0;
    long block = argc > 2 ? atol(argv[2]) : 8;
    const int mpi = argc > 3 && strcmp(argv[3], "mpi") == 0;
    if (nd < 1 || dims[0] * dims[1] * dims[2] != size || block < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: %s D1xD2[xD3] [BLOCK_BYTES] (product of the sides = ranks)\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm cart = smpi_torus_comm(nd, dims);
    size_t cap = (size_t)size * (size_t)block;
    unsigned char *send = smpi_send_blocks(rank, size, block), *recv = malloc(cap);
    if (!recv)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(recv, 0, cap);
    long rss0 = 0;
    double w0 = 0;
    MPI_Barrier(cart);
    if (rank == 0) { /* every rank's buffers are allocated: reset the peak to the current RSS */
        FILE *f = fopen("/proc/self/clear_refs", "w");
        if (f) {
            fputs("5", f);
            fclose(f);
        }
        rss0 = status_kib("VmRSS:");
        w0 = cpu();
    }
    MPI_Barrier(cart);
    double t0 = MPI_Wtime();
    int rc = mpi ? MPI_Alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart)
                 : totex_alltoall(send, (int)block, MPI_BYTE, recv, (int)block, MPI_BYTE, cart);
    double t = MPI_Wtime() - t0, tmax = 0;
    int bad = rc != MPI_SUCCESS;
    for (int s = 0; s < size && !bad; s++)
        for (long i = 0; i < block; i++)
            bad |= recv[(size_t)s * block + i] != smpi_expect(s, rank, i);
    int anybad = 0;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, cart);
    MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, cart);
    if (rank == 0) {
        long peak = status_kib("VmHWM:") - rss0, kept = status_kib("VmRSS:") - rss0;
        printf("first_call %s %d %s %ld %.6g %.2f %ld %ld %.1f %.1f %s\n", mpi ? "smpi" : "totex", size, argv[1], block, tmax, cpu() - w0, peak,
               kept, (double)peak / size, (double)kept / size, anybad ? "WRONG" : "ok");
    }
    free(send);
    free(recv);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return anybad ? 1 : 0;
}
