/**
 * @file totex/bounds.h
 * @brief Lower bounds on the steps of total exchange, each with its witness.
 *
 * Computed from the network alone: bounds never look at an algorithm. A step
 * is the time to move one message over one link (000 Section 1).
 *
 * | kind                     | model          | source                                   |
 * |--------------------------|----------------|------------------------------------------|
 * | TOTEX_BOUND_AVERAGE_STATUS | single-port, k-port | 000 Section 3, eq. (3); 004 eq. (1): ceil(S_G / n); k-port: ceil(S_G / sum_v min(k, deg v)) = ceil(sigma/k) on regular networks (001 Section 7) |
 * | TOTEX_BOUND_CUT          | all models     | 000 Section 3, eq. (4): max |V1||V2| / C(V1,V2), lifted from a factor as in the proof of 000 Theorem 5; 003 eqs. (1), (2) |
 * | TOTEX_BOUND_RECEIVE      | all models     | a node receives n-1 messages: n-1 (single-port), ceil((n-1)/min(k, d_min)) (k-port), ceil((n-1)/d_min) (multiport) |
 * | TOTEX_BOUND_RELAY        | single-port, k-port | a node sends its n-1 messages plus every message it separates (cut vertex), at most min(k, deg) per step |
 * | TOTEX_BOUND_EXACT        | all models     | the exact search's proved optimum or lower bound (integer programming, totex/exact.h; `totex bounds --exact`) |
 * | TOTEX_BOUND_BAND         | single-port    | a band U of consecutive coordinates of a path dimension makes at least X sends (each message's fewest moves from U-nodes), at most |U| per step: ceil(X / |U|) (000 eq. (3) on a node subset; src/bounds/band.c) |
 * | TOTEX_BOUND_FORWARDING   | single-port    | node weights w: a hop u->v costs w_u + w_v, a step at most 2W; T >= sum over messages of the cheapest path / 2W (000 eq. (3) weighted; the dual of the min-max node load LP; src/bounds/forwarding.c) |
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
    TOTEX_BOUND_RELAY = 3,
    TOTEX_BOUND_EXACT = 4, /**< proved by the exact search (totex/exact.h), never by totex_bounds_compute() */
    TOTEX_BOUND_BAND = 5,
    TOTEX_BOUND_FORWARDING = 6
} totex_bound_kind;

/**
 * @param k a bound kind.
 * @return its short machine name, static: "average-status", "cut", "receive",
 *         "relay", "exact", "band", "forwarding" ("?" if unknown).
 */
const char *totex_bound_kind_name(totex_bound_kind k);

/** One lower bound and the witness that proves it. */
typedef struct totex_bound {
    totex_bound_kind kind;
    uint64_t value;      /**< the bound, in steps (already rounded up) */
    double exact;        /**< the unrounded quantity in steps (e.g. S_G/n, |V1||V2|/C); value = ceil(exact) up to double rounding */
    char witness[384];   /**< human-readable proof: the cut, the node, the sums (NUL-terminated, may be truncated) */
} totex_bound;

/**
 * A bipartition V1 | V2 of a factor's nodes and the links crossing it
 * (000 eq. (4) restricted to the factor). Its ratio side*other/links is a
 * lower bound on multiport total exchange in the factor.
 */
typedef struct totex_cut {
    uint32_t side;       /**< |V1| (the smaller side; |V1| = |V2| when balanced) */
    uint32_t other;      /**< |V2| = m - |V1| */
    uint64_t links;      /**< C(V1, V2): undirected links across the cut; 0 means "no cut found" */
    int exact;           /**< 1: proved the best over all bipartitions (closed form or exhaustive); 0: best found by a heuristic sweep */
    uint32_t first;      /**< path, ring, complete, K2: V1 = {first, ..., first+side-1} (first = 0);
                              heuristic cuts (exact = 0): the start node of the BFS order or DFS tree below */
    uint64_t members;    /**< when m <= 64: bit i set when node i is in V1; 0 when m > 64 */
    uint32_t prefix;     /**< heuristic cuts: when > 0, the first `prefix` nodes of the BFS order from `first`
                              (neighbours in rank order) form one side; 0 for exact cuts */
    uint32_t subtree;    /**< heuristic cuts with prefix == 0: the subtree of node `subtree` in the DFS tree
                              from `first` (neighbours in rank order) forms one side */
} totex_cut;

/**
 * Best cut of factor @p f (000 eq. (4); 003 Section 2): closed forms for path
 * (V1 = {0..floor(m/2)-1}, one link), ring (V1 = {0..floor(m/2)-1}, two
 * links), complete graph and K2 (V1 = {0..floor(m/2)-1}, side*other links,
 * ratio 1); exhaustive over all 2^(m-1) bipartitions for a file graph with
 * m <= 22 (exact = 1); above that the best of the BFS-order prefixes and
 * DFS-tree subtrees (every bridge among them) from up to every node, within a
 * fixed work budget (exact = 0; the cut is genuine, so the bound stays
 * valid, it may just be weaker). Never fails: if memory runs out in the
 * sweep it returns the cut around node 0 (exact = 0, prefix = 1).
 * @param f a factor (not NULL).
 * @return the cut, with its sides, links and exactness.
 */
totex_cut totex_factor_best_cut(const totex_factor *f);

/**
 * Exhaustive best cut of an arbitrary small graph given by adjacency bitmasks
 * (adj[v] has bit u set when u ~ v; bits >= m and self-loops are ignored),
 * 2 <= m <= 30; O(2^(m-1)) by a Gray-code walk. Maximises |V1||V2|/C over all
 * bipartitions with C > 0, comparing ratios exactly; on ties keeps the first
 * found. Returns a cut with links = 0 when m is out of range or no
 * bipartition has C > 0 (no edges). Used for small factors and, in tests, as
 * the independent check of the closed forms and of the product lifting.
 * @param adj m bitmasks (not NULL). @param m the number of nodes, 2 .. 30.
 * @return the best cut; links = 0 when there is none (above).
 */
totex_cut totex_cut_exhaustive(const uint64_t *adj, uint32_t m);

/**
 * Separated pairs of a factor (the relay bound on a one-dimensional network):
 * the node @p node_out whose removal disconnects the most ordered pairs
 * (s, t), s, t != node, and that number. Closed form for a path (node
 * floor((m-1)/2), 2*i*(m-1-i) pairs); 0 for ring, complete graph and K2 (no
 * cut vertex; node 0); articulation analysis (one DFS, O(m + |E|)) for a file
 * graph. @p largest_out (may be NULL) receives the number of nodes of the
 * largest component of G - node. @p node_out and @p pairs_out may be NULL.
 * @param f a factor (not NULL). @param node_out receives the node. @param pairs_out receives the ordered pairs it separates.
 * @param largest_out receives the largest component's nodes. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_ENOMEM if the DFS arrays cannot be allocated.
 */
totex_status totex_factor_max_separated(const totex_factor *f, uint32_t *node_out, uint64_t *pairs_out,
                                        uint32_t *largest_out, totex_error *err);

/** Maximum number of bounds totex_bounds_compute() returns. */
#define TOTEX_MAX_BOUNDS 6

/**
 * Every lower bound for total exchange on @p net under @p ports, in steps.
 * Single-port: average-status, cut, receive, relay, band when a
 * dimension is a path of >= 3 nodes, and forwarding when
 * totex_bound_forwarding_weights() applies (4 to 6 bounds). k-port: average-status, cut, receive, relay, and
 * forwarding when it applies (4 or 5 bounds). Multiport: cut, receive (2 bounds). Each bound carries its witness.
 * @param net   the network (borrowed). @param ports the port model.
 * @param out   caller's array of TOTEX_MAX_BOUNDS entries, filled in that order
 * @param count number written
 * @param best  index in @p out of the largest bound (the first on ties)
 * @return TOTEX_OK; TOTEX_EINVAL for a NULL argument or an unknown port
 *         model; TOTEX_EOVERFLOW (single-port only) if S_G overflows 64 bits;
 *         TOTEX_ENOMEM if the relay analysis of a file graph cannot allocate.
 *         On error *count is 0 and @p err says why.
 * @param err   receives the message on failure (may be NULL).
 */
totex_status totex_bounds_compute(const totex_network *net, totex_ports ports, totex_bound *out,
                                  size_t *count, size_t *best, totex_error *err);

/**
 * The single-port forwarding bound (src/bounds/forwarding.c): integer node
 * weights w found by a search (exponentiated supergradient ascent over cheapest-path
 * routings), and the bound they prove: a hop u->v costs w_u + w_v, the hops
 * of one single-port step cost at most 2W (W = sum w), so
 * T >= sum over ordered pairs (s, d) of the cheapest s-d path / 2W, in steps.
 * Applies to networks with a path factor of >= 3 nodes or a file-graph
 * factor, with 3 <= n <= 1024 nodes, except a path alone (vertex-transitive
 * networks gain nothing over average status, a path nothing over relay).
 * Deterministic; O(R n |E| log n) time, R rounds (400 up to 64 nodes, 120
 * up to 256, 40 up to 512, else 20); O(n + |E|)
 * memory. The last result of the thread is remembered when @p weights is NULL.
 * @param net     the network (borrowed).
 * @param weights NULL, or the caller's array of n entries: receives w
 *                (every entry <= 2^20), the witness a checker needs
 * @param out     kind TOTEX_BOUND_FORWARDING, value (rounded up), exact
 *                (X / 2W) and the witness text (X, W, the weight profile)
 * @return TOTEX_OK; TOTEX_EINVAL for NULL @p net or @p out;
 *         TOTEX_ENOTAPPLICABLE (with the reason) outside the sizes above;
 *         TOTEX_ENOMEM.
 * @param err     receives the message on failure (may be NULL).
 */
totex_status totex_bound_forwarding_weights(const totex_network *net, uint64_t *weights, totex_bound *out,
                                            totex_error *err);

/**
 * The forwarding bound under @p ports: single-port (then it is
 * totex_bound_forwarding_weights()) or k-port (k >= 2, 001 Section 7). In a
 * k-port step node v sends at most c_v = min(k, deg v) messages and receives
 * at most c_v, so the hops of one step cost at most 2 sum_v c_v w_v and
 * T >= sum over ordered pairs (s, d) of the cheapest s-d path / (2 sum_v c_v w_v),
 * in steps. The weights are searched as in the single-port bound, the ascent
 * step of node v scaled by 1 / c_v. It sees what average status (uniform
 * weights) does not: under k-port the middle of a mesh must send and receive
 * more than the average node (mesh:3x3 k:2: 9 steps, the exact optimum;
 * average status 8). Same applicability, cost and memory as the
 * single-port bound; the last result of the thread (network and port model)
 * is remembered when @p weights is NULL.
 * @param net     the network (borrowed). @param ports the port model (single-port or k-port).
 * @param weights NULL, or the caller's array of n entries: receives w (every entry <= 2^20)
 * @param out     kind TOTEX_BOUND_FORWARDING, value (rounded up), exact, witness
 * @return TOTEX_OK; TOTEX_EINVAL for NULL @p net or @p out, or multiport (use the cut bound);
 *         TOTEX_ENOTAPPLICABLE (with the reason) outside the sizes of the single-port bound; TOTEX_ENOMEM.
 * @param err     receives the message on failure (may be NULL).
 * Source: beyond the papers: 000 eq. (3) with weighted nodes, and 001 Section 7's port limit.
 */
totex_status totex_bound_forwarding_ports(const totex_network *net, totex_ports ports, uint64_t *weights,
                                          totex_bound *out, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
