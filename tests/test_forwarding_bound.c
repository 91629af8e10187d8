/*
 * The single-port forwarding bound (src/bounds/forwarding.c)
 * against independent computations:
 *  - its value from its own witness: the integer node weights it returns are
 *    re-evaluated here by Floyd-Warshall on the product graph (adjacency from
 *    totex_network_adjacent only): T >= sum_{s != d} D_w(s, d) / 2W, hop u->v
 *    costing w_u + w_v;
 *  - its quality: the linear program it is the dual of (route every message
 *    fractionally on any paths, minimise the largest (sends + receives) / 2 of
 *    a node) solved by GLPK; weak duality puts the bound at or below the LP
 *    optimum, and the search must come within 1% of it;
 *  - its validity: never above the steps of schedules the simulator verified
 *    (load-greedy, a2), and never below average status
 *    (000 eq. (3), uniform weights);
 *  - the exact optimum (src/exact, integer programming; with its default
 *    options the solver also proves optimum - 1 steps infeasible, so a bound
 *    above the optimum would make the search fail): the bound never exceeds
 *    it, and meets it on mesh:2x3 (9), mesh:2x4 (16) and mesh:3x3 (18);
 *  - totex_bounds_compute reports it, with the witness, on meshes;
 *  - k-port (totex_bound_forwarding_ports): its value from
 *    its witness (Floyd-Warshall, a step costing at most 2 sum_v min(k, deg v)
 *    w_v, degrees counted here), never above a schedule the simulator
 *    verified, never above the exact optimum and equal to it on mesh:2x3,
 *    mesh:2x4, mesh:3x3, k2*path:4, path:3*ring:3 (2-port) and mesh:3x3
 *    (3-port), where average status is below the optimum on mesh:3x3 k:2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#ifdef TOTEX_TEST_HAVE_GLPK
#include <glpk.h>
#endif

/* sum over ordered pairs of the cheapest path, hop u->v costing w_u + w_v, by Floyd-Warshall */
static uint64_t floyd_sum(const totex_network *net, const uint64_t *w)
{
    const uint32_t n = totex_network_nodes(net);
    uint64_t *d = malloc(sizeof *d * n * n), total = 0;
    assert_non_null(d);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            d[a * n + b] = a == b ? 0 : totex_network_adjacent(net, a, b) ? w[a] + w[b] : UINT64_MAX / 4;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++)
                if (d[a * n + k] + d[k * n + b] < d[a * n + b])
                    d[a * n + b] = d[a * n + k] + d[k * n + b];
    for (uint32_t i = 0; i < n * n; i++)
        total += d[i];
    free(d);
    return total;
}

static totex_bound forwarding(const totex_network *net, uint64_t **w)
{
    totex_bound b;
    totex_error err = {{0}};
    *w = malloc(sizeof **w * totex_network_nodes(net));
    assert_non_null(*w);
    if (totex_bound_forwarding_weights(net, *w, &b, &err) != TOTEX_OK)
        fail_msg("%s: %s", totex_network_spec(net), err.msg);
    assert_int_equal(b.kind, TOTEX_BOUND_FORWARDING);
    return b;
}

static void value_from_witness(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x3", "mesh:3x4", "mesh:2x5", "mesh:4x5", "mesh:3x2x4", "path:7*k2", "path:5*ring:4",
                           "file:" TOTEX_TEST_DATA "/net_petersen.graphml*path:3"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t *w, W = 0;
        totex_bound b = forwarding(net, &w);
        for (uint32_t v = 0; v < totex_network_nodes(net); v++) {
            assert_true(w[v] <= (UINT64_C(1) << 20));
            W += w[v];
        }
        const uint64_t X = floyd_sum(net, w);
        if (b.value != (X + 2 * W - 1) / (2 * W))
            fail_msg("%s: reported %llu, its weights give X = %llu, W = %llu", specs[i], (unsigned long long)b.value,
                     (unsigned long long)X, (unsigned long long)W);
        assert_true(fabs(b.exact - (double)X / (double)(2 * W)) < 1e-9 * b.exact);
        assert_non_null(strstr(b.witness, "node weights"));
        /* at least average status (uniform weights are where the search starts) */
        uint64_t sg;
        assert_int_equal(totex_network_status_sum(net, &sg, NULL), TOTEX_OK);
        assert_true(b.value >= (sg + totex_network_nodes(net) - 1) / totex_network_nodes(net));
        free(w);
        totex_network_free(net);
    }
}

#ifdef TOTEX_TEST_HAVE_GLPK
/* min L: fractional routing of every message (one commodity per destination), node load (sends + receives)/2 <= L */
static double lp_min_max_load(const totex_network *net)
{
    const uint32_t n = totex_network_nodes(net);
    uint32_t (*arc)[2] = malloc(sizeof *arc * n * n), na = 0;
    assert_non_null(arc);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            if (totex_network_adjacent(net, a, b)) {
                arc[na][0] = a;
                arc[na][1] = b;
                na++;
            }
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    const int ncol = (int)(n * na) + 1, nrow = (int)(n * n + n); /* conservation rows (d, v), load rows v */
    glp_add_cols(lp, ncol);
    glp_add_rows(lp, nrow);
    for (int j = 1; j < ncol; j++)
        glp_set_col_bnds(lp, j, GLP_LO, 0, 0);
    glp_set_col_bnds(lp, ncol, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, ncol, 1);
    size_t cap = (size_t)4 * n * na + n + 1, nz = 0;
    int *ia = malloc(sizeof *ia * (cap + 1)), *ja = malloc(sizeof *ja * (cap + 1));
    double *ar = malloc(sizeof *ar * (cap + 1));
    assert_true(ia && ja && ar);
    for (uint32_t d = 0; d < n; d++)
        for (uint32_t v = 0; v < n; v++) {
            int row = (int)(d * n + v) + 1;
            double need = v == d ? -(double)(n - 1) : 1; /* out - in */
            glp_set_row_bnds(lp, row, GLP_FX, need, need);
        }
    for (uint32_t v = 0; v < n; v++)
        glp_set_row_bnds(lp, (int)(n * n + v) + 1, GLP_UP, 0, 0);
    for (uint32_t d = 0; d < n; d++)
        for (uint32_t e = 0; e < na; e++) {
            int col = (int)(d * na + e) + 1;
            uint32_t u = arc[e][0], v = arc[e][1];
            ia[++nz] = (int)(d * n + u) + 1, ja[nz] = col, ar[nz] = 1;
            ia[++nz] = (int)(d * n + v) + 1, ja[nz] = col, ar[nz] = -1;
            ia[++nz] = (int)(n * n + u) + 1, ja[nz] = col, ar[nz] = 0.5;
            ia[++nz] = (int)(n * n + v) + 1, ja[nz] = col, ar[nz] = 0.5;
        }
    for (uint32_t v = 0; v < n; v++)
        ia[++nz] = (int)(n * n + v) + 1, ja[nz] = ncol, ar[nz] = -1;
    glp_load_matrix(lp, (int)nz, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    assert_int_equal(glp_simplex(lp, &parm), 0);
    assert_int_equal(glp_get_status(lp), GLP_OPT);
    double val = glp_get_obj_val(lp);
    glp_delete_prob(lp);
    free(ia);
    free(ja);
    free(ar);
    free(arc);
    return val;
}
#endif

static void reaches_the_lp(void **state)
{
    (void)state;
#ifdef TOTEX_TEST_HAVE_GLPK
    const char *specs[] = {"mesh:3x3", "mesh:3x4", "mesh:2x5", "mesh:4x5", "mesh:3x2x4", "path:6*k2", "path:4*ring:3"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t *w;
        totex_bound b = forwarding(net, &w);
        double lp = lp_min_max_load(net);
        print_message("%s: forwarding %.6f, LP %.6f\n", specs[i], b.exact, lp);
        if (b.exact > lp + 1e-6 || b.exact < 0.99 * lp)
            fail_msg("%s: forwarding bound %.6f, LP optimum %.6f", specs[i], b.exact, lp);
        free(w);
        totex_network_free(net);
    }
#else
    skip();
#endif
}

static void below_verified_schedules(void **state)
{
    (void)state;
    const struct {
        const char *spec, *algo;
    } cases[] = {{"mesh:3x3", "load-greedy"}, {"mesh:3x4", "load-greedy"}, {"mesh:4x6", "load-greedy"},
                 {"mesh:8x16", "load-greedy"}, {"mesh:3x2x4", "load-greedy"}, {"path:9*k2", "a2"},
                 {"path:5*ring:4", "a2"}, {"mesh:5x7", "a2"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        uint64_t *w;
        totex_bound b = forwarding(net, &w);
        totex_sim_report rep;
        ts_plan_ok(cases[i].spec, TOTEX_PORTS_SINGLE, cases[i].algo, &rep, NULL);
        if (b.value > rep.steps)
            fail_msg("%s: forwarding bound %llu above %s's verified %llu steps", cases[i].spec,
                     (unsigned long long)b.value, cases[i].algo, (unsigned long long)rep.steps);
        free(w);
        totex_network_free(net);
    }
}

static void meets_the_exact_optimum(void **state)
{
    (void)state;
    if (!totex_exact_solvers()[0])
        skip();
    const char *specs[] = {"mesh:2x3", "mesh:2x4", "mesh:3x3"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t *w;
        totex_bound b = forwarding(net, &w);
        totex_exact_options opt = {0};
        totex_exact_result r;
        totex_error err = {{0}};
        memset(&r, 0, sizeof r);
        if (totex_exact_solve(net, TOTEX_PORTS_SINGLE, &opt, &r, &err) != TOTEX_OK)
            fail_msg("%s: exact search: %s", specs[i], err.msg);
        assert_true(r.optimal);
        if (b.value != r.steps)
            fail_msg("%s: forwarding bound %llu, exact optimum %llu", specs[i], (unsigned long long)b.value,
                     (unsigned long long)r.steps);
        totex_exact_result_free(&r);
        free(w);
        totex_network_free(net);
    }
}


static totex_bound forwarding_k(const totex_network *net, totex_ports k, uint64_t **w)
{
    totex_bound b;
    totex_error err = {{0}};
    *w = malloc(sizeof **w * totex_network_nodes(net));
    assert_non_null(*w);
    if (totex_bound_forwarding_ports(net, k, *w, &b, &err) != TOTEX_OK)
        fail_msg("%s %u-port: %s", totex_network_spec(net), (unsigned)k, err.msg);
    assert_int_equal(b.kind, TOTEX_BOUND_FORWARDING);
    return b;
}

static void kport_value_from_witness(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x3", "mesh:3x4", "mesh:4x5", "path:5*ring:4", "k2*path:5", "path:4*complete:5",
                           "mesh:3x2x4"};
    const totex_ports ks[] = {2, 3, 4};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
            totex_network *net = ts_net(specs[i]);
            const uint32_t n = totex_network_nodes(net);
            uint64_t *w, CW = 0;
            totex_bound b = forwarding_k(net, ks[j], &w);
            for (uint32_t v = 0; v < n; v++) {
                uint32_t deg = 0; /* counted from the adjacency, not from the library's degree */
                for (uint32_t x = 0; x < n; x++)
                    deg += x != v && totex_network_adjacent(net, v, x);
                assert_true(w[v] <= (UINT64_C(1) << 20));
                CW += (deg < ks[j] ? deg : ks[j]) * w[v];
            }
            const uint64_t X = floyd_sum(net, w);
            if (b.value != (X + 2 * CW - 1) / (2 * CW))
                fail_msg("%s %u-port: reported %llu, its weights give X = %llu, sum c w = %llu", specs[i],
                         (unsigned)ks[j], (unsigned long long)b.value, (unsigned long long)X, (unsigned long long)CW);
            /* at least the k-port average status (the search starts from uniform weights), minus rounding */
            totex_bound all[TOTEX_MAX_BOUNDS];
            size_t count, best;
            assert_int_equal(totex_bounds_compute(net, ks[j], all, &count, &best, NULL), TOTEX_OK);
            assert_int_equal(all[0].kind, TOTEX_BOUND_AVERAGE_STATUS);
            assert_true(b.exact >= all[0].exact * (1 - 1e-5));
            assert_int_equal(all[count - 1].kind, TOTEX_BOUND_FORWARDING);
            assert_int_equal(all[count - 1].value, b.value);
            free(w);
            totex_network_free(net);
        }
    /* multiport: not this bound's (the cut bound) */
    totex_network *net = ts_net("mesh:3x3");
    totex_bound b;
    totex_error err = {{0}};
    assert_int_equal(totex_bound_forwarding_ports(net, TOTEX_PORTS_MULTI, NULL, &b, &err), TOTEX_EINVAL);
    totex_network_free(net);
}

static void kport_below_verified_schedules(void **state)
{
    (void)state;
    const struct {
        const char *spec, *algo;
        totex_ports k;
    } cases[] = {{"mesh:4x6", "greedy", 2},      {"mesh:8x8", "greedy", 2},         {"mesh:8x8", "greedy", 3},
                 {"path:5*ring:4", "greedy", 2}, {"path:6*complete:4", "greedy", 3}, {"mesh:3x2x4", "greedy", 2},
                 {"mesh:4x6", "a2", 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        uint64_t *w;
        totex_bound b = forwarding_k(net, cases[i].k, &w);
        totex_sim_report rep;
        ts_plan_ok(cases[i].spec, cases[i].k, cases[i].algo, &rep, NULL);
        if (b.value > rep.steps)
            fail_msg("%s %u-port: forwarding bound %llu above %s's verified %llu steps", cases[i].spec,
                     (unsigned)cases[i].k, (unsigned long long)b.value, cases[i].algo, (unsigned long long)rep.steps);
        free(w);
        totex_network_free(net);
    }
}

static void kport_meets_the_exact_optimum(void **state)
{
    (void)state;
    if (!totex_exact_solvers()[0])
        skip();
    const struct {
        const char *spec;
        totex_ports k;
        int above_average; /* 1: average status is below the optimum here, the forwarding bound is not */
    } cases[] = {{"mesh:2x3", 2, 0}, {"mesh:2x4", 2, 0}, {"mesh:3x3", 2, 1}, {"k2*path:4", 2, 0},
                 {"path:3*ring:3", 2, 0}, {"mesh:3x3", 3, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        uint64_t *w;
        totex_bound b = forwarding_k(net, cases[i].k, &w);
        totex_exact_options opt = {0};
        totex_exact_result r;
        totex_error err = {{0}};
        memset(&r, 0, sizeof r);
        opt.time_limit = 60;
        if (totex_exact_solve(net, cases[i].k, &opt, &r, &err) != TOTEX_OK)
            fail_msg("%s: exact search: %s", cases[i].spec, err.msg);
        assert_true(r.optimal);
        if (b.value != r.steps)
            fail_msg("%s %u-port: forwarding bound %llu, exact optimum %llu", cases[i].spec, (unsigned)cases[i].k,
                     (unsigned long long)b.value, (unsigned long long)r.steps);
        if (cases[i].above_average) {
            totex_bound all[TOTEX_MAX_BOUNDS];
            size_t count, best;
            assert_int_equal(totex_bounds_compute(net, cases[i].k, all, &count, &best, NULL), TOTEX_OK);
            assert_true(all[0].value < r.steps);
        }
        totex_exact_result_free(&r);
        free(w);
        totex_network_free(net);
    }
}

static void reported_by_bounds_compute(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:3x4");
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, &err), TOTEX_OK);
    assert_int_equal(count, 6);
    assert_int_equal(b[5].kind, TOTEX_BOUND_FORWARDING);
    assert_string_equal(totex_bound_kind_name(b[5].kind), "forwarding");
    assert_true(b[best].value >= b[5].value);
    /* multiport: not reported; vertex-transitive networks and too large ones: not applicable */
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &count, &best, &err), TOTEX_OK);
    for (size_t i = 0; i < count; i++)
        assert_int_not_equal(b[i].kind, TOTEX_BOUND_FORWARDING);
    totex_network_free(net);
    const char *no[] = {"torus:4x4", "hypercube:4", "mesh:32x64", "k2*k2", "path:9"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        net = ts_net(no[i]);
        totex_bound one;
        assert_int_equal(totex_bound_forwarding_weights(net, NULL, &one, &err), TOTEX_ENOTAPPLICABLE);
        assert_true(strlen(err.msg) > 0);
        totex_network_free(net);
    }
    assert_int_equal(totex_bound_forwarding_weights(NULL, NULL, &b[0], &err), TOTEX_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(value_from_witness),
        cmocka_unit_test(reaches_the_lp),
        cmocka_unit_test(below_verified_schedules),
        cmocka_unit_test(meets_the_exact_optimum),
        cmocka_unit_test(reported_by_bounds_compute),
        cmocka_unit_test(kport_value_from_witness),
        cmocka_unit_test(kport_below_verified_schedules),
        cmocka_unit_test(kport_meets_the_exact_optimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
