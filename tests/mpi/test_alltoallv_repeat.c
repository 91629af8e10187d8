/* "balanced" (src/mpi/alltoallv_balanced.c) makes its plan, O(n^3 diameter) of CPU on every rank, only for a
 * repeating pattern (src/mpi/alltoallv.c, balanced_predict): counts whose row and column totals change from call
 * to call never pay it, and totals seen on two calls in a row are planned once and then taken from the cache.
 *
 * Run on 16 ranks with TOTEX_NETWORK=ring:4*ring:4 and a cost model where bytes dominate (TOTEX_TS=1e-9,
 * TOTEX_TC=1e-6: balanced wins wherever it is planned). Checked, every call byte-exact against the fill formula:
 *  1. 8 calls alternating two demands with a hot receiver (rank n - 1, then rank 0: different column totals):
 *     no plan made on any rank (totex_mpi_v_balanced_plans(), counted where the plan is made);
 *  2. then 3 calls of the first demand: exactly one plan made, by the third call;
 *  3. then 3 more: still one (the cache);
 *  4. the measured choice (src/mpi/alltoallv_tune.c): no trial in step 1, exactly 2 trials (the predicted form,
 *     then direct) by the end of step 3, none after (3 more calls).
 * The verbose line (ctest's PASS expression) must name balanced, so the plan was used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"
#include "v_pattern.h"

static int failures, rank;

#define CHECK(cond, ...) V_CHECK(failures, rank, cond, __VA_ARGS__)

/* bytes rank i sends rank j when @p hot receives 400 times the others */
static int count(int i, int j, int hot) { return i == j ? 0 : j == hot ? 2000 : 5 + (i + j) % 3; }

static void call(MPI_Comm comm, int n, int hot, int it) { failures += v_pattern_call(comm, n, rank, count, hot, it); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int it = 0;
    for (int k = 0; k < 8; k++)
        call(MPI_COMM_WORLD, n, k % 2 ? 0 : n - 1, it++);
    CHECK(totex_mpi_v_balanced_plans() == 0, "%lu plans made for totals that changed every call (want 0)",
          totex_mpi_v_balanced_plans());
    CHECK(totex_mpi_v_tune_trials() == 0, "%lu trials timed for counts that changed every call (want 0)",
          totex_mpi_v_tune_trials());
    for (int k = 0; k < 3; k++)
        call(MPI_COMM_WORLD, n, n - 1, it++);
    CHECK(totex_mpi_v_balanced_plans() == 1, "%lu plans made for totals repeated 3 times (want 1)",
          totex_mpi_v_balanced_plans());
    for (int k = 0; k < 3; k++)
        call(MPI_COMM_WORLD, n, n - 1, it++);
    CHECK(totex_mpi_v_balanced_plans() == 1, "%lu plans made after 3 more calls of the same totals (want 1: cached)",
          totex_mpi_v_balanced_plans());
    /* (alltoallv_tune.c: the third and fourth calls of the pattern timed, the predicted form then direct) */
    CHECK(totex_mpi_v_tune_trials() == 2, "%lu trials timed for counts repeated 6 times (want 2)",
          totex_mpi_v_tune_trials());
    for (int k = 0; k < 3; k++)
        call(MPI_COMM_WORLD, n, n - 1, it++);
    CHECK(totex_mpi_v_tune_trials() == 2, "%lu trials timed after 3 more calls (want 2: decided)",
          totex_mpi_v_tune_trials());
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_alltoallv_repeat: %d ranks, %d failures\n", n, all);
    MPI_Finalize();
    return all != 0;
}
