/*
 * Birkhoff-von Neumann decomposition of a demand into weighted permutations.
 * Source: 001 Section 4 (a task matrix decomposed into permutation matrices,
 *         each routed as the torus routes a permutation, Theorems 3-5),
 *         weighted by bytes: W plus slack on the diagonal and off it is a
 *         matrix whose rows and columns all sum to D = max(row, column
 *         totals); Birkhoff-von Neumann (Koenig) gives it as a sum of at
 *         most n^2 - 2n + 2 permutations with weights; each is one step,
 *         its real (non-slack) bytes on dimension-ordered routes.
 * Model:  byte-weighted, multiport; a step costs t_s + most bytes on one link / B.
 * Steps:  the permutations with real bytes, at most n^2 - 2n + 2.
 * Optimal: the steps' weights sum to D, so with ejection and injection
 *         bounding (hotspots) and single-hop permutations (complete
 *         factors) it meets the per-node bound up to t_s per step.
 * Cost:   O(n^2) perfect-matching repairs of O(n^2) each; networks of at most
 *         TOTEX_WPLAN_BVN_MAX nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/w_route.h"
#include "common/error.h"
#include "totex/demand_plan.h"

typedef struct bvn {
    uint32_t n;
    uint64_t *m;              /* real + slack */
    uint32_t *mate_r, *mate_c; /* row -> column, column -> row; UINT32_MAX none */
    unsigned char *seen;
} bvn;

static int augment(bvn *b, uint32_t r)
{
    for (uint32_t c = 0; c < b->n; c++) {
        if (!b->m[(size_t)r * b->n + c] || b->seen[c])
            continue;
        b->seen[c] = 1;
        if (b->mate_c[c] == UINT32_MAX || augment(b, b->mate_c[c])) {
            b->mate_r[r] = c;
            b->mate_c[c] = r;
            return 1;
        }
    }
    return 0;
}

totex_status totex_wplan_bvn(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err)
{
    uint32_t n = d->n;
    if (n > TOTEX_WPLAN_BVN_MAX)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "the Birkhoff-von Neumann schedule is planned on at most %u nodes; this "
                          "network has %u", TOTEX_WPLAN_BVN_MAX, n);
    size_t nn = (size_t)n * n;
    bvn b = {n, calloc(nn, sizeof *b.m), malloc(n * sizeof *b.mate_r), malloc(n * sizeof *b.mate_c), calloc(n, 1)};
    uint64_t *real = malloc(nn * sizeof *real), *dr = calloc(n, sizeof *dr), *dc = calloc(n, sizeof *dc);
    uint32_t *path = malloc((size_t)(totex_network_diameter(net) + 2) * sizeof *path);
    totex_wschedule *s = totex_wschedule_new("bvn");
    totex_status st = TOTEX_OK;
    if (!b.m || !b.mate_r || !b.mate_c || !b.seen || !real || !dr || !dc || !path || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the Birkhoff-von Neumann schedule");
        goto done;
    }
    uint64_t D = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint64_t w = i == j ? 0 : d->w[(size_t)i * n + j];
            real[(size_t)i * n + j] = w;
            b.m[(size_t)i * n + j] = w;
            dr[i] += w;
            dc[j] += w;
        }
    for (uint32_t i = 0; i < n; i++)
        D = dr[i] > D ? dr[i] : D, D = dc[i] > D ? dc[i] : D;
    for (uint32_t i = 0; i < n; i++)
        dr[i] = D - dr[i], dc[i] = D - dc[i];
    for (uint32_t i = 0, j = 0; i < n && j < n;) { /* slack, north-west corner: rows and columns sum to D */
        uint64_t x = dr[i] < dc[j] ? dr[i] : dc[j];
        b.m[(size_t)i * n + j] += x;
        dr[i] -= x;
        dc[j] -= x;
        if (!dr[i])
            i++;
        else
            j++;
    }
    memset(b.mate_r, 0xff, n * sizeof *b.mate_r);
    memset(b.mate_c, 0xff, n * sizeof *b.mate_c);
    uint64_t left = D;
    while (left) {
        for (uint32_t r = 0; r < n; r++)
            if (b.mate_r[r] == UINT32_MAX) {
                memset(b.seen, 0, n);
                if (!augment(&b, r)) {
                    st = totex_fail(err, TOTEX_EINVAL, "no perfect matching in the Birkhoff-von Neumann decomposition "
                                    "(row %u): rows and columns do not balance", r);
                    goto done;
                }
            }
        uint64_t w = UINT64_MAX;
        for (uint32_t r = 0; r < n; r++)
            if (b.m[(size_t)r * n + b.mate_r[r]] < w)
                w = b.m[(size_t)r * n + b.mate_r[r]];
        int stepped = 0;
        for (uint32_t r = 0; r < n; r++) {
            uint32_t c = b.mate_r[r];
            size_t q = (size_t)r * n + c;
            uint64_t x = real[q] < w ? real[q] : w; /* real bytes first, the slack after */
            if (x) {
                if (!stepped && totex_wschedule_step(s) != TOTEX_OK) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the Birkhoff-von Neumann schedule");
                    goto done;
                }
                stepped = 1;
                if (w_add_split(s, net, r, c, x, path) != TOTEX_OK) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the Birkhoff-von Neumann schedule");
                    goto done;
                }
            }
            real[q] -= x;
            b.m[q] -= w;
            if (!b.m[q]) {
                b.mate_r[r] = UINT32_MAX;
                b.mate_c[c] = UINT32_MAX;
            }
        }
        left -= w;
    }
done:
    free(b.m);
    free(b.mate_r);
    free(b.mate_c);
    free(b.seen);
    free(real);
    free(dr);
    free(dc);
    free(path);
    if (st != TOTEX_OK) {
        totex_wschedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
