/* Reuse of the byte ranges of the executor's arena (received blocks) and
 * staging area (gathered sends), planned once at compile time (compile.c).
 *
 * A range handed out for step t is given back at the step t' >= t its last
 * user belongs to, with the requests that must be complete before its bytes
 * may be written again, as two prefixes of the program (the first @c sends
 * sends and the first @c recvs receives, in program order). It is handed out
 * again only to a user of a step after t' (run.c waits for those prefixes
 * first), so a step's users wait only for requests of earlier steps: the
 * order that keeps the executor free of deadlock (run.c). New bytes come
 * from the top of the area while it stays within a soft limit (@c cap
 * bytes); past it, free ranges are reused first (the one freed earliest:
 * its waits are the oldest) and the area grows only when none fits. Needs no MPI. */
#ifndef TOTEX_PROG_ARENA_H
#define TOTEX_PROG_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct totex_prog_free_range {
    size_t lo, hi;       /* bytes [lo, hi) */
    uint64_t avail;      /* first step that may use it */
    size_t sends, recvs; /* requests to complete first: sends [0, sends), receives [0, recvs) */
} totex_prog_free_range;

/* uniform use: the free range that starts at this unit of the area, if any (indexed by unit past @c base) */
typedef struct totex_prog_unit_range {
    uint64_t avail;      /* first step that may use it */
    size_t sends, recvs; /* requests to complete first */
    uint32_t end;        /* its end, exclusive, in units; 0: no free range starts here */
    uint32_t first;      /* at a free range's last unit: its first unit (its left neighbour's, for a give) */
} totex_prog_unit_range;

typedef struct totex_prog_arena {
    /* mixed sizes: the free ranges by increasing lo, disjoint; the take scans them */
    totex_prog_free_range *free;
    size_t nfree, capfree;
    /* uniform use: while every take is of @c unit bytes and every give a whole number of units at a whole
       number of units past @c base (the top when the unit was fixed), every free range fits a take alone and
       the choice is the usable range of smallest (sends, lo): the free ranges are kept by their first unit
       (no sorted array to shift; neighbours found in O(1)), the usable ones in a min-heap of keys
       sends << 32 | first unit (stale keys dropped when met), the ranges freed since the last take's step
       on a pending list until a take's step reaches them. Anything else (a take of another size, a give off
       the units, a step going back, a prefix or a unit past 2^32) turns to the scan, the free ranges converted. */
    size_t unit; /* 0: not yet known; SIZE_MAX: mixed sizes (scan) */
    size_t base;
    totex_prog_unit_range *at; /* by unit: at[u] */
    size_t nat;
    uint64_t *heap;
    size_t nheap, capheap;
    uint32_t *pend;
    size_t npend, cappend;
    size_t live;         /* free ranges (uniform use) */
    uint64_t last_step;  /* the last take's step (uniform use) */
    size_t top; /* bytes handed out from the top so far: the area's size */
    size_t cap; /* soft limit of top, bytes */
} totex_prog_arena;

/* an empty area with soft limit @p cap bytes */
void totex_prog_arena_init(totex_prog_arena *a, size_t cap);
void totex_prog_arena_free(totex_prog_arena *a);
/* @p bytes bytes for a user of step @p step: *off, and the prefixes to complete
   before writing them (*sends, *recvs; 0 for new bytes); 0, or -1 out of memory */
int totex_prog_arena_take(totex_prog_arena *a, size_t bytes, uint64_t step, size_t *off, size_t *sends, size_t *recvs);
/* give back [off, off + bytes), last used in step @p step, reusable once sends
   [0, sends) and receives [0, recvs) are complete; 0, or -1 out of memory */
int totex_prog_arena_give(totex_prog_arena *a, size_t off, size_t bytes, uint64_t step, size_t sends, size_t recvs);

#endif
