/*
 * What a changing demand costs totex_alltoallv's choice in CPU (SimGrid SMPI: every rank in one process, so the
 * process's user CPU is every rank's; the simulated time does not see it). On a periodic Cartesian communicator
 * of the given dims, CALLS calls whose hot receiver moves every call (row and column totals new on every call),
 * then CALLS calls of one demand (a repeating pattern); blocks of 5 to 7 bytes, the hot receiver's 2000 (400 x).
 * Prints per phase "replan <phase> <calls> <simulated seconds per call>"; the script around it
 * (bench/smpi/alltoallv_replan.sh) reads the process's CPU.
 * Usage: alltoallv_replan D1xD2[xD3] CALLS PHASE   (PHASE: changing or repeating)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "totex/mpi.h"

static int count(int i, int j, int hot) { return i == j ? 0 : j == hot ? 2000 : 5 + (i + j) % 3; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n, dims[3] = {0, 0, 0}, per[3] = {1, 1, 1}, nd = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc < 4 || (nd = sscanf(argv[1], "%dx%dx%d", &dims[0], &dims[1], &dims[2])) < 2 ||
        (strcmp(argv[3], "changing") && strcmp(argv[3], "repeating"))) {
        if (rank == 0)
            fprintf(stderr, "usage: alltoallv_replan D1xD2[xD3] CALLS changing|repeating\n");
        MPI_Finalize();
        return 2;
    }
    const int calls = atoi(argv[2]), changing = !strcmp(argv[3], "changing");
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, per, 0, &cart);
    int *sc = malloc(n * sizeof *sc), *sd = malloc(n * sizeof *sd), *rc = malloc(n * sizeof *rc),
        *rd = malloc(n * sizeof *rd);
    char *s = malloc((size_t)n * 2000), *r = malloc((size_t)n * 2000);
    memset(s, 7, (size_t)n * 2000);
    int status = 0;
    MPI_Barrier(cart);
    double t = MPI_Wtime();
    for (int c = 0; c < calls; c++) {
        const int hot = changing ? c % n : n - 1;
        int so = 0, ro = 0;
        for (int j = 0; j < n; j++) {
            sc[j] = count(rank, j, hot), sd[j] = so, so += sc[j];
            rc[j] = count(j, rank, hot), rd[j] = ro, ro += rc[j];
        }
        if (totex_alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, cart) != MPI_SUCCESS)
            status = 1;
    }
    t = (MPI_Wtime() - t) / calls;
    if (rank == 0)
        printf("replan %s %d %.9g\n", argv[3], calls, t);
    MPI_Comm_free(&cart);
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
    MPI_Finalize();
    return status;
}
