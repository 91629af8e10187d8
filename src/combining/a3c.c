/*
 * a3c -- Algorithm A3 in the message-combining model: on a homogeneous
 * G = H^(2^k) = A x B (A the low half of the dimensions, B the high half,
 * A = B), the A- and B-exchanges run at once on disjoint links.
 *
 * Papers:  000 Section 5 (Algorithm A3, Fig. 6: in every round the
 *          A-exchange in the copies A_j and the B-exchange in the copies B_i
 *          run at the same time, multiport); 000 Section 4 (A2, whose
 *          combined version src/combining/a2c.c is used inside each half);
 *          003 Section 4 (message-shift on rings); 002 Sections 2-3
 *          (combining, rearrangement between phases).
 *
 * Model (include/totex/combining.h), ALL-PORT only: every step a node sends
 * one combined message on an A-link and one on a B-link. One-port is refused
 * (the two exchanges of a round would make a node inject two transfers per
 * step). With combining, A3's N rounds of (A-exchange | B-exchange) collapse
 * into two rounds, as A2's B-phases collapse in a2c:
 *   - every block (s, t) is assigned to one of two classes by the parity of
 *     the sum of all coordinates of s and t: class AB goes A-first (first to
 *     (t_A, s_B), then to t), class BA goes B-first (first to (s_A, t_B));
 *     a block with t_A = s_A or t_B = s_B still takes both rounds, idle in one;
 *   - round 1: class AB is exchanged in A, dimension by dimension (last of A
 *     first), while at the same steps class BA is exchanged in B, dimension
 *     by dimension (last of B first); dimension h-1-i of A is paired with
 *     dimension k-1-i of B, which has the same factor, so both take the same
 *     number of steps;
 *   - round 2: class AB in B and class BA in A, likewise.
 * Inside one dimension of size m, every block in flight moves at every step
 * as in a2c's all-port pipeline: ring the short way (ties +), one hop per
 * step, floor(m/2) steps; path one hop per step towards its target, m - 1
 * steps; k2 / complete m - 1 direct rounds (round r: the blocks whose target
 * coordinate is x_d + r); file graphs the same rounds along the simulator's
 * routes. Every node sends, per step and per direction of a dimension, one
 * message with all the blocks that move that way; A-links and B-links are
 * disjoint, so a step is contention-free (the packer of src/combining/pack.h
 * would split it otherwise, and the start-ups would show it).
 * Rearrangement: n blocks per node before every dimension phase but the first
 * (k - 1 rounds of rearrangement, as a2c).
 *
 * Cost: 2 sum_{d in A} S_d t_s + sum_steps (largest message) m t_c
 *       + (k-1) n m rho, S_d = floor(m/2) (ring), m - 1 (path, k2, complete):
 * the start-ups of a2c all-port (sum over all k dimensions of S_d), with
 * messages about half as large (each carries one class only).
 */
#include "totex/combining.h"

#include <stdlib.h>
#include <string.h>

#include "combining/pack.h"
#include "common/error.h"

typedef struct move {
    uint32_t from, to;
    totex_block b;
} move;

static int move_cmp(const void *x, const void *y)
{
    const move *a = x, *b = y;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return 0;
}

/* steps of the all-port pipeline in a dimension of factor f */
static uint32_t dim_steps(const totex_factor *f)
{
    uint32_t m = totex_factor_nodes(f);
    return totex_factor_get_kind(f) == TOTEX_FACTOR_RING ? m / 2 : m - 1;
}

/* where block at node cur bound for coordinate t in dimension d goes in step j (1-based); cur if it stays */
static uint32_t next_node(const totex_network *net, uint32_t d, uint32_t cur, uint32_t t, uint32_t j)
{
    const totex_factor *f = totex_network_factor(net, d);
    const uint32_t m = totex_factor_nodes(f), stride = totex_network_stride(net, d);
    const uint32_t a = totex_network_coord(net, cur, d);
    uint32_t nx;
    if (a == t)
        return cur;
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_RING: nx = 2 * ((t + m - a) % m) <= m ? (a + 1) % m : (a + m - 1) % m; break;
    case TOTEX_FACTOR_PATH: nx = t > a ? a + 1 : a - 1; break;
    default:
        if ((t + m - a) % m != j)
            return cur;
        nx = t;
        break;
    }
    return cur - a * stride + nx * stride;
}

static totex_status a3c_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                              totex_error *err)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net), h = k / 2;
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    uint32_t *cur = NULL;
    uint8_t *cls = NULL;
    move *mv = NULL;
    totex_block *buf = NULL;
    totex_status st;
    int first = 1;
    *out = NULL;
    if (cost->ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3c is all-port (000 Section 5): in every step each node sends on an A-link and on a B-link at once, two injections, which one-port forbids; use a2c for one-port");
    if (!totex_network_homogeneous(net))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3c needs a homogeneous network H^(2^k) (000 Section 5): %s has different dimensions; use a2c",
                          totex_network_spec(net));
    if (k < 2 || (k & (k - 1)))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3c needs 2^k >= 2 dimensions (000 Section 5): %s has %u; use a2c", totex_network_spec(net),
                          k);
    if ((st = totex_pack_begin("a3c", net, cost, &s, &p, err)) != TOTEX_OK)
        return st;
    cur = malloc(sizeof *cur * (size_t)n * n);
    cls = malloc((size_t)n * n);
    mv = malloc(sizeof *mv * (size_t)n * n);
    buf = malloc(sizeof *buf * (size_t)n * n);
    if (!cur || !cls || !mv || !buf) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building a3c on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            uint32_t sum = 0;
            for (uint32_t d = 0; d < k; d++)
                sum += totex_network_coord(net, a, d) + totex_network_coord(net, b, d);
            cur[(size_t)a * n + b] = a;
            cls[(size_t)a * n + b] = (uint8_t)(sum % 2); /* 0: A first (AB), 1: B first (BA) */
        }
    for (uint32_t round = 0; round < 2; round++)
        for (uint32_t i = 0; i < h; i++) {
            /* class 0 in A (round 0) / B (round 1); class 1 the other half */
            const uint32_t dA = h - 1 - i, dB = k - 1 - i;
            const uint32_t dim0 = round == 0 ? dA : dB, dim1 = round == 0 ? dB : dA;
            const uint32_t steps = dim_steps(totex_network_factor(net, dA));
            uint64_t rearr = first ? 0 : n;
            first = 0;
            for (uint32_t j = 1; j <= steps; j++) {
                size_t nm = 0;
                for (uint32_t a = 0; a < n; a++)
                    for (uint32_t b = 0; b < n; b++) {
                        const size_t x = (size_t)a * n + b;
                        const uint32_t d = cls[x] ? dim1 : dim0;
                        uint32_t to;
                        if (a == b)
                            continue;
                        to = next_node(net, d, cur[x], totex_network_coord(net, b, d), j);
                        if (to == cur[x])
                            continue;
                        mv[nm].from = cur[x];
                        mv[nm].to = to;
                        mv[nm].b.src = a;
                        mv[nm].b.dst = b;
                        nm++;
                        cur[x] = to;
                    }
                qsort(mv, nm, sizeof *mv, move_cmp);
                for (size_t q = 0; q < nm;) {
                    size_t e = q, c = 0;
                    while (e < nm && mv[e].from == mv[q].from && mv[e].to == mv[q].to)
                        buf[c++] = mv[e++].b;
                    if ((st = totex_pack_add(p, mv[q].from, mv[q].to, buf, c, err)) != TOTEX_OK)
                        goto done;
                    q = e;
                }
                if ((st = totex_pack_flush(p, rearr, err)) != TOTEX_OK)
                    goto done;
                rearr = 0;
            }
        }
done:
    free(cur);
    free(cls);
    free(mv);
    free(buf);
    return totex_pack_end(st, p, s, out);
}

/*
 * The report of a3c_build()'s schedule without building it, on networks
 * whose factors are rings, k2 or complete graphs of even size: there both the
 * classes (the parity of the coordinate sum of source and destination: even
 * sides keep it when a coordinate wraps) and the moves are invariant under
 * translation, so in every step every node sends, towards
 * each neighbour offset e, as many blocks as there are blocks of source 0
 * that move by e (summing over the n translates). Following the n - 1 blocks
 * of node 0 gives every step's largest message: O(steps x n) time, O(n)
 * memory, instead of the schedule's O(n^2) blocks. Paths and odd sides are
 * not translation invariant: build the schedule.
 */
static totex_status a3c_translated(const totex_network *net, const totex_comb_cost *cost, totex_comb_report *rep,
                                   totex_comb_schedule *node0, totex_error *err);

static totex_status a3c_predict(const totex_network *net, const totex_comb_cost *cost, totex_comb_report *rep,
                                totex_error *err)
{
    return a3c_translated(net, cost, rep, NULL, err);
}

/* node 0's transfers: the blocks of source 0 that move by offset e in a step, each shifted back by
   the node c it leaves (block (0, b) at c is, translated by -c, block (-c, b - c) at node 0) */
static totex_status a3c_plan_node0(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                   totex_error *err)
{
    totex_comb_schedule *s = totex_comb_schedule_new();
    *out = NULL;
    if (!s)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory planning a3c's node 0 on %s", totex_network_spec(net));
    totex_status st = a3c_translated(net, cost, NULL, s, err);
    if (st == TOTEX_OK)
        *out = s;
    else
        totex_comb_schedule_free(s);
    return st;
}

/* node id of coordinates (coord(u) - coord(c)) mod m, per factor */
static uint32_t shift_back(const totex_network *net, uint32_t u, uint32_t c)
{
    uint32_t id = 0;
    for (uint32_t d = 0; d < totex_network_dims(net); d++) {
        const uint32_t m = totex_factor_nodes(totex_network_factor(net, d));
        id += ((totex_network_coord(net, u, d) + m - totex_network_coord(net, c, d)) % m) * totex_network_stride(net, d);
    }
    return id;
}

/* predict (rep) or node 0's transfers (node0) by following the blocks of source 0 */
static totex_status a3c_translated(const totex_network *net, const totex_comb_cost *cost, totex_comb_report *rep,
                                   totex_comb_schedule *node0, totex_error *err)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net), h = k / 2;
    if (cost->ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "a3c is all-port (000 Section 5); use a2c for one-port");
    if (!totex_network_homogeneous(net))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "a3c needs a homogeneous network H^(2^k) (000 Section 5): %s",
                          totex_network_spec(net));
    if (k < 2 || (k & (k - 1)))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "a3c needs 2^k >= 2 dimensions (000 Section 5): %s has %u",
                          totex_network_spec(net), k);
    if ((uint64_t)n * n > TOTEX_COMB_MAX_BLOCKS)
        return totex_fail(err, TOTEX_ENOMEM, "a3c on %s: %u nodes exceed the combining limit of %llu blocks",
                          totex_network_spec(net), n, (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
    const uint32_t m = totex_factor_nodes(totex_network_factor(net, 0));
    for (uint32_t d = 0; d < k; d++) {
        totex_factor_kind kind = totex_factor_get_kind(totex_network_factor(net, d));
        if ((kind != TOTEX_FACTOR_RING && kind != TOTEX_FACTOR_K2 && kind != TOTEX_FACTOR_COMPLETE) || m % 2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "a3c's closed form covers factors of even size that are rings, k2 or complete graphs "
                              "(where the classes and moves are translation invariant), not %s: build the schedule",
                              totex_network_spec(net));
    }
    uint32_t *cur = malloc(sizeof *cur * (size_t)n);
    uint8_t *cls = malloc((size_t)n);
    uint64_t *count = calloc((size_t)k * m, sizeof *count); /* per dimension and offset: moving blocks */
    move *mv = node0 ? malloc(sizeof *mv * (size_t)n) : NULL;
    totex_block *buf = node0 ? malloc(sizeof *buf * (size_t)n) : NULL;
    totex_status st = TOTEX_OK;
    if (!cur || !cls || !count || (node0 && (!mv || !buf))) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory following a3c's blocks on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t b = 0; b < n; b++) {
        uint32_t sum = 0;
        for (uint32_t d = 0; d < k; d++)
            sum += totex_network_coord(net, 0, d) + totex_network_coord(net, b, d);
        cur[b] = 0;
        cls[b] = (uint8_t)(sum % 2);
    }
    totex_comb_report r;
    memset(&r, 0, sizeof r);
    int first = 1;
    for (uint32_t round = 0; round < 2; round++)
        for (uint32_t i = 0; i < h; i++) {
            const uint32_t dA = h - 1 - i, dB = k - 1 - i;
            const uint32_t dim0 = round == 0 ? dA : dB, dim1 = round == 0 ? dB : dA;
            const uint32_t steps = dim_steps(totex_network_factor(net, dA));
            uint64_t rearr = first ? 0 : n;
            first = 0;
            for (uint32_t j = 1; j <= steps; j++) {
                memset(count, 0, sizeof *count * (size_t)k * m);
                uint64_t moved = 0;
                for (uint32_t b = 1; b < n; b++) {
                    const uint32_t d = cls[b] ? dim1 : dim0;
                    const uint32_t to = next_node(net, d, cur[b], totex_network_coord(net, b, d), j);
                    if (to == cur[b])
                        continue;
                    const uint32_t off = (totex_network_coord(net, to, d) + m - totex_network_coord(net, cur[b], d)) % m;
                    count[(size_t)d * m + off]++;
                    if (node0) { /* node 0's move: (-c, b - c) to the node at offset off along d */
                        mv[moved].from = 0;
                        mv[moved].to = off * totex_network_stride(net, d);
                        mv[moved].b.src = shift_back(net, 0, cur[b]);
                        mv[moved].b.dst = shift_back(net, b, cur[b]);
                    }
                    moved++;
                    cur[b] = to;
                }
                /* the packer's step: a rearrangement alone still makes one (empty) step */
                if (moved || rearr) {
                    r.steps++;
                    r.rearranged_blocks += rearr;
                    if (node0 && ((st = totex_comb_begin_step(node0, err)) != TOTEX_OK ||
                                  (rearr && (st = totex_comb_rearrange(node0, rearr, err)) != TOTEX_OK)))
                        goto done;
                }
                rearr = 0;
                if (!moved)
                    continue;
                if (node0) { /* one transfer per offset, its blocks in the order followed */
                    for (size_t q = 0; q < k * (size_t)m; q++) {
                        const uint32_t to = (uint32_t)(q % m) * totex_network_stride(net, (uint32_t)(q / m));
                        size_t c = 0;
                        for (size_t x = 0; x < moved && count[q]; x++)
                            if (mv[x].to == to)
                                buf[c++] = mv[x].b;
                        if (c && (st = totex_comb_add_transfer(node0, 0, to, buf, c, err)) != TOTEX_OK)
                            goto done;
                    }
                }
                uint64_t largest = 0;
                for (size_t q = 0; q < (size_t)k * m; q++) {
                    if (count[q] > largest)
                        largest = count[q];
                    r.transfers += count[q] ? n : 0;
                }
                r.startups++;
                r.blocks_transmitted += largest;
                r.block_hops += moved * n;
                r.route_hops_sum++;
                r.max_route_hops = 1;
            }
        }
    r.blocks_delivered = (uint64_t)n * (n - 1);
    r.time_startup = (double)r.startups * cost->t_s;
    r.time_transmission = (double)r.blocks_transmitted * cost->m * cost->t_c;
    r.time_propagation = cost->switching == TOTEX_SWITCH_STORE_FORWARD ? (double)r.route_hops_sum * cost->t_l : 0.0;
    r.time_rearrangement = (double)r.rearranged_blocks * cost->m * cost->rho;
    r.predicted_time = r.time_startup + r.time_transmission + r.time_propagation + r.time_rearrangement;
    if (rep)
        *rep = r;
done:
    free(cur);
    free(cls);
    free(count);
    free(mv);
    free(buf);
    return st;
}

const totex_comb_algorithm totex_comb_a3 = {
    .name = "a3c",
    .title = "A3 with combining: A- and B-halves exchanged at once (all-port), two classes of blocks, homogeneous H^(2^k)",
    .source = "000 Section 5 (A3), 000 Section 4 (A2), 003 Section 4 (message-shift), 002 Sections 2-3 (combining)",
    .cost = "2 sum_{d in A} S_d t_s + sum_steps (largest message) m t_c + (k-1) n m rho; S_d = floor(m/2) (ring), "
            "m-1 (path, k2, complete); all-port only",
    .build = a3c_build,
    .predict = a3c_predict,
    .plan_node0 = a3c_plan_node0,
};
