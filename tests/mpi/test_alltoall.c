/* totex_alltoall against the MPI library's own all-to-all, byte for byte
 * (issue 5). Run under mpirun with any number of ranks; exit status non-zero
 * on any mismatch. Communicators: MPI_COMM_WORLD, 1-D and 2-D Cartesian,
 * periodic and not. Data: MPI_BYTE blocks of 0, 1, 8, 1000 bytes, MPI_INT,
 * an MPI_Type_vector (non-contiguous) type, MPI_IN_PLACE. Also MPI_Alltoall
 * (intercepted when libtotex_pmpi.so is preloaded) and mismatched counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/mpi.h"

static int failures;
static int rank, wsize;

static void fill(unsigned char *b, size_t len, int salt)
{
    for (size_t i = 0; i < len; i++)
        b[i] = (unsigned char)(rank * 131 + (int)i * 7 + salt * 17 + (int)(i >> 8));
}

static void check(MPI_Comm comm, const char *what, MPI_Datatype type, int count, int in_place)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    size_t len = (size_t)size * (size_t)count * (size_t)ext + 1;
    unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len), *mpi = malloc(len);
    fill(send, len, count);
    memset(ref, 0xEE, len);
    memset(got, 0xEE, len);
    memset(mpi, 0xEE, len);
    int rc1, rc2, rc3;
    if (in_place) {
        memcpy(ref, send, len);
        memcpy(got, send, len);
        memcpy(mpi, send, len);
        rc1 = PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, count, type, comm);
        rc2 = totex_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, type, comm);
        rc3 = MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, mpi, count, type, comm);
    } else {
        rc1 = PMPI_Alltoall(send, count, type, ref, count, type, comm);
        rc2 = totex_alltoall(send, count, type, got, count, type, comm);
        rc3 = MPI_Alltoall(send, count, type, mpi, count, type, comm);
    }
    if (rc1 != MPI_SUCCESS || rc2 != MPI_SUCCESS || rc3 != MPI_SUCCESS || memcmp(ref, got, len) ||
        memcmp(ref, mpi, len)) {
        fprintf(stderr, "FAIL rank %d/%d %s count %d%s: rc %d %d %d, totex %s, MPI_Alltoall %s\n", rank, size, what,
                count, in_place ? " in place" : "", rc1, rc2, rc3, memcmp(ref, got, len) ? "differs" : "ok",
                memcmp(ref, mpi, len) ? "differs" : "ok");
        failures++;
    }
    free(send);
    free(ref);
    free(got);
    free(mpi);
}

static void run(MPI_Comm comm, const char *name)
{
    static const int bytes[] = {0, 1, 8, 1000};
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec); /* 8 bytes of data, extent 16 bytes: gaps */
    MPI_Type_commit(&vec);
    char what[128];
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
        snprintf(what, sizeof what, "%s MPI_BYTE", name);
        check(comm, what, MPI_BYTE, bytes[i], 0);
        snprintf(what, sizeof what, "%s MPI_INT", name);
        check(comm, what, MPI_INT, bytes[i] / 4, 0);
        snprintf(what, sizeof what, "%s vector", name);
        check(comm, what, vec, bytes[i] / 8, 0);
    }
    snprintf(what, sizeof what, "%s MPI_INT", name);
    check(comm, what, MPI_INT, 250, 1);
    snprintf(what, sizeof what, "%s vector", name);
    check(comm, what, vec, 1, 1);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    run(MPI_COMM_WORLD, "world");
    for (int nd = 1; nd <= 2; nd++)
        for (int periodic = 0; periodic <= 1; periodic++) {
            int dims[2] = {0, 0}, periods[2] = {periodic, periodic};
            MPI_Dims_create(wsize, nd, dims);
            MPI_Comm cart;
            MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &cart);
            char name[64];
            snprintf(name, sizeof name, "cart %dx%d %s", dims[0], nd > 1 ? dims[1] : 1,
                     periodic ? "periodic" : "open");
            run(cart, name);
            MPI_Comm_free(&cart);
        }

    /* mismatched sizes across ranks: every rank gets MPI_ERR_COUNT, nobody hangs */
    if (wsize > 1) {
        int count = rank == 0 ? 2 : 1;
        char s[64] = {0}, r[64];
        int rc = totex_alltoall(s, count, MPI_BYTE, r, count, MPI_BYTE, MPI_COMM_WORLD);
        if (rc != MPI_ERR_COUNT) {
            fprintf(stderr, "FAIL rank %d: mismatched counts returned %d, not MPI_ERR_COUNT\n", rank, rc);
            failures++;
        }
        rc = totex_alltoall(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_BYTE, MPI_COMM_WORLD);
        if (rc != MPI_ERR_TYPE) {
            fprintf(stderr, "FAIL rank %d: MPI_DATATYPE_NULL returned %d, not MPI_ERR_TYPE\n", rank, rc);
            failures++;
        }
    }

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_alltoall: %d ranks: %s (%d failures)\n", wsize, all ? "FAILED" : "ok", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
