/*
 * Exact: the optimal total exchange schedule of a small network, by integer
 * programming, with a certificate of optimality.
 *
 * Source:  the model of 000 Section 1 and Section 3 (store-and-forward, unit
 *          messages, one step per link traversal; single-port and multiport)
 *          and 001 Section 7 (k-port); the time-expanded integer program with
 *          one integer commodity per destination is ours
 *          (src/exact/model.c); the starting horizon is the best lower bound
 *          of include/totex/bounds.h (000 eqs. (3), (4); receive, relay).
 * Model:   any: single-port, k-port, multiport; any network of at most
 *          TOTEX_EXACT_MAX_NODES (64) nodes whose program stays within
 *          TOTEX_EXACT_MAX_VARIABLES (include/totex/exact.h). Messages may
 *          take any route, shortest or not.
 * Steps:   the optimum T*: the smallest horizon whose program is feasible,
 *          searched from the best lower bound upwards; each T below T* is
 *          proved infeasible by the solver (CBC or GLPK), by the presolve
 *          (T < diameter) or by the analytic bound itself. When T* equals
 *          the fewest steps of the other algorithms their schedule is kept.
 * Optimal: always, when the search ends within its time limit
 *          (totex_exact_set_options(), the CLI's --time-limit); otherwise the
 *          best schedule found and the gap to the proved lower bound
 *          (totex_exact_last()). Unless asked for by name (the CLI's
 *          --algorithm exact calls totex_exact_set_options()), the search
 *          runs within the budget of totex_exact_set_auto_budget() (default
 *          TOTEX_EXACT_AUTO_BUDGET = 2 CPU seconds; the CLI's --exact-budget;
 *          0: not at all), down from the other algorithms' fewest steps, so
 *          that the automatic choice and `compare` take its schedule where it
 *          finds a better one in time and never start a long search (issue
 *          32 item 4; before: only up to 6 nodes, no budget).
 * Cost:    exponential in the worst case (integer programming); measured in
 *          bench/steps/bench_exact.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"
#include "exact/model.h"
#include "totex/exact.h"

/* per thread: the options the CLI set; the last search is kept in the memo (predict solves, plan replays) */
static _Thread_local totex_exact_options opts;
static _Thread_local int opts_set; /* 1: asked for by name (totex_exact_set_options()): up to the hard limit */

/* The exact search's upper bound: the fewest-steps schedule of the other registered algorithms, planned in memory. */
static totex_status best_other(const totex_network *net, totex_ports ports, totex_exact_result *out,
                               totex_error *err)
{
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        uint64_t steps;
        if (!strcmp(a->name, "exact") || a->applies(net, ports, NULL) != TOTEX_OK ||
            a->predict(net, ports, &steps, NULL) != TOTEX_OK)
            continue;
        if (out->schedule && steps >= out->steps)
            continue;
        totex_schedule *s = totex_schedule_new();
        if (!s)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory");
        if (a->plan(net, ports, totex_schedule_sink(s), NULL) != TOTEX_OK) {
            totex_schedule_free(s);
            continue;
        }
        /* completion time: the last step with a hop */
        uint64_t last = totex_schedule_steps(s);
        size_t cnt = 0;
        while (last > 0 && (totex_schedule_step(s, last - 1, &cnt), cnt == 0))
            last--;
        if (out->schedule && last >= out->steps) {
            totex_schedule_free(s);
            continue;
        }
        totex_schedule_free(out->schedule);
        out->schedule = s;
        out->steps = last;
        out->upper_from = a->name;
        out->heuristic_steps = last;
    }
    return TOTEX_OK;
}

totex_status totex_exact_solve(const totex_network *net, totex_ports ports, const totex_exact_options *opt,
                               totex_exact_result *out, totex_error *err)
{
    return totex_exact_search(net, ports, opt, best_other, out, err);
}

static void result_free(void *p)
{
    totex_exact_result_free(p);
    free(p);
}

static _Thread_local double auto_budget = TOTEX_EXACT_AUTO_BUDGET;

void totex_exact_set_auto_budget(double seconds)
{
    auto_budget = !(seconds >= 0) ? TOTEX_EXACT_AUTO_BUDGET : seconds > 31536000.0 ? 31536000.0 : seconds;
    totex_memo_forget(&totex_algorithm_exact); /* another budget: search again */
}

double totex_exact_auto_budget(void) { return auto_budget; }

void totex_exact_set_options(const totex_exact_options *opt)
{
    static const totex_exact_options zero = {0};
    opts = opt ? *opt : zero;
    opts_set = opt != NULL;
    totex_memo_forget(&totex_algorithm_exact); /* new options: search again */
}

const totex_exact_result *totex_exact_last(void) { return totex_memo_last(&totex_algorithm_exact); }

static totex_status exact_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    uint32_t n = totex_network_nodes(net);
    if (!totex_exact_solvers()[0])
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: no MIP solver was built in: install coinor-libcbc-dev or libglpk-dev (scripts/deps.sh) and rebuild");
    if (n > TOTEX_EXACT_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: %s has %u nodes, above the limit of %u nodes (%u messages) of the integer program",
                          totex_network_spec(net), n, TOTEX_EXACT_MAX_NODES,
                          TOTEX_EXACT_MAX_NODES * (TOTEX_EXACT_MAX_NODES - 1));
    if (opts_set)
        return TOTEX_OK;
    if (auto_budget <= 0)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: the automatic exact search is off (budget 0): give --exact-budget SECONDS, or ask for it with --algorithm exact");
    /* the smallest program it would build: the horizon of the best lower bound (a cheap check, so
       that the automatic choice does not plan every other algorithm again for nothing) */
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t nb = 0, ib = 0;
    totex_status st = totex_bounds_compute(net, ports, b, &nb, &ib, err);
    if (st != TOTEX_OK)
        return st;
    uint64_t lower = nb ? b[ib].value : 0;
    uint64_t vars = (uint64_t)n * (2 * totex_network_links(net) + n) * lower;
    if (vars > TOTEX_EXACT_MAX_VARIABLES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: %s under %s needs at least %llu variables (best lower bound %llu steps), above the limit of %u variables of the integer program",
                          totex_network_spec(net), totex_ports_name(ports), (unsigned long long)vars,
                          (unsigned long long)lower, TOTEX_EXACT_MAX_VARIABLES);
    return TOTEX_OK;
}

static totex_status exact_search(const totex_network *net, totex_ports ports, totex_memo *m, totex_error *err)
{
    if (totex_memo_get(&totex_algorithm_exact, net, ports, m))
        return TOTEX_OK;
    totex_exact_result *r = calloc(1, sizeof *r);
    if (!r)
        return totex_fail(err, TOTEX_ENOMEM, "exact: out of memory");
    totex_memo_forget(&totex_algorithm_exact);
    totex_exact_options o = opts;
    if (!opts_set) { /* the automatic choice's search: within the budget of CPU time, down from the others */
        o.time_limit = auto_budget;
        o.cpu_time = 1;
        o.descending = 1;
    }
    totex_status st = totex_exact_solve(net, ports, &o, r, err);
    if (st != TOTEX_OK) {
        result_free(r);
        return st;
    }
    totex_memo_put(&totex_algorithm_exact, net, ports, r->steps, 0, r, result_free);
    if (!totex_memo_get(&totex_algorithm_exact, net, ports, m))
        return totex_fail(err, TOTEX_ENOMEM, "exact: out of memory");
    return TOTEX_OK;
}

static totex_status exact_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_memo m;
    totex_status st = exact_applies(net, ports, err);
    if (st == TOTEX_OK)
        st = exact_search(net, ports, &m, err);
    if (st == TOTEX_OK)
        *steps = m.steps;
    return st;
}

static totex_status exact_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_memo m;
    totex_status st = exact_applies(net, ports, err);
    if (st == TOTEX_OK)
        st = exact_search(net, ports, &m, err);
    if (st == TOTEX_OK)
        st = totex_schedule_replay(((const totex_exact_result *)m.data)->schedule, sink, err);
    return st;
}

const totex_algorithm totex_algorithm_exact = {
    .name = "exact",
    .title = "Exact optimum by integer programming (time-expanded, one commodity per destination; CBC or GLPK)",
    .source = "000 Sections 1, 3 and 001 Section 7 (model); docs/algorithms/exact.md (program)",
    .applies = exact_applies,
    .predict = exact_predict,
    .plan = exact_plan,
    .costly_predict = 1,
};
