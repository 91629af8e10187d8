/*
 * k-port (001 Section 7: a node uses at most k of its links per step):
 * the simulator's rules (at most k sends, at most k receives per node per
 * step, one message per directed link), the k-port lower bounds against
 * their formulas computed here from the network alone (S_G by all-pairs BFS,
 * degrees by walking the nodes), and A2 verified under k-port.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* One step of hand-made hops through a fresh simulator; returns its status (fault in *f). */
static totex_status one_step(const char *spec, totex_ports ports, const totex_hop *hops, size_t count,
                             totex_sim_fault *f, char *msg, size_t len)
{
    totex_network *net = ts_net(spec);
    totex_error err = {{0}};
    totex_sim *sim = totex_sim_new(net, ports, 0, &err);
    assert_non_null(sim);
    totex_status st = totex_sim_step(sim, hops, count, &err);
    *f = totex_sim_get_fault(sim);
    snprintf(msg, len, "%s", err.msg);
    totex_sim_free(sim);
    totex_network_free(net);
    return st;
}

/* hypercube:4: node 0's neighbours are 1, 2, 4, 8 (degree 4). */
static void test_sim_sends(void **state)
{
    (void)state;
    const totex_hop four[] = {{0, 1, 0, 1}, {0, 2, 0, 2}, {0, 4, 0, 4}, {0, 8, 0, 8}};
    totex_sim_fault f;
    char msg[512];
    /* k sends accepted, k + 1 rejected naming k */
    assert_int_equal(one_step("hypercube:4", 3, four, 3, &f, msg, sizeof msg), TOTEX_OK);
    assert_int_equal(one_step("hypercube:4", 3, four, 4, &f, msg, sizeof msg), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_VIOL_PORT_SEND);
    assert_int_equal(f.node, 0);
    assert_non_null(strstr(msg, "3-port"));
    assert_non_null(strstr(msg, "k = 3"));
    assert_int_equal(one_step("hypercube:4", 2, four, 2, &f, msg, sizeof msg), TOTEX_OK);
    assert_int_equal(one_step("hypercube:4", 2, four, 3, &f, msg, sizeof msg), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_VIOL_PORT_SEND);
    assert_non_null(strstr(msg, "2-port"));
    /* k = degree: every link at once, like multiport */
    assert_int_equal(one_step("hypercube:4", 4, four, 4, &f, msg, sizeof msg), TOTEX_OK);
    assert_int_equal(one_step("hypercube:4", TOTEX_PORTS_MULTI, four, 4, &f, msg, sizeof msg), TOTEX_OK);
    assert_int_equal(one_step("hypercube:4", TOTEX_PORTS_SINGLE, four, 2, &f, msg, sizeof msg), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_VIOL_PORT_SEND);
}

static void test_sim_receives(void **state)
{
    (void)state;
    /* node 0's four neighbours each send it their own message to 0 */
    const totex_hop four[] = {{1, 0, 1, 0}, {2, 0, 2, 0}, {4, 0, 4, 0}, {8, 0, 8, 0}};
    totex_sim_fault f;
    char msg[512];
    assert_int_equal(one_step("hypercube:4", 3, four, 3, &f, msg, sizeof msg), TOTEX_OK);
    assert_int_equal(one_step("hypercube:4", 3, four, 4, &f, msg, sizeof msg), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_VIOL_PORT_RECV);
    assert_int_equal(f.node, 0);
    assert_non_null(strstr(msg, "3-port"));
    assert_non_null(strstr(msg, "receive"));
    assert_int_equal(one_step("hypercube:4", 4, four, 4, &f, msg, sizeof msg), TOTEX_OK);
}

static void test_sim_link_twice(void **state)
{
    (void)state;
    /* two messages over the directed link 0 -> 1 in one step: a link conflict under k-port */
    const totex_hop two[] = {{0, 1, 0, 1}, {0, 1, 0, 3}};
    totex_sim_fault f;
    char msg[512];
    for (totex_ports k = 2; k <= 5; k++) {
        assert_int_equal(one_step("hypercube:4", k, two, 2, &f, msg, sizeof msg), TOTEX_EVIOLATION);
        assert_int_equal(f.kind, TOTEX_VIOL_LINK_BUSY);
        assert_non_null(strstr(msg, "k-port"));
    }
    /* the reverse direction is another link */
    const totex_hop both[] = {{0, 1, 0, 1}, {1, 0, 1, 0}};
    assert_int_equal(one_step("hypercube:4", 2, both, 2, &f, msg, sizeof msg), TOTEX_OK);
}

/* A whole k-port schedule: k-port accepts what single-port accepts (it is a relaxation). */
static void test_sim_accepts_single_port_schedules(void **state)
{
    (void)state;
    const char *specs[] = {"torus:3x4", "mesh:3x3", "hypercube:3", "ring:5*path:3"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_schedule *s = ts_record(net, TOTEX_PORTS_SINGLE, "a2");
        totex_sim_report single, kp;
        totex_error err;
        assert_int_equal(ts_simulate(net, TOTEX_PORTS_SINGLE, s, &single, &err), TOTEX_OK);
        for (totex_ports k = 2; k <= 4; k++) {
            if (ts_simulate(net, k, s, &kp, &err) != TOTEX_OK)
                fail_msg("%s %u-port: %s", specs[i], (unsigned)k, err.msg);
            assert_int_equal(kp.steps, single.steps);
            assert_int_equal(kp.hops, single.hops);
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* Every k-port bound equals its formula, computed here from the network alone. */
static void check_bounds(const char *spec, uint32_t k)
{
    totex_network *net = ts_net(spec);
    uint32_t n = totex_network_nodes(net), *dist = ts_bfs_all_pairs(net), nb[4096];
    uint64_t sg = 0, cap = 0;
    uint32_t dmin = UINT32_MAX;
    char word[32];
    for (uint64_t i = 0; i < (uint64_t)n * n; i++)
        sg += dist[i];
    for (uint32_t v = 0; v < n; v++) {
        uint32_t d = totex_network_neighbors(net, v, nb);
        cap += d < k ? d : k;
        if (d < dmin)
            dmin = d;
    }
    totex_bound b[TOTEX_MAX_BOUNDS], m[TOTEX_MAX_BOUNDS], s1[TOTEX_MAX_BOUNDS];
    size_t count, best, mc, mbest, sc, sbest;
    totex_error err = {{0}};
    if (totex_bounds_compute(net, k, b, &count, &best, &err) != TOTEX_OK)
        fail_msg("%s k=%u: %s", spec, k, err.msg);
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, m, &mc, &mbest, &err), TOTEX_OK);
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, s1, &sc, &sbest, &err), TOTEX_OK);
    snprintf(word, sizeof word, "%u-port", k);
    /* forwarding (weighted nodes, min(k, deg v) sends and receives per step) on networks with a path or graph
       factor, not on a path alone nor on vertex-transitive ones: tests/test_forwarding_bound.c checks its value */
    {
        totex_bound fw;
        totex_status fst = totex_bound_forwarding_ports(net, k, NULL, &fw, &err);
        assert_int_equal(count, fst == TOTEX_OK ? 5 : 4);
        if (fst == TOTEX_OK) {
            assert_int_equal(b[4].kind, TOTEX_BOUND_FORWARDING);
            assert_int_equal(b[4].value, fw.value);
            assert_non_null(strstr(b[4].witness, word));
        }
    }
    assert_int_equal(b[0].kind, TOTEX_BOUND_AVERAGE_STATUS);
    assert_int_equal(b[1].kind, TOTEX_BOUND_CUT);
    assert_int_equal(b[2].kind, TOTEX_BOUND_RECEIVE);
    assert_int_equal(b[3].kind, TOTEX_BOUND_RELAY);
    /* average status: at most sum_v min(k, deg v) link traversals per step */
    if (b[0].value != ceil_div(sg, cap))
        fail_msg("%s k=%u: average-status %llu, expected ceil(%llu / %llu)", spec, k, (unsigned long long)b[0].value,
                 (unsigned long long)sg, (unsigned long long)cap);
    if (cap == (uint64_t)n * k)
        assert_non_null(strstr(b[0].witness, "n*k"));
    assert_non_null(strstr(b[0].witness, word));
    /* cut: the multiport cut bound, unchanged */
    assert_int_equal(b[1].value, m[0].value);
    assert_string_equal(b[1].witness, m[0].witness);
    /* receive: ceil((n-1) / min(k, d_min)) */
    assert_int_equal(b[2].value, ceil_div(n - 1, k < dmin ? k : dmin));
    assert_non_null(strstr(b[2].witness, "min(k, d_min)"));
    /* relay: the single-port relay count over min(k, degree of its node) */
    uint32_t node = 0;
    if (totex_network_dims(net) == 1)
        assert_int_equal(totex_factor_max_separated(totex_network_factor(net, 0), &node, NULL, NULL, &err), TOTEX_OK);
    uint32_t dn = totex_network_neighbors(net, node, nb);
    assert_int_equal(b[3].value, ceil_div(s1[3].value, dn < k ? dn : k));
    assert_non_null(strstr(b[3].witness, word));
    /* every bound is at most single-port's and at least multiport's */
    for (size_t i = 0; i < count; i++)
        assert_true(b[i].value <= s1[sbest].value);
    assert_true(b[best].value >= m[mbest].value);
    free(dist);
    totex_network_free(net);
}

static void test_bounds_formulas(void **state)
{
    (void)state;
    char star[512], tree[512], pet[512];
    snprintf(star, sizeof star, "file:%s/net_star.gml", TOTEX_TEST_DATA);
    snprintf(tree, sizeof tree, "file:%s/greedy_tree10.edges", TOTEX_TEST_DATA);
    snprintf(pet, sizeof pet, "file:%s/net_petersen.graphml", TOTEX_TEST_DATA);
    const char *specs[] = {"path:6", "ring:7", "mesh:3x4", "torus:3x4", "hypercube:3", "ghc:3x3",
                           "ring:5*path:3", "complete:5", "mesh:2x3x4", star, tree, pet};
    const uint32_t ks[] = {2, 3, 5, 64};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (size_t j = 0; j < sizeof ks / sizeof *ks; j++)
            check_bounds(specs[i], ks[j]);
}

/* 001 Section 7: on a vertex-transitive network the average-status bound is ceil(sigma / k). */
static void test_bounds_vertex_transitive(void **state)
{
    (void)state;
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    /* hypercube:6: sigma = d 2^(d-1) = 192 hops per node; k = 4: 48 */
    totex_network *net = ts_net("hypercube:6");
    assert_int_equal(totex_bounds_compute(net, 4, b, &count, &best, NULL), TOTEX_OK);
    assert_int_equal(b[0].value, 48);
    assert_int_equal(b[best].value, 48);
    totex_network_free(net);
    /* 10x10x10 torus, 3-port: sigma = 1000 * 7.5 = 7500 per node: 2500 */
    net = ts_net("torus:10x10x10");
    assert_int_equal(totex_bounds_compute(net, 3, b, &count, &best, NULL), TOTEX_OK);
    assert_int_equal(b[0].value, 2500);
    totex_network_free(net);
}

static void test_bounds_bad_k(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:5");
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count = 9, best = 9;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MAX_K + 1, b, &count, &best, &err), TOTEX_EINVAL);
    assert_int_equal(count, 0);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MAX_K, b, &count, &best, &err), TOTEX_OK);
    totex_network_free(net);
}

/*
 * A2 under k-port (k >= 2): paths and rings take their multiport factor
 * schedules, complete graphs their rounds k a step; the simulator replays each
 * under k-port, and the steps are 004 Corollary 2, T = n * sum_i T_i / m_i,
 * with the factor times of the papers' closed forms, worked by hand: path
 * ceil((m^2-1)/4) (003 Theorem 1), ring ceil((m^2-1)/8) (003 Theorems 2, 3),
 * complete ceil((m-1)/k), K2 1. A3 is multiport only.
 */
static void test_a2_kport(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        uint64_t k2, k3; /* A2's steps under 2-port and 3-port */
    } cases[] = {
        {"torus:4x4", 16, 16},                   /* 16 (2/4 + 2/4) */
        {"mesh:3x5", 28, 28},                    /* 15 (2/3 + 6/5) */
        {"hypercube:5", 80, 80},                 /* 32 * 5 / 2 */
        {"ghc:3x4", 10, 7},                      /* 12 (1/3 + 2/4); 12 (1/3 + 1/4) */
        {"ring:5*path:3*complete:4", 106, 91},   /* 12*3 + 20*2 + 15*2; 12*3 + 20*2 + 15*1 */
        {"tpu-v4-cube", 96, 96},                 /* 3 * 16 * 2 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        totex_sim_report single, rep;
        uint64_t predicted;
        ts_plan_ok(cases[i].spec, TOTEX_PORTS_SINGLE, "a2", &single, NULL);
        for (totex_ports k = 2; k <= 3; k++) {
            ts_plan_ok(cases[i].spec, k, "a2", &rep, &predicted);
            assert_int_equal(rep.steps, k == 2 ? cases[i].k2 : cases[i].k3);
            assert_int_equal(predicted, rep.steps);
            assert_true(rep.steps <= single.steps);
        }
    }
    totex_network *net = ts_net("torus:4x4");
    totex_error err = {{0}};
    const totex_algorithm *a3 = totex_algorithm_find("a3", &err);
    assert_non_null(a3);
    assert_int_equal(a3->applies(net, 2, &err), TOTEX_ENOTAPPLICABLE);
    totex_network_free(net);
}

/* Reports name the model: "3-port" in text, "ports" and "k" in JSON. */
static void test_reports(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:4x4");
    totex_plan_result res;
    totex_error err = {{0}};
    char *json;
    char buf[32];
    assert_string_equal(totex_ports_format(3, buf, sizeof buf), "3-port");
    assert_string_equal(totex_ports_format(TOTEX_PORTS_SINGLE, buf, sizeof buf), "single-port");
    assert_string_equal(totex_ports_format(TOTEX_PORTS_MULTI, buf, sizeof buf), "multiport");
    assert_int_equal(totex_plan_and_verify(net, 3, totex_algorithm_find("a2", NULL), 0, &res, &err), TOTEX_OK);
    json = totex_report_plan_json(&res);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"ports\":\"3-port\""));
    assert_non_null(strstr(json, "\"k\":3"));
    free(json);
    json = totex_report_bounds_json(net, NULL, TOTEX_PORTS_MULTI, &err);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"ports\":\"multiport\""));
    assert_non_null(strstr(json, "\"k\":0"));
    free(json);
    json = totex_report_bounds_json(net, NULL, TOTEX_PORTS_SINGLE, &err);
    assert_non_null(strstr(json, "\"ports\":\"single-port\""));
    assert_non_null(strstr(json, "\"k\":1"));
    free(json);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sim_sends),
        cmocka_unit_test(test_sim_receives),
        cmocka_unit_test(test_sim_link_twice),
        cmocka_unit_test(test_sim_accepts_single_port_schedules),
        cmocka_unit_test(test_bounds_formulas),
        cmocka_unit_test(test_bounds_vertex_transitive),
        cmocka_unit_test(test_bounds_bad_k),
        cmocka_unit_test(test_a2_kport),
        cmocka_unit_test(test_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
