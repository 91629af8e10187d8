/* "stepped" (src/mpi/alltoallv_stepped.c) in the measured choice (src/mpi/alltoallv_tune.c): on a declared torus
 * where balanced is not planned (no hot receiver), a repeating pattern's trials time stepped as the second
 * candidate, its routing (ST_ROUNDS + 2 MPI_Allreduces) made once, before the trial's barrier, and cached.
 *
 * Run on 16 ranks with TOTEX_NETWORK=ring:4*ring:4 and TOTEX_VERBOSE=1. Checked, every call byte-exact against
 * the fill formula (and no byte past the receive buffer):
 *  1. 8 calls alternating two spread demands (different totals): no routing made, no trial timed;
 *  2. then 6 calls of the first demand: exactly one routing made (totex_mpi_v_stepped_routings(), counted where
 *     it is made), and 2 or 3 trials (the predicted form unless direct, stepped, direct);
 *  3. then 3 more: still one routing and no more trials (decided; stepped, where it won, from the cache).
 * The measured line (ctest's PASS expression) must name stepped with its time.
 * With TOTEX_ALLTOALLV=stepped instead: 4 calls (a demand 3 times, then another on the routing cached for the
 * first: byte-exact still), 2 routings made, then a third for the next call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"
#include "v_pattern.h"

static int failures, rank;

#define CHECK(cond, ...) V_CHECK(failures, rank, cond, __VA_ARGS__)

/* bytes rank i sends rank j in demand @p v: spread, no hot receiver */
static int count(int i, int j, int v) { return i == j ? 0 : 100 + (i * 7 + j * 13 + v * (i + 1) * 5) % 200; }

static void call(MPI_Comm comm, int n, int v, int it) { failures += v_pattern_call(comm, n, rank, count, v, it); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int it = 0;
    const char *forced = getenv("TOTEX_ALLTOALLV");
    if (forced && !strcmp(forced, "stepped")) {
        /* forced: a routing on the first call (no last figures: key 0) and the second (the first's figures), the
           third's from the cache, and the fourth, of other counts, on the routing cached for the first demand
           (its key is the last call's figures): every byte still exactly once */
        for (int k = 0; k < 4; k++)
            call(MPI_COMM_WORLD, n, k == 3, it++);
        CHECK(totex_mpi_v_stepped_routings() == 2, "%lu routings made for 3 calls of a demand and one of another "
              "(want 2)", totex_mpi_v_stepped_routings());
        call(MPI_COMM_WORLD, n, 0, it++);
        CHECK(totex_mpi_v_stepped_routings() == 3, "%lu routings after a call whose last call's counts changed "
              "(want 3)", totex_mpi_v_stepped_routings());
        goto done;
    }
    for (int k = 0; k < 8; k++)
        call(MPI_COMM_WORLD, n, k % 2, it++);
    CHECK(totex_mpi_v_stepped_routings() == 0, "%lu routings made for counts that changed every call (want 0)",
          totex_mpi_v_stepped_routings());
    CHECK(totex_mpi_v_tune_trials() == 0, "%lu trials timed for counts that changed every call (want 0)",
          totex_mpi_v_tune_trials());
    for (int k = 0; k < 6; k++)
        call(MPI_COMM_WORLD, n, 0, it++);
    const unsigned long trials = totex_mpi_v_tune_trials();
    CHECK(totex_mpi_v_stepped_routings() == 1, "%lu routings made for counts repeated 6 times (want 1)",
          totex_mpi_v_stepped_routings());
    CHECK(trials == 2 || trials == 3, "%lu trials timed for counts repeated 6 times (want 2 or 3)", trials);
    for (int k = 0; k < 3; k++)
        call(MPI_COMM_WORLD, n, 0, it++);
    CHECK(totex_mpi_v_stepped_routings() == 1, "%lu routings made after 3 more calls (want 1: cached)",
          totex_mpi_v_stepped_routings());
    CHECK(totex_mpi_v_tune_trials() == trials, "%lu trials timed after 3 more calls (want %lu: decided)",
          totex_mpi_v_tune_trials(), trials);
done:;
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_alltoallv_stepped: %d ranks, %d failures\n", n, all);
    MPI_Finalize();
    return all != 0;
}
