/* The compiler's two bookkeeping structures under long random use, against
 * plain models written here (not the library's code):
 *  - the block map (blockmap.h): puts, gets and deletions (backward shift)
 *    against a direct-indexed array of every key, keys crowded into few home
 *    slots as well as spread;
 *  - the arena (arena.h) under uniform use (every take one unit, every give a
 *    whole number of units), where it keeps its free ranges by unit and finds
 *    its choice by a heap, and after it turns to mixed sizes or a step goes
 *    back (its free ranges converted to the sorted list it scans): each take
 *    against the policy arena.h states, evaluated on a list of free ranges
 *    kept here: past the soft limit, among the runs of ranges usable in this
 *    step (freed in an earlier one) that fit, the one freed earliest
 *    (smallest sends prefix, then lowest address), with its prefixes; new
 *    bytes at the top when none is usable. Neighbours freed for the same step
 *    merge (their prefixes combined), as arena.h says. Runs without mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockmap.h"
#include "program_support.h"

static int failures;

#define FAIL PROG_FAIL

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    return prog_test_next(&rng);
}

static void blockmap(uint64_t universe, int rounds)
{
    totex_prog_blockmap m = {0};
    size_t *ref = malloc(universe * sizeof *ref); /* SIZE_MAX: absent */
    for (uint64_t k = 0; k < universe; k++)
        ref[k] = SIZE_MAX;
    size_t present = 0;
    for (int i = 0; i < rounds; i++) {
        const uint64_t k = next() % universe, op = next() % 3;
        if (op == 0 || (op == 1 && present < universe / 4)) {
            const size_t v = (size_t)(next() % 1000000);
            if (totex_prog_blockmap_put(&m, k, v)) {
                FAIL("blockmap: out of memory\n");
                break;
            }
            present += ref[k] == SIZE_MAX;
            ref[k] = v;
        } else {
            totex_prog_blockmap_del(&m, k);
            present -= ref[k] != SIZE_MAX;
            ref[k] = SIZE_MAX;
        }
        if (m.used != present)
            FAIL("blockmap (universe %llu) round %d: %zu keys held, %zu expected\n", (unsigned long long)universe, i,
                 m.used, present);
        if (i % 97 == 0 || i + 1 == rounds)
            for (uint64_t q = 0; q < universe; q++) {
                size_t v = 0;
                const int got = totex_prog_blockmap_get(&m, q, &v);
                if (got != (ref[q] != SIZE_MAX) || (got && v != ref[q]))
                    FAIL("blockmap (universe %llu) round %d: key %llu gives %d/%zu, expected %zu\n",
                         (unsigned long long)universe, i, (unsigned long long)q, got, v, ref[q]);
            }
    }
    /* a map whose keys come and go stays as large as what it holds at once */
    if (m.cap > 8 * (universe / 4 + 64))
        FAIL("blockmap (universe %llu): %zu slots for at most about %llu keys at once\n", (unsigned long long)universe,
             m.cap, (unsigned long long)(universe / 4 + 64));
    totex_prog_blockmap_clear(&m);
    free(ref);
}

/* the model: free ranges [lo, hi) by increasing lo */
typedef struct mrange {
    size_t lo, hi;
    uint64_t avail;
    size_t sends, recvs;
} mrange;

typedef struct model {
    mrange r[4096];
    size_t nr, top, cap;
} model;

static size_t maxz(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* the take's policy (arena.h, arena.c): below the soft limit new bytes at the top; past it, among the runs of
   adjacent ranges usable in this step that fit, the one freed earliest (smallest sends prefix of its ranges,
   then lowest address), with the largest prefixes of the ranges it touches; else a usable run that ends at
   the top, grown; else new bytes at the top. With every take one unit and every give whole units, a run is
   one range. */
static void model_take(model *md, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs)
{
    *sends = *recvs = 0;
    if (md->top + bytes <= md->cap) {
        *off = md->top;
        md->top += bytes;
        return;
    }
    size_t best = SIZE_MAX, best_wait = 0, at_top = SIZE_MAX;
    for (size_t i = 0; i < md->nr; i++) {
        if (md->r[i].avail > step)
            continue;
        size_t j = i, wait = md->r[i].sends;
        while (md->r[j].hi - md->r[i].lo < bytes && j + 1 < md->nr && md->r[j + 1].lo == md->r[j].hi &&
               md->r[j + 1].avail <= step)
            wait = maxz(wait, md->r[++j].sends);
        if (md->r[j].hi - md->r[i].lo >= bytes) {
            if (best == SIZE_MAX || wait < best_wait) {
                best = i;
                best_wait = wait;
            }
        } else if (md->r[j].hi == md->top && at_top == SIZE_MAX) {
            at_top = i;
        }
    }
    if (best == SIZE_MAX)
        best = at_top;
    if (best == SIZE_MAX) {
        *off = md->top;
        md->top += bytes;
        return;
    }
    const size_t lo = md->r[best].lo, end = lo + bytes;
    *off = lo;
    size_t j = best;
    while (j < md->nr && md->r[j].lo < end) {
        *sends = maxz(*sends, md->r[j].sends);
        *recvs = maxz(*recvs, md->r[j].recvs);
        if (md->r[j].hi > end) {
            md->r[j].lo = end;
            break;
        }
        j++;
    }
    memmove(&md->r[best], &md->r[j], (md->nr - j) * sizeof md->r[0]);
    md->nr -= j - best;
    if (end > md->top)
        md->top = end;
}

static void model_give(model *md, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs)
{
    size_t i = 0;
    while (i < md->nr && md->r[i].lo < off)
        i++;
    mrange nr = {off, off + bytes, step + 1, sends, recvs};
    if (i > 0 && md->r[i - 1].hi == off && md->r[i - 1].avail == nr.avail) {
        mrange *l = &md->r[i - 1];
        l->hi = nr.hi;
        l->sends = maxz(l->sends, sends);
        l->recvs = maxz(l->recvs, recvs);
        if (i < md->nr && md->r[i].lo == l->hi && md->r[i].avail == l->avail) {
            l->hi = md->r[i].hi;
            l->sends = maxz(l->sends, md->r[i].sends);
            l->recvs = maxz(l->recvs, md->r[i].recvs);
            memmove(&md->r[i], &md->r[i + 1], (md->nr - i - 1) * sizeof nr);
            md->nr--;
        }
        return;
    }
    if (i < md->nr && md->r[i].lo == nr.hi && md->r[i].avail == nr.avail) {
        md->r[i].lo = off;
        md->r[i].sends = maxz(md->r[i].sends, sends);
        md->r[i].recvs = maxz(md->r[i].recvs, recvs);
        return;
    }
    memmove(&md->r[i + 1], &md->r[i], (md->nr - i) * sizeof nr);
    md->r[i] = nr;
    md->nr++;
}

/* @p steps steps of up to @p per takes each; taken ranges given back 1 .. 3 steps later, alone or with the
   range after them (two at once). From step @p mixed_from on, takes of 1, 2 or 1.5 units (the arena turns
   from its heap to its scan, its free ranges converted); at step @p back_at, one step back (the same). */
static void arena(size_t unit, size_t cap_units, uint64_t steps, int per, uint64_t mixed_from, uint64_t back_at)
{
    totex_prog_arena a;
    totex_prog_arena_init(&a, cap_units * unit);
    static model md;
    memset(&md, 0, sizeof md);
    md.cap = cap_units * unit;
    size_t held_n = 0, counter = 0;
    static size_t held_off[1 << 16], held_len[1 << 16];
    static uint64_t held_due[1 << 16];
    for (uint64_t i = 0; i < steps && !failures; i++) {
        const uint64_t step = i >= back_at ? i - 1 : i;
        const int takes = 1 + (int)(next() % (uint64_t)per);
        for (int t = 0; t < takes && held_n < (1 << 16); t++) {
            size_t off, s, r, moff, ms, mr;
            const uint64_t k = next() % 3;
            const size_t bytes = i < mixed_from || k == 0 ? unit : k == 1 ? 2 * unit : unit + unit / 2;
            if (totex_prog_arena_take(&a, bytes, step, &off, &s, &r)) {
                FAIL("arena: out of memory\n");
                return;
            }
            model_take(&md, bytes, step, &moff, &ms, &mr);
            if (off != moff || s != ms || r != mr)
                FAIL("arena (unit %zu, limit %zu units) step %llu: took %zu bytes at %zu (waits %zu, %zu), the policy "
                     "gives %zu (waits %zu, %zu)\n",
                     unit, cap_units, (unsigned long long)step, bytes, off, s, r, moff, ms, mr);
            held_off[held_n] = off;
            held_len[held_n] = bytes;
            held_due[held_n++] = step + 1 + next() % 3;
        }
        /* give back what is due, sometimes two adjacent ranges as one */
        for (size_t h = 0; h < held_n;) {
            if (held_due[h] > step) {
                h++;
                continue;
            }
            size_t bytes = held_len[h], partner = SIZE_MAX;
            for (size_t q = 0; q < held_n && next() % 2; q++)
                if (q != h && held_off[q] == held_off[h] + held_len[h] && held_due[q] <= step)
                    partner = q;
            if (partner != SIZE_MAX)
                bytes += held_len[partner];
            counter += 1 + next() % 4;
            const size_t s = next() % 5 ? counter : 0, r = counter / 2;
            if (totex_prog_arena_give(&a, held_off[h], bytes, step, s, r)) {
                FAIL("arena: out of memory\n");
                return;
            }
            model_give(&md, held_off[h], bytes, step, s, r);
            const size_t drop2 = partner;
            held_off[h] = held_off[--held_n];
            held_len[h] = held_len[held_n];
            held_due[h] = held_due[held_n];
            if (drop2 != SIZE_MAX) {
                const size_t p2 = drop2 == held_n ? h : drop2; /* it may have moved into h */
                held_off[p2] = held_off[--held_n];
                held_len[p2] = held_len[held_n];
                held_due[p2] = held_due[held_n];
            }
        }
    }
    if (a.top != md.top)
        FAIL("arena (unit %zu): top %zu, the policy's %zu\n", unit, a.top, md.top);
    totex_prog_arena_free(&a);
}

int main(void)
{
    blockmap(50, 20000);
    blockmap(5000, 200000);
    arena(65536, 16, 3000, 6, UINT64_MAX, UINT64_MAX);
    arena(1000, 4, 3000, 12, UINT64_MAX, UINT64_MAX);
    arena(7, 0, 2000, 20, UINT64_MAX, UINT64_MAX);
    arena(1000, 4, 3000, 12, 1500, UINT64_MAX); /* mixed sizes from the middle on */
    arena(64, 0, 2000, 8, 1000, UINT64_MAX);
    arena(1000, 4, 3000, 12, UINT64_MAX, 1500); /* a step back */
    if (failures) {
        fprintf(stderr, "program_alloc: %d failures\n", failures);
        return 1;
    }
    printf("program_alloc: ok\n");
    return 0;
}
