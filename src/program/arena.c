/* Reuse of the arena's and the staging area's byte ranges (arena.h): a
 * first-fit allocator over the free ranges, each tagged with the step from
 * which it may be used and the requests to complete before it is written.
 * Under uniform use (arena.h) the free ranges are kept by their first unit
 * and the choice comes from a heap; otherwise from a scan of a sorted list. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

void totex_prog_arena_init(totex_prog_arena *a, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->cap = cap;
}

static void free_uniform(totex_prog_arena *a)
{
    free(a->at);
    free(a->heap);
    free(a->pend);
    a->at = NULL;
    a->heap = NULL;
    a->pend = NULL;
    a->nat = a->nheap = a->capheap = a->npend = a->cappend = a->live = 0;
}

void totex_prog_arena_free(totex_prog_arena *a)
{
    free(a->free);
    free_uniform(a);
    totex_prog_arena_init(a, a->cap);
}

static size_t max_z(size_t x, size_t y)
{
    return x > y ? x : y;
}

/* ---- mixed sizes: the sorted list of free ranges and its scan ---- */

/* remove free ranges [i, j) */
static void drop(totex_prog_arena *a, size_t i, size_t j)
{
    memmove(a->free + i, a->free + j, (a->nfree - j) * sizeof *a->free);
    a->nfree -= j - i;
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

/* take [lo, lo + bytes) from the run of usable ranges i, i + 1, ... that starts at lo
   (it covers them, or reaches the top); the prefixes of every range it touches */
static void take_run(totex_prog_arena *a, size_t i, size_t bytes, size_t *sends, size_t *recvs)
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
    if (end > a->top)
        a->top = end;
}

static void take_mixed(totex_prog_arena *a, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
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
        take_run(a, best, bytes, sends, recvs);
        return;
    }
    *off = a->top;
    a->top += bytes;
}

static int give_mixed(totex_prog_arena *a, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs)
{
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
        return 0;
    }
    if (to_right) {
        right->lo = r.lo;
        right->sends = max_z(right->sends, sends);
        right->recvs = max_z(right->recvs, recvs);
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
    return 0;
}

/* ---- uniform use (arena.h): free ranges by their first unit, the usable ones in a heap ---- */

/* sizes are mixed from now on: the free ranges into the sorted list (the scan decides); 0, or -1 out of memory */
static int go_mixed(totex_prog_arena *a)
{
    if (a->unit == SIZE_MAX)
        return 0;
    size_t n = 0;
    for (size_t u = 0; u < a->nat; u = a->at[u].end ? a->at[u].end : u + 1)
        n += a->at[u].end != 0;
    if (n > a->capfree) {
        totex_prog_free_range *q = realloc(a->free, n * sizeof *q);
        if (!q)
            return -1;
        a->free = q;
        a->capfree = n;
    }
    a->nfree = 0;
    for (size_t u = 0; u < a->nat; u = a->at[u].end ? a->at[u].end : u + 1)
        if (a->at[u].end) {
            const totex_prog_unit_range *r = &a->at[u];
            a->free[a->nfree++] = (totex_prog_free_range){a->base + u * a->unit, a->base + r->end * a->unit, r->avail,
                                                          r->sends, r->recvs};
        }
    free_uniform(a);
    a->unit = SIZE_MAX;
    return 0;
}

/* room for one more element of @p size bytes in array *p of n used and *cap allocated (doubled); 0, or -1 */
static int room(void **p, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return 0;
    const size_t c = *cap ? 2 * *cap : 64;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static uint64_t key_of(size_t sends, size_t u)
{
    return (uint64_t)sends << 32 | (uint64_t)u;
}

static void heap_up(uint64_t *h, size_t i)
{
    const uint64_t k = h[i];
    while (i > 0 && k < h[(i - 1) / 2]) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = k;
}

static void heap_down(uint64_t *h, size_t nh, size_t i)
{
    const uint64_t k = h[i];
    for (;;) {
        size_t m = 2 * i + 1;
        if (m >= nh)
            break;
        if (m + 1 < nh && h[m + 1] < h[m])
            m++;
        if (h[m] >= k)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = k;
}

/* heap key @p k still names a free range, of its prefix */
static int key_live(const totex_prog_arena *a, uint64_t k)
{
    const totex_prog_unit_range *r = &a->at[k & 0xffffffffu];
    return r->end && r->sends == (size_t)(k >> 32);
}

/* push the usable range at unit @p u; 0, or -1 out of memory */
static int heap_push(totex_prog_arena *a, size_t u)
{
    if (a->nheap > 2 * a->live + 64) { /* mostly stale: the live keys kept, the heap rebuilt */
        size_t m = 0;
        for (size_t i = 0; i < a->nheap; i++)
            if (key_live(a, a->heap[i]))
                a->heap[m++] = a->heap[i];
        a->nheap = m;
        for (size_t i = m / 2; i-- > 0;)
            heap_down(a->heap, a->nheap, i);
    }
    if (room((void **)&a->heap, a->nheap, &a->capheap, sizeof *a->heap))
        return -1;
    a->heap[a->nheap] = key_of(a->at[u].sends, u);
    heap_up(a->heap, a->nheap++);
    return 0;
}

/* the ranges freed for steps up to @p step into the heap (usable now); 0, or -1 out of memory */
static int flush_pending(totex_prog_arena *a, uint64_t step)
{
    size_t m = 0;
    for (size_t i = 0; i < a->npend; i++) {
        const uint32_t u = a->pend[i];
        if (!a->at[u].end)
            continue; /* gone (merged into its left neighbour, or taken: it was usable then) */
        if (a->at[u].avail > step)
            a->pend[m++] = u;
        else if (heap_push(a, u))
            return -1;
    }
    a->npend = m;
    return 0;
}

/* [off, off + bytes) given back under uniform use; 1: not on whole units (the caller goes mixed), 0, or -1 */
static int give_uniform(totex_prog_arena *a, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs)
{
    if (off < a->base || off + bytes > a->top || (off - a->base) % a->unit || bytes % a->unit || sends > UINT32_MAX ||
        (off - a->base) / a->unit >= UINT32_MAX - 1 || bytes / a->unit >= UINT32_MAX - 1 - (off - a->base) / a->unit)
        return 1;
    const size_t b = (off - a->base) / a->unit, e = b + bytes / a->unit;
    if (e >= a->nat) { /* room up to unit e (a right neighbour's first unit) */
        size_t c = a->nat ? 2 * a->nat : 64;
        while (c <= e)
            c *= 2;
        totex_prog_unit_range *q = realloc(a->at, c * sizeof *q);
        if (!q)
            return -1;
        memset(q + a->nat, 0, (c - a->nat) * sizeof *q);
        a->at = q;
        a->nat = c;
    }
    if (a->npend == a->cappend && a->npend > 2 * a->live + 64) { /* mostly gone: the live ones kept */
        size_t m = 0;
        for (size_t i = 0; i < a->npend; i++)
            if (a->at[a->pend[i]].end)
                a->pend[m++] = a->pend[i];
        a->npend = m;
    }
    if (room((void **)&a->pend, a->npend, &a->cappend, sizeof *a->pend))
        return -1;
    const uint64_t avail = step + 1;
    /* neighbours freed for the same step merge (their prefixes combined) */
    const size_t f = b > 0 ? a->at[b - 1].first : 0;
    totex_prog_unit_range *left = b > 0 && f < b && a->at[f].end == b ? &a->at[f] : NULL,
                          *right = a->at[e].end ? &a->at[e] : NULL;
    const int to_left = left && left->avail == avail, to_right = right && right->avail == avail;
    size_t u;
    if (to_left) {
        u = f;
        left->end = (uint32_t)e;
        left->sends = max_z(left->sends, sends);
        left->recvs = max_z(left->recvs, recvs);
        if (to_right) {
            left->end = right->end;
            left->sends = max_z(left->sends, right->sends);
            left->recvs = max_z(left->recvs, right->recvs);
            right->end = 0;
            a->live--;
        }
    } else if (to_right) {
        u = b;
        a->at[b] = (totex_prog_unit_range){avail, max_z(right->sends, sends), max_z(right->recvs, recvs), right->end, 0};
        right->end = 0;
    } else {
        u = b;
        a->at[b] = (totex_prog_unit_range){avail, sends, recvs, (uint32_t)e, 0};
        a->live++;
    }
    a->at[a->at[u].end - 1].first = (uint32_t)u;
    a->pend[a->npend++] = (uint32_t)u;
    return 0;
}

/* a take of one unit past the soft limit under uniform use; 0, or -1 out of memory */
static int take_uniform(totex_prog_arena *a, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
    while (a->nheap) {
        const uint64_t k = a->heap[0];
        const size_t u = (size_t)(k & 0xffffffffu);
        totex_prog_unit_range *r = &a->at[u];
        if (!key_live(a, k) || r->avail > step) { /* stale (or a later range at its unit, pending) */
            a->heap[0] = a->heap[--a->nheap];
            heap_down(a->heap, a->nheap, 0);
            continue;
        }
        *off = a->base + u * a->unit;
        *sends = r->sends;
        *recvs = r->recvs;
        if (r->end == u + 1) { /* taken whole */
            r->end = 0;
            a->live--;
            a->heap[0] = a->heap[--a->nheap];
        } else { /* its rest starts a unit on: a key just above, in the heap's top */
            a->at[u + 1] = *r;
            a->at[r->end - 1].first = (uint32_t)(u + 1);
            r->end = 0;
            a->heap[0] = k + 1;
        }
        heap_down(a->heap, a->nheap, 0);
        return 0;
    }
    *off = a->top; /* none usable: new bytes at the top */
    a->top += a->unit;
    return 0;
}

int totex_prog_arena_take(totex_prog_arena *a, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
    *off = *sends = *recvs = 0;
    if (!bytes)
        return 0;
    if (a->unit == 0) {
        a->unit = bytes;
        a->base = a->top;
        a->last_step = step;
    } else if (a->unit != SIZE_MAX && (bytes != a->unit || step < a->last_step) && go_mixed(a)) {
        return -1;
    }
    if (a->unit != SIZE_MAX) { /* (flushed at every take: the pending list stays short) */
        a->last_step = step;
        if (a->npend && flush_pending(a, step))
            return -1;
    }
    if (a->top + bytes <= a->cap) {
        *off = a->top;
        a->top += bytes;
        return 0;
    }
    if (a->unit != SIZE_MAX)
        return take_uniform(a, step, off, sends, recvs);
    take_mixed(a, bytes, step, off, sends, recvs);
    return 0;
}

int totex_prog_arena_give(totex_prog_arena *a, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs)
{
    if (!bytes)
        return 0;
    if (a->unit != 0 && a->unit != SIZE_MAX) {
        const int rc = give_uniform(a, off, bytes, step, sends, recvs);
        if (rc <= 0)
            return rc;
    }
    if (go_mixed(a))
        return -1;
    return give_mixed(a, off, bytes, step, sends, recvs);
}
