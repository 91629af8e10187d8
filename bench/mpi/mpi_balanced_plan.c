/*
 * The planning cost of totex_alltoallv's "balanced" form (src/mpi/alltoallv_balanced.c): one process, no
 * communication (MPI only for MPI_Wtime). For each torus (default 4x4 8x8 4x4x4) and the row and column totals of
 * smpi_alltoallv_bench.c's seeded zipf and hotspot demands at 64 KiB (the totals every rank would carry), the
 * wall seconds of making the plan (the first call with those totals: the greedy and its 2 passes) and of a call
 * with the same totals (the cache), best of REPS (default 3). Prints
 *   "<torus> <kind> plan_s <wall seconds> plan_cpu_s <CPU seconds> cached_s <seconds> busiest_bytes <bytes of W^
 *   on the busiest link>".
 * Usage: mpi_balanced_plan [TORUS...]   (run it alone: a timing, not a test)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "internal.h"
#include "totex/network.h"

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* smpi_alltoallv_bench.c's demand, rank i to rank j (its zipf permutation in @p zr) */
static double demand(const char *kind, double m, int i, int j, int n, const int *zr, double hn)
{
    (void)i;
    if (!strcmp(kind, "zipf"))
        return (double)llround(m * n / ((zr[j] + 1) * hn));
    const int k = n / 8 > 0 ? n / 8 : 1;
    const double unit = m * n / (8.0 * k + (n - k));
    return (double)llround(j % 8 == 0 && j / 8 < k ? 8 * unit : unit);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    static const char *const dflt[] = {"4x4", "8x8", "4x4x4"};
    const int nt = argc > 1 ? argc - 1 : 3;
    for (int a = 0; a < nt; a++) {
        const char *t = argc > 1 ? argv[a + 1] : dflt[a];
        char spec[64] = "";
        int d[3] = {0, 0, 0};
        const int nd = sscanf(t, "%dx%dx%d", &d[0], &d[1], &d[2]);
        /* (SimGrid's node id = rank, first side fastest; totex's spec: the last factor fastest) */
        for (int x = nd - 1; x >= 0; x--)
            snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%sring:%d", x == nd - 1 ? "" : "*", d[x]);
        totex_error err;
        totex_network *net = totex_network_parse(spec, &err);
        if (!net) {
            fprintf(stderr, "mpi_balanced_plan: %s: not a torus spec\n", t);
            MPI_Finalize();
            return 2;
        }
        const int n = (int)totex_network_nodes(net);
        int *zr = malloc(n * sizeof *zr);
        for (int j = 0; j < n; j++)
            zr[j] = j;
        uint64_t s = 1;
        for (int j = n - 1; j > 0; j--) {
            s = mix64(s);
            const int k = (int)(s % (uint64_t)(j + 1)), x = zr[j];
            zr[j] = zr[k], zr[k] = x;
        }
        double hn = 0;
        for (int k = 1; k <= n; k++)
            hn += 1.0 / k;
        static const char *const kinds[] = {"zipf", "hotspot"};
        uint64_t *rows = calloc(2 * (size_t)n, sizeof *rows), *cols = rows + n;
        for (int kd = 0; kd < 2; kd++) {
            memset(rows, 0, 2 * (size_t)n * sizeof *rows);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    const double w = demand(kinds[kd], 65536, i, j, n, zr, hn);
                    rows[i] += (uint64_t)w, cols[j] += (uint64_t)w;
                }
            double best = 1e9, cached = 1e9, busiest = 0, cpu = 1e9;
            uint32_t chain = 0;
            for (int r = 0; r < 3; r++) {
                rows[0] += 1; /* (other totals: a new plan) */
                double sec = 0;
                const clock_t c0 = clock();
                busiest = totex_mpi_v_balanced_predict(net, rows, cols, &sec, &chain);
                const double cs = (double)(clock() - c0) / CLOCKS_PER_SEC;
                if (cs < cpu)
                    cpu = cs;
                if (sec < best)
                    best = sec;
                const double t0 = MPI_Wtime();
                (void)totex_mpi_v_balanced_predict(net, rows, cols, NULL, NULL);
                const double c = MPI_Wtime() - t0;
                if (c < cached)
                    cached = c;
            }
            printf("%s %s plan_s %.6f plan_cpu_s %.6f cached_s %.9f busiest_bytes %.0f chain %u\n", t, kinds[kd], best,
                   cpu, cached, busiest, chain);
        }
        free(rows);
        free(zr);
        totex_network_free(net);
    }
    MPI_Finalize();
    return 0;
}
