/*
 * The exact search (include/totex/exact.h, src/exact/).
 *
 * Independent checks: the simulator replays every schedule the integer
 * program produces (searched with no_upper, so the schedule is the solver's
 * own, never another algorithm's copied back); the optimum must equal the
 * steps of an algorithm that meets an analytic lower bound (then both are
 * optimal: rings, 003 Sections 3-4; tori and hypercubes, 001 Theorems 5 and
 * 7; 000 eqs. (3), (4)), and must never exceed any algorithm's simulated
 * steps nor fall below any bound. Times are budgets (time limits), never
 * timed assertions on speed; the speed table is bench/steps/bench_exact.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exact/model.h"
#include "support.h"

static uint64_t best_bound(const totex_network *net, totex_ports ports)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count = 0, best = 0;
    assert_int_equal(totex_bounds_compute(net, ports, b, &count, &best, NULL), TOTEX_OK);
    return b[best].value;
}

/* fewest simulated steps over the other algorithms that apply (UINT64_MAX: none) */
static uint64_t best_algorithm(const totex_network *net, totex_ports ports, const char **name)
{
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        totex_sim_report rep;
        totex_error err;
        if (!strcmp(a->name, "exact") || a->applies(net, ports, NULL) != TOTEX_OK)
            continue;
        totex_schedule *s = totex_schedule_new();
        assert_non_null(s);
        if (a->plan(net, ports, totex_schedule_sink(s), &err) == TOTEX_OK) {
            assert_int_equal(ts_simulate(net, ports, s, &rep, &err), TOTEX_OK);
            if (rep.steps < best) {
                best = rep.steps;
                if (name)
                    *name = a->name;
            }
        }
        totex_schedule_free(s);
    }
    return best;
}

/* exact search with the solver's own schedule; replays it; returns the optimum */
static uint64_t exact_own(const totex_network *net, totex_ports ports, const char *solver)
{
    totex_exact_options o = {0};
    totex_exact_result r;
    totex_sim_report rep;
    totex_error err = {{0}};
    o.no_upper = 1;
    o.solver = solver;
    o.time_limit = 120; /* a budget against a hang, far above what these take */
    totex_status st = totex_exact_solve(net, ports, &o, &r, &err);
    if (st != TOTEX_OK)
        fail_msg("exact on %s: %s", totex_network_spec(net), err.msg);
    assert_true(r.optimal);
    assert_false(r.timed_out);
    assert_string_equal(r.upper_from, "exact");
    assert_int_equal(r.lower, r.steps);
    /* the certificate: T - 1 proved infeasible by the solver, the presolve or an analytic bound */
    if (r.proof == TOTEX_EXACT_PROOF_BOUND)
        assert_int_equal(r.steps, r.analytic.value);
    st = ts_simulate(net, ports, r.schedule, &rep, &err);
    if (st != TOTEX_OK)
        fail_msg("exact schedule on %s rejected by the simulator: %s", totex_network_spec(net), err.msg);
    assert_int_equal(rep.steps, r.steps);
    assert_int_equal(rep.messages, totex_network_messages(net));
    uint64_t steps = r.steps;
    totex_exact_result_free(&r);
    return steps;
}

/* where an algorithm meets a lower bound, the optimum is exactly its steps */
static void check_meets_bound(const char *spec, totex_ports ports)
{
    totex_network *net = ts_net(spec);
    const char *name = NULL;
    uint64_t lb = best_bound(net, ports), alg = best_algorithm(net, ports, &name);
    if (alg != lb)
        fail_msg("%s: no algorithm meets the bound (%llu vs %llu): pick another network for this test", spec,
                 (unsigned long long)alg, (unsigned long long)lb);
    uint64_t opt = exact_own(net, ports, NULL);
    if (opt != alg)
        fail_msg("%s under %s: exact %llu steps, %s meets the bound at %llu", spec, totex_ports_name(ports),
                 (unsigned long long)opt, name, (unsigned long long)alg);
    totex_network_free(net);
}

static void test_rings_tori_hypercubes_multiport(void **state)
{
    (void)state;
    static const char *specs[] = {"ring:3", "ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "k2",
                                  "hypercube:2", "hypercube:3", "torus:3x3", "torus:3x4", "complete:4",
                                  "ring:3*k2"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        check_meets_bound(specs[i], TOTEX_PORTS_MULTI);
}

static void test_rings_tori_hypercubes_single_port(void **state)
{
    (void)state;
    static const char *specs[] = {"ring:3", "ring:4", "ring:5", "ring:6", "ring:7", "hypercube:2", "hypercube:3",
                                  "torus:3x3"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        check_meets_bound(specs[i], TOTEX_PORTS_SINGLE);
}

/* never above any algorithm, never below any bound, on networks where nothing meets a bound */
static void check_between(const char *spec, totex_ports ports, uint64_t expect)
{
    totex_network *net = ts_net(spec);
    uint64_t lb = best_bound(net, ports), alg = best_algorithm(net, ports, NULL);
    uint64_t opt = exact_own(net, ports, NULL);
    if (opt < lb || opt > alg)
        fail_msg("%s under %s: exact %llu outside [bound %llu, best algorithm %llu]", spec, totex_ports_name(ports),
                 (unsigned long long)opt, (unsigned long long)lb, (unsigned long long)alg);
    if (expect && opt != expect)
        fail_msg("%s under %s: exact %llu, expected %llu", spec, totex_ports_name(ports), (unsigned long long)opt,
                 (unsigned long long)expect);
    totex_network_free(net);
}

static void test_never_above_algorithms(void **state)
{
    (void)state;
    check_between("mesh:2x3", TOTEX_PORTS_SINGLE, 0);
    check_between("mesh:3x3", TOTEX_PORTS_MULTI, 0);
    check_between("path:2*ring:3", TOTEX_PORTS_SINGLE, 0);
    check_between("path:4", TOTEX_PORTS_SINGLE, 0);
    check_between("mesh:3x3", TOTEX_PORTS_SINGLE, 18); /* the known single-port optimum of the 3x3 mesh */
    check_between("torus:3x3", 2, 0); /* 2-port */
    check_between("file:" TOTEX_TEST_DATA "/greedy_star6.edges", TOTEX_PORTS_MULTI, 0);
    /* a star K_{1,5}: the centre relays every message between leaves, one per step (single-port):
       it sends 5 + 20 and receives 5 + 20, so 25 steps; the relay bound says the same */
    check_between("file:" TOTEX_TEST_DATA "/greedy_star6.edges", TOTEX_PORTS_SINGLE, 25);
}

/* every solver built in finds the same optimum */
static void test_solvers_agree(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:2x3");
    const char *names = totex_exact_solvers();
    uint64_t first = exact_own(net, TOTEX_PORTS_SINGLE, NULL);
    if (strstr(names, "cbc"))
        assert_int_equal(exact_own(net, TOTEX_PORTS_SINGLE, "cbc"), first);
    if (strstr(names, "glpk"))
        assert_int_equal(exact_own(net, TOTEX_PORTS_SINGLE, "glpk"), first);
    totex_exact_options o = {0};
    totex_exact_result r;
    totex_error err = {{0}};
    o.solver = "nosuch";
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_SINGLE, &o, &r, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, "nosuch"));
    totex_network_free(net);
}

/* the presolve's horizon pruning changes nothing but the size */
static void test_pruning_keeps_optimum(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:2x3");
    totex_exact_options o = {0};
    totex_exact_result a, b;
    totex_error err = {{0}};
    o.no_upper = 1;
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_MULTI, &o, &a, &err), TOTEX_OK);
    o.no_prune = 1;
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_MULTI, &o, &b, &err), TOTEX_OK);
    assert_int_equal(a.steps, b.steps);
    assert_true(a.variables < b.variables);
    totex_exact_result_free(&a);
    totex_exact_result_free(&b);
    totex_network_free(net);
}

static void test_size_limit_refused(void **state)
{
    (void)state;
    totex_exact_result r;
    totex_error err = {{0}};
    totex_network *net = ts_net("ring:65");
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_MULTI, NULL, &r, &err), TOTEX_ENOTAPPLICABLE);
    assert_non_null(strstr(err.msg, "64 nodes"));
    totex_network_free(net);
    net = ts_net("mesh:6x6"); /* 36 nodes, but single-port needs >= 140 steps: too many variables */
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_SINGLE, NULL, &r, &err), TOTEX_ENOTAPPLICABLE);
    assert_non_null(strstr(err.msg, "variables"));
    /* the registered algorithm refuses too: the automatic choice never tries it above its limits
       (mesh:6x6 single-port: 36 x (120 + 36) x 140 variables at the bound), nor with a budget of 0 */
    const totex_algorithm *a = totex_algorithm_find("exact", NULL);
    assert_non_null(a);
    totex_exact_set_options(NULL);
    assert_int_equal(a->applies(net, TOTEX_PORTS_SINGLE, &err), TOTEX_ENOTAPPLICABLE);
    assert_non_null(strstr(err.msg, "variables"));
    totex_exact_set_auto_budget(0);
    assert_int_equal(a->applies(net, TOTEX_PORTS_MULTI, &err), TOTEX_ENOTAPPLICABLE);
    assert_non_null(strstr(err.msg, "--exact-budget"));
    assert_non_null(strstr(err.msg, "--algorithm exact"));
    totex_exact_set_auto_budget(-1);
    assert_true(totex_exact_auto_budget() == TOTEX_EXACT_AUTO_BUDGET);
    totex_network_free(net);
}

/* a small budget ends the search with the best schedule found and the proved bound */
static void test_time_limit_honoured(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:3x4"); /* single-port: bound 26, optimum 28, greedy 35 */
    totex_exact_options o = {0};
    totex_exact_result r;
    totex_sim_report rep;
    totex_error err = {{0}};
    o.time_limit = 0.3;
    assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_SINGLE, &o, &r, &err), TOTEX_OK);
    /* generous slack for a loaded machine: the limit is checked between and inside solver calls */
    assert_true(r.seconds < 0.3 + 10.0);
    if (!r.optimal) {
        assert_true(r.timed_out);
        assert_true(r.lower <= 28 && r.steps >= 28);
        assert_true(r.lower >= best_bound(net, TOTEX_PORTS_SINGLE));
    }
    assert_int_equal(ts_simulate(net, TOTEX_PORTS_SINGLE, r.schedule, &rep, &err), TOTEX_OK);
    assert_int_equal(rep.steps, r.steps);
    totex_bound b;
    totex_exact_bound(&r, 1, &b);
    assert_int_equal(b.kind, TOTEX_BOUND_EXACT);
    assert_string_equal(totex_bound_kind_name(b.kind), "exact");
    assert_int_equal(b.value, r.lower);
    assert_non_null(strstr(b.witness, r.optimal ? "optimum" : "gap"));
    totex_exact_result_free(&r);
    /* CBC alone, no schedule from the other algorithms: its first LP runs far past a 1 s limit unless the
       call is cut at the deadline (src/exact/bounded.c); then no schedule was found, and the error says so */
    if (strstr(totex_exact_solvers(), "cbc")) {
        o.time_limit = 1.0;
        o.solver = "cbc";
        o.no_upper = 1;
        struct timespec ta, tb;
        clock_gettime(CLOCK_MONOTONIC, &ta);
        assert_int_equal(totex_exact_solve(net, TOTEX_PORTS_SINGLE, &o, &r, &err), TOTEX_ENOTAPPLICABLE);
        clock_gettime(CLOCK_MONOTONIC, &tb);
        /* the limit plus the deadline's 0.5 s grace plus generous slack for a loaded machine */
        assert_true((double)(tb.tv_sec - ta.tv_sec) + 1e-9 * (double)(tb.tv_nsec - ta.tv_nsec) < 1.0 + 5.0);
        assert_non_null(strstr(err.msg, "time limit"));
        assert_non_null(strstr(err.msg, "raise --time-limit"));
    }
    totex_network_free(net);
}

/* the registered algorithm: planned through the driver, replayed by the simulator */
static void test_registered_algorithm(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:3x3");
    totex_plan_result res;
    totex_error err = {{0}};
    totex_exact_options o = {0};
    const totex_algorithm *a = totex_algorithm_find("exact", NULL);
    totex_exact_set_options(&o);
    assert_int_equal(totex_plan_and_verify(net, TOTEX_PORTS_MULTI, a, 0, &res, &err), TOTEX_OK);
    assert_true(res.verified && res.full_simulation);
    assert_int_equal(res.sim.steps, totex_exact_last()->steps);
    assert_true(totex_exact_last()->optimal);
    assert_true(res.sim.steps <= best_algorithm(net, TOTEX_PORTS_MULTI, NULL));
    totex_exact_set_options(NULL);
    assert_null(totex_exact_last());
    totex_network_free(net);
}

/*
 * The automatic choice's exact search: on the Petersen graph under 2-port no other
 * algorithm reaches the optimum, so with a budget auto takes the search's schedule, replayed in full by
 * the simulator, with fewer steps than with the search off (budget 0), and equal to the optimum the
 * search proves on its own (up from the bound, no other algorithm's schedule: exact_own). The budget is
 * generous (60 CPU s; the search takes about 0.5) so that a loaded machine cannot change the outcome.
 */
static void test_auto_budget(void **state)
{
    (void)state;
    totex_network *net = ts_net("file:" TOTEX_TEST_DATA "/greedy_petersen.edges");
    const totex_ports k2 = 2;
    totex_plan_result off, on;
    totex_error err = {{0}};
    uint64_t optimum = exact_own(net, k2, NULL);
    totex_exact_set_options(NULL);
    totex_exact_set_auto_budget(0);
    assert_int_equal(totex_plan_best(net, k2, TOTEX_OBJECTIVE_STEPS, 0, &off, &err), TOTEX_OK);
    assert_true(off.exact_reported && !off.exact_ran && off.exact_budget == 0);
    assert_non_null(strstr(off.exact_note, "off"));
    assert_string_not_equal(off.algorithm->name, "exact");
    assert_true(off.sim.steps > optimum); /* else this network no longer tests anything: pick another */
    totex_exact_set_auto_budget(60);
    assert_int_equal(totex_plan_best(net, k2, TOTEX_OBJECTIVE_STEPS, 0, &on, &err), TOTEX_OK);
    assert_string_equal(on.algorithm->name, "exact");
    assert_true(on.verified && on.full_simulation);
    assert_int_equal(on.sim.steps, optimum);
    assert_true(on.exact_reported && on.exact_ran && on.exact_optimal && !on.exact_timed_out);
    assert_int_equal(on.exact_steps, optimum);
    assert_int_equal(on.exact_lower, optimum);
    assert_true(on.exact_cpu_seconds > 0 && on.exact_budget == 60);
    /* a network where a candidate meets the bound: the search is not needed, and says so */
    totex_network *torus = ts_net("torus:3x3");
    assert_int_equal(totex_plan_best(torus, TOTEX_PORTS_MULTI, TOTEX_OBJECTIVE_STEPS, 0, &on, &err), TOTEX_OK);
    assert_true(on.exact_reported && !on.exact_ran);
    assert_non_null(strstr(on.exact_note, "not needed"));
    totex_exact_set_auto_budget(-1);
    totex_network_free(torus);
    totex_network_free(net);
}

/* the descending search with a CPU-time limit of @p limit seconds; its schedule replayed by the simulator */
static void descend(const char *spec, totex_ports ports, double limit, totex_exact_result *r)
{
    totex_network *net = ts_net(spec);
    totex_exact_options o = {0};
    totex_sim_report rep;
    totex_error err = {{0}};
    o.descending = 1;
    o.cpu_time = 1;
    o.time_limit = limit;
    assert_int_equal(totex_exact_solve(net, ports, &o, r, &err), TOTEX_OK);
    assert_int_equal(ts_simulate(net, ports, r->schedule, &rep, &err), TOTEX_OK);
    assert_int_equal(rep.steps, r->steps);
    if (r->optimal && limit >= 10) /* the same optimum as the search up from the bound, on its own */
        assert_int_equal(r->steps, exact_own(net, ports, NULL));
    totex_network_free(net);
}

/* the descending search (the automatic choice's order) finds the same optimum as the ascending one,
   within a CPU-time limit that a loaded machine does not shorten */
static void test_descending_cpu_limit(void **state)
{
    (void)state;
    totex_exact_result r;
    descend("file:" TOTEX_TEST_DATA "/greedy_star6.edges", TOTEX_PORTS_MULTI, 60, &r);
    assert_true(r.optimal && !r.timed_out);
    assert_true(r.cpu_seconds > 0 && r.cpu_seconds < 60 + 1);
    totex_exact_result_free(&r);
    descend("file:" TOTEX_TEST_DATA "/greedy_petersen.edges", 2, 60, &r);
    assert_true(r.optimal && !r.timed_out);
    assert_string_equal(r.upper_from, "exact"); /* greedy's 9 steps are not optimal: the search's own 8 */
    totex_exact_result_free(&r);
    /* a small CPU budget ends the search (the optimum 14 takes seconds of CBC): the best schedule
       found stands, never below the optimum; the CPU used stays near the budget (the other
       algorithms' planning is counted too and is not cut, hence the slack) */
    descend("path:3*path:4", 2, 0.3, &r);
    assert_true(r.timed_out || r.optimal);
    assert_true(r.steps >= 14 && r.lower <= 14);
    assert_true(r.cpu_seconds < 0.3 + 5.0);
    totex_exact_result_free(&r);
}

/* row r of @p m at x: its value (the triplets are in row order) */
static void check_rows(const totex_mip *m, const double *x)
{
    double *val = calloc((size_t)m->nrows + 1, sizeof *val);
    assert_non_null(val);
    for (size_t e = 0; e < m->nnz; e++)
        val[m->ti[e]] += m->tv[e] * x[m->tj[e]];
    for (uint32_t r = 0; r < m->nrows; r++)
        if (val[r] < m->row_lb[r] - 1e-6 || val[r] > m->row_ub[r] + 1e-6)
            fail_msg("row %u: %g outside [%g, %g]", r, val[r], m->row_lb[r], m->row_ub[r]);
    for (uint32_t j = 0; j < m->ncols; j++)
        assert_true(x[j] >= -1e-6 && x[j] <= m->col_ub[j] + 1e-6);
    free(val);
}

/*
 * The mirror-symmetric program (src/exact/symmetric.c) on path:3*path:4 under 2-port: the reflection
 * is the path:4 mirror, computed here from the coordinates; the columns of one orbit are exactly a
 * column and its image; a solution of the restricted program, expanded, satisfies every row of the
 * full program (evaluated here), decodes into a schedule that the simulator replays in 14 steps (the
 * forwarding bound) and that the mirror maps onto itself, hop for hop; at 13 steps (below the bound)
 * the restricted program is infeasible too.
 */
static void test_mirrored_program(void **state)
{
    (void)state;
    totex_network *net = ts_net("path:3*path:4");
    const uint32_t n = totex_network_nodes(net);
    const totex_ports k2 = 2;
    totex_error err = {{0}};
    uint32_t g[12];
    assert_int_equal(n, 12);
    assert_int_equal(totex_mip_reflections(net, NULL), 1); /* path:3 is odd: no mirror without a fixed node */
    totex_mip_reflections(net, g);
    for (uint32_t u = 0; u < n; u++) {
        assert_int_equal(totex_network_coord(net, g[u], 0), totex_network_coord(net, u, 0));
        assert_int_equal(totex_network_coord(net, g[u], 1), 3 - totex_network_coord(net, u, 1));
    }
    assert_int_equal(best_bound(net, k2), 14);
    const totex_mip_solver *cbc = NULL;
    for (size_t i = 0; totex_mip_solvers()[i]; i++)
        if (!strcmp(totex_mip_solvers()[i]->name, "cbc"))
            cbc = totex_mip_solvers()[i];
    if (!cbc) {
        totex_network_free(net);
        skip();
    }
    for (uint32_t T = 13; T <= 14; T++) {
        totex_mip full, q;
        assert_int_equal(totex_mip_build(net, k2, T, NULL, &full, &err), TOTEX_OK);
        uint32_t *orbit = malloc(full.ncols * sizeof *orbit);
        assert_non_null(orbit);
        assert_int_equal(totex_mip_symmetric(net, &full, g, 1, &q, orbit, &err), TOTEX_OK);
        /* orbits: a column and its image, nothing else */
        uint32_t *size = calloc(q.ncols, sizeof *size);
        assert_non_null(size);
        for (uint32_t c = 0; c < full.ncols; c++) {
            const totex_mip_col *a = &full.col[c];
            size[orbit[c]]++;
            uint32_t found = 0;
            for (uint32_t j = 0; j < full.ncols; j++) {
                const totex_mip_col *b = &full.col[j];
                if (b->step == a->step && b->dst == g[a->dst] && b->from == g[a->from] && b->to == g[a->to]) {
                    assert_int_equal(orbit[j], orbit[c]);
                    found++;
                }
            }
            assert_int_equal(found, 1);
        }
        for (uint32_t o = 0; o < q.ncols; o++)
            assert_int_equal(size[o], 2); /* the mirror fixes no node, so no column */
        assert_true(q.nrows < full.nrows);
        double *y = malloc(q.ncols * sizeof *y), *x = malloc(full.ncols * sizeof *x);
        totex_mip_outcome oc;
        assert_true(y && x);
        q.min_hops = 1;
        assert_int_equal(cbc->solve(&q, 0, 0, &oc, y, &err), TOTEX_OK);
        if (T == 13) {
            assert_int_equal(oc, TOTEX_MIP_INFEASIBLE);
        } else {
            assert_int_equal(oc, TOTEX_MIP_FEASIBLE);
            for (uint32_t c = 0; c < full.ncols; c++)
                x[c] = y[orbit[c]];
            check_rows(&full, x);
            totex_schedule *s = NULL;
            totex_sim_report rep;
            assert_int_equal(totex_mip_decode(net, &full, x, &s, &err), TOTEX_OK);
            assert_int_equal(ts_simulate(net, k2, s, &rep, &err), TOTEX_OK);
            assert_int_equal(rep.steps, 14);
            assert_int_equal(rep.messages, totex_network_messages(net));
            for (uint64_t t = 0; t < totex_schedule_steps(s); t++) {
                size_t cnt = 0;
                const totex_hop *h = totex_schedule_step(s, t, &cnt);
                for (size_t i = 0; i < cnt; i++) {
                    size_t img = 0;
                    for (size_t j = 0; j < cnt; j++)
                        img += h[j].from == g[h[i].from] && h[j].to == g[h[i].to] && h[j].dst == g[h[i].dst];
                    assert_true(img >= 1);
                }
            }
            totex_schedule_free(s);
        }
        free(x);
        free(y);
        free(size);
        free(orbit);
        totex_mip_free(&q);
        totex_mip_free(&full);
    }
    totex_network_free(net);
}

/*
 * Issue 32: path:3*path:4 and path:4*path:3 under 2-port, the automatic choice at its default budget
 * (2 CPU s) takes the search's 14-step schedule (balanced-ports: 15), equal to the forwarding bound (so
 * optimal) and replayed in full by the simulator. The search needs about 0.6 CPU s (the mirror-symmetric
 * program); the full program alone needs about 3.
 */
static void test_auto_default_budget_path_products(void **state)
{
    (void)state;
    const char *specs[] = {"path:3*path:4", "path:4*path:3"};
    for (size_t i = 0; i < 2; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_plan_result r;
        totex_error err = {{0}};
        totex_exact_set_options(NULL);
        totex_exact_set_auto_budget(-1); /* the default */
        assert_true(totex_exact_auto_budget() == TOTEX_EXACT_AUTO_BUDGET);
        uint64_t bound = best_bound(net, 2);
        assert_true(best_algorithm(net, 2, NULL) > bound); /* else this tests nothing: pick another network */
        assert_int_equal(totex_plan_best(net, 2, TOTEX_OBJECTIVE_STEPS, 0, &r, &err), TOTEX_OK);
        if (r.sim.steps != bound)
            fail_msg("%s k:2: auto %s %llu steps, bound %llu (search used %.2f CPU s)", specs[i],
                     r.algorithm->name, (unsigned long long)r.sim.steps, (unsigned long long)bound,
                     r.exact_cpu_seconds);
        assert_string_equal(r.algorithm->name, "exact");
        assert_true(r.verified && r.full_simulation);
        assert_true(r.exact_optimal);
        totex_network_free(net);
    }
}

int main(void)
{
    if (!totex_exact_solvers()[0]) {
        fprintf(stderr, "test_exact: no MIP solver built in (install coinor-libcbc-dev or libglpk-dev)\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rings_tori_hypercubes_multiport),
        cmocka_unit_test(test_rings_tori_hypercubes_single_port),
        cmocka_unit_test(test_never_above_algorithms),
        cmocka_unit_test(test_solvers_agree),
        cmocka_unit_test(test_pruning_keeps_optimum),
        cmocka_unit_test(test_size_limit_refused),
        cmocka_unit_test(test_time_limit_honoured),
        cmocka_unit_test(test_registered_algorithm),
        cmocka_unit_test(test_auto_budget),
        cmocka_unit_test(test_descending_cpu_limit),
        cmocka_unit_test(test_mirrored_program),
        cmocka_unit_test(test_auto_default_budget_path_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
