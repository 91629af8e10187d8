/*
 * Benchmark: plan + full simulation of total exchange on
 * 4096 nodes (16,773,120 messages): single-port A2 on a 16x16x16 torus and
 * multiport A3 on a 64x64 torus. Each job runs in its own child process so
 * its peak memory (ru_maxrss) is its own. Reported next to a memory-bandwidth
 * baseline measured in the same run: memcpy of the same number of bytes as
 * the hop records the job streamed (16 bytes per hop-event).
 *
 * usage: bench_total_exchange [SPEC PORTS ALGO]...   (default: the two jobs)
 * Target: the 16x16x16 single-port job under 3 s and 1 GiB on one core.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

typedef struct job_result {
    int ok;
    double seconds;
    uint64_t steps, hops, bound;
    int optimal;
    long maxrss_kib;
    char msg[512];
} job_result;

static void run_job(const char *spec, const char *ports_s, const char *algo_s, job_result *r)
{
    totex_error err = {{0}};
    totex_ports ports;
    totex_plan_result res;
    memset(r, 0, sizeof *r);
    totex_network *net = totex_network_parse(spec, &err);
    const totex_algorithm *algo = totex_algorithm_find(algo_s, &err);
    if (!net || !algo || totex_ports_parse(ports_s, &ports, &err) != TOTEX_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
        return;
    }
    double t0 = bench_now();
    totex_status st = totex_plan_and_verify(net, ports, algo, 0, &res, &err);
    r->seconds = bench_now() - t0;
    if (st != TOTEX_OK) {
        snprintf(r->msg, sizeof r->msg, "%s", err.msg);
    } else {
        r->ok = 1;
        r->steps = res.sim.steps;
        r->hops = res.sim.hops;
        r->bound = res.bound_count ? res.bounds[res.best_bound].value : 0;
        r->optimal = res.sim.steps == r->bound;
    }
    totex_network_free(net);
}

/* bench_forked() job: args = {SPEC, PORTS, ALGO}; the child's peak memory recorded */
static void job(const char *const *args, void *out)
{
    job_result *r = out;
    run_job(args[0], args[1], args[2], r);
    r->maxrss_kib = bench_peak_kib();
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"torus:16x16x16", "single", "a2", "torus:64x64", "multi", "a3"};
    const char **jobs;
    const int njobs = bench_jobs(argc, argv, 3, defaults, 6, &jobs, "[SPEC PORTS ALGO]...");
    if (njobs < 0)
        return 2;
    printf("%-16s %-7s %-5s %9s %9s %6s %12s %8s %9s %14s %14s %7s\n", "network", "ports", "algo", "steps", "bound",
           "opt", "hop-events", "time s", "peak MiB", "hops/s", "memcpy hops/s", "ratio");
    for (int j = 0; j < njobs; j++) {
        job_result r;
        int got = bench_forked(job, jobs + 3 * j, &r, sizeof r);
        if (!got || !r.ok) {
            printf("%-16s %-7s %-5s FAILED: %s\n", jobs[3 * j], jobs[3 * j + 1], jobs[3 * j + 2],
                   got ? r.msg : "child died");
            continue;
        }
        double mc = bench_memcpy_seconds(r.hops * sizeof(totex_hop));
        double rate = (double)r.hops / r.seconds, mrate = (double)r.hops / mc;
        printf("%-16s %-7s %-5s %9llu %9llu %6s %12llu %8.3f %9.1f %14.3e %14.3e %7.3f\n", jobs[3 * j],
               jobs[3 * j + 1], jobs[3 * j + 2], (unsigned long long)r.steps, (unsigned long long)r.bound,
               r.optimal ? "yes" : "no", (unsigned long long)r.hops, r.seconds, r.maxrss_kib / 1024.0, rate, mrate,
               rate / mrate);
    }
    printf("ratio = simulated hop-events per second / memcpy of the same bytes (16 B per hop) per second\n");
    return 0;
}
