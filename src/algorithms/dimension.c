/*
 * One-dimensional networks: the factor graph's own total exchange algorithm.
 *
 * Source:  003 Sections 3-4 (furthest-first on linear arrays, message-shift on
 *          rings), 004 Section 5 (K2, complete graphs); see each factor file.
 * Model:   single-port or multiport, as the factor algorithm.
 * Steps:   the factor algorithm's (factor_predict.c).
 * Optimal: where the factor algorithm is (multiport: path, ring, complete, K2;
 *          single-port: ring, complete, K2, and paths, whose schedule meets the
 *          relay bound floor((m^2-1)/2) for every m = 2..300 measured).
 * It is what A2 and A3 reduce to on a network of one dimension; it is listed
 * separately so a user can name it.
 */
#include "algorithms/factor_algos.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

static totex_status dim_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    (void)ports;
    if (totex_network_dims(net) != 1)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "dimension applies to one-dimensional networks only; %s has %u dimensions (use a2 or a3)",
                          totex_network_spec(net), totex_network_dims(net));
    return TOTEX_OK;
}

static totex_status dim_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_status st = dim_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    return totex_factor_predict(totex_network_factor(net, 0), ports, steps, err);
}

static totex_status dim_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_schedule *s = NULL;
    totex_status st = dim_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if ((st = totex_factor_schedule(totex_network_factor(net, 0), ports, &s, NULL, err)) != TOTEX_OK)
        return st;
    st = totex_schedule_replay(s, sink, err);
    totex_schedule_free(s);
    return st;
}

const totex_algorithm totex_algorithm_dimension = {
    .name = "dimension",
    .title = "Factor algorithm of a one-dimensional network (furthest-first, message-shift, rounds, K2)",
    .source = "003 Sections 3-4; 004 Section 5",
    .applies = dim_applies,
    .predict = dim_predict,
    .plan = dim_plan,
};
