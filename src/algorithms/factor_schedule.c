/*
 * Dispatcher: the total exchange schedule of one factor graph under a port
 * model, as used by Algorithms A2 and A3 for each dimension.
 *
 * k-port (k >= 2, 001 Section 7): a path or ring node has at most two links,
 * and the multiport schedules (furthest-first, message-shift) send at most one
 * message per directed link per step, so a node sends and receives at most 2
 * a step: they are k-port schedules for every k >= 2. A complete graph takes
 * the single-port rounds k at a time (complete_single.c): ceil((m-1)/k) steps.
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
                                        : totex_fa_complete_rounds(f, ports, out, err);
        break;
    case TOTEX_FACTOR_PATH:
        nm = ports != TOTEX_PORTS_SINGLE ? "furthest-first" : "path-single-greedy";
        st = ports != TOTEX_PORTS_SINGLE ? totex_fa_path_furthest_first(f, out, err)
                                         : totex_fa_path_single(f, out, err);
        break;
    case TOTEX_FACTOR_RING:
        nm = ports != TOTEX_PORTS_SINGLE ? "message-shift" : "ring-two-phases";
        st = ports != TOTEX_PORTS_SINGLE ? totex_fa_ring_message_shift(f, out, err)
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
