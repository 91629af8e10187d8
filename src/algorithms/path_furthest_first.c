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
#include "common/error.h"

/* Largest schedule built in memory: 2^28 hops (4 GiB of 16-byte hops). */
#define PFF_MAX_HOPS (UINT64_C(1) << 28)

/*
 * Queued messages of a linear array, per node in buckets by destination.
 * Message id = src*m + dst; bucket a*m + d is a doubly linked list of the
 * messages at node a for d, in the order they leave: by source ascending
 * when d > a (rightward: the smallest source has travelled furthest), by
 * source descending when d < a. right_far[a] is at least the largest
 * destination > a with a non-empty bucket, left_far[a] at most the smallest
 * one < a; both are tightened lazily when popping, so finding the furthest
 * message costs the gap it skips, and a push costs O(1) when messages of one
 * bucket arrive in leaving order (which furthest-first upstream ensures).
 */
typedef struct pff_pq {
    uint32_t m;
    uint32_t *next, *prev;          /* per message */
    uint32_t *head, *tail;          /* per bucket */
    uint32_t *right_far, *left_far; /* per node */
    uint32_t *right_n, *left_n;     /* per node: queued messages each way */
} pff_pq;

#define pff_NONE UINT32_MAX

static void pq_free(pff_pq *q)
{
    free(q->next);
    free(q->prev);
    free(q->head);
    free(q->tail);
    free(q->right_far);
    free(q->left_far);
    free(q->right_n);
    free(q->left_n);
}

static int pq_init(pff_pq *q, uint32_t m)
{
    size_t mm = (size_t)m * m;
    q->m = m;
    q->next = malloc(sizeof *q->next * mm);
    q->prev = malloc(sizeof *q->prev * mm);
    q->head = malloc(sizeof *q->head * mm);
    q->tail = malloc(sizeof *q->tail * mm);
    q->right_far = malloc(sizeof *q->right_far * m);
    q->left_far = malloc(sizeof *q->left_far * m);
    q->right_n = calloc(m, sizeof *q->right_n);
    q->left_n = calloc(m, sizeof *q->left_n);
    if (!q->next || !q->prev || !q->head || !q->tail || !q->right_far || !q->left_far || !q->right_n || !q->left_n)
        return -1;
    for (size_t b = 0; b < mm; b++)
        q->head[b] = q->tail[b] = pff_NONE;
    for (uint32_t a = 0; a < m; a++)
        q->right_far[a] = q->left_far[a] = a; /* nothing queued either way */
    return 0;
}

static void pq_push(pff_pq *q, uint32_t a, uint32_t src, uint32_t dst)
{
    uint32_t m = q->m, id = src * m + dst, p, n;
    size_t b = (size_t)a * m + dst;
    int right = dst > a;
    p = q->tail[b];
    while (p != pff_NONE && (right ? p / m > src : p / m < src))
        p = q->prev[p];
    n = p == pff_NONE ? q->head[b] : q->next[p];
    q->prev[id] = p;
    q->next[id] = n;
    if (p == pff_NONE)
        q->head[b] = id;
    else
        q->next[p] = id;
    if (n == pff_NONE)
        q->tail[b] = id;
    else
        q->prev[n] = id;
    if (right) {
        q->right_n[a]++;
        if (dst > q->right_far[a])
            q->right_far[a] = dst;
    } else {
        q->left_n[a]++;
        if (dst < q->left_far[a])
            q->left_far[a] = dst;
    }
}

/* Dequeue the head of bucket (a, d); returns its source. */
static uint32_t pq_take(pff_pq *q, uint32_t a, uint32_t d)
{
    size_t b = (size_t)a * q->m + d;
    uint32_t id = q->head[b];
    q->head[b] = q->next[id];
    if (q->head[b] == pff_NONE)
        q->tail[b] = pff_NONE;
    else
        q->prev[q->head[b]] = pff_NONE;
    return id / q->m;
}

/* Node a's furthest-going rightward message (0 when it has none). */
static int pq_pop_right(pff_pq *q, uint32_t a, uint32_t *src, uint32_t *dst)
{
    if (!q->right_n[a])
        return 0;
    uint32_t d = q->right_far[a];
    while (q->head[(size_t)a * q->m + d] == pff_NONE)
        d--;
    q->right_far[a] = d;
    q->right_n[a]--;
    *dst = d;
    *src = pq_take(q, a, d);
    return 1;
}

/* Node a's furthest-going leftward message (0 when it has none). */
static int pq_pop_left(pff_pq *q, uint32_t a, uint32_t *src, uint32_t *dst)
{
    if (!q->left_n[a])
        return 0;
    uint32_t d = q->left_far[a];
    while (q->head[(size_t)a * q->m + d] == pff_NONE)
        d++;
    q->left_far[a] = d;
    q->left_n[a]--;
    *dst = d;
    *src = pq_take(q, a, d);
    return 1;
}

totex_status totex_fa_path_furthest_first(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    uint32_t m = totex_factor_nodes(f);
    if (totex_factor_get_kind(f) != TOTEX_FACTOR_PATH)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "furthest-first (003 Section 3) needs a linear array path:M, got %s",
                          totex_factor_name(f));
    uint64_t total_hops = (uint64_t)m * ((uint64_t)m * m - 1) / 3; /* sum over ordered pairs of |a-b| */
    if (total_hops > PFF_MAX_HOPS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "furthest-first schedule of %s would hold %llu hops (limit %llu); use a shorter array",
                          totex_factor_name(f), (unsigned long long)total_hops,
                          (unsigned long long)PFF_MAX_HOPS);

    pff_pq q = {0};
    totex_hop *hops = malloc(sizeof *hops * 2 * (size_t)m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1);

    if (pq_init(&q, m) || !hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning furthest-first on %s", totex_factor_name(f));
        goto done;
    }
    for (uint32_t a = 0; a < m; a++)
        for (uint32_t b = 0; b < m; b++)
            if (b != a)
                pq_push(&q, a, a, b);

    while (remaining > 0) {
        size_t c = 0;
        /* every node picks, per direction, its furthest-going message ... */
        for (uint32_t a = 0; a < m; a++) {
            uint32_t src, dst;
            if (pq_pop_right(&q, a, &src, &dst))
                hops[c++] = (totex_hop){a, a + 1, src, dst};
            if (pq_pop_left(&q, a, &src, &dst))
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
                pq_push(&q, hops[i].to, hops[i].src, hops[i].dst);
        }
        if ((st = totex_schedule_add_step(s, hops, c, err)) != TOTEX_OK)
            break;
    }

done:
    pq_free(&q);
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
