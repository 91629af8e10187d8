/*
 * Benchmark: `totex plan` = plan + verify, the whole
 * driver (totex_plan_and_verify(): bounds, the algorithm, certification at
 * one node or the full simulator replay), on the large networks whose plans
 * used to take minutes: torus:16x16x16x8, mesh:64x64, mesh:48x64, mesh:32x64
 * and touchstone-delta, single-port and multiport, algorithm auto unless
 * one is named. Each job runs in its own forked child, so its peak memory
 * (getrusage ru_maxrss) is its own. Baseline measured in the same child:
 * memcpy of the simulator's state (4 bytes per message, the least a full
 * replay touches once), reported as the ratio "x copy".
 *
 * usage: bench_plan [SPEC PORTS ALGO]...   (ALGO: auto or a name; default: the list below)
 *        bench_plan presets                 (every preset of `totex machines` under single-port,
 *                                            multiport, 2-port and 3-port, algorithm auto)
 * Before/after ratios against another build: bench/plan/plan_before_after.sh.
 * BENCH_PLAN_CAP=S stops a job after S seconds of wall time (default 300; it
 * is then reported as over the cap).
 * Target: every job under 5 s and 1 GiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

typedef struct job_result {
    int ok;
    uint64_t steps, bound, messages;
    double plan_s, cpu_s, memcpy_s;
    long maxrss_kib;
    int symmetric, full;
    char algo[32];
    char msg[512];
} job_result;

static void run_job(const char *spec, const char *ports_s, const char *algo_s, job_result *r)
{
    totex_error err = {{0}};
    totex_ports ports;
    const totex_algorithm *algo = NULL;
    totex_plan_result res;
    memset(r, 0, sizeof *r);
    totex_network *net = totex_network_parse(spec, &err);
    if (!net || totex_ports_parse(ports_s, &ports, &err) != TOTEX_OK ||
        (strcmp(algo_s, "auto") && !(algo = totex_algorithm_find(algo_s, &err)))) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        totex_network_free(net);
        return;
    }
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = bench_now();
    totex_status st = totex_plan_and_verify(net, ports, algo, 0, &res, &err);
    r->plan_s = bench_now() - t0;
    getrusage(RUSAGE_SELF, &ru1);
    r->cpu_s = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec + ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
               1e-6 * (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec + ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec);
    if (st != TOTEX_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    } else {
        r->ok = 1;
        r->steps = res.sim.steps;
        r->bound = res.bound_count ? res.bounds[res.best_bound].value : 0;
        r->messages = totex_network_messages(net);
        r->symmetric = res.symmetric;
        r->full = res.full_simulation;
        snprintf(r->algo, sizeof r->algo, "%s", res.algorithm ? res.algorithm->name : "?");
        r->maxrss_kib = bench_peak_kib(); /* the job's peak, before the baseline allocates its buffers */
        /* the baseline copies at most 1 GiB and scales (fugaku's 4 B per message would be 100 GB) */
        const uint64_t bytes = 4 * r->messages, most = UINT64_C(1) << 30;
        r->memcpy_s = bytes > most ? bench_memcpy_seconds(most) * ((double)bytes / (double)most)
                                   : bench_memcpy_seconds(bytes);
    }
    totex_network_free(net);
}

static unsigned cap_seconds = 300;

/* bench_forked() job: args = {SPEC, PORTS, ALGO}; the child dies by SIGALRM past the cap */
static void job(const char *const *args, void *out)
{
    alarm(cap_seconds);
    run_job(args[0], args[1], args[2], out);
}

int main(int argc, char **argv)
{
    const char *defaults[] = {
        "torus:16x16x16x8", "single", "auto", "torus:16x16x16x8", "multi", "auto",
        "mesh:64x64", "single", "auto", "mesh:64x64", "multi", "auto",
        "mesh:48x64", "multi", "auto",
        "mesh:32x64", "single", "auto", "mesh:32x64", "multi", "auto",
        "touchstone-delta", "single", "auto", "touchstone-delta", "multi", "auto",
    };
    const char **jobs = defaults;
    int njobs = (int)(sizeof defaults / sizeof defaults[0] / 3);
    const char **preset_jobs = NULL;
    if (argc == 2 && !strcmp(argv[1], "presets")) {
        static const char *const ports[] = {"single", "multi", "k:2", "k:3"};
        size_t np = sizeof ports / sizeof ports[0], m = totex_machine_count();
        preset_jobs = malloc(sizeof *preset_jobs * 3 * np * m);
        if (!preset_jobs)
            return 2;
        njobs = 0;
        for (size_t i = 0; i < m; i++)
            for (size_t p = 0; p < np; p++) {
                preset_jobs[3 * njobs] = totex_machine_get(i)->name;
                preset_jobs[3 * njobs + 1] = ports[p];
                preset_jobs[3 * njobs + 2] = "auto";
                njobs++;
            }
        jobs = preset_jobs;
    } else if (argc > 1) {
        if ((argc - 1) % 3) {
            fprintf(stderr, "usage: %s [SPEC PORTS ALGO]...   (PORTS single|multi|k:N, ALGO auto or a name)\n",
                    argv[0]);
            return 2;
        }
        jobs = (const char **)(argv + 1);
        njobs = (argc - 1) / 3;
    }
    int over = 0;
    const char *cap = getenv("BENCH_PLAN_CAP");
    if (cap && atoi(cap) > 0)
        cap_seconds = (unsigned)atoi(cap);
    printf("%-18s %-6s %-11s %10s %10s %7s %10s %8s %9s %8s %-8s %s\n", "network", "ports", "algorithm", "steps", "bound",
           "ratio", "plan+ver s", "cpu s", "peak MiB", "x copy", "verified", "target (<5 s, <1 GiB)");
    for (int j = 0; j < njobs; j++) {
        job_result r;
        const char *const *a = jobs + 3 * j;
        int got = bench_forked(job, a, &r, sizeof r);
        if (!got || !r.ok) {
            if (got)
                printf("%-18s %-6s %-10s FAILED: %s\n", a[0], a[1], a[2], r.msg);
            else
                printf("%-18s %-6s %-10s over the cap of %u s wall (or the child died)\n", a[0], a[1], a[2], cap_seconds);
            over = 1;
            continue;
        }
        int met = r.plan_s < 5.0 && r.maxrss_kib < 1024L * 1024L; /* the target is on wall time */
        over |= !met;
        printf("%-18s %-6s %-11s %10llu %10llu %7.4f %10.3f %8.3f %9.1f %8.1f %-8s %s\n", a[0], a[1], r.algo,
               (unsigned long long)r.steps, (unsigned long long)r.bound,
               r.bound ? (double)r.steps / (double)r.bound : 0.0, r.plan_s, r.cpu_s, r.maxrss_kib / 1024.0,
               r.memcpy_s > 0 ? r.plan_s / r.memcpy_s : 0.0,
               r.full ? "full" : r.symmetric ? "one node" : "?", met ? "met" : "MISSED");
    }
    printf("plan+ver s = wall time of totex_plan_and_verify() (bounds, choice, plan, verification); cpu s = its user +\n"
           "system time (the wall time on a shared machine includes waiting for a core); peak MiB = the child's ru_maxrss;\n"
           "x copy = plan+ver / memcpy of the simulator's state (4 B per message; past 1 GiB, 1 GiB scaled), same child;\n"
           "verified: full = every message replayed, one node = symmetric certificate (001 Theorem 2).\n");
    free(preset_jobs);
    return over;
}
