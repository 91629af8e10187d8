/* An ordinary MPI program that knows nothing of totex (docs/tutorial.md,
 * "Running it over MPI"): the ranks hold the rows of an n x n matrix A, a band
 * of ROWS rows each, and transpose it with one MPI_Alltoall, which brings each
 * rank the tiles of its band of A^T (each tile still to be transposed in
 * place); rank 0 reports whether every element arrived where it should. Run it
 * as is, or with libtotex_pmpi.so preloaded. Exit status 1 when wrong. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#define ROWS 16 /* rows (and columns of the transpose) per rank */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int n = ROWS * size; /* the matrix is n x n; element (i, j) = i * n + j */

    /* send: the ROWS x ROWS tile of my rows in column band p goes to rank p */
    double *send = malloc(sizeof(double) * ROWS * n), *recv = malloc(sizeof(double) * ROWS * n);
    for (int p = 0; p < size; p++)
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < ROWS; c++)
                send[(p * ROWS + r) * ROWS + c] = (double)(rank * ROWS + r) * n + (p * ROWS + c);
    MPI_Alltoall(send, ROWS * ROWS, MPI_DOUBLE, recv, ROWS * ROWS, MPI_DOUBLE, MPI_COMM_WORLD);

    /* tile p received: rank p's rows in my column band,
       A(p*ROWS + r, rank*ROWS + c) = A^T(rank*ROWS + c, p*ROWS + r) */
    long bad = 0;
    for (int p = 0; p < size; p++)
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < ROWS; c++)
                bad += recv[(p * ROWS + r) * ROWS + c] != (double)(p * ROWS + r) * n + (rank * ROWS + c);
    long total = 0;
    MPI_Reduce(&bad, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("transpose of a %d x %d matrix on %d ranks: %s\n", n, n, size, total ? "WRONG" : "correct");
    free(send);
    free(recv);
    MPI_Finalize();
    return total ? 1 : 0;
}
