/*
 * Total exchange on any connected factor graph: greedy furthest-first
 * store-and-forward along shortest paths.
 *
 * Source:  the furthest-first rule of 003 Section 3 (optimal on linear arrays,
 *          003 Theorem 1), applied to any graph; the models of 000 Section 3
 *          (single-port, bound (3); multiport, bound (4)) and 003 Section 2.
 * Model:   both. Messages move only along shortest paths (a hop u -> v is
 *          allowed when dist(v, dst) = dist(u, dst) - 1); a message waiting at
 *          a node has priority by its remaining distance, largest first
 *          (within one destination: first come, first served).
 *          Multiport: each node matches its queued messages to its outgoing
 *          links in priority order with augmenting paths (Kuhn), so each step
 *          uses as many of its links as any assignment could, a message never
 *          loses its link to a lower-priority one, and no directed link stays
 *          idle while a message queued at its tail could get closer over it
 *          without displacing another.
 *          Single-port: every node proposes, for each neighbour, its
 *          highest-priority message that can get closer through it; proposals
 *          are taken in priority order (then the sender's longer queue) when
 *          the sender is not yet sending and the receiver not yet receiving
 *          (a greedy maximal matching: at most one send and one receive per node).
 * Steps:   measured (the factor schedule is planned and counted). Every step
 *          moves at least one message one hop closer, so it terminates within
 *          the total status S of the graph; a larger count is reported as a bug.
 * Optimal: multiport on linear arrays (it is then exactly 003's furthest-first,
 *          ceil((m^2-1)/4) steps); otherwise a heuristic, no guarantee.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"

/* Largest schedule built in memory: 2^28 hops (4 GiB of 16-byte hops). */
#define GR_MAX_HOPS (UINT64_C(1) << 28)
#define GR_NONE UINT32_MAX

/*
 * Messages are ids src*m + dst. The messages queued at node u with
 * destination d form bucket u*m + d, a FIFO linked through next[]. The
 * non-empty buckets of u at distance l from u are linked (by d) into the
 * level list lhead[u*(diam+1) + l], so a node scans its messages furthest
 * first without looking at empty buckets.
 */
typedef struct gr_state {
    const totex_factor *f;
    uint32_t m, diam, maxdeg;
    uint32_t *adj_off, *adj;   /* neighbours by factor rank */
    uint32_t *next;            /* per message: next in its bucket */
    uint32_t *bhead, *btail;   /* per bucket */
    uint32_t *lnext, *lprev;   /* per bucket: level-list links (values are d) */
    uint32_t *lhead;           /* per node and level */
    uint32_t *qn;              /* queued messages per node */
    /* scratch for one node */
    uint32_t *linkmsg, *visit, *rankof, stamp;
    /* single-port */
    uint32_t *cand_msg;        /* per rank: proposed message */
    unsigned char *sending, *receiving;
} gr_state;

static void bucket_push(gr_state *G, uint32_t u, uint32_t id)
{
    uint32_t m = G->m, d = id % m;
    size_t b = (size_t)u * m + d;
    G->next[id] = GR_NONE;
    if (G->bhead[b] == GR_NONE) {
        size_t l = (size_t)u * (G->diam + 1) + totex_factor_distance(G->f, u, d);
        G->bhead[b] = G->btail[b] = id;
        G->lprev[b] = GR_NONE;
        G->lnext[b] = G->lhead[l];
        if (G->lhead[l] != GR_NONE)
            G->lprev[(size_t)u * m + G->lhead[l]] = d;
        G->lhead[l] = d;
    } else {
        G->next[G->btail[b]] = id;
        G->btail[b] = id;
    }
    G->qn[u]++;
}

static void bucket_pop(gr_state *G, uint32_t u, uint32_t d)
{
    uint32_t m = G->m;
    size_t b = (size_t)u * m + d;
    uint32_t id = G->bhead[b];
    G->bhead[b] = G->next[id];
    G->qn[u]--;
    if (G->bhead[b] == GR_NONE) {
        size_t l = (size_t)u * (G->diam + 1) + totex_factor_distance(G->f, u, d);
        if (G->lprev[b] != GR_NONE)
            G->lnext[(size_t)u * m + G->lprev[b]] = G->lnext[b];
        else
            G->lhead[l] = G->lnext[b];
        if (G->lnext[b] != GR_NONE)
            G->lprev[(size_t)u * m + G->lnext[b]] = G->lprev[b];
    }
}

/* Nonzero when the link of rank r of u brings destination d (at distance l from u) closer. */
static int eligible(const gr_state *G, uint32_t u, uint32_t r, uint32_t d, uint32_t l)
{
    uint32_t v = G->adj[G->adj_off[u] + r];
    return totex_factor_distance(G->f, v, d) + 1 == l;
}

/* Kuhn's augmenting path from message id at node u over u's outgoing links. */
static int augment(gr_state *G, uint32_t u, uint32_t id)
{
    uint32_t d = id % G->m, l = totex_factor_distance(G->f, u, d);
    uint32_t deg = G->adj_off[u + 1] - G->adj_off[u];
    uint32_t lo = 0, hi = deg;
    if (l == 1) { /* only the direct link */
        lo = G->rankof[d];
        hi = lo + 1;
    }
    for (uint32_t r = lo; r < hi; r++) {
        if (G->visit[r] == G->stamp || (l > 1 && !eligible(G, u, r, d, l)))
            continue;
        G->visit[r] = G->stamp;
        if (G->linkmsg[r] == GR_NONE || augment(G, u, G->linkmsg[r])) {
            G->linkmsg[r] = id;
            return 1;
        }
    }
    return 0;
}

static void set_rankof(gr_state *G, uint32_t u, uint32_t value_or_none)
{
    uint32_t deg = G->adj_off[u + 1] - G->adj_off[u];
    for (uint32_t r = 0; r < deg; r++)
        G->rankof[G->adj[G->adj_off[u] + r]] = value_or_none == GR_NONE ? GR_NONE : r;
}

/* Multiport: node u's sends of this step, appended to hops (and dequeued). */
static size_t multiport_node(gr_state *G, uint32_t u, totex_hop *hops, size_t c)
{
    uint32_t m = G->m, deg = G->adj_off[u + 1] - G->adj_off[u], matched = 0;
    for (uint32_t r = 0; r < deg; r++)
        G->linkmsg[r] = GR_NONE;
    set_rankof(G, u, 0);
    for (uint32_t l = G->diam; l >= 1 && matched < deg; l--) {
        for (uint32_t d = G->lhead[(size_t)u * (G->diam + 1) + l]; d != GR_NONE && matched < deg;
             d = G->lnext[(size_t)u * m + d]) {
            /* messages of one bucket share their links: once one fails, all do */
            for (uint32_t id = G->bhead[(size_t)u * m + d]; id != GR_NONE && matched < deg; id = G->next[id]) {
                if (++G->stamp == 0) { /* wrapped: forget every old visit */
                    memset(G->visit, 0, sizeof *G->visit * ((size_t)G->maxdeg + 1));
                    G->stamp = 1;
                }
                if (!augment(G, u, id))
                    break;
                matched++;
            }
        }
    }
    set_rankof(G, u, GR_NONE);
    /* the matched messages of each bucket are a prefix of it (a matched
     * message stays matched), so popping heads removes exactly them */
    for (uint32_t r = 0; r < deg; r++)
        if (G->linkmsg[r] != GR_NONE)
            hops[c++] = (totex_hop){u, G->adj[G->adj_off[u] + r], G->linkmsg[r] / m, G->linkmsg[r] % m};
    for (uint32_t r = 0; r < deg; r++)
        if (G->linkmsg[r] != GR_NONE)
            bucket_pop(G, u, G->linkmsg[r] % m);
    return c;
}

typedef struct gr_cand {
    uint32_t u, r, id, level, queue;
} gr_cand;

static int cand_cmp(const void *pa, const void *pb)
{
    const gr_cand *a = pa, *b = pb;
    if (a->level != b->level)
        return a->level > b->level ? -1 : 1;
    if (a->queue != b->queue)
        return a->queue > b->queue ? -1 : 1;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    return a->r < b->r ? -1 : a->r > b->r;
}

/* Single-port: node u's proposals, one per neighbour it can bring a message closer to. */
static size_t single_proposals(gr_state *G, uint32_t u, gr_cand *cand, size_t nc)
{
    uint32_t m = G->m, deg = G->adj_off[u + 1] - G->adj_off[u], found = 0;
    for (uint32_t r = 0; r < deg; r++)
        G->cand_msg[r] = GR_NONE;
    for (uint32_t l = G->diam; l >= 1 && found < deg; l--) {
        for (uint32_t d = G->lhead[(size_t)u * (G->diam + 1) + l]; d != GR_NONE && found < deg;
             d = G->lnext[(size_t)u * m + d]) {
            for (uint32_t r = 0; r < deg; r++)
                if (G->cand_msg[r] == GR_NONE && eligible(G, u, r, d, l)) {
                    G->cand_msg[r] = G->bhead[(size_t)u * m + d];
                    cand[nc++] = (gr_cand){u, r, G->cand_msg[r], l, G->qn[u]};
                    found++;
                }
        }
    }
    return nc;
}

static void gr_free(gr_state *G)
{
    free(G->adj_off);
    free(G->adj);
    free(G->next);
    free(G->bhead);
    free(G->btail);
    free(G->lnext);
    free(G->lprev);
    free(G->lhead);
    free(G->qn);
    free(G->linkmsg);
    free(G->visit);
    free(G->rankof);
    free(G->cand_msg);
    free(G->sending);
    free(G->receiving);
}

totex_status totex_fa_greedy(const totex_factor *f, totex_ports ports, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (m < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "greedy total exchange needs a factor of at least 2 nodes, got %s",
                          totex_factor_name(f));
    if (m > TOTEX_GRAPH_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "greedy total exchange keeps m^2 queues and handles at most %u nodes; %s has %u",
                          TOTEX_GRAPH_MAX_NODES, totex_factor_name(f), m);
    uint64_t total_hops = totex_factor_status_sum(f); /* every message on a shortest path */
    if (total_hops > GR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "greedy schedule of %s would hold %llu hops (limit %llu); use a smaller graph",
                          totex_factor_name(f), (unsigned long long)total_hops, (unsigned long long)GR_MAX_HOPS);

    gr_state G = {0};
    size_t mm = (size_t)m * m, ndirected = 0;
    totex_hop *hops = NULL;
    gr_cand *cand = NULL;
    totex_schedule *s = NULL;
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1), steps = 0;

    G.f = f;
    G.m = m;
    G.diam = totex_factor_diameter(f);
    G.maxdeg = totex_factor_max_degree(f);
    G.adj_off = malloc(sizeof *G.adj_off * ((size_t)m + 1));
    if (!G.adj_off)
        goto nomem;
    G.adj_off[0] = 0;
    for (uint32_t u = 0; u < m; u++)
        G.adj_off[u + 1] = G.adj_off[u] + totex_factor_degree(f, u);
    ndirected = G.adj_off[m];
    G.adj = malloc(sizeof *G.adj * (ndirected + 1));
    G.next = malloc(sizeof *G.next * mm);
    G.bhead = malloc(sizeof *G.bhead * mm);
    G.btail = malloc(sizeof *G.btail * mm);
    G.lnext = malloc(sizeof *G.lnext * mm);
    G.lprev = malloc(sizeof *G.lprev * mm);
    G.lhead = malloc(sizeof *G.lhead * (size_t)m * (G.diam + 1));
    G.qn = calloc(m, sizeof *G.qn);
    G.linkmsg = malloc(sizeof *G.linkmsg * ((size_t)G.maxdeg + 1));
    G.visit = calloc((size_t)G.maxdeg + 1, sizeof *G.visit);
    G.rankof = malloc(sizeof *G.rankof * m);
    G.cand_msg = malloc(sizeof *G.cand_msg * ((size_t)G.maxdeg + 1));
    G.sending = malloc(m);
    G.receiving = malloc(m);
    hops = malloc(sizeof *hops * (ndirected + 1));
    cand = malloc(sizeof *cand * (ndirected + 1));
    s = totex_schedule_new();
    if (!G.adj || !G.next || !G.bhead || !G.btail || !G.lnext || !G.lprev || !G.lhead || !G.qn || !G.linkmsg ||
        !G.visit || !G.rankof || !G.cand_msg || !G.sending || !G.receiving || !hops || !cand || !s)
        goto nomem;
    for (uint32_t u = 0; u < m; u++)
        for (uint32_t r = 0; r < G.adj_off[u + 1] - G.adj_off[u]; r++)
            G.adj[G.adj_off[u] + r] = totex_factor_neighbor(f, u, r);
    memset(G.bhead, 0xff, sizeof *G.bhead * mm);
    memset(G.lhead, 0xff, sizeof *G.lhead * (size_t)m * (G.diam + 1));
    memset(G.rankof, 0xff, sizeof *G.rankof * m);
    for (uint32_t u = 0; u < m; u++)
        for (uint32_t d = 0; d < m; d++)
            if (d != u)
                bucket_push(&G, u, u * m + d);

    while (remaining > 0) {
        size_t c = 0;
        if (ports == TOTEX_PORTS_MULTI) {
            for (uint32_t u = 0; u < m; u++)
                if (G.qn[u])
                    c = multiport_node(&G, u, hops, c);
        } else {
            size_t nc = 0;
            for (uint32_t u = 0; u < m; u++)
                if (G.qn[u])
                    nc = single_proposals(&G, u, cand, nc);
            qsort(cand, nc, sizeof *cand, cand_cmp);
            memset(G.sending, 0, m);
            memset(G.receiving, 0, m);
            for (size_t i = 0; i < nc; i++) {
                uint32_t u = cand[i].u, v = G.adj[G.adj_off[u] + cand[i].r];
                if (G.sending[u] || G.receiving[v])
                    continue;
                G.sending[u] = G.receiving[v] = 1;
                hops[c++] = (totex_hop){u, v, cand[i].id / m, cand[i].id % m};
                bucket_pop(&G, u, cand[i].id % m); /* the proposal is its bucket's head */
            }
        }
        if (c == 0 || ++steps > total_hops) {
            st = totex_fail(err, TOTEX_EINVAL,
                            "greedy on %s (%s) made no progress with %llu messages undelivered after %llu steps (bug)",
                            totex_factor_name(f), totex_ports_name(ports), (unsigned long long)remaining,
                            (unsigned long long)steps);
            break;
        }
        /* arrivals after all sends: a message moves at most one hop per step */
        for (size_t i = 0; i < c; i++) {
            if (hops[i].to == hops[i].dst)
                remaining--;
            else
                bucket_push(&G, hops[i].to, hops[i].src * m + hops[i].dst);
        }
        if ((st = totex_schedule_add_step(s, hops, c, err)) != TOTEX_OK)
            break;
    }
    goto done;

nomem:
    st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning greedy total exchange on %s", totex_factor_name(f));
done:
    gr_free(&G);
    free(hops);
    free(cand);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
