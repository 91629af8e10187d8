/*
 * The message stacks, recorded moves and senders' order that balanced-greedy
 * and balanced-ports share (src/algorithms/balanced_stacks.h).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/balanced_stacks.h"

int bal_stacks_alloc(bal_stacks *B, uint32_t n, uint32_t S, uint32_t H)
{
    const size_t nn = (size_t)n * n;
    memset(B, 0, sizeof *B);
    B->n = n;
    B->S = S;
    B->H = H;
    B->HW = (H + 1 + 63) / 64;
    B->head = calloc((size_t)n * S * (H + 1) + 1, sizeof *B->head);
    B->next = malloc(sizeof *B->next * (nn ? nn : 1));
    B->mask = calloc((size_t)n * S * B->HW + 1, sizeof *B->mask);
    B->held = calloc((size_t)n + 1, sizeof *B->held);
    B->q = malloc(sizeof *B->q * ((size_t)n * S + 1));
    B->id = malloc(sizeof *B->id * ((size_t)n * S + 1));
    B->hl = malloc(sizeof *B->hl * ((size_t)n * S + 1));
    B->sl = malloc((size_t)n * S + 1);
    return B->hl && B->sl && B->head && B->next && B->mask && B->held && B->q && B->id ? 0 : -1;
}

void bal_stacks_free(bal_stacks *B)
{
    free(B->hl);
    free(B->sl);
    free(B->head);
    free(B->next);
    free(B->mask);
    free(B->held);
    free(B->q);
    free(B->id);
    B->q = NULL;
    B->id = NULL;
    B->hl = NULL;
    B->sl = NULL;
    B->head = B->next = B->held = NULL;
    B->mask = NULL;
}

void bal_stacks_place(bal_stacks *B)
{
    for (uint32_t s = 0; s < B->n; s++)
        for (uint32_t d = 0; d < B->n; d++) {
            if (d == s)
                continue;
            uint32_t id = d * B->n + s;
            bal_push(B, id, s, B->route[B->roff[id]], B->roff[id + 1] - B->roff[id]);
        }
    B->left = (uint64_t)B->n * (B->n - 1);
}

void bal_route_offsets(const totex_network *net, uint32_t *roff)
{
    const uint32_t n = totex_network_nodes(net);
    uint64_t at = 0;
    for (uint32_t d = 0; d < n; d++)
        for (uint32_t s = 0; s < n; s++) {
            roff[(size_t)d * n + s] = (uint32_t)at;
            at += totex_network_distance(net, s, d);
        }
    roff[(size_t)n * n] = (uint32_t)at;
}

void bal_coords(const totex_network *net, uint16_t *coord)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < k; i++)
            coord[(size_t)v * k + i] = (uint16_t)totex_network_coord(net, v, i);
}

int bal_key_cmp(const bal_key *a, const bal_key *b)
{
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return a->u < b->u ? -1 : a->u > b->u;
}

uint32_t bal_order_senders(bal_key *keys, const uint64_t *key, const uint32_t *held, uint32_t n)
{
    uint32_t ns = 0;
    for (uint32_t j = 0; j < n; j++) {
        const uint32_t u = keys[j].u;
        keys[j].key = held[u] ? key[u] : 0;
    }
    for (uint32_t j = 1; j < n; j++) {
        bal_key v = keys[j];
        uint32_t i = j;
        while (i > 0 && bal_key_cmp(&keys[i - 1], &v) > 0) {
            keys[i] = keys[i - 1];
            i--;
        }
        keys[i] = v;
    }
    while (ns < n && held[keys[ns].u])
        ns++;
    return ns;
}

void bal_rec_free(bal_rec *r)
{
    free(r->mv);
    free(r->cnt);
    memset(r, 0, sizeof *r);
}

int bal_rec_reserve(bal_rec *r, size_t entries)
{
    if (r->len + entries > r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        while (cap < r->len + entries)
            cap *= 2;
        uint32_t *mv = realloc(r->mv, sizeof *mv * cap);
        if (!mv)
            return 0;
        r->mv = mv;
        r->cap = cap;
    }
    if (r->steps == r->scap) {
        size_t cap = r->scap ? 2 * r->scap : 1024;
        uint32_t *cnt = realloc(r->cnt, sizeof *cnt * cap);
        if (!cnt)
            return 0;
        r->cnt = cnt;
        r->scap = cap;
    }
    return 1;
}

totex_status bal_routes(const totex_network *net, unsigned char *route, uint32_t *roff, unsigned char **route_out,
                        uint32_t **roff_out, int *borrowed, totex_error *err)
{
    const size_t n = totex_network_nodes(net);
    uint64_t sg = 0;
    totex_status st = totex_network_status_sum(net, &sg, err);
    if (st != TOTEX_OK)
        return st;
    *borrowed = route != NULL;
    if (route) {
        *route_out = route;
        *roff_out = roff;
        return TOTEX_OK;
    }
    *roff_out = malloc(sizeof **roff_out * (n * n + 1));
    *route_out = malloc(sg ? sg : 1);
    if (!*roff_out || !*route_out)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory for the routes of %zu nodes", n);
    return TOTEX_OK;
}

void bal_routes_free(unsigned char *route, uint32_t *roff, int borrowed)
{
    if (!borrowed) {
        free(route);
        free(roff);
    }
}
