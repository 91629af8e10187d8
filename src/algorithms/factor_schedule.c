/*
 * Dispatcher: the total exchange schedule of one factor graph under a port
 * model, as used by Algorithms A2 and A3 for each dimension.
 */
#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_factor_schedule(const totex_factor *f, totex_ports ports, totex_schedule **out,
                                   const char **name, totex_error *err)
{
    const char *nm = "greedy";
    totex_status st;
    *out = NULL;
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_K2:
        nm = "k2";
        st = totex_fa_k2(f, out, err);
        break;
    case TOTEX_FACTOR_COMPLETE:
        nm = ports == TOTEX_PORTS_MULTI ? "complete-direct" : "complete-rounds";
        st = ports == TOTEX_PORTS_MULTI ? totex_fa_complete_multiport(f, out, err)
                                        : totex_fa_complete_single(f, out, err);
        break;
    case TOTEX_FACTOR_PATH:
        nm = ports == TOTEX_PORTS_MULTI ? "furthest-first" : "path-single-greedy";
        st = ports == TOTEX_PORTS_MULTI ? totex_fa_path_furthest_first(f, out, err)
                                        : totex_fa_path_single(f, out, err);
        break;
    case TOTEX_FACTOR_RING:
        nm = ports == TOTEX_PORTS_MULTI ? "message-shift" : "ring-two-phases";
        st = ports == TOTEX_PORTS_MULTI ? totex_fa_ring_message_shift(f, out, err)
                                        : totex_fa_ring_single_phases(f, out, err);
        break;
    default:
        nm = "greedy";
        st = totex_fa_greedy(f, ports, out, err);
        break;
    }
    if (name)
        *name = nm;
    return st;
}
