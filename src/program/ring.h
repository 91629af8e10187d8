/* The cross-rank check's ring (ring.c): a cycle through all ranks along links
 * where the network has one. Needs no MPI. Not installed. */
#ifndef TOTEX_PROG_RING_H
#define TOTEX_PROG_RING_H

#include <stdint.h>

#include "totex/network.h"

/* *pred and *succ of node @p me on a cycle through all nodes of @p net (node id == rank),
 * the same cycle on every rank: a cycle along links when the construction of ring.c
 * finds one (returns 1), else rank - 1 and rank + 1 (returns 0; also for net NULL). No
 * errors, no allocation, O(factors) time. Source: no paper; the construction is in
 * ring.c's header (the check's header must ride on a link's message). */
int totex_prog_check_ring(const totex_network *net, uint32_t me, uint32_t *pred, uint32_t *succ);

#endif
