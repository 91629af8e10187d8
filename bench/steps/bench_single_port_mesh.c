/*
 * Benchmark: single-port meshes, schedules against the
 * bounds. For each mesh, balanced-greedy (src/algorithms/balanced_greedy.c),
 * with load-greedy and A2 as baselines planned and simulated in the same run:
 * steps, steps / best lower bound (the forwarding bound of
 * src/bounds/forwarding.c where it is the best), steps / A2's steps, and the
 * plan + verify wall time as a ratio to load-greedy's (the bounds are computed
 * before either is timed).
 * Targets: 3x3 <= 18, 3x4 <= 28, touchstone-delta steps / best
 * bound <= 1.15, each plan under 5 s.
 *
 * usage: bench_single_port_mesh [SPEC]...   (default: the list below)
 */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

typedef struct run {
    int ok;
    uint64_t steps, bound;
    double seconds;
    char kind[24];
} run;

static run plan(const totex_network *net, const char *name)
{
    run r;
    totex_error err = {{0}};
    totex_plan_result res;
    memset(&r, 0, sizeof r);
    const totex_algorithm *a = totex_algorithm_find(name, &err);
    double t0 = bench_now();
    if (a && totex_plan_and_verify(net, TOTEX_PORTS_SINGLE, a, 0, &res, &err) == TOTEX_OK) {
        r.ok = 1;
        r.steps = res.sim.steps;
        r.bound = res.bounds[res.best_bound].value;
        snprintf(r.kind, sizeof r.kind, "%s", totex_bound_kind_name(res.bounds[res.best_bound].kind));
        totex_plan_result_release(&res);
    } else {
        fprintf(stderr, "%s on %s: %s\n", name, totex_network_spec(net), err.msg);
    }
    r.seconds = bench_now() - t0;
    return r;
}

int main(int argc, char **argv)
{
    static const char *const dflt[] = {"mesh:3x3", "mesh:3x4", "mesh:4x6", "mesh:6x6", "mesh:8x16", "mesh:4x4x4",
                                       "mesh:16x16", "touchstone-delta"};
    const int count = argc > 1 ? argc - 1 : (int)(sizeof dflt / sizeof dflt[0]);
    printf("%-18s %8s %-11s %8s %8s %8s %9s %9s %8s %9s\n", "network", "bound", "(kind)", "balanced", "ratio",
           "load-gr.", "a2", "vs a2", "time s", "vs load-gr.");
    for (int i = 0; i < count; i++) {
        const char *spec = argc > 1 ? argv[i + 1] : dflt[i];
        totex_error err = {{0}};
        totex_network *net = totex_network_parse(spec, &err);
        if (!net) {
            fprintf(stderr, "%s: %s\n", spec, err.msg);
            return 2;
        }
        /* the bounds first: the forwarding bound is remembered per thread, so no plan below pays for it */
        totex_bound bnd[TOTEX_MAX_BOUNDS];
        size_t nb, ib;
        if (totex_bounds_compute(net, TOTEX_PORTS_SINGLE, bnd, &nb, &ib, &err) != TOTEX_OK) {
            fprintf(stderr, "%s: %s\n", spec, err.msg);
            totex_network_free(net);
            return 1;
        }
        run b = plan(net, "balanced-greedy"), l = plan(net, "load-greedy"), a = plan(net, "a2");
        if (!b.ok || !l.ok || !a.ok) {
            totex_network_free(net);
            return 1;
        }
        printf("%-18s %8llu %-11s %8llu %8.4f %8llu %9llu %9.4f %8.3f %9.3f\n", spec, (unsigned long long)b.bound,
               b.kind, (unsigned long long)b.steps, (double)b.steps / (double)b.bound, (unsigned long long)l.steps,
               (unsigned long long)a.steps, (double)b.steps / (double)a.steps, b.seconds, b.seconds / l.seconds);
        totex_network_free(net);
    }
    return 0;
}
