/* STUB: to be replaced by the real implementation. */
#include "totex/bounds.h"
#include "common/error.h"

const char *totex_bound_kind_name(totex_bound_kind k)
{
    switch (k) {
    case TOTEX_BOUND_AVERAGE_STATUS: return "average-status";
    case TOTEX_BOUND_CUT: return "cut";
    case TOTEX_BOUND_RECEIVE: return "receive";
    case TOTEX_BOUND_RELAY: return "relay";
    }
    return "?";
}

totex_cut totex_factor_best_cut(const totex_factor *f) { totex_cut c = {0}; (void)f; return c; }
totex_cut totex_cut_exhaustive(const uint64_t *adj, uint32_t m) { totex_cut c = {0}; (void)adj; (void)m; return c; }

totex_status totex_bounds_compute(const totex_network *net, totex_ports ports, totex_bound *out, size_t *count,
                                  size_t *best, totex_error *err)
{
    (void)net; (void)ports; (void)out; (void)err;
    *count = 0;
    *best = 0;
    return TOTEX_OK;
}
