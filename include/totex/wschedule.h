/**
 * @file totex/wschedule.h
 * @brief Byte-weighted schedules of non-uniform total exchange and their simulator.
 *
 * A weighted schedule is a sequence of steps; a step is a set of transfers;
 * a transfer moves @c bytes of the pair (src -> dst) from the first node of its
 * path to the last, over every directed link of the path, within the step
 * (a pair's bytes may split across paths and steps, and rest at relays
 * between steps). The simulator (src/sim/wsim.c) trusts nothing: each path
 * follows links, each transfer takes only bytes its first node holds at the
 * start of the step, a destination's bytes are never forwarded, and at the
 * end every byte of W has arrived exactly once. A step costs
 * t_s + (the most bytes one directed link carries in it) / B.
 */
#ifndef TOTEX_WSCHEDULE_H
#define TOTEX_WSCHEDULE_H

#include "totex/demand.h"
#include "totex/network.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The directed links of a network, numbered: node v's out-links are off[v] .. off[v+1]-1, to nbr[a]. */
typedef struct totex_wlinks {
    uint32_t n;     /**< nodes */
    uint64_t arcs;  /**< directed links */
    uint64_t *off;  /**< n + 1 offsets, owned */
    uint32_t *nbr;  /**< arcs heads (totex_network_neighbors() order), owned */
} totex_wlinks;

/**
 * Number the directed links of @p net. @param net a network. @param out receives them (free with totex_wlinks_free()).
 * @param err receives the message. @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_wlinks_build(const totex_network *net, totex_wlinks *out, totex_error *err);
/** Free link numbering arrays. @param l built links or zeroed (nothing done). */
void totex_wlinks_free(totex_wlinks *l);
/** @param l links. @param from, to nodes. @return the arc index of from -> to; UINT64_MAX if not a link. */
uint64_t totex_wlinks_find(const totex_wlinks *l, uint32_t from, uint32_t to);

/** One transfer: @c bytes of pair (src -> dst) along path[first] .. path[first + hops] (node ids). */
typedef struct totex_wtransfer {
    uint32_t src, dst; /**< the pair whose bytes move */
    uint32_t hops;     /**< links on the path (>= 1) */
    uint64_t first;    /**< index of the path's first node in the schedule's node array */
    uint64_t bytes;    /**< bytes moved (> 0) */
} totex_wtransfer;

/** An in-memory weighted schedule (opaque). */
typedef struct totex_wschedule totex_wschedule;

/** @param name what made it (copied, e.g. "direct"). @return a new empty schedule, or NULL when out of memory. */
totex_wschedule *totex_wschedule_new(const char *name);
/** Free a schedule. @param s a schedule or NULL. */
void totex_wschedule_free(totex_wschedule *s);
/** Begin a new step (transfers added go into it). @param s a schedule. @return TOTEX_OK or TOTEX_ENOMEM. */
totex_status totex_wschedule_step(totex_wschedule *s);
/**
 * Add a transfer to the current step (one is begun if none is).
 * @param s a schedule. @param src, dst the pair. @param bytes bytes moved (0: nothing added).
 * @param path the nodes visited, from the holder to the receiver, @p nodes >= 2 of them (copied).
 * @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_wschedule_add(totex_wschedule *s, uint32_t src, uint32_t dst, uint64_t bytes, const uint32_t *path,
                                 uint32_t nodes);
/** @param s a schedule. @return its name (owned by @p s). */
const char *totex_wschedule_name(const totex_wschedule *s);
/** @param s a schedule. @return its steps. */
uint64_t totex_wschedule_steps(const totex_wschedule *s);
/**
 * @param s a schedule. @param i a step below totex_wschedule_steps(). @param count receives its transfers.
 * @return the step's transfers (owned by @p s, valid until the next add).
 */
const totex_wtransfer *totex_wschedule_transfers(const totex_wschedule *s, uint64_t i, size_t *count);
/** @param s a schedule. @return its node array (paths index it; owned by @p s). */
const uint32_t *totex_wschedule_nodes(const totex_wschedule *s);

/** What the simulator measured. */
typedef struct totex_wsim_result {
    uint64_t steps;        /**< steps */
    uint64_t transfers;    /**< transfers */
    double seconds;        /**< sum over steps of t_s + (most bytes on one link in the step) / B */
    uint64_t step_bytes;   /**< sum over steps of the most bytes on one link in the step */
    uint64_t max_link;     /**< most bytes one directed link carried over the whole schedule */
    uint64_t link_bytes;   /**< bytes times links: sum over arcs of their bytes */
} totex_wsim_result;

/**
 * Replay @p s for demand @p d on @p net and measure it; reject any violation.
 * @param net the network. @param d the demand (d->n = the network's nodes). @param s the schedule.
 * @param bandwidth B (bytes/s per directed link, > 0). @param ts t_s (s per step, >= 0).
 * @param per_link NULL, or the caller's array of totex_wlinks arcs entries: receives each arc's bytes.
 * @param res receives the measurements. @param err receives the first violation (step, transfer, pair, what).
 * @return TOTEX_OK; TOTEX_EVIOLATION (a path off the links, bytes a node does not hold, a byte
 *         forwarded from its destination, bytes missing or delivered twice at the end); TOTEX_EINVAL; TOTEX_ENOMEM.
 */
totex_status totex_wsim_run(const totex_network *net, const totex_demand *d, const totex_wschedule *s, double bandwidth,
                            double ts, uint64_t *per_link, totex_wsim_result *res, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
