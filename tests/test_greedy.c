/*
 * The greedy algorithm (src/algorithms/greedy.c; 001 Sections 5, 7, 8.3;
 * 003 Section 3): simulated in full under every port model on meshes, tori,
 * hypercubes, generalized hypercubes, mixed products and graphs read from
 * files; never below the best lower bound; predict equals the plan; under
 * multiport on tori within 001's h_r + h_c - 1 (h_c computed here from the
 * task matrix's column sums), including 001's 10x10x10 example (optimum 1250,
 * greedy at most 1265); better than A2 under multiport on meshes and 3-D tori.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support.h"

static const totex_ports models[] = {TOTEX_PORTS_SINGLE, 2, 3, TOTEX_PORTS_MULTI};

static uint64_t best_bound(const char *spec, totex_ports ports)
{
    totex_network *net = ts_net(spec);
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err = {{0}};
    if (totex_bounds_compute(net, ports, b, &count, &best, &err) != TOTEX_OK)
        fail_msg("%s: %s", spec, err.msg);
    totex_network_free(net);
    return b[best].value;
}

/* Plan, simulate in full; steps >= the best bound, prediction = steps, hops = S_G (shortest paths). */
static uint64_t greedy_ok(const char *spec, totex_ports ports)
{
    totex_sim_report rep;
    uint64_t predicted, lb = best_bound(spec, ports), sg;
    totex_network *net = ts_net(spec);
    ts_plan_ok(spec, ports, "greedy", &rep, &predicted);
    if (rep.steps < lb || predicted != rep.steps)
        fail_msg("%s ports %u: greedy %llu steps, predicted %llu, best bound %llu", spec, (unsigned)ports,
                 (unsigned long long)rep.steps, (unsigned long long)predicted, (unsigned long long)lb);
    assert_int_equal(totex_network_status_sum(net, &sg, NULL), TOTEX_OK);
    assert_int_equal(rep.hops, sg); /* every message along a shortest path */
    assert_int_equal(rep.messages, totex_network_messages(net));
    totex_network_free(net);
    return rep.steps;
}

static void test_every_model(void **state)
{
    (void)state;
    const char *specs[] = {"path:2",   "path:7",      "ring:3",    "ring:8",       "k2",        "complete:5",
                           "mesh:4x4", "mesh:3x5",    "mesh:2x3x4", "torus:4x4",   "torus:3x5", "torus:4x4x4",
                           "ring:6*ring:4", "hypercube:4", "ghc:3x4", "ghc:2x3x4", "ring:5*path:3*complete:4",
                           "path:4*k2", "ring:4*path:3*ring:6", "complete:3*path:5"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (size_t j = 0; j < sizeof models / sizeof *models; j++)
            greedy_ok(specs[i], models[j]);
}

static void test_file_graphs(void **state)
{
    (void)state;
    const char *files[] = {"greedy_barbell.edges", "greedy_grid3x4.edges", "greedy_path9.edges",
                           "greedy_petersen.edges", "greedy_star6.edges", "greedy_tree10.edges",
                           "net_petersen.graphml", "net_star.gml", "net_tree.edges"};
    char spec[1200];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        for (size_t j = 0; j < sizeof models / sizeof *models; j++) {
            snprintf(spec, sizeof spec, "file:%s/%s", TOTEX_TEST_DATA, files[i]);
            greedy_ok(spec, models[j]);
        }
    /* a file graph in a product with regular factors */
    snprintf(spec, sizeof spec, "file:%s/greedy_petersen.edges*ring:4", TOTEX_TEST_DATA);
    for (size_t j = 0; j < sizeof models / sizeof *models; j++)
        greedy_ok(spec, models[j]);
    snprintf(spec, sizeof spec, "path:3*file:%s/greedy_tree10.edges", TOTEX_TEST_DATA);
    for (size_t j = 0; j < sizeof models / sizeof *models; j++)
        greedy_ok(spec, models[j]);
}

/*
 * h_c of total exchange on a torus (001 Section 8.1): the largest column sum
 * of the task matrix. Column i+ of a ring of m nodes: every packet whose
 * offset delta in dimension i is below m/2 crosses delta i+ links, for each
 * of the n/m values of its other offsets; for m even the n/m antipodal
 * packets (delta = m/2) are split between i+ and i-, |A+| = ceil(n/(2m)),
 * each crossing m/2 links.
 */
static uint64_t torus_hc(const uint32_t *m, uint32_t dims)
{
    uint64_t n = 1, hc = 0;
    for (uint32_t i = 0; i < dims; i++)
        n *= m[i];
    for (uint32_t i = 0; i < dims; i++) {
        uint64_t other = n / m[i], half = (m[i] - 1) / 2, col = other * (half * (half + 1) / 2);
        if (m[i] % 2 == 0)
            col += (other + 1) / 2 * (m[i] / 2);
        if (col > hc)
            hc = col;
    }
    return hc;
}

static void check_torus(const uint32_t *m, uint32_t dims)
{
    char spec[64] = "torus:";
    uint64_t hr = 0;
    for (uint32_t i = 0; i < dims; i++) {
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), i ? "x%u" : "%u", m[i]);
        hr += m[i] / 2; /* the diameter: the largest row sum */
    }
    uint64_t hc = torus_hc(m, dims), steps = greedy_ok(spec, TOTEX_PORTS_MULTI);
    if (steps > hr + hc - 1)
        fail_msg("%s: greedy %llu steps > h_r + h_c - 1 = %llu + %llu - 1", spec, (unsigned long long)steps,
                 (unsigned long long)hr, (unsigned long long)hc);
    /* greedy is a symmetric scheme with these tags: it cannot beat the critical sum (001 Theorem 9) */
    assert_true(steps >= hc);
}

/* Sides 3..8, 1..3 dimensions (3 dimensions: equal sides, and one mixed). */
static void test_torus_sweep(void **state)
{
    (void)state;
    for (uint32_t a = 3; a <= 8; a++) {
        uint32_t m1[1] = {a};
        check_torus(m1, 1);
        for (uint32_t b = 3; b <= 8; b++) {
            uint32_t m2[2] = {a, b};
            check_torus(m2, 2);
        }
        uint32_t m3[3] = {a, a, a};
        check_torus(m3, 3);
    }
    uint32_t mixed[3] = {3, 4, 6};
    check_torus(mixed, 3);
}

/* 001 Section 8.3: n = 1000, d = 3: the optimum is 1250, any greedy algorithm takes at most 1265. */
static void test_001_example(void **state)
{
    (void)state;
    uint32_t m[3] = {10, 10, 10};
    clock_t t0 = clock();
    uint64_t steps = greedy_ok("torus:10x10x10", TOTEX_PORTS_MULTI);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_int_equal(torus_hc(m, 3), 1250);
    assert_int_equal(best_bound("torus:10x10x10", TOTEX_PORTS_MULTI), 1250);
    assert_true(steps >= 1250);
    assert_true(steps <= 1265);
    printf("torus:10x10x10 multiport: greedy %llu steps (optimum 1250, 001's greedy bound 1265), %.2f s with full "
           "simulation\n",
           (unsigned long long)steps, secs);
}

/* Greedy against A2 and the cut bound: meshes 4x4 .. 16x16 (both models) and 3-D tori (multiport). */
static void test_meshes_and_a2(void **state)
{
    (void)state;
    for (uint32_t m = 4; m <= 16; m += 2) {
        char spec[32];
        snprintf(spec, sizeof spec, "mesh:%ux%u", m, m);
        for (int multi = 1; multi >= 0; multi--) {
            totex_ports ports = multi ? TOTEX_PORTS_MULTI : TOTEX_PORTS_SINGLE;
            totex_sim_report a2;
            uint64_t g = greedy_ok(spec, ports), lb = best_bound(spec, ports);
            ts_plan_ok(spec, ports, "a2", &a2, NULL);
            printf("%-12s %-11s greedy %5llu  a2 %5llu  best bound %5llu  greedy/bound %.3f\n", spec,
                   multi ? "multiport" : "single-port", (unsigned long long)g, (unsigned long long)a2.steps,
                   (unsigned long long)lb, (double)g / (double)lb);
            if (multi) {
                assert_true(g < a2.steps);
                assert_true(g * 100 <= lb * 115); /* within 15% of the cut bound */
            }
        }
    }
    const char *tori[] = {"torus:4x4x4", "torus:5x5x5", "torus:6x6x6", "torus:3x4x5"};
    for (size_t i = 0; i < sizeof tori / sizeof *tori; i++) {
        totex_sim_report a2;
        uint64_t g = greedy_ok(tori[i], TOTEX_PORTS_MULTI);
        ts_plan_ok(tori[i], TOTEX_PORTS_MULTI, "a2", &a2, NULL);
        assert_true(g < a2.steps);
    }
}

/* Single-port on vertex-transitive products: every node sends every step, so the average-status bound. */
static void test_single_port_symmetric(void **state)
{
    (void)state;
    const char *specs[] = {"torus:4x4", "torus:5x3", "hypercube:5", "ghc:3x4", "ring:7", "complete:6*ring:4"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        uint64_t g = greedy_ok(specs[i], TOTEX_PORTS_SINGLE);
        totex_network *net = ts_net(specs[i]);
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t count, best;
        assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, NULL), TOTEX_OK);
        assert_int_equal(g, b[0].value);
        totex_network_free(net);
    }
}

static void test_registry_and_limits(void **state)
{
    (void)state;
    totex_error err = {{0}};
    const totex_algorithm *g = totex_algorithm_find("greedy", &err);
    uint64_t steps = 0;
    assert_non_null(g);
    assert_non_null(strstr(g->source, "001"));
    totex_network *net = ts_net("fugaku");
    assert_int_equal(g->applies(net, TOTEX_PORTS_MULTI, &err), TOTEX_OK);
    clock_t t0 = clock();
    assert_int_equal(g->predict(net, TOTEX_PORTS_MULTI, &steps, &err), TOTEX_ENOMEM); /* refused, quickly */
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
    assert_non_null(strstr(err.msg, "totex bounds"));
    totex_network_free(net);
    net = ts_net("ring:5");
    assert_int_equal(g->applies(net, TOTEX_PORTS_MAX_K + 1, &err), TOTEX_EINVAL);
    /* predict runs the schedule; a second call (memo) and the plan agree */
    uint64_t a = 0, b = 0;
    assert_int_equal(g->predict(net, 2, &a, &err), TOTEX_OK);
    assert_int_equal(g->predict(net, 2, &b, &err), TOTEX_OK);
    assert_int_equal(a, b);
    totex_network_free(net);
}

/*
 * predict runs greedy counting only (bucket sizes, no sources): its count
 * must equal the steps the simulator replays of the full plan. The memo is
 * reset first (a prediction of another network), so the count-only run
 * happens; meshes (every node its own unit) and symmetric products, all port
 * models.
 */
static void test_count_only_predict(void **state)
{
    (void)state;
    static const char *specs[] = {"mesh:3x4", "mesh:6x8", "mesh:3x3x3", "mesh:2x3x4", "torus:5x6", "hypercube:4",
                                  "ring:6*path:5", "complete:4*path:3"};
    static const totex_ports ports[] = {TOTEX_PORTS_SINGLE, 2, 3, TOTEX_PORTS_MULTI};
    totex_error err = {{0}};
    const totex_algorithm *g = totex_algorithm_find("greedy", &err);
    assert_non_null(g);
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (size_t j = 0; j < sizeof ports / sizeof *ports; j++) {
            uint64_t other = 0, predicted = 0;
            totex_network *reset = ts_net("ring:3"), *net = ts_net(specs[i]);
            assert_int_equal(g->predict(reset, ports[j], &other, &err), TOTEX_OK);
            assert_int_equal(g->predict(net, ports[j], &predicted, &err), TOTEX_OK);
            totex_sim_report rep;
            ts_plan_ok(specs[i], ports[j], "greedy", &rep, NULL);
            if (predicted != rep.steps)
                fail_msg("%s ports %u: count-only predict %llu steps, simulator %llu", specs[i], (unsigned)ports[j],
                         (unsigned long long)predicted, (unsigned long long)rep.steps);
            totex_network_free(reset);
            totex_network_free(net);
        }
}

/*
 * The multiport rule checked step by step against BFS distances
 * (ts_bfs_all_pairs), independently of greedy's tables: every hop moves a
 * message one hop closer from where it is, each directed link carries at
 * most one message per step, and at the end of each step, for every message
 * that stayed at u and every link u -> v that would bring it closer: the
 * link was used (non-wasting, 001 Section 5) by a message at least as far
 * from its destination (furthest first, 003 Section 3). Networks without
 * even rings (whose antipodal messages are tagged to one direction).
 */
typedef struct rule_check {
    uint32_t n, *dist, *loc, *nb, *nbo;
    uint8_t *used;     /* n * n: 1 + the distance of the message over link (u, v) this step, 0: unused */
    uint8_t *sent;     /* n * n: the message (src, dst) moved this step */
    uint64_t steps, hops;
    char spec[160];
} rule_check;

static totex_status rule_step(void *ctx, const totex_hop *h, size_t count, totex_error *err)
{
    (void)err;
    rule_check *c = ctx;
    const uint32_t n = c->n;
    memset(c->used, 0, (size_t)n * n);
    memset(c->sent, 0, (size_t)n * n);
    for (size_t i = 0; i < count; i++) {
        const size_t m = (size_t)h[i].src * n + h[i].dst, l = (size_t)h[i].from * n + h[i].to;
        if (c->loc[m] != h[i].from || c->sent[m] || c->used[l] ||
            c->dist[(size_t)h[i].to * n + h[i].dst] + 1 != c->dist[(size_t)h[i].from * n + h[i].dst])
            fail_msg("%s step %llu: hop %u -> %u of message %u -> %u breaks the rules (held at %u)", c->spec,
                     (unsigned long long)c->steps + 1, h[i].from, h[i].to, h[i].src, h[i].dst, c->loc[m]);
        c->sent[m] = 1;
        c->used[l] = (uint8_t)(1 + c->dist[(size_t)h[i].from * n + h[i].dst]);
    }
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++) {
            const size_t m = (size_t)s * n + d;
            const uint32_t u = c->loc[m], du = c->dist[(size_t)u * n + d];
            if (u == d || c->sent[m])
                continue;
            for (uint32_t r = c->nbo[u]; r < c->nbo[u + 1]; r++) {
                const uint32_t v = c->nb[r], used = c->used[(size_t)u * n + v];
                if (c->dist[(size_t)v * n + d] + 1 != du)
                    continue;
                if (!used || used - 1 < du)
                    fail_msg("%s step %llu: message %u -> %u (distance %u) waits at %u while link %u -> %u %s",
                             c->spec, (unsigned long long)c->steps + 1, s, d, du, u, u, v,
                             used ? "carries a nearer message" : "is idle");
            }
        }
    for (size_t i = 0; i < count; i++)
        c->loc[(size_t)h[i].src * n + h[i].dst] = h[i].to;
    c->steps++;
    c->hops += count;
    return TOTEX_OK;
}

static void check_multiport_rule(const char *spec)
{
    totex_network *net = ts_net(spec);
    const uint32_t n = totex_network_nodes(net);
    rule_check c = {.n = n, .dist = ts_bfs_all_pairs(net)};
    snprintf(c.spec, sizeof c.spec, "%s", spec);
    c.loc = malloc(sizeof *c.loc * n * n);
    c.nbo = malloc(sizeof *c.nbo * (n + 1));
    c.nb = malloc(sizeof *c.nb * n * n);
    c.used = malloc((size_t)n * n);
    c.sent = malloc((size_t)n * n);
    assert_true(c.dist && c.loc && c.nbo && c.nb && c.used && c.sent);
    c.nbo[0] = 0;
    for (uint32_t u = 0; u < n; u++)
        c.nbo[u + 1] = c.nbo[u] + totex_network_neighbors(net, u, c.nb + c.nbo[u]);
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++)
            c.loc[(size_t)s * n + d] = s;
    totex_error err = {{0}};
    const totex_algorithm *g = totex_algorithm_find("greedy", &err);
    uint64_t predicted = 0, sg = 0;
    assert_non_null(g);
    assert_int_equal(g->plan(net, TOTEX_PORTS_MULTI, (totex_sink){rule_step, &c}, &err), TOTEX_OK);
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++)
            if (c.loc[(size_t)s * n + d] != d)
                fail_msg("%s: message %u -> %u ends at %u", spec, s, d, c.loc[(size_t)s * n + d]);
    assert_int_equal(totex_network_status_sum(net, &sg, NULL), TOTEX_OK);
    assert_int_equal(c.hops, sg);
    assert_int_equal(g->predict(net, TOTEX_PORTS_MULTI, &predicted, &err), TOTEX_OK);
    assert_int_equal(predicted, c.steps);
    free(c.dist);
    free(c.loc);
    free(c.nbo);
    free(c.nb);
    free(c.used);
    free(c.sent);
    totex_network_free(net);
}

static void test_multiport_rule(void **state)
{
    (void)state;
    static const char *specs[] = {"mesh:2x2", "mesh:3x4", "mesh:5x7", "mesh:8x8", "mesh:2x3x4", "mesh:3x3x3",
                                  "path:9", "torus:3x5", "torus:5x5", "ring:5*path:4", "path:3*complete:4",
                                  "hypercube:4", "ghc:3x4", "path:4*k2*path:3"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        check_multiport_rule(specs[i]);
    const char *files[] = {"greedy_grid3x4.edges", "greedy_tree10.edges", "greedy_petersen.edges"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char spec[1200];
        snprintf(spec, sizeof spec, "file:%s/%s", TOTEX_TEST_DATA, files[i]);
        check_multiport_rule(spec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_model),
        cmocka_unit_test(test_file_graphs),
        cmocka_unit_test(test_torus_sweep),
        cmocka_unit_test(test_001_example),
        cmocka_unit_test(test_meshes_and_a2),
        cmocka_unit_test(test_single_port_symmetric),
        cmocka_unit_test(test_registry_and_limits),
        cmocka_unit_test(test_count_only_predict),
        cmocka_unit_test(test_multiport_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
