/*
 * Plan and verify in one call: bounds (from the network alone), the
 * algorithm's stream into a fresh simulator, and the simulator's report.
 */
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "totex/report.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

totex_status totex_plan_and_verify(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                   uint64_t max_messages, totex_plan_result *out, totex_error *err)
{
    totex_status st;
    totex_sim *sim;
    double t0 = now_seconds();
    memset(out, 0, sizeof *out);
    out->net = net;
    out->ports = ports;
    if ((st = totex_bounds_compute(net, ports, out->bounds, &out->bound_count, &out->best_bound, err)) != TOTEX_OK)
        return st;
    if (!algo) {
        algo = totex_algorithm_auto(net, ports, err);
        if (!algo)
            return TOTEX_ENOTAPPLICABLE;
    } else if ((st = algo->applies(net, ports, err)) != TOTEX_OK) {
        return st;
    }
    out->algorithm = algo;
    if ((st = algo->predict(net, ports, &out->predicted_steps, err)) != TOTEX_OK)
        return st;
    sim = totex_sim_new(net, ports, max_messages, err);
    if (!sim)
        return TOTEX_ENOMEM;
    st = algo->plan(net, ports, totex_sim_sink(sim), err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &out->sim, err);
    totex_sim_free(sim);
    out->plan_seconds = now_seconds() - t0;
    out->verified = st == TOTEX_OK;
    return st;
}
