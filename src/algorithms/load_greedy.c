/*
 * Load-greedy: single-port total exchange on meshes (products of paths),
 * each step a greedy matching of hops weighted by the load left at both ends.
 *
 * Source:  ours (beyond the papers). The message choice is the
 *          furthest-first rule of 003 Section 3 / 001 Section 5 on shortest
 *          paths; the weighting carries path_single.c's load-aware matching
 *          (one dimension) to products: on a mesh the middle band must send
 *          far more than the average node (src/bounds/band.c), so a step
 *          should serve first the nodes with the most work left.
 * Model:   single-port (000 Section 1): in each step a node sends at most one
 *          message and receives at most one.
 * Rule:    every node u offers, for each neighbour v that brings one of its
 *          messages closer, its furthest such message (ties: the first
 *          destination in a fixed order). The offer's weight is the number of
 *          messages u holds (each must leave u at least once, one per step:
 *          the fullest queues run out last); ties go to the longer remaining
 *          distance, then to the lower node ids. Offers are taken in
 *          decreasing weight while sender and receiver are both free (a
 *          greedy maximal matching). Routing is adaptive on shortest paths.
 *          Weights tried and measured worse on 3x3, 3x4, 4x6, 8x16 and
 *          16x32: sender held + receiver's receives left (touchstone-delta
 *          10745), the same with distance or 2:1 mixes (10745), plus a static
 *          centrality (10424 .. 11318), minus the receiver's queue (11391).
 *          Ties beyond that: node ids (seed 0), or a hash of (seed, sender,
 *          receiver, step); predict runs seeds 0..K-1 (K = 256 up to 16
 *          nodes, 64 up to 64, 8 up to 256, else 1), each stopped once it
 *          cannot beat the best so far, and plan replays the best seed.
 * Steps:   measured (predict runs the schedule and counts; the best seed, its
 *          steps and, up to 2^26 hops (S_G), its recorded moves are memoised
 *          per thread, and the plan that follows replays them).
 *          Every step moves at least one message one hop closer, so it ends
 *          within S_G steps.
 * Optimal: not in general. Measured (tests/test_load_greedy.c checks that it
 *          beats A2 and greedy): 3x3 19 steps (greedy 22, A2 24, optimum 18),
 *          3x4 32 (35, 37; optimum 28), 4x6 98 (108, 110), 8x16 1316 (1468,
 *          1512), touchstone-delta 16x32 10168 (12191, 12240; band bound
 *          8338: ratio 1.219).
 *
 * Size:    n <= 1024: the step costs O(n k n/64) and the tables 16 n^2 bytes
 *          (order, stacks, links, landing positions), the recorded moves 4 bytes
 *          a hop; seed 0 sorts its offers by two counting passes (radix beyond
 *          their range). CPU times: docs/performance.md.
 *          Balanced-greedy (balanced_greedy.c) beats it on every mesh of its
 *          tests (touchstone-delta 9200); this one stays for paths and for
 *          meshes above balanced-greedy's size limit.
 *
 * Data: per node, its waiting messages in buckets by destination (a linked
 * stack over one 4-byte link per message), a bit set of the non-empty
 * buckets in the node's order of destinations (by decreasing distance), and
 * per link a static bit set of the destinations it brings closer: a link's
 * furthest message is the first common bit. Work per step O(n (k n / 64)).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/balanced_stacks.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

#define LG_NONE UINT32_MAX
#define LG_MAX_NODES 1024u

typedef struct lg_offer {
    uint64_t weight; /* messages the sender holds */
    uint32_t dist, tie, u, v, p, s; /* tie: 0, or a hash of (seed, u, v, step) for seeds > 0; s: u's slot to v */
} lg_offer;

typedef struct lg {
    uint32_t n, k, S, W;
    uint32_t m[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
    uint16_t *coord;   /* n * k */
    uint32_t *order;   /* n * n: destination at position p of node u (decreasing distance) */
    uint16_t *dist;    /* n * n: distance of the destination at position p from u (setup's scratch) */
    uint16_t *dstart;  /* n * W: the distance at position 64w of u */
    uint64_t *ddrop;   /* n * W: bit j set when position 64w + j is one hop nearer than 64w + j - 1 (j >= 1) */
    uint32_t *head;    /* n * n: by (u, position): first message id + 1, 0 empty (ids: dst * n + src) */
    uint32_t *next;    /* n * n: next message id + 1 in its stack */
    uint64_t *busy;    /* n * W: non-empty positions of u */
    uint64_t *smask;   /* n * W * S: (u * W + w) * S + s: positions 64w.. that slot s of u brings closer */
    uint32_t *nbr;     /* n * S: neighbour across slot s, LG_NONE if none */
    uint64_t *held, *toget; /* per node: messages held (not delivered), messages still to receive */
    unsigned char *sent, *got;
    lg_offer *offers;
    totex_hop *hops;
    uint32_t *landp;   /* per hop: the position of its message at the receiver, or LG_NONE (delivered) */
    uint32_t *takep;   /* per hop: the position it was taken from at the sender */
    uint64_t left;
} lg;

static void lg_free(lg *G)
{
    free(G->coord);
    free(G->order);
    free(G->dist);
    free(G->dstart);
    free(G->ddrop);
    free(G->head);
    free(G->next);
    free(G->busy);
    free(G->smask);
    free(G->nbr);
    free(G->held);
    free(G->toget);
    free(G->sent);
    free(G->got);
    free(G->offers);
    free(G->hops);
    free(G->landp);
    free(G->takep);
}

static totex_status lg_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports != TOTEX_PORTS_SINGLE)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "load-greedy is a single-port algorithm; use --ports single (multiport meshes: pipeline, a3)");
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "load-greedy is for meshes (products of paths); dimension %u is %s (use greedy, or octr on tori)",
                              i, totex_factor_name(f));
    }
    if (totex_network_nodes(net) < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "load-greedy needs at least 2 nodes");
    if (totex_network_nodes(net) > LG_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "load-greedy keeps n^2 tables and stops at %u nodes; %s has %u (use greedy or a2)",
                          LG_MAX_NODES, totex_network_spec(net), totex_network_nodes(net));
    return TOTEX_OK;
}

static uint32_t mesh_dist(const lg *G, uint32_t a, uint32_t b)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < G->k; i++) {
        uint32_t x = G->coord[(size_t)a * G->k + i], y = G->coord[(size_t)b * G->k + i];
        d += x > y ? x - y : y - x;
    }
    return d;
}

static totex_status lg_setup(lg *G, const totex_network *net, totex_error *err)
{
    memset(G, 0, sizeof *G);
    G->n = totex_network_nodes(net);
    G->k = totex_network_dims(net);
    G->S = 2 * G->k;
    G->W = (G->n + 63) / 64;
    const size_t n = G->n, nn = n * n;
    for (uint32_t i = 0; i < G->k; i++) {
        G->m[i] = totex_factor_nodes(totex_network_factor(net, i));
        G->stride[i] = totex_network_stride(net, i);
    }
    G->coord = malloc(sizeof *G->coord * n * G->k);
    G->order = malloc(sizeof *G->order * nn);
    G->dist = malloc(sizeof *G->dist * nn);
    G->dstart = malloc(sizeof *G->dstart * n * G->W);
    G->ddrop = calloc(n * G->W, sizeof *G->ddrop);
    G->head = calloc(nn, sizeof *G->head);
    G->next = malloc(sizeof *G->next * nn);
    G->busy = calloc(n * G->W, sizeof *G->busy);
    G->smask = calloc(n * G->S * G->W, sizeof *G->smask);
    G->nbr = malloc(sizeof *G->nbr * n * G->S);
    G->held = malloc(sizeof *G->held * n);
    G->toget = malloc(sizeof *G->toget * n);
    G->sent = malloc(n);
    G->got = malloc(n);
    G->offers = malloc(sizeof *G->offers * n * G->S);
    G->hops = malloc(sizeof *G->hops * n);
    G->landp = malloc(sizeof *G->landp * n);
    G->takep = malloc(sizeof *G->takep * n);
    uint32_t *cnt = calloc(n + 1, sizeof *cnt); /* counting sort of destinations by distance */
    if (!G->coord || !G->order || !G->dist || !G->dstart || !G->ddrop || !G->head || !G->next || !G->busy || !G->smask || !G->nbr ||
        !G->held || !G->toget || !G->sent || !G->got || !G->offers || !G->hops || !G->landp || !G->takep || !cnt) {
        free(cnt);
        return totex_fail(err, TOTEX_ENOMEM, "load-greedy: out of memory for %u nodes", G->n);
    }
    for (uint32_t v = 0; v < G->n; v++)
        for (uint32_t i = 0; i < G->k; i++)
            G->coord[(size_t)v * G->k + i] = (uint16_t)totex_network_coord(net, v, i);
    for (uint32_t u = 0; u < G->n; u++) {
        for (uint32_t i = 0; i < G->k; i++) {
            uint32_t c = G->coord[(size_t)u * G->k + i];
            G->nbr[(size_t)u * G->S + 2 * i] = c + 1 < G->m[i] ? u + G->stride[i] : LG_NONE;
            G->nbr[(size_t)u * G->S + 2 * i + 1] = c > 0 ? u - G->stride[i] : LG_NONE;
        }
        /* destinations by decreasing distance from u (ties: increasing id), u itself last: counting sort */
        uint32_t *o = G->order + (size_t)u * n;
        uint16_t *dd = G->dist + (size_t)u * n;
        uint32_t dmax = 0;
        memset(cnt, 0, sizeof *cnt * (n + 1));
        for (uint32_t d = 0; d < G->n; d++) {
            uint32_t x = mesh_dist(G, u, d);
            dd[d] = (uint16_t)x; /* scratch: distance by destination */
            cnt[x]++;
            if (x > dmax)
                dmax = x;
        }
        /* start of distance x in decreasing order: the counts of the larger distances */
        uint32_t at = 0;
        for (uint32_t x = dmax + 1; x-- > 0;) {
            uint32_t c = cnt[x];
            cnt[x] = at;
            at += c;
        }
        for (uint32_t d = 0; d < G->n; d++)
            o[cnt[dd[d]]++] = d;
        for (uint32_t c = 0; c < G->n; c++) {
            uint32_t d = o[c];
            for (uint32_t i = 0; i < G->k; i++) {
                uint32_t a = G->coord[(size_t)u * G->k + i], b = G->coord[(size_t)d * G->k + i];
                if (a != b) {
                    uint32_t s = 2 * i + (b < a);
                    G->smask[((size_t)u * G->W + c / 64) * G->S + s] |= UINT64_C(1) << (c % 64);
                }
            }
        }
        for (uint32_t c = 0; c < G->n; c++) {
            dd[c] = (uint16_t)mesh_dist(G, u, o[c]);
            if (c % 64 == 0)
                G->dstart[(size_t)u * G->W + c / 64] = dd[c];
            else if (dd[c] < dd[c - 1]) /* by exactly one: a connected graph has nodes at every distance up to the largest */
                G->ddrop[(size_t)u * G->W + c / 64] |= UINT64_C(1) << (c % 64);
        }
    }
    free(cnt);
    free(G->dist); /* from here on: dstart and ddrop (dist_at) */
    G->dist = NULL;
    /* every node holds its n-1 messages; position p of u holds the message for order[u][p] */
    for (uint32_t u = 0; u < G->n; u++) {
        for (uint32_t p = 0; p + 1 < G->n; p++) {
            uint32_t d = G->order[(size_t)u * n + p];
            G->head[(size_t)u * n + p] = d * G->n + u + 1;
            G->next[(size_t)d * n + u] = 0;
            G->busy[(size_t)u * G->W + p / 64] |= UINT64_C(1) << (p % 64);
        }
        G->held[u] = G->n - 1;
        G->toget[u] = G->n - 1;
    }
    G->left = (uint64_t)G->n * (G->n - 1);
    return TOTEX_OK;
}

/*
 * For every slot s of u, the first position set both in u's non-empty set and
 * in s's mask, into pos[s] (LG_NONE if none): one pass over u's words, all
 * slots at once, until every slot with a neighbour has found its position.
 */
static inline void first_commons(const lg *G, uint32_t u, uint32_t *pos)
{
    const uint64_t *a = G->busy + (size_t)u * G->W;
    uint32_t want = 0; /* slots still looking (S <= 20: every factor has >= 2 nodes and n <= 1024, so k <= 10) */
    for (uint32_t s = 0; s < G->S; s++) {
        pos[s] = LG_NONE;
        if (G->nbr[(size_t)u * G->S + s] != LG_NONE)
            want |= 1u << s;
    }
    for (uint32_t w = 0; w < G->W && want; w++) {
        const uint64_t x = a[w];
        if (!x)
            continue;
        const uint64_t *b = G->smask + ((size_t)u * G->W + w) * G->S;
        for (uint32_t left = want; left; left &= left - 1) {
            const uint32_t s = (uint32_t)__builtin_ctz(left);
            const uint64_t y = x & b[s];
            if (y) {
                pos[s] = 64 * w + (uint32_t)__builtin_ctzll(y);
                want &= ~(1u << s);
            }
        }
    }
}

/* Bits set in @p x, inline (__builtin_popcountll is a library call where the target may lack the instruction). */
static inline uint32_t bits_set(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* The distance from u of the destination at position p: the distance at the start of p's word less the drops up to p. */
static inline uint32_t dist_at(const lg *G, uint32_t u, uint32_t p)
{
    const size_t w = (size_t)u * G->W + p / 64;
    return G->dstart[w] - bits_set(G->ddrop[w] << (63 - p % 64));
}

static int offer_cmp(const void *pa, const void *pb)
{
    const lg_offer *a = pa, *b = pb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    if (a->dist != b->dist)
        return a->dist > b->dist ? -1 : 1;
    if (a->tie != b->tie)
        return a->tie < b->tie ? -1 : 1;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    return a->v < b->v ? -1 : a->v > b->v;
}

static inline uint32_t tie_hash(uint32_t seed, uint32_t u, uint32_t v, uint64_t t)
{
    if (!seed)
        return 0;
    uint64_t x = ((uint64_t)seed << 48) ^ ((uint64_t)u << 24) ^ v ^ (t * UINT64_C(0x9E3779B97F4A7C15));
    x ^= x >> 31;
    x *= UINT64_C(0xBF58476D1CE4E5B9);
    x ^= x >> 29;
    return (uint32_t)x;
}

/*
 * The order of offer_cmp() when every tie is 0 (seed 0), by an LSD radix sort
 * of 62-bit keys: (2^21-1 - weight, 2^11-1 - dist, u, rank of v among u's
 * neighbours by id, offer index); held < 2^21 and dist < 2^11 (n <= 1024),
 * u < 2^10, rank < 2^5 (S <= 20), index < 2^15. Equal to qsort with
 * offer_cmp, without its calls (the sort was most of a run's time).
 */
static void sort_offers_seed0(lg *G, size_t no, uint64_t *key, uint64_t *tmp, lg_offer *scratch)
{
    uint64_t diff = 0;
    for (size_t i = 0; i < no; i++) {
        const lg_offer *o = &G->offers[i];
        const uint32_t s = o->s;
        uint32_t rank;
        rank = s % 2 ? G->k - 1 - s / 2 : G->k + s / 2; /* v ascending: -stride_{k-1} .. -stride_0, +stride_0 .. */
        key[i] = ((((((UINT64_C(1) << 21) - 1 - o->weight) << 11 | ((1u << 11) - 1 - o->dist)) << 10 | o->u) << 5 |
                   rank) << 15) | i;
        diff |= key[i] ^ key[0];
    }
    size_t cnt[256];
    /* the fields above the index already differ between any two offers (one per (u, v)): the digits from bit 15 on
       give the same order, without two passes over the index */
    for (uint32_t shift = 15; shift < 63; shift += 8) {
        if (!((diff >> shift) & 0xFF))
            continue; /* every key has the same digit here */
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < no; i++)
            cnt[(key[i] >> shift) & 0xFF]++;
        for (size_t d = 0, at = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = at;
            at += c;
        }
        for (size_t i = 0; i < no; i++)
            tmp[cnt[(key[i] >> shift) & 0xFF]++] = key[i];
        uint64_t *sw = key;
        key = tmp;
        tmp = sw;
    }
    for (size_t i = 0; i < no; i++)
        scratch[i] = G->offers[key[i] & 0x7FFF];
    memcpy(G->offers, scratch, sizeof *scratch * no);
}

/*
 * The order of offer_cmp() when every tie is 0 (seed 0) and the offers come
 * in increasing (u, v) (lg_run makes them so): two stable counting sorts,
 * by decreasing distance (at most the diameter, < 2^11), then by decreasing
 * weight over its range in this step, @p wmin .. @p wmax (@p cnt: room for
 * @p ncnt counters). 0, the offers sorted; -1 when the range does not fit in
 * @p cnt (nothing done: use sort_offers_seed0).
 */
static int sort_offers_counting(lg *G, size_t no, uint64_t wmin, uint64_t wmax, uint32_t dmax, size_t *cnt,
                                size_t ncnt, lg_offer *scratch)
{
    if (wmax - wmin + 1 > ncnt || (size_t)dmax + 1 > ncnt)
        return -1;
    memset(cnt, 0, sizeof *cnt * (dmax + 1));
    for (size_t i = 0; i < no; i++)
        cnt[dmax - G->offers[i].dist]++;
    for (size_t d = 0, at = 0; d <= dmax; d++) {
        size_t c = cnt[d];
        cnt[d] = at;
        at += c;
    }
    for (size_t i = 0; i < no; i++)
        scratch[cnt[dmax - G->offers[i].dist]++] = G->offers[i];
    const size_t nw = (size_t)(wmax - wmin) + 1;
    memset(cnt, 0, sizeof *cnt * nw);
    for (size_t i = 0; i < no; i++)
        cnt[wmax - scratch[i].weight]++;
    for (size_t d = 0, at = 0; d < nw; d++) {
        size_t c = cnt[d];
        cnt[d] = at;
        at += c;
    }
    for (size_t i = 0; i < no; i++)
        G->offers[cnt[wmax - scratch[i].weight]++] = scratch[i];
    return 0;
}

/*
 * The step's moves: hop i from G->hops[i].from to .to takes the message at
 * position G->takep[i] of the sender (each sender once a step, so every
 * stack is popped at most once); pop them, fill in each hop's message and
 * its landing position at the receiver (landp, LG_NONE when delivered).
 * In three passes over the hops so that the loads of one pass (a stack's
 * head, a message's link, its position at the receiver: n^2 tables) are
 * in flight together, prefetched by the pass before.
 */
static void take_all(lg *G, size_t nh, const uint32_t *posof)
{
    const size_t n = G->n;
    for (size_t i = 0; i < nh; i++)
        __builtin_prefetch(&G->head[(size_t)G->hops[i].from * n + G->takep[i]]);
    for (size_t i = 0; i < nh; i++) {
        const uint32_t id = G->head[(size_t)G->hops[i].from * n + G->takep[i]] - 1, d = id / G->n;
        G->landp[i] = id; /* for the pass below */
        __builtin_prefetch(&G->next[id]);
        if (d != G->hops[i].to)
            __builtin_prefetch(&posof[(size_t)G->hops[i].to * n + d]);
    }
    for (size_t i = 0; i < nh; i++) {
        totex_hop *h = &G->hops[i];
        const uint32_t u = h->from, p = G->takep[i], id = G->landp[i];
        const size_t b = (size_t)u * n + p;
        G->head[b] = G->next[id];
        if (!G->head[b])
            G->busy[(size_t)u * G->W + p / 64] &= ~(UINT64_C(1) << (p % 64));
        G->held[u]--;
        h->src = id % G->n;
        h->dst = id / G->n;
        G->landp[i] = h->dst == h->to ? LG_NONE : posof[(size_t)h->to * n + h->dst];
        if (G->landp[i] != LG_NONE)
            __builtin_prefetch(&G->head[(size_t)h->to * n + G->landp[i]]); /* for the arrivals after the step */
    }
}

/*
 * Run with tie-break @p seed (0: node ids); stop early (steps_out =
 * UINT64_MAX) past @p limit steps. @p rec non-NULL: record each step's moves
 * u << 15 | slot << 10 | p in the order taken. @p replay non-NULL: take those
 * moves instead of choosing them (the same hops in the same order, without
 * the offers and their sort).
 */
static totex_status lg_run(const totex_network *net, totex_sink sink, uint32_t seed, uint64_t limit, bal_rec *rec,
                           const bal_rec *replay, uint64_t *steps_out, totex_error *err)
{
    lg G;
    totex_status st = lg_setup(&G, net, err);
    const size_t n = G.n;
    uint32_t *posof = st == TOTEX_OK ? malloc(sizeof *posof * n * n) : NULL; /* posof[v * n + d] */
    uint64_t t = 0;
    /* radix keys (2 x offers) and scratch offers for seed 0; NULL: qsort (fits only while S <= 20) */
    uint64_t *rk = st == TOTEX_OK && !seed && G.S <= 20 ? malloc(sizeof *rk * 2 * n * G.S) : NULL;
    lg_offer *ro = rk ? malloc(sizeof *ro * n * G.S) : NULL;
    const size_t ncnt = 4 * n + 64; /* counters of the counting sorts: weight ranges beyond it radix-sort */
    size_t *ccnt = ro ? malloc(sizeof *ccnt * ncnt) : NULL;
    if (!ccnt) {
        free(ro);
        ro = NULL;
    }
    if (!ro) {
        free(rk);
        rk = NULL;
    }
    if (st == TOTEX_OK && !posof)
        st = totex_fail(err, TOTEX_ENOMEM, "load-greedy: out of memory");
    if (st == TOTEX_OK)
        for (uint32_t v = 0; v < G.n; v++)
            for (uint32_t p = 0; p < G.n; p++)
                posof[(size_t)v * n + G.order[(size_t)v * n + p]] = p;
    size_t at = 0; /* the replay's next move */
    while (st == TOTEX_OK && G.left && t < limit) {
        size_t no = 0, nh = 0;
        if (replay) {
            if (t >= replay->steps)
                break; /* cannot happen (the run it recorded delivered every message); the simulator would say so */
            for (size_t e = 0; e < replay->cnt[t]; e++, at++, nh++) {
                const uint32_t mv = replay->mv[at], u = mv >> 15;
                G.hops[nh].from = u;
                G.hops[nh].to = G.nbr[(size_t)u * G.S + (mv >> 10 & 31)];
                G.takep[nh] = mv & 1023;
            }
            take_all(&G, nh, posof);
            goto step;
        }
        uint64_t wmin = UINT64_MAX, wmax = 0;
        uint32_t dmax = 0;
        for (uint32_t u = 0; u < G.n; u++) {
            if (!G.held[u])
                continue;
            uint32_t pos[2 * TOTEX_MAX_DIMS];
            first_commons(&G, u, pos);
            for (uint32_t r = 0; r < G.S; r++) { /* by increasing v: -stride_{k-1} .. -stride_0, +stride_0 .. */
                const uint32_t s = r < G.k ? 2 * (G.k - 1 - r) + 1 : 2 * (r - G.k);
                uint32_t v = G.nbr[(size_t)u * G.S + s], p = pos[s];
                if (p == LG_NONE)
                    continue;
                lg_offer *o = &G.offers[no++];
                o->weight = G.held[u];
                o->dist = dist_at(&G, u, p);
                wmin = o->weight < wmin ? o->weight : wmin;
                wmax = o->weight > wmax ? o->weight : wmax;
                dmax = o->dist > dmax ? o->dist : dmax;
                o->tie = tie_hash(seed, u, v, t);
                o->u = u;
                o->v = v;
                o->p = p;
                o->s = s;
            }
        }
        if (seed || !rk)
            qsort(G.offers, no, sizeof *G.offers, offer_cmp);
        else if (sort_offers_counting(&G, no, wmin, wmax, dmax, ccnt, ncnt, ro))
            sort_offers_seed0(&G, no, rk, rk + no, ro);
        if (rec && !bal_rec_reserve(rec, n)) { /* at most n hops a step */
            st = totex_fail(err, TOTEX_ENOMEM, "load-greedy: out of memory recording the schedule");
            break;
        }
        memset(G.sent, 0, n);
        memset(G.got, 0, n);
        for (size_t i = 0; i < no; i++) {
            const lg_offer *o = &G.offers[i];
            if (G.sent[o->u] || G.got[o->v])
                continue;
            G.sent[o->u] = G.got[o->v] = 1;
            G.hops[nh].from = o->u;
            G.hops[nh].to = o->v;
            G.takep[nh++] = o->p;
            if (rec)
                rec->mv[rec->len++] = o->u << 15 | o->s << 10 | o->p; /* n <= 1024, S <= 20 */
        }
        if (rec)
            rec->cnt[rec->steps++] = (uint32_t)nh;
        take_all(&G, nh, posof);
step:
        if (sink.step && (st = sink.step(sink.ctx, G.hops, nh, err)) != TOTEX_OK)
            break;
        for (size_t i = 0; i < nh; i++) {
            const totex_hop *h = &G.hops[i];
            if (G.landp[i] == LG_NONE) {
                G.toget[h->to]--;
                G.left--;
                continue;
            }
            uint32_t id = h->dst * G.n + h->src, p = G.landp[i];
            size_t b = (size_t)h->to * n + p;
            G.next[id] = G.head[b];
            G.head[b] = id + 1;
            G.busy[(size_t)h->to * G.W + p / 64] |= UINT64_C(1) << (p % 64);
            G.held[h->to]++;
        }
        t++;
    }
    free(posof);
    free(rk);
    free(ro);
    free(ccnt);
    lg_free(&G);
    if (st == TOTEX_OK)
        *steps_out = G.left ? UINT64_MAX : t;
    return st;
}

/* Tie-break seeds tried by predict: more on small networks, where a run is cheap. */
static uint32_t lg_seeds(uint32_t n)
{
    return n <= 16 ? 256 : n <= 64 ? 64 : n <= 256 ? 8 : 1;
}

/* Up to this many hops (S_G) predict records the best run's moves (4 bytes a hop) and plan replays them; above, plan
   runs the best seed again (the same schedule). */
#define LG_RECORD_HOPS (UINT64_C(1) << 26)

static void rec_kept_free(void *p)
{
    bal_rec_free(p);
    free(p);
}

/*
 * The best seed and its steps: every seed of lg_seeds(), each run stopped
 * once it cannot win; kept in the memo with the best run's moves (up to
 * LG_RECORD_HOPS hops) for plan to replay.
 */
static totex_status lg_best(const totex_network *net, totex_ports ports, totex_memo *m, totex_error *err)
{
    totex_sink none = {NULL, NULL};
    uint64_t best = UINT64_MAX, sg = 0;
    uint32_t bseed = 0;
    if (totex_memo_get(&totex_algorithm_load_greedy, net, ports, m))
        return TOTEX_OK;
    const int record = totex_network_status_sum(net, &sg, NULL) == TOTEX_OK && sg <= LG_RECORD_HOPS;
    bal_rec *kept = record ? calloc(1, sizeof *kept) : NULL;
    if (record && !kept)
        return totex_fail(err, TOTEX_ENOMEM, "load-greedy: out of memory");
    for (uint32_t seed = 0; seed < lg_seeds(totex_network_nodes(net)); seed++) {
        uint64_t steps;
        bal_rec rec = {0};
        totex_status st = lg_run(net, none, seed, best == UINT64_MAX ? UINT64_MAX : best - 1, kept ? &rec : NULL, NULL,
                                 &steps, err);
        if (st == TOTEX_OK && steps < best) {
            best = steps;
            bseed = seed;
            if (kept) {
                bal_rec_free(kept);
                *kept = rec;
            }
        } else {
            bal_rec_free(&rec);
        }
        if (st != TOTEX_OK) {
            if (kept)
                rec_kept_free(kept);
            return st;
        }
    }
    m->steps = best;
    m->aux = bseed;
    m->data = kept;
    totex_memo_put(&totex_algorithm_load_greedy, net, ports, best, bseed, kept, kept ? rec_kept_free : NULL);
    return TOTEX_OK;
}

static totex_status lg_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_memo m;
    totex_status st = lg_applies(net, ports, err);
    if (st == TOTEX_OK)
        st = lg_best(net, ports, &m, err);
    if (st == TOTEX_OK)
        *steps = m.steps;
    return st;
}

static totex_status lg_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    uint64_t steps;
    totex_memo m;
    totex_status st = lg_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "load-greedy: no sink to stream the schedule into");
    if ((st = lg_best(net, ports, &m, err)) != TOTEX_OK)
        return st;
    return lg_run(net, sink, (uint32_t)m.aux, UINT64_MAX, NULL, m.data, &steps, err);
}

const totex_algorithm totex_algorithm_load_greedy = {
    .name = "load-greedy",
    .title = "Load-aware single-port greedy on meshes (matching weighted by the sends and receives left)",
    .source = "this project (docs/bounds-and-algorithms.md); 003 Section 3, 001 Section 5 (furthest first); path_single.c's load-aware matching",
    .applies = lg_applies,
    .predict = lg_predict,
    .plan = lg_plan,
    .costly_predict = 1,
};
