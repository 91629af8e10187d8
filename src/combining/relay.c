/*
 * direct-relay -- direct total exchange whose antipodal blocks are relayed
 * once through a neighbour, so that they travel both ways round the rings.
 *
 * Reference: this project (no paper). The reasoning: with dimension-order
 * routing, a block whose offset in a ring of even size k is k/2 (antipodal)
 * has two shortest routes, and a network picks one by a fixed rule (totex's
 * route model: the + direction; SimGrid's torus: + except from coordinate
 * k/2), so direct loads the busiest link of a ring of 4 with 1.5 x, of a ring
 * of 8 with 1.25 x the multiport cut bound (000 Section 3, bound (4): status
 * x m / degree per link). Here no block relies on that rule: a block (r, d)
 * antipodal in rings I (even, k_i >= 4) first goes to the relay
 * r + sum_{i in I} s_i e_i (s_i = +1 or -1, coordinates modulo k_i), at
 * distance |I|, which sends it on to d; both legs are shorter than half of
 * every ring, so their routes are unique, and the two legs together are a
 * shortest route that crosses ring i in direction s_i. s_i is -1 when d's
 * offset in a partner factor p(i) != i of even size (the next such ring of
 * size >= 4 in cyclic order, else the next factor of even size) lies in its
 * lower half, else +1: of the blocks antipodal in ring i exactly half go
 * each way, so every ring carries the same block-hops in both directions,
 * which on a torus of even sides is the cut bound on every link.
 *
 * Model (include/totex/combining.h): two logical steps. Step 1: every node r
 * sends to each relay t one transfer of the blocks it relays through t (added
 * first, so that they leave first), and every block not relayed straight to
 * its destination, one block per transfer (the relay's own block too: a
 * message of the relayed blocks alone arrives sooner where links share their
 * bandwidth fairly among messages; docs/performance.md, "Middle sizes"). Step 2: every relay sends the relayed blocks on, one transfer per
 * destination. All-port (refused under one-port, like direct); where routes
 * share links a logical step is packed into contention-free sub-steps by the
 * greedy of src/combining/pack.h, so the measured start-ups show the
 * contention. No rearrangement.
 *
 * Steps: S1 + S2 measured sub-steps (S = 2 without contention). On a torus of
 * even sides every link carries exactly the cut bound's block-hops (direct:
 * up to 1.5 x), the relayed blocks one extra start-up later.
 *
 * Cost: S t_s + (sum over sub-steps of the largest transfer) m t_c.
 *
 * Optimal: in link load on tori whose rings all have even size >= 4 (each
 * link carries status(0) m / degree(0) bytes, bound (4) of 000 Section 3); not
 * in start-ups (two message latencies on the relayed blocks' path).
 *
 * Applies: all-port, at least one ring of even size >= 4, and for every such
 * ring another factor of even size to split its antipodal blocks in halves
 * (ring:4*ring:4, ring:8*ring:8, ring:4*ring:4*ring:4, ring:4*k2; not a
 * single ring, not ring:4*ring:3).
 */
#include "totex/combining.h"

#include <stdlib.h>

#include "combining/pack.h"
#include "common/error.h"

/** Largest n(n-1)(diameter+1) packed, as direct's limit (src/combining/direct.c). */
#define RELAY_MAX_WORK (UINT64_C(1) << 24)

/* ring i's blocks are relayed: a ring of even size >= 4 */
static int relayed_ring(const totex_network *net, uint32_t i)
{
    const totex_factor *f = totex_network_factor(net, i);
    const uint32_t k = totex_factor_nodes(f);
    return totex_factor_get_kind(f) == TOTEX_FACTOR_RING && k % 2 == 0 && k >= 4;
}

/* partner[i] of every relayed ring i (UINT32_MAX for the other factors); TOTEX_ENOTAPPLICABLE with the
   reason when there is no relayed ring, or one without a partner */
static totex_status partners(const totex_network *net, uint32_t *partner, totex_error *err)
{
    const uint32_t dims = totex_network_dims(net);
    int any = 0;
    for (uint32_t i = 0; i < dims; i++) {
        partner[i] = UINT32_MAX;
        if (!relayed_ring(net, i))
            continue;
        any = 1;
        for (uint32_t s = 1; s < dims && partner[i] == UINT32_MAX; s++)
            if (relayed_ring(net, (i + s) % dims))
                partner[i] = (i + s) % dims;
        for (uint32_t s = 1; s < dims && partner[i] == UINT32_MAX; s++)
            if (totex_factor_nodes(totex_network_factor(net, (i + s) % dims)) % 2 == 0)
                partner[i] = (i + s) % dims;
        if (partner[i] == UINT32_MAX)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "direct-relay splits the antipodal blocks of ring %u of %s in halves by another factor of even size: there is none (use direct)",
                              i, totex_network_spec(net));
    }
    if (!any)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "direct-relay relays the antipodal blocks of rings of even size >= 4: %s has none (use direct)",
                          totex_network_spec(net));
    return TOTEX_OK;
}

/* offset of b from a in factor i, modulo its size */
static uint32_t offset(const totex_network *net, uint32_t a, uint32_t b, uint32_t i)
{
    const uint32_t k = totex_factor_nodes(totex_network_factor(net, i));
    return (totex_network_coord(net, b, i) + k - totex_network_coord(net, a, i)) % k;
}

/* the node block (r, d) goes to first: its relay, or d when d is antipodal in no relayed ring */
static uint32_t relay_of(const totex_network *net, const uint32_t *partner, uint32_t r, uint32_t d)
{
    const uint32_t dims = totex_network_dims(net);
    uint32_t t = r;
    for (uint32_t i = 0; i < dims; i++) {
        const uint32_t k = totex_factor_nodes(totex_network_factor(net, i));
        if (partner[i] == UINT32_MAX || offset(net, r, d, i) != k / 2)
            continue;
        const uint32_t p = partner[i], kp = totex_factor_nodes(totex_network_factor(net, p));
        const uint32_t c = totex_network_coord(net, t, i), to = offset(net, r, d, p) < kp / 2 ? (c + k - 1) % k : (c + 1) % k;
        t = t - c * totex_network_stride(net, i) + to * totex_network_stride(net, i);
    }
    return t == r ? d : t;
}

totex_status totex_comb_relay_first(const totex_network *net, uint32_t r, uint32_t *first, totex_error *err)
{
    uint32_t partner[TOTEX_MAX_DIMS];
    if (!net || !first)
        return totex_fail(err, TOTEX_EINVAL, "direct-relay's first hops: no network or no output array given");
    const uint32_t n = totex_network_nodes(net);
    if (r >= n)
        return totex_fail(err, TOTEX_EINVAL, "direct-relay's first hops: node %u is not a node of %s (0 .. %u)", r,
                          totex_network_spec(net), n - 1);
    const totex_status st = partners(net, partner, err);
    if (st != TOTEX_OK)
        return st;
    for (uint32_t d = 0; d < n; d++)
        first[d] = d == r ? r : relay_of(net, partner, r, d);
    return TOTEX_OK;
}

typedef struct hop {
    uint32_t relay, dst, src;
} hop;

static int by_relay_dst(const void *a, const void *b)
{
    const hop *x = a, *y = b;
    if (x->relay != y->relay)
        return x->relay < y->relay ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->src < y->src ? -1 : x->src > y->src;
}

static totex_status relay_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    uint32_t partner[TOTEX_MAX_DIMS];
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    totex_status st;
    *out = NULL;
    if (cost->ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "direct-relay sends all messages of every node at once: it needs the all-port model (use pairwise under one-port)");
    if ((st = partners(net, partner, err)) != TOTEX_OK)
        return st;
    if ((uint64_t)n * (n - 1) * (totex_network_diameter(net) + 1) > RELAY_MAX_WORK)
        return totex_fail(err, TOTEX_ENOMEM,
                          "direct-relay on %s: packing its %llu transfers into contention-free sub-steps exceeds the work limit of %llu link placements: use a smaller network",
                          totex_network_spec(net), (unsigned long long)n * (n - 1), (unsigned long long)RELAY_MAX_WORK);
    uint32_t *first = malloc((size_t)n * sizeof *first);      /* first[d]: where (r, d) goes first */
    totex_block *blocks = malloc((size_t)n * sizeof *blocks); /* one transfer's blocks */
    hop *hops = malloc((size_t)n * (n - 1) * sizeof *hops);   /* the relayed blocks, step 2 */
    size_t nhops = 0;
    if (!first || !blocks || !hops) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building direct-relay on %s", totex_network_spec(net));
        goto done;
    }
    if ((st = totex_pack_begin("direct-relay", net, cost, &s, &p, err)) != TOTEX_OK)
        goto done;
    /* step 1: the relayed blocks of every node first, one transfer per relay (their blocks go on), then
       every block not relayed, one transfer each (a relay's own block too: a message of the relayed
       blocks alone arrives sooner, and so the second leg leaves sooner) */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t r = 0; r < n; r++) {
            for (uint32_t d = 0; d < n; d++)
                first[d] = d == r ? r : relay_of(net, partner, r, d);
            for (uint32_t t = 0; t < n; t++) {
                size_t c = 0;
                if (t == r || first[t] != t)
                    continue;
                if (pass == 1)
                    blocks[c++] = (totex_block){r, t};
                for (uint32_t d = 0; pass == 0 && d < n; d++)
                    if (d != t && first[d] == t) {
                        hops[nhops++] = (hop){t, d, r};
                        blocks[c++] = (totex_block){r, d};
                    }
                if (c && (st = totex_pack_add(p, r, t, blocks, c, err)) != TOTEX_OK)
                    goto done;
            }
        }
    if ((st = totex_pack_flush(p, 0, err)) != TOTEX_OK)
        goto done;
    /* step 2: every relay sends the blocks on, one transfer per destination */
    qsort(hops, nhops, sizeof *hops, by_relay_dst);
    for (size_t h = 0; h < nhops;) {
        size_t c = 0, e = h;
        while (e < nhops && hops[e].relay == hops[h].relay && hops[e].dst == hops[h].dst)
            blocks[c++] = (totex_block){hops[e++].src, hops[h].dst};
        if ((st = totex_pack_add(p, hops[h].relay, hops[h].dst, blocks, c, err)) != TOTEX_OK)
            goto done;
        h = e;
    }
    st = totex_pack_flush(p, 0, err);
done:
    free(first);
    free(blocks);
    free(hops);
    if (!p && st != TOTEX_OK) {
        totex_comb_schedule_free(s);
        return st;
    }
    return totex_pack_end(st, p, s, out);
}

const totex_comb_algorithm totex_comb_relay = {
    .name = "direct-relay",
    .title = "direct, the antipodal blocks of even rings relayed once through a neighbour, half each way",
    .source = "this project (src/combining/relay.c: the cut bound of 000 Section 3 on every link of a torus of even sides)",
    .cost = "S t_s + (sum over sub-steps of the largest transfer) m t_c, S measured sub-steps of 2 logical steps",
    .build = relay_build,
};
