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
 * Each node keeps one binary max-heap per direction keyed by (remaining
 * distance, tie-break), so a step costs O(m log m) and the whole schedule
 * O(m^3 log m / 3) for its m(m^2-1)/3 hops.
 */
#include <stdlib.h>

#include "algorithms/factor_algos.h"
#include "common/error.h"

/* Largest schedule built in memory: 2^28 hops (4 GiB of 16-byte hops). */
#define PFF_MAX_HOPS (UINT64_C(1) << 28)

typedef struct pff_heap {
    uint64_t *key;
    uint32_t n, cap;
} pff_heap;

static int heap_push(pff_heap *h, uint64_t k)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? 2 * h->cap : 8;
        uint64_t *p = realloc(h->key, sizeof *p * cap);
        if (!p)
            return -1;
        h->key = p;
        h->cap = cap;
    }
    uint32_t i = h->n++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (h->key[parent] >= k)
            break;
        h->key[i] = h->key[parent];
        i = parent;
    }
    h->key[i] = k;
    return 0;
}

static uint64_t heap_pop(pff_heap *h)
{
    uint64_t top = h->key[0], last = h->key[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] > h->key[c])
            c++;
        if (h->key[c] <= last)
            break;
        h->key[i] = h->key[c];
        i = c;
    }
    if (h->n)
        h->key[i] = last;
    return top;
}

/* Rightward at any node: larger dst = further to go; ties: smaller src first. */
static uint64_t key_right(uint32_t src, uint32_t dst) { return (uint64_t)dst << 32 | (UINT32_MAX - src); }
/* Leftward: smaller dst = further to go; ties: larger src (travelled furthest) first. */
static uint64_t key_left(uint32_t src, uint32_t dst) { return (uint64_t)(UINT32_MAX - dst) << 32 | src; }

static void unkey_right(uint64_t k, uint32_t *src, uint32_t *dst)
{
    *dst = (uint32_t)(k >> 32);
    *src = UINT32_MAX - (uint32_t)k;
}

static void unkey_left(uint64_t k, uint32_t *src, uint32_t *dst)
{
    *dst = UINT32_MAX - (uint32_t)(k >> 32);
    *src = (uint32_t)k;
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

    pff_heap *right = calloc(m, sizeof *right), *left = calloc(m, sizeof *left);
    totex_hop *hops = malloc(sizeof *hops * 2 * (size_t)m);
    totex_schedule *s = totex_schedule_new();
    totex_status st = TOTEX_OK;
    uint64_t remaining = (uint64_t)m * (m - 1);

    if (!right || !left || !hops || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning furthest-first on %s", totex_factor_name(f));
        goto done;
    }
    for (uint32_t a = 0; a < m && st == TOTEX_OK; a++)
        for (uint32_t b = 0; b < m; b++) {
            int bad = 0;
            if (b > a)
                bad = heap_push(&right[a], key_right(a, b));
            else if (b < a)
                bad = heap_push(&left[a], key_left(a, b));
            if (bad) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning furthest-first on %s",
                                totex_factor_name(f));
                break;
            }
        }

    while (st == TOTEX_OK && remaining > 0) {
        size_t c = 0;
        /* every node picks, per direction, its furthest-going message ... */
        for (uint32_t a = 0; a < m; a++) {
            uint32_t src, dst;
            if (right[a].n) {
                unkey_right(heap_pop(&right[a]), &src, &dst);
                hops[c++] = (totex_hop){a, a + 1, src, dst};
            }
            if (left[a].n) {
                unkey_left(heap_pop(&left[a]), &src, &dst);
                hops[c++] = (totex_hop){a, a - 1, src, dst};
            }
        }
        if (c == 0) {
            st = totex_fail(err, TOTEX_EINVAL, "furthest-first on %s stalled with %llu messages undelivered (bug)",
                            totex_factor_name(f), (unsigned long long)remaining);
            break;
        }
        /* ... and all of them arrive at the end of the step (synchronous model). */
        for (size_t i = 0; i < c && st == TOTEX_OK; i++) {
            const totex_hop *h = &hops[i];
            int bad = 0;
            if (h->to == h->dst)
                remaining--;
            else if (h->to > h->from)
                bad = heap_push(&right[h->to], key_right(h->src, h->dst));
            else
                bad = heap_push(&left[h->to], key_left(h->src, h->dst));
            if (bad)
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning furthest-first on %s",
                                totex_factor_name(f));
        }
        if (st == TOTEX_OK)
            st = totex_schedule_add_step(s, hops, c, err);
    }

done:
    for (uint32_t a = 0; right && a < m; a++)
        free(right[a].key);
    for (uint32_t a = 0; left && a < m; a++)
        free(left[a].key);
    free(right);
    free(left);
    free(hops);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}
