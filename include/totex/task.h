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
 * Section 8.1), chosen so the two columns' sums differ as little as possible.
 *
 * Sizes: rows <= n - 1 (uint32_t), columns <= sum of degrees; entries and
 * sums in hops (uint64_t sums).
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
 * Task matrix of total exchange on @p net (borrowed; must outlive the task).
 * @return NULL with TOTEX_ENOTAPPLICABLE in @p err (naming the factor) when a
 *         factor is a path or a file graph; TOTEX_ENOMEM when out of memory.
 *         Memory: about 8 bytes per row per dimension.
 */
totex_task *totex_task_total_exchange(const totex_network *net, totex_error *err);

/**
 * Task matrix of the (K, L) neighbourhood exchange on a hypercube @p net
 * (every factor K2): node s sends one packet to each r with K <= Ham(s, r) <= L,
 * 1 <= K <= L <= d (001 Section 4.1). NULL with TOTEX_EINVAL / ENOTAPPLICABLE.
 */
totex_task *totex_task_neighbourhood(const totex_network *net, uint32_t K, uint32_t L, totex_error *err);

/** Free (NULL accepted). */
void totex_task_free(totex_task *t);

/** Kind of the task. */
totex_task_kind totex_task_get_kind(const totex_task *t);
/** The network (borrowed). */
const totex_network *totex_task_network(const totex_task *t);
/** Number of rows (packets of one node). */
uint32_t totex_task_rows(const totex_task *t);
/** Number of columns (link types = node degree). */
uint32_t totex_task_cols(const totex_task *t);
/** Link type of column @p j. */
totex_link_type totex_task_column(const totex_task *t, uint32_t j);
/** Destination node of row @p r's packet when its source is node 0. */
uint32_t totex_task_destination(const totex_task *t, uint32_t r);
/**
 * Nonzero entries of row @p r: writes up to @p cap (column, count) pairs into
 * @p cols / @p counts and returns how many the row has (at most one per dimension,
 * so cap = number of dimensions always suffices).
 */
uint32_t totex_task_row(const totex_task *t, uint32_t r, uint32_t *cols, uint32_t *counts, uint32_t cap);
/** Entry (r, j) of the task matrix, in hops. */
uint32_t totex_task_entry(const totex_task *t, uint32_t r, uint32_t j);
/** Row sum r_r: the packet's route length, in hops. */
uint32_t totex_task_row_sum(const totex_task *t, uint32_t r);
/** Column sum c_j: packets crossing a link of type j, per node, in hops. */
uint64_t totex_task_col_sum(const totex_task *t, uint32_t j);
/** Critical sum h = max over lines of the line sums (001 Definition 3), in steps. */
uint64_t totex_task_critical_sum(const totex_task *t);
/** Total sum sigma = sum of all entries (001 Section 7), in hops. */
uint64_t totex_task_total_sum(const totex_task *t);
/** Largest row sum h_r and largest column sum h_c (001 Sections 5, 8.3). */
uint32_t totex_task_max_row_sum(const totex_task *t);
uint64_t totex_task_max_col_sum(const totex_task *t);
/**
 * Describe a critical line ("column 0 (dimension 0, +1 link of ring:24): 476928
 * hops"), for reports. Writes at most @p len bytes into @p buf; returns buf.
 */
char *totex_task_critical_line(const totex_task *t, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
