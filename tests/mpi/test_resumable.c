/* The resumable run (src/mpi/run.c): a run started and taken on by progress
 * steps without may_wait never blocks, and ends byte for byte as
 * PMPI_Alltoall. Each rank's program of unit-step schedules (octr, sym2
 * multiport, a2 single-port where they apply to the communicator's torus; 1
 * chunk and 3 staggered chunks; blocks of 8 and 4099 bytes; default and
 * tightest arena) and of combining algorithms (direct, pairwise, bruck)
 * runs unchecked on a duplicate of MPI_COMM_WORLD. Rank 0 starts
 * STALL_SECONDS late: until it starts, no other rank can complete, so their
 * progress steps must keep returning TOTEX_MPI_PENDING (at least twice: a step
 * that waited would return only once the run is complete), and none that starts
 * in the stall's first half may last STEP_SECONDS (0.9 of the stall: one that
 * waited for rank 0 would last at least the rest of the stall; the margin is
 * for an oversubscribed machine's scheduler). Run under mpirun with 4 to 16
 * ranks; exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "mpi_support.h"
#include "plan_support.h"
#include "program_support.h"

#define STALL_SECONDS 0.3
#define STEP_SECONDS (0.9 * STALL_SECONDS)

static int failures, rank;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20)                                                                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
    } while (0)


/* run @p p as a nonblocking call would, rank 0 late; check the result against @p ref */
static void run_one(const char *what, totex_mpi_plan *p, MPI_Comm comm, const unsigned char *send,
                    const unsigned char *ref, unsigned char *got, size_t len)
{
    memset(got, 0xEE, len);
    MPI_Barrier(comm);
    if (rank == 0) {
        struct timespec ts = {0, (long)(STALL_SECONDS * 1e9)};
        nanosleep(&ts, NULL);
    }
    totex_mpi_run x;
    double t_start = MPI_Wtime(), longest = 0;
    long pending = 0;
    int rc = totex_mpi_run_start(&x, p, comm, TOTEX_MPI_PLAN_TAG, NULL, 0, (const char *)send, (char *)got, 1);
    while (rc == TOTEX_MPI_PENDING) {
        double t0 = MPI_Wtime();
        rc = totex_mpi_run_progress(&x, 0);
        double t = MPI_Wtime() - t0;
        if (t > longest && t0 - t_start < STALL_SECONDS / 2)
            longest = t; /* (steps while rank 0 surely sleeps) */
        pending += rc == TOTEX_MPI_PENDING;
    }
    if (rc != MPI_SUCCESS || memcmp(ref, got, len))
        FAIL("FAIL rank %d %s: rc %d, result %s\n", rank, what, rc,
             memcmp(ref, got, len) ? "differs from PMPI_Alltoall" : "ok");
    if (rank != 0 && pending < 2)
        FAIL("FAIL rank %d %s: %ld progress steps returned pending while rank 0 had not started\n", rank, what,
             pending);
    if (rank != 0 && longest > STEP_SECONDS)
        FAIL("FAIL rank %d %s: a progress step took %.3f s while rank 0 slept (it blocked)\n", rank, what, longest);
    if (totex_mpi_run_progress(&x, 0) != rc)
        FAIL("FAIL rank %d %s: a progress step after the end changed the outcome\n", rank, what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm comm;
    totex_network *net = mpi_test_world_torus(&comm, &rank, &size);
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
                    run_one(what, p, comm, send, ref, got, len);
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
            run_one(what, p, comm, send, ref, got, len);
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
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return all ? 1 : 0;
}
