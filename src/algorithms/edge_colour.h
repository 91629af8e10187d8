/*
 * Private to src/algorithms/: edge colouring of a bipartite multigraph
 * (rows x columns) with a prescribed number of colours, the decomposition
 * behind 001 Theorems 4, 5 and 7.
 *
 * A nonnegative integer matrix (here a list of (row, column, multiplicity)
 * entries) with critical sum h (largest line sum) is a sum of S >= h
 * permutation matrices (001 Theorem 4, Konig's edge-colouring theorem): each
 * colour (a step of a symmetric schedule) takes every row and every column
 * at most once. With at most k entries per colour (k-permutation matrices,
 * 001 Section 7) S >= max(ceil(sigma / k), h) colours suffice (001 Theorem 7).
 *
 * Method: edges are coloured one by one in the caller's order with the
 * smallest colour free at both ends (under k-port: among the colours that
 * still have fewer than k edges); when no colour is free at both, the
 * classic alternating-path (Kempe chain) exchange of Konig's proof frees
 * one: alpha free at the row, beta free at the column, swap alpha/beta on
 * the alpha/beta path from the column (or, whichever of the two paths is
 * shorter, beta/alpha on the path from the row). Under k-port the proper
 * colouring is then balanced (de Werra): while a colour a has more than k
 * edges, an (a, b)-alternating path with one more a-edge than b-edges,
 * b a colour with fewer than k edges, exists by counting and is swapped.
 *
 * Memory: 4 bytes per (column, colour) for the column occupancy, 8 bytes per
 * edge for the rows, a few bits per (column, colour) for the free-colour
 * bitmaps, 4 bytes per colour for the class sizes.
 */
#ifndef TOTEX_EDGE_COLOUR_H
#define TOTEX_EDGE_COLOUR_H

#include "totex/symmetric.h"

/** @c mult parallel edges between row @c row and column @c col. */
typedef struct tx_ec_entry {
    uint32_t row;
    uint32_t col;
    uint32_t mult;
} tx_ec_entry;

/** Largest number of colours accepted (colours are uint32_t, one value reserved). */
#define TX_EC_MAX_COLOURS (UINT32_MAX - 1u)
/** Largest columns * colours (4 bytes each): 2^30, i.e. 4 GiB of column occupancy. */
#define TX_EC_MAX_CELLS (UINT64_C(1) << 30)

/** The colour classes: class c is moves[start[c] .. start[c+1]). */
typedef struct tx_ec_result {
    uint64_t colours;       /**< number of classes, = the S asked for (trailing classes may be empty) */
    uint64_t edges;         /**< total number of edges = sum of multiplicities */
    uint64_t *start;        /**< colours + 1 offsets into moves */
    totex_sym_move *moves;  /**< (row, col) of every edge, grouped by colour, in the caller's row order within a colour */
    uint64_t kempe_chains;  /**< statistics: alternating-path exchanges made while colouring */
    uint64_t kempe_edges;   /**< statistics: edges recoloured by those exchanges */
    uint64_t balance_swaps; /**< statistics: k-port balancing exchanges */
} tx_ec_result;

/**
 * Colour the bipartite multigraph given by @p entries with @p colours colours.
 *
 * @param rows      row ids are < rows
 * @param cols      column ids are < cols (cols >= 1)
 * @param entries   in priority order: earlier edges get the smallest colours
 *                  free at both ends; the entries of one row must be
 *                  contiguous (TOTEX_EINVAL otherwise); mult 0 is skipped
 * @param colours   S >= the largest row sum and column sum, and S * k >= the
 *                  total when k > 0 (TOTEX_EINVAL otherwise)
 * @param k         at most k edges per colour; 0 = unlimited (multiport)
 * @param out       filled on success; release with tx_ec_result_free()
 * @return TOTEX_OK; TOTEX_EINVAL (bad input, with the reason); TOTEX_ENOMEM.
 */
totex_status tx_edge_colour(uint32_t rows, uint32_t cols, const tx_ec_entry *entries, size_t n_entries,
                            uint64_t colours, uint32_t k, tx_ec_result *out, totex_error *err);

/** Release the arrays of @p r (NULL accepted) and zero it. */
void tx_ec_result_free(tx_ec_result *r);

#endif
