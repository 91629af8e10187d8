/* MPI_Alltoallv through totex. Built twice:
 * - test_alltoallv (TOTEX_LIB): calls totex_alltoallv() and, on the same
 *   arguments, PMPI_Alltoallv (the MPI library's): both receive buffers must
 *   be byte-identical, gaps included, and equal to what the fill formula says;
 * - test_alltoallv_plain (no totex library): calls MPI_Alltoallv, which the
 *   drop-in (LD_PRELOAD) or the Open MPI component serves; results against
 *   the fill formula (PMPI_Alltoallv is totex's too there).
 * Cases: uniform counts (MPI_Alltoall's layout), zero counts, one-sided skew
 * (rank 0 sends much, the others little), a hotspot receiver, blocks long and
 * short, all counts zero; each with MPI_BYTE and with a derived send type (a
 * vector of 2 ints with a hole, received as MPI_INT), displacements in
 * reverse rank order with gaps (the gaps must keep their sentinel bytes);
 * MPI_IN_PLACE with symmetric counts; a mismatch (rank 1 expects one element
 * more from rank 0 than rank 0 sends; receivers half-way round a ring expecting
 * one byte more and one fewer; a rank with a negative count, under Open MPI
 * and MPICH alike): every rank must return an error
 * (MPI_ERR_COUNT or MPI_ERR_TRUNCATE) and no receive buffer byte may change
 * (after a uniform call, with uniform counts: no byte outside the blocks);
 * then a correct call again. totex chooses a call's way from the last call's
 * figures, so the calls run in sequences: uniform after uniform, counts
 * uniform on some ranks only (one pair differs) or on none after uniform, in
 * place after uniform, a mismatch after a uniform call and after a call that
 * ran direct. Exit status non-zero on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#ifdef TOTEX_LIB
#include "totex/mpi.h"
#endif

static int failures, rank;

#include "mpi_check.h"

#define SENTINEL 0xEE

enum { C_UNIFORM, C_ZEROS, C_SKEW, C_HOT, C_LONG, C_NONE, C_SYM, C_PAIR, C_N };
static const char *const cname[] = {"uniform", "zeros", "skew", "hotspot", "long", "none", "symmetric", "one pair"};

/* elements rank i sends rank j in case @p c on @p n ranks */
static int cnt(int c, int i, int j, int n)
{
    switch (c) {
    case C_UNIFORM: return 100;
    case C_ZEROS: return (i * 7 + j * 3) % 4 == 0 ? 0 : 1 + (i * 31 + j * 17) % 50;
    case C_SKEW: return i == 0 ? 3000 : j % 2;
    case C_HOT: return j == n - 1 ? 5000 : 3;
    case C_LONG: return (i + j) % 2 ? 40000 : 100;
    case C_NONE: return 0;
    case C_PAIR: return i == 0 && j == 1 % n ? 200 : 100; /* (uniform on the ranks other than 0 and 1) */
    default: return 1 + ((i + j) * 13 + i * j) % 40; /* symmetric in i and j */
    }
}

/* int k of the block from @p i to @p j in round @p it */
static int value(int i, int j, long k, int it) { return (int)(i * 1000003L + j * 7919L + k * 31 + it * 5 + 1); }
static unsigned char byte(int i, int j, long k, int it) { return (unsigned char)(i * 131 + j * 29 + k * 7 + it * 13 + 1); }

/* displacements (in extents) of @p counts: regular (in peer order, no gaps: MPI_Alltoall's layout when the
   counts are equal) or in reverse
   peer order with gaps of peer % 3 extents; returns the extents the buffer needs */
static long layout(const int *counts, int n, int regular, int *disp)
{
    long at = 0;
    if (regular) {
        for (int j = 0; j < n; j++) {
            disp[j] = (int)at;
            at += counts[j];
        }
        return at;
    }
    for (int j = n - 1; j >= 0; j--) {
        disp[j] = (int)at;
        at += counts[j] + j % 3;
    }
    return at;
}

typedef struct {
    int *sc, *sd, *rc, *rd;
} arrays;

static void run_case(MPI_Comm comm, int c, int vec, int regular, int in_place, int it, MPI_Datatype vtype)
{
    int n;
    MPI_Comm_size(comm, &n);
    if (in_place && c != C_SYM && c != C_UNIFORM && c != C_NONE)
        return;
    arrays a = {malloc(n * sizeof(int)), malloc(n * sizeof(int)), malloc(n * sizeof(int)), malloc(n * sizeof(int))};
    for (int j = 0; j < n; j++) {
        a.sc[j] = cnt(c, rank, j, n);
        a.rc[j] = cnt(c, j, rank, n) * (vec ? 2 : 1); /* a vector element is 2 ints */
    }
    /* send extents: MPI_BYTE 1 byte, the vector 3 ints; receive: 1 byte or 1 int */
    const size_t sunit = vec ? 3 * sizeof(int) : 1, runit = vec ? sizeof(int) : 1;
    long sext = layout(a.sc, n, regular, a.sd), rext = layout(a.rc, n, regular, a.rd);
    if (in_place) { /* the data and its layout are the receive buffer's (counts symmetric: sc == rc) */
        for (int j = 0; j < n; j++)
            a.sc[j] = a.rc[j], a.sd[j] = a.rd[j];
        sext = rext;
    }
    const size_t sbytes = (size_t)sext * sunit + 1, rbytes = (size_t)rext * runit + 1;
    unsigned char *s = malloc(sbytes), *r = malloc(rbytes), *ref = malloc(rbytes), *expect = malloc(rbytes);
    memset(s, SENTINEL, sbytes);
    memset(expect, SENTINEL, rbytes);
    for (int j = 0; j < n; j++) { /* what this rank sends, and what it must receive */
        if (vec) {
            int *si = (int *)s, *ei = (int *)expect;
            if (!in_place)
                for (long e = 0; e < a.sc[j]; e++) {
                    memcpy(&si[(a.sd[j] + e) * 3], &(int){value(rank, j, 2 * e, it)}, sizeof(int));
                    memcpy(&si[(a.sd[j] + e) * 3 + 2], &(int){value(rank, j, 2 * e + 1, it)}, sizeof(int));
                }
            for (long k = 0; k < a.rc[j]; k++)
                memcpy(&ei[a.rd[j] + k], &(int){value(j, rank, k, it)}, sizeof(int));
        } else {
            for (long k = 0; k < a.sc[j]; k++)
                s[a.sd[j] + k] = byte(rank, j, k, it);
            for (long k = 0; k < a.rc[j]; k++)
                expect[a.rd[j] + k] = byte(j, rank, k, it);
        }
    }
    MPI_Datatype st = vec ? vtype : MPI_BYTE, rt = vec ? MPI_INT : MPI_BYTE;
    if (in_place) { /* the receive buffer holds what this rank sends (in place: recvtype only, so bytes) */
        st = rt;
        memset(r, SENTINEL, rbytes);
        for (int j = 0; j < n; j++)
            for (long k = 0; k < a.rc[j]; k++)
                r[a.rd[j] + k] = byte(rank, j, k, it);
        memcpy(ref, r, rbytes);
    } else {
        memset(r, SENTINEL, rbytes);
        memset(ref, SENTINEL, rbytes);
    }
    const void *sb = in_place ? MPI_IN_PLACE : s;
#ifdef TOTEX_LIB
    int rc = totex_alltoallv(sb, a.sc, a.sd, st, r, a.rc, a.rd, rt, comm);
    int prc = PMPI_Alltoallv(sb, a.sc, a.sd, st, ref, a.rc, a.rd, rt, comm);
    CHECK(prc == MPI_SUCCESS, "PMPI_Alltoallv returned %d", prc);
    CHECK(memcmp(r, ref, rbytes) == 0, "%s%s%s%s: totex_alltoallv differs from PMPI_Alltoallv on %d ranks", cname[c],
          vec ? "/vector" : "", regular ? "/regular" : "", in_place ? "/in place" : "", n);
#else
    int rc = MPI_Alltoallv(sb, a.sc, a.sd, st, r, a.rc, a.rd, rt, comm);
#endif
    CHECK(rc == MPI_SUCCESS, "%s: MPI_Alltoallv returned %d", cname[c], rc);
    CHECK(memcmp(r, expect, rbytes) == 0, "%s%s%s%s: wrong bytes received on %d ranks", cname[c],
          vec ? "/vector" : "", regular ? "/regular" : "", in_place ? "/in place" : "", n);
    free(s), free(r), free(ref), free(expect);
    free(a.sc), free(a.sd), free(a.rc), free(a.rd);
}

/* rank 1 (rank 0 on one rank) expects one byte more from rank 0 than rank 0 sends; the counts of case @p c
   (C_ZEROS: in reverse order with gaps; C_UNIFORM: MPI_Alltoall's layout, uniform on every rank but 1). No
   receive buffer byte may change, except, after a uniform call (@p c C_UNIFORM: totex runs the schedule of
   the last call at once, its check on the data), bytes of the blocks of the ranks whose counts are uniform:
   never a byte outside the blocks */
/* the call under test on bytes (the library's entry point, or MPI_Alltoallv through the drop-in); its code */
static int call_bytes(const unsigned char *s, const int *sc, const int *sd, unsigned char *r, const int *rc,
                      const int *rd, MPI_Comm comm)
{
#ifdef TOTEX_LIB
    return totex_alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm);
#else
    return MPI_Alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm);
#endif
}

static void mismatch_steady(MPI_Comm comm, int c, int to, int delta, int steady);
static void mismatch_pair(MPI_Comm comm, int c, int to, int delta) { mismatch_steady(comm, c, to, delta, 0); }
static void mismatch_case(MPI_Comm comm, int c) { mismatch_pair(comm, c, -1, 1); }

/* as mismatch_case(), but rank @p to (-1: rank 1, or 0 on one rank) expects @p delta bytes more (or fewer) from
   rank 0 than rank 0 sends (on a 4x4 torus rank n / 2 is half-way round a ring from rank 0: "relay" carries
   that block through a relay, in chunks). @p steady 1: the counts of run_case() for @p c (a pattern the calls
   before repeated: every rank's figures but rank @p to's are those of the last call, sent brief by "direct"),
   rank @p to's receive count changed; 2: the same, but rank 0 sends @p delta bytes more to rank @p to, which
   expects the usual (rank 0's figures change, the receiver's do not); 0: every count one more than run_case()'s */
static void mismatch_steady(MPI_Comm comm, int c, int to, int delta, int steady)
{
    int n;
    MPI_Comm_size(comm, &n);
    int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int)), *rc = malloc(n * sizeof(int)),
        *rd = malloc(n * sizeof(int));
    for (int j = 0; j < n; j++) {
        sc[j] = cnt(c, rank, j, n) + (c == C_ZEROS && !steady);
        rc[j] = cnt(c, j, rank, n) + (c == C_ZEROS && !steady);
    }
    if (to < 0)
        to = n > 1 ? 1 : 0;
    if (steady == 2) {
        if (rank == 0)
            sc[to] += delta;
    } else if (rank == to)
        rc[0] += delta;
    long se = layout(sc, n, c == C_UNIFORM, sd), re = layout(rc, n, c == C_UNIFORM, rd);
    unsigned char *s = malloc((size_t)se + 1), *r = malloc((size_t)re + 1);
    memset(s, 1, (size_t)se + 1);
    memset(r, SENTINEL, (size_t)re + 1);
    int code = call_bytes(s, sc, sd, r, rc, rd, comm), cls = -1;
    if (code != MPI_SUCCESS)
        MPI_Error_class(code, &cls);
    CHECK(cls == MPI_ERR_COUNT || cls == MPI_ERR_TRUNCATE, "mismatch: returned %d (class %d), not MPI_ERR_COUNT "
          "or MPI_ERR_TRUNCATE", code, cls);
    int untouched = 1;
    for (long k = c == C_UNIFORM && rank != (n > 1 ? 1 : 0) ? re : 0; k <= re; k++)
        untouched &= r[k] == SENTINEL;
    CHECK(untouched, "mismatch: the receive buffer was written");
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
}

#ifdef TOTEX_LIB
/* rank n - 1 gives a negative send count (a local error): every rank must return MPI_ERR_COUNT (the figures carry
   it to the others, or the MPI_Allreduce does), and no receive buffer byte may change */
static void negative_case(MPI_Comm comm)
{
    int n;
    MPI_Comm_size(comm, &n);
    int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int)), *rc = malloc(n * sizeof(int)),
        *rd = malloc(n * sizeof(int));
    for (int j = 0; j < n; j++) {
        sc[j] = cnt(C_ZEROS, rank, j, n) + 1;
        rc[j] = cnt(C_ZEROS, j, rank, n) + 1;
    }
    long se = layout(sc, n, 1, sd), re = layout(rc, n, 1, rd);
    if (rank == n - 1)
        sc[0] = -1;
    unsigned char *s = malloc((size_t)se + 1), *r = malloc((size_t)re + 1);
    memset(s, 1, (size_t)se + 1);
    memset(r, SENTINEL, (size_t)re + 1);
    int code = call_bytes(s, sc, sd, r, rc, rd, comm), cls = -1;
    if (code != MPI_SUCCESS)
        MPI_Error_class(code, &cls);
    CHECK(cls == MPI_ERR_COUNT, "negative count on rank %d: returned %d (class %d), not MPI_ERR_COUNT", n - 1, code,
          cls);
    int untouched = 1;
    for (long k = 0; k <= re; k++)
        untouched &= r[k] == SENTINEL;
    CHECK(untouched, "negative count: the receive buffer was written");
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Datatype vec; /* 2 ints with a hole: extent 3 ints */
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Datatype vtype;
    MPI_Type_create_resized(vec, 0, 3 * (MPI_Aint)sizeof(int), &vtype);
    MPI_Type_commit(&vtype);
    int it = 0;
    for (int c = 0; c < C_N; c++)
        for (int v = 0; v < 2; v++)
            for (int regular = 0; regular < 2; regular++)
                for (int in_place = 0; in_place < 2; in_place++) {
                    if (in_place && v)
                        continue; /* (in place the send type is the receive type) */
                    run_case(comm, c, v, regular, in_place, it++, vtype);
                }
    const char *chk = getenv("TOTEX_CHECK");
    if (!chk || strcmp(chk, "0")) /* (TOTEX_CHECK=0: a mismatch is MPI's, not checked by totex) */
        mismatch_case(comm, C_ZEROS);
    run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype); /* the communicator works after the error */
    run_case(comm, C_UNIFORM, 0, 1, 0, it++, vtype);
    /* totex chooses from the last call's figures: uniform after uniform runs totex_alltoall's schedule at once;
       counts uniform on some ranks only, or in place, or not uniform on any, after uniform: every rank runs
       the call another way */
    const int after_uniform[] = {C_UNIFORM, C_PAIR, C_UNIFORM, C_UNIFORM, -1, C_UNIFORM, C_SKEW, C_UNIFORM,
                                 C_UNIFORM, C_NONE, C_UNIFORM, C_UNIFORM};
    for (size_t k = 0; k < sizeof after_uniform / sizeof *after_uniform; k++)
        if (after_uniform[k] >= 0)
            run_case(comm, after_uniform[k], 0, 1, 0, it++, vtype);
        else
            run_case(comm, C_UNIFORM, 0, 1, 1, it++, vtype); /* (in place) */
    if (!chk || strcmp(chk, "0")) {
        run_case(comm, C_UNIFORM, 0, 1, 0, it++, vtype);
        mismatch_case(comm, C_UNIFORM); /* (after a uniform call: see mismatch_case) */
        run_case(comm, C_UNIFORM, 0, 1, 0, it++, vtype);
        run_case(comm, C_NONE, 0, 1, 0, it++, vtype);
        mismatch_case(comm, C_ZEROS); /* (after a call with nothing to move: direct, the check on the data) */
        run_case(comm, C_UNIFORM, 0, 1, 0, it++, vtype);
        /* a receiver half-way round (relay: through a relay, in chunks) expecting more, then fewer, each after
           a correct non-uniform call */
        run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
        mismatch_pair(comm, C_ZEROS, n / 2, 1);
        run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
        if (n >= 4) { /* (rank 2 is half-way round a ring of 4 from rank 0 on ring:4*k2 too, where rank n / 2 is
                         rank 0's partner on k2: relay carries that block through a relay, in chunks, and the
                         receiver expecting fewer sees a chunk longer than it expects) */
            mismatch_pair(comm, C_ZEROS, 2, -1);
            run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
        }
        mismatch_pair(comm, C_ZEROS, n / 2, -1);
        run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
#ifdef TOTEX_LIB /* (through the Open MPI component, Open MPI's own argument check returns on that rank alone) */
        negative_case(comm);
        run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
#endif
        /* (built against MPICH, totex's waits run with MPI_COMM_WORLD's handler MPI_ERRORS_RETURN: the caller's
           must be back after them, failed or not) */
        MPI_Errhandler world;
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world);
        CHECK(world == MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD's error handler is no longer MPI_ERRORS_ARE_FATAL after "
              "the mismatches");
        MPI_Errhandler_free(&world);
    }
    /* a pattern repeated (the choice settled; "direct" sends the figures of a rank whose figures did not change
       brief), then one rank's receive count changed alone (the sender's figures brief as before), or one send
       count alone, by one byte more or fewer: an error on every rank, no receive byte written, and the pattern
       runs again after it */
    if ((!chk || strcmp(chk, "0")) && n > 1) {
        const int to[4] = {n - 1, n / 2, 1, n - 1}, delta[4] = {1, -1, -1, 1}, how[4] = {1, 1, 2, 2};
        for (int m = 0; m < 4; m++) {
            for (int k = 0; k < 6; k++)
                run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
            if (cnt(C_ZEROS, 0, to[m], n) + delta[m] >= 0)
                mismatch_steady(comm, C_ZEROS, to[m], delta[m], how[m]);
            run_case(comm, C_ZEROS, 0, 0, 0, it++, vtype);
        }
    }
    /* blocks far longer than the last call's (relay: its relays' rooms, sized by the last call's figures, too
       small: the rest of each message in a second part), then short again */
    run_case(comm, C_NONE, 0, 0, 0, it++, vtype);
    run_case(comm, C_SYM, 0, 0, 0, it++, vtype);
    run_case(comm, C_LONG, 1, 0, 0, it++, vtype);
    run_case(comm, C_SYM, 0, 0, 0, it++, vtype);
    /* a hot receiver three times over (after the first, the choice knows every rank's totals from the data:
       "balanced" where its prediction wins, pieces relayed by its plan; then with a derived datatype) */
    run_case(comm, C_HOT, 0, 0, 0, it++, vtype);
    run_case(comm, C_HOT, 0, 0, 0, it++, vtype);
    run_case(comm, C_HOT, 1, 0, 0, it++, vtype);
    /* repeat calls of changing counts (the choice is made per call) */
    for (int k = 0; k < 20; k++)
        run_case(comm, k % C_N, k % 2, 0, 0, it++, vtype);
    MPI_Type_free(&vtype);
    MPI_Type_free(&vec);
    MPI_Comm_free(&comm);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_alltoallv: %d ranks, %d failures\n", n, all);
    MPI_Finalize();
    return all != 0;
}
