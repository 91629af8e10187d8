/*
 * Greedy on large meshes: CPU seconds of greedy's predict
 * (a count-only run: bucket sizes, no sources) and of its plan (every hop
 * streamed into a counting sink), per network, and their ratio measured in
 * the same run (the plan run is the baseline), with nanoseconds per hop.
 * CPU time (CLOCK_PROCESS_CPUTIME_ID), not wall: the machine is shared.
 *
 *   ./build/bench/bench_greedy [SPEC PORTS]...   (default: mesh:16x32 multi, mesh:32x32 multi)
 *
 * Checks on the way: predict's count equals the plan's step count (exit 1 otherwise).
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "totex/algorithm.h"
#include "totex/network.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    uint64_t steps, hops;
} counter;

static totex_status count_hops(void *ctx, const totex_hop *hops, size_t n, totex_error *err)
{
    (void)hops;
    (void)err;
    counter *c = ctx;
    c->steps++;
    c->hops += n;
    return TOTEX_OK;
}

static int run(const totex_algorithm *g, const char *spec, const char *port_text)
{
    totex_error err = {{0}};
    totex_ports ports;
    totex_network *net = totex_network_parse(spec, &err), *reset = totex_network_parse("ring:3", &err);
    if (!net || !reset || totex_ports_parse(port_text, &ports, &err) != TOTEX_OK) {
        fprintf(stderr, "bench_greedy: %s\n", err.msg);
        totex_network_free(net);
        totex_network_free(reset);
        return 2;
    }
    uint64_t other = 0, predicted = 0;
    counter c = {0, 0};
    totex_sink sink = {count_hops, &c};
    int rc = 0;
    /* a prediction of another network first: the memo must not answer */
    if (g->predict(reset, ports, &other, &err) != TOTEX_OK)
        goto fail;
    double t0 = cpu_seconds();
    if (g->predict(net, ports, &predicted, &err) != TOTEX_OK)
        goto fail;
    double t1 = cpu_seconds();
    if (g->plan(net, ports, sink, &err) != TOTEX_OK)
        goto fail;
    double t2 = cpu_seconds();
    printf("%-14s %-6s steps %8" PRIu64 " hops %11" PRIu64 "  predict %7.3f s (%5.1f ns/hop)  plan %7.3f s "
           "(%5.1f ns/hop)  predict/plan %.2f\n",
           spec, port_text, c.steps, c.hops, t1 - t0, 1e9 * (t1 - t0) / (double)c.hops, t2 - t1,
           1e9 * (t2 - t1) / (double)c.hops, (t1 - t0) / (t2 - t1));
    if (predicted != c.steps) {
        fprintf(stderr, "bench_greedy: %s %s: predict %" PRIu64 " steps, plan %" PRIu64 "\n", spec, port_text,
                predicted, c.steps);
        rc = 1;
    }
    totex_network_free(net);
    totex_network_free(reset);
    return rc;
fail:
    fprintf(stderr, "bench_greedy: %s %s: %s\n", spec, port_text, err.msg);
    totex_network_free(net);
    totex_network_free(reset);
    return 1;
}

int main(int argc, char **argv)
{
    totex_error err = {{0}};
    const totex_algorithm *g = totex_algorithm_find("greedy", &err);
    static const char *defaults[] = {"mesh:16x32", "multi", "mesh:32x32", "multi"};
    int rc = 0;
    if (!g) {
        fprintf(stderr, "bench_greedy: %s\n", err.msg);
        return 1;
    }
    if (argc > 1 && argc % 2 == 0) {
        fprintf(stderr, "bench_greedy: give SPEC PORTS pairs, e.g. mesh:32x64 multi\n");
        return 2;
    }
    int n = argc > 1 ? argc - 1 : 4;
    char **args = argc > 1 ? argv + 1 : (char **)defaults;
    for (int i = 0; i + 1 < n; i += 2) {
        int r = run(g, args[i], args[i + 1]);
        rc = r > rc ? r : rc;
    }
    return rc;
}
