/*
 * The fluid LP's routing as one step.
 * Source: the maximum concurrent flow of src/exact/fluid.c (TE-CCL's LP,
 *         source-aggregated); each source's flow decomposed into paths to
 *         its destinations (breadth-first paths through the arcs still
 *         carrying flow, the bottleneck taken each time); a pair's bytes
 *         rounded to whole bytes over its paths (largest remainders).
 * Model:  byte-weighted, multiport; a step costs t_s + most bytes on one link / B.
 * Steps:  1.
 * Optimal: the busiest link carries the fluid optimum Lopt up to the rounding
 *         (at most one byte per path through it): t_s + Lopt / B is the bound.
 *         Bytes the decomposition cannot place (numerical residue) take the
 *         dimension-ordered route.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/w_route.h"
#include "common/error.h"
#include "totex/demand_plan.h"

typedef struct fpath {
    double amount;
    uint64_t bytes;
    uint32_t len;
    uint32_t *nodes;
} fpath;

static int by_fraction(const void *a, const void *b)
{
    const fpath *x = a, *y = b;
    double fx = x->amount - floor(x->amount), fy = y->amount - floor(y->amount);
    return fx < fy ? 1 : fx > fy ? -1 : 0;
}

totex_status totex_wplan_fluid(const totex_network *net, const totex_demand *d, const totex_fluid *fl,
                               totex_wschedule **out, totex_error *err)
{
    uint32_t n = d->n;
    totex_wlinks L;
    totex_status st = totex_wlinks_build(net, &L, err);
    if (st != TOTEX_OK)
        return st;
    if (!fl || !fl->flow || fl->n != n || fl->arcs != L.arcs) {
        totex_wlinks_free(&L);
        return totex_fail(err, TOTEX_EINVAL, "the fluid LP's flow does not match this network");
    }
    uint64_t A = L.arcs;
    double *f = malloc((size_t)A * sizeof *f);
    uint64_t *via = malloc((size_t)n * sizeof *via); /* BFS: the arc into each node */
    uint32_t *queue = malloc((size_t)n * sizeof *queue);
    uint32_t *rpath = malloc(((size_t)n + 1) * sizeof *rpath);
    uint32_t *scratch = malloc((size_t)(totex_network_diameter(net) + 2) * sizeof *scratch);
    size_t cap = 64, np = 0;
    fpath *paths = calloc(cap, sizeof *paths);
    totex_wschedule *s = totex_wschedule_new("fluid-lp");
    if (!f || !via || !queue || !rpath || !scratch || !paths || !s || totex_wschedule_step(s) != TOTEX_OK) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory routing the fluid LP's flow");
        goto done;
    }
    double tol = 1e-9 * (double)(totex_demand_max(d) + 1);
    for (uint32_t src = 0; src < n; src++) {
        memcpy(f, fl->flow + (size_t)src * A, (size_t)A * sizeof *f);
        for (uint32_t dst = 0; dst < n; dst++) {
            uint64_t w = d->w[(size_t)src * n + dst];
            if (dst == src || !w)
                continue;
            double rem = (double)w;
            np = 0;
            while (rem > tol) {
                for (uint32_t v = 0; v < n; v++)
                    via[v] = UINT64_MAX;
                uint32_t head = 0, tail = 0;
                queue[tail++] = src;
                via[src] = A; /* the root */
                while (head < tail && via[dst] == UINT64_MAX) {
                    uint32_t u = queue[head++];
                    for (uint64_t a = L.off[u]; a < L.off[u + 1]; a++)
                        if (f[a] > tol && via[L.nbr[a]] == UINT64_MAX) {
                            via[L.nbr[a]] = a;
                            queue[tail++] = L.nbr[a];
                        }
                }
                if (via[dst] == UINT64_MAX)
                    break;
                double b = rem;
                uint32_t len = 0;
                for (uint32_t v = dst; v != src;) {
                    uint64_t a = via[v];
                    if (f[a] < b)
                        b = f[a];
                    rpath[len++] = v;
                    uint32_t u = 0; /* the tail of arc a */
                    while (L.off[u + 1] <= a)
                        u++;
                    v = u;
                }
                rpath[len++] = src;
                for (uint32_t v = dst; v != src;) {
                    uint64_t a = via[v];
                    f[a] -= b;
                    uint32_t u = 0;
                    while (L.off[u + 1] <= a)
                        u++;
                    v = u;
                }
                rem -= b;
                if (np == cap) {
                    fpath *q = realloc(paths, 2 * cap * sizeof *paths);
                    if (!q) {
                        st = totex_fail(err, TOTEX_ENOMEM, "out of memory routing the fluid LP's flow");
                        goto done;
                    }
                    memset(q + cap, 0, cap * sizeof *q);
                    paths = q;
                    cap *= 2;
                }
                fpath *p = &paths[np++];
                p->amount = b;
                p->len = len;
                free(p->nodes);
                p->nodes = malloc(len * sizeof *p->nodes);
                if (!p->nodes) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory routing the fluid LP's flow");
                    goto done;
                }
                for (uint32_t k = 0; k < len; k++)
                    p->nodes[k] = rpath[len - 1 - k];
            }
            /* whole bytes: floors, then the remainder to the largest fractions */
            uint64_t given = 0;
            for (size_t k = 0; k < np; k++) {
                double fl0 = floor(paths[k].amount);
                paths[k].bytes = fl0 > (double)w ? w : (uint64_t)fl0;
                given += paths[k].bytes;
            }
            if (given > w) { /* rounding up of the doubles: take back from the first paths */
                for (size_t k = 0; k < np && given > w; k++) {
                    uint64_t x = paths[k].bytes < given - w ? paths[k].bytes : given - w;
                    paths[k].bytes -= x;
                    given -= x;
                }
            }
            qsort(paths, np, sizeof *paths, by_fraction);
            for (size_t k = 0; k < np && given < w && k < np; k++) {
                if (paths[k].amount - floor(paths[k].amount) <= 0)
                    break;
                paths[k].bytes++;
                given++;
            }
            for (size_t k = 0; k < np; k++)
                if (totex_wschedule_add(s, src, dst, paths[k].bytes, paths[k].nodes, paths[k].len + 0) != TOTEX_OK) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory routing the fluid LP's flow");
                    goto done;
                }
            if (given < w && w_add_split(s, net, src, dst, w - given, scratch) != TOTEX_OK) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory routing the fluid LP's flow");
                goto done;
            }
        }
    }
done:
    for (size_t k = 0; k < cap && paths; k++)
        free(paths[k].nodes);
    free(paths);
    free(f);
    free(via);
    free(queue);
    free(rpath);
    free(scratch);
    totex_wlinks_free(&L);
    if (st != TOTEX_OK) {
        totex_wschedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
