/*
 * Lower bounds on total exchange steps (include/totex/bounds.h):
 *  - average status, single-port: 000 Section 3, eq. (3); 004 Section 3, eq. (1):
 *    T >= S_G / n with S_G = sum_v s(v) from Theorem 1 / Corollary 1;
 *  - receive: a node receives n-1 messages, one per step (single-port) or one
 *    per incident link per step (multiport, 000 Section 1 / 003 Section 2);
 *  - cut (cut.c): 000 eq. (4); relay (relay.c): cut vertices, single-port.
 * This file runs them in order and picks the largest.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bounds/bounds_impl.h"
#include "common/error.h"

const char *totex_bound_kind_name(totex_bound_kind k)
{
    switch (k) {
    case TOTEX_BOUND_AVERAGE_STATUS: return "average-status";
    case TOTEX_BOUND_CUT: return "cut";
    case TOTEX_BOUND_RECEIVE: return "receive";
    case TOTEX_BOUND_RELAY: return "relay";
    }
    return "?";
}

void totex_witness(totex_bound *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->witness, sizeof b->witness, fmt, ap);
    va_end(ap);
}

static totex_status bound_average_status(const totex_network *net, totex_bound *out, totex_error *err)
{
    uint64_t sg, n = totex_network_nodes(net);
    totex_status st = totex_network_status_sum(net, &sg, err);
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_AVERAGE_STATUS;
    if (st != TOTEX_OK)
        return st;
    out->value = sg / n + (sg % n != 0);
    out->exact = (double)sg / (double)n;
    totex_witness(out,
             "S_G = %" PRIu64 " link traversals (Theorem 1 / Corollary 1), at most n = %" PRIu64
             " per step: AS(G) = S_G/n = %.6g (000 eq. (3))",
             sg, n, out->exact);
    return TOTEX_OK;
}

static void bound_receive(const totex_network *net, totex_ports ports, totex_bound *out)
{
    uint64_t n = totex_network_nodes(net), need = n - 1;
    uint32_t k = totex_network_dims(net), node = 0;
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_RECEIVE;
    if (ports == TOTEX_PORTS_SINGLE) {
        out->value = need;
        out->exact = (double)need;
        totex_witness(out,
                 "node 0 must receive n-1 = %" PRIu64 " messages, at most one per step (single-port)", need);
        return;
    }
    /* a node of minimum degree: each coordinate at a minimum-degree node of its factor */
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t m = totex_factor_nodes(f), arg = 0, low = UINT32_MAX;
        for (uint32_t a = 0; a < m; a++) {
            uint32_t d = totex_factor_degree(f, a);
            if (d < low) {
                low = d;
                arg = a;
            }
        }
        node += arg * totex_network_stride(net, i);
    }
    {
        uint64_t d = totex_network_min_degree(net);
        out->value = d ? need / d + (need % d != 0) : need;
        out->exact = d ? (double)need / (double)d : (double)need;
        totex_witness(out,
                 "node %" PRIu32 " has the minimum degree %" PRIu64 " and must receive n-1 = %" PRIu64
                 " messages, at most one per incident link per step (multiport)",
                 node, d, need);
    }
}

totex_status totex_bounds_compute(const totex_network *net, totex_ports ports, totex_bound *out, size_t *count,
                                  size_t *best, totex_error *err)
{
    size_t c = 0;
    totex_status st;
    if (count)
        *count = 0;
    if (best)
        *best = 0;
    if (!net || !out || !count || !best)
        return totex_fail(err, TOTEX_EINVAL, "totex_bounds_compute: network, output array, count and best are required");
    if (ports != TOTEX_PORTS_SINGLE && ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_EINVAL, "unknown port model %d: use single-port or multiport", (int)ports);
    if (ports == TOTEX_PORTS_SINGLE) {
        if ((st = bound_average_status(net, &out[c], err)) != TOTEX_OK)
            return st;
        c++;
    }
    totex_bound_cut(net, &out[c++]);
    bound_receive(net, ports, &out[c++]);
    if (ports == TOTEX_PORTS_SINGLE) {
        if ((st = totex_bound_relay(net, &out[c], err)) != TOTEX_OK)
            return st;
        c++;
    }
    for (size_t i = 1; i < c; i++)
        if (out[i].value > out[*best].value)
            *best = i;
    *count = c;
    return TOTEX_OK;
}
