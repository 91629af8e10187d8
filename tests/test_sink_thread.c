/*
 * The simulator on its own thread (src/schedule/sink_thread.c): through the thread the simulator must see the same steps in the same
 * order, so every measure equals a replay on the caller's thread; a violation
 * must come back to the producer with the simulator's own message, and from
 * totex_sink_thread_finish(); steps larger than a buffer (2^15 hops) and more
 * steps than a buffer's table (4096) must pass. The reference is the
 * simulator run directly on the same recorded schedule, and for the message
 * the violation kind the simulator reports on its own.
 */
#include "support.h"

/* Replay @p s into a fresh simulator through a worker thread; the report in @p rep. */
static totex_status replay_threaded(const totex_network *net, totex_ports ports, const totex_schedule *s,
                                    totex_sim_report *rep, totex_error *err, totex_status *producer_status)
{
    totex_sim *sim = totex_sim_new(net, ports, 0, err);
    assert_non_null(sim);
    totex_sink_thread *t = totex_sink_thread_start(totex_sim_sink(sim), err);
    assert_non_null(t);
    *producer_status = totex_schedule_replay(s, totex_sink_thread_sink(t), err);
    totex_status st = totex_sink_thread_finish(t, err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, rep, err);
    totex_sim_free(sim);
    return st;
}

static void same_report(const totex_sim_report *a, const totex_sim_report *b)
{
    assert_int_equal(a->steps, b->steps);
    assert_int_equal(a->steps_emitted, b->steps_emitted);
    assert_int_equal(a->hops, b->hops);
    assert_int_equal(a->messages, b->messages);
    assert_true(a->average_delay == b->average_delay);
    assert_int_equal(a->peak_queue, b->peak_queue);
    assert_int_equal(a->peak_queue_node, b->peak_queue_node);
    assert_int_equal(a->max_hops_in_step, b->max_hops_in_step);
}

/* same measures as the direct replay: a3 on mesh:8x8 (multiport), greedy on torus:6x5 single-port */
static void threaded_equals_direct(void **state)
{
    (void)state;
    const struct {
        const char *spec, *algo;
        totex_ports ports;
    } cases[] = {{"mesh:8x8", "a3", TOTEX_PORTS_MULTI}, {"torus:6x5", "greedy", TOTEX_PORTS_SINGLE},
                 {"mesh:5x7", "pipeline", TOTEX_PORTS_MULTI}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        totex_network *net = ts_net(cases[c].spec);
        totex_schedule *s = ts_record(net, cases[c].ports, cases[c].algo);
        totex_sim_report direct, threaded;
        totex_error err = {{0}};
        totex_status pst;
        assert_int_equal(ts_simulate(net, cases[c].ports, s, &direct, &err), TOTEX_OK);
        assert_int_equal(replay_threaded(net, cases[c].ports, s, &threaded, &err, &pst), TOTEX_OK);
        assert_int_equal(pst, TOTEX_OK);
        same_report(&direct, &threaded);
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

/*
 * More steps than a buffer's step table: ring:3 with 10,000 idle steps before
 * its schedule; a step larger than a buffer (2^15 hops): a2 on complete:200*k2
 * multiport, whose complete factor moves 200*199 messages at once in each of
 * its 2 copies.
 */
static void idle_steps_and_a_large_step(void **state)
{
    (void)state;
    {
        totex_network *net = ts_net("ring:3");
        totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "dimension");
        totex_schedule *padded = totex_schedule_new();
        totex_error err = {{0}};
        for (int i = 0; i < 10000; i++)
            assert_int_equal(totex_schedule_add_step(padded, NULL, 0, &err), TOTEX_OK);
        for (uint64_t i = 0; i < totex_schedule_steps(s); i++) {
            size_t c;
            const totex_hop *h = totex_schedule_step(s, i, &c);
            assert_int_equal(totex_schedule_add_step(padded, h, c, &err), TOTEX_OK);
        }
        totex_sim_report direct, threaded;
        totex_status pst;
        assert_int_equal(ts_simulate(net, TOTEX_PORTS_MULTI, padded, &direct, &err), TOTEX_OK);
        assert_int_equal(replay_threaded(net, TOTEX_PORTS_MULTI, padded, &threaded, &err, &pst), TOTEX_OK);
        same_report(&direct, &threaded);
        assert_int_equal(threaded.steps_emitted, 10000 + totex_schedule_steps(s));
        totex_schedule_free(padded);
        totex_schedule_free(s);
        totex_network_free(net);
    }
    {
        totex_network *net = ts_net("complete:200*k2");
        totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "a2");
        size_t largest = 0;
        for (uint64_t i = 0; i < totex_schedule_steps(s); i++) {
            size_t c;
            totex_schedule_step(s, i, &c);
            if (c > largest)
                largest = c;
        }
        assert_true(largest > ((size_t)1 << 15)); /* the case this test is for */
        totex_sim_report direct, threaded;
        totex_error err = {{0}};
        totex_status pst;
        assert_int_equal(ts_simulate(net, TOTEX_PORTS_MULTI, s, &direct, &err), TOTEX_OK);
        assert_int_equal(replay_threaded(net, TOTEX_PORTS_MULTI, s, &threaded, &err, &pst), TOTEX_OK);
        same_report(&direct, &threaded);
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

/* a hop of a recorded schedule sent twice in its step: the same violation as the direct simulator's */
static void violation_comes_back(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:6x6");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "a3");
    totex_schedule *bad = totex_schedule_new();
    totex_error err = {{0}};
    const uint64_t at = totex_schedule_steps(s) / 2;
    for (uint64_t i = 0; i < totex_schedule_steps(s); i++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(s, i, &c);
        assert_int_equal(totex_schedule_add_step(bad, h, c, &err), TOTEX_OK);
        if (i == at) /* the step again: every message it moved is no longer where the copy says */
            assert_int_equal(totex_schedule_add_step(bad, h, c, &err), TOTEX_OK);
    }
    totex_sim_report rep;
    totex_error direct = {{0}}, threaded = {{0}};
    totex_status pst;
    assert_int_equal(ts_simulate(net, TOTEX_PORTS_MULTI, bad, &rep, &direct), TOTEX_EVIOLATION);
    assert_int_equal(replay_threaded(net, TOTEX_PORTS_MULTI, bad, &rep, &threaded, &pst), TOTEX_EVIOLATION);
    assert_true(direct.msg[0] != 0);
    assert_string_equal(direct.msg, threaded.msg); /* the same step, node, message and rule */
    totex_schedule_free(bad);
    totex_schedule_free(s);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threaded_equals_direct),
        cmocka_unit_test(idle_steps_and_a_large_step),
        cmocka_unit_test(violation_comes_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
