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

/* The streaming reader (src/combining/import.c): what a JSON tree
   reader got for free must still hold, and numbers are reported as written. */
static void test_reader_edges(void **state)
{
    (void)state;
    totex_comb_imported im;
    totex_error err;
    /* keys in any order (steps before the header), escaped keys and strings, unknown keys of any shape */
    const char *ok = "{\"steps\":[{\"transfers\":[{\"blocks\":[[0,1]],\"x\":{\"y\":[1,{}]},\"to\":1,\"from\":0}],"
                     "\"rearranged\":2}],\"form\\u0061t\":\"totex-combining-schedule\",\"version\":1,"
                     "\"network\":\"ring:\\u0034\",\"nodes\":4,\"algorithm\":\"caf\\u00e9 \\ud83d\\ude00\","
                     "\"model\":{\"t_s\":1e-5,\"t_c\":1E-9,\"t_l\":0,\"rho\":0.0,\"m\":8,"
                     "\"switching\":\"wormhole\",\"ports\":\"one\",\"extra\":null}}";
    assert_int_equal(totex_comb_import_json(ok, strlen(ok), &im, &err), TOTEX_OK);
    assert_string_equal(totex_network_spec(im.net), "ring:4");
    assert_string_equal(im.algorithm, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    assert_int_equal(totex_comb_steps(im.schedule), 1);
    assert_int_equal(totex_comb_step_rearranged(im.schedule, 0), 2);
    totex_transfer tr;
    assert_int_equal(totex_comb_get_transfer(im.schedule, 0, 0, &tr), TOTEX_OK);
    assert_int_equal(tr.from, 0);
    assert_int_equal(tr.to, 1);
    assert_int_equal(tr.count, 1);
    assert_true(im.cost.t_c == 1e-9 && im.cost.m == 8);
    totex_comb_imported_free(&im);
    /* a huge whole number is reported as written, not as 2^64 - 1 */
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":100000000000000000000,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "nodes = 100000000000000000000 does not match");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:4\",\"nodes\":1e20,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "nodes must be a whole number, not a fractional number");
    reject(HEAD "\"steps\":[{\"rearranged\":99999999999999999999999,\"transfers\":[]}]}", TOTEX_EINVAL,
           "steps[0].rearranged = 99999999999999999999999 is out of range");
    /* strict JSON: what a lenient reader might let through */
    reject(HEAD "\"steps\":[]} \"", TOTEX_EIO, "after the top-level value");
    reject(HEAD "\"steps\":[],}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[1,]}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[01]}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[NaN]}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[\"a\tb\"]}", TOTEX_EIO, "control character");
    reject(HEAD "\"steps\":[\"\\x\"]}", TOTEX_EIO, "escape");
    reject(HEAD "\"steps\":[1.]}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[-]}", TOTEX_EIO, "malformed JSON");
    reject(HEAD "\"steps\":[tru", TOTEX_EIO, "truncated");
    reject(HEAD "\"steps\":[\"\\u12", TOTEX_EIO, "truncated");
    reject("   ", TOTEX_EIO, "truncated");
    /* a key twice in a step or a transfer is refused, not silently merged */
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[],\"transfers\":[]}]}", TOTEX_EINVAL,
           "duplicate key \"transfers\" in steps[0]");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"to\":2,\"blocks\":[]}]}]}",
           TOTEX_EINVAL, "duplicate key \"to\" in steps[0].transfers[0]");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":[[0]]}]}]}",
           TOTEX_EINVAL, "must be a pair");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":[7]}]}]}",
           TOTEX_EINVAL, "must be a pair");
    reject(HEAD "\"steps\":[{\"rearranged\":0,\"transfers\":[{\"from\":\"0\",\"to\":1,\"blocks\":[]}]}]}",
           TOTEX_EINVAL, "steps[0].transfers[0].from must be a whole number, not a string");
    reject("{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"ring:\\u00004\",\"nodes\":4,"
           "\"model\":{\"t_s\":1,\"t_c\":1,\"t_l\":0,\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},"
           "\"steps\":[]}",
           TOTEX_EINVAL, "NUL");
    reject(HEAD "\"steps\":[{\"rearranged\":0}]}", TOTEX_EINVAL, "missing key \"transfers\" in steps[0]");
    reject(HEAD "\"nosteps\":[]}", TOTEX_EINVAL, "missing key \"steps\"");
}

/* A large file through the three passes of the reader (check and count, one
   allocation, fill): every step and block read back in place. Its memory
   against the file's size is measured by bench/files/bench_verify_memory.c. */
static void test_reader_counts_first(void **state)
{
    (void)state;
    /* 20,000 steps, each one transfer of the 12 blocks of ring:4 */
    const size_t steps = 20000;
    const char *step = "{\"rearranged\":0,\"transfers\":[{\"from\":0,\"to\":1,\"blocks\":"
                       "[[0,1],[0,2],[0,3],[1,0],[1,2],[1,3],[2,0],[2,1],[2,3],[3,0],[3,1],[3,2]]}]}";
    size_t head = strlen(HEAD "\"steps\":["), one = strlen(step), len = head + steps * (one + 1) + 2;
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, HEAD "\"steps\":[", head);
    char *p = text + head;
    for (size_t i = 0; i < steps; i++) {
        memcpy(p, step, one);
        p += one;
        *p++ = i + 1 < steps ? ',' : ']';
    }
    *p++ = '}';
    *p = '\0';
    assert_int_equal((size_t)(p - text), len - 1);
    totex_comb_imported im;
    totex_error err;
    assert_int_equal(totex_comb_import_json(text, (size_t)(p - text), &im, &err), TOTEX_OK);
    assert_int_equal(totex_comb_steps(im.schedule), steps);
    totex_transfer tr;
    assert_int_equal(totex_comb_get_transfer(im.schedule, steps - 1, 0, &tr), TOTEX_OK);
    assert_int_equal(tr.count, 12);
    assert_int_equal(tr.blocks[11].src, 3);
    assert_int_equal(tr.blocks[11].dst, 2);
    totex_comb_imported_free(&im);
    free(text);
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
        cmocka_unit_test(test_reader_edges),
        cmocka_unit_test(test_reader_counts_first),
        cmocka_unit_test(test_file_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
