/*
 * Rounds (src/algorithms/rounds.c): multiport meshes of
 * three and more dimensions and mixed mesh/torus products at the cut bound.
 * Every schedule is replayed in full by the simulator (totex_plan_and_verify);
 * the bound it must meet is computed here from 000 eq. (4) lifted as in 000
 * Theorem 5: cutting factor D in the middle of every copy leaves (n/m_D)^2
 * times the factor's crossing messages to n/m_D copies of its cut links, so
 * the bound is max_D (n/m_D) * cut_D, cut_D = floor(m^2/4) for a path (003
 * eq. (1)), m^2/8 for an even ring and (m^2-1)/8 for an odd one (003 eq.
 * (2)), 1 for complete graphs and K2; it is also checked against src/bounds
 * (totex_bounds_compute), an independent module.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Eight times the cut of factor @p f (000 eq. (4) on one factor; 003 eqs. (1), (2)). */
static uint64_t cut8(const totex_factor *f)
{
    const uint64_t m = totex_factor_nodes(f);
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_PATH: return 8 * (m * m / 4);
    case TOTEX_FACTOR_RING: return m % 2 ? m * m - 1 : m * m;
    default: return 8; /* complete graph, K2: every pair has its own link */
    }
}

/* The lifted cut bound of @p net, in steps. */
static uint64_t lifted_cut(const totex_network *net)
{
    uint64_t best = 0, n = totex_network_nodes(net);
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint64_t b = (n / totex_factor_nodes(f)) * cut8(f);
        if (b > best)
            best = b;
    }
    return (best + 7) / 8;
}

/* Plan with rounds under @p ports, replay in full; the prediction must be the simulated step count. Returns
   the cut bound. */
static uint64_t plan_ports(const char *spec, totex_ports ports, totex_plan_result *res)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    const totex_algorithm *a = totex_algorithm_find("rounds", &err);
    assert_non_null(a);
    if (totex_plan_and_verify(net, ports, a, 0, res, &err) != TOTEX_OK)
        fail_msg("rounds on %s: %s", spec, err.msg);
    assert_true(res->verified);
    assert_true(res->full_simulation);
    if (res->predicted_steps != res->sim.steps)
        fail_msg("%s: predicted %llu, simulated %llu", spec, (unsigned long long)res->predicted_steps,
                 (unsigned long long)res->sim.steps);
    const uint64_t cut = lifted_cut(net);
    if (res->bounds[res->best_bound].value != cut)
        fail_msg("%s: src/bounds says %llu, the lifted cut here %llu", spec,
                 (unsigned long long)res->bounds[res->best_bound].value, (unsigned long long)cut);
    totex_network_free(net);
    return cut;
}

static uint64_t plan(const char *spec, totex_plan_result *res) { return plan_ports(spec, TOTEX_PORTS_MULTI, res); }

/* every 3-D mesh a x b x c, 2 <= a <= b <= c <= 6: steps = the cut bound (56 meshes, 8 to 216 nodes) */
static void meshes_3d_at_cut_bound(void **state)
{
    (void)state;
    char spec[64];
    for (uint32_t a = 2; a <= 6; a++)
        for (uint32_t b = a; b <= 6; b++)
            for (uint32_t c = b; c <= 6; c++) {
                totex_plan_result res;
                snprintf(spec, sizeof spec, "mesh:%ux%ux%u", a, b, c);
                const uint64_t cut = plan(spec, &res);
                if (res.sim.steps != cut)
                    fail_msg("%s: %llu steps, cut bound %llu", spec, (unsigned long long)res.sim.steps,
                             (unsigned long long)cut);
            }
}

/*
 * Cubes (every dimension critical, where pipeline and greedy miss: 3x3x3 24
 * and 23 against 18, 4x4x4 78 and 72 against 64) at |H|^(d-1) * floor(m^2/4),
 * the same figure A3 reaches on H^(2^k) (000 Corollary 3): here with d = 3,
 * 5 and 6 dimensions; other orders and mixed products too.
 */
static void cubes_and_mixed_products(void **state)
{
    (void)state;
    const struct {
        const char *spec;
        uint64_t steps; /* the figure, stated independently: the lifted cut, or 0 = lifted_cut() */
    } cases[] = {
        {"mesh:3x3x3", 18},          /* 9 * 2 */
        {"mesh:4x4x4", 64},          /* 16 * 4 */
        {"mesh:5x5x5", 150},         /* 25 * 6 */
        {"mesh:8x8x8", 1024},        /* 64 * 16 */
        {"mesh:2x2x2x2x2", 16},      /* 16 * 1 */
        {"mesh:3x3x3x3x3", 162},     /* 81 * 2 */
        {"mesh:2x2x2x2x2x2", 32},    /* 32 * 1 */
        {"mesh:2x3x4x5", 0},
        {"mesh:3x3x4x4", 0},
        {"mesh:4x4x3x3", 0},
        {"mesh:3x3*ring:3", 18},     /* the paths: 9 * 2; ring:3 carries 9 * 1 */
        {"mesh:4x4*ring:4", 64},
        {"mesh:5x5*ring:4", 120},    /* 20 * 6; ring:4: 25 * 2 */
        {"ring:8*mesh:4x4", 128},    /* ring:8 16 * 8 = paths 32 * 4: all three critical */
        {"ring:5*path:5*ring:5", 0},
        {"path:3*complete:3*path:3", 18},
        {"path:4*k2*path:4", 32},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_plan_result res;
        const uint64_t cut = plan(cases[i].spec, &res);
        if (cases[i].steps)
            assert_int_equal(cases[i].steps, cut);
        if (res.sim.steps != cut)
            fail_msg("%s: %llu steps, cut bound %llu", cases[i].spec, (unsigned long long)res.sim.steps,
                     (unsigned long long)cut);
    }
}

/*
 * Where one slot length cannot pack every dimension (rounds.c header): the
 * figures stated there, above the bound, each still verified and never below
 * it. mesh:5x6: rounds of 9 (path:6) and 6 (path:5) steps: slots of 9 hold
 * one round each (6 slots, 54 steps), slots of 18 two and three (3 slots:
 * 54), less the idle tail: 53 against 45 (pipeline reaches 45).
 * mesh:2x7x8: 238 against 224. path:3*ring:6: ring:6's factor takes 5 steps
 * (003's modified message-shift) for a cut of 4.5: 15 against 14, the
 * optimum (`totex bounds 'path:3*ring:6' --ports multi --exact`: 13 steps
 * infeasible, a 14-step schedule found).
 */
static void above_the_bound(void **state)
{
    (void)state;
    const struct {
        const char *spec;
        uint64_t at_most, cut;
    } cases[] = {{"mesh:5x6", 53, 45}, {"mesh:2x7x8", 238, 224}, {"path:3*ring:6", 15, 14}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_plan_result res;
        const uint64_t cut = plan(cases[i].spec, &res);
        assert_int_equal(cut, cases[i].cut);
        if (res.sim.steps > cases[i].at_most || res.sim.steps < cut)
            fail_msg("%s: %llu steps, stated at most %llu, bound %llu", cases[i].spec,
                     (unsigned long long)res.sim.steps, (unsigned long long)cases[i].at_most,
                     (unsigned long long)cut);
    }
}

/* Every message crosses each dimension once: hops = the sum of all distances, by BFS on the product. */
static void shortest_paths(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x3x3", "mesh:2x3x4", "ring:5*mesh:3x4"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        const uint32_t n = totex_network_nodes(net);
        uint32_t *dist = ts_bfs_all_pairs(net);
        uint64_t sum = 0;
        for (uint64_t k = 0; k < (uint64_t)n * n; k++)
            sum += dist[k];
        free(dist);
        totex_plan_result res;
        plan(specs[i], &res);
        assert_int_equal(res.sim.hops, sum);
        totex_network_free(net);
    }
}

/*
 * Average delay, measured by the simulator for both: on these meshes pipeline
 * meets the bound too, and the automatic choice now takes rounds (its cheap
 * prediction meets the bound first), so it must not deliver later on average.
 */
static void delay_not_above_pipeline(void **state)
{
    (void)state;
    const char *specs[] = {"touchstone-delta", "mesh:5x7", "mesh:8x12", "mesh:4x4x8", "mesh:3x4x5"};
    const totex_algorithm *pl = totex_algorithm_find("pipeline", NULL);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_plan_result r, p;
        totex_error err = {{0}};
        totex_network *net = ts_net(specs[i]);
        plan(specs[i], &r);
        if (totex_plan_and_verify(net, TOTEX_PORTS_MULTI, pl, 0, &p, &err) != TOTEX_OK)
            fail_msg("pipeline on %s: %s", specs[i], err.msg);
        assert_int_equal(r.sim.steps, p.sim.steps);
        if (r.sim.average_delay > p.sim.average_delay)
            fail_msg("%s: rounds' average delay %.3f above pipeline's %.3f", specs[i], r.sim.average_delay,
                     p.sim.average_delay);
        totex_network_free(net);
    }
}

/* The automatic choice takes rounds where it alone meets the bound. */
static void auto_choice(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x3x3", "mesh:4x4x4", "mesh:5x5x4"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_error err = {{0}};
        totex_network *net = ts_net(specs[i]);
        totex_plan_result res;
        if (totex_plan_best(net, TOTEX_PORTS_MULTI, TOTEX_OBJECTIVE_STEPS, 0, &res, &err) != TOTEX_OK)
            fail_msg("auto on %s: %s", specs[i], err.msg);
        assert_string_equal(res.algorithm->name, "rounds");
        assert_int_equal(res.sim.steps, lifted_cut(net));
        totex_plan_result_release(&res);
        totex_network_free(net);
    }
}

/*
 * k-port (001 Section 7): the simulator replays every schedule under k-port.
 * The cut bound holds under any port model (it counts links); where one
 * dimension's rounds split by direction (one link a node) still fit beside
 * the other's whole rounds (two links), 3-port meets it: mesh:16x32, path:16
 * split (2 * 64 steps a round, 32 rounds) beside path:32 whole (256, 16
 * rounds), 4096 both; mesh:8x16 the same, 512. With k >= 2d every dimension
 * runs whole, as under multiport: mesh:3x3x3 6-port 18.
 */
static void kport(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        totex_ports k;
    } cases[] = {{"mesh:16x32", 3}, {"mesh:8x16", 3}, {"mesh:8x16", 4}, {"mesh:3x3x3", 6}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_plan_result res;
        const uint64_t cut = plan_ports(cases[i].spec, cases[i].k, &res);
        if (res.sim.steps != cut)
            fail_msg("%s %u-port: %llu steps, the cut bound %llu", cases[i].spec, (unsigned)cases[i].k,
                     (unsigned long long)res.sim.steps, (unsigned long long)cut);
        totex_plan_result_release(&res);
    }
    /* mesh:5x6 3-port: above the cut, below A2 under 3-port, 004 Corollary 2 with the multiport path
       rounds ceil((m^2-1)/4) (003 Theorem 1): 30 (6/5 + 9/6) = 81 */
    totex_plan_result res;
    const uint64_t cut = plan_ports("mesh:5x6", 3, &res);
    assert_true(res.sim.steps >= cut);
    assert_true(res.sim.steps < 81);
    totex_plan_result_release(&res);
    /* the automatic choice takes it where it meets the bound: no costly candidate then runs */
    totex_error err = {{0}};
    totex_network *net = ts_net("mesh:16x32");
    if (totex_plan_best(net, 3, TOTEX_OBJECTIVE_STEPS, 0, &res, &err) != TOTEX_OK)
        fail_msg("auto on mesh:16x32 3-port: %s", err.msg);
    assert_string_equal(res.algorithm->name, "rounds");
    assert_int_equal(res.sim.steps, lifted_cut(net));
    totex_plan_result_release(&res);
    totex_network_free(net);
}

/* Multiport furthest-first rounds on a path of m nodes: ceil((m^2 - 1) / 4) steps (003 Theorem 1). */
static uint64_t path_round(uint64_t m) { return (m * m + 2) / 4; }

/*
 * k-port, port configurations taking turns within a slot, on products of
 * paths (sides in @p m, @p d of them): every dimension D runs r_D = n/m_D
 * factor rounds, whole (two links a node for T_D steps) or split by direction
 * (one link for 2 T_D), so each round holds 2 T_D link-steps of every node
 * and at most k are free a step: no schedule of such rounds beats
 * max(max_D r_D T_D, ceil(sum_D 2 r_D T_D / k)) (@p low). A fixed share (the
 * same k - d dimensions whole all the time) needs at least
 * min over the shares of max_D r_D T_D (1 or 2) (@p fixed).
 */
static void turn_figures(const uint32_t *m, uint32_t d, uint32_t k, uint64_t *low, uint64_t *fixed)
{
    uint64_t n = 1, sum = 0, most = 0;
    for (uint32_t D = 0; D < d; D++)
        n *= m[D];
    for (uint32_t D = 0; D < d; D++) {
        const uint64_t w = n / m[D] * path_round(m[D]);
        sum += 2 * w;
        if (w > most)
            most = w;
    }
    *low = (sum + k - 1) / k > most ? (sum + k - 1) / k : most;
    *fixed = UINT64_MAX;
    for (uint32_t mask = 0; mask < 1u << d; mask++) {
        if ((uint32_t)__builtin_popcount(mask) != k - d)
            continue;
        uint64_t t = 0;
        for (uint32_t D = 0; D < d; D++) {
            const uint64_t w = n / m[D] * path_round(m[D]) * (mask >> D & 1 ? 1 : 2);
            if (w > t)
                t = w;
        }
        if (t < *fixed)
            *fixed = t;
    }
}

/*
 * 3-port on 2-D and 4- and 5-port on 3-D meshes: rounds lets the
 * dimensions take turns at the whole configuration inside each slot, so it
 * comes under every fixed share; on m x m with 3 | m (slots of two segments
 * of 2 T: A 2 rounds whole + B 1 split, then the converse) and on the cubes
 * m^3 4-port (three segments of 2 T, 4 rounds of each dimension) it meets
 * the turn bound: 4 m T / 3 and 3 m^2 T / 2. Odd and even sides. Few rounds
 * a class (mesh:7x11: 11 and 7) leave coarse slots: there it only ties the
 * best fixed share (264 steps, 2 slots).
 */
static void kport_turns(void **state)
{
    (void)state;
    static const struct {
        uint32_t m[3], d, k;
        int exact; /* 1: steps = the turn bound; 0: below every fixed share; 2: at most the best fixed share */
    } cases[] = {
        {{6, 6}, 2, 3, 1},     {{9, 9}, 2, 3, 1},     {{12, 12}, 2, 3, 1},   {{6, 10}, 2, 3, 0},
        {{7, 11}, 2, 3, 2},    {{11, 13}, 2, 3, 0},   {{15, 15}, 2, 3, 1},   {{20, 28}, 2, 3, 0},   {{4, 4, 4}, 3, 4, 1},  {{6, 6, 6}, 3, 4, 1},
        {{3, 4, 5}, 3, 4, 0},  {{3, 4, 5}, 3, 5, 0},  {{5, 5, 5}, 3, 5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spec[64];
        if (cases[i].d == 2)
            snprintf(spec, sizeof spec, "mesh:%ux%u", cases[i].m[0], cases[i].m[1]);
        else
            snprintf(spec, sizeof spec, "mesh:%ux%ux%u", cases[i].m[0], cases[i].m[1], cases[i].m[2]);
        uint64_t low, fixed;
        turn_figures(cases[i].m, cases[i].d, cases[i].k, &low, &fixed);
        totex_plan_result res;
        const uint64_t cut = plan_ports(spec, cases[i].k, &res);
        const uint64_t steps = res.sim.steps;
        if (steps < low || steps < cut || steps > fixed || (cases[i].exact != 2 && steps == fixed) ||
            (cases[i].exact == 1 && steps != low))
            fail_msg("%s %u-port: %llu steps; turn bound %llu%s, every fixed share >= %llu, cut %llu", spec,
                     cases[i].k, (unsigned long long)steps, (unsigned long long)low,
                     cases[i].exact ? " (to meet)" : "", (unsigned long long)fixed, (unsigned long long)cut);
        totex_plan_result_release(&res);
    }
    /* a ring and a path mixed (odd ring, 4-port): replayed in full, at or above the cut */
    totex_plan_result res;
    const uint64_t cut = plan_ports("path:6*ring:5*path:4", 4, &res);
    assert_true(res.sim.steps >= cut);
    totex_plan_result_release(&res);
}

static void not_applicable(void **state)
{
    (void)state;
    static const ts_refusal cases[] = {
        {"mesh:3x3x3", TOTEX_PORTS_SINGLE, "single-port"},
        {"mesh:3x3x3", 2, "k >= the dimensions"},
        {"mesh:4x4", 2, "no fewer than a2"},
        {"mesh:32x64", 2, "no fewer than a2"},
        {"path:3*complete:3", 3, "paths, rings and K2"},
        {"path:5", TOTEX_PORTS_MULTI, "at least 2 dimensions"},
        {"mesh:4x4", TOTEX_PORTS_MULTI, "a3"},
        {"mesh:3x3x3x3", TOTEX_PORTS_MULTI, "a3"},
        {"torus:4x4x4", TOTEX_PORTS_MULTI, "octr"},
        {"hypercube:5", TOTEX_PORTS_MULTI, "octr"},
        {"mesh:128x129", TOTEX_PORTS_MULTI, "stops at"},
        {"path:400*k2", TOTEX_PORTS_MULTI, "2^24 hops"},
    };
    ts_refuses("rounds", cases, sizeof cases / sizeof cases[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(meshes_3d_at_cut_bound),
        cmocka_unit_test(cubes_and_mixed_products),
        cmocka_unit_test(above_the_bound),
        cmocka_unit_test(shortest_paths),
        cmocka_unit_test(delay_not_above_pipeline),
        cmocka_unit_test(auto_choice),
        cmocka_unit_test(kport),
        cmocka_unit_test(kport_turns),
        cmocka_unit_test(not_applicable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
