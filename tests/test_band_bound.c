/*
 * The single-port band bound (src/bounds/band.c) against a
 * brute force: for every band U (consecutive coordinates a..b of a path
 * dimension, at least one coordinate left outside), the fewest sends from
 * U-nodes of each message over ANY path is a 0-1 shortest path on the product
 * graph (a move costs 1 when made from a U-node), found here by 0-1 BFS
 * through totex_network_neighbors only; T >= ceil(sum / |U|), and the bound
 * must equal the largest over the bands. Also: it exceeds average status on
 * touchstone-delta (8338 > 8176) and is reported by totex_bounds_compute.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* sum over ordered pairs of the fewest sends from U-nodes; in_u[v] = 1 for v in U */
static uint64_t brute_sends(const totex_network *net, const unsigned char *in_u)
{
    const uint32_t n = totex_network_nodes(net);
    uint32_t *dist = malloc(sizeof *dist * n), *dq = malloc(sizeof *dq * 2 * n * 8), nb[64];
    uint64_t total = 0;
    assert_non_null(dist);
    assert_non_null(dq);
    for (uint32_t s = 0; s < n; s++) {
        for (uint32_t v = 0; v < n; v++)
            dist[v] = UINT32_MAX;
        /* 0-1 BFS with a deque in a big array: front at head, pushes at both ends */
        size_t cap = 2 * (size_t)n * 8, head = (size_t)n * 8, tail = head;
        dist[s] = 0;
        dq[tail++] = s;
        while (head < tail) {
            uint32_t v = dq[head++];
            uint32_t deg = totex_network_neighbors(net, v, nb), c = in_u[v];
            for (uint32_t j = 0; j < deg; j++) {
                uint32_t w = nb[j];
                if (dist[v] + c < dist[w]) {
                    dist[w] = dist[v] + c;
                    if (c == 0) {
                        assert_true(head > 0);
                        dq[--head] = w;
                    } else {
                        assert_true(tail < cap);
                        dq[tail++] = w;
                    }
                }
            }
        }
        for (uint32_t d = 0; d < n; d++)
            total += dist[d];
    }
    free(dist);
    free(dq);
    return total;
}

static uint64_t brute_band_bound(const totex_network *net)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    unsigned char *in_u = malloc(n);
    uint64_t best = 0;
    assert_non_null(in_u);
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t m = totex_factor_nodes(f);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH || m < 3)
            continue;
        for (uint32_t a = 0; a < m; a++)
            for (uint32_t b = a; b < m; b++) {
                if (a == 0 && b == m - 1)
                    continue; /* the whole network: average status, reported on its own */
                uint64_t u = 0;
                for (uint32_t v = 0; v < n; v++) {
                    uint32_t c = totex_network_coord(net, v, i);
                    in_u[v] = c >= a && c <= b;
                    u += in_u[v];
                }
                uint64_t x = brute_sends(net, in_u), val = (x + u - 1) / u;
                if (val > best)
                    best = val;
            }
    }
    free(in_u);
    return best;
}

static uint64_t bound_of(const totex_network *net, totex_bound_kind kind)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, &err), TOTEX_OK);
    for (size_t i = 0; i < count; i++)
        if (b[i].kind == kind)
            return b[i].value;
    return 0;
}

static void band_equals_brute_force(void **state)
{
    (void)state;
    const char *specs[] = {"mesh:3x3", "mesh:3x4", "mesh:4x6", "mesh:2x5", "mesh:3x2x4", "path:5*ring:6",
                           "path:6*complete:3", "path:7", "mesh:8x16"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t brute = brute_band_bound(net), got = bound_of(net, TOTEX_BOUND_BAND);
        if (brute != got)
            fail_msg("%s: band bound %llu, brute force %llu", specs[i], (unsigned long long)got,
                     (unsigned long long)brute);
        totex_network_free(net);
    }
}

static void touchstone_above_average_status(void **state)
{
    (void)state;
    totex_network *net = ts_net("touchstone-delta");
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, &err), TOTEX_OK);
    assert_int_equal(bound_of(net, TOTEX_BOUND_BAND), 8338);
    assert_int_equal(bound_of(net, TOTEX_BOUND_AVERAGE_STATUS), 8176);
    assert_true(b[best].value >= 8338); /* the forwarding bound (forwarding.c) may be higher */
    for (size_t i = 0; i < count; i++)
        if (b[i].kind == TOTEX_BOUND_BAND)
            assert_non_null(strstr(b[i].witness, "9..22"));
    /* multiport and tori: no band bound */
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &count, &best, &err), TOTEX_OK);
    for (size_t i = 0; i < count; i++)
        assert_int_not_equal(b[i].kind, TOTEX_BOUND_BAND);
    totex_network_free(net);
    net = ts_net("torus:4x6");
    assert_int_equal(bound_of(net, TOTEX_BOUND_BAND), 0);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(band_equals_brute_force),
        cmocka_unit_test(touchstone_above_average_status),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
