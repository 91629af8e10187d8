/* The cross-rank check's ring (src/program/ring.c): on every network it is one
 * cycle through all nodes (following the successors from node 0 visits every
 * node once and comes back; each node's predecessor is the node whose
 * successor it is), the same cycle whichever node asks; where ring.c says it
 * runs along links, every step of it is a link, checked against the
 * network's adjacency by coordinates here (two nodes differing in one
 * coordinate, by one, or by m - 1 on a ring of m, or anyhow on a complete
 * graph), not against ring.c's own reasoning; and it must find such a cycle on
 * every torus and mesh with an even side and two or more sides (the
 * platforms of bench/smpi/run.sh: 4x4, 8x8, 4x4x4, 16x16, 8x8x8), on which
 * the cross-rank check needs the header to ride on a message along a link. Runs without
 * mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

/* a and b adjacent, from coordinates and the factor kinds of spec (all factors "ring:m", "path:m",
   "complete:m" or "k2") */
static int linked(const totex_network *net, uint32_t a, uint32_t b)
{
    int differ = 0, ok = 1;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t x = totex_network_coord(net, a, i), y = totex_network_coord(net, b, i),
                       m = totex_factor_nodes(f);
        if (x == y)
            continue;
        differ++;
        const uint32_t d = x > y ? x - y : y - x;
        const char *name = totex_factor_name(f);
        if (strncmp(name, "complete", 8) == 0 || strcmp(name, "k2") == 0)
            continue;
        if (strncmp(name, "ring", 4) == 0)
            ok &= d == 1 || d == m - 1;
        else
            ok &= d == 1;
    }
    return differ == 1 && ok;
}

static void check(const char *spec, int must_link)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        fprintf(stderr, "FAIL %s: %s\n", spec, err.msg);
        failures++;
        return;
    }
    const uint32_t n = totex_network_nodes(net);
    uint32_t *pred = malloc(n * sizeof *pred), *succ = malloc(n * sizeof *succ);
    char *seen = calloc(n, 1);
    int along = -1;
    for (uint32_t me = 0; me < n; me++) {
        const int a = totex_prog_check_ring(net, me, &pred[me], &succ[me]);
        if (along >= 0 && a != along) {
            fprintf(stderr, "FAIL %s: node %u says along links %d, node 0 %d\n", spec, me, a, along);
            failures++;
        }
        along = a;
        if (pred[me] >= n || succ[me] >= n) {
            fprintf(stderr, "FAIL %s: node %u: pred %u succ %u out of range\n", spec, me, pred[me], succ[me]);
            failures++;
            goto out;
        }
    }
    uint32_t v = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (seen[v]) {
            fprintf(stderr, "FAIL %s: the ring comes back to node %u after %u steps, not %u\n", spec, v, k, n);
            failures++;
            goto out;
        }
        seen[v] = 1;
        if (pred[succ[v]] != v) {
            fprintf(stderr, "FAIL %s: succ(%u) = %u but pred(%u) = %u\n", spec, v, succ[v], succ[v], pred[succ[v]]);
            failures++;
        }
        if (along == 1 && n > 1 && !linked(net, v, succ[v])) {
            fprintf(stderr, "FAIL %s: ring step %u -> %u is not a link\n", spec, v, succ[v]);
            failures++;
        }
        v = succ[v];
    }
    if (v != 0) {
        fprintf(stderr, "FAIL %s: the ring does not close (%u after %u steps)\n", spec, v, n);
        failures++;
    }
    if (must_link && along != 1) {
        fprintf(stderr, "FAIL %s: no ring along links found\n", spec);
        failures++;
    }
out:
    free(pred);
    free(succ);
    free(seen);
    totex_network_free(net);
}

int main(void)
{
    /* must run along links: two or more sides, one even */
    static const char *even[] = {"ring:4*ring:4", "ring:8*ring:8", "ring:4*ring:4*ring:4", "ring:16*ring:16",
                                 "ring:8*ring:8*ring:8", "k2*k2", "k2*ring:3", "k2*k2*k2", "k2*ring:4",
                                 "k2*k2*ring:4", "ring:3*ring:4", "ring:5*ring:6*ring:3", "path:4*path:3",
                                 "path:3*path:2", "path:5*path:3*path:2", "ring:3*path:4*ring:5", "complete:3*ring:4",
                                 "ring:6*ring:5", "path:2*path:2", "ring:7*k2"};
    for (size_t i = 0; i < sizeof even / sizeof even[0]; i++)
        check(even[i], 1);
    /* one closed factor: its own cycle */
    static const char *closed[] = {"ring:3", "ring:4", "ring:9", "complete:5", "k2"};
    for (size_t i = 0; i < sizeof closed / sizeof closed[0]; i++)
        check(closed[i], 1);
    /* any cycle (rank - 1, rank + 1 allowed): odd sides only, a single path */
    static const char *other[] = {"ring:3*ring:3", "ring:5*ring:3*ring:3", "path:5", "path:3*path:3", "ring:9*path:3"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        check(other[i], 0);
    if (failures) {
        fprintf(stderr, "test_ring: %d failures\n", failures);
        return 1;
    }
    printf("test_ring: ok\n");
    return 0;
}
