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
 *          (that message is then moving over another link).
 *          Single-port: every node proposes, for each neighbour, its
 *          highest-priority message that can get closer through it; proposals
 *          are taken in priority order (then the sender's longer queue) when
 *          the sender is not yet sending and the receiver not yet receiving
 *          (a greedy maximal matching: at most one send and one receive per node).
 * Steps:   measured (the factor schedule is planned and counted). Every step
 *          moves at least one message one hop closer, so it terminates within
 *          the total status S of the graph; more steps are reported as a bug.
 * Optimal: multiport on linear arrays (it is then exactly 003's furthest-first,
 *          ceil((m^2-1)/4) steps); otherwise a heuristic, no guarantee.
 *
 * Data: messages are ids src*m + dst. The messages queued at node u for
 * destination d form bucket (u, d), a FIFO. The destinations of u are split
 * into groups by their set of next-hop links (all messages of a group compete
 * for the same links; on a tree every group is one link), and each group
 * keeps a max-heap of its non-empty buckets by distance. A node's step looks
 * at its groups' tops only: once a group's top message cannot get a link, no
 * message of that group can, so the group is skipped for the step.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"
#include "common/progress_scope.h"
#include "totex/progress.h"

#define GR_NONE UINT32_MAX

typedef struct gr_state {
    const totex_factor *f;
    uint32_t m;
    uint32_t *adj_off, *adj; /* neighbours by factor rank */
    /* queued messages */
    uint32_t *next;          /* per message: next in its bucket */
    uint32_t *bhead, *btail; /* per bucket u*m + d */
    uint32_t *qn;            /* per node: queued messages */
    /* groups: node u owns groups goff[u] .. goff[u+1]-1 */
    uint32_t *goff;
    uint32_t *grp;           /* per bucket: its group */
    uint32_t *eoff, *elig;   /* per group: its links' ranks elig[eoff[g] .. eoff[g+1]) */
    uint32_t *hoff, *hn;     /* per group: heap slots heap[hoff[g] ..], hn[g] used */
    uint32_t *heap;          /* non-empty buckets as level << 16 | d (m <= 4096) */
    /* scratch for one node */
    uint32_t maxdeg, maxgroups;
    uint32_t *linkmsg, *visit, stamp;
    uint32_t *order, norder; /* max-heap of live groups by their top */
    uint32_t *cand_msg, *cand_lvl;
    unsigned char *sending, *receiving;
} gr_state;

/* ---- group heaps --------------------------------------------------------- */

static void gheap_push(gr_state *G, uint32_t g, uint32_t key)
{
    uint32_t *h = G->heap + G->hoff[g], i = G->hn[g]++;
    while (i > 0 && h[(i - 1) / 2] < key) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = key;
}

static void gheap_pop(gr_state *G, uint32_t g)
{
    uint32_t *h = G->heap + G->hoff[g], n = --G->hn[g], last = h[n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] > h[c])
            c++;
        if (h[c] <= last)
            break;
        h[i] = h[c];
        i = c;
    }
    if (n)
        h[i] = last;
}

static uint32_t group_top(const gr_state *G, uint32_t g) { return G->heap[G->hoff[g]]; }

/* ---- buckets ------------------------------------------------------------- */

static void bucket_push(gr_state *G, uint32_t u, uint32_t id)
{
    uint32_t m = G->m, d = id % m;
    size_t b = (size_t)u * m + d;
    G->next[id] = GR_NONE;
    if (G->bhead[b] == GR_NONE) {
        G->bhead[b] = G->btail[b] = id;
        gheap_push(G, G->grp[b], totex_factor_distance(G->f, u, d) << 16 | d);
    } else {
        G->next[G->btail[b]] = id;
        G->btail[b] = id;
    }
    G->qn[u]++;
}

/* Dequeue the head of the top bucket of group g of node u; returns its id. */
static uint32_t group_take(gr_state *G, uint32_t u, uint32_t g)
{
    uint32_t d = group_top(G, g) & 0xffff;
    size_t b = (size_t)u * G->m + d;
    uint32_t id = G->bhead[b];
    G->bhead[b] = G->next[id];
    if (G->bhead[b] == GR_NONE)
        gheap_pop(G, g);
    G->qn[u]--;
    return id;
}

/* ---- multiport: priority-ordered bipartite matching per node ------------- */

/* Kuhn's augmenting path from message id at node u over u's outgoing links. */
static int augment(gr_state *G, uint32_t u, uint32_t id)
{
    uint32_t g = G->grp[(size_t)u * G->m + id % G->m];
    for (uint32_t i = G->eoff[g]; i < G->eoff[g + 1]; i++) {
        uint32_t r = G->elig[i];
        if (G->visit[r] == G->stamp)
            continue;
        G->visit[r] = G->stamp;
        if (G->linkmsg[r] == GR_NONE || augment(G, u, G->linkmsg[r])) {
            G->linkmsg[r] = id;
            return 1;
        }
    }
    return 0;
}

static uint32_t order_key(const gr_state *G, uint32_t g) { return group_top(G, g); }

static void order_sift_down(gr_state *G, uint32_t i)
{
    uint32_t *o = G->order, n = G->norder, x = o[i], kx = order_key(G, x);
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && order_key(G, o[c + 1]) > order_key(G, o[c]))
            c++;
        if (order_key(G, o[c]) <= kx)
            break;
        o[i] = o[c];
        i = c;
    }
    o[i] = x;
}

static void order_remove_top(gr_state *G)
{
    G->order[0] = G->order[--G->norder];
    if (G->norder)
        order_sift_down(G, 0);
}

/* Node u's sends of this step, appended to hops (and dequeued). */
static size_t multiport_node(gr_state *G, uint32_t u, totex_hop *hops, size_t c)
{
    uint32_t m = G->m, deg = G->adj_off[u + 1] - G->adj_off[u], matched = 0;
    for (uint32_t r = 0; r < deg; r++)
        G->linkmsg[r] = GR_NONE;
    G->norder = 0;
    for (uint32_t g = G->goff[u]; g < G->goff[u + 1]; g++)
        if (G->hn[g])
            G->order[G->norder++] = g;
    for (uint32_t i = G->norder / 2; i-- > 0;)
        order_sift_down(G, i);
    /* furthest first over all groups; a group whose top fails is done */
    while (G->norder && matched < deg) {
        uint32_t g = G->order[0], d = group_top(G, g) & 0xffff;
        if (++G->stamp == 0) { /* wrapped: forget every old visit */
            memset(G->visit, 0, sizeof *G->visit * ((size_t)G->maxdeg + 1));
            G->stamp = 1;
        }
        if (!augment(G, u, G->bhead[(size_t)u * m + d])) {
            order_remove_top(G);
            continue;
        }
        matched++;
        (void)group_take(G, u, g); /* it stays matched, so it leaves now */
        if (G->hn[g])
            order_sift_down(G, 0);
        else
            order_remove_top(G);
    }
    for (uint32_t r = 0; r < deg; r++)
        if (G->linkmsg[r] != GR_NONE)
            hops[c++] = (totex_hop){u, G->adj[G->adj_off[u] + r], G->linkmsg[r] / m, G->linkmsg[r] % m};
    return c;
}

/* ---- single-port: greedy matching of proposals --------------------------- */

typedef struct gr_cand {
    uint32_t u, r, g, level, queue;
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

/* Node u's proposals: per neighbour, the top of its best group using that link. */
static size_t single_proposals(gr_state *G, uint32_t u, gr_cand *cand, size_t nc)
{
    uint32_t deg = G->adj_off[u + 1] - G->adj_off[u];
    for (uint32_t r = 0; r < deg; r++)
        G->cand_msg[r] = GR_NONE;
    for (uint32_t g = G->goff[u]; g < G->goff[u + 1]; g++) {
        if (!G->hn[g])
            continue;
        uint32_t top = group_top(G, g);
        for (uint32_t i = G->eoff[g]; i < G->eoff[g + 1]; i++) {
            uint32_t r = G->elig[i];
            if (G->cand_msg[r] == GR_NONE || top > G->cand_lvl[r]) {
                G->cand_msg[r] = g;
                G->cand_lvl[r] = top;
            }
        }
    }
    for (uint32_t r = 0; r < deg; r++)
        if (G->cand_msg[r] != GR_NONE)
            cand[nc++] = (gr_cand){u, r, G->cand_msg[r], G->cand_lvl[r] >> 16, G->qn[u]};
    return nc;
}

/* ---- set-up -------------------------------------------------------------- */

typedef struct gr_sig {
    uint64_t hash;
    uint32_t d;
} gr_sig;

static int sig_cmp(const void *pa, const void *pb)
{
    const gr_sig *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->d < b->d ? -1 : a->d > b->d;
}

/* Ranks of u's links that bring d closer, into out; returns how many. */
static uint32_t next_hops(const gr_state *G, uint32_t u, uint32_t d, uint32_t *out)
{
    uint32_t deg = G->adj_off[u + 1] - G->adj_off[u], l = totex_factor_distance(G->f, u, d), n = 0;
    if (l == 1) {
        out[0] = totex_factor_neighbor_rank(G->f, u, d);
        return 1;
    }
    for (uint32_t r = 0; r < deg; r++)
        if (totex_factor_distance(G->f, G->adj[G->adj_off[u] + r], d) + 1 == l)
            out[n++] = r;
    return n;
}

/*
 * Split every node's destinations into groups of equal next-hop sets (hash,
 * sort, then compare the sets themselves within equal hashes), filling goff,
 * grp, eoff/elig and hoff. Returns 0, or -1 when out of memory.
 */
static int build_groups(gr_state *G)
{
    uint32_t m = G->m;
    size_t cap_elig = (size_t)m * 4 + 16, nelig = 0, ng = 0;
    gr_sig *sig = malloc(sizeof *sig * m);
    uint32_t *tmp = malloc(sizeof *tmp * ((size_t)G->maxdeg + 1));
    int rc = -1;
    G->goff = malloc(sizeof *G->goff * ((size_t)m + 1));
    G->grp = malloc(sizeof *G->grp * (size_t)m * m);
    G->eoff = malloc(sizeof *G->eoff * ((size_t)m * m + 1));
    G->hoff = malloc(sizeof *G->hoff * ((size_t)m * m + 1));
    G->elig = malloc(sizeof *G->elig * cap_elig);
    if (!sig || !tmp || !G->goff || !G->grp || !G->eoff || !G->hoff || !G->elig)
        goto out;
    G->goff[0] = 0;
    G->eoff[0] = 0;
    G->hoff[0] = 0;
    G->maxgroups = 0;
    for (uint32_t u = 0; u < m; u++) {
        uint32_t ns = 0, first = (uint32_t)ng;
        for (uint32_t d = 0; d < m; d++) {
            if (d == u)
                continue;
            uint32_t n = next_hops(G, u, d, tmp);
            uint64_t h = UINT64_C(1469598103934665603);
            for (uint32_t i = 0; i < n; i++)
                h = (h ^ tmp[i]) * UINT64_C(1099511628211);
            sig[ns++] = (gr_sig){h, d};
        }
        qsort(sig, ns, sizeof *sig, sig_cmp);
        for (uint32_t i = 0, run = 0; i < ns; i++) {
            uint32_t d = sig[i].d, n = next_hops(G, u, d, tmp), g = GR_NONE;
            if (i == 0 || sig[i].hash != sig[i - 1].hash)
                run = (uint32_t)ng; /* groups of this hash start here */
            for (uint32_t k = run; k < ng && g == GR_NONE; k++) {
                uint32_t len = G->eoff[k + 1] - G->eoff[k];
                if (len == n && memcmp(G->elig + G->eoff[k], tmp, sizeof *tmp * n) == 0)
                    g = k;
            }
            if (g == GR_NONE) { /* a new group */
                if (nelig + n > cap_elig) {
                    while (nelig + n > cap_elig)
                        cap_elig *= 2;
                    uint32_t *p = realloc(G->elig, sizeof *p * cap_elig);
                    if (!p)
                        goto out;
                    G->elig = p;
                }
                memcpy(G->elig + nelig, tmp, sizeof *tmp * n);
                nelig += n;
                g = (uint32_t)ng++;
                G->eoff[ng] = (uint32_t)nelig;
                G->hoff[ng] = 0;
            }
            G->grp[(size_t)u * m + d] = g;
            G->hoff[g + 1]++; /* heap capacity: one slot per destination of the group */
        }
        G->goff[u + 1] = (uint32_t)ng;
        if (ng - first > G->maxgroups)
            G->maxgroups = (uint32_t)(ng - first);
    }
    for (size_t g = 0; g < ng; g++) /* sizes to offsets */
        G->hoff[g + 1] += G->hoff[g];
    /* give back the room reserved for the worst case of m-1 groups per node */
    uint32_t *p = realloc(G->eoff, sizeof *p * (ng + 1));
    if (p)
        G->eoff = p;
    p = realloc(G->hoff, sizeof *p * (ng + 1));
    if (p)
        G->hoff = p;
    rc = 0;
out:
    free(sig);
    free(tmp);
    return rc;
}

static void gr_free(gr_state *G)
{
    free(G->adj_off);
    free(G->adj);
    free(G->next);
    free(G->bhead);
    free(G->btail);
    free(G->qn);
    free(G->goff);
    free(G->grp);
    free(G->eoff);
    free(G->elig);
    free(G->hoff);
    free(G->hn);
    free(G->heap);
    free(G->linkmsg);
    free(G->visit);
    free(G->order);
    free(G->cand_msg);
    free(G->cand_lvl);
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
    if (total_hops > TOTEX_FACTOR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "greedy schedule of %s would hold %llu hops (limit %llu); use a smaller graph",
                          totex_factor_name(f), (unsigned long long)total_hops, (unsigned long long)TOTEX_FACTOR_MAX_HOPS);

    gr_state G = {0};
    size_t mm = (size_t)m * m, ndirected = 0;
    totex_hop *hops = NULL;
    gr_cand *cand = NULL;
    totex_schedule *s = NULL;
    totex_status st = TOTEX_OK;
    totex_progress *prog = NULL;
    uint64_t remaining = (uint64_t)m * (m - 1), steps = 0;

    G.f = f;
    G.m = m;
    G.maxdeg = totex_factor_max_degree(f);
    G.adj_off = malloc(sizeof *G.adj_off * ((size_t)m + 1));
    if (!G.adj_off)
        goto nomem;
    G.adj_off[0] = 0;
    for (uint32_t u = 0; u < m; u++)
        G.adj_off[u + 1] = G.adj_off[u] + totex_factor_degree(f, u);
    ndirected = G.adj_off[m];
    G.adj = malloc(sizeof *G.adj * (ndirected + 1));
    if (!G.adj)
        goto nomem;
    for (uint32_t u = 0; u < m; u++)
        for (uint32_t r = 0; r < G.adj_off[u + 1] - G.adj_off[u]; r++)
            G.adj[G.adj_off[u] + r] = totex_factor_neighbor(f, u, r);
    if (build_groups(&G))
        goto nomem;
    G.next = malloc(sizeof *G.next * mm);
    G.bhead = malloc(sizeof *G.bhead * mm);
    G.btail = malloc(sizeof *G.btail * mm);
    G.qn = calloc(m, sizeof *G.qn);
    G.hn = calloc((size_t)G.goff[m] + 1, sizeof *G.hn);
    G.heap = malloc(sizeof *G.heap * ((size_t)G.hoff[G.goff[m]] + 1));
    G.linkmsg = malloc(sizeof *G.linkmsg * ((size_t)G.maxdeg + 1));
    G.visit = calloc((size_t)G.maxdeg + 1, sizeof *G.visit);
    G.order = malloc(sizeof *G.order * ((size_t)G.maxgroups + 1));
    G.cand_msg = malloc(sizeof *G.cand_msg * ((size_t)G.maxdeg + 1));
    G.cand_lvl = malloc(sizeof *G.cand_lvl * ((size_t)G.maxdeg + 1));
    G.sending = malloc(m);
    G.receiving = malloc(m);
    hops = malloc(sizeof *hops * (ndirected + 1));
    cand = malloc(sizeof *cand * (ndirected + 1));
    s = totex_schedule_new();
    if (!G.next || !G.bhead || !G.btail || !G.qn || !G.hn || !G.heap || !G.linkmsg || !G.visit || !G.order ||
        !G.cand_msg || !G.cand_lvl || !G.sending || !G.receiving || !hops || !cand || !s)
        goto nomem;
    memset(G.bhead, 0xff, sizeof *G.bhead * mm);
    for (uint32_t u = 0; u < m; u++)
        for (uint32_t d = 0; d < m; d++)
            if (d != u)
                bucket_push(&G, u, u * m + d);

    /* a file graph of thousands of nodes takes a minute here, inside the prediction of the factor algorithms:
       a meter on stderr when progress is on; the steps are not known before the end */
    char label[64];
    snprintf(label, sizeof label, "greedy on %.30s: planning", totex_factor_name(f));
    FILE *progress_fp = totex_progress_stream(); /* the plan's options (totex_plan_options.progress) */
    prog = progress_fp ? totex_progress_new(progress_fp, label, 0, NULL, 1) : NULL;
    while (remaining > 0) {
        size_t c = 0;
        totex_progress_tick(prog, 1);
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
                uint32_t id = group_take(&G, u, cand[i].g); /* u's groups are untouched until now */
                hops[c++] = (totex_hop){u, v, id / m, id % m};
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
    totex_progress_free(prog);
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
