/* totex_ialltoall and totex_alltoall_init / totex_start against the MPI
 * library's own all-to-all (PMPI_Alltoall), byte for byte: the world and
 * Cartesian communicators (2-D periodic and not, 3-D), MPI_BYTE blocks of 0,
 * 1, 8, 1000 and 64 KiB, MPI_INT, a vector and a struct type, MPI_IN_PLACE;
 * several nonblocking calls outstanding on one communicator and on two,
 * completed in an order that differs from rank to rank; a blocking call while
 * one is outstanding; a persistent request started 1000 times (argument
 * starts=N: N times) with new send
 * contents each time (the expected blocks computed from the fill formula,
 * not by MPI); a derived datatype freed after the init; a nonblocking call
 * completed after 65 blocking calls of other sizes emptied the plan cache. With argument
 * "mismatch" also: counts that differ across ranks (nonblocking and
 * persistent) and a rank that calls the blocking form while the others call
 * the nonblocking one: an error on every rank, no hang. Exit status non-zero
 * on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/mpi.h"

#include "mpi_support.h"

static int failures;
static int rank, wsize;

#include "mpi_check.h"

/* one exchange of @p count elements of @p type per block on @p comm: the reference by PMPI_Alltoall, then
   totex_ialltoall completed by totex_wait (@p by_test: by a loop of totex_test) */
static void one(MPI_Comm comm, const char *what, MPI_Datatype type, int count, int in_place, int by_test)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    const size_t len = (size_t)size * (size_t)count * (size_t)ext + 1;
    unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len);
    mpi_test_fill(send, len, rank, count + 17);
    memset(ref, 0xEE, len);
    memset(got, 0xEE, len);
    int rc1, rc2;
    totex_request req = TOTEX_REQUEST_NULL;
    if (in_place) {
        memcpy(ref, send, len);
        memcpy(got, send, len);
        rc1 = PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, count, type, comm);
        rc2 = totex_ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, type, comm, &req);
    } else {
        rc1 = PMPI_Alltoall(send, count, type, ref, count, type, comm);
        rc2 = totex_ialltoall(send, count, type, got, count, type, comm, &req);
    }
    if (rc2 == MPI_SUCCESS) {
        if (by_test) {
            int flag = 0;
            while (!flag && rc2 == MPI_SUCCESS)
                rc2 = totex_test(&req, &flag);
        } else {
            rc2 = totex_wait(&req);
        }
    }
    CHECK(rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS, "%s count %d%s: rc %d / %d", what, count,
          in_place ? " in place" : "", rc1, rc2);
    CHECK(req == TOTEX_REQUEST_NULL, "%s count %d: the completed request was not freed", what, count);
    CHECK(memcmp(ref, got, len) == 0, "%s count %d%s: totex_ialltoall differs from PMPI_Alltoall", what, count,
          in_place ? " in place" : "");
    free(send);
    free(ref);
    free(got);
}

static void forms(MPI_Comm comm, const char *what, int big)
{
    static const int counts[] = {0, 1, 8, 1000};
    for (int i = 0; i < 4; i++) {
        one(comm, what, MPI_BYTE, counts[i], 0, i & 1);
        one(comm, what, MPI_BYTE, counts[i], 0, 0); /* a repeat: the cached plan, no collective */
    }
    if (big)
        one(comm, what, MPI_BYTE, 65536, 0, 0);
    one(comm, what, MPI_INT, 5, 0, 1);
    one(comm, what, MPI_INT, 5, 1, 0);
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    one(comm, what, vec, 2, 0, 0);
    one(comm, what, vec, 2, 1, 1);
    MPI_Type_free(&vec);
    MPI_Datatype st = mpi_test_struct_type();
    one(comm, what, st, 3, 0, 0);
    MPI_Type_free(&st);
}

/* block bytes of exchange @p e among the outstanding ones */
static int outstanding_bytes(int e)
{
    return 1 + 97 * e + (e == 2 ? 4096 : 0);
}

/* @p k nonblocking calls outstanding on @p comm (every other one on @p comm2 when given), completed in an order
   that depends on the rank, a blocking call made while the first ones are outstanding */
static void outstanding(MPI_Comm comm, MPI_Comm comm2, int k)
{
    int size;
    MPI_Comm_size(comm, &size);
    unsigned char *send[8], *ref[8], *got[8];
    size_t len[8];
    totex_request req[8];
    for (int e = 0; e < k; e++) {
        MPI_Comm c = comm2 != MPI_COMM_NULL && (e & 1) ? comm2 : comm;
        const int b = outstanding_bytes(e);
        len[e] = (size_t)size * (size_t)b;
        send[e] = malloc(len[e]);
        ref[e] = malloc(len[e]);
        got[e] = malloc(len[e]);
        mpi_test_fill(send[e], len[e], rank, 300 + e);
        memset(got[e], 0xEE, len[e]);
        PMPI_Alltoall(send[e], b, MPI_BYTE, ref[e], b, MPI_BYTE, c);
    }
    /* a first round plans each block size (the first call of a size plans, collective), the second runs cached */
    for (int round = 0; round < 2; round++) {
        for (int e = 0; e < k; e++) {
            MPI_Comm c = comm2 != MPI_COMM_NULL && (e & 1) ? comm2 : comm;
            const int b = outstanding_bytes(e);
            memset(got[e], 0xEE, len[e]);
            int rc = totex_ialltoall(send[e], b, MPI_BYTE, got[e], b, MPI_BYTE, c, &req[e]);
            CHECK(rc == MPI_SUCCESS, "outstanding call %d (round %d): rc %d", e, round, rc);
            if (e == 1 && round == 1) { /* a blocking call with calls outstanding (this rank completes them first) */
                unsigned char *s = malloc((size_t)size * 8), *r = malloc((size_t)size * 8), *m = malloc((size_t)size * 8);
                mpi_test_fill(s, (size_t)size * 8, rank, 99);
                PMPI_Alltoall(s, 8, MPI_BYTE, m, 8, MPI_BYTE, comm);
                rc = totex_alltoall(s, 8, MPI_BYTE, r, 8, MPI_BYTE, comm);
                CHECK(rc == MPI_SUCCESS && memcmp(r, m, (size_t)size * 8) == 0,
                      "a blocking call among outstanding ones: rc %d or data differs", rc);
                free(s);
                free(r);
                free(m);
            }
        }
        /* each rank its own order: rotated by the rank, reversed on odd ranks */
        for (int i = 0; i < k; i++) {
            int e = (i + rank) % k;
            if (rank & 1)
                e = k - 1 - e;
            int rc = MPI_SUCCESS;
            if (i % 2) {
                int flag = 0;
                while (!flag && rc == MPI_SUCCESS)
                    rc = totex_test(&req[e], &flag);
            } else {
                rc = totex_wait(&req[e]);
            }
            CHECK(rc == MPI_SUCCESS, "outstanding call %d (round %d) completed with rc %d", e, round, rc);
        }
        for (int e = 0; e < k; e++)
            CHECK(memcmp(ref[e], got[e], len[e]) == 0, "outstanding call %d of %d (round %d): data differs", e, k,
                  round);
    }
    for (int e = 0; e < k; e++) {
        free(send[e]);
        free(ref[e]);
        free(got[e]);
    }
}

/* a nonblocking call still to be completed while 65 blocking calls of other block sizes empty the plan cache
   (the 65th drops every cached plan, the one the request copies included): its result, and the next call's */
static void across_flush(MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    const size_t len = (size_t)size * 4200;
    unsigned char *send = malloc(len), *got = malloc(len), *ref = malloc(len), *s2 = malloc(len), *r2 = malloc(len);
    mpi_test_fill(send, (size_t)size * 33, rank, 7);
    PMPI_Alltoall(send, 33, MPI_BYTE, ref, 33, MPI_BYTE, comm);
    totex_request req;
    int rc = totex_ialltoall(send, 33, MPI_BYTE, got, 33, MPI_BYTE, comm, &req);
    for (int b = 1; b <= 65 && rc == MPI_SUCCESS; b++)
        rc = totex_alltoall(s2, 33 + 64 * b, MPI_BYTE, r2, 33 + 64 * b, MPI_BYTE, comm);
    if (rc == MPI_SUCCESS)
        rc = totex_wait(&req);
    CHECK(rc == MPI_SUCCESS && memcmp(ref, got, (size_t)size * 33) == 0,
          "a nonblocking call across the plan cache's flush: rc %d or data differs", rc);
    memset(got, 0xEE, len);
    if ((rc = totex_ialltoall(send, 33, MPI_BYTE, got, 33, MPI_BYTE, comm, &req)) == MPI_SUCCESS)
        rc = totex_wait(&req);
    CHECK(rc == MPI_SUCCESS && memcmp(ref, got, (size_t)size * 33) == 0,
          "a nonblocking call after the plan cache's flush: rc %d or data differs", rc);
    free(send);
    free(got);
    free(ref);
    free(s2);
    free(r2);
}

/* byte j of the block rank @p from sends to rank @p to at start @p it (the expected data, computed here) */
static unsigned char pattern(int from, int to, int j, int it)
{
    return (unsigned char)(from * 131 + to * 31 + j * 7 + it * 13);
}

/* a persistent request on @p comm, @p starts starts with new send contents each; @p in_place: MPI_IN_PLACE */
static void persistent(MPI_Comm comm, const char *what, int b, int starts, int in_place)
{
    int size;
    MPI_Comm_size(comm, &size);
    const size_t len = (size_t)size * (size_t)b;
    unsigned char *send = malloc(len ? len : 1), *got = malloc(len ? len : 1);
    totex_request req = TOTEX_REQUEST_NULL;
    int rc = in_place ? totex_alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, b, MPI_BYTE, comm,
                                            MPI_INFO_NULL, &req)
                      : totex_alltoall_init(send, b, MPI_BYTE, got, b, MPI_BYTE, comm, MPI_INFO_NULL, &req);
    CHECK(rc == MPI_SUCCESS && req != TOTEX_REQUEST_NULL, "%s: totex_alltoall_init of %d B: rc %d", what, b, rc);
    int bad = 0;
    for (int it = 0; it < starts && rc == MPI_SUCCESS; it++) {
        unsigned char *fill = in_place ? got : send;
        for (int d = 0; d < size; d++)
            for (int j = 0; j < b; j++)
                fill[(size_t)d * (size_t)b + (size_t)j] = pattern(rank, d, j, it);
        if (!in_place)
            memset(got, 0xEE, len);
        if ((rc = totex_start(&req)) == MPI_SUCCESS)
            rc = (it & 1) ? totex_wait(&req) : MPI_SUCCESS;
        if (rc == MPI_SUCCESS && !(it & 1)) {
            int flag = 0;
            while (!flag && rc == MPI_SUCCESS)
                rc = totex_test(&req, &flag);
        }
        for (int s = 0; s < size && rc == MPI_SUCCESS && !bad; s++)
            for (int j = 0; j < b; j++)
                if (got[(size_t)s * (size_t)b + (size_t)j] != pattern(s, rank, j, it)) {
                    bad = 1;
                    CHECK(0, "%s: persistent %d B, start %d: block from rank %d byte %d differs", what, b, it, s, j);
                    break;
                }
        CHECK(rc == MPI_SUCCESS, "%s: persistent %d B, start %d: rc %d", what, b, it, rc);
        CHECK(req != TOTEX_REQUEST_NULL, "%s: the persistent request was freed by its completion", what);
    }
    CHECK(totex_request_free(&req) == MPI_SUCCESS && req == TOTEX_REQUEST_NULL, "%s: totex_request_free", what);
    free(send);
    free(got);
}

/* a persistent request of a derived datatype the caller frees right after the init */
static void persistent_derived(MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    const int count = 3;
    const size_t len = (size_t)size * (size_t)count * (size_t)ext;
    unsigned char *send = malloc(len), *got = malloc(len), *ref = malloc(len);
    totex_request req;
    int rc = totex_alltoall_init(send, count, vec, got, count, vec, comm, MPI_INFO_NULL, &req);
    MPI_Datatype vec2;
    MPI_Type_dup(vec, &vec2); /* the reference's own copy */
    MPI_Type_free(&vec);
    for (int it = 0; it < 3 && rc == MPI_SUCCESS; it++) {
        mpi_test_fill(send, len, rank, 50 + it);
        memcpy(got, send, len); /* (the gaps compared too: both sides leave them alone) */
        memcpy(ref, send, len);
        PMPI_Alltoall(send, count, vec2, ref, count, vec2, comm);
        if ((rc = totex_start(&req)) == MPI_SUCCESS)
            rc = totex_wait(&req);
        CHECK(rc == MPI_SUCCESS && memcmp(ref, got, len) == 0, "persistent vector type (freed after init), start %d: "
                                                               "rc %d or data differs", it, rc);
    }
    CHECK(rc == MPI_SUCCESS, "persistent vector type: init or start failed: rc %d", rc);
    totex_request_free(&req);
    MPI_Type_free(&vec2);
    free(send);
    free(got);
    free(ref);
}

/* calls that differ across ranks: an error on every rank, no hang (each on a fresh communicator, as a failed
   call where nonblocking calls are in use leaves it broken; all freed at the end, after a barrier: a failed
   call's messages may still be in flight, and a communicator freed at once may pass its context on to the
   next duplicate, where they would match) */
static void mismatch(void)
{
    const int size = wsize;
    char *send = calloc((size_t)size * 64, 1), *got = calloc((size_t)size * 64, 1);
    MPI_Comm comms[4];
    for (int kind = 0; kind < 4; kind++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[kind]);
        MPI_Comm c = comms[kind];
        /* a plan cached for 16 B first, so that the nonblocking call of kind 0 runs without planning */
        int rc = totex_alltoall(send, 16, MPI_BYTE, got, 16, MPI_BYTE, c);
        CHECK(rc == MPI_SUCCESS, "mismatch setup: rc %d", rc);
        const int b = rank == size - 1 ? 32 : 16;
        totex_request req = TOTEX_REQUEST_NULL;
        const char *what = "";
        if (kind == 0) { /* nonblocking, the last rank's count differs (others' plan cached) */
            what = "nonblocking, counts differ";
            rc = totex_ialltoall(send, b, MPI_BYTE, got, b, MPI_BYTE, c, &req);
            if (rc == MPI_SUCCESS)
                rc = totex_wait(&req);
        } else if (kind == 1) { /* nonblocking, a size no rank has a plan for, one rank's count differs */
            what = "nonblocking first call, counts differ";
            const int b2 = rank == 0 ? 40 : 48;
            rc = totex_ialltoall(send, b2, MPI_BYTE, got, b2, MPI_BYTE, c, &req);
            if (rc == MPI_SUCCESS)
                rc = totex_wait(&req);
        } else if (kind == 2) { /* persistent, counts differ: the init fails */
            what = "persistent, counts differ";
            rc = totex_alltoall_init(send, b, MPI_BYTE, got, b, MPI_BYTE, c, MPI_INFO_NULL, &req);
            if (rc == MPI_SUCCESS) {
                totex_start(&req);
                totex_wait(&req);
                totex_request_free(&req);
            }
        } else { /* rank 0 calls the blocking form, the others the nonblocking one */
            what = "blocking on rank 0, nonblocking elsewhere";
            if (rank == 0) {
                rc = totex_alltoall(send, 16, MPI_BYTE, got, 16, MPI_BYTE, c);
            } else {
                rc = totex_ialltoall(send, 16, MPI_BYTE, got, 16, MPI_BYTE, c, &req);
                if (rc == MPI_SUCCESS)
                    rc = totex_wait(&req);
            }
        }
        if (getenv("TEST_DEBUG"))
            fprintf(stderr, "rank %d: mismatch kind %d done: rc %d\n", rank, kind, rc);
        CHECK(rc != MPI_SUCCESS, "%s: succeeded on rank %d", what, rank);
        CHECK(req == TOTEX_REQUEST_NULL, "%s: a request left behind", what);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int kind = 0; kind < 4; kind++)
        MPI_Comm_free(&comms[kind]);
    free(send);
    free(got);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int with_mismatch = 0, starts = 1000, tori = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "mismatch") == 0)
            with_mismatch = 1;
        else if (strcmp(argv[i], "tori") == 0) /* tori only (no mesh): for a forced torus algorithm */
            tori = 1;
        else if (strncmp(argv[i], "starts=", 7) == 0)
            starts = atoi(argv[i] + 7);
    }

    MPI_Comm world;
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    forms(world, "world", 1);
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
    MPI_Dims_create(wsize, 2, dims);
    MPI_Comm cart, mesh, cube = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    forms(cart, "2-D torus", 0);
    int open[2] = {0, 0};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, open, 0, &mesh);
    if (!tori)
        forms(mesh, "2-D mesh", 0);
    if (wsize == 8) {
        int d3[3] = {2, 2, 2};
        MPI_Cart_create(MPI_COMM_WORLD, 3, d3, periods, 0, &cube);
        forms(cube, "2x2x2", 1);
        MPI_Comm_free(&cube);
    }
    if (wsize > 1) {
        outstanding(cart, MPI_COMM_NULL, 3);
        outstanding(world, tori ? cart : mesh, 4);
    }
    persistent(cart, "2-D torus", 1000, starts, 0);
    if (!tori)
        persistent(mesh, "2-D mesh", 64, 50, 1);
    persistent(world, "world", 0, 3, 0);
    persistent_derived(world);
    if (wsize > 1 && wsize <= 4) {
        MPI_Comm flushed;
        MPI_Comm_dup(MPI_COMM_WORLD, &flushed);
        across_flush(flushed);
        MPI_Comm_free(&flushed);
    }
    if (with_mismatch && wsize > 1)
        mismatch();
    MPI_Comm_free(&cart);
    MPI_Comm_free(&mesh);
    MPI_Comm_free(&world);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_nonblocking: %d ranks, %d failures\n", wsize, all);
    MPI_Finalize();
    return all != 0;
}
