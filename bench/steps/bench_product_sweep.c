/*
 * The product sweep: the 96 two-factor products of path, ring and
 * complete graphs with sides 3 to 6, and the meshes 8x8, 16x16 and
 * touchstone-delta (16x32), under single-port, k:2, k:3 and multiport.
 *
 *   bench_product_sweep [--exact-limit S] [--exact-nodes N] [--exact-cache FILE]
 *                       [--exact-budget S] [--ports LIST] [--only SPEC] [--no-meshes]
 *                       [--no-products]
 *
 * Per network and port model it prints: the automatic choice's algorithm and
 * steps (totex_plan_and_verify with no algorithm: every candidate replayed by
 * the simulator), the best analytic bound (totex/bounds.h) and its kind, the
 * exact optimum (totex_exact_solve, its schedule replayed by the simulator)
 * where the search proves it within S seconds (default 3) on networks of at
 * most N nodes (default 16), else its proved range "lower..upper" or "-",
 * and the ratios steps / bound and steps / optimum. Then per port model: how
 * many networks are within the targets (1.05 x the exact optimum where
 * proved, else 1.10 x the best bound; meshes: 1.15 x the best bound under
 * k:2 and k:3, 1.05 x under single-port) and the largest ratios.
 *
 * --exact-cache FILE keeps the exact results between runs (lines "spec ports
 * lower upper optimal timed_out limit"): a cached entry is used when it was
 * proved, or when it timed out under at least the current limit. The
 * searches dominate the run time (about 5 minutes at 3 s and 16 nodes on
 * 2 cores); with a warm cache the sweep takes about a minute.
 * --exact-budget S: the automatic choice's own exact search, in CPU seconds
 * (totex_exact_set_auto_budget(); default 2, the library's; 0: off), printed
 * in the header.
 * --ports LIST: comma-separated port models (default single,k:2,k:3,multi).
 * Exit 0; 1 if a schedule fails verification or a bound exceeds a verified
 * schedule or a proved optimum (a bug).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

static double exact_limit = 3.0;
static uint32_t exact_nodes = 16;
static const char *cache_path = NULL;

typedef struct cache_entry {
    char spec[64], ports[16];
    uint64_t lower, upper;
    int optimal, timed_out;
    double limit;
} cache_entry;

static cache_entry *cache;
static size_t ncache, capcache;

static void cache_load(void)
{
    FILE *f = cache_path ? fopen(cache_path, "r") : NULL;
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        cache_entry e;
        if (sscanf(line, "%63s %15s %" SCNu64 " %" SCNu64 " %d %d %lf", e.spec, e.ports, &e.lower, &e.upper, &e.optimal,
                   &e.timed_out, &e.limit) != 7)
            continue;
        if (ncache == capcache) {
            capcache = capcache ? 2 * capcache : 256;
            cache = realloc(cache, sizeof *cache * capcache);
            if (!cache)
                exit(2);
        }
        cache[ncache++] = e;
    }
    if (f)
        fclose(f);
}

static void cache_add(const cache_entry *e)
{
    FILE *f = cache_path ? fopen(cache_path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%s %s %" PRIu64 " %" PRIu64 " %d %d %g\n", e->spec, e->ports, e->lower, e->upper, e->optimal,
            e->timed_out, e->limit);
    fclose(f);
}

static const cache_entry *cache_find(const char *spec, const char *ports)
{
    for (size_t i = ncache; i-- > 0;)
        if (!strcmp(cache[i].spec, spec) && !strcmp(cache[i].ports, ports) &&
            (cache[i].optimal || cache[i].limit >= exact_limit))
            return &cache[i];
    return NULL;
}

typedef struct tally {
    unsigned rows, within, proved, over_bound105, over_bound110;
    double worst_bound, worst_opt;
    char worst_bound_spec[64], worst_opt_spec[64];
} tally;

static int failures;

/* the exact search on @p net: 1 and *e filled when it ran (or was cached), 0 when not attempted */
static int exact_of(const totex_network *net, totex_ports ports, const char *spec, const char *pname, cache_entry *e)
{
    if (totex_network_nodes(net) > exact_nodes || exact_limit <= 0)
        return 0;
    const cache_entry *c = cache_find(spec, pname);
    if (c) {
        *e = *c;
        return 1;
    }
    totex_exact_options opt = {0};
    opt.time_limit = exact_limit;
    totex_exact_result r;
    totex_error err;
    if (totex_exact_solve(net, ports, &opt, &r, &err) != TOTEX_OK) {
        fprintf(stderr, "%s %s: exact search: %s\n", spec, pname, err.msg);
        return 0;
    }
    /* the search's schedule, replayed by the simulator: its steps are an upper bound only if it is valid */
    uint64_t upper = r.steps;
    if (r.schedule) {
        totex_sim *sim = totex_sim_new(net, ports, 0, &err);
        totex_sim_report rep;
        totex_status st = sim ? totex_schedule_replay(r.schedule, totex_sim_sink(sim), &err) : TOTEX_ENOMEM;
        if (st == TOTEX_OK)
            st = totex_sim_finish(sim, &rep, &err);
        totex_sim_free(sim);
        if (st != TOTEX_OK || rep.steps != r.steps) {
            fprintf(stderr, "%s %s: the exact search's schedule fails the simulator: %s\n", spec, pname, err.msg);
            failures++;
            totex_exact_result_free(&r);
            return 0;
        }
    }
    memset(e, 0, sizeof *e);
    snprintf(e->spec, sizeof e->spec, "%s", spec);
    snprintf(e->ports, sizeof e->ports, "%s", pname);
    e->lower = r.lower;
    e->upper = upper;
    e->optimal = r.optimal;
    e->timed_out = r.timed_out;
    e->limit = exact_limit;
    totex_exact_result_free(&r);
    cache_add(e);
    return 1;
}

static void row(const char *spec, totex_ports ports, const char *pname, int mesh, tally *t)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        failures++;
        return;
    }
    totex_plan_result r;
    double t0 = bench_now();
    totex_status st = totex_plan_and_verify(net, ports, NULL, 0, &r, &err);
    double secs = bench_now() - t0;
    if (st != TOTEX_OK || !r.verified) {
        printf("| %s | %s | - | failed: %s |\n", spec, pname, err.msg);
        failures++;
        totex_network_free(net);
        return;
    }
    const totex_bound *b = &r.bounds[r.best_bound];
    uint64_t steps = r.sim.steps, bound = b->value;
    cache_entry e;
    int ex = mesh ? 0 : exact_of(net, ports, spec, pname, &e);
    char exs[64] = "-", ropt[16] = "-";
    double rb = (double)steps / (double)bound, ro = 0;
    if (bound > steps) {
        fprintf(stderr, "%s %s: bound %" PRIu64 " above a verified schedule of %" PRIu64 " steps\n", spec, pname, bound,
                steps);
        failures++;
    }
    if (ex) {
        if (e.optimal) {
            snprintf(exs, sizeof exs, "%" PRIu64, e.lower);
            ro = (double)steps / (double)e.lower;
            snprintf(ropt, sizeof ropt, "%.3f", ro);
            if (bound > e.lower) {
                fprintf(stderr, "%s %s: bound %" PRIu64 " above the proved optimum %" PRIu64 "\n", spec, pname, bound,
                        e.lower);
                failures++;
            }
        } else {
            snprintf(exs, sizeof exs, "%" PRIu64 "..%" PRIu64, e.lower, e.upper);
        }
    }
    int within;
    if (mesh)
        within = rb <= (ports == TOTEX_PORTS_SINGLE ? 1.05 : ports == TOTEX_PORTS_MULTI ? 1.0 + 1e-9 : 1.15) + 1e-9;
    else if (ex && e.optimal)
        within = ro <= 1.05 + 1e-9;
    else
        within = rb <= 1.10 + 1e-9;
    printf("| %s | %s | %u | %s | %" PRIu64 " | %" PRIu64 " (%s) | %s | %.3f | %s | %s | %.2f |\n", spec, pname,
           totex_network_nodes(net), r.algorithm ? r.algorithm->name : "?", steps, bound, totex_bound_kind_name(b->kind),
           exs, rb, ropt, within ? "yes" : "**no**", secs);
    fflush(stdout);
    t->rows++;
    t->within += (unsigned)within;
    t->proved += (unsigned)(ex && e.optimal);
    t->over_bound105 += rb > 1.05 + 1e-9;
    t->over_bound110 += rb > 1.10 + 1e-9;
    if (rb > t->worst_bound) {
        t->worst_bound = rb;
        snprintf(t->worst_bound_spec, sizeof t->worst_bound_spec, "%s", spec);
    }
    if (ro > t->worst_opt) {
        t->worst_opt = ro;
        snprintf(t->worst_opt_spec, sizeof t->worst_opt_spec, "%s", spec);
    }
    totex_plan_result_release(&r);
    totex_network_free(net);
}

int main(int argc, char **argv)
{
    const char *plist = "single,k:2,k:3,multi", *only = NULL;
    int meshes = 1, products = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--exact-limit") && i + 1 < argc)
            exact_limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--exact-nodes") && i + 1 < argc)
            exact_nodes = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--exact-cache") && i + 1 < argc)
            cache_path = argv[++i];
        else if (!strcmp(argv[i], "--exact-budget") && i + 1 < argc)
            totex_exact_set_auto_budget(atof(argv[++i]));
        else if (!strcmp(argv[i], "--ports") && i + 1 < argc)
            plist = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--no-meshes"))
            meshes = 0;
        else if (!strcmp(argv[i], "--no-products"))
            products = 0;
        else {
            fprintf(stderr, "usage: %s [--exact-limit S] [--exact-nodes N] [--exact-cache FILE] [--exact-budget S] [--ports LIST] "
                            "[--only SPEC] [--no-meshes] [--no-products]\n",
                    argv[0]);
            return 2;
        }
    }
    cache_load();
    static const char *kinds[] = {"path", "ring", "complete"};
    char plist_copy[128];
    snprintf(plist_copy, sizeof plist_copy, "%s", plist);
    char *save = NULL;
    double t0 = bench_now();
    printf("exact search: at most %u nodes, %.3g s each; auto's own exact search: %g CPU s (--exact-budget)\n\n",
           exact_nodes, exact_limit, totex_exact_auto_budget());
    for (char *pn = strtok_r(plist_copy, ",", &save); pn; pn = strtok_r(NULL, ",", &save)) {
        totex_ports ports;
        totex_error err;
        if (totex_ports_parse(pn, &ports, &err) != TOTEX_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        tally t = {0}, tm = {0};
        printf("### %s\n\n", pn);
        printf("| network | ports | nodes | auto | steps | best bound | exact | steps/bound | steps/exact | within target | seconds |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int a = 0; products && a < 3; a++)
            for (int b = a; b < 3; b++)
                for (int x = 3; x <= 6; x++)
                    for (int y = 3; y <= 6; y++) {
                        char spec[64];
                        snprintf(spec, sizeof spec, "%s:%d*%s:%d", kinds[a], x, kinds[b], y);
                        if (only && strcmp(only, spec))
                            continue;
                        row(spec, ports, pn, 0, &t);
                    }
        static const char *big[] = {"mesh:8x8", "mesh:16x16", "touchstone-delta"};
        for (int i = 0; meshes && i < 3; i++)
            if (!only || !strcmp(only, big[i]))
                row(big[i], ports, pn, 1, &tm);
        printf("\n%s: products: %u of %u within target (1.05 x optimum where proved [%u proved], else 1.10 x bound); "
               "%u above 1.05 x bound, %u above 1.10 x; worst steps/bound %.3f (%s), worst steps/optimum %.3f (%s)\n",
               pn, t.within, t.rows, t.proved, t.over_bound105, t.over_bound110, t.worst_bound, t.worst_bound_spec,
               t.worst_opt, t.worst_opt_spec);
        if (tm.rows)
            printf("%s: meshes: %u of %u within target; worst steps/bound %.3f (%s)\n", pn, tm.within, tm.rows,
                   tm.worst_bound, tm.worst_bound_spec);
        printf("\n");
    }
    printf("total %.1f s\n", bench_now() - t0);
    return failures ? 1 : 0;
}
