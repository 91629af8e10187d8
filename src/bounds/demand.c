/*
 * Lower bounds on non-uniform total exchange, in bytes on
 * the busiest directed link (L) and in seconds (t_s + L / B), each with its
 * witness:
 *  - injection / ejection: a node's row (column) of W leaves (enters) over
 *    its out-links (in-links);
 *  - cut: 000 eq. (4) weighted by bytes, over the dimension cuts lifted as in
 *    the proof of 000 Theorem 5: V1 = {v : v_k in S} for a set S of factor
 *    k's nodes; the arcs V1 -> V2 are C(S) n / m_k. W(V1 -> V2) is read from
 *    the m_k x m_k aggregate A_k[a][b] = sum of W[i][j] with i_k = a, j_k = b.
 *    S runs over every arc of a ring (every contiguous cyclic range), every
 *    prefix of a path, {0} of K2, every subset of a complete or file factor
 *    of at most 16 nodes: the maximum over these is exact (both directions);
 *  - hop-bytes: every byte crosses at least dist(i, j) links, every link
 *    carries at most L (000 Section 3's average status, weighted).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/demand_bounds.h"

const char *totex_wbound_kind_name(totex_wbound_kind k)
{
    switch (k) {
    case TOTEX_WBOUND_INJECTION: return "injection";
    case TOTEX_WBOUND_EJECTION: return "ejection";
    case TOTEX_WBOUND_CUT: return "cut";
    case TOTEX_WBOUND_HOP_BYTES: return "hop-bytes";
    case TOTEX_WBOUND_FLUID: return "fluid-lp";
    }
    return "?";
}

#define RING_EXACT_MAX 512u
#define SUBSET_EXACT_MAX 16u

typedef struct cut_best {
    double value; /* bytes per arc */
    uint32_t dim, first, len; /* ring/path: S = first .. first+len-1 (cyclic); subsets: mask in first */
    int subset, reverse;
    uint64_t bytes, arcs;
} cut_best;

/* W(S -> not S) and W(not S -> S) for S given by membership in[]; C(S) undirected factor links across */
static void try_cut(const totex_factor *f, const uint64_t *A, uint32_t m, const unsigned char *in, uint64_t copies,
                    uint32_t dim, uint32_t first, uint32_t len, int subset, cut_best *best)
{
    uint64_t out = 0, back = 0, c = 0;
    for (uint32_t a = 0; a < m; a++) {
        if (!in[a])
            continue;
        for (uint32_t r = 0; r < totex_factor_degree(f, a); r++)
            c += !in[totex_factor_neighbor(f, a, r)];
        for (uint32_t b = 0; b < m; b++)
            if (!in[b]) {
                out += A[(size_t)a * m + b];
                back += A[(size_t)b * m + a];
            }
    }
    if (!c)
        return;
    uint64_t arcs = c * copies;
    uint64_t w = out >= back ? out : back;
    double v = (double)w / (double)arcs;
    if (v > best->value) {
        best->value = v;
        best->dim = dim;
        best->first = first;
        best->len = len;
        best->subset = subset;
        best->reverse = back > out;
        best->bytes = w;
        best->arcs = arcs;
    }
}

static totex_status cut_bound(const totex_network *net, const totex_demand *d, totex_wbound *b, totex_error *err)
{
    uint32_t n = d->n;
    cut_best best;
    memset(&best, 0, sizeof best);
    char skipped[120] = "";
    for (uint32_t k = 0; k < totex_network_dims(net); k++) {
        const totex_factor *f = totex_network_factor(net, k);
        uint32_t m = totex_factor_nodes(f);
        totex_factor_kind kind = totex_factor_get_kind(f);
        if (m < 2)
            continue;
        uint64_t *A = calloc((size_t)m * m, sizeof *A);
        unsigned char *in = calloc(m, 1);
        uint32_t *co = malloc((size_t)n * sizeof *co);
        if (!A || !in || !co) {
            free(A);
            free(in);
            free(co);
            return totex_fail(err, TOTEX_ENOMEM, "out of memory for the cut bound");
        }
        for (uint32_t v = 0; v < n; v++)
            co[v] = totex_network_coord(net, v, k);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                A[(size_t)co[i] * m + co[j]] += d->w[(size_t)i * n + j];
        uint64_t copies = n / m;
        if (kind == TOTEX_FACTOR_RING && m > 2) {
            for (uint32_t a = 0; a < m; a++) {
                uint32_t lo = 1, hi = m - 1;
                memset(in, 0, m);
                for (uint32_t len = 1; len <= hi; len++) {
                    in[(a + len - 1) % m] = 1;
                    if (len >= lo && (m <= RING_EXACT_MAX || a == 0 || (len == m / 2 && a < 64)))
                        try_cut(f, A, m, in, copies, k, a, len, 0, &best);
                }
            }
            if (m > RING_EXACT_MAX)
                snprintf(skipped, sizeof skipped, "; dimension %u (%u nodes) only over arcs from node 0 and arcs of %u nodes from nodes 0..63", k, m, m / 2);
        } else if (kind == TOTEX_FACTOR_PATH || kind == TOTEX_FACTOR_K2 || (kind == TOTEX_FACTOR_RING && m <= 2)) {
            memset(in, 0, m);
            for (uint32_t len = 1; len < m; len++) {
                in[len - 1] = 1;
                try_cut(f, A, m, in, copies, k, 0, len, 0, &best);
            }
        } else if (m <= SUBSET_EXACT_MAX) {
            for (uint32_t mask = 1; mask < (1u << (m - 1)); mask++) {
                for (uint32_t a = 0; a < m; a++)
                    in[a] = (unsigned char)((mask >> a) & 1);
                try_cut(f, A, m, in, copies, k, mask, 0, 1, &best);
            }
        } else {
            memset(in, 0, m);
            for (uint32_t len = 1; len < m; len++) { /* prefixes only: genuine cuts, the bound stays valid */
                in[len - 1] = 1;
                try_cut(f, A, m, in, copies, k, 0, len, 0, &best);
            }
            snprintf(skipped, sizeof skipped, "; dimension %u (%u nodes, %s) only over prefixes", k, m, totex_factor_name(f));
        }
        free(A);
        free(in);
        free(co);
    }
    b->kind = TOTEX_WBOUND_CUT;
    b->bytes = best.value;
    if (!best.arcs) {
        snprintf(b->witness, sizeof b->witness, "no dimension cut (one node)");
    } else if (best.subset) {
        snprintf(b->witness, sizeof b->witness,
                 "dimension %u, V1 = {v : v_%u in set 0x%x}: %" PRIu64 " bytes cross %s over %" PRIu64 " arcs%s", best.dim,
                 best.dim, best.first, best.bytes, best.reverse ? "V2 -> V1" : "V1 -> V2", best.arcs, skipped);
    } else {
        uint32_t m = totex_factor_nodes(totex_network_factor(net, best.dim));
        snprintf(b->witness, sizeof b->witness,
                 "dimension %u, V1 = {v : v_%u in %u..%u%s}: %" PRIu64 " bytes cross %s over %" PRIu64 " arcs%s", best.dim,
                 best.dim, best.first, (best.first + best.len - 1) % m, best.first + best.len > m ? " cyclic" : "",
                 best.bytes, best.reverse ? "V2 -> V1" : "V1 -> V2", best.arcs, skipped);
    }
    return TOTEX_OK;
}

totex_status totex_demand_bounds(const totex_network *net, const totex_demand *d, double bandwidth, double ts,
                                 totex_wbound *out, size_t *best, totex_error *err)
{
    if (!net || !d || !out)
        return totex_fail(err, TOTEX_EINVAL, "totex_demand_bounds needs a network, a demand and an output array");
    if (!(bandwidth > 0) || !(ts >= 0))
        return totex_fail(err, TOTEX_EINVAL, "bandwidth must be above 0 bytes/s and t_s at least 0 s");
    uint32_t n = totex_network_nodes(net);
    if (d->n != n)
        return totex_fail(err, TOTEX_EINVAL, "the demand is %" PRIu32 " x %" PRIu32 " but the network has %" PRIu32 " nodes",
                          d->n, d->n, n);
    memset(out, 0, TOTEX_WBOUND_ANALYTIC * sizeof *out);
    /* injection and ejection */
    double bi = 0, be = 0;
    uint32_t vi = 0, ve = 0;
    uint64_t ri = 0, ce = 0;
    unsigned __int128 hop = 0;
    uint64_t arcs = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint64_t row = 0, col = 0;
        uint32_t deg = totex_network_degree(net, v);
        arcs += deg;
        for (uint32_t u = 0; u < n; u++) {
            row += d->w[(size_t)v * n + u];
            col += d->w[(size_t)u * n + v];
            hop += (unsigned __int128)d->w[(size_t)v * n + u] * totex_network_distance(net, v, u);
        }
        if (deg && (double)row / deg > bi) {
            bi = (double)row / deg;
            vi = v;
            ri = row;
        }
        if (deg && (double)col / deg > be) {
            be = (double)col / deg;
            ve = v;
            ce = col;
        }
    }
    out[0].kind = TOTEX_WBOUND_INJECTION;
    out[0].bytes = bi;
    snprintf(out[0].witness, sizeof out[0].witness, "node %" PRIu32 " sends %" PRIu64 " bytes over %" PRIu32 " out-links", vi,
             ri, totex_network_degree(net, vi));
    out[1].kind = TOTEX_WBOUND_EJECTION;
    out[1].bytes = be;
    snprintf(out[1].witness, sizeof out[1].witness, "node %" PRIu32 " receives %" PRIu64 " bytes over %" PRIu32 " in-links",
             ve, ce, totex_network_degree(net, ve));
    totex_status st = cut_bound(net, d, &out[2], err);
    if (st != TOTEX_OK)
        return st;
    out[3].kind = TOTEX_WBOUND_HOP_BYTES;
    out[3].bytes = arcs ? (double)hop / (double)arcs : 0;
    snprintf(out[3].witness, sizeof out[3].witness, "sum of bytes x distance %.6g over %" PRIu64 " directed links",
             (double)hop, arcs);
    size_t b = 0;
    for (size_t k = 0; k < TOTEX_WBOUND_ANALYTIC; k++) {
        out[k].seconds = ts + out[k].bytes / bandwidth;
        if (out[k].bytes > out[b].bytes)
            b = k;
    }
    if (best)
        *best = b;
    return TOTEX_OK;
}
