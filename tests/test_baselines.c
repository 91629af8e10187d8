/*
 * The baseline combining algorithms (src/combining/direct.c, pairwise.c,
 * bruck.c, dimwise.c) through the registry: the combining simulator accepts
 * every schedule (every block delivered exactly once, contention-free,
 * port model) on paths, rings, meshes, tori, hypercubes and complete graphs
 * of 1..4 dimensions under wormhole and store-and-forward; with no
 * contention (complete graphs, every pair adjacent) the measured counts are
 * the formulas; on meshes and tori the measured start-ups are printed next to
 * the contention-free formula.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

static const char *const specs[] = {"path:7",     "ring:8",        "mesh:4x5",    "torus:3x4",  "torus:4x4x4",
                                    "mesh:3x3x3", "torus:2x3x2x3", "hypercube:4", "complete:8", "ghc:3x4",
                                    "ring:5*path:3", "k2",         "complete:5"};
static const char *const algos[] = {"direct", "pairwise", "bruck", "dimwise"};

static totex_comb_cost mk_cost(totex_switching sw, totex_comb_ports ports)
{
    totex_comb_cost c;
    totex_comb_cost_default(&c);
    c.t_s = 7e-6;
    c.t_c = 3e-9;
    c.rho = 2e-9;
    c.m = 64;
    c.switching = sw;
    c.ports = ports;
    return c;
}


static uint32_t ceil_log2(uint64_t n)
{
    uint32_t k = 0;
    while ((UINT64_C(1) << k) < n)
        k++;
    return k;
}

/* contention-free start-ups of each baseline on net */
static uint64_t formula_startups(const char *name, const totex_network *net)
{
    uint64_t n = totex_network_nodes(net), f = 0;
    if (!strcmp(name, "direct"))
        return 1;
    if (!strcmp(name, "pairwise"))
        return n - 1;
    if (!strcmp(name, "bruck"))
        return ceil_log2(n);
    for (uint32_t d = 0; d < totex_network_dims(net); d++)
        f += totex_factor_nodes(totex_network_factor(net, d)) - 1;
    return f;
}

static void test_registered(void **state)
{
    (void)state;
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
        const totex_comb_algorithm *x = ts_comb_algo(algos[a]);
        assert_string_equal(x->name, algos[a]);
        assert_non_null(x->title);
        assert_non_null(x->source);
        assert_non_null(x->cost);
    }
}

/* every baseline, every network, every model: accepted and complete */
static void test_all_valid(void **state)
{
    (void)state;
    static const totex_switching sws[] = {TOTEX_SWITCH_WORMHOLE, TOTEX_SWITCH_STORE_FORWARD};
    static const totex_comb_ports pts[] = {TOTEX_COMB_ONE_PORT, TOTEX_COMB_ALL_PORT};
    printf("%-9s %-15s %-5s %-4s %9s %9s %9s\n", "algorithm", "network", "switch", "port", "start-ups", "formula",
           "blocks");
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++)
        for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
            for (size_t w = 0; w < 2; w++)
                for (size_t q = 0; q < 2; q++) {
                    totex_comb_cost c = mk_cost(sws[w], pts[q]);
                    totex_comb_report rep;
                    totex_error err = {{0}};
                    totex_status st = ts_comb_run(algos[a], specs[i], &c, &rep, &err);
                    totex_network *net = ts_net(specs[i]);
                    uint64_t f = formula_startups(algos[a], net);
                    totex_network_free(net);
                    if (!strcmp(algos[a], "direct") && pts[q] == TOTEX_COMB_ONE_PORT) {
                        assert_int_equal(st, TOTEX_ENOTAPPLICABLE);
                        assert_non_null(strstr(err.msg, "all-port"));
                        continue;
                    }
                    if (st != TOTEX_OK)
                        fail_msg("%s on %s: %s", algos[a], specs[i], err.msg);
                    /* contention only adds start-ups */
                    assert_true(rep.startups >= f);
                    printf("%-9s %-15s %-5s %-4s %9llu %9llu %9llu\n", algos[a], specs[i],
                           sws[w] == TOTEX_SWITCH_WORMHOLE ? "wh" : "sf", pts[q] == TOTEX_COMB_ONE_PORT ? "1" : "all",
                           (unsigned long long)rep.startups, (unsigned long long)f,
                           (unsigned long long)rep.blocks_transmitted);
                }
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

/* complete graphs: every pair adjacent, no contention: the formulas hold exactly */
static void test_formulas_complete(void **state)
{
    (void)state;
    static const char *const cs[] = {"complete:8", "complete:5", "ghc:8", "complete:16", "complete:7"};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++)
        for (int w = 0; w < 2; w++) {
            totex_switching sw = w ? TOTEX_SWITCH_STORE_FORWARD : TOTEX_SWITCH_WORMHOLE;
            totex_comb_cost one = mk_cost(sw, TOTEX_COMB_ONE_PORT), all = mk_cost(sw, TOTEX_COMB_ALL_PORT);
            totex_comb_report rep;
            totex_error err = {{0}};
            totex_network *net = ts_net(cs[i]);
            uint64_t n = totex_network_nodes(net), lg = ceil_log2(n), bsum = 0;
            totex_network_free(net);

            assert_int_equal(ts_comb_run("direct", cs[i], &all, &rep, &err), TOTEX_OK);
            assert_int_equal(rep.startups, 1);
            assert_int_equal(rep.blocks_transmitted, 1);
            assert_int_equal(rep.rearranged_blocks, 0);
            if (!w)
                assert_true(close_to(rep.predicted_time, all.t_s + all.m * all.t_c));

            assert_int_equal(ts_comb_run("pairwise", cs[i], &one, &rep, &err), TOTEX_OK);
            assert_int_equal(rep.startups, n - 1);
            assert_int_equal(rep.blocks_transmitted, n - 1);
            if (!w)
                assert_true(close_to(rep.predicted_time, (double)(n - 1) * (one.t_s + one.m * one.t_c)));

            assert_int_equal(ts_comb_run("bruck", cs[i], &one, &rep, &err), TOTEX_OK);
            assert_int_equal(rep.startups, lg);
            for (uint64_t k = 0; k < lg; k++)
                for (uint64_t j = 1; j < n; j++)
                    bsum += (j >> k) & 1;
            assert_int_equal(rep.blocks_transmitted, bsum);
            if ((n & (n - 1)) == 0)
                assert_int_equal(bsum, lg * n / 2);
            assert_int_equal(rep.rearranged_blocks, 2 * n);
            if (!w)
                assert_true(close_to(rep.predicted_time, (double)lg * one.t_s + (double)bsum * one.m * one.t_c +
                                                             2.0 * (double)n * one.m * one.rho));

            /* one dimension: dimwise is pairwise with shifts */
            assert_int_equal(ts_comb_run("dimwise", cs[i], &one, &rep, &err), TOTEX_OK);
            assert_int_equal(rep.startups, n - 1);
            assert_int_equal(rep.blocks_transmitted, n - 1);
            assert_int_equal(rep.rearranged_blocks, 0);
        }
}

/* dimwise on products of complete graphs (no contention within a dimension): its formula */
static void test_dimwise_formula(void **state)
{
    (void)state;
    static const char *const cs[] = {"ghc:3x4", "hypercube:4", "ghc:2x3x4", "complete:3*complete:5"};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        totex_comb_cost c = mk_cost(TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT);
        totex_comb_report rep;
        totex_error err = {{0}};
        totex_network *net = ts_net(cs[i]);
        uint64_t n = totex_network_nodes(net), k = totex_network_dims(net), su = 0, bl = 0;
        for (uint32_t d = 0; d < k; d++) {
            uint64_t md = totex_factor_nodes(totex_network_factor(net, d));
            su += md - 1;
            bl += (md - 1) * (n / md);
        }
        totex_network_free(net);
        assert_int_equal(ts_comb_run("dimwise", cs[i], &c, &rep, &err), TOTEX_OK);
        assert_int_equal(rep.startups, su);
        assert_int_equal(rep.blocks_transmitted, bl);
        assert_int_equal(rep.rearranged_blocks, (k - 1) * n);
        assert_true(close_to(rep.predicted_time,
                             (double)su * c.t_s + (double)bl * c.m * c.t_c + (double)((k - 1) * n) * c.m * c.rho));
    }
    /* hypercube: dimwise, pairwise-xor and bruck all need log2 n start-ups for dimwise */
}

/* contention is measured, not hidden: direct on a ring of 8 needs more than one step */
static void test_contention_measured(void **state)
{
    (void)state;
    totex_comb_cost all = mk_cost(TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ALL_PORT);
    totex_comb_cost one = mk_cost(TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT);
    totex_comb_report rep;
    totex_error err = {{0}};
    /* ring:8, direct: each of the 8 nodes sends 1+1 blocks at distance 1, 2, 3 each way and 1 at 4 (+):
       the + links carry 8 * (1+2+3+4) / 8 = 10 routes each: at least 10 sub-steps */
    assert_int_equal(ts_comb_run("direct", "ring:8", &all, &rep, &err), TOTEX_OK);
    assert_true(rep.startups >= 10);
    /* dimwise on ring:8: offsets 1 and 7 are contention-free, the others overlap */
    assert_int_equal(ts_comb_run("dimwise", "ring:8", &one, &rep, &err), TOTEX_OK);
    assert_true(rep.startups > 7);
    /* a path, offset 1: the steps of pairwise with partner r XOR 1 are one hop: contention-free */
    assert_int_equal(ts_comb_run("pairwise", "path:2", &one, &rep, &err), TOTEX_OK);
    assert_int_equal(rep.startups, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered),        cmocka_unit_test(test_all_valid),
        cmocka_unit_test(test_formulas_complete), cmocka_unit_test(test_dimwise_formula),
        cmocka_unit_test(test_contention_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
