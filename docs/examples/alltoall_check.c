/* totex_alltoall on a 2-D periodic Cartesian communicator, checked against
 * MPI_Alltoall (docs/tutorial.md, "Running it over MPI"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <totex/mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* a 2-D torus: MPI chooses the sides, both dimensions wrap around */
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm torus;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &torus);
    MPI_Comm_rank(torus, &rank);

    /* block j of the send buffer (4 ints) goes to rank j */
    const int count = 4;
    size_t len = (size_t)size * count;
    int *send = malloc(len * sizeof *send);
    int *got = malloc(len * sizeof *got);
    int *want = malloc(len * sizeof *want);
    for (size_t i = 0; i < len; i++)
        send[i] = rank * 100000 + (int)i;

    int rc = totex_alltoall(send, count, MPI_INT, got, count, MPI_INT, torus);
    MPI_Alltoall(send, count, MPI_INT, want, count, MPI_INT, torus);

    int ok = rc == MPI_SUCCESS && memcmp(got, want, len * sizeof *got) == 0, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, torus);
    if (rank == 0 && rc != MPI_SUCCESS) { /* every rank returns the same code */
        char why[MPI_MAX_ERROR_STRING];
        int whylen;
        MPI_Error_string(rc, why, &whylen);
        printf("totex_alltoall failed: %s\n", why);
    } else if (rank == 0) {
        printf("%d ranks, %d x %d torus: totex_alltoall %s MPI_Alltoall\n", size, dims[0], dims[1],
               all_ok ? "agrees with" : "DIFFERS from");
    }

    /* what totex chose for this communicator and block size (the same on every rank) */
    totex_mpi_choice ch;
    if (rank == 0 && totex_alltoall_choice(torus, count * sizeof(int), &ch) == MPI_SUCCESS && ch.planned) {
        printf("choice: %s, %llu steps, predicted %.3g s", ch.label, ch.steps, ch.predicted_seconds);
        if (ch.measured_seconds >= 0)
            printf(", measured %.3g s", ch.measured_seconds);
        printf("\n");
    }

    free(send);
    free(got);
    free(want);
    MPI_Comm_free(&torus);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
