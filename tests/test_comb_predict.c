/*
 * The combining registry's predictions (totex_comb_algorithm.predict: the
 * report of an algorithm's schedule computed without building it, what
 * totex_alltoall ranks the combining candidates by at scale) against the
 * combining simulator's report of the schedule build() makes, on the same
 * network and cost model: every field (steps, start-ups, blocks transmitted,
 * rearranged blocks, transfers, block-hops, route hops, delivered blocks) and
 * the predicted time. Networks: paths, rings (odd and even), meshes and tori
 * of 1..4 dimensions, hypercubes, generalized hypercubes, complete graphs and
 * mixed products, under wormhole and store-and-forward, one-port and
 * all-port. A prediction must refuse where build() refuses, and may decline
 * (saying its closed form does not cover the network) only on networks it
 * names: a3c on meshes and odd tori.
 * Also totex_comb_build_share() (one node's share of a schedule, what every
 * rank of totex_alltoall builds) against the whole schedule filtered here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

static const char *const specs[] = {"path:2",      "path:7",       "ring:3",        "ring:8",      "ring:9",
                                    "mesh:4x5",    "torus:3x4",    "torus:4x4x4",   "mesh:3x3x3",  "torus:2x3x2x3",
                                    "hypercube:4", "ghc:3x4",      "complete:6",    "ring:5*path:3", "k2",
                                    "mesh:2x7",    "torus:5x6",    "torus:8x8",     "ring:6*complete:3*path:4",
                                    "torus:16x16", "mesh:4x4",    "ghc:3x3",      "torus:5x5",     "torus:6x6",
                                    "torus:3x3x3x3", "hypercube:2", "torus:4x4",  "complete:4*complete:4"};

static void test_predict_equals_simulator(void **state)
{
    (void)state;
    int compared = 0, uncovered = 0, a3c = 0;
    for (size_t a = 0; a < totex_comb_algorithm_count(); a++) {
        const totex_comb_algorithm *alg = totex_comb_algorithm_get(a);
        if (!alg->predict)
            continue;
        for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
            for (int sw = 0; sw < 2; sw++)
                for (int ports = 0; ports < 2; ports++) {
                    totex_network *net = ts_net(specs[i]);
                    totex_comb_cost cost;
                    totex_comb_cost_default(&cost);
                    cost.m = 64;
                    cost.switching = sw ? TOTEX_SWITCH_STORE_FORWARD : TOTEX_SWITCH_WORMHOLE;
                    cost.ports = ports ? TOTEX_COMB_ALL_PORT : TOTEX_COMB_ONE_PORT;
                    totex_error e1, e2;
                    totex_comb_schedule *s = NULL;
                    totex_comb_report sim, pre;
                    memset(&pre, 0, sizeof pre);
                    totex_status bs = alg->build(net, &cost, &s, &e1);
                    totex_status ps = alg->predict(net, &cost, &pre, &e2);
                    if (bs != TOTEX_OK) {
                        if (ps == TOTEX_OK)
                            fail_msg("%s on %s: build refuses (%s) but predict does not", alg->name, specs[i],
                                     e1.msg);
                        totex_network_free(net);
                        continue;
                    }
                    if (ps == TOTEX_ENOTAPPLICABLE && strstr(e2.msg, "closed form")) { /* says it does not cover it */
                        uncovered++;
                        totex_comb_schedule_free(s);
                        totex_network_free(net);
                        continue;
                    }
                    if (ps != TOTEX_OK) {
                        fail_msg("%s on %s (sw %d, all-port %d): predict fails: %s", alg->name, specs[i], sw, ports,
                                 e2.msg);
                    }
                    assert_int_equal(totex_comb_simulate(net, s, &cost, &sim, NULL, &e1), TOTEX_OK);
                    const uint64_t got[] = {pre.steps,     pre.startups,   pre.blocks_transmitted,
                                            pre.rearranged_blocks, pre.transfers, pre.block_hops,
                                            pre.route_hops_sum, pre.max_route_hops, pre.blocks_delivered};
                    const uint64_t want[] = {sim.steps,     sim.startups,   sim.blocks_transmitted,
                                             sim.rearranged_blocks, sim.transfers, sim.block_hops,
                                             sim.route_hops_sum, sim.max_route_hops, sim.blocks_delivered};
                    static const char *const what[] = {"steps",          "start-ups",      "blocks transmitted",
                                                       "rearranged",     "transfers",      "block-hops",
                                                       "route hops sum", "max route hops", "delivered"};
                    for (size_t f = 0; f < sizeof got / sizeof got[0]; f++)
                        if (got[f] != want[f])
                            fail_msg("%s on %s (sw %d, all-port %d): predicted %s %llu, simulated %llu", alg->name,
                                     specs[i], sw, ports, what[f], (unsigned long long)got[f],
                                     (unsigned long long)want[f]);
                    assert_true(fabs(pre.predicted_time - sim.predicted_time) <= 1e-12 * sim.predicted_time);
                    compared++;
                    a3c += strcmp(alg->name, "a3c") == 0;
                    totex_comb_schedule_free(s);
                    totex_network_free(net);
                }
    }
    assert_true(compared >= 80); /* a2c: every network, both switchings and port models */
    assert_true(a3c >= 10);      /* a3c: the homogeneous tori, hypercubes and generalized hypercubes, all-port */
    assert_true(uncovered <= 16); /* a3c on homogeneous meshes and odd tori (not translation invariant) */
}

/* a file factor is outside the closed form: the prediction says so instead of guessing */
static void test_predict_refuses_file_factor(void **state)
{
    (void)state;
    totex_error err;
    char spec[512];
    snprintf(spec, sizeof spec, "file:%s/net_petersen.graphml*ring:3", TOTEX_TEST_DATA);
    totex_network *net = totex_network_parse(spec, &err);
    if (!net)
        skip();
    const totex_comb_algorithm *a2c = totex_comb_algorithm_find("a2c", &err);
    assert_non_null(a2c);
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    totex_comb_report rep;
    assert_int_equal(a2c->predict(net, &cost, &rep, &err), TOTEX_ENOTAPPLICABLE);
    assert_non_null(strstr(err.msg, "file factor"));
    totex_network_free(net);
}

static int keep_node(void *ctx, uint32_t from, uint32_t to)
{
    const uint32_t me = *(const uint32_t *)ctx;
    return from == me || to == me;
}

/* totex_comb_build_share(): the whole schedule's transfers that leave or reach one node, in the same
   steps and order, and nothing else, for every registered algorithm */
static void test_build_share_is_the_filtered_schedule(void **state)
{
    (void)state;
    static const char *const nets[] = {"torus:4x4", "mesh:3x5", "ring:7", "hypercube:3", "torus:2x3x2"};
    int compared = 0;
    for (size_t a = 0; a < totex_comb_algorithm_count(); a++) {
        const totex_comb_algorithm *alg = totex_comb_algorithm_get(a);
        for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
            totex_network *net = ts_net(nets[i]);
            totex_comb_cost cost;
            totex_comb_cost_default(&cost);
            cost.ports = TOTEX_COMB_ALL_PORT;
            totex_error err;
            totex_comb_schedule *full = NULL, *share = NULL;
            uint32_t me = totex_network_nodes(net) / 2;
            if (alg->build(net, &cost, &full, &err) != TOTEX_OK) {
                assert_int_not_equal(totex_comb_build_share(alg, net, &cost, keep_node, &me, &share, &err), TOTEX_OK);
                totex_network_free(net);
                continue;
            }
            assert_int_equal(totex_comb_build_share(alg, net, &cost, keep_node, &me, &share, &err), TOTEX_OK);
            assert_int_equal(totex_comb_steps(share), totex_comb_steps(full));
            for (uint64_t st = 0; st < totex_comb_steps(full); st++) {
                size_t j = 0;
                assert_int_equal(totex_comb_step_rearranged(share, st), totex_comb_step_rearranged(full, st));
                for (size_t t = 0; t < totex_comb_step_transfers(full, st); t++) {
                    totex_transfer f, g;
                    totex_comb_get_transfer(full, st, t, &f);
                    if (f.from != me && f.to != me)
                        continue;
                    assert_int_equal(totex_comb_get_transfer(share, st, j++, &g), TOTEX_OK);
                    assert_int_equal(g.from, f.from);
                    assert_int_equal(g.to, f.to);
                    assert_int_equal(g.count, f.count);
                    assert_true(f.count == 0 || memcmp(g.blocks, f.blocks, f.count * sizeof *f.blocks) == 0);
                }
                assert_int_equal(totex_comb_step_transfers(share, st), j);
            }
            /* a schedule made afterwards is whole again */
            totex_comb_schedule *again = NULL;
            assert_int_equal(alg->build(net, &cost, &again, &err), TOTEX_OK);
            assert_int_equal(totex_comb_step_transfers(again, 0), totex_comb_step_transfers(full, 0));
            totex_comb_schedule_free(again);
            totex_comb_schedule_free(full);
            totex_comb_schedule_free(share);
            totex_network_free(net);
            compared++;
        }
    }
    assert_true(compared >= 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predict_equals_simulator),
        cmocka_unit_test(test_predict_refuses_file_factor),
        cmocka_unit_test(test_build_share_is_the_filtered_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
