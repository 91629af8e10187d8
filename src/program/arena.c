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

int totex_prog_arena_take(totex_prog_arena *a, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
    *off = *sends = *recvs = 0;
    if (!bytes)
        return 0;
    if (a->top + bytes <= a->cap) {
        *off = a->top;
        a->top += bytes;
        return 0;
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
        take_run(a, best, bytes, sends, recvs);
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
    const totex_prog_free_range r = {off, off + bytes, step + 1, sends, recvs};
    size_t lo = 0, hi = a->nfree; /* first range above off */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->free[mid].lo < off)
            lo = mid + 1;
        else
            hi = mid;
    }
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
