/*
 * Total exchange on a complete graph K_m, single-port and k-port.
 *
 * Source:  004 Section 5 (complete graphs are Cayley graphs, for which the
 *          average-status bound (1) is reached); rounds by cyclic shift; the
 *          k-port model of 001 Section 7.
 * Model:   single-port. Round r = 1..m-1: node i sends its message for
 *          i+r mod m directly and receives the message of i-r mod m.
 *          k-port: rounds r .. r+k-1 in one step: node i sends over k
 *          distinct links and receives over k, each message moves once.
 * Steps:   m - 1 single-port, ceil((m-1)/k) k-port.
 * Optimal: always (average status of K_m is m-1, 004 Section 3; under
 *          k-port ceil((m-1)/k), the average-status bound of 001 Section 7).
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_complete_single(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    return totex_fa_complete_rounds(f, TOTEX_PORTS_SINGLE, out, err);
}

totex_status totex_fa_complete_rounds(const totex_factor *f, totex_ports ports, totex_schedule **out,
                                      totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    const uint32_t k = ports == TOTEX_PORTS_MULTI || ports > m ? m : (uint32_t)ports;
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_COMPLETE && totex_factor_get_kind(f) != TOTEX_FACTOR_K2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "complete-graph algorithm needs complete:M, got %s",
                          totex_factor_name(f));
    totex_hop *hops = malloc(sizeof *hops * (size_t)m * k);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    if (!hops || !s)
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
    for (uint32_t r0 = 1; r0 < m && st == TOTEX_OK; r0 += k) {
        size_t c = 0;
        for (uint32_t r = r0; r < m && r < r0 + k; r++)
            for (uint32_t a = 0; a < m; a++)
                hops[c++] = (totex_hop){a, (a + r) % m, a, (a + r) % m};
        st = totex_schedule_add_step(s, hops, c, err);
    }
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
