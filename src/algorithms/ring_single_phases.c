/*
 * Total exchange on a ring, single-port: a clockwise phase, then a
 * counterclockwise phase, each a node-invariant message-shift.
 *
 * Source:  003 Section 4.1, Definition 1 and Lemma 3 (a node-invariant
 *          algorithm keeps every queue a rotation of node 0's, so all nodes
 *          are busy until all are empty at once); the single-port bound is the
 *          average status, 000 Section 3 eq. (3) and 004 eq. (1), which for a
 *          ring is floor(m^2/4) (004 Section 3; 003 Section 4.1).
 * Model:   single-port: a node sends at most one and receives at most one
 *          message per step. Phase 1 carries every clockwise message: in each
 *          step every node sends the head of its FIFO queue to a+1 (factor
 *          neighbour rank 0) and receives from a-1. Phase 2 does the same
 *          counterclockwise (to a-1, rank 1). Queues start in furthest-first
 *          order. Messages take shortest paths; for even m every node sends
 *          its antipodal message clockwise, so the clockwise phase carries
 *          distances 1..m/2 and the counterclockwise one 1..m/2-1.
 * Steps:   phase 1 takes sum_{k=1}^{floor(m/2)} k steps, phase 2
 *          sum_{k=1}^{ceil(m/2)-1} k (one node's distances in that direction,
 *          all nodes busy); in total a node's status, floor(m^2/4).
 * Optimal: always (meets the average-status bound: every node sends in every
 *          step, and every hop is on a shortest path).
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"


typedef struct rsp_msg {
    uint32_t src, dst;
} rsp_msg;

/* One FIFO per node in a slab: node a's queue is slab[a*cap .. a*cap+cap). */
typedef struct rsp_queues {
    rsp_msg *slab;
    uint32_t *head, *len;
    uint32_t cap;
} rsp_queues;

static int fifo_push(rsp_queues *Q, uint32_t a, uint32_t src, uint32_t dst)
{
    if (Q->len[a] == Q->cap)
        return -1;
    Q->slab[(size_t)a * Q->cap + (Q->head[a] + Q->len[a]) % Q->cap] = (rsp_msg){src, dst};
    Q->len[a]++;
    return 0;
}

static rsp_msg fifo_pop(rsp_queues *Q, uint32_t a)
{
    rsp_msg x = Q->slab[(size_t)a * Q->cap + Q->head[a]];
    Q->head[a] = (Q->head[a] + 1) % Q->cap;
    Q->len[a]--;
    return x;
}

/*
 * One directional phase: every node starts with its messages for distances
 * far..1 in direction @p cw (1: clockwise), furthest at the head, and all
 * nodes shift until every queue is empty.
 */
static totex_status run_phase(const totex_factor *f, rsp_queues *Q, totex_hop *hops, totex_schedule *s,
                              int cw, uint32_t far, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    uint64_t remaining = (uint64_t)m * far;
    for (uint32_t a = 0; a < m; a++) {
        Q->head[a] = Q->len[a] = 0;
        for (uint32_t k = far; k >= 1; k--)
            (void)fifo_push(Q, a, a, cw ? (a + k) % m : (a + m - k) % m);
    }
    while (remaining > 0) {
        size_t c = 0;
        for (uint32_t a = 0; a < m; a++)
            if (Q->len[a]) {
                rsp_msg x = fifo_pop(Q, a);
                hops[c++] = (totex_hop){a, cw ? (a + 1) % m : (a + m - 1) % m, x.src, x.dst};
            }
        if (c == 0)
            return totex_fail(err, TOTEX_EINVAL, "ring two-phase on %s stalled with %llu messages undelivered (bug)",
                              totex_factor_name(f), (unsigned long long)remaining);
        for (size_t i = 0; i < c; i++) {
            if (hops[i].to == hops[i].dst)
                remaining--;
            else if (fifo_push(Q, hops[i].to, hops[i].src, hops[i].dst))
                return totex_fail(err, TOTEX_EINVAL, "ring two-phase on %s overflowed a queue (bug)",
                                  totex_factor_name(f));
        }
        totex_status st = totex_schedule_add_step(s, hops, c, err);
        if (st != TOTEX_OK)
            return st;
    }
    return TOTEX_OK;
}

totex_status totex_fa_ring_single_phases(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_RING || m < 3)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "single-port ring phases need a ring ring:M with M >= 3, got %s", totex_factor_name(f));
    uint64_t total_hops = (uint64_t)m * ((uint64_t)m * m / 4);
    if (total_hops > TOTEX_FACTOR_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "single-port ring schedule of %s would hold %llu hops (limit %llu); use a smaller ring",
                          totex_factor_name(f), (unsigned long long)total_hops,
                          (unsigned long long)TOTEX_FACTOR_MAX_HOPS);

    /* A non-empty queue never grows, so the initial length (<= m/2) bounds it. */
    rsp_queues Q = {0};
    Q.cap = m / 2 + 1;
    Q.slab = malloc(sizeof *Q.slab * (size_t)m * Q.cap);
    Q.head = calloc(m, sizeof *Q.head);
    Q.len = calloc(m, sizeof *Q.len);
    totex_hop *hops = malloc(sizeof *hops * (size_t)m);
    totex_schedule *s = totex_schedule_new();
    totex_status st;

    if (!Q.slab || !Q.head || !Q.len || !hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the single-port ring phases on %s",
                        totex_factor_name(f));
    } else {
        /* clockwise: distances 1..floor(m/2) (the antipode too when m is even) */
        st = run_phase(f, &Q, hops, s, 1, m / 2, err);
        /* counterclockwise: distances 1..ceil(m/2)-1 */
        if (st == TOTEX_OK)
            st = run_phase(f, &Q, hops, s, 0, (m - 1) / 2, err);
    }
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
