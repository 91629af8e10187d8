/*
 * The combining simulator (include/totex/combining.h): rejects each kind of
 * violation on hand-made schedules, naming step, transfer, node and block,
 * and measures start-ups, blocks transmitted, rearrangement and predicted
 * time on hand-computed schedules.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "totex/combining.h"

typedef struct xfer {
    uint32_t from, to;
    size_t count;
    totex_block blocks[4];
} xfer;

/* Build a schedule of nsteps steps; step i has nper[i] transfers steps[i][0..nper[i]). */
static totex_comb_schedule *build(const xfer *const *steps, const size_t *nper, size_t nsteps)
{
    totex_comb_schedule *s = totex_comb_schedule_new();
    assert_non_null(s);
    for (size_t i = 0; i < nsteps; i++) {
        assert_int_equal(totex_comb_begin_step(s, NULL), TOTEX_OK);
        for (size_t t = 0; t < nper[i]; t++)
            assert_int_equal(
                totex_comb_add_transfer(s, steps[i][t].from, steps[i][t].to, steps[i][t].blocks, steps[i][t].count, NULL),
                TOTEX_OK);
    }
    return s;
}

static totex_comb_cost cost_of(totex_switching sw, totex_comb_ports ports)
{
    totex_comb_cost c;
    totex_comb_cost_default(&c);
    c.switching = sw;
    c.ports = ports;
    return c;
}

static void expect(const char *spec, const totex_comb_schedule *s, totex_switching sw, totex_comb_ports ports,
                   totex_comb_violation kind, uint64_t step, uint32_t node, const char *word)
{
    totex_network *net = ts_net(spec);
    totex_comb_cost c = cost_of(sw, ports);
    totex_comb_report rep;
    totex_comb_fault f;
    totex_error err = {{0}};
    totex_status st = totex_comb_simulate(net, s, &c, &rep, &f, &err);
    assert_int_equal(st, TOTEX_EVIOLATION);
    if (f.kind != kind)
        fail_msg("expected %s, got %s: %s", totex_comb_violation_name(kind), totex_comb_violation_name(f.kind),
                 err.msg);
    assert_int_equal(f.step, step);
    assert_int_equal(f.node, node);
    assert_non_null(strstr(err.msg, "step"));
    assert_non_null(strstr(err.msg, "node"));
    assert_non_null(strstr(err.msg, "block"));
    assert_non_null(strstr(err.msg, word));
    totex_network_free(net);
}

static void test_contention(void **state)
{
    (void)state;
    /* path:4, wormhole: 0 -> 2 and 1 -> 3 both cross the directed link 1 -> 2 */
    xfer s1[] = {{0, 2, 1, {{0, 2}}}, {1, 3, 1, {{1, 3}}}};
    const xfer *steps[] = {s1};
    size_t nper[] = {2};
    totex_comb_schedule *s = build(steps, nper, 1);
    expect("path:4", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_LINK_BUSY, 1, 1, "1 -> 2");
    expect("path:4", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ALL_PORT, TOTEX_CVIOL_LINK_BUSY, 1, 1, "contention");
    totex_comb_schedule_free(s);
    /* opposite directions of one link are two links: 0 -> 2 and 2 -> 0 are fine (then lost blocks) */
    {
        xfer t1[] = {{0, 2, 1, {{0, 2}}}, {2, 0, 1, {{2, 0}}}};
        const xfer *st2[] = {t1};
        totex_comb_schedule *u = build(st2, nper, 1);
        expect("path:4", u, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_LOST, 1, 0, "lost");
        totex_comb_schedule_free(u);
    }
}

static void test_not_link(void **state)
{
    (void)state;
    /* store-and-forward: a transfer crosses one link; 0 and 2 are not adjacent in path:3 */
    xfer s1[] = {{0, 2, 1, {{0, 2}}}};
    const xfer *steps[] = {s1};
    size_t nper[] = {1};
    totex_comb_schedule *s = build(steps, nper, 1);
    expect("path:3", s, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_NOT_LINK, 1, 0, "not adjacent");
    /* wormhole routes it over 0 - 1 - 2: then only blocks are missing */
    expect("path:3", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_LOST, 1, 0, "lost");
    totex_comb_schedule_free(s);
}

static void test_one_port(void **state)
{
    (void)state;
    /* mesh:2x2 (ids 0..3, bit 0 = dimension 0): node 0 injects two transfers */
    xfer s1[] = {{0, 1, 1, {{0, 1}}}, {0, 2, 1, {{0, 2}}}};
    xfer r1[] = {{1, 0, 1, {{1, 0}}}, {2, 0, 1, {{2, 0}}}};
    const xfer *steps[] = {s1};
    const xfer *rsteps[] = {r1};
    size_t nper[] = {2};
    totex_comb_schedule *s = build(steps, nper, 1), *r = build(rsteps, nper, 1);
    expect("mesh:2x2", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_PORT_SEND, 1, 0, "one-port");
    expect("mesh:2x2", r, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_PORT_RECV, 1, 0, "one-port");
    /* all-port accepts both steps; the schedule then fails only for lost blocks */
    expect("mesh:2x2", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ALL_PORT, TOTEX_CVIOL_LOST, 1, 0, "lost");
    totex_comb_schedule_free(s);
    totex_comb_schedule_free(r);
}

static void test_not_held(void **state)
{
    (void)state;
    xfer s1[] = {{1, 2, 1, {{0, 2}}}};
    const xfer *steps[] = {s1};
    size_t nper[] = {1};
    totex_comb_schedule *s = build(steps, nper, 1);
    expect("path:3", s, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_NOT_HELD, 1, 1, "0->2");
    totex_comb_schedule_free(s);
    /* a block received in step 1 can be forwarded in step 2, not in step 1 */
    {
        xfer a1[] = {{0, 1, 1, {{0, 2}}}, {1, 2, 1, {{0, 2}}}};
        const xfer *st2[] = {a1};
        size_t np2[] = {2};
        totex_comb_schedule *u = build(st2, np2, 1);
        expect("path:3", u, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ALL_PORT, TOTEX_CVIOL_NOT_HELD, 1, 1,
               "at node 0");
        totex_comb_schedule_free(u);
    }
}

static void test_duplicate(void **state)
{
    (void)state;
    /* twice in one transfer */
    xfer s1[] = {{0, 1, 2, {{0, 1}, {0, 1}}}};
    const xfer *steps[] = {s1};
    size_t nper[] = {1};
    totex_comb_schedule *s = build(steps, nper, 1);
    expect("path:3", s, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_DUPLICATE, 1, 0, "0->1");
    totex_comb_schedule_free(s);
    /* in two transfers of one step (all-port: node 1 sends to both neighbours) */
    {
        xfer a1[] = {{1, 0, 1, {{1, 0}}}, {1, 2, 1, {{1, 0}}}};
        const xfer *st2[] = {a1};
        size_t np2[] = {2};
        totex_comb_schedule *u = build(st2, np2, 1);
        expect("path:3", u, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ALL_PORT, TOTEX_CVIOL_DUPLICATE, 1, 1, "1->0");
        totex_comb_schedule_free(u);
    }
}

static void test_delivered_twice(void **state)
{
    (void)state;
    /* block 0->1 reaches 1 in step 1 and is sent on in step 2 */
    xfer s1[] = {{0, 1, 1, {{0, 1}}}};
    xfer s2[] = {{1, 2, 1, {{0, 1}}}};
    const xfer *steps[] = {s1, s2};
    size_t nper[] = {1, 1};
    totex_comb_schedule *s = build(steps, nper, 2);
    expect("path:3", s, TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_DELIVERED_TWICE, 2, 1,
           "already reached");
    totex_comb_schedule_free(s);
}

static void test_lost_and_bad(void **state)
{
    (void)state;
    totex_comb_schedule *s = totex_comb_schedule_new();
    /* empty schedule: every block is lost; the first is 0->1 at node 0 */
    expect("path:2", s, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_LOST, 0, 0, "0->1");
    totex_comb_schedule_free(s);
    {
        xfer a1[] = {{0, 1, 1, {{0, 0}}}};
        xfer b1[] = {{0, 0, 1, {{0, 1}}}};
        xfer c1[] = {{0, 7, 1, {{0, 1}}}};
        const xfer *sa[] = {a1}, *sb[] = {b1}, *sc[] = {c1};
        size_t np[] = {1};
        totex_comb_schedule *a = build(sa, np, 1), *b = build(sb, np, 1), *c = build(sc, np, 1);
        expect("path:2", a, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_BAD_BLOCK, 1, 0, "itself");
        expect("path:2", b, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_BAD_NODE, 1, 0, "distinct");
        expect("path:2", c, TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ONE_PORT, TOTEX_CVIOL_BAD_NODE, 1, 0, "distinct");
        totex_comb_schedule_free(a);
        totex_comb_schedule_free(b);
        totex_comb_schedule_free(c);
    }
}

/* path:3 by hand, store-and-forward, one-port, combining two blocks per transfer:
   step 1: 0->1 {0->1, 0->2}          (node 2 idle; 1 receives from 0 only)
   step 2: 1->2 {0->2, 1->2}, 2->1 {2->1, 2->0}
   step 3: 1->0 {1->0, 2->0}
   start-ups 3, blocks 2 + 2 + 2 = 6, 2 rearranged before step 2 */
static void test_hand_metrics(void **state)
{
    (void)state;
    xfer s1[] = {{0, 1, 2, {{0, 1}, {0, 2}}}};
    xfer s2[] = {{1, 2, 2, {{0, 2}, {1, 2}}}, {2, 1, 2, {{2, 1}, {2, 0}}}};
    xfer s3[] = {{1, 0, 2, {{1, 0}, {2, 0}}}};
    const xfer *steps[] = {s1, s2, s3};
    size_t nper[] = {1, 2, 1};
    totex_comb_schedule *s = build(steps, nper, 3);
    totex_network *net = ts_net("path:3");
    totex_comb_cost c = cost_of(TOTEX_SWITCH_STORE_FORWARD, TOTEX_COMB_ONE_PORT);
    totex_comb_report rep;
    totex_error err = {{0}};
    /* copy s, declaring a rearrangement of 2 blocks per node before step 2 */
    totex_comb_schedule *t = totex_comb_schedule_new();
    for (uint64_t i = 0; i < totex_comb_steps(s); i++) {
        assert_int_equal(totex_comb_begin_step(t, NULL), TOTEX_OK);
        if (i == 1)
            assert_int_equal(totex_comb_rearrange(t, 2, NULL), TOTEX_OK);
        for (size_t j = 0; j < totex_comb_step_transfers(s, i); j++) {
            totex_transfer x;
            totex_comb_get_transfer(s, i, j, &x);
            assert_int_equal(totex_comb_add_transfer(t, x.from, x.to, x.blocks, x.count, NULL), TOTEX_OK);
        }
    }
    assert_int_equal(totex_comb_simulate(net, t, &c, &rep, NULL, &err), TOTEX_OK);
    assert_int_equal(rep.steps, 3);
    assert_int_equal(rep.startups, 3);
    assert_int_equal(rep.blocks_transmitted, 6);
    assert_int_equal(rep.rearranged_blocks, 2);
    assert_int_equal(rep.blocks_delivered, 6);
    assert_int_equal(rep.transfers, 4);
    assert_int_equal(rep.block_hops, 8);
    assert_int_equal(rep.max_route_hops, 1);
    double want = 3 * c.t_s + 6 * c.m * c.t_c + 3 * c.t_l + 2 * c.m * c.rho;
    assert_true(fabs(rep.predicted_time - want) <= 1e-12 * want);
    /* wormhole: no t_l */
    c.switching = TOTEX_SWITCH_WORMHOLE;
    assert_int_equal(totex_comb_simulate(net, t, &c, &rep, NULL, &err), TOTEX_OK);
    want = 3 * c.t_s + 6 * c.m * c.t_c + 2 * c.m * c.rho;
    assert_true(fabs(rep.predicted_time - want) <= 1e-12 * want);
    /* rearrangement outside a step is refused */
    {
        totex_comb_schedule *e = totex_comb_schedule_new();
        assert_int_equal(totex_comb_rearrange(e, 1, &err), TOTEX_EINVAL);
        assert_int_equal(totex_comb_add_transfer(e, 0, 1, NULL, 0, &err), TOTEX_EINVAL);
        totex_comb_schedule_free(e);
    }
    totex_comb_schedule_free(s);
    totex_comb_schedule_free(t);
    totex_network_free(net);
}

/* wormhole routes: dimension 0 first, ring short way with ties +, and their hop counts */
static void test_wormhole_routes(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:4*path:3"); /* node = x + 4y */
    totex_comb_cost c = cost_of(TOTEX_SWITCH_WORMHOLE, TOTEX_COMB_ALL_PORT);
    totex_comb_report rep;
    totex_comb_fault f;
    totex_error err = {{0}};
    /* (0,0) -> (2,2): + way in the ring (tie), then up the path: 4 hops.
       (1,0) -> (3,0): + way as well (tie) uses (1,0)->(2,0), also used by the first: contention */
    totex_comb_schedule *s = totex_comb_schedule_new();
    totex_block b1 = {0, 10}, b2 = {1, 3};
    totex_comb_begin_step(s, NULL);
    totex_comb_add_transfer(s, 0, 10, &b1, 1, NULL);
    totex_comb_add_transfer(s, 1, 3, &b2, 1, NULL);
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_CVIOL_LINK_BUSY);
    assert_non_null(strstr(err.msg, "1 -> 2"));
    totex_comb_schedule_free(s);
    /* (3,0) -> (0,0) the short way is one hop over the wrap link; with (0,0) -> (2,2) no contention */
    s = totex_comb_schedule_new();
    b2.src = 3;
    b2.dst = 0;
    totex_comb_begin_step(s, NULL);
    totex_comb_add_transfer(s, 0, 10, &b1, 1, NULL);
    totex_comb_add_transfer(s, 3, 0, &b2, 1, NULL);
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_CVIOL_LOST); /* got past the step: contention-free */
    totex_comb_schedule_free(s);
    totex_network_free(net);
}

/* one port-model type: the combining model takes a totex_ports (the old names are the same values), is named by
   totex_ports_format_words() in 002's words, and has no k-port form (refused, not taken as all-port) */
static void test_port_model(void **state)
{
    (void)state;
    char buf[32];
    assert_int_equal(TOTEX_COMB_ONE_PORT, TOTEX_PORTS_SINGLE);
    assert_int_equal(TOTEX_COMB_ALL_PORT, TOTEX_PORTS_MULTI);
    assert_string_equal(totex_ports_format_words(TOTEX_PORTS_SINGLE, TOTEX_PORTS_WORDS_COMBINING, buf, sizeof buf),
                        "one-port");
    assert_string_equal(totex_ports_format_words(TOTEX_PORTS_MULTI, TOTEX_PORTS_WORDS_COMBINING, buf, sizeof buf),
                        "all-port");
    assert_string_equal(totex_ports_format_words(TOTEX_PORTS_MULTI, TOTEX_PORTS_WORDS_UNIT, buf, sizeof buf),
                        "multiport");
    assert_string_equal(totex_ports_format(TOTEX_PORTS_K(3), buf, sizeof buf), "3-port");
    totex_ports p = 7;
    assert_int_equal(totex_ports_parse("one", &p, NULL), TOTEX_OK);
    assert_int_equal(p, TOTEX_PORTS_SINGLE);
    assert_int_equal(totex_ports_parse("all", &p, NULL), TOTEX_OK);
    assert_int_equal(p, TOTEX_PORTS_MULTI);
    /* an empty step on path:2 under 2-port: refused before any step is checked */
    totex_network *net = ts_net("path:2");
    totex_comb_schedule *s = totex_comb_schedule_new();
    totex_comb_begin_step(s, NULL);
    totex_comb_cost c = cost_of(TOTEX_SWITCH_WORMHOLE, TOTEX_PORTS_K(2));
    totex_comb_report rep;
    totex_comb_fault f;
    totex_error err = {{0}};
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, "2-port"));
    c.ports = TOTEX_PORTS_MULTI; /* the same schedule under all-port gets to the end: its blocks are lost */
    assert_int_equal(totex_comb_simulate(net, s, &c, &rep, &f, &err), TOTEX_EVIOLATION);
    assert_int_equal(f.kind, TOTEX_CVIOL_LOST);
    totex_comb_schedule_free(s);
    totex_network_free(net);
}

/* totex_comb_rank_with(): the progress stream comes from the options (a meter that stays silent under its
   first second writes nothing), and each verified row's predicted time is its algorithm's schedule replayed
   here by the simulator directly */
static void test_rank_with_options(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:3x4");
    totex_comb_cost c;
    totex_comb_cost_default(&c);
    const size_t count = totex_comb_algorithm_count();
    totex_comb_choice *rows = calloc(count, sizeof *rows);
    assert_non_null(rows);
    FILE *fp = tmpfile();
    assert_non_null(fp);
    totex_comb_options o = {fp};
    assert_int_equal(totex_comb_rank_with(net, &c, &o, rows, count), count);
    size_t ok = 0;
    for (size_t i = 0; i < count; i++) {
        if (rows[i].status != TOTEX_OK)
            continue;
        totex_comb_schedule *s = NULL;
        totex_comb_report rep;
        totex_error err = {{0}};
        assert_int_equal(rows[i].algorithm->build(net, &c, &s, &err), TOTEX_OK);
        assert_int_equal(totex_comb_simulate(net, s, &c, &rep, NULL, &err), TOTEX_OK);
        assert_true(rep.predicted_time == rows[i].report.predicted_time);
        if (ok)
            assert_true(rows[ok - 1].report.predicted_time <= rows[i].report.predicted_time);
        assert_int_equal(i, ok++);
        totex_comb_schedule_free(s);
    }
    assert_true(ok >= 2);
    fclose(fp);
    /* NULL options: the defaults, the same ranking */
    totex_comb_choice *again = calloc(count, sizeof *again);
    assert_non_null(again);
    assert_int_equal(totex_comb_rank_with(net, &c, NULL, again, count), count);
    for (size_t i = 0; i < count; i++)
        assert_ptr_equal(again[i].algorithm, rows[i].algorithm);
    free(again);
    free(rows);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contention),      cmocka_unit_test(test_not_link),
        cmocka_unit_test(test_one_port),        cmocka_unit_test(test_not_held),
        cmocka_unit_test(test_duplicate),       cmocka_unit_test(test_delivered_twice),
        cmocka_unit_test(test_lost_and_bad),    cmocka_unit_test(test_hand_metrics),
        cmocka_unit_test(test_wormhole_routes), cmocka_unit_test(test_port_model),
        cmocka_unit_test(test_rank_with_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
