/* See program_support.h. */
#include <stdio.h>
#include <stdlib.h>

#include "program_support.h"

int prog_test_compile(totex_prog *p, const totex_prog_share *l, int chunks, int window, int stagger, char *why,
                      size_t cap)
{
    totex_error err;
    err.msg[0] = '\0';
    totex_status ts = totex_prog_compile(p, l, chunks, window, stagger, &err);
    if (ts == TOTEX_OK && (ts = totex_prog_expand(p)) != TOTEX_OK) /* (the entries as arrays: code.h) */
        snprintf(err.msg, sizeof err.msg, "out of memory expanding the program");
    if (ts != TOTEX_OK)
        snprintf(why, cap, "%s", err.msg);
    return (int)ts;
}

totex_comb_cost prog_test_plan_cost(long long slot)
{
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)slot;
    return cost;
}

int prog_test_build(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c, uint32_t size,
                    uint32_t rank, long long slot, totex_prog **out, char *why, size_t cap)
{
    totex_error err;
    err.msg[0] = '\0';
    totex_status ts = totex_prog_build(net, cost, c, size, rank, slot, NULL, out, &err);
    if (ts == TOTEX_OK && (ts = totex_prog_expand(*out)) != TOTEX_OK) /* (the entries as arrays: code.h) */
        snprintf(err.msg, sizeof err.msg, "out of memory expanding the program");
    if (ts != TOTEX_OK)
        snprintf(why, cap, "%s", err.msg);
    return (int)ts;
}

totex_prog *prog_test_compile_unit(const totex_network *net, const totex_algorithm *a, totex_ports ports, uint32_t me,
                                   long long slot, int chunks, int stagger, int tight, int pad, char *why, size_t cap)
{
    const uint32_t n = totex_network_nodes(net);
    totex_error err;
    totex_prog_share l;
    totex_prog_share_init(&l, n, me);
    uint32_t ring_pred = 0, ring_succ = 0;
    totex_prog_check_ring(net, me, &ring_pred, &ring_succ); /* as the runtime compiles it */
    l.pred = ring_pred;
    if (totex_prog_share_from_unit(&l, a, net, ports, NULL, &err) != TOTEX_OK) {
        snprintf(why, cap, "%s", err.msg);
        totex_prog_share_free(&l);
        return NULL;
    }
    totex_prog *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, cap, "out of memory");
        totex_prog_share_free(&l);
        return NULL;
    }
    p->slot = slot;
    p->n = n;
    p->me = me;
    p->algorithm = a->name;
    p->arena_cap = tight ? 0 : (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_RANK * n * (size_t)slot;
    p->pad = pad;
    p->ring_pred = ring_pred;
    p->ring_succ = ring_succ;
    p->ring_set = 1;
    p->sync_rounds = stagger > 1 ? (uint32_t)totex_network_diameter(net) : 0; /* (2: after start rounds, build.c) */
    /* window 1: the default for unit-step programs (build.c) */
    if (prog_test_compile(p, &l, chunks, 1, stagger, why, cap) != 0) {
        totex_prog_free(p);
        p = NULL;
    }
    totex_prog_share_free(&l);
    return p;
}

uint64_t prog_test_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
