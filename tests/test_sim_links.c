/*
 * The simulator's link test: a hop is accepted exactly when
 * its two nodes are neighbours, both where the simulator looks links up in
 * its per-node table (at most 16 link slots per node) and where it falls back
 * to comparing coordinates (complete:18 has 17 slots). The reference is
 * totex_network_adjacent() (the network module), pair by pair, with a fresh
 * simulator per hop; and two messages on one directed link in one step are a
 * link conflict under multiport whichever way the slot was found.
 */
#include "support.h"

static void every_pair(const char *spec)
{
    totex_network *net = ts_net(spec);
    const uint32_t n = totex_network_nodes(net);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) {
            if (a == b)
                continue;
            totex_error err = {{0}};
            totex_sim *sim = totex_sim_new(net, TOTEX_PORTS_MULTI, 0, &err);
            assert_non_null(sim);
            totex_hop h = {a, b, a, b}; /* the message a -> b, one hop from a to b */
            totex_status st = totex_sim_step(sim, &h, 1, &err);
            if (totex_network_adjacent(net, a, b)) {
                assert_int_equal(st, TOTEX_OK);
                /* two messages held by a (for b and for c) over the link a -> b in one step: a link conflict */
                const uint32_t c = (b + 1) % n == a ? (b + 2) % n : (b + 1) % n;
                if (c != a && c != b) {
                    totex_hop two[2] = {{a, b, a, b}, {a, b, a, c}};
                    totex_sim *s2 = totex_sim_new(net, TOTEX_PORTS_MULTI, 0, &err);
                    assert_non_null(s2);
                    assert_int_equal(totex_sim_step(s2, two, 2, &err), TOTEX_EVIOLATION);
                    assert_int_equal(totex_sim_get_fault(s2).kind, TOTEX_VIOL_LINK_BUSY);
                    totex_sim_free(s2);
                }
            } else {
                assert_int_equal(st, TOTEX_EVIOLATION);
                assert_int_equal(totex_sim_get_fault(sim).kind, TOTEX_VIOL_NOT_LINK);
            }
            totex_sim_free(sim);
        }
    totex_network_free(net);
}

static void table_networks(void **state)
{
    (void)state;
    every_pair("mesh:3x4");
    every_pair("ring:5*path:3");
    every_pair("complete:5*ring:4");
    every_pair("ring:2*k2*path:2");
    every_pair("hypercube:4");
}

static void coordinate_fallback(void **state)
{
    (void)state;
    every_pair("complete:18");
    every_pair("complete:9*complete:10");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_networks),
        cmocka_unit_test(coordinate_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
