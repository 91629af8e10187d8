/*
 * Greedy packing of a logical step into contention-free sub-steps
 * (src/combining/pack.h). Resources: every directed link u -> v (index
 * u * D + offset of v's dimension + factor neighbour rank, D the sum of the
 * factors' largest degrees) and, under one-port, every node's injection and
 * consumption ports. Per sub-step, a byte per resource says it is taken; per
 * resource, the first sub-step where it may still be free (monotone, since
 * resources are only ever taken) starts the search of a transfer.
 */
#include "combining/pack.h"

#include <stdlib.h>
#include <string.h>

#include "combining/route.h"
#include "common/error.h"

/** Largest occupancy table of one logical step (sub-steps x resources bytes). */
#define PACK_MAX_TABLE (UINT64_C(1) << 28)

typedef struct pending {
    uint32_t from, to, sub;
    size_t first, count; /* blocks [first, first + count) in p->blocks */
} pending;

struct totex_pack {
    const totex_network *net;
    totex_comb_cost cost;
    totex_comb_schedule *out;
    uint32_t n, k, degsum;
    uint32_t off[TOTEX_MAX_DIMS];
    size_t nres;
    uint8_t **rows; /* rows[t][res] != 0: taken in sub-step t */
    size_t nrows, caprows;
    uint32_t *first_free; /* per resource */
    pending *pend;
    size_t npend, cappend;
    totex_block *blocks;
    size_t nblocks, capblocks;
    uint32_t *route; /* nodes of one route */
    size_t *res;     /* resources of one transfer / hop */
    size_t caproute;
    uint64_t last_sub;
    uint64_t *early; /* store-and-forward: bit s * n + d set once block (s, d) reached d at an intermediate hop */
};

totex_status totex_pack_new(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule *out,
                            totex_pack **pp, totex_error *err)
{
    totex_pack *p = calloc(1, sizeof *p);
    *pp = NULL;
    if (!p)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
    p->net = net;
    p->cost = *cost;
    p->out = out;
    p->n = totex_network_nodes(net);
    p->k = totex_network_dims(net);
    for (uint32_t i = 0; i < p->k; i++) {
        p->off[i] = p->degsum;
        p->degsum += totex_factor_max_degree(totex_network_factor(net, i));
    }
    p->nres = (size_t)p->n * p->degsum + 2 * (size_t)p->n;
    p->first_free = calloc(p->nres, sizeof *p->first_free);
    p->caproute = (size_t)totex_network_diameter(net) + 2;
    p->route = malloc(p->caproute * sizeof *p->route);
    p->res = malloc((p->caproute + 2) * sizeof *p->res);
    if (cost->switching == TOTEX_SWITCH_STORE_FORWARD)
        p->early = calloc(((size_t)p->n * p->n + 63) / 64, sizeof *p->early);
    if (!p->first_free || !p->route || !p->res || (cost->switching == TOTEX_SWITCH_STORE_FORWARD && !p->early)) {
        totex_pack_free(p);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule on %s",
                          totex_network_spec(net));
    }
    *pp = p;
    return TOTEX_OK;
}

void totex_pack_free(totex_pack *p)
{
    if (!p)
        return;
    for (size_t t = 0; t < p->caprows; t++)
        free(p->rows[t]);
    free(p->rows);
    free(p->first_free);
    free(p->pend);
    free(p->blocks);
    free(p->route);
    free(p->res);
    free(p->early);
    free(p);
}

uint64_t totex_pack_last_substeps(const totex_pack *p) { return p->last_sub; }


/* p->route := nodes of the dimension-ordered route from -> to; returns hops */
static size_t route(totex_pack *p, uint32_t from, uint32_t to)
{
    return totex_comb_route(p->net, from, to, p->route, p->caproute);
}

/* resource of directed link u -> v (adjacent: differ in one dimension) */
static size_t link_res(const totex_pack *p, uint32_t u, uint32_t v)
{
    for (uint32_t i = 0; i < p->k; i++) {
        uint32_t a = totex_network_coord(p->net, u, i), b = totex_network_coord(p->net, v, i);
        if (a != b)
            return (size_t)u * p->degsum + p->off[i] +
                   totex_factor_neighbor_rank(totex_network_factor(p->net, i), a, b);
    }
    return 0;
}

static totex_status ensure_row(totex_pack *p, size_t t, totex_error *err)
{
    while (p->nrows <= t) {
        if ((uint64_t)(p->nrows + 1) * p->nres > PACK_MAX_TABLE)
            return totex_fail(err, TOTEX_ENOMEM,
                              "packing a step on %s needs more than %zu contention-free sub-steps (table limit %llu bytes): use a smaller network",
                              totex_network_spec(p->net), p->nrows, (unsigned long long)PACK_MAX_TABLE);
        if (p->nrows == p->caprows) {
            size_t cap = p->caprows ? 2 * p->caprows : 16;
            uint8_t **r = realloc(p->rows, cap * sizeof *r);
            if (!r)
                return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
            memset(r + p->caprows, 0, (cap - p->caprows) * sizeof *r);
            p->rows = r;
            p->caprows = cap;
        }
        if (!p->rows[p->nrows] && !(p->rows[p->nrows] = calloc(p->nres, 1)))
            return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
        p->nrows++;
    }
    return TOTEX_OK;
}

/* place resources p->res[0..nr) in the first sub-step >= lo where all are free; returns it in *sub */
static totex_status place(totex_pack *p, size_t nr, uint32_t lo, uint32_t *sub, totex_error *err)
{
    size_t t = lo;
    totex_status st;
    for (size_t i = 0; i < nr; i++)
        if (p->first_free[p->res[i]] > t)
            t = p->first_free[p->res[i]];
    for (;; t++) {
        size_t i;
        if ((st = ensure_row(p, t, err)) != TOTEX_OK)
            return st;
        for (i = 0; i < nr && !p->rows[t][p->res[i]]; i++)
            ;
        if (i == nr)
            break;
    }
    for (size_t i = 0; i < nr; i++) {
        size_t r = p->res[i];
        p->rows[t][r] = 1;
        if (p->first_free[r] == t) {
            size_t u = t + 1;
            while (u < p->nrows && p->rows[u][r])
                u++;
            p->first_free[r] = (uint32_t)u;
        }
    }
    *sub = (uint32_t)t;
    return TOTEX_OK;
}

static totex_status push(totex_pack *p, uint32_t from, uint32_t to, uint32_t sub, size_t first, size_t count,
                         totex_error *err)
{
    if (p->npend == p->cappend) {
        size_t cap = p->cappend ? 2 * p->cappend : 64;
        pending *q = realloc(p->pend, cap * sizeof *q);
        if (!q)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
        p->pend = q;
        p->cappend = cap;
    }
    p->pend[p->npend].from = from;
    p->pend[p->npend].to = to;
    p->pend[p->npend].sub = sub;
    p->pend[p->npend].first = first;
    p->pend[p->npend].count = count;
    p->npend++;
    return TOTEX_OK;
}

totex_status totex_pack_add(totex_pack *p, uint32_t from, uint32_t to, const totex_block *blocks, size_t count,
                            totex_error *err)
{
    totex_status st;
    size_t hops, first;
    uint32_t sub;
    const int one_port = p->cost.ports == TOTEX_PORTS_SINGLE;
    const size_t ports = (size_t)p->n * p->degsum;
    if (count == 0)
        return TOTEX_OK;
    if (from >= p->n || to >= p->n || from == to)
        return totex_fail(err, TOTEX_EINVAL, "internal error: transfer %u -> %u on %u nodes", from, to, p->n);
    if (p->nblocks + count > p->capblocks) {
        size_t cap = p->capblocks ? p->capblocks : 256;
        totex_block *b;
        while (cap < p->nblocks + count)
            cap *= 2;
        if (!(b = realloc(p->blocks, cap * sizeof *b)))
            return totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
        p->blocks = b;
        p->capblocks = cap;
    }
    first = p->nblocks;
    if (p->early) { /* blocks already delivered early by a forwarded hop stay where they are */
        size_t c = 0;
        for (size_t b = 0; b < count; b++) {
            size_t idx = (size_t)blocks[b].src * p->n + blocks[b].dst;
            if (blocks[b].src < p->n && blocks[b].dst < p->n && (p->early[idx / 64] >> (idx % 64) & 1u))
                continue;
            p->blocks[first + c++] = blocks[b];
        }
        count = c;
        if (count == 0)
            return TOTEX_OK;
    } else
        memcpy(p->blocks + first, blocks, count * sizeof *blocks);
    p->nblocks += count;
    hops = route(p, from, to);
    if (p->cost.switching == TOTEX_SWITCH_WORMHOLE) {
        size_t nr = 0;
        for (size_t h = 0; h < hops; h++)
            p->res[nr++] = link_res(p, p->route[h], p->route[h + 1]);
        if (one_port) {
            p->res[nr++] = ports + from;
            p->res[nr++] = ports + p->n + to;
        }
        if ((st = place(p, nr, 0, &sub, err)) != TOTEX_OK)
            return st;
        return push(p, from, to, sub, first, count, err);
    }
    /* store-and-forward: hop by hop, each hop after the previous */
    {
        uint32_t lo = 0;
        for (size_t h = 0; h < hops; h++) {
            uint32_t u = p->route[h], v = p->route[h + 1];
            size_t nr = 0;
            p->res[nr++] = link_res(p, u, v);
            if (one_port) {
                p->res[nr++] = ports + u;
                p->res[nr++] = ports + p->n + v;
            }
            if ((st = place(p, nr, lo, &sub, err)) != TOTEX_OK)
                return st;
            if ((st = push(p, u, v, sub, first, count, err)) != TOTEX_OK)
                return st;
            lo = sub + 1;
            /* blocks whose destination is v are delivered here: move them past the end of the
               region carried on (the pushed hop keeps the whole region) */
            for (size_t b = 0; b < count;) {
                totex_block *x = &p->blocks[first + b];
                if (x->dst == v) {
                    size_t idx = (size_t)x->src * p->n + x->dst;
                    totex_block tmp = *x;
                    p->early[idx / 64] |= UINT64_C(1) << (idx % 64);
                    *x = p->blocks[first + count - 1];
                    p->blocks[first + count - 1] = tmp;
                    count--;
                } else
                    b++;
            }
            if (count == 0)
                break;
        }
    }
    return TOTEX_OK;
}

totex_status totex_pack_flush(totex_pack *p, uint64_t rearrange, totex_error *err)
{
    totex_status st = TOTEX_OK;
    size_t nsub = 0, *cnt = NULL, *order = NULL;
    for (size_t i = 0; i < p->npend; i++)
        if (p->pend[i].sub + (size_t)1 > nsub)
            nsub = p->pend[i].sub + (size_t)1;
    p->last_sub = nsub;
    if (nsub == 0) {
        if (rearrange > 0 && ((st = totex_comb_begin_step(p->out, err)) != TOTEX_OK ||
                              (st = totex_comb_rearrange(p->out, rearrange, err)) != TOTEX_OK))
            return st;
        goto reset;
    }
    /* counting sort of the pending transfers by sub-step, stable */
    cnt = calloc(nsub + 1, sizeof *cnt);
    order = malloc(p->npend * sizeof *order);
    if (!cnt || !order) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory packing a combining schedule");
        goto reset;
    }
    for (size_t i = 0; i < p->npend; i++)
        cnt[p->pend[i].sub + 1]++;
    for (size_t t = 0; t < nsub; t++)
        cnt[t + 1] += cnt[t];
    for (size_t i = 0; i < p->npend; i++)
        order[cnt[p->pend[i].sub]++] = i;
    for (size_t t = 0, i = 0; t < nsub; t++) {
        if ((st = totex_comb_begin_step(p->out, err)) != TOTEX_OK)
            goto reset;
        if (t == 0 && rearrange > 0 && (st = totex_comb_rearrange(p->out, rearrange, err)) != TOTEX_OK)
            goto reset;
        for (; i < cnt[t]; i++) {
            const pending *q = &p->pend[order[i]];
            if ((st = totex_comb_add_transfer(p->out, q->from, q->to, p->blocks + q->first, q->count, err)) !=
                TOTEX_OK)
                goto reset;
        }
    }
reset:
    free(cnt);
    free(order);
    for (size_t t = 0; t < p->nrows; t++)
        memset(p->rows[t], 0, p->nres);
    p->nrows = 0;
    memset(p->first_free, 0, p->nres * sizeof *p->first_free);
    p->npend = 0;
    p->nblocks = 0;
    return st;
}

totex_status totex_pack_begin(const char *alg, const totex_network *net, const totex_comb_cost *cost,
                              totex_comb_schedule **s, totex_pack **p, totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    *s = NULL;
    *p = NULL;
    if ((uint64_t)n * n > TOTEX_COMB_MAX_BLOCKS)
        return totex_fail(err, TOTEX_ENOMEM, "%s on %s: %u nodes exceed the combining limit of %llu blocks", alg,
                          totex_network_spec(net), n, (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
    if (!(*s = totex_comb_schedule_new()))
        return totex_fail(err, TOTEX_ENOMEM, "out of memory building %s on %s", alg, totex_network_spec(net));
    totex_status st = totex_pack_new(net, cost, *s, p, err);
    if (st != TOTEX_OK) {
        totex_comb_schedule_free(*s);
        *s = NULL;
    }
    return st;
}

totex_status totex_pack_end(totex_status st, totex_pack *p, totex_comb_schedule *s, totex_comb_schedule **out)
{
    totex_pack_free(p);
    if (st == TOTEX_OK)
        *out = s;
    else
        totex_comb_schedule_free(s);
    return st;
}
