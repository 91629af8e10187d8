/*
 * Pipeline: multiport total exchange on two-dimensional meshes R x C with
 * R != C (and on path x ring products), the critical dimension as back-to-back
 * optimal factor rounds and the other dimension pipelined underneath.
 *
 * Source:  issue 13 item 1 (beyond the papers); it composes 003 Section 3
 *          (furthest-first on a linear array, ceil((m^2-1)/4) steps, Theorem
 *          1) or 003 Section 4 (message-shift on a ring) with the cut bound
 *          of 000 eq. (4) lifted as in 000 Theorem 5 (src/bounds/cut.c), and
 *          the non-wasting furthest-first rule of 001 Section 5 on the other
 *          dimension. A3 (000 Section 5) needs a square mesh; this does not.
 * Model:   multiport (every directed link carries one message per step).
 * Idea:    let X be the critical dimension (m_X nodes, factor steps T_X;
 *          the one maximising (n / m_X) * T_X, the cut bound) and Y the other
 *          (m_Y nodes). Dimension-ordered routing X then Y loads every X link
 *          of a row with m_Y times the load of one factor total exchange, so:
 *           - X phase: each row runs m_Y rounds of the factor schedule of X
 *             back to back, T = m_Y * T_X steps, the critical links never
 *             idle. In round k, row y carries, from each (y, x) to each
 *             (y, x'), x' != x, the message for (pi_y(k), x'), where pi_y
 *             lists the rows by decreasing distance from y, y itself last:
 *             the messages with the longest Y way to go cross first, those
 *             with none cross last (they arrive delivered).
 *           - Y moves: a message that reached its destination column (or
 *             starts there) moves along Y on a shortest path, pipelined on
 *             the Y links, which the X phase never uses: every directed Y
 *             link sends, each step, the waiting message with the largest
 *             remaining Y distance (furthest first, 003 Section 3 / 001
 *             Section 5). On an even ring Y, offset m_Y/2 goes '+' or '-' by
 *             the parity of the source's coordinates.
 * Steps:   max(m_Y * T_X, the step the last Y move lands); predict runs the
 *          construction and counts (costly; memoised per thread for the plan
 *          that follows).
 * Optimal: when it ends at m_Y * T_X = the cut bound (000 eq. (4) lifted): on
 *          every mesh R x C, 2 <= R, C <= 32, R != C, except those listed in
 *          tests/test_pipeline.c (measured; bench/pipeline_sweep.sh prints
 *          the sweep with ratios).
 *
 * Data: the X phase is the factor schedule translated to every row; the Y
 * queues are per (node, direction) buckets by remaining distance, each an
 * intrusive stack over one 4-byte link per message, with a bit mask of the
 * non-empty buckets (the furthest is its highest bit). Memory: 4 bytes per
 * message plus the factor schedule. Work per step: O(hops + n).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"

#define PL_NONE UINT32_MAX
/* Largest network: 4 bytes per message for the Y queues, at most 1 GiB. */
#define PL_MAX_NODES 16384u

/* A bucket is a stack of 64-byte chunks of message ids (one cache line each). */
#define PL_CH 14
typedef struct pl_chunk {
    uint32_t below; /* 1 + the chunk under it, 0 for none */
    uint32_t n;
    uint32_t id[PL_CH];
} pl_chunk;

typedef struct pl {
    const totex_network *net;
    uint32_t n, mx, my, dx, dy, strx, stry;
    const totex_factor *fx, *fy;
    int yring;
    totex_schedule *xs; /* factor schedule of X, multiport */
    uint64_t F;         /* its steps */
    uint32_t *perm;     /* my * my: row served in round k by row y */
    uint32_t D, W;      /* buckets per (node, direction) (distances 1 .. D-1), mask words */
    int ids;            /* 1: keep the messages (planning); 0: counts only (predicting the steps) */
    uint32_t *cnt;      /* n * 2 * D: messages per bucket */
    uint32_t *head;     /* n * 2 * D: 1 + the bucket's top chunk, 0 when empty (ids only) */
    pl_chunk *chunk;    /* the pool of chunks; message id = dst * n + src */
    uint32_t nchunk, chunk_cap, chunk_free; /* used, allocated, free list (1 + index, 0: none) */
    uint64_t *mask;     /* n * 2 * W */
    uint64_t queued;    /* messages in the Y stacks */
    totex_hop *xh;      /* the factor's hops, coordinates scaled by the X stride (row 0), step by step */
    uint64_t *xoff;     /* F + 1 offsets into xh */
    uint32_t *arr;      /* per step, the indices (into xh) of the hops that reach their destination column */
    uint64_t *aoff;     /* F + 1 offsets into arr */
    uint64_t magic;     /* ceil(2^44 / n): id / n = (id * magic) >> 44 for id < n^2, n <= 2^14 */
    uint32_t *pend;     /* Y hops of the step that land short of their destination: node, dir, dist, id */
    totex_hop *buf;
    size_t cap;
} pl;

static void pl_free(pl *P)
{
    totex_schedule_free(P->xs);
    free(P->perm);
    free(P->cnt);
    free(P->head);
    free(P->chunk);
    free(P->mask);
    free(P->buf);
    free(P->xh);
    free(P->xoff);
    free(P->arr);
    free(P->aoff);
    free(P->pend);
}

static inline uint32_t ycoord(const pl *P, uint32_t v) { return (v / P->stry) % P->my; }
static inline uint32_t xcoord(const pl *P, uint32_t v) { return (v / P->strx) % P->mx; }
static inline uint32_t node_of(const pl *P, uint32_t x, uint32_t y) { return x * P->strx + y * P->stry; }

/* Y distance and direction (0: towards larger y, 1: smaller) from row a to row b of the message from src. */
static inline uint32_t ydir(const pl *P, uint32_t a, uint32_t b, uint32_t src, uint32_t *dir)
{
    if (!P->yring) {
        *dir = b < a;
        return b > a ? b - a : a - b;
    }
    uint32_t up = (b + P->my - a) % P->my, down = P->my - up;
    if (up < down || (up == down && ((xcoord(P, src) + ycoord(P, src)) & 1) == 0)) {
        *dir = 0;
        return up;
    }
    *dir = 1;
    return down;
}

static inline uint32_t ynext(const pl *P, uint32_t y, uint32_t dir)
{
    if (dir == 0)
        return y + 1 == P->my ? 0 : y + 1;
    return y == 0 ? P->my - 1 : y - 1;
}

static uint32_t chunk_new(pl *P, uint32_t below)
{
    uint32_t c;
    if (P->chunk_free) {
        c = P->chunk_free - 1;
        P->chunk_free = P->chunk[c].below;
    } else {
        if (P->nchunk == P->chunk_cap) {
            uint32_t cap = P->chunk_cap ? 2 * P->chunk_cap : 4096;
            pl_chunk *b = realloc(P->chunk, sizeof *b * cap);
            if (!b)
                return UINT32_MAX;
            P->chunk = b;
            P->chunk_cap = cap;
        }
        c = P->nchunk++;
    }
    P->chunk[c].below = below;
    P->chunk[c].n = 0;
    return c;
}

/* Queue message @p id at (v, dir) with @p dist Y hops to go. 0, or -1 when out of memory. */
static inline int push(pl *P, uint32_t v, uint32_t dir, uint32_t dist, uint32_t id)
{
    size_t b = ((size_t)v * 2 + dir) * P->D + dist;
    if (!P->cnt[b]++)
        P->mask[((size_t)v * 2 + dir) * P->W + dist / 64] |= UINT64_C(1) << (dist % 64);
    P->queued++;
    if (P->ids) {
        uint32_t h = P->head[b];
        if (!h || P->chunk[h - 1].n == PL_CH) {
            uint32_t c = chunk_new(P, h);
            if (c == UINT32_MAX)
                return -1;
            P->head[b] = h = c + 1;
        }
        pl_chunk *ch = &P->chunk[h - 1];
        ch->id[ch->n++] = id;
    }
    return 0;
}

/* Pop the message with the largest remaining distance from (v, dir); PL_NONE if none (0 when counting). */
static inline uint32_t pop(pl *P, uint32_t v, uint32_t dir, uint32_t *dist)
{
    uint64_t *m = P->mask + ((size_t)v * 2 + dir) * P->W;
    for (uint32_t w = P->W; w-- > 0;) {
        if (!m[w])
            continue;
        uint32_t d = 64 * w + 63 - (uint32_t)__builtin_clzll(m[w]), id = 0;
        size_t b = ((size_t)v * 2 + dir) * P->D + d;
        if (!--P->cnt[b])
            m[w] &= ~(UINT64_C(1) << (d % 64));
        P->queued--;
        if (P->ids) {
            uint32_t h = P->head[b];
            pl_chunk *ch = &P->chunk[h - 1];
            id = ch->id[--ch->n];
            if (!ch->n) {
                P->head[b] = ch->below;
                ch->below = P->chunk_free;
                P->chunk_free = h;
            }
        }
        *dist = d;
        return id;
    }
    return PL_NONE;
}

/* The critical dimension: the larger lifted cut (n / m_i) * T_i; ties go to a path. */
static totex_status choose_dims(const totex_network *net, uint32_t *dx, uint32_t *dy, uint64_t *tx, totex_error *err)
{
    uint64_t t[2], v[2];
    uint32_t n = totex_network_nodes(net);
    for (uint32_t i = 0; i < 2; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_status st = totex_factor_predict(f, TOTEX_PORTS_MULTI, &t[i], err);
        if (st != TOTEX_OK)
            return st;
        v[i] = (uint64_t)(n / totex_factor_nodes(f)) * t[i];
    }
    int pick1 = v[1] > v[0] ||
                (v[1] == v[0] && totex_factor_get_kind(totex_network_factor(net, 1)) == TOTEX_FACTOR_PATH);
    *dx = pick1 ? 1 : 0;
    *dy = 1 - *dx;
    *tx = t[*dx];
    return TOTEX_OK;
}

static totex_status pl_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline is a multiport algorithm (its two dimensions work at once); use --ports multi, or a2 / greedy for single-port and k-port");
    if (totex_network_dims(net) != 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline needs exactly 2 dimensions (a mesh R x C or a path x ring product); %s has %u (use greedy or a2)",
                          totex_network_spec(net), totex_network_dims(net));
    int paths = 0;
    for (uint32_t i = 0; i < 2; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_factor_kind kd = totex_factor_get_kind(f);
        if (kd != TOTEX_FACTOR_PATH && kd != TOTEX_FACTOR_RING)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "pipeline needs paths and rings; dimension %u is %s (use greedy or a2)", i,
                              totex_factor_name(f));
        if (totex_factor_nodes(f) < 2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE, "pipeline needs factors of at least 2 nodes; dimension %u is %s",
                              i, totex_factor_name(f));
        paths += kd == TOTEX_FACTOR_PATH;
    }
    if (!paths)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline is for meshes and path x ring products; %s is a torus, where octr meets the bound (use octr)",
                          totex_network_spec(net));
    if (totex_network_nodes(net) > PL_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline keeps 4 bytes per message and stops at %u nodes (1 GiB); %s has %u (use a2 or greedy)",
                          PL_MAX_NODES, totex_network_spec(net), totex_network_nodes(net));
    return TOTEX_OK;
}

static totex_status pl_setup(pl *P, const totex_network *net, int ids, totex_error *err)
{
    uint64_t tx;
    totex_status st;
    memset(P, 0, sizeof *P);
    P->net = net;
    P->ids = ids;
    P->n = totex_network_nodes(net);
    if ((st = choose_dims(net, &P->dx, &P->dy, &tx, err)) != TOTEX_OK)
        return st;
    P->fx = totex_network_factor(net, P->dx);
    P->fy = totex_network_factor(net, P->dy);
    P->mx = totex_factor_nodes(P->fx);
    P->my = totex_factor_nodes(P->fy);
    P->strx = totex_network_stride(net, P->dx);
    P->stry = totex_network_stride(net, P->dy);
    P->yring = totex_factor_get_kind(P->fy) == TOTEX_FACTOR_RING;
    if ((st = totex_factor_schedule(P->fx, TOTEX_PORTS_MULTI, &P->xs, NULL, err)) != TOTEX_OK)
        return st;
    P->F = totex_schedule_steps(P->xs);
    P->D = totex_factor_diameter(P->fy) + 1;
    P->W = (P->D + 63) / 64;
    size_t nb = (size_t)P->n * 2 * P->D;
    size_t maxx = 0;
    for (uint64_t s = 0; s < P->F; s++) {
        size_t c;
        totex_schedule_step(P->xs, s, &c);
        if (c > maxx)
            maxx = c;
    }
    P->cap = maxx * P->my + 2 * (size_t)P->n;
    uint64_t fh = totex_schedule_hops(P->xs);
    P->xh = malloc(sizeof *P->xh * (fh ? fh : 1));
    P->arr = malloc(sizeof *P->arr * (fh ? fh : 1));
    P->xoff = malloc(sizeof *P->xoff * (P->F + 1));
    P->aoff = malloc(sizeof *P->aoff * (P->F + 1));
    P->pend = malloc(sizeof *P->pend * 4 * 2 * (size_t)P->n);
    if (!P->xh || !P->arr || !P->xoff || !P->aoff || !P->pend)
        return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory");
    uint64_t nxh = 0, na = 0;
    for (uint64_t s = 0; s < P->F; s++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(P->xs, s, &c);
        P->xoff[s] = nxh;
        P->aoff[s] = na;
        for (size_t i = 0; i < c; i++) {
            if (h[i].to == h[i].dst)
                P->arr[na++] = (uint32_t)(nxh - P->xoff[s]);
            P->xh[nxh].from = h[i].from * P->strx;
            P->xh[nxh].to = h[i].to * P->strx;
            P->xh[nxh].src = h[i].src * P->strx;
            P->xh[nxh].dst = h[i].dst * P->strx;
            nxh++;
        }
    }
    P->xoff[P->F] = nxh;
    P->aoff[P->F] = na;
    P->magic = ((UINT64_C(1) << 44) + P->n - 1) / P->n;
    P->perm = malloc(sizeof *P->perm * P->my * P->my);
    P->cnt = calloc(nb, sizeof *P->cnt);
    P->head = calloc(nb, sizeof *P->head);
    P->mask = calloc((size_t)P->n * 2 * P->W, sizeof *P->mask);
    P->buf = malloc(sizeof *P->buf * (P->cap ? P->cap : 1));
    if (!P->perm || !P->cnt || !P->head || !P->mask || !P->buf)
        return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for %u nodes", P->n);
    /* pi_y: rows by decreasing distance from y (ties: the larger row first), y itself last */
    for (uint32_t y = 0; y < P->my; y++) {
        uint32_t *p = P->perm + (size_t)y * P->my, c = 0;
        for (uint32_t d = P->D; d-- > 1;) {
            for (uint32_t r = P->my; r-- > 0;)
                if (totex_factor_distance(P->fy, y, r) == d)
                    p[c++] = r;
        }
        p[c++] = y;
    }
    /* messages for the own column move along Y only, from the start */
    for (uint32_t v = 0; v < P->n; v++) {
        uint32_t x = xcoord(P, v), y = ycoord(P, v);
        for (uint32_t r = 0; r < P->my; r++) {
            if (r == y)
                continue;
            uint32_t w = node_of(P, x, r), dir;
            uint32_t d = ydir(P, y, r, v, &dir);
            if (push(P, v, dir, d, w * P->n + v))
                return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
        }
    }
    return TOTEX_OK;
}

/* Run the construction; emit into @p sink when it has a step function; count the steps. */
static totex_status pl_run(const totex_network *net, totex_sink sink, uint64_t *steps_out, totex_error *err)
{
    pl P;
    totex_status st = pl_setup(&P, net, sink.step != NULL, err);
    const uint64_t tx = P.F * P.my;
    const uint32_t n = P.n, my = P.my, mx = P.mx, strx = P.strx, stry = P.stry;
    uint64_t t = 0;
    while (st == TOTEX_OK && (t < tx || P.queued)) {
        size_t nh = 0, np = 0;
        const uint32_t k = (uint32_t)(t / P.F), fs = (uint32_t)(t % P.F);
        /* X phase: the factor's step fs in every row, round k (hops only when emitting) */
        if (t < tx && sink.step) {
            const totex_hop *h = P.xh + P.xoff[fs];
            const size_t c = (size_t)(P.xoff[fs + 1] - P.xoff[fs]);
            for (uint32_t y = 0; y < my; y++) {
                const uint32_t base = y * stry, tbase = P.perm[(size_t)y * my + k] * stry;
                totex_hop *o = P.buf + nh;
                for (size_t i = 0; i < c; i++) {
                    o[i].from = h[i].from + base;
                    o[i].to = h[i].to + base;
                    o[i].src = h[i].src + base;
                    o[i].dst = h[i].dst + tbase;
                }
                nh += c;
            }
        }
        /* Y moves: every directed Y link sends its furthest waiting message */
        for (uint32_t y = 0; y < my; y++) {
            for (uint32_t dir = 0; dir < 2; dir++) {
                const uint32_t y2 = ynext(&P, y, dir);
                for (uint32_t x = 0, v = y * stry; x < mx; x++, v += strx) {
                    uint32_t d, id = pop(&P, v, dir, &d);
                    if (id == PL_NONE)
                        continue;
                    const uint32_t to = v + y2 * stry - y * stry;
                    if (sink.step) {
                        const uint32_t dst = (uint32_t)(((uint64_t)id * P.magic) >> 44);
                        totex_hop *o = &P.buf[nh++];
                        o->from = v;
                        o->to = to;
                        o->src = id - dst * n;
                        o->dst = dst;
                    }
                    if (d > 1) {
                        uint32_t *q = P.pend + 4 * np++;
                        q[0] = to;
                        q[1] = dir;
                        q[2] = d - 1;
                        q[3] = id;
                    }
                }
            }
        }
        if (sink.step && (st = sink.step(sink.ctx, P.buf, nh, err)) != TOTEX_OK)
            break;
        /* arrivals: X hops that reached their destination column, in another row */
        if (t < tx) {
            const totex_hop *h = P.xh + P.xoff[fs];
            const uint32_t *a = P.arr + P.aoff[fs];
            const size_t na = (size_t)(P.aoff[fs + 1] - P.aoff[fs]);
            for (uint32_t y = 0; y < my; y++) {
                const uint32_t r = P.perm[(size_t)y * my + k];
                if (r == y)
                    continue;
                for (size_t i = 0; i < na; i++) {
                    const totex_hop *g = &h[a[i]];
                    const uint32_t src = g->src + y * stry, dst = g->dst + r * stry;
                    uint32_t dir, d = ydir(&P, y, r, src, &dir);
                    if (push(&P, g->to + y * stry, dir, d, dst * n + src))
                        st = totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
                }
            }
        }
        for (size_t i = 0; i < np; i++) {
            const uint32_t *q = P.pend + 4 * i;
            if (push(&P, q[0], q[1], q[2], q[3]))
                st = totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
        }
        t++;
    }
    pl_free(&P);
    if (st == TOTEX_OK)
        *steps_out = t;
    return st;
}

/* One remembered step count per thread: predict, then plan, runs the construction once to count. */
typedef struct pl_memo {
    int valid;
    uint64_t hash, steps;
    uint32_t n;
} pl_memo;
static _Thread_local pl_memo memo;

static pl_memo memo_key(const totex_network *net)
{
    pl_memo m = {1, UINT64_C(1469598103934665603), 0, totex_network_nodes(net)};
    for (const char *s = totex_network_spec(net); *s; s++)
        m.hash = (m.hash ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return m;
}

static totex_status pl_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_status st = pl_applies(net, ports, err);
    pl_memo key = memo_key(net);
    totex_sink none = {NULL, NULL};
    if (st != TOTEX_OK)
        return st;
    if (memo.valid && memo.hash == key.hash && memo.n == key.n) {
        *steps = memo.steps;
        return TOTEX_OK;
    }
    if ((st = pl_run(net, none, steps, err)) != TOTEX_OK)
        return st;
    key.steps = *steps;
    memo = key;
    return TOTEX_OK;
}

static totex_status pl_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    uint64_t steps;
    totex_status st = pl_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "pipeline: no sink to stream the schedule into");
    if ((st = pl_run(net, sink, &steps, err)) == TOTEX_OK) {
        pl_memo key = memo_key(net);
        key.steps = steps;
        memo = key;
    }
    return st;
}

const totex_algorithm totex_algorithm_pipeline = {
    .name = "pipeline",
    .title = "Pipelined dimension order (multiport meshes R x C: critical dimension as back-to-back factor rounds, the other pipelined under it)",
    .source = "issue 13; 003 Sections 3-4, 000 eq. (4) and Theorem 5 (cut bound), 001 Section 5",
    .applies = pl_applies,
    .predict = pl_predict,
    .plan = pl_plan,
    .costly_predict = 1,
};
