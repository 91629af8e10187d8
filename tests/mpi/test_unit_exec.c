/* totex_alltoall running unit-step schedules through the
 * data-flow executor, byte for byte against PMPI_Alltoall: every unit-step
 * candidate (octr, sym2, a3, greedy-sym, greedy multiport; a2 single-port)
 * and a3c (message combining, each rank's share translated from node 0's),
 * forced with TOTEX_ALGORITHM, on every communicator of the test where it
 * applies (MPI_COMM_WORLD's virtual torus, periodic 1-D, 2-D, 3-D Cartesian
 * and 2 x (size/2)), one message per transfer and 3 chunks per transfer
 * (TOTEX_CHUNKS: unequal chunks at 8 and 4099 bytes, relayed chunk by chunk),
 * the chunks' lanes staggered behind a zero-byte kick per link and not
 * (TOTEX_STAGGER=1, 0), and staggered after start rounds of kicks to and from
 * every link peer (TOTEX_STAGGER=2),
 * blocks of 1, 8, 1000, 4099 bytes, MPI_INT, a vector and a struct type with
 * gaps, MPI_IN_PLACE. Whether an algorithm applies is asked of the algorithm
 * registry on the network this test derives from the communicator itself. On
 * a communicator with a cached unit-step plan, mismatched counts must give
 * MPI_ERR_COUNT on every rank (the cross-rank check with headers carried on
 * the schedule's first messages) and a correct call must work afterwards.
 * Run under mpirun with any number of ranks; exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/algorithm.h"
#include "totex/combining.h"
#include "totex/mpi.h"

#include "mpi_support.h"

static int failures, rank, wsize;

static void check(MPI_Comm comm, const char *what, MPI_Datatype type, int count, int in_place)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(type, &lb, &ext);
    size_t len = (size_t)size * (size_t)count * (size_t)ext + 1;
    unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len);
    mpi_test_fill(send, len, rank, count);
    memset(ref, 0xEE, len);
    memset(got, 0xEE, len);
    int rc1, rc2;
    if (in_place) {
        memcpy(ref, send, len);
        memcpy(got, send, len);
        rc1 = PMPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, count, type, comm);
        rc2 = totex_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, count, type, comm);
    } else {
        rc1 = PMPI_Alltoall(send, count, type, ref, count, type, comm);
        rc2 = totex_alltoall(send, count, type, got, count, type, comm);
    }
    if (rc1 != MPI_SUCCESS || rc2 != MPI_SUCCESS || memcmp(ref, got, len)) {
        fprintf(stderr, "FAIL rank %d/%d %s count %d%s: rc %d %d, totex %s\n", rank, size, what, count,
                in_place ? " in place" : "", rc1, rc2, memcmp(ref, got, len) ? "differs" : "ok");
        failures++;
    }
    free(send);
    free(ref);
    free(got);
}

/* the network a periodic communicator of these MPI dimensions stands for
   (include/totex/mpi.h: MPI dimension i is totex factor nd-1-i; size 2: k2; size 1 dropped) */
static void spec_of(const int *dims, int nd, char *spec, size_t cap)
{
    spec[0] = '\0';
    for (int i = nd - 1; i >= 0; i--) {
        size_t l = strlen(spec);
        if (dims[i] == 2)
            snprintf(spec + l, cap - l, "%sk2", l ? "*" : "");
        else if (dims[i] > 2)
            snprintf(spec + l, cap - l, "%sring:%d", l ? "*" : "", dims[i]);
    }
}

static const struct {
    const char *name;
    totex_ports ports;
    int comb; /* a combining algorithm planned per rank from node 0's transfers (a3c on tori of even sides) */
} algs[] = {{"octr", 0, 0},   {"sym2", 0, 0}, {"a3", 0, 0}, {"greedy-sym", 0, 0},
            {"greedy", 0, 0}, {"a2", 1, 0},   {"a3c", 0, 1}};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line per case as it starts: progress_test.sh tells a hang from a slow run */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype vec, stru = mpi_test_struct_type();
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec); /* 8 bytes of data, extent 16 */
    MPI_Type_commit(&vec);
    /* shapes: 0 world (virtual torus of MPI_Dims_create(size, 3)), 1..3 periodic Cartesian, 4: 2 x size/2 */
    int ran = 0, ran_chunked = 0;
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (int shape = 0; shape <= 4; shape++) {
            int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, nd = shape == 0 ? 3 : shape == 4 ? 2 : shape;
            if (shape == 4) {
                if (wsize % 2 || wsize < 4)
                    continue;
                dims[0] = 2;
                dims[1] = wsize / 2;
            } else {
                MPI_Dims_create(wsize, nd, dims);
            }
            char spec[128];
            spec_of(dims, nd, spec, sizeof spec);
            if (!spec[0])
                continue; /* one rank: a local copy, no schedule */
            totex_error err;
            totex_network *net = totex_network_parse(spec, &err);
            int applies = 0;
            if (algs[a].comb) {
                const totex_comb_algorithm *ca = totex_comb_algorithm_find(algs[a].name, &err);
                totex_comb_cost cost;
                totex_comb_cost_default(&cost);
                cost.ports = TOTEX_COMB_ALL_PORT;
                totex_comb_report rep;
                applies = net && ca && ca->predict(net, &cost, &rep, &err) == TOTEX_OK;
            } else {
                const totex_algorithm *alg = totex_algorithm_find(algs[a].name, &err);
                applies = net && alg && alg->applies(net, algs[a].ports, &err) == TOTEX_OK;
            }
            totex_network_free(net);
            if (!applies)
                continue;
            /* 1 chunk; 3 chunks with staggered lanes; 3 chunks unstaggered; 3 chunks staggered after
               start rounds (kicks to and from every link peer, as many rounds as the diameter: compile.c)
               (combining: 1 chunk) */
            for (int v = 0; v < (algs[a].comb ? 1 : 4); v++) {
                const int chunks = v ? 3 : 1, stagger = v == 1 ? 1 : v == 3 ? 2 : 0;
                MPI_Comm comm;
                if (shape == 0)
                    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
                else
                    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &comm);
                char cs[8];
                snprintf(cs, sizeof cs, "%d", chunks);
                setenv("TOTEX_ALGORITHM", algs[a].name, 1);
                setenv("TOTEX_CHUNKS", cs, 1);
                setenv("TOTEX_STAGGER", stagger == 2 ? "2" : stagger ? "1" : "0", 1);
                char what[200];
                snprintf(what, sizeof what, "%s (%d chunk%s%s) on %s%s", algs[a].name, chunks, chunks > 1 ? "s" : "",
                         stagger == 2 ? ", staggered after start rounds" : stagger ? ", staggered" : "", spec, shape == 0 ? " (world)" : "");
                if (rank == 0)
                    printf("test_unit_exec: %s\n", what);
                static const int bytes[] = {1, 8, 1000, 4099};
                for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++)
                    check(comm, what, MPI_BYTE, bytes[b], 0);
                check(comm, what, MPI_INT, 250, 0);
                check(comm, what, vec, 3, 0);
                check(comm, what, stru, 2, 0);
                check(comm, what, MPI_INT, 5, 1);
                check(comm, what, stru, 3, 1);
                /* a mismatch with cached plans: every rank gets MPI_ERR_COUNT, then a correct call works */
                char s[64] = {0}, r[64];
                int mine = rank == wsize - 1 ? 8 : 1;
                int rc = totex_alltoall(s, mine, MPI_BYTE, r, mine, MPI_BYTE, comm);
                if (rc != MPI_ERR_COUNT) {
                    fprintf(stderr, "FAIL rank %d: %s: mismatched cached counts returned %d, not MPI_ERR_COUNT\n",
                            rank, what, rc);
                    failures++;
                }
                check(comm, what, MPI_BYTE, 8, 0);
                ran++;
                ran_chunked += chunks > 1;
                MPI_Comm_free(&comm);
            }
        }
    unsetenv("TOTEX_ALGORITHM");
    unsetenv("TOTEX_CHUNKS");
    unsetenv("TOTEX_STAGGER");
    if (wsize > 1 && (!ran || !ran_chunked)) {
        fprintf(stderr, "FAIL rank %d: no unit-step schedule applied (%d runs, %d chunked)\n", rank, ran, ran_chunked);
        failures++;
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&stru);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_unit_exec: %d ranks, %d runs: %s (%d failures)\n", wsize, ran, all ? "FAILED" : "ok", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
