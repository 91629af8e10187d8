/* The cross-rank check's header leaves before any wait, forced
 * deterministically on 4 ranks: a periodic 2 x 2 Cartesian communicator
 * (network k2*k2) runs a2 single-port, one message per transfer, whose
 * program on rank 0 sends twice to rank 2 (steps 1 and 2; the second waits,
 * by the window of one transfer per link, until rank 2 has received the
 * first: a synchronous send) before its first message to rank 1, which
 * carries rank 0's header. Plans for 1-byte and 8-byte blocks are cached on
 * every rank, then a call with mismatched counts: rank 1 passes 8 bytes, the
 * others 1; ranks 2 and 3 start that call only after rank 1's call has
 * returned. So rank 1 can only learn of the mismatch from rank 0's header,
 * and rank 2 takes no message from rank 0 before rank 1 returns: if rank 0
 * made its header wait behind the synchronous send to rank 2, the four ranks
 * would wait for each other for ever (the test then fails after 60 s). Every
 * rank must return MPI_ERR_COUNT, then a correct call must work. Run under
 * mpirun with 4 ranks (other sizes: skipped, exit 0). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "totex/mpi.h"

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL test_header_first: no return within 60 s: the ranks wait for each other (the "
                              "header does not leave before the executor's waits)\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(1);
    _exit(1);
}

/* totex_alltoall of count bytes per block; 0 if correct (or if the call failed with want) */
static int call(MPI_Comm comm, int rank, int size, int count, int want)
{
    unsigned char s[64], r[64];
    for (int i = 0; i < size * count; i++)
        s[i] = (unsigned char)(rank * 16 + i);
    memset(r, 0xEE, sizeof r);
    int rc = totex_alltoall(s, count, MPI_BYTE, r, count, MPI_BYTE, comm);
    if (rc != want) {
        fprintf(stderr, "FAIL rank %d: totex_alltoall of %d bytes returned %d, want %d\n", rank, count, rc, want);
        return 1;
    }
    if (want != MPI_SUCCESS)
        return 0;
    for (int j = 0; j < size; j++)
        for (int b = 0; b < count; b++)
            if (r[j * count + b] != (unsigned char)(j * 16 + rank * count + b)) {
                fprintf(stderr, "FAIL rank %d: byte %d of the block from rank %d differs\n", rank, b, j);
                return 1;
            }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            printf("test_header_first: needs 4 ranks (has %d): skipped\n", size);
        MPI_Finalize();
        return 0;
    }
    setenv("TOTEX_ALGORITHM", "a2", 1);
    setenv("TOTEX_CHUNKS", "1", 1);
    setenv("TOTEX_STAGGER", "0", 1);
    setenv("TOTEX_CHECK", "1", 1);
    int dims[2] = {2, 2}, periods[2] = {1, 1}, failures = 0;
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    failures += call(cart, rank, size, 1, MPI_SUCCESS); /* plans cached for 1 and 8 bytes */
    failures += call(cart, rank, size, 8, MPI_SUCCESS);
    failures += call(cart, rank, size, 1, MPI_SUCCESS);
    signal(SIGALRM, on_alarm);
    alarm(60);
    int go = 0;
    if (rank >= 2) /* rank 2 and 3 join the mismatched call only once rank 1 has returned from it */
        MPI_Recv(&go, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    failures += call(cart, rank, size, rank == 1 ? 8 : 1, MPI_ERR_COUNT);
    if (rank == 1)
        for (int r = 2; r < 4; r++)
            MPI_Send(&go, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
    failures += call(cart, rank, size, 1, MPI_SUCCESS); /* a correct call works afterwards */
    alarm(0);
    MPI_Comm_free(&cart);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_header_first: mismatched call with ranks 2 and 3 late: %s (%d failures)\n",
               all ? "FAILED" : "ok", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
