/*
 * Load-greedy (src/algorithms/load_greedy.c): single-port
 * meshes. Every schedule is replayed in full by the simulator; it must beat
 * A2 (000 Section 4) and greedy (001 Section 5), both planned and simulated
 * here, never go below the best lower bound (src/bounds, incl. the band bound),
 * and stay within 1.25 of that bound on touchstone-delta (16 x 32).
 */
#include "support.h"

static uint64_t steps_of(const char *spec, const char *algo, uint64_t *bound)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    const totex_algorithm *a = totex_algorithm_find(algo, &err);
    totex_plan_result res;
    assert_non_null(a);
    if (totex_plan_and_verify(net, TOTEX_PORTS_SINGLE, a, 0, &res, &err) != TOTEX_OK)
        fail_msg("%s on %s: %s", algo, spec, err.msg);
    assert_true(res.verified);
    assert_true(res.full_simulation);
    assert_int_equal(res.predicted_steps, res.sim.steps);
    if (bound)
        *bound = res.bounds[res.best_bound].value;
    totex_network_free(net);
    return res.sim.steps;
}

static void beats_a2_and_greedy(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x4", "mesh:4x6", "mesh:8x16", "mesh:2x5", "mesh:5x7", "mesh:6x6"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        uint64_t bound, lg = steps_of(specs[i], "load-greedy", &bound);
        uint64_t a2 = steps_of(specs[i], "a2", NULL), gr = steps_of(specs[i], "greedy", NULL);
        if (lg >= a2 || lg > gr || lg < bound)
            fail_msg("%s: load-greedy %llu, a2 %llu, greedy %llu, bound %llu", specs[i], (unsigned long long)lg,
                     (unsigned long long)a2, (unsigned long long)gr, (unsigned long long)bound);
    }
    /* never worse than A2 on the smallest ones either, and valid on 3-D meshes and paths */
    uint64_t bound;
    assert_true(steps_of("mesh:3x3", "load-greedy", &bound) < steps_of("mesh:3x3", "a2", NULL));
    assert_true(steps_of("mesh:3x2x4", "load-greedy", &bound) >= bound);
    assert_true(steps_of("path:7", "load-greedy", &bound) >= bound);
}

static void touchstone_within_125(void **state)
{
    (void)state;
    uint64_t bound, lg = steps_of("touchstone-delta", "load-greedy", &bound);
    assert_true(bound >= 8338); /* the band bound (src/bounds/band.c), or the forwarding bound above it */
    assert_true(lg >= bound);
    assert_true((double)lg <= 1.25 * (double)bound);
}

static void not_applicable(void **state)
{
    (void)state;
    const totex_algorithm *a = totex_algorithm_find("load-greedy", NULL);
    totex_error err = {{0}};
    totex_network *net = ts_net("mesh:3x4");
    assert_int_equal(a->applies(net, TOTEX_PORTS_MULTI, &err), TOTEX_ENOTAPPLICABLE);
    totex_network_free(net);
    net = ts_net("torus:3x4");
    assert_int_equal(a->applies(net, TOTEX_PORTS_SINGLE, &err), TOTEX_ENOTAPPLICABLE);
    totex_network_free(net);
    net = ts_net("mesh:64x64");
    assert_int_equal(a->applies(net, TOTEX_PORTS_SINGLE, &err), TOTEX_ENOTAPPLICABLE);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(beats_a2_and_greedy),
        cmocka_unit_test(touchstone_within_125),
        cmocka_unit_test(not_applicable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
