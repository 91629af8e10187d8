/*
 * Overlap of a nonblocking total exchange with computation on SimGrid SMPI:
 * totex_ialltoall (or SMPI's own MPI_Ialltoall: argument "mpi") on a periodic
 * Cartesian communicator laid over the simulated torus (platform.sh).
 *
 * Per repetition, each timed on the simulation's one clock from a barrier to
 * the last rank's return (the maximum over ranks):
 *   exchange  post, then wait at once (the exchange alone);
 *   compute   COMPUTE seconds of simulated computation (smpi_execute_benched: simulated seconds) in
 *             slices of TEST_US microseconds, no communication;
 *   overlap   post, the same computation with a test after every slice, then
 *             wait.
 * COMPUTE is the mean exchange time (a computation as long as the exchange).
 * ratio = overlap / max(exchange, compute): 1 is perfect overlap, 2 none.
 * osu% = the OSU micro-benchmarks' overlap figure,
 * max(0, 100 * (1 - (overlap - compute) / exchange)).
 * Prints the first timed repetition ("first") beside the mean of REPS, and
 * checks every received byte.
 *
 *   overlap D1xD2[xD3] BLOCK_BYTES [REPS [TEST_US [mpi]]]
 * prints
 *   overlap IMPL DIMS BLOCK REPS TEST_US exchange_us compute_us overlap_us ratio osu% first_overlap_us first_ratio ok|WRONG
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <smpi/smpi.h>

#include "smpi_torus.h"
#include "totex/mpi.h"

struct ex {
    int mpi;
    const unsigned char *send;
    unsigned char *recv;
    int block;
    MPI_Comm comm;
    MPI_Request mreq;
    totex_request treq;
};

static int post(struct ex *e)
{
    return e->mpi ? MPI_Ialltoall(e->send, e->block, MPI_BYTE, e->recv, e->block, MPI_BYTE, e->comm, &e->mreq)
                  : totex_ialltoall(e->send, e->block, MPI_BYTE, e->recv, e->block, MPI_BYTE, e->comm, &e->treq);
}

static int test(struct ex *e)
{
    int flag = 0;
    if (e->mpi)
        MPI_Test(&e->mreq, &flag, MPI_STATUS_IGNORE);
    else
        totex_test(&e->treq, &flag);
    return flag;
}

static int wait(struct ex *e)
{
    return e->mpi ? MPI_Wait(&e->mreq, MPI_STATUS_IGNORE) : totex_wait(&e->treq);
}

/* @p seconds of simulated computation (a fixed amount of work, whatever the tests cost) in slices of
 * @p slice seconds, a test of @p e after each slice (NULL: none) */
static void compute(double seconds, double slice, struct ex *e)
{
    for (double done = 0; seconds - done > 1e-12; done += slice) {
        smpi_execute_benched(seconds - done < slice ? seconds - done : slice);
        if (e)
            test(e);
    }
}

/* the time of the slowest rank for one repetition of what (0 exchange, 1 compute, 2 overlap) */
static double once(struct ex *e, int what, double seconds, double slice, int *bad)
{
    MPI_Barrier(e->comm);
    double t0 = MPI_Wtime();
    if (what != 1 && post(e) != MPI_SUCCESS)
        *bad = 1;
    if (what != 0)
        compute(seconds, slice, what == 2 ? e : NULL);
    if (what != 1 && wait(e) != MPI_SUCCESS)
        *bad = 1;
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, e->comm);
    return tmax;
}

static int check(const struct ex *e, int rank, int size)
{
    int bad = 0;
    for (int s = 0; s < size && !bad; s++)
        for (long i = 0; i < e->block; i++)
            bad |= e->recv[(size_t)s * (size_t)e->block + (size_t)i] != smpi_expect(s, rank, i);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[3] = {1, 1, 1}, nd = argc > 1 ? sscanf(argv[1], "%dx%dx%d", &dims[0], &dims[1], &dims[2]) : 0;
    long block = argc > 2 ? atol(argv[2]) : 65536;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    double slice = (argc > 4 ? atof(argv[4]) : 10.0) * 1e-6;
    int mpi = argc > 5 && strcmp(argv[5], "mpi") == 0;
    if (nd < 1 || dims[0] * dims[1] * dims[2] != size || block < 1 || block > (1L << 30) || reps < 1 || slice <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: %s D1xD2[xD3] BLOCK_BYTES [REPS [TEST_US [mpi]]] (product of the sides = ranks)\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm cart = smpi_torus_comm(nd, dims);
    size_t cap = (size_t)size * (size_t)block;
    unsigned char *send = smpi_send_blocks(rank, size, block), *recv = malloc(cap);
    if (!recv)
        MPI_Abort(MPI_COMM_WORLD, 1);
    struct ex e = {.mpi = mpi, .send = send, .recv = recv, .block = (int)block, .comm = cart};
    int bad = 0;
    once(&e, 0, 0, slice, &bad); /* the choice and planning: not timed */
    bad |= check(&e, rank, size);
    double ex = 0, co = 0, ov = 0, first = 0;
    for (int r = 0; r < reps; r++)
        ex += once(&e, 0, 0, slice, &bad) / reps;
    for (int r = 0; r < reps; r++) {
        memset(recv, 0, cap);
        double t = once(&e, 2, ex, slice, &bad);
        bad |= check(&e, rank, size);
        if (r == 0)
            first = t;
        ov += t / reps;
    }
    for (int r = 0; r < reps; r++)
        co += once(&e, 1, ex, slice, &bad) / reps;
    int anybad = 0;
    MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, cart);
    if (rank == 0) {
        double longer = ex > co ? ex : co, osu = 100.0 * (1.0 - (ov - co) / ex);
        printf("overlap %s %s %ld %d %.0f %.2f %.2f %.2f %.3f %.1f %.2f %.3f %s\n", mpi ? "smpi" : "totex", argv[1], block,
               reps, slice * 1e6, ex * 1e6, co * 1e6, ov * 1e6, ov / longer, osu < 0 ? 0 : osu, first * 1e6,
               first / longer, anybad ? "WRONG" : "ok");
    }
    free(send);
    free(recv);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return anybad ? 1 : 0;
}
