/*
 * Property test: random small products of every factor kind under a
 * random port model; every algorithm that applies must produce a schedule the
 * simulator accepts in full (symmetric ones are also certified at one node and
 * cross-checked by totex_plan_and_verify), never beat the best lower bound of
 * the bounds module, and take the steps its own prediction announced.
 * Deterministic: a fixed-seed generator, so a failure names a reproducible spec.
 */
#include <stdio.h>
#include <string.h>

#include "support.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % n);
}

static void random_factor(char *buf, size_t len)
{
    switch (rnd(6)) {
    case 0: snprintf(buf, len, "path:%u", 2 + rnd(4)); break;
    case 1: snprintf(buf, len, "ring:%u", 3 + rnd(5)); break;
    case 2: snprintf(buf, len, "complete:%u", 3 + rnd(2)); break;
    case 3: snprintf(buf, len, "k2"); break;
    case 4: snprintf(buf, len, "file:%s/greedy_star6.edges", TOTEX_TEST_DATA); break;
    default: snprintf(buf, len, "ring:%u", 4 + 2 * rnd(2)); break;
    }
}

static void test_random_products(void **state)
{
    (void)state;
    unsigned plans = 0;
    for (unsigned trial = 0; trial < 70; trial++) {
        char spec[512] = "", f[256];
        unsigned k = 1 + rnd(3);
        for (unsigned i = 0; i < k; i++) {
            random_factor(f, sizeof f);
            if (i)
                strcat(spec, "*");
            strcat(spec, f);
        }
        totex_network *net = ts_net(spec);
        if (totex_network_nodes(net) > 80) {
            totex_network_free(net);
            continue;
        }
        const totex_ports models[4] = {TOTEX_PORTS_SINGLE, 2, 3, TOTEX_PORTS_MULTI};
        totex_ports ports = models[rnd(4)];
        for (size_t a = 0; a < totex_algorithm_count(); a++) {
            const totex_algorithm *alg = totex_algorithm_get(a);
            totex_error err = {{0}};
            totex_plan_result r;
            if (alg->applies(net, ports, &err) != TOTEX_OK) {
                assert_true(err.msg[0] != '\0'); /* a reason is always given */
                continue;
            }
            totex_status st = totex_plan_and_verify(net, ports, alg, 0, &r, &err);
            if (st != TOTEX_OK)
                fail_msg("%s, ports %u, %s: %s", spec, (unsigned)ports, alg->name, err.msg);
            assert_true(r.verified);
            assert_true(r.full_simulation);
            uint64_t lb = r.bounds[r.best_bound].value;
            if (r.sim.steps < lb)
                fail_msg("%s, ports %u, %s: %llu steps beat the bound %llu", spec, (unsigned)ports, alg->name,
                         (unsigned long long)r.sim.steps, (unsigned long long)lb);
            if (r.sim.steps != r.predicted_steps)
                fail_msg("%s, ports %u, %s: %llu steps, predicted %llu", spec, (unsigned)ports, alg->name,
                         (unsigned long long)r.sim.steps, (unsigned long long)r.predicted_steps);
            /* every algorithm here routes on shortest paths, so the 001 appendix bound holds */
            if (r.has_delay_bound && r.sim.average_delay < r.delay_bound - 1e-9)
                fail_msg("%s, ports %u, %s: average delay %.6f below its lower bound %.6f", spec, (unsigned)ports,
                         alg->name, r.sim.average_delay, r.delay_bound);
            plans++;
        }
        totex_network_free(net);
    }
    print_message("%u plans verified\n", plans);
    assert_true(plans > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
