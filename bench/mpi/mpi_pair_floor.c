/*
 * What a checked 2-rank call of 8-byte blocks can cost at best (Open MPI target):
 * the MPI calls alone of totex's short path against MPI_Alltoall, in the same launch.
 *
 * Usage: mpirun -np 2 mpi_pair_floor [REPS]   (default 11; exactly 2 ranks)
 *
 * Per repetition (about 20 ms each, the variants in turn, the order rotating), seconds per call of
 * the slowest rank; printed: the median over REPS and its ratio to MPI_Alltoall's median.
 *   MPI_Alltoall        PMPI_Alltoall of 8-byte blocks (the reference)
 *   unchecked calls     MPI_Irecv, MPI_Isend of the 8 bytes, MPI_Waitall: totex with TOTEX_CHECK=0
 *   checked calls       MPI_Isend of the 8 bytes with the header in the tag, MPI_Irecv of any tag into a
 *                       buffer of header + 4096 bytes, MPI_Wait, MPI_Get_count, MPI_Test, on a second
 *                       duplicate: the MPI calls of totex's checked short path (src/mpi/agree.c
 *                       header_tag), without totex's own code
 *   header in front     the same with the 24-byte header in front of the 8 bytes, on one tag: the
 *                       short path before the header went into the tag (e60938a)
 *   message of B bytes  the unchecked calls with a B-byte message (B = 8, 12, 16, 32): what the header's
 *                       bytes cost by themselves
 *   totex_alltoall      the library, check on, 8-byte blocks
 * "checked calls" / MPI_Alltoall is the floor of totex's checked short path: totex_alltoall cannot go
 * below it. On a 2-core shared virtual machine an Open MPI shared-memory message of more than 8 bytes cost
 * about 10 ns more than one of 8 bytes in the machine's fast phases and about 45 ns more in its slow ones,
 * so "header in front" moved between 0.88 and 1.24 over the day; "checked calls" stays with the unchecked
 * ones (0.84 .. 1.00; 2026-11-27, 15 launches).
 * Exit 0; 1 on a wrong result or a failed MPI call (out of memory: MPI_Abort); 2 on bad arguments
 * (not exactly 2 ranks, REPS outside 1 .. 1000), with a one-line message.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/mpi.h"

enum { HDR = 24, CARRY = 4096, NV = 9, TOTEX_V = 8 };
static char send_blk[16], recv_blk[16], stage[HDR + 64], hdr_in[HDR + CARRY];

static const char *const names[NV] = {"MPI_Alltoall",        "unchecked calls",     "checked calls",
                                      "header in front",     "message of 8 bytes",  "message of 12 bytes",
                                      "message of 16 bytes", "message of 32 bytes", "totex_alltoall"};
static const int msg_bytes[NV] = {0, 8, 0, 0, 8, 12, 16, 32, 0};
static MPI_Comm hdr_comm; /* the checked calls' headers (totex: st->hdr) */

static int one_call(int v, MPI_Comm comm, int peer)
{
    MPI_Request r[2];
    MPI_Status st;
    int count = 0, flag = 0, rc;
    switch (v) {
    case 0:
        return PMPI_Alltoall(send_blk, 8, MPI_BYTE, recv_blk, 8, MPI_BYTE, comm);
    case 3:
        memcpy(stage + HDR, send_blk + 8 * peer, 8);
        if ((rc = MPI_Isend(stage, HDR + 8, MPI_BYTE, peer, 7, comm, &r[1])) != MPI_SUCCESS ||
            (rc = MPI_Irecv(hdr_in, HDR + CARRY, MPI_BYTE, peer, 7, comm, &r[0])) != MPI_SUCCESS)
            return rc;
        memcpy(recv_blk + 8 * (1 - peer), send_blk + 8 * (1 - peer), 8);
        if ((rc = MPI_Wait(&r[0], &st)) != MPI_SUCCESS || (rc = MPI_Get_count(&st, MPI_BYTE, &count)) != MPI_SUCCESS)
            return rc;
        if (count != HDR + 8)
            return MPI_ERR_COUNT;
        memcpy(recv_blk + 8 * peer, hdr_in + HDR, 8);
        if ((rc = MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return rc;
        return flag ? MPI_SUCCESS : MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    case 2:
        memcpy(stage, send_blk + 8 * peer, 8);
        if ((rc = MPI_Isend(stage, 8, MPI_BYTE, peer, 2 + 8, hdr_comm, &r[1])) != MPI_SUCCESS ||
            (rc = MPI_Irecv(hdr_in, HDR + CARRY, MPI_BYTE, peer, MPI_ANY_TAG, hdr_comm, &r[0])) != MPI_SUCCESS)
            return rc;
        memcpy(recv_blk + 8 * (1 - peer), send_blk + 8 * (1 - peer), 8);
        if ((rc = MPI_Wait(&r[0], &st)) != MPI_SUCCESS || (rc = MPI_Get_count(&st, MPI_BYTE, &count)) != MPI_SUCCESS)
            return rc;
        if (count != 8 || st.MPI_TAG != 2 + 8)
            return MPI_ERR_COUNT;
        memcpy(recv_blk + 8 * peer, hdr_in, 8);
        if ((rc = MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return rc;
        return flag ? MPI_SUCCESS : MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    case TOTEX_V:
        return totex_alltoall(send_blk, 8, MPI_BYTE, recv_blk, 8, MPI_BYTE, comm);
    default: /* the unchecked calls, a message of msg_bytes[v] bytes */
        if ((rc = MPI_Irecv(hdr_in, HDR + CARRY, MPI_BYTE, peer, 5, comm, &r[0])) != MPI_SUCCESS ||
            (rc = MPI_Isend(stage, msg_bytes[v], MPI_BYTE, peer, 5, comm, &r[1])) != MPI_SUCCESS)
            return rc;
        memcpy(recv_blk + 8 * (1 - peer), send_blk + 8 * (1 - peer), 8);
        return MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
}

/* seconds per call of @p iters calls, slowest rank (-1: a call failed) */
static double time_calls(int v, MPI_Comm comm, int peer, int iters)
{
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    int ok = 1;
    for (int i = 0; i < iters && ok; i++)
        ok = one_call(v, comm, peer) == MPI_SUCCESS;
    double t = ok ? (MPI_Wtime() - t0) / iters : -1, worst = 0, least = 0;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(&t, &least, 1, MPI_DOUBLE, MPI_MIN, comm);
    return least < 0 ? -1 : worst;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int reps = argc > 1 ? atoi(argv[1]) : 11;
    if (size != 2 || reps < 1 || reps > 1000) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s [REPS (1 .. 1000, default 11)]: exactly 2 ranks (got %d)\n", argv[0],
                    size);
        MPI_Finalize();
        return 2;
    }
    const int peer = 1 - rank;
    for (int j = 0; j < 16; j++)
        send_blk[j] = (char)(rank * 16 + j + 1);
    MPI_Comm comm; /* the raw patterns on a communicator of their own, as totex's check has its duplicate */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &hdr_comm);
    /* results: the peer's block for this rank arrives (in recv_blk, or hdr_in for the unchecked calls),
       this rank's own block is in place */
    int good = 1;
    const int checked[5] = {0, 1, 2, 3, TOTEX_V};
    for (int k = 0; k < 5; k++) {
        const int v = checked[k];
        memset(recv_blk, 0, sizeof recv_blk);
        memset(hdr_in, 0, sizeof hdr_in);
        if (v == 1)
            memcpy(stage, send_blk + 8 * peer, 8);
        const int rc = one_call(v, comm, peer);
        const char *got = v == 1 ? hdr_in : recv_blk + 8 * peer;
        for (int b = 0; b < 8; b++)
            good &= rc == MPI_SUCCESS && got[b] == (char)(peer * 16 + 8 * rank + b + 1) &&
                    recv_blk[8 * rank + b] == send_blk[8 * rank + b];
    }
    int all = 0;
    MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    double probe = time_calls(0, comm, peer, 1000);
    int iters = probe > 0 ? (int)(0.02 / probe) : 1000;
    iters = iters < 100 ? 100 : iters > 200000 ? 200000 : iters;
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    double *t = malloc(sizeof(double) * (size_t)(NV * reps));
    if (!t)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < reps && all; r++)
        for (int k = 0; k < NV; k++) {
            const int v = (k + r) % NV;
            t[v * reps + r] = time_calls(v, comm, peer, iters);
            all &= t[v * reps + r] > 0;
        }
    if (rank == 0) {
        printf("2 ranks, 8-byte blocks, %d repetitions of %d calls, median us per call (slowest rank)\n", reps, iters);
        double med[NV];
        for (int v = 0; v < NV && all; v++) {
            qsort(t + v * reps, (size_t)reps, sizeof *t, cmp_double);
            med[v] = reps % 2 ? t[v * reps + reps / 2] : 0.5 * (t[v * reps + reps / 2 - 1] + t[v * reps + reps / 2]);
            printf("%-22s %8.3f us  %6.3f x MPI_Alltoall\n", names[v], med[v] * 1e6, med[v] / med[0]);
        }
        if (!all)
            printf("mpi_pair_floor: a variant failed or delivered a wrong block\n");
    }
    free(t);
    MPI_Comm_free(&comm);
    MPI_Comm_free(&hdr_comm);
    MPI_Finalize();
    return all ? 0 : 1;
}
