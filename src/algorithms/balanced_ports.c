/*
 * Balanced-ports: k-port total exchange on products with a path (meshes,
 * path x ring, path x complete, path x K2, any mix of paths, rings, complete
 * graphs and K2), and single-port on such products when they are not meshes:
 * shortest routes balanced against the ports' capacities, each step a
 * b-matching of sends that serves the nodes with the most work per port
 * first.
 *
 * Source:  ours (beyond the papers). It carries
 *          balanced-greedy (balanced_greedy.c, single-port meshes) to the
 *          k-port model of 001 Section 7 and to rings and complete graphs.
 *          Why: under k-port a node v sends at most c_v = min(k, deg v)
 *          messages per step and receives at most c_v, so a schedule takes at
 *          least (sends of v) / c_v steps for every v; on a mesh the middle
 *          must send and receive more than the average (the forwarding bound
 *          under k ports, src/bounds/forwarding.c), and every directed link
 *          carries one message per step (the cut bound, 000 eq. (4)). So the
 *          routes should spread the load per port and per link, and each step
 *          should keep the busiest ports sending.
 * Model:   k-port (k >= 2, 001 Section 7): a node sends on at most k of its
 *          links and receives on at most k per step, one message per directed
 *          link; single-port (000 Section 1) as k = 1.
 * Routes:  shortest paths, each message in turn on the path of least marginal
 *          cost under the loads so far (dynamic programming over the box of
 *          moves between source and destination: one move per hop in a path
 *          or ring dimension, in its shorter direction (both tried at an even
 *          ring's antipode), one move to the destination's coordinate in a
 *          complete graph or K2). The cost is sum over the resources of
 *          c (load / c)^p: every node's send ports and its receive ports
 *          (c = c_v) and, weighted by alpha, every directed link (c = 1); then
 *          bp_rounds() passes of rip-up and reroute (10 up to 256 nodes, else
 *          6, fewer beyond a budget of 150M cells of the dynamic program). p = 2 evens the loads, p = 8 goes for the largest; alpha trades
 *          the links (the cut bound) against the ports (the forwarding bound).
 *          Measured under k:3 (steps / cut bound, 8x8, 12x12, 16x16): p = 4,
 *          alpha = 1, 3 passes 1.203 1.225 1.233; p = 8, alpha = 2, 10 passes
 *          1.102 1.113 1.118; alpha = 4 worse again (1.156 on 8x8). No choice
 *          is best on every small network, hence the portfolio below. Up to
 *          64 nodes then BP_NEGOTIATE = 40 passes of negotiation (after
 *          PathFinder's negotiated congestion): every resource at the largest
 *          load per capacity, in whole steps, has its cost's history factor
 *          raised by 1/2 and every message is routed again; the routes with
 *          the smallest largest load are kept (mesh:4x4 k:3: 17 -> 16 steps,
 *          the exact optimum; path:3*ring:4 k:3: 9 -> 8, the optimum).
 * Rule:    every node u offers, for each of its links, its message with the
 *          most hops left among those whose route goes next over that link.
 *          Mode 0 (single-port's): senders in decreasing order of the sends
 *          they have left per port (sends / c_u, exact on the fixed routes), a
 *          unit of send capacity at a time, each by an augmenting path over
 *          the offers (the b-matching: u at most c_u sends, x at most c_x
 *          receives, a link once), so the set served is the best in that order
 *          that any step can serve (the greedy on a gammoid); a node prefers
 *          its links by the load they have left, then by hops left.
 *          Mode 1 (k-port's): the offers in decreasing urgency, the sum of the
 *          load left, in steps, of the three resources a hop uses (sends / c_u,
 *          receives / c_x, the link's messages), each taken while sender and
 *          receiver have capacity left. Measured on the 48 two-factor products
 *          with a path, sides 3..6, k:2 and k:3 (96 cases, p = 4, alpha =
 *          1/2, one routing): above 1.10 x the best bound, mode 0 27 to 33
 *          (64 to 8 seeds), mode 1 with the largest of the three loads 13,
 *          with their sum 9; single-port (32 cases, p = 4, alpha = 1): mode 0
 *          mean 1.027 x the bound, mode 1 1.060.
 *          Ties: node / link ids (seed 0) or a hash of (seed, id, step).
 * Search:  up to 64 nodes a portfolio: routing costs (p, alpha) = (8, 2),
 *          (4, 1), (4, 1/2), (2, 1/2), both modes, seeds 0..K-1 (K = 16 up to
 *          16 nodes, else 4), each run stopped once it cannot win; above 64
 *          nodes one routing, (8, 2) under k-port and (4, 1) single-port, and
 *          the port model's mode (1 k-port, 0 single-port), seed 0. The
 *          fewest steps win.
 * Steps:   measured (predict runs the schedule and counts; the best routes
 *          and the best run's hops are kept per thread and plan streams
 *          them). Every step moves at least one message one hop along its
 *          route, so it ends within S_G steps.
 * Optimal: not in general; where it meets the best bound (forwarding, cut,
 *          average status) it is optimal. Measured (bench/steps/bench_product_sweep.c,
 *          docs/algorithms/balanced-ports.md): the exact optimum on path:3*path:3
 *          k:2 (9), path:3*ring:3 single-port (14) and k:2 (7), path:4*ring:3
 *          k:3 (12), mesh:4x4 k:3 (16, the cut bound; the search proved it in
 *          81 s); mesh:8x8 k:2 186 (bound 176), k:3 138 (128); mesh:16x16
 *          k:2 1542 (1409: 1.094; greedy 2143), k:3 1145 (1024: 1.118;
 *          greedy 1543); touchstone-delta k:2 4847 (4306: 1.126; greedy
 *          6279), k:3 4204 (4096: 1.026; greedy 4761).
 * Size:    n <= 1024 nodes, at most 255 link slots per node and S_G x S <=
 *          2^25 (S the link slots per node: 2 per path or ring, m per complete
 *          graph; mesh:10x10x10 is refused, 9.9M x 6: 15 s of CPU with
 *          every routing pass, 6 s with the first only; mesh:20x32, 7.1M x
 *          4, takes 4.3 s); memory: routes 1 byte per hop, the kept hops 8 bytes per
 *          hop, tables ~10 n^2 bytes (touchstone-delta: 4.2M hops, ~60 MB).
 *          Time: touchstone-delta k:2 ~3.5 s of CPU with the simulator's
 *          replay (routing about half), mesh:16x16 0.7 s.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/balanced_stacks.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

#define BP_NONE BAL_NONE
#define BP_MAX_NODES 1024u
#define BP_MAX_WORK (UINT64_C(1) << 25)
/* Routing work per run, in cells of the dynamic program (every pass visits every message's box): touchstone-delta
   makes 19.3M per pass, about 0.2 s; the passes stop within this budget (mesh:10x10x10, 79.5M per pass: none). */
#define BP_ROUTE_CELLS UINT64_C(150000000)

/*
 * Passes of rip-up and reroute after the first routing: 10 up to 256 nodes,
 * 6 above (touchstone-delta k:2: 3 passes 4926 steps, 6 4847, 10 4756),
 * fewer when the passes would exceed BP_ROUTE_CELLS: a pass visits
 * prod_i sum_{a,b} (d_i(a, b) + 1) cells, the boxes of every ordered pair.
 */
static uint32_t bp_rounds(const totex_network *net)
{
    const uint32_t n = totex_network_nodes(net);
    uint64_t cells = 1;
    for (uint32_t i = 0; i < totex_network_dims(net) && cells <= BP_ROUTE_CELLS; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t m = totex_factor_nodes(f);
        uint64_t sum = 0;
        for (uint32_t a = 0; a < m; a++)
            for (uint32_t b = 0; b < m; b++)
                sum += totex_factor_get_kind(f) == TOTEX_FACTOR_PATH || totex_factor_get_kind(f) == TOTEX_FACTOR_RING
                           ? totex_factor_distance(f, a, b) + 1
                           : 1 + (a != b);
        cells *= sum;
    }
    const uint64_t fit = BP_ROUTE_CELLS / (cells ? cells : 1);
    uint32_t r = n <= 256 ? 10 : 6;
    return fit < 1 ? 0 : fit - 1 < r ? (uint32_t)(fit - 1) : r;
}
/* negotiation passes up to 64 nodes (measured on the 96 k:2 and k:3 products with a path: above 1.05 x the bound 0
   passes 16 cases, 20 passes 7, 40 passes 7 with a lower mean; mesh:16x16 gains nothing from it) */
#define BP_NEGOTIATE 40u

typedef bal_offer bp_offer;

typedef struct bp {
    uint32_t n, k, S, H, cmax;
    uint32_t m[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS], sb[TOTEX_MAX_DIMS];
    totex_factor_kind kind[TOTEX_MAX_DIMS];
    uint16_t *coord;  /* n * k */
    uint32_t *nbr;    /* n * S: the neighbour over slot s, BP_NONE if none */
    uint32_t *cap;    /* per node: min(k, deg) */
    double *iw;       /* per node: 1 / cap^2 */
    uint32_t *roff;   /* n * n + 1: offset of message id's route (id = dst * n + src) */
    unsigned char *route;
    uint64_t *ls, *lr, *ll; /* per node sends, receives; per (node, slot) link load (left, while scheduling) */
    bal_stacks B;     /* the messages, in stacks per (node, slot, hops left) (balanced_stacks.h) */
    bp_offer *offers;
    uint32_t *ocount, *olist, *scnt, *rcnt, *rin, *vis, stamp;
    uint64_t *key;
    totex_hop *out;
    int borrowed;
    int power;     /* routing: the exponent p of the cost sum over resources of c (load / c)^p */
    double alpha;  /* routing: the links' share of that cost */
    double *ms, *mr, *ml; /* routing: the marginal cost of one more send at u, receive at x, message over link e */
    int64_t *offs;        /* routing: k * (H + 2) node offsets along a route's dimensions */
    double *hs, *hr, *hl; /* routing: history factors (>= 1) of the sends, receives, links (negotiation) */
} bp;

/* c (((load + 1) / c)^p - (load / c)^p): the growth of c (load / c)^p when one more message is added, p = 2, 4 or 8 */
static inline double marg(uint64_t load, uint32_t c, int power)
{
    const double a = (double)load / c, b = (double)(load + 1) / c, a2 = a * a, b2 = b * b, a4 = a2 * a2, b4 = b2 * b2;
    return power == 2 ? (b2 - a2) * c : power == 4 ? (b4 - a4) * c : (b4 * b4 - a4 * a4) * c;
}

/* The moves of a schedule, for replay: per hop its link (u * S + slot) and its message (dst * n + src). */
typedef bal_rec bp_rec;
#define rec_free bal_rec_free

static void bp_free(bp *G)
{
    free(G->coord);
    free(G->nbr);
    free(G->cap);
    free(G->iw);
    bal_routes_free(G->route, G->roff, G->borrowed);
    bal_stacks_free(&G->B);
    free(G->ls);
    free(G->lr);
    free(G->ll);
    free(G->offers);
    free(G->ocount);
    free(G->olist);
    free(G->scnt);
    free(G->rcnt);
    free(G->rin);
    free(G->vis);
    free(G->key);
    free(G->out);
    free(G->ms);
    free(G->mr);
    free(G->ml);
    free(G->offs);
    free(G->hs);
    free(G->hr);
    free(G->hl);
}

/* link slots of a factor: 2 for a path or ring (+, -), m for a complete graph or K2 (one per target coordinate) */
static uint32_t factor_slots(const totex_factor *f)
{
    totex_factor_kind kd = totex_factor_get_kind(f);
    return kd == TOTEX_FACTOR_PATH || kd == TOTEX_FACTOR_RING ? 2 : totex_factor_nodes(f);
}

static totex_status bp_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports == TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-ports is for single-port and k-port; multiport products with a path: pipeline, rounds");
    int path = 0, allpath = 1;
    uint32_t S = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_factor_kind kd = totex_factor_get_kind(f);
        if (kd == TOTEX_FACTOR_GRAPH)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "balanced-ports routes on paths, rings, complete graphs and K2; dimension %u is %s (use greedy)",
                              i, totex_factor_name(f));
        path |= kd == TOTEX_FACTOR_PATH && totex_factor_nodes(f) >= 3;
        allpath &= kd == TOTEX_FACTOR_PATH;
        S += factor_slots(f);
    }
    if (totex_network_dims(net) < 2 || !path)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-ports balances the load of products with a path of >= 3 nodes and >= 2 dimensions; "
                          "%s is %s (use octr, greedy or dimension)",
                          totex_network_spec(net), totex_network_dims(net) < 2 ? "one factor" : "vertex-transitive");
    if (ports == TOTEX_PORTS_SINGLE && allpath)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-ports under single-port is for products mixing a path with rings or complete graphs; "
                          "%s is a mesh (use balanced-greedy)",
                          totex_network_spec(net));
    if (totex_network_nodes(net) > BP_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-ports keeps n^2 tables and stops at %u nodes; %s has %u (use greedy or a2)", BP_MAX_NODES,
                          totex_network_spec(net), totex_network_nodes(net));
    uint64_t sg = 0;
    if (S > 255 || totex_network_status_sum(net, &sg, NULL) != TOTEX_OK || sg > BP_MAX_WORK / S)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "balanced-ports stops at %llu hops x link slots per node (S_G x S, its work) and 255 slots; %s has "
                          "%llu x %u (use greedy or a2)",
                          (unsigned long long)BP_MAX_WORK, totex_network_spec(net), (unsigned long long)sg, S);
    return TOTEX_OK;
}

/* Add (@p sign = +1) or remove (-1) the loads of message id's route from @p s. */
static void route_load(bp *G, uint32_t id, uint32_t s, int sign)
{
    uint32_t u = s;
    for (uint32_t j = G->roff[id]; j < G->roff[id + 1]; j++) {
        const size_t e = (size_t)u * G->S + G->route[j];
        uint32_t x = G->nbr[e];
        G->ls[u] += (uint64_t)(int64_t)sign;
        G->lr[x] += (uint64_t)(int64_t)sign;
        G->ll[e] += (uint64_t)(int64_t)sign;
        if (G->ms) {
            G->ms[u] = marg(G->ls[u], G->cap[u], G->power) * G->hs[u];
            G->mr[x] = marg(G->lr[x], G->cap[x], G->power) * G->hr[x];
            G->ml[e] = G->alpha * marg(G->ll[e], 1, G->power) * G->hl[e];
        }
        u = x;
    }
}

/* the coordinate after @p o moves from @p a towards @p b in dimension i, direction @p dir (+1 / -1) */
static inline uint32_t moved(const bp *G, uint32_t i, uint32_t a, uint32_t b, int dir, uint32_t o)
{
    switch (G->kind[i]) {
    case TOTEX_FACTOR_PATH: return dir > 0 ? a + o : a - o;
    case TOTEX_FACTOR_RING: return dir > 0 ? (a + o) % G->m[i] : (a + G->m[i] * o - o) % G->m[i];
    default: return o ? b : a;
    }
}

/*
 * The least-cost shortest route from s to d for the directions @p dir (one per
 * dimension); writes its slots to @p slots and returns its cost.
 * @p cost, @p boxnode, @p pred: scratch of n entries.
 */
static double route_dir(bp *G, uint32_t s, uint32_t d, const int *dir, double *cost, uint32_t *boxnode,
                        unsigned char *pred, unsigned char *slots)
{
    uint32_t len[TOTEX_MAX_DIMS], o[TOTEX_MAX_DIMS], B[TOTEX_MAX_DIMS], a[TOTEX_MAX_DIMS], b[TOTEX_MAX_DIMS],
        sl[TOTEX_MAX_DIMS];
    uint32_t box = 1, h = 0;
    int64_t *off[TOTEX_MAX_DIMS];
    for (uint32_t i = 0; i < G->k; i++) {
        a[i] = G->coord[(size_t)s * G->k + i];
        b[i] = G->coord[(size_t)d * G->k + i];
        if (G->kind[i] == TOTEX_FACTOR_PATH || G->kind[i] == TOTEX_FACTOR_RING) {
            len[i] = dir[i] > 0 ? (b[i] + G->m[i] - a[i]) % G->m[i] : (a[i] + G->m[i] - b[i]) % G->m[i];
            sl[i] = G->sb[i] + (dir[i] < 0);
        } else {
            len[i] = a[i] != b[i];
            sl[i] = G->sb[i] + b[i];
        }
        B[i] = box;
        box *= len[i] + 1;
        o[i] = 0;
        /* the node offset of each position along dimension i, from the source's coordinate */
        off[i] = G->offs + (size_t)i * (G->H + 2);
        for (uint32_t q = 0; q <= len[i]; q++)
            off[i][q] = ((int64_t)moved(G, i, a[i], b[i], dir[i], q) - (int64_t)a[i]) * G->stride[i];
        h += len[i];
    }
    int64_t node = s;
    for (uint32_t x = 0; x < box; x++) {
        boxnode[x] = (uint32_t)node;
        if (x == 0) {
            cost[0] = 0;
        } else {
            double best = INFINITY;
            unsigned char arg = 0;
            for (uint32_t i = 0; i < G->k; i++) {
                if (!o[i])
                    continue;
                const uint32_t u = boxnode[x - B[i]];
                const size_t e = (size_t)u * G->S + sl[i];
                const double c = cost[x - B[i]] + G->ms[u] + G->mr[node] + G->ml[e];
                if (c < best) {
                    best = c;
                    arg = (unsigned char)i;
                }
            }
            cost[x] = best;
            pred[x] = arg;
        }
        for (uint32_t i = 0; i < G->k; i++) { /* odometer */
            if (o[i] < len[i]) {
                node += off[i][o[i] + 1] - off[i][o[i]];
                o[i]++;
                break;
            }
            node -= off[i][o[i]];
            o[i] = 0;
        }
    }
    double total = cost[box - 1];
    uint32_t x = box - 1;
    while (x) {
        uint32_t i = pred[x];
        slots[--h] = (unsigned char)sl[i];
        x -= B[i];
    }
    return total;
}

/* The least-cost route over both directions of every even ring where d is antipodal to s. */
static void route_one(bp *G, uint32_t s, uint32_t d, double *cost, uint32_t *boxnode, unsigned char *pred,
                      unsigned char *slots, unsigned char *tmp)
{
    int dir[TOTEX_MAX_DIMS];
    uint32_t amb[TOTEX_MAX_DIMS], na = 0, h = 0;
    for (uint32_t i = 0; i < G->k; i++) {
        const uint32_t a = G->coord[(size_t)s * G->k + i], b = G->coord[(size_t)d * G->k + i];
        dir[i] = b >= a ? 1 : -1;
        if (G->kind[i] == TOTEX_FACTOR_RING) {
            const uint32_t f = (b + G->m[i] - a) % G->m[i];
            dir[i] = 2 * f <= G->m[i] ? 1 : -1;
            if (2 * f == G->m[i] && na < 6)
                amb[na++] = i;
            h += f < G->m[i] - f ? f : G->m[i] - f;
        } else if (G->kind[i] == TOTEX_FACTOR_PATH) {
            h += a > b ? a - b : b - a;
        } else {
            h += a != b;
        }
    }
    double best = INFINITY;
    for (uint32_t c = 0; c < (1u << na); c++) {
        for (uint32_t j = 0; j < na; j++)
            dir[amb[j]] = (c >> j) & 1 ? -1 : 1;
        double v = route_dir(G, s, d, dir, cost, boxnode, pred, tmp);
        if (v < best) {
            best = v;
            memcpy(slots, tmp, h);
        }
    }
}

/* the largest load per unit of capacity over every send port, receive port and link: a lower bound on the steps of
   any schedule on these routes */
static double route_max(const bp *G)
{
    double m = 0;
    for (uint32_t v = 0; v < G->n; v++) {
        const double a = (double)G->ls[v] / G->cap[v], b = (double)G->lr[v] / G->cap[v];
        m = a > m ? a : m;
        m = b > m ? b : m;
    }
    for (size_t e = 0; e < (size_t)G->n * G->S; e++)
        m = (double)G->ll[e] > m ? (double)G->ll[e] : m;
    return m;
}

/*
 * Negotiation (after PathFinder's negotiated congestion): up to 64 nodes,
 * BP_NEGOTIATE passes in which every resource at the current largest load
 * per capacity, in whole steps, has its history factor raised by 1/2, and
 * every message is ripped up and routed again under the costs times the
 * factors; the routes with the smallest route_max() are kept.
 */
static totex_status negotiate(bp *G, double *cost, uint32_t *boxnode, unsigned char *pred, unsigned char *tmp,
                              totex_error *err)
{
    if (G->n > 64)
        return TOTEX_OK;
    const size_t hops = G->roff[(size_t)G->n * G->n];
    unsigned char *best = malloc(hops ? hops : 1);
    if (!best)
        return totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory");
    double bm = route_max(G);
    memcpy(best, G->route, hops);
    for (uint32_t pass = 0; pass < BP_NEGOTIATE; pass++) {
        const double m = ceil(route_max(G) - 1e-9), th = m - 1 + 1e-9;
        for (uint32_t v = 0; v < G->n; v++) {
            if ((double)G->ls[v] / G->cap[v] > th)
                G->hs[v] += 0.5;
            if ((double)G->lr[v] / G->cap[v] > th)
                G->hr[v] += 0.5;
        }
        for (size_t e = 0; e < (size_t)G->n * G->S; e++)
            if ((double)G->ll[e] > th)
                G->hl[e] += 0.5;
        for (uint32_t v = 0; v < G->n; v++) {
            G->ms[v] = marg(G->ls[v], G->cap[v], G->power) * G->hs[v];
            G->mr[v] = marg(G->lr[v], G->cap[v], G->power) * G->hr[v];
        }
        for (size_t e = 0; e < (size_t)G->n * G->S; e++)
            G->ml[e] = G->alpha * marg(G->ll[e], 1, G->power) * G->hl[e];
        for (uint32_t s = 0; s < G->n; s++)
            for (uint32_t j = 1; j < G->n; j++) {
                uint32_t d = (s + j) % G->n, id = d * G->n + s;
                route_load(G, id, s, -1);
                route_one(G, s, d, cost, boxnode, pred, G->route + G->roff[id], tmp);
                route_load(G, id, s, +1);
            }
        const double now = route_max(G);
        if (now < bm - 1e-9) {
            bm = now;
            memcpy(best, G->route, hops);
        }
    }
    /* the best routes, and their loads */
    for (uint32_t s = 0; s < G->n; s++)
        for (uint32_t j = 1; j < G->n; j++)
            route_load(G, ((s + j) % G->n) * G->n + s, s, -1);
    memcpy(G->route, best, hops);
    for (uint32_t s = 0; s < G->n; s++)
        for (uint32_t j = 1; j < G->n; j++)
            route_load(G, ((s + j) % G->n) * G->n + s, s, +1);
    free(best);
    return TOTEX_OK;
}

/*
 * State for a run under @p ports; the routes computed here with the cost's
 * exponent @p power and link share @p alpha (@p route NULL), or borrowed
 * (@p route, @p roff: the memo's).
 */
static totex_status bp_setup(bp *G, const totex_network *net, totex_ports ports, int power, double alpha,
                             unsigned char *route, uint32_t *roff, totex_error *err)
{
    memset(G, 0, sizeof *G);
    G->n = totex_network_nodes(net);
    G->k = totex_network_dims(net);
    const size_t n = G->n, nn = n * n;
    const uint32_t kp = totex_ports_k(ports);
    for (uint32_t i = 0; i < G->k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        G->m[i] = totex_factor_nodes(f);
        G->stride[i] = totex_network_stride(net, i);
        G->kind[i] = totex_factor_get_kind(f);
        G->sb[i] = G->S;
        G->S += factor_slots(f);
        G->H += totex_factor_diameter(f);
    }
    totex_status st = bal_routes(net, route, roff, &G->route, &G->roff, &G->borrowed, err);
    if (st != TOTEX_OK)
        return st;
    G->coord = malloc(sizeof *G->coord * n * G->k);
    G->nbr = malloc(sizeof *G->nbr * n * G->S);
    G->cap = malloc(sizeof *G->cap * n);
    G->iw = malloc(sizeof *G->iw * n);
    int stacks = bal_stacks_alloc(&G->B, G->n, G->S, G->H);
    G->ls = calloc(n, sizeof *G->ls);
    G->lr = calloc(n, sizeof *G->lr);
    G->ll = calloc(n * G->S, sizeof *G->ll);
    G->offers = malloc(sizeof *G->offers * n * G->S);
    G->ocount = malloc(sizeof *G->ocount * n);
    G->olist = malloc(sizeof *G->olist * n * G->S);
    G->scnt = malloc(sizeof *G->scnt * n);
    G->rcnt = malloc(sizeof *G->rcnt * n);
    G->rin = malloc(sizeof *G->rin * n * G->S);
    G->vis = calloc(n, sizeof *G->vis);
    G->key = malloc(sizeof *G->key * n);
    G->out = malloc(sizeof *G->out * n * G->S);
    double *cost = malloc(sizeof *cost * n);
    uint32_t *boxnode = malloc(sizeof *boxnode * n);
    unsigned char *pred = malloc(n), *tmp = malloc(G->H + 1);
    if (!G->coord || !G->nbr || !G->cap || !G->iw || !G->roff || !G->route || stacks || !G->ls || !G->lr || !G->ll ||
        !G->offers || !G->ocount || !G->olist || !G->scnt || !G->rcnt ||
        !G->rin || !G->vis || !G->key || !G->out || !cost || !boxnode || !pred || !tmp) {
        st = totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory for %u nodes", G->n);
        goto done;
    }
    bal_coords(net, G->coord);
    G->B.nbr = G->nbr;
    G->B.roff = G->roff;
    G->B.route = G->route;
    for (uint32_t u = 0; u < G->n; u++) {
        uint32_t deg = 0;
        for (uint32_t i = 0; i < G->k; i++) {
            const uint32_t c = G->coord[(size_t)u * G->k + i], m = G->m[i], base = u - c * G->stride[i];
            uint32_t *nb = G->nbr + (size_t)u * G->S + G->sb[i];
            if (G->kind[i] == TOTEX_FACTOR_PATH) {
                nb[0] = c + 1 < m ? u + G->stride[i] : BP_NONE;
                nb[1] = c > 0 ? u - G->stride[i] : BP_NONE;
            } else if (G->kind[i] == TOTEX_FACTOR_RING) {
                nb[0] = base + ((c + 1) % m) * G->stride[i];
                nb[1] = base + ((c + m - 1) % m) * G->stride[i];
                if (m == 2)
                    nb[1] = BP_NONE; /* ring:2 is one link */
            } else {
                for (uint32_t j = 0; j < m; j++)
                    nb[j] = j == c ? BP_NONE : base + j * G->stride[i];
            }
        }
        for (uint32_t s = 0; s < G->S; s++)
            deg += G->nbr[(size_t)u * G->S + s] != BP_NONE;
        G->cap[u] = deg < kp ? deg : kp;
        if (!G->cap[u])
            G->cap[u] = 1;
        if (G->cap[u] > G->cmax)
            G->cmax = G->cap[u];
        G->iw[u] = 1.0 / ((double)G->cap[u] * (double)G->cap[u]);
    }
    if (route) {
        for (uint32_t id = 0; id < nn; id++)
            if (id % G->n != id / G->n)
                route_load(G, id, id % G->n, +1);
        goto place;
    }
    bal_route_offsets(net, G->roff);
    G->power = power;
    G->alpha = alpha;
    G->ms = malloc(sizeof *G->ms * n);
    G->mr = malloc(sizeof *G->mr * n);
    G->ml = malloc(sizeof *G->ml * n * G->S);
    G->offs = malloc(sizeof *G->offs * G->k * (G->H + 2));
    G->hs = malloc(sizeof *G->hs * n);
    G->hr = malloc(sizeof *G->hr * n);
    G->hl = malloc(sizeof *G->hl * n * G->S);
    if (!G->ms || !G->mr || !G->ml || !G->offs || !G->hs || !G->hr || !G->hl) {
        st = totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory for %u nodes", G->n);
        goto done;
    }
    for (uint32_t v = 0; v < G->n; v++) {
        G->ms[v] = G->mr[v] = marg(0, G->cap[v], power);
        G->hs[v] = G->hr[v] = 1;
    }
    for (size_t e = 0; e < n * G->S; e++) {
        G->ml[e] = alpha * marg(0, 1, power);
        G->hl[e] = 1;
    }
    for (uint32_t r = 0, R = bp_rounds(net); r <= R; r++)
        for (uint32_t s = 0; s < G->n; s++)
            for (uint32_t j = 1; j < G->n; j++) {
                uint32_t d = (s + j) % G->n, id = d * G->n + s;
                if (r)
                    route_load(G, id, s, -1);
                route_one(G, s, d, cost, boxnode, pred, G->route + G->roff[id], tmp);
                route_load(G, id, s, +1);
            }
    if ((st = negotiate(G, cost, boxnode, pred, tmp, err)) != TOTEX_OK)
        goto done;
place:
    bal_stacks_place(&G->B);
done:
    free(cost);
    free(boxnode);
    free(pred);
    free(tmp);
    return st;
}

#define top_h(G, u, slot) bal_top_h(&(G)->B, u, slot)
#define tie_hash bal_tie_hash

static inline void match(bp *G, uint32_t i)
{
    bp_offer *o = &G->offers[i];
    o->matched = 1;
    G->scnt[o->u]++;
    G->rin[(size_t)o->x * G->S + G->rcnt[o->x]++] = i;
}

/*
 * One more send for @p u by an augmenting path: an unmatched offer of u to a
 * receiver with capacity left, else to a full receiver x one of whose senders
 * can move to another receiver (recursively). 1 when u got one more send.
 */
static int augment(bp *G, uint32_t u)
{
    const uint32_t *l = G->olist + (size_t)u * G->S;
    for (uint32_t j = 0; j < G->ocount[u]; j++) {
        uint32_t i = l[j], x = G->offers[i].x;
        if (!G->offers[i].matched && G->rcnt[x] < G->cap[x]) {
            match(G, i);
            return 1;
        }
    }
    for (uint32_t j = 0; j < G->ocount[u]; j++) {
        uint32_t i = l[j], x = G->offers[i].x;
        if (G->offers[i].matched || G->vis[x] == G->stamp)
            continue;
        G->vis[x] = G->stamp;
        for (uint32_t q = 0; q < G->rcnt[x]; q++) {
            uint32_t i2 = G->rin[(size_t)x * G->S + q], u2 = G->offers[i2].u;
            if (augment(G, u2)) {
                /* u2 sends elsewhere instead: x's place goes to u (x's list is unchanged: x is visited) */
                G->offers[i2].matched = 0;
                G->scnt[u2]--;
                G->rin[(size_t)x * G->S + q] = i;
                G->offers[i].matched = 1;
                G->scnt[u]++;
                return 1;
            }
        }
    }
    return 0;
}

typedef bal_key bp_key;

/*
 * Sort @p a (n entries) by decreasing key, ties by increasing u (stable
 * from increasing u), least significant byte first; @p tmp: n entries of
 * scratch. The result is in @p a.
 */
static void radix_desc(bp_key *a, bp_key *tmp, size_t n)
{
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++)
        top |= a[i].key;
    for (uint32_t sh = 0; sh < 64 && (top >> sh); sh += 8) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[255 - ((a[i].key >> sh) & 255)]++;
        for (uint32_t d = 0, at = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = at;
            at += (uint32_t)c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[cnt[255 - ((a[i].key >> sh) & 255)]++] = a[i];
        memcpy(a, tmp, sizeof *a * n);
    }
}

/* Take the message on top of (u, slot) (most hops left) and write its hop to G->out[nh]. */
static void take(bp *G, uint32_t u, uint32_t slot, size_t nh)
{
    const size_t base = (size_t)u * G->S + slot;
    bal_take(&G->B, u, slot, G->out, nh);
    G->ls[u]--;
    G->ll[base]--;
    G->lr[G->nbr[base]]--;
}

static int rec_step(bp_rec *r, const uint32_t *mv, size_t nh)
{
    nh *= 2; /* per hop: its link (u * S + slot) and its message (dst * n + src) */
    if (!bal_rec_reserve(r, nh))
        return 0;
    memcpy(r->mv + r->len, mv, sizeof *mv * nh);
    r->len += nh;
    r->cnt[r->steps++] = (uint32_t)(nh / 2);
    return 1;
}

/*
 * One step's matching, mode 0 (single-port's): senders by decreasing sends
 * left per port, a unit of capacity at a time, each by an augmenting path
 * (the greedy on the gammoid of the b-matching).
 */
static void match_senders(bp *G, const bp_key *keys, uint32_t ns, unsigned char *failed)
{
    G->stamp++;
    for (uint32_t r = 0; r < G->cmax; r++)
        for (uint32_t j = 0; j < ns; j++) {
            uint32_t u = keys[j].u;
            if (failed[u] || G->scnt[u] >= G->cap[u] || G->scnt[u] >= G->ocount[u])
                continue;
            if (augment(G, u))
                G->stamp++;
            else
                failed[u] = 1; /* no augmenting path now: none later in this step (a gammoid) */
        }
}

/*
 * One step's matching, mode 1 (k-port's): the offers by decreasing urgency,
 * the sum of the load left, in steps, of the three resources the hop uses
 * (u's send ports: sends / c_u; x's receive ports: receives / c_x; the link),
 * ties to the most hops left; each taken while its sender and receiver have
 * capacity left (a greedy b-matching, no augmenting: measured better under
 * k-port, where a swap moves a send to a less urgent link).
 */
static void match_offers(bp *G, bp_key *ord, size_t no, uint32_t seed, uint64_t t)
{
    for (size_t i = 0; i < no; i++) {
        const bp_offer *o = &G->offers[i];
        const size_t e = (size_t)o->u * G->S + o->slot;
        const uint64_t a = G->ls[o->u] * ((UINT64_C(1) << 20) / G->cap[o->u]), b = G->ll[e] << 20,
                       c = G->lr[o->x] * ((UINT64_C(1) << 20) / G->cap[o->x]);
        ord[i].key = ((a + b + c) << 8 | (o->h > 255 ? 255 : o->h)) << 12 | (tie_hash(seed, (uint32_t)e, t) & 0xFFF);
        ord[i].u = (uint32_t)i;
    }
    radix_desc(ord, ord + no, no);
    for (size_t i = 0; i < no; i++) {
        const bp_offer *o = &G->offers[ord[i].u];
        if (G->scnt[o->u] < G->cap[o->u] && G->rcnt[o->x] < G->cap[o->x])
            match(G, ord[i].u);
    }
}

/*
 * Run with matching @p mode and tie-break @p seed on the given routes; stop
 * early (steps_out = UINT64_MAX) past @p limit steps; record the moves into
 * @p rec.
 */
static totex_status bp_run(const totex_network *net, totex_ports ports, unsigned char *route, uint32_t *roff, int mode,
                           uint32_t seed, uint64_t limit, bp_rec *rec, uint64_t *steps_out, totex_error *err)
{
    bp G;
    totex_status st = bp_setup(&G, net, ports, 0, 0, route, roff, err);
    bp_key *keys = st == TOTEX_OK ? malloc(sizeof *keys * G.n) : NULL;
    bp_key *ord = st == TOTEX_OK ? malloc(sizeof *ord * 2 * G.n * G.S) : NULL; /* and the radix sort's scratch */
    uint32_t *mv = st == TOTEX_OK ? malloc(sizeof *mv * 2 * G.n * G.S) : NULL;
    unsigned char *failed = st == TOTEX_OK ? malloc(G.n) : NULL;
    uint64_t t = 0;
    if (st == TOTEX_OK && (!keys || !ord || !mv || !failed))
        st = totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory");
    for (uint32_t u = 0; st == TOTEX_OK && u < G.n; u++)
        keys[u].u = u;
    while (st == TOTEX_OK && G.B.left && t < limit) {
        size_t no = 0, nh = 0;
        uint32_t ns = 0;
        for (uint32_t u = 0; u < G.n; u++) {
            G.ocount[u] = G.scnt[u] = G.rcnt[u] = 0;
            failed[u] = 0;
            if (!G.B.held[u])
                continue;
            /* a node's links: the most load left first (the cut's links), then the most hops left */
            G.ocount[u] = bal_offers(&G.B, u, G.ll, G.offers, &no, G.olist + (size_t)u * G.S);
            /* sends left per port, scaled: 2^20 / c_u is exact enough for c_u <= 4096 */
            G.key[u] = ((G.ls[u] * ((UINT64_C(1) << 20) / G.cap[u])) << 12) | (tie_hash(seed, u, t) & 0xFFF);
        }
        if (mode == 0) {
            ns = bal_order_senders(keys, G.key, G.B.held, G.n); /* senders by decreasing key */
            match_senders(&G, keys, ns, failed);
        } else {
            match_offers(&G, ord, no, seed, t);
        }
        for (size_t i = 0; i < no; i++) {
            const bp_offer *o = &G.offers[i];
            if (!o->matched)
                continue;
            take(&G, o->u, o->slot, nh);
            mv[2 * nh] = o->u * G.S + o->slot;
            mv[2 * nh + 1] = G.out[nh].dst * G.n + G.out[nh].src;
            nh++;
        }
        if (rec && !rec_step(rec, mv, nh))
            st = totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory recording the schedule");
        if (st == TOTEX_OK)
            bal_arrive(&G.B, G.out, nh);
        t++;
    }
    free(keys);
    free(ord);
    free(mv);
    free(failed);
    bp_free(&G);
    if (st == TOTEX_OK)
        *steps_out = G.B.left ? UINT64_MAX : t;
    return st;
}

static totex_status bp_replay(const totex_network *net, totex_ports ports, unsigned char *route, uint32_t *roff,
                              const bp_rec *rec, totex_sink sink, totex_error *err)
{
    bp G;
    totex_status st = bp_setup(&G, net, ports, 0, 0, route, roff, err);
    size_t at = 0;
    for (size_t t = 0; st == TOTEX_OK && t < rec->steps; t++) {
        const size_t nh = rec->cnt[t];
        for (size_t i = 0; i < nh; i++, at += 2) {
            totex_hop *hp = &G.out[i];
            hp->from = rec->mv[at] / G.S;
            hp->to = G.nbr[rec->mv[at]];
            hp->src = rec->mv[at + 1] % G.n;
            hp->dst = rec->mv[at + 1] / G.n;
        }
        st = sink.step(sink.ctx, G.out, nh, err);
    }
    bp_free(&G);
    return st;
}

/* The portfolio: routing costs (exponent, links' share) and matching modes tried, and seeds per pair, by size. */
typedef struct bp_cfg {
    int power;
    double alpha;
} bp_cfg;
static const bp_cfg bp_costs[] = {{8, 2.0}, {4, 1.0}, {4, 0.5}, {2, 0.5}};

static uint32_t bp_seeds(uint32_t n)
{
    return n <= 16 ? 16 : n <= 64 ? 4 : 1;
}

/*
 * What the memo keeps for the last network and port model: the best routes
 * and the best run's recorded moves (predict searches, plan replays).
 */
typedef struct bp_kept {
    unsigned char *route;
    uint32_t *roff;
    bp_rec rec;
} bp_kept;

static void kept_free(void *p)
{
    bp_kept *k = p;
    free(k->route);
    free(k->roff);
    rec_free(&k->rec);
    free(k);
}

/*
 * Up to 64 nodes every routing cost of bp_costs with both matching modes
 * and bp_seeds() seeds each; above, one routing (p = 4, links' share 1) with
 * the port model's mode (0 single-port, 1 k-port) and one seed. The fewest
 * steps win; the first found on ties.
 */
static totex_status bp_best(const totex_network *net, totex_ports ports, totex_memo *m, totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    if (totex_memo_get(&totex_algorithm_balanced_ports, net, ports, m))
        return TOTEX_OK;
    bp_kept *memo = calloc(1, sizeof *memo);
    if (!memo)
        return totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory");
    const int wide = n <= 64;
    const size_t ncost = wide ? sizeof bp_costs / sizeof bp_costs[0] : 1;
    uint64_t best = UINT64_MAX;
    totex_status st = TOTEX_OK;
    for (size_t c = 0; c < ncost && st == TOTEX_OK; c++) {
        bp G;
        /* above 64 nodes one routing: (8, 2) under k-port, (4, 1) single-port */
        const bp_cfg *cfg = wide ? &bp_costs[c] : &bp_costs[ports == TOTEX_PORTS_SINGLE ? 1 : 0];
        st = bp_setup(&G, net, ports, cfg->power, cfg->alpha, NULL, NULL, err);
        unsigned char *route = G.route;
        uint32_t *roff = G.roff;
        G.borrowed = 1;
        bp_free(&G);
        if (st != TOTEX_OK) {
            free(route);
            free(roff);
            break;
        }
        int kept = 0;
        for (int mode = 0; mode < 2 && st == TOTEX_OK; mode++) {
            if (!wide && mode != (ports == TOTEX_PORTS_SINGLE ? 0 : 1))
                continue;
            for (uint32_t seed = 0; seed < (wide ? bp_seeds(n) : 1) && st == TOTEX_OK; seed++) {
                uint64_t steps;
                bp_rec rec = {0};
                st = bp_run(net, ports, route, roff, mode, seed, best == UINT64_MAX ? UINT64_MAX : best - 1, &rec, &steps,
                            err);
                if (st == TOTEX_OK && steps < best) {
                    best = steps;
                    rec_free(&memo->rec);
                    memo->rec = rec;
                    if (!kept) {
                        free(memo->route);
                        free(memo->roff);
                        memo->route = route;
                        memo->roff = roff;
                        kept = 1;
                    }
                } else {
                    rec_free(&rec);
                }
            }
        }
        if (!kept) {
            free(route);
            free(roff);
        }
    }
    if (st != TOTEX_OK) {
        kept_free(memo);
        return st;
    }
    totex_memo_put(&totex_algorithm_balanced_ports, net, ports, best, 0, memo, kept_free);
    if (!totex_memo_get(&totex_algorithm_balanced_ports, net, ports, m))
        return totex_fail(err, TOTEX_ENOMEM, "balanced-ports: out of memory");
    return TOTEX_OK;
}

static totex_status bp_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_memo m;
    totex_status st = bp_applies(net, ports, err);
    if (st == TOTEX_OK)
        st = bp_best(net, ports, &m, err);
    if (st == TOTEX_OK)
        *steps = m.steps;
    return st;
}

static totex_status bp_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_memo m;
    totex_status st = bp_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "balanced-ports: no sink to stream the schedule into");
    if ((st = bp_best(net, ports, &m, err)) != TOTEX_OK)
        return st;
    const bp_kept *k = m.data;
    return bp_replay(net, ports, k->route, k->roff, &k->rec, sink, err);
}

const totex_algorithm totex_algorithm_balanced_ports = {
    .name = "balanced-ports",
    .title = "k-port (and single-port) products with a path: routes balanced per port and link, sends b-matched "
             "busiest-port first",
    .source = "this project (docs/algorithms/balanced-ports.md); 001 Section 7 (k-port); src/bounds/forwarding.c (why the middle is the bottleneck); "
              "balanced-greedy",
    .applies = bp_applies,
    .predict = bp_predict,
    .plan = bp_plan,
    .costly_predict = 1,
};
