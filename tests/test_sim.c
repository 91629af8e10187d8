/*
 * The simulator rejects every kind of violation: one mutated
 * schedule per kind, built from a verified schedule or by hand, and its
 * measurements on hand-computed schedules.
 */
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "sim/sim_layout.h"

/* Copy of a schedule with step `step` replaced by `hops` (count). */
static totex_schedule *with_step(const totex_schedule *s, uint64_t step, const totex_hop *hops, size_t count)
{
    totex_schedule *t = totex_schedule_new();
    for (uint64_t i = 0; i < totex_schedule_steps(s); i++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(s, i, &c);
        if (i == step)
            assert_int_equal(totex_schedule_add_step(t, hops, count, NULL), TOTEX_OK);
        else
            assert_int_equal(totex_schedule_add_step(t, h, c, NULL), TOTEX_OK);
    }
    return t;
}

static void expect_violation(const char *spec, totex_ports ports, const totex_schedule *s, totex_violation kind,
                             const char *word)
{
    totex_network *net = ts_net(spec);
    totex_error err = {{0}};
    totex_sim *sim = totex_sim_new(net, ports, 0, &err);
    totex_sim_report rep;
    assert_non_null(sim);
    totex_status st = totex_schedule_replay(s, totex_sim_sink(sim), &err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, &rep, &err);
    assert_int_equal(st, TOTEX_EVIOLATION);
    totex_sim_fault f = totex_sim_get_fault(sim);
    if (f.kind != kind)
        fail_msg("expected %s, got %s: %s", totex_violation_name(kind), totex_violation_name(f.kind), err.msg);
    assert_non_null(strstr(err.msg, "step"));
    assert_non_null(strstr(err.msg, "message"));
    assert_non_null(strstr(err.msg, word));
    totex_sim_free(sim);
    totex_network_free(net);
}

/* hypercube:3 nodes: bit i of the id is coordinate i. */
static void test_accepts_a2_and_measures(void **state)
{
    (void)state;
    totex_network *net = ts_net("hypercube:3");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_SINGLE, "a2");
    totex_sim_report rep;
    totex_error err;
    assert_int_equal(ts_simulate(net, TOTEX_PORTS_SINGLE, s, &rep, &err), TOTEX_OK);
    /* every message crosses exactly its distance in hops when routes are shortest:
       S_G = n * d * 2^(d-1) = 8 * 12 = 96 hops for the 3-cube (004 Section 3) */
    assert_int_equal(rep.hops, 96);
    assert_int_equal(rep.messages, 56);
    totex_schedule_free(s);
    totex_network_free(net);
}

static void test_hand_schedule_metrics(void **state)
{
    (void)state;
    /* path:3 (0-1-2), multiport, by hand:
       step 1: 0->1 (0,1); 1->0 (1,0); 1->2 (1,2); 2->1 (2,1); also 0->1 carries... one per link:
       use instead: step1: 0->1 m(0,2), 1->0 m(1,0), 1->2 m(1,2), 2->1 m(2,0)
                    step2: 0->1 m(0,1), 1->2 m(0,2), 2->1 m(2,1), 1->0 m(2,0)
       arrivals: (1,0)@1 (1,2)@1 (0,1)@2 (0,2)@2 (2,1)@2 (2,0)@2 -> delay (1+1+2*4)/6 = 10/6 */
    totex_hop s1[] = {{0, 1, 0, 2}, {1, 0, 1, 0}, {1, 2, 1, 2}, {2, 1, 2, 0}};
    totex_hop s2[] = {{0, 1, 0, 1}, {1, 2, 0, 2}, {2, 1, 2, 1}, {1, 0, 2, 0}};
    totex_schedule *s = totex_schedule_new();
    totex_network *net = ts_net("path:3");
    totex_sim_report rep;
    totex_error err;
    totex_schedule_add_step(s, s1, 4, NULL);
    totex_schedule_add_step(s, s2, 4, NULL);
    assert_int_equal(ts_simulate(net, TOTEX_PORTS_MULTI, s, &rep, &err), TOTEX_OK);
    assert_int_equal(rep.steps, 2);
    assert_int_equal(rep.hops, 8);
    assert_true(rep.average_delay > 10.0 / 6 - 1e-12 && rep.average_delay < 10.0 / 6 + 1e-12);
    /* node 1 after step 1 holds m(0,2), m(2,0) and its own m(1,... none left) -> 2; start: 2 each */
    assert_int_equal(rep.peak_queue, 2);
    /* 4 directed links, 2 steps, 8 hops: full utilisation */
    assert_true(rep.link_utilisation > 0.999);
    /* the same schedule under single-port breaks the port rule at node 1 in step 1 */
    expect_violation("path:3", TOTEX_PORTS_SINGLE, s, TOTEX_VIOL_PORT_SEND, "port");
    totex_schedule_free(s);
    totex_network_free(net);
}

static void hop_to_non_neighbour(totex_hop *h) { h->to = h->from ^ 3u; /* two coordinates differ */ }

static void hop_carries_absent_message(totex_hop *h)
{
    h->src = h->from ^ 4u; /* a message of another source, still at that source */
    if (h->src == h->dst)
        h->dst ^= 2u;
}

/* Record A2 on hypercube:3 (single-port), mutate the first hop of step 0, expect `kind`. */
static void expect_first_hop_mutation_rejected(void (*mutate)(totex_hop *), totex_violation kind, const char *word)
{
    totex_network *net = ts_net("hypercube:3");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_SINGLE, "a2");
    size_t c;
    const totex_hop *h = totex_schedule_step(s, 0, &c);
    totex_hop *m = malloc(sizeof *m * c);
    memcpy(m, h, sizeof *m * c);
    mutate(&m[0]);
    totex_schedule *t = with_step(s, 0, m, c);
    expect_violation("hypercube:3", TOTEX_PORTS_SINGLE, t, kind, word);
    free(m);
    totex_schedule_free(t);
    totex_schedule_free(s);
    totex_network_free(net);
}

static void test_rejects_non_link(void **state)
{
    (void)state;
    expect_first_hop_mutation_rejected(hop_to_non_neighbour, TOTEX_VIOL_NOT_LINK, "non-link");
}

static void test_rejects_not_present(void **state)
{
    (void)state;
    expect_first_hop_mutation_rejected(hop_carries_absent_message, TOTEX_VIOL_NOT_PRESENT, "not present");
}

static void test_rejects_port_conflicts(void **state)
{
    (void)state;
    /* k2*k2: 0=(0,0) 1=(1,0) 2=(0,1) 3=(1,1); 1's neighbours are 0 and 3 */
    totex_hop recv2[] = {{0, 1, 0, 1}, {3, 1, 3, 1}};
    totex_hop send2[] = {{0, 1, 0, 1}, {0, 2, 0, 2}};
    totex_hop link2[] = {{0, 1, 0, 1}, {0, 1, 0, 3}};
    totex_schedule *a = totex_schedule_new(), *b = totex_schedule_new(), *c = totex_schedule_new();
    totex_schedule_add_step(a, recv2, 2, NULL);
    totex_schedule_add_step(b, send2, 2, NULL);
    totex_schedule_add_step(c, link2, 2, NULL);
    expect_violation("k2*k2", TOTEX_PORTS_SINGLE, a, TOTEX_VIOL_PORT_RECV, "receive");
    expect_violation("k2*k2", TOTEX_PORTS_SINGLE, b, TOTEX_VIOL_PORT_SEND, "send");
    expect_violation("k2*k2", TOTEX_PORTS_MULTI, c, TOTEX_VIOL_LINK_BUSY, "link");
    totex_schedule_free(a);
    totex_schedule_free(b);
    totex_schedule_free(c);
}

static void test_rejects_lost_duplicated_delivered(void **state)
{
    (void)state;
    totex_network *net = ts_net("ghc:3x3");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "a2");
    uint64_t last = totex_schedule_steps(s) - 1;
    size_t c;
    const totex_hop *h = totex_schedule_step(s, last, &c);
    totex_hop *m = malloc(sizeof *m * (c + 1));

    /* lost: drop the last hop of the last step */
    memcpy(m, h, sizeof *m * c);
    totex_schedule *lost = with_step(s, last, m, c - 1);
    expect_violation("ghc:3x3", TOTEX_PORTS_MULTI, lost, TOTEX_VIOL_NOT_DELIVERED, "lost");

    /* duplicated: a message sent to two neighbours in one step (ghc:3x3 node
       0's neighbours are 1, 2 in dimension 0 and 3, 6 in dimension 1) */
    memcpy(m, h, sizeof *m * c);
    m[c] = m[0];
    {
        uint32_t alt[4] = {m[0].from ^ 0, 0, 0, 0};
        uint32_t deg = totex_network_neighbors(net, m[0].from, alt);
        for (uint32_t q = 0; q < deg; q++)
            if (alt[q] != m[0].to) {
                int busy = 0;
                for (size_t y = 0; y < c; y++)
                    busy |= m[y].from == m[0].from && m[y].to == alt[q];
                if (!busy) {
                    m[c].to = alt[q];
                    break;
                }
            }
        assert_int_not_equal(m[c].to, m[0].to);
    }
    totex_schedule *dup = with_step(s, last, m, c + 1);
    expect_violation("ghc:3x3", TOTEX_PORTS_MULTI, dup, TOTEX_VIOL_DUPLICATE, "duplicated");

    /* delivered: a message that arrived is sent again one step later */
    totex_schedule *again = with_step(s, last, h, c);
    totex_hop extra = h[0];
    totex_schedule_add_step(again, &extra, 1, NULL);
    expect_violation("ghc:3x3", TOTEX_PORTS_MULTI, again, TOTEX_VIOL_DELIVERED, "delivered");

    /* delivered: its destination sends it on (the hop starts where the message is) */
    totex_schedule *onward = with_step(s, last, h, c);
    totex_hop back = {h[0].to, h[0].from, h[0].src, h[0].dst};
    totex_schedule_add_step(onward, &back, 1, NULL);
    expect_violation("ghc:3x3", TOTEX_PORTS_MULTI, onward, TOTEX_VIOL_DELIVERED, "delivered");
    totex_schedule_free(onward);

    free(m);
    totex_schedule_free(lost);
    totex_schedule_free(dup);
    totex_schedule_free(again);
    totex_schedule_free(s);
    totex_network_free(net);
}

/* the fault of replaying @p s serially (@p form 0, 1) or split (2, 3), the pre-pass in its AVX2 form (0, 2: where
   the processor has it) or its portable one (1, 3) */
static totex_sim_fault replay_form(const totex_network *net, totex_ports ports, const totex_schedule *s, int form,
                                   totex_error *err)
{
    totex_sim *sim = totex_sim_new(net, ports, 0, err);
    assert_non_null(sim);
    totex_sim_portable(sim, form & 1);
    totex_status st = TOTEX_OK;
    if (form < 2) {
        st = totex_schedule_replay(s, totex_sim_sink(sim), err);
    } else {
        totex_sink parts[2] = {totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_LINKS),
                               totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_MESSAGES)};
        for (uint64_t t = 0; t < totex_schedule_steps(s); t++) {
            size_t k;
            const totex_hop *q = totex_schedule_step(s, t, &k);
            totex_status a = parts[0].step(parts[0].ctx, q, k, NULL), b = parts[1].step(parts[1].ctx, q, k, NULL);
            if (a != TOTEX_OK || b != TOTEX_OK)
                break;
        }
        st = totex_sim_stages_join(sim, err);
    }
    assert_int_equal(st, TOTEX_EVIOLATION);
    const totex_sim_fault f = totex_sim_get_fault(sim);
    totex_sim_free(sim);
    return f;
}

/* A violation late in a step of more than two of the one-loop forms' chunks (256 hops, src/sim/sim.c): the
   hops of the chunks before it are undone, so that the two passes name the violation itself (a link taken
   twice at the step's last hop) and not a message those chunks moved; with the AVX2 pre-pass and the
   portable one (src/sim/sim_layout.h), serial and split. */
static void test_rejects_late_in_long_step(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:16x16");
    totex_schedule *s = ts_record(net, TOTEX_PORTS_MULTI, "a3");
    const uint64_t at = 0; /* every message is at its source */
    size_t c = 0;
    const totex_hop *h = totex_schedule_step(s, at, &c);
    assert_true(c > 2 * 256);
    totex_hop *m = malloc(sizeof *m * (c + 1));
    assert_non_null(m);
    memcpy(m, h, sizeof *m * c);
    /* the link of the step's last hop again, carrying a message of its tail that no hop of the step moves:
       only the link fails */
    m[c] = m[c - 1];
    m[c].src = m[c].from;
    m[c].dst = UINT32_MAX;
    for (uint32_t d = 0; d < totex_network_nodes(net) && m[c].dst == UINT32_MAX; d++) {
        int moved = d == m[c].from;
        for (size_t y = 0; y < c && !moved; y++)
            moved = m[y].src == m[c].src && m[y].dst == d;
        if (!moved)
            m[c].dst = d;
    }
    assert_true(m[c].dst != UINT32_MAX);
    totex_schedule *bad = with_step(s, at, m, c + 1);
    for (int form = 0; form < 4; form++) {
        totex_error err = {{0}};
        const totex_sim_fault f = replay_form(net, TOTEX_PORTS_MULTI, bad, form, &err);
        if (f.kind != TOTEX_VIOL_LINK_BUSY || f.step != at || f.src != m[c].src || f.dst != m[c].dst)
            fail_msg("form %d: expected a link conflict at step %llu (message %u->%u), got %s at step %llu: %s", form,
                     (unsigned long long)at, m[c].src, m[c].dst, totex_violation_name(f.kind),
                     (unsigned long long)f.step, err.msg);
    }
    free(m);
    totex_schedule_free(bad);
    totex_schedule_free(s);
    totex_network_free(net);
}


/* A hop over a non-link anywhere in a step, under every port model, where the one-loop forms' pre-pass finds
   the links' slots (rows of 4 slots: 2-D tori and meshes; src/sim/sim.c, pre_hop() and pre_avx2_in()): in a
   group of 8 hops of the AVX2 form (the middle of the first chunk), at the last hop of a step (in the
   scalar tail when the step's hops are not a multiple of 8), and in a later chunk; the two passes must name
   it, serial and split, with either pre-pass; and on torus:4x4x4 (rows of 8, the loops' own look-up). */
static void test_rejects_non_link_in_chunks(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *algo;
        totex_ports ports;
        uint32_t m0; /* the first coordinate's range (its stride is 1): node +2 in it is no neighbour */
    } cases[] = {{"torus:16x16", "a2", TOTEX_PORTS_SINGLE, 16}, {"torus:16x16", "a3", TOTEX_PORTS_MULTI, 16},
                 {"torus:16x16", "greedy", 2, 16},          {"mesh:12x10", "a2", TOTEX_PORTS_SINGLE, 12},
                 {"mesh:12x10", "rounds", TOTEX_PORTS_MULTI, 12}, {"mesh:12x10", "greedy", 3, 12},
                 {"torus:4x4x4", "octr", TOTEX_PORTS_MULTI, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        totex_schedule *s = ts_record(net, cases[i].ports, cases[i].algo);
        const uint64_t steps = totex_schedule_steps(s);
        const uint64_t at_steps[2] = {0, steps / 2};
        for (int a = 0; a < 2; a++) {
            const uint64_t at = at_steps[a];
            size_t c = 0;
            const totex_hop *h = totex_schedule_step(s, at, &c);
            if (c == 0)
                continue;
            const size_t at_hops[4] = {c / 2, c - 1, c > 300 ? 300 : c / 3, c > 8 ? 5 : 0};
            for (int b = 0; b < 4; b++) {
                const size_t p = at_hops[b];
                totex_hop *m = malloc(sizeof *m * c);
                assert_non_null(m);
                memcpy(m, h, sizeof *m * c);
                /* from + k in the first coordinate, 2 <= k <= m0 - 2 (no neighbour), preferably a node that
                   receives nothing in this step, so that no port or link check of the loops stops there first */
                const uint32_t x = m[p].from % cases[i].m0;
                m[p].to = m[p].from - x + (x + 2) % cases[i].m0;
                for (uint32_t k = 2; k + 2 <= cases[i].m0; k++) {
                    const uint32_t v = m[p].from - x + (x + k) % cases[i].m0;
                    int busy = 0;
                    for (size_t y = 0; y < c && !busy; y++)
                        busy = h[y].to == v;
                    if (!busy) {
                        m[p].to = v;
                        break;
                    }
                }
                totex_schedule *bad = with_step(s, at, m, c);
                for (int form = 0; form < 4; form++) {
                    totex_error err = {{0}};
                    const totex_sim_fault f = replay_form(net, cases[i].ports, bad, form, &err);
                    if (f.kind != TOTEX_VIOL_NOT_LINK || f.step != at || f.src != m[p].src || f.dst != m[p].dst)
                        fail_msg("%s %s: form %d, hop %zu of %zu at step %llu: expected a hop over a non-link, got %s "
                                 "at step %llu: %s",
                                 cases[i].spec, cases[i].algo, form, p, c, (unsigned long long)at,
                                 totex_violation_name(f.kind), (unsigned long long)f.step, err.msg);
                    assert_non_null(strstr(err.msg, "not neighbours"));
                }
                totex_schedule_free(bad);
                free(m);
            }
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

/* A message moved over two links in one step (store-and-forward allows one): the hop after its first
   carries it on from where that one left it. The one-loop forms take a message's move at once and know it
   moved in this step only by the stamp in its state word (src/sim/sim.c, sim_word_bad()); the two passes must
   name the second hop, whose message is not at its start at the start of the step, serial and split, with
   either pre-pass: in step 0 and in the middle step, in a group of 8 hops of the AVX2 pre-pass, in a later
   chunk, and near a step's start; single-port, multiport and k-port, rows of 4 and 8 link slots. */
static void test_rejects_two_links_in_a_step(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *algo;
        totex_ports ports;
    } cases[] = {{"torus:16x16", "a3", TOTEX_PORTS_MULTI}, {"torus:16x16", "greedy", 2},
                 {"mesh:12x10", "a2", TOTEX_PORTS_SINGLE}, {"mesh:12x10", "rounds", TOTEX_PORTS_MULTI},
                 {"torus:4x4x4", "octr", TOTEX_PORTS_MULTI}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        totex_schedule *s = ts_record(net, cases[i].ports, cases[i].algo);
        const uint64_t at_steps[2] = {0, totex_schedule_steps(s) / 2};
        for (int a = 0; a < 2; a++) {
            const uint64_t at = at_steps[a];
            size_t c = 0;
            const totex_hop *h = totex_schedule_step(s, at, &c);
            const size_t at_hops[3] = {c / 2, c > 300 ? 300 : c / 3, c > 8 ? 5 : 0};
            for (int b = 0; b < 3; b++) {
                size_t p = at_hops[b];
                while (p < c && h[p].to == h[p].dst) /* a hop whose message goes on */
                    p++;
                if (p >= c)
                    continue;
                totex_hop *m = malloc(sizeof *m * (c + 1));
                assert_non_null(m);
                memcpy(m, h, sizeof *m * (p + 1));
                memcpy(m + p + 2, h + p + 1, sizeof *m * (c - p - 1));
                /* on from where hop p leaves it, preferably over a link and to a node that no hop of the step
                   uses, so that the message is the first thing found wrong in the fast forms too */
                uint32_t nb[16];
                const uint32_t deg = totex_network_neighbors(net, h[p].to, nb);
                assert_true(deg > 0 && deg <= 16);
                totex_hop q = {h[p].to, nb[0], h[p].src, h[p].dst};
                for (uint32_t r = 0; r < deg; r++) {
                    int busy = 0;
                    for (size_t y = 0; y < c && !busy; y++)
                        busy = h[y].from == h[p].to || h[y].to == nb[r];
                    if (!busy) {
                        q.to = nb[r];
                        break;
                    }
                }
                m[p + 1] = q;
                totex_schedule *bad = with_step(s, at, m, c + 1);
                for (int form = 0; form < 4; form++) {
                    totex_error err = {{0}};
                    const totex_sim_fault f = replay_form(net, cases[i].ports, bad, form, &err);
                    if (f.kind != TOTEX_VIOL_NOT_PRESENT || f.step != at || f.src != q.src || f.dst != q.dst)
                        fail_msg("%s %s: form %d, after hop %zu of %zu at step %llu: expected message %u->%u not "
                                 "present, got %s at step %llu: %s",
                                 cases[i].spec, cases[i].algo, form, p, c, (unsigned long long)at, q.src, q.dst,
                                 totex_violation_name(f.kind), (unsigned long long)f.step, err.msg);
                }
                totex_schedule_free(bad);
                free(m);
            }
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

/* A node over its ports in a step of the links part's dense form (src/sim/sim.c, dense_chunk_in(): per hop only
   stamps, then one pass over the nodes counts each node's sends and receives): under k-port and single-port, a
   hop added to a step of a verified schedule that makes a node send, or receive, one message more than k over
   a link the step leaves free, carrying a message that is at its tail and that the step does not move (for one
   receive too many, one of the sender's hops to another node dropped when it sends k already); at the step's
   end and in its middle; the two passes must name the port conflict at that node, serial and
   split, with either form of the pre-pass and of the node pass; rows of 4 and 8 link slots. */
static void test_rejects_ports_in_dense_steps(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *algo;
        totex_ports ports;
    } cases[] = {{"torus:16x16", "greedy", 2}, {"mesh:12x10", "greedy", 3}, {"torus:4x4x4", "greedy", 2},
                 {"torus:16x16", "a2", TOTEX_PORTS_SINGLE}, {"mesh:12x10", "a2", TOTEX_PORTS_SINGLE}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i].spec);
        const uint32_t n = totex_network_nodes(net), k = totex_ports_k(cases[i].ports);
        totex_schedule *s = ts_record(net, cases[i].ports, cases[i].algo);
        const uint64_t at = 0; /* every message is at its source */
        size_t c = 0;
        const totex_hop *h = totex_schedule_step(s, at, &c);
        assert_true(c * 4 >= n); /* a dense step */
        uint32_t *sends = calloc(n, sizeof *sends), *recvs = calloc(n, sizeof *recvs);
        assert_non_null(sends);
        assert_non_null(recvs);
        for (size_t y = 0; y < c; y++) {
            sends[h[y].from]++;
            recvs[h[y].to]++;
        }
        for (int dir = 0; dir < 2; dir++) { /* 0: one send too many at a node, 1: one receive too many */
            totex_hop q = {UINT32_MAX, UINT32_MAX, 0, 0};
            size_t drop = SIZE_MAX; /* a hop of the sender left out */
            for (uint32_t v = 0; v < n && q.from == UINT32_MAX; v++) {
                uint32_t nb[16];
                const uint32_t deg = totex_network_neighbors(net, v, nb);
                for (uint32_t r = 0; r < deg && q.from == UINT32_MAX; r++) {
                    const uint32_t a = dir ? nb[r] : v, b = dir ? v : nb[r]; /* the hop a -> b */
                    int busy = !(dir ? recvs[b] == k : sends[a] == k);
                    for (size_t y = 0; y < c && !busy; y++)
                        busy = h[y].from == a && h[y].to == b;
                    for (uint32_t d = 0; d < n && !busy && q.from == UINT32_MAX; d++) {
                        int moved = d == a;
                        for (size_t y = 0; y < c && !moved; y++)
                            moved = h[y].src == a && h[y].dst == d;
                        if (!moved)
                            q = (totex_hop){a, b, a, d};
                    }
                }
            }
            assert_true(q.from != UINT32_MAX);
            for (size_t y = 0; y < c && dir && sends[q.from] == k && drop == SIZE_MAX; y++)
                if (h[y].from == q.from && h[y].to != q.to)
                    drop = y;
            assert_true(!dir || sends[q.from] < k || drop != SIZE_MAX);
            const uint32_t node = dir ? q.to : q.from;
            for (int where = 0; where < 2; where++) { /* the step's end, its middle */
                const size_t p = where ? c / 2 : c;
                totex_hop *m = malloc(sizeof *m * (c + 1));
                assert_non_null(m);
                size_t mc = 0;
                for (size_t y = 0; y <= c; y++) {
                    if (y == p)
                        m[mc++] = q;
                    if (y < c && y != drop)
                        m[mc++] = h[y];
                }
                totex_schedule *bad = with_step(s, at, m, mc);
                for (int form = 0; form < 4; form++) {
                    totex_error err = {{0}};
                    const totex_sim_fault f = replay_form(net, cases[i].ports, bad, form, &err);
                    const totex_violation want = dir ? TOTEX_VIOL_PORT_RECV : TOTEX_VIOL_PORT_SEND;
                    if (f.kind != want || f.step != at || f.node != node)
                        fail_msg("%s %s: form %d, hop %u->%u added at %zu of %zu: expected %s at node %u in step "
                                 "%llu, got %s at node %u in step %llu: %s",
                                 cases[i].spec, cases[i].algo, form, q.from, q.to, p, c, totex_violation_name(want),
                                 node, (unsigned long long)at, totex_violation_name(f.kind), f.node,
                                 (unsigned long long)f.step, err.msg);
                }
                totex_schedule_free(bad);
                free(m);
            }
        }
        free(sends);
        free(recvs);
        totex_schedule_free(s);
        totex_network_free(net);
    }
}

/* The link stamps of the one-loop forms are 16 bits (src/sim/sim.c, link_stamp16()), the same again every
   32767 steps, and all set to 0 then: a step 32767 steps after another must not count that step's links as
   its own. On torus:4x4 multiport: step 0 moves four messages one link away from their destinations (their
   receivers' queues above every other), 32768 steps move four other messages up and down a column and back
   (dense steps: a quarter of the nodes' hops or more), a step brings the first four back, then greedy's
   schedule: the peak queue must be the one counted here (every node's queue at every step's end), serial and
   split, either pre-pass and node pass. With step 0's stamps counted again at step 32767, node 0's queue goes
   one above. */
static void test_link_stamps_wrap(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:4x4");
    const uint32_t n = totex_network_nodes(net);
    totex_schedule *g = ts_record(net, TOTEX_PORTS_MULTI, "greedy"), *s = totex_schedule_new();
    const totex_hop away[4] = {{1, 0, 1, 2}, {5, 4, 5, 6}, {9, 8, 9, 10}, {13, 12, 13, 14}};
    const totex_hop back[4] = {{0, 1, 1, 2}, {4, 5, 5, 6}, {8, 9, 9, 10}, {12, 13, 13, 14}};
    const totex_hop up[4] = {{2, 6, 2, 1}, {10, 14, 10, 9}, {3, 7, 3, 0}, {11, 15, 11, 8}};
    const totex_hop down[4] = {{6, 2, 2, 1}, {14, 10, 10, 9}, {7, 3, 3, 0}, {15, 11, 11, 8}};
    assert_int_equal(totex_schedule_add_step(s, away, 4, NULL), TOTEX_OK);
    for (int t = 0; t < 32768; t++)
        assert_int_equal(totex_schedule_add_step(s, t % 2 ? down : up, 4, NULL), TOTEX_OK);
    assert_int_equal(totex_schedule_add_step(s, back, 4, NULL), TOTEX_OK);
    for (uint64_t t = 0; t < totex_schedule_steps(g); t++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(g, t, &c);
        assert_int_equal(totex_schedule_add_step(s, h, c, NULL), TOTEX_OK);
    }
    /* the peak counted here: every queue at every step's end */
    uint64_t *q = malloc(sizeof *q * n), peak = n - 1;
    assert_non_null(q);
    for (uint32_t v = 0; v < n; v++)
        q[v] = n - 1;
    for (uint64_t t = 0; t < totex_schedule_steps(s); t++) {
        size_t c;
        const totex_hop *h = totex_schedule_step(s, t, &c);
        for (size_t y = 0; y < c; y++) {
            q[h[y].from]--;
            q[h[y].to] += h[y].to != h[y].dst;
        }
        for (uint32_t v = 0; v < n; v++)
            peak = q[v] > peak ? q[v] : peak;
    }
    assert_int_equal(peak, n); /* node 0 at step 0, and no more */
    for (int form = 0; form < 4; form++) {
        totex_error err = {{0}};
        totex_sim *sim = totex_sim_new(net, TOTEX_PORTS_MULTI, 0, &err);
        totex_sim_report rep;
        assert_non_null(sim);
        totex_sim_portable(sim, form & 1);
        totex_status st = TOTEX_OK;
        if (form < 2) {
            st = totex_schedule_replay(s, totex_sim_sink(sim), &err);
        } else {
            totex_sink parts[2] = {totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_LINKS),
                                   totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_MESSAGES)};
            for (uint64_t t = 0; t < totex_schedule_steps(s) && st == TOTEX_OK; t++) {
                size_t k;
                const totex_hop *h = totex_schedule_step(s, t, &k);
                st = parts[0].step(parts[0].ctx, h, k, &err);
                if (st == TOTEX_OK)
                    st = parts[1].step(parts[1].ctx, h, k, &err);
            }
            if (st == TOTEX_OK)
                st = totex_sim_stages_join(sim, &err);
        }
        if (st == TOTEX_OK)
            st = totex_sim_finish(sim, &rep, &err);
        if (st != TOTEX_OK)
            fail_msg("form %d: %s", form, err.msg);
        if (rep.peak_queue != peak || rep.peak_queue_node != 0)
            fail_msg("form %d: peak queue %llu at node %u, counted %llu at node 0", form,
                     (unsigned long long)rep.peak_queue, rep.peak_queue_node, (unsigned long long)peak);
        totex_sim_free(sim);
    }
    free(q);
    totex_schedule_free(s);
    totex_schedule_free(g);
    totex_network_free(net);
}

static void test_rejects_bad_ids(void **state)
{
    (void)state;
    totex_hop bad[] = {{0, 9, 0, 1}};
    totex_hop self[] = {{0, 1, 1, 1}};
    totex_schedule *a = totex_schedule_new(), *b = totex_schedule_new();
    totex_schedule_add_step(a, bad, 1, NULL);
    totex_schedule_add_step(b, self, 1, NULL);
    expect_violation("k2*k2", TOTEX_PORTS_MULTI, a, TOTEX_VIOL_BAD_NODE, "range");
    expect_violation("k2*k2", TOTEX_PORTS_MULTI, b, TOTEX_VIOL_SELF_MESSAGE, "no such message");
    totex_schedule_free(a);
    totex_schedule_free(b);
}

static void test_refuses_too_large(void **state)
{
    (void)state;
    totex_network *net = ts_net("fugaku");
    totex_error err = {{0}};
    assert_null(totex_sim_new(net, TOTEX_PORTS_MULTI, 0, &err));
    assert_non_null(strstr(err.msg, "totex bounds"));
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_a2_and_measures),
        cmocka_unit_test(test_hand_schedule_metrics),
        cmocka_unit_test(test_rejects_non_link),
        cmocka_unit_test(test_rejects_not_present),
        cmocka_unit_test(test_rejects_port_conflicts),
        cmocka_unit_test(test_rejects_lost_duplicated_delivered),
        cmocka_unit_test(test_rejects_bad_ids),
        cmocka_unit_test(test_rejects_late_in_long_step),
        cmocka_unit_test(test_rejects_non_link_in_chunks),
        cmocka_unit_test(test_rejects_two_links_in_a_step),
        cmocka_unit_test(test_rejects_ports_in_dense_steps),
        cmocka_unit_test(test_link_stamps_wrap),
        cmocka_unit_test(test_refuses_too_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
