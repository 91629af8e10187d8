/*
 * Balanced alltoallv's plan (src/mpi/alltoallv_balanced.c, totex_mpi_v_balanced_predict()) against the ejection
 * bound, counted here: for a demand of rank 1 (W(i, j) = r_i c_j / T, the estimate the plan routes), node j
 * receives c_j (T - r_j) / T bytes from the others over its 2 D in-links, so no routing of it has a link
 * carrying less than the largest of those over 2 D; on the tori below (Zipf's columns: every node sends the
 * same, node j receives in proportion to 1 / (j + 1)) the plan's busiest link meets that bound, as session 21
 * and 24 measured on the bench's demands (docs/performance.md). Direct routes alone are 2.1 x (4x4) and 3.0 x
 * (4x4x4) over it there (seen with the greedy never taking a relay), so a plan that relays nothing, or badly,
 * fails. Also the plan's busiest link is never below the bound (a counting error would show there). And hot
 * receivers in one line (8x8, the bench's hotspot: every node of coordinate 0 in the stride-1 ring receives 8 x
 * what the others do): the cut round that line (the arc of one node, lifted: its 2 x 8 in-links) bounds every
 * routing, and the plan meets it (session 25; the plan of session 24, its relays' first legs counted at their
 * load alone, was 1.019 x over it, and without relays 2.9 x). One process: the plan is made by every rank alike,
 * without communication.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "internal.h"
#include "mpi_check.h"
#include "totex/network.h"

static int rank, failures;

/* 2 n zeroed totals (rows, then columns) for case @p what; NULL (a failure counted, @p net freed) without memory */
static uint64_t *totals_new(uint32_t n, const char *what, totex_network *net)
{
    uint64_t *t = calloc(2 * (size_t)n, sizeof *t);
    CHECK(t != NULL, "%s: no memory", what);
    if (!t)
        totex_network_free(net);
    return t;
}

/* the plan's busiest link on @p spec (a torus of rings of 4) against the ejection bound of Zipf's columns */
static void zipf_case(const char *spec, uint32_t in_links)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    CHECK(net != NULL, "%s: not parsed", spec);
    if (!net)
        return;
    const uint32_t n = totex_network_nodes(net);
    uint64_t *rows = totals_new(n, spec, net);
    if (!rows)
        return;
    uint64_t *cols = rows + n;
    double hn = 0;
    for (uint32_t k = 1; k <= n; k++)
        hn += 1.0 / k;
    double T = 0;
    for (uint32_t j = 0; j < n; j++) {
        rows[j] = (uint64_t)65536 * n;
        cols[j] = (uint64_t)llround(65536.0 * n * n / ((j + 1) * hn));
        T += (double)rows[j];
    }
    double bound = 0;
    for (uint32_t j = 0; j < n; j++) {
        const double in = (double)cols[j] * (T - (double)rows[j]) / T / in_links;
        if (in > bound)
            bound = in;
    }
    uint32_t chain = 0;
    const double busiest = totex_mpi_v_balanced_predict(net, rows, cols, NULL, &chain);
    CHECK(busiest > 0, "%s: no plan (%g)", spec, busiest);
    CHECK(busiest >= bound * (1 - 1e-9), "%s: busiest link %.1f bytes below the ejection bound %.1f", spec, busiest,
          bound);
    CHECK(busiest <= bound * (1 + 1e-9), "%s: busiest link %.1f bytes, %.4f x the ejection bound %.1f", spec,
          busiest, busiest / bound, bound);
    CHECK(chain > 0, "%s: nothing relayed", spec);
    printf("%s: busiest %.1f bytes, ejection bound %.1f, longest chain %u\n", spec, busiest, bound, chain);
    free(rows);
    totex_network_free(net);
}

/* the plan's busiest link on the 8x8 torus with the bench's hot receivers (nodes 0, 8, ..., 56: coordinate 0 of
   the stride-1 ring) against the cut round them */
static void hot_line_case(void)
{
    totex_error err;
    totex_network *net = totex_network_parse("ring:8*ring:8", &err);
    CHECK(net != NULL, "ring:8*ring:8: not parsed");
    if (!net)
        return;
    const uint32_t n = totex_network_nodes(net);
    CHECK(totex_network_stride(net, 0) == 1 || totex_network_stride(net, 1) == 1, "no factor of stride 1");
    const uint32_t fast = totex_network_stride(net, 0) == 1 ? 0 : 1;
    uint64_t *rows = totals_new(n, "8x8 hot line", net);
    if (!rows)
        return;
    uint64_t *cols = rows + n;
    const uint64_t unit = 34953; /* (the bench's block to a cold receiver at a mean of 64 KiB) */
    for (uint32_t j = 0; j < n; j++) {
        rows[j] = (uint64_t)(8 * 8 + 56) * unit;
        cols[j] = (totex_network_coord(net, j, fast) == 0 ? 8 : 1) * (uint64_t)n * unit;
    }
    double T = 0, cross = 0;
    for (uint32_t j = 0; j < n; j++)
        T += (double)rows[j];
    for (uint32_t i = 0; i < n; i++) /* (W^'s bytes into the line from outside it, over its 16 in-links) */
        for (uint32_t j = 0; j < n; j++)
            if (totex_network_coord(net, i, fast) != 0 && totex_network_coord(net, j, fast) == 0)
                cross += (double)rows[i] * (double)cols[j] / T;
    const double bound = cross / 16;
    uint32_t chain = 0;
    const double busiest = totex_mpi_v_balanced_predict(net, rows, cols, NULL, &chain);
    CHECK(busiest >= bound * (1 - 1e-9), "8x8 hot line: busiest link %.1f bytes below the cut %.1f", busiest, bound);
    CHECK(busiest <= bound * (1 + 1e-6), "8x8 hot line: busiest link %.1f bytes, %.4f x the cut %.1f", busiest,
          busiest / bound, bound);
    printf("8x8 hot line: busiest %.1f bytes, cut %.1f, longest chain %u\n", busiest, bound, chain);
    free(rows);
    totex_network_free(net);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    zipf_case("ring:4*ring:4", 4);
    zipf_case("ring:4*ring:4*ring:4", 6);
    hot_line_case();
    printf("test_balanced_plan: %d failures\n", failures);
    MPI_Finalize();
    return failures != 0;
}
