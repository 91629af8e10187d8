/* The resumable run (src/mpi/run.c): a run started and taken on by progress
 * steps without may_wait never blocks, and ends byte for byte as
 * PMPI_Alltoall. Each rank's program of unit-step schedules (octr, sym2
 * multiport, a2 single-port where they apply to the communicator's torus; 1
 * chunk and 3 staggered chunks; blocks of 8 and 4099 bytes; default and
 * tightest arena) and of combining algorithms (direct, pairwise, bruck)
 * runs unchecked on a duplicate of MPI_COMM_WORLD. Rank 0 starts its run only
 * once every other rank has had two progress steps return TOTEX_MPI_PENDING
 * (each tells it so on a second duplicate): until rank 0 starts, no other rank
 * can complete, so a progress step that waited for the run to complete would
 * never return, rank 0 would never start, and the test would hang into
 * ctest's timeout (a failure), on any machine load: no clock is read. A rank
 * whose run ends before two pending steps fails and tells rank 0 all the
 * same. Run under mpirun with 4 to 16 ranks; exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpi_support.h"
#include "plan_support.h"
#include "program_support.h"

static int failures, rank;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20)                                                                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
    } while (0)


/* run @p p as a nonblocking call would, rank 0 starting only once every other rank's progress steps returned
 * pending twice (told on @p side); check the result against @p ref */
static void run_one(const char *what, totex_mpi_plan *p, MPI_Comm comm, MPI_Comm side, const unsigned char *send,
                    const unsigned char *ref, unsigned char *got, size_t len)
{
    memset(got, 0xEE, len);
    MPI_Barrier(comm);
    int size, told = 0;
    char token = 1;
    MPI_Comm_size(comm, &size);
    if (rank == 0)
        for (int k = 1; k < size; k++)
            MPI_Recv(&token, 1, MPI_CHAR, MPI_ANY_SOURCE, 7, side, MPI_STATUS_IGNORE);
    totex_mpi_run x;
    long pending = 0;
    int rc = totex_mpi_run_start(&x, p, comm, TOTEX_MPI_PLAN_TAG, NULL, 0, (const char *)send, (char *)got, 1);
    while (rc == TOTEX_MPI_PENDING) {
        rc = totex_mpi_run_progress(&x, 0);
        pending += rc == TOTEX_MPI_PENDING;
        if (rank != 0 && !told && pending >= 2) {
            MPI_Send(&token, 1, MPI_CHAR, 0, 7, side);
            told = 1;
        }
    }
    if (rank != 0 && !told)
        MPI_Send(&token, 1, MPI_CHAR, 0, 7, side);
    if (rc != MPI_SUCCESS || memcmp(ref, got, len))
        FAIL("FAIL rank %d %s: rc %d, result %s\n", rank, what, rc,
             memcmp(ref, got, len) ? "differs from PMPI_Alltoall" : "ok");
    if (rank != 0 && pending < 2)
        FAIL("FAIL rank %d %s: %ld progress steps returned pending while rank 0 had not started\n", rank, what,
             pending);
    if (totex_mpi_run_progress(&x, 0) != rc)
        FAIL("FAIL rank %d %s: a progress step after the end changed the outcome\n", rank, what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm comm;
    totex_network *net = mpi_test_world_torus(&comm, &rank, &size);
    MPI_Comm side;
    MPI_Comm_dup(comm, &side);
    const char *spec = totex_network_spec(net);
    totex_error err;
    static const struct {
        const char *name;
        totex_ports ports;
    } algs[] = {{"octr", TOTEX_PORTS_MULTI}, {"sym2", TOTEX_PORTS_MULTI}, {"a2", TOTEX_PORTS_SINGLE}};
    static const long long slots[] = {8, 4099};
    int runs = 0;
    for (size_t si = 0; si < sizeof slots / sizeof slots[0]; si++) {
        const size_t len = (size_t)size * (size_t)slots[si];
        unsigned char *send = malloc(len), *ref = malloc(len), *got = malloc(len);
        mpi_test_fill(send, len, rank, (int)si);
        PMPI_Alltoall(send, (int)slots[si], MPI_BYTE, ref, (int)slots[si], MPI_BYTE, comm);
        for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++) {
            const totex_algorithm *a = totex_algorithm_find(algs[ai].name, &err);
            if (!a || a->applies(net, algs[ai].ports, &err) != TOTEX_OK)
                continue;
            for (int lanes = 0; lanes < 2; lanes++)
                for (int tight = 0; tight <= 1; tight++) {
                    char what[200], why[300] = "";
                    snprintf(what, sizeof what, "%s on %s, %lld B, %s, %s arena", algs[ai].name, spec, slots[si],
                             lanes ? "3 chunks staggered" : "1 chunk", tight ? "tightest" : "default");
                    totex_mpi_plan *p = mpi_test_compile_unit(net, a, algs[ai].ports, (uint32_t)rank, slots[si],
                                                              lanes ? 3 : 1, lanes, tight, 0, why, sizeof why);
                    if (!p) {
                        FAIL("FAIL rank %d %s: %s\n", rank, what, why);
                        continue;
                    }
                    run_one(what, p, comm, side, send, ref, got, len);
                    runs++;
                    totex_mpi_plan_free(p);
                }
        }
        static const char *combs[] = {"direct", "pairwise", "bruck"};
        for (size_t ci = 0; ci < sizeof combs / sizeof combs[0]; ci++) {
            size_t idx = 0;
            const totex_comb_algorithm *a = totex_comb_algorithm_find(combs[ci], &err);
            while (a && totex_comb_algorithm_get(idx) != a)
                idx++;
            if (!a)
                continue;
            totex_comb_cost cost;
            totex_comb_cost_default(&cost);
            cost.switching = TOTEX_SWITCH_WORMHOLE;
            cost.ports = TOTEX_COMB_ALL_PORT;
            cost.m = (double)slots[si];
            totex_prog_cand c = {0, (int)idx, 0, 1, 0, 0, 0, 0, 0};
            totex_prog *prog = NULL;
            char what[200], why[300] = "";
            snprintf(what, sizeof what, "%s on %s, %lld B", combs[ci], spec, slots[si]);
            if (prog_test_build(net, &cost, &c, (uint32_t)size, (uint32_t)rank, slots[si], &prog, why, sizeof why)) {
                FAIL("FAIL rank %d %s: %s\n", rank, what, why);
                totex_prog_free(prog);
                continue;
            }
            totex_mpi_plan *p = totex_mpi_plan_new(prog, slots[si]);
            run_one(what, p, comm, side, send, ref, got, len);
            runs++;
            totex_mpi_plan_free(p);
        }
        free(send);
        free(ref);
        free(got);
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
    if (rank == 0)
        printf("test_resumable: %d ranks, %d runs: %s (%d failures)\n", size, runs, all ? "FAIL" : "ok", all);
    totex_network_free(net);
    MPI_Comm_free(&side);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return all ? 1 : 0;
}
