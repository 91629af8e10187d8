/*
 * Pipeline: multiport total exchange on meshes and on products of paths and
 * rings with at least one path (R x C with R != C, higher-dimensional
 * meshes, mixed mesh/torus products): the critical dimension as back-to-back
 * optimal factor rounds, the other dimensions pipelined underneath.
 *
 * Source:  ours (beyond the papers); it composes 003 Section 3
 *          (furthest-first on a linear array, ceil((m^2-1)/4) steps, Theorem
 *          1) or 003 Section 4 (message-shift on a ring) with the cut bound
 *          of 000 eq. (4) lifted as in 000 Theorem 5 (src/bounds/cut.c), and
 *          the non-wasting furthest-first rule of 001 Section 5 on the other
 *          dimensions. A3 (000 Section 5) needs H^(2^k); this does not.
 * Model:   multiport (every directed link carries one message per step).
 * Idea:    let X be the critical dimension (m_X nodes, factor steps T_X; the
 *          one maximising (n / m_X) * T_X, the cut bound) and Y the product
 *          of the others (the "rest", m_Y = n / m_X nodes; a row is a copy
 *          of X, a column a copy of Y). Routing X first loads every X link
 *          of a row with m_Y times the load of one factor total exchange, so:
 *           - X phase: each row runs m_Y rounds of the factor schedule of X
 *             back to back, T = m_Y * T_X steps, the critical links never
 *             idle. In round k, row y carries, from each (x, y) to each
 *             (x', y), x' != x, the message for (x', pi_y(k)), where pi_y
 *             lists the rest nodes by decreasing distance from y (ties: the
 *             larger index first), y itself last: the messages with the
 *             longest way to go in Y cross first, those with none cross last
 *             (they arrive delivered).
 *           - Y moves: a message in its destination column (it arrived, or
 *             started there) moves along Y on a shortest path, dimension by
 *             dimension, on the Y links, which the X phase never uses: every
 *             directed Y link sends, each step, the waiting message with the
 *             largest remaining distance (furthest first, 003 Section 3 /
 *             001 Section 5). On an even ring, offset m/2 goes '+' from a
 *             node of even coordinate sum, '-' from the others.
 * Steps:   max(m_Y * T_X, the step the last Y move lands); predict runs the
 *          construction on counts only and counts the steps (costly:
 *          O(steps * n); memoised per thread for the plan that follows).
 * Optimal: when it ends at m_Y * T_X and that is the lifted cut bound
 *          (000 eq. (4)): measured on every mesh R x C with 2 <= R <= C <= 32
 *          except 3 x 3 (7 steps, bound 6; A3 gives 6): 495 of 496
 *          (bench/steps/pipeline_sweep.sh); on path x ring products whose critical
 *          dimension is a path or an odd ring. When it is an even ring, m_Y
 *          rounds of the modified message-shift take m_Y * ceil((m^2-1)/8),
 *          above the lifted cut, which rounds only once (ring:6*path:3: 15
 *          vs 14). Higher-dimensional meshes: see tests/test_pipeline.c.
 *
 * Data: the X phase is the factor schedule translated to every row; a node
 * keeps its Y messages in buckets by destination rest node (a count, and
 * when planning a stack of 64-byte chunks of 16-bit sources), and per outgoing
 * Y link a bit mask over the rest nodes ordered by decreasing distance from
 * it: the link's furthest message is the mask's lowest bit. Memory: about
 * 2 bytes per waiting message, n * m_Y buckets (count and top chunk side by side,
 * 8 bytes: one cache line for both) and m_Y^2 table entries.
 * Work per step: O(hops + n * links per node).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"

#define PL_NONE UINT32_MAX
/* Largest network: n <= 2^14 (its full replay: 4 bytes per message, 1 GiB); largest rest: m_Y <= 2048 (m_Y^2 tables). */
#define PL_MAX_NODES 16384u
#define PL_MAX_REST 2048u

/* A bucket is a stack of 64-byte chunks (one cache line each) of the sources of its messages (their
   destination is the bucket's: the node's column, the bucket's rest node; n <= 2^14 fits 16 bits). */
#define PL_CH 29
typedef struct pl_chunk {
    uint32_t below; /* 1 + the chunk under it, 0 for none */
    uint16_t n;
    uint16_t src[PL_CH];
} pl_chunk;

/* a bucket's count and, when planning, its top chunk (1 + index, 0: none), side by side: one cache line for both */
typedef struct pl_bucket {
    uint32_t cnt, head;
} pl_bucket;

typedef struct pl {
    uint32_t n, mx, my, dx, strx;
    uint32_t nr;                /* rest dimensions */
    uint32_t rdim[TOTEX_MAX_DIMS], rm[TOTEX_MAX_DIMS], rstride[TOTEX_MAX_DIMS]; /* their dims, sizes, strides */
    int rring[TOTEX_MAX_DIMS];
    uint32_t S;                 /* Y link slots per node: 2 per rest dimension (0: +, 1: -) */
    uint32_t *roff;             /* my: node offset of rest node r (x = 0) */
    uint16_t *rc;               /* my * nr: coordinates of rest node r */
    uint32_t *rn;               /* my * S: the rest node across slot s, PL_NONE at a path's end */
    uint32_t *perm;             /* my * my: perm[r * my + p] = the rest node at position p from r */
    uint32_t *pos;              /* my * my: position of rest node q from r */
    uint8_t *slot2;             /* 2 * my * my: slot from r towards q, for even (0) / odd (1) coordinate sums */
    uint32_t *par;              /* n: node's coordinate-sum parity */
    totex_schedule *xs;         /* factor schedule of X, multiport */
    uint64_t F;                 /* its steps */
    uint32_t W;                 /* mask words per (node, slot): ceil(my / 64) */
    int ids;                    /* 1: keep the messages (planning); 0: counts only (predicting the steps) */
    pl_bucket *bk;              /* n * my: per (node, destination rest node), its count and top chunk */
    pl_chunk *chunk;            /* the pool of chunks */
    uint32_t nchunk, chunk_cap, chunk_free; /* used, allocated, free list (1 + index, 0: none) */
    uint64_t *mask;             /* n * S * W */
    uint64_t queued;            /* messages waiting for Y moves */
    totex_hop *xh;              /* the factor's hops, coordinates scaled by the X stride (row 0), step by step */
    uint64_t *xoff;             /* F + 1 offsets into xh */
    uint32_t *arr;              /* per step, the indices (into xh) of the hops that reach their destination column */
    uint64_t *aoff;             /* F + 1 offsets into arr */
    uint32_t *pend;             /* Y hops of the step that land short of their destination: node, rest, dest rest, source */
    totex_hop *buf;
    size_t cap;
} pl;

static void pl_free(pl *P)
{
    totex_schedule_free(P->xs);
    free(P->roff);
    free(P->rc);
    free(P->rn);
    free(P->perm);
    free(P->pos);
    free(P->slot2);
    free(P->par);
    free(P->bk);
    free(P->chunk);
    free(P->mask);
    free(P->buf);
    free(P->xh);
    free(P->xoff);
    free(P->arr);
    free(P->aoff);
    free(P->pend);
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

/* Queue the message from @p src at node @p v (rest node r) for destination rest node q != r (in v's
   column). 0, or -1 when out of memory. */
static inline int push(pl *P, uint32_t v, uint32_t r, uint32_t q, uint32_t src)
{
    size_t b = (size_t)v * P->my + q;
    pl_bucket *const k = &P->bk[b];
    if (!k->cnt++) {
        const size_t rq = (size_t)r * P->my + q;
        const uint32_t s = P->slot2[(size_t)P->par[v] * P->my * P->my + rq], p = P->pos[rq];
        P->mask[((size_t)v * P->S + s) * P->W + p / 64] |= UINT64_C(1) << (p % 64);
    }
    P->queued++;
    if (P->ids) {
        uint32_t h = k->head;
        if (!h || P->chunk[h - 1].n == PL_CH) {
            uint32_t c = chunk_new(P, h);
            if (c == UINT32_MAX)
                return -1;
            k->head = h = c + 1;
        }
        pl_chunk *ch = &P->chunk[h - 1];
        ch->src[ch->n++] = (uint16_t)src;
    }
    return 0;
}

/* Pop the furthest message waiting at node v (rest node r) for slot s: its destination rest node in *q;
   returns its source (0 when counting), PL_NONE when there is none. */
static inline uint32_t pop(pl *P, uint32_t v, uint32_t r, uint32_t s, uint32_t *q)
{
    uint64_t *m = P->mask + ((size_t)v * P->S + s) * P->W;
    for (uint32_t w = 0; w < P->W; w++) {
        if (!m[w])
            continue;
        const uint32_t p = 64 * w + (uint32_t)__builtin_ctzll(m[w]), d = P->perm[(size_t)r * P->my + p];
        const size_t b = (size_t)v * P->my + d;
        uint32_t id = 0;
        pl_bucket *const k = &P->bk[b];
        if (!--k->cnt)
            m[w] &= m[w] - 1;
        P->queued--;
        if (P->ids) {
            uint32_t h = k->head;
            pl_chunk *ch = &P->chunk[h - 1];
            id = ch->src[--ch->n];
            if (!ch->n) {
                k->head = ch->below;
                ch->below = P->chunk_free;
                P->chunk_free = h;
            }
        }
        *q = d;
        return id;
    }
    return PL_NONE;
}

/* The critical dimension: the larger lifted cut (n / m_i) * T_i; ties go to a path, then the lower dimension. */
static totex_status choose_x(const totex_network *net, uint32_t *dx, uint64_t *tx, totex_error *err)
{
    uint32_t n = totex_network_nodes(net), best = 0;
    uint64_t bv = 0, bt = 0;
    int bpath = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint64_t t;
        totex_status st = totex_factor_predict(f, TOTEX_PORTS_MULTI, &t, err);
        if (st != TOTEX_OK)
            return st;
        uint64_t v = (uint64_t)(n / totex_factor_nodes(f)) * t;
        int path = totex_factor_get_kind(f) == TOTEX_FACTOR_PATH;
        if (i == 0 || v > bv || (v == bv && path && !bpath)) {
            best = i;
            bv = v;
            bt = t;
            bpath = path;
        }
    }
    *dx = best;
    *tx = bt;
    return TOTEX_OK;
}

static totex_status pl_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline is a multiport algorithm (its dimensions work at once); use --ports multi, or a2 / greedy for single-port and k-port");
    if (totex_network_dims(net) < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline needs at least 2 dimensions; %s has 1 (use dimension)", totex_network_spec(net));
    int paths = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
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
                          "pipeline is for meshes and products with a path; %s is a torus, where octr meets the bound (use octr)",
                          totex_network_spec(net));
    if (totex_network_nodes(net) > PL_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline stops at %u nodes (a full replay of n^2 messages, 1 GiB); %s has %u (use a2 or greedy)",
                          PL_MAX_NODES, totex_network_spec(net), totex_network_nodes(net));
    uint32_t dx;
    uint64_t tx;
    totex_status st = choose_x(net, &dx, &tx, err);
    if (st != TOTEX_OK)
        return st;
    uint32_t my = totex_network_nodes(net) / totex_factor_nodes(totex_network_factor(net, dx));
    if (my > PL_MAX_REST)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "pipeline keeps tables of (n/m_X)^2 entries and stops at n/m_X = %u; %s has %u nodes beside its critical dimension %u (use a2 or greedy)",
                          PL_MAX_REST, totex_network_spec(net), my, dx);
    return TOTEX_OK;
}

/* Slot (2 * rest dimension + direction) of the first hop from rest node r towards q != r, dimension order;
   an even ring's antipode goes '+' when @p odd is 0. */
static uint32_t route_slot(const pl *P, uint32_t r, uint32_t q, uint32_t odd)
{
    for (uint32_t j = 0; j < P->nr; j++) {
        uint32_t a = P->rc[(size_t)r * P->nr + j], b = P->rc[(size_t)q * P->nr + j];
        if (a == b)
            continue;
        if (!P->rring[j])
            return 2 * j + (b < a);
        uint32_t up = (b + P->rm[j] - a) % P->rm[j], down = P->rm[j] - up;
        return 2 * j + (up < down || (up == down && !odd) ? 0 : 1);
    }
    return 0;
}

static uint32_t rest_distance(const pl *P, const totex_network *net, uint32_t r, uint32_t q)
{
    uint32_t d = 0;
    for (uint32_t j = 0; j < P->nr; j++)
        d += totex_factor_distance(totex_network_factor(net, P->rdim[j]), P->rc[(size_t)r * P->nr + j],
                                   P->rc[(size_t)q * P->nr + j]);
    return d;
}

static totex_status pl_setup(pl *P, const totex_network *net, int ids, totex_error *err)
{
    uint64_t tx;
    totex_status st;
    memset(P, 0, sizeof *P);
    P->ids = ids;
    P->n = totex_network_nodes(net);
    if ((st = choose_x(net, &P->dx, &tx, err)) != TOTEX_OK)
        return st;
    const totex_factor *fx = totex_network_factor(net, P->dx);
    P->mx = totex_factor_nodes(fx);
    P->my = P->n / P->mx;
    P->strx = totex_network_stride(net, P->dx);
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        if (i == P->dx)
            continue;
        const totex_factor *f = totex_network_factor(net, i);
        P->rdim[P->nr] = i;
        P->rm[P->nr] = totex_factor_nodes(f);
        P->rstride[P->nr] = totex_network_stride(net, i);
        P->rring[P->nr] = totex_factor_get_kind(f) == TOTEX_FACTOR_RING;
        P->nr++;
    }
    P->S = 2 * P->nr;
    P->W = (P->my + 63) / 64;
    if ((st = totex_factor_schedule(fx, TOTEX_PORTS_MULTI, &P->xs, NULL, err)) != TOTEX_OK)
        return st;
    P->F = totex_schedule_steps(P->xs);
    const size_t my = P->my, n = P->n;
    size_t maxx = 0;
    for (uint64_t s = 0; s < P->F; s++) {
        size_t c;
        totex_schedule_step(P->xs, s, &c);
        if (c > maxx)
            maxx = c;
    }
    P->cap = maxx * my + P->S * n;
    uint64_t fh = totex_schedule_hops(P->xs);
    P->xh = malloc(sizeof *P->xh * (fh ? fh : 1));
    P->arr = malloc(sizeof *P->arr * (fh ? fh : 1));
    P->xoff = malloc(sizeof *P->xoff * (P->F + 1));
    P->aoff = malloc(sizeof *P->aoff * (P->F + 1));
    P->pend = malloc(sizeof *P->pend * 4 * P->S * n);
    P->roff = malloc(sizeof *P->roff * my);
    P->rc = malloc(sizeof *P->rc * my * (P->nr ? P->nr : 1));
    P->rn = malloc(sizeof *P->rn * my * P->S);
    P->perm = malloc(sizeof *P->perm * my * my);
    P->pos = malloc(sizeof *P->pos * my * my);
    P->slot2 = malloc(2 * my * my);
    P->par = malloc(sizeof *P->par * n);
    P->bk = calloc(n * my, sizeof *P->bk);
    P->mask = calloc(n * P->S * P->W, sizeof *P->mask);
    P->buf = malloc(sizeof *P->buf * (P->cap ? P->cap : 1));
    if (!P->xh || !P->arr || !P->xoff || !P->aoff || !P->pend || !P->roff || !P->rc || !P->rn || !P->perm ||
        !P->pos || !P->slot2 || !P->par || !P->bk || !P->mask || !P->buf)
        return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for %u nodes", P->n);
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
    /* rest nodes: mixed radix over the rest dimensions, in their order */
    for (uint32_t r = 0; r < my; r++) {
        uint32_t rem = r, off = 0;
        for (uint32_t j = 0; j < P->nr; j++) {
            uint32_t c = rem % P->rm[j];
            rem /= P->rm[j];
            P->rc[(size_t)r * P->nr + j] = (uint16_t)c;
            off += c * P->rstride[j];
        }
        P->roff[r] = off;
    }
    for (uint32_t r = 0; r < my; r++) {
        uint32_t unit = 1;
        for (uint32_t j = 0; j < P->nr; j++) {
            uint32_t c = P->rc[(size_t)r * P->nr + j], m = P->rm[j];
            uint32_t up = c + 1 < m ? r + unit : (P->rring[j] ? r - c * unit : PL_NONE);
            uint32_t down = c > 0 ? r - unit : (P->rring[j] ? r + (m - 1) * unit : PL_NONE);
            P->rn[(size_t)r * P->S + 2 * j] = up;
            P->rn[(size_t)r * P->S + 2 * j + 1] = down;
            unit *= m;
        }
    }
    /* perm[r]: rest nodes by decreasing distance from r (ties: the larger index first), r itself last */
    {
        uint32_t dmax = 0;
        for (uint32_t j = 0; j < P->nr; j++)
            dmax += totex_factor_diameter(totex_network_factor(net, P->rdim[j]));
        uint32_t *dist = malloc(sizeof *dist * my);
        if (!dist)
            return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory");
        for (uint32_t r = 0; r < my; r++) {
            uint32_t *p = P->perm + (size_t)r * my, c = 0;
            for (uint32_t q = 0; q < my; q++)
                dist[q] = rest_distance(P, net, r, q);
            for (uint32_t d = dmax + 1; d-- > 1;)
                for (uint32_t q = (uint32_t)my; q-- > 0;)
                    if (dist[q] == d)
                        p[c++] = q;
            p[c++] = r;
            for (uint32_t i = 0; i < my; i++)
                P->pos[(size_t)r * my + p[i]] = i;
            for (uint32_t q = 0; q < my; q++) {
                P->slot2[(size_t)r * my + q] = (uint8_t)route_slot(P, r, q, 0);
                P->slot2[my * my + (size_t)r * my + q] = (uint8_t)route_slot(P, r, q, 1);
            }
        }
        free(dist);
    }
    for (uint32_t v = 0; v < n; v++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < totex_network_dims(net); i++)
            sum += totex_network_coord(net, v, i);
        P->par[v] = sum & 1;
    }
    /* messages for the own column move along Y only, from the start */
    for (uint32_t x = 0; x < P->mx; x++)
        for (uint32_t r = 0; r < my; r++) {
            const uint32_t v = x * P->strx + P->roff[r];
            for (uint32_t q = 0; q < my; q++)
                if (q != r && push(P, v, r, q, v))
                    return totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
        }
    return TOTEX_OK;
}

/* Run the construction; emit into @p sink when it has a step function; count the steps. */
static totex_status pl_run(const totex_network *net, totex_sink sink, uint64_t *steps_out, totex_error *err)
{
    pl P;
    totex_status st = pl_setup(&P, net, sink.step != NULL, err);
    const uint64_t tx = P.F * P.my;
    const uint32_t my = P.my, mx = P.mx, strx = P.strx, S = P.S;
    uint64_t t = 0;
    while (st == TOTEX_OK && (t < tx || P.queued)) {
        size_t nh = 0, np = 0;
        const uint32_t k = (uint32_t)(t / P.F), fs = (uint32_t)(t % P.F);
        /* X phase: the factor's step fs in every row, round k (hops only when emitting) */
        if (t < tx && sink.step) {
            const totex_hop *h = P.xh + P.xoff[fs];
            const size_t c = (size_t)(P.xoff[fs + 1] - P.xoff[fs]);
            for (uint32_t y = 0; y < my; y++) {
                const uint32_t base = P.roff[y], tbase = P.roff[P.perm[(size_t)y * my + k]];
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
            for (uint32_t s = 0; s < S; s++) {
                const uint32_t y2 = P.rn[(size_t)y * S + s];
                if (y2 == PL_NONE)
                    continue;
                const uint32_t shift = P.roff[y2] - P.roff[y]; /* mod 2^32 */
                for (uint32_t x = 0, v = P.roff[y]; x < mx; x++, v += strx) {
                    uint32_t q, src = pop(&P, v, y, s, &q);
                    if (src == PL_NONE)
                        continue;
                    const uint32_t to = v + shift;
                    if (sink.step) {
                        totex_hop *o = &P.buf[nh++];
                        o->from = v;
                        o->to = to;
                        o->src = src;
                        o->dst = v - P.roff[y] + P.roff[q];
                    }
                    if (q != y2) {
                        uint32_t *e = P.pend + 4 * np++;
                        e[0] = to;
                        e[1] = y2;
                        e[2] = q;
                        e[3] = src;
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
            for (uint32_t y = 0; y < my && st == TOTEX_OK; y++) {
                const uint32_t q = P.perm[(size_t)y * my + k];
                if (q == y)
                    continue;
                for (size_t i = 0; i < na; i++) {
                    const totex_hop *g = &h[a[i]];
                    if (push(&P, g->to + P.roff[y], y, q, g->src + P.roff[y]))
                        st = totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
                }
            }
        }
        for (size_t i = 0; i < np && st == TOTEX_OK; i++) {
            const uint32_t *e = P.pend + 4 * i;
            if (push(&P, e[0], e[1], e[2], e[3]))
                st = totex_fail(err, TOTEX_ENOMEM, "pipeline: out of memory for the queues");
        }
        t++;
    }
    pl_free(&P);
    if (st == TOTEX_OK)
        *steps_out = t;
    return st;
}

static totex_status pl_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_status st = pl_applies(net, ports, err);
    totex_memo m;
    totex_sink none = {NULL, NULL};
    if (st != TOTEX_OK)
        return st;
    if (totex_memo_get(&totex_algorithm_pipeline, net, ports, &m)) {
        *steps = m.steps;
        return TOTEX_OK;
    }
    if ((st = pl_run(net, none, steps, err)) == TOTEX_OK)
        totex_memo_put(&totex_algorithm_pipeline, net, ports, *steps, 0, NULL, NULL);
    return st;
}

static totex_status pl_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    uint64_t steps;
    totex_status st = pl_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "pipeline: no sink to stream the schedule into");
    if ((st = pl_run(net, sink, &steps, err)) == TOTEX_OK)
        totex_memo_put(&totex_algorithm_pipeline, net, ports, steps, 0, NULL, NULL);
    return st;
}

const totex_algorithm totex_algorithm_pipeline = {
    .name = "pipeline",
    .title = "Pipelined dimension order (multiport meshes R x C: critical dimension as back-to-back factor rounds, the other pipelined under it)",
    .source = "this project (docs/bounds-and-algorithms.md); 003 Sections 3-4, 000 eq. (4) and Theorem 5 (cut bound), 001 Section 5",
    .applies = pl_applies,
    .predict = pl_predict,
    .plan = pl_plan,
    .costly_predict = 1,
    .plan_instead_of_predict = 1, /* at the cut bound on 495 of 496 meshes R x C, 2 <= R <= C <= 32 */
    /* planned at once, 16-18 ns a hop with the replay (mesh:59x63 multiport, 562 M hops: 8.9 s of CPU):
       8 times auto's costly budget, 2^28 hops, keeps it under 5 s (mesh:47x63, 321 M hops: 4.5 s) */
    .costly_budget_scale = 8,
};
