/*
 * Algorithm A2 (000 Section 4; 004 Fig. 4): simulated in full, its steps
 * equal Corollary 2 (T = n * sum T_i/|V_i|) and, single-port on products of
 * rings, K2 and complete graphs, the average-status bound (004 Theorem 3),
 * where the bound is computed here independently (closed forms of factor
 * statuses or BFS), not by the library.
 */
#include <stdio.h>
#include <stdlib.h>

#include "support.h"

/* Average status by BFS on the materialised product: sum of all distances / n. */
static double bfs_average_status(const totex_network *net)
{
    uint32_t n = totex_network_nodes(net);
    uint32_t *d = ts_bfs_all_pairs(net);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < (uint64_t)n * n; i++)
        sum += d[i];
    free(d);
    return (double)sum / n;
}

static void check_a2_optimal_bfs(const char *spec)
{
    totex_sim_report rep;
    uint64_t predicted;
    totex_network *net = ts_net(spec);
    double as = bfs_average_status(net);
    ts_plan_ok(spec, TOTEX_PORTS_SINGLE, "a2", &rep, &predicted);
    if ((double)rep.steps != as || predicted != rep.steps)
        fail_msg("%s: A2 took %llu steps (predicted %llu), average status %.3f", spec,
                 (unsigned long long)rep.steps, (unsigned long long)predicted, as);
    totex_network_free(net);
}

/* Mixed-radix tori, small enough for all-pairs BFS. */
static void test_tori_mixed_radices(void **state)
{
    (void)state;
    const char *specs[] = {"ring:3*ring:4", "ring:4*ring:6", "ring:5*ring:7*ring:3", "torus:3x5x2x4",
                           "ring:8*ring:5", "torus:6x6", "ring:9*ring:4*k2"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        check_a2_optimal_bfs(specs[i]);
}

/* Hypercubes d = 1..12: status of a node is sum_k k*C(d,k) = d*2^(d-1) (004 Section 3). */
static void test_hypercubes(void **state)
{
    (void)state;
    for (unsigned d = 1; d <= 12; d++) {
        char spec[32];
        totex_sim_report rep;
        uint64_t predicted;
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        ts_plan_ok(spec, TOTEX_PORTS_SINGLE, "a2", &rep, &predicted);
        assert_int_equal(rep.steps, (uint64_t)d << (d - 1));
        assert_int_equal(predicted, rep.steps);
    }
}

/* Generalized hypercubes: AS = n * sum (m_i - 1)/m_i (000 Section 3.1), checked against BFS too. */
static void test_generalized_hypercubes(void **state)
{
    (void)state;
    const char *specs[] = {"ghc:3x4", "ghc:2x3x4", "ghc:5x5", "ghc:4x4x4", "complete:7"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t n = totex_network_nodes(net), as = 0;
        totex_sim_report rep;
        for (uint32_t k = 0; k < totex_network_dims(net); k++) {
            uint64_t m = totex_factor_nodes(totex_network_factor(net, k));
            as += n / m * (m - 1);
        }
        ts_plan_ok(specs[i], TOTEX_PORTS_SINGLE, "a2", &rep, NULL);
        assert_int_equal(rep.steps, as);
        check_a2_optimal_bfs(specs[i]);
        totex_network_free(net);
    }
}

/* The worked examples: 000 Fig. 1 (path2 x ring3) and Fig. 2 (4x3 torus). */
static void test_worked_examples(void **state)
{
    (void)state;
    totex_sim_report rep;
    /* Fig. 1: AS = 6 * (1/2 + 2/3) = 7 (Corollary 1); A2 = n*(T_path2/2 + T_ring3/3) = 7 */
    ts_plan_ok("path:2*ring:3", TOTEX_PORTS_SINGLE, "a2", &rep, NULL);
    assert_int_equal(rep.steps, 7);
    /* Fig. 2: 4x3 torus, AS = 12 * (4/4 + 2/3) = 20 */
    ts_plan_ok("ring:4*ring:3", TOTEX_PORTS_SINGLE, "a2", &rep, NULL);
    assert_int_equal(rep.steps, 20);
    ts_plan_ok("ring:3*ring:4", TOTEX_PORTS_SINGLE, "a2", &rep, NULL);
    assert_int_equal(rep.steps, 20);
}

/* A2 with multiport factor schedules stays valid (and follows Corollary 2). */
static void test_multiport_products(void **state)
{
    (void)state;
    const char *specs[] = {"path:3*ring:5", "ring:4*path:2*complete:3", "mesh:4x3", "torus:5x4x3"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_sim_report rep;
        uint64_t predicted;
        ts_plan_ok(specs[i], TOTEX_PORTS_MULTI, "a2", &rep, &predicted);
        assert_int_equal(rep.steps, predicted);
    }
}

/* Every message travels a shortest path when every factor routes shortest:
   hops == S_G (the total status, 000 Section 3). */
static void test_hops_equal_total_status(void **state)
{
    (void)state;
    const char *specs[] = {"ring:5*ring:4", "hypercube:5", "ghc:3x3x2"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_sim_report rep;
        uint32_t n = totex_network_nodes(net), *d = ts_bfs_all_pairs(net);
        uint64_t sum = 0;
        for (uint64_t k = 0; k < (uint64_t)n * n; k++)
            sum += d[k];
        ts_plan_ok(specs[i], TOTEX_PORTS_SINGLE, "a2", &rep, NULL);
        assert_int_equal(rep.hops, sum);
        free(d);
        totex_network_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_examples),
        cmocka_unit_test(test_tori_mixed_radices),
        cmocka_unit_test(test_hypercubes),
        cmocka_unit_test(test_generalized_hypercubes),
        cmocka_unit_test(test_multiport_products),
        cmocka_unit_test(test_hops_equal_total_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
