/*
 * The single-port band bound: a lower bound above average
 * status and relay on products with a linear-array factor (meshes), where
 * the network is not vertex-transitive and the middle carries more than the
 * average.
 *
 * Model:  single-port (000 Section 1): a node sends at most one message per
 *         step. So a node set U sends at most |U| messages per step, and
 *         T >= (the fewest sends from U-nodes that any schedule needs) / |U|.
 *         With U = V this is the average-status bound (000 eq. (3)); with
 *         U = {v} and a cut vertex v it is the relay bound (relay.c).
 * Band:   dimension i a path:m, U = {v : a <= v_i <= b} (w = b - a + 1
 *         consecutive "columns", |U| = w N with N = n / m the nodes of the
 *         other dimensions). For a message (s, d) the fewest moves made from
 *         U-nodes on any shortest path (moves in the other dimensions can be
 *         made outside U unless both ends lie in U):
 *           s_i, d_i in the band          : its whole distance;
 *           s_i in it, d_i > b (or < a)   : b + 1 - s_i  (s_i - a + 1);
 *           s_i < a, d_i > b (or reverse) : w;
 *           s_i < a (> b), d_i in it      : d_i - a  (b - d_i);
 *           both outside on one side      : 0.
 *         Summed over the ordered pairs, with l = a columns left and
 *         r = m - 1 - b right of the band and SO = sum over ordered pairs of
 *         the other dimensions' distance (000 Theorem 1: sum_j (N/m_j)^2 S_j):
 *           X = N^2 [w(w^2-1)/3 + (l + r) w^2 + 2 l r w] + w^2 SO,
 *         and T >= ceil(X / (w N)). The largest over every band of every path
 *         dimension is reported, with the band as witness (every band when
 *         m <= 2048; above, the bands centred on the middle).
 * Source: beyond the papers; the counting argument of 000 Section 3 (eq. (3))
 *         applied to a subset of the nodes. Checked in tests/test_bounds.c
 *         against a brute force over shortest paths on small meshes.
 * Example: touchstone-delta (16 x 32): band of columns 8..23 of path:32:
 *         X = 2,269,184 sends by 256 nodes, T >= 8864 (average status 8176).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds/bounds_impl.h"
#include "common/error.h"

/* X for the band [a, b] when every message took a shortest path: no excursions (for the witness). */
static totex_u128 band_sends_shortest(uint64_t m, uint64_t a, uint64_t b, uint64_t N, totex_u128 so)
{
    const uint64_t w = b - a + 1, l = a, r = m - 1 - b;
    totex_u128 inner = (totex_u128)w * (w * w - 1) / 3 + (totex_u128)(l + r) * w * w + (totex_u128)2 * l * r * w;
    return (totex_u128)N * N * inner + (totex_u128)w * w * so;
}

/* Histogram of the distance over ordered pairs of the product of every dimension but @p skip; NULL on ENOMEM. */
static uint64_t *other_histogram(const totex_network *net, uint32_t skip, uint32_t *len)
{
    uint32_t cap = 1;
    for (uint32_t j = 0; j < totex_network_dims(net); j++)
        if (j != skip)
            cap += totex_factor_diameter(totex_network_factor(net, j));
    uint64_t *h = calloc(cap, sizeof *h), *t = calloc(cap, sizeof *t), *fh = calloc(cap, sizeof *fh);
    uint32_t cur = 1;
    if (!h || !t || !fh) {
        free(h);
        free(t);
        free(fh);
        return NULL;
    }
    h[0] = 1;
    for (uint32_t j = 0; j < totex_network_dims(net); j++) {
        if (j == skip)
            continue;
        const totex_factor *f = totex_network_factor(net, j);
        const uint32_t m = totex_factor_nodes(f), dj = totex_factor_diameter(f);
        memset(fh, 0, sizeof *fh * (dj + 1));
        for (uint32_t x = 0; x < m; x++)
            for (uint32_t y = 0; y < m; y++)
                fh[totex_factor_distance(f, x, y)]++;
        memset(t, 0, sizeof *t * cap);
        for (uint32_t x = 0; x < cur; x++)
            for (uint32_t y = 0; y <= dj; y++)
                t[x + y] += h[x] * fh[y];
        cur += dj;
        memcpy(h, t, sizeof *h * cur);
    }
    free(t);
    free(fh);
    *len = cur;
    return h;
}

/*
 * Inner sum over the ordered pairs with both ends in a band of width w: sum over positions p, q in the band
 * and other-dimension distances delta (histogram h, prefix sums ph, pd) of min(|p - q| + delta, E), E the
 * cheapest excursion: out on the left (p + q + 1, when @p left) or on the right (2w - 1 - p - q, when @p right).
 */
static totex_u128 inner_sum(uint64_t w, int left, int right, const uint64_t *ph, const totex_u128 *pd, uint32_t len)
{
    totex_u128 sum = 0;
    const uint64_t total = ph[len];
    for (uint64_t p = 0; p < w; p++)
        for (uint64_t q = 0; q < w; q++) {
            const uint64_t c = p > q ? p - q : q - p;
            uint64_t e = UINT64_MAX;
            if (left)
                e = p + q + 1;
            if (right && 2 * w - 1 - p - q < e)
                e = 2 * w - 1 - p - q;
            uint64_t t = e == UINT64_MAX || e - c > len ? len : (e > c ? e - c : 0);
            sum += (totex_u128)c * ph[t] + pd[t];
            if (t < len)
                sum += (totex_u128)e * (total - ph[t]);
        }
    return sum;
}

int totex_bound_band(const totex_network *net, totex_bound *out)
{
    const uint32_t k = totex_network_dims(net);
    const uint64_t n = totex_network_nodes(net);
    uint64_t best = 0, ba = 0, bb = 0, bN = 0;
    uint32_t bdim = 0, sdim = 0;
    totex_u128 bx = 0, sx = 0, su = 1; /* sx / su: the best band on shortest paths only (for the witness) */
    uint64_t sa = 0, sb = 0;
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
            continue;
        const uint64_t m = totex_factor_nodes(f), N = n / m;
        if (m < 3)
            continue; /* no band with a node outside on either side gives more than average status */
        int too_big = 0;
        for (uint32_t j = 0; j < k; j++)
            too_big |= j != i && totex_factor_nodes(totex_network_factor(net, j)) > 4096;
        if (too_big)
            continue;
        uint32_t len;
        uint64_t *h = other_histogram(net, i, &len);
        uint64_t *ph = h ? malloc(sizeof *ph * (len + 1)) : NULL;
        totex_u128 *pd = h ? malloc(sizeof *pd * (len + 1)) : NULL;
        const uint64_t wmax = m - 1 < 1024 ? m - 1 : 1024; /* bands leaving at least one node outside */
        totex_u128 *ib = h ? malloc(sizeof *ib * (wmax + 1)) : NULL, *il = h ? malloc(sizeof *il * (wmax + 1)) : NULL;
        if (!h || !ph || !pd || !ib || !il) {
            free(h);
            free(ph);
            free(pd);
            free(ib);
            free(il);
            continue; /* out of memory: this dimension gives no band bound, the others still may */
        }
        ph[0] = 0;
        pd[0] = 0;
        for (uint32_t d = 0; d < len; d++) {
            ph[d + 1] = ph[d] + h[d];
            pd[d + 1] = pd[d] + (totex_u128)d * h[d];
        }
        totex_u128 so = pd[len];
        for (uint64_t w = 1; w <= wmax; w++) {
            ib[w] = w + 2 <= m ? inner_sum(w, 1, 1, ph, pd, len) : 0;
            il[w] = inner_sum(w, 1, 0, ph, pd, len); /* one side only; the other by mirror symmetry */
        }
        for (uint64_t a = 0; a < m; a++) {
            /* every band when m <= 2048; above, the centred ones: a + b in {m - 2, m - 1, m} */
            const uint64_t lo = m <= 2048 ? a : (m - 2 > 2 * a ? m - 2 - a : a);
            const uint64_t hi = m <= 2048 ? m - 1 : (m - a < m - 1 ? m - a : m - 1);
            if (m > 2048 && 2 * a > m)
                break;
            for (uint64_t b = lo; b <= hi; b++) {
                const uint64_t w = b - a + 1, l = a, r = m - 1 - b;
                if (w > wmax)
                    break;
                const totex_u128 x = (totex_u128)N * N * ((totex_u128)(l + r) * w * w + (totex_u128)2 * l * r * w) +
                                     (l && r ? ib[w] : il[w]);
                const totex_u128 u = (totex_u128)w * N, v = (x + u - 1) / u;
                const totex_u128 xs = band_sends_shortest(m, a, b, N, so);
                if (v > best) {
                    best = (uint64_t)v;
                    bx = x;
                    ba = a;
                    bb = b;
                    bN = N;
                    bdim = i;
                }
                if (xs * su > sx * u) {
                    sx = xs;
                    su = u;
                    sa = a;
                    sb = b;
                    sdim = i;
                }
            }
        }
        free(h);
        free(ph);
        free(pd);
        free(ib);
        free(il);
    }
    if (!best)
        return 0;
    const uint64_t u = (bb - ba + 1) * bN;
    out->kind = TOTEX_BOUND_BAND;
    out->value = best;
    out->exact = (double)bx / (double)u;
    totex_witness(out,
                  "dimension %u (%s): the band U of coordinates %" PRIu64 "..%" PRIu64 " (%" PRIu64 " nodes) must make X = %.0f sends (each message's fewest moves from U-nodes on any path), at most |U| per step (single-port): X/|U| = %.4f (000 eq. (3) on a node subset); on shortest paths only (as every totex algorithm routes): %.0f steps (dimension %u, coordinates %" PRIu64 "..%" PRIu64 ")",
                  bdim, totex_factor_name(totex_network_factor(net, bdim)), ba, bb, u, (double)bx, out->exact,
                  ceil((double)sx / (double)su), sdim, sa, sb);
    return 1;
}
