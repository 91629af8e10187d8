/* A plain MPI program (no totex header, no totex library), run with the Open
 * MPI component coll/totex selected by priority (tests/ompi) or with the
 * drop-in preloaded (MPICH: MPI_Ialltoall through a generalized request):
 * MPI_Alltoall, MPI_Ialltoall and MPI_Alltoall_init (MPIX_ in Open MPI 4.1) /
 * MPI_Start on Cartesian communicators (4x4 and 3x3
 * tori, a 2x2x2 torus, a 3x4 mesh: those that fit the world, else the world
 * itself), blocks of 0, 1, 8, 1000 and 65536 bytes, MPI_INT with MPI_IN_PLACE
 * and a vector type; several MPI_Ialltoall outstanding, completed in an order
 * that depends on the rank; a persistent request started 200 times. Every
 * result is checked against the blocks the fill formula says each rank sent
 * (not against another MPI call, which would be totex's too). Exit
 * status non-zero on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#if defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION < 5
#include <mpi-ext.h>
#define ALLTOALL_INIT MPIX_Alltoall_init
#else
#define ALLTOALL_INIT MPI_Alltoall_init
#endif

static int failures, rank;

#include "mpi_check.h"

/* byte j of the block rank @p from sends to rank @p to in round @p it */
static unsigned char pattern(int from, int to, long j, int it)
{
    return (unsigned char)(from * 131 + to * 29 + j * 7 + it * 13 + 1);
}

static void fill(unsigned char *b, int size, int me, long bytes, int it)
{
    for (int d = 0; d < size; d++)
        for (long j = 0; j < bytes; j++)
            b[(size_t)d * (size_t)bytes + (size_t)j] = pattern(me, d, j, it);
}

/* the blocks received by @p me: block s from rank s; 1 if all are as sent */
static int right(const unsigned char *b, int size, int me, long bytes, int it)
{
    for (int s = 0; s < size; s++)
        for (long j = 0; j < bytes; j++)
            if (b[(size_t)s * (size_t)bytes + (size_t)j] != pattern(s, me, j, it))
                return 0;
    return 1;
}

/* form 0 blocking, 1 nonblocking, 2 persistent (@p starts starts) */
static void bytes_case(MPI_Comm comm, const char *name, long bytes, int form, int starts)
{
    int size, me;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    const size_t len = (size_t)size * (size_t)bytes + 1;
    unsigned char *s = malloc(len), *r = malloc(len);
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    if (form == 2)
        rc = ALLTOALL_INIT(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, comm, MPI_INFO_NULL, &req);
    for (int it = 0; it < (form == 2 ? starts : 2) && rc == MPI_SUCCESS; it++) {
        fill(s, size, me, bytes, it);
        memset(r, 0xEE, len);
        if (form == 0) {
            rc = MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, comm);
        } else if (form == 1) {
            rc = MPI_Ialltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, comm, &req);
            int flag = 0;
            while (rc == MPI_SUCCESS && !flag && (it & 1))
                rc = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && !(it & 1))
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            if ((rc = MPI_Start(&req)) == MPI_SUCCESS)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        CHECK(rc == MPI_SUCCESS && right(r, size, me, bytes, it) && r[len - 1] == 0xEE,
              "%s: form %d, %ld B, round %d: rc %d or data differs", name, form, bytes, it, rc);
        if (!(rc == MPI_SUCCESS && right(r, size, me, bytes, it)))
            break;
    }
    if (form == 2 && req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    free(s);
    free(r);
}

/* one exchange in form @p form (0 MPI_Alltoall, 1 MPI_Ialltoall + MPI_Wait, 2 a persistent request started once,
   waited for and freed); MPI code */
static int one_form(int form, const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm)
{
    MPI_Request req;
    int rc;
    if (form == 0)
        return MPI_Alltoall(s, sc, st, r, rc_, rt, comm);
    if (form == 1)
        return (rc = MPI_Ialltoall(s, sc, st, r, rc_, rt, comm, &req)) == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE)
                                                                                      : rc;
    rc = ALLTOALL_INIT(s, sc, st, r, rc_, rt, comm, MPI_INFO_NULL, &req);
    if (rc == MPI_SUCCESS && (rc = MPI_Start(&req)) == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        MPI_Request_free(&req);
    return rc;
}

/* MPI_INT in place, and a vector type (every other int of 2 * count), all three forms */
static void typed(MPI_Comm comm, const char *name)
{
    int size, me;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    const int count = 3;
    int *b = malloc(sizeof(int) * (size_t)size * count * 2), *s = malloc(sizeof(int) * (size_t)size * count * 2);
    for (int form = 0; form < 3; form++) {
        for (int d = 0; d < size; d++)
            for (int j = 0; j < count; j++)
                b[d * count + j] = me * 1000 + d * 10 + j + form;
        const int rc = one_form(form, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, count, MPI_INT, comm);
        int ok = rc == MPI_SUCCESS;
        for (int src = 0; src < size && ok; src++)
            for (int j = 0; j < count; j++)
                ok &= b[src * count + j] == src * 1000 + me * 10 + j + form;
        CHECK(ok, "%s: MPI_INT in place, form %d: rc %d or data differs", name, form, rc);
    }
    MPI_Datatype vec;
    MPI_Type_vector(count, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    const int stride = (int)(ext / (MPI_Aint)sizeof(int)); /* ints per block of one vector */
    for (int form = 0; form < 3; form++) {
        for (int i = 0; i < size * stride; i++) {
            s[i] = me * 1000 + (i / stride) * 10 + i % stride + form;
            b[i] = -1;
        }
        const int rc = one_form(form, s, 1, vec, b, 1, vec, comm);
        int ok = rc == MPI_SUCCESS;
        for (int src = 0; src < size && ok; src++)
            for (int k = 0; k < stride; k++)
                ok &= b[src * stride + k] == (k % 2 == 0 ? src * 1000 + me * 10 + k + form : -1);
        CHECK(ok, "%s: vector type, form %d: rc %d or data differs", name, form, rc);
    }
    MPI_Type_free(&vec);
    free(b);
    free(s);
}

/* three MPI_Ialltoall outstanding, completed in a rank-dependent order (MPI_Waitall on odd ranks) */
static void outstanding(MPI_Comm comm, const char *name)
{
    int size, me;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    enum { K = 3 };
    const long bytes[K] = {16, 1000, 4096};
    unsigned char *s[K], *r[K];
    MPI_Request req[K];
    for (int round = 0; round < 2; round++) {
        for (int e = 0; e < K; e++) {
            s[e] = malloc((size_t)size * (size_t)bytes[e]);
            r[e] = malloc((size_t)size * (size_t)bytes[e]);
            fill(s[e], size, me, bytes[e], 40 + e + round);
            MPI_Ialltoall(s[e], (int)bytes[e], MPI_BYTE, r[e], (int)bytes[e], MPI_BYTE, comm, &req[e]);
        }
        if (me & 1) {
            MPI_Waitall(K, req, MPI_STATUSES_IGNORE);
        } else {
            for (int i = 0; i < K; i++)
                MPI_Wait(&req[(i + me / 2) % K], MPI_STATUS_IGNORE);
        }
        for (int e = 0; e < K; e++) {
            CHECK(right(r[e], size, me, bytes[e], 40 + e + round), "%s: outstanding call %d, round %d: data differs",
                  name, e, round);
            free(s[e]);
            free(r[e]);
        }
    }
}

static void all(MPI_Comm comm, const char *name)
{
    static const long sizes[] = {0, 1, 8, 1000, 65536};
    for (int i = 0; i < 5; i++)
        for (int form = 0; form < 3; form++)
            bytes_case(comm, name, sizes[i], form, i == 3 ? 200 : 3);
    typed(comm, name);
    outstanding(comm, name);
}

/* counts that differ across ranks, in all three forms, each on a duplicate with MPI_ERRORS_RETURN: an error on
   every rank and no hang (the duplicates freed at the end, after a barrier: a failed call's messages may still
   be in flight) */
static void mismatch(int forms)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *s = calloc((size_t)size * 64, 1), *r = calloc((size_t)size * 64, 1);
    MPI_Comm c[3];
    /* Open MPI 4.1 raises the error of a collective request's completion (MPI_Wait) on MPI_COMM_WORLD, not on
       the request's communicator (as for its own libnbc requests) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int form = 0; form < forms; form++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c[form]);
        MPI_Comm_set_errhandler(c[form], MPI_ERRORS_RETURN);
        /* a plan for 16 B cached first: the nonblocking call then runs without planning */
        int rc = MPI_Alltoall(s, 16, MPI_BYTE, r, 16, MPI_BYTE, c[form]);
        CHECK(rc == MPI_SUCCESS, "mismatch setup: rc %d", rc);
        const int b = rank == size - 1 ? 32 : 16;
        MPI_Request req = MPI_REQUEST_NULL;
        if (form == 0) {
            rc = MPI_Alltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, c[form]);
        } else if (form == 1) {
            if ((rc = MPI_Ialltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, c[form], &req)) == MPI_SUCCESS)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            rc = ALLTOALL_INIT(s, b, MPI_BYTE, r, b, MPI_BYTE, c[form], MPI_INFO_NULL, &req);
            if (rc == MPI_SUCCESS) {
                MPI_Start(&req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
                MPI_Request_free(&req);
            }
        }
        CHECK(rc != MPI_SUCCESS, "counts that differ across ranks, form %d: succeeded", form);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int form = 0; form < forms; form++)
        MPI_Comm_free(&c[form]);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    int wsize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (argc > 1 && strcmp(argv[1], "differ") == 0) {
        /* rank 0 names another machine network than the others (read at the first call): an error on every
           rank, no hang */
        if (rank == 0)
            setenv("TOTEX_NETWORK", wsize == 4 ? "k2*k2" : "ring:3", 1);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        char *s = calloc((size_t)wsize * 8, 1), *r = calloc((size_t)wsize * 8, 1);
        int rc = MPI_Alltoall(s, 8, MPI_BYTE, r, 8, MPI_BYTE, MPI_COMM_WORLD);
        CHECK(rc != MPI_SUCCESS, "machine networks that differ across ranks: the call succeeded");
        free(s);
        free(r);
        int sum = 0;
        MPI_Allreduce(&failures, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0)
            printf("test_forms: %d ranks, %d failures\n", wsize, sum);
        MPI_Finalize();
        return sum != 0;
    }
    /* the Cartesian communicators of the issue that fit this world */
    static const struct {
        int nd, dims[3], periodic;
        const char *name;
    } carts[] = {{2, {4, 4, 0}, 1, "4x4 torus"}, {3, {2, 2, 2}, 1, "2x2x2 torus"}, {2, {3, 3, 0}, 1, "3x3 torus"},
                 {2, {3, 4, 0}, 0, "3x4 mesh"}};
    int ran = 0;
    for (int i = 0; i < 4; i++) {
        int n = 1;
        for (int d = 0; d < carts[i].nd; d++)
            n *= carts[i].dims[d];
        if (n != wsize)
            continue;
        int periods[3] = {carts[i].periodic, carts[i].periodic, carts[i].periodic};
        MPI_Comm cart;
        MPI_Cart_create(MPI_COMM_WORLD, carts[i].nd, carts[i].dims, periods, 0, &cart);
        all(cart, carts[i].name);
        MPI_Comm_free(&cart);
        ran++;
    }
    if (!ran)
        all(MPI_COMM_WORLD, "world");
    if (argc > 1 && strcmp(argv[argc - 1], "halves") == 0 && wsize >= 4) {
        /* two halves of the world (sub-boxes of a named machine network, or not) */
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, rank < wsize / 2, rank, &half);
        all(half, rank < wsize / 2 ? "lower half" : "upper half");
        MPI_Comm_free(&half);
    }
    if (argc > 1 && strcmp(argv[1], "mismatch") == 0 && wsize > 1)
        mismatch(3);
    if (argc > 1 && strcmp(argv[1], "mismatch-blocking") == 0 && wsize > 1)
        mismatch(1);
    int sum = 0;
    MPI_Allreduce(&failures, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_forms: %d ranks, %d failures\n", wsize, sum);
    MPI_Finalize();
    return sum != 0;
}
