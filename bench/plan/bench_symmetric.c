/*
 * Benchmark: plan (octr, 001 Theorems 5, 7, 9) and certify at one
 * node (001 Theorem 2) the symmetric total exchange of the two machines too
 * large to simulate message by message: Fugaku (158,976 nodes) and Sequoia
 * (98,304 nodes), multiport and single-port (k = 1). Each job runs in its own
 * forked child so its peak memory (ru_maxrss) is its own. Reported next to a
 * baseline measured in the same child: building the task matrix alone, and
 * memcpy of the schedule's bytes (8 bytes per move). Peak memory is read
 * before the memcpy baseline allocates its own 128 MiB.
 *
 * usage: bench_symmetric [SPEC PORTS]...   (default: fugaku and sequoia, multi and single)
 * Target: each job under 10 s and 2 GiB on one core.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"
#include "totex/delay.h"

typedef struct job_result {
    int ok;
    uint64_t steps, h, sigma, bound, moves;
    double plan_s, certify_s, task_s, memcpy_s, delay, spt;
    long maxrss_kib;
    char msg[512];
} job_result;

static void run_job(const char *spec, const char *ports_s, job_result *r)
{
    totex_error err = {{0}};
    totex_ports ports;
    memset(r, 0, sizeof *r);
    totex_network *net = totex_network_parse(spec, &err);
    const totex_algorithm *algo = totex_algorithm_find("octr", &err);
    if (!net || !algo || totex_ports_parse(ports_s, &ports, &err) != TOTEX_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        totex_network_free(net);
        return;
    }
    /* baseline 1: the task matrix alone */
    double t0 = bench_now();
    totex_task *base = totex_task_total_exchange(net, &err);
    r->task_s = bench_now() - t0;
    if (!base) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        totex_network_free(net);
        return;
    }
    r->h = totex_task_critical_sum(base);
    r->sigma = totex_task_total_sum(base);
    if (totex_delay_lower_bound(base, ports, &r->spt, &err) != TOTEX_OK)
        r->spt = 0;
    totex_task_free(base);

    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_sym_report rep;
    t0 = bench_now();
    totex_status st = algo->plan_symmetric(net, ports, &t, &s, &err);
    r->plan_s = bench_now() - t0;
    if (st == TOTEX_OK) {
        t0 = bench_now();
        st = totex_sym_certify(t, ports, s, &rep, &err);
        r->certify_s = bench_now() - t0;
    }
    if (st != TOTEX_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    } else {
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t n = 0, best = 0;
        r->ok = 1;
        r->steps = rep.steps;
        r->moves = rep.moves;
        r->delay = rep.average_delay;
        if (totex_bounds_compute(net, ports, b, &n, &best, &err) == TOTEX_OK && n)
            r->bound = b[best].value;
        r->maxrss_kib = bench_peak_kib(); /* peak of the job, before the baseline's own buffers */
        /* baseline 2: memcpy of the schedule's bytes */
        r->memcpy_s = bench_memcpy_seconds(rep.moves * sizeof(totex_sym_move));
    }
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
}

/* bench_forked() job: args = {SPEC, PORTS} */
static void job(const char *const *args, void *out) { run_job(args[0], args[1], out); }

int main(int argc, char **argv)
{
    const char *defaults[] = {"fugaku", "multi", "fugaku", "single", "sequoia", "multi", "sequoia", "single"};
    const char **jobs;
    const int njobs = bench_jobs(argc, argv, 2, defaults, 8, &jobs, "[SPEC PORTS]...");
    if (njobs < 0)
        return 2;
    printf("%-9s %-6s %9s %8s %9s %5s %8s %8s %9s %7s %7s %12s %12s\n", "network", "ports", "steps", "h", "bound",
           "opt", "plan s", "cert s", "peak MiB", "x task", "x copy", "avg delay", "SPT bound");
    for (int j = 0; j < njobs; j++) {
        job_result r;
        int got = bench_forked(job, jobs + 2 * j, &r, sizeof r);
        if (!got || !r.ok) {
            printf("%-9s %-6s FAILED: %s\n", jobs[2 * j], jobs[2 * j + 1],
                   got ? r.msg : "child died");
            continue;
        }
        double total = r.plan_s + r.certify_s;
        printf("%-9s %-6s %9llu %8llu %9llu %5s %8.3f %8.3f %9.1f %7.1f %7.1f %12.2f %12.2f\n", jobs[2 * j],
               jobs[2 * j + 1], (unsigned long long)r.steps, (unsigned long long)r.h, (unsigned long long)r.bound,
               r.steps == r.bound ? "yes" : "no", r.plan_s, r.certify_s, r.maxrss_kib / 1024.0,
               r.task_s > 0 ? total / r.task_s : 0, r.memcpy_s > 0 ? total / r.memcpy_s : 0, r.delay, r.spt);
    }
    printf("x task = (plan + certify) / building the task matrix alone; x copy = (plan + certify) / memcpy of the\n"
           "schedule's bytes (8 B per move); bound = the best lower bound of totex_bounds_compute under the model.\n");
    return 0;
}
