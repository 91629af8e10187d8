/*
 * The uniform optimal schedule carrying each block's real length.
 * Source: the multiport unit-step algorithm the registry predicts fewest
 *         steps for (A3, 000 Theorem 5; OCTR, 001 Section 4; message shift,
 *         003 ...), its store-and-forward hops kept, each message (i, j)
 *         weighing W[i][j] bytes instead of one unit.
 * Model:  byte-weighted, multiport; a step costs t_s + most bytes on one link / B.
 * Steps:  those of the unit-step algorithm (empty messages moved by no step).
 * Optimal: on uniform demands it is the unit-step optimum scaled by the block;
 *         skewed demands pay for their heaviest block in every step it moves.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "totex/algorithm.h"
#include "totex/demand_plan.h"

typedef struct uniform_ctx {
    const totex_demand *d;
    totex_wschedule *s;
} uniform_ctx;

static totex_status uniform_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    uniform_ctx *u = ctx;
    uint32_t n = u->d->n;
    if (totex_wschedule_step(u->s) != TOTEX_OK)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory carrying the uniform schedule's blocks");
    for (size_t q = 0; q < count; q++) {
        uint32_t path[2] = {hops[q].from, hops[q].to};
        if (hops[q].src >= n || hops[q].dst >= n)
            return totex_fail(err, TOTEX_EINVAL, "the unit-step schedule names node %u beyond %u", hops[q].src, n);
        uint64_t w = u->d->w[(size_t)hops[q].src * n + hops[q].dst];
        if (totex_wschedule_add(u->s, hops[q].src, hops[q].dst, w, path, 2) != TOTEX_OK)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory carrying the uniform schedule's blocks");
    }
    return TOTEX_OK;
}

totex_status totex_wplan_uniform(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err)
{
    const totex_algorithm *a = totex_algorithm_auto(net, TOTEX_PORTS_MULTI, err);
    if (!a)
        return TOTEX_ENOTAPPLICABLE;
    char name[64];
    snprintf(name, sizeof name, "uniform-%s", a->name);
    uniform_ctx u = {d, totex_wschedule_new(name)};
    if (!u.s)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory planning the uniform schedule");
    totex_sink sink = {uniform_step, &u};
    totex_status st = a->plan(net, TOTEX_PORTS_MULTI, sink, err);
    if (st != TOTEX_OK) {
        totex_wschedule_free(u.s);
        return st;
    }
    *out = u.s;
    return TOTEX_OK;
}
