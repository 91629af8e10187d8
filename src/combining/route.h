/* Private to src/combining/: the dimension-ordered routes of the combining
 * model (include/totex/combining.h), shared by the simulator and the packer so
 * they can never disagree. */
#ifndef TOTEX_COMB_ROUTE_H
#define TOTEX_COMB_ROUTE_H

#include "totex/network.h"

/**
 * Write the nodes of the dimension-ordered route from @p from to @p to into
 * @p out (at most @p cap nodes, @p from first): dimension 0 first; a path goes
 * straight, a ring the short way (ties +), K2 and complete graphs directly, a
 * file graph through its first neighbour (by rank) one hop closer.
 * Returns the number of hops written (cap - 1 at most).
 */
size_t totex_comb_route(const totex_network *net, uint32_t from, uint32_t to, uint32_t *out, size_t cap);

#endif
