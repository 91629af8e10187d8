/*
 * Total exchange on a linear array, single-port: load-aware greedy matching.
 *
 * Source:  no paper gives a single-port linear-array algorithm; the model is
 *          000 Section 3 (bound (3)) and the message choice is the
 *          furthest-first rule of 003 Section 3. The bound aimed at is the
 *          relay bound: node i (0-based) must send its own m-1 messages plus
 *          the 2*i*(m-1-i) messages it separates (sources on one side,
 *          destinations on the other), one per step, and must receive as many;
 *          so T >= max_i (m-1 + 2*i*(m-1-i)) = floor((m^2-1)/2), the maximum
 *          at the middle node(s): (m^2-1)/2 for odd m, m^2/2 - 1 for even m.
 * Model:   single-port: in each step a node sends at most one and receives at
 *          most one message. Every node keeps, per direction, its queued
 *          messages in furthest-first order (ties: travelled furthest). Each
 *          step picks a matching of directed hops i -> i+-1 (at most one send
 *          and one receive per node) of maximum total weight, where a hop's
 *          weight is the sender's remaining send load plus the receiver's
 *          remaining receive load (how many messages each must still send or
 *          receive). On a path the conflict graph of the hops splits into two
 *          chains (even senders with odd receivers, and the converse), so the
 *          maximum-weight matching is an O(m) dynamic program per step. Each
 *          chosen hop carries the sender's furthest-going message that way.
 * Steps:   measured: equal to the relay bound above for every m = 2..300
 *          tested (tests/test_factor_algos.c checks m = 2..64), i.e.
 *          floor((m^2-1)/2).
 * Optimal: whenever it meets the relay bound (all m tested); the schedule is
 *          never below it. The step count is not proved in general.
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "algorithms/path_queue.h"
#include "common/error.h"



typedef struct psg_state {
    uint32_t m;
    totex_pathq q;               /* queued messages, furthest first each way */
    uint64_t *send, *recv;  /* remaining send / receive load per node */
    uint64_t *best;         /* DP values, m + 1 entries */
    unsigned char *take;    /* DP choices, m entries */
    totex_hop *hops;        /* the step being built, m entries */
} psg_state;

/*
 * Chain @p start (0 or 1): link p (between nodes p and p+1), p = 0..m-2, is
 * the hop p -> p+1 when p % 2 == start (sender p, receiver p+1) and the hop
 * p+1 -> p otherwise. Two consecutive links of the chain share a sender or a
 * receiver, non-consecutive ones share nothing, and every sender and every
 * receiver lies on exactly one of the two chains.
 */
static int hop_available(const psg_state *S, uint32_t start, uint32_t p, uint64_t *w)
{
    if (p % 2 == start) {
        if (!S->q.right_n[p])
            return 0;
        *w = S->send[p] + S->recv[p + 1];
    } else {
        if (!S->q.left_n[p + 1])
            return 0;
        *w = S->send[p + 1] + S->recv[p];
    }
    return 1;
}

/* Maximum-weight matching on one chain; appends the chosen hops to S->hops. */
static size_t match_chain(psg_state *S, uint32_t start, size_t c)
{
    uint32_t n = S->m - 1; /* links */
    S->best[n] = S->best[n + 1] = 0; /* best has m + 1 = n + 2 entries */
    for (uint32_t k = n; k-- > 0;) {
        uint64_t skip = S->best[k + 1], w;
        uint64_t with = 0;
        int ok = hop_available(S, start, k, &w);
        if (ok)
            with = w + S->best[k + 2];
        S->take[k] = ok && with > skip;
        S->best[k] = S->take[k] ? with : skip;
    }
    for (uint32_t k = 0; k < n;) {
        if (!S->take[k]) {
            k++;
            continue;
        }
        uint32_t src = 0, dst = 0;
        if (k % 2 == start) {
            (void)totex_pathq_pop_right(&S->q, k, &src, &dst);
            S->hops[c++] = (totex_hop){k, k + 1, src, dst};
        } else {
            (void)totex_pathq_pop_left(&S->q, k + 1, &src, &dst);
            S->hops[c++] = (totex_hop){k + 1, k, src, dst};
        }
        k += 2;
    }
    return c;
}

totex_status totex_fa_path_single(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "single-port linear-array greedy needs a linear array path:M, got %s",
                          totex_factor_name(f));
    uint64_t total_hops = (uint64_t)m * ((uint64_t)m * m - 1) / 3;
    if (total_hops > TOTEX_FACTOR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "single-port linear-array schedule of %s would hold %llu hops (limit %llu); use a shorter array",
                          totex_factor_name(f), (unsigned long long)total_hops,
                          (unsigned long long)TOTEX_FACTOR_MAX_HOPS);

    psg_state S = {0};
    S.m = m;
    S.send = malloc(sizeof *S.send * m);
    S.recv = malloc(sizeof *S.recv * m);
    S.best = malloc(sizeof *S.best * ((size_t)m + 1));
    S.take = malloc(m);
    S.hops = malloc(sizeof *S.hops * m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1), steps = 0;

    if (totex_pathq_init(&S.q, m) || !S.send || !S.recv || !S.best || !S.take || !S.hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning single-port %s", totex_factor_name(f));
        goto done;
    }
    for (uint32_t a = 0; a < m; a++) {
        /* own m-1 messages plus the a*(m-1-a) crossing each way */
        S.send[a] = S.recv[a] = (uint64_t)(m - 1) + 2 * (uint64_t)a * (m - 1 - a);
        for (uint32_t b = 0; b < m; b++)
            if (b != a)
                totex_pathq_push(&S.q, a, a, b);
    }

    while (st == TOTEX_OK && remaining > 0) {
        size_t c = match_chain(&S, 0, 0);
        c = match_chain(&S, 1, c);
        /* every undelivered message is queued somewhere, and an available hop
         * has positive weight, so a step is never empty; the cap is a guard */
        if (c == 0 || ++steps > total_hops) {
            st = totex_fail(err, TOTEX_EINVAL, "single-port greedy on %s stalled with %llu messages undelivered (bug)",
                            totex_factor_name(f), (unsigned long long)remaining);
            break;
        }
        for (size_t i = 0; i < c; i++) {
            const totex_hop *h = &S.hops[i];
            S.send[h->from]--;
            S.recv[h->to]--;
            if (h->to == h->dst)
                remaining--;
            else
                totex_pathq_push(&S.q, h->to, h->src, h->dst);
        }
        st = totex_schedule_add_step(s, S.hops, c, err);
    }

done:
    totex_pathq_free(&S.q);
    free(S.send);
    free(S.recv);
    free(S.best);
    free(S.take);
    free(S.hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
