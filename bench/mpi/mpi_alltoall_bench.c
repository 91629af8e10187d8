/*
 * Benchmark: totex_alltoall against the MPI library's own
 * all-to-all (PMPI_Alltoall, i.e. Open MPI's even if libtotex_pmpi.so were
 * preloaded) on MPI_COMM_WORLD, MPI_BYTE blocks of 8 B .. 64 KiB (8 * 4^k,
 * then 64 KiB). Run under mpirun (bench/mpi/mpi_bench.sh runs 2 and 4 ranks).
 *
 * Per block size: one untimed call of each (totex builds and caches its plan
 * there), then REPS repetitions; a repetition times ITERS back-to-back calls
 * of one implementation after a barrier, taking the slowest rank's time, the
 * two implementations alternating within each repetition. Reported: median
 * microseconds per call over the repetitions, and totex / MPI (below 1: totex
 * faster). The results are checked equal once per size.
 *
 * usage: mpi_alltoall_bench [REPS [MAX_BLOCK_BYTES]]   (default 11, 65536)
 * Algorithm choice and cost model: as totex_alltoall (TOTEX_ALGORITHM, TOTEX_TS, TOTEX_TC).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex/mpi.h"


/* seconds per call of ITERS calls, slowest rank */
static double time_calls(int use_totex, const char *send, char *recv, int block, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        int rc = use_totex ? totex_alltoall(send, block, MPI_BYTE, recv, block, MPI_BYTE, MPI_COMM_WORLD)
                           : PMPI_Alltoall(send, block, MPI_BYTE, recv, block, MPI_BYTE, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double t = (MPI_Wtime() - t0) / iters, worst = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int reps = argc > 1 ? atoi(argv[1]) : 11;
    long maxb = argc > 2 ? atol(argv[2]) : 65536;
    if (reps < 1 || reps > 1000 || maxb < 8 || maxb > (1L << 24)) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [REPS [MAX_BLOCK_BYTES]]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    int sizes[16], ns = 0;
    for (long b = 8; b <= maxb && ns < 15; b *= 4)
        sizes[ns++] = (int)b;
    if (sizes[ns - 1] != maxb)
        sizes[ns++] = (int)maxb;
    size_t cap = (size_t)size * (size_t)maxb;
    char *send = malloc(cap), *r1 = malloc(cap), *r2 = malloc(cap);
    double *tt = malloc(sizeof(double) * (size_t)reps), *tm = malloc(sizeof(double) * (size_t)reps);
    if (!send || !r1 || !r2 || !tt || !tm)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < cap; i++)
        send[i] = (char)(rank * 31 + (int)(i * 7) + (int)(i >> 9));
    if (rank == 0) {
        printf("totex_alltoall vs MPI_Alltoall (PMPI), %d ranks, %d repetitions, median us per call\n", size, reps);
        printf("%5s %10s %7s %12s %12s %9s\n", "ranks", "block B", "iters", "MPI us", "totex us", "totex/MPI");
    }
    int ok = 1;
    for (int s = 0; s < ns; s++) {
        int block = sizes[s];
        size_t len = (size_t)size * (size_t)block;
        memset(r1, 0, len);
        memset(r2, 1, len);
        PMPI_Alltoall(send, block, MPI_BYTE, r1, block, MPI_BYTE, MPI_COMM_WORLD);
        totex_alltoall(send, block, MPI_BYTE, r2, block, MPI_BYTE, MPI_COMM_WORLD);
        int same = memcmp(r1, r2, len) == 0, all = 0;
        MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        ok &= all;
        /* about 20 ms of MPI_Alltoall per repetition, 5 .. 100000 calls */
        double probe = time_calls(0, send, r1, block, 5);
        int iters = probe > 0 ? (int)(0.02 / probe) : 100000;
        iters = iters < 5 ? 5 : iters > 100000 ? 100000 : iters;
        MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0; r < reps; r++) {
            if (r % 2) {
                tt[r] = time_calls(1, send, r2, block, iters);
                tm[r] = time_calls(0, send, r1, block, iters);
            } else {
                tm[r] = time_calls(0, send, r1, block, iters);
                tt[r] = time_calls(1, send, r2, block, iters);
            }
        }
        double mm = bench_median(tm, reps) * 1e6, mt = bench_median(tt, reps) * 1e6;
        if (rank == 0)
            printf("%5d %10d %7d %12.2f %12.2f %9.3f%s\n", size, block, iters, mm, mt, mt / mm,
                   all ? "" : "  RESULTS DIFFER");
    }
    if (rank == 0)
        printf("totex/MPI = median totex_alltoall time / median MPI_Alltoall time (below 1: totex faster)\n");
    free(send);
    free(r1);
    free(r2);
    free(tt);
    free(tm);
    MPI_Finalize();
    return ok ? 0 : 1;
}
