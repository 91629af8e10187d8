/* The machine's network, named by the user (TOTEX_NETWORK, TOTEX_RANKMAP:
 * docs/mpi.md, "The machine's network"), and the part of it a communicator
 * spans: MPI-free, so that it is tested without mpirun (tests/program/). */
#ifndef TOTEX_PROG_MACHINE_H
#define TOTEX_PROG_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "totex/common.h"
#include "totex/network.h"

/* The named network and where each rank of MPI_COMM_WORLD sits on it. */
typedef struct totex_prog_machine {
    totex_network *net;    /* owned */
    uint32_t dims;         /* its factors */
    uint32_t ranks;        /* MPI_COMM_WORLD's size: one node per rank */
    uint32_t *coords;      /* [ranks * dims]: rank r's coordinate in factor i at r * dims + i */
} totex_prog_machine;

/* The machine of spec @p spec (a product spec or a preset) for @p ranks ranks: rank r at node r when
 * @p rankmap_text is NULL, else at the coordinates of line r of that text (the rank map: one line per
 * rank of MPI_COMM_WORLD, in rank order, with one whole number per factor of the spec, the first factor
 * first, separated by spaces, tabs or commas; blank lines and text after '#' ignored). @p map_name names
 * the map in errors. Every rank on a node of its own, the network exactly @p ranks nodes.
 * Returns TOTEX_OK with *out (free with totex_prog_machine_free), or TOTEX_EINVAL with a line in @p err
 * that names what is wrong (the spec, a line of the map, a value, what fits); TOTEX_ENOMEM. */
totex_status totex_prog_machine_make(const char *spec, const char *rankmap_text, const char *map_name,
                                     uint32_t ranks, totex_prog_machine **out, totex_error *err);
void totex_prog_machine_free(totex_prog_machine *m);

/* The sub-network spanned by the MPI_COMM_WORLD ranks @p world[0 .. n) (a communicator's ranks, in its rank
 * order): a sub-box of the machine, each factor's coordinates an interval of a path, an arc or the whole of
 * a ring, any subset of a complete graph (or of K2), every combination present once. Then *applies = 1, its
 * spec in @p spec (@p cap bytes; factors of one node dropped; "" for one rank) and each rank's node in it in
 * @p node[0 .. n) (mixed radix, first factor least significant, as every totex network). Else *applies = 0
 * and the reason in @p why (@p why_cap bytes). TOTEX_ENOMEM, or TOTEX_OK. */
totex_status totex_prog_machine_box(const totex_prog_machine *m, const uint32_t *world, uint32_t n, int *applies,
                                    char *spec, size_t cap, uint32_t *node, char *why, size_t why_cap);

#endif
