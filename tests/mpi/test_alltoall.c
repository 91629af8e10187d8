/* totex_alltoall against the MPI library's own all-to-all, byte for byte.
 * Run under mpirun with any number of ranks; exit status non-zero
 * on any mismatch. Communicators: MPI_COMM_WORLD, 1-D, 2-D and 3-D Cartesian,
 * periodic and not. Data: MPI_BYTE blocks of 0, 1, 8, 1000 bytes (and 64 KiB
 * on the world and 3-D communicators), MPI_INT, an MPI_Type_vector
 * (non-contiguous) type, an MPI_Type_create_struct of an int and a double with
 * a gap, MPI_IN_PLACE. Also MPI_Alltoall (intercepted when libtotex_pmpi.so is
 * preloaded), mismatched counts, communicators split off and freed one after the
 * other, and on 4 and 8 ranks totex_alltoall_unit()
 * with every applicable unit-step algorithm on a periodic 2 x (size/2)
 * Cartesian communicator, single-port and multiport. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/algorithm.h"
#include "totex/mpi.h"

#include "mpi_support.h"

static int failures;
static int rank, wsize;
static const char *unit_alg; /* non-NULL: check() runs totex_alltoall_unit(unit_alg, unit_ports) */
static int unit_ports;

static void check(MPI_Comm comm, const char *what, MPI_Datatype type, int count, int in_place)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    size_t len = (size_t)size * (size_t)count * (size_t)ext + 1;
    unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len), *mpi = malloc(len);
    mpi_test_fill(send, len, rank, count);
    memset(ref, 0xEE, len);
    memset(got, 0xEE, len);
    memset(mpi, 0xEE, len);
    int rc1, rc2, rc3;
    if (unit_alg) {
        if (in_place) {
            memcpy(ref, send, len);
            memcpy(got, send, len);
            rc1 = PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, count, type, comm);
            rc2 = totex_alltoall_unit(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, type, comm, unit_alg,
                                      unit_ports);
        } else {
            rc1 = PMPI_Alltoall(send, count, type, ref, count, type, comm);
            rc2 = totex_alltoall_unit(send, count, type, got, count, type, comm, unit_alg, unit_ports);
        }
        rc3 = MPI_SUCCESS;
        memcpy(mpi, ref, len);
    } else if (in_place) {
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

static void run(MPI_Comm comm, const char *name, int big)
{
    if (rank == 0) /* a line per communicator as it starts: progress_test.sh tells a hang from a slow run */
        printf("test_alltoall: %s\n", name);
    static const int bytes[] = {0, 1, 8, 1000, 65536};
    size_t nb = sizeof bytes / sizeof bytes[0] - (big ? 0 : 1);
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec); /* 8 bytes of data, extent 16 bytes: gaps */
    MPI_Type_commit(&vec);
    MPI_Datatype stru = mpi_test_struct_type();
    char what[128];
    for (size_t i = 0; i < nb; i++) {
        snprintf(what, sizeof what, "%s MPI_BYTE", name);
        check(comm, what, MPI_BYTE, bytes[i], 0);
        snprintf(what, sizeof what, "%s MPI_INT", name);
        check(comm, what, MPI_INT, bytes[i] / 4, 0);
        snprintf(what, sizeof what, "%s vector", name);
        check(comm, what, vec, bytes[i] / 8, 0);
        snprintf(what, sizeof what, "%s struct", name);
        check(comm, what, stru, bytes[i] / 12, 0);
    }
    snprintf(what, sizeof what, "%s struct", name);
    check(comm, what, stru, 3, 1);
    snprintf(what, sizeof what, "%s MPI_INT", name);
    check(comm, what, MPI_INT, 250, 1);
    snprintf(what, sizeof what, "%s vector", name);
    check(comm, what, vec, 1, 1);
    MPI_Type_free(&vec);
    MPI_Type_free(&stru);
}

/* every unit-step algorithm that applies to a periodic 2 x (size/2) Cartesian
   communicator (totex network ring:size/2 * k2, or k2 * k2), both port models */
static void run_unit(void)
{
    int dims[2] = {2, wsize / 2}, periods[2] = {1, 1};
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    char spec[64], name[160];
    if (dims[1] == 2)
        snprintf(spec, sizeof spec, "k2*k2");
    else
        snprintf(spec, sizeof spec, "ring:%d*k2", dims[1]);
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        fprintf(stderr, "FAIL rank %d: network %s: %s\n", rank, spec, err.msg);
        failures++;
        MPI_Comm_free(&cart);
        return;
    }
    MPI_Datatype vec, stru = mpi_test_struct_type();
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int ran_octr = 0, ran_a2 = 0, runs = 0;
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        for (int ports = 1; ports >= 0; ports--) {
            if (a->applies(net, (totex_ports)ports, &err) != TOTEX_OK)
                continue;
            ran_octr += strcmp(a->name, "octr") == 0;
            ran_a2 += strcmp(a->name, "a2") == 0;
            runs++;
            if (rank == 0)
                printf("test_alltoall: unit-step %s %s on %s\n", a->name, ports ? "single-port" : "multiport", spec);
            unit_alg = a->name;
            unit_ports = ports;
            snprintf(name, sizeof name, "unit %s %s on cart 2x%d periodic", a->name,
                     ports ? "single-port" : "multiport", dims[1]);
            check(cart, name, MPI_BYTE, 8, 0);
            check(cart, name, MPI_BYTE, 1000, 0);
            check(cart, name, vec, 3, 0);
            check(cart, name, stru, 2, 0);
            check(cart, name, MPI_INT, 5, 1);
        }
    }
    unit_alg = NULL;
    if (!ran_octr || !ran_a2) {
        fprintf(stderr, "FAIL rank %d: on %s octr ran %d times, a2 %d times\n", rank, spec, ran_octr, ran_a2);
        failures++;
    }
    /* an unknown algorithm: MPI_ERR_ARG on every rank */
    char s[64] = {0}, r[64];
    if (rank == 0)
        fprintf(stderr, "(expected error follows)\n");
    int rc = totex_alltoall_unit(s, 1, MPI_BYTE, r, 1, MPI_BYTE, cart, "no-such-algorithm", 1);
    if (rc != MPI_ERR_ARG) {
        fprintf(stderr, "FAIL rank %d: unknown unit algorithm returned %d, not MPI_ERR_ARG\n", rank, rc);
        failures++;
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&stru);
    totex_network_free(net);
    MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    run(MPI_COMM_WORLD, "world", 1);
    for (int nd = 1; nd <= 3; nd++)
        for (int periodic = 0; periodic <= 1; periodic++) {
            int dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic};
            MPI_Dims_create(wsize, nd, dims);
            MPI_Comm cart;
            MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &cart);
            char name[64];
            snprintf(name, sizeof name, "cart %dx%dx%d %s", dims[0], nd > 1 ? dims[1] : 1, nd > 2 ? dims[2] : 1,
                     periodic ? "periodic" : "open");
            run(cart, name, nd == 3);
            MPI_Comm_free(&cart);
        }

    /* communicators of other sizes made and freed one after the other (Open MPI gives a freed handle
       to the next one): totex keeps the last communicator's state, size and rank, which must not
       outlive it. A duplicate of the world, then halves by rank parity, then a duplicate again. */
    static const int parts[] = {1, 2, 1};
    for (int i = 0; i < 3; i++) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, rank % parts[i], rank, &sub);
        char name[64];
        snprintf(name, sizeof name, "split into %d (%d of 3)", parts[i], i + 1);
        check(sub, name, MPI_BYTE, 8, 0);
        MPI_Comm_free(&sub);
    }

    if (wsize == 4 || wsize == 8)
        run_unit();

    /* the same buffer as sendbuf and recvbuf without MPI_IN_PLACE: MPI_ERR_BUFFER (on every rank with the
       check on; on this one without it), the buffer untouched; a block of more than INT_MAX bytes:
       MPI_ERR_COUNT, nothing allocated for it */
    {
        char same[64];
        for (int i = 0; i < 64; i++)
            same[i] = (char)(rank + 3 * i);
        int rc = totex_alltoall(same, 1, MPI_BYTE, same, 1, MPI_BYTE, MPI_COMM_WORLD);
        int changed = 0;
        for (int i = 0; i < 64; i++)
            changed |= same[i] != (char)(rank + 3 * i);
        if (wsize > 1 && (rc != MPI_ERR_BUFFER || changed)) {
            fprintf(stderr, "FAIL rank %d: sendbuf == recvbuf returned %d, not MPI_ERR_BUFFER%s\n", rank, rc,
                    changed ? ", and the buffer changed" : "");
            failures++;
        }
        MPI_Datatype big;
        MPI_Type_contiguous(1 << 15, MPI_BYTE, &big);
        MPI_Type_commit(&big);
        char s1[8], r1[8];
        rc = totex_alltoall(s1, 1 << 16, big, r1, 1 << 16, big, MPI_COMM_WORLD); /* 2^31 bytes a block */
        if (rc != MPI_ERR_COUNT) {
            fprintf(stderr, "FAIL rank %d: a block of 2^31 bytes returned %d, not MPI_ERR_COUNT\n", rank, rc);
            failures++;
        }
        MPI_Type_free(&big);
    }

    /* mismatched sizes across ranks: every rank gets MPI_ERR_COUNT, nobody hangs
       (unless the cross-rank check is turned off with TOTEX_CHECK=0) */
    const char *check_env = getenv("TOTEX_CHECK");
    if (wsize > 1 && !(check_env && strcmp(check_env, "0") == 0)) {
        int count = rank == 0 ? 2 : 1;
        char s[64] = {0}, r[64];
        int rc = totex_alltoall(s, count, MPI_BYTE, r, count, MPI_BYTE, MPI_COMM_WORLD);
        if (rc != MPI_ERR_COUNT) {
            fprintf(stderr, "FAIL rank %d: mismatched counts returned %d, not MPI_ERR_COUNT\n", rank, rc);
            failures++;
        }
        /* the same after both sizes were planned: every rank starts the exchange
           it has a plan for while the check runs, and must stop it */
        for (int c = 1; c <= 2; c++) {
            char ss[64], rr[64];
            for (int i = 0; i < 64; i++)
                ss[i] = (char)(rank + i);
            if (totex_alltoall(ss, c, MPI_BYTE, rr, c, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS)
                failures++;
        }
        for (int round = 0; round < 2; round++) {
            int mine = (rank == round % wsize) ? 2 : 1;
            rc = totex_alltoall(s, mine, MPI_BYTE, r, mine, MPI_BYTE, MPI_COMM_WORLD);
            if (rc != MPI_ERR_COUNT) {
                fprintf(stderr, "FAIL rank %d: mismatched cached sizes returned %d, not MPI_ERR_COUNT\n", rank, rc);
                failures++;
            }
        }
        /* and a correct call afterwards works (byte for byte) */
        check(MPI_COMM_WORLD, "world after mismatches", MPI_BYTE, 3, 0);
        /* the ranks take different paths of the check: one rank has nothing to
           move (count 0: agreement rounds) or a block size without a plan
           (agreement before planning) while the others run a cached plan, or
           one rank's own arguments are wrong; every rank must get the error */
        struct { int odd_count, others, want; MPI_Datatype odd_type; const char *what; } cases[] = {
            {0, 1, MPI_ERR_COUNT, MPI_BYTE, "count 0 on one rank, a cached size elsewhere"},
            {1, 0, MPI_ERR_COUNT, MPI_BYTE, "a cached size on one rank, count 0 elsewhere"},
            {5, 1, MPI_ERR_COUNT, MPI_BYTE, "a size without a plan on one rank, a cached one elsewhere"},
            {1, 5, MPI_ERR_COUNT, MPI_BYTE, "a cached size on one rank, one without a plan elsewhere"},
            {1, 1, MPI_ERR_TYPE, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL on one rank, a cached size elsewhere"},
            {-1, 1, MPI_ERR_COUNT, MPI_BYTE, "a negative count on one rank, a cached size elsewhere"},
        };
        char *sb = calloc((size_t)wsize, 8), *rb = calloc((size_t)wsize, 8);
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            int odd = (int)k % wsize, c = rank == odd ? cases[k].odd_count : cases[k].others;
            MPI_Datatype t = rank == odd ? cases[k].odd_type : MPI_BYTE;
            rc = totex_alltoall(sb, c, t, rb, c, t, MPI_COMM_WORLD);
            if (rc != cases[k].want) {
                fprintf(stderr, "FAIL rank %d: %s (odd rank %d) returned %d, not %d\n", rank, cases[k].what, odd,
                        rc, cases[k].want);
                failures++;
            }
            check(MPI_COMM_WORLD, "world after a mismatch", MPI_BYTE, 1 + (int)k % 2, 0);
        }
        free(sb);
        free(rb);
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
