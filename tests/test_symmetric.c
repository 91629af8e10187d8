/*
 * Symmetric switching schemes (001 Definition 4, Theorem 2; wraparound
 * meshes: Section 8.1, Theorem 8; k-port: Section 7):
 *  - schedules built HERE by trivial rules (single-port: one move per step,
 *    each row's hops in turn; multiport / k-port: each step, each column in
 *    order takes the first row that still needs it and has not moved in the
 *    step) are certified at node 0 by totex_sym_certify, expanded to every
 *    node by totex_sym_expand and replayed by the independent simulator
 *    (totex/sim.h), which must accept them with the same completion time,
 *    average delay, peak queue and link utilisation (Theorem 2: valid at one
 *    node iff valid at every node);
 *  - a non-shortest route is accepted (certification tracks positions, not
 *    task matrix entries);
 *  - mutations (row moved twice, column used twice, move of a delivered
 *    row, a dropped move, more than k moves, indices out of range) are
 *    rejected by the certifier with the step and row, and by the simulator;
 *  - the task matrices of Sequoia and Fugaku build, with sigma = status of
 *    node 0 (000 Theorem 1) and h = multiport cut bound (000 eq. (4)).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static totex_task *te(const totex_network *net)
{
    totex_error err = {{0}};
    totex_task *t = totex_task_total_exchange(net, &err);
    if (!t)
        fail_msg("task matrix of %s: %s", totex_network_spec(net), err.msg);
    return t;
}

static void add(totex_sym_schedule *s, const totex_sym_move *mv, size_t cnt)
{
    assert_int_equal(totex_sym_add_step(s, mv, cnt, NULL), TOTEX_OK);
}

/* Single-port: one move per step, row 0's hops, then row 1's, ... Fills the expected delay sum. */
static totex_sym_schedule *build_single(const totex_task *t, uint64_t *delay_sum)
{
    totex_sym_schedule *s = totex_sym_new();
    uint32_t cols[TOTEX_MAX_DIMS], cnts[TOTEX_MAX_DIMS];
    uint64_t time = 0, sum = 0;
    assert_non_null(s);
    for (uint32_t r = 0; r < totex_task_rows(t); r++) {
        uint32_t np = totex_task_row(t, r, cols, cnts, TOTEX_MAX_DIMS);
        for (uint32_t x = 0; x < np; x++)
            for (uint32_t c = 0; c < cnts[x]; c++) {
                totex_sym_move mv = {r, cols[x]};
                add(s, &mv, 1);
                time++;
            }
        sum += time;
    }
    if (delay_sum)
        *delay_sum = sum;
    return s;
}

/* Multiport (k = 0) or k-port greedy: each step, each column in order takes the first row still needing it. */
static totex_sym_schedule *build_greedy(const totex_task *t, uint32_t k)
{
    const uint32_t rows = totex_task_rows(t), cols = totex_task_cols(t);
    uint32_t *rem = malloc(sizeof *rem * (size_t)rows * cols);
    uint64_t *moved = calloc(rows, sizeof *moved);
    totex_sym_move *mv = malloc(sizeof *mv * cols);
    uint64_t left = 0, step = 0;
    totex_sym_schedule *s = totex_sym_new();
    assert_non_null(rem);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t j = 0; j < cols; j++)
            left += rem[(size_t)r * cols + j] = totex_task_entry(t, r, j);
    while (left) {
        size_t cnt = 0;
        step++;
        for (uint32_t j = 0; j < cols && (k == 0 || cnt < k); j++)
            for (uint32_t r = 0; r < rows; r++)
                if (rem[(size_t)r * cols + j] && moved[r] != step) {
                    moved[r] = step;
                    rem[(size_t)r * cols + j]--;
                    mv[cnt++] = (totex_sym_move){r, j};
                    break;
                }
        assert_true(cnt > 0);
        left -= cnt;
        add(s, mv, cnt);
    }
    free(rem);
    free(moved);
    free(mv);
    return s;
}

/* Expand into a fresh simulator; returns its status, fills its report / fault. */
static totex_status expand_simulate(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                                    totex_sim_report *rep, totex_sim_fault *fault, totex_error *err)
{
    totex_sim *sim = totex_sim_new(totex_task_network(t), ports, 0, err);
    assert_non_null(sim);
    totex_status st = totex_sym_expand(t, s, totex_sim_sink(sim), err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, rep, err);
    if (fault)
        *fault = totex_sim_get_fault(sim);
    totex_sim_free(sim);
    return st;
}

/* Certify, expand, simulate: both accept and agree. Returns the certifier's report. */
static totex_sym_report check_agree(const totex_task *t, totex_ports ports, const totex_sym_schedule *s)
{
    const totex_network *net = totex_task_network(t);
    const uint64_t n = totex_network_nodes(net);
    totex_sym_report rep;
    totex_sim_report sr;
    totex_error err = {{0}};
    if (totex_sym_certify(t, ports, s, &rep, &err) != TOTEX_OK)
        fail_msg("certify %s: %s", totex_network_spec(net), err.msg);
    if (expand_simulate(t, ports, s, &sr, NULL, &err) != TOTEX_OK)
        fail_msg("simulate expanded %s: %s", totex_network_spec(net), err.msg);
    assert_int_equal(sr.steps, rep.steps);
    assert_true(fabs(sr.average_delay - rep.average_delay) < 1e-9);
    assert_int_equal(sr.hops, n * rep.moves);
    assert_int_equal(sr.messages, n * (n - 1));
    assert_int_equal(sr.peak_queue, rep.peak_queue);
    assert_int_equal(sr.max_hops_in_step, n * rep.max_moves_in_step);
    assert_true(fabs(sr.link_utilisation - rep.link_utilisation) < 1e-9);
    assert_int_equal(rep.moves, totex_sym_moves(s));
    return rep;
}

static const char *const small_specs[] = {"ring:5*ring:4", "k2*ring:3*complete:4", "hypercube:4", "torus:3x3x3",
                                          "ring:6", "ghc:3x3", "torus:4x4", "complete:5", "ring:4*k2*ring:3"};

static void test_single_port_agrees(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof small_specs / sizeof *small_specs; i++) {
        totex_network *net = ts_net(small_specs[i]);
        totex_task *t = te(net);
        uint64_t delay_sum;
        totex_sym_schedule *s = build_single(t, &delay_sum);
        totex_sym_report rep = check_agree(t, TOTEX_PORTS_SINGLE, s);
        /* one hop per step along shortest routes: sigma steps (000 Theorem 1: sigma = status) */
        assert_int_equal(rep.steps, totex_network_status(net, 0));
        assert_int_equal(rep.moves, totex_task_total_sum(t));
        assert_int_equal(rep.max_moves_in_step, 1);
        assert_int_equal(rep.peak_queue, totex_task_rows(t));
        assert_true(fabs(rep.average_delay - (double)delay_sum / totex_task_rows(t)) < 1e-9);
        /* a 1-move-per-step schedule is also a valid k-port and multiport one */
        totex_sym_report r2;
        assert_int_equal(totex_sym_certify(t, 3, s, &r2, NULL), TOTEX_OK);
        assert_int_equal(totex_sym_certify(t, TOTEX_PORTS_MULTI, s, &r2, NULL), TOTEX_OK);
        totex_sym_free(s);
        totex_task_free(t);
        totex_network_free(net);
    }
}

static void test_multiport_and_kport_agree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof small_specs / sizeof *small_specs; i++) {
        totex_network *net = ts_net(small_specs[i]);
        totex_task *t = te(net);
        totex_sym_schedule *s = build_greedy(t, 0);
        totex_sym_report rep = check_agree(t, TOTEX_PORTS_MULTI, s);
        /* 001 Corollary 1: no schedule beats the critical sum */
        assert_true(rep.steps >= totex_task_critical_sum(t));
        assert_int_equal(rep.moves, totex_task_total_sum(t));
        assert_true(rep.max_moves_in_step <= totex_task_cols(t));
        totex_sym_free(s);
        for (uint32_t k = 2; k <= 3; k++) {
            s = build_greedy(t, k);
            rep = check_agree(t, k, s);
            /* 001 Section 7: at least max{ceil(sigma/k), h} steps */
            uint64_t lb = (totex_task_total_sum(t) + k - 1) / k;
            if (totex_task_critical_sum(t) > lb)
                lb = totex_task_critical_sum(t);
            assert_true(rep.steps >= lb);
            assert_true(rep.max_moves_in_step <= k);
            totex_sym_free(s);
        }
        totex_task_free(t);
        totex_network_free(net);
    }
}

/* Any route is valid: ring:5, every packet goes the long way round on the + links only. */
static void test_non_shortest_route(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:5");
    totex_task *t = te(net);
    totex_sym_schedule *s = totex_sym_new();
    for (uint32_t r = 0; r < 4; r++) /* row r goes to node r + 1: r + 1 hops on column 0 (+1) */
        for (uint32_t x = 0; x <= r; x++) {
            totex_sym_move mv = {r, 0};
            add(s, &mv, 1);
        }
    totex_sym_report rep = check_agree(t, TOTEX_PORTS_SINGLE, s);
    assert_int_equal(rep.steps, 10);
    assert_int_equal(rep.moves, 10); /* more than sigma = 6 */
    /* arrivals at 1, 3, 6, 10 */
    assert_true(fabs(rep.average_delay - 20.0 / 4) < 1e-12);
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
}

/* Copy of s with step `step` replaced by mv[0..cnt) (step == steps: appended). */
static totex_sym_schedule *with_step(const totex_sym_schedule *s, uint64_t step, const totex_sym_move *mv, size_t cnt)
{
    totex_sym_schedule *c = totex_sym_new();
    for (uint64_t i = 0; i < totex_sym_steps(s); i++) {
        size_t n;
        const totex_sym_move *m = totex_sym_step(s, i, &n);
        if (i == step)
            add(c, mv, cnt);
        else
            add(c, m, n);
    }
    if (step == totex_sym_steps(s))
        add(c, mv, cnt);
    return c;
}

/* The certifier rejects with step and row in the message; the simulator rejects the expansion with `kind`. */
static void expect_rejected(const totex_task *t, totex_ports ports, const totex_sym_schedule *s, const char *w1,
                            const char *w2, const char *w3, totex_violation kind)
{
    totex_sym_report rep;
    totex_error err = {{0}};
    assert_int_equal(totex_sym_certify(t, ports, s, &rep, &err), TOTEX_EVIOLATION);
    if (!strstr(err.msg, w1) || !strstr(err.msg, w2) || !strstr(err.msg, w3))
        fail_msg("certifier message lacks '%s' / '%s' / '%s': %s", w1, w2, w3, err.msg);
    if (kind != TOTEX_VIOL_NONE) {
        totex_sim_report sr;
        totex_sim_fault f;
        memset(&err, 0, sizeof err);
        if (expand_simulate(t, ports, s, &sr, &f, &err) != TOTEX_EVIOLATION)
            fail_msg("simulator accepted the expansion (certifier: %s)", w1);
        if (f.kind != kind)
            fail_msg("simulator: expected %s, got %s: %s", totex_violation_name(kind), totex_violation_name(f.kind),
                     err.msg);
    }
}

static void test_mutations_rejected(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:5*ring:4");
    totex_task *t = te(net);
    totex_sym_schedule *s = build_greedy(t, 0);
    const uint64_t steps = totex_sym_steps(s);
    size_t c0, cl;
    const totex_sym_move *m0 = totex_sym_step(s, 0, &c0);
    assert_true(c0 >= 2);
    totex_sym_move mv[64];
    char w[64], w2[64];
    memcpy(mv, m0, sizeof *mv * c0);

    /* a row moved twice in one step */
    mv[1].row = mv[0].row;
    totex_sym_schedule *x = with_step(s, 0, mv, c0);
    snprintf(w, sizeof w, "row %u (packet to node %u)", mv[0].row, totex_task_destination(t, mv[0].row));
    expect_rejected(t, TOTEX_PORTS_MULTI, x, "step 0, move 1", w, "already moves", TOTEX_VIOL_DUPLICATE);
    totex_sym_free(x);

    /* a column used twice in one step (two packets on one link) */
    memcpy(mv, m0, sizeof *mv * c0);
    mv[1].col = mv[0].col;
    x = with_step(s, 0, mv, c0);
    snprintf(w, sizeof w, "row %u (packet to node %u)", mv[1].row, totex_task_destination(t, mv[1].row));
    snprintf(w2, sizeof w2, "column %u", mv[0].col);
    expect_rejected(t, TOTEX_PORTS_MULTI, x, "step 0, move 1", w, w2, TOTEX_VIOL_LINK_BUSY);
    totex_sym_free(x);

    /* a move of a delivered row: one more step after the end */
    totex_sym_move extra = {0, 0};
    x = with_step(s, steps, &extra, 1);
    snprintf(w, sizeof w, "step %llu, move 0", (unsigned long long)steps);
    /* (the simulator is not asked here: its check of a delivered message only fires when the hop's
       sender is not the destination, and in the expansion the sender is the destination) */
    expect_rejected(t, TOTEX_PORTS_MULTI, x, w, "row 0 (packet to node 1)", "already at its destination",
                    TOTEX_VIOL_NONE);
    totex_sym_free(x);

    /* a dropped move: its row is never delivered */
    const totex_sym_move *ml = totex_sym_step(s, steps - 1, &cl);
    memcpy(mv, ml, sizeof *mv * cl);
    x = with_step(s, steps - 1, mv, cl - 1);
    snprintf(w, sizeof w, "row %u (packet to node %u)", ml[cl - 1].row, totex_task_destination(t, ml[cl - 1].row));
    expect_rejected(t, TOTEX_PORTS_MULTI, x, "after the last step", w, "not delivered", TOTEX_VIOL_NOT_DELIVERED);
    totex_sym_free(x);

    /* more than k moves: the multiport schedule under single-port and 2-port */
    snprintf(w, sizeof w, "row %u (packet to node %u)", m0[1].row, totex_task_destination(t, m0[1].row));
    expect_rejected(t, TOTEX_PORTS_SINGLE, s, "step 0, move 1", w, "single-port", TOTEX_VIOL_PORT_SEND);
    assert_true(c0 >= 3);
    snprintf(w, sizeof w, "row %u (packet to node %u)", m0[2].row, totex_task_destination(t, m0[2].row));
    expect_rejected(t, 2, s, "step 0, move 2", w, "2-port", TOTEX_VIOL_NONE);

    /* indices out of range: certifier rejects, expansion refuses */
    memcpy(mv, m0, sizeof *mv * c0);
    mv[0].row = totex_task_rows(t);
    x = with_step(s, 0, mv, c0);
    snprintf(w, sizeof w, "row %u (out of range", totex_task_rows(t));
    expect_rejected(t, TOTEX_PORTS_MULTI, x, "step 0, move 0", w, "no such row", TOTEX_VIOL_NONE);
    {
        totex_schedule *rec = totex_schedule_new();
        totex_error err = {{0}};
        assert_int_equal(totex_sym_expand(t, x, totex_schedule_sink(rec), &err), TOTEX_EINVAL);
        assert_non_null(strstr(err.msg, "step 0"));
        totex_schedule_free(rec);
    }
    totex_sym_free(x);
    memcpy(mv, m0, sizeof *mv * c0);
    mv[0].col = totex_task_cols(t);
    x = with_step(s, 0, mv, c0);
    snprintf(w, sizeof w, "column %u (out of range", totex_task_cols(t));
    expect_rejected(t, TOTEX_PORTS_MULTI, x, "step 0, move 0", w, "no such column", TOTEX_VIOL_NONE);
    totex_sym_free(x);

    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
}

/* Container basics: steps, moves, idle steps, out-of-range step. */
static void test_container(void **state)
{
    (void)state;
    totex_sym_schedule *s = totex_sym_new();
    totex_sym_move mv[3] = {{0, 1}, {2, 3}, {4, 5}};
    size_t c;
    assert_int_equal(totex_sym_steps(s), 0);
    for (int i = 0; i < 100; i++)
        add(s, mv, (size_t)(i % 4));
    add(s, NULL, 0);
    assert_int_equal(totex_sym_steps(s), 101);
    assert_int_equal(totex_sym_moves(s), 25 * (0 + 1 + 2 + 3));
    const totex_sym_move *p = totex_sym_step(s, 3, &c);
    assert_int_equal(c, 3);
    assert_int_equal(p[2].row, 4);
    assert_int_equal(p[2].col, 5);
    assert_null(totex_sym_step(s, 101, &c));
    assert_int_equal(c, 0);
    assert_int_equal(totex_sym_add_step(s, NULL, 2, NULL), TOTEX_EINVAL);
    totex_sym_free(s);
    totex_sym_free(NULL);
}

/* Idle steps: trailing idle steps do not count; the delivery time does. */
static void test_idle_steps(void **state)
{
    (void)state;
    totex_network *net = ts_net("hypercube:2");
    totex_task *t = te(net);
    /* rows: 1 (01), 2 (10), 3 (11); columns 0 (bit 0), 1 (bit 1) */
    totex_sym_schedule *s = totex_sym_new();
    totex_sym_move a[] = {{0, 0}, {1, 1}}, b[] = {{2, 0}}, c[] = {{2, 1}};
    add(s, NULL, 0);
    add(s, a, 2);
    add(s, b, 1);
    add(s, c, 1);
    add(s, NULL, 0);
    totex_sym_report rep = check_agree(t, TOTEX_PORTS_MULTI, s);
    assert_int_equal(rep.steps, 4);
    assert_true(fabs(rep.average_delay - (2.0 + 2 + 4) / 3) < 1e-12);
    assert_int_equal(rep.max_moves_in_step, 2);
    assert_true(fabs(rep.link_utilisation - 4.0 / (4 * 2)) < 1e-12);
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
}

/* Neighbourhood exchange (001 Section 4.1) is certified the same way (the simulator is for total exchange only). */
static void test_neighbourhood_certified(void **state)
{
    (void)state;
    totex_network *net = ts_net("hypercube:6");
    for (uint32_t K = 1; K <= 6; K++)
        for (uint32_t L = K; L <= 6; L++) {
            totex_task *t = totex_task_neighbourhood(net, K, L, NULL);
            assert_non_null(t);
            totex_sym_schedule *s = build_greedy(t, 0);
            totex_sym_report rep;
            totex_error err = {{0}};
            if (totex_sym_certify(t, TOTEX_PORTS_MULTI, s, &rep, &err) != TOTEX_OK)
                fail_msg("(%u, %u): %s", K, L, err.msg);
            assert_true(rep.steps >= totex_task_critical_sum(t));
            assert_int_equal(rep.moves, totex_task_total_sum(t));
            totex_sym_free(s);
            totex_task_free(t);
        }
    totex_network_free(net);
}

static uint64_t cut_bound(const totex_network *net)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t cnt = 0, best = 0;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &cnt, &best, &err), TOTEX_OK);
    for (size_t i = 0; i < cnt; i++)
        if (b[i].kind == TOTEX_BOUND_CUT)
            return b[i].value;
    fail_msg("no cut bound");
    return 0;
}

/* Large machines: the task matrix scales (O(n k) time and memory). */
static void check_large(const char *preset, uint64_t want_n, const char *line_word)
{
    totex_network *net = ts_net(preset);
    totex_task *t = te(net);
    char buf[160];
    assert_int_equal(totex_network_nodes(net), want_n);
    assert_int_equal(totex_task_rows(t), want_n - 1);
    assert_int_equal(totex_task_total_sum(t), totex_network_status(net, 0)); /* 000 Theorem 1 */
    uint64_t cut = cut_bound(net);
    assert_int_equal(totex_task_critical_sum(t), cut); /* all antipodal counts n/m_i are even */
    totex_task_critical_line(t, buf, sizeof buf);
    assert_non_null(strstr(buf, line_word));
    totex_task_free(t);
    totex_network_free(net);
}

static void test_large_machines(void **state)
{
    (void)state;
    /* Fugaku: torus:24x23x24*k2*ring:3*k2, the + column of ring:24 carries nm/8 = 158976*24/8 */
    check_large("fugaku", 158976, "ring:24");
    {
        totex_network *net = ts_net("fugaku");
        assert_int_equal(cut_bound(net), 476928);
        assert_int_equal(476928, (uint64_t)158976 * 24 / 8);
        totex_network_free(net);
    }
    /* Sequoia: torus:16x12x16x16*k2, nm/8 = 98304*16/8 = 196608 */
    check_large("sequoia", 98304, "ring:16");
    {
        totex_network *net = ts_net("sequoia");
        assert_int_equal(cut_bound(net), 196608);
        totex_network_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_container),         cmocka_unit_test(test_single_port_agrees),
        cmocka_unit_test(test_multiport_and_kport_agree), cmocka_unit_test(test_non_shortest_route),
        cmocka_unit_test(test_idle_steps),        cmocka_unit_test(test_mutations_rejected),
        cmocka_unit_test(test_neighbourhood_certified), cmocka_unit_test(test_large_machines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
