/*
 * Schedule files in and out (include/totex/schedule_io.h,
 * docs/unit-schedule-format.md): every algorithm's schedule, written as the
 * unit-step JSON (full and symmetric forms) and as MSCCL XML, reads back and
 * verifies with the same steps, hops and average delay as the simulator
 * measures on the algorithm's own stream (tests/support.c, independent of the
 * files); a hand-written MSCCL file from the executor's documented format is
 * accepted; mutated files are rejected with one line, TOTEX_EIO / TOTEX_EINVAL
 * for a bad file and TOTEX_EVIOLATION for a schedule that breaks the model.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

static const char *specs[] = {"path:5",    "ring:5",      "ring:6",     "mesh:3x3", "torus:4x4",
                              "hypercube:3", "complete:4", "ghc:3x3",  "k2*ring:3",
                              "file:" TOTEX_TEST_DATA "/greedy_petersen.edges"};
static const totex_ports ports_list[] = {TOTEX_PORTS_SINGLE, TOTEX_PORTS_MULTI, 2};

/* read a whole file (caller frees) */
static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = 0;
    fclose(fp);
    *len = (size_t)n;
    return s;
}

static totex_status verify_text(const char *text, totex_unit_verdict *v, totex_error *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(fp);
    totex_status st = totex_unit_verify_stream(fp, NULL, NULL, v, err);
    fclose(fp);
    return st;
}

/* the simulator on the algorithm's own stream: the independent reference */
static int reference(const totex_network *net, totex_ports ports, const totex_algorithm *a, totex_sim_report *rep)
{
    totex_error err;
    if (a->applies(net, ports, &err) != TOTEX_OK)
        return 0;
    totex_schedule *s = ts_record(net, ports, a->name);
    assert_int_equal(ts_simulate(net, ports, s, rep, &err), TOTEX_OK);
    totex_schedule_free(s);
    return 1;
}

static void same_report(const totex_sim_report *a, const totex_sim_report *b)
{
    assert_int_equal(a->steps, b->steps);
    assert_int_equal(a->hops, b->hops);
    assert_int_equal(a->messages, b->messages);
    assert_true(a->average_delay > b->average_delay - 1e-9 && a->average_delay < b->average_delay + 1e-9);
}

/* every algorithm, every kind of network, every port model: full form and (when there is one) symmetric form */
static void test_unit_roundtrip_every_algorithm(void **state)
{
    (void)state;
    char path[] = "/tmp/totex_test_unitXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int checked_full = 0, checked_sym = 0;
    for (size_t si = 0; si < sizeof specs / sizeof *specs; si++) {
        totex_network *net = ts_net(specs[si]);
        for (size_t pi = 0; pi < 3; pi++)
            for (size_t ai = 0; ai < totex_algorithm_count(); ai++) {
                const totex_algorithm *a = totex_algorithm_get(ai);
                totex_sim_report ref;
                totex_error err;
                totex_unit_verdict v;
                if (!reference(net, ports_list[pi], a, &ref))
                    continue;
                for (int form = 0; form < 2; form++) {
                    if (form == 0 && !a->plan_symmetric)
                        continue;
                    assert_int_equal(totex_plan_export(path, net, ports_list[pi], a,
                                                       form ? TOTEX_EXPORT_JSON_FULL : TOTEX_EXPORT_JSON, &err),
                                     TOTEX_OK);
                    FILE *fp = fopen(path, "r");
                    assert_non_null(fp);
                    /* a file naming a graph file is read on the network given by the caller */
                    totex_unit_limits lim = {0};
                    if (!strncmp(specs[si], "file:", 5))
                        lim.network = specs[si];
                    totex_status st = totex_unit_verify_stream(fp, &lim, NULL, &v, &err);
                    fclose(fp);
                    if (st != TOTEX_OK)
                        fail_msg("%s on %s, ports %u, %s form: %s", a->name, specs[si], ports_list[pi],
                                 form ? "full" : "symmetric", err.msg);
                    assert_int_equal(v.symmetric, form == 0);
                    assert_string_equal(v.algorithm, a->name);
                    assert_int_equal(v.ports, ports_list[pi]);
                    assert_string_equal(totex_network_spec(v.net), totex_network_spec(net));
                    same_report(&v.sim, &ref);
                    totex_unit_verdict_free(&v);
                    if (form)
                        checked_full++;
                    else
                        checked_sym++;
                }
            }
        totex_network_free(net);
    }
    unlink(path);
    assert_true(checked_full >= 60);
    assert_true(checked_sym >= 15);
}

/* MSCCL XML of every algorithm under multiport: read back through the executor's semantics, never more steps
   than the schedule (each send runs as soon as it can), never fewer than the best lower bound */
static void test_msccl_roundtrip_every_algorithm(void **state)
{
    (void)state;
    char path[] = "/tmp/totex_test_mscclXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int checked = 0;
    for (size_t si = 0; si < sizeof specs / sizeof *specs; si++) {
        totex_network *net = ts_net(specs[si]);
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t nb, best;
        assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &nb, &best, NULL), TOTEX_OK);
        for (size_t ai = 0; ai < totex_algorithm_count(); ai++) {
            const totex_algorithm *a = totex_algorithm_get(ai);
            totex_sim_report ref, rep;
            totex_error err;
            if (!reference(net, TOTEX_PORTS_MULTI, a, &ref))
                continue;
            assert_int_equal(totex_plan_export(path, net, TOTEX_PORTS_MULTI, a, TOTEX_EXPORT_MSCCL, &err), TOTEX_OK);
            size_t len;
            char *xml = slurp(path, &len);
            char name[64];
            totex_status st = totex_msccl_verify(xml, len, net, TOTEX_PORTS_MULTI, 0, &rep, name, sizeof name, &err);
            if (st != TOTEX_OK)
                fail_msg("%s on %s: %s", a->name, specs[si], err.msg);
            assert_int_equal(rep.messages, totex_network_messages(net));
            assert_int_equal(rep.hops, ref.hops);
            assert_true(rep.steps <= ref.steps);
            assert_true(rep.steps >= b[best].value);
            assert_non_null(strstr(name, a->name));
            free(xml);
            checked++;
        }
        totex_network_free(net);
    }
    unlink(path);
    assert_true(checked >= 25);
}

/* the target: torus:8x8 multiport as MSCCL runs in 64 steps, the cut bound (000 eq. 4: 32*32/16) */
static void test_msccl_torus8x8_optimal(void **state)
{
    (void)state;
    char path[] = "/tmp/totex_test_t88XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    totex_network *net = ts_net("torus:8x8");
    totex_error err;
    totex_sim_report rep;
    assert_int_equal(totex_plan_export(path, net, TOTEX_PORTS_MULTI, totex_algorithm_find("octr", NULL),
                                       TOTEX_EXPORT_MSCCL, &err), TOTEX_OK);
    size_t len;
    char *xml = slurp(path, &len);
    assert_int_equal(totex_msccl_verify(xml, len, net, TOTEX_PORTS_MULTI, 0, &rep, NULL, 0, &err), TOTEX_OK);
    assert_int_equal(rep.steps, 64); /* |V1||V2|/C = 32*32/16 */
    free(xml);
    unlink(path);
    totex_network_free(net);
}

static char *replace(const char *text, const char *from, const char *to, int all)
{
    size_t fl = strlen(from), tl = strlen(to);
    char *out = malloc(strlen(text) * 2 + tl * 64 + 1), *o = out;
    const char *p = text, *q;
    int done = 0;
    assert_non_null(out);
    while ((q = strstr(p, from)) && (all || !done)) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, tl);
        o += tl;
        p = q + fl;
        done = 1;
    }
    assert_true(done);
    strcpy(o, p);
    return out;
}

static void expect_msccl(const char *xml, const char *spec, totex_status want, const char *needle)
{
    totex_network *net = ts_net(spec);
    totex_error err = {{0}};
    totex_sim_report rep;
    totex_status st = totex_msccl_verify(xml, strlen(xml), net, TOTEX_PORTS_MULTI, 0, &rep, NULL, 0, &err);
    if (st != want)
        fail_msg("expected status %d, got %d: %s", want, st, err.msg);
    if (needle && !strstr(err.msg, needle))
        fail_msg("message lacks '%s': %s", needle, err.msg);
    if (st != TOTEX_OK)
        assert_null(strchr(err.msg, '\n'));
    totex_network_free(net);
}

static void test_msccl_hand_written_and_mutations(void **state)
{
    (void)state;
    size_t len;
    char *xml = slurp(TOTEX_TEST_DATA "/msccl_complete4_direct.xml", &len);
    char *m;
    expect_msccl(xml, "complete:4", TOTEX_OK, NULL);
    /* wrong peer: the same file on a ring, where 0 and 2 are not neighbours */
    expect_msccl(xml, "ring:4", TOTEX_EVIOLATION, "not neighbours");
    /* missing step: rank 0 never receives from rank 1 */
    m = replace(xml, "      <step s=\"1\" type=\"r\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"1\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n", "", 0);
    expect_msccl(m, "complete:4", TOTEX_EVIOLATION, "receives 0");
    free(m);
    /* duplicated chunk: rank 0 receives rank 2's block into output chunk 1 as well */
    m = replace(xml, "dstoff=\"2\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>\n    <tb id=\"2\"", "dstoff=\"1\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>\n    <tb id=\"2\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EVIOLATION, "written twice");
    free(m);
    /* dependency cycle: rank 0's first two thread blocks wait for each other */
    m = replace(xml, "srcoff=\"1\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"", "srcoff=\"1\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"1\" deps=\"0\"", 0);
    char *m2 = replace(m, "srcoff=\"2\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"", "srcoff=\"2\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"0\"", 0);
    expect_msccl(m2, "complete:4", TOTEX_EVIOLATION, "deadlock");
    free(m);
    free(m2);
    /* limits: a step index past MSCCL_MAX_NUM_STEPS, a count of MSCCL_MAX_COUNT, too many channels */
    m = replace(xml, "<step s=\"1\"", "<step s=\"64\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EINVAL, "MSCCL_MAX_NUM_STEPS");
    free(m);
    m = replace(xml, "cnt=\"1\"", "cnt=\"72\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EINVAL, "MSCCL_MAX_COUNT");
    free(m);
    m = replace(xml, "s_chunks=\"0\"", "s_chunks=\"3000000\"", 1); /* memory before allocation */
    expect_msccl(m, "complete:4", TOTEX_EINVAL, "scratch");
    free(m);
    m = replace(xml, "nchannels=\"1\"", "nchannels=\"33\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EINVAL, "MAXCHANNELS");
    free(m);
    /* huge count, truncated file, entity declarations, wrong ngpus, a non-all-to-all */
    m = replace(xml, "cnt=\"1\"", "cnt=\"99999999999999999999\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EIO, "cnt");
    free(m);
    m = strdup(xml);
    m[len / 2] = 0;
    expect_msccl(m, "complete:4", TOTEX_EIO, "line");
    free(m);
    expect_msccl("<?xml version=\"1.0\"?><!DOCTYPE algo [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>"
                 "<algo name=\"&b;\"/>", "complete:4", TOTEX_EIO, "DOCTYPE");
    expect_msccl(xml, "complete:5", TOTEX_EIO, "ngpus");
    m = replace(xml, "coll=\"alltoall\"", "coll=\"allreduce\"", 0);
    expect_msccl(m, "complete:4", TOTEX_EIO, "all-to-all");
    free(m);
    /* a send of a scratch chunk nothing wrote: a missing dependency */
    m = replace(xml, "<step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"1\"", "<step s=\"0\" type=\"s\" srcbuf=\"s\" srcoff=\"0\"", 0);
    char *m3 = replace(m, "<gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\">", "<gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"1\">", 0);
    expect_msccl(m3, "complete:4", TOTEX_EVIOLATION, "before any block");
    free(m);
    free(m3);
    free(xml);
    /* a first rank without thread blocks (fuzz_msccl found NULL + 0 here): every block stays undelivered */
    expect_msccl("<algo name=\"x\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"4\" coll=\"alltoall\" "
                 "inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\"><gpu id=\"0\" i_chunks=\"4\" o_chunks=\"4\" "
                 "s_chunks=\"1\"/></algo>", "complete:4", TOTEX_EIO, "gpu id=");
    /* receive-copy-send: rank 1 of path:3 relays 0->2 and 2->0 with rcs */
    xml = slurp(TOTEX_TEST_DATA "/msccl_path3_rcs.xml", &len);
    {
        totex_network *net = ts_net("path:3");
        totex_sim_report rep;
        totex_error err;
        assert_int_equal(totex_msccl_verify(xml, len, net, TOTEX_PORTS_MULTI, 0, &rep, NULL, 0, &err), TOTEX_OK);
        assert_int_equal(rep.messages, 6);
        assert_int_equal(rep.hops, 8); /* 4 blocks over one link, 2 over two */
        assert_true(rep.steps >= 2);   /* the cut bound of path:3: 1 * 2 / 1 */
        totex_network_free(net);
    }
    /* without rank 1's first rcs, 0->2 is sent to rank 1 but never taken */
    m = replace(xml, "type=\"rcs\" srcbuf=\"i\" srcoff=\"2\"", "type=\"nop\" srcbuf=\"i\" srcoff=\"2\"", 0);
    expect_msccl(m, "path:3", TOTEX_EVIOLATION, NULL);
    free(m);
    free(xml);
}

/* the writer refuses what the executor cannot hold, naming the limit */
static void test_msccl_writer_limits(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:16x16");
    totex_error err;
    char path[] = "/tmp/totex_test_limXXXXXX";
    int fd = mkstemp(path);
    close(fd);
    assert_int_equal(totex_plan_export(path, net, TOTEX_PORTS_MULTI, totex_algorithm_find("octr", NULL),
                                       TOTEX_EXPORT_MSCCL, &err), TOTEX_EINVAL);
    assert_true(strstr(err.msg, "MAX_NODES") || strstr(err.msg, "MSCCL_MAX_NUM_STEPS"));
    assert_non_null(strstr(err.msg, "over by"));
    totex_network_free(net);
    net = ts_net("ring:1100");
    assert_null(totex_msccl_writer_new(1100, TOTEX_PORTS_MULTI, "x", &err));
    assert_non_null(strstr(err.msg, "MAX_NODES"));
    totex_network_free(net);
    unlink(path);
}

/* the unit-step file's own mutations */
static char *full_text(const char *spec, totex_ports ports, const char *algo)
{
    char *buf = NULL;
    size_t len = 0;
    totex_error err;
    totex_network *net = ts_net(spec);
    FILE *fp = open_memstream(&buf, &len);
    totex_unit_writer *w = totex_unit_writer_open(fp, net, ports, algo, &err);
    assert_non_null(w);
    assert_int_equal(totex_algorithm_find(algo, NULL)->plan(net, ports, totex_unit_writer_sink(w), &err), TOTEX_OK);
    assert_int_equal(totex_unit_writer_close(w, &err), TOTEX_OK);
    fclose(fp);
    totex_network_free(net);
    char *copy = strdup(buf); /* (a copy: GCC's -Wdangling-pointer mistakes open_memstream's buffer for a local) */
    free(buf);
    return copy;
}

static void expect_unit(const char *text, totex_status want, const char *needle)
{
    totex_unit_verdict v;
    totex_error err = {{0}};
    totex_status st = verify_text(text, &v, &err);
    if (st != want)
        fail_msg("expected status %d, got %d: %s", want, st, err.msg);
    if (needle && !strstr(err.msg, needle))
        fail_msg("message lacks '%s': %s", needle, err.msg);
    if (st != TOTEX_OK)
        assert_null(strchr(err.msg, '\n'));
    totex_unit_verdict_free(&v);
}

static void test_unit_mutations(void **state)
{
    (void)state;
    char *t = full_text("ring:4", TOTEX_PORTS_MULTI, "greedy");
    char *m;
    expect_unit(t, TOTEX_OK, NULL);
    /* truncated */
    m = strdup(t);
    m[strlen(m) / 2] = 0;
    expect_unit(m, TOTEX_EIO, "truncated");
    free(m);
    /* wrong version, node id out of range, a huge number, a fraction */
    m = replace(t, "\"version\": 1", "\"version\": 2", 0);
    expect_unit(m, TOTEX_EIO, "version");
    free(m);
    m = replace(t, "{\"from\":0", "{\"from\":9", 0);
    expect_unit(m, TOTEX_EIO, "node id");
    free(m);
    m = replace(t, "{\"from\":0", "{\"from\":99999999999999999999999", 0);
    expect_unit(m, TOTEX_EIO, "2^63");
    free(m);
    m = replace(t, "{\"from\":0", "{\"from\":0.5", 0);
    expect_unit(m, TOTEX_EIO, "whole number");
    free(m);
    /* wrong peer: a hop between nodes 0 and 2 of ring:4 */
    m = replace(t, "{\"from\":0,\"to\":1,", "{\"from\":0,\"to\":2,", 0);
    expect_unit(m, TOTEX_EVIOLATION, NULL);
    free(m);
    /* a missing step: the last one */
    m = strdup(t);
    char *last = strrchr(m, '[');
    assert_non_null(last);
    strcpy(last, "[]\n]}\n");
    expect_unit(m, TOTEX_EVIOLATION, "lost");
    free(m);
    /* a duplicated hop: the first hop of the first step twice */
    {
        size_t h = (size_t)(strstr(t, "{\"from\"") - t);
        size_t e = (size_t)(strchr(t + h, '}') - t);
        size_t tl = strlen(t);
        char *pre = malloc(tl + (e - h) + 3);
        memcpy(pre, t, e + 1);
        pre[e + 1] = ',';
        memcpy(pre + e + 2, t + h, tl - h + 1);
        expect_unit(pre, TOTEX_EVIOLATION, NULL);
        free(pre);
    }
    /* "steps" before the header */
    expect_unit("{\"steps\": [], \"format\": \"totex-unit-schedule\"}", TOTEX_EIO, "before \"steps\"");
    expect_unit("[1, 2]", TOTEX_EIO, "'{'");
    expect_unit("", TOTEX_EIO, "truncated");
    free(t);
    /* symmetric form: a column that is not a link type, a columns list of another network, too many moves */
    {
        char path[] = "/tmp/totex_test_symXXXXXX";
        int fd = mkstemp(path);
        close(fd);
        totex_network *net = ts_net("torus:4x4");
        totex_error err;
        assert_int_equal(totex_plan_export(path, net, TOTEX_PORTS_MULTI, totex_algorithm_find("octr", NULL),
                                           TOTEX_EXPORT_JSON, &err), TOTEX_OK);
        size_t len;
        char *s = slurp(path, &len);
        expect_unit(s, TOTEX_OK, NULL);
        m = replace(s, "\"steps\": [\n[", "\"steps\": [\n[0,7,", 0);
        expect_unit(m, TOTEX_EIO, "column");
        free(m);
        m = replace(s, "[1, 3]]", "[1, 2]]", 0);
        expect_unit(m, TOTEX_EIO, "columns");
        free(m);
        m = replace(s, "\"steps\": [\n[", "\"steps\": [\n[0,0,0,0,0,0,0,0,0,0,", 0);
        expect_unit(m, TOTEX_EVIOLATION, "moves");
        free(m);
        /* only idle steps (fuzz_unit_schedule found NULL + 0 in the step container here) */
        {
            char *idle = strdup(s);
            strcpy(strstr(idle, "\"steps\": [") + strlen("\"steps\": ["), "[],[]]}");
            expect_unit(idle, TOTEX_EVIOLATION, NULL);
            free(idle);
        }
        /* a move of a delivered packet / a packet moved twice: the certifier (001 Theorem 2) */
        m = replace(s, "\"steps\": [\n[", "\"steps\": [\n[0,0,0,0],[", 0);
        expect_unit(m, TOTEX_EVIOLATION, NULL);
        free(m);
        free(s);
        unlink(path);
        totex_network_free(net);
    }
}

/* combining schedules (002) as MSCCL: every registered algorithm that builds, read back on the complete graph
   (MSCCL connects any two ranks), delivers all n(n-1) blocks; the hops are the blocks the transfers carry */
static void test_msccl_from_combining(void **state)
{
    (void)state;
    char path[] = "/tmp/totex_test_combXXXXXX";
    int fd = mkstemp(path);
    close(fd);
    totex_network *net = ts_net("mesh:4x4"), *kn = ts_net("complete:16");
    int checked = 0;
    for (int port = 0; port < 2; port++)
        for (size_t i = 0; i < totex_comb_algorithm_count(); i++) {
            const totex_comb_algorithm *a = totex_comb_algorithm_get(i);
            totex_comb_cost cost;
            totex_comb_schedule *s = NULL;
            totex_error err;
            totex_sim_report rep;
            totex_comb_cost_default(&cost);
            cost.ports = port ? TOTEX_COMB_ALL_PORT : TOTEX_COMB_ONE_PORT;
            if (a->build(net, &cost, &s, &err) != TOTEX_OK)
                continue;
            uint64_t blocks = 0;
            for (uint64_t k = 0; k < totex_comb_steps(s); k++)
                for (size_t t = 0; t < totex_comb_step_transfers(s, k); t++) {
                    totex_transfer x;
                    totex_comb_get_transfer(s, k, t, &x);
                    blocks += x.count;
                }
            assert_int_equal(totex_comb_export_msccl(path, net, s, a->name, &err), TOTEX_OK);
            size_t len;
            char *xml = slurp(path, &len);
            if (totex_msccl_verify(xml, len, kn, TOTEX_PORTS_MULTI, 0, &rep, NULL, 0, &err) != TOTEX_OK)
                fail_msg("%s: %s", a->name, err.msg);
            assert_int_equal(rep.messages, 240);
            assert_int_equal(rep.hops, blocks);
            free(xml);
            totex_comb_schedule_free(s);
            checked++;
        }
    assert_true(checked >= 5);
    totex_network_free(net);
    totex_network_free(kn);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_roundtrip_every_algorithm),
        cmocka_unit_test(test_msccl_roundtrip_every_algorithm),
        cmocka_unit_test(test_msccl_torus8x8_optimal),
        cmocka_unit_test(test_msccl_hand_written_and_mutations),
        cmocka_unit_test(test_msccl_writer_limits),
        cmocka_unit_test(test_unit_mutations),
        cmocka_unit_test(test_msccl_from_combining),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
