/*
 * Balanced-greedy: single-port total exchange on meshes (products of paths)
 * over fixed shortest routes chosen to balance the node loads, each step a
 * matching of sends that serves the nodes with the most work left first.
 *
 * Source:  ours (beyond the papers). On a mesh the middle nodes
 *          must send and receive far more than the average (the band and
 *          forwarding bounds, src/bounds/band.c, forwarding.c): any schedule
 *          takes at least as many steps as its busiest node's sends, so the
 *          routes should spread that load, and the schedule should keep the
 *          busiest nodes sending. Load-greedy (load_greedy.c) routes
 *          adaptively and keeps them busy, but its routes leave some middle
 *          nodes 20% above the bound (measured on mesh:8x16: node (4,10)
 *          sends in 1304 of its 1316 steps; the forwarding bound is 1079).
 *          Routes: shortest (monotone) paths, each message in turn on the path
 *          of least marginal cost under the loads so far (dynamic programming
 *          over the box between source and destination), a hop u -> x
 *          costing (2 sends(u) + 1) + (2 receives(x) + 1), i.e. the growth of
 *          the sum of squared loads. Two routings, each tried
 *          with every seed, the schedule with fewer steps kept: by source
 *          (up to BG_BOTH_NODES = 128 nodes; messages by source, then
 *          BG_ROUNDS = 3 passes of rip-up and reroute, each message removed
 *          and routed again) and mixed (always; the messages in a scattered
 *          order, each with its images under the mesh's reflections, then
 *          BG_MIXED_ROUNDS = 1 pass of rip-up and reroute: route_mixed()).
 *          Measured on touchstone-delta (busiest node's sends on the routes,
 *          which the schedule met within 0.2%): by source 11062 after the
 *          first routing, then 9560, 9232, 9200 (5 passes 9106, 10 9007);
 *          mixed 8960 after the first, 8942 after one pass (the forwarding
 *          bound over shortest routes only is >= 8930, docs/product-sweep.md).
 *          Messages furthest first (003 Section 3, 001 Section 5).
 * Model:   single-port (000 Section 1): in each step a node sends at most one
 *          message and receives at most one.
 * Rule:    every node u offers, for each neighbour x, its message with the
 *          most hops left among those whose route goes next to x. Senders are
 *          taken in decreasing order of the sends they have left (on the
 *          fixed routes, known exactly), each by an augmenting path over the
 *          offers (Kuhn's method), so that the set served is the best in that
 *          order that any matching of the step can serve (the greedy on the
 *          transversal matroid). Ties: node ids (seed 0) or a hash of (seed,
 *          node, step); predict runs seeds 0..K-1 (K = 64 up to 16 nodes, 16
 *          up to 64, 4 up to 256, else 1), each stopped once it cannot win.
 * Steps:   measured (predict runs the schedule and counts; the routes and
 *          the best seed's moves are kept per thread, and plan replays them).
 *          Every step moves at least one message one hop along its route, so
 *          it ends within S_G steps.
 * Optimal: not in general. Measured (tests/test_balanced_greedy.c, every
 *          schedule replayed by the simulator): 3x3 18 and 3x4 28 (= the
 *          forwarding bound, so optimal), 2x5 25 (optimal), 4x6 83 (bound
 *          82), 6x6 149 (147), 8x16 1114 (1079), 4x4x4 241 (240), 16x16
 *          2902 (2817), touchstone-delta 8954 (8611: 1.040; by source alone
 *          9200, load-greedy 10168, A2 12240).
 * Size:    n <= 1024 nodes and S_G x 2k <= 2^26 (touchstone-delta: 4.2M hops
 *          x 4; mesh:3x3x3x3x3x3 2.8M x 12; their times in docs/performance.md,
 *          "balanced-greedy's mixed routing"; refused: mesh:32x32, 22M x 4, 23 s in auto, and the 10-cube
 *          as mesh:2x..x2, 5.2M x 20, 9.4 s); routes 1 byte per hop (S_G bytes), tables ~10 n^2
 *          bytes, stacks n 2k (diameter + 1) 4 bytes; the mixed routing's
 *          reflections 2^min(k,6) n 4 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/balanced_stacks.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

#define BG_NONE BAL_NONE
#define BG_MAX_NODES 1024u
/* S_G x 2k: the routes grow with S_G, the run with steps x n x 2k ~ S_G x 2k (touchstone-delta: 4.2M x 4) */
#define BG_MAX_WORK (UINT64_C(1) << 26)
#define BG_ROUNDS 3 /* by-source routing: rip-up and reroute passes after the first routing */
#define BG_MIXED_ROUNDS 1 /* mixed routing: rip-up and reroute passes after the first */
#define BG_MIRROR_DIMS 6 /* mixed routing: the reflections of the first 6 dimensions, at most 64 images a message */
#define BG_BOTH_NODES 128u /* up to 128 nodes bg_best tries both routings, above only the mixed one */

/* The routings (bg_setup's @p routing): by source (the first) and mixed. */
enum { BG_BY_SOURCE, BG_MIXED, BG_ROUTINGS };

typedef struct bg {
    uint32_t n, k, S, H; /* slots 2k; H = diameter */
    uint32_t m[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
    int64_t delta[2 * TOTEX_MAX_DIMS]; /* per slot: the node id's change along it (+stride, -stride) */
    uint16_t *coord;  /* n * k */
    uint32_t *nbr;    /* n * S: slot 2i: +1 in dimension i, 2i+1: -1; BG_NONE at the border */
    uint32_t *roff;   /* n * n + 1: offset of message id's route in route[] (id = dst * n + src) */
    unsigned char *route; /* S_G slots */
    uint64_t *ls, *lr; /* per node: sends and receives on the routes (ls: left to make, while scheduling) */
    bal_stacks B;     /* the messages, in stacks per (node, slot, hops left) (balanced_stacks.h) */
    /* a step's matching: u's offers by preference, receivers orecv[u * S + j] over slots oslot[u * S + j] */
    uint32_t *mv; /* a step's moves, u * S + slot */
    /* a step's matching: own[x] the sender of receiver x (BG_NONE: free; own[n] = 0, the padding's receiver, never
       free); sendj[u] the index of u's offer taken; mark[x] >= stamp: x visited in this search or dead (mark[n]:
       always) */
    uint32_t *ocount, *orecv, *sendj, *own, *trail, ntrail, *su, *sm, *sj; /* su, sm, sj: augment's stack */
    uint64_t *mark, stamp, ceiling;
    unsigned char *oslot;
    uint64_t *key;
    totex_hop *out;
    int borrowed; /* route and roff belong to the memo (routes computed once per network) */
} bg;

/* The moves of a schedule, for replay: per step its count, per hop u * S + slot (the message is the top of that stack). */
typedef bal_rec bg_rec;
#define rec_free bal_rec_free

static void bg_free(bg *G)
{
    free(G->coord);
    free(G->nbr);
    bal_routes_free(G->route, G->roff, G->borrowed);
    bal_stacks_free(&G->B);
    free(G->ls);
    free(G->lr);
    free(G->ocount);
    free(G->orecv);
    free(G->oslot);
    free(G->sendj);
    free(G->own);
    free(G->mark);
    free(G->trail);
    free(G->su);
    free(G->sm);
    free(G->sj);
    free(G->mv);
    free(G->key);
    free(G->out);
}

static totex_status bg_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports != TOTEX_PORTS_SINGLE)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-greedy is a single-port algorithm; use --ports single (multiport meshes: pipeline, a3)");
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "balanced-greedy is for meshes (products of paths); dimension %u is %s (use greedy, or octr on tori)",
                              i, totex_factor_name(f));
    }
    if (totex_network_dims(net) < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-greedy balances routes over at least 2 dimensions; a linear array has one route per message (use dimension)");
    if (totex_network_nodes(net) > BG_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-greedy keeps n^2 tables and stops at %u nodes; %s has %u (use greedy or a2)",
                          BG_MAX_NODES, totex_network_spec(net), totex_network_nodes(net));
    uint64_t sg = 0;
    const uint64_t slots = 2 * (uint64_t)totex_network_dims(net);
    if (totex_network_status_sum(net, &sg, NULL) != TOTEX_OK || sg > BG_MAX_WORK / slots)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-greedy stops at %llu hops x links per node (S_G x 2k, its work); %s has %llu x %llu "
                          "(use load-greedy, greedy or a2)",
                          (unsigned long long)BG_MAX_WORK, totex_network_spec(net), (unsigned long long)sg,
                          (unsigned long long)slots);
    return TOTEX_OK;
}

/* Add (@p sign = +1) or remove (-1) the loads of message id's route from @p s (a route stays inside the mesh, so each
   hop moves by its slot's stride: no lookup of the neighbour). */
static void route_load(bg *G, uint32_t id, uint32_t s, int sign)
{
    uint32_t u = s;
    for (uint32_t j = G->roff[id]; j < G->roff[id + 1]; j++) {
        const uint32_t x = (uint32_t)((int64_t)u + G->delta[G->route[j]]);
        G->ls[u] += (uint64_t)(int64_t)sign;
        G->lr[x] += (uint64_t)(int64_t)sign;
        u = x;
    }
}

/*
 * The monotone path from s to d of least marginal cost under the current
 * loads, by dynamic programming over the box between them; writes its slots.
 * @p cost, @p boxnode, @p pred: scratch of n entries.
 */
static void route_one(bg *G, uint32_t s, uint32_t d, uint64_t *cost, uint32_t *boxnode, unsigned char *pred,
                      unsigned char *slots)
{
    uint32_t len[TOTEX_MAX_DIMS], o[TOTEX_MAX_DIMS], B[TOTEX_MAX_DIMS];
    int32_t step[TOTEX_MAX_DIMS];
    uint32_t box = 1, node = s;
    for (uint32_t i = 0; i < G->k; i++) {
        uint32_t a = G->coord[(size_t)s * G->k + i], b = G->coord[(size_t)d * G->k + i];
        len[i] = a > b ? a - b : b - a;
        step[i] = a > b ? -(int32_t)G->stride[i] : (int32_t)G->stride[i];
        B[i] = box;
        box *= len[i] + 1;
        o[i] = 0;
    }
    for (uint32_t b = 0; b < box; b++) {
        boxnode[b] = node;
        if (b == 0) {
            cost[0] = 0;
        } else {
            uint64_t best = UINT64_MAX;
            unsigned char arg = 0;
            for (uint32_t i = 0; i < G->k; i++) {
                if (!o[i])
                    continue;
                uint32_t u = boxnode[b - B[i]];
                uint64_t c = cost[b - B[i]] + 2 * G->ls[u] + 1 + 2 * G->lr[node] + 1;
                if (c < best) {
                    best = c;
                    arg = (unsigned char)i;
                }
            }
            cost[b] = best;
            pred[b] = arg;
        }
        /* odometer */
        for (uint32_t i = 0; i < G->k; i++) {
            if (o[i] < len[i]) {
                o[i]++;
                node = (uint32_t)((int64_t)node + step[i]);
                break;
            }
            node = (uint32_t)((int64_t)node - (int64_t)step[i] * len[i]);
            o[i] = 0;
        }
    }
    /* backtrack from the far corner */
    uint32_t b = box - 1, h = 0;
    for (uint32_t i = 0; i < G->k; i++)
        h += len[i];
    while (b) {
        uint32_t i = pred[b];
        slots[--h] = (unsigned char)(2 * i + (step[i] < 0));
        b -= B[i];
    }
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/*
 * Mixed routing: the messages in a scattered order (the t-th is message
 * t x mult mod n^2, mult near 2^32 / golden ratio and coprime to n^2), so
 * that every part of the mesh fills up at the same pace and each message
 * sees loads shaped like the final ones; by source order the first
 * sources' messages see an empty mesh and crowd the middle columns
 * (touchstone-delta: first routing 11062 sends at the busiest node by
 * source, 8954 mixed; after 3 rip-up passes 9200, mixed after 1: 8942).
 * Each message is routed together with its images under the mesh's
 * reflections (coordinate c of dimension i to m_i - 1 - c, for the first
 * BG_MIRROR_DIMS dimensions): the smallest id of the orbit is routed by
 * route_one, the others take the mirrored route, so the routing is
 * symmetric and costs 2^k times fewer dynamic programs. Then
 * BG_MIXED_ROUNDS passes of rip-up and reroute, orbit by orbit.
 */
static totex_status route_mixed(bg *G, uint64_t *cost, uint32_t *boxnode, unsigned char *pred, totex_error *err)
{
    const uint32_t n = G->n, nr = G->k < BG_MIRROR_DIMS ? G->k : BG_MIRROR_DIMS, ng = 1u << nr;
    const uint64_t nn = (uint64_t)n * n;
    uint32_t *mir = malloc(sizeof *mir * (size_t)n * ng); /* g * n + u: u's image under the reflections in g */
    if (!mir)
        return totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory for the reflections of %u nodes", n);
    for (uint32_t g = 0; g < ng; g++)
        for (uint32_t u = 0; u < n; u++) {
            uint32_t v = 0;
            for (uint32_t i = 0; i < G->k; i++) {
                uint32_t c = G->coord[(size_t)u * G->k + i];
                v += (i < nr && (g >> i & 1) ? G->m[i] - 1 - c : c) * G->stride[i];
            }
            mir[(size_t)g * n + u] = v;
        }
    uint64_t mult = UINT64_C(2654435761) % nn;
    while (gcd64(mult, nn) != 1)
        mult++;
    uint32_t img[1u << BG_MIRROR_DIMS], gimg[1u << BG_MIRROR_DIMS];
    for (uint32_t r = 0; r <= BG_MIXED_ROUNDS; r++)
        for (uint64_t t = 0; t < nn; t++) {
            const uint32_t id = (uint32_t)(t * mult % nn), s = id % n, d = id / n;
            if (s == d)
                continue;
            uint32_t ni = 0;
            int rep = 1;
            for (uint32_t g = 0; g < ng && rep; g++) {
                const uint32_t e = mir[(size_t)g * n + d] * n + mir[(size_t)g * n + s];
                int dup = 0;
                rep = e >= id;
                for (uint32_t q = 0; q < ni; q++)
                    dup |= img[q] == e;
                if (!dup) {
                    img[ni] = e;
                    gimg[ni++] = g;
                }
            }
            if (!rep)
                continue; /* routed with the smallest id of its orbit */
            if (r)
                for (uint32_t q = 0; q < ni; q++)
                    route_load(G, img[q], img[q] % n, -1);
            const unsigned char *sl = G->route + G->roff[id];
            route_one(G, s, d, cost, boxnode, pred, G->route + G->roff[id]);
            for (uint32_t q = 1; q < ni; q++) { /* a reflection of dimension i turns slot 2i (+1) into 2i+1 (-1) */
                unsigned char *o = G->route + G->roff[img[q]];
                for (uint32_t h = 0; h < G->roff[id + 1] - G->roff[id]; h++)
                    o[h] = (unsigned char)(sl[h] ^ (gimg[q] >> (sl[h] >> 1) & 1));
            }
            for (uint32_t q = 0; q < ni; q++)
                route_load(G, img[q], img[q] % n, +1);
        }
    free(mir);
    return TOTEX_OK;
}

/* State for a run; routes computed here (@p route NULL) by @p routing (BG_BY_SOURCE, BG_MIXED) or borrowed from the
   memo (@p route, @p roff; then @p ls0, the sends of each node on them, or NULL: a replay, which needs no loads). */
static totex_status bg_setup(bg *G, const totex_network *net, unsigned char *route, uint32_t *roff,
                             const uint64_t *ls0, int routing, totex_error *err)
{
    memset(G, 0, sizeof *G);
    G->n = totex_network_nodes(net);
    G->k = totex_network_dims(net);
    G->S = 2 * G->k;
    const size_t n = G->n;
    for (uint32_t i = 0; i < G->k; i++) {
        G->m[i] = totex_factor_nodes(totex_network_factor(net, i));
        G->stride[i] = totex_network_stride(net, i);
        G->delta[2 * i] = G->stride[i];
        G->delta[2 * i + 1] = -(int64_t)G->stride[i];
        G->H += G->m[i] - 1;
    }
    totex_status st = bal_routes(net, route, roff, &G->route, &G->roff, &G->borrowed, err);
    if (st != TOTEX_OK)
        return st;
    G->coord = malloc(sizeof *G->coord * n * G->k);
    G->nbr = malloc(sizeof *G->nbr * n * G->S);
    int stacks = bal_stacks_alloc(&G->B, G->n, G->S, G->H);
    G->ls = calloc(n, sizeof *G->ls);
    G->lr = calloc(n, sizeof *G->lr);
    G->ocount = malloc(sizeof *G->ocount * n);
    G->orecv = malloc(sizeof *G->orecv * n * G->S);
    G->oslot = malloc(n * G->S);
    G->sendj = malloc(sizeof *G->sendj * n);
    G->own = malloc(sizeof *G->own * (n + 1));
    G->mark = calloc(n + 1, sizeof *G->mark);
    G->trail = malloc(sizeof *G->trail * n);
    G->su = malloc(sizeof *G->su * (n + 1));
    G->sm = malloc(sizeof *G->sm * (n + 1));
    G->sj = malloc(sizeof *G->sj * (n + 1));
    G->mv = malloc(sizeof *G->mv * n);
    G->key = malloc(sizeof *G->key * n);
    G->out = malloc(sizeof *G->out * n);
    uint64_t *cost = malloc(sizeof *cost * n);
    uint32_t *boxnode = malloc(sizeof *boxnode * n);
    unsigned char *pred = malloc(n);
    if (!G->coord || !G->nbr || !G->roff || !G->route || stacks || !G->ls || !G->lr || !G->ocount ||
        !G->orecv || !G->oslot || !G->sendj || !G->own || !G->mark || !G->trail || !G->su || !G->sm || !G->sj || !G->mv || !G->key || !G->out || !cost || !boxnode ||
        !pred) {
        st = totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory for %u nodes", G->n);
        goto done;
    }
    bal_coords(net, G->coord);
    G->B.nbr = G->nbr;
    G->B.roff = G->roff;
    G->B.route = G->route;
    for (uint32_t u = 0; u < G->n; u++)
        for (uint32_t i = 0; i < G->k; i++) {
            uint32_t c = G->coord[(size_t)u * G->k + i];
            G->nbr[(size_t)u * G->S + 2 * i] = c + 1 < G->m[i] ? u + G->stride[i] : BG_NONE;
            G->nbr[(size_t)u * G->S + 2 * i + 1] = c > 0 ? u - G->stride[i] : BG_NONE;
        }
    if (route) { /* the sends of the borrowed routes (the receives only steer the routing) */
        if (ls0)
            memcpy(G->ls, ls0, sizeof *G->ls * n);
        goto place;
    }
    bal_route_offsets(net, G->roff);
    if (routing == BG_MIXED) {
        st = route_mixed(G, cost, boxnode, pred, err);
        goto place;
    }
    /* first routing, then rip-up and reroute: by source, destinations in a rotating order */
    for (uint32_t r = 0; r <= BG_ROUNDS; r++)
        for (uint32_t s = 0; s < G->n; s++)
            for (uint32_t j = 1; j < G->n; j++) {
                uint32_t d = (s + j) % G->n, id = d * G->n + s;
                if (r)
                    route_load(G, id, s, -1);
                route_one(G, s, d, cost, boxnode, pred, G->route + G->roff[id]);
                route_load(G, id, s, +1);
            }
place:
    if (st == TOTEX_OK)
        bal_stacks_place(&G->B); /* every message at its source, in the stack of its first slot and its hops */
done:
    free(cost);
    free(boxnode);
    free(pred);
    return st;
}

#define top_h(G, u, slot) bal_top_h(&(G)->B, u, slot)
#define tie_hash bal_tie_hash

/*
 * Node u's offers: for each slot with a message, its receiver, by decreasing
 * hops left of the top message (ties: the lower slot first), into orecv and
 * oslot at u * S. @return their count.
 */
static inline uint32_t step_offers(bg *G, uint32_t u)
{
    uint32_t count = 0, hs[2 * TOTEX_MAX_DIMS];
    uint32_t *rx = G->orecv + (size_t)u * G->S;
    unsigned char *sl = G->oslot + (size_t)u * G->S;
    for (uint32_t s = 0; s < G->S; s++) {
        const uint32_t h = top_h(G, u, s);
        if (h == BG_NONE)
            continue;
        uint32_t j = count++;
        while (j > 0 && hs[j - 1] < h) {
            hs[j] = hs[j - 1];
            rx[j] = rx[j - 1];
            sl[j] = sl[j - 1];
            j--;
        }
        hs[j] = h;
        rx[j] = G->nbr[(size_t)u * G->S + s];
        sl[j] = (unsigned char)s;
    }
    return count;
}

/*
 * Kuhn's augmenting path from sender u over its offers (in preference
 * order): 1 when u got a receiver. A receiver marked dead (in a search of
 * this step that failed) is skipped: it reaches no free receiver by an
 * alternating path, and never will in this step (an augmenting path cannot
 * enter the closed set it reaches, so that set's matching stays and the free
 * receivers only get fewer); exploring it would only mark receivers it
 * reaches, dead as well, and fail. So skipping it finds the same path.
 */
static int augment(bg *G, uint32_t u)
{
    /* depth-first with an explicit stack (frame: the sender, its offers still to try, the offer tried) */
    uint32_t depth = 0, m, j;
    const uint32_t S = G->S;
    const uint32_t *rx;
enter:
    rx = G->orecv + (size_t)u * S; /* padded to S with receiver n */
    {
        /* a free receiver first (in preference order), then the alternating paths */
        uint32_t f = 0;
        m = 0;
        for (uint32_t i = 0; i < S; i++) {
            f |= (uint32_t)(G->own[rx[i]] == BG_NONE) << i;
            m |= (uint32_t)(G->mark[rx[i]] < G->stamp) << i;
        }
        if (f) {
            j = (uint32_t)__builtin_ctz(f);
            G->own[rx[j]] = u;
            G->sendj[u] = j;
            goto found;
        }
    }
next:
    for (; m; m &= m - 1) {
        j = (uint32_t)__builtin_ctz(m);
        const uint32_t x = rx[j];
        if (G->mark[x] >= G->stamp) /* visited by the searches of the offers before */
            continue;
        G->mark[x] = G->stamp;
        G->trail[G->ntrail++] = x;
        G->su[depth] = u;
        G->sm[depth] = m & (m - 1);
        G->sj[depth++] = j;
        u = G->own[x];
        goto enter;
    }
    if (!depth)
        return 0;
    depth--;
    u = G->su[depth];
    m = G->sm[depth];
    rx = G->orecv + (size_t)u * S;
    goto next;
found:
    while (depth) { /* each sender on the path takes the receiver it searched through */
        depth--;
        u = G->su[depth];
        j = G->sj[depth];
        G->own[G->orecv[(size_t)u * S + j]] = u;
        G->sendj[u] = j;
    }
    return 1;
}

typedef bal_key bg_key;

/* Room in @p r for a step of @p nh moves, recorded from @p mv (u * S + slot each). 1, or 0 when out of memory. */
static int rec_step(bg_rec *r, const uint32_t *mv, size_t nh)
{
    if (!bal_rec_reserve(r, nh))
        return 0;
    memcpy(r->mv + r->len, mv, sizeof *mv * nh);
    r->len += nh;
    r->cnt[r->steps++] = (uint32_t)nh;
    return 1;
}

/*
 * Run with tie-break @p seed on the memo's routes; stop early (steps_out =
 * UINT64_MAX) past @p limit steps; record the moves into @p rec.
 */
static totex_status bg_run(const totex_network *net, unsigned char *route, uint32_t *roff, const uint64_t *ls0,
                           uint32_t seed,
                           uint64_t limit, bg_rec *rec, uint64_t *steps_out, totex_error *err)
{
    bg G;
    totex_status st = bg_setup(&G, net, route, roff, ls0, BG_MIXED, err);
    bg_key *keys = st == TOTEX_OK ? malloc(sizeof *keys * G.n) : NULL;
    uint64_t t = 0;
    if (st == TOTEX_OK && !keys)
        st = totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory");
    for (uint32_t u = 0; st == TOTEX_OK && u < G.n; u++)
        keys[u].u = u;
    while (st == TOTEX_OK && G.B.left && t < limit) {
        size_t nh = 0;
        uint32_t ns = 0;
        for (uint32_t u = 0; u < G.n; u++) {
            G.ocount[u] = 0;
            G.sendj[u] = G.own[u] = BG_NONE;
            if (!G.B.held[u])
                continue;
            G.ocount[u] = step_offers(&G, u);
            for (uint32_t j = G.ocount[u]; j < G.S; j++)
                G.orecv[(size_t)u * G.S + j] = G.n; /* padding: never free, always marked */
            G.key[u] = (G.ls[u] << 20) | tie_hash(seed, u, t);
        }
        ns = bal_order_senders(keys, G.key, G.B.held, G.n); /* senders by decreasing key */
        /* a failed search leaves its receivers unable to reach a free one until the matching changes,
         * and it changes only along paths that avoid them: reset the marks after a success only, and
         * keep the receivers of a failed search as dead for the rest of the step (augment) */
        G.stamp = G.ceiling + 1; /* above every mark of the steps before */
        G.ceiling = G.stamp + G.n + 1; /* above every stamp of this step (one more per success) */
        G.own[G.n] = 0;
        G.mark[G.n] = UINT64_MAX;
        for (uint32_t j = 0; j < ns; j++) {
            G.ntrail = 0;
            if (augment(&G, keys[j].u)) {
                G.stamp++;
            } else {
                for (uint32_t q = 0; q < G.ntrail; q++)
                    G.mark[G.trail[q]] = G.ceiling; /* dead for the rest of the step */
            }
        }
        for (uint32_t j = 0; j < ns; j++) { /* the moves, in the senders' order */
            const uint32_t u = keys[j].u;
            if (G.sendj[u] != BG_NONE) {
                G.mv[nh++] = u * G.S + G.oslot[(size_t)u * G.S + G.sendj[u]];
                G.ls[u]--;
            }
        }
        bal_take_all(&G.B, G.mv, nh, G.out);
        if (rec && !rec_step(rec, G.mv, nh))
            st = totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory recording the schedule");
        if (st == TOTEX_OK)
            bal_arrive(&G.B, G.out, nh);
        t++;
    }
    free(keys);
    bg_free(&G);
    if (st == TOTEX_OK)
        *steps_out = G.B.left ? UINT64_MAX : t;
    return st;
}

/* Stream the recorded schedule: the same moves, each taking the top of its stack as the run did. */
static totex_status bg_replay(const totex_network *net, unsigned char *route, uint32_t *roff, const bg_rec *rec,
                              totex_sink sink, totex_error *err)
{
    bg G;
    totex_status st = bg_setup(&G, net, route, roff, NULL, BG_MIXED, err);
    size_t at = 0;
    for (size_t t = 0; st == TOTEX_OK && t < rec->steps; t++) {
        const size_t nh = rec->cnt[t];
        bal_take_all(&G.B, rec->mv + at, nh, G.out);
        at += nh;
        if ((st = sink.step(sink.ctx, G.out, nh, err)) == TOTEX_OK)
            bal_arrive(&G.B, G.out, nh);
    }
    bg_free(&G);
    return st;
}

static uint32_t bg_seeds(uint32_t n)
{
    return n <= 16 ? 64 : n <= 64 ? 16 : n <= 256 ? 4 : 1;
}

/*
 * What the memo keeps for the last network: its routes and the best seed's
 * recorded moves (predict searches, plan replays: O(S_G) bytes kept between
 * the two, freed when another network comes).
 */
typedef struct bg_kept {
    unsigned char *route;
    uint32_t *roff;
    bg_rec rec;
} bg_kept;

static void kept_free(void *p)
{
    bg_kept *k = p;
    free(k->route);
    free(k->roff);
    rec_free(&k->rec);
    free(k);
}

static totex_status bg_best(const totex_network *net, totex_ports ports, totex_memo *m, totex_error *err)
{
    if (totex_memo_get(&totex_algorithm_balanced_greedy, net, ports, m))
        return TOTEX_OK;
    bg_kept *k = calloc(1, sizeof *k);
    if (!k)
        return totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory");
    /* each routing (by source only up to BG_BOTH_NODES nodes), each seed; the first best kept (ties: by source) */
    uint64_t best = UINT64_MAX;
    totex_status st = TOTEX_OK;
    for (int routing = totex_network_nodes(net) <= BG_BOTH_NODES ? BG_BY_SOURCE : BG_MIXED;
         st == TOTEX_OK && routing < BG_ROUTINGS; routing++) {
        bg G;
        bg_kept c = {0}; /* this routing's routes and best run */
        st = bg_setup(&G, net, NULL, NULL, NULL, routing, err);
        c.route = G.route;
        c.roff = G.roff;
        /* each node's sends on these routes, for the runs' order of senders */
        uint64_t *ls0 = st == TOTEX_OK ? malloc(sizeof *ls0 * G.n) : NULL;
        if (st == TOTEX_OK && !ls0)
            st = totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory");
        if (st == TOTEX_OK)
            memcpy(ls0, G.ls, sizeof *ls0 * G.n);
        G.borrowed = 1;
        bg_free(&G);
        uint64_t cbest = best;
        for (uint32_t seed = 0; st == TOTEX_OK && seed < bg_seeds(totex_network_nodes(net)); seed++) {
            uint64_t steps;
            bg_rec rec = {0};
            st = bg_run(net, c.route, c.roff, ls0, seed, cbest == UINT64_MAX ? UINT64_MAX : cbest - 1, &rec, &steps, err);
            if (st == TOTEX_OK && steps < cbest) {
                cbest = steps;
                rec_free(&c.rec);
                c.rec = rec;
            } else {
                rec_free(&rec);
            }
        }
        free(ls0);
        if (st == TOTEX_OK && cbest < best) { /* this routing wins: keep it */
            best = cbest;
            free(k->route);
            free(k->roff);
            rec_free(&k->rec);
            *k = c;
        } else {
            free(c.route);
            free(c.roff);
            rec_free(&c.rec);
        }
    }
    if (st != TOTEX_OK) {
        kept_free(k);
        return st;
    }
    m->steps = best;
    m->aux = 0;
    m->data = k;
    totex_memo_put(&totex_algorithm_balanced_greedy, net, ports, best, 0, k, kept_free);
    if (!totex_memo_get(&totex_algorithm_balanced_greedy, net, ports, m))
        return totex_fail(err, TOTEX_ENOMEM, "balanced-greedy: out of memory");
    return TOTEX_OK;
}

static totex_status bg_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_memo m;
    totex_status st = bg_applies(net, ports, err);
    if (st == TOTEX_OK)
        st = bg_best(net, ports, &m, err);
    if (st == TOTEX_OK)
        *steps = m.steps;
    return st;
}

static totex_status bg_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_memo m;
    totex_status st = bg_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "balanced-greedy: no sink to stream the schedule into");
    if ((st = bg_best(net, ports, &m, err)) != TOTEX_OK)
        return st;
    const bg_kept *k = m.data;
    return bg_replay(net, k->route, k->roff, &k->rec, sink, err);
}

const totex_algorithm totex_algorithm_balanced_greedy = {
    .name = "balanced-greedy",
    .title = "Single-port meshes: shortest routes balanced by rip-up and reroute, sends matched critical-first",
    .source = "this project (docs/bounds-and-algorithms.md); src/bounds/forwarding.c, band.c (why the middle is the bottleneck); 003 Section 3, 001 Section 5 (furthest first)",
    .applies = bg_applies,
    .predict = bg_predict,
    .plan = bg_plan,
    .costly_predict = 1,
    /* above 2^23 hops (where it applies, up to 2^26 / 2k) it beat load-greedy and greedy on every mesh measured
       (docs/performance.md, "Session 22: balanced-greedy and load-greedy cheaper"), whose predictions would put auto
       over 5 s of CPU there */
    .supersedes_costly_above = UINT64_C(1) << 23,
};
