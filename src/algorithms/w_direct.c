/*
 * Direct non-uniform total exchange.
 * Source: what MPI libraries' linear / pairwise alltoallv amounts to on a
 *         network: every pair at once on its dimension-ordered route.
 * Model:  byte-weighted, multiport (a step costs t_s + most bytes on one link / B).
 * Steps:  1.
 * Optimal: when the dimension-ordered routing meets the fluid optimum (uniform
 *         demand on a ring or torus with odd sides); a pair whose route has
 *         two shortest choices in some dimensions (a ring's antipode) splits
 *         its bytes evenly over them.
 */
#include <stdlib.h>

#include "algorithms/w_route.h"
#include "common/error.h"
#include "totex/demand_plan.h"

totex_status totex_wplan_direct(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err)
{
    uint32_t n = totex_network_nodes(net);
    uint64_t diam = totex_network_diameter(net);
    uint32_t *path = malloc((size_t)(diam + 2) * sizeof *path);
    totex_wschedule *s = totex_wschedule_new("direct");
    totex_status st = TOTEX_OK;
    if (!path || !s || totex_wschedule_step(s) != TOTEX_OK) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the direct schedule");
        goto fail;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint64_t w = d->w[(size_t)i * n + j];
            if (i == j || !w)
                continue;
            if (w_add_split(s, net, i, j, w, path) != TOTEX_OK) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the direct schedule");
                goto fail;
            }
        }
    free(path);
    *out = s;
    return TOTEX_OK;
fail:
    free(path);
    totex_wschedule_free(s);
    return st;
}
