/*
 * The single-port relay (cut-vertex) bound. Under the single-port model of
 * 000 Section 1 / Section 3 a node sends at most one message per step. Node v
 * must send its own n-1 messages, and every message (s, t) whose every path
 * passes through v (v separates s from t: they lie in different components
 * of G - v) must also leave v once. Hence T >= n - 1 + sep(v) for every v.
 *
 * sep(v) = (n-1)^2 - sum over the components C of G - v of |C|^2 (ordered
 * pairs). Closed form for a linear array: node i (0-based) of path:m leaves
 * parts of i and m-1-i nodes, so sep(i) = 2 i (m-1-i). Rings, complete graphs
 * and K2 have no cut vertex. File graphs: one iterative DFS computing
 * articulation points and the sizes of the subtrees they cut off (Tarjan's
 * low-point method). The cartesian product of k >= 2 connected factors with
 * >= 2 nodes each is 2-connected, so there the bound is n - 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_impl.h"
#include "common/error.h"

#define NONE UINT32_MAX

static totex_status graph_separated(const totex_factor *f, uint32_t m, uint32_t *node_out, uint64_t *pairs_out,
                                    uint32_t *largest_out, totex_error *err)
{
    uint32_t *disc = malloc(sizeof *disc * m), *low = malloc(sizeof *low * m);
    uint32_t *parent = malloc(sizeof *parent * m), *it = calloc(m, sizeof *it);
    uint32_t *size = malloc(sizeof *size * m), *stack = malloc(sizeof *stack * m);
    uint64_t *sep_sum = calloc(m, sizeof *sep_sum), *sep_sq = calloc(m, sizeof *sep_sq);
    uint32_t *sep_max = calloc(m, sizeof *sep_max);
    uint32_t sp = 0, t = 0, best_node = 0, best_largest = 0;
    uint64_t best_pairs = 0, all = (uint64_t)(m - 1) * (m - 1);
    totex_status st = TOTEX_OK;
    int first = 1;

    if (!disc || !low || !parent || !it || !size || !stack || !sep_sum || !sep_sq || !sep_max) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory analysing the cut vertices of %s (%" PRIu32 " nodes)",
                        totex_factor_name(f), m);
        goto done;
    }
    for (uint32_t v = 0; v < m; v++)
        disc[v] = NONE;
    disc[0] = low[0] = t++;
    parent[0] = NONE;
    size[0] = 1;
    stack[sp++] = 0;
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (it[v] < totex_factor_degree(f, v)) {
            uint32_t u = totex_factor_neighbor(f, v, it[v]++);
            if (disc[u] == NONE) {
                parent[u] = v;
                disc[u] = low[u] = t++;
                size[u] = 1;
                stack[sp++] = u;
            } else if (u != parent[v] && disc[u] < low[v]) {
                low[v] = disc[u];
            }
        } else {
            uint32_t p = parent[v];
            sp--;
            if (p != NONE) {
                if (low[v] < low[p])
                    low[p] = low[v];
                size[p] += size[v];
                /* no back link from v's subtree above p: removing p cuts the subtree off
                 * (always true at the root, whose disc is the smallest) */
                if (low[v] >= disc[p]) {
                    sep_sum[p] += size[v];
                    sep_sq[p] += (uint64_t)size[v] * size[v];
                    if (size[v] > sep_max[p])
                        sep_max[p] = size[v];
                }
            }
        }
    }
    for (uint32_t v = 0; v < m; v++) {
        uint64_t rest = (uint64_t)(m - 1) - sep_sum[v]; /* the part still holding v's DFS parent */
        uint64_t pairs = all - sep_sq[v] - rest * rest;
        uint32_t largest = sep_max[v] > rest ? sep_max[v] : (uint32_t)rest;
        if (first || pairs > best_pairs) {
            best_pairs = pairs;
            best_node = v;
            best_largest = largest;
            first = 0;
        }
    }
    if (node_out)
        *node_out = best_node;
    if (pairs_out)
        *pairs_out = best_pairs;
    if (largest_out)
        *largest_out = best_largest;
done:
    free(disc);
    free(low);
    free(parent);
    free(it);
    free(size);
    free(stack);
    free(sep_sum);
    free(sep_sq);
    free(sep_max);
    return st;
}

totex_status totex_factor_max_separated(const totex_factor *f, uint32_t *node_out, uint64_t *pairs_out,
                                        uint32_t *largest_out, totex_error *err)
{
    uint32_t m, node = 0, largest;
    uint64_t pairs = 0;
    if (!f)
        return totex_fail(err, TOTEX_EINVAL, "no factor given to the cut-vertex analysis");
    m = totex_factor_nodes(f);
    largest = m ? m - 1 : 0;
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_PATH:
        /* node i leaves i nodes on its left and m-1-i on its right: 2 i (m-1-i) ordered pairs,
         * largest at i = floor((m-1)/2) */
        node = (m - 1) / 2;
        pairs = 2 * (uint64_t)node * (m - 1 - node);
        largest = node > m - 1 - node ? node : m - 1 - node;
        break;
    case TOTEX_FACTOR_RING:
    case TOTEX_FACTOR_COMPLETE:
    case TOTEX_FACTOR_K2:
        break; /* 2-connected (or two nodes): no node separates a pair */
    case TOTEX_FACTOR_GRAPH:
        return graph_separated(f, m, node_out, pairs_out, largest_out, err);
    }
    if (node_out)
        *node_out = node;
    if (pairs_out)
        *pairs_out = pairs;
    if (largest_out)
        *largest_out = largest;
    return TOTEX_OK;
}

totex_status totex_bound_relay(const totex_network *net, totex_bound *out, totex_error *err)
{
    uint32_t k = totex_network_dims(net), n = totex_network_nodes(net);
    uint64_t own = n ? (uint64_t)n - 1 : 0;
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_RELAY;
    if (k >= 2) {
        out->value = own;
        out->exact = (double)own;
        totex_witness(out,
                 "a product of %" PRIu32 " connected factors with >= 2 nodes each is 2-connected, so no node "
                 "separates a pair; node 0 still sends its own n-1 = %" PRIu64 " messages, one per step",
                 k, own);
        return TOTEX_OK;
    }
    {
        const totex_factor *f = totex_network_factor(net, 0);
        uint32_t node = 0, largest = 0;
        uint64_t pairs = 0;
        totex_status st = totex_factor_max_separated(f, &node, &pairs, &largest, err);
        if (st != TOTEX_OK)
            return st;
        out->value = own + pairs;
        out->exact = (double)out->value;
        if (pairs == 0)
            totex_witness(out,
                     "%s has no cut vertex, so no node separates a pair; node 0 still sends its own "
                     "n-1 = %" PRIu64 " messages, one per step",
                     totex_factor_name(f), own);
        else
            totex_witness(out,
                     "node %" PRIu32 " of %s separates %" PRIu64 " ordered pairs (s,t) (the largest part of "
                     "G - %" PRIu32 " has %" PRIu32 " node%s): it sends its own n-1 = %" PRIu64
                     " messages and relays those %" PRIu64 ", one per step",
                     node, totex_factor_name(f), pairs, node, largest, largest == 1 ? "" : "s", own, pairs);
    }
    return TOTEX_OK;
}
