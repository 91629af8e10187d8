/**
 * @file totex/bounds.h
 * @brief Lower bounds on the steps of total exchange, each with its witness.
 *
 * Computed from the network alone: bounds never look at an algorithm.
 *
 * | kind                     | model          | source                                   |
 * |--------------------------|----------------|------------------------------------------|
 * | TOTEX_BOUND_AVERAGE_STATUS | single-port  | 000 Section 3, eq. (3); 004 eq. (1): ceil(S_G / n) |
 * | TOTEX_BOUND_CUT          | both           | 000 Section 3, eq. (4): max |V1||V2| / C(V1,V2); 003 eqs. (1), (2) |
 * | TOTEX_BOUND_RECEIVE      | both           | a node receives n-1 messages: n-1 (single-port), ceil((n-1)/deg) (multiport) |
 * | TOTEX_BOUND_RELAY        | single-port    | a node sends its n-1 messages plus every message it separates (cut vertex) |
 */
#ifndef TOTEX_BOUNDS_H
#define TOTEX_BOUNDS_H

#include "totex/network.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum totex_bound_kind {
    TOTEX_BOUND_AVERAGE_STATUS = 0,
    TOTEX_BOUND_CUT = 1,
    TOTEX_BOUND_RECEIVE = 2,
    TOTEX_BOUND_RELAY = 3
} totex_bound_kind;

/** Short machine name of a bound kind: "average-status", "cut", "receive", "relay". */
const char *totex_bound_kind_name(totex_bound_kind k);

/** One lower bound and the witness that proves it. */
typedef struct totex_bound {
    totex_bound_kind kind;
    uint64_t value;      /**< the bound, in steps (already rounded up) */
    double exact;        /**< the unrounded quantity (e.g. S_G/n, |V1||V2|/C) */
    char witness[384];   /**< human-readable proof: the cut, the node, the sums */
} totex_bound;

/** A factor's best cut (000 eq. (4) restricted to the factor). */
typedef struct totex_cut {
    uint32_t side;       /**< |V1| (the smaller side) */
    uint32_t other;      /**< |V2| = m - |V1| */
    uint64_t links;      /**< C(V1, V2): undirected links across the cut */
    int exact;           /**< 1: proved the best over all bipartitions (closed form or exhaustive); 0: best found by a heuristic sweep */
    uint32_t first;      /**< for contiguous cuts (path, ring): V1 = {first, ..., first+side-1} */
    uint64_t members;    /**< for exhaustive cuts of factors with m <= 64: bit i set when node i is in V1 */
} totex_cut;

/**
 * Best cut of factor @p f: closed forms for path (one link, floor(m/2)|ceil(m/2)),
 * ring (two links), complete graph and K2 (ratio 1); exhaustive over all
 * 2^(m-1) bipartitions for a file graph with m <= 22; a BFS-sweep heuristic
 * above (exact = 0; the bound stays valid, it may just be weaker).
 */
totex_cut totex_factor_best_cut(const totex_factor *f);

/**
 * Exhaustive best cut of an arbitrary small graph given by adjacency bitmasks
 * (adj[v] has bit u set when u ~ v), m <= 30. Maximises |V1||V2|/C over all
 * bipartitions with C > 0. Used for small factors and, in tests, as the
 * independent check of the closed forms and of the product lifting.
 */
totex_cut totex_cut_exhaustive(const uint64_t *adj, uint32_t m);

/** Maximum number of bounds totex_bounds_compute() returns. */
#define TOTEX_MAX_BOUNDS 4

/**
 * Every lower bound for total exchange on @p net under @p ports.
 * @param out   array of TOTEX_MAX_BOUNDS entries, filled in order
 * @param count number written
 * @param best  index in @p out of the largest bound
 * @return TOTEX_OK, or TOTEX_EOVERFLOW if S_G overflows 64 bits.
 */
totex_status totex_bounds_compute(const totex_network *net, totex_ports ports, totex_bound *out,
                                  size_t *count, size_t *best, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
