/*
 * Name:       totex_alltoallv (non-uniform total exchange, MPI_Alltoallv semantics)
 * Paper:      this project (docs/mpi.md, "Non-uniform exchange"); the uniform schedules are those of totex_alltoall
 *             (002 Suh, Shin & Yalamanchili; 000 a2/a3; 001 octr, translated per rank by
 *             001 Theorem 2): see alltoall.c and plan.c.
 * Model:      the runtime's: t_s seconds per message start-up and t_c seconds per byte
 *             (measured by ping-pong, measure.c, or TOTEX_TS / TOTEX_TC).
 * Steps:      the call's global figures (the largest row, column and block, the smallest
 *             block, the total, in place or not, "every rank has MPI_Alltoall's layout", the
 *             largest local error, the count check) are known on every rank after a call,
 *             and the next call's way is chosen from the last call's figures (mode_of(), the
 *             same on every rank, before any data moves):
 *             - after none, a failed call, or a call whose figures choose direct: "direct"
 *               with every message carrying its sender's figures (run_carried(): every rank
 *               receives from every rank, so each folds all of them; no collective
 *               operation; after such a call that succeeded, a rank whose figures did not
 *               change sends 4 bytes in their place and the others fold those they kept:
 *               V_BRIEF);
 *             - after a call whose figures choose relay (or TOTEX_ALLTOALLV=relay): "relay"
 *               with every block carrying its sender's figures (run_relay_carried(): in its
 *               straight message or its first chunk; every rank receives a block from every
 *               rank and folds all figures; the relays' rooms sized by the last call's
 *               figures, a longer message in parts; no collective operation);
 *             - after a uniform call (not in place): "uniform" at once, checked by
 *               totex_alltoall's ring header on its data; a rank whose counts are not
 *               uniform fails that call on every rank (a silent poison, agree.c) and the
 *               call runs as below;
 *             - after a call whose figures choose padded or routed (or TOTEX_ALLTOALLV=
 *               padded|routed): one MPI_Allreduce of the figures, then one of
 *             - "uniform": every pair's block has the same bytes and every rank's
 *               displacements are those of MPI_Alltoall: totex_alltoall's cached
 *               schedule on the caller's buffers and datatypes;
 *             - "padded": every block packed into a slot of the largest block's bytes
 *               (the global maximum), the uniform schedule of totex_alltoall run on
 *               those slots (its relays combine and forward slots), each block unpacked
 *               with its real length;
 *             - "direct": one message per pair with data, all posted at once (what MPI
 *               libraries do), the caller's datatypes given to MPI;
 *             - "routed" (alltoallv_routed.c): on a torus, every block relayed along the
 *               rings with its real length (the lengths travel behind the pieces);
 *             - "relay" (alltoallv_relay.c): on a torus of even rings, direct with the half-way
 *               blocks relayed once through a neighbour (direct-relay's rule), their lengths
 *               behind them.
 *             - "stepped" (alltoallv_stepped.c): where balanced applies, every rank's row routed over its
 *               shortest paths (Frank-Wolfe rounds on allreduced link loads, cached per pattern), then
 *               carried in neighbour steps of at most C bytes a link, the pieces' descriptors on the data;
 *               run where forced or where the measured choice's trials found it fastest;
 *             - "balanced" (alltoallv_balanced.c): on a torus of at most 64 nodes, every block in 4
 *               pieces, each straight or through one relay by a plan every rank makes alike from
 *               every rank's row and column totals of the last call (read from the figures on the
 *               data, or gathered by a planned call's MPI_Allgather where balanced applies).
 * Choice:     predicted seconds, with M the largest row or column total in bytes and
 *             B the largest block: direct (n-1) t_s + M t_c; padded, the better of the
 *             uniform schedules' two shapes at blocks of B, ceil(log2 n) t_s +
 *             ceil(log2 n) (n/2) B t_c (combining) and (n-1) t_s + n B t_c (direct on
 *             slots): padded is taken when its combining shape beats direct by 10%.
 *             Routed, on a torus the user declared (Cartesian communicator or
 *             TOTEX_NETWORK), is taken first where its prediction (routed_predict:
 *             start-ups per dependent step, the busiest link's bytes over 2R links
 *             times a measured slack) is 5% below direct's on that torus and padded's;
 *             relay before it where relay's (3 start-ups, the larger of a column's share of R
 *             links and 1.25 x the average link's bytes) is 13% below direct's on the torus
 *             (fitted) and 5% below padded's and routed's; balanced before both where every rank's
 *             last totals show a column over twice the mean, those totals were the same on the
 *             call before (a repeating pattern: its plan, O(n^3 diameter^2) of CPU at most, 30-60 ms on 64
 *             nodes, is made once for it and cached; counts that change every call never pay it)
 *             and its prediction (3 start-ups and the
 *             larger of 1.3 x its plan's busiest link and 4 start-ups per piece of its longest
 *             chain to one relay) is 13% below direct's on the torus and relay's (fitted).
 *             A repeating pattern (the last call's figures those of the call before) is then
 *             measured: the predicted form, balanced where it was planned (else stepped where it applies), and
 *             direct timed once each, the fastest kept for it
 *             (alltoallv_tune.c; TOTEX_TUNE=0: the model alone).
 *             TOTEX_ALLTOALLV=direct|padded|routed|relay|balanced|stepped forces one (uniform counts take "uniform"
 *             unless forced; direct forced: "direct" with the figures on the data). TOTEX_CHECK=0:
 *             no figures, no count check, "direct" (unless padded is forced).
 * Optimality: none claimed; "uniform" is totex_alltoall's choice, "direct" is the
 *             MPI libraries' linear algorithm, "padded" wins where start-ups dominate,
 *             "routed" where the links' bytes do (see alltoallv_routed.c), "relay" where the
 *             demand is spread but uneven (random blocks: alltoallv_relay.c).
 *
 * What a rank knows: its own row (sendcounts) and column (recvcounts) of the
 * demand matrix, and the global figures (the last call's, or the Allreduce's): the
 * largest row total, column total and block, the smallest block, the sum of all bytes, whether every rank's counts
 * and displacements are those of MPI_Alltoall, and the count check below. No rank
 * gathers the n x n matrix; the relays of "padded" forward fixed slots and the
 * receiver unpacks its recvcounts' bytes from each. totex's memory per rank beyond
 * the caller's buffers: the packed row and column and 2 n x 44 bytes of figures for
 * "direct" with the figures on the data (and n x 44 bytes of every rank's last figures per
 * communicator) (O(n) requests for the planned "direct"); 2 n B bytes of slots for
 * "padded"; the row's packed bytes for "direct" in place; for "routed" and "relay" the
 * packed row and column and the receives' room (alltoallv_routed.c, alltoallv_relay.c).
 *
 * The count check: rank i's send to j must carry the bytes j expects from i. Each
 * rank adds h(i, j, bytes) over its row and subtracts it over its column (h a
 * 64-bit mix, sums modulo 2^64); the sum over all ranks (the Allreduce's, or
 * "direct"'s or "relay"'s fold of every rank's figures) is 0 when every pair agrees and, when
 * one differs, non-zero but for a 2^-64 chance. A mismatch is then MPI_ERR_COUNT
 * (or MPI_ERR_TRUNCATE on a receiver of a longer message; under MPICH too, whose
 * completions raise it on MPI_COMM_WORLD's handler: totex_mpi_waitall_done()) on every rank: with the
 * Allreduce before any data moves, with "direct" or "relay" before any byte is unpacked
 * from its staging (nothing is written to any receive buffer either way); in a
 * "uniform" call run at once, the ranks whose counts are uniform may have
 * received some blocks before the call fails (bytes of their receive blocks,
 * never outside them). Planning a call costs one pass over the rank's 2n counts.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"

/* tag of "direct" on the private duplicate (above the unit-step executor's tags, below 32767) */
#define TOTEX_MPI_V_TAG 32700

enum { V_DIRECT = 0, V_PADDED = 1, V_UNIFORM = 2, V_NONE = 3, V_ROUTED = 4, V_RELAY = 5, V_BALANCED = 6, V_STEPPED = 7 };
static const char *const v_names[] = {"direct", "padded", "uniform", "nothing to move", "routed", "relay", "balanced",
                                      "stepped"};

/* the figures every rank contributes to the call's Allreduce */
enum {
    F_BAD,      /* MAX: the largest local error code (0: none) */
    F_ROW,      /* MAX: row total, bytes */
    F_COL,      /* MAX: column total, bytes */
    F_BMAX,     /* MAX: largest block (send or receive), bytes */
    F_BMIN_NEG, /* MAX: UINT64_MAX - smallest block, bytes */
    F_SLOT,     /* MAX: largest MPI_Pack_size of a block, bytes */
    F_IRREG,    /* MAX: 1 when this rank's counts or displacements are not MPI_Alltoall's */
    F_INPLACE,  /* MAX: 1 when the call is in place (MPI_IN_PLACE: on every rank or none) */
    F_TOTAL,    /* SUM: bytes sent */
    F_HASH,     /* SUM (mod 2^64): the count check */
    F_N
};
_Static_assert(F_N == TOTEX_MPI_V_FIGURES, "internal.h's TOTEX_MPI_V_FIGURES is the number of figures");

/* bytes of the figures in front of every block carried with them ("direct", relay and balanced with the figures
   on the data): hdr_put()'s wire form, 44 bytes (an earlier form's 80 bytes cost 3.5% of a call at 1 KiB blocks
   on 64 ranks: docs/performance.md, "Session 24: alltoallv never slower than SMPI's best") */
#define V_HDR ((uint64_t)44)

/* a rank's figures @p f on the wire at @p dst (V_HDR bytes): u32 F_BAD, u32 flags (1 F_IRREG, 2 F_INPLACE),
   u64 F_HASH, u64 F_ROW, u64 F_COL, u32 F_BMAX, u32 the smallest block (0xffffffff: none, F_BMIN_NEG 0), u32
   F_SLOT; a rank's F_TOTAL is its F_ROW (both its bytes sent). A block, its packed size and an error code fit 32
   bits: a block is at most INT_MAX - V_HDR bytes (checked before the figures are made) */
static void hdr_put(char *dst, const uint64_t *f)
{
    const uint32_t w[2] = {(uint32_t)f[F_BAD], (uint32_t)((f[F_IRREG] ? 1u : 0u) | (f[F_INPLACE] ? 2u : 0u))};
    const uint64_t d[3] = {f[F_HASH], f[F_ROW], f[F_COL]};
    const uint32_t b[3] = {(uint32_t)f[F_BMAX], f[F_BMIN_NEG] ? (uint32_t)(UINT64_MAX - f[F_BMIN_NEG]) : UINT32_MAX,
                           (uint32_t)f[F_SLOT]};
    memcpy(dst, w, sizeof w);
    memcpy(dst + sizeof w, d, sizeof d);
    memcpy(dst + sizeof w + sizeof d, b, sizeof b);
}

/* the figures hdr_put() wrote at @p src into @p f (F_N words) */
static void hdr_get(uint64_t *f, const char *src)
{
    uint32_t w[2], b[3];
    uint64_t d[3];
    memcpy(w, src, sizeof w);
    memcpy(d, src + sizeof w, sizeof d);
    memcpy(b, src + sizeof w + sizeof d, sizeof b);
    f[F_BAD] = w[0], f[F_IRREG] = w[1] & 1u, f[F_INPLACE] = (w[1] >> 1) & 1u;
    f[F_HASH] = d[0], f[F_ROW] = d[1], f[F_COL] = d[2], f[F_TOTAL] = d[1];
    f[F_BMAX] = b[0], f[F_BMIN_NEG] = b[1] == UINT32_MAX ? 0 : UINT64_MAX - b[1], f[F_SLOT] = b[2];
}
_Static_assert(2 * 4 + 3 * 8 + 3 * 4 == 44, "V_HDR is hdr_put()'s size");

/* bytes of the brief figures: in "direct" with the figures on the data, a sender whose figures (hdr_put()'s 44
   bytes) are those it sent in the last call, when that call ran so and succeeded (st->v_hdrs_valid, the same on
   every rank), sends in their place one u32 with its top bit set (a full form begins with F_BAD, an MPI error
   code: a non-negative int) and 31 bits of a hash of the figures it stands for; every receiver keeps every
   sender's last figures (st->v_hdrs) and folds those. The fold, the count check and the totals are the same
   as with the figures sent whole (SimGrid 4x4x4, SMPI's default factors, random 1 KiB blocks: the 44 bytes cost
   2.1%, docs/performance.md, "Session 25: alltoallv against SMPI's best with SMPI's default factors on 64 ranks") */
#define V_BRIEF ((uint64_t)4)
#define V_BRIEF_BIT 0x80000000u

static uint64_t hash_words(const uint64_t *w, size_t n);

/* the brief form of the figures @p h (V_HDR bytes in hdr_put()'s form) */
static uint32_t hdr_brief(const unsigned char *h)
{
    uint64_t w[6] = {0};
    memcpy(w, h, V_HDR);
    return V_BRIEF_BIT | (uint32_t)(hash_words(w, 6) & 0x7fffffffu);
}

/* the bytes of the figures in front of the message at @p p (its first 4 bytes came): V_BRIEF or V_HDR */
static uint64_t hdr_len(const char *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w & V_BRIEF_BIT ? V_BRIEF : V_HDR;
}

/* this rank's figures @p a folded into @p b (the Allreduce's operation, and "direct"'s fold of the headers) */
static void fold(const uint64_t *a, uint64_t *b)
{
    for (int f = 0; f < F_N; f++) {
        if (f >= F_TOTAL)
            b[f] += a[f];
        else if (a[f] > b[f])
            b[f] = a[f];
    }
}

static void v_reduce(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (int k = 0; k + F_N <= *len; k += F_N)
        fold(a + k, b + k);
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* a hash of @p n words (never 0): names the totals of a call (tot_settle) and a call's pattern (v_key) */
static uint64_t hash_words(const uint64_t *w, size_t n)
{
    uint64_t h = 0x6a09e667f3bcc908ULL;
    for (size_t i = 0; i < n; i++)
        h = mix64(h ^ w[i]);
    return h | 1;
}

/* the count check's term of the pair (from, to) carrying @p bytes */
static uint64_t pair_hash(int from, int to, uint64_t bytes)
{
    return mix64(mix64(((uint64_t)(uint32_t)from << 32) | (uint32_t)to) ^ mix64(bytes + 0x51ed270b2fULL));
}

static int fail(int code, int rank, const char *msg)
{
    fprintf(stderr, "totex_alltoallv: rank %d: %s\n", rank, msg);
    return code;
}

/* buffers kept across calls (grow only): requests of "direct", slots of "padded" */
static struct {
    MPI_Request *req;
    size_t nreq;
    char *buf;
    size_t bytes;
    MPI_Op op;
    char *cbuf; /* "direct"'s staging: every message's figures and packed block, sent and received */
    size_t cbytes;
    size_t *off; /* [2 (n + 1)]: where each message starts in cbuf (sent, then received) */
    MPI_Status *stat;
    size_t noff, nstat;
    totex_network *net; /* the network of the last communicator "routed" was considered on, and its spec */
    char spec[512];
    uint64_t *gath; /* every rank's figures of a planned call where "balanced" applies */
} keep = {NULL, 0, NULL, 0, MPI_OP_NULL, NULL, 0, NULL, NULL, 0, 0, NULL, "", NULL};

/* every rank's row and column totals of the last call, read from the figures on its data ("direct" and
   "relay" with the figures carried, "balanced") or gathered by a planned call: what "balanced" plans its routes
   from (O(n), by rank, kept in the communicator's state: tot_bind()); fresh: the last call on the
   communicator ran one of those and succeeded (else "balanced" plans for equal totals) */
static struct {
    uint64_t *rows, *cols; /* the bound state's v_tot */
    uint64_t *node;        /* [2 n] scratch: the same by node (what the plan takes) */
    size_t n, nnode;
    int *fresh; /* the bound state's v_tot_fresh */
    uint64_t *hash; /* the bound state's v_tot_hash and v_tot_repeat */
    int *repeat;
    int got;
} tot;

/* tot bound to @p st's totals of its @p n ranks (allocated at its first call); 0, or -1 (no memory) */
static int tot_bind(totex_mpi_state *st, size_t n)
{
    if (!st->v_tot) {
        if (!(st->v_tot = calloc(2 * n, sizeof *st->v_tot)))
            return -1;
        st->v_tot_fresh = 0;
    }
    if (tot.nnode < n) {
        uint64_t *r = realloc(tot.node, 2 * n * sizeof *r);
        if (!r)
            return -1;
        tot.node = r, tot.nnode = n;
    }
    tot.rows = st->v_tot, tot.cols = st->v_tot + n, tot.n = n, tot.fresh = &st->v_tot_fresh;
    tot.hash = &st->v_tot_hash, tot.repeat = &st->v_tot_repeat;
    return 0;
}

/* *tot.fresh set from @p ok; when fresh, whether the totals are those of the last time they were fresh
   (*tot.repeat: a repeating pattern, which "balanced" plans for; a hash of the 2 n totals, never 0) */
static void tot_settle(int ok)
{
    *tot.fresh = ok;
    if (!ok)
        return;
    const uint64_t h = hash_words(tot.rows, 2 * tot.n); /* (rows then cols: one array) */
    *tot.repeat = h == *tot.hash;
    *tot.hash = h;
}

/* the bound totals have room for @p n ranks; 0, or -1 */
static int tot_grow(size_t n) { return tot.rows && tot.n >= n ? 0 : -1; }

/* the network @p st's communicator (@p size ranks) stands for if "routed" applies to it (a torus: every factor a
   ring or K2), else NULL; parsed once per spec (spec.c, named.c) */
static const totex_network *routed_network(const totex_mpi_state *st, int size)
{
    char spec[512];
    if (totex_mpi_comm_spec(st, st->dup, size, spec, sizeof spec) != MPI_SUCCESS || !spec[0])
        return NULL;
    if (strcmp(spec, keep.spec)) {
        totex_network_free(keep.net);
        totex_error err;
        keep.net = totex_network_parse(spec, &err);
        if (keep.net && (totex_network_nodes(keep.net) != (uint32_t)size || !totex_mpi_v_routed_applies(keep.net))) {
            totex_network_free(keep.net);
            keep.net = NULL;
        }
        snprintf(keep.spec, sizeof keep.spec, "%s", spec);
    }
    return keep.net;
}

int totex_mpi_grow(void *a, size_t *have, size_t n, size_t elem)
{
    void **p = a;
    if (*have >= n)
        return 0;
    void *r = realloc(*p, n * elem);
    if (!r)
        return -1;
    *p = r;
    *have = n;
    return 0;
}

int totex_mpi_wait_fold(size_t nr, MPI_Request *req, MPI_Status *stat, size_t nrecv, const unsigned char *rhdr,
                        const uint32_t *rnode, const uint64_t *rexp, uint64_t h, int h_within_expected,
                        unsigned char *hdr_ok, int *local)
{
    const int wrc = totex_mpi_waitall_done((int)nr, req, stat);
    if (wrc != MPI_SUCCESS && wrc != MPI_ERR_IN_STATUS)
        return wrc;
    /* the receives as a destination: a truncated one (a longer send), a short one, or MPI's error: this node's
       error (*local); the figures of a block are read where its receive carrying them came whole or short by
       no more than the data */
    for (size_t k = 0; k < nrecv; k++) {
        int err = wrc == MPI_ERR_IN_STATUS ? stat[k].MPI_ERROR : MPI_SUCCESS, cls = MPI_SUCCESS, got = -1;
        if (err != MPI_SUCCESS && MPI_Error_class(err, &cls) != MPI_SUCCESS)
            cls = MPI_ERR_OTHER;
        if (cls == MPI_SUCCESS)
            MPI_Get_count(&stat[k], MPI_BYTE, &got);
        if (rhdr[k])
            hdr_ok[rnode[k]] = cls == MPI_SUCCESS && got >= (int)(h_within_expected && rexp[k] < h ? rexp[k] : h);
        if (*local == MPI_SUCCESS && cls != MPI_SUCCESS)
            *local = cls == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : err;
        else if (*local == MPI_SUCCESS && (uint64_t)got != rexp[k])
            *local = MPI_ERR_COUNT;
    }
    for (size_t k = nrecv; wrc == MPI_ERR_IN_STATUS && k < nr; k++) /* (the sends) */
        if (stat[k].MPI_ERROR != MPI_SUCCESS)
            return stat[k].MPI_ERROR;
    return MPI_SUCCESS;
}

void totex_mpi_cancel_requests(MPI_Request *req, size_t n)
{
    for (size_t q = 0; q < n; q++)
        if (req[q] != MPI_REQUEST_NULL) {
            MPI_Cancel(&req[q]);
            MPI_Request_free(&req[q]);
        }
}

int totex_mpi_more_requests(MPI_Request **req, size_t nr, size_t *cap)
{
    return nr < *cap ? 0 : totex_mpi_grow(req, cap, *cap ? 2 * *cap : 16, sizeof **req);
}

int totex_mpi_waitall_done(int n, MPI_Request *req, MPI_Status *stat)
{
#ifdef MPICH_VERSION
    /* MPICH (4.0) raises the error of a request's completion (MPI_Wait, MPI_Waitall, MPI_Test: a truncated
       receive) on MPI_COMM_WORLD's error handler, not on the request's communicator (the private duplicate,
       MPI_ERRORS_RETURN): under the default MPI_ERRORS_ARE_FATAL the job aborted where the receiver of a longer
       message should have MPI_ERR_TRUNCATE (docs/mpi.md, "The count check"). For these waits MPI_COMM_WORLD's
       handler is MPI_ERRORS_RETURN, the caller's put back after (not for calls from several threads at once,
       as every totex call; not where MPI_COMM_WORLD does not exist: MPI_Init never called, as with sessions
       only); Open MPI raises it on the request's communicator */
    MPI_Errhandler world = MPI_ERRHANDLER_NULL;
    int init = 0;
    const int swapped = MPI_Initialized(&init) == MPI_SUCCESS && init &&
                        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
                        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS;
#endif
    const int rc = MPI_Waitall(n, req, stat);
    if (rc == MPI_ERR_IN_STATUS)
        for (int k = 0; k < n; k++)
            if (stat[k].MPI_ERROR == MPI_ERR_PENDING)
                stat[k].MPI_ERROR = MPI_Wait(&req[k], &stat[k]);
#ifdef MPICH_VERSION
    if (swapped)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, world);
    if (world != MPI_ERRHANDLER_NULL)
        MPI_Errhandler_free(&world);
#endif
    return rc;
}

static int grow_requests(size_t n) { return totex_mpi_grow(&keep.req, &keep.nreq, n, sizeof *keep.req); }

/* the first @p nr requests of keep.req after a failed post: cancelled and freed */
static void cancel_posted(size_t nr) { totex_mpi_cancel_requests(keep.req, nr); }

static char *grow_buffer(size_t bytes)
{
    if (keep.bytes >= bytes)
        return keep.buf;
    free(keep.buf);
    keep.bytes = 0;
    if (!(keep.buf = calloc(bytes ? bytes : 1, 1)))
        return NULL;
    keep.bytes = bytes;
    return keep.buf;
}

/* TOTEX_ALLTOALLV (read once per process): V_DIRECT, V_PADDED, V_ROUTED, V_RELAY, V_BALANCED, or -1 (auto) */
static int forced_choice(void)
{
    static int forced = -2;
    if (forced == -2) {
        static const char *const words[] = {"auto", "direct", "padded", "routed", "relay", "balanced", "stepped"};
        const int w = totex_mpi_env_word("TOTEX_ALLTOALLV", words, 7);
        forced = w == 1   ? V_DIRECT
                 : w == 2 ? V_PADDED
                 : w == 3 ? V_ROUTED
                 : w == 4 ? V_RELAY
                 : w == 5 ? V_BALANCED
                 : w == 6 ? V_STEPPED
                          : -1;
    }
    return forced;
}

/* the form TOTEX_ALLTOALLV forces on @p net (NULL: no torus known): forced_choice(), or V_DIRECT where the forced
   form does not apply there (routed off a torus, relay or balanced outside theirs), *n_a then 1 (may be NULL) */
static int forced_on(const totex_network *net, int *n_a)
{
    const int f = forced_choice();
    const int out = (f == V_ROUTED && !net) || (f == V_RELAY && !(net && totex_mpi_v_relay_applies(net))) ||
                    (f == V_BALANCED && !(net && totex_mpi_v_balanced_applies(net))) ||
                    (f == V_STEPPED && !(net && totex_mpi_v_stepped_applies(net)));
    if (n_a)
        *n_a = out;
    return out ? V_DIRECT : f;
}

/* Predicted seconds of "routed" (alltoallv_routed.c) and of "direct" on a torus @p net the user declared
   (*direct), from the call's global figures @p f. A node has 2 R links (R rings). Routed: 2 start-ups per
   dependent step and the bytes of the busiest link, estimated as the larger of a row's or a column's share of
   a node's 2 R links and the average link's bytes (all bytes times the mean distance over the 2 R n links),
   times a slack of 1 + 0.15 P, P the steps of the longest ring (floor(m / 2)): the pipeline's fill and drain
   and the sharing of links by its streams, fitted on SimGrid's 4x4 (1.3) and 8x8 (1.6) tori at 16 and 64 KiB,
   docs/performance.md. Direct on the torus (dimension-ordered routes): a row or column
   comes in on about R of the links (the last dimension's), and a half-way message of an even ring goes one
   way: the average link's bytes times 1.5 when a ring is even */
static double routed_predict(const uint64_t *f, int n, const totex_mpi_state *st, const totex_network *net,
                             double *direct, double *relay, double *room)
{
    double dep = 0, R = 0, P = 0;
    int even = 0;
    *room = totex_mpi_v_routed_room(net, f[F_BMAX], f[F_ROW]); /* the receives' room, bytes */
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const uint32_t m = totex_factor_nodes(totex_network_factor(net, i));
        dep += m / 2;
        if (m / 2 > P)
            P = m / 2;
        R += 1;
        even |= m % 2 == 0 && m > 2;
    }
    const double rc = (double)(f[F_ROW] > f[F_COL] ? f[F_ROW] : f[F_COL]);
    const double avg = (double)f[F_TOTAL] * totex_network_average_distance(net) / (2 * R * n);
    const double dl = rc / R > avg * (even ? 1.5 : 1) ? rc / R : avg * (even ? 1.5 : 1);
    *direct = 2 * st->t_s + dl * st->t_c;
    /* relay (alltoallv_relay.c, where it applies): direct's routes with the half-way blocks split both ways, 2
       legs: a row or column still comes in on about R links, and the busiest link carries about 1.25 x the
       average's bytes where blocks differ (SimGrid 4x4, random demand, 64 KiB: 80 us on the busiest link of 51
       on the average, docs/performance.md) */
    const double al = rc / R > 1.25 * avg ? rc / R : 1.25 * avg;
    *relay = totex_mpi_v_relay_applies(net) ? 3 * st->t_s + al * st->t_c : -1;
    return 2 * dep * st->t_s + (1 + 0.15 * P) * (rc / (2 * R) > avg ? rc / (2 * R) : avg) * st->t_c;
}

/* the last balanced_predict() found a hot receiver but did not plan: totals new since the last call */
static int bal_unplanned;

/* Predicted seconds of "balanced" (alltoallv_balanced.c) on @p net from every rank's totals of the last call
   (tot, by rank; -1 without them, without a column over twice the mean, where it does not apply, or where those
   totals differ from the call's before, unless their plan is cached: bal_unplanned): 3 start-ups
   and the larger of the bytes of the estimate W^ on the busiest link of its plan (the plan made and cached now:
   the next call takes it) times a slack of 1.3 and 4 start-ups per piece of its longest chain of pieces sent one
   after another to one relay (each waits for the last to arrive: fitted, not derived: SimGrid's 4x4, flat
   factors: at 64 KiB 129.44 us on hot spots against a busiest link of 111.85 us and 146.78 on Zipf's demand
   against 116.31; at 16 KiB 106.23 us on hot spots with chains of 17 pieces, predicted 39.4 us with 1 start-up
   per piece; docs/performance.md, "Routes planned on an estimate of the demand") */
static double balanced_predict(const totex_mpi_state *st, int n, const totex_network *net)
{
    bal_unplanned = 0;
    if (!tot.fresh || !*tot.fresh || tot.n < (size_t)n || !totex_mpi_v_balanced_applies(net))
        return -1;
    /* (only with a hot receiver, a column over twice the mean: the plan costs up to O(n^3 diameter^2) per change of the
       totals, not worth it where the estimate is nearly uniform and relay's routes are as good) */
    double sum = 0, top = 0;
    for (int j = 0; j < n; j++) {
        sum += (double)tot.cols[j];
        if ((double)tot.cols[j] > top)
            top = (double)tot.cols[j];
    }
    if (!(top > 2 * sum / n))
        return -1;
    for (int t = 0; t < n; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t;
        tot.node[t] = tot.rows[j], tot.node[n + t] = tot.cols[j];
    }
    /* (the plan costs up to O(n^3 diameter^2) of CPU on every rank, 34-62 ms on 64 nodes, more than a call of 64 KiB blocks
       takes there: made only for totals seen twice in a row, a repeating pattern whose later calls take the plan
       from the cache; counts that change from call to call never pay it) */
    if (!*tot.repeat && !totex_mpi_v_balanced_cached(net, tot.node, tot.node + n)) {
        bal_unplanned = 1;
        return -1;
    }
    uint32_t chain = 0;
    const double busiest = totex_mpi_v_balanced_predict(net, tot.node, tot.node + n, NULL, &chain);
    const double links = 1.3 * busiest * st->t_c, chained = 4.0 * chain * st->t_s;
    return busiest < 0 ? -1 : 3 * st->t_s + (links > chained ? links : chained);
}

/* the choice of a call from its global figures @p f on @p n ranks (costs of @p st); *pred the
   predicted seconds of direct [0] and padded [1] */
static int choose(const uint64_t *f, int n, const totex_mpi_state *st, int in_place, const totex_network *net,
                  int declared, double pred[6])
{
    const int forced = forced_on(net, NULL);
    const uint64_t bmin = UINT64_MAX - f[F_BMIN_NEG];
    const double ts = st->t_s, tc = st->t_c, m = (double)(f[F_ROW] > f[F_COL] ? f[F_ROW] : f[F_COL]);
    const double b = (double)f[F_SLOT];
    int lg = 0;
    while ((1 << lg) < n)
        lg++;
    pred[0] = (n - 1) * ts + m * tc;
    const double comb = lg * ts + lg * (n / 2.0) * b * tc, flat = (n - 1) * ts + n * b * tc;
    pred[1] = comb < flat ? comb : flat;
    pred[2] = pred[3] = pred[4] = pred[5] = -1;
    double room = 0;
    if (net) {
        pred[2] = routed_predict(f, n, st, net, &pred[3], &pred[4], &room);
        pred[5] = balanced_predict(st, n, net);
    }
    (void)in_place;
    if (forced >= 0)
        return forced;
    if (f[F_TOTAL] == 0)
        return V_NONE;
    if (f[F_BMAX] == bmin && !f[F_IRREG])
        return V_UNIFORM;
    /* routed: on a torus the user declared (a Cartesian communicator's or TOTEX_NETWORK's; on MPI_Dims_create's
       guess the ranks' links are unknown), where its prediction beats direct there and padded's by 5%, its
       receives' room at most 256 MiB per rank */
    /* relay: likewise, where its prediction is 13% below direct's on the torus and 5% below routed's; its
       receives' room (7 blocks per rank on 4x4) is less than routed's. The 13% is fitted, not derived: on
       SimGrid's 4x4 with random demand, 16 KiB, relay predicted 0.88-0.89 x direct on the torus ran 0.96 x
       direct with flat factors and 1.03 x with SMPI's default ones (over SMPI's best by 3%); at 64 KiB, 0.83 to
       0.85 x predicted on 4x4, 8x8 and 4x4x4, it ran 0.72 to 0.85 x (docs/performance.md, "Relay without the
       MPI_Allreduce, and routes for hot receivers") */
    /* balanced: where its prediction (from every rank's totals of the last call, carried on its data) is 13%
       below direct's on the torus and relay's, and 5% below padded's: it plans each piece's way round the
       links of hot receivers, which relay and routed do not (docs/performance.md, "Routes planned on an estimate of
       the demand") */
    if (net && declared && pred[5] >= 0 && pred[5] < 0.87 * pred[3] && (pred[4] < 0 || pred[5] < 0.87 * pred[4]) &&
        pred[5] < 0.95 * comb)
        return V_BALANCED;
    if (net && declared && pred[4] >= 0 && pred[4] < 0.87 * pred[3] && pred[4] < 0.95 * comb &&
        pred[4] < 0.95 * pred[2] && room <= 268435456.0)
        return V_RELAY;
    if (net && declared && pred[2] < 0.95 * pred[3] && pred[2] < 0.95 * comb && room <= 268435456.0)
        return V_ROUTED;
    /* padded slots for every pair: at most 256 MiB of slots per rank */
    if ((double)n * b > 268435456.0)
        return V_DIRECT;
    return comb < 0.9 * pred[0] ? V_PADDED : V_DIRECT;
}

/* how a call runs, known on every rank before any data moves, from the last call's global figures (the same
   on every rank): M_DIRECT "direct" with the figures on the data (no collective operation: the first call,
   after a failed one, and whenever the last call's figures choose direct or nothing to move, or padded or
   routed by less than the MPI_Allreduce's cost, or uniform where the cached uniform plan is predicted slow);
   M_UNIFORM totex_alltoall's schedule at once, its cross-rank check on the data (the last call was uniform,
   not in place): a rank whose counts are not uniform fails it on every rank (totex_mpi_options.v_switch) and
   the call runs as M_PLANNED; M_PLANNED one MPI_Allreduce of the figures, then choose() (padded or routed
   were the last call's choice, in place uniform, or forced by TOTEX_ALLTOALLV) */
enum { M_DIRECT, M_UNIFORM, M_PLANNED, M_RELAY, M_BALANCED, M_STEPPED };

static int mode_of(const totex_mpi_state *st, int n, const totex_network *net, int declared, int *how_out,
                   int *bal_out)
{
    const int forced = forced_on(net, NULL); /* (a forced form that does not apply: direct) */
    if (forced == V_RELAY)
        return M_RELAY;
    if (forced == V_BALANCED)
        return M_BALANCED;
    if (forced == V_STEPPED)
        return M_STEPPED;
    if (forced >= 0)
        return forced == V_DIRECT ? M_DIRECT : M_PLANNED;
    if (!st->v_known)
        return M_DIRECT;
    uint64_t g[F_N];
    for (int k = 0; k < F_N; k++)
        g[k] = st->v_prev[k];
    double pred[6];
    const int how = choose(g, n, st, 0, net, declared, pred);
    if (how_out) /* (what the measured choice needs: alltoallv_tune.c) */
        *how_out = how, *bal_out = declared && pred[5] >= 0;
    const double m = (double)(g[F_ROW] > g[F_COL] ? g[F_ROW] : g[F_COL]), direct_lo = 2 * st->t_s + m * st->t_c;
    if (how == V_UNIFORM) {
        if (g[F_INPLACE] || st->nb_calls) /* (a failed call retires the duplicate: not while nonblocking calls use it) */
            return M_PLANNED;
        /* the uniform schedule cached for these blocks (the same plans on every rank): chosen by timed trials
           (TOTEX_TUNE, its candidates including totex's direct), it runs; chosen by the model alone, where the
           model predicts it 50% slower than direct with its start-ups overlapped (below), direct runs instead
           (SimGrid 4x4x4, flat factors, TOTEX_TUNE=0, 1 KiB: octr predicted 35.5 us, took 41.5; direct 13.3) */
        const totex_mpi_plan *p = st->plans;
        while (p && p->sig != (long long)g[F_BMAX])
            p = p->next;
        return p && p->measured < 0 && p->predicted > 1.5 * direct_lo ? M_DIRECT : M_UNIFORM;
    }
    /* padded or routed where they beat direct by choose()'s margin with the MPI_Allreduce's cost added to
       theirs: 2 ceil(log2 n) start-ups (recursive doubling, a message each way per round; 8 us of simulated
       time on SimGrid's 4x4 torus with flat factors, t_s there about 1 us: docs/performance.md). Direct's
       start-ups overlap when every message is posted at once: (n - 1) t_s overstates it (SimGrid, flat
       factors, 1 KiB blocks: 8.1 us on 4x4 against 16.7 predicted, 18.5 on 8x8 against 71.5, where padded
       took 5 x direct); padded is weighed against direct's start-ups overlapped, 2 t_s + M t_c, as routed
       against direct's on the torus (routed_predict) */
    int lg = 0;
    while ((1 << lg) < n)
        lg++;
    const double agree = 2.0 * lg * st->t_s;
    if (how == V_ROUTED && pred[2] + agree < 0.95 * pred[3])
        return M_PLANNED;
    if (how == V_RELAY) /* (its figures and count check carried on its data: no MPI_Allreduce to pay) */
        return M_RELAY;
    if (how == V_BALANCED) /* (likewise) */
        return M_BALANCED;
    if (how == V_STEPPED) /* (likewise) */
        return M_STEPPED;
    if (how == V_PADDED && pred[1] + agree < 0.9 * direct_lo)
        return M_PLANNED;
    return M_DIRECT;
}

/* one prediction of the TOTEX_VERBOSE line into @p buf: "NAME 12.3 us", or "NAME n/a" where the form does
   not apply here (its prediction is negative) */
static const char *say_pred(char *buf, size_t len, const char *name, double seconds)
{
    if (seconds < 0)
        snprintf(buf, len, "%s n/a", name);
    else
        snprintf(buf, len, "%s %.1f us", name, seconds * 1e6);
    return buf;
}

/* the TOTEX_VERBOSE line of a call on the network @p net (NULL: none known) that ran @p how with global figures
   @p g (@p how: "how" chosen, @p note what decided it; where a form TOTEX_ALLTOALLV forces does not apply on
   @p net, the line says so) */
static void say_choice(const totex_mpi_options *opt, totex_mpi_state *st, const totex_network *net, int size, int rank,
                       int how, const uint64_t *g, const double *pred, const char *note)
{
    char b[6][48];
    int forced_na = 0;
    (void)forced_on(net, &forced_na);
    if (opt->verbose && rank == 0 && (opt->verbose > 1 || st->v_said != how + 1))
        fprintf(stderr,
                "totex: %s on %d ranks: %s (%s%s; largest block %llu B, smallest %llu B, largest row or column %llu B, "
                "%llu B in all; predicted %s, %s, %s, %s, %s, %s)\n",
                opt->entry ? opt->entry : "totex_alltoallv", size, v_names[how], note,
                forced_na ? "; the form TOTEX_ALLTOALLV forces does not apply to this communicator's network" : "",
                (unsigned long long)g[F_BMAX],
                (unsigned long long)(UINT64_MAX - g[F_BMIN_NEG]),
                (unsigned long long)(g[F_ROW] > g[F_COL] ? g[F_ROW] : g[F_COL]), (unsigned long long)g[F_TOTAL],
                say_pred(b[0], sizeof b[0], "direct", pred[0]), say_pred(b[1], sizeof b[1], "padded", pred[1]),
                say_pred(b[2], sizeof b[2], "routed", pred[2]),
                say_pred(b[3], sizeof b[3], "direct on the torus", pred[3]),
                say_pred(b[4], sizeof b[4], "relay", pred[4]),
                pred[5] < 0 && bal_unplanned ? "balanced not planned (totals new: planned when they repeat)"
                                             : say_pred(b[5], sizeof b[5], "balanced", pred[5]));
    st->v_said = how + 1;
}

/* "direct": every message posted at once on st->dup, the caller's datatypes given to MPI; in place,
   the row is packed first (MPI_PACKED messages, received with recvtype) */
static int run_direct(const char *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype, char *rbuf,
                      const int *rcounts, const int *rdispls, MPI_Datatype rtype, int in_place, int n, int rank,
                      MPI_Comm comm, MPI_Comm dup)
{
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(stype, &lb, &sext);
    MPI_Type_get_extent(rtype, &lb, &rext);
    if (grow_requests(2 * (size_t)n))
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    size_t nr = 0;
    char *packed = NULL;
    int *poff = NULL;
    if (in_place) { /* this rank's row copied out of the receive buffer first */
        if (!(poff = malloc(((size_t)n + 1) * sizeof *poff)))
            return MPI_ERR_NO_MEM;
        long long total = 0;
        for (int j = 0; j < n; j++) {
            int ps = 0;
            if (j != rank && scounts[j] && (rc = MPI_Pack_size(scounts[j], stype, comm, &ps)) != MPI_SUCCESS) {
                free(poff);
                return rc;
            }
            total += ps;
        }
        if (total > INT_MAX || !(packed = malloc(total ? (size_t)total : 1))) {
            free(poff);
            return total > INT_MAX ? MPI_ERR_COUNT : MPI_ERR_NO_MEM;
        }
        int pos = 0;
        for (int j = 0; j < n && rc == MPI_SUCCESS; j++) {
            poff[j] = pos;
            if (j != rank && scounts[j])
                rc = MPI_Pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, packed, (int)total, &pos, comm);
        }
        poff[n] = pos;
    }
    for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
        const int i = (rank - k + n) % n;
        if (rcounts[i] && !(in_place && i == rank))
            rc = MPI_Irecv(rbuf + (MPI_Aint)rdispls[i] * rext, rcounts[i], rtype, i, TOTEX_MPI_V_TAG, dup,
                           &keep.req[nr++]);
    }
    for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
        const int j = (rank + k) % n;
        if (!scounts[j] || (in_place && j == rank))
            continue;
        if (in_place)
            rc = MPI_Isend(packed + poff[j], poff[j + 1] - poff[j], MPI_PACKED, j, TOTEX_MPI_V_TAG, dup,
                           &keep.req[nr++]);
        else
            rc = MPI_Isend(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, j, TOTEX_MPI_V_TAG, dup,
                           &keep.req[nr++]);
    }
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitall((int)nr, keep.req, MPI_STATUSES_IGNORE);
    } else {
        cancel_posted(nr); /* (a failed post: the rest are cancelled, MPI's error returned) */
    }
    free(packed);
    free(poff);
    return rc;
}

/* "padded": blocks packed into slots of @p slot bytes, totex_alltoall's uniform schedule on the slots, each
   block unpacked with its real length */
static int run_padded(const char *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype, char *rbuf,
                      const int *rcounts, const int *rdispls, MPI_Datatype rtype, int n, long long slot,
                      MPI_Comm comm, const totex_mpi_options *opt)
{
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(stype, &lb, &sext);
    MPI_Type_get_extent(rtype, &lb, &rext);
    const size_t half = (size_t)n * (size_t)slot;
    char *sl = grow_buffer(2 * half);
    if (!sl)
        return MPI_ERR_NO_MEM;
    char *rl = sl + half;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < n && rc == MPI_SUCCESS; j++) {
        int pos = 0;
        if (scounts[j])
            rc = MPI_Pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, sl + (size_t)j * (size_t)slot,
                          (int)slot, &pos, comm);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = totex_mpi_alltoall(sl, (int)slot, MPI_BYTE, rl, (int)slot, MPI_BYTE, comm, opt)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int pos = 0;
        if (rcounts[i])
            rc = MPI_Unpack(rl + (size_t)i * (size_t)slot, (int)slot, &pos, rbuf + (MPI_Aint)rdispls[i] * rext,
                            rcounts[i], rtype, comm);
    }
    return rc;
}

/* "routed": this rank's row packed by destination node, the blocks relayed along the torus with their real
   lengths (alltoallv_routed.c), each received block unpacked from its packed bytes. Memory beyond the caller's
   buffers: the packed row and column, the relayed bytes (alltoallv_routed.c), 2 (n + 1) offsets */
static int run_routed(const totex_network *net, const char *sbuf, const int *scounts, const int *sdispls,
                      MPI_Datatype stype, char *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype,
                      int n, int rank, uint64_t bmax, uint64_t maxrow, MPI_Comm comm, const totex_mpi_state *st)
{
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(stype, &lb, &sext);
    MPI_Type_get_extent(rtype, &lb, &rext);
    int ssize = 0, rsize = 0;
    MPI_Type_size(stype, &ssize);
    MPI_Type_size(rtype, &rsize);
    uint64_t *soff = malloc(2 * ((size_t)n + 1) * sizeof *soff), *roff = soff ? soff + n + 1 : NULL;
    if (!soff)
        return MPI_ERR_NO_MEM;
    soff[0] = roff[0] = 0;
    for (int t = 0; t < n; t++) { /* (node t is rank rank_of[t] of comm) */
        const int j = st->rank_of ? st->rank_of[t] : t;
        soff[t + 1] = soff[t] + (uint64_t)scounts[j] * (uint64_t)ssize;
        roff[t + 1] = roff[t] + (uint64_t)rcounts[j] * (uint64_t)rsize;
    }
    char *ps = malloc(soff[n] ? soff[n] : 1), *pr = malloc(roff[n] ? roff[n] : 1);
    int rc = ps && pr ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int t = 0; t < n && rc == MPI_SUCCESS; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t, len = (int)(soff[t + 1] - soff[t]);
        int pos = 0;
        if (len && (rc = MPI_Pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, ps + soff[t], len, &pos,
                                  comm)) == MPI_SUCCESS && pos != len)
            rc = MPI_ERR_TYPE; /* (a packed form longer than the type's size: not a homogeneous run) */
    }
    if (rc == MPI_SUCCESS)
        rc = totex_mpi_v_routed(net, ps, soff, pr, roff, bmax, maxrow, st->dup, st->node_of ? st->node_of[rank] : rank);
    for (int t = 0; t < n && rc == MPI_SUCCESS; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t, len = (int)(roff[t + 1] - roff[t]);
        int pos = 0;
        if (len)
            rc = MPI_Unpack(pr + roff[t], len, &pos, rbuf + (MPI_Aint)rdispls[j] * rext, rcounts[j], rtype, comm);
    }
    free(ps);
    free(pr);
    free(soff);
    return rc;
}

static uint64_t v_key(const totex_mpi_state *st);

/* stepped's routing of this rank's row (@p counts of @p size bytes an element, NULL: none, behind V_HDR bytes of
   figures) for @p key (the call's pattern: v_key() of the last call's figures, else 0: no cache), made now where
   not cached (every rank alike: the measured choice's decision, the same everywhere) */
static int stepped_route(const totex_network *net, const int *counts, int size, int n, int rank,
                         const totex_mpi_state *st, uint64_t key)
{
    uint64_t *soff = malloc(((size_t)n + 1) * sizeof *soff);
    if (!soff)
        return MPI_ERR_NO_MEM;
    soff[0] = 0;
    for (int t = 0; t < n; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t;
        soff[t + 1] = soff[t] + V_HDR + (counts ? (uint64_t)counts[j] * (uint64_t)size : 0);
    }
    const int rc = totex_mpi_v_stepped_route(net, key, soff, st->dup, st->node_of ? st->node_of[rank] : rank);
    free(soff);
    return rc;
}

/* "relay" with the figures carried (no collective operation): this rank's row packed by destination node,
   each block behind this rank's figures @p f (V_HDR bytes; no data when @p bad, this rank's local error, or
   when a block's MPI_Pack fails), relayed by alltoallv_relay.c, whose relays learn every length from the
   messages (their rooms sized by @p bmax and @p maxrow, the last call's global figures, the same on every
   rank; a longer message comes in parts). Every rank receives one block from every rank, so each folds all
   ranks' figures into @p f (on return the call's global figures, the same on every rank) and knows the count
   check's sum: only when it is 0, no rank has a local error and every receive came with the bytes expected are
   the blocks unpacked into the receive buffer (before, nothing is written there). A send longer than its
   receive: MPI's truncation on that receiver (of the straight message or of a chunk from the relay), and the
   sum != 0 everywhere else; shorter: a short count there. Every pair moves the same messages whatever the
   counts (one straight message, or one chunk per relayed chunk), so a mismatch is an error on every rank
   (MPI_ERR_TRUNCATE or MPI_ERR_COUNT), no hang. Memory: the packed row and column with V_HDR bytes per block,
   the relays' rooms (alltoallv_relay.c), 2 (n + 1) offsets */
static int run_relay_carried(const totex_network *net, const char *sbuf, const int *scounts, const int *sdispls,
                             MPI_Datatype stype, int ssize, char *rbuf, const int *rcounts, const int *rdispls,
                             MPI_Datatype rtype, int rsize, int n, int rank, int bad, uint64_t *f, uint64_t bmax,
                             uint64_t maxrow, MPI_Comm comm, const totex_mpi_state *st, int form, uint64_t key)
{
    MPI_Aint lb, sext = 0, rext = 0;
    if (!bad) {
        MPI_Type_get_extent(stype, &lb, &sext);
        MPI_Type_get_extent(rtype, &lb, &rext);
    }
    uint64_t *soff = malloc(2 * ((size_t)n + 1) * sizeof *soff), *roff = soff ? soff + n + 1 : NULL;
    unsigned char *hdr_ok = malloc((size_t)n);
    if (!soff || !hdr_ok) {
        free(soff);
        free(hdr_ok);
        return MPI_ERR_NO_MEM;
    }
    soff[0] = roff[0] = 0;
    for (int t = 0; t < n; t++) { /* (node t is rank rank_of[t] of comm) */
        const int j = st->rank_of ? st->rank_of[t] : t;
        soff[t + 1] = soff[t] + V_HDR + (bad ? 0 : (uint64_t)scounts[j] * (uint64_t)ssize);
        roff[t + 1] = roff[t] + V_HDR + (bad ? 0 : (uint64_t)rcounts[j] * (uint64_t)rsize);
    }
    char *ps = malloc(soff[n]), *pr = malloc(roff[n]);
    int rc = ps && pr ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int t = 0; t < n && rc == MPI_SUCCESS && !bad; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t, len = (int)(soff[t + 1] - soff[t] - V_HDR);
        int pos = 0;
        if (len && (MPI_Pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, ps + soff[t] + V_HDR, len, &pos,
                             comm) != MPI_SUCCESS ||
                    pos != len)) {
            fprintf(stderr, "totex_alltoallv: rank %d: MPI_Pack of a block failed or gave other than "
                            "count * size(sendtype) bytes\n", rank);
            bad = MPI_ERR_TYPE; /* (then no block of its row carries data: its receivers see short ones) */
            f[F_BAD] = (uint64_t)bad;
            for (int k = 0; k < n; k++)
                soff[k + 1] = soff[k] + V_HDR;
        }
    }
    for (int t = 0; t < n && rc == MPI_SUCCESS; t++)
        hdr_put(ps + soff[t], f);
    int local = MPI_SUCCESS;
    const int me = st->node_of ? st->node_of[rank] : rank;
    /* "balanced": its plan from the last call's totals of every node (none: equal totals) */
    const int have = *tot.fresh && tot.n >= (size_t)n;
    for (int t = 0; have && t < n; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t;
        tot.node[t] = tot.rows[j], tot.node[n + t] = tot.cols[j];
    }
    *tot.fresh = 0;
    if (rc == MPI_SUCCESS)
        rc = form == V_BALANCED ? totex_mpi_v_balanced(net, have ? tot.node : NULL, have ? tot.node + n : NULL, ps,
                                                       soff, pr, roff, V_HDR, hdr_ok, &local, st->dup, me)
             : form == V_STEPPED ? totex_mpi_v_stepped(net, key, ps, soff, pr, roff, V_HDR, hdr_ok, &local, st->dup, me)
                                 : totex_mpi_v_relay(net, ps, soff, pr, roff, V_HDR, bmax, maxrow, hdr_ok, &local, st->dup, me);
    if (rc == MPI_SUCCESS && tot_grow((size_t)n))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        uint64_t g[F_N], h[F_N];
        memcpy(g, f, sizeof g);
        tot.got = 1;
        for (int t = 0; t < n; t++) {
            const int j = st->rank_of ? st->rank_of[t] : t;
            if (t == me) {
                tot.rows[j] = f[F_ROW], tot.cols[j] = f[F_COL];
                continue;
            }
            tot.got &= hdr_ok[t];
            if (hdr_ok[t]) {
                hdr_get(h, pr + roff[t]);
                fold(h, g);
                tot.rows[j] = h[F_ROW], tot.cols[j] = h[F_COL];
            }
        }
        memcpy(f, g, sizeof g);
        if (bad)
            rc = bad;
        else if (g[F_BAD])
            rc = (int)g[F_BAD];
        else if (local || g[F_HASH]) {
            if (rank == 0 || local)
                fail(local == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT, rank,
                     "send and receive counts disagree: some rank i's sendcounts[j] * size(sendtype) differs from "
                     "rank j's recvcounts[i] * size(recvtype) (every rank returns MPI_ERR_COUNT or MPI_ERR_TRUNCATE; "
                     "no byte written to a receive buffer)");
            rc = local ? local : MPI_ERR_COUNT;
        }
    }
    for (int t = 0; t < n && rc == MPI_SUCCESS; t++) {
        const int j = st->rank_of ? st->rank_of[t] : t, len = (int)(roff[t + 1] - roff[t] - V_HDR);
        int pos = 0;
        if (len)
            rc = MPI_Unpack(pr + roff[t] + V_HDR, len, &pos, rbuf + (MPI_Aint)rdispls[j] * rext, rcounts[j], rtype,
                            comm);
    }
    tot_settle(rc == MPI_SUCCESS && tot.got);
    free(ps);
    free(pr);
    free(hdr_ok);
    free(soff);
    return rc;
}

/* grow keep's staging of "direct" to @p bytes, its offsets to @p noff and its statuses to @p nstat; 0, or -1 */
static int grow_carried(size_t bytes, size_t noff, size_t nstat)
{
    if (keep.cbytes < bytes) {
        free(keep.cbuf);
        keep.cbytes = 0;
        if (!(keep.cbuf = malloc(bytes ? bytes : 1)))
            return -1;
        keep.cbytes = bytes;
    }
    return totex_mpi_grow(&keep.off, &keep.noff, noff, sizeof *keep.off) ||
                   totex_mpi_grow(&keep.stat, &keep.nstat, nstat, sizeof *keep.stat)
               ? -1
               : 0;
}

/* "direct" with the figures on the data (no collective operation): to every other rank one message, this
   rank's figures @p f (V_HDR bytes) then its packed block (none when @p bad, this rank's local error); from
   every other rank one, received into staging with room for the figures and the block this rank expects.
   Every rank receives every rank's figures, so each folds all of them into @p f (on return: the call's
   global figures, the same on every rank) and knows the count check's sum: only when it is 0, no rank has a
   local error and every message came with the length expected are the blocks unpacked into the receive
   buffer (before, nothing is written there). A send longer than its receive: MPI's truncation on the
   receiver, and the sum != 0 everywhere else; shorter: a short count there. So a mismatch is an error on
   every rank (MPI_ERR_TRUNCATE or MPI_ERR_COUNT), no hang: every rank posts exactly one receive from and one
   send to every other rank. With @p brief_ok (st->v_hdrs_valid when the call began: the last call ran so and
   succeeded), a rank whose figures are those it sent then sends V_BRIEF bytes in their place and the receivers
   fold the figures they kept (st->v_hdrs); on success st->v_hdrs holds every rank's figures of this call and
   st->v_hdrs_valid is set. Memory: the packed row and column, 2 n V_HDR bytes (kept across calls) and n V_HDR
   bytes of kept figures (st->v_hdrs) */
static int run_carried(const char *sbuf, const int *scounts, const int *sdispls, MPI_Datatype stype, int ssize,
                       char *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rtype, int rsize, int in_place,
                       int n, int rank, int bad, uint64_t *f, MPI_Comm comm, totex_mpi_state *st, int brief_ok)
{
    const size_t N = (size_t)n;
    const MPI_Comm dup = st->dup;
    if (grow_requests(2 * N) || grow_carried(0, 2 * (N + 1), 2 * N))
        return MPI_ERR_NO_MEM;
    if (!st->v_hdrs && !(st->v_hdrs = malloc(N * V_HDR)))
        return MPI_ERR_NO_MEM;
    unsigned char *kept = st->v_hdrs;
    size_t *soff = keep.off, *roff = keep.off + N + 1;
    soff[0] = 0;
    for (int j = 0; j < n; j++)
        soff[j + 1] = soff[j] + V_HDR + (bad ? 0 : (size_t)scounts[j] * (size_t)ssize);
    roff[0] = soff[n];
    for (int i = 0; i < n; i++)
        roff[i + 1] = roff[i] + V_HDR + (bad ? 0 : (size_t)rcounts[i] * (size_t)rsize);
    if (grow_carried(roff[n], 0, 0))
        return MPI_ERR_NO_MEM;
    char *cb = keep.cbuf;
    MPI_Aint lb, sext = 0, rext = 0;
    if (!bad) {
        MPI_Type_get_extent(stype, &lb, &sext);
        MPI_Type_get_extent(rtype, &lb, &rext);
    }
    for (int j = 0; j < n && !bad; j++) { /* (in place: the row is packed before any byte comes) */
        const int len = (int)(soff[j + 1] - soff[j] - V_HDR);
        int pos = 0;
        if (len && !(in_place && j == rank) &&
            (MPI_Pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype, cb + soff[j] + V_HDR, len, &pos, comm) !=
                 MPI_SUCCESS ||
             pos != len)) {
            fprintf(stderr, "totex_alltoallv: rank %d: MPI_Pack of a block failed or gave other than "
                            "count * size(sendtype) bytes\n", rank);
            bad = MPI_ERR_TYPE; /* (its blocks then not sent: its receivers see short messages) */
            f[F_BAD] = (uint64_t)bad;
            for (int k = j; k < n; k++)
                soff[k + 1] = soff[k] + V_HDR;
        }
    }
    /* this rank's figures: brief where they are those it sent in the last call (every receiver kept them) */
    unsigned char mine[V_HDR];
    hdr_put((char *)mine, f);
    const int brief = brief_ok && !memcmp(mine, kept + (size_t)rank * V_HDR, V_HDR);
    memcpy(kept + (size_t)rank * V_HDR, mine, V_HDR);
    const uint32_t mark = hdr_brief(mine);
    const size_t skip = brief ? V_HDR - V_BRIEF : 0; /* (the brief form sits just before the block) */
    for (int j = 0; j < n; j++) {
        if (brief)
            memcpy(cb + soff[j] + skip, &mark, sizeof mark);
        else
            memcpy(cb + soff[j], mine, V_HDR);
    }
    int rc = MPI_SUCCESS;
    size_t nr = 0;
    for (int k = 1; k < n && rc == MPI_SUCCESS; k++) {
        const int i = (rank - k + n) % n;
        rc = MPI_Irecv(cb + roff[i], (int)(roff[i + 1] - roff[i]), MPI_BYTE, i, TOTEX_MPI_V_TAG, dup, &keep.req[nr++]);
    }
    for (int k = 1; k < n && rc == MPI_SUCCESS; k++) {
        const int j = (rank + k) % n;
        rc = MPI_Isend(cb + soff[j] + skip, (int)(soff[j + 1] - soff[j] - skip), MPI_BYTE, j, TOTEX_MPI_V_TAG, dup,
                       &keep.req[nr++]);
    }
    if (rc != MPI_SUCCESS) { /* (a failed post: an MPI failure, not a mismatch; the rest cancelled) */
        cancel_posted(nr);
        return rc;
    }
    const int wrc = totex_mpi_waitall_done((int)nr, keep.req, keep.stat);
    if (wrc != MPI_SUCCESS && wrc != MPI_ERR_IN_STATUS)
        return wrc;
    int local = 0; /* this rank's receives: MPI_ERR_TRUNCATE, MPI_ERR_COUNT (a short one), or MPI's error */
    uint64_t g[F_N];
    memcpy(g, f, sizeof g);
    *tot.fresh = 0;
    tot.got = !tot_grow(N);
    if (tot.got)
        tot.rows[rank] = f[F_ROW], tot.cols[rank] = f[F_COL];
    for (int k = 1; k < n; k++) {
        const int i = (rank - k + n) % n;
        const MPI_Status *t = &keep.stat[k - 1];
        int err = wrc == MPI_ERR_IN_STATUS ? t->MPI_ERROR : MPI_SUCCESS, cls = MPI_SUCCESS, got = -1;
        if (err != MPI_SUCCESS && MPI_Error_class(err, &cls) != MPI_SUCCESS)
            cls = MPI_ERR_OTHER;
        /* the figures: whole (kept for the next call), or brief (those kept from sender i's last call) */
        uint64_t hl = V_HDR, want = roff[i + 1] - roff[i];
        int figs = 0;
        if (cls == MPI_SUCCESS && MPI_Get_count(t, MPI_BYTE, &got) == MPI_SUCCESS && got >= (int)V_BRIEF &&
            (hl = hdr_len(cb + roff[i])) == V_BRIEF) {
            uint32_t w;
            memcpy(&w, cb + roff[i], sizeof w);
            want -= V_HDR - V_BRIEF;
            figs = brief_ok && w == hdr_brief(kept + (size_t)i * V_HDR);
            if (!figs && !local) { /* (not when every rank's last call succeeded: the figures kept are the sent) */
                fail(MPI_ERR_INTERN, rank, "brief figures from a rank whose last figures this rank did not keep");
                local = MPI_ERR_INTERN;
            }
        } else if (cls == MPI_SUCCESS && got >= (int)V_HDR) {
            memcpy(kept + (size_t)i * V_HDR, cb + roff[i], V_HDR);
            figs = 1;
        }
        if (figs) {
            uint64_t h[F_N];
            hdr_get(h, (const char *)kept + (size_t)i * V_HDR);
            fold(h, g);
            if (tot.got)
                tot.rows[i] = h[F_ROW], tot.cols[i] = h[F_COL];
        } else
            tot.got = 0;
        if (!local && cls != MPI_SUCCESS)
            local = cls == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : err;
        else if (!local && (uint64_t)got != want) /* (longer than expected behind brief figures: the room held it) */
            local = (uint64_t)got > want ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    }
    for (int k = 1; k < n && wrc == MPI_ERR_IN_STATUS && !local; k++) /* (the sends) */
        if (keep.stat[n - 1 + k - 1].MPI_ERROR != MPI_SUCCESS)
            local = keep.stat[n - 1 + k - 1].MPI_ERROR;
    memcpy(f, g, sizeof g);
    if (bad)
        return bad;
    if (g[F_BAD])
        return (int)g[F_BAD];
    if (local || g[F_HASH]) {
        if (rank == 0 || local)
            fail(local == MPI_ERR_TRUNCATE ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT, rank,
                 "send and receive counts disagree: some rank i's sendcounts[j] * size(sendtype) differs from rank "
                 "j's recvcounts[i] * size(recvtype) (every rank returns MPI_ERR_COUNT or MPI_ERR_TRUNCATE; no byte "
                 "written to a receive buffer)");
        return local ? local : MPI_ERR_COUNT;
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const int len = (int)(roff[i + 1] - roff[i] - V_HDR);
        int pos = 0;
        if (len && !(in_place && i == rank))
            rc = MPI_Unpack(i == rank ? cb + soff[i] + V_HDR : cb + roff[i] + hdr_len(cb + roff[i]), len, &pos,
                            rbuf + (MPI_Aint)rdispls[i] * rext, rcounts[i], rtype, comm);
    }
    tot_settle(rc == MPI_SUCCESS && tot.got);
    st->v_hdrs_valid = rc == MPI_SUCCESS;
    return rc;
}

/* a trial of the measured choice (alltoallv_tune.c) decided by this call: recorded by totex_mpi_alltoallv() */
static struct {
    totex_mpi_state *st;
    int trial, form;
    double t0; /* MPI_Wtime() after the trial's barrier */
} vt_pending;

/* a key of the pattern of the last call: its global figures and, where read, every rank's totals */
static uint64_t v_key(const totex_mpi_state *st)
{
    uint64_t g[F_N + 1];
    for (int k = 0; k < F_N; k++)
        g[k] = st->v_prev[k];
    g[F_N] = tot.fresh && *tot.fresh && tot.hash ? *tot.hash : 0;
    return hash_words(g, F_N + 1);
}

/* the form mode @p mode of mode_of() runs (its planned path: @p how, what choose() took from the last call's
   figures) */
static int form_of_mode(int mode, int how)
{
    if (mode == M_DIRECT)
        return V_DIRECT;
    if (mode == M_RELAY)
        return V_RELAY;
    if (mode == M_BALANCED)
        return V_BALANCED;
    if (mode == M_STEPPED)
        return V_STEPPED;
    if (mode == M_UNIFORM)
        return V_UNIFORM;
    return how;
}

static int v_call(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                  void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                  const totex_mpi_options *opt);

int totex_mpi_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                        void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                        MPI_Comm comm, const totex_mpi_options *opt)
{
    vt_pending.trial = 0;
    int rc = v_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, opt);
    if (vt_pending.trial) { /* (the same trial on every rank: decided from the figures every rank has) */
        const double t = MPI_Wtime() - vt_pending.t0;
        int rank = 0, size = 0;
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
        const int rrc = totex_mpi_v_tune_record(vt_pending.st, vt_pending.trial, t, rc == MPI_SUCCESS, rank,
                                                opt->verbose, opt->entry, size, v_names);
        vt_pending.trial = 0;
        if (rc == MPI_SUCCESS)
            rc = rrc;
    }
    return rc;
}

static int v_call(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                  void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                  const totex_mpi_options *opt)
{
    int rc, size = 0, rank = 0, inter = 0;
    uint64_t key = 0; /* stepped's key of the call's pattern: v_key() of the last call's figures (the same on every
                         rank) where they are known, else 0 (no cache); alltoallv_stepped.c caches its routing by it */
    totex_mpi_runs_drain(); /* this rank's nonblocking runs end first (as totex_mpi_alltoall) */
    if (comm == MPI_COMM_NULL)
        return fail(MPI_ERR_COMM, -1, "MPI_COMM_NULL communicator");
    if ((rc = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
        return rc;
    if (inter) {
        if (opt->fallback)
            return TOTEX_MPI_FALLBACK;
        return fail(MPI_ERR_COMM, -1, "intercommunicators are not supported (use an intracommunicator)");
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    const int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendbuf = recvbuf;
        sendcounts = recvcounts;
        sdispls = rdispls;
        sendtype = recvtype;
    }
    /* local checks and this rank's figures: one pass over its row and column */
    uint64_t f[F_N] = {0}, g[F_N];
    f[F_BMIN_NEG] = 0; /* UINT64_MAX - smallest block, raised below */
    int bad = 0;
    const char *msg = NULL;
    int ssize = 0, rsize = 0;
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL) {
        bad = MPI_ERR_TYPE;
        msg = "MPI_DATATYPE_NULL datatype";
    } else if (!sendcounts || !recvcounts || !sdispls || !rdispls) {
        bad = MPI_ERR_ARG;
        msg = "NULL counts or displacements array (give n entries each)";
    } else {
        MPI_Type_size(sendtype, &ssize);
        MPI_Type_size(recvtype, &rsize);
    }
    uint64_t bmin = UINT64_MAX, hash = 0;
    const int c0 = !bad ? sendcounts[0] : 0, r0 = !bad ? recvcounts[0] : 0;
    int irregular = 0;
    for (int j = 0; j < size && !bad; j++) {
        const int sc = sendcounts[j], rcn = recvcounts[j];
        if (sc < 0 || rcn < 0) {
            bad = MPI_ERR_COUNT;
            msg = "negative count in sendcounts or recvcounts";
            break;
        }
        const uint64_t sb = (uint64_t)sc * (uint64_t)ssize, rb = (uint64_t)rcn * (uint64_t)rsize;
        if (sb > INT_MAX - V_HDR || rb > INT_MAX - V_HDR) {
            bad = MPI_ERR_COUNT;
            msg = "a block of more than INT_MAX - 44 bytes (MPI counts a message's bytes in an int, and \"direct\" "
                  "sends 44 bytes of figures with it): send it in parts";
            break;
        }
        if ((sb && !sendbuf) || (rb && !recvbuf)) {
            bad = MPI_ERR_BUFFER;
            msg = "NULL buffer with a non-zero count";
            break;
        }
        int ps = 0;
        if (sc && (rc = MPI_Pack_size(sc, sendtype, comm, &ps)) != MPI_SUCCESS) {
            bad = MPI_ERR_TYPE;
            msg = "MPI_Pack_size failed on the send datatype";
            break;
        }
        f[F_ROW] += sb;
        f[F_COL] += rb;
        f[F_TOTAL] += sb;
        if ((uint64_t)ps > f[F_SLOT])
            f[F_SLOT] = (uint64_t)ps;
        if (sb > f[F_BMAX])
            f[F_BMAX] = sb;
        if (rb > f[F_BMAX])
            f[F_BMAX] = rb;
        if (sb < bmin)
            bmin = sb;
        if (rb < bmin)
            bmin = rb;
        hash += pair_hash(rank, j, sb) - pair_hash(j, rank, rb);
        irregular |= sc != c0 || rcn != r0 || sdispls[j] != j * c0 || rdispls[j] != j * r0;
    }
    if (!bad && !in_place && f[F_TOTAL] && sendbuf == recvbuf) {
        bad = MPI_ERR_BUFFER;
        msg = "sendbuf and recvbuf are the same buffer (for an exchange in place pass MPI_IN_PLACE as sendbuf)";
    }
    if (bad)
        fail(bad, rank, msg);
    f[F_BAD] = (uint64_t)bad;
    f[F_BMIN_NEG] = bad ? 0 : UINT64_MAX - bmin;
    f[F_IRREG] = irregular || bad;
    f[F_INPLACE] = (uint64_t)in_place;
    f[F_HASH] = bad ? 0 : hash;
    totex_mpi_state *st = NULL;
    if ((rc = totex_mpi_state_get(comm, &st)) != MPI_SUCCESS)
        return rc;
    /* (brief figures only right after a "direct" call with the figures on the data that succeeded) */
    const int brief_ok = st->v_hdrs_valid;
    st->v_hdrs_valid = 0;
    /* (rank 0's TOTEX_CHECK is kept for totex_alltoall's calls on the duplicate; this call's check is the
       Allreduce's) */
    if (size > 1 && (rc = totex_mpi_state_dup(st, comm, totex_mpi_env_switch("TOTEX_CHECK", 1))) != MPI_SUCCESS)
        return rc;
    if (tot_bind(st, (size_t)size))
        return MPI_ERR_NO_MEM;
    if (size > 1 && !st->check && forced_choice() != V_PADDED) {
        /* TOTEX_CHECK=0 (rank 0's, the same on every rank): no global figures, no count check: direct, as
           MPI libraries run it (a mismatch is then MPI's: MPI_ERR_TRUNCATE on the receiver, or undefined) */
        if (bad)
            return bad;
        if (opt->verbose && rank == 0 && (opt->verbose > 1 || st->v_said != V_DIRECT + 1))
            fprintf(stderr, "totex: %s on %d ranks: direct (TOTEX_CHECK=0: no global figures, no count check)\n",
                    opt->entry ? opt->entry : "totex_alltoallv", size);
        st->v_said = V_DIRECT + 1;
        return run_direct(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, in_place,
                          size, rank, comm, st->dup);
    }
    const totex_network *net = NULL;
    double pred[6] = {0, 0, -1, -1, -1, -1};
    if (size > 1) {
        if ((rc = totex_mpi_costs(st->dup, size, rank, st)) != MPI_SUCCESS)
            return rc;
        net = routed_network(st, size);
        const int declared = net && totex_mpi_comm_spec_declared(st, st->dup);
        int how_last = V_DIRECT, bal = 0;
        int mode = mode_of(st, size, net, declared, &how_last, &bal);
        key = st->v_known ? v_key(st) : 0;
        /* a repeating pattern: the model's form and direct timed once each, then the faster (alltoallv_tune.c) */
        if (st->v_known && forced_on(net, NULL) < 0 && !st->v_prev[F_INPLACE]) {
            const int form = form_of_mode(mode, how_last);
            if (form != V_UNIFORM && form != V_NONE) {
                int trial = 0;
                /* the second candidate: balanced where it was planned, else stepped where it applies on a declared
                   torus (its routing made before the trial's barrier: the trial times the exchange) */
                const int second = bal                                                        ? V_BALANCED
                                   : declared && totex_mpi_v_stepped_applies(net) ? V_STEPPED
                                                                                            : -1;
                const int run = totex_mpi_v_tune_form(st, v_key(st), form, second, V_DIRECT, &trial);
                if (run != form)
                    mode = run == V_BALANCED ? M_BALANCED : run == V_STEPPED ? M_STEPPED : M_DIRECT;
                if (run == V_STEPPED &&
                    (rc = stepped_route(net, bad ? NULL : sendcounts, ssize, size, rank, st, key)) != MPI_SUCCESS)
                    return rc;
                if (trial) { /* (timed from a barrier: the last call's exit skew is not this form's) */
                    if ((rc = MPI_Barrier(st->dup)) != MPI_SUCCESS)
                        return rc;
                    vt_pending.st = st, vt_pending.trial = trial, vt_pending.form = form;
                    vt_pending.t0 = MPI_Wtime();
                }
            }
        }
        /* (relay's rooms: the last call's figures, the same on every rank; none before a first call) */
        const uint64_t room_b = st->v_known ? st->v_prev[F_BMAX] : 0, room_r = st->v_known ? st->v_prev[F_ROW] : 0;
        st->v_known = 0; /* (until this call succeeds) */
        if (mode == M_DIRECT || mode == M_RELAY || mode == M_BALANCED || mode == M_STEPPED) {
            memcpy(g, f, sizeof g);
            if (mode != M_DIRECT) /* (relay's rooms sized by the last call's figures, or none before one;
                                     balanced's plan by its totals; stepped's routing cached by key) */
                rc = run_relay_carried(net, sendbuf, sendcounts, sdispls, sendtype, ssize, recvbuf, recvcounts,
                                       rdispls, recvtype, rsize, size, rank, bad, g, room_b, room_r, comm, st,
                                       mode == M_BALANCED ? V_BALANCED : mode == M_STEPPED ? V_STEPPED : V_RELAY, key);
            else
                rc = run_carried(sendbuf, sendcounts, sdispls, sendtype, ssize, recvbuf, recvcounts, rdispls,
                                 recvtype, rsize, in_place, size, rank, bad, g, comm, st, brief_ok);
            if (rc != MPI_SUCCESS)
                return rc;
            (void)choose(g, size, st, in_place, net, declared, pred);
            say_choice(opt, st, net, size, rank,
                       !g[F_TOTAL]           ? V_NONE
                       : mode == M_RELAY     ? V_RELAY
                       : mode == M_BALANCED  ? V_BALANCED
                       : mode == M_STEPPED   ? V_STEPPED
                                             : V_DIRECT,
                       g, pred,
                       "the figures and the count check carried on the data, no collective operation");
            for (int k = 0; k < F_N; k++)
                st->v_prev[k] = g[k];
            st->v_known = 1;
            if (mode_of(st, size, net, declared, NULL, NULL) != M_UNIFORM)
                return MPI_SUCCESS;
            /* uniform counts on every rank: the next call runs totex_alltoall's schedule at once; its plan is
               made now, as the first uniform call made it before (every rank is here, its counts uniform) */
            totex_mpi_prepared pr;
            totex_mpi_options o = *opt;
            o.fallback = 0;
            o.verbose = opt->verbose > 1 ? opt->verbose : 0;
            o.prepare = &pr;
            if ((rc = totex_mpi_alltoall(sendbuf, c0, sendtype, recvbuf, r0, recvtype, comm, &o)) != MPI_SUCCESS)
                st->v_known = 0, st->v_hdrs_valid = 0;
            return rc;
        }
        *tot.fresh = 0; /* (this call's totals are not read from its data: balanced plans without them next) */
        if (mode == M_UNIFORM) {
            /* every rank expects uniform counts: totex_alltoall's schedule at once, checked on its data; a
               rank whose counts are not uniform makes every rank's call fail (agree.c: the poison), and every
               rank then runs the call as planned below */
            const int mine = !bad && !in_place && f[F_BMAX] == bmin && !irregular;
            totex_mpi_options o = *opt;
            o.fallback = 0;
            o.verbose = opt->verbose > 1 ? opt->verbose : 0;
            o.v_switch = !mine;
            rc = totex_mpi_alltoall(mine ? sendbuf : NULL, mine ? c0 : 0, mine ? sendtype : MPI_BYTE,
                                    mine ? recvbuf : NULL, mine ? r0 : 0, mine ? recvtype : MPI_BYTE, comm, &o);
            if (rc == MPI_SUCCESS) {
                const uint64_t B = f[F_BMAX], N = (uint64_t)size;
                const uint64_t u[F_N] = {[F_ROW] = N * B, [F_COL] = N * B, [F_BMAX] = B, [F_BMIN_NEG] = UINT64_MAX - B,
                                         [F_SLOT] = B, [F_TOTAL] = N * N * B};
                (void)choose(u, size, st, 0, net, declared, pred);
                say_choice(opt, st, net, size, rank, V_UNIFORM, u, pred,
                           "as the last call: totex_alltoall's schedule, its cross-rank check on the data");
                for (int k = 0; k < F_N; k++)
                    st->v_prev[k] = u[k];
                st->v_known = 1;
                return MPI_SUCCESS;
            }
            /* (the failed call retired the duplicate on every rank: a new one) */
            if ((rc = totex_mpi_state_dup(st, comm, totex_mpi_env_switch("TOTEX_CHECK", 1))) != MPI_SUCCESS)
                return rc;
        }
        if (net && declared && totex_mpi_v_balanced_applies(net)) {
            /* (where "balanced" may run next: every rank's figures gathered instead, folded here alike, so that
               every rank knows every rank's totals; n x 80 bytes, the figures as words) */
            if (tot_grow((size_t)size) ||
                !(keep.gath = realloc(keep.gath, (size_t)size * F_N * sizeof *keep.gath)))
                return MPI_ERR_NO_MEM;
            if ((rc = MPI_Allgather(f, F_N, MPI_UINT64_T, keep.gath, F_N, MPI_UINT64_T, st->dup)) != MPI_SUCCESS)
                return rc;
            memcpy(g, keep.gath, sizeof g);
            for (int i = 0; i < size; i++) {
                if (i)
                    fold(keep.gath + (size_t)i * F_N, g);
                tot.rows[i] = keep.gath[(size_t)i * F_N + F_ROW], tot.cols[i] = keep.gath[(size_t)i * F_N + F_COL];
            }
            tot_settle(1);
        } else {
            if (keep.op == MPI_OP_NULL && (rc = MPI_Op_create(v_reduce, 1, &keep.op)) != MPI_SUCCESS)
                return rc;
            if ((rc = MPI_Allreduce(f, g, F_N, MPI_UINT64_T, keep.op, st->dup)) != MPI_SUCCESS)
                return rc;
        }
    } else {
        memcpy(g, f, sizeof g);
    }
    if (g[F_BAD])
        return (int)g[F_BAD];
    if (g[F_HASH]) {
        if (rank == 0)
            fail(MPI_ERR_COUNT, rank,
                 "send and receive counts disagree: some rank i's sendcounts[j] * size(sendtype) differs from rank "
                 "j's recvcounts[i] * size(recvtype) (every rank returns MPI_ERR_COUNT; no data moved)");
        return MPI_ERR_COUNT;
    }
    if (size == 1) { /* a local copy (in place: nothing to do) */
        if (in_place || !g[F_TOTAL])
            return MPI_SUCCESS;
        char *tmp = malloc((size_t)g[F_SLOT]);
        if (!tmp)
            return MPI_ERR_NO_MEM;
        MPI_Aint lb, sext, rext;
        MPI_Type_get_extent(sendtype, &lb, &sext);
        MPI_Type_get_extent(recvtype, &lb, &rext);
        int pos = 0;
        rc = MPI_Pack((const char *)sendbuf + (MPI_Aint)sdispls[0] * sext, sendcounts[0], sendtype, tmp,
                      (int)g[F_SLOT], &pos, comm);
        int upos = 0;
        if (rc == MPI_SUCCESS)
            rc = MPI_Unpack(tmp, pos, &upos, (char *)recvbuf + (MPI_Aint)rdispls[0] * rext, recvcounts[0], recvtype,
                            comm);
        free(tmp);
        return rc;
    }
    /* (choose() never takes a form that does not apply: a forced one is direct there, forced_on()) */
    const int how = choose(g, size, st, in_place, net, net && totex_mpi_comm_spec_declared(st, st->dup), pred);
    totex_mpi_options o = *opt;
    o.fallback = 0;
    say_choice(opt, st, net, size, rank, how, g, pred, "the figures agreed by one MPI_Allreduce");
    switch (how) {
    case V_NONE:
        rc = MPI_SUCCESS;
        break;
    case V_UNIFORM:
        o.verbose = opt->verbose > 1 ? opt->verbose : 0; /* (its line said once above) */
        rc = totex_mpi_alltoall(in_place ? MPI_IN_PLACE : sendbuf, c0, sendtype, recvbuf, r0, recvtype, comm, &o);
        break;
    case V_RELAY: /* (net and applies: choose() took it; the figures carried again: the same g on return) */
    case V_BALANCED:
    case V_STEPPED:
        rc = run_relay_carried(net, sendbuf, sendcounts, sdispls, sendtype, ssize, recvbuf, recvcounts, rdispls,
                               recvtype, rsize, size, rank, 0, f, g[F_BMAX], g[F_ROW], comm, st, how, key);
        break;
    case V_ROUTED:
        rc = run_routed(net, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, size,
                        rank, g[F_BMAX], g[F_ROW], comm, st);
        break;
    case V_PADDED:
        o.verbose = opt->verbose > 1 ? opt->verbose : 0;
        rc = run_padded(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, size,
                        (long long)g[F_SLOT], comm, &o);
        break;
    default:
        rc = run_direct(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, in_place, size,
                        rank, comm, st->dup);
        break;
    }
    if (rc == MPI_SUCCESS) { /* (the next call's choice: these figures, known to every rank) */
        for (int k = 0; k < F_N; k++)
            st->v_prev[k] = g[k];
        st->v_known = 1;
    }
    return rc;
}

int totex_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                    void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
    totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .entry = "totex_alltoallv"};
    totex_mpi_depth++;
    int rc = totex_mpi_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                                 &opt);
    totex_mpi_depth--;
    return rc;
}
