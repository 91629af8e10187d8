/* Reuse of the arena's and the staging area's byte ranges (arena.h): a
 * first-fit allocator over the free ranges, each tagged with the step from
 * which it may be used and the requests to complete before it is written. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

void totex_prog_arena_init(totex_prog_arena *a, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->cap = cap;
}

void totex_prog_arena_free(totex_prog_arena *a)
{
    free(a->free);
    free(a->heap);
    totex_prog_arena_init(a, a->cap);
}

static size_t max_z(size_t x, size_t y)
{
    return x > y ? x : y;
}

/* remove free ranges [i, j) */
static void drop(totex_prog_arena *a, size_t i, size_t j)
{
    memmove(a->free + i, a->free + j, (a->nfree - j) * sizeof *a->free);
    a->nfree -= j - i;
}

/* ---- the heap of uniform use (arena.h) ---- */

static int heap_less(const totex_prog_heap_entry *x, const totex_prog_heap_entry *y)
{
    return x->sends < y->sends || (x->sends == y->sends && x->lo < y->lo);
}

/* stop using the heap: sizes are mixed from now on (the scan decides) */
static void go_mixed(totex_prog_arena *a)
{
    a->unit = SIZE_MAX;
    free(a->heap);
    a->heap = NULL;
    a->nheap = a->capheap = 0;
}

static void heap_up(totex_prog_heap_entry *h, size_t i)
{
    while (i > 0 && heap_less(&h[i], &h[(i - 1) / 2])) {
        const totex_prog_heap_entry t = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void heap_down(totex_prog_heap_entry *h, size_t nh, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < nh && heap_less(&h[l], &h[m]))
            m = l;
        if (r < nh && heap_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        const totex_prog_heap_entry t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static totex_prog_heap_entry entry_of(const totex_prog_free_range *r)
{
    return (totex_prog_heap_entry){r->sends, r->lo, r->hi, r->avail, r->recvs};
}

/* push range @p r (uniform use only); out of memory: the scan decides from now on */
static void heap_push(totex_prog_arena *a, const totex_prog_free_range *r)
{
    if (a->unit == 0 || a->unit == SIZE_MAX)
        return;
    if (a->nheap > 2 * a->nfree + 64) { /* mostly stale: rebuilt from the free ranges */
        a->nheap = 0;
        for (size_t i = 0; i < a->nfree; i++) {
            a->heap[a->nheap] = entry_of(&a->free[i]);
            heap_up(a->heap, a->nheap++);
        }
    }
    if (a->nheap == a->capheap) {
        const size_t c = a->capheap ? 2 * a->capheap : 64;
        totex_prog_heap_entry *q = realloc(a->heap, c * sizeof *q);
        if (!q) {
            go_mixed(a);
            return;
        }
        a->heap = q;
        a->capheap = c;
    }
    a->heap[a->nheap] = entry_of(r);
    heap_up(a->heap, a->nheap++);
}

static void heap_pop(totex_prog_arena *a)
{
    a->heap[0] = a->heap[--a->nheap];
    heap_down(a->heap, a->nheap, 0);
}

/* index of the first free range that starts at @p lo or above (nfree: none) */
static size_t first_at(const totex_prog_arena *a, size_t lo)
{
    size_t l = 0, h = a->nfree;
    while (l < h) {
        size_t mid = l + (h - l) / 2;
        if (a->free[mid].lo < lo)
            l = mid + 1;
        else
            h = mid;
    }
    return l;
}

/* index of the free range that starts at @p lo, or SIZE_MAX */
static size_t find_lo(const totex_prog_arena *a, size_t lo)
{
    const size_t l = first_at(a, lo);
    return l < a->nfree && a->free[l].lo == lo ? l : SIZE_MAX;
}

/* the usable range of smallest (sends, lo) by the heap (every free range fits alone), or SIZE_MAX */
static size_t heap_best(totex_prog_arena *a, uint64_t step, int *at_top)
{
    totex_prog_heap_entry later[16]; /* ranges freed in this step (not usable yet), pushed back */
    size_t nlater = 0, best = SIZE_MAX;
    while (a->nheap) {
        const totex_prog_heap_entry e = a->heap[0];
        const size_t i = find_lo(a, e.lo);
        const totex_prog_free_range *r = i == SIZE_MAX ? NULL : &a->free[i];
        if (!r || r->hi != e.hi || r->sends != e.sends || r->recvs != e.recvs || r->avail != e.avail) {
            heap_pop(a); /* stale */
            continue;
        }
        if (e.avail <= step) {
            best = i;
            if (nlater) /* the ranges put back below may go above it: out of the heap (its rest is pushed) */
                heap_pop(a);
            break;
        }
        if (nlater == sizeof later / sizeof later[0])
            break; /* too many not yet usable: the caller scans */
        later[nlater++] = e;
        heap_pop(a);
    }
    const int full = nlater == sizeof later / sizeof later[0] && best == SIZE_MAX && a->nheap;
    *at_top = best != SIZE_MAX && !nlater;
    for (size_t k = 0; k < nlater; k++) { /* capacity: they were in the heap */
        a->heap[a->nheap] = later[k];
        heap_up(a->heap, a->nheap++);
    }
    return full ? SIZE_MAX - 1 : best;
}

/* take [lo, lo + bytes) from the run of usable ranges i, i + 1, ... that starts at lo
   (it covers them, or reaches the top); the prefixes of every range it touches */
static void take_run(totex_prog_arena *a, size_t i, size_t bytes, size_t *sends, size_t *recvs, int at_top)
{
    const size_t lo = a->free[i].lo, end = lo + bytes;
    size_t j = i;
    *sends = *recvs = 0;
    while (j < a->nfree && a->free[j].lo < end) {
        *sends = max_z(*sends, a->free[j].sends);
        *recvs = max_z(*recvs, a->free[j].recvs);
        if (a->free[j].hi > end) {
            a->free[j].lo = end;
            break;
        }
        j++;
    }
    drop(a, i, j);
    const int rest = i < a->nfree && a->free[i].lo == end;
    if (at_top && a->unit != SIZE_MAX) { /* the heap's top was range i: now its rest, or gone */
        if (rest) {
            a->heap[0] = entry_of(&a->free[i]);
            heap_down(a->heap, a->nheap, 0);
        } else {
            heap_pop(a);
        }
    } else if (rest) {
        heap_push(a, &a->free[i]);
    }
    if (end > a->top)
        a->top = end;
}

int totex_prog_arena_take(totex_prog_arena *a, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
    *off = *sends = *recvs = 0;
    if (!bytes)
        return 0;
    if (a->unit == 0)
        a->unit = bytes;
    else if (a->unit != SIZE_MAX && bytes != a->unit)
        go_mixed(a);
    if (a->top + bytes <= a->cap) {
        *off = a->top;
        a->top += bytes;
        return 0;
    }
    if (a->unit != SIZE_MAX) { /* uniform: the scan's choice without the scan */
        int at_top = 0;
        const size_t i = heap_best(a, step, &at_top);
        if (i == SIZE_MAX) { /* nothing usable fits (none is usable): new bytes at the top */
            *off = a->top;
            a->top += bytes;
            return 0;
        }
        if (i != SIZE_MAX - 1) {
            *off = a->free[i].lo;
            take_run(a, i, bytes, sends, recvs, at_top);
            return 0;
        }
    }
    /* among the runs of adjacent usable ranges that fit, the one freed earliest (its waits are
       for the oldest requests, most likely complete already; ties: lowest address); else a
       usable run that ends at the top, grown */
    size_t best = SIZE_MAX, best_wait = SIZE_MAX, at_top = SIZE_MAX;
    for (size_t i = 0; i < a->nfree; i++) {
        if (a->free[i].avail > step)
            continue;
        size_t j = i, hi = a->free[i].hi, wait = a->free[i].sends;
        while (hi - a->free[i].lo < bytes && j + 1 < a->nfree && a->free[j + 1].lo == hi &&
               a->free[j + 1].avail <= step) {
            hi = a->free[++j].hi;
            wait = max_z(wait, a->free[j].sends);
        }
        if (hi - a->free[i].lo >= bytes) {
            if (wait < best_wait) {
                best = i;
                best_wait = wait;
            }
        } else if (hi == a->top && at_top == SIZE_MAX) {
            at_top = i;
        }
    }
    if (best == SIZE_MAX)
        best = at_top;
    if (best != SIZE_MAX) {
        *off = a->free[best].lo;
        take_run(a, best, bytes, sends, recvs, 0);
        return 0;
    }
    *off = a->top;
    a->top += bytes;
    return 0;
}

int totex_prog_arena_give(totex_prog_arena *a, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs)
{
    if (!bytes)
        return 0;
    if (a->unit == 0 || (a->unit != SIZE_MAX && bytes % a->unit))
        go_mixed(a);
    const totex_prog_free_range r = {off, off + bytes, step + 1, sends, recvs};
    const size_t lo = first_at(a, off); /* first range above off */
    /* neighbours freed for the same step merge (their prefixes combined) */
    totex_prog_free_range *left = lo > 0 ? &a->free[lo - 1] : NULL, *right = lo < a->nfree ? &a->free[lo] : NULL;
    int to_left = left && left->hi == r.lo && left->avail == r.avail,
        to_right = right && right->lo == r.hi && right->avail == r.avail;
    if (to_left) {
        left->hi = r.hi;
        left->sends = max_z(left->sends, sends);
        left->recvs = max_z(left->recvs, recvs);
        if (to_right) {
            left->hi = right->hi;
            left->sends = max_z(left->sends, right->sends);
            left->recvs = max_z(left->recvs, right->recvs);
            drop(a, lo, lo + 1);
        }
        heap_push(a, left);
        return 0;
    }
    if (to_right) {
        right->lo = r.lo;
        right->sends = max_z(right->sends, sends);
        right->recvs = max_z(right->recvs, recvs);
        heap_push(a, right);
        return 0;
    }
    if (a->nfree == a->capfree) {
        size_t c = a->capfree ? 2 * a->capfree : 16;
        totex_prog_free_range *q = realloc(a->free, c * sizeof *q);
        if (!q)
            return -1;
        a->free = q;
        a->capfree = c;
    }
    memmove(a->free + lo + 1, a->free + lo, (a->nfree - lo) * sizeof *a->free);
    a->free[lo] = r;
    a->nfree++;
    heap_push(a, &a->free[lo]);
    return 0;
}
