/*
 * Total exchange on a complete graph K_m, multiport.
 *
 * Source:  000 Section 3 bound (4) (a complete graph's cut ratio is 1);
 *          generalized hypercubes of 000 Section 2.
 * Model:   multiport: every node sends each of its m-1 messages straight to
 *          its destination over its own link, all in the same step.
 * Steps:   1.
 * Optimal: always (cut bound |V1||V2|/(|V1||V2|) = 1).
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_complete_multiport(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_COMPLETE && totex_factor_get_kind(f) != TOTEX_FACTOR_K2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "complete-graph algorithm needs complete:M, got %s",
                          totex_factor_name(f));
    totex_hop *hops = malloc(sizeof *hops * (size_t)m * (m - 1));
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_ENOMEM;
    if (hops && s) {
        size_t c = 0;
        for (uint32_t a = 0; a < m; a++)
            for (uint32_t b = 0; b < m; b++)
                if (a != b)
                    hops[c++] = (totex_hop){a, b, a, b};
        st = totex_schedule_add_step(s, hops, c, err);
    } else {
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
