/*
 * Total exchange on a linear array, multiport: furthest-first scheduling.
 *
 * Source:  003 Section 3 (the algorithm), Lemma 1 eqs. (3)-(5), Lemma 2
 *          (phase j ends at T_j = j*m - j^2), Theorem 1 (termination at
 *          T_opt(LA)); lower bound 003 eq. (1) (bisection of one link).
 * Model:   multiport: every node uses both its links in both directions in
 *          the same step. Rightward and leftward messages use opposite
 *          directed links and never interfere, so each node schedules its two
 *          directions independently: in every step node i sends, to each side,
 *          the queued message with the largest remaining distance. Ties (same
 *          destination) go to the message that has already travelled furthest,
 *          as in the proof of Lemma 1: the smallest source for rightward
 *          messages and, mirror-symmetrically, the largest source for leftward
 *          ones (003 notes that ties do not change the running time).
 * Steps:   ceil((m^2 - 1)/4) (003 Theorem 1).
 * Optimal: always (meets the bisection bound, 003 eq. (1)).
 *
 * Each node keeps its messages in buckets by destination (below), so a step
 * costs O(m) plus the buckets skipped, and the schedule's m(m^2-1)/3 hops are
 * produced in about as many operations.
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "algorithms/path_queue.h"
#include "common/error.h"



totex_status totex_fa_path_furthest_first(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "furthest-first (003 Section 3) needs a linear array path:M, got %s",
                          totex_factor_name(f));
    uint64_t total_hops = (uint64_t)m * ((uint64_t)m * m - 1) / 3; /* sum over ordered pairs of |a-b| */
    if (total_hops > TOTEX_FACTOR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "furthest-first schedule of %s would hold %llu hops (limit %llu); use a shorter array",
                          totex_factor_name(f), (unsigned long long)total_hops,
                          (unsigned long long)TOTEX_FACTOR_MAX_HOPS);

    totex_pathq q = {0};
    totex_hop *hops = malloc(sizeof *hops * 2 * (size_t)m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1);

    if (totex_pathq_init(&q, m) || !hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning furthest-first on %s", totex_factor_name(f));
        goto done;
    }
    for (uint32_t a = 0; a < m; a++)
        for (uint32_t b = 0; b < m; b++)
            if (b != a)
                totex_pathq_push(&q, a, a, b);

    while (remaining > 0) {
        size_t c = 0;
        /* every node picks, per direction, its furthest-going message ... */
        for (uint32_t a = 0; a < m; a++) {
            uint32_t src, dst;
            if (totex_pathq_pop_right(&q, a, &src, &dst))
                hops[c++] = (totex_hop){a, a + 1, src, dst};
            if (totex_pathq_pop_left(&q, a, &src, &dst))
                hops[c++] = (totex_hop){a, a - 1, src, dst};
        }
        if (c == 0) {
            st = totex_fail(err, TOTEX_EINVAL, "furthest-first on %s stalled with %llu messages undelivered (bug)",
                            totex_factor_name(f), (unsigned long long)remaining);
            break;
        }
        /* ... and all of them arrive at the end of the step (synchronous model) */
        for (size_t i = 0; i < c; i++) {
            if (hops[i].to == hops[i].dst)
                remaining--;
            else
                totex_pathq_push(&q, hops[i].to, hops[i].src, hops[i].dst);
        }
        if ((st = totex_schedule_add_step(s, hops, c, err)) != TOTEX_OK)
            break;
    }

done:
    totex_pathq_free(&q);
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
