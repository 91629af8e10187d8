/*
 * Lower bounds on total exchange steps (include/totex/bounds.h):
 *  - average status, single-port: 000 Section 3, eq. (3); 004 Section 3, eq. (1):
 *    T >= S_G / n with S_G = sum_v s(v) from Theorem 1 / Corollary 1;
 *  - receive: a node receives n-1 messages, one per step (single-port) or one
 *    per incident link per step (multiport, 000 Section 1 / 003 Section 2);
 *  - cut (cut.c): 000 eq. (4); relay (relay.c): cut vertices, single-port;
 *  - band (band.c): single-port, a band of a path dimension's coordinates;
 *  - forwarding (forwarding.c): single-port, weighted nodes (sends and receives).
 * k-port (k >= 2, 001 Section 7: a node uses at most k of its links per step):
 *  - average status: every message crosses at least its distance, so S_G link
 *    traversals, and node v makes at most min(k, deg v) of them per step:
 *    T >= S_G / sum_v min(k, deg v) (= S_G / (n k) when k <= d_min; on a
 *    vertex-transitive network this is 001 Section 7's ceil(sigma / k));
 *  - cut: unchanged (k-port schedules are multiport schedules);
 *  - receive: ceil((n-1) / min(k, d_min));
 *  - relay: the relay node's sends, at most min(k, its degree) per step;
 *  - forwarding (forwarding.c): weighted nodes, node v sending and receiving
 *    at most min(k, deg v) messages per step.
 * This file runs them in order and picks the largest.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
    case TOTEX_BOUND_EXACT: return "exact";
    case TOTEX_BOUND_BAND: return "band";
    case TOTEX_BOUND_FORWARDING: return "forwarding";
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

/*
 * sum over the nodes v of min(k, deg v): the most link traversals k-port
 * allows in one step. deg v is the sum of the factor degrees of v's
 * coordinates, so the degree histogram of the product is the convolution of
 * the factors' histograms (never a walk over the product's nodes).
 */
static totex_status kport_capacity(const totex_network *net, uint32_t kp, uint64_t *out, totex_error *err)
{
    uint32_t k = totex_network_dims(net), dmax = 0;
    uint64_t *hist, *next, *fh = NULL, total = 0;
    for (uint32_t i = 0; i < k; i++)
        dmax += totex_factor_max_degree(totex_network_factor(net, i));
    hist = calloc((size_t)dmax + 1, sizeof *hist);
    next = calloc((size_t)dmax + 1, sizeof *next);
    if (!hist || !next)
        goto nomem;
    hist[0] = 1;
    for (uint32_t i = 0, top = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t m = totex_factor_nodes(f), fd = totex_factor_max_degree(f);
        free(fh);
        fh = calloc((size_t)fd + 1, sizeof *fh);
        if (!fh)
            goto nomem;
        for (uint32_t a = 0; a < m; a++)
            fh[totex_factor_degree(f, a)]++;
        memset(next, 0, sizeof *next * ((size_t)dmax + 1));
        for (uint32_t x = 0; x <= top; x++)
            if (hist[x])
                for (uint32_t y = 0; y <= fd; y++)
                    if (fh[y])
                        next[x + y] += hist[x] * fh[y]; /* counts of nodes: below n < 2^32 */
        top += fd;
        memcpy(hist, next, sizeof *hist * ((size_t)dmax + 1));
    }
    for (uint32_t x = 0; x <= dmax; x++)
        total += hist[x] * (x < kp ? x : kp);
    free(hist);
    free(next);
    free(fh);
    *out = total;
    return TOTEX_OK;
nomem:
    free(hist);
    free(next);
    free(fh);
    return totex_fail(err, TOTEX_ENOMEM, "out of memory computing the degree histogram of %s", totex_network_spec(net));
}

static totex_status bound_average_status(const totex_network *net, totex_ports ports, totex_bound *out,
                                         totex_error *err)
{
    uint64_t sg, cap = 0, n = totex_network_nodes(net);
    totex_status st = totex_network_status_sum(net, &sg, err);
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_AVERAGE_STATUS;
    if (st != TOTEX_OK)
        return st;
    if (ports == TOTEX_PORTS_SINGLE) {
        out->value = sg / n + (sg % n != 0);
        out->exact = (double)sg / (double)n;
        totex_witness(out,
                 "S_G = %" PRIu64 " link traversals (Theorem 1 / Corollary 1), at most n = %" PRIu64
                 " per step: AS(G) = S_G/n = %.6g (000 eq. (3))",
                 sg, n, out->exact);
        return TOTEX_OK;
    }
    if ((st = kport_capacity(net, totex_ports_k(ports), &cap, err)) != TOTEX_OK)
        return st;
    if (cap == 0)
        cap = 1; /* no links at all: cannot happen for n >= 2 connected factors */
    out->value = sg / cap + (sg % cap != 0);
    out->exact = (double)sg / (double)cap;
    if (cap == n * totex_ports_k(ports))
        totex_witness(out,
                 "S_G = %" PRIu64 " link traversals (Theorem 1 / Corollary 1), at most n*k = %" PRIu64 " * %" PRIu32
                 " = %" PRIu64 " per step (%" PRIu32 "-port: a node uses at most k links per step): S_G/(n k) = %.6g"
                 " (001 Section 7, ceil(sigma/k))",
                 sg, n, totex_ports_k(ports), cap, totex_ports_k(ports), out->exact);
    else
        totex_witness(out,
                 "S_G = %" PRIu64 " link traversals (Theorem 1 / Corollary 1), at most sum_v min(k, deg v) = %" PRIu64
                 " per step (%" PRIu32 "-port: a node uses at most k of its links per step): S_G/%" PRIu64
                 " = %.6g (001 Section 7)",
                 sg, cap, totex_ports_k(ports), cap, out->exact);
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
        uint64_t d = totex_network_min_degree(net), kp = totex_ports_k(ports);
        if (ports != TOTEX_PORTS_MULTI && kp < d) {
            out->value = need / kp + (need % kp != 0);
            out->exact = (double)need / (double)kp;
            totex_witness(out,
                     "node %" PRIu32 " has the minimum degree %" PRIu64 " and must receive n-1 = %" PRIu64
                     " messages, at most min(k, d_min) = %" PRIu64 " per step (%" PRIu64 "-port)",
                     node, d, need, kp, kp);
            return;
        }
        out->value = d ? need / d + (need % d != 0) : need;
        out->exact = d ? (double)need / (double)d : (double)need;
        if (ports == TOTEX_PORTS_MULTI)
            totex_witness(out,
                     "node %" PRIu32 " has the minimum degree %" PRIu64 " and must receive n-1 = %" PRIu64
                     " messages, at most one per incident link per step (multiport)",
                     node, d, need);
        else
            totex_witness(out,
                     "node %" PRIu32 " has the minimum degree %" PRIu64 " and must receive n-1 = %" PRIu64
                     " messages, at most min(k, d_min) = %" PRIu64 " per step (%" PRIu64 "-port)",
                     node, d, need, d, kp);
    }
}

/*
 * k-port relay bound: the single-port relay bound (relay.c) counts the R
 * messages its node v must send; under k-port v sends at most min(k, deg v)
 * of them per step, so T >= ceil(R / min(k, deg v)).
 */
static totex_status bound_relay_kport(const totex_network *net, uint32_t kp, totex_bound *out, totex_error *err)
{
    uint32_t dims = totex_network_dims(net), node = 0, largest = 0;
    uint64_t own = (uint64_t)totex_network_nodes(net) - 1, pairs = 0, total, per;
    totex_status st = totex_bound_relay(net, out, err);
    char base[sizeof out->witness];
    if (st != TOTEX_OK)
        return st;
    if (dims == 1 && (st = totex_factor_max_separated(totex_network_factor(net, 0), &node, &pairs, &largest, err)) !=
                         TOTEX_OK)
        return st;
    total = out->value; /* own + pairs: what relay.c counted */
    per = totex_network_degree(net, node);
    if (per > kp)
        per = kp;
    if (per == 0)
        per = 1;
    out->value = total / per + (total % per != 0);
    out->exact = (double)total / (double)per;
    if (pairs == 0)
        snprintf(base, sizeof base, "no node separates a pair (%s); node %" PRIu32 " still sends its own n-1 = %" PRIu64
                 " messages", dims >= 2 ? "a product of connected factors is 2-connected" : "no cut vertex", node, own);
    else
        snprintf(base, sizeof base, "node %" PRIu32 " of %s separates %" PRIu64 " ordered pairs (s,t): it sends its own n-1 = %" PRIu64
                 " messages and relays those %" PRIu64,
                 node, totex_factor_name(totex_network_factor(net, 0)), pairs, own, pairs);
    totex_witness(out, "%s, %" PRIu64 " in all, at most min(k, deg) = %" PRIu64 " per step (%" PRIu32 "-port): %.6g", base,
                  total, per, kp, out->exact);
    return TOTEX_OK;
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
    if (ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_EINVAL,
                          "unknown port model %" PRIu32 ": use single-port (1), multiport (0) or k-port with 2 <= k <= %u",
                          (uint32_t)ports, TOTEX_PORTS_MAX_K);
    if (ports != TOTEX_PORTS_MULTI) {
        if ((st = bound_average_status(net, ports, &out[c], err)) != TOTEX_OK)
            return st;
        c++;
    }
    totex_bound_cut(net, &out[c++]);
    bound_receive(net, ports, &out[c++]);
    if (ports == TOTEX_PORTS_SINGLE) {
        if ((st = totex_bound_relay(net, &out[c], err)) != TOTEX_OK)
            return st;
        c++;
        c += (size_t)totex_bound_band(net, &out[c]);
        if (totex_bound_forwarding_applies(net)) {
            if ((st = totex_bound_forwarding_weights(net, NULL, &out[c], err)) != TOTEX_OK)
                return st;
            c++;
        }
    } else if (ports != TOTEX_PORTS_MULTI) {
        if ((st = bound_relay_kport(net, totex_ports_k(ports), &out[c], err)) != TOTEX_OK)
            return st;
        c++;
        if (totex_bound_forwarding_applies(net)) {
            if ((st = totex_bound_forwarding_ports(net, ports, NULL, &out[c], err)) != TOTEX_OK)
                return st;
            c++;
        }
    }
    for (size_t i = 1; i < c; i++)
        if (out[i].value > out[*best].value)
            *best = i;
    *count = c;
    return TOTEX_OK;
}
