/*
 * The simulator against a reference written here from the rules alone
 * (include/totex/common.h, the port models): a step is valid when every hop
 * joins two neighbours (totex_network_adjacent), carries a message that is at
 * its tail at the start of the step and not yet delivered, moves no message
 * twice, and no directed link carries two messages (multiport and k-port), no
 * node sends or receives more than k (k-port; one under single-port). Valid
 * schedules of several algorithms are mutated at random (a hop's tail, head,
 * message, a duplicated hop, a hop moved to another step, a hop dropped, a
 * message sent twice in one step: on from where it arrives, or from its tail
 * to a second neighbour; a delivered message sent away and back); the
 * simulator, serial and split in its two parts, must accept exactly the
 * schedules the reference accepts and reject the others at the same step, and
 * on the schedules it accepts report the reference's peak queue (at step
 * ends) at a node whose queue reached it, and its hops and arrival steps.
 * Every other trial replays with the state's layout reviewed every 8 steps
 * and moved every 5 steps through the six moves between its three layouts
 * (src/sim/sim_layout.h), which must keep where every message is. A third
 * of the trials hold the one-loop forms' pre-pass (src/sim/sim.c) to its
 * portable form, the others take AVX2 where the processor has it.
 */
#include "support.h"

#include "sim/sim_layout.h"

#include <stdlib.h>
#include <string.h>

/* a small generator of its own (the same draws on every platform) */
static int lcg(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (int)((*seed >> 16) & 0x7fff);
}

typedef struct {
    const char *spec, *algo;
    totex_ports ports;
} ref_case;

static const ref_case cases[] = {
    {"mesh:4x5", "greedy", TOTEX_PORTS_MULTI}, {"mesh:4x5", "greedy", TOTEX_PORTS_SINGLE},
    {"mesh:4x5", "greedy", 2},                 {"torus:4x4", "a2", TOTEX_PORTS_SINGLE},
    {"hypercube:4", "greedy", 3},              {"mesh:6x6", "a3", TOTEX_PORTS_MULTI},
    {"ring:5*path:3", "greedy", 2},            {"complete:20", "greedy", TOTEX_PORTS_MULTI},
    {"mesh:8x8", "a2", TOTEX_PORTS_SINGLE},    {"mesh:16x8", "a2", 3},
    {"mesh:8x4", "a2", TOTEX_PORTS_SINGLE},
};

/* what the reference measures on a valid schedule */
typedef struct {
    uint64_t peak;       /* most undelivered messages a node holds at a step end (n - 1 at the start) */
    uint8_t *at_peak;    /* n flags: the node held peak at some step end (owned) */
    uint64_t hops, last; /* hops, and the last step (1-based) a message arrived in */
    uint64_t delay_sum;  /* sum over messages of their arrival step (1-based) */
} ref_measure;

/* the reference: UINT64_MAX when valid, else the first step that breaks a rule (or the step count when a
   message is never delivered) */
static uint64_t reference(const totex_network *net, totex_ports ports, const totex_schedule *s, ref_measure *ms)
{
    const uint32_t n = totex_network_nodes(net);
    const uint64_t steps = totex_schedule_steps(s);
    uint32_t *pos = malloc(sizeof *pos * (size_t)n * n), *sends = calloc(n, sizeof *sends),
             *recvs = calloc(n, sizeof *recvs);
    uint8_t *moved = calloc((size_t)n * n, 1), *link = calloc((size_t)n * n, 1);
    uint64_t bad = UINT64_MAX;
    assert_non_null(pos);
    assert_non_null(sends);
    assert_non_null(recvs);
    assert_non_null(moved);
    assert_non_null(link);
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            pos[(size_t)a * n + b] = a;
    const uint32_t k = ports == TOTEX_PORTS_MULTI ? UINT32_MAX : totex_ports_k(ports);
    uint64_t *held = malloc(sizeof *held * n), peak = n - 1;
    uint8_t *at_peak = calloc(n, 1);
    assert_non_null(held);
    assert_non_null(at_peak);
    memset(at_peak, 1, n);
    memset(ms, 0, sizeof *ms);
    for (uint64_t t = 0; t < steps && bad == UINT64_MAX; t++) {
        size_t c = 0;
        const totex_hop *h = totex_schedule_step(s, t, &c);
        memset(sends, 0, sizeof *sends * n);
        memset(recvs, 0, sizeof *recvs * n);
        memset(moved, 0, (size_t)n * n);
        memset(link, 0, (size_t)n * n);
        for (size_t x = 0; x < c && bad == UINT64_MAX; x++) {
            const totex_hop *p = &h[x];
            if (p->from >= n || p->to >= n || p->src >= n || p->dst >= n || p->src == p->dst ||
                !totex_network_adjacent(net, p->from, p->to))
                bad = t;
            else if (pos[(size_t)p->src * n + p->dst] != p->from || p->from == p->dst ||
                     moved[(size_t)p->src * n + p->dst]++)
                bad = t;
            else if ((ports != TOTEX_PORTS_SINGLE && link[(size_t)p->from * n + p->to]++) || ++sends[p->from] > k ||
                     ++recvs[p->to] > k)
                bad = t;
        }
        for (size_t x = 0; x < c && bad == UINT64_MAX; x++) { /* store-and-forward: moved at the end of the step */
            pos[(size_t)h[x].src * n + h[x].dst] = h[x].to;
            ms->hops++;
            if (h[x].to == h[x].dst) {
                ms->last = t + 1;
                ms->delay_sum += t + 1;
            }
        }
        if (bad != UINT64_MAX)
            break;
        /* the queues at the step's end, counted from the positions */
        memset(held, 0, sizeof *held * n);
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++)
                if (a != b && pos[(size_t)a * n + b] != b)
                    held[pos[(size_t)a * n + b]]++;
        for (uint32_t v = 0; v < n; v++) {
            if (held[v] > peak) {
                peak = held[v];
                memset(at_peak, 0, n);
            }
            if (held[v] == peak)
                at_peak[v] = 1;
        }
    }
    ms->peak = peak;
    ms->at_peak = at_peak;
    free(held);
    for (uint32_t a = 0; a < n && bad == UINT64_MAX; a++)
        for (uint32_t b = 0; b < n; b++)
            if (a != b && pos[(size_t)a * n + b] != b) {
                bad = steps;
                break;
            }
    free(pos);
    free(sends);
    free(recvs);
    free(moved);
    free(link);
    return bad;
}

/* moves of the state to another layout in the last simulate() */
static uint32_t last_relayouts;

/* the one-loop forms' pre-pass held to its portable form (src/sim/sim_layout.h) in the next simulate() */
static int portable_pre;

/* the simulator: UINT64_MAX when it accepts, else the step of its fault; serial (split 0) or in two parts;
   with @p review, the state's layout reviewed every 8 steps (a step sampled every hop), so that a short
   schedule moves it between layouts as it goes, and moved to another layout every 5 steps besides */
static uint64_t simulate(const totex_network *net, totex_ports ports, const totex_schedule *s, int split,
                         int review, totex_sim_report *rep)
{
    totex_error err = {{0}};
    totex_sim *sim = totex_sim_new(net, ports, 0, &err);
    assert_non_null(sim);
    if (review)
        totex_sim_review_every(sim, 1);
    totex_sim_portable(sim, portable_pre);
    totex_sim_prefetch_ahead(sim, portable_pre ? 16 : 96); /* the state's prefetch near and far (a state over 32 MiB) */
    totex_status st = TOTEX_OK;
    for (uint64_t t = 0; t < totex_schedule_steps(s) && st == TOTEX_OK; t++) {
        size_t c = 0;
        const totex_hop *h = totex_schedule_step(s, t, &c);
        static const int order[6] = {1, 2, 1, 0, 2, 0}; /* from 0: every move between the three layouts */
        if (review && t % 5 == 4)
            totex_sim_set_layout(sim, order[t / 5 % 6]);
        if (!split) {
            st = totex_sim_step(sim, h, c, &err);
        } else {
            totex_sink a = totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_LINKS),
                       b = totex_sim_stage_sink(sim, TOTEX_SIM_STAGE_MESSAGES);
            totex_status s1 = a.step(a.ctx, h, c, NULL), s2 = b.step(b.ctx, h, c, NULL);
            if (s1 != TOTEX_OK || s2 != TOTEX_OK)
                st = totex_sim_stages_join(sim, &err);
        }
    }
    if (st == TOTEX_OK && split)
        st = totex_sim_stages_join(sim, &err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, rep, &err);
    const uint64_t at = st == TOTEX_OK ? UINT64_MAX : totex_sim_get_fault(sim).step;
    last_relayouts = totex_sim_relayouts(sim);
    totex_sim_free(sim);
    return at;
}

/* a random neighbour of @p v (v itself when it has none) */
static uint32_t some_neighbor(const totex_network *net, uint32_t v, unsigned *seed)
{
    uint32_t nb[64];
    const uint32_t deg = totex_network_degree(net, v);
    if (!deg || deg > 64)
        return v;
    totex_network_neighbors(net, v, nb);
    return nb[(uint32_t)lcg(seed) % deg];
}

/* a copy of @p s with one random change */
static totex_schedule *mutate(const totex_network *net, const totex_schedule *s, unsigned *seed)
{
    const uint32_t n = totex_network_nodes(net);
    const uint64_t steps = totex_schedule_steps(s);
    const uint64_t at = (uint64_t)lcg(seed) % steps, to_step = (uint64_t)lcg(seed) % steps;
    const int kind = lcg(seed) % 10;
    totex_schedule *out = totex_schedule_new();
    totex_hop moved_hop = {0, 0, 0, 0}, back_hop = {0, 0, 0, 0};
    uint64_t back_at = UINT64_MAX;
    int have_moved = 0;
    totex_error err = {{0}};
    assert_non_null(out);
    for (uint64_t t = 0; t < steps; t++) {
        size_t c = 0;
        const totex_hop *h = totex_schedule_step(s, t, &c);
        totex_hop *copy = malloc(sizeof *copy * (c + 3));
        assert_non_null(copy);
        memcpy(copy, h, sizeof *copy * c);
        if (t == at && c) {
            const size_t x = (size_t)lcg(seed) % c;
            switch (kind) {
            case 0: copy[x].from = (uint32_t)lcg(seed) % n; break;
            case 1: copy[x].to = (uint32_t)lcg(seed) % n; break;
            case 2: copy[x].src = (uint32_t)lcg(seed) % n; break;
            case 3: copy[x].dst = (uint32_t)lcg(seed) % n; break;
            case 4: copy[c++] = copy[x]; break;                  /* duplicated */
            case 5: moved_hop = copy[x]; have_moved = 1;         /* moved to another step */
                    copy[x] = copy[--c]; break;
            case 6: copy[x] = copy[--c]; break;                  /* dropped */
            case 7:                                              /* sent on from where it arrives, in the same step */
            case 8: {                                            /* sent from its tail to a second neighbour too */
                const uint32_t at_node = kind == 7 ? copy[x].to : copy[x].from;
                totex_hop again = copy[x];
                again.from = at_node;
                again.to = some_neighbor(net, at_node, seed);
                copy[c++] = again;
                break;
            }
            default: {                                           /* a delivered message sent away and back */
                const totex_hop d = copy[x];
                if (d.to == d.dst && t + 2 < steps) {
                    totex_hop away = {d.dst, some_neighbor(net, d.dst, seed), d.src, d.dst};
                    copy[c++] = away; /* in the same step: from where it arrives */
                    back_hop.from = away.to;
                    back_hop.to = d.dst;
                    back_hop.src = d.src;
                    back_hop.dst = d.dst;
                    back_at = t + 1;
                }
                break;
            }
            }
        }
        if (back_at == t && t != at) {
            copy[c++] = back_hop;
            back_at = UINT64_MAX;
        }
        if (have_moved && t == to_step && t != at) {
            copy[c++] = moved_hop;
            have_moved = 0;
        }
        assert_int_equal(totex_schedule_add_step(out, copy, c, &err), TOTEX_OK);
        free(copy);
    }
    return out;
}

static void agrees_with_reference(void **state)
{
    (void)state;
    unsigned seed = 12345;
    int rejected = 0, accepted = 0;
    uint32_t relayouts = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        totex_network *net = ts_net(cases[c].spec);
        totex_schedule *s = ts_record(net, cases[c].ports, cases[c].algo);
        ref_measure m;
        totex_sim_report rep;
        assert_true(reference(net, cases[c].ports, s, &m) == UINT64_MAX);
        free(m.at_peak);
        assert_true(simulate(net, cases[c].ports, s, 0, 0, &rep) == UINT64_MAX);
        assert_true(simulate(net, cases[c].ports, s, 0, 1, &rep) == UINT64_MAX);
        relayouts += last_relayouts;
        for (int trial = 0; trial < 120; trial++) {
            totex_schedule *bad = mutate(net, s, &seed);
            const uint64_t want = reference(net, cases[c].ports, bad, &m);
            const int review = trial % 2; /* every other trial with the layout moved as the replay goes */
            portable_pre = trial % 3 == 1; /* a third of the trials without AVX2 (the same where it is absent) */
            const uint64_t serial = simulate(net, cases[c].ports, bad, 0, review, &rep);
            if (want == UINT64_MAX && serial == UINT64_MAX) {
                /* the measures of an accepted schedule: the serial replay's (the split one stops at its join) */
                assert_int_equal(rep.peak_queue, m.peak);
                assert_true(rep.peak_queue_node < totex_network_nodes(net) && m.at_peak[rep.peak_queue_node]);
                assert_int_equal(rep.hops, m.hops);
                assert_int_equal(rep.steps, m.last);
                assert_int_equal(rep.messages, totex_network_messages(net));
                assert_true(rep.average_delay == (double)m.delay_sum / (double)rep.messages);
            }
            free(m.at_peak);
            const uint64_t split = simulate(net, cases[c].ports, bad, 1, review, &rep);
            if (serial != want || split != want)
                fail_msg("%s %s ports %u trial %d: reference %lld, serial %lld, split %lld", cases[c].spec,
                         cases[c].algo, (unsigned)cases[c].ports, trial, (long long)want, (long long)serial,
                         (long long)split);
            if (want == UINT64_MAX)
                accepted++;
            else
                rejected++;
            totex_schedule_free(bad);
        }
        totex_schedule_free(s);
        totex_network_free(net);
    }
    assert_true(rejected > 700); /* most mutations break a rule */
    assert_true(relayouts > 0);  /* A2's second phase (mesh:8x8 single-port) moves the state by source */
    (void)accepted;
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(agrees_with_reference)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
