/* The short path of a program that is one message each way (2 ranks, short
 * blocks: src/mpi/run.c totex_mpi_exec_pair, alltoall.c's repeat call), the
 * flat program on more ranks (run.c exec_flat: direct and pairwise, every
 * message at once) reached by the same repeat call (alltoall.c raw_call), and
 * the protocol fact the short path rests on (src/mpi/agree.c): it waits for the
 * predecessor's header with a plain MPI_Wait, watching no poison, which is
 * safe only because every rank sends its header in every checked call, also
 * when it fails before the message that was to carry it has left
 * (totex_mpi_guard_fail sends it alone then, naming the error).
 *
 * Checked, on 2 ranks (items 1 .. 4) or more (2 .. 4; run with TOTEX_ALGORITHM=direct
 * or pairwise):
 *  1. (2 ranks) a rank whose call fails before its carried header left still sends a
 *     header, naming its error: the other rank's wait for it ends (a deadline
 *     of 20 s, polled with MPI_Test, turns a missing header into a failure
 *     instead of a hang) and totex_mpi_guard_wait_header returns that error;
 *     the same for a call that fails at its start on a poison kept from the
 *     last call (test_mismatch on 4 ranks hung in 2 runs of 6 before that
 *     path sent its header);
 *  2. the cached plan of 2 ranks at 1..4096 B (bytes) is a pair program (run with
 *     TOTEX_ALGORITHM=direct: a timed choice could take a chunked one), on more
 *     ranks a flat program, and
 *     repeated calls (the short path) are byte-exact against PMPI_Alltoall
 *     with new data every call, sizes changing (several plans cached);
 *  3. MPI_IN_PLACE and a derived datatype at the same byte count (not the
 *     short path) in between stay byte-exact;
 *  4. a mismatched repeat call (the last rank asks for more bytes than the
 *     others) fails on every rank with MPI_ERR_COUNT, without hanging, and the
 *     next correct call succeeds byte-exact (with the check off: not run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mpi_support.h"
#include "totex/mpi.h"

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL rank %d: ", rank);                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

static int rank, size;

/* items 1 (@p kept_poison 0: the call fails before its carried header left) and 1b (1: it fails at its
   start on a poison kept from the last call, as a rank still finishing call k keeps the poison of
   call k + 1; agree.c): rank 0's call fails so, rank 1 waits for its header, due to carry 8 B */
static void header_on_failure(int kept_poison)
{
    totex_mpi_state *st = NULL;
    if (totex_mpi_state_get(MPI_COMM_WORLD, &st) != MPI_SUCCESS ||
        totex_mpi_state_dup(st, MPI_COMM_WORLD, 1) != MPI_SUCCESS) {
        CHECK(0, "no totex state on MPI_COMM_WORLD");
        return;
    }
    const int code = kept_poison ? MPI_ERR_COUNT : MPI_ERR_NO_MEM;
    const char *how = kept_poison ? "on a kept poison" : "before its carried header left";
    totex_mpi_guard g;
    if (rank == 0) {
        int rc;
        if (kept_poison) { /* as watched() keeps it: {code, kind, rank a, value a, rank b, value b, call} */
            st->npoisons = 1;
            memset(st->poisons[0], 0, sizeof st->poisons[0]);
            st->poisons[0][0] = code;
            st->poisons[0][6] = st->calls + 1;
            rc = totex_mpi_guard_start(&g, st, 2, 0, 8, 8, 0, 1);
        } else { /* the executor was to carry the header (carry_out): the call fails first */
            totex_mpi_guard_start(&g, st, 2, 0, 8, 8, 0, 1);
            rc = totex_mpi_guard_fail(&g, code);
        }
        CHECK(rc == code, "rank 0's call failing %s returned %d, want %d", how, rc, code);
    } else { /* as the short path does: a carried message of 8 B is due behind the header */
        static char dst[8];
        totex_mpi_guard_start(&g, st, 2, 1, 8, 8, 0, 0);
        totex_mpi_guard_carry(&g, dst, 8);
        double t0 = MPI_Wtime();
        int flag = 0;
        MPI_Status status;
        while (!flag && MPI_Wtime() - t0 < 20.0)
            MPI_Request_get_status(*g.in, &flag, &status);
        CHECK(flag, "no header from rank 0 within 20 s after its call failed %s", how);
        if (flag) {
            int rc = totex_mpi_guard_wait_header(&g);
            CHECK(rc == code, "the header's error (rank 0 failed %s): %d, want %d", how, rc, code);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD); /* (rank 1 looked for the header before rank 0's call ended: dropped its guard) */
    totex_mpi_guard_drop(&g);
    totex_mpi_state_retire(st);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* one call of @p b bytes per block as MPI_BYTE (salt: new data), compared with PMPI_Alltoall */
static void exact(int b, int salt, const char *what)
{
    unsigned char *s = malloc((size_t)size * (size_t)b), *r = malloc((size_t)size * (size_t)b), *want = malloc((size_t)size * (size_t)b);
    mpi_test_fill(s, (size_t)size * (size_t)b, rank, salt);
    memset(r, 0xEE, (size_t)size * (size_t)b);
    PMPI_Alltoall(s, b, MPI_BYTE, want, b, MPI_BYTE, MPI_COMM_WORLD);
    int rc = totex_alltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "%s %d B: totex_alltoall returned %d", what, b, rc);
    CHECK(rc != MPI_SUCCESS || memcmp(r, want, (size_t)size * (size_t)b) == 0, "%s %d B (salt %d): result differs", what, b,
          salt);
    free(s);
    free(r);
    free(want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        if (rank == 0)
            fprintf(stderr, "test_pair: run on 2 .. 64 ranks\n");
        MPI_Finalize();
        return 2;
    }
    const char *check_env = getenv("TOTEX_CHECK");
    const int checked = !check_env || strcmp(check_env, "0") != 0;
    if (size == 2 && checked) {
        header_on_failure(0);
        header_on_failure(1);
    }

    /* items 2, 3 */
    const int sizes[] = {1, 8, 24, 100, 1024, 4096};
    int salt = 0;
    for (int k = 0; k < 6; k++) {
        const int b = sizes[k];
        exact(b, ++salt, "first");
        const totex_mpi_state *st = totex_mpi_state_last(MPI_COMM_WORLD);
        if (size == 2)
            CHECK(st && st->memo.plan && st->memo.plan->prog->pair, "%d B on 2 ranks: the cached plan is not a pair program",
                  b);
        else
            CHECK(st && st->memo.plan && st->memo.plan->prog->flat && st->memo.send_raw && st->memo.recv_raw,
                  "%d B on %d ranks: the cached plan is not a flat program run from the memo", b, size);
        for (int i = 0; i < 50; i++)
            exact(b, ++salt, "repeat");
    }
    for (int k = 0; k < 6; k++) { /* the sizes again (plans cached), in place and derived types in between */
        const int b = sizes[k];
        exact(b, ++salt, "again");
        unsigned char *buf = malloc((size_t)size * (size_t)b), *want = malloc((size_t)size * (size_t)b);
        mpi_test_fill(buf, (size_t)size * (size_t)b, rank, ++salt);
        PMPI_Alltoall(buf, b, MPI_BYTE, want, b, MPI_BYTE, MPI_COMM_WORLD);
        int rc = totex_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, b, MPI_BYTE, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS && memcmp(buf, want, (size_t)size * (size_t)b) == 0, "MPI_IN_PLACE %d B: rc %d or differs", b,
              rc);
        MPI_Datatype v; /* b bytes as every other byte of 2b: a derived type of the same signature */
        MPI_Type_vector(b, 1, 2, MPI_BYTE, &v);
        MPI_Datatype vr;
        MPI_Type_create_resized(v, 0, 2 * (MPI_Aint)b, &vr);
        MPI_Type_commit(&vr);
        unsigned char *sv = malloc(2 * (size_t)size * (size_t)b), *rv = malloc((size_t)size * (size_t)b), *wv = malloc((size_t)size * (size_t)b);
        mpi_test_fill(sv, 2 * (size_t)size * (size_t)b, rank, ++salt);
        PMPI_Alltoall(sv, 1, vr, wv, b, MPI_BYTE, MPI_COMM_WORLD);
        rc = totex_alltoall(sv, 1, vr, rv, b, MPI_BYTE, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS && memcmp(rv, wv, (size_t)size * (size_t)b) == 0, "vector send type %d B: rc %d or differs", b,
              rc);
        exact(b, ++salt, "after in place and vector");
        MPI_Type_free(&vr);
        MPI_Type_free(&v);
        free(sv);
        free(rv);
        free(wv);
        free(buf);
        free(want);
    }

    /* item 4: the last rank repeats with more bytes than the others */
    exact(8, ++salt, "before mismatch");
    exact(8, ++salt, "before mismatch");
    if (checked) {
        const int b = rank == size - 1 ? 16 : 8;
        unsigned char s[16 * 64] = {0}, r[16 * 64];
        int rc = totex_alltoall(s, b, MPI_BYTE, r, b, MPI_BYTE, MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_COUNT, "mismatched call (8 B against 16 B) returned %d, want MPI_ERR_COUNT (%d)", rc,
              MPI_ERR_COUNT);
    }
    exact(8, ++salt, "after mismatch");
    exact(8, ++salt, "after mismatch, repeat");

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_pair: %d ranks, %s (%d failures)\n", size, all ? "FAILED" : "ok", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
