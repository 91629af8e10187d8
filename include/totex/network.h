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

/* ---- factors ----------------------------------------------------------
 * Every function below takes a factor @p f owned by its network (never NULL)
 * and reads it only; node arguments are factor nodes, 0 <= a < m. */

/** @param f a factor. @return its kind. */
totex_factor_kind totex_factor_get_kind(const totex_factor *f);
/** @param f a factor. @return its number of nodes m = |V_i|, 2 .. TOTEX_FACTOR_MAX_NODES. */
uint32_t totex_factor_nodes(const totex_factor *f);
/** @param f a factor. @return its canonical spec text ("ring:7", "k2", "file:g.graphml"), owned by @p f. */
const char *totex_factor_name(const totex_factor *f);
/**
 * @param f a factor. @param a, b factor nodes.
 * @return the hop distance between @p a and @p b; UINT32_MAX if either is >= m.
 */
uint32_t totex_factor_distance(const totex_factor *f, uint32_t a, uint32_t b);
/** @param f a factor. @param a a factor node. @return its number of neighbours; 0 if @p a >= m. */
uint32_t totex_factor_degree(const totex_factor *f, uint32_t a);
/** @param f a factor. @return the largest degree over its nodes. */
uint32_t totex_factor_max_degree(const totex_factor *f);
/**
 * @param f a factor. @param a a factor node. @param r a rank, 0 <= r < degree(a).
 * @return the @p r-th neighbour of @p a (ranks fixed per factor: the order of
 *         totex_network_neighbors()); UINT32_MAX if @p a >= m or @p r >= degree.
 */
uint32_t totex_factor_neighbor(const totex_factor *f, uint32_t a, uint32_t r);
/**
 * @param f a factor. @param a, b factor nodes.
 * @return the rank r with totex_factor_neighbor(f, a, r) == b; UINT32_MAX if not adjacent.
 */
uint32_t totex_factor_neighbor_rank(const totex_factor *f, uint32_t a, uint32_t b);
/** @param f a factor. @param a, b factor nodes. @return nonzero when @p a and @p b are adjacent. */
int totex_factor_adjacent(const totex_factor *f, uint32_t a, uint32_t b);
/** @param f a factor. @return its number of undirected links. */
uint64_t totex_factor_links(const totex_factor *f);
/**
 * Status of a factor node (004 Section 3; closed forms for path, ring,
 * complete and K2, BFS for a file graph).
 * @param f a factor. @param a a factor node.
 * @return s_i(a), the sum of the distances from @p a to every node, in hops;
 *         UINT64_MAX if @p a >= m.
 */
uint64_t totex_factor_status(const totex_factor *f, uint32_t a);
/** @param f a factor. @return S_i = sum of its nodes' statuses = m * AS(G_i), in hops (004 Section 3). */
uint64_t totex_factor_status_sum(const totex_factor *f);
/** @param f a factor. @return its diameter (largest eccentricity), in hops. */
uint32_t totex_factor_diameter(const totex_factor *f);

/* ---- networks ---------------------------------------------------------
 * Every function below but totex_network_parse() takes a network @p net made
 * by it (never NULL) and reads it only; nodes are product nodes, 0 <= v < n. */

/**
 * Parse a spec (grammar above, or a preset name of totex/machines.h) into a new network.
 * @param spec the spec text (not NULL).
 * @param err  receives the message on failure (may be NULL).
 * @return a network the caller owns and frees with totex_network_free(); NULL
 *         on error, @p err naming the offending part of the spec and how to
 *         fix it (sizes < 2 or too large, n >= 2^32, more than TOTEX_MAX_DIMS
 *         dimensions, an unknown factor, an unreadable or disconnected graph
 *         file, out of memory).
 */
totex_network *totex_network_parse(const char *spec, totex_error *err);

/** Free a network. @param net a network of totex_network_parse(), or NULL (nothing done). */
void totex_network_free(totex_network *net);

/** @param net a network. @return the spec text it was parsed from, presets expanded; owned by @p net. */
const char *totex_network_spec(const totex_network *net);
/** @param net a network. @return its number of dimensions k, 1 .. TOTEX_MAX_DIMS. */
uint32_t totex_network_dims(const totex_network *net);
/** @param net a network. @param i a dimension, 0 <= i < k. @return its factor, owned by @p net (NULL if @p i >= k). */
const totex_factor *totex_network_factor(const totex_network *net, uint32_t i);
/** @param net a network. @return its number of nodes n = prod m_i (< 2^32). */
uint32_t totex_network_nodes(const totex_network *net);
/** @param net a network. @return the messages of total exchange, n(n-1). */
uint64_t totex_network_messages(const totex_network *net);
/** @param net a network. @return its undirected links, sum_i |E_i| * n / m_i. */
uint64_t totex_network_links(const totex_network *net);
/** @param net a network. @param i a dimension. @return the mixed-radix stride prod_{j<i} m_j; 0 if @p i >= k. */
uint32_t totex_network_stride(const totex_network *net, uint32_t i);
/**
 * @param net a network. @param node a node. @param i a dimension.
 * @return the coordinate c_i of @p node; UINT32_MAX if @p node >= n or @p i >= k.
 */
uint32_t totex_network_coord(const totex_network *net, uint32_t node, uint32_t i);
/**
 * The node whose coordinates are those of @p u plus (@p sign > 0) or minus
 * (@p sign <= 0) those of @p x, each modulo its factor's size: the
 * translation of a product of rings (001 Theorem 2's map of node 0's
 * schedule to node x).
 * @param net a network. @param u a node (< n). @param x a node (< n), the
 * offset. @param sign +1 to add, -1 to subtract. @return the node id;
 * UINT32_MAX if @p u or @p x >= n.
 */
uint32_t totex_network_shift(const totex_network *net, uint32_t u, uint32_t x, int sign);
/** @param net a network. @param node a node. @return its degree (the sum of its factor degrees); 0 if @p node >= n. */
uint32_t totex_network_degree(const totex_network *net, uint32_t node);
/** @param net a network. @return the smallest node degree (the sum of the factors' minimum degrees). */
uint32_t totex_network_min_degree(const totex_network *net);
/**
 * The neighbours of a node, dimension 0 first, by factor neighbour rank.
 * @param net  a network. @param node a node.
 * @param out  caller's array of at least totex_network_degree(net, node) entries.
 * @return how many were written; 0 (nothing written) if @p node >= n.
 */
uint32_t totex_network_neighbors(const totex_network *net, uint32_t node, uint32_t *out);
/**
 * @param net a network. @param a, b nodes.
 * @return nonzero when @p a and @p b are adjacent (they differ in one coordinate, adjacent there).
 */
int totex_network_adjacent(const totex_network *net, uint32_t a, uint32_t b);
/**
 * @param net a network. @param a, b nodes.
 * @return the hop distance, the sum of the factor distances (000 eq. (1)); UINT64_MAX if either is >= n.
 */
uint64_t totex_network_distance(const totex_network *net, uint32_t a, uint32_t b);

/**
 * Status of a node by Theorem 1 (000 Section 3.1; 004 Theorem 1), from the
 * factors: never a search of the product.
 * @param net a network. @param node a node.
 * @return s(v) = n * sum_i s_i(v_i) / |V_i|, in hops; UINT64_MAX if @p node >= n.
 */
uint64_t totex_network_status(const totex_network *net, uint32_t node);
/**
 * Total status S_G = sum_v s(v) = sum_i (n/m_i)^2 * S_i: the link traversals
 * of total exchange along shortest paths (000 Section 3).
 * @param net a network. @param out receives S_G, in hops. @param err message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EOVERFLOW when S_G does not fit 64 bits (@p out untouched).
 */
totex_status totex_network_status_sum(const totex_network *net, uint64_t *out, totex_error *err);
/** @param net a network. @return the average status AS(G) = S_G / n, in hops (Corollary 1 of 000 and 004). */
double totex_network_average_status(const totex_network *net);
/** @param net a network. @return the average distance S_G / (n(n-1)), in hops (000 Section 3.1); 0 for n = 1. */
double totex_network_average_distance(const totex_network *net);
/** @param net a network. @return its diameter, the sum of the factor diameters, in hops. */
uint64_t totex_network_diameter(const totex_network *net);
/** @param net a network. @return nonzero when every factor is the same graph (homogeneous, 000 Section 2). */
int totex_network_homogeneous(const totex_network *net);

#ifdef __cplusplus
}
#endif
#endif
