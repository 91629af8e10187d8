/*
 * Suh-Shin-Yalamanchili (002) message-combining complete exchange: the
 * combining simulator replays every schedule (every block exactly once,
 * contention-free, one-port, wormhole) and the measured counts reproduce
 * 002 Table 1 (R x C and n-D meshes) and Table 2 (2^d x 2^d).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

static totex_comb_cost table_cost(void)
{
    totex_comb_cost c;
    totex_comb_cost_default(&c);
    c.t_s = 7e-6;
    c.t_c = 3e-9;
    c.rho = 2e-9;
    c.m = 64;
    c.switching = TOTEX_SWITCH_WORMHOLE;
    c.ports = TOTEX_COMB_ONE_PORT;
    return c;
}

/* Build ssy on spec, simulate (one-port wormhole), fill rep; returns the schedule (caller frees). */
static totex_comb_schedule *run(const char *spec, const totex_comb_cost *c, totex_comb_report *rep)
{
    totex_network *net = ts_net(spec);
    totex_comb_schedule *s = NULL;
    totex_error err = {{0}};
    if (totex_ssy_build(net, &s, &err) != TOTEX_OK)
        fail_msg("ssy on %s: %s", spec, err.msg);
    if (totex_comb_simulate(net, s, c, rep, NULL, &err) != TOTEX_OK)
        fail_msg("ssy on %s rejected: %s", spec, err.msg);
    uint64_t n = totex_network_nodes(net);
    assert_int_equal(rep->blocks_delivered, n * (n - 1));
    totex_network_free(net);
    return s;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b); }

/* 002 Table 1, R x C, R <= C, both even, 2x2 .. 16x16 */
static void test_table1_2d(void **state)
{
    (void)state;
    totex_comb_cost c = table_cost();
    for (uint64_t R = 2; R <= 16; R += 2)
        for (uint64_t C = R; C <= 16; C += 2) {
            char spec[64];
            totex_comb_report rep;
            snprintf(spec, sizeof spec, "mesh:%llux%llu", (unsigned long long)R, (unsigned long long)C);
            totex_comb_schedule *s = run(spec, &c, &rep);
            assert_int_equal(rep.startups, C);
            assert_int_equal(rep.steps, C);
            assert_int_equal(rep.blocks_transmitted, R * C * C / 2);
            assert_int_equal(rep.rearranged_blocks, 2 * R * C);
            double want = (double)C * c.t_s + (double)(R * C * C / 2) * c.m * c.t_c + (double)(2 * R * C) * c.m * c.rho;
            if (!close_to(rep.predicted_time, want))
                fail_msg("%s: predicted %.12g s, Table 1 gives %.12g s", spec, rep.predicted_time, want);
            totex_comb_schedule_free(s);
        }
}

/* per-step sizes of 002 Section 3.4(b): R(C - 2p) in phases 1 and 2, RC/2 in phase 3 */
static void test_step_sizes(void **state)
{
    (void)state;
    const uint64_t R = 4, C = 8;
    totex_comb_cost c = table_cost();
    totex_comb_report rep;
    totex_comb_schedule *s = run("mesh:4x8", &c, &rep);
    uint64_t want[8] = {R * (C - 2), R * (C - 4), R * (C - 6), R * (C - 2), R * (C - 4), R * (C - 6), R * C / 2, R * C / 2};
    assert_int_equal(totex_comb_steps(s), 8);
    for (uint64_t i = 0; i < 8; i++) {
        size_t largest = 0;
        for (size_t t = 0; t < totex_comb_step_transfers(s, i); t++) {
            totex_transfer x;
            totex_comb_get_transfer(s, i, t, &x);
            if (x.count > largest)
                largest = x.count;
        }
        assert_int_equal(largest, want[i]);
    }
    /* rearrangement before phases 2 and 3 only */
    assert_int_equal(totex_comb_step_rearranged(s, 0), 0);
    assert_int_equal(totex_comb_step_rearranged(s, 3), R * C);
    assert_int_equal(totex_comb_step_rearranged(s, 6), R * C);
    /* the logical ring's wrap-around crosses the row: 6 -> 0 is 6 hops in an 8-wide mesh */
    assert_int_equal(rep.max_route_hops, 6);
    totex_comb_schedule_free(s);
}

/* R > C: the construction is symmetric, the longer side counts */
static void test_2d_wide_first(void **state)
{
    (void)state;
    totex_comb_cost c = table_cost();
    totex_comb_report rep;
    totex_comb_schedule *s = run("mesh:10x4", &c, &rep);
    assert_int_equal(rep.startups, 10);
    assert_int_equal(rep.blocks_transmitted, 4 * 10 * 10 / 2);
    assert_int_equal(rep.rearranged_blocks, 2 * 40);
    totex_comb_schedule_free(s);
}

/* 002 Table 1, n-D: (n/2) a_1 start-ups, (n/4) a_1^2 a_2...a_n blocks, n a_1...a_n rearranged */
static void test_table1_nd(void **state)
{
    (void)state;
    static const char *specs[] = {"mesh:4x4x4", "mesh:6x4x4", "mesh:6x6x6", "mesh:2x4x6",
                                  "mesh:4x4x4x4", "mesh:6x6x4x2", "mesh:2x2x2", "mesh:8x2x4"};
    totex_comb_cost c = table_cost();
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t n = totex_network_dims(net), a1 = 0, N = totex_network_nodes(net);
        totex_comb_report rep;
        for (uint32_t d = 0; d < n; d++)
            if (totex_factor_nodes(totex_network_factor(net, d)) > a1)
                a1 = totex_factor_nodes(totex_network_factor(net, d));
        totex_network_free(net);
        totex_comb_schedule *s = run(specs[i], &c, &rep);
        if (rep.startups != n * a1 / 2 || rep.blocks_transmitted != n * a1 * N / 4 || rep.rearranged_blocks != n * N)
            fail_msg("%s: start-ups %llu (want %llu), blocks %llu (want %llu), rearranged %llu (want %llu)", specs[i],
                     (unsigned long long)rep.startups, (unsigned long long)(n * a1 / 2),
                     (unsigned long long)rep.blocks_transmitted, (unsigned long long)(n * a1 * N / 4),
                     (unsigned long long)rep.rearranged_blocks, (unsigned long long)(n * N));
        double want = (double)(n * a1 / 2) * c.t_s + (double)(n * a1 * N / 4) * c.m * c.t_c +
                      (double)(n * N) * c.m * c.rho;
        assert_true(close_to(rep.predicted_time, want));
        totex_comb_schedule_free(s);
    }
}

/* 002 Table 2, "Proposed": 2^d start-ups, 2^(3d-1) blocks, 2 * 2^(2d) rearranged on 2^d x 2^d */
static void test_table2(void **state)
{
    (void)state;
    totex_comb_cost c = table_cost();
    for (unsigned d = 1; d <= 4; d++) {
        char spec[64];
        totex_comb_report rep;
        uint64_t side = UINT64_C(1) << d;
        snprintf(spec, sizeof spec, "mesh:%llux%llu", (unsigned long long)side, (unsigned long long)side);
        totex_comb_schedule *s = run(spec, &c, &rep);
        assert_int_equal(rep.startups, side);
        assert_int_equal(rep.blocks_transmitted, UINT64_C(1) << (3 * d - 1));
        assert_int_equal(rep.rearranged_blocks, 2 * (UINT64_C(1) << (2 * d)));
        totex_comb_schedule_free(s);
    }
}

/* all-port accepts the one-port schedule; store-and-forward refuses its 2-hop ring transfers */
static void test_other_models(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:6x6");
    totex_comb_schedule *s = NULL;
    totex_comb_cost c = table_cost();
    totex_comb_report rep;
    totex_comb_fault f;
    totex_error err = {{0}};
    assert_int_equal(totex_ssy_build(net, &s, &err), TOTEX_OK);
    c.ports = TOTEX_COMB_ALL_PORT;
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_OK);
    assert_int_equal(rep.startups, 6);
    c.switching = TOTEX_SWITCH_STORE_FORWARD;
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_CVIOL_NOT_LINK);
    assert_int_equal(f.step, 1);
    totex_comb_schedule_free(s);
    totex_network_free(net);
}

static void expect_refused(const char *spec, const char *w1, const char *w2)
{
    totex_network *net = ts_net(spec);
    totex_comb_schedule *s = (totex_comb_schedule *)&s;
    totex_error err = {{0}};
    assert_int_equal(totex_ssy_build(net, &s, &err), TOTEX_ENOTAPPLICABLE);
    assert_null(s);
    if (!strstr(err.msg, w1) || !strstr(err.msg, w2))
        fail_msg("%s: message '%s' lacks '%s' or '%s'", spec, err.msg, w1, w2);
    totex_network_free(net);
}

/* The odd-side cost formulas documented in the header of src/combining/ssy.c. */
typedef struct ssy_formula {
    uint64_t startups, blocks, rearranged;
} ssy_formula;

static uint64_t u64max(uint64_t x, uint64_t y) { return x > y ? x : y; }

static ssy_formula odd_formula(const uint64_t *a, unsigned n)
{
    ssy_formula f = {0, 0, 0};
    uint64_t e[8], o[8], N = 1, emax = 0, q = 0;
    for (unsigned j = 0; j < n; j++) {
        o[j] = a[j] % 2;
        e[j] = a[j] - o[j];
        N *= a[j];
        q += o[j];
        emax = u64max(emax, e[j]);
    }
    f.startups = n * (emax / 2 - 1) + n + 2 * q;
    f.rearranged = n * (N << q);
    for (uint64_t t = 0; t < q; t++) /* pre + post */
        f.blocks += 2 * (((N - 1) << t) - (t ? t << (t - 1) : 0));
    for (unsigned k = 0; k < n; k++)
        for (uint64_t i = 1; i + 1 <= emax / 2; i++) {
            uint64_t best = 0;
            for (unsigned p = 0; p < (1u << n); p++) {
                unsigned w = (unsigned)__builtin_popcount(p), D = n - 1 - (k + w) % n, inP[8] = {0};
                uint64_t prod = 1;
                for (unsigned kk = 0; kk < k; kk++)
                    inP[n - 1 - (kk + w) % n] = 1;
                for (unsigned j = 0; j < n; j++) {
                    uint64_t pj = (p >> j) & 1u;
                    if (j == D)
                        prod *= i > e[D] / 2 - 1 ? 0 : o[D] && pj ? 2 * (e[D] - 2 * i) : o[D] ? e[D] - 2 * i + 1 : a[D] - 2 * i;
                    else if (inP[j])
                        prod *= (e[j] / 2 + o[j] * pj) * (2 + o[j]);
                    else
                        prod *= (1 + o[j] * pj) * a[j];
                }
                best = u64max(best, prod);
            }
            f.blocks += best;
        }
    for (unsigned j = 0; j < n; j++) {
        unsigned D = n - 1 - j;
        uint64_t prod = 1;
        for (unsigned x = 0; x < n; x++)
            prod *= x > D ? a[x] * (1 + o[x])
                  : x == D ? u64max(e[D] / 2 + o[D], e[D] / 2 * (1 + o[D]))
                           : (e[x] / 2 + o[x]) * (2 + o[x]);
        f.blocks += prod;
    }
    return f;
}

static unsigned parse_sides(const char *spec, uint64_t *a)
{
    unsigned n = 0;
    const char *p = strchr(spec, ':') + 1;
    while (*p) {
        char *end;
        a[n++] = strtoull(p, &end, 10);
        p = *end ? end + 1 : end;
    }
    return n;
}

/* odd and mixed sides (beyond 002): simulator-verified, counts equal the documented formulas */
static void test_odd_sides(void **state)
{
    (void)state;
    static const char *specs[] = {"mesh:3x3", "mesh:3x4",   "mesh:5x5",     "mesh:5x8", "mesh:7x7", "mesh:3x3x3",
                                  "mesh:5x4x3", "mesh:3x3x3x3", "mesh:9x2", "mesh:4x5", "mesh:2x3", "mesh:3x2x2"};
    totex_comb_cost c = table_cost();
    printf("  ssy on odd sides vs the next even mesh (start-ups / blocks / rearranged):\n");
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        uint64_t a[8], ae[8];
        unsigned n = parse_sides(specs[i], a);
        char even[64];
        size_t used = (size_t)snprintf(even, sizeof even, "mesh:");
        for (unsigned j = 0; j < n; j++) {
            ae[j] = a[j] + a[j] % 2;
            used += (size_t)snprintf(even + used, sizeof even - used, "%s%llu", j ? "x" : "", (unsigned long long)ae[j]);
        }
        ssy_formula f = odd_formula(a, n), fe = odd_formula(ae, n);
        totex_comb_report rep, repe;
        totex_comb_schedule *s = run(specs[i], &c, &rep), *se = run(even, &c, &repe);
        if (rep.startups != f.startups || rep.blocks_transmitted != f.blocks || rep.rearranged_blocks != f.rearranged)
            fail_msg("%s: start-ups %llu (formula %llu), blocks %llu (formula %llu), rearranged %llu (formula %llu)",
                     specs[i], (unsigned long long)rep.startups, (unsigned long long)f.startups,
                     (unsigned long long)rep.blocks_transmitted, (unsigned long long)f.blocks,
                     (unsigned long long)rep.rearranged_blocks, (unsigned long long)f.rearranged);
        /* the even formula is Table 1 on the next even mesh */
        assert_int_equal(repe.startups, fe.startups);
        assert_int_equal(repe.blocks_transmitted, fe.blocks);
        assert_int_equal(repe.rearranged_blocks, fe.rearranged);
        printf("  %-14s %3llu / %6llu / %6llu   %-14s %3llu / %6llu / %6llu   blocks x%.2f\n", specs[i],
               (unsigned long long)rep.startups, (unsigned long long)rep.blocks_transmitted,
               (unsigned long long)rep.rearranged_blocks, even, (unsigned long long)repe.startups,
               (unsigned long long)repe.blocks_transmitted, (unsigned long long)repe.rearranged_blocks,
               (double)rep.blocks_transmitted / (double)repe.blocks_transmitted);
        totex_comb_schedule_free(s);
        totex_comb_schedule_free(se);
    }
}

/* the even formula of ssy.c is 002 Table 1 */
static void test_formula_even(void **state)
{
    (void)state;
    for (uint64_t R = 2; R <= 12; R += 2)
        for (uint64_t C = R; C <= 12; C += 2) {
            uint64_t a[2] = {R, C};
            ssy_formula f = odd_formula(a, 2);
            assert_int_equal(f.startups, C);
            assert_int_equal(f.blocks, R * C * C / 2);
            assert_int_equal(f.rearranged, 2 * R * C);
        }
}

static void test_refusals(void **state)
{
    (void)state;
    expect_refused("torus:4x4", "meshes", "ring:4");
    expect_refused("path:8", "2 dimensions", "path:8");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table1_2d), cmocka_unit_test(test_step_sizes),   cmocka_unit_test(test_2d_wide_first),
        cmocka_unit_test(test_table1_nd), cmocka_unit_test(test_table2),       cmocka_unit_test(test_other_models),
        cmocka_unit_test(test_refusals), cmocka_unit_test(test_odd_sides), cmocka_unit_test(test_formula_even),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
