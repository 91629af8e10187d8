/*
 * Hostile calls to the library: getters given a node, a
 * dimension, a step or a transfer out of range return their documented
 * sentinel (include/totex/network.h, include/totex/combining.h) instead of
 * reading past an array. Run under AddressSanitizer in CI, a read out of
 * bounds fails these tests even where the value read happens to look right.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

static void test_network_getters_out_of_range(void **state)
{
    (void)state;
    /* a file factor keeps per-node arrays (adjacency, statuses, distances):
       an index past them is a heap read out of bounds without the checks */
    const char *specs[] = {"ring:5*path:3", "file:" TOTEX_TEST_DATA "/net_petersen.graphml*k2", "complete:4"};
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        totex_network *net = ts_net(specs[k]);
        uint32_t n = totex_network_nodes(net), dims = totex_network_dims(net);
        uint32_t out[64];
        uint32_t bad[] = {n, n + 1, UINT32_MAX};
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            uint32_t v = bad[b];
            memset(out, 0xab, sizeof out);
            assert_int_equal(totex_network_degree(net, v), 0);
            assert_int_equal(totex_network_neighbors(net, v, out), 0);
            assert_int_equal(out[0], 0xabababab); /* nothing written */
            assert_int_equal(totex_network_coord(net, v, 0), UINT32_MAX);
            assert_true(totex_network_distance(net, v, 0) == UINT64_MAX);
            assert_true(totex_network_distance(net, 0, v) == UINT64_MAX);
            assert_true(totex_network_status(net, v) == UINT64_MAX);
            assert_int_equal(totex_network_adjacent(net, v, 0), 0);
        }
        assert_int_equal(totex_network_coord(net, 0, dims), UINT32_MAX);
        assert_int_equal(totex_network_stride(net, dims), 0);
        assert_null(totex_network_factor(net, dims));
        /* in range: the same getters still answer (the independent BFS agrees on distances) */
        uint32_t *dist = ts_bfs_all_pairs(net);
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t c = 0; c < n; c++)
                assert_true(totex_network_distance(net, a, c) == dist[(size_t)a * n + c]);
        free(dist);
        for (uint32_t i = 0; i < dims; i++) {
            const totex_factor *f = totex_network_factor(net, i);
            uint32_t m = totex_factor_nodes(f);
            assert_int_equal(totex_factor_degree(f, m), 0);
            assert_int_equal(totex_factor_neighbor(f, m, 0), UINT32_MAX);
            assert_int_equal(totex_factor_neighbor(f, 0, totex_factor_degree(f, 0)), UINT32_MAX);
            assert_int_equal(totex_factor_distance(f, m, 0), UINT32_MAX);
            assert_int_equal(totex_factor_distance(f, 0, UINT32_MAX), UINT32_MAX);
            assert_true(totex_factor_status(f, m) == UINT64_MAX);
            assert_int_equal(totex_factor_neighbor_rank(f, m, 0), UINT32_MAX);
            assert_int_equal(totex_factor_adjacent(f, m, 0), 0);
        }
        totex_network_free(net);
    }
}

static void test_comb_get_transfer_out_of_range(void **state)
{
    (void)state;
    totex_comb_schedule *s = totex_comb_schedule_new();
    totex_block b[2] = {{0, 1}, {2, 3}};
    totex_transfer tr;
    assert_non_null(s);
    /* an empty schedule: every index is out of range */
    assert_int_equal(totex_comb_get_transfer(s, 0, 0, &tr), TOTEX_EINVAL);
    assert_int_equal(tr.from, UINT32_MAX);
    assert_int_equal(tr.count, 0);
    assert_null(tr.blocks);
    assert_int_equal(totex_comb_begin_step(s, NULL), TOTEX_OK);
    assert_int_equal(totex_comb_add_transfer(s, 0, 1, b, 2, NULL), TOTEX_OK);
    assert_int_equal(totex_comb_begin_step(s, NULL), TOTEX_OK); /* an empty step */
    assert_int_equal(totex_comb_get_transfer(s, 0, 0, &tr), TOTEX_OK);
    assert_int_equal(tr.from, 0);
    assert_int_equal(tr.to, 1);
    assert_int_equal(tr.count, 2);
    assert_int_equal(tr.blocks[1].dst, 3);
    assert_int_equal(totex_comb_get_transfer(s, 0, 1, &tr), TOTEX_EINVAL); /* past the step's transfers */
    assert_int_equal(tr.count, 0);
    assert_int_equal(totex_comb_get_transfer(s, 1, 0, &tr), TOTEX_EINVAL); /* the empty step */
    assert_int_equal(totex_comb_get_transfer(s, 2, 0, &tr), TOTEX_EINVAL); /* past the steps */
    assert_int_equal(totex_comb_get_transfer(s, UINT64_MAX, SIZE_MAX, &tr), TOTEX_EINVAL);
    assert_int_equal(totex_comb_step_transfers(s, 2), 0);
    assert_int_equal(totex_comb_step_rearranged(s, UINT64_MAX), 0);
    totex_comb_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_network_getters_out_of_range),
        cmocka_unit_test(test_comb_get_transfer_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
