/*
 * Total exchange on K2 (two nodes, one link).
 *
 * Source:  000 Section 4 (hypercube dimensions), 004 Section 5 ("in a two-node
 *          graph the time for total exchange is just one step").
 * Model:   single-port and multiport (the two nodes swap their messages).
 * Steps:   1.
 * Optimal: always (average-status bound 1, cut bound 1).
 */
#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_k2(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    if (totex_factor_nodes(f) != 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "K2 algorithm needs a 2-node factor, got %s",
                          totex_factor_name(f));
    totex_hop hops[2] = {{0, 1, 0, 1}, {1, 0, 1, 0}};
    totex_schedule *s = totex_schedule_new();
    if (!s)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    totex_status st = totex_schedule_add_step(s, hops, 2, err);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
