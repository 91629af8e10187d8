/*
 * bench_demand_bounds: how close the analytic bounds of a demand come to the
 * fluid LP optimum, and how close the schedules
 * come to the best bound. Tori and meshes of at most 64 nodes, every demand
 * kind (uniform, zipf, hotspot, random) at a mean of 64 KiB per pair.
 * Baseline in the same run: the fluid LP optimum (GLPK), solved here.
 * Prints a Markdown table: each bound / LP, the best analytic / LP, LP
 * seconds, and each schedule's time / the best bound.
 * Usage: bench_demand_bounds [SPEC...] (default: the seven below).
 */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "totex.h"

int main(int argc, char **argv)
{
    const char *defaults[] = {"torus:4x4", "torus:8x8", "torus:4x4x4", "mesh:4x4", "mesh:8x8", "mesh:4x4x4", "torus:3x5"};
    const char *kinds[] = {"uniform:65536", "zipf:1.2:65536", "hotspot:2:65536", "random:65536"};
    const char **specs = argc > 1 ? (const char **)(argv + 1) : defaults;
    int nspecs = argc > 1 ? argc - 1 : (int)(sizeof defaults / sizeof *defaults);
    printf("| network | demand | injection | ejection | cut | hop-bytes | best analytic | LP bytes | LP s | "
           "direct | uniform | bvn | fluid-lp |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < nspecs; s++)
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            totex_error err;
            totex_network *net = totex_network_parse(specs[s], &err);
            if (!net) {
                fprintf(stderr, "%s\n", err.msg);
                return 2;
            }
            totex_demand *d = totex_demand_parse(kinds[k], totex_network_nodes(net), 1, &err);
            totex_demand_plan_options o = {0};
            o.bandwidth = 1e9;
            o.ts = 1e-6;
            totex_demand_report r;
            double t0 = bench_now();
            totex_fluid fl;
            if (!d || totex_demand_fluid(net, d, o.bandwidth, o.ts, 0, &fl, &err) != TOTEX_OK) {
                fprintf(stderr, "%s %s: %s\n", specs[s], kinds[k], err.msg);
                return 1;
            }
            double lp_s = bench_now() - t0;
            totex_fluid_free(&fl);
            if (totex_demand_plan(net, d, &o, &r, &err) != TOTEX_OK || !r.has_fluid) {
                fprintf(stderr, "%s %s: %s\n", specs[s], kinds[k], err.msg);
                return 1;
            }
            double lp = r.fluid.bytes, best = 0;
            printf("| %s | %s |", specs[s], kinds[k]);
            for (size_t q = 0; q < TOTEX_WBOUND_ANALYTIC; q++) {
                printf(" %.3f |", r.analytic[q].bytes / lp);
                if (r.analytic[q].bytes > best)
                    best = r.analytic[q].bytes;
            }
            printf(" **%.3f** | %.0f | %.2f |", best / lp, lp, lp_s);
            for (size_t q = 0; q < r.nrows; q++) {
                if (r.rows[q].status == TOTEX_OK)
                    printf(" %.3f%s |", r.rows[q].ratio, q == r.chosen ? "*" : "");
                else
                    printf(" n/a |");
            }
            printf("\n");
            fflush(stdout);
            totex_demand_report_release(&r);
            totex_demand_free(d);
            totex_network_free(net);
        }
    return 0;
}
