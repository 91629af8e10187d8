/**
 * @file totex/task.h
 * @brief Isotropic tasks on vertex-transitive products: the task matrix
 *        (001 Sections 2 and 8.1), its critical sum, total sum and critical line.
 *
 * Applies to products of rings, K2 and complete graphs (Cayley graphs of
 * Z_m1 x ... x Z_mk). Every node has the same packets, identified by their
 * routing tag: the destination's offset from the source. Row r of the task
 * matrix is one packet of node 0 (destination totex_task_destination(r));
 * column j is a link type (totex_task_column(j)): for a ring dimension its +
 * and - links (+1 and m-1 in Z_m), for K2 its link, for a complete graph
 * K_m one column per generator g = 1..m-1. Entry (r, j) is the number of
 * times packet r crosses a link of type j on its shortest route: ring offsets
 * go the short way; an antipodal ring offset m/2 goes + for the packets in
 * A+ and - for those in A-, with |A+| - |A-| in {0, 1} per dimension (001
 * Section 8.1), chosen so the two columns' sums differ as little as possible
 * (equal when the count n/m_i of antipodal packets is even). The split
 * pairs destination y with its mirror -y (same distance): with j* the first
 * dimension whose coordinate c has 2c != 0 (mod m_j), the packet is in A+
 * iff 2c_j* < m_j*; when there is no such dimension (all coordinates 0 or
 * m_j/2) it is in A+ iff it has an even number of nonzero coordinates
 * besides the antipodal one. This reproduces 001 Fig. 6 (torus:4x4).
 *
 * Rows are the destinations of node 0 in increasing node id order (total
 * exchange: row r goes to node r + 1). Columns are laid out dimension by
 * dimension (dimension 0 first): ring (m >= 3) "+" (delta 1) then "-"
 * (delta m-1); K2 one column (delta 1); K_m m-1 columns (delta 1..m-1).
 *
 * Sizes: rows <= n - 1 (uint32_t), columns <= sum of degrees; entries and
 * row sums in hops (uint32_t), column, critical and total sums in hops
 * (uint64_t). Memory: 4 bytes per row per dimension (one (column, count)
 * pair) plus 4 bytes per row (its sum; 8 for the neighbourhood exchange,
 * which also stores the destination) plus 16 bytes per column.
 */
#ifndef TOTEX_TASK_H
#define TOTEX_TASK_H

#include "totex/network.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A link type of a Cayley product: crossing it adds @c delta (mod m) to coordinate @c dim. */
typedef struct totex_link_type {
    uint32_t dim;   /**< dimension (factor index) */
    uint32_t delta; /**< generator in Z_m: 1 (ring +, K2, complete g=1), m-1 (ring -), g (complete) */
} totex_link_type;

/** Which isotropic task. */
typedef enum totex_task_kind {
    TOTEX_TASK_TOTAL_EXCHANGE = 0, /**< one packet to every other node */
    TOTEX_TASK_NEIGHBOURHOOD = 1   /**< (K, L) neighbourhood exchange (001 Section 4.1): hypercubes only */
} totex_task_kind;

typedef struct totex_task totex_task;

/**
 * Largest rows x dimensions a task matrix stores (4 bytes each, so at most
 * 4 GiB of entries); a larger task gets TOTEX_ENOMEM naming its size.
 */
#define TOTEX_TASK_MAX_ENTRIES (UINT64_C(1) << 30)

/**
 * Task matrix of total exchange on @p net (borrowed; must outlive the task):
 * n - 1 rows, the packets of node 0 to nodes 1..n-1 (001 Sections 2, 8.1).
 * Caller frees with totex_task_free(). O(n * k) time.
 * @param net a product of rings, K2 and complete graphs.
 * @param err receives the message on failure (may be NULL).
 * @return the task; NULL with TOTEX_ENOTAPPLICABLE in @p err (naming the factor and
 *         why: a path is not vertex-transitive and a file graph is not
 *         known to be, so the task is not isotropic); TOTEX_EINVAL for a NULL network; TOTEX_ENOMEM
 *         when out of memory or above TOTEX_TASK_MAX_ENTRIES.
 *         Memory: 4 bytes per row per dimension plus 4 per row.
 */
totex_task *totex_task_total_exchange(const totex_network *net, totex_error *err);

/**
 * Task matrix of the (K, L) neighbourhood exchange on a hypercube @p net
 * (every factor K2; borrowed): node s sends one packet to each r with
 * K <= Ham(s, r) <= L, 1 <= K <= L <= d (001 Section 4.1). Rows: the
 * destinations of node 0 at Hamming distance K..L, in increasing node id
 * order. Caller frees with totex_task_free(). O(n * d) time.
 * @param net a hypercube (every factor k2). @param K, L the Hamming distances, 1 <= K <= L <= d.
 * @param err receives the message on failure (may be NULL).
 * @return the task; NULL with TOTEX_ENOTAPPLICABLE (a factor is not k2) or TOTEX_EINVAL
 *         (K, L out of range; a NULL network), naming the problem in @p err;
 *         TOTEX_ENOMEM when out of memory or above TOTEX_TASK_MAX_ENTRIES.
 */
totex_task *totex_task_neighbourhood(const totex_network *net, uint32_t K, uint32_t L, totex_error *err);

/**
 * Period-2 total exchange (beyond 001; after 003 Section 4.2): for a scheme
 * symmetric only under translations by two along the even ring side @p dim.
 * Rows 0..n-2 are the packets of node 0, rows n-1..2n-3 those of node e_dim
 * (the next node along @p dim), both by destination offset; the odd node's
 * antipodal packets along @p dim are routed the other way round. Row and column
 * sums then count both representatives. Caller frees with totex_task_free().
 * @param net a product of rings, K2 and complete graphs (borrowed).
 * @param dim the dimension of the translation by two: an even ring.
 * @param err receives the message on failure (may be NULL).
 * @return the task; NULL with TOTEX_EINVAL when dimension @p dim is not an
 *         even ring, or as totex_task_total_exchange() fails.
 */
totex_task *totex_task_total_exchange_period2(const totex_network *net, uint32_t dim, totex_error *err);

/* Every function below takes a task @p t made above (never NULL, except
   totex_task_free) and reads it only. Rows r: 0 <= r < rows; columns j: 0 <= j < cols. */

/** @param t a task. @return the periodic dimension of a period-2 task; UINT32_MAX for an ordinary (period-1) task. */
uint32_t totex_task_period_dim(const totex_task *t);
/**
 * @param t a task. @param r a row.
 * @return the source node of row @p r's packet: 0, or e_dim for the odd representative of a period-2 task;
 *         UINT32_MAX when @p r >= rows.
 */
uint32_t totex_task_source(const totex_task *t, uint32_t r);
/** Free a task. @param t a task, or NULL (nothing done). */
void totex_task_free(totex_task *t);
/** @param t a task. @return its kind. */
totex_task_kind totex_task_get_kind(const totex_task *t);
/** @param t a task. @return its network (borrowed from the caller of the constructor). */
const totex_network *totex_task_network(const totex_task *t);
/** @param t a task. @return its rows: the packets of one node. */
uint32_t totex_task_rows(const totex_task *t);
/** @param t a task. @return its columns: the link types, one per link of a node (= node degree). */
uint32_t totex_task_cols(const totex_task *t);
/** @param t a task. @param j a column. @return its link type; {UINT32_MAX, 0} when @p j >= cols. */
totex_link_type totex_task_column(const totex_task *t, uint32_t j);
/** @param t a task. @param r a row. @return the destination of row @p r's packet from node 0; UINT32_MAX when @p r >= rows. */
uint32_t totex_task_destination(const totex_task *t, uint32_t r);
/**
 * The nonzero entries of a row, in dimension order (at most one per dimension).
 * @param t a task. @param r a row.
 * @param cols, counts caller's arrays of @p cap entries, receiving (column, count in hops) pairs; either may be NULL.
 * @param cap  their capacity (the number of dimensions always suffices).
 * @return how many nonzero entries the row has (more than @p cap: only @p cap written); 0 when @p r >= rows.
 */
uint32_t totex_task_row(const totex_task *t, uint32_t r, uint32_t *cols, uint32_t *counts, uint32_t cap);
/** @param t a task. @param r a row. @param j a column. @return entry (r, j), in hops; 0 out of range. */
uint32_t totex_task_entry(const totex_task *t, uint32_t r, uint32_t j);
/** @param t a task. @param r a row. @return the row sum r_r, the packet's route length in hops (0 out of range). */
uint32_t totex_task_row_sum(const totex_task *t, uint32_t r);
/** @param t a task. @param j a column. @return the column sum c_j, packets crossing a link of type j per node, in hops (0 out of range). */
uint64_t totex_task_col_sum(const totex_task *t, uint32_t j);
/** @param t a task. @return the critical sum h = max over lines of the line sums (001 Definition 3), in steps. */
uint64_t totex_task_critical_sum(const totex_task *t);
/** @param t a task. @return the total sum sigma = sum of all entries (001 Section 7), in hops. */
uint64_t totex_task_total_sum(const totex_task *t);
/** @param t a task. @return the largest row sum h_r, the longest route of a packet, in hops (001 Sections 5, 8.3). */
uint32_t totex_task_max_row_sum(const totex_task *t);
/**
 * @param t a task.
 * @return the largest column sum h_c, the most loaded link type, in hops per
 *         node (001 Sections 5, 8.3; h_c + h_r - 1 bounds greedy).
 */
uint64_t totex_task_max_col_sum(const totex_task *t);
/**
 * Describe a critical line, for reports: the first critical column if any
 * column is critical ("column 0 (dimension 0, + link of ring:24): 476928
 * hops"; K2: "link of k2"; K_m: "+g link of complete:m"), else the first
 * critical row ("row 17 (packet to node 18): 5 hops").
 * @param t a task. @param buf the caller's buffer. @param len its size in bytes (>= 1).
 * @return @p buf, NUL-terminated, truncated to @p len bytes.
 */
char *totex_task_critical_line(const totex_task *t, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
