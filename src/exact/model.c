/*
 * The time-expanded integer program of total exchange (store-and-forward,
 * unit messages), one integer commodity per destination.
 *
 * Messages bound for the same destination d are interchangeable as far as
 * links and ports are concerned, so the program counts them instead of
 * naming them: for each destination d, step t = 1..T and directed link
 * u -> v, a binary x(d, u->v, t) says whether a message for d crosses the
 * link in step t; a holdover h(d, v, t) in [0, n-1] counts the messages for
 * d waiting at v during step t. Flow is conserved at every (node, time) of
 * the time-expanded graph with one unit of supply at every node v != d at
 * time 0; d absorbs. That is n x (2|E| + n) x T integer variables instead
 * of n(n-1) x 2|E| x T binaries for one variable per message.
 *
 * Port models (000 Section 3, 001 Section 7), for every step t:
 *   multiport:   sum_d x(d, a, t) <= 1 for every directed link a;
 *   single-port: sum_{d, a out of v} x <= 1 and sum_{d, a into v} x <= 1
 *                for every node v (which also bounds every link by 1);
 *   k-port:      the same with <= k per node (rows dropped where k >= degree),
 *                plus the per-link rows.
 *
 * Presolve (horizon pruning): a message for d that is at v after step t
 * still needs dist(v, d) steps, so x(d, u->v, t) and h(d, v, t) exist only
 * when t + dist(v, d) <= T. This also forbids moving away from d when the
 * slack is 0, and removes every variable of the last dist(v, d) steps. When a
 * node is farther than T from some destination the program is infeasible
 * outright (T < diameter).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "exact/model.h"

typedef struct builder {
    totex_mip *m;
    size_t ccap, rcap, tcap;
} builder;

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int add_col(builder *b, uint32_t d, uint32_t from, uint32_t to, uint32_t t, double ub)
{
    totex_mip *m = b->m;
    size_t c1 = b->ccap, c2 = b->ccap;
    if (grow((void **)&m->col, &c1, m->ncols + 1, sizeof *m->col) ||
        grow((void **)&m->col_ub, &c2, m->ncols + 1, sizeof *m->col_ub))
        return -1;
    b->ccap = c1 < c2 ? c1 : c2;
    m->col[m->ncols] = (totex_mip_col){d, from, to, t};
    m->col_ub[m->ncols] = ub;
    m->ncols++;
    return 0;
}

static int add_row(builder *b, double lb, double ub)
{
    totex_mip *m = b->m;
    size_t c1 = b->rcap, c2 = b->rcap;
    if (grow((void **)&m->row_lb, &c1, m->nrows + 1, sizeof *m->row_lb) ||
        grow((void **)&m->row_ub, &c2, m->nrows + 1, sizeof *m->row_ub))
        return -1;
    b->rcap = c1 < c2 ? c1 : c2;
    m->row_lb[m->nrows] = lb;
    m->row_ub[m->nrows] = ub;
    m->nrows++;
    return 0;
}

static int add_coef(builder *b, uint32_t col, double v)
{
    totex_mip *m = b->m;
    size_t c1 = b->tcap, c2 = b->tcap, c3 = b->tcap;
    if (grow((void **)&m->ti, &c1, m->nnz + 1, sizeof *m->ti) ||
        grow((void **)&m->tj, &c2, m->nnz + 1, sizeof *m->tj) ||
        grow((void **)&m->tv, &c3, m->nnz + 1, sizeof *m->tv))
        return -1;
    b->tcap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
    m->ti[m->nnz] = m->nrows - 1; /* the row added last */
    m->tj[m->nnz] = col;
    m->tv[m->nnz] = v;
    m->nnz++;
    return 0;
}

void totex_mip_free(totex_mip *m)
{
    if (!m)
        return;
    free(m->col);
    free(m->col_ub);
    free(m->row_lb);
    free(m->row_ub);
    free(m->ti);
    free(m->tj);
    free(m->tv);
    memset(m, 0, sizeof *m);
}

#define NONE UINT32_MAX

totex_status totex_mip_build(const totex_network *net, totex_ports ports, uint32_t horizon,
                             const totex_mip_options *opt, totex_mip *out, totex_error *err)
{
    static const totex_mip_options defaults = {0, 0};
    const uint32_t n = totex_network_nodes(net), T = horizon;
    const uint32_t k = totex_ports_k(ports);
    builder b = {out, 0, 0, 0};
    uint32_t *adj_off = NULL, *adj = NULL, *dist = NULL, *xcol = NULL, *hcol = NULL, *xprev = NULL, *hprev = NULL;
    totex_status st = TOTEX_OK;
    if (!opt)
        opt = &defaults;
    memset(out, 0, sizeof *out);
    out->horizon = T;
    /* directed links: arcs adj_off[u] .. adj_off[u+1]-1 leave u */
    adj_off = calloc((size_t)n + 1, sizeof *adj_off);
    dist = malloc((size_t)n * n * sizeof *dist);
    if (!adj_off || !dist)
        goto nomem;
    for (uint32_t u = 0; u < n; u++)
        adj_off[u + 1] = adj_off[u] + totex_network_degree(net, u);
    const uint32_t A = adj_off[n];
    adj = malloc(((size_t)A + 1) * sizeof *adj);
    /* column of x(d, arc, t) for the current step t, and of h(d, v, t) */
    xcol = malloc(((size_t)A * n + 1) * sizeof *xcol);
    hcol = malloc(((size_t)n * n + 1) * sizeof *hcol);
    xprev = malloc(((size_t)A * n + 1) * sizeof *xprev);
    hprev = malloc(((size_t)n * n + 1) * sizeof *hprev);
    if (!adj || !xcol || !hcol || !xprev || !hprev)
        goto nomem;
    for (uint32_t u = 0; u < n; u++) {
        totex_network_neighbors(net, u, adj + adj_off[u]);
        for (uint32_t v = 0; v < n; v++)
            dist[(size_t)u * n + v] = (uint32_t)totex_network_distance(net, u, v);
    }
    /* presolve: a node farther than T from a destination can never deliver */
    for (size_t i = 0; i < (size_t)n * n; i++)
        if (dist[i] > T)
            out->infeasible = 1;
    if (out->infeasible)
        goto done;
    /*
     * Steps in order; for each step t first the columns of step t, then the
     * conservation rows at time t-1 (which need the columns of steps t-1 and t),
     * then the port rows of step t.
     */
    for (uint32_t i = 0; i < A * n; i++)
        xprev[i] = NONE;
    for (uint32_t i = 0; i < n * n; i++)
        hprev[i] = NONE;
    for (uint32_t t = 1; t <= T + 1; t++) {
        /* columns of step t (none at t = T + 1: it only closes the rows at time T) */
        for (uint32_t d = 0; d < n; d++) {
            for (uint32_t u = 0; u < n; u++) {
                hcol[(size_t)d * n + u] = NONE;
                for (uint32_t a = adj_off[u]; a < adj_off[u + 1]; a++) {
                    uint32_t v = adj[a];
                    xcol[(size_t)d * A + a] = NONE;
                    if (t > T || u == d || (!opt->no_prune && t + dist[(size_t)v * n + d] > T))
                        continue;
                    xcol[(size_t)d * A + a] = out->ncols;
                    if (add_col(&b, d, u, v, t, 1.0))
                        goto nomem_x;
                }
                if (t <= T && u != d && (opt->no_prune ? t < T : t + dist[(size_t)u * n + d] <= T)) {
                    hcol[(size_t)d * n + u] = out->ncols;
                    if (add_col(&b, d, u, u, t, (double)(n - 1)))
                        goto nomem_x;
                }
            }
        }
        /* conservation at (v, time t-1) for commodity d:
           out(step t) + hold(step t) - in(step t-1) - hold(step t-1) = [t == 1] */
        for (uint32_t d = 0; d < n; d++) {
            for (uint32_t v = 0; v < n; v++) {
                if (v == d)
                    continue;
                double rhs = t == 1 ? 1.0 : 0.0;
                int any = 0;
                for (uint32_t a = adj_off[v]; a < adj_off[v + 1] && !any; a++)
                    any = xcol[(size_t)d * A + a] != NONE;
                any = any || hcol[(size_t)d * n + v] != NONE || hprev[(size_t)d * n + v] != NONE;
                for (uint32_t u = 0; u < n && !any; u++) /* arcs into v: from its neighbours */
                    for (uint32_t a = adj_off[u]; a < adj_off[u + 1] && !any; a++)
                        any = adj[a] == v && xprev[(size_t)d * A + a] != NONE;
                if (!any) {
                    if (rhs != 0.0)
                        out->infeasible = 1;
                    continue;
                }
                if (add_row(&b, rhs, rhs))
                    goto nomem_x;
                for (uint32_t a = adj_off[v]; a < adj_off[v + 1]; a++)
                    if (xcol[(size_t)d * A + a] != NONE && add_coef(&b, xcol[(size_t)d * A + a], 1.0))
                        goto nomem_x;
                if (hcol[(size_t)d * n + v] != NONE && add_coef(&b, hcol[(size_t)d * n + v], 1.0))
                    goto nomem_x;
                if (hprev[(size_t)d * n + v] != NONE && add_coef(&b, hprev[(size_t)d * n + v], -1.0))
                    goto nomem_x;
                for (uint32_t w = adj_off[v]; w < adj_off[v + 1]; w++) {
                    uint32_t u = adj[w]; /* arc u -> v */
                    uint32_t a = adj_off[u];
                    while (a < adj_off[u + 1] && adj[a] != v)
                        a++;
                    if (a < adj_off[u + 1] && xprev[(size_t)d * A + a] != NONE &&
                        add_coef(&b, xprev[(size_t)d * A + a], -1.0))
                        goto nomem_x;
                }
            }
        }
        if (t <= T) {
            /* port rows of step t */
            for (uint32_t u = 0; u < n; u++) {
                uint32_t deg = adj_off[u + 1] - adj_off[u];
                int per_node = k != 0 && k < deg;
                if (!per_node || k >= 2) {
                    /* one message per directed link */
                    for (uint32_t a = adj_off[u]; a < adj_off[u + 1]; a++) {
                        uint32_t cnt = 0;
                        for (uint32_t d = 0; d < n; d++)
                            cnt += xcol[(size_t)d * A + a] != NONE;
                        if (cnt < 2)
                            continue;
                        if (add_row(&b, 0.0, 1.0))
                            goto nomem_x;
                        for (uint32_t d = 0; d < n; d++)
                            if (xcol[(size_t)d * A + a] != NONE && add_coef(&b, xcol[(size_t)d * A + a], 1.0))
                                goto nomem_x;
                    }
                }
                if (per_node) {
                    /* sends of u */
                    if (add_row(&b, 0.0, (double)k))
                        goto nomem_x;
                    for (uint32_t a = adj_off[u]; a < adj_off[u + 1]; a++)
                        for (uint32_t d = 0; d < n; d++)
                            if (xcol[(size_t)d * A + a] != NONE && add_coef(&b, xcol[(size_t)d * A + a], 1.0))
                                goto nomem_x;
                    /* receives of u: arcs w -> u */
                    if (add_row(&b, 0.0, (double)k))
                        goto nomem_x;
                    for (uint32_t i = adj_off[u]; i < adj_off[u + 1]; i++) {
                        uint32_t w = adj[i], a = adj_off[w];
                        while (a < adj_off[w + 1] && adj[a] != u)
                            a++;
                        if (a < adj_off[w + 1])
                            for (uint32_t d = 0; d < n; d++)
                                if (xcol[(size_t)d * A + a] != NONE && add_coef(&b, xcol[(size_t)d * A + a], 1.0))
                                    goto nomem_x;
                    }
                }
            }
        }
        uint32_t *sw = xprev;
        xprev = xcol;
        xcol = sw;
        sw = hprev;
        hprev = hcol;
        hcol = sw;
    }
    goto done;
nomem_x:
nomem:
    st = totex_fail(err, TOTEX_ENOMEM, "out of memory building the integer program (horizon %u steps)", T);
    totex_mip_free(out);
done:
    free(adj_off);
    free(adj);
    free(dist);
    free(xcol);
    free(hcol);
    free(xprev);
    free(hprev);
    return st;
}

totex_status totex_mip_decode(const totex_network *net, const totex_mip *m, const double *x,
                              totex_schedule **out, totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    /* per (d, v): a stack of the sources of the messages for d held at v */
    uint32_t *cnt = calloc((size_t)n * n, sizeof *cnt);
    uint32_t *src = malloc((size_t)n * n * n * sizeof *src);
    totex_hop *hops = NULL;
    size_t nh = 0, hcap = 0;
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    *out = NULL;
    if (!cnt || !src || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory decoding the solution");
        goto done;
    }
    for (uint32_t d = 0; d < n; d++)
        for (uint32_t v = 0; v < n; v++)
            if (v != d)
                src[((size_t)d * n + v) * n + cnt[(size_t)d * n + v]++] = v;
    uint32_t c = 0;
    for (uint32_t t = 1; t <= m->horizon; t++) {
        nh = 0;
        for (; c < m->ncols && m->col[c].step == t; c++) {
            const totex_mip_col *col = &m->col[c];
            long long val = (long long)(x[c] + 0.5);
            if (col->from == col->to || val <= 0)
                continue;
            uint32_t *cu = &cnt[(size_t)col->dst * n + col->from];
            if (val != 1 || *cu == 0) {
                st = totex_fail(err, TOTEX_EVIOLATION,
                                "the solver's solution does not decompose: step %u, link %u -> %u carries %lld message(s) for %u, %u held there",
                                t, col->from, col->to, val, col->dst, *cu);
                goto done;
            }
            if (grow((void **)&hops, &hcap, nh + 1, sizeof *hops)) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory decoding the solution");
                goto done;
            }
            /* first in, first out would need a queue; the oldest holder is at the bottom: take the top
               (any choice is valid: the messages for one destination are interchangeable) */
            hops[nh++] = (totex_hop){col->from, col->to, src[((size_t)col->dst * n + col->from) * n + --*cu],
                                     col->dst};
        }
        for (size_t i = 0; i < nh; i++)
            if (hops[i].to != hops[i].dst)
                src[((size_t)hops[i].dst * n + hops[i].to) * n + cnt[(size_t)hops[i].dst * n + hops[i].to]++] =
                    hops[i].src;
        if ((st = totex_schedule_add_step(s, hops, nh, err)) != TOTEX_OK)
            goto done;
    }
    *out = s;
    s = NULL;
done:
    totex_schedule_free(s);
    free(cnt);
    free(src);
    free(hops);
    return st;
}
