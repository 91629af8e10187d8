/*
 * Schemes symmetric under translation by two (beyond 001) and the symmetric
 * greedy (001 Sections 5, 8.3).
 *
 * 001's symmetric switching schemes cannot balance the antipodal packets of an
 * even ring side m when n/m is odd (001 Section 8.2: n(n+2)/8 on even rings;
 * 003 Section 4.2 gets ceil((n^2-1)/8) by alternating the direction with the
 * node's parity). The period-2 scheme ("sym2") must reach the multiport cut
 * bound (000 eq. (4), computed by the bounds module) on every such torus of the
 * sweep; on rings it must equal 003's ceil((m^2-1)/8). Every plan here is
 * certified at one node per class AND, the networks being small, expanded and
 * replayed by the simulator (totex_plan_and_verify does both and compares).
 * The symmetric greedy must finish within h_r + h_c - 1 (001 Section 8.3),
 * with h_r, h_c computed here from the task matrix's row and column sums.
 */
#include <stdio.h>
#include <string.h>

#include "support.h"

static uint64_t cut_bound(const char *spec)
{
    totex_network *net = ts_net(spec);
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err;
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &count, &best, &err), TOTEX_OK);
    uint64_t cut = 0;
    for (size_t i = 0; i < count; i++)
        if (b[i].kind == TOTEX_BOUND_CUT)
            cut = b[i].value;
    totex_network_free(net);
    return cut;
}

static void plan(const char *spec, const char *algo, totex_plan_result *res)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    const totex_algorithm *a = totex_algorithm_find(algo, &err);
    assert_non_null(a);
    totex_status st = totex_plan_and_verify(net, TOTEX_PORTS_MULTI, a, 0, res, &err);
    if (st != TOTEX_OK)
        fail_msg("%s %s: %s", spec, algo, err.msg);
    assert_true(res->verified);
    assert_true(res->symmetric);
    assert_true(res->full_simulation); /* small: expanded and replayed by the simulator too */
    res->net = NULL;
    totex_network_free(net);
}

/* 003 Theorems 2-3: rings reach ceil((m^2-1)/8); sym2 applies to even m (n/m = 1 is odd). */
static void test_even_rings_reach_003(void **state)
{
    (void)state;
    for (unsigned m = 4; m <= 24; m += 2) {
        char spec[32];
        totex_plan_result r;
        snprintf(spec, sizeof spec, "ring:%u", m);
        plan(spec, "sym2", &r);
        if (r.sim.steps != ((uint64_t)m * m - 1 + 7) / 8)
            fail_msg("%s: sym2 %llu steps, 003 says %u", spec, (unsigned long long)r.sim.steps, (m * m - 1 + 7) / 8);
    }
}

/* Every torus with sides 2..9 in 2..3 dimensions having an even side m >= 4 with n/m odd: sym2
   where that side is critical (it applies), and otherwise the period-1 critical sum h (001 Theorem 9),
   computed here from the task matrix, already equals the cut bound. */
static void test_unbalanced_tori_reach_cut_bound(void **state)
{
    (void)state;
    unsigned tested = 0, applied = 0;
    for (unsigned d = 2; d <= 3; d++) {
        unsigned side[3];
        for (side[0] = 4; side[0] <= 9; side[0] += 2)
            for (side[1] = 3; side[1] <= 9; side[1] += 2)
                for (side[2] = 3; side[2] <= (d == 3 ? 9u : 3u); side[2] += 2) {
                    char spec[64];
                    totex_plan_result r;
                    if (d == 2)
                        snprintf(spec, sizeof spec, "torus:%ux%u", side[0], side[1]);
                    else
                        snprintf(spec, sizeof spec, "torus:%ux%ux%u", side[0], side[1], side[2]);
                    uint64_t cut = cut_bound(spec);
                    totex_network *net = ts_net(spec);
                    const totex_algorithm *a = totex_algorithm_find("sym2", NULL);
                    int applies = a->applies(net, TOTEX_PORTS_MULTI, NULL) == TOTEX_OK;
                    if (!applies) {
                        totex_task *t = totex_task_total_exchange(net, NULL);
                        assert_int_equal(totex_task_critical_sum(t), cut);
                        totex_task_free(t);
                        totex_network_free(net);
                        tested++;
                        continue;
                    }
                    totex_network_free(net);
                    plan(spec, "sym2", &r);
                    if (r.sim.steps != cut)
                        fail_msg("%s: sym2 %llu steps, cut bound %llu", spec, (unsigned long long)r.sim.steps,
                                 (unsigned long long)cut);
                    tested++;
                    applied++;
                }
    }
    print_message("%u unbalanced tori, sym2 needed on %u, all at the cut bound\n", tested, applied);
    assert_true(tested > 40);
    assert_true(applied > 10);
}

/* sym2 does not apply where the period-1 split already balances. */
static void test_sym2_not_applicable(void **state)
{
    (void)state;
    const char *specs[] = {"torus:4x4", "torus:5x5", "hypercube:4", "ghc:3x3", "torus:6x4"};
    const totex_algorithm *a = totex_algorithm_find("sym2", NULL);
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_error err = {{0}};
        assert_int_equal(a->applies(net, TOTEX_PORTS_MULTI, &err), TOTEX_ENOTAPPLICABLE);
        assert_non_null(strstr(err.msg, "odd"));
        totex_network_free(net);
    }
}

/* 001 Section 8.3: a greedy (non-wasting) symmetric scheme finishes within h_r + h_c - 1. */
static void test_greedy_within_hr_hc(void **state)
{
    (void)state;
    const char *specs[] = {"torus:3x3", "torus:4x4", "torus:5x7", "torus:8x8", "torus:3x4x5", "torus:6x6x6",
                           "hypercube:6", "ghc:3x4x5", "ring:9*k2*complete:4", "torus:9x9x9"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_error err;
        totex_task *t = totex_task_total_exchange(net, &err);
        assert_non_null(t);
        uint64_t hr = 0, hc = 0;
        for (uint32_t r = 0; r < totex_task_rows(t); r++)
            if (totex_task_row_sum(t, r) > hr)
                hr = totex_task_row_sum(t, r);
        for (uint32_t j = 0; j < totex_task_cols(t); j++)
            if (totex_task_col_sum(t, j) > hc)
                hc = totex_task_col_sum(t, j);
        totex_plan_result r;
        totex_status st = totex_plan_and_verify(net, TOTEX_PORTS_MULTI, totex_algorithm_find("greedy-sym", NULL), 0,
                                                &r, &err);
        if (st != TOTEX_OK)
            fail_msg("%s: %s", specs[i], err.msg);
        if (r.sim.steps > hr + hc - 1 || r.sim.steps < (hr > hc ? hr : hc))
            fail_msg("%s: greedy-sym %llu steps, h_r %llu, h_c %llu", specs[i], (unsigned long long)r.sim.steps,
                     (unsigned long long)hr, (unsigned long long)hc);
        totex_task_free(t);
        totex_network_free(net);
    }
}

/* 001 Section 8.3 on the whole sweep: every torus with sides 2..9 in 1..3 dimensions,
   the symmetric greedy certified at one node, within h_r + h_c - 1 and at least h. */
static void test_greedy_sweep(void **state)
{
    (void)state;
    const totex_algorithm *g = totex_algorithm_find("greedy-sym", NULL);
    unsigned count = 0, at_h = 0;
    for (unsigned a = 2; a <= 9; a++)
        for (unsigned b = 1; b <= 9; b++)
            for (unsigned c = 1; c <= 9; c++) {
                char spec[64];
                if ((b == 1 && c > 1) || (b > 1 && b < a) || (c > 1 && c < b))
                    continue; /* one ordering of each side multiset */
                if (b == 1)
                    snprintf(spec, sizeof spec, "ring:%u", a);
                else if (c == 1)
                    snprintf(spec, sizeof spec, "torus:%ux%u", a, b);
                else
                    snprintf(spec, sizeof spec, "torus:%ux%ux%u", a, b, c);
                totex_network *net = ts_net(spec);
                totex_task *t = NULL;
                totex_sym_schedule *s = NULL;
                totex_sym_report rep;
                totex_error err = {{0}};
                if (g->plan_symmetric(net, TOTEX_PORTS_MULTI, &t, &s, &err) != TOTEX_OK ||
                    totex_sym_certify(t, TOTEX_PORTS_MULTI, s, &rep, &err) != TOTEX_OK)
                    fail_msg("%s: %s", spec, err.msg);
                uint64_t hr = totex_task_max_row_sum(t), hc = totex_task_max_col_sum(t);
                uint64_t h = totex_task_critical_sum(t);
                if (rep.steps > hr + hc - 1 || rep.steps < h)
                    fail_msg("%s: greedy-sym %llu steps, h_r %llu, h_c %llu", spec, (unsigned long long)rep.steps,
                             (unsigned long long)hr, (unsigned long long)hc);
                at_h += rep.steps == h;
                count++;
                totex_sym_free(s);
                totex_task_free(t);
                totex_network_free(net);
            }
    print_message("greedy-sym on %u tori: within h_r + h_c - 1 on all, equal to h on %u\n", count, at_h);
    assert_true(count > 150);
}

/* 001 Section 8.3's example: n = 1000, d = 3 (p = 10): optimum 1250, any greedy at most 1265. */
static void test_greedy_1250_1265(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:10x10x10");
    totex_error err;
    totex_plan_result r;
    assert_int_equal(totex_plan_and_verify(net, TOTEX_PORTS_MULTI, totex_algorithm_find("greedy-sym", NULL), 0, &r,
                                           &err),
                     TOTEX_OK);
    assert_true(r.sim.steps >= 1250);
    assert_true(r.sim.steps <= 1265);
    print_message("10x10x10 torus: symmetric greedy %llu steps (001: optimum 1250, greedy <= 1265)\n",
                  (unsigned long long)r.sim.steps);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_even_rings_reach_003),
        cmocka_unit_test(test_unbalanced_tori_reach_cut_bound),
        cmocka_unit_test(test_sym2_not_applicable),
        cmocka_unit_test(test_greedy_within_hr_hc),
        cmocka_unit_test(test_greedy_sweep),
        cmocka_unit_test(test_greedy_1250_1265),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
