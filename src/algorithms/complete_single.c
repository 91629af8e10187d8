/*
 * Total exchange on a complete graph K_m, single-port.
 *
 * Source:  004 Section 5 (complete graphs are Cayley graphs, for which the
 *          average-status bound (1) is reached); rounds by cyclic shift.
 * Model:   single-port. Round r = 1..m-1: node i sends its message for
 *          i+r mod m directly and receives the message of i-r mod m.
 * Steps:   m - 1.
 * Optimal: always (average status of K_m is m-1, 004 Section 3).
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_complete_single(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_COMPLETE && totex_factor_get_kind(f) != TOTEX_FACTOR_K2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "complete-graph algorithm needs complete:M, got %s",
                          totex_factor_name(f));
    totex_hop *hops = malloc(sizeof *hops * m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    if (!hops || !s)
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
    for (uint32_t r = 1; r < m && st == TOTEX_OK; r++) {
        for (uint32_t a = 0; a < m; a++)
            hops[a] = (totex_hop){a, (a + r) % m, a, (a + r) % m};
        st = totex_schedule_add_step(s, hops, m, err);
    }
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
