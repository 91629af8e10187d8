/*
 * Factor graphs: linear arrays (paths), rings, complete graphs, K2 and users'
 * graphs. Distances, degrees and statuses in closed form for the regular
 * kinds (004 Section 3; 003 Section 4.1), from BFS for a graph read from a file.
 */
#include "network/factor_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static const char *kind_word(totex_factor_kind k)
{
    switch (k) {
    case TOTEX_FACTOR_PATH: return "path";
    case TOTEX_FACTOR_RING: return "ring";
    case TOTEX_FACTOR_COMPLETE: return "complete";
    case TOTEX_FACTOR_K2: return "k2";
    case TOTEX_FACTOR_GRAPH: return "file";
    }
    return "?";
}

totex_factor *totex_factor_new_basic(totex_factor_kind kind, uint32_t m, totex_error *err)
{
    totex_factor *f = calloc(1, sizeof *f);
    char buf[48];
    if (!f) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory creating a factor");
        return NULL;
    }
    f->kind = kind;
    f->m = m;
    if (kind == TOTEX_FACTOR_K2)
        snprintf(buf, sizeof buf, "k2");
    else
        snprintf(buf, sizeof buf, "%s:%u", kind_word(kind), m);
    f->name = strdup(buf);
    if (!f->name) {
        free(f);
        totex_fail(err, TOTEX_ENOMEM, "out of memory creating a factor");
        return NULL;
    }
    switch (kind) {
    case TOTEX_FACTOR_PATH: f->links = m - 1; f->max_degree = m > 2 ? 2 : 1; f->diameter = m - 1; break;
    case TOTEX_FACTOR_RING: f->links = m; f->max_degree = 2; f->diameter = m / 2; break;
    case TOTEX_FACTOR_COMPLETE:
        f->links = (uint64_t)m * (m - 1) / 2; f->max_degree = m - 1; f->diameter = 1; break;
    case TOTEX_FACTOR_K2: f->links = 1; f->max_degree = 1; f->diameter = 1; break;
    case TOTEX_FACTOR_GRAPH: break;
    }
    return f;
}

void totex_factor_free(totex_factor *f)
{
    if (!f)
        return;
    free(f->name);
    free(f->adj_off);
    free(f->adj);
    free(f->dist);
    free(f->status);
    free(f);
}

totex_factor *totex_factor_new_edges(const char *name, uint32_t m, const uint32_t *edges,
                                     uint64_t nedges, totex_error *err)
{
    totex_factor *f = calloc(1, sizeof *f);
    uint32_t *queue = NULL, *fill = NULL;
    if (!f)
        goto nomem;
    f->kind = TOTEX_FACTOR_GRAPH;
    f->m = m;
    f->name = strdup(name);
    f->adj_off = calloc((size_t)m + 1, sizeof *f->adj_off);
    f->adj = malloc(sizeof *f->adj * (size_t)(2 * nedges + 1));
    f->dist = malloc(sizeof *f->dist * (size_t)m * m);
    f->status = calloc(m, sizeof *f->status);
    queue = malloc(sizeof *queue * m);
    fill = calloc(m, sizeof *fill);
    if (!f->name || !f->adj_off || !f->adj || !f->dist || !f->status || !queue || !fill)
        goto nomem;
    for (uint64_t e = 0; e < nedges; e++) {
        f->adj_off[edges[2 * e] + 1]++;
        f->adj_off[edges[2 * e + 1] + 1]++;
    }
    for (uint32_t v = 0; v < m; v++) {
        uint32_t d = f->adj_off[v + 1];
        if (d > f->max_degree)
            f->max_degree = d;
        f->adj_off[v + 1] += f->adj_off[v];
    }
    for (uint64_t e = 0; e < nedges; e++) {
        uint32_t a = edges[2 * e], b = edges[2 * e + 1];
        f->adj[f->adj_off[a] + fill[a]++] = b;
        f->adj[f->adj_off[b] + fill[b]++] = a;
    }
    f->links = nedges;
    /* all-pairs BFS: m <= TOTEX_GRAPH_MAX_NODES so m^2 uint16 distances fit */
    for (uint32_t s = 0; s < m; s++) {
        uint16_t *row = f->dist + (size_t)s * m;
        uint32_t head = 0, tail = 0, reached = 1;
        uint64_t sum = 0;
        memset(row, 0xff, sizeof *row * m);
        row[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t v = queue[head++];
            for (uint32_t i = f->adj_off[v]; i < f->adj_off[v + 1]; i++) {
                uint32_t u = f->adj[i];
                if (row[u] == 0xffff) {
                    row[u] = (uint16_t)(row[v] + 1);
                    sum += row[u];
                    if (row[u] > f->diameter)
                        f->diameter = row[u];
                    reached++;
                    queue[tail++] = u;
                }
            }
        }
        if (reached != m) {
            totex_fail(err, TOTEX_EINVAL,
                       "graph '%s' is not connected (node %u reaches only %u of %u nodes): total exchange needs a connected graph",
                       name, s, reached, m);
            free(queue);
            free(fill);
            totex_factor_free(f);
            return NULL;
        }
        f->status[s] = sum;
    }
    free(queue);
    free(fill);
    return f;
nomem:
    free(queue);
    free(fill);
    totex_factor_free(f);
    totex_fail(err, TOTEX_ENOMEM, "out of memory loading graph '%s' (%u nodes)", name, m);
    return NULL;
}

int totex_factor_same(const totex_factor *a, const totex_factor *b)
{
    if (a->kind != b->kind || a->m != b->m)
        return 0;
    if (a->kind != TOTEX_FACTOR_GRAPH)
        return 1;
    if (a->links != b->links)
        return 0;
    return memcmp(a->adj_off, b->adj_off, sizeof *a->adj_off * ((size_t)a->m + 1)) == 0 &&
           memcmp(a->adj, b->adj, sizeof *a->adj * 2 * (size_t)a->links) == 0;
}

totex_factor_kind totex_factor_get_kind(const totex_factor *f) { return f->kind; }
uint32_t totex_factor_nodes(const totex_factor *f) { return f->m; }
const char *totex_factor_name(const totex_factor *f) { return f->name; }
uint64_t totex_factor_links(const totex_factor *f) { return f->links; }
uint32_t totex_factor_max_degree(const totex_factor *f) { return f->max_degree; }
uint32_t totex_factor_diameter(const totex_factor *f) { return f->diameter; }

uint32_t totex_factor_distance(const totex_factor *f, uint32_t a, uint32_t b)
{
    uint32_t d = a > b ? a - b : b - a;
    if (a >= f->m || b >= f->m)
        return UINT32_MAX;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH: return d;
    case TOTEX_FACTOR_RING: return d < f->m - d ? d : f->m - d;
    case TOTEX_FACTOR_COMPLETE:
    case TOTEX_FACTOR_K2: return d ? 1 : 0;
    case TOTEX_FACTOR_GRAPH: return f->dist[(size_t)a * f->m + b];
    }
    return 0;
}

uint32_t totex_factor_degree(const totex_factor *f, uint32_t a)
{
    if (a >= f->m)
        return 0;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH: return (a > 0) + (a + 1 < f->m);
    case TOTEX_FACTOR_RING: return 2;
    case TOTEX_FACTOR_COMPLETE: return f->m - 1;
    case TOTEX_FACTOR_K2: return 1;
    case TOTEX_FACTOR_GRAPH: return f->adj_off[a + 1] - f->adj_off[a];
    }
    return 0;
}

uint32_t totex_factor_neighbor(const totex_factor *f, uint32_t a, uint32_t r)
{
    if (a >= f->m || r >= totex_factor_degree(f, a))
        return UINT32_MAX;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH: /* rank 0 = left (a-1) if it exists, then right */
        if (a > 0)
            return r == 0 ? a - 1 : a + 1;
        return a + 1;
    case TOTEX_FACTOR_RING: /* rank 0 = clockwise (a+1), rank 1 = counterclockwise (a-1) */
        return r == 0 ? (a + 1) % f->m : (a + f->m - 1) % f->m;
    case TOTEX_FACTOR_COMPLETE: return r < a ? r : r + 1;
    case TOTEX_FACTOR_K2: return 1 - a;
    case TOTEX_FACTOR_GRAPH: return f->adj[f->adj_off[a] + r];
    }
    return 0;
}

uint32_t totex_factor_neighbor_rank(const totex_factor *f, uint32_t a, uint32_t b)
{
    if (a >= f->m || b >= f->m || a == b)
        return UINT32_MAX;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH:
        if (b + 1 == a)
            return 0;
        if (b == a + 1)
            return a > 0 ? 1 : 0;
        return UINT32_MAX;
    case TOTEX_FACTOR_RING:
        if (b == (a + 1) % f->m)
            return 0;
        if (b == (a + f->m - 1) % f->m)
            return 1;
        return UINT32_MAX;
    case TOTEX_FACTOR_COMPLETE: return b < a ? b : b - 1;
    case TOTEX_FACTOR_K2: return 0;
    case TOTEX_FACTOR_GRAPH:
        for (uint32_t i = f->adj_off[a]; i < f->adj_off[a + 1]; i++)
            if (f->adj[i] == b)
                return i - f->adj_off[a];
        return UINT32_MAX;
    }
    return UINT32_MAX;
}

int totex_factor_adjacent(const totex_factor *f, uint32_t a, uint32_t b)
{
    if (a >= f->m || b >= f->m || a == b)
        return 0;
    if (f->kind == TOTEX_FACTOR_GRAPH)
        return f->dist[(size_t)a * f->m + b] == 1;
    return totex_factor_distance(f, a, b) == 1;
}

uint64_t totex_factor_status(const totex_factor *f, uint32_t a)
{
    uint64_t m = f->m, left = a, right = m - 1 - a;
    if (a >= f->m)
        return UINT64_MAX;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH: return left * (left + 1) / 2 + right * (right + 1) / 2;
    case TOTEX_FACTOR_RING: return m * m / 4; /* 2 * sum_{d<m/2} d (+ m/2 if m even) = floor(m^2/4) */
    case TOTEX_FACTOR_COMPLETE:
    case TOTEX_FACTOR_K2: return m - 1;
    case TOTEX_FACTOR_GRAPH: return f->status[a];
    }
    return 0;
}

uint64_t totex_factor_status_sum(const totex_factor *f)
{
    uint64_t m = f->m;
    switch (f->kind) {
    case TOTEX_FACTOR_PATH: return (m - 1) * m * (m + 1) / 3; /* sum_{a,b}|a-b| = (m^3 - m)/3 */
    case TOTEX_FACTOR_RING: return m * (m * m / 4);
    case TOTEX_FACTOR_COMPLETE:
    case TOTEX_FACTOR_K2: return m * (m - 1);
    case TOTEX_FACTOR_GRAPH: {
        uint64_t s = 0;
        for (uint32_t a = 0; a < f->m; a++)
            s += f->status[a];
        return s;
    }
    }
    return 0;
}
