/* totex_alltoall_choice(): the choice a communicator and block size got, and the
 * TOTEX_VERBOSE line naming the function the program called.
 *
 * Run on 4 ranks (MPI_COMM_WORLD's virtual torus k2*k2) with TOTEX_VERBOSE=1, TOTEX_TUNE=0 and
 * the costs set (TOTEX_TS=2e-6 TOTEX_TC=1e-10 TOTEX_TL=1e-10), so that the choice is the cost
 * model's alone. Checked against an independent computation: the message-combining ranking of
 * the library (totex_comb_rank(), the combining simulator's predicted time under the same costs,
 * all-port wormhole: what `totex compare k2*k2 --model combining --port all` prints first), which
 * the tutorial shows agreeing with the MPI runtime's choice (docs/tutorial.md, section 8):
 *  1. before any call, and for a block size never called, out->planned is 0; NULL out is
 *     MPI_ERR_ARG, MPI_COMM_NULL is MPI_ERR_COMM;
 *  2. after a call with 2048-byte blocks: planned, the algorithm and steps of the ranking's first
 *     row, its predicted time within 2%, not timed (measured < 0: TOTEX_TUNE=0), not reused;
 *  3. 3000-byte blocks (the same size class 2048..4095): the class's choice, reused;
 *  4. rank 0's first call printed a line naming totex_alltoall (not MPI_Alltoall). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "totex.h"
#include "totex/mpi.h"

static int failures, rank, size;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL rank %d: ", rank);                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

/* one exchange of @p block bytes per block on @p comm, checked against PMPI_Alltoall */
static void exchange(MPI_Comm comm, int block)
{
    size_t all = (size_t)size * (size_t)block;
    unsigned char *s = calloc(all, 1), *r = calloc(all, 1), *want = calloc(all, 1);
    if (!s || !r || !want) {
        CHECK(0, "out of memory");
        exit(1);
    }
    for (size_t i = 0; i < all; i++)
        s[i] = (unsigned char)(i * 7 + (size_t)rank * 31);
    CHECK(totex_alltoall(s, block, MPI_BYTE, r, block, MPI_BYTE, comm) == MPI_SUCCESS, "totex_alltoall %d B", block);
    PMPI_Alltoall(s, block, MPI_BYTE, want, block, MPI_BYTE, comm);
    CHECK(!memcmp(r, want, all), "totex_alltoall %d B differs from PMPI_Alltoall", block);
    free(s);
    free(r);
    free(want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "test_choice: run on 4 ranks (got %d)\n", size);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);

    /* 1. nothing planned yet; bad arguments */
    totex_mpi_choice ch;
    CHECK(totex_alltoall_choice(comm, 2048, &ch) == MPI_SUCCESS && ch.planned == 0, "planned before any call");
    CHECK(totex_alltoall_choice(comm, 2048, NULL) == MPI_ERR_ARG, "NULL out accepted");
    CHECK(totex_alltoall_choice(MPI_COMM_NULL, 2048, &ch) == MPI_ERR_COMM && ch.planned == 0, "MPI_COMM_NULL accepted");

    /* 4 (set up): rank 0's stderr into a file around the first call */
    char path[] = "/tmp/totex-test-choice-XXXXXX";
    int saved = -1, fd = -1;
    if (rank == 0) {
        fflush(stderr);
        fd = mkstemp(path);
        saved = dup(2);
        CHECK(fd >= 0 && saved >= 0 && dup2(fd, 2) >= 0, "cannot redirect stderr");
    }
    exchange(comm, 2048);
    if (rank == 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        char text[4096] = "";
        ssize_t got = pread(fd, text, sizeof text - 1, 0);
        text[got > 0 ? got : 0] = '\0';
        close(fd);
        unlink(path);
        CHECK(strstr(text, "totex: totex_alltoall on 4 ranks, network k2*k2, 2048-byte blocks: ") != NULL,
              "the verbose line does not name totex_alltoall: '%s'", text);
        CHECK(strstr(text, "MPI_Alltoall on") == NULL, "the verbose line names MPI_Alltoall: '%s'", text);
    }

    /* 2. the choice of 2048-byte blocks against the combining ranking under the same costs */
    CHECK(totex_alltoall_choice(comm, 2048, &ch) == MPI_SUCCESS && ch.planned == 1, "2048 B not planned");
    totex_error err;
    totex_network *net = totex_network_parse("k2*k2", &err);
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.t_s = 2e-6;
    cost.t_c = 1e-10;
    cost.t_l = 1e-10;
    cost.m = 2048;
    size_t cap = totex_comb_algorithm_count();
    totex_comb_choice *rows = calloc(cap, sizeof *rows);
    size_t nrows = net && rows ? totex_comb_rank(net, &cost, rows, cap) : 0;
    CHECK(nrows > 0 && rows[0].status == TOTEX_OK, "no combining algorithm ranked on k2*k2");
    if (nrows > 0 && rows[0].status == TOTEX_OK) {
        const double want = rows[0].report.predicted_time;
        CHECK(!ch.unit && !strcmp(ch.algorithm, rows[0].algorithm->name), "algorithm %s (unit %d), ranking's first %s",
              ch.algorithm, ch.unit, rows[0].algorithm->name);
        CHECK(ch.steps == rows[0].report.startups, "steps %llu, ranking's first %llu start-ups", ch.steps,
              (unsigned long long)rows[0].report.startups);
        CHECK(fabs(ch.predicted_seconds - want) <= 0.02 * want, "predicted %.6g s, combining simulator %.6g s",
              ch.predicted_seconds, want);
    }
    CHECK(ch.chunks >= 1 && ch.ports == 0 && ch.label[0], "chunks %d, ports %d, label '%s'", ch.chunks, ch.ports,
          ch.label);
    CHECK(ch.measured_seconds < 0 && ch.reused == 0, "measured %.3g s (TOTEX_TUNE=0: not timed), reused %d",
          ch.measured_seconds, ch.reused);
    free(rows);
    totex_network_free(net);

    /* 1 again: a block size never called */
    CHECK(totex_alltoall_choice(comm, 4096, &ch) == MPI_SUCCESS && ch.planned == 0, "4096 B planned without a call");

    /* 3. another size of the same class: the class's choice, compiled again */
    totex_mpi_choice first;
    totex_alltoall_choice(comm, 2048, &first);
    exchange(comm, 3000);
    CHECK(totex_alltoall_choice(comm, 3000, &ch) == MPI_SUCCESS && ch.planned == 1, "3000 B not planned");
    CHECK(ch.reused == 1 && !strcmp(ch.algorithm, first.algorithm) && ch.measured_seconds < 0,
          "3000 B: reused %d, algorithm %s (2048 B: %s)", ch.reused, ch.algorithm, first.algorithm);

    MPI_Comm_free(&comm);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_choice: %s (%d failures)\n", all ? "FAILED" : "ok", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
