/*
 * The step simulator's speed against memcpy (the target: at most twice the
 * time memcpy takes on the same bytes, i.e. half its speed or better).
 *
 * For each SPEC PORTS ALGO (default: the list below) the schedule is planned
 * once into memory (totex_schedule, 16 bytes per hop), then replayed from
 * memory, each timed alone in this process:
 *   serial   totex_sim_step() on every step, then totex_sim_finish();
 *   links    the links part of the split replay (totex_sim_stage_sink);
 *   messages its messages part (the two parts run on two threads in
 *            `totex plan`, so the wall time of a split replay is the larger);
 *   memcpy   the baseline, in the same run: memcpy of the hops' bytes
 *            (hops x 16 B) through a 64 MiB buffer pair.
 * Every time is this thread's CPU time, the baseline's too (on a shared
 * machine wall time counts the waits for a core).
 * Prints ns per hop of each and "x copy", the ratio of each to memcpy.
 *
 * usage: bench_sim [SPEC PORTS ALGO]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "totex.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* replay @p s into the sink(s) of a fresh simulator; CPU seconds, < 0 on failure */
static double replay(const totex_network *net, totex_ports ports, const totex_schedule *s, int part)
{
    totex_error err = {{0}};
    totex_sim *sim = totex_sim_new(net, ports, 0, &err);
    totex_sim_report rep;
    if (!sim) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    totex_sink sink = part == 0 ? totex_sim_sink(sim)
                                : totex_sim_stage_sink(sim, part == 1 ? TOTEX_SIM_STAGE_LINKS : TOTEX_SIM_STAGE_MESSAGES);
    double t0 = cpu_now();
    totex_status st = totex_schedule_replay(s, sink, &err);
    double t = cpu_now() - t0;
    if (st == TOTEX_OK && part == 0)
        st = totex_sim_finish(sim, &rep, &err);
    totex_sim_free(sim);
    if (st != TOTEX_OK) {
        fprintf(stderr, "replay failed: %s\n", err.msg);
        return -1;
    }
    return t;
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"mesh:24x32", "multi", "rounds", "mesh:32x32", "single", "a2",
                              "torus:32x32", "multi", "a3", "mesh:16x32", "k:2", "greedy"};
    const char **jobs;
    const int njobs = bench_jobs(argc, argv, 3, defaults, (int)(sizeof defaults / sizeof defaults[0]), &jobs,
                                 "[SPEC PORTS ALGO]...");
    if (njobs < 0)
        return 2;
    int over = 0;
    printf("%-14s %-6s %-8s %11s %9s %9s %9s %9s %8s %8s %8s\n", "network", "ports", "algo", "hops", "serial ns",
           "links ns", "msgs ns", "copy ns", "serial x", "links x", "msgs x");
    for (int j = 0; j < njobs; j++) {
        const char *const *a = jobs + 3 * j;
        totex_error err = {{0}};
        totex_ports ports;
        const totex_algorithm *algo = NULL;
        totex_network *net = totex_network_parse(a[0], &err);
        totex_schedule *s = totex_schedule_new();
        if (!net || !s || totex_ports_parse(a[1], &ports, &err) != TOTEX_OK || !(algo = totex_algorithm_find(a[2], &err)) ||
            algo->plan(net, ports, totex_schedule_sink(s), &err) != TOTEX_OK) {
            printf("%-14s %-6s %-8s FAILED: %s\n", a[0], a[1], a[2], err.msg);
            totex_schedule_free(s);
            totex_network_free(net);
            over = 1;
            continue;
        }
        uint64_t hops = 0;
        for (uint64_t i = 0; i < totex_schedule_steps(s); i++) {
            size_t c = 0;
            totex_schedule_step(s, i, &c);
            hops += c;
        }
        double ser = replay(net, ports, s, 0), lnk = replay(net, ports, s, 1), msg = replay(net, ports, s, 2);
        double cp = bench_memcpy_clock(hops * sizeof(totex_hop), cpu_now);
        if (ser < 0 || lnk < 0 || msg < 0 || cp <= 0) {
            over = 1;
        } else {
            const double ns = 1e9 / (double)hops, split = lnk > msg ? lnk : msg;
            printf("%-14s %-6s %-8s %11llu %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %8.2f\n", a[0], a[1], a[2],
                   (unsigned long long)hops, ser * ns, lnk * ns, msg * ns, cp * ns, ser / cp, lnk / cp, msg / cp);
            over |= split / cp > 2.0;
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
    printf("ns = CPU nanoseconds per hop (replay from memory; copy: memcpy of the hops' 16 B each);\n"
           "x = time / memcpy's; target: the split replay's larger part (links or msgs) at most 2 x copy.\n");
    return over;
}
