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

typedef struct totex_prog_heap_entry { /* a free range as it was when pushed (stale once it changed) */
    size_t sends, lo, hi;
    uint64_t avail;
    size_t recvs;
} totex_prog_heap_entry;

typedef struct totex_prog_arena {
    totex_prog_free_range *free; /* by increasing lo, disjoint */
    size_t nfree, capfree;
    /* uniform use: while every take is of @c unit bytes and every give a multiple of it, every free
       range fits a take alone, and the earliest-freed choice is the smallest (sends, lo) among the usable
       ranges: a min-heap of the ranges (stale entries dropped when met) finds it without a scan */
    size_t unit;                 /* 0: not yet known; SIZE_MAX: mixed sizes (scan) */
    totex_prog_heap_entry *heap;
    size_t nheap, capheap;
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
