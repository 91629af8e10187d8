/*
 * The byte-weighted simulator. Replays a weighted schedule
 * (totex/wschedule.h) for a demand W and trusts nothing:
 *  - every path follows directed links of the network;
 *  - a transfer takes only bytes its first node holds at the start of the
 *    step (bytes that arrive in a step move on in a later step);
 *  - bytes that reached their destination are never forwarded;
 *  - at the end every byte of W has arrived at its destination exactly once
 *    and none rests at a relay.
 * Cost model: a step costs t_s + (the most bytes one directed link carries
 * in it) / B; the schedule costs the sum over its steps.
 * State: bytes taken from each source and delivered at each destination
 * (two n x n arrays), bytes resting at relays in a hash table (pair, node).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/wschedule.h"

typedef struct relay_table {
    uint64_t *key; /* pair * n + node + 1; 0 empty */
    uint64_t *val;
    uint64_t cap, used;
} relay_table;

static uint64_t *relay_slot(relay_table *t, uint64_t key, int insert)
{
    if (insert && 2 * (t->used + 1) > t->cap) {
        uint64_t nc = t->cap ? 2 * t->cap : 1024;
        uint64_t *nk = calloc((size_t)nc, sizeof *nk), *nv = calloc((size_t)nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return NULL;
        }
        for (uint64_t i = 0; i < t->cap; i++)
            if (t->key[i]) {
                uint64_t h = (t->key[i] * UINT64_C(0x9e3779b97f4a7c15)) & (nc - 1);
                while (nk[h])
                    h = (h + 1) & (nc - 1);
                nk[h] = t->key[i];
                nv[h] = t->val[i];
            }
        free(t->key);
        free(t->val);
        t->key = nk;
        t->val = nv;
        t->cap = nc;
    }
    if (!t->cap)
        return NULL;
    uint64_t h = (key * UINT64_C(0x9e3779b97f4a7c15)) & (t->cap - 1);
    while (t->key[h] && t->key[h] != key)
        h = (h + 1) & (t->cap - 1);
    if (!t->key[h]) {
        if (!insert)
            return NULL;
        t->key[h] = key;
        t->val[h] = 0;
        t->used++;
    }
    return &t->val[h];
}

totex_status totex_wsim_run(const totex_network *net, const totex_demand *d, const totex_wschedule *s, double bandwidth,
                            double ts, uint64_t *per_link, totex_wsim_result *res, totex_error *err)
{
    if (!net || !d || !s || !res || !(bandwidth > 0) || !(ts >= 0))
        return totex_fail(err, TOTEX_EINVAL, "the byte-weighted simulator needs a network, a demand, a schedule, B > 0 and t_s >= 0");
    uint32_t n = totex_network_nodes(net);
    if (d->n != n)
        return totex_fail(err, TOTEX_EINVAL, "the demand has %" PRIu32 " nodes, the network %" PRIu32, d->n, n);
    memset(res, 0, sizeof *res);
    totex_wlinks L;
    totex_status st = totex_wlinks_build(net, &L, err);
    if (st != TOTEX_OK)
        return st;
    size_t nn = (size_t)n * n;
    uint64_t *taken = calloc(nn, sizeof *taken), *delivered = calloc(nn, sizeof *delivered);
    uint64_t *load = calloc((size_t)(L.arcs ? L.arcs : 1), sizeof *load);
    uint64_t *total = calloc((size_t)(L.arcs ? L.arcs : 1), sizeof *total);
    relay_table rt = {0};
    const uint32_t *nodes = totex_wschedule_nodes(s);
    if (!taken || !delivered || !load || !total) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory simulating a demand on %" PRIu32 " nodes", n);
        goto done;
    }
    for (uint64_t k = 0; k < totex_wschedule_steps(s); k++) {
        size_t count;
        const totex_wtransfer *t = totex_wschedule_transfers(s, k, &count);
        /* pass 1: paths, links' loads, bytes taken from their holders */
        for (size_t q = 0; q < count; q++) {
            const totex_wtransfer *x = &t[q];
            const uint32_t *p = nodes + x->first;
            if (x->src >= n || x->dst >= n || x->src == x->dst || !x->hops || !x->bytes) {
                st = totex_fail(err, TOTEX_EVIOLATION, "step %" PRIu64 ", transfer %zu: bad pair %" PRIu32 " -> %" PRIu32
                                " or empty path/bytes", k, q, x->src, x->dst);
                goto done;
            }
            for (uint32_t h = 0; h < x->hops; h++) {
                uint64_t a = totex_wlinks_find(&L, p[h], p[h + 1]);
                if (a == UINT64_MAX) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "step %" PRIu64 ", transfer %zu (pair %" PRIu32 " -> %" PRIu32
                                    "): %" PRIu32 " -> %" PRIu32 " is not a link", k, q, x->src, x->dst, p[h], p[h + 1]);
                    goto done;
                }
                load[a] += x->bytes;
            }
            size_t pair = (size_t)x->src * n + x->dst;
            uint32_t from = p[0];
            if (from == x->dst) {
                st = totex_fail(err, TOTEX_EVIOLATION, "step %" PRIu64 ", transfer %zu: bytes of %" PRIu32 " -> %" PRIu32
                                " forwarded from their destination", k, q, x->src, x->dst);
                goto done;
            }
            if (from == x->src) {
                if (d->w[pair] - taken[pair] < x->bytes) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "step %" PRIu64 ", transfer %zu: source %" PRIu32 " sends %" PRIu64
                                    " more bytes to %" PRIu32 " than W holds (%" PRIu64 " left)", k, q, x->src, x->bytes,
                                    x->dst, d->w[pair] - taken[pair]);
                    goto done;
                }
                taken[pair] += x->bytes;
            } else {
                uint64_t *h = relay_slot(&rt, (uint64_t)pair * n + from + 1, 0);
                if (!h || *h < x->bytes) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "step %" PRIu64 ", transfer %zu: relay %" PRIu32 " forwards %" PRIu64
                                    " bytes of %" PRIu32 " -> %" PRIu32 " but holds %" PRIu64 " at the start of the step",
                                    k, q, from, x->bytes, x->src, x->dst, h ? *h : 0);
                    goto done;
                }
                *h -= x->bytes;
            }
        }
        /* pass 2: arrivals (usable from the next step on) */
        for (size_t q = 0; q < count; q++) {
            const totex_wtransfer *x = &t[q];
            size_t pair = (size_t)x->src * n + x->dst;
            uint32_t to = nodes[x->first + x->hops];
            if (to == x->dst) {
                delivered[pair] += x->bytes;
            } else {
                uint64_t *h = relay_slot(&rt, (uint64_t)pair * n + to + 1, 1);
                if (!h) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory recording bytes at relays");
                    goto done;
                }
                *h += x->bytes;
            }
            res->transfers++;
        }
        uint64_t mx = 0;
        for (size_t q = 0; q < count; q++) {
            const uint32_t *p = nodes + t[q].first;
            for (uint32_t h = 0; h < t[q].hops; h++) {
                uint64_t a = totex_wlinks_find(&L, p[h], p[h + 1]);
                if (load[a] > mx)
                    mx = load[a];
                total[a] += load[a];
                load[a] = 0; /* counted once: later hops of the same link see 0 */
            }
        }
        res->steps++;
        res->step_bytes += mx;
        res->seconds += ts + (double)mx / bandwidth;
    }
    for (size_t pair = 0; pair < nn; pair++) {
        if (pair / n == pair % n)
            continue;
        if (delivered[pair] != d->w[pair]) {
            st = totex_fail(err, TOTEX_EVIOLATION, "after the last step %" PRIu64 " of %" PRIu64 " bytes of %zu -> %zu "
                            "have arrived", delivered[pair], d->w[pair], pair / n, pair % n);
            goto done;
        }
    }
    for (uint64_t i = 0; i < rt.cap; i++)
        if (rt.key[i] && rt.val[i]) {
            st = totex_fail(err, TOTEX_EVIOLATION, "after the last step %" PRIu64 " bytes rest at relay %" PRIu64, rt.val[i],
                            (rt.key[i] - 1) % n);
            goto done;
        }
    for (uint64_t a = 0; a < L.arcs; a++) {
        if (total[a] > res->max_link)
            res->max_link = total[a];
        res->link_bytes += total[a];
        if (per_link)
            per_link[a] = total[a];
    }
done:
    free(taken);
    free(delivered);
    free(load);
    free(total);
    free(rt.key);
    free(rt.val);
    totex_wlinks_free(&L);
    return st;
}
