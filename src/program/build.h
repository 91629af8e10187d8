/* One rank's program for one candidate of the choice model (build.c): the
 * candidate's schedule, this rank's share of it (share.h; node 0's moves or
 * transfers translated where the schedule is symmetric, so no rank builds the
 * whole schedule), compiled (compile.h). Needs no MPI and reads no
 * environment: the runtime passes the knobs in totex_prog_opts. Not installed. */
#ifndef TOTEX_PROG_BUILD_H
#define TOTEX_PROG_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "choice.h"
#include "program.h"
#include "totex/combining.h"
#include "totex/network.h"

/* the runtime's knobs for building a program (src/mpi/env.c reads them) */
typedef struct totex_prog_opts {
    int window;              /* unit-step transfers in flight per link and lane (TOTEX_WINDOW), 0: no limit; default 1 */
    long long arena_blocks;  /* soft limit of the arena in blocks (TOTEX_ARENA_BLOCKS), < 0: the default
                                (TOTEX_PROG_ARENA_BLOCKS_PER_RANK * n), 0: reuse bytes as soon as they are free */
    long long recv_window;   /* receives posted ahead of the forced point (TOTEX_RECV_WINDOW), < 0: the default
                                (those of TOTEX_PROG_RECV_WINDOW_STEPS steps for unit-step programs, no limit for
                                combining ones), 0: no limit */
} totex_prog_opts;

/* bytes a program's buffers may take beyond one buffer of n blocks above TOTEX_PROG_SCALE_MAX ranks */
#define TOTEX_PROG_BUFFER_SLACK (64 << 20)

/* the default soft limit of a program's arena, in blocks: TOTEX_PROG_ARENA_BLOCKS_PER_RANK per rank, at most
   TOTEX_PROG_ARENA_BLOCKS_PER_LINK per link of node 0 (@p net NULL: one link): a window per link, not n */
size_t totex_prog_arena_default_blocks(const totex_network *net, uint32_t size);

/* the defaults: window 1, arena_blocks -1, recv_window -1 */
void totex_prog_opts_default(totex_prog_opts *o);

/*
 * Build candidate @p c on @p net (node id == rank, @p size nodes) for rank
 * @p rank and blocks of @p slot bytes: its schedule (combining cost @p cost,
 * cost->m = slot), this rank's share, compiled into a new program *out (set
 * also on failure: the caller frees it with totex_prog_free()). Returns
 * TOTEX_OK, TOTEX_ENOMEM (also: above TOTEX_PROG_SCALE_MAX ranks, arena and
 * staging and the program's entries over one buffer of n blocks + TOTEX_PROG_BUFFER_SLACK bytes),
 * TOTEX_EINVAL (net NULL), or the algorithm's or the compiler's error, with
 * what went wrong in @p err ("algorithm NAME on SPEC: ..."). Time and memory: O(moves of one node) for a symmetric unit-step
 * schedule or a translation-invariant combining one (001 Theorem 2), else
 * those of building the schedule. Source: 001 Section 4 (Theorem 2) for the
 * translation; the rest is the executor's own.
 */
totex_status totex_prog_build(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c,
                              uint32_t size, uint32_t rank, long long slot, const totex_prog_opts *o,
                              totex_prog **out, totex_error *err);

#endif
