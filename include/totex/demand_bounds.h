/**
 * @file totex/demand_bounds.h
 * @brief Lower bounds on non-uniform total exchange (a demand W, totex/demand.h), each with its witness.
 *
 * Model: every directed link carries B bytes per second;
 * a schedule is a sequence of steps, a step costs t_s + (the most bytes one
 * link carries in it) / B. Over the whole schedule some link carries at
 * least L bytes for each L below, so every schedule takes at least
 * t_s + L / B seconds (one step at least; the loads of a link over the steps
 * add up to its total, and the steps' maxima to at least that).
 *
 * | kind | L (bytes on the busiest link) | source |
 * |---|---|---|
 * | injection | max over nodes i of (row i of W) / (out-links of i) | per-node: 000 Section 3 (a node's links) |
 * | ejection  | max over nodes j of (column j of W) / (in-links of j) | same, received |
 * | cut       | max over dimension cuts V1 = {v : v_k in S} of W(V1 -> V2) / (arcs V1 -> V2), both directions; S every arc of a ring, every prefix of a path, every subset of a complete or file factor of at most 16 nodes | 000 eq. (4) and the lifting of Theorem 5, byte-weighted |
 * | hop-bytes | sum over pairs of W[i][j] dist(i, j) / (directed links) | 000 Section 3, average status weighted by bytes |
 * | fluid-lp  | the exact fluid optimum: maximum concurrent multicommodity flow (source-aggregated commodities), by GLPK's simplex | TE-CCL-style LP; at most 64 nodes |
 *
 * Every bound is at most the fluid optimum (a test checks it on random demands).
 */
#ifndef TOTEX_DEMAND_BOUNDS_H
#define TOTEX_DEMAND_BOUNDS_H

#include "totex/demand.h"
#include "totex/network.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bounds on a demand, by kind. */
typedef enum totex_wbound_kind {
    TOTEX_WBOUND_INJECTION = 0,
    TOTEX_WBOUND_EJECTION = 1,
    TOTEX_WBOUND_CUT = 2,
    TOTEX_WBOUND_HOP_BYTES = 3,
    TOTEX_WBOUND_FLUID = 4
} totex_wbound_kind;

/** @param k a kind. @return "injection", "ejection", "cut", "hop-bytes", "fluid-lp" (static; "?" if unknown). */
const char *totex_wbound_kind_name(totex_wbound_kind k);

/** One bound on a demand and its witness. */
typedef struct totex_wbound {
    totex_wbound_kind kind;
    double bytes;       /**< L: bytes some directed link carries over the whole schedule, at least */
    double seconds;     /**< t_s + L / B: seconds every schedule takes, at least */
    char witness[384];  /**< the node, the cut, the sums (NUL-terminated) */
} totex_wbound;

/** Number of analytic bounds totex_demand_bounds() returns. */
#define TOTEX_WBOUND_ANALYTIC 4

/**
 * The analytic bounds for demand @p d on @p net: injection, ejection, cut,
 * hop-bytes, in that order, each with its witness. O(dims n^2 + sum over
 * dimensions of m^3) time (ring cuts maximised over every arc; dimensions of
 * more than 512 nodes only over the arcs of m/2 nodes and from node 0, said
 * in the witness).
 * @param net the network (not NULL). @param d a demand with d->n nodes = the network's.
 * @param bandwidth B, bytes per second per directed link (> 0). @param ts t_s, seconds per step (>= 0).
 * @param out caller's array of TOTEX_WBOUND_ANALYTIC entries. @param best receives the index of the largest (may be NULL).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL (NULL argument, sizes differ, B <= 0 or t_s < 0); TOTEX_ENOMEM.
 */
totex_status totex_demand_bounds(const totex_network *net, const totex_demand *d, double bandwidth, double ts,
                                 totex_wbound *out, size_t *best, totex_error *err);

/** Largest network the fluid LP is solved on. */
#define TOTEX_FLUID_MAX_NODES 64u

/** The fluid optimum and the routing that attains it. */
typedef struct totex_fluid {
    totex_wbound bound;  /**< kind TOTEX_WBOUND_FLUID: Lopt, t_s + Lopt / B, witness (variables, rows, solver) */
    uint32_t n;          /**< nodes */
    uint64_t arcs;       /**< directed links, indexed as totex_wlinks (totex/wschedule.h): node v's out-links in neighbour order */
    double *flow;        /**< n * arcs: flow[s * arcs + a] bytes of source s on arc a, owned */
} totex_fluid;

/**
 * The exact fluid optimum of demand @p d on @p net: the least L such that
 * every source s can send W[s][j] to every j with at most L bytes on each
 * directed link (maximum concurrent multicommodity flow; commodities
 * aggregated by source, n * arcs + 1 variables), solved by GLPK's simplex.
 * @param net the network (at most TOTEX_FLUID_MAX_NODES nodes). @param d its demand.
 * @param bandwidth B (bytes/s, > 0). @param ts t_s (s, >= 0). @param seconds time limit of the solver (0: none).
 * @param out receives the result (caller frees with totex_fluid_free()). @param err receives the message.
 * @return TOTEX_OK; TOTEX_EINVAL; TOTEX_ENOTAPPLICABLE (more than 64 nodes, totex built without GLPK,
 *         or the time limit reached, with the reason); TOTEX_ENOMEM.
 */
totex_status totex_demand_fluid(const totex_network *net, const totex_demand *d, double bandwidth, double ts,
                                double seconds, totex_fluid *out, totex_error *err);

/** Free the flow of a fluid result. @param f a result of totex_demand_fluid() or zeroed (nothing done). */
void totex_fluid_free(totex_fluid *f);

#ifdef __cplusplus
}
#endif
#endif
