/*
 * Balanced-ports (src/algorithms/balanced_ports.c):
 * k-port products with a path, and single-port products mixing a path with
 * rings or complete graphs. Every schedule is replayed in full by the
 * simulator (an independent check of every hop, port and link); its steps
 * must
 *  - equal its prediction and never go below the best lower bound;
 *  - equal the exact optimum (the integer program of src/exact, solved here)
 *    on path:3*path:3 k:2, path:3*ring:3 single-port and k:2;
 *  - beat greedy (001 Section 5), planned and simulated here, on meshes and
 *    mixed products under k:2 and k:3, and greedy and A2 single-port;
 *  - stay within 1.15 of the best bound on mesh:16x16 under k:2 (greedy:
 *    1.5 x);
 * and the automatic choice must do at least as well; it applies where its
 * header says and nowhere else.
 */
#include <string.h>

#include "support.h"

static uint64_t steps_of(const char *spec, totex_ports ports, const char *algo, uint64_t *bound)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    const totex_algorithm *a = algo ? totex_algorithm_find(algo, &err) : NULL;
    totex_plan_result res;
    if (algo)
        assert_non_null(a);
    if (totex_plan_and_verify(net, ports, a, 0, &res, &err) != TOTEX_OK)
        fail_msg("%s on %s: %s", algo ? algo : "auto", spec, err.msg);
    assert_true(res.verified);
    assert_true(res.full_simulation);
    if (algo)
        assert_int_equal(res.predicted_steps, res.sim.steps);
    if (bound)
        *bound = res.bounds[res.best_bound].value;
    const uint64_t steps = res.sim.steps;
    totex_plan_result_release(&res);
    totex_network_free(net);
    return steps;
}

static void never_below_the_bound(void **state)
{
    (void)state;
    const struct {
        const char *spec;
        totex_ports ports;
    } cases[] = {{"mesh:3x4", 2},           {"mesh:3x4", 3},          {"path:4*ring:5", 1}, {"path:4*ring:5", 2},
                 {"path:4*ring:5", 3},      {"path:3*complete:4", 1}, {"k2*path:5", 2},     {"mesh:3x2x4", 2},
                 {"ring:6*path:3", 3},      {"path:5*ring:4*k2", 2},  {"mesh:4x5", 4},      {"ring:4*path:3", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t bound, s = steps_of(cases[i].spec, cases[i].ports, "balanced-ports", &bound);
        if (s < bound)
            fail_msg("%s %u-port: %llu steps below the bound %llu", cases[i].spec, (unsigned)cases[i].ports,
                     (unsigned long long)s, (unsigned long long)bound);
    }
}

static void meets_the_exact_optimum(void **state)
{
    (void)state;
    if (!totex_exact_solvers()[0])
        skip();
    const struct {
        const char *spec;
        totex_ports ports;
    } cases[] = {{"path:3*path:3", 2}, {"path:3*ring:3", 1}, {"path:3*ring:3", 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        totex_exact_options opt = {0};
        totex_exact_result r;
        totex_error err = {{0}};
        memset(&r, 0, sizeof r);
        opt.time_limit = 60;
        opt.no_upper = 1; /* the solver's own schedules: not balanced-ports' */
        if (totex_exact_solve(net, cases[i].ports, &opt, &r, &err) != TOTEX_OK)
            fail_msg("%s: exact search: %s", cases[i].spec, err.msg);
        assert_true(r.optimal);
        uint64_t s = steps_of(cases[i].spec, cases[i].ports, "balanced-ports", NULL);
        if (s != r.steps)
            fail_msg("%s %u-port: balanced-ports %llu, exact optimum %llu", cases[i].spec, (unsigned)cases[i].ports,
                     (unsigned long long)s, (unsigned long long)r.steps);
        totex_exact_result_free(&r);
        totex_network_free(net);
    }
}

static void beats_greedy(void **state)
{
    (void)state;
    const struct {
        const char *spec;
        totex_ports ports;
    } cases[] = {{"mesh:8x8", 2},     {"mesh:8x8", 3},          {"mesh:5x6", 2},         {"path:6*ring:6", 2},
                 {"path:5*ring:5", 3}, {"path:5*complete:5", 2}, {"path:6*ring:5", 1},    {"path:5*complete:4", 1},
                 {"mesh:3x4x5", 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t bound, bp = steps_of(cases[i].spec, cases[i].ports, "balanced-ports", &bound);
        uint64_t gr = steps_of(cases[i].spec, cases[i].ports, "greedy", NULL);
        uint64_t a2 = cases[i].ports == TOTEX_PORTS_SINGLE ? steps_of(cases[i].spec, cases[i].ports, "a2", NULL) : UINT64_MAX;
        if (bp >= gr || bp >= a2)
            fail_msg("%s %u-port: balanced-ports %llu, greedy %llu, a2 %llu (bound %llu)", cases[i].spec,
                     (unsigned)cases[i].ports, (unsigned long long)bp, (unsigned long long)gr,
                     (unsigned long long)a2, (unsigned long long)bound);
        /* the automatic choice is at least as good */
        assert_true(steps_of(cases[i].spec, cases[i].ports, NULL, NULL) <= bp);
    }
}

static void near_the_bound_on_a_large_mesh(void **state)
{
    (void)state;
    uint64_t bound, s = steps_of("mesh:16x16", 2, "balanced-ports", &bound);
    if ((double)s > 1.15 * (double)bound)
        fail_msg("mesh:16x16 2-port: %llu steps, bound %llu", (unsigned long long)s, (unsigned long long)bound);
}

static void applies(void **state)
{
    (void)state;
    const totex_algorithm *a = totex_algorithm_find("balanced-ports", NULL);
    assert_non_null(a);
    const struct {
        const char *spec;
        totex_ports ports;
        int yes;
    } cases[] = {{"mesh:4x4", 2, 1},      {"path:3*ring:4", 1, 1},  {"path:3*complete:5", 3, 1}, {"mesh:4x4", 1, 0},
                 {"mesh:4x4", 0, 0},      {"torus:4x4", 2, 0},      {"path:9", 2, 0},            {"ghc:3x3", 1, 0},
                 {"path:2*ring:5", 2, 0}, {"mesh:32x64", 2, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        totex_error err = {{0}};
        totex_status st = a->applies(net, cases[i].ports, &err);
        if ((st == TOTEX_OK) != cases[i].yes)
            fail_msg("%s %u-port: applies says %d (%s)", cases[i].spec, (unsigned)cases[i].ports, st, err.msg);
        if (st != TOTEX_OK)
            assert_true(strlen(err.msg) > 0);
        totex_network_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_below_the_bound),
        cmocka_unit_test(meets_the_exact_optimum),
        cmocka_unit_test(beats_greedy),
        cmocka_unit_test(near_the_bound_on_a_large_mesh),
        cmocka_unit_test(applies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
