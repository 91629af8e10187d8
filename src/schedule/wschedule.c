/*
 * Byte-weighted schedules: steps of transfers, each moving
 * bytes of one pair along a path of links; and the numbering of the
 * directed links every byte-weighted module shares (totex_wlinks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/wschedule.h"

totex_status totex_wlinks_build(const totex_network *net, totex_wlinks *out, totex_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = totex_network_nodes(net);
    uint64_t arcs = 0;
    for (uint32_t v = 0; v < n; v++)
        arcs += totex_network_degree(net, v);
    out->off = malloc(((size_t)n + 1) * sizeof *out->off);
    out->nbr = malloc((size_t)(arcs ? arcs : 1) * sizeof *out->nbr);
    if (!out->off || !out->nbr) {
        totex_wlinks_free(out);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory numbering the links of %u nodes", n);
    }
    uint64_t a = 0;
    for (uint32_t v = 0; v < n; v++) {
        out->off[v] = a;
        a += totex_network_neighbors(net, v, out->nbr + a);
    }
    out->off[n] = a;
    out->n = n;
    out->arcs = a;
    return TOTEX_OK;
}

void totex_wlinks_free(totex_wlinks *l)
{
    if (!l)
        return;
    free(l->off);
    free(l->nbr);
    memset(l, 0, sizeof *l);
}

uint64_t totex_wlinks_find(const totex_wlinks *l, uint32_t from, uint32_t to)
{
    if (from >= l->n)
        return UINT64_MAX;
    for (uint64_t a = l->off[from]; a < l->off[from + 1]; a++)
        if (l->nbr[a] == to)
            return a;
    return UINT64_MAX;
}

struct totex_wschedule {
    char name[64];
    totex_wtransfer *t;
    size_t nt;
    uint64_t ct;
    uint32_t *nodes;
    uint64_t nn, cn;
    uint64_t *start; /* step i's transfers: t[start[i] .. start[i+1]) */
    uint64_t steps, cs;
};

totex_wschedule *totex_wschedule_new(const char *name)
{
    totex_wschedule *s = calloc(1, sizeof *s);
    if (s)
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    return s;
}

void totex_wschedule_free(totex_wschedule *s)
{
    if (!s)
        return;
    free(s->t);
    free(s->nodes);
    free(s->start);
    free(s);
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

totex_status totex_wschedule_step(totex_wschedule *s)
{
    if (grow((void **)&s->start, &s->cs, s->steps + 2, sizeof *s->start))
        return TOTEX_ENOMEM;
    s->start[s->steps] = s->nt;
    s->steps++;
    s->start[s->steps] = s->nt;
    return TOTEX_OK;
}

totex_status totex_wschedule_add(totex_wschedule *s, uint32_t src, uint32_t dst, uint64_t bytes, const uint32_t *path,
                                 uint32_t nodes)
{
    if (!bytes)
        return TOTEX_OK;
    if (!s->steps && totex_wschedule_step(s) != TOTEX_OK)
        return TOTEX_ENOMEM;
    if (grow((void **)&s->t, &s->ct, s->nt + 1, sizeof *s->t) || grow((void **)&s->nodes, &s->cn, s->nn + nodes, sizeof *s->nodes))
        return TOTEX_ENOMEM;
    totex_wtransfer *t = &s->t[s->nt++];
    t->src = src;
    t->dst = dst;
    t->bytes = bytes;
    t->hops = nodes ? nodes - 1 : 0;
    t->first = s->nn;
    memcpy(s->nodes + s->nn, path, (size_t)nodes * sizeof *path);
    s->nn += nodes;
    s->start[s->steps] = s->nt;
    return TOTEX_OK;
}

const char *totex_wschedule_name(const totex_wschedule *s) { return s->name; }
uint64_t totex_wschedule_steps(const totex_wschedule *s) { return s->steps; }
const uint32_t *totex_wschedule_nodes(const totex_wschedule *s) { return s->nodes; }

const totex_wtransfer *totex_wschedule_transfers(const totex_wschedule *s, uint64_t i, size_t *count)
{
    if (i >= s->steps) {
        *count = 0;
        return NULL;
    }
    *count = s->start[i + 1] - s->start[i];
    return s->t + s->start[i];
}
