/**
 * @file totex/network.h
 * @brief Factor graphs and their cartesian products (000 Section 2; 004 Section 2).
 *
 * A network is the cartesian product G = G_1 x ... x G_k of factor graphs
 * (dimensions). Node ids are mixed-radix numbers with the FIRST factor as the
 * least significant digit: node = c_1 + m_1*(c_2 + m_2*(c_3 + ...)), where
 * c_i in [0, m_i) is the i-th coordinate and m_i = |V_i|. Node ids are
 * uint32_t; message counts (n^2) are uint64_t.
 *
 * Spec grammar (docs/cli.md, "Spec grammar"):
 *   spec    := preset-name | factor ('*' factor)*
 *   factor  := 'path:'M | 'ring:'M | 'complete:'M | 'k2' | 'file:'PATH
 *            | 'torus:'M('x'M)* | 'mesh:'M('x'M)* | 'hypercube:'D | 'ghc:'M('x'M)*
 */
#ifndef TOTEX_NETWORK_H
#define TOTEX_NETWORK_H

#include "totex/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kind of a factor graph (one dimension). */
typedef enum totex_factor_kind {
    TOTEX_FACTOR_PATH = 0,     /**< linear array 0 - 1 - ... - (m-1) */
    TOTEX_FACTOR_RING = 1,     /**< ring, m >= 3 (ring:2 is parsed as k2) */
    TOTEX_FACTOR_COMPLETE = 2, /**< complete graph K_m, m >= 3 (complete:2 is k2) */
    TOTEX_FACTOR_K2 = 3,       /**< two nodes, one link (hypercube dimension) */
    TOTEX_FACTOR_GRAPH = 4     /**< a user's connected graph read from a file */
} totex_factor_kind;

/** Largest number of nodes of one factor graph. */
#define TOTEX_FACTOR_MAX_NODES 65535u
/** Largest number of nodes of a graph read from a file (its distance matrix is kept). */
#define TOTEX_GRAPH_MAX_NODES 4096u
/** Largest number of dimensions of a product. */
#define TOTEX_MAX_DIMS 64

typedef struct totex_factor totex_factor;
typedef struct totex_network totex_network;

/* ---- factors ---------------------------------------------------------- */

/** Kind of factor @p f. */
totex_factor_kind totex_factor_get_kind(const totex_factor *f);
/** Number of nodes m = |V_i| of factor @p f. */
uint32_t totex_factor_nodes(const totex_factor *f);
/** Canonical spec text of the factor ("ring:7", "k2", "file:g.graphml"). Owned by @p f. */
const char *totex_factor_name(const totex_factor *f);
/** Hop distance between factor nodes @p a and @p b (both < m); UINT32_MAX if either is >= m. */
uint32_t totex_factor_distance(const totex_factor *f, uint32_t a, uint32_t b);
/** Number of neighbours of factor node @p a; 0 if @p a >= m. */
uint32_t totex_factor_degree(const totex_factor *f, uint32_t a);
/** Largest degree over the factor's nodes. */
uint32_t totex_factor_max_degree(const totex_factor *f);
/** The @p r-th neighbour (0 <= r < degree) of factor node @p a; UINT32_MAX if @p a >= m or @p r >= degree. */
uint32_t totex_factor_neighbor(const totex_factor *f, uint32_t a, uint32_t r);
/** Rank r of neighbour @p b of @p a (so neighbor(a, r) == b), or UINT32_MAX if not adjacent. */
uint32_t totex_factor_neighbor_rank(const totex_factor *f, uint32_t a, uint32_t b);
/** Nonzero when @p a and @p b are adjacent in the factor. */
int totex_factor_adjacent(const totex_factor *f, uint32_t a, uint32_t b);
/** Number of undirected links of the factor. */
uint64_t totex_factor_links(const totex_factor *f);
/**
 * Status s_i(a) = sum of distances from factor node @p a to all nodes, in hops
 * (004 Section 3; closed forms for path, ring, complete, K2; BFS for a file graph).
 * UINT64_MAX if @p a >= m.
 */
uint64_t totex_factor_status(const totex_factor *f, uint32_t a);
/** Sum of the statuses of all factor nodes, S_i = m * AS(G_i), in hops. */
uint64_t totex_factor_status_sum(const totex_factor *f);
/** Eccentricity maximum (diameter) of the factor, in hops. */
uint32_t totex_factor_diameter(const totex_factor *f);

/* ---- networks --------------------------------------------------------- */

/**
 * Parse a spec (grammar above, or a preset name from totex/machines.h) into a
 * new network. The caller owns the result and frees it with totex_network_free().
 * @return NULL on error, with @p err naming the offending part of the spec
 *         and how to fix it (sizes < 2, sizes too large, n >= 2^32, unknown
 *         factor, unreadable or disconnected graph file).
 */
totex_network *totex_network_parse(const char *spec, totex_error *err);

/** Free a network (NULL is accepted). */
void totex_network_free(totex_network *net);

/** The spec text the network was parsed from (presets expanded). Owned by @p net. */
const char *totex_network_spec(const totex_network *net);
/** Number of dimensions k. */
uint32_t totex_network_dims(const totex_network *net);
/** Factor of dimension @p i (0-based, i < k). Owned by @p net. */
const totex_factor *totex_network_factor(const totex_network *net, uint32_t i);
/** Number of nodes n = prod m_i (< 2^32). */
uint32_t totex_network_nodes(const totex_network *net);
/** Number of messages of total exchange, n(n-1). */
uint64_t totex_network_messages(const totex_network *net);
/** Number of undirected links: sum_i |E_i| * n / m_i. */
uint64_t totex_network_links(const totex_network *net);
/** Mixed-radix stride of dimension @p i: prod_{j<i} m_j; 0 if @p i >= k. */
uint32_t totex_network_stride(const totex_network *net, uint32_t i);
/** Coordinate c_i of @p node in dimension @p i; UINT32_MAX if @p node >= n or @p i >= k. */
uint32_t totex_network_coord(const totex_network *net, uint32_t node, uint32_t i);
/** Degree of @p node: sum of its factor degrees; 0 if @p node >= n. */
uint32_t totex_network_degree(const totex_network *net, uint32_t node);
/** Smallest node degree of the network (sum of the factors' minimum degrees). */
uint32_t totex_network_min_degree(const totex_network *net);
/**
 * Write the neighbours of @p node into @p out (capacity >= degree) and return
 * how many were written. Order: dimension 0 first, by factor neighbour rank.
 * Writes nothing and returns 0 if @p node >= n.
 */
uint32_t totex_network_neighbors(const totex_network *net, uint32_t node, uint32_t *out);
/** Nonzero when @p a and @p b are adjacent (differ in one coordinate, adjacent there). */
int totex_network_adjacent(const totex_network *net, uint32_t a, uint32_t b);
/** Hop distance between nodes: sum of factor distances (000 eq. (1)); UINT64_MAX if either is >= n. */
uint64_t totex_network_distance(const totex_network *net, uint32_t a, uint32_t b);

/**
 * Status s(v) of @p node by Theorem 1 (000 Section 3.1; 004 Theorem 1):
 * s(v) = n * sum_i s_i(v_i) / |V_i|, in hops. Never searches the product.
 * UINT64_MAX if @p node >= n.
 */
uint64_t totex_network_status(const totex_network *net, uint32_t node);
/**
 * Total status S_G = sum_v s(v) = sum_i (n/m_i)^2 * S_i, in hops (the total
 * number of link traversals of total exchange, 000 Section 3).
 * @return TOTEX_EOVERFLOW if it does not fit 64 bits.
 */
totex_status totex_network_status_sum(const totex_network *net, uint64_t *out, totex_error *err);
/** Average status AS(G) = S_G / n (Corollary 1 of 000/004), in hops (exact double). */
double totex_network_average_status(const totex_network *net);
/** Average distance S_G / (n(n-1)) in hops (000 Section 3.1). 0 for n = 1. */
double totex_network_average_distance(const totex_network *net);
/** Diameter: sum of factor diameters, in hops. */
uint64_t totex_network_diameter(const totex_network *net);
/** Nonzero when all factors are the same graph (homogeneous network, 000 Section 2). */
int totex_network_homogeneous(const totex_network *net);

#ifdef __cplusplus
}
#endif
#endif
