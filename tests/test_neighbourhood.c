/*
 * The (K, L) neighbourhood exchange on hypercubes (001 Section 4.1): node s
 * sends a packet to every r with K <= Ham(s, r) <= L. Its critical sum is
 * h = max{L, sum_{i=K}^{L} C(d,i) i / d} (rounded up to an integer step
 * count, the column sums being equal by symmetry only when d divides the
 * sum), and OCTR must reach it: the schedule is certified at one node, its
 * step count equals the formula evaluated here, and under k-port it equals
 * max(ceil(sigma/k), h) with sigma = sum_i C(d,i) i (001 Section 7).
 */
#include <stdio.h>

#include "support.h"

static uint64_t binom(unsigned n, unsigned k)
{
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

static void test_critical_sum_reached(void **state)
{
    (void)state;
    for (unsigned d = 2; d <= 9; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        totex_network *net = ts_net(spec);
        for (unsigned K = 1; K <= d; K++)
            for (unsigned L = K; L <= d; L++) {
                uint64_t sigma = 0;
                for (unsigned i = K; i <= L; i++)
                    sigma += binom(d, i) * i;
                uint64_t col = (sigma + d - 1) / d, h = col > L ? col : L;
                totex_error err = {{0}};
                totex_task *t = totex_task_neighbourhood(net, K, L, &err);
                assert_non_null(t);
                for (uint32_t k = 0; k <= d; k++) { /* k = 0: multiport */
                    totex_sym_schedule *s = NULL;
                    totex_sym_report rep;
                    uint64_t expect = k ? ((sigma + k - 1) / k > h ? (sigma + k - 1) / k : h) : h;
                    if (totex_octr_schedule(t, (totex_ports)k, &s, &err) != TOTEX_OK)
                        fail_msg("%s (K, L) = (%u, %u), k = %u: %s", spec, K, L, k, err.msg);
                    if (totex_sym_certify(t, (totex_ports)k, s, &rep, &err) != TOTEX_OK)
                        fail_msg("%s (K, L) = (%u, %u), k = %u: %s", spec, K, L, k, err.msg);
                    if (totex_sym_steps(s) != expect || rep.steps != expect)
                        fail_msg("%s (K, L) = (%u, %u), k = %u: %llu steps, 001 says %llu", spec, K, L, k,
                                 (unsigned long long)totex_sym_steps(s), (unsigned long long)expect);
                    assert_int_equal(rep.moves, sigma);
                    totex_sym_free(s);
                }
                totex_task_free(t);
            }
        totex_network_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_critical_sum_reached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
