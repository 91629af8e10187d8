/*
 * Step counts of the per-dimension algorithms from the papers' closed forms:
 * linear arrays ceil((m^2-1)/4) (003 Theorem 1), rings ceil((m^2-1)/8)
 * (003 Theorems 2, 3), multiport and k-port (k >= 2: the same schedules,
 * factor_schedule.c); rings single-port floor(m^2/4) (their average status,
 * 004 Section 3); complete graphs 1 (multiport), m-1 (single-port) or
 * ceil((m-1)/k) (k-port); K2 1.
 * Factors without a closed form are planned and counted.
 */
#include "algorithms/factor_algos.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

totex_status totex_factor_predict(const totex_factor *f, totex_ports ports, uint64_t *steps, totex_error *err)
{
    uint64_t m = totex_factor_nodes(f);
    const int multi = ports == TOTEX_PORTS_MULTI;
    const int two = ports != TOTEX_PORTS_SINGLE; /* multiport or k-port with k >= 2: two links a node */
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_K2: *steps = 1; return TOTEX_OK;
    case TOTEX_FACTOR_COMPLETE: *steps = multi ? 1 : (m - 1 + ports - 1) / ports; return TOTEX_OK;
    case TOTEX_FACTOR_RING:
        *steps = two ? (m * m - 1 + 7) / 8 : m * m / 4;
        return TOTEX_OK;
    case TOTEX_FACTOR_PATH:
        if (two) {
            *steps = (m * m - 1 + 3) / 4;
            return TOTEX_OK;
        }
        break;
    case TOTEX_FACTOR_GRAPH: break;
    }
    totex_schedule *s = NULL;
    totex_status st = totex_factor_schedule(f, ports, &s, NULL, err);
    if (st != TOTEX_OK)
        return st;
    *steps = totex_schedule_steps(s);
    totex_schedule_free(s);
    return TOTEX_OK;
}
