/*
 * Algorithm "octr" (src/algorithms/octr.c): decomposition of the task matrix
 * into (k-)permutation matrices, rows by distance, for optimal completion
 * time (001 Theorems 5, 7, 9) and optimal or near-optimal average delay
 * (001 Sections 6, 8.4-8.5), and the delay lower bound of totex/delay.h
 * (001 appendix, Theorem 6, Proposition 1). Every expectation is computed
 * here independently:
 *
 *  - h and sigma from the task matrix entries (totex_task_row), not from the
 *    task's own sums; steps must be h multiport (Theorems 5, 9) and
 *    max(ceil(sigma/k), h) under k-port (Theorem 7), certified at one node
 *    (totex_sym_certify, Theorem 2) and, on networks of at most 200 nodes,
 *    expanded to every node and replayed by the simulator (totex/sim.h),
 *    which must measure the same steps and average delay;
 *  - multiport: where the antipodal split of the task matrix is balanced
 *    (n/m_i even for every even side m_i, task.h), h is the multiport cut
 *    bound of totex_bounds_compute (000 eq. (4)); everywhere steps >= it;
 *  - single-port (k = 1): steps = the average-status bound (000 eq. (3)) =
 *    the steps of A2 (000 Section 4, 004 Corollary 2);
 *  - average delay: odd rings (m+1)(m+3)/24 and even rings at most
 *    ((m-2)(m-1)m + 6m^2)/(24(m-1)) (001 Section 8.5); hypercubes of prime
 *    dimension the closed form D_TE of 001 Section 6.2; 2-D tori p x p with
 *    p odd the SPT bound (strictly optimal, 001 Section 8.5);
 *  - the SPT bound itself against a slot-by-slot simulation of the rule of
 *    001 Proposition 1 (serve the customers with least positive residual),
 *    written here without the library's list-scheduling shortcut.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/delay.h"

static const totex_algorithm *octr(void)
{
    totex_error err = {{0}};
    const totex_algorithm *a = totex_algorithm_find("octr", &err);
    if (!a)
        fail_msg("%s", err.msg);
    assert_non_null(a->plan_symmetric);
    return a;
}

/* h and sigma from the entries */
static void sums(const totex_task *t, uint64_t *h, uint64_t *sigma)
{
    uint32_t cols[TOTEX_MAX_DIMS], cnts[TOTEX_MAX_DIMS], C = totex_task_cols(t);
    uint64_t *cs = calloc(C, sizeof *cs);
    *h = 0;
    *sigma = 0;
    for (uint32_t r = 0; r < totex_task_rows(t); r++) {
        uint32_t ne = totex_task_row(t, r, cols, cnts, TOTEX_MAX_DIMS);
        uint64_t rs = 0;
        for (uint32_t e = 0; e < ne; e++) {
            cs[cols[e]] += cnts[e];
            rs += cnts[e];
        }
        *sigma += rs;
        if (rs > *h)
            *h = rs;
    }
    for (uint32_t j = 0; j < C; j++)
        if (cs[j] > *h)
            *h = cs[j];
    free(cs);
}

static uint64_t bound_of(const totex_network *net, totex_ports ports, totex_bound_kind kind)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t n = 0, best = 0;
    totex_error err = {{0}};
    if (totex_bounds_compute(net, ports, b, &n, &best, &err) != TOTEX_OK)
        fail_msg("bounds of %s: %s", totex_network_spec(net), err.msg);
    for (size_t i = 0; i < n; i++)
        if (b[i].kind == kind)
            return b[i].value;
    fail_msg("no %s bound for %s", totex_bound_kind_name(kind), totex_network_spec(net));
    return 0;
}

/* n/m_i even for every even side m_i: the A+/A- split of every dimension is exact */
static int balanced(const totex_network *net)
{
    uint32_t n = totex_network_nodes(net);
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t m = totex_factor_nodes(f);
        if (totex_factor_get_kind(f) == TOTEX_FACTOR_RING && m % 2 == 0 && (n / m) % 2)
            return 0;
    }
    return 1;
}

typedef struct run_result {
    uint64_t steps, h, sigma;
    double delay, spt;
} run_result;

/* Plan with octr, certify, compare with h / sigma, and on small networks expand and simulate. */
static run_result run(const char *spec, totex_ports ports, uint32_t sim_limit)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_sym_report rep;
    run_result rr;
    char pn[32];
    totex_ports_format(ports, pn, sizeof pn);
    if (octr()->plan_symmetric(net, ports, &t, &s, &err) != TOTEX_OK)
        fail_msg("octr on %s %s: %s", spec, pn, err.msg);
    if (totex_sym_certify(t, ports, s, &rep, &err) != TOTEX_OK)
        fail_msg("octr on %s %s rejected: %s", spec, pn, err.msg);
    sums(t, &rr.h, &rr.sigma);
    uint64_t expect = rr.h;
    if (ports != TOTEX_PORTS_MULTI) {
        uint64_t q = (rr.sigma + ports - 1) / ports;
        if (q > expect)
            expect = q; /* 001 Theorem 7 */
    }
    if (rep.steps != expect || totex_sym_steps(s) != expect)
        fail_msg("%s %s: octr %llu steps (%llu recorded), expected max(ceil(sigma/k), h) = %llu (h %llu, sigma %llu)",
                 spec, pn, (unsigned long long)rep.steps, (unsigned long long)totex_sym_steps(s),
                 (unsigned long long)expect, (unsigned long long)rr.h, (unsigned long long)rr.sigma);
    assert_int_equal(rep.moves, rr.sigma); /* shortest paths: sigma moves */
    uint64_t predicted;
    assert_int_equal(octr()->predict(net, ports, &predicted, &err), TOTEX_OK);
    assert_int_equal(predicted, expect);
    rr.steps = rep.steps;
    rr.delay = rep.average_delay;
    assert_int_equal(totex_delay_lower_bound(t, ports, &rr.spt, &err), TOTEX_OK);
    if (rr.delay < rr.spt - 1e-9)
        fail_msg("%s %s: average delay %.9f below the SPT lower bound %.9f", spec, pn, rr.delay, rr.spt);
    if (totex_network_nodes(net) <= sim_limit) {
        totex_schedule *full = totex_schedule_new();
        totex_sim_report sr;
        assert_int_equal(totex_sym_expand(t, s, totex_schedule_sink(full), &err), TOTEX_OK);
        if (ts_simulate(net, ports, full, &sr, &err) != TOTEX_OK)
            fail_msg("%s %s: simulator rejects the expanded octr schedule: %s", spec, pn, err.msg);
        assert_int_equal(sr.steps, rep.steps);
        assert_true(fabs(sr.average_delay - rep.average_delay) < 1e-9);
        totex_schedule_free(full);
    }
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
    return rr;
}

/* multiport: steps == h; == cut bound where balanced; >= it everywhere */
static void multiport_case(const char *spec, uint32_t sim_limit)
{
    totex_network *net = ts_net(spec);
    run_result rr = run(spec, TOTEX_PORTS_MULTI, sim_limit);
    uint64_t cut = bound_of(net, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT);
    if (rr.steps < cut)
        fail_msg("%s: %llu steps below the cut bound %llu", spec, (unsigned long long)rr.steps,
                 (unsigned long long)cut);
    if (balanced(net) && rr.steps != cut)
        fail_msg("%s: balanced split but %llu steps != cut bound %llu", spec, (unsigned long long)rr.steps,
                 (unsigned long long)cut);
    totex_network_free(net);
}

static void test_tori_multiport(void **state)
{
    (void)state;
    char spec[64];
    unsigned count = 0;
    for (unsigned dims = 1; dims <= 3; dims++) {
        unsigned total = 1;
        for (unsigned i = 0; i < dims; i++)
            total *= 8;
        for (unsigned code = 0; code < total; code++) {
            unsigned c = code, len = (unsigned)snprintf(spec, sizeof spec, "torus:");
            for (unsigned i = 0; i < dims; i++, c /= 8)
                len += (unsigned)snprintf(spec + len, sizeof spec - len, "%s%u", i ? "x" : "", 2 + c % 8);
            multiport_case(spec, 200);
            count++;
        }
    }
    assert_int_equal(count, 8 + 64 + 512);
}

static void test_hypercubes_multiport(void **state)
{
    (void)state;
    char spec[32];
    for (unsigned d = 1; d <= 10; d++) {
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        multiport_case(spec, 256);
        totex_network *net = ts_net(spec);
        uint64_t n = totex_network_nodes(net);
        run_result rr = run(spec, TOTEX_PORTS_MULTI, 0);
        assert_int_equal(rr.steps, n / 2); /* 001 Section 4.1: h = n/2 */
        totex_network_free(net);
    }
}

static void test_ghc_multiport(void **state)
{
    (void)state;
    char spec[64];
    for (unsigned dims = 1; dims <= 3; dims++) {
        unsigned total = 1;
        for (unsigned i = 0; i < dims; i++)
            total *= 3;
        for (unsigned code = 0; code < total; code++) {
            unsigned c = code, len = (unsigned)snprintf(spec, sizeof spec, "ghc:");
            for (unsigned i = 0; i < dims; i++, c /= 3)
                len += (unsigned)snprintf(spec + len, sizeof spec - len, "%s%u", i ? "x" : "", 2 + c % 3);
            multiport_case(spec, 200);
        }
    }
    multiport_case("ring:5*complete:4*k2", 200);
    multiport_case("ring:6*complete:3", 200);
}

/* k-port: max(ceil(sigma/k), h) for k = 1..degree; k = 1 is the average-status bound and A2's steps */
static void kport_case(const char *spec, uint32_t sim_limit)
{
    totex_network *net = ts_net(spec);
    uint32_t deg = totex_network_min_degree(net);
    for (uint32_t k = 1; k <= deg; k++) {
        run_result rr = run(spec, k, sim_limit);
        if (k == 1) {
            totex_sim_report a2;
            uint64_t as = bound_of(net, TOTEX_PORTS_SINGLE, TOTEX_BOUND_AVERAGE_STATUS);
            assert_int_equal(rr.steps, rr.sigma);
            if (rr.steps != as)
                fail_msg("%s single-port: %llu steps, average-status bound %llu", spec,
                         (unsigned long long)rr.steps, (unsigned long long)as);
            ts_plan_ok(spec, TOTEX_PORTS_SINGLE, "a2", &a2, NULL);
            if (a2.steps != rr.steps)
                fail_msg("%s single-port: octr %llu steps, A2 %llu", spec, (unsigned long long)rr.steps,
                         (unsigned long long)a2.steps);
            /* one server: SPT is optimal and octr serves the rows one after another by distance */
            assert_true(fabs(rr.delay - rr.spt) < 1e-9);
        }
    }
    /* k >= degree is multiport */
    run_result big = run(spec, deg + 3, 0), multi = run(spec, TOTEX_PORTS_MULTI, 0);
    assert_int_equal(big.steps, multi.steps);
    totex_network_free(net);
}

static void test_kport(void **state)
{
    (void)state;
    char spec[32];
    for (unsigned d = 1; d <= 8; d++) {
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        kport_case(spec, 64);
    }
    const char *small[] = {"ring:7", "ring:8", "torus:3x3", "torus:4x4", "torus:5x5", "torus:3x4", "torus:4x6",
                           "torus:3x3x3", "torus:4x4x4", "ring:5*k2", "ghc:3x4", "ring:3*complete:4"};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
        kport_case(small[i], 64);
}

/* ---- average delay -------------------------------------------------------------------- */

static void test_rings_delay(void **state)
{
    (void)state;
    char spec[32];
    unsigned lower = 0;
    for (unsigned m = 3; m <= 32; m++) {
        snprintf(spec, sizeof spec, "ring:%u", m);
        run_result rr = run(spec, TOTEX_PORTS_MULTI, 32);
        if (m % 2) {
            double d = (double)(m + 1) * (m + 3) / 24.0; /* 001 Section 8.5, odd n */
            if (fabs(rr.delay - d) > 1e-9)
                fail_msg("%s: average delay %.9f, 001 Section 8.5 gives (m+1)(m+3)/24 = %.9f", spec, rr.delay, d);
        } else {
            double d = ((double)(m - 2) * (m - 1) * m + 6.0 * m * m) / (24.0 * (m - 1)); /* even n */
            if (rr.delay > d + 1e-9)
                fail_msg("%s: average delay %.9f above 001 Section 8.5's %.9f", spec, rr.delay, d);
            if (rr.delay < d - 1e-9) {
                printf("%s: average delay %.9f below 001 Section 8.5's %.9f\n", spec, rr.delay, d);
                lower++;
            }
        }
        /* both are strictly optimal: the SPT bound */
        assert_true(fabs(rr.delay - rr.spt) < 1e-9);
    }
    printf("even rings 4..32: %u below the formula of 001 Section 8.5 (the rest equal it)\n", lower);
}

static double binom(unsigned n, unsigned k)
{
    double r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* D_TE of 001 Section 6.2 (hypercube, d prime), the closed form */
static double d_te(unsigned d)
{
    double n = ldexp(1.0, (int)d), a = 0, f = 1;
    for (unsigned i = 1; i <= d; i++) {
        double inner = 0;
        for (unsigned j = 1; j <= i; j++)
            inner += binom(d, j) * j;
        a += binom(d, i) * inner;
    }
    for (unsigned i = d; i <= 2 * d - 1; i++) /* (2d-1)! / ((d-1)!)^2 = (2d-1)!/(d-1)! / (d-1)! */
        f *= i;
    for (unsigned i = 2; i <= d - 1; i++)
        f /= i;
    return a / (d * (n - 1)) - f / (2 * d * (n - 1)) + (2.0 * d - 1 + (n / 2 - 1) * d) / (2 * (n - 1));
}

/* the same from m_i, M_i of 001 Section 6.2 (a check of the transcription of the closed form) */
static double d_te_mM(unsigned d)
{
    double n = ldexp(1.0, (int)d), sum = 0;
    double m[40], M[40];
    for (unsigned i = 1; i <= d; i++) {
        m[i] = i;
        for (unsigned j = 1; j < i; j++)
            m[i] += binom(d, j) / d * j;
    }
    for (unsigned i = 1; i < d; i++)
        M[i] = (i + 1 <= d ? m[i + 1] : 0) - (i + 1);
    M[d] = m[d] = n / 2 + d - 1;
    for (unsigned i = 1; i <= d; i++)
        sum += (M[i] + m[i]) / (2 * (n - 1)) * binom(d, i);
    return sum;
}

static void test_hypercube_delay(void **state)
{
    (void)state;
    const unsigned primes[] = {2, 3, 5, 7};
    char spec[32];
    for (size_t i = 0; i < 4; i++) {
        unsigned d = primes[i];
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        run_result rr = run(spec, TOTEX_PORTS_MULTI, 128);
        double f = d_te(d);
        assert_true(fabs(f - d_te_mM(d)) < 1e-9);
        if (fabs(rr.delay - f) > 1e-9)
            fail_msg("%s: average delay %.9f, D_TE of 001 Section 6.2 = %.9f", spec, rr.delay, f);
        assert_true(fabs(rr.delay - rr.spt) < 1e-9);
    }
}

static void test_torus2d_delay(void **state)
{
    (void)state;
    char spec[32];
    for (unsigned p = 3; p <= 9; p += 2) {
        snprintf(spec, sizeof spec, "torus:%ux%u", p, p);
        run_result rr = run(spec, TOTEX_PORTS_MULTI, 81);
        if (fabs(rr.delay - rr.spt) > 1e-9)
            fail_msg("%s: average delay %.9f, SPT bound %.9f (001 Section 8.5: strictly optimal)", spec, rr.delay,
                     rr.spt);
    }
}

/* ---- the SPT bound against the slot-by-slot rule of 001 Proposition 1 -------------------------- */

static double spt_slots(const totex_task *t, uint32_t servers)
{
    uint32_t maxx = 0, rows = totex_task_rows(t);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t x = totex_task_row_sum(t, r);
        if (x > maxx)
            maxx = x;
    }
    uint64_t *cnt = calloc((size_t)maxx + 1, sizeof *cnt), *take = calloc((size_t)maxx + 1, sizeof *take);
    for (uint32_t r = 0; r < rows; r++)
        cnt[totex_task_row_sum(t, r)]++;
    uint64_t left = rows, slot = 0;
    double total = 0;
    while (left) {
        slot++;
        uint64_t free_servers = servers;
        for (uint32_t x = 1; x <= maxx; x++) { /* least positive residual first */
            take[x] = cnt[x] < free_servers ? cnt[x] : free_servers;
            free_servers -= take[x];
        }
        for (uint32_t x = 1; x <= maxx; x++) {
            cnt[x] -= take[x];
            cnt[x - 1] += take[x];
            if (x == 1) {
                total += (double)slot * take[1];
                left -= take[1];
            }
            take[x] = 0;
        }
        cnt[0] = 0;
    }
    free(cnt);
    free(take);
    return total / rows;
}

static void test_spt_bound(void **state)
{
    (void)state;
    const char *specs[] = {"ring:9", "ring:10", "torus:4x4", "torus:5x7", "hypercube:6", "ghc:3x4x5", "ring:5*k2*ring:4"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_error err = {{0}};
        totex_task *t = totex_task_total_exchange(net, &err);
        assert_non_null(t);
        uint32_t C = totex_task_cols(t);
        totex_ports ps[] = {TOTEX_PORTS_MULTI, 1, 2, 3, C, C + 5};
        for (size_t p = 0; p < sizeof ps / sizeof ps[0]; p++) {
            double lb, want = spt_slots(t, ps[p] == TOTEX_PORTS_MULTI || ps[p] > C ? C : ps[p]);
            assert_int_equal(totex_delay_lower_bound(t, ps[p], &lb, &err), TOTEX_OK);
            if (fabs(lb - want) > 1e-9)
                fail_msg("%s ports %u: SPT bound %.9f, slot simulation %.9f", specs[i], ps[p], lb, want);
        }
        double lb;
        assert_int_equal(totex_delay_lower_bound(NULL, 0, &lb, &err), TOTEX_EINVAL);
        assert_int_equal(totex_delay_lower_bound(t, TOTEX_PORTS_MAX_K + 1, &lb, &err), TOTEX_EINVAL);
        totex_task_free(t);
        totex_network_free(net);
    }
}

/* ---- applicability, the streamed plan, reports ------------------------------------------------- */

static void test_not_applicable(void **state)
{
    (void)state;
    const char *specs[] = {"path:5", "mesh:3x4", "ring:5*path:3"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        totex_error err = {{0}};
        uint64_t steps;
        assert_int_equal(octr()->applies(net, TOTEX_PORTS_MULTI, &err), TOTEX_ENOTAPPLICABLE);
        assert_non_null(strstr(err.msg, "linear array"));
        assert_int_equal(octr()->predict(net, 1, &steps, &err), TOTEX_ENOTAPPLICABLE);
        totex_network_free(net);
    }
    totex_network *net = ts_net("torus:3x3");
    totex_error err = {{0}};
    assert_int_equal(octr()->applies(net, TOTEX_PORTS_MAX_K + 1, &err), TOTEX_ENOTAPPLICABLE);
    assert_int_equal(octr()->applies(net, 3, &err), TOTEX_OK);
    totex_network_free(net);
}

/* the streamed form (.plan) through the library's plan-and-verify path */
static void test_plan_streamed(void **state)
{
    (void)state;
    totex_sim_report rep;
    uint64_t predicted;
    ts_plan_ok("torus:5x5", TOTEX_PORTS_MULTI, "octr", &rep, &predicted);
    assert_int_equal(rep.steps, 15); /* (p^2-1)/8 * p = 15 (001 Section 8.2) */
    assert_int_equal(predicted, 15);
    ts_plan_ok("hypercube:5", TOTEX_PORTS_SINGLE, "octr", &rep, &predicted);
    assert_int_equal(rep.steps, 80); /* n d / 2 (001 Section 7, k = 1) */
    ts_plan_ok("ring:6*ring:4", 2, "octr", &rep, &predicted);
    assert_int_equal(rep.steps, predicted);
}

/* a table of D against the SPT bound, for the record */
static void test_delay_table(void **state)
{
    (void)state;
    const char *specs[] = {"torus:4x4", "torus:6x6", "torus:8x8", "torus:4x4x4", "torus:3x3x3", "torus:5x5x5",
                           "hypercube:4", "hypercube:6", "hypercube:8", "torus:3x5", "ghc:4x4x4", "ring:5*k2"};
    printf("%-14s %6s %12s %12s %8s\n", "network", "steps", "delay", "SPT bound", "gap");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        run_result rr = run(specs[i], TOTEX_PORTS_MULTI, 0);
        printf("%-14s %6llu %12.6f %12.6f %7.3f%%\n", specs[i], (unsigned long long)rr.steps, rr.delay, rr.spt,
               100.0 * (rr.delay / rr.spt - 1));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tori_multiport),  cmocka_unit_test(test_hypercubes_multiport),
        cmocka_unit_test(test_ghc_multiport),   cmocka_unit_test(test_kport),
        cmocka_unit_test(test_rings_delay),     cmocka_unit_test(test_hypercube_delay),
        cmocka_unit_test(test_torus2d_delay),   cmocka_unit_test(test_spt_bound),
        cmocka_unit_test(test_not_applicable),  cmocka_unit_test(test_plan_streamed),
        cmocka_unit_test(test_delay_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
