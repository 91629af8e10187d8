/* This rank's share of a schedule (share.h): the transfers the compiler
 * (compile.c) needs, from a combining schedule or from a unit-step schedule
 * (streamed through a filtering sink, or translated from node 0's moves by
 * share_unit.c). Hops of one step that cross the same link become one
 * transfer: blocks that cross a link in the same step travel as one message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "share.h"

void totex_prog_share_init(totex_prog_share *l, uint32_t n, uint32_t me)
{
    memset(l, 0, sizeof *l);
    l->n = n;
    l->me = me;
    l->pred = n ? (me + n - 1) % n : 0;
}

void totex_prog_share_free(totex_prog_share *l)
{
    free(l->x);
    free(l->b);
    free(l->tmp);
    totex_prog_share_init(l, l->n, l->me);
}

int totex_prog_share_keeps(const totex_prog_share *l, uint32_t from, uint32_t to)
{
    return from == l->me || to == l->me || from == l->pred;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int totex_prog_share_add(totex_prog_share *l, uint64_t step, uint32_t from, uint32_t to, const totex_block *blocks,
                        size_t count)
{
    if (grow((void **)&l->x, &l->capx, l->nx + 1, sizeof *l->x) ||
        grow((void **)&l->b, &l->capb, l->nb + count, sizeof *l->b))
        return -1;
    l->x[l->nx++] = (totex_prog_xfer){step, from, to, l->nb, count};
    memcpy(l->b + l->nb, blocks, count * sizeof *blocks);
    l->nb += count;
    if (step + 1 > l->steps)
        l->steps = step + 1;
    return 0;
}

int totex_prog_share_hops(totex_prog_share *l, uint64_t step, const totex_hop *hops, size_t count)
{
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (hops[i].from != hops[i].to && totex_prog_share_keeps(l, hops[i].from, hops[i].to)) {
            if (grow((void **)&l->tmp, &l->captmp, k + 1, sizeof *l->tmp))
                return -1;
            l->tmp[k++] = hops[i];
        }
    /* stable insertion sort by (from, to): a step of one rank's share has few hops */
    for (size_t i = 1; i < k; i++) {
        totex_hop h = l->tmp[i];
        size_t j = i;
        while (j > 0 && (l->tmp[j - 1].from > h.from || (l->tmp[j - 1].from == h.from && l->tmp[j - 1].to > h.to))) {
            l->tmp[j] = l->tmp[j - 1];
            j--;
        }
        l->tmp[j] = h;
    }
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j < k && l->tmp[j].from == l->tmp[i].from && l->tmp[j].to == l->tmp[i].to)
            j++;
        if (grow((void **)&l->x, &l->capx, l->nx + 1, sizeof *l->x) ||
            grow((void **)&l->b, &l->capb, l->nb + (j - i), sizeof *l->b))
            return -1;
        l->x[l->nx++] = (totex_prog_xfer){step, l->tmp[i].from, l->tmp[i].to, l->nb, j - i};
        for (size_t h = i; h < j; h++)
            l->b[l->nb++] = (totex_block){l->tmp[h].src, l->tmp[h].dst};
        i = j;
    }
    if (step + 1 > l->steps)
        l->steps = step + 1;
    return 0;
}

totex_status totex_prog_share_from_comb(totex_prog_share *l, const totex_comb_schedule *s, totex_error *err)
{
    const uint64_t steps = totex_comb_steps(s);
    for (uint64_t st = 0; st < steps; st++) {
        size_t nt = totex_comb_step_transfers(s, st);
        for (size_t t = 0; t < nt; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            if (!tr.count || !totex_prog_share_keeps(l, tr.from, tr.to))
                continue;
            if (totex_prog_share_add(l, st, tr.from, tr.to, tr.blocks, tr.count)) {
                snprintf(err->msg, sizeof err->msg, "out of memory keeping rank %u's transfers", l->me);
                return TOTEX_ENOMEM;
            }
        }
    }
    l->steps = steps;
    return TOTEX_OK;
}


/* node 0's transfer t shifted by x, appended to step @p step */
static int add_shifted(totex_prog_share *l, const totex_network *net, uint64_t step, const totex_transfer *t, uint32_t x,
                       totex_block *buf)
{
    for (size_t b = 0; b < t->count; b++)
        buf[b] = (totex_block){totex_network_shift(net, t->blocks[b].src, x, 1), totex_network_shift(net, t->blocks[b].dst, x, 1)};
    return totex_prog_share_add(l, step, x, totex_network_shift(net, t->to, x, 1), buf, t->count);
}

totex_status totex_prog_share_from_node0(totex_prog_share *l, const totex_network *net, const totex_comb_schedule *node0,
                                        totex_error *err)
{
    const uint64_t steps = totex_comb_steps(node0);
    const uint32_t me = l->me, pred = l->pred;
    totex_block *buf = NULL;
    size_t cap = 0;
    for (uint64_t st = 0; st < steps; st++) {
        const size_t nt = totex_comb_step_transfers(node0, st);
        for (size_t t = 0; t < nt; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(node0, st, t, &tr);
            if (!tr.count)
                continue;
            if (tr.count > cap) {
                totex_block *q = realloc(buf, tr.count * sizeof *q);
                if (!q)
                    goto nomem;
                buf = q;
                cap = tr.count;
            }
            /* the one from this rank, the one from its ring predecessor, the one into this rank (from me - offset) */
            const uint32_t into = totex_network_shift(net, me, tr.to, -1);
            if (add_shifted(l, net, st, &tr, me, buf) || (pred != me && add_shifted(l, net, st, &tr, pred, buf)) ||
                (into != me && into != pred && add_shifted(l, net, st, &tr, into, buf)))
                goto nomem;
        }
    }
    l->steps = steps;
    free(buf);
    return TOTEX_OK;
nomem:
    free(buf);
    snprintf(err->msg, sizeof err->msg, "out of memory translating node 0's transfers to rank %u", me);
    return TOTEX_ENOMEM;
}


void totex_prog_share_src_rewind(totex_prog_share_src *src)
{
    src->done = 0;
    if (src->trans)
        totex_prog_trans_rewind(src->trans);
}

int totex_prog_share_src_next(totex_prog_share_src *src, totex_status *st, totex_error *err)
{
    *st = TOTEX_OK;
    if (src->done)
        return 0;
    if (!src->trans) { /* the whole share, one segment */
        src->done = 1;
        return 1;
    }
    totex_prog_share *l = src->l;
    const uint64_t steps = totex_prog_trans_steps(src->trans), seg = src->seg_steps ? src->seg_steps : 1;
    l->nx = l->nb = 0;
    totex_status ts = totex_prog_trans_run(src->trans, l, totex_prog_trans_next(src->trans) + seg, err);
    if (ts != TOTEX_OK) {
        *st = ts;
        return -1;
    }
    l->steps = steps;
    if (totex_prog_trans_next(src->trans) >= steps)
        src->done = 1;
    return 1;
}
