/*
 * Selection among the message-combining algorithms (include/totex/combining.h):
 * build every registered algorithm, replay it through the combining simulator
 * and rank by predicted time (the cost model of 002 Section 2); and the sweep
 * of block sizes 8 B .. 1 MiB that finds the winner per size.
 */
#include "totex/combining.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/progress.h"

/* Build @p a and simulate it into @p row; the simulation is a phase "@p what" of @p prog (NULL: none). */
static void run_one(const totex_network *net, const totex_comb_cost *cost, const totex_comb_algorithm *a,
                    totex_comb_choice *row, totex_progress *prog, const char *what)
{
    totex_error err;
    totex_comb_schedule *s = NULL;
    memset(row, 0, sizeof *row);
    row->algorithm = a;
    err.msg[0] = '\0';
    row->status = a->build(net, cost, &s, &err);
    if (row->status == TOTEX_OK && !s)
        row->status = totex_fail(&err, TOTEX_EINVAL, "%s built no schedule", a->name);
    if (row->status == TOTEX_OK) {
        totex_progress_phase(prog, what, totex_comb_steps(s));
        row->status = totex_comb_simulate_progress(net, s, cost, &row->report, NULL, prog, &err);
    }
    if (row->status != TOTEX_OK)
        snprintf(row->reason, sizeof row->reason, "%s", err.msg[0] ? err.msg : totex_status_name(row->status));
    totex_comb_schedule_free(s);
}

static int better(const totex_comb_choice *a, size_t ia, const totex_comb_choice *b, size_t ib)
{
    if (a->report.predicted_time != b->report.predicted_time)
        return a->report.predicted_time < b->report.predicted_time;
    if (a->report.startups != b->report.startups)
        return a->report.startups < b->report.startups;
    return ia < ib;
}

/* the options the entry points without options stand for: the process-wide progress switch */
static totex_comb_options legacy_options(void)
{
    totex_comb_options o = {0};
    o.progress = totex_progress_enabled() ? stderr : NULL;
    return o;
}

size_t totex_comb_rank(const totex_network *net, const totex_comb_cost *cost, totex_comb_choice *rows, size_t cap)
{
    const totex_comb_options o = legacy_options();
    return totex_comb_rank_with(net, cost, &o, rows, cap);
}

size_t totex_comb_rank_with(const totex_network *net, const totex_comb_cost *cost, const totex_comb_options *opt,
                            totex_comb_choice *rows, size_t cap)
{
    FILE *const fp = opt ? opt->progress : NULL;
    size_t count = totex_comb_algorithm_count(), n = count < cap ? count : cap, ok = 0;
    totex_comb_choice *tmp;
    size_t *order;
    if (!n)
        return 0;
    tmp = calloc(n, sizeof *tmp);
    order = calloc(n, sizeof *order);
    if (!tmp || !order) {
        free(tmp);
        free(order);
        for (size_t i = 0; i < n; i++) {
            memset(&rows[i], 0, sizeof rows[i]);
            rows[i].algorithm = totex_comb_algorithm_get(i);
            rows[i].status = TOTEX_ENOMEM;
            snprintf(rows[i].reason, sizeof rows[i].reason, "out of memory ranking the combining algorithms");
        }
        return n;
    }
    /* progress where the options say: one meter for the ranking, a phase per simulation */
    totex_progress *prog = fp ? totex_progress_new(fp, "ranking", 0, NULL, 1) : NULL;
    for (size_t i = 0; i < n; i++) {
        char what[64];
        const totex_comb_algorithm *a = totex_comb_algorithm_get(i);
        snprintf(what, sizeof what, "simulating %s (%zu/%zu)", a->name, i + 1, n);
        run_one(net, cost, a, &tmp[i], prog, what);
    }
    totex_progress_free(prog);
    /* insertion sort of the verified rows (a handful of algorithms) */
    for (size_t i = 0; i < n; i++) {
        if (tmp[i].status != TOTEX_OK)
            continue;
        size_t j = ok++;
        while (j > 0 && better(&tmp[i], i, &tmp[order[j - 1]], order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (size_t i = 0, k = ok; i < n; i++)
        if (tmp[i].status != TOTEX_OK)
            order[k++] = i;
    for (size_t i = 0; i < n; i++)
        rows[i] = tmp[order[i]];
    free(tmp);
    free(order);
    return n;
}

totex_status totex_comb_sweep(const totex_network *net, const totex_comb_cost *cost, double *times, size_t *winners,
                              totex_error *err)
{
    const totex_comb_options o = legacy_options();
    return totex_comb_sweep_with(net, cost, &o, times, winners, err);
}

totex_status totex_comb_sweep_with(const totex_network *net, const totex_comb_cost *cost,
                                   const totex_comb_options *opt, double *times, size_t *winners, totex_error *err)
{
    size_t count = totex_comb_algorithm_count();
    totex_comb_choice row;
    /* progress where the options say: one meter for the sweep, a phase per simulation */
    totex_progress *prog = opt && opt->progress ? totex_progress_new(opt->progress, "sweep", 0, NULL, 1) : NULL;
    for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++) {
        totex_comb_cost c = *cost;
        size_t best = SIZE_MAX;
        c.m = TOTEX_COMB_SWEEP_BLOCK(i);
        winners[i] = SIZE_MAX;
        for (size_t a = 0; a < count; a++) {
            const totex_comb_algorithm *alg = totex_comb_algorithm_get(a);
            char what[64];
            snprintf(what, sizeof what, "simulating %s at %.0f B (size %zu/%d)", alg->name, c.m, i + 1,
                     TOTEX_COMB_SWEEP_SIZES);
            run_one(net, &c, alg, &row, prog, what);
            times[i * count + a] = NAN;
            if (row.status == TOTEX_EVIOLATION) {
                totex_progress_free(prog);
                return totex_fail(err, row.status, "%s at block size %.0f B: %s", alg->name, c.m, row.reason);
            }
            if (row.status != TOTEX_OK)
                continue;
            times[i * count + a] = row.report.predicted_time;
            if (best == SIZE_MAX || row.report.predicted_time < times[i * count + best])
                best = a;
        }
        winners[i] = best;
    }
    totex_progress_free(prog);
    return TOTEX_OK;
}
