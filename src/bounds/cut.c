/*
 * The multiport cut bound of 000 Section 3, eq. (4): T >= |V1||V2| / C(V1,V2)
 * for any bipartition V1 | V2 of the nodes, C the links across it.
 *
 * Factor cuts: closed forms for linear arrays and rings (the bisections of
 * 003 Section 2, eqs. (1) and (2)), for complete graphs and K2 (every cut
 * has ratio 1); exhaustive search for small graphs read from files; for
 * larger ones a sweep over the prefixes of BFS orders and the subtrees of DFS
 * trees (every bridge among them).
 *
 * Product cuts: the best cut V1_i | V2_i of dimension i lifted to the product
 * as in the proof of 000 Theorem 5: V1 = {v : v_i in V1_i}, so |V1| =
 * |V1_i| n/m_i, |V2| = |V2_i| n/m_i and C = C_i n/m_i (one cut per copy of
 * G_i). The best dimension is kept; all ratios are compared exactly by
 * cross-multiplication in 128 bits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_impl.h"

/* Exhaustive search is used for file graphs up to this many nodes. */
#define GRAPH_EXHAUSTIVE_MAX 22u
/* Work budget (node visits + adjacency scans) of the BFS / DFS sweep. */
#define SWEEP_BUDGET UINT64_C(64000000)

/* a_num/a_den > b_num/b_den, denominators > 0 (b_den == 0 means "no cut yet"). */
static int ratio_greater(totex_u128 a_num, totex_u128 a_den, totex_u128 b_num, totex_u128 b_den)
{
    if (b_den == 0)
        return a_den != 0;
    return a_num * b_den > b_num * a_den;
}

static uint64_t low_bits(uint32_t count)
{
    return count >= 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
}

totex_cut totex_cut_exhaustive(const uint64_t *adj, uint32_t m)
{
    totex_cut best;
    uint64_t nb[30];
    uint64_t full, mask = 0;
    uint64_t c = 0;    /* links across mask | rest */
    uint32_t size = 0; /* |mask| */
    memset(&best, 0, sizeof best);
    best.exact = 1;
    if (!adj || m < 2 || m > 30)
        return best;
    full = low_bits(m);
    for (uint32_t v = 0; v < m; v++)
        nb[v] = adj[v] & full & ~(UINT64_C(1) << v);
    /* Gray-code walk over the nonempty subsets of {0..m-2}: node m-1 stays in V2,
     * so each bipartition is visited once; one node moves per step. */
    for (uint64_t i = 1; i < (UINT64_C(1) << (m - 1)); i++) {
        uint32_t v = (uint32_t)__builtin_ctzll(i);
        uint64_t bit = UINT64_C(1) << v;
        uint64_t without = mask & ~bit;
        /* v's links to the other nodes of V2 (outside `without`) minus its links into `without` */
        int64_t delta = (int64_t)__builtin_popcountll(nb[v] & ~without) - (int64_t)__builtin_popcountll(nb[v] & without);
        if (mask & bit) {
            mask = without;
            c = (uint64_t)((int64_t)c - delta);
            size--;
        } else {
            mask |= bit;
            c = (uint64_t)((int64_t)c + delta);
            size++;
        }
        if (c == 0)
            continue;
        if (ratio_greater((totex_u128)size * (m - size), c, (totex_u128)best.side * best.other, best.links)) {
            int flip = size > m - size;
            best.side = flip ? m - size : size;
            best.other = m - best.side;
            best.links = c;
            best.members = flip ? (~mask & full) : mask;
        }
    }
    best.first = 0;
    if (best.links == 0)
        best.members = 0;
    return best;
}

/* File graph with m <= GRAPH_EXHAUSTIVE_MAX nodes: bitmask adjacency, then exhaustive. */
static totex_cut graph_exhaustive(const totex_factor *f, uint32_t m)
{
    uint64_t adj[GRAPH_EXHAUSTIVE_MAX];
    for (uint32_t v = 0; v < m; v++) {
        uint32_t deg = totex_factor_degree(f, v);
        adj[v] = 0;
        for (uint32_t r = 0; r < deg; r++)
            adj[v] |= UINT64_C(1) << totex_factor_neighbor(f, v, r);
    }
    return totex_cut_exhaustive(adj, m);
}

/* Fallback that needs no memory: node 0 alone against the rest (a DFS subtree cut of nothing better). */
static totex_cut single_node_cut(const totex_factor *f, uint32_t m)
{
    totex_cut c;
    memset(&c, 0, sizeof c);
    c.side = 1;
    c.other = m - 1;
    c.links = totex_factor_degree(f, 0);
    c.exact = 0;
    c.first = 0;
    c.prefix = 1;
    c.members = m <= 64 ? 1 : 0;
    return c;
}

#define NONE UINT32_MAX

/* Scratch space of the heuristic sweep over a file graph with m nodes. */
typedef struct sweep {
    const totex_factor *f;
    uint32_t m;
    uint32_t *order;  /* BFS order; DFS stack */
    uint32_t *disc;   /* DFS discovery times (NONE: unseen); BFS: seen marks */
    uint32_t *parent; /* DFS parent */
    uint32_t *it;     /* DFS: next neighbour rank to scan */
    uint32_t *size;   /* DFS: subtree sizes */
    uint64_t *degs;   /* DFS: sum of degrees over the subtree */
    uint64_t *inside; /* DFS: links with both ends in the subtree */
    unsigned char *in;
    totex_cut best;
} sweep;

static void consider(sweep *sw, uint32_t p, uint64_t c, uint32_t start, uint32_t prefix, uint32_t subtree)
{
    totex_cut *b = &sw->best;
    uint32_t m = sw->m;
    if (c && ratio_greater((totex_u128)p * (m - p), c, (totex_u128)b->side * b->other, b->links)) {
        b->side = p <= m - p ? p : m - p;
        b->other = m - b->side;
        b->links = c;
        b->first = start;
        b->prefix = prefix;
        b->subtree = subtree;
    }
}

static void bfs_order(sweep *sw, uint32_t start)
{
    const totex_factor *f = sw->f;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < sw->m; v++)
        sw->disc[v] = NONE;
    sw->order[tail++] = start;
    sw->disc[start] = 0;
    while (head < tail) {
        uint32_t v = sw->order[head++], deg = totex_factor_degree(f, v);
        for (uint32_t r = 0; r < deg; r++) {
            uint32_t u = totex_factor_neighbor(f, v, r);
            if (sw->disc[u] == NONE) {
                sw->disc[u] = 0;
                sw->order[tail++] = u;
            }
        }
    }
}

/* Every prefix of the BFS order from `start`: one node joins V1 per step. */
static void sweep_bfs(sweep *sw, uint32_t start)
{
    const totex_factor *f = sw->f;
    uint64_t c = 0;
    bfs_order(sw, start);
    memset(sw->in, 0, sw->m);
    for (uint32_t p = 1; p < sw->m; p++) {
        uint32_t v = sw->order[p - 1], deg = totex_factor_degree(f, v), inside = 0;
        for (uint32_t r = 0; r < deg; r++)
            inside += sw->in[totex_factor_neighbor(f, v, r)];
        c = c + deg - 2 * (uint64_t)inside;
        sw->in[v] = 1;
        consider(sw, p, c, start, p, 0);
    }
}

/* Depth-first search from `start` (neighbours in rank order); with `visit`, every
 * proper subtree T_v is offered as a cut: C(T_v) = sum of degrees in T_v minus
 * twice the links inside T_v (a link joins a node to one of its ancestors). */
static void dfs(sweep *sw, uint32_t start, int visit)
{
    const totex_factor *f = sw->f;
    uint32_t sp = 0, t = 0;
    for (uint32_t v = 0; v < sw->m; v++) {
        sw->disc[v] = NONE;
        sw->it[v] = 0;
    }
    sw->disc[start] = t++;
    sw->parent[start] = NONE;
    sw->size[start] = 1;
    sw->degs[start] = totex_factor_degree(f, start);
    sw->inside[start] = 0;
    sw->order[sp++] = start;
    while (sp) {
        uint32_t v = sw->order[sp - 1];
        if (sw->it[v] < totex_factor_degree(f, v)) {
            uint32_t u = totex_factor_neighbor(f, v, sw->it[v]++);
            if (sw->disc[u] == NONE) {
                sw->disc[u] = t++;
                sw->parent[u] = v;
                sw->size[u] = 1;
                sw->degs[u] = totex_factor_degree(f, u);
                sw->inside[u] = 0;
                sw->inside[v]++; /* tree link v - u, inside T_v */
                sw->order[sp++] = u;
            } else if (u != sw->parent[v] && sw->disc[u] < sw->disc[v]) {
                sw->inside[u]++; /* back link to the ancestor u, inside T_u */
            }
        } else {
            uint32_t p = sw->parent[v];
            sp--;
            if (p != NONE) {
                if (visit)
                    consider(sw, sw->size[v], sw->degs[v] - 2 * sw->inside[v], start, 0, v);
                sw->size[p] += sw->size[v];
                sw->degs[p] += sw->degs[v];
                sw->inside[p] += sw->inside[v];
            }
        }
    }
}

/* V1 of the winning heuristic cut as a bitmask (m <= 64). */
static uint64_t sweep_members(sweep *sw)
{
    const totex_cut *b = &sw->best;
    uint64_t one = 0;
    uint32_t count;
    if (b->prefix) {
        bfs_order(sw, b->first);
        for (uint32_t p = 0; p < b->prefix; p++)
            one |= UINT64_C(1) << sw->order[p];
        count = b->prefix;
    } else {
        dfs(sw, b->first, 0);
        for (uint32_t v = 0; v < sw->m; v++)
            if (sw->disc[v] >= sw->disc[b->subtree] && sw->disc[v] < sw->disc[b->subtree] + sw->size[b->subtree])
                one |= UINT64_C(1) << v;
        count = sw->size[b->subtree];
    }
    return count == b->side ? one : (~one & low_bits(sw->m));
}

/* Larger file graph: the best prefix of a BFS order and the best subtree of a
 * DFS tree, from as many start nodes as the work budget allows (every node for
 * sparse graphs). Subtree cuts include every bridge. */
static totex_cut graph_sweep(const totex_factor *f, uint32_t m)
{
    sweep sw;
    uint64_t work = 2 * ((uint64_t)m + 2 * totex_factor_links(f));
    uint64_t starts = SWEEP_BUDGET / (work ? work : 1);
    memset(&sw, 0, sizeof sw);
    sw.f = f;
    sw.m = m;
    sw.best = single_node_cut(f, m);
    sw.order = malloc(sizeof *sw.order * m);
    sw.disc = malloc(sizeof *sw.disc * m);
    sw.parent = malloc(sizeof *sw.parent * m);
    sw.it = malloc(sizeof *sw.it * m);
    sw.size = malloc(sizeof *sw.size * m);
    sw.degs = malloc(sizeof *sw.degs * m);
    sw.inside = malloc(sizeof *sw.inside * m);
    sw.in = malloc(m);
    if (sw.order && sw.disc && sw.parent && sw.it && sw.size && sw.degs && sw.inside && sw.in) {
        if (starts < 1)
            starts = 1;
        if (starts > m)
            starts = m;
        for (uint64_t k = 0; k < starts; k++) {
            uint32_t s = (uint32_t)(k * m / starts);
            sweep_bfs(&sw, s);
            dfs(&sw, s, 1);
        }
        sw.best.members = m <= 64 ? sweep_members(&sw) : 0;
    }
    sw.best.exact = 0;
    free(sw.order);
    free(sw.disc);
    free(sw.parent);
    free(sw.it);
    free(sw.size);
    free(sw.degs);
    free(sw.inside);
    free(sw.in);
    return sw.best;
}

totex_cut totex_factor_best_cut(const totex_factor *f)
{
    totex_cut c;
    uint32_t m = totex_factor_nodes(f);
    memset(&c, 0, sizeof c);
    if (m < 2)
        return c;
    c.exact = 1;
    c.first = 0;
    c.side = m / 2;
    c.other = m - c.side;
    c.members = m <= 64 ? low_bits(c.side) : 0;
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_PATH: /* 003 eq. (1): one link separates the halves */
        c.links = 1;
        return c;
    case TOTEX_FACTOR_RING: /* 003 eq. (2): two links separate the halves */
        c.links = 2;
        return c;
    case TOTEX_FACTOR_COMPLETE: /* every pair crosses its own link: ratio 1 for every cut */
    case TOTEX_FACTOR_K2:
        c.links = (uint64_t)c.side * c.other;
        return c;
    case TOTEX_FACTOR_GRAPH:
        return m <= GRAPH_EXHAUSTIVE_MAX ? graph_exhaustive(f, m) : graph_sweep(f, m);
    }
    return c;
}

/* "{a..b}" or "{a}" for a contiguous run. */
static void fmt_run(char *buf, size_t cap, uint32_t a, uint32_t b)
{
    if (a == b)
        snprintf(buf, cap, "{%" PRIu32 "}", a);
    else
        snprintf(buf, cap, "{%" PRIu32 "..%" PRIu32 "}", a, b);
}

/* The two sides of factor cut @p c as text. */
static void fmt_sides(char *buf, size_t cap, const totex_factor *f, const totex_cut *c)
{
    uint32_t m = totex_factor_nodes(f);
    char a[48], b[48];
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_GRAPH) {
        fmt_run(a, sizeof a, c->first, c->first + c->side - 1);
        fmt_run(b, sizeof b, c->first + c->side, m - 1);
        snprintf(buf, cap, "%s | %s", a, b);
    } else if (!c->exact && c->prefix) {
        snprintf(buf, cap, "the first %" PRIu32 " nodes of the BFS order from node %" PRIu32 " | the other %" PRIu32
                 " (best cut found by the sweep, not proved best)", c->prefix, c->first, m - c->prefix);
    } else if (!c->exact) {
        snprintf(buf, cap, "the subtree of node %" PRIu32 " in the DFS tree from node %" PRIu32 " | the rest"
                 " (best cut found by the sweep, not proved best)", c->subtree, c->first);
    } else {
        size_t len = 0;
        len += (size_t)snprintf(buf + len, cap - len, "{");
        for (uint32_t v = 0, k = 0; v < m && v < 64 && len < cap; v++)
            if (c->members >> v & 1)
                len += (size_t)snprintf(buf + len, cap - len, k++ ? ",%" PRIu32 : "%" PRIu32, v);
        if (len < cap)
            snprintf(buf + len, cap - len, "} | the other %" PRIu32 " nodes", c->other);
    }
}

void totex_bound_cut(const totex_network *net, totex_bound *out)
{
    uint32_t k = totex_network_dims(net), n = totex_network_nodes(net);
    totex_u128 best_num = 0, best_den = 0;
    uint32_t best_dim = 0;
    totex_cut best_cut;
    char sides[200], copies[128];

    memset(out, 0, sizeof *out);
    memset(&best_cut, 0, sizeof best_cut);
    out->kind = TOTEX_BOUND_CUT;
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_cut c = totex_factor_best_cut(f);
        uint64_t q = n / totex_factor_nodes(f); /* copies of G_i */
        /* lifted ratio: (side q)(other q) / (links q) = side other q / links */
        totex_u128 num = (totex_u128)c.side * c.other * q;
        if (c.links && ratio_greater(num, c.links, best_num, best_den)) {
            best_num = num;
            best_den = c.links;
            best_dim = i;
            best_cut = c;
        }
    }
    if (best_den == 0) {
        totex_witness(out, "no cut: the network has a single node");
        return;
    }
    {
        const totex_factor *f = totex_network_factor(net, best_dim);
        uint64_t q = n / totex_factor_nodes(f);
        totex_u128 v = (best_num + best_den - 1) / best_den;
        out->value = (uint64_t)v; /* <= n^2/4 < 2^62 */
        out->exact = (double)best_num / (double)best_den;
        fmt_sides(sides, sizeof sides, f, &best_cut);
        if (q == 1)
            snprintf(copies, sizeof copies, "%" PRIu64 " link%s", best_cut.links, best_cut.links == 1 ? "" : "s");
        else
            snprintf(copies, sizeof copies, "%" PRIu64 " link%s in each of %" PRIu64 " copies, %" PRIu64 " links in all",
                     best_cut.links, best_cut.links == 1 ? "" : "s", q, best_cut.links * q);
        totex_witness(out,
                      "dimension %" PRIu32 " (%s): %s cut by %s; |V1| = %" PRIu64 ", |V2| = %" PRIu64
                      ", |V1||V2|/C = %.6g (000 eq. (4)%s)",
                      best_dim, totex_factor_name(f), sides, copies, (uint64_t)best_cut.side * q,
                      (uint64_t)best_cut.other * q, out->exact, q == 1 ? "" : ", lifted as in Theorem 5");
    }
}
