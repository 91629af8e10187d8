/* Dimension-ordered routes of the byte-weighted schedules (private to src/algorithms/). */
#ifndef TOTEX_W_ROUTE_H
#define TOTEX_W_ROUTE_H
#include "totex/network.h"
#include "totex/wschedule.h"
/**
 * The dimension-ordered shortest route s -> d (dimension 0 first), each
 * dimension by the factor's shortest path (the first neighbour in rank order
 * one hop closer). @p ties receives (may be NULL) the mask of dimensions
 * whose first hop has two shortest choices (a ring's antipode); bit k of
 * @p choice takes the second one in dimension k.
 * @param path caller's array of at least diameter + 1 nodes. @return the nodes written (hops + 1).
 */
uint32_t w_route(const totex_network *net, uint32_t s, uint32_t d, uint32_t choice, uint32_t *path, uint32_t *ties);
/**
 * Add @p w bytes of pair i -> j to the current step of @p s on the
 * dimension-ordered route, split evenly over the choices at ties (at most 64
 * routes; the remainder bytes to the first ones). @param path a scratch array of diameter + 1 nodes.
 * @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status w_add_split(totex_wschedule *s, const totex_network *net, uint32_t i, uint32_t j, uint64_t w, uint32_t *path);
#endif
