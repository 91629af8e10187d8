/*
 * Internal (not installed): packing a logical step of a combining algorithm
 * into contention-free sub-steps, shared by the baselines direct.c,
 * pairwise.c, bruck.c and dimwise.c.
 *
 * An algorithm describes its logical steps ("in step i every node sends X to
 * Y"); the packer places each transfer, in the order added, greedily in the
 * first sub-step of the logical step where every directed link of its route
 * is free and, under one-port, the sender's injection port and the
 * receiver's consumption port are free. So the number of sub-steps (start-ups)
 * the simulator measures is the contention cost of the logical step; with no
 * contention a logical step is exactly one schedule step.
 *
 * Routes are the simulator's (include/totex/combining.h, src/combining/csim.c):
 * dimension-ordered, dimension 0 first; ring the short way, ties +; path
 * straight; complete / k2 directly; file graphs: the first neighbour by rank
 * one hop closer.
 *
 * Store-and-forward: a transfer may cross only one link, so a transfer
 * between non-adjacent nodes is FORWARDED HOP BY HOP along the same route:
 * hop h is placed in a sub-step strictly after the sub-step of hop h-1 (the
 * intermediate node holds the blocks in between and injects the next hop
 * with its own port). The whole logical step completes before the next one
 * begins, so the algorithm's view (blocks at their targets after the logical
 * step) stays true. A forwarded block whose route passes through its own
 * destination (Bruck's shifts on a path do) is delivered there: the later
 * hops drop it, and so do the later transfers the algorithm adds for it (its
 * remaining moves would only bring it back to the same node), so no block is
 * ever sent on from its destination.
 */
#ifndef TOTEX_COMBINING_PACK_H
#define TOTEX_COMBINING_PACK_H

#include "totex/combining.h"

typedef struct totex_pack totex_pack;

/**
 * A packer appending to @p out on @p net under @p cost (switching and ports).
 * @return TOTEX_OK with *p, or TOTEX_ENOMEM.
 */
totex_status totex_pack_new(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule *out,
                            totex_pack **p, totex_error *err);
void totex_pack_free(totex_pack *p);

/**
 * The opening every packed algorithm shares: refuse networks whose n^2 blocks
 * exceed TOTEX_COMB_MAX_BLOCKS (TOTEX_ENOMEM naming @p alg and the network),
 * then make an empty schedule *s and a packer *p appending to it.
 * @return TOTEX_OK, or an error with *s and *p NULL.
 */
totex_status totex_pack_begin(const char *alg, const totex_network *net, const totex_comb_cost *cost,
                              totex_comb_schedule **s, totex_pack **p, totex_error *err);

/**
 * The closing they share: free @p p; if @p st is TOTEX_OK hand @p s to *out,
 * else free it. @return @p st.
 */
totex_status totex_pack_end(totex_status st, totex_pack *p, totex_comb_schedule *s, totex_comb_schedule **out);

/**
 * Add a transfer of the current logical step (blocks copied). Placed at once;
 * emitted by totex_pack_flush().
 */
totex_status totex_pack_add(totex_pack *p, uint32_t from, uint32_t to, const totex_block *blocks, size_t count,
                            totex_error *err);

/**
 * End the current logical step: emit its sub-steps in order into the
 * schedule, declaring @p rearrange blocks (per node) before the first. A
 * logical step without transfers emits one empty step if @p rearrange > 0,
 * nothing otherwise.
 */
totex_status totex_pack_flush(totex_pack *p, uint64_t rearrange, totex_error *err);

/** Sub-steps emitted by the last flush (0 if nothing). */
uint64_t totex_pack_last_substeps(const totex_pack *p);

#endif
