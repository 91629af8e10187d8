/*
 * Total exchange on a ring, multiport: message-shift (odd m) and the modified
 * message-shift (even m).
 *
 * Source:  003 Section 4.1, Lemma 3, Theorem 2 (odd m: every node-invariant
 *          algorithm is optimal; message-shift is FIFO at every node);
 *          003 Section 4.2, Theorem 3 (even m: even-numbered nodes send their
 *          antipodal message clockwise, odd-numbered nodes counterclockwise,
 *          queues initially in furthest-first order, then FIFO); lower bound
 *          003 eq. (2) (bisection of two links).
 * Model:   multiport: each node sends one message clockwise (to a+1, factor
 *          neighbour rank 0) and one counterclockwise (to a-1, rank 1) per
 *          step. Every message takes a shortest path, so the two directions
 *          never share a directed link and run independently. Each node keeps
 *          one FIFO queue per direction: at the start its own messages for that
 *          direction, the furthest first; a message received and not yet at
 *          its destination joins the tail.
 *          Odd m: every node sends (m-1)/2 messages each way.
 *          Even m: node a sends m/2 clockwise and m/2-1 counterclockwise when
 *          a is even, and the reverse when a is odd.
 * Steps:   ceil((m^2 - 1)/8) (003 Theorems 2 and 3).
 * Optimal: always (meets the bisection bound, 003 eq. (2)).
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"


typedef struct rms_msg {
    uint32_t src, dst;
} rms_msg;

/* A FIFO per (node, direction) in one slab: queue q holds slab[q*cap .. q*cap+cap). */
typedef struct rms_queues {
    rms_msg *slab;
    uint32_t *head, *len;
    uint32_t cap;
} rms_queues;

static int fifo_push(rms_queues *Q, size_t q, uint32_t src, uint32_t dst)
{
    if (Q->len[q] == Q->cap)
        return -1;
    Q->slab[q * Q->cap + (Q->head[q] + Q->len[q]) % Q->cap] = (rms_msg){src, dst};
    Q->len[q]++;
    return 0;
}

static rms_msg fifo_pop(rms_queues *Q, size_t q)
{
    rms_msg x = Q->slab[q * Q->cap + Q->head[q]];
    Q->head[q] = (Q->head[q] + 1) % Q->cap;
    Q->len[q]--;
    return x;
}

totex_status totex_fa_ring_message_shift(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_RING || m < 3)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "message-shift (003 Section 4) needs a ring ring:M with M >= 3, got %s",
                          totex_factor_name(f));
    uint64_t total_hops = (uint64_t)m * ((uint64_t)m * m / 4); /* m * status floor(m^2/4) */
    if (total_hops > TOTEX_FACTOR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "message-shift schedule of %s would hold %llu hops (limit %llu); use a smaller ring",
                          totex_factor_name(f), (unsigned long long)total_hops,
                          (unsigned long long)TOTEX_FACTOR_MAX_HOPS);

    /* A non-empty queue never grows (one leaves, at most one joins per step),
     * so the initial length, at most m/2, bounds every queue. */
    rms_queues Q = {0};
    Q.cap = m / 2 + 1;
    Q.slab = malloc(sizeof *Q.slab * 2 * (size_t)m * Q.cap);
    Q.head = calloc(2 * (size_t)m, sizeof *Q.head);
    Q.len = calloc(2 * (size_t)m, sizeof *Q.len);
    totex_hop *hops = malloc(sizeof *hops * 2 * (size_t)m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1);

    if (!Q.slab || !Q.head || !Q.len || !hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning message-shift on %s", totex_factor_name(f));
        goto done;
    }
    for (uint32_t a = 0; a < m; a++) {
        uint32_t cw = (m - 1) / 2, ccw = (m - 1) / 2;
        if (m % 2 == 0) {
            cw = a % 2 == 0 ? m / 2 : m / 2 - 1;
            ccw = m - 1 - cw;
        }
        /* furthest first: the head is the message with the most hops to go */
        for (uint32_t k = cw; k >= 1; k--)
            (void)fifo_push(&Q, 2 * (size_t)a, a, (a + k) % m);
        for (uint32_t k = ccw; k >= 1; k--)
            (void)fifo_push(&Q, 2 * (size_t)a + 1, a, (a + m - k) % m);
    }

    while (remaining > 0) {
        size_t c = 0;
        for (uint32_t a = 0; a < m; a++) {
            if (Q.len[2 * (size_t)a]) {
                rms_msg x = fifo_pop(&Q, 2 * (size_t)a);
                hops[c++] = (totex_hop){a, (a + 1) % m, x.src, x.dst};
            }
            if (Q.len[2 * (size_t)a + 1]) {
                rms_msg x = fifo_pop(&Q, 2 * (size_t)a + 1);
                hops[c++] = (totex_hop){a, (a + m - 1) % m, x.src, x.dst};
            }
        }
        if (c == 0) {
            st = totex_fail(err, TOTEX_EINVAL, "message-shift on %s stalled with %llu messages undelivered (bug)",
                            totex_factor_name(f), (unsigned long long)remaining);
            break;
        }
        for (size_t i = 0; i < c; i++) {
            const totex_hop *h = &hops[i];
            size_t dir = h->to == (h->from + 1) % m ? 0 : 1;
            if (h->to == h->dst) {
                remaining--;
            } else if (fifo_push(&Q, 2 * (size_t)h->to + dir, h->src, h->dst)) {
                st = totex_fail(err, TOTEX_EINVAL, "message-shift on %s overflowed a queue (bug)",
                                totex_factor_name(f));
                break;
            }
        }
        if (st != TOTEX_OK || (st = totex_schedule_add_step(s, hops, c, err)) != TOTEX_OK)
            break;
    }

done:
    free(Q.slab);
    free(Q.head);
    free(Q.len);
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
