/* direct-relay (src/combining/relay.c), without MPI:
 * - its schedule passes the combining simulator (every block delivered, no contention within a
 *   sub-step) on tori of even sides, mixed products and a path partner; it is refused (not applicable,
 *   with the reason) on a single ring, on odd rings, where a ring of 4 has no factor of even size to
 *   split its antipodal blocks, and under one-port;
 * - link loads: every directed link's block-hops, routed here by this test's own dimension-order
 *   routes (ties in the + direction; the relayed legs never tie), on ring:4*ring:4, ring:8*ring:8 and
 *   ring:4*ring:4*ring:4 are exactly the cut bound status(0) / degree(0) (000 Section 3, bound (4)),
 *   where direct's busiest link carries 1.5 x (4x4) and 1.25 x (8x8) of it;
 * - every rank's program (as the runtime builds it, in its form: from 2 KiB blocks the relayed blocks in
 *   chunks, the own ones whole): what each rank sends to each other equals what that one receives from
 *   it, message by message in order, the bytes sent are the schedule's transfers' blocks, and each rank's
 *   finals are the n - 1 blocks destined to it, once each;
 * - the choice model offers it on ring:4*ring:4 at 8 KiB under flat link costs, before direct, and not
 *   on ring:5*ring:5;
 * - totex_comb_relay_first (the first hops totex_alltoallv's "relay" uses): each block's first hop is
 *   where the schedule's step 1 carries it; it depends on the offset d - r only (the runtime finds a
 *   relay's sources by translation); a relay is on a shortest route, each leg shorter than half of every
 *   ring; refused where direct-relay does not apply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

#define FAIL(...) PROG_FAIL("FAIL " __VA_ARGS__)

/* step of a dimension-order route in factor i (a ring the short way, ties +; else towards b) */
static uint32_t step_toward(uint32_t k, int ring, uint32_t a, uint32_t b)
{
    if (!ring)
        return a < b ? a + 1 : a - 1;
    const uint32_t fwd = (b + k - a) % k;
    return fwd <= k - fwd ? (a + 1) % k : (a + k - 1) % k;
}

/* add @p blocks to every directed link of the route from -> to; load[(u * n + v)] */
static void route_load(const totex_network *net, uint32_t from, uint32_t to, size_t blocks, uint64_t *load)
{
    const uint32_t n = totex_network_nodes(net);
    uint32_t u = from;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t k = totex_factor_nodes(f), st = totex_network_stride(net, i);
        while (totex_network_coord(net, u, i) != totex_network_coord(net, to, i)) {
            const uint32_t c = totex_network_coord(net, u, i),
                           nc = step_toward(k, totex_factor_get_kind(f) == TOTEX_FACTOR_RING, c,
                                            totex_network_coord(net, to, i));
            const uint32_t v = u - c * st + nc * st;
            load[(size_t)u * n + v] += blocks;
            u = v;
        }
    }
}

/* busiest and least busy links of @p alg's schedule on @p net, in block-hops */
static int loads(const totex_network *net, const char *alg, uint64_t *most, uint64_t *least)
{
    totex_error err;
    const totex_comb_algorithm *a = totex_comb_algorithm_find(alg, &err);
    const totex_comb_cost cost = prog_test_plan_cost(1024);
    totex_comb_schedule *s = NULL;
    if (!a || a->build(net, &cost, &s, &err) != TOTEX_OK) {
        FAIL("%s on %s: %s\n", alg, totex_network_spec(net), err.msg);
        return -1;
    }
    const uint32_t n = totex_network_nodes(net);
    uint64_t *load = calloc((size_t)n * n, sizeof *load);
    for (uint64_t st = 0; st < totex_comb_steps(s); st++)
        for (size_t t = 0; t < totex_comb_step_transfers(s, st); t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            route_load(net, tr.from, tr.to, tr.count, load);
        }
    *most = 0;
    *least = UINT64_MAX;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (totex_network_adjacent(net, u, v)) {
                if (load[(size_t)u * n + v] > *most)
                    *most = load[(size_t)u * n + v];
                if (load[(size_t)u * n + v] < *least)
                    *least = load[(size_t)u * n + v];
            }
    free(load);
    totex_comb_schedule_free(s);
    return 0;
}

static void simulated(const char *spec, int expect)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const totex_comb_algorithm *a = totex_comb_algorithm_find("direct-relay", &err);
    if (!net || !a) {
        FAIL("%s: %s\n", spec, err.msg);
        totex_network_free(net);
        return;
    }
    for (int ports = 0; ports < 2; ports++) {
        totex_comb_cost cost = prog_test_plan_cost(1024);
        cost.ports = ports ? TOTEX_PORTS_MULTI : TOTEX_PORTS_SINGLE;
        totex_comb_schedule *s = NULL;
        totex_comb_report rep;
        totex_status st = a->build(net, &cost, &s, &err);
        if (!ports || !expect) {
            if (st != TOTEX_ENOTAPPLICABLE || !strstr(err.msg, "direct-relay"))
                FAIL("direct-relay on %s %s: status %d (%s), not refused as not applicable\n", spec,
                     ports ? "all-port" : "one-port", (int)st, err.msg);
        } else if (st != TOTEX_OK || totex_comb_simulate(net, s, &cost, &rep, NULL, &err) != TOTEX_OK) {
            FAIL("direct-relay on %s: %s\n", spec, err.msg);
        } else if (rep.blocks_delivered != (uint64_t)totex_network_nodes(net) * (totex_network_nodes(net) - 1)) {
            FAIL("direct-relay on %s: %llu blocks delivered\n", spec, (unsigned long long)rep.blocks_delivered);
        }
        totex_comb_schedule_free(s);
    }
    totex_network_free(net);
}

static void balanced(const char *spec, double direct_ratio)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const uint64_t bound = totex_network_status(net, 0) / totex_network_degree(net, 0);
    uint64_t most, least, dmost, dleast;
    if (loads(net, "direct-relay", &most, &least) == 0 && (most != bound || least != bound))
        FAIL("direct-relay on %s: links carry %llu .. %llu block-hops, the cut bound is %llu on every link\n", spec,
             (unsigned long long)least, (unsigned long long)most, (unsigned long long)bound);
    if (loads(net, "direct", &dmost, &dleast) == 0 && (double)dmost != direct_ratio * (double)bound)
        FAIL("direct on %s: busiest link %llu block-hops, not %.2f x the cut bound %llu (the test's routes?)\n", spec,
             (unsigned long long)dmost, direct_ratio, (unsigned long long)bound);
    totex_network_free(net);
}

/* 1 when q - r is antipodal in a ring of even size >= 4 of @p net (a block direct-relay relays), computed
   from the coordinates here */
static int antipodal(const totex_network *net, uint32_t r, uint32_t q)
{
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t k = totex_factor_nodes(f);
        if (totex_factor_get_kind(f) == TOTEX_FACTOR_RING && k >= 4 && k % 2 == 0 &&
            (totex_network_coord(net, q, i) + k - totex_network_coord(net, r, i)) % k == k / 2)
            return 1;
    }
    return 0;
}

/* @p own > 1: the form with the sender's own blocks in @p own messages per transfer (the split form's, choice.c),
   the relayed ones still in their chunks */
static void programs(const char *spec, long long slot, int own)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const uint32_t n = totex_network_nodes(net);
    size_t idx = 0;
    const totex_comb_algorithm *a = totex_comb_algorithm_find("direct-relay", &err);
    while (a && totex_comb_algorithm_get(idx) != a)
        idx++;
    const totex_comb_cost cost = prog_test_plan_cost(slot);
    totex_prog_cand c = {0, (int)idx, 0, 1, 0, 0, 0, 0, 0};
    totex_prog_comb_form(slot, &c);
    if ((slot >= 2 * TOTEX_PROG_MIN_CHUNK) != (c.chunks > 1 && c.stagger))
        FAIL("direct-relay at %lld B: %d chunks, stagger %d: not its relayed-in-chunks form exactly from 2 KiB\n", slot,
             c.chunks, c.stagger);
    if (own > 1 && c.chunks % own == 0)
        c.stagger = own;
    else if (own > 1)
        FAIL("direct-relay at %lld B: %d chunks, not a multiple of %d (test too weak)\n", slot, c.chunks, own);
    /* the bytes the schedule moves: every transfer's blocks, whole */
    double want = 0, sent = 0;
    {
        totex_comb_schedule *s = NULL;
        if (a && a->build(net, &cost, &s, &err) == TOTEX_OK)
            for (uint64_t st = 0; st < totex_comb_steps(s); st++)
                for (size_t t = 0; t < totex_comb_step_transfers(s, st); t++) {
                    totex_transfer tr;
                    totex_comb_get_transfer(s, st, t, &tr);
                    want += (double)tr.count * (double)slot;
                }
        totex_comb_schedule_free(s);
    }
    size_t whole = 0, chunked = 0, own_pairs = 0, direct_pairs = 0;
    totex_prog **p = calloc(n, sizeof *p);
    int built = 1;
    for (uint32_t r = 0; r < n; r++) {
        char why[300] = "";
        if (prog_test_build(net, &cost, &c, n, r, slot, &p[r], why, sizeof why)) {
            FAIL("direct-relay on %s rank %u: %s\n", spec, r, why);
            built = 0;
        }
    }
    for (uint32_t r = 0; built && r < n; r++) {
        /* the messages r -> q in order equal q's receives from r in order */
        for (uint32_t q = 0; q < n; q++) {
            size_t i = 0, j = 0, wn = 0;
            long long wb = 0; /* the messages of r's own block for q (receives marked whole): count, bytes */
            direct_pairs += q != r && !antipodal(net, r, q);
            for (;;) {
                while (i < p[r]->nsend && (p[r]->sends[i].peer != (int)q || p[r]->sends[i].kick))
                    i++;
                while (j < p[q]->nrecv && (p[q]->recvs[j].peer != (int)r || p[q]->recvs[j].kick))
                    j++;
                if (i == p[r]->nsend || j == p[q]->nrecv) {
                    if (i != p[r]->nsend || j != p[q]->nrecv)
                        FAIL("%s: rank %u sends to %u %s messages than it receives\n", spec, r, q,
                             i != p[r]->nsend ? "more" : "fewer");
                    break;
                }
                if (p[r]->sends[i].bytes != p[q]->recvs[j].bytes)
                    FAIL("%s: rank %u's message to %u of %d B received as %d B\n", spec, r, q, p[r]->sends[i].bytes,
                         p[q]->recvs[j].bytes);
                sent += p[r]->sends[i].bytes;
                if (p[q]->recvs[j].whole) {
                    whole++;
                    wn++;
                    wb += p[q]->recvs[j].bytes;
                    /* message m of W spans bytes [slot m / W, slot (m + 1) / W) of the block */
                    const long long lo = slot * (long long)(wn - 1) / (own > 1 ? own : 1),
                                    hi = slot * (long long)wn / (own > 1 ? own : 1);
                    if (p[q]->recvs[j].bytes != hi - lo || p[q]->recvs[j].fin_count != 1)
                        FAIL("%s, %lld B: own message %zu of rank %u to %u: %d B and %u finals, not %lld B and 1\n",
                             spec, slot, wn, r, q, p[q]->recvs[j].bytes, p[q]->recvs[j].fin_count, hi - lo);
                }
                else if (c.chunks > 1)
                    chunked++;
                i++;
                j++;
            }
            if (wn) {
                own_pairs++;
                if (wn != (size_t)(own > 1 ? own : 1) || wb != slot || antipodal(net, r, q))
                    FAIL("%s, %lld B: rank %u's own block for %u in %zu messages of %lld B in all (antipodal %d), not "
                         "%d of %lld\n", spec, slot, r, q, wn, wb, antipodal(net, r, q), own > 1 ? own : 1, slot);
            }
        }
        /* the finals: every block (src, r), src != r, once */
        unsigned char *seen = calloc(n, 1);
        for (size_t i = 0; i < p[r]->nrecv; i++) /* a transfer's chunks share its finals: counted at chunk 0 */
            for (uint32_t f = 0; p[r]->recvs[i].chunk == 0 && f < p[r]->recvs[i].fin_count; f++) {
                const uint32_t src = p[r]->finals[p[r]->recvs[i].fin_first + f].src;
                if (src >= n || src == r || seen[src]++)
                    FAIL("%s rank %u: final block from %u (twice, its own or out of range)\n", spec, r, src);
            }
        for (uint32_t s = 0; s < n; s++)
            if (s != r && !seen[s])
                FAIL("%s rank %u: no receive brings the block from %u\n", spec, r, s);
        free(seen);
    }
    if (built && sent != want)
        FAIL("%s, %lld B: the programs send %.0f bytes, the schedule's transfers %.0f\n", spec, slot, sent, want);
    if (built && c.chunks > 1 && own_pairs != direct_pairs)
        FAIL("%s, %lld B: %zu pairs send their own block in own messages, %zu pairs are not antipodal\n", spec, slot,
             own_pairs, direct_pairs);
    if (built && c.chunks > 1 && (!whole || !chunked))
        FAIL("%s, %lld B: %zu whole and %zu chunked messages: not both (own blocks whole, relayed in chunks)\n", spec,
             slot, whole, chunked);
    for (uint32_t r = 0; r < n; r++)
        totex_prog_free(p[r]);
    free(p);
    totex_network_free(net);
}

static void offered(const char *spec, int expect)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    totex_comb_cost cost = prog_test_plan_cost(8192);
    cost.t_s = 1.5e-6; /* flat factors on the bench's torus: 1 us links of 10 GB/s */
    cost.t_c = 1e-10;
    const totex_prog_linkcost lc = {cost.t_s, cost.t_c, 1e-10, 1e-10, 1e-10, 0, 0, 0, 0, 0, 0, 0, 0};
    totex_prog_cand c[16];
    char why[600] = "";
    size_t k = totex_prog_rank_candidates(net, &cost, &lc, c, 12, why, sizeof why);
    long at = -1, direct = -1;
    for (size_t i = 0; i < k; i++) {
        const char *name = c[i].unit ? "" : totex_comb_algorithm_get((size_t)c[i].idx)->name;
        if (!strcmp(name, "direct-relay") && at < 0)
            at = (long)i;
        if (!strcmp(name, "direct") && direct < 0)
            direct = (long)i;
    }
    if (expect && (at < 0 || (direct >= 0 && direct < at)))
        FAIL("%s, 8 KiB: direct-relay %s (at %ld, direct at %ld of %zu)\n", spec, at < 0 ? "not offered" : "after direct",
             at, direct, k);
    if (!expect && at >= 0)
        FAIL("%s: direct-relay offered where it does not apply\n", spec);
    totex_network_free(net);
}

/* ring distance of coordinates a, b on a ring of k (a path's for a path) */
static uint32_t dist1(uint32_t k, int ring, uint32_t a, uint32_t b)
{
    const uint32_t f = (b + k - a) % k;
    return !ring ? (a > b ? a - b : b - a) : f < k - f ? f : k - f;
}


static void first_hops(const char *spec, int expect)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        FAIL("%s: %s\n", spec, err.msg);
        return;
    }
    const uint32_t n = totex_network_nodes(net), dims = totex_network_dims(net);
    uint32_t *first = malloc((size_t)n * sizeof *first), *first0 = malloc((size_t)n * sizeof *first0);
    const totex_status st = totex_comb_relay_first(net, 0, first0, &err);
    /* out-of-range input: refused, not read or written past the network */
    if (totex_comb_relay_first(net, n, first, &err) != TOTEX_EINVAL)
        FAIL("%s: relay_first of node %u (not a node) not refused\n", spec, n);
    if (totex_network_shift(net, n, 0, 1) != UINT32_MAX || totex_network_shift(net, 0, n, -1) != UINT32_MAX)
        FAIL("%s: totex_network_shift of a node >= n did not give UINT32_MAX\n", spec);
    if (!expect) {
        if (st != TOTEX_ENOTAPPLICABLE)
            FAIL("%s: relay_first gave %d where direct-relay does not apply\n", spec, (int)st);
        goto done;
    }
    if (st != TOTEX_OK) {
        FAIL("%s: relay_first refused: %s\n", spec, err.msg);
        goto done;
    }
    /* the schedule's step 1: block (r, d) in a transfer r -> t: t is its first hop */
    const totex_comb_algorithm *a = totex_comb_algorithm_find("direct-relay", &err);
    const totex_comb_cost cost = prog_test_plan_cost(1024);
    totex_comb_schedule *s = NULL;
    uint32_t *hop = malloc((size_t)n * n * sizeof *hop);
    if (!a || a->build(net, &cost, &s, &err) != TOTEX_OK) {
        FAIL("%s: direct-relay not built\n", spec);
        free(hop);
        goto done;
    }
    for (size_t q = 0; q < (size_t)n * n; q++)
        hop[q] = UINT32_MAX;
    /* step 1 is packed into sub-steps: every block's first transfer leaves from its source */
    for (uint64_t k = 0; k < totex_comb_steps(s); k++)
        for (size_t x = 0; x < totex_comb_step_transfers(s, k); x++) {
            totex_transfer t;
            totex_comb_get_transfer(s, k, x, &t);
            for (size_t b = 0; b < t.count; b++)
                if (t.blocks[b].src == t.from && hop[(size_t)t.from * n + t.blocks[b].dst] == UINT32_MAX)
                    hop[(size_t)t.from * n + t.blocks[b].dst] = t.to;
        }
    for (uint32_t r = 0; r < n; r++) {
        if (totex_comb_relay_first(net, r, first, &err) != TOTEX_OK) {
            FAIL("%s: relay_first refused for node %u\n", spec, r);
            break;
        }
        for (uint32_t d = 0; d < n; d++) {
            const uint32_t t = first[d];
            if (d == r) {
                if (t != r)
                    FAIL("%s: first[%u] of node %u is %u, not itself\n", spec, d, r, t);
                continue;
            }
            if (t != hop[(size_t)r * n + d])
                FAIL("%s: block (%u, %u) first to %u, the schedule's step 1 to %u\n", spec, r, d, t,
                     hop[(size_t)r * n + d]);
            if (totex_network_shift(net, t, r, -1) != first0[totex_network_shift(net, d, r, -1)])
                FAIL("%s: block (%u, %u): first hop %u is not node 0's of offset %u translated\n", spec, r, d, t,
                     totex_network_shift(net, d, r, -1));
            uint32_t drt = 0, dtd = 0, drd = 0;
            for (uint32_t i = 0; i < dims; i++) {
                const totex_factor *f = totex_network_factor(net, i);
                const uint32_t k = totex_factor_nodes(f);
                const int ring = totex_factor_get_kind(f) == TOTEX_FACTOR_RING;
                const uint32_t a1 = dist1(k, ring, totex_network_coord(net, r, i), totex_network_coord(net, t, i)),
                               a2 = dist1(k, ring, totex_network_coord(net, t, i), totex_network_coord(net, d, i));
                if (ring && k > 2 && t != d && (2 * a1 >= k || 2 * a2 >= k))
                    FAIL("%s: block (%u, %u) via %u: a leg of half ring %u or more (its route not unique)\n", spec, r,
                         d, t, i);
                drt += a1;
                dtd += a2;
                drd += dist1(k, ring, totex_network_coord(net, r, i), totex_network_coord(net, d, i));
            }
            if (t != d && drt + dtd != drd)
                FAIL("%s: block (%u, %u) via %u: %u + %u hops, not a shortest route (%u)\n", spec, r, d, t, drt, dtd,
                     drd);
        }
    }
    totex_comb_schedule_free(s);
    free(hop);
done:
    free(first);
    free(first0);
    totex_network_free(net);
}

int main(void)
{
    first_hops("ring:4*ring:4", 1);
    first_hops("ring:8*ring:8", 1);
    first_hops("ring:4*ring:4*ring:4", 1);
    first_hops("ring:4*k2", 1);
    first_hops("ring:6*ring:4", 1);
    first_hops("ring:5*ring:5", 0);
    first_hops("ring:4*ring:3", 0);
    simulated("ring:4*ring:4", 1);
    simulated("ring:8*ring:8", 1);
    simulated("ring:4*ring:4*ring:4", 1);
    simulated("ring:4*k2", 1);
    simulated("ring:6*ring:4", 1);
    simulated("path:4*ring:4", 1);
    simulated("ring:4*ring:4*ring:4*ring:4", 1);
    simulated("ring:8", 0);
    simulated("ring:5*ring:5", 0);
    simulated("ring:4*ring:3", 0);
    simulated("mesh:4x4", 0);
    balanced("ring:4*ring:4", 1.5);
    balanced("ring:8*ring:8", 1.25);
    balanced("ring:4*ring:4*ring:4", 1.5);
    programs("ring:4*ring:4", 8192, 0);
    programs("ring:4*k2", 1000, 0);
    programs("ring:4*k2", 4099, 0);
    programs("ring:4*ring:4*ring:4", 16384, 0);
    programs("ring:4*ring:4", 16384, 2);
    programs("ring:4*k2", 4099, 2);
    programs("ring:4*ring:4*ring:4", 16384, 2);
    programs("ring:8*ring:8", 32768, 4);
    offered("ring:4*ring:4", 1);
    offered("ring:5*ring:5", 0);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("program_relay: ok\n");
    return failures != 0;
}
