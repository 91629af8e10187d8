/*
 * The integer program restricted to mirror-symmetric schedules (docs/algorithms/exact.md).
 *
 * A reflection of a factor of even length (path:2m or k2: coordinate i ->
 * m - 1 - i) is an automorphism of the product that fixes no node and no
 * directed link. Its images of a schedule are schedules; the program of
 * model.c is invariant under it (distances, ports and the supplies are), so
 * requiring x(c) = x(g c) for every column c and every such reflection g
 * keeps only schedules the reflections leave unchanged, and every solution of
 * the restricted program is a solution of the full one. The restricted
 * program has one column per orbit of columns and one row per orbit of rows
 * (rows of one orbit become the same row), about 1 / 2^e of the full one for
 * e reflections: CBC solves it in a fraction of the time. It can only find
 * schedules, never prove a horizon infeasible (a shorter schedule need not be
 * symmetric): the descending search (search.c) tries it before the full
 * program. Measured on path:3*path:4 under 2-port, horizon 14: the full
 * program takes CBC about 3 CPU s, the restricted one (the path:4 mirror)
 * about 0.6 (docs/performance.md).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "exact/model.h"

#define NONE UINT32_MAX

uint32_t totex_mip_reflections(const totex_network *net, uint32_t *perm)
{
    const uint32_t n = totex_network_nodes(net), dims = totex_network_dims(net);
    uint32_t count = 0;
    for (uint32_t f = 0; f < dims; f++) {
        const totex_factor *fa = totex_network_factor(net, f);
        totex_factor_kind kind = totex_factor_get_kind(fa);
        uint32_t m = totex_factor_nodes(fa), stride = totex_network_stride(net, f);
        if (!(kind == TOTEX_FACTOR_K2 || (kind == TOTEX_FACTOR_PATH && m % 2 == 0)))
            continue;
        if (perm) {
            uint32_t *g = perm + (size_t)count * n;
            for (uint32_t u = 0; u < n; u++) {
                uint32_t c = totex_network_coord(net, u, f);
                g[u] = u - c * stride + (m - 1 - c) * stride;
            }
        }
        count++;
    }
    return count;
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a != b)
        parent[a < b ? b : a] = a < b ? a : b; /* the smaller column is the root */
}

/* one row of the restricted program, for comparing rows of one orbit */
typedef struct qrow {
    double lb, ub;
    size_t first, len; /* entries in the entry arrays */
} qrow;

static uint64_t row_hash(const qrow *r, const uint32_t *ej, const double *ev)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = r->first; i < r->first + r->len; i++) {
        h = (h ^ ej[i]) * 1099511628211ull;
        h = (h ^ (uint64_t)(int64_t)ev[i]) * 1099511628211ull;
    }
    h = (h ^ (uint64_t)(int64_t)r->lb) * 1099511628211ull;
    return (h ^ (uint64_t)(int64_t)r->ub) * 1099511628211ull;
}

static int row_equal(const qrow *a, const qrow *b, const uint32_t *ej, const double *ev)
{
    return a->lb == b->lb && a->ub == b->ub && a->len == b->len &&
           !memcmp(ej + a->first, ej + b->first, a->len * sizeof *ej) &&
           !memcmp(ev + a->first, ev + b->first, a->len * sizeof *ev);
}

/* sort entries (column, value) of one row by column: insertion sort (rows are short) */
static void sort_row(uint32_t *j, double *v, size_t len)
{
    for (size_t i = 1; i < len; i++) {
        uint32_t cj = j[i];
        double cv = v[i];
        size_t k = i;
        for (; k > 0 && j[k - 1] > cj; k--) {
            j[k] = j[k - 1];
            v[k] = v[k - 1];
        }
        j[k] = cj;
        v[k] = cv;
    }
}

totex_status totex_mip_symmetric(const totex_network *net, const totex_mip *full, const uint32_t *perm,
                                 uint32_t count, totex_mip *out, uint32_t *orbit, totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    const size_t key_count = (size_t)n * n * n;
    uint32_t *parent = malloc(((size_t)full->ncols + 1) * sizeof *parent);
    uint32_t *key = malloc((key_count + 1) * sizeof *key); /* (dst, from, to) -> column, within one step */
    uint8_t *dead = calloc((size_t)full->ncols + 1, 1);
    uint32_t *ej = malloc((full->nnz + 1) * sizeof *ej);
    double *ev = malloc((full->nnz + 1) * sizeof *ev);
    qrow *rows = malloc(((size_t)full->nrows + 1) * sizeof *rows);
    size_t hcap = 16;
    while (hcap < 2 * (size_t)full->nrows)
        hcap *= 2;
    uint32_t *table = malloc(hcap * sizeof *table);
    totex_status st = TOTEX_OK;
    memset(out, 0, sizeof *out);
    if (!parent || !key || !dead || !ej || !ev || !rows || !table)
        goto nomem;
    out->horizon = full->horizon;
    out->infeasible = full->infeasible;
    for (size_t i = 0; i < key_count; i++)
        key[i] = NONE;
    for (uint32_t c = 0; c < full->ncols; c++)
        parent[c] = c;
    /* orbits of columns: the columns of one step at a time (a reflection keeps the step) */
    for (uint32_t s = 0; s < full->ncols;) {
        uint32_t e = s;
        while (e < full->ncols && full->col[e].step == full->col[s].step)
            e++;
        for (uint32_t c = s; c < e; c++)
            key[((size_t)full->col[c].dst * n + full->col[c].from) * n + full->col[c].to] = c;
        for (uint32_t g = 0; g < count; g++) {
            const uint32_t *p = perm + (size_t)g * n;
            for (uint32_t c = s; c < e; c++) {
                const totex_mip_col *col = &full->col[c];
                uint32_t img = key[((size_t)p[col->dst] * n + p[col->from]) * n + p[col->to]];
                if (img == NONE)
                    dead[c] = 1; /* its image was pruned: the orbit must be 0 */
                else
                    unite(parent, c, img);
            }
        }
        for (uint32_t c = s; c < e; c++)
            key[((size_t)full->col[c].dst * n + full->col[c].from) * n + full->col[c].to] = NONE;
        s = e;
    }
    /* columns of the restricted program: one per orbit, numbered in the order of their roots */
    out->col = malloc(((size_t)full->ncols + 1) * sizeof *out->col);
    out->col_ub = malloc(((size_t)full->ncols + 1) * sizeof *out->col_ub);
    if (!out->col || !out->col_ub)
        goto nomem;
    for (uint32_t c = 0; c < full->ncols; c++) {
        uint32_t r = find(parent, c);
        if (r == c) {
            orbit[c] = out->ncols;
            out->col[out->ncols] = full->col[c];
            out->col_ub[out->ncols] = full->col_ub[c];
            out->ncols++;
        } else {
            orbit[c] = orbit[r]; /* r < c: numbered already */
        }
    }
    for (uint32_t c = 0; c < full->ncols; c++)
        if (dead[c])
            out->col_ub[orbit[c]] = 0;
    /* rows with their columns replaced by orbits (entries of one orbit summed), duplicates dropped */
    size_t ne = 0;
    uint32_t nr = 0;
    for (size_t i = 0; i < hcap; i++)
        table[i] = NONE;
    for (size_t t = 0; t < full->nnz;) { /* rows without entries (a port row whose columns were all pruned) drop out */
        uint32_t row = full->ti[t];
        qrow q = {0, 0, ne, 0};
        while (t < full->nnz && full->ti[t] == row) {
            ej[ne + q.len] = orbit[full->tj[t]];
            ev[ne + q.len] = full->tv[t];
            q.len++;
            t++;
        }
        q.lb = full->row_lb[row];
        q.ub = full->row_ub[row];
        sort_row(ej + ne, ev + ne, q.len);
        size_t w = 0;
        for (size_t i = 0; i < q.len; i++) {
            if (w && ej[ne + w - 1] == ej[ne + i]) {
                ev[ne + w - 1] += ev[ne + i];
                continue;
            }
            ej[ne + w] = ej[ne + i];
            ev[ne + w] = ev[ne + i];
            w++;
        }
        q.len = w;
        size_t h = (size_t)row_hash(&q, ej, ev) & (hcap - 1);
        int dup = 0;
        for (; table[h] != NONE; h = (h + 1) & (hcap - 1))
            if ((dup = row_equal(&rows[table[h]], &q, ej, ev)))
                break;
        if (dup)
            continue;
        table[h] = nr;
        rows[nr++] = q;
        ne += q.len;
    }
    out->nrows = nr;
    out->nnz = ne;
    out->row_lb = malloc(((size_t)nr + 1) * sizeof *out->row_lb);
    out->row_ub = malloc(((size_t)nr + 1) * sizeof *out->row_ub);
    out->ti = malloc((ne + 1) * sizeof *out->ti);
    out->tj = malloc((ne + 1) * sizeof *out->tj);
    out->tv = malloc((ne + 1) * sizeof *out->tv);
    if (!out->row_lb || !out->row_ub || !out->ti || !out->tj || !out->tv)
        goto nomem;
    for (uint32_t r = 0; r < nr; r++) {
        out->row_lb[r] = rows[r].lb;
        out->row_ub[r] = rows[r].ub;
        for (size_t i = rows[r].first; i < rows[r].first + rows[r].len; i++) {
            out->ti[i] = r;
            out->tj[i] = ej[i];
            out->tv[i] = ev[i];
        }
    }
    goto done;
nomem:
    st = totex_fail(err, TOTEX_ENOMEM, "out of memory building the mirror-symmetric integer program");
    totex_mip_free(out);
done:
    free(parent);
    free(key);
    free(dead);
    free(ej);
    free(ev);
    free(rows);
    free(table);
    return st;
}
