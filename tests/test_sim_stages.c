/*
 * The simulator split in two parts (links and ports; messages:
 * totex_sim_stage_sink), each fed every step on its own
 * thread (totex_sink_thread_start_fanout) or one after the other on this
 * thread, then joined (totex_sim_stages_join). The reference is the serial
 * simulator (totex_sim_step) on the same schedule: valid schedules must give
 * the same report, and broken ones (random mutations of valid schedules:
 * hops redirected, moved to other steps, copied, dropped, ids out of range,
 * several faults in one step) the same status, message and fault as the
 * serial replay's first violation.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"

typedef struct outcome {
    totex_status st;
    totex_error err;
    totex_sim_fault fault;
    totex_sim_report rep;
} outcome;

static void serial(const totex_network *net, totex_ports ports, const totex_schedule *s, outcome *o)
{
    memset(o, 0, sizeof *o);
    totex_sim *sim = totex_sim_new(net, ports, 0, &o->err);
    assert_non_null(sim);
    o->st = totex_schedule_replay(s, totex_sim_sink(sim), &o->err);
    if (o->st == TOTEX_OK)
        o->st = totex_sim_finish(sim, &o->rep, &o->err);
    o->fault = totex_sim_get_fault(sim);
    totex_sim_free(sim);
}

/* threaded: both parts on worker threads; else the links part takes the whole schedule, then the messages part */
static void split(const totex_network *net, totex_ports ports, const totex_schedule *s, int threaded, outcome *o)
{
    memset(o, 0, sizeof *o);
    totex_sim *sim = totex_sim_new(net, ports, 0, &o->err);
    assert_non_null(sim);
    const totex_sink parts[2] = {totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_LINKS),
                                 totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_MESSAGES)};
    if (threaded) {
        totex_error perr = {{0}};
        totex_sink_thread *t = totex_sink_thread_start_fanout(parts, 2, &o->err);
        assert_non_null(t);
        totex_status pst = totex_schedule_replay(s, totex_sink_thread_sink(t), &perr);
        totex_sink_thread_finish(t, NULL);
        (void)pst;
    } else {
        totex_error e = {{0}};
        totex_schedule_replay(s, parts[0], &e);
        totex_schedule_replay(s, parts[1], &e);
    }
    o->st = totex_sim_stages_join(sim, &o->err);
    if (o->st == TOTEX_OK)
        o->st = totex_sim_finish(sim, &o->rep, &o->err);
    o->fault = totex_sim_get_fault(sim);
    totex_sim_free(sim);
}

static void same(const outcome *a, const outcome *b)
{
    assert_int_equal(a->st, b->st);
    assert_string_equal(a->err.msg, b->err.msg);
    assert_int_equal(a->fault.kind, b->fault.kind);
    assert_int_equal(a->fault.step, b->fault.step);
    assert_int_equal(a->fault.node, b->fault.node);
    assert_int_equal(a->fault.src, b->fault.src);
    assert_int_equal(a->fault.dst, b->fault.dst);
    if (a->st == TOTEX_OK) {
        assert_int_equal(a->rep.steps, b->rep.steps);
        assert_int_equal(a->rep.steps_emitted, b->rep.steps_emitted);
        assert_int_equal(a->rep.hops, b->rep.hops);
        assert_int_equal(a->rep.messages, b->rep.messages);
        assert_true(a->rep.average_delay == b->rep.average_delay);
        assert_int_equal(a->rep.peak_queue, b->rep.peak_queue);
        assert_int_equal(a->rep.peak_queue_node, b->rep.peak_queue_node);
        assert_int_equal(a->rep.max_hops_in_step, b->rep.max_hops_in_step);
    }
}

static const struct {
    const char *spec, *algo;
    totex_ports ports;
} cases[] = {
    {"mesh:4x5", "greedy", TOTEX_PORTS_MULTI},   {"mesh:4x5", "greedy", TOTEX_PORTS_SINGLE},
    {"mesh:4x5", "greedy", 2},                   {"torus:4x4", "greedy", TOTEX_PORTS_SINGLE},
    {"hypercube:4", "greedy", TOTEX_PORTS_MULTI}, {"mesh:6x6", "a3", TOTEX_PORTS_MULTI},
    {"complete:20", "greedy", TOTEX_PORTS_MULTI}, /* 19 link slots: links found by coordinates */
    {"ring:5*path:3", "greedy", 3},
};

/* valid schedules: the same report, on worker threads and one part after the other */
static void split_equals_serial(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        totex_network *net = ts_net(cases[c].spec);
        totex_schedule *s = ts_record(net, cases[c].ports, cases[c].algo);
        outcome a, b, d;
        serial(net, cases[c].ports, s, &a);
        assert_int_equal(a.st, TOTEX_OK);
        split(net, cases[c].ports, s, 1, &b);
        split(net, cases[c].ports, s, 0, &d);
        same(&a, &b);
        same(&a, &d);
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rnd(uint32_t below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state % below);
}

/* A copy of s with one random fault (some kinds make several in one step). */
static totex_schedule *mutate(const totex_network *net, const totex_schedule *s, int *kind_out)
{
    const uint32_t n = totex_network_nodes(net);
    const uint64_t steps = totex_schedule_steps(s);
    uint64_t at;
    size_t cnt;
    do {
        at = rnd((uint32_t)steps);
        totex_schedule_step(s, at, &cnt);
    } while (cnt == 0);
    const int kind = (int)rnd(9);
    const uint32_t x = rnd((uint32_t)cnt), y = rnd((uint32_t)cnt);
    totex_schedule *out = totex_schedule_new();
    totex_error err = {{0}};
    assert_non_null(out);
    *kind_out = kind;
    for (uint64_t i = 0; i < steps; i++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(s, i, &c);
        totex_hop *buf = calloc(c + 3, sizeof *buf);
        size_t m = c;
        assert_non_null(buf);
        if (c)
            memcpy(buf, h, c * sizeof *h);
        if (i == at) {
            switch (kind) {
            case 0: buf[x].to = rnd(n); break;                     /* a random receiver */
            case 1: buf[x].from = rnd(n); break;                   /* a random sender */
            case 2: buf[m++] = buf[x]; break;                      /* the hop twice */
            case 3: buf[x] = buf[--m]; break;                      /* dropped */
            case 4: buf[x].dst = buf[x].src; break;                /* no such message */
            case 5: buf[x].src = n + rnd(3); break;                /* id out of range */
            case 6: buf[m++] = buf[y]; buf[x].to = rnd(n); break;  /* two faults in one step */
            case 7: { totex_hop t = buf[x]; buf[x].src = buf[y].src; buf[x].dst = buf[y].dst; buf[y] = t; } break;
            default: break;
            }
        }
        if (kind == 8 && i + 1 == at) { /* a hop of the next step one step early */
            size_t c2;
            const totex_hop *h2 = totex_schedule_step(s, at, &c2);
            buf[m++] = h2[x];
        }
        assert_int_equal(totex_schedule_add_step(out, buf, m, &err), TOTEX_OK);
        free(buf);
    }
    return out;
}

/* broken schedules: the serial replay's first violation, with its message, from both split replays */
static void mutations_same_violation(void **state)
{
    (void)state;
    int seen[9] = {0}, broken = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        totex_network *net = ts_net(cases[c].spec);
        totex_schedule *s = ts_record(net, cases[c].ports, cases[c].algo);
        for (int trial = 0; trial < 60; trial++) {
            int kind;
            totex_schedule *bad = mutate(net, s, &kind);
            outcome a, b, d;
            serial(net, cases[c].ports, bad, &a);
            split(net, cases[c].ports, bad, 1, &b);
            split(net, cases[c].ports, bad, 0, &d);
            same(&a, &b);
            same(&a, &d);
            if (a.st != TOTEX_OK) {
                broken++;
                seen[kind]++;
            }
            totex_schedule_free(bad);
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
    for (int k = 0; k < 9; k++)
        assert_true(seen[k] > 0); /* every kind of fault was rejected at least once */
    assert_true(broken > 300);
}

/* path:3 (0 - 1 - 2), multiport, every message hop by hop in steps far apart:
   step 0 and 255 (and 510) use the link 0 -> 1, which the simulator's
   one-byte link stamps (reset every 255 steps) must not take for a conflict;
   when @p clash, step 510 sends two messages on 1 -> 0 (LINK_BUSY there);
   when @p cut_through, message 0 -> 2 moves twice in step 255. Valid
   otherwise: the 6 messages delivered, the last in step 510. */
static totex_schedule *spaced(int clash, int cut_through)
{
    totex_schedule *s = totex_schedule_new();
    totex_error err = {{0}};
    assert_non_null(s);
    for (uint64_t t = 0; t < 766; t++) {
        totex_hop h[3];
        size_t c = 0;
        if (t == 0)
            h[c++] = (totex_hop){0, 1, 0, 1};
        if (t == 254)
            h[c++] = (totex_hop){1, 2, 1, 2};
        if (t == 255)
            h[c++] = (totex_hop){0, 1, 0, 2};
        if (t == 255 && cut_through) /* the same message on, in the same step */
            h[c++] = (totex_hop){1, 2, 0, 2};
        if (t == 256)
            h[c++] = (totex_hop){1, 2, 0, 2};
        if (t == 509) {
            h[c++] = (totex_hop){2, 1, 2, 0};
            if (!clash)
                h[c++] = (totex_hop){1, 0, 1, 0};
        }
        if (t == 510) {
            h[c++] = (totex_hop){1, 0, 2, 0};
            if (clash)
                h[c++] = (totex_hop){1, 0, 1, 0};
            else
                h[c++] = (totex_hop){2, 1, 2, 1};
        }
        assert_int_equal(totex_schedule_add_step(s, h, c, &err), TOTEX_OK);
    }
    return s;
}

static void long_schedules(void **state)
{
    (void)state;
    totex_network *net = ts_net("path:3");
    for (int v = 0; v < 3; v++) {
        totex_schedule *s = spaced(v == 1, v == 2);
        outcome a, b, d;
        serial(net, TOTEX_PORTS_MULTI, s, &a);
        split(net, TOTEX_PORTS_MULTI, s, 1, &b);
        split(net, TOTEX_PORTS_MULTI, s, 0, &d);
        same(&a, &b);
        same(&a, &d);
        if (v == 0) { /* every message delivered: 6 messages, the last at step 511 */
            assert_int_equal(a.st, TOTEX_OK);
            assert_int_equal(a.rep.messages, 6);
            assert_int_equal(a.rep.steps, 511);
        } else if (v == 1) {
            assert_int_equal(a.fault.kind, TOTEX_VIOL_LINK_BUSY);
            assert_int_equal(a.fault.step, 510);
        } else { /* message 0 -> 2 is at 0 when step 255 starts: its second hop fails there */
            assert_int_equal(a.fault.kind, TOTEX_VIOL_NOT_PRESENT);
            assert_int_equal(a.fault.step, 255);
        }
        totex_schedule_free(s);
    }
    totex_network_free(net);
}

/* the fan-out thread: every consumer sees every step; a bad consumer count is refused */
static void fanout_counts(void **state)
{
    (void)state;
    totex_error err = {{0}};
    totex_sink none[5] = {{0}};
    assert_null(totex_sink_thread_start_fanout(none, 0, &err));
    assert_non_null(strstr(err.msg, "consumers"));
    assert_null(totex_sink_thread_start_fanout(none, 5, &err));
    totex_network *net = ts_net("mesh:5x7");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "pipeline");
    totex_schedule *copy[3] = {totex_schedule_new(), totex_schedule_new(), totex_schedule_new()};
    totex_sink sinks[3] = {totex_schedule_sink(copy[0]), totex_schedule_sink(copy[1]), totex_schedule_sink(copy[2])};
    totex_sink_thread *t = totex_sink_thread_start_fanout(sinks, 3, &err);
    assert_non_null(t);
    assert_int_equal(totex_schedule_replay(s, totex_sink_thread_sink(t), &err), TOTEX_OK);
    assert_int_equal(totex_sink_thread_finish(t, &err), TOTEX_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(totex_schedule_steps(copy[i]), totex_schedule_steps(s));
        for (uint64_t j = 0; j < totex_schedule_steps(s); j++) {
            size_t a, b;
            const totex_hop *ha = totex_schedule_step(s, j, &a), *hb = totex_schedule_step(copy[i], j, &b);
            assert_int_equal(a, b);
            assert_memory_equal(ha, hb, a * sizeof *ha);
        }
        totex_schedule_free(copy[i]);
    }
    totex_schedule_free(s);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_equals_serial),
        cmocka_unit_test(mutations_same_violation),
        cmocka_unit_test(fanout_counts),
        cmocka_unit_test(long_schedules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
