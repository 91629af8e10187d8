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
 *             every block relayed goes to its relay (totex_comb_relay_first) in V_CHUNKS chunks, one
 *             message per relay and chunk carrying that chunk of each of its blocks through that relay
 *             and their lengths behind them; the relay sends each block's chunk on to its destination as
 *             soon as the chunk has come (the chunks pipeline the two legs).
 * Optimality: for uniform blocks on a torus of even rings every link carries the half-ring arc cut
 *             bound's bytes (as direct-relay); for a demand W each block takes its one route (no
 *             rerouting round a hot link), a receiver's bytes come in on the links of the last dimension
 *             its sources differ in. Start-ups: 2 on a relayed block's path.
 *
 * What a rank knows: its row and column of W. A relay learns the lengths of what it forwards from the
 * message: its chunks' bytes, then their lengths (uint32 each) in the order of their destinations; a
 * destination knows the length of every chunk it receives from its column. The relays of a source and the
 * sources of a relay are found by translation (relay_of depends on the offset d - r only): one table of n
 * first hops, planning a call is one pass over the rank's 2n counts. Memory per rank beyond the packed row
 * and column: the relayed chunks' receives, each with room for its blocks at the largest block B (the call's
 * global maximum) or the row's share, whichever is less (at most B times the blocks relayed through a node:
 * 7 B on 4x4, 15 B on 8x8, 37 B on 4x4x4), what this node sends (its relayed blocks staged), and O(n)
 * requests; freed when the call ends.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate (a blocking call's messages are all done before it returns, so the range
   of alltoallv_routed.c is free here): up to a relay, straight, and from a relay (+ the source's node) */
#define RELAY_TAG_UP 31100
#define RELAY_TAG_DIRECT 31101
#define RELAY_TAG_DOWN 31102
#define RELAY_TAGS 1500

/* chunks of a relayed block: the fastest of 1, 2, 4 and 8 on SimGrid's 4x4 with random demand
   (docs/performance.md, "Relay: direct-relay carrying real lengths") */
#define V_CHUNKS 2


/* bytes [c L / C, (c + 1) L / C) of a block of L bytes: chunk c */
static uint64_t cut(uint64_t L, uint32_t c, uint32_t C) { return L * c / C; }

int totex_mpi_v_relay_applies(const totex_network *net)
{
    if (!net || totex_network_nodes(net) + 2 > RELAY_TAGS)
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

typedef struct up { /* one relayed chunk this node receives: from source r, chunk c, for the offsets of relay offset f */
    uint32_t r, f, c, cnt;
    char *buf;
    size_t room;
    int got, sent; /* bytes that came (-1: not yet), and whether its chunks went on */
} up;

/* the chunk @p u has come (its lengths at its end, in its offsets' order): each of its blocks' chunk sent on to
   its destination (tag by source) */
static int forward(up *u, const totex_network *net, const uint32_t *first, uint32_t n, MPI_Comm dup, MPI_Request *req,
                   size_t *nr)
{
    const size_t lb = u->cnt * sizeof(uint32_t), got = (size_t)u->got;
    u->sent = 1;
    if (got < lb)
        return MPI_ERR_TRUNCATE;
    const char *lens = u->buf + got - lb, *p = u->buf;
    size_t sum = 0;
    for (uint32_t i = 0; i < u->cnt; i++) {
        uint32_t v;
        memcpy(&v, lens + i * sizeof v, sizeof v);
        sum += v;
    }
    if (sum != got - lb)
        return MPI_ERR_TRUNCATE; /* (lengths that do not add up to what came: not a message of this call) */
    int rc = MPI_SUCCESS;
    uint32_t i = 0;
    for (uint32_t o = 1; o < n && rc == MPI_SUCCESS; o++)
        if (first[o] == u->f && o != u->f) {
            uint32_t v;
            memcpy(&v, lens + (i++) * sizeof v, sizeof v);
            const uint32_t d = totex_network_shift(net, u->r, o, +1);
            rc = MPI_Isend(p, (int)v, MPI_BYTE, (int)d, RELAY_TAG_DOWN + (int)u->r, dup, &req[(*nr)++]);
            p += v;
        }
    return rc;
}

int totex_mpi_v_relay(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                      const uint64_t *roff, uint64_t bmax, uint64_t maxrow, MPI_Comm dup, int node)
{
    const uint32_t n = totex_network_nodes(net), me = (uint32_t)node, C = V_CHUNKS;
    uint32_t *first = malloc((size_t)n * sizeof *first), *cnt = calloc(n, sizeof *cnt);
    MPI_Request *req = malloc((size_t)(4 * n * C + 4) * sizeof *req), *ureq = NULL;
    up *ups = NULL;
    char *sbuf = NULL, *rroom = NULL;
    size_t nr = 0, nu = 0, nrecv = 0;
    int rc = first && cnt && req ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && totex_comb_relay_first(net, 0, first, NULL) != TOTEX_OK)
        rc = MPI_ERR_INTERN;
    /* first[o]: the relay offset of offset o (o itself: straight); cnt[f]: the offsets relayed through f */
    for (uint32_t o = 1; rc == MPI_SUCCESS && o < n; o++)
        if (first[o] != o)
            cnt[first[o]]++;
    memcpy(precv + roff[me], psend + soff[me], roff[me + 1] - roff[me]);
    /* the relayed chunks this node receives: from r = me - f, for every relay offset f */
    size_t nups = 0, room = 0;
    for (uint32_t f = 1; rc == MPI_SUCCESS && f < n; f++)
        if (cnt[f]) {
            const uint64_t a = cnt[f] * ((bmax + C - 1) / C), b = (maxrow + C - 1) / C + cnt[f];
            const uint64_t bytes = (a < b ? a : b) + cnt[f] * sizeof(uint32_t);
            if (bytes > INT_MAX)
                rc = MPI_ERR_COUNT;
            nups += C;
            room += C * (size_t)((bytes + 15) & ~(uint64_t)15);
        }
    if (rc == MPI_SUCCESS) {
        ups = calloc(nups + 1, sizeof *ups);
        ureq = malloc((nups + 1) * sizeof *ureq);
        rroom = malloc(room ? room : 1);
        if (!ups || !ureq || !rroom)
            rc = MPI_ERR_NO_MEM;
    }
    size_t at = 0;
    for (uint32_t f = 1; rc == MPI_SUCCESS && f < n; f++)
        if (cnt[f]) {
            const uint64_t a = cnt[f] * ((bmax + C - 1) / C), b = (maxrow + C - 1) / C + cnt[f];
            const uint64_t bytes = (a < b ? a : b) + cnt[f] * sizeof(uint32_t);
            const uint32_t r = totex_network_shift(net, me, f, -1);
            for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
                up *u = &ups[nu];
                *u = (up){r, f, c, cnt[f], rroom + at, (size_t)bytes, -1, 0};
                at += (size_t)((bytes + 15) & ~(uint64_t)15);
                rc = MPI_Irecv(u->buf, (int)bytes, MPI_BYTE, (int)r, RELAY_TAG_UP, dup, &ureq[nu]);
                nu++;
            }
        }
    /* what this node receives as a destination: straight, or each chunk from the relay (tag by source) */
    for (uint32_t s = 0; rc == MPI_SUCCESS && s < n; s++) {
        if (s == me)
            continue;
        const uint32_t o = totex_network_shift(net, me, s, -1), L = (uint32_t)(roff[s + 1] - roff[s]);
        if (first[o] == o) {
            rc = MPI_Irecv(precv + roff[s], (int)L, MPI_BYTE, (int)s, RELAY_TAG_DIRECT, dup, &req[nr++]);
            continue;
        }
        const uint32_t t = totex_network_shift(net, s, first[o], +1);
        for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
            const uint64_t a = cut(L, c, C), b = cut(L, c + 1, C);
            rc = MPI_Irecv(precv + roff[s] + a, (int)(b - a), MPI_BYTE, (int)t, RELAY_TAG_DOWN + (int)s, dup,
                           &req[nr++]);
        }
    }
    nrecv = nr;
    /* this node's relayed chunks first (their second leg waits for them), then its straight blocks */
    size_t sb = 0;
    for (uint32_t f = 1; f < n; f++)
        if (cnt[f])
            sb += C * (size_t)cnt[f] * sizeof(uint32_t);
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
        for (uint32_t c = 0; c < C && rc == MPI_SUCCESS; c++) {
            char *m0 = w;
            for (uint32_t o = 1; o < n; o++) /* the chunks, by offset */
                if (first[o] == f && o != f) {
                    const uint32_t d = totex_network_shift(net, me, o, +1);
                    const uint64_t L = soff[d + 1] - soff[d], a = cut(L, c, C), b = cut(L, c + 1, C);
                    memcpy(w, psend + soff[d] + a, b - a);
                    w += b - a;
                }
            for (uint32_t o = 1; o < n; o++) /* their lengths */
                if (first[o] == f && o != f) {
                    const uint32_t d = totex_network_shift(net, me, o, +1);
                    const uint64_t L = soff[d + 1] - soff[d];
                    const uint32_t len = (uint32_t)(cut(L, c + 1, C) - cut(L, c, C));
                    memcpy(w, &len, sizeof len);
                    w += sizeof len;
                }
            if ((size_t)(w - m0) > INT_MAX)
                rc = MPI_ERR_COUNT;
            else
                rc = MPI_Isend(m0, (int)(w - m0), MPI_BYTE, (int)t, RELAY_TAG_UP, dup, &req[nr++]);
        }
    }
    for (uint32_t o = 1; rc == MPI_SUCCESS && o < n; o++)
        if (first[o] == o) {
            const uint32_t d = totex_network_shift(net, me, o, +1);
            rc = MPI_Isend(psend + soff[d], (int)(soff[d + 1] - soff[d]), MPI_BYTE, (int)d, RELAY_TAG_DIRECT, dup,
                           &req[nr++]);
        }
    /* as a relay: each chunk sent on as it comes, a source's chunks in chunk order (its destinations receive
       them in that order under one tag) */
    for (size_t left = nu; rc == MPI_SUCCESS && left; left--) {
        int idx = MPI_UNDEFINED, got = 0;
        MPI_Status stat;
        if ((rc = MPI_Waitany((int)nu, ureq, &idx, &stat)) != MPI_SUCCESS)
            break;
        if (idx == MPI_UNDEFINED) {
            rc = MPI_ERR_INTERN;
            break;
        }
        MPI_Get_count(&stat, MPI_BYTE, &got);
        ups[idx].got = got;
        const size_t q0 = (size_t)idx - ups[idx].c;
        for (size_t q = q0; rc == MPI_SUCCESS && q < q0 + C && ups[q].got >= 0; q++)
            if (!ups[q].sent)
                rc = forward(&ups[q], net, first, n, dup, req, &nr);
    }
    if (rc == MPI_SUCCESS) {
        rc = MPI_Waitall((int)nr, req, MPI_STATUSES_IGNORE);
    } else {
        /* (an MPI failure or a malformed message: the receives cancelled, the sends waited for) */
        for (size_t q = 0; ureq && q < nu; q++)
            if (ureq[q] != MPI_REQUEST_NULL) {
                MPI_Cancel(&ureq[q]);
                MPI_Request_free(&ureq[q]);
            }
        for (size_t q = 0; q < nrecv && q < nr; q++)
            if (req[q] != MPI_REQUEST_NULL) {
                MPI_Cancel(&req[q]);
                MPI_Request_free(&req[q]);
            }
        if (nr > nrecv)
            MPI_Waitall((int)(nr - nrecv), req + nrecv, MPI_STATUSES_IGNORE);
    }
    free(sbuf);
    free(rroom);
    free(ureq);
    free(ups);
    free(req);
    free(cnt);
    free(first);
    return rc;
}
