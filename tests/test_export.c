/*
 * Export and import of combining schedules (include/totex/combining.h,
 * docs/schedule-format.md): export then import round-trips every step exactly,
 * and import rejects each malformed file with a message naming the problem.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

static void assert_same(const totex_comb_schedule *a, const totex_comb_schedule *b)
{
    assert_int_equal(totex_comb_steps(a), totex_comb_steps(b));
    for (uint64_t i = 0; i < totex_comb_steps(a); i++) {
        assert_int_equal(totex_comb_step_rearranged(a, i), totex_comb_step_rearranged(b, i));
        assert_int_equal(totex_comb_step_transfers(a, i), totex_comb_step_transfers(b, i));
        for (size_t t = 0; t < totex_comb_step_transfers(a, i); t++) {
            totex_transfer x, y;
            totex_comb_get_transfer(a, i, t, &x);
            totex_comb_get_transfer(b, i, t, &y);
            assert_int_equal(x.from, y.from);
            assert_int_equal(x.to, y.to);
            assert_int_equal(x.count, y.count);
            if (x.count)
                assert_memory_equal(x.blocks, y.blocks, x.count * sizeof *x.blocks);
        }
    }
}

static void roundtrip(const totex_network *net, const totex_comb_schedule *s, const totex_comb_cost *cost)
{
    totex_error err;
    totex_comb_imported im;
    char *text = totex_comb_export_json(net, s, cost, "test", &err);
    assert_non_null(text);
    assert_int_equal(totex_comb_import_json(text, strlen(text), &im, &err), TOTEX_OK);
    assert_string_equal(im.algorithm, "test");
    assert_int_equal(totex_network_nodes(im.net), totex_network_nodes(net));
    assert_string_equal(totex_network_spec(im.net), totex_network_spec(net));
    assert_true(im.cost.t_s == cost->t_s && im.cost.t_c == cost->t_c && im.cost.t_l == cost->t_l);
    assert_true(im.cost.rho == cost->rho && im.cost.m == cost->m);
    assert_int_equal(im.cost.switching, cost->switching);
    assert_int_equal(im.cost.ports, cost->ports);
    assert_same(s, im.schedule);
    totex_comb_imported_free(&im);
    free(text);
}

static void test_roundtrip_registry(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:4x4");
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.t_s = 1.0 / 3.0; /* not exactly representable in short decimal */
    for (size_t i = 0; i < totex_comb_algorithm_count(); i++) {
        const totex_comb_algorithm *a = totex_comb_algorithm_get(i);
        totex_comb_schedule *s = NULL;
        totex_error err;
        if (a->build(net, &cost, &s, &err) != TOTEX_OK)
            continue;
        roundtrip(net, s, &cost);
        totex_comb_schedule_free(s);
    }
    totex_network_free(net);
}

static void test_roundtrip_handmade(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:3*k2");
    totex_comb_schedule *s = totex_comb_schedule_new();
    totex_comb_cost cost;
    totex_block b[3] = {{0, 1}, {0, 5}, {2, 3}};
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_STORE_FORWARD;
    cost.ports = TOTEX_COMB_ALL_PORT;
    assert_int_equal(totex_comb_begin_step(s, NULL), TOTEX_OK); /* empty step */
    assert_int_equal(totex_comb_begin_step(s, NULL), TOTEX_OK);
    assert_int_equal(totex_comb_rearrange(s, 7, NULL), TOTEX_OK);
    assert_int_equal(totex_comb_add_transfer(s, 0, 1, b, 3, NULL), TOTEX_OK);
    assert_int_equal(totex_comb_add_transfer(s, 2, 4, NULL, 0, NULL), TOTEX_OK); /* empty transfer */
    roundtrip(net, s, &cost);
    totex_comb_schedule_free(s);
    totex_network_free(net);
    /* an empty schedule */
    net = ts_net("ring:3");
    s = totex_comb_schedule_new();
    roundtrip(net, s, &cost);
    totex_comb_schedule_free(s);
    totex_network_free(net);
}

#define HEAD                                                                                                           \
    "{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":4,"                       \
    "\"algorithm\":\"x\",\"model\":{\"t_s\":1e-5,\"t_c\":1e-9,\"t_l\":0,\"rho\":0,\"m\":8,"                            \
    "\"switching\":\"wormhole\",\"ports\":\"one\"},"
#define MODEL_NO_M "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"switching\":\"wormhole\",\"ports\":\"one\"}"

static void reject(const char *text, totex_status want, const char *needle)
{
    totex_error err;
    totex_comb_imported im;
    totex_status st = totex_comb_import_json(text, strlen(text), &im, &err);
    if (st != want || !strstr(err.msg, needle))
        fail_msg("import of %s: status %d (want %d), message '%s' (want '%s')", text, st, want, err.msg, needle);
    assert_null(im.net);
    assert_null(im.schedule);
}

static void test_reject(void **state)
{
    (void)state;
    /* a valid file first, to show the cases below differ only in their flaw */
    {
        const char *ok = HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":[[0,1]]}]}]}";
        totex_comb_imported im;
        totex_error err;
        assert_int_equal(totex_comb_import_json(ok, strlen(ok), &im, &err), TOTEX_OK);
        totex_comb_imported_free(&im);
    }
    reject("", TOTEX_EIO, "empty");
    reject(HEAD "\"steps\":[{\"rearranged\":0,", TOTEX_EIO, "truncated");
    reject("{\"format\" \"x\"}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[]} trailing", TOTEX_EIO, "after the top-level value");
    reject("[1,2]", TOTEX_EINVAL, "top level must be an object");
    reject("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", TOTEX_EIO, "malformed JSON");
    reject("{\"version\":1}", TOTEX_EINVAL, "missing key \"format\"");
    reject("{\"format\":\"other\",\"version\":1}", TOTEX_EINVAL, "format must be");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":2}", TOTEX_EINVAL, "version 2");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":\"1\"}", TOTEX_EINVAL, "version must be a whole number");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":4," MODEL_NO_M
           ",\"steps\":[]}",
           TOTEX_EINVAL, "missing key \"m\" in model");
    reject(HEAD "\"steps\":{}}", TOTEX_EINVAL, "steps must be an array, not an object");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":5,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "does not match");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":4,"
           "\"model\":{\"t_s\":-1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "model.t_s");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":4,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"magic\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "model.switching");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:1\",\"nodes\":4,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "network:");
    reject(HEAD "\"steps\":[5]}", TOTEX_EINVAL, "steps[0] must be an object");
    reject(HEAD "\"steps\":[{\"transfers\":[]}]}", TOTEX_EINVAL, "missing key \"rearranged\" in steps[0]");
    reject(HEAD "\"steps\":[{\"rearranged\":-1,\"transfers\":[]}]}", TOTEX_EINVAL, "steps[0].rearranged");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":4,\"blocks\":[]}]}]}", TOTEX_EINVAL,
           "steps[0].transfers[0].to (node id) = 4 is out of range 0..3");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":-1,\"to\":1,\"blocks\":[]}]}]}", TOTEX_EINVAL,
           "steps[0].transfers[0].from");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":1.5,\"to\":1,\"blocks\":[]}]}]}", TOTEX_EINVAL,
           "from must be a whole number");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":[[0,99999999999999999999]]}]}]}",
           TOTEX_EINVAL, "blocks[0][1] (dst node id)");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":[[0,1,2]]}]}]}",
           TOTEX_EINVAL, "must be a pair");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1}]}]}", TOTEX_EINVAL,
           "missing key \"blocks\" in steps[0].transfers[0]");
    /* more blocks in one transfer than n(n-1) = 12 */
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":"
                "[[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1],[0,1]]}]}]}",
           TOTEX_EINVAL, "at most n(n-1) = 12");
}

static void test_file_errors(void **state)
{
    (void)state;
    totex_error err;
    totex_comb_imported im;
    assert_int_equal(totex_comb_import_file("/nonexistent/x.json", &im, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "cannot open"));
    assert_int_equal(totex_comb_import_file("/tmp", &im, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "not a regular file"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_registry),
        cmocka_unit_test(test_roundtrip_handmade),
        cmocka_unit_test(test_reject),
        cmocka_unit_test(test_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
