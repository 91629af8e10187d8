/*
 * Non-uniform total exchange against independent computations:
 *  - the generators: uniform exactly M, random within [0, 2M] and fixed by its
 *    seed, hotspot's K columns 8M, zipf's rows M (n-1) up to rounding;
 *  - the analytic bounds: injection and ejection by scanning rows and columns;
 *    the cut bound equals a brute force over every contiguous cyclic set of a
 *    ring and every prefix of a path, lifted to the product (000 Theorem 5),
 *    with W crossing summed over the product's nodes and the arcs crossing
 *    counted by enumerating the product's neighbours;
 *  - no analytic bound exceeds the fluid LP optimum, on random demands of
 *    every kind; on uniform demand on torus:4x4 the LP equals 8M (the
 *    hop-bytes count: every link carries 8M bytes);
 *  - every schedule passes the byte-weighted simulator and no verified
 *    schedule's busiest link carries less than the best bound;
 *  - the simulator rejects a path off the links, bytes a node does not hold,
 *    bytes forwarded in the step they arrive, bytes missing at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static totex_demand *gen(const char *text, uint32_t n, uint64_t seed)
{
    totex_error err;
    totex_demand *d = totex_demand_parse(text, n, seed, &err);
    if (!d)
        fail_msg("%s: %s", text, err.msg);
    return d;
}

static void test_generators(void **state)
{
    (void)state;
    uint32_t n = 12;
    totex_demand *u = gen("uniform:100", n, 1);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            assert_int_equal(u->w[i * n + j], i == j ? 0 : 100);
    totex_demand *r1 = gen("random:50", n, 3), *r2 = gen("random:50", n, 3), *r3 = gen("random:50", n, 4);
    assert_memory_equal(r1->w, r2->w, n * n * sizeof *r1->w);
    assert_true(memcmp(r1->w, r3->w, n * n * sizeof *r1->w) != 0);
    for (uint32_t q = 0; q < n * n; q++)
        assert_true(r1->w[q] <= 100);
    totex_demand *h = gen("hotspot:3:10", n, 9);
    uint32_t hot = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t k = j == 0 ? 1 : 0;
        hot += h->w[k * n + j] == 80;
        for (uint32_t i = 0; i < n; i++)
            if (i != j)
                assert_int_equal(h->w[i * n + j], h->w[k * n + j]);
    }
    assert_int_equal(hot, 3);
    totex_demand *z = gen("zipf:1.5:1000", n, 2);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t row = 0;
        for (uint32_t j = 0; j < n; j++)
            row += z->w[i * n + j];
        assert_true(row + n >= 1000 * (n - 1) && row <= 1000 * (n - 1) + n);
    }
    totex_demand_free(u);
    totex_demand_free(r1);
    totex_demand_free(r2);
    totex_demand_free(r3);
    totex_demand_free(h);
    totex_demand_free(z);
}

/* the cut bound by brute force: every subset S of a factor that is a cyclic arc (rings) or a prefix (paths) */
static double brute_cut(const totex_network *net, const totex_demand *d)
{
    uint32_t n = totex_network_nodes(net), nb[64];
    double best = 0;
    for (uint32_t k = 0; k < totex_network_dims(net); k++) {
        const totex_factor *f = totex_network_factor(net, k);
        uint32_t m = totex_factor_nodes(f);
        int ring = totex_factor_get_kind(f) == TOTEX_FACTOR_RING;
        for (uint32_t mask = 1; mask + 1 < (1u << m); mask++) {
            /* contiguous (cyclically for rings): the members form one run */
            uint32_t runs = 0;
            for (uint32_t a = 0; a < m; a++) {
                uint32_t prev = a ? a - 1 : m - 1;
                if (((mask >> a) & 1) && (!((mask >> prev) & 1) || (!ring && a == 0)))
                    runs++;
            }
            if (runs != 1 || (!ring && !(mask & 1)))
                continue;
            uint64_t out = 0, back = 0, arcs = 0;
            for (uint32_t i = 0; i < n; i++) {
                int in_i = (mask >> totex_network_coord(net, i, k)) & 1;
                uint32_t deg = totex_network_neighbors(net, i, nb);
                for (uint32_t r = 0; r < deg; r++)
                    arcs += in_i && !((mask >> totex_network_coord(net, nb[r], k)) & 1);
                for (uint32_t j = 0; j < n; j++) {
                    int in_j = (mask >> totex_network_coord(net, j, k)) & 1;
                    if (in_i && !in_j)
                        out += d->w[(size_t)i * n + j];
                    if (!in_i && in_j)
                        back += d->w[(size_t)i * n + j];
                }
            }
            double v = (double)(out > back ? out : back) / (double)arcs;
            if (v > best)
                best = v;
        }
    }
    return best;
}

static void test_analytic_bounds(void **state)
{
    (void)state;
    const char *specs[] = {"torus:3x4", "mesh:3x4", "ring:6*path:3", "ring:7", "path:5*ring:4"};
    const char *kinds[] = {"uniform:1000", "zipf:1.2:1000", "hotspot:2:1000", "random:1000"};
    uint32_t nb[64];
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++)
        for (size_t k = 0; k < 4; k++) {
            totex_network *net = ts_net(specs[s]);
            uint32_t n = totex_network_nodes(net);
            totex_demand *d = gen(kinds[k], n, 11 + k);
            totex_wbound b[TOTEX_WBOUND_ANALYTIC];
            totex_error err;
            assert_int_equal(totex_demand_bounds(net, d, 1e9, 1e-6, b, NULL, &err), TOTEX_OK);
            double inj = 0, ej = 0, hop = 0, arcs = 0;
            for (uint32_t i = 0; i < n; i++) {
                double row = 0, col = 0;
                uint32_t deg = totex_network_neighbors(net, i, nb);
                arcs += deg;
                for (uint32_t j = 0; j < n; j++) {
                    row += (double)d->w[i * n + j];
                    col += (double)d->w[j * n + i];
                    hop += (double)d->w[i * n + j] * (double)totex_network_distance(net, i, j);
                }
                inj = fmax(inj, row / deg);
                ej = fmax(ej, col / deg);
            }
            assert_float_equal(b[0].bytes, inj, 1e-9 * inj);
            assert_float_equal(b[1].bytes, ej, 1e-9 * ej);
            double bc = brute_cut(net, d);
            if (fabs(b[2].bytes - bc) > 1e-9 * bc)
                fail_msg("%s %s: cut bound %.3f, brute force %.3f", specs[s], kinds[k], b[2].bytes, bc);
            assert_float_equal(b[3].bytes, hop / arcs, 1e-9 * hop);
            for (size_t q = 0; q < TOTEX_WBOUND_ANALYTIC; q++)
                assert_float_equal(b[q].seconds, 1e-6 + b[q].bytes / 1e9, 1e-15);
            totex_demand_free(d);
            totex_network_free(net);
        }
}

static void test_lp_dominates_and_schedules_verify(void **state)
{
    (void)state;
    const char *specs[] = {"torus:3x4", "mesh:3x3", "ring:5*path:3", "hypercube:3", "torus:4x4"};
    const char *kinds[] = {"uniform:4096", "zipf:1.1:4096", "hotspot:1:4096", "random:4096"};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++)
        for (size_t k = 0; k < 4; k++) {
            totex_network *net = ts_net(specs[s]);
            totex_demand *d = gen(kinds[k], totex_network_nodes(net), 5 + s);
            totex_demand_plan_options o = {0};
            o.bandwidth = 1e9;
            o.ts = 1e-6;
            totex_demand_report r;
            totex_error err;
            assert_int_equal(totex_demand_plan(net, d, &o, &r, &err), TOTEX_OK);
            if (!r.has_fluid)
                fail_msg("%s: no LP: %s", specs[s], r.fluid_reason);
            for (size_t q = 0; q < TOTEX_WBOUND_ANALYTIC; q++)
                if (r.analytic[q].bytes > r.fluid.bytes * (1 + 1e-7) + 1e-6)
                    fail_msg("%s %s: %s bound %.3f exceeds the LP %.3f", specs[s], kinds[k],
                             totex_wbound_kind_name(r.analytic[q].kind), r.analytic[q].bytes, r.fluid.bytes);
            assert_int_equal(r.nrows, 4);
            for (size_t q = 0; q < r.nrows; q++) {
                if (r.rows[q].status != TOTEX_OK)
                    fail_msg("%s %s: %s: %s", specs[s], kinds[k], r.rows[q].name, r.rows[q].reason);
                /* no verified schedule beats the bound it was measured against */
                assert_true((double)r.rows[q].sim.max_link >= r.best.bytes * (1 - 1e-7) - 1e-6);
                assert_true(r.rows[q].sim.seconds >= r.best.seconds * (1 - 1e-9));
            }
            /* the LP's routing meets the LP up to one byte of rounding per path */
            assert_true((double)r.rows[3].sim.max_link <= r.fluid.bytes + 64.0 * totex_network_nodes(net));
            if (!strcmp(specs[s], "torus:4x4") && k == 0) /* every link carries 8M: hop-bytes 16*32*M / 64 */
                assert_float_equal(r.fluid.bytes, 8.0 * 4096, 1e-6 * 8 * 4096);
            totex_demand_report_release(&r);
            totex_demand_free(d);
            totex_network_free(net);
        }
}

static totex_status sim(const totex_network *net, const totex_demand *d, totex_wschedule *s, totex_error *err)
{
    totex_wsim_result res;
    totex_status st = totex_wsim_run(net, d, s, 1e9, 0, NULL, &res, err);
    totex_wschedule_free(s);
    return st;
}

static void test_simulator_rejects(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:4");
    totex_demand *d = totex_demand_new(4, NULL);
    d->w[0 * 4 + 2] = 10; /* only 0 -> 2, ten bytes */
    totex_error err;
    uint32_t good[] = {0, 1, 2}, bad[] = {0, 2}, first[] = {0, 1}, second[] = {1, 2};
    totex_wschedule *s = totex_wschedule_new("t");
    totex_wschedule_add(s, 0, 2, 10, good, 3);
    assert_int_equal(sim(net, d, s, &err), TOTEX_OK);
    s = totex_wschedule_new("t"); /* 0 - 2 is not a link of ring:4 */
    totex_wschedule_add(s, 0, 2, 10, bad, 2);
    assert_int_equal(sim(net, d, s, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "not a link"));
    s = totex_wschedule_new("t"); /* 11 bytes of 10 */
    totex_wschedule_add(s, 0, 2, 11, good, 3);
    assert_int_equal(sim(net, d, s, &err), TOTEX_EVIOLATION);
    s = totex_wschedule_new("t"); /* relayed in the step the bytes arrive */
    totex_wschedule_add(s, 0, 2, 10, first, 2);
    totex_wschedule_add(s, 0, 2, 10, second, 2);
    assert_int_equal(sim(net, d, s, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "start of the step"));
    s = totex_wschedule_new("t"); /* relayed a step later: fine */
    totex_wschedule_add(s, 0, 2, 10, first, 2);
    totex_wschedule_step(s);
    totex_wschedule_add(s, 0, 2, 10, second, 2);
    assert_int_equal(sim(net, d, s, &err), TOTEX_OK);
    s = totex_wschedule_new("t"); /* 4 of 10 bytes left at the relay */
    totex_wschedule_add(s, 0, 2, 10, first, 2);
    totex_wschedule_step(s);
    totex_wschedule_add(s, 0, 2, 6, second, 2);
    assert_int_equal(sim(net, d, s, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "have arrived"));
    totex_demand_free(d);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generators),
        cmocka_unit_test(test_analytic_bounds),
        cmocka_unit_test(test_lp_dominates_and_schedules_verify),
        cmocka_unit_test(test_simulator_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
