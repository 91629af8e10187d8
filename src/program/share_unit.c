/* Translation of a symmetric switching scheme to one rank (001 Definition 4,
 * Theorem 2; wraparound meshes: Section 8.1, Theorem 8): in step t every node
 * v sends, for each move (r, j) of node 0, the packet with routing tag r that
 * sits at v (its source is v minus r's progress before step t) over v's link
 * of type j. A rank therefore needs only node 0's moves and the rows'
 * progress, O(moves + rows * dimensions) memory, to write the hops that leave
 * it, leave its predecessor on the check's ring (share.h) and arrive at it: no rank builds the whole
 * schedule. The same formula as totex_sym_expand() (src/schedule/sym_expand.c),
 * applied to three nodes instead of all n; a period-2 scheme (symmetric under
 * translation by two along one even ring) moves a row only on the nodes of
 * the parity where the packet is. The executor's tests compare the result
 * byte for byte with PMPI_Alltoall; tests/program/test_translate.c compares it
 * with totex_sym_expand() at every rank. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "share.h"

typedef struct geo {
    uint32_t k, m[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
} geo;

static void coords(const geo *g, uint32_t v, uint32_t *c)
{
    for (uint32_t i = 0; i < g->k; i++)
        c[i] = (v / g->stride[i]) % g->m[i];
}

/* the hop of row r (progress p, destination offsets dc) leaving node v (coordinates cv) over link type lt
   (every coordinate, progress and offset below its factor's size: sums reduced by one subtraction) */
static totex_hop hop_from(const geo *g, uint32_t v, const uint32_t *cv, const uint16_t *p, const uint32_t *dc,
                          totex_link_type lt)
{
    uint32_t src = 0, dst = 0;
    for (uint32_t i = 0; i < g->k; i++) {
        uint32_t sc = cv[i] + g->m[i] - p[i];
        sc = sc >= g->m[i] ? sc - g->m[i] : sc;
        uint32_t dd = sc + dc[i];
        dd = dd >= g->m[i] ? dd - g->m[i] : dd;
        src += sc * g->stride[i];
        dst += dd * g->stride[i];
    }
    uint32_t c = cv[lt.dim], nc = (c + lt.delta) % g->m[lt.dim];
    return (totex_hop){v, v - c * g->stride[lt.dim] + nc * g->stride[lt.dim], src, dst};
}

/* a translation under way: node 0's moves of steps [0, step) applied to the rows' progress */
struct totex_prog_trans {
    const totex_task *t;
    const totex_sym_schedule *s;
    geo g;
    uint32_t rows, cols, pdim;
    uint16_t *pos;  /* rows x dimensions: each row's progress along each dimension */
    uint32_t *dco;  /* rows x dimensions: each row's destination offset's coordinates */
    uint64_t step;  /* next step to translate */
    totex_hop *hops;
    size_t cap;
};

totex_prog_trans *totex_prog_trans_new(const totex_task *t, const totex_sym_schedule *s)
{
    totex_prog_trans *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    const totex_network *net = totex_task_network(t);
    tr->t = t;
    tr->s = s;
    tr->g.k = totex_network_dims(net);
    for (uint32_t i = 0; i < tr->g.k; i++) {
        tr->g.m[i] = totex_factor_nodes(totex_network_factor(net, i));
        tr->g.stride[i] = totex_network_stride(net, i);
    }
    tr->rows = totex_task_rows(t);
    tr->cols = totex_task_cols(t);
    tr->pdim = totex_task_period_dim(t);
    tr->pos = calloc((size_t)tr->rows * tr->g.k + 1, sizeof *tr->pos);
    tr->dco = malloc(((size_t)tr->rows * tr->g.k + 1) * sizeof *tr->dco);
    if (!tr->pos || !tr->dco) {
        free(tr->pos);
        free(tr->dco);
        free(tr);
        return NULL;
    }
    for (uint32_t r = 0; r < tr->rows; r++)
        coords(&tr->g, totex_task_destination(t, r), tr->dco + (size_t)r * tr->g.k);
    return tr;
}

void totex_prog_trans_free(totex_prog_trans *tr)
{
    if (!tr)
        return;
    free(tr->pos);
    free(tr->dco);
    free(tr->hops);
    free(tr);
}

void totex_prog_trans_rewind(totex_prog_trans *tr)
{
    memset(tr->pos, 0, ((size_t)tr->rows * tr->g.k + 1) * sizeof *tr->pos);
    tr->step = 0;
}

uint64_t totex_prog_trans_steps(const totex_prog_trans *tr)
{
    return totex_sym_steps(tr->s);
}

uint64_t totex_prog_trans_next(const totex_prog_trans *tr)
{
    return tr->step;
}

totex_status totex_prog_trans_run(totex_prog_trans *tr, totex_prog_share *l, uint64_t upto, totex_error *err)
{
    const geo *g = &tr->g;
    const totex_task *t = tr->t;
    const uint32_t rows = tr->rows, cols = tr->cols, pdim = tr->pdim;
    const uint32_t me = l->me, pred = l->pred;
    uint32_t cme[TOTEX_MAX_DIMS], cpred[TOTEX_MAX_DIMS], cu[TOTEX_MAX_DIMS], csrc[TOTEX_MAX_DIMS];
    coords(g, me, cme);
    coords(g, pred, cpred);
    if (upto > totex_sym_steps(tr->s))
        upto = totex_sym_steps(tr->s);
    for (; tr->step < upto; tr->step++) {
        const uint64_t step = tr->step;
        size_t cnt, h = 0;
        const totex_sym_move *mv = totex_sym_step(tr->s, step, &cnt);
        if (cnt > (SIZE_MAX / sizeof *tr->hops) / 3)
            goto nomem;
        if (3 * cnt > tr->cap) {
            totex_hop *q = realloc(tr->hops, sizeof *q * 3 * cnt);
            if (!q)
                goto nomem;
            tr->hops = q;
            tr->cap = 3 * cnt;
        }
        totex_hop *hops = tr->hops;
        for (size_t x = 0; x < cnt; x++) {
            const uint32_t r = mv[x].row, j = mv[x].col;
            if (r >= rows || j >= cols) {
                snprintf(err->msg, sizeof err->msg,
                         "symmetric schedule step %llu, move %zu: row %u / column %u out of range (%u rows, %u "
                         "columns)",
                         (unsigned long long)step, x, r, j, rows, cols);
                return TOTEX_EINVAL;
            }
            const totex_link_type lt = totex_task_column(t, j);
            const uint16_t *p = tr->pos + (size_t)r * g->k;
            const uint32_t *dc = tr->dco + (size_t)r * g->k;
            /* period 2: the parity along pdim of the nodes that hold (and move) the packet */
            uint32_t cl = 0;
            if (pdim != UINT32_MAX) {
                coords(g, totex_task_source(t, r), csrc);
                cl = (csrc[pdim] + p[pdim]) & 1u;
            }
#define MOVES(c) (pdim == UINT32_MAX || ((c)[pdim] & 1u) == cl)
            if (MOVES(cme))
                hops[h++] = hop_from(g, me, cme, p, dc, lt);
            if (pred != me && MOVES(cpred))
                hops[h++] = hop_from(g, pred, cpred, p, dc, lt);
            /* the neighbour u = me - delta along lt.dim sends into me over its link of type j */
            for (uint32_t i = 0; i < g->k; i++)
                cu[i] = cme[i];
            cu[lt.dim] = (cme[lt.dim] + g->m[lt.dim] - lt.delta) % g->m[lt.dim];
            uint32_t u = me - cme[lt.dim] * g->stride[lt.dim] + cu[lt.dim] * g->stride[lt.dim];
            if (u != pred && u != me && MOVES(cu))
                hops[h++] = hop_from(g, u, cu, p, dc, lt);
#undef MOVES
        }
        if (totex_prog_share_hops(l, step, hops, h))
            goto nomem;
        for (size_t x = 0; x < cnt; x++) {
            const totex_link_type lt = totex_task_column(t, mv[x].col);
            uint16_t *p = tr->pos + (size_t)mv[x].row * g->k + lt.dim;
            *p = (uint16_t)((*p + lt.delta) % g->m[lt.dim]);
        }
    }
    l->steps = totex_sym_steps(tr->s);
    return TOTEX_OK;
nomem:
    snprintf(err->msg, sizeof err->msg, "out of memory translating a symmetric schedule to rank %u", me);
    return TOTEX_ENOMEM;
}

totex_status totex_prog_share_translate(totex_prog_share *l, const totex_task *t, const totex_sym_schedule *s,
                                       totex_error *err)
{
    totex_prog_trans *tr = totex_prog_trans_new(t, s);
    if (!tr) {
        snprintf(err->msg, sizeof err->msg, "out of memory translating a symmetric schedule to rank %u", l->me);
        return TOTEX_ENOMEM;
    }
    totex_status st = totex_prog_trans_run(tr, l, UINT64_MAX, err);
    totex_prog_trans_free(tr);
    return st;
}

/* ---- the share of a unit-step algorithm: translated when it has a symmetric form, else filtered ---- */

typedef struct filter {
    totex_prog_share *l;
    uint64_t step;
} filter;

static totex_status filter_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    filter *f = ctx;
    if (totex_prog_share_hops(f->l, f->step, hops, count)) {
        snprintf(err->msg, sizeof err->msg, "out of memory keeping rank %u's hops of step %llu", f->l->me,
                 (unsigned long long)f->step + 1);
        return TOTEX_ENOMEM;
    }
    f->step++;
    return TOTEX_OK;
}

totex_status totex_prog_share_from_unit(totex_prog_share *l, const totex_algorithm *a, const totex_network *net,
                                       totex_ports ports, int *symmetric, totex_error *err)
{
    totex_status st = a->applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (symmetric)
        *symmetric = 0;
    if (a->plan_symmetric) {
        totex_task *t = NULL;
        totex_sym_schedule *s = NULL;
        st = a->plan_symmetric(net, ports, &t, &s, err);
        if (st == TOTEX_OK && symmetric)
            *symmetric = 1;
        if (st == TOTEX_OK)
            st = totex_prog_share_translate(l, t, s, err);
        totex_sym_free(s);
        totex_task_free(t);
        return st;
    }
    filter f = {l, 0};
    st = a->plan(net, ports, (totex_sink){filter_step, &f}, err);
    if (st == TOTEX_OK)
        l->steps = f.step;
    return st;
}
