/*
 * Benchmark: the three forms of all-to-all through plain MPI calls (no totex
 * header or library: run it with the Open MPI component coll/totex selected, or
 * with the drop-in preloaded; bench/mpi/mpi_forms_bench.sh does both, alternating
 * launches). MPI_BYTE blocks of 8 B .. 64 KiB (8 * 4^k, then 64 KiB) on
 * MPI_COMM_WORLD.
 *
 * Per block size, after one untimed call of each form:
 * - blocking: ITERS back-to-back MPI_Alltoall, slowest rank's seconds per call;
 * - persistent: ITERS MPI_Start + MPI_Wait of one MPI_Alltoall_init request
 *   (MPIX_ in Open MPI 4.1), the same;
 * - pmpi: ITERS PMPI_Alltoall, the same. With the drop-in preloaded and the
 *   component selected in one launch, MPI_Alltoall is the drop-in's and
 *   PMPI_Alltoall the component's: the two paths timed in one process, under
 *   the same scheduling (the drop-in and the component each hold their own
 *   copy of totex, so each plans for itself). Otherwise both are the same path.
 *   These three are timed in an order that turns with the repetition;
 * - the init (a fresh request's MPI_Alltoall_init, slowest rank) beside the
 *   first blocking call of a fresh communicator of the same block size;
 * - overlap: MPI_Ialltoall, then a computation as long as one blocking call
 *   with an MPI_Test every 10 us, then MPI_Wait: that time over the longer of
 *   the two (1.0: the exchange hid entirely behind the computation).
 * REPS repetitions, the forms alternating in each; medians reported.
 *
 * usage: mpi_forms_bench [REPS [ITERS [MAX_BLOCK_BYTES]]]   (default 7, 100, 65536)
 * prints: block= blocking_us= persistent_us= persistent_over_blocking= init_us= first_call_us= overlap= pmpi_us=
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "bench_util.h"
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
#include <mpi-ext.h>
#define ALLTOALL_INIT MPIX_Alltoall_init
#else
#define ALLTOALL_INIT MPI_Alltoall_init
#endif


static double slowest(double t)
{
    double worst = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

static void ok(int rc)
{
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
}

/* spin for @p seconds, testing @p req every 10 us */
static void compute(double seconds, MPI_Request *req)
{
    const double t0 = MPI_Wtime();
    double next = t0;
    int flag = 0;
    while (MPI_Wtime() - t0 < seconds) {
        if (!flag && MPI_Wtime() >= next) {
            ok(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
            next += 10e-6;
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int reps = argc > 1 ? atoi(argv[1]) : 7, iters = argc > 2 ? atoi(argv[2]) : 100;
    const long maxb = argc > 3 ? atol(argv[3]) : 65536;
    if (reps < 1 || iters < 1 || maxb < 8) {
        if (rank == 0)
            fprintf(stderr, "usage: mpi_forms_bench [REPS >= 1 [ITERS >= 1 [MAX_BLOCK_BYTES >= 8]]]\n");
        MPI_Finalize();
        return 2;
    }
    char *send = calloc((size_t)size * (size_t)maxb, 1), *recv = calloc((size_t)size * (size_t)maxb, 1);
    double *tb = malloc(sizeof(double) * (size_t)reps), *tp = malloc(sizeof(double) * (size_t)reps),
           *ti = malloc(sizeof(double) * (size_t)reps), *tf = malloc(sizeof(double) * (size_t)reps),
           *to = malloc(sizeof(double) * (size_t)reps), *tq = malloc(sizeof(double) * (size_t)reps);
    for (long b = 8; b <= maxb; b = b * 4 > maxb && b < maxb ? maxb : b * 4) {
        const int n = (int)b;
        MPI_Request p;
        ok(ALLTOALL_INIT(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, &p));
        ok(MPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD));
        ok(MPI_Start(&p));
        ok(MPI_Wait(&p, MPI_STATUS_IGNORE));
        ok(PMPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD));
        for (int r = 0; r < reps; r++) {
            /* blocking, PMPI and persistent timed in an order that turns with the repetition */
            for (int k = 0; k < 3; k++) {
                const int form = (k + r) % 3;
                MPI_Barrier(MPI_COMM_WORLD);
                const double t = MPI_Wtime();
                for (int i = 0; i < iters; i++) {
                    if (form == 0) {
                        ok(MPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD));
                    } else if (form == 1) {
                        ok(PMPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD));
                    } else {
                        ok(MPI_Start(&p));
                        ok(MPI_Wait(&p, MPI_STATUS_IGNORE));
                    }
                }
                (form == 0 ? tb : form == 1 ? tq : tp)[r] = slowest((MPI_Wtime() - t) / iters);
            }
            double t0;
            /* the init of a fresh request, and the first blocking call on a fresh communicator */
            MPI_Comm c1, c2;
            MPI_Comm_dup(MPI_COMM_WORLD, &c1);
            MPI_Comm_dup(MPI_COMM_WORLD, &c2);
            MPI_Request q;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            ok(ALLTOALL_INIT(send, n, MPI_BYTE, recv, n, MPI_BYTE, c1, MPI_INFO_NULL, &q));
            ti[r] = slowest(MPI_Wtime() - t0);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            ok(MPI_Alltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, c2));
            tf[r] = slowest(MPI_Wtime() - t0);
            MPI_Request_free(&q);
            MPI_Comm_free(&c1);
            MPI_Comm_free(&c2);
            /* overlap: a computation as long as one blocking call beside MPI_Ialltoall */
            const double work = tb[r];
            MPI_Request nb;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            ok(MPI_Ialltoall(send, n, MPI_BYTE, recv, n, MPI_BYTE, MPI_COMM_WORLD, &nb));
            compute(work, &nb);
            ok(MPI_Wait(&nb, MPI_STATUS_IGNORE));
            to[r] = slowest(MPI_Wtime() - t0) / work;
        }
        MPI_Request_free(&p);
        const double b_us = bench_median(tb, reps) * 1e6, p_us = bench_median(tp, reps) * 1e6;
        if (rank == 0)
            printf("block=%ld ranks=%d blocking_us=%.2f persistent_us=%.2f persistent_over_blocking=%.3f "
                   "init_us=%.1f first_call_us=%.1f overlap=%.3f pmpi_us=%.2f\n",
                   b, size, b_us, p_us, p_us / b_us, bench_median(ti, reps) * 1e6, bench_median(tf, reps) * 1e6,
                   bench_median(to, reps), bench_median(tq, reps) * 1e6);
        if (b == maxb)
            break;
    }
    free(send);
    free(recv);
    free(tb);
    free(tp);
    free(ti);
    free(tf);
    free(to);
    free(tq);
    MPI_Finalize();
    return 0;
}
