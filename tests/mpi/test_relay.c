/* direct-relay (src/combining/relay.c) forced with TOTEX_ALGORITHM=direct-relay, against the MPI
 * library's own all-to-all, byte for byte: on the world (a virtual torus of MPI_Dims_create(size, 3),
 * periodic) and on 2-D and 3-D Cartesian communicators, periodic and open, with MPI_BYTE blocks of 8,
 * 1000 and 4099 bytes and 3 MPI_INT. Where the communicator's torus has no ring of even size >= 4, or
 * such a ring without another factor of even size (open Cartesian dimensions are paths; a ring of 2 is
 * k2), the algorithm does not apply and every call must return MPI_ERR_ARG on every rank, the receive
 * buffer untouched; the rule is computed here from the dimensions, not asked of totex. Run under mpirun
 * with any number of ranks (CTest: 7, 8, 12, 16); exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/mpi.h"

#include "mpi_support.h"

static int failures, rank;

/* direct-relay applies to a torus of @p nd dimensions @p dims, periodic or not */
static int applies(int nd, const int *dims, int periodic)
{
    int relayed = 0;
    for (int i = 0; i < nd; i++) {
        if (!periodic || dims[i] < 4 || dims[i] % 2)
            continue;
        int partner = 0;
        for (int j = 0; j < nd; j++)
            partner |= j != i && dims[j] % 2 == 0;
        if (!partner)
            return 0;
        relayed = 1;
    }
    return relayed;
}

static void check(MPI_Comm comm, const char *what, MPI_Datatype type, int count, int expect_ok)
{
    int size, tsize;
    MPI_Comm_size(comm, &size);
    MPI_Type_size(type, &tsize);
    const size_t len = (size_t)size * (size_t)count * (size_t)tsize;
    unsigned char *send = malloc(len + 1), *ref = malloc(len + 1), *got = malloc(len + 1);
    mpi_test_fill(send, len, rank, count);
    PMPI_Alltoall(send, count, type, ref, count, type, comm);
    memset(got, 0xEE, len + 1);
    int rc = totex_alltoall(send, count, type, got, count, type, comm);
    int bad = 0;
    if (expect_ok && (rc != MPI_SUCCESS || memcmp(ref, got, len)))
        bad = 1;
    for (size_t i = 0; !expect_ok && i < len; i++)
        bad |= got[i] != 0xEE;
    if (!expect_ok && rc != MPI_ERR_ARG)
        bad = 1;
    if (bad) {
        fprintf(stderr, "FAIL rank %d %s, %d x %d B: rc %d (expected %s), result %s\n", rank, what, count, tsize, rc,
                expect_ok ? "success" : "MPI_ERR_ARG: not applicable", memcmp(ref, got, len) ? "differs" : "equal");
        failures++;
    }
    free(send);
    free(ref);
    free(got);
}

static void run(MPI_Comm comm, const char *what, int ok)
{
    check(comm, what, MPI_BYTE, 8, ok);
    check(comm, what, MPI_BYTE, 1000, ok);
    check(comm, what, MPI_BYTE, 4099, ok);
    check(comm, what, MPI_INT, 3, ok);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wsize, applied = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        int dims[3] = {0, 0, 0};
        MPI_Dims_create(wsize, 3, dims);
        const int ok = applies(3, dims, 1);
        applied += ok;
        run(MPI_COMM_WORLD, "world", ok);
    }
    for (int nd = 2; nd <= 3; nd++)
        for (int periodic = 0; periodic <= 1; periodic++) {
            int dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic};
            MPI_Dims_create(wsize, nd, dims);
            MPI_Comm cart;
            MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &cart);
            MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
            char name[64];
            snprintf(name, sizeof name, "cart %dx%dx%d %s", dims[0], dims[1], nd > 2 ? dims[2] : 1,
                     periodic ? "periodic" : "open");
            const int ok = applies(nd, dims, periodic);
            applied += ok;
            run(cart, name, ok);
            MPI_Comm_free(&cart);
        }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_relay: %d ranks, %d communicators where direct-relay applies, %d failures\n", wsize, applied, all);
    MPI_Finalize();
    return all != 0;
}
