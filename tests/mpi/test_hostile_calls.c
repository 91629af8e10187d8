/*
 * The MPI_Alltoall drop-in under hostile and awkward calls, run
 * with libtotex_pmpi.so preloaded (tests/mpi/hostile_test.sh):
 *
 *   test_hostile_calls comm-null
 *       MPI_Alltoall(..., MPI_COMM_NULL) must call an error handler (ours,
 *       installed on MPI_COMM_WORLD and MPI_COMM_SELF, counts the calls) and
 *       return an error code, as MPI itself does; the drop-in used to return
 *       the error without calling any handler.
 *   test_hostile_calls sizes N
 *       MPI_Alltoall with N distinct block sizes (1..N ints per block, each
 *       result checked): with TOTEX_VERBOSE=2 the drop-in prints one line per
 *       plan, so the script counts how many sizes were ranked and timed
 *       ("timed here") and how many only compiled their size class's choice.
 *       Prints the wall time of the N calls on rank 0 ("sizes: N calls in S s").
 *
 * Exit 0 on success, 1 on a wrong result or a missing error-handler call, 2
 * on bad arguments.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int handler_calls;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    handler_calls++;
}

static int comm_null(void)
{
    MPI_Errhandler eh;
    int sbuf[4] = {0}, rbuf[4] = {0};
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    int rc = MPI_Alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_NULL);
    MPI_Errhandler_free(&eh);
    if (rc == MPI_SUCCESS || handler_calls != 1) {
        fprintf(stderr, "test_hostile_calls comm-null: MPI_Alltoall(MPI_COMM_NULL) returned %d, error handler called %d times (want an error and 1 call)\n",
                rc, handler_calls);
        return 1;
    }
    return 0;
}

static int sizes(int count)
{
    int n, me, bad = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int *s = malloc(sizeof *s * (size_t)n * (size_t)count), *r = malloc(sizeof *r * (size_t)n * (size_t)count);
    if (!s || !r)
        return 1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int k = 1; k <= count && !bad; k++) {
        for (int j = 0; j < n; j++)
            for (int e = 0; e < k; e++)
                s[j * k + e] = (me * 1000 + j) * 7 + e + k;
        memset(r, 0xff, sizeof *r * (size_t)n * (size_t)k);
        if (MPI_Alltoall(s, k, MPI_INT, r, k, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
            bad = 1;
        for (int i = 0; i < n && !bad; i++)
            for (int e = 0; e < k; e++)
                if (r[i * k + e] != (i * 1000 + me) * 7 + e + k) {
                    fprintf(stderr, "test_hostile_calls sizes: rank %d, %d ints per block: block from %d wrong\n", me,
                            k, i);
                    bad = 1;
                    break;
                }
    }
    double t = MPI_Wtime() - t0;
    int anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("sizes: %d calls in %.3f s\n", count, t);
    free(s);
    free(r);
    return anybad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rc;
    if (argc == 2 && !strcmp(argv[1], "comm-null")) {
        rc = comm_null();
    } else if (argc == 3 && !strcmp(argv[1], "sizes") && atoi(argv[2]) > 0) {
        rc = sizes(atoi(argv[2]));
    } else {
        fprintf(stderr, "usage: test_hostile_calls comm-null | sizes N\n");
        rc = 2;
    }
    MPI_Finalize();
    return rc;
}
