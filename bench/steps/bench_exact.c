/*
 * The exact search: the comparison table and the speed targets.
 *
 *   bench_exact [--table] [--targets] [--time-limit S] [--only SPEC]
 *
 * Table (--table): network, port model, best analytic bound, greedy's steps
 * (simulated), the fewest steps of any other algorithm, the exact optimum
 * searched FROM SCRATCH (no upper bound from the other algorithms: the
 * solver finds the schedule itself), how one step fewer was proved
 * infeasible, and the wall time of the search; every exact schedule is
 * replayed by the simulator. Networks: rings 4-9, paths 4-9, hypercubes 2-3,
 * tori 3x3 3x4 4x4, meshes 2x3 .. 4x4, path:2*ring:3 and two graphs read
 * from files (bench/data: the 8-GPU hybrid cube-mesh of the DGX-1, and a
 * 3x3 mesh with one diagonal), single-port and multiport.
 *
 * Targets (--targets): ring:7, ring:8, hypercube:3, torus:3x3 and
 * mesh:3x3 multiport proved in < 10 s each; mesh:3x3 and mesh:3x4
 * single-port in < 60 s each (wall time; the CPU time beside it is steadier
 * on a shared machine). Each is also run with CBC alone, GLPK alone and
 * without the horizon pruning, reported in CPU seconds and as a ratio
 * against the default configuration (GLPK's LP relaxation, then CBC) in the
 * same run. A variant that hits the time limit shows "> limit".
 *
 * Default: both. --time-limit S bounds each search (default 60 s).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

#ifndef TOTEX_BENCH_DATA
#define TOTEX_BENCH_DATA "bench/data"
#endif

static double limit = 60.0;

/* CPU seconds of this process and its finished children (with a time limit each solver call runs in a
   forked child, src/exact/bounded.c): steadier than wall time on a shared machine */
static double cpu_now(void)
{
    double t = 0;
    int who[2] = {RUSAGE_SELF, RUSAGE_CHILDREN};
    for (int i = 0; i < 2; i++) {
        struct rusage ru;
        getrusage(who[i], &ru);
        t += (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
             1e-6 * (double)ru.ru_stime.tv_usec;
    }
    return t;
}

static uint64_t simulate(const totex_network *net, totex_ports ports, const totex_schedule *s, totex_error *err)
{
    totex_sim *sim = totex_sim_new(net, ports, 0, err);
    totex_sim_report rep;
    totex_status st = sim ? totex_schedule_replay(s, totex_sim_sink(sim), err) : TOTEX_ENOMEM;
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &rep, err);
    totex_sim_free(sim);
    return st == TOTEX_OK ? rep.steps : 0;
}

/* simulated steps of algorithm @p name (0: does not apply) */
static uint64_t algo_steps(const totex_network *net, totex_ports ports, const totex_algorithm *a)
{
    totex_error err;
    if (a->applies(net, ports, NULL) != TOTEX_OK)
        return 0;
    totex_schedule *s = totex_schedule_new();
    uint64_t steps = 0;
    if (s && a->plan(net, ports, totex_schedule_sink(s), &err) == TOTEX_OK)
        steps = simulate(net, ports, s, &err);
    totex_schedule_free(s);
    return steps;
}

static void table_row(const char *label, const char *spec, totex_ports ports)
{
    totex_error err = {{0}};
    totex_network *net = totex_network_parse(spec, &err);
    char pm[16];
    if (!net) {
        printf("| %s | %s | error: %s |\n", label, totex_ports_format(ports, pm, sizeof pm), err.msg);
        return;
    }
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t nb = 0, ib = 0;
    totex_bounds_compute(net, ports, b, &nb, &ib, NULL);
    uint64_t greedy = 0, best = UINT64_MAX;
    const char *best_name = "-";
    for (size_t i = 0; i < totex_algorithm_count(); i++) {
        const totex_algorithm *a = totex_algorithm_get(i);
        if (!strcmp(a->name, "exact"))
            continue;
        uint64_t s = algo_steps(net, ports, a);
        if (!strcmp(a->name, "greedy"))
            greedy = s;
        if (s && s < best) {
            best = s;
            best_name = a->name;
        }
    }
    totex_exact_options o = {0};
    totex_exact_result r;
    o.time_limit = limit;
    o.no_upper = 1;
    double t0 = bench_now(), c0 = cpu_now();
    totex_status st = totex_exact_solve(net, ports, &o, &r, &err);
    double secs = bench_now() - t0, cpu = cpu_now() - c0;
    char exact[160], proof[96], ver[32] = "-";
    if (st == TOTEX_OK) {
        uint64_t sim = simulate(net, ports, r.schedule, &err);
        if (sim != r.steps)
            snprintf(ver, sizeof ver, "REJECTED");
        else
            snprintf(ver, sizeof ver, "yes");
        if (r.optimal)
            snprintf(exact, sizeof exact, "**%" PRIu64 "**", r.steps);
        else
            snprintf(exact, sizeof exact, "%" PRIu64 "..%" PRIu64 " (time limit)", r.lower, r.steps);
        if (r.proof == TOTEX_EXACT_PROOF_SOLVER)
            snprintf(proof, sizeof proof, "%s%s", r.proof_solver, r.proof_by_lp ? " LP" : " MIP");
        else
            snprintf(proof, sizeof proof, "%s", totex_exact_proof_name(r.proof));
        totex_exact_result_free(&r);
    } else {
        /* no schedule of its own within the limit: what a user gets, with the other algorithms' best as the
           upper bound and the lower bound proved in the same time */
        totex_exact_options o2 = {0};
        o2.time_limit = limit;
        double t1 = bench_now(), c1 = cpu_now();
        if (totex_exact_solve(net, ports, &o2, &r, &err) == TOTEX_OK) {
            snprintf(exact, sizeof exact, "%s%" PRIu64 "..%" PRIu64 " (own: none in %.0f s; with upper bound: %s)",
                     r.optimal ? "**" : "", r.lower, r.steps, limit, r.optimal ? "optimal**" : "time limit");
            if (r.proof == TOTEX_EXACT_PROOF_SOLVER)
                snprintf(proof, sizeof proof, "%s%s", r.proof_solver, r.proof_by_lp ? " LP" : " MIP");
            else
                snprintf(proof, sizeof proof, "%s", totex_exact_proof_name(r.proof));
            snprintf(ver, sizeof ver, "%s", simulate(net, ports, r.schedule, &err) == r.steps ? "yes" : "REJECTED");
            totex_exact_result_free(&r);
        } else {
            snprintf(exact, sizeof exact, "none in %.0f s", limit);
            snprintf(proof, sizeof proof, "-");
        }
        secs += bench_now() - t1;
        cpu += cpu_now() - c1;
    }
    char g[24] = "-", o2[48] = "-";
    if (greedy)
        snprintf(g, sizeof g, "%" PRIu64, greedy);
    if (best != UINT64_MAX)
        snprintf(o2, sizeof o2, "%" PRIu64 " (%s)", best, best_name);
    printf("| %s | %s | %" PRIu64 " (%s) | %s | %s | %s | %s | %.2f | %.2f | %s |\n", label,
           totex_ports_format(ports, pm, sizeof pm), nb ? b[ib].value : 0,
           nb ? totex_bound_kind_name(b[ib].kind) : "-", g, o2, exact, proof, secs, cpu, ver);
    fflush(stdout);
    totex_network_free(net);
}

static void table(const char *only)
{
    static const char *specs[] = {"ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "ring:9",
                                  "path:4", "path:5", "path:6", "path:7", "path:8", "path:9",
                                  "hypercube:2", "hypercube:3", "torus:3x3", "torus:3x4", "torus:4x4",
                                  "mesh:2x3", "mesh:2x4", "mesh:3x3", "mesh:3x4", "mesh:4x4", "path:2*ring:3",
                                  "file:" TOTEX_BENCH_DATA "/dgx1_hybrid_cube_mesh.edges",
                                  "file:" TOTEX_BENCH_DATA "/mesh3x3_diagonal.edges"};
    static const char *labels[] = {"ring:4", "ring:5", "ring:6", "ring:7", "ring:8", "ring:9",
                                   "path:4", "path:5", "path:6", "path:7", "path:8", "path:9",
                                   "hypercube:2", "hypercube:3", "torus:3x3", "torus:3x4", "torus:4x4",
                                   "mesh:2x3", "mesh:2x4", "mesh:3x3", "mesh:3x4", "mesh:4x4", "path:2*ring:3",
                                   "DGX-1 hybrid cube-mesh (file)", "mesh 3x3 + one diagonal (file)"};
    totex_ports models[2] = {TOTEX_PORTS_MULTI, TOTEX_PORTS_SINGLE};
    printf("## Exact optimum vs bounds and algorithms (each search from scratch, time limit %.0f s)\n\n", limit);
    printf("| network | ports | best analytic bound | greedy | best other algorithm | exact optimum | T*-1 infeasible by | search s (wall) | search s (CPU) | replayed |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
            if (!only || !strcmp(only, labels[i]) || !strcmp(only, specs[i]))
                table_row(labels[i], specs[i], models[m]);
    printf("\n");
}

static double target_run(const char *spec, totex_ports ports, const char *solver, int no_prune, uint64_t *steps,
                         int *optimal, double *cpu)
{
    totex_error err = {{0}};
    totex_network *net = totex_network_parse(spec, &err);
    totex_exact_options o = {0};
    totex_exact_result r;
    o.time_limit = limit;
    o.no_upper = 1;
    o.solver = solver;
    o.no_prune = no_prune;
    double t0 = bench_now(), c0 = cpu_now();
    totex_status st = totex_exact_solve(net, ports, &o, &r, &err);
    double secs = bench_now() - t0;
    *cpu = cpu_now() - c0;
    *steps = 0;
    *optimal = 0;
    if (st == TOTEX_OK) {
        *steps = simulate(net, ports, r.schedule, &err) == r.steps ? r.steps : 0;
        *optimal = r.optimal;
        totex_exact_result_free(&r);
    }
    totex_network_free(net);
    return secs;
}

static void targets(const char *only)
{
    static const struct {
        const char *spec;
        totex_ports ports;
        double target;
    } t[] = {{"ring:7", TOTEX_PORTS_MULTI, 10},    {"ring:8", TOTEX_PORTS_MULTI, 10},
             {"hypercube:3", TOTEX_PORTS_MULTI, 10}, {"torus:3x3", TOTEX_PORTS_MULTI, 10},
             {"mesh:3x3", TOTEX_PORTS_MULTI, 10},  {"mesh:3x3", TOTEX_PORTS_SINGLE, 60},
             {"mesh:3x4", TOTEX_PORTS_SINGLE, 60}};
    static const struct {
        const char *name, *solver;
        int no_prune;
    } v[] = {{"cbc alone", "cbc", 0}, {"glpk alone", "glpk", 0}, {"no pruning", NULL, 1}};
    printf("## Targets: exact optimum proved from scratch; ratios = time / default's time, same run\n\n");
    printf("| network | ports | optimum | default s wall (CPU) (GLPK LP + CBC) | target s | met |");
    for (size_t j = 0; j < sizeof v / sizeof *v; j++)
        printf(" %s s CPU (ratio) |", v[j].name);
    printf("\n|---|---|---|---|---|---|");
    for (size_t j = 0; j < sizeof v / sizeof *v; j++)
        printf("---|");
    printf("\n");
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        if (only && strcmp(only, t[i].spec))
            continue;
        uint64_t steps, s2;
        int opt, o2;
        char pm[16];
        double cbase, c2;
        double wall = target_run(t[i].spec, t[i].ports, NULL, 0, &steps, &opt, &cbase);
        printf("| %s | %s | %" PRIu64 "%s | %.2f (%.2f) | %.0f | %s |", t[i].spec,
               totex_ports_format(t[i].ports, pm, sizeof pm), steps, opt ? "" : " (not proved)", wall, cbase, t[i].target,
               opt && steps && wall < t[i].target ? "yes" : opt && steps && cbase < t[i].target ? "CPU only" : "NO");
        fflush(stdout);
        for (size_t j = 0; j < sizeof v / sizeof *v; j++) {
            target_run(t[i].spec, t[i].ports, v[j].solver, v[j].no_prune, &s2, &o2, &c2);
            double base = cbase > 1e-3 ? cbase : 1e-3;
            if (!o2)
                printf(" > limit (%.2f; x > %.1f) |", c2, c2 / base);
            else
                printf(" %.2f (x %.2f)%s |", c2, c2 / base, s2 == steps ? "" : " DIFFERENT");
            fflush(stdout);
        }
        printf("\n");
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    int do_table = 0, do_targets = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--table"))
            do_table = 1;
        else if (!strcmp(argv[i], "--targets"))
            do_targets = 1;
        else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
            limit = atof(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_exact [--table] [--targets] [--time-limit S] [--only SPEC]\n");
            return 2;
        }
    }
    if (!(limit > 0)) {
        fprintf(stderr, "bench_exact: --time-limit needs seconds > 0\n");
        return 2;
    }
    if (!totex_exact_solvers()[0]) {
        fprintf(stderr, "bench_exact: no MIP solver built in (install coinor-libcbc-dev or libglpk-dev)\n");
        return 2;
    }
    if (!do_table && !do_targets)
        do_table = do_targets = 1;
    printf("# bench_exact: solvers built in: %s\n\n", totex_exact_solvers());
    if (do_targets)
        targets(only);
    if (do_table)
        table(only);
    return 0;
}
