/*
 * Name:       relay alltoallv ("relay": direct-relay carrying every block's real length)
 * Paper:      this project's direct-relay (src/combining/relay.c, no paper): direct total exchange whose
 *             half-way blocks are relayed once through a neighbour so that they cross every even ring
 *             both ways; the bound it is measured against is the byte-weighted half-ring arc cut
 *             (000 Theorem 5; docs/demand.md).
 * Model:      all-port, wormhole routes (the network's dimension-ordered shortest routes: a direct
 *             message, and each leg of a relayed one, shorter than half of every ring, so its route is
 *             unique), byte-weighted: a link's time is its bytes.
 * Steps:      2 dependent: every block not relayed goes straight to its destination (one message);
 *             every block relayed goes to its relay (totex_comb_relay_first) in C chunks (2, or 1 on a
 *             torus with a ring of 8 or more nodes: relay_chunks()), one
 *             message per relay and chunk carrying that chunk of each of its blocks through that relay,
 *             its length and theirs in front of them; the relay sends each block's chunk on to its
 *             destination as soon as the chunk has come whole (the chunks pipeline the two legs). Every
 *             block's first h bytes (the sender's figures, alltoallv.c) travel whole in its straight
 *             message or its first chunk: no collective operation.
 * Optimality: for uniform blocks on a torus of even rings every link carries the half-ring arc cut
 *             bound's bytes (as direct-relay); for a demand W each block takes its one route (no
 *             rerouting round a hot link), a receiver's bytes come in on the links of the last dimension
 *             its sources differ in. Start-ups: 2 on a relayed block's path.
 *
 * What a rank knows: its row and column of W. A relay learns the lengths of what it forwards from the
 * message: the message's length (uint64), then its chunks' lengths (uint32 each) in the order of their
 * destinations, then their bytes; a destination knows the length of every chunk it receives from its column
 * (a chunk of another length: MPI's truncation or a short count there, the call's error on every rank, see
 * alltoallv.c). A relay's receive for a message has room for its blocks at a largest block B and row M the
 * same on every rank (the last call's global figures, passed in): a message longer than that room comes as
 * its first part, which fills the room and says the whole length, then the rest (parts of at most 1 GiB),
 * which the relay receives into a buffer of the whole length; so no figure of this call is needed before
 * data moves. The relays of a source and the sources of a relay are found by translation (relay_of depends
 * on the offset d - r only): one table of n first hops, planning a call is one pass over the rank's 2n counts.
 * Memory per rank beyond the packed row and column: the relayed chunks' rooms, each at B or the row's share,
 * whichever is less (at most B times the blocks relayed through a node: 7 B on 4x4, 15 B on 8x8, 37 B on
 * 4x4x4; at most 64 MiB each), a longer message's whole length, what this node sends (its relayed blocks
 * staged), and O(n) requests; freed when the call ends.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate (a blocking call's messages are all done before it returns, so the range
   of alltoallv_routed.c is free here): up to a relay, straight, the rest of an up message beyond the relay's
   room (+ its chunk), and from a relay (+ the source's node) */
#define RELAY_TAG_UP 31100
#define RELAY_TAG_DIRECT 31101
#define RELAY_TAG_MORE 31102
#define RELAY_TAG_DOWN 31110
#define RELAY_TAGS 1490

/* chunks of a relayed block: 2 where every ring has fewer than 8 nodes, 1 where one has 8 or more; measured, not
   derived: on SimGrid's tori with random demand at 64 KiB (flat factors) 2 was the fastest of 1, 2, 4 and 8 on
   4x4 and took 317.09 us against 1's 325.67 on 4x4x4, 1 took 541.94 us against 2's 546.27 on 8x8
   (docs/performance.md, "Relay: direct-relay carrying real lengths" and "Relay without the MPI_Allreduce, and routes
   for hot receivers") */
#define V_CHUNKS 2
#define V_CHUNKS_LONG_RING 1
#define V_MAX_CHUNKS 8 /* (the tags of a message's rest: RELAY_TAG_MORE + chunk) */
_Static_assert(V_CHUNKS <= V_MAX_CHUNKS && V_CHUNKS_LONG_RING <= V_MAX_CHUNKS &&
                   RELAY_TAG_MORE + V_MAX_CHUNKS <= RELAY_TAG_DOWN,
               "a chunk's tag of the rest stays below RELAY_TAG_DOWN");

static uint32_t relay_chunks(const totex_network *net)
{
    for (uint32_t i = 0; i < totex_network_dims(net); i++)
        if (totex_factor_nodes(totex_network_factor(net, i)) >= 8)
            return V_CHUNKS_LONG_RING;
    return V_CHUNKS;
}

/* an up message's first part is at most this room (bytes); the rest follows in parts of at most V_PART */
#define V_ROOM_MAX ((uint64_t)1 << 26)
#define V_PART ((uint64_t)1 << 30)

/* the start of chunk c of C of a block of P bytes whose first @p h bytes (its figures) stay in chunk 0: 0,
   then h + (P - h) c / C */
static uint64_t ccut(uint64_t P, uint64_t h, uint32_t c, uint32_t C)
{
    if (c == 0)
        return 0;
    if (c >= C || P < h)
        return P;
    return h + (P - h) * c / C;
}

int totex_mpi_v_relay_applies(const totex_network *net)
{
    if (!net || totex_network_nodes(net) + 10 > RELAY_TAGS)
        return 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor_kind kd = totex_factor_get_kind(totex_network_factor(net, i));
        if (kd != TOTEX_FACTOR_RING && kd != TOTEX_FACTOR_K2)
            return 0;
    }
    uint32_t *first = malloc(totex_network_nodes(net) * sizeof *first);
    const int ok = first && totex_comb_relay_first(net, 0, first, NULL) == TOTEX_OK;
    free(first);
    return ok;
}

/* the room of the first part of an up message carrying @p cnt blocks' chunks (figures @p h bytes each) when
   no block of the call exceeds @p bmax bytes and no row @p maxrow (the same figures on the sender and the
   relay, so both compute the same room): its total (uint64), the lengths (uint32 each), the chunks */
static uint64_t up_room(uint32_t cnt, uint64_t h, uint64_t bmax, uint64_t maxrow, uint32_t C)
{
    const uint64_t a = cnt * (h + (bmax + C - 1) / C), b = cnt * (h + 1) + (maxrow + C - 1) / C;
    uint64_t r = sizeof(uint64_t) + cnt * sizeof(uint32_t) + (a < b ? a : b);
    if (r > V_ROOM_MAX)
        r = V_ROOM_MAX;
    return (r + 15) & ~(uint64_t)15;
}

typedef struct up { /* one relayed chunk this node receives: from source r, chunk c, for the offsets of relay offset f */
    uint32_t r, f, c, cnt;
    char *buf;   /* the room of its first part */
    size_t room;
    char *big;   /* the whole message when it is longer than the room (the first part copied in) */
    uint64_t total;
    size_t left; /* parts still to come (its first part, then those beyond the room) */
    int sent;    /* its chunks went on */
} up;

/* the chunk @p u has come whole (its total, then its lengths in its offsets' order, then the chunks): each
   of its blocks' chunk sent on to its destination (tag by source) */
static int forward(up *u, const totex_network *net, const uint32_t *first, uint32_t n, MPI_Comm dup,
                   MPI_Request **req, size_t *nr, size_t *cap)
{
    const char *m = u->big ? u->big : u->buf;
    const uint64_t lb = sizeof(uint64_t) + u->cnt * sizeof(uint32_t);
    u->sent = 1;
    if (u->total < lb)
        return MPI_ERR_TRUNCATE;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < u->cnt; i++) {
        uint32_t v;
        memcpy(&v, m + sizeof(uint64_t) + i * sizeof v, sizeof v);
        sum += v;
    }
    if (sum != u->total - lb)
        return MPI_ERR_TRUNCATE; /* (lengths that do not add up to what came: not a message of this call) */
    const char *p = m + lb;
    int rc = MPI_SUCCESS;
    uint32_t i = 0;
    for (uint32_t o = 1; o < n && rc == MPI_SUCCESS; o++)
        if (first[o] == u->f && o != u->f) {
            uint32_t v;
            memcpy(&v, m + sizeof(uint64_t) + (i++) * sizeof v, sizeof v);
            const uint32_t d = totex_network_shift(net, u->r, o, +1);
            if (totex_mpi_more_requests(req, *nr, cap))
                return MPI_ERR_NO_MEM;
            rc = MPI_Isend(p, (int)v, MPI_BYTE, (int)d, RELAY_TAG_DOWN + (int)u->r, dup, &(*req)[(*nr)++]);
            p += v;
        }
    return rc;
}

int totex_mpi_v_relay(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                      const uint64_t *roff, uint64_t h, uint64_t bmax, uint64_t maxrow, unsigned char *hdr_ok,
                      int *local, MPI_Comm dup, int node)
{
    const uint32_t n = totex_network_nodes(net), me = (uint32_t)node, C = relay_chunks(net);
    uint32_t *first = malloc((size_t)n * sizeof *first), *cnt = calloc(n, sizeof *cnt);
    /* the receives of this node as a destination: their source node, bytes expected, and whether they carry
       the block's figures (a straight block, or chunk 0) */
    uint32_t *rnode = malloc(((size_t)n * C + 1) * sizeof *rnode);
    uint64_t *rexp = malloc(((size_t)n * C + 1) * sizeof *rexp);
    unsigned char *rhdr = malloc((size_t)n * C + 1);
    MPI_Request *req = NULL, *ureq = NULL;
    MPI_Status *stat = NULL;
    size_t cap = 0, ucap = 0, *uown = NULL;
    up *ups = NULL;
    char *sbuf = NULL, *rroom = NULL;
    size_t nr = 0, nu = 0, nups = 0, nrecv = 0, nuq = 0;
    *local = MPI_SUCCESS;
    int rc = first && cnt && rnode && rexp && rhdr ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && totex_comb_relay_first(net, 0, first, NULL) != TOTEX_OK)
        rc = MPI_ERR_INTERN;
    /* first[o]: the relay offset of offset o (o itself: straight); cnt[f]: the offsets relayed through f */
    for (uint32_t o = 1; rc == MPI_SUCCESS && o < n; o++)
        if (first[o] != o)
            cnt[first[o]]++;
    for (uint32_t t = 0; t < n; t++)
        hdr_ok[t] = t == me;
    memcpy(precv + roff[me], psend + soff[me], roff[me + 1] - roff[me]);
    /* the relayed chunks this node receives: from r = me - f, for every relay offset f, the first part of each
       into a room of the size both sides compute from bmax and maxrow */
    size_t room = 0;
    for (uint32_t f = 1; rc == MPI_SUCCESS && f < n; f++)
        if (cnt[f]) {
            nups += C;
            room += C * (size_t)up_room(cnt[f], h, bmax, maxrow, C);
        }
    if (rc == MPI_SUCCESS) {
        ups = calloc(nups + 1, sizeof *ups);
        ucap = 2 * nups + 1;
        ureq = malloc(ucap * sizeof *ureq);
        uown = malloc(ucap * sizeof *uown);
        rroom = malloc(room ? room : 1);
        if (!ups || !ureq || !uown || !rroom)
            rc = MPI_ERR_NO_MEM;
    }
    size_t at = 0;
    for (uint32_t f = 1; rc == MPI_SUCCESS && f < n; f++)
        if (cnt[f]) {
            const uint64_t bytes = up_room(cnt[f], h, bmax, maxrow, C);
            const uint32_t r = totex_network_shift(net, me, f, -1);
            for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
                up *u = &ups[nu];
                *u = (up){r, f, c, cnt[f], rroom + at, (size_t)bytes, NULL, 0, 1, 0};
                at += (size_t)bytes;
                uown[nu] = nu;
                rc = MPI_Irecv(u->buf, (int)bytes, MPI_BYTE, (int)r, RELAY_TAG_UP, dup, &ureq[nu]);
                nu++;
            }
        }
    nuq = nu;
    /* what this node receives as a destination: straight, or each chunk from the relay (tag by source) */
    for (uint32_t s = 0; rc == MPI_SUCCESS && s < n; s++) {
        if (s == me)
            continue;
        const uint32_t o = totex_network_shift(net, me, s, -1);
        const uint64_t P = roff[s + 1] - roff[s];
        if (first[o] == o) {
            if (totex_mpi_more_requests(&req, nr, &cap)) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            rnode[nr] = s, rexp[nr] = P, rhdr[nr] = 1;
            rc = MPI_Irecv(precv + roff[s], (int)P, MPI_BYTE, (int)s, RELAY_TAG_DIRECT, dup, &req[nr++]);
            continue;
        }
        const uint32_t t = totex_network_shift(net, s, first[o], +1);
        for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
            const uint64_t a = ccut(P, h, c, C), b = ccut(P, h, c + 1, C);
            if (totex_mpi_more_requests(&req, nr, &cap)) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            rnode[nr] = s, rexp[nr] = b - a, rhdr[nr] = c == 0;
            rc = MPI_Irecv(precv + roff[s] + a, (int)(b - a), MPI_BYTE, (int)t, RELAY_TAG_DOWN + (int)s, dup,
                           &req[nr++]);
        }
    }
    nrecv = nr;
    /* this node's relayed chunks first (their second leg waits for them), then its straight blocks */
    size_t sb = 0;
    for (uint32_t f = 1; f < n; f++)
        if (cnt[f])
            sb += C * ((size_t)cnt[f] * sizeof(uint32_t) + sizeof(uint64_t));
    for (uint32_t o = 1; o < n; o++)
        if (first[o] != o) {
            const uint32_t d = totex_network_shift(net, me, o, +1);
            sb += soff[d + 1] - soff[d];
        }
    if (rc == MPI_SUCCESS && !(sbuf = malloc(sb ? sb : 1)))
        rc = MPI_ERR_NO_MEM;
    char *w = sbuf;
    for (uint32_t f = 1; rc == MPI_SUCCESS && f < n; f++) {
        if (!cnt[f])
            continue;
        const uint32_t t = totex_network_shift(net, me, f, +1);
        const uint64_t R = up_room(cnt[f], h, bmax, maxrow, C);
        for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
            char *m0 = w;
            w += sizeof(uint64_t);
            for (uint32_t o = 1; o < n; o++) /* the lengths, by offset */
                if (first[o] == f && o != f) {
                    const uint32_t d = totex_network_shift(net, me, o, +1);
                    const uint64_t P = soff[d + 1] - soff[d];
                    const uint32_t len = (uint32_t)(ccut(P, h, c + 1, C) - ccut(P, h, c, C));
                    memcpy(w, &len, sizeof len);
                    w += sizeof len;
                }
            for (uint32_t o = 1; o < n; o++) /* the chunks */
                if (first[o] == f && o != f) {
                    const uint32_t d = totex_network_shift(net, me, o, +1);
                    const uint64_t P = soff[d + 1] - soff[d], a = ccut(P, h, c, C), b = ccut(P, h, c + 1, C);
                    memcpy(w, psend + soff[d] + a, b - a);
                    w += b - a;
                }
            const uint64_t T = (uint64_t)(w - m0);
            memcpy(m0, &T, sizeof T);
            /* the first part (at most the relay's room R), then the rest in parts of at most V_PART bytes */
            for (uint64_t x = 0; rc == MPI_SUCCESS && x < T;) {
                const uint64_t lim = x ? V_PART : R, len = T - x < lim ? T - x : lim;
                if (totex_mpi_more_requests(&req, nr, &cap)) {
                    rc = MPI_ERR_NO_MEM;
                    break;
                }
                rc = MPI_Isend(m0 + x, (int)len, MPI_BYTE, (int)t, x ? RELAY_TAG_MORE + (int)c : RELAY_TAG_UP, dup,
                               &req[nr++]);
                x += len;
            }
        }
    }
    for (uint32_t o = 1; rc == MPI_SUCCESS && o < n; o++)
        if (first[o] == o) {
            const uint32_t d = totex_network_shift(net, me, o, +1);
            if (totex_mpi_more_requests(&req, nr, &cap)) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            rc = MPI_Isend(psend + soff[d], (int)(soff[d + 1] - soff[d]), MPI_BYTE, (int)d, RELAY_TAG_DIRECT, dup,
                           &req[nr++]);
        }
    /* as a relay: each chunk sent on once it has come whole, a source's chunks in chunk order (its destinations
       receive them in that order under one tag); a first part that says its message is longer than the room:
       the rest received into a buffer of the whole message */
    for (size_t pending = nu; rc == MPI_SUCCESS && pending; pending--) {
        int idx = MPI_UNDEFINED, got = 0;
        MPI_Status st;
        if ((rc = MPI_Waitany((int)nuq, ureq, &idx, &st)) != MPI_SUCCESS)
            break;
        if (idx == MPI_UNDEFINED) {
            rc = MPI_ERR_INTERN;
            break;
        }
        up *u = &ups[uown[idx]];
        if ((size_t)idx < nu) { /* a first part */
            MPI_Get_count(&st, MPI_BYTE, &got);
            if (got < (int)sizeof(uint64_t)) {
                rc = MPI_ERR_TRUNCATE;
                break;
            }
            memcpy(&u->total, u->buf, sizeof u->total);
            if (u->total < (uint64_t)got || (u->total > (uint64_t)got && (size_t)got != u->room)) {
                rc = MPI_ERR_TRUNCATE; /* (not a message of this call) */
                break;
            }
            if (u->total > (uint64_t)got) {
                if (u->total > SIZE_MAX / 2 || !(u->big = malloc((size_t)u->total))) {
                    rc = MPI_ERR_NO_MEM;
                    break;
                }
                memcpy(u->big, u->buf, (size_t)got);
                for (uint64_t x = (uint64_t)got; rc == MPI_SUCCESS && x < u->total; x += V_PART) {
                    const uint64_t len = u->total - x < V_PART ? u->total - x : V_PART;
                    if (totex_mpi_more_requests(&ureq, nuq, &ucap) || !(uown = realloc(uown, ucap * sizeof *uown))) {
                        rc = MPI_ERR_NO_MEM;
                        break;
                    }
                    uown[nuq] = (size_t)(u - ups);
                    rc = MPI_Irecv(u->big + x, (int)len, MPI_BYTE, (int)u->r, RELAY_TAG_MORE + (int)u->c, dup,
                                   &ureq[nuq++]);
                    u->left++, pending++;
                }
            }
        }
        if (--u->left)
            continue;
        const size_t q0 = (size_t)(u - ups) - u->c;
        for (size_t q = q0; rc == MPI_SUCCESS && q < q0 + C && !ups[q].left; q++)
            if (!ups[q].sent)
                rc = forward(&ups[q], net, first, n, dup, &req, &nr, &cap);
    }
    if (rc == MPI_SUCCESS && !(stat = malloc((nr + 1) * sizeof *stat)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        rc = totex_mpi_wait_fold(nr, req, stat, nrecv, rhdr, rnode, rexp, h, 0, hdr_ok, local);
    } else {
        /* (an MPI failure or a malformed message: the receives cancelled, the sends waited for) */
        if (ureq)
            totex_mpi_cancel_requests(ureq, nuq);
        totex_mpi_cancel_requests(req, nrecv < nr ? nrecv : nr);
        if (nr > nrecv)
            MPI_Waitall((int)(nr - nrecv), req + nrecv, MPI_STATUSES_IGNORE);
    }
    for (size_t q = 0; ups && q < nu; q++)
        free(ups[q].big);
    free(stat);
    free(sbuf);
    free(rroom);
    free(uown);
    free(ureq);
    free(ups);
    free(req);
    free(rhdr);
    free(rexp);
    free(rnode);
    free(cnt);
    free(first);
    return rc;
}
