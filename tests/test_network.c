/*
 * The network module (include/totex/network.h) against independent checks:
 *  - every metric computed by Theorem 1 / Corollary 1 of 000 Section 3.1
 *    (004 Section 3.1) -- node status, total status S_G, average status,
 *    average distance -- and the distance (000 eq. (1)) and diameter equal
 *    brute-force BFS on the materialised product (ts_bfs_all_pairs, which only
 *    enumerates neighbours), for small products of every factor kind;
 *  - the generalized-hypercube average distance formula of 000 Section 3.1 /
 *    004 Section 3.1: (n/(n-1)) (k - sum_i 1/m_i);
 *  - the spec grammar: canonical names, node counts, shorthands, presets,
 *    and rejection of malformed specs with a message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define DATA(name) TOTEX_TEST_DATA "/" name

/* Small networks of every factor kind, alone and mixed (n <= 140). */
static const char *const small_specs[] = {
    "path:2",
    "path:7",
    "ring:3",
    "ring:8",
    "ring:9",
    "complete:5",
    "k2",
    "hypercube:4",
    "file:" DATA("net_petersen.graphml"),
    "file:" DATA("net_star.gml"),
    "file:" DATA("net_tree.edges"),
    "file:" DATA("net_grid4x6.edges"),
    "file:" DATA("net_blocks.edges"),
    "path:2*ring:3",            /* 000 Fig. 1 */
    "ring:4*ring:3",            /* 000 Fig. 2 / 004 Fig. 2: the 4x3 torus */
    "ring:7*path:5*complete:4", /* 140 nodes, three kinds */
    "mesh:3x4",
    "torus:5x6",
    "ghc:3x4x2",
    "path:3*k2*ring:5",
    "file:" DATA("net_petersen.graphml") "*path:3",
    "k2*file:" DATA("net_star.gml") "*ring:3",
    "file:" DATA("net_tree.edges") "*complete:3",
};

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/* Theorem 1, Corollary 1, eq. (1) and the diameter against all-pairs BFS. */
static void check_metrics_by_bfs(const char *spec)
{
    totex_network *net = ts_net(spec);
    totex_error err = {{0}};
    uint32_t n = totex_network_nodes(net);
    uint32_t *dist = ts_bfs_all_pairs(net);
    uint64_t total = 0, diameter = 0, sg = 0;
    for (uint32_t s = 0; s < n; s++) {
        uint64_t status = 0;
        for (uint32_t t = 0; t < n; t++) {
            uint32_t d = dist[(size_t)s * n + t];
            assert_int_not_equal(d, UINT32_MAX); /* connected */
            status += d;
            if (d > diameter)
                diameter = d;
            if (totex_network_distance(net, s, t) != d)
                fail_msg("%s: distance(%u, %u) = %llu, BFS %u", spec, s, t,
                         (unsigned long long)totex_network_distance(net, s, t), d);
        }
        if (totex_network_status(net, s) != status)
            fail_msg("%s: Theorem 1 status of node %u = %llu, BFS %llu", spec, s,
                     (unsigned long long)totex_network_status(net, s), (unsigned long long)status);
        total += status;
    }
    assert_int_equal(totex_network_status_sum(net, &sg, &err), TOTEX_OK);
    if (sg != total)
        fail_msg("%s: S_G = %llu, BFS %llu", spec, (unsigned long long)sg, (unsigned long long)total);
    if (!close_to(totex_network_average_status(net), (double)total / n))
        fail_msg("%s: Corollary 1 AS(G) = %.12g, BFS %.12g", spec, totex_network_average_status(net),
                 (double)total / n);
    if (n > 1 && !close_to(totex_network_average_distance(net), (double)total / ((double)n * (n - 1))))
        fail_msg("%s: average distance %.12g, BFS %.12g", spec, totex_network_average_distance(net),
                 (double)total / ((double)n * (n - 1)));
    if (totex_network_diameter(net) != diameter)
        fail_msg("%s: diameter %llu, BFS %llu", spec, (unsigned long long)totex_network_diameter(net),
                 (unsigned long long)diameter);
    free(dist);
    totex_network_free(net);
}

static void test_metrics_equal_bfs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof small_specs / sizeof small_specs[0]; i++)
        check_metrics_by_bfs(small_specs[i]);
}

/* Adjacency, degrees and link counts agree with each other and with the BFS distances. */
static void test_adjacency_consistent(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof small_specs / sizeof small_specs[0]; i++) {
        totex_network *net = ts_net(small_specs[i]);
        uint32_t n = totex_network_nodes(net), nb[256];
        uint32_t *dist = ts_bfs_all_pairs(net);
        uint64_t degree_sum = 0;
        uint32_t min_degree = UINT32_MAX;
        for (uint32_t a = 0; a < n; a++) {
            uint32_t deg = totex_network_neighbors(net, a, nb);
            assert_int_equal(deg, totex_network_degree(net, a));
            degree_sum += deg;
            if (deg < min_degree)
                min_degree = deg;
            for (uint32_t b = 0; b < n; b++)
                assert_int_equal(!!totex_network_adjacent(net, a, b), dist[(size_t)a * n + b] == 1);
            /* mixed-radix ids: the first factor is the least significant digit */
            uint32_t back = 0;
            for (uint32_t d = 0; d < totex_network_dims(net); d++)
                back += totex_network_coord(net, a, d) * totex_network_stride(net, d);
            assert_int_equal(back, a);
        }
        assert_int_equal(degree_sum, 2 * totex_network_links(net));
        assert_int_equal(min_degree, totex_network_min_degree(net));
        assert_int_equal(totex_network_messages(net), (uint64_t)n * (n - 1));
        /* factor level: ranks, adjacency, links, diameters and statuses by BFS inside the factor */
        for (uint32_t d = 0; d < totex_network_dims(net); d++) {
            const totex_factor *f = totex_network_factor(net, d);
            uint32_t m = totex_factor_nodes(f), fdiam = 0, maxdeg = 0;
            uint64_t fdeg = 0, ssum = 0;
            for (uint32_t a = 0; a < m; a++) {
                uint32_t deg = totex_factor_degree(f, a);
                uint64_t st = 0;
                fdeg += deg;
                if (deg > maxdeg)
                    maxdeg = deg;
                for (uint32_t r = 0; r < deg; r++) {
                    uint32_t b = totex_factor_neighbor(f, a, r);
                    assert_true(totex_factor_adjacent(f, a, b));
                    assert_int_equal(totex_factor_neighbor_rank(f, a, b), r);
                }
                /* the factor is the product restricted to one coordinate: read its BFS row
                 * from the product node with all other coordinates 0 */
                for (uint32_t b = 0; b < m; b++) {
                    uint32_t da = dist[(size_t)(a * totex_network_stride(net, d)) * n + b * totex_network_stride(net, d)];
                    assert_int_equal(totex_factor_distance(f, a, b), da);
                    assert_int_equal(!!totex_factor_adjacent(f, a, b), da == 1);
                    st += da;
                    if (da > fdiam)
                        fdiam = da;
                }
                assert_int_equal(totex_factor_status(f, a), st);
                ssum += st;
            }
            assert_int_equal(fdeg, 2 * totex_factor_links(f));
            assert_int_equal(maxdeg, totex_factor_max_degree(f));
            assert_int_equal(fdiam, totex_factor_diameter(f));
            assert_int_equal(ssum, totex_factor_status_sum(f));
        }
        free(dist);
        totex_network_free(net);
    }
}

/* 000 Section 3.1 / 004 Section 3.1: average distance of a generalized hypercube. */
static void test_ghc_average_distance(void **state)
{
    static const char *const specs[] = {"ghc:3x4x5", "ghc:2x3", "ghc:4x4x4", "ghc:7", "ghc:3x3x3x3", "ghc:16x9x5"};
    static const uint32_t sides[][4] = {{3, 4, 5}, {2, 3}, {4, 4, 4}, {7}, {3, 3, 3, 3}, {16, 9, 5}};
    static const uint32_t dims[] = {3, 2, 3, 1, 4, 3};
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        double n = 1, inv = 0;
        for (uint32_t d = 0; d < dims[i]; d++) {
            n *= sides[i][d];
            inv += 1.0 / sides[i][d];
        }
        assert_int_equal(totex_network_nodes(net), (uint32_t)n);
        double formula = n / (n - 1) * (dims[i] - inv);
        if (!close_to(totex_network_average_distance(net), formula))
            fail_msg("%s: average distance %.12g, GHC formula %.12g", specs[i],
                     totex_network_average_distance(net), formula);
        totex_network_free(net);
    }
    /* and the formula agrees with BFS on a small one */
    check_metrics_by_bfs("ghc:3x4x5");
}

static void expect_spec(const char *spec, const char *canonical, uint32_t nodes, uint32_t dims)
{
    totex_network *net = ts_net(spec);
    if (strcmp(totex_network_spec(net), canonical))
        fail_msg("'%s' parsed as '%s', expected '%s'", spec, totex_network_spec(net), canonical);
    assert_int_equal(totex_network_nodes(net), nodes);
    assert_int_equal(totex_network_dims(net), dims);
    totex_network_free(net);
}

static void test_spec_canonical(void **state)
{
    (void)state;
    expect_spec("ring:7*path:5*complete:4", "ring:7*path:5*complete:4", 140, 3);
    expect_spec("ring:2", "k2", 2, 1);
    expect_spec("complete:2", "k2", 2, 1);
    expect_spec("path:2", "path:2", 2, 1);
    expect_spec("k2", "k2", 2, 1);
    expect_spec("line:4", "path:4", 4, 1);
    expect_spec("array:3", "path:3", 3, 1);
    expect_spec("hypercube:3", "k2*k2*k2", 8, 3);
    expect_spec("hypercube:1", "k2", 2, 1);
    expect_spec("torus:4x3", "ring:4*ring:3", 12, 2);
    expect_spec("torus:2x3", "k2*ring:3", 6, 2);
    expect_spec("mesh:16x32", "path:16*path:32", 512, 2);
    expect_spec("ghc:4x2", "complete:4*k2", 8, 2);
    expect_spec(" ring:3 * path:2 ", "ring:3*path:2", 6, 2);
    expect_spec("torus:4X4*k2", "ring:4*ring:4*k2", 32, 3);
    expect_spec("mesh:65535x65535", "path:65535*path:65535", 4294836225u, 2);
    expect_spec("hypercube:31", "k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2",
                UINT32_C(1) << 31, 31);
    {
        totex_network *net = ts_net("ring:2*complete:2*ring:3*complete:3*path:2");
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 0)), TOTEX_FACTOR_K2);
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 1)), TOTEX_FACTOR_K2);
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 2)), TOTEX_FACTOR_RING);
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 3)), TOTEX_FACTOR_COMPLETE);
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 4)), TOTEX_FACTOR_PATH);
        assert_null(totex_network_factor(net, 5));
        assert_int_equal(totex_network_stride(net, 0), 1);
        assert_int_equal(totex_network_stride(net, 1), 2);
        assert_int_equal(totex_network_stride(net, 2), 4);
        assert_int_equal(totex_network_stride(net, 3), 12);
        assert_int_equal(totex_network_stride(net, 4), 36);
        assert_false(totex_network_homogeneous(net));
        totex_network_free(net);
    }
    {
        totex_network *net = ts_net("file:" DATA("net_petersen.graphml"));
        assert_int_equal(totex_factor_get_kind(totex_network_factor(net, 0)), TOTEX_FACTOR_GRAPH);
        assert_int_equal(totex_network_nodes(net), 10);
        assert_int_equal(totex_network_links(net), 15);
        assert_string_equal(totex_factor_name(totex_network_factor(net, 0)), "file:" DATA("net_petersen.graphml"));
        totex_network_free(net);
    }
    {
        totex_network *net = ts_net("file:" DATA("net_star.gml"));
        assert_int_equal(totex_network_nodes(net), 7);
        assert_int_equal(totex_factor_degree(totex_network_factor(net, 0), 0), 6);
        totex_network_free(net);
    }
    {
        totex_network *net = ts_net("torus:4x4x4");
        assert_true(totex_network_homogeneous(net));
        totex_network_free(net);
    }
}

static void test_presets(void **state)
{
    (void)state;
    /* node counts from the shapes quoted in src/network/machines.c */
    expect_spec("fugaku", "ring:24*ring:23*ring:24*k2*ring:3*k2", 158976, 6);
    expect_spec("sequoia", "ring:16*ring:12*ring:16*ring:16*k2", 98304, 5);
    expect_spec("bgq-midplane", "ring:4*ring:4*ring:4*ring:4*k2", 512, 5);
    expect_spec("tpu-v4-cube", "ring:4*ring:4*ring:4", 64, 3);
    expect_spec("ncube2*k2", "k2*k2*k2*k2*k2*k2*k2*k2*k2*k2*k2", 2048, 11);
    for (size_t i = 0; i < totex_machine_count(); i++) {
        const totex_machine *mc = totex_machine_get(i);
        totex_network *a = ts_net(mc->name), *b = ts_net(mc->spec);
        assert_string_equal(totex_network_spec(a), totex_network_spec(b));
        assert_int_equal(totex_network_nodes(a), totex_network_nodes(b));
        totex_network_free(a);
        totex_network_free(b);
    }
}

static void expect_reject(const char *spec)
{
    totex_error err = {{0}};
    totex_network *net = totex_network_parse(spec, &err);
    if (net) {
        totex_network_free(net);
        fail_msg("spec '%s' was accepted", spec ? spec : "(null)");
    }
    if (err.msg[0] == '\0')
        fail_msg("spec '%s' rejected without a message", spec ? spec : "(null)");
}

static void test_spec_rejections(void **state)
{
    static const char *const bad[] = {
        "", "ring", "ring:", "ring:0", "ring:-3", "ring:1", "path:abc", "path:1", "path:3.5", "complete:1",
        "torus:4x", "torus:x4", "torus:", "mesh:4xx4", "ghc:1x3", "foo:3", "foo", "k2:3", "ring:3**path:2", "*ring:3",
        "ring:3*", "ring:99999999999", "ring:65536", "hypercube:0", "hypercube:32",
        "torus:65535x65535x2", /* n exceeds 2^32 - 1 */
        "hypercube:31*k2",     /* n = 2^32 */
        "file:", "file:/nonexistent", "file:" DATA("net_disconnected.edges"), "file:" DATA("net_bad.graphml"),
    };
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_reject(bad[i]);
    expect_reject(NULL);
    {
        /* the messages name what is wrong */
        totex_error err = {{0}};
        assert_null(totex_network_parse("foo:3", &err));
        assert_non_null(strstr(err.msg, "foo"));
        assert_null(totex_network_parse("torus:65535x65535x2", &err));
        assert_non_null(strstr(err.msg, "2^32"));
        assert_null(totex_network_parse("file:" DATA("net_disconnected.edges"), &err));
        assert_non_null(strstr(err.msg, "connected"));
        assert_null(totex_network_parse("ring:1", &err));
        assert_non_null(strstr(err.msg, "ring:1"));
        /* NULL error buffer is accepted */
        assert_null(totex_network_parse("ring:1", NULL));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics_equal_bfs),
        cmocka_unit_test(test_adjacency_consistent),
        cmocka_unit_test(test_ghc_average_distance),
        cmocka_unit_test(test_spec_canonical),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_spec_rejections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
