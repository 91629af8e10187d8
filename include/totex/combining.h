/**
 * @file totex/combining.h
 * @brief Message-combining total exchange: schedules of combined transfers,
 *        their cost model, simulator, and the Suh-Shin-Yalamanchili algorithm
 *        (002 = Suh, Shin & Yalamanchili, "Complete Exchange in General
 *        Multidimensional Mesh Networks").
 *
 * Unlike the unit-step store-and-forward schedules of totex/schedule.h (one
 * message per link per step), a combining schedule moves many blocks at once:
 *
 * - a *block* is the m-byte piece of data node `src` has for node `dst`
 *   (src != dst; a node's block for itself never travels);
 * - a *transfer* carries a set of blocks from node `from` to node `to` as one
 *   message (one start-up), along a route fixed by the switching mode:
 *   store-and-forward: one hop (`from` and `to` must be adjacent);
 *   wormhole / circuit switching: the dimension-ordered path (dimension 0
 *   first; in a ring the short way, ties in the + direction; in a path
 *   straight; in a complete or file factor, at each hop the first neighbour
 *   by rank that is one hop closer);
 * - a *step* is a set of transfers that run in parallel (002 Section 2: "a
 *   step is the basic unit of a contention-free communication"); before a
 *   step, nodes may rearrange blocks in local memory (002 Section 3.3-3.4):
 *   the schedule declares, per step, the largest number of blocks any one
 *   node rearranges before it.
 *
 * Cost (002 Section 2): a step costs t_s + (largest transfer, bytes) * t_c
 * (+ longest route in hops * t_l under store-and-forward); the rearrangements
 * cost (rearranged blocks) * m * rho. The simulator reports the quantities
 * that 002 Table 1 counts: start-ups, blocks transmitted (sum over steps of
 * the largest transfer) and rearranged blocks.
 */
#ifndef TOTEX_COMBINING_H
#define TOTEX_COMBINING_H

#include <stdio.h>

#include "totex/common.h"
#include "totex/network.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A block of total exchange: the data node @c src has for node @c dst (m bytes). */
typedef struct totex_block {
    uint32_t src; /**< source node id */
    uint32_t dst; /**< destination node id */
} totex_block;

/** Switching mode of the cost model and of the routes (002 Section 2). */
typedef enum totex_switching {
    /** store-and-forward (packet switching): a transfer crosses exactly one link; pays t_l per hop */
    TOTEX_SWITCH_STORE_FORWARD = 0,
    /** wormhole (also circuit switching / virtual cut-through): a transfer follows its
        dimension-ordered path; distance is negligible (002 Section 2), t_l is not charged */
    TOTEX_SWITCH_WORMHOLE = 1
} totex_switching;

/**
 * Port model of a combining step: a ::totex_ports (include/totex/common.h),
 * TOTEX_PORTS_SINGLE or TOTEX_PORTS_MULTI; 002 Section 2 names them one-port
 * (a node injects at most one and consumes at most one transfer per step) and
 * all-port (any number; only link contention limits a step). k-port is not a
 * combining model: the simulator refuses it (TOTEX_EINVAL).
 * @deprecated totex_comb_ports, TOTEX_COMB_ONE_PORT and TOTEX_COMB_ALL_PORT
 * are the old names, kept for source compatibility.
 */
typedef totex_ports totex_comb_ports;
#define TOTEX_COMB_ONE_PORT TOTEX_PORTS_SINGLE
#define TOTEX_COMB_ALL_PORT TOTEX_PORTS_MULTI

/**
 * Cost model of a combining schedule (002 Section 2). All times in seconds.
 * Defaults (totex_comb_cost_default) are ILLUSTRATIVE orders of magnitude of
 * a current cluster interconnect, not measurements and not from 002, which
 * gives only symbolic costs: t_s = 10 us, t_c = 1 ns/byte (1 GB/s per link),
 * t_l = 50 ns/hop, rho = 0.5 ns/byte (local memory copy at ~2 GB/s),
 * m = 1024 bytes, wormhole, one-port.
 */
typedef struct totex_comb_cost {
    double t_s;                /**< start-up time of one transfer, seconds (002 t_s) */
    double t_c;                /**< transmission time per byte, seconds/byte (002 t_c, per flit; here a flit = 1 byte) */
    double t_l;                /**< per-hop propagation delay, seconds/hop; charged under store-and-forward only */
    double rho;                /**< rearrangement time per byte moved in local memory, seconds/byte (002 rho) */
    double m;                  /**< bytes per block (002 m) */
    totex_switching switching; /**< routes and t_l charging */
    totex_ports ports;         /**< TOTEX_PORTS_SINGLE (one-port) or TOTEX_PORTS_MULTI (all-port) */
} totex_comb_cost;

/** Fill a cost model with the illustrative defaults documented on ::totex_comb_cost. @param c receives them. */
void totex_comb_cost_default(totex_comb_cost *c);

/* ---- schedules --------------------------------------------------------- */

typedef struct totex_comb_schedule totex_comb_schedule;

/** A transfer as read back from a schedule; @c blocks stays valid until the schedule is modified or freed. */
typedef struct totex_transfer {
    uint32_t from;             /**< sending node */
    uint32_t to;               /**< receiving node */
    const totex_block *blocks; /**< the blocks carried */
    size_t count;              /**< number of blocks carried (may be 0: an empty transfer is ignored) */
} totex_transfer;

/** @return a new empty schedule (free with totex_comb_schedule_free()); NULL when out of memory. */
totex_comb_schedule *totex_comb_schedule_new(void);
/** Free a schedule. @param s a schedule, or NULL (nothing done). */
void totex_comb_schedule_free(totex_comb_schedule *s);
/**
 * Make room, in one allocation per array and exactly, for @p steps more steps,
 * @p transfers more transfers and @p blocks more blocks, so that adding them
 * allocates nothing (the importer counts what a file declares, then reserves:
 * memory in proportion to the file, not to the doubling of growing arrays).
 * Memory: 24 bytes per step and per transfer, 8 per block.
 * @param s a schedule. @param steps, transfers, blocks how many more of each.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, TOTEX_ENOMEM (the schedule is unchanged).
 */
totex_status totex_comb_schedule_reserve(totex_comb_schedule *s, uint64_t steps, uint64_t transfers, uint64_t blocks,
                                         totex_error *err);
/**
 * Begin a new (empty) step; later transfers and rearrangements go to it.
 * @param s a schedule. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_comb_begin_step(totex_comb_schedule *s, totex_error *err);
/**
 * Declare a rearrangement round before the current step: every node
 * rearranges at most @p blocks blocks in local memory. Rounds declared for
 * the same step add up.
 * @param s a schedule with a begun step. @param blocks blocks per node.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL when no step was begun.
 */
totex_status totex_comb_rearrange(totex_comb_schedule *s, uint64_t blocks, totex_error *err);
/**
 * Add a transfer to the current step (checked by the simulator, not here).
 * @param s a schedule with a begun step. @param from, to the sending and receiving nodes.
 * @param blocks the @p count blocks carried (copied; 0 blocks: an empty transfer, which the simulator ignores).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL when no step was begun; TOTEX_ENOMEM.
 */
totex_status totex_comb_add_transfer(totex_comb_schedule *s, uint32_t from, uint32_t to, const totex_block *blocks,
                                     size_t count, totex_error *err);
/** @param s a schedule. @return its number of steps, empty ones included. */
uint64_t totex_comb_steps(const totex_comb_schedule *s);
/** @param s a schedule. @param step a step, 0-based. @return its number of transfers (0 past the end). */
size_t totex_comb_step_transfers(const totex_comb_schedule *s, uint64_t step);
/** @param s a schedule. @param step a step, 0-based. @return the blocks declared as rearranged (largest per node) before it (0 past the end). */
uint64_t totex_comb_step_rearranged(const totex_comb_schedule *s, uint64_t step);
/**
 * Read transfer @p t of step @p step (both 0-based) into @p out.
 * @param s a schedule. @param step the step, 0-based. @param t the transfer in it, 0-based.
 * @param out receives the transfer (its blocks owned by @p s).
 * @return TOTEX_OK; TOTEX_EINVAL if @p step >= totex_comb_steps() or
 *         @p t >= totex_comb_step_transfers(@p step), with @p out zeroed
 *         (from = to = UINT32_MAX, no blocks), so that a caller that ignores
 *         the status never reads out of bounds.
 */
totex_status totex_comb_get_transfer(const totex_comb_schedule *s, uint64_t step, size_t t, totex_transfer *out);

/* ---- simulator --------------------------------------------------------- */

/** Kinds of violation the combining simulator rejects. */
typedef enum totex_comb_violation {
    TOTEX_CVIOL_NONE = 0,
    TOTEX_CVIOL_BAD_NODE,        /**< a node id out of range, or from == to */
    TOTEX_CVIOL_NOT_LINK,        /**< the route uses a pair of nodes that is not a link */
    TOTEX_CVIOL_BAD_BLOCK,       /**< a block with an id out of range or src == dst */
    TOTEX_CVIOL_NOT_HELD,        /**< a block sent from a node that does not hold it */
    TOTEX_CVIOL_DUPLICATE,       /**< a block sent twice in one step */
    TOTEX_CVIOL_DELIVERED_TWICE, /**< a block sent on after reaching its destination (it would arrive twice) */
    TOTEX_CVIOL_LINK_BUSY,       /**< two transfers of one step on the same directed link (contention) */
    TOTEX_CVIOL_PORT_SEND,       /**< one-port: a node injects two transfers in one step */
    TOTEX_CVIOL_PORT_RECV,       /**< one-port: a node consumes two transfers in one step */
    TOTEX_CVIOL_LOST             /**< a block never reaches its destination */
} totex_comb_violation;

/** @param v a violation kind. @return its name, static, never NULL ("link contention", ...). */
const char *totex_comb_violation_name(totex_comb_violation v);

/** Where a schedule failed. Steps and transfers are 1-based, as in the messages; 0 = not applicable. */
typedef struct totex_comb_fault {
    totex_comb_violation kind;
    uint64_t step;     /**< 1-based step */
    uint64_t transfer; /**< 1-based transfer index within the step */
    uint32_t node;     /**< node at which the rule broke */
    uint32_t src, dst; /**< the block concerned (UINT32_MAX if none) */
} totex_comb_fault;

/** What the simulator measured on a valid schedule. */
typedef struct totex_comb_report {
    uint64_t steps;              /**< steps, empty ones included */
    uint64_t startups;           /**< non-empty steps (002 counts one start-up per step: all nodes start in parallel) */
    uint64_t blocks_transmitted; /**< sum over steps of the largest transfer, in blocks (002 Table 1) */
    uint64_t rearranged_blocks;  /**< sum over steps of the declared per-node rearranged blocks */
    uint64_t transfers;          /**< non-empty transfers in all */
    uint64_t block_hops;         /**< sum over transfers of blocks * route hops (link traffic, in block-hops) */
    uint64_t route_hops_sum;     /**< sum over steps of the longest route of the step, in hops */
    uint32_t max_route_hops;     /**< longest route of any transfer, in hops */
    uint64_t blocks_delivered;   /**< blocks that reached their destination: n(n-1) on success */
    double time_startup;         /**< startups * t_s, seconds */
    double time_transmission;    /**< blocks_transmitted * m * t_c, seconds */
    double time_propagation;     /**< store-and-forward: route_hops_sum * t_l; wormhole: 0; seconds */
    double time_rearrangement;   /**< rearranged_blocks * m * rho, seconds */
    double predicted_time;       /**< sum of the four terms above, seconds */
} totex_comb_report;

/** Largest n^2 for which the simulator keeps a block table (4 bytes per block). */
#define TOTEX_COMB_MAX_BLOCKS (UINT64_C(1) << 27)

/**
 * Replay @p s on @p net under @p cost (switching and port model) and check it:
 * every transfer's route uses links only, no two transfers of a step share a
 * directed link, one-port limits, every block sent is held by the sender and
 * not sent twice in a step nor after reaching its destination, and at the end
 * every block (s, d), s != d, is at d. Blocks of a step move all at once: a
 * block received in a step can be sent on from the next step.
 *
 * @param net   the network (borrowed). @param s the schedule. @param cost the cost model, switching and port model.
 * @param rep   filled on success (may be NULL)
 * @param fault filled on TOTEX_EVIOLATION (may be NULL)
 * @param err   receives the message on failure (may be NULL).
 * @return TOTEX_OK, TOTEX_EVIOLATION with @p err naming the step, transfer,
 *         node and block, TOTEX_ENOMEM if n^2 > TOTEX_COMB_MAX_BLOCKS,
 *         TOTEX_EOVERFLOW if the schedule is valid but its predicted time is
 *         not a finite double (e.g. t_s = 1e308 and two start-ups): the report
 *         never holds an infinite or NaN time.
 */
totex_status totex_comb_simulate(const totex_network *net, const totex_comb_schedule *s, const totex_comb_cost *cost,
                                 totex_comb_report *rep, totex_comb_fault *fault, totex_error *err);

/* the progress meter of totex/report.h */
typedef struct totex_progress totex_progress;

/**
 * totex_comb_simulate() that also counts the steps it has replayed into
 * @p progress (borrowed; NULL: none, exactly totex_comb_simulate()): one tick
 * per step, or per batch of light steps (a tick once 4096 transfers plus
 * block-hops have been checked since the last), and the rest at the end, so
 * a long simulation shows "LABEL: step DONE/TOTAL ..." on the meter's FILE
 * when the meter writes. The caller sets the label and the total
 * (totex_comb_steps(@p s)) with totex_progress_new() or
 * totex_progress_phase(), and frees the meter. Same checks, report, fault,
 * errors and cost as totex_comb_simulate(); the meter never changes the result.
 * @param progress the meter, or NULL. The other parameters are totex_comb_simulate()'s.
 * @return as totex_comb_simulate().
 */
totex_status totex_comb_simulate_progress(const totex_network *net, const totex_comb_schedule *s,
                                          const totex_comb_cost *cost, totex_comb_report *rep,
                                          totex_comb_fault *fault, totex_progress *progress, totex_error *err);

/* ---- Suh-Shin-Yalamanchili (002 Sections 3-4) ---------------------------- */

/**
 * Build the (n+1)-phase message-combining complete exchange of 002 on an
 * a_1 x ... x a_n mesh (every factor a path, or k2; every side >= 2; n >= 2;
 * the sides may come in any order). Wormhole, one-port.
 *
 * Even sides (002): nodes form 2^n groups by the parities of their
 * coordinates. In each of phases 1..n every node sends, a_max/2 - 1 steps
 * long, to the next node of its group along one dimension (coordinate + 2,
 * wrapping from the last to the first: a logical ring, 002 Section 3.2),
 * forwarding the blocks that still have to travel along that dimension; each
 * group uses each dimension in exactly one phase. Phase n+1 has n steps: in
 * step j, nodes exchange with their partner across dimension j of their
 * 2 x ... x 2 submesh. Before phases 2..n+1 every node rearranges its
 * a_1...a_n blocks (002 Section 3.4(c) and Section 4; declared even when
 * phases are empty). Expected (002 Table 1, a_1 >= ... >= a_n): (n/2) a_1
 * start-ups, (n/4) a_1^2 a_2...a_n blocks, n a_1...a_n rearranged blocks; for
 * R x C, R <= C: C, R C^2 / 2 and 2 R C.
 *
 * Odd sides (beyond 002; q = number of odd sides, e_i = even part of a_i):
 * the extra line a_i - 1 of each odd side is merged into line a_i - 2 by q
 * one-hop steps before, the even algorithm runs on the e_1 x ... x e_n
 * submesh towards the clamped destinations, and q one-hop steps after
 * deliver the extra lines. Start-ups n (e_max/2 - 1) + n + 2q, rearranged
 * n 2^q a_1...a_n, blocks as the formula in the header of
 * src/combining/ssy.c; this costs more than the next larger even mesh (e.g.
 * 5x5: 8 start-ups, 294 blocks vs 6 and 108 on 6x6).
 *
 * @param net a mesh (a product of paths, >= 2 dimensions). @param out receives the schedule.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK with *out (caller frees), TOTEX_ENOTAPPLICABLE naming the
 *         non-mesh factor, a side < 2 or a mesh of fewer than 2 dimensions,
 *         TOTEX_ENOMEM.
 */
totex_status totex_ssy_build(const totex_network *net, totex_comb_schedule **out, totex_error *err);

/* ---- the registry of combining algorithms --------------------------------- */

/**
 * A total-exchange algorithm of the message-combining model. Each lives in
 * its own file under src/combining/ headed with its name, paper and section,
 * model and cost formula.
 */
typedef struct totex_comb_algorithm {
    const char *name;   /**< CLI name, e.g. "ssy", "bruck" */
    const char *title;  /**< one line */
    const char *source; /**< paper and section, or the classic reference */
    const char *cost;   /**< its cost formula, e.g. "C t_s + (R C^2/2) m t_c + 2 R C m rho" */
    /**
     * Build the schedule for @p net under @p cost (its switching and port model
     * decide what the algorithm may do); TOTEX_ENOTAPPLICABLE with the reason
     * when it does not apply. The caller frees *out.
     */
    totex_status (*build)(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                          totex_error *err);
    /**
     * The report totex_comb_simulate() gives for build()'s schedule under @p cost
     * (steps, start-ups, blocks transmitted, rearranged blocks, times in seconds),
     * computed from the algorithm's step structure without building the schedule:
     * for ranking the algorithm where its O(n^2)-block schedule is too large to
     * build (totex_alltoall at 1024 ranks). NULL when the algorithm has none;
     * TOTEX_ENOTAPPLICABLE with the reason where the form does not cover the
     * network, and build()'s refusals otherwise. tests/test_comb_predict.c
     * compares it with the simulator's report of the built schedule.
     */
    totex_status (*predict)(const totex_network *net, const totex_comb_cost *cost, totex_comb_report *rep,
                            totex_error *err);
    /**
     * Node 0's transfers of build()'s schedule (every step and rearrangement, in
     * order; the other nodes' transfers left out), made without building the
     * rest, for a schedule invariant under translation on @p net: node x's
     * transfers are node 0's with every node id (ends, block sources and
     * destinations) shifted by x coordinate-wise modulo the factor sizes, so
     * every node's share follows from node 0's (totex_alltoall: O(node 0's
     * blocks) per rank instead of building the O(n^2)-block schedule). Within a
     * transfer the blocks may come in another order than build()'s. NULL when
     * the algorithm has none; TOTEX_ENOTAPPLICABLE with the reason where its
     * schedule is not translation invariant, and build()'s refusals.
     * tests/program/test_translate.c compares every node's translated share with
     * the built schedule.
     */
    totex_status (*plan_node0)(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                               totex_error *err);
} totex_comb_algorithm;

/** A filter of transfers for totex_comb_build_share(): nonzero keeps the transfer @p from -> @p to. */
typedef int (*totex_comb_keep_fn)(void *ctx, uint32_t from, uint32_t to);

/**
 * Build @p a's schedule on @p net under @p cost (as a->build()) but store only
 * the transfers @p keep accepts (called with @p ctx); every step and
 * rearrangement is kept, in order, so step numbers are those of the whole
 * schedule. For one node's share of a schedule (totex_alltoall: the transfers
 * that leave or reach a rank): memory of that share plus the algorithm's
 * working state (a logical step at a time) instead of the whole schedule's
 * O(n^2) blocks; the time is still that of building the whole schedule. The
 * result is not a complete schedule: do not simulate it.
 * @param a the algorithm. @param net the network. @param cost the cost model.
 * @param keep, ctx the filter and its context. @param out receives the share.
 * @param err receives the message on failure (may be NULL).
 * @return as a->build(); the caller frees *out.
 */
totex_status totex_comb_build_share(const totex_comb_algorithm *a, const totex_network *net,
                                    const totex_comb_cost *cost, totex_comb_keep_fn keep, void *ctx,
                                    totex_comb_schedule **out, totex_error *err);

/** @return the number of registered combining algorithms. */
size_t totex_comb_algorithm_count(void);
/** @param i an index, 0 <= i < totex_comb_algorithm_count(). @return the @p i-th algorithm (static); NULL past the end. */
const totex_comb_algorithm *totex_comb_algorithm_get(size_t i);
/**
 * @param name a registry name ("ssy", "direct", ...). @param err receives the message on failure (may be NULL).
 * @return the algorithm (static); NULL with @p err listing the names when unknown.
 */
const totex_comb_algorithm *totex_comb_algorithm_find(const char *name, totex_error *err);

/* ---- selection: rank every registered algorithm by predicted time ------- */

/**
 * One row of totex_comb_rank(): an algorithm of the registry, built for a
 * network and cost model and replayed through totex_comb_simulate().
 */
typedef struct totex_comb_choice {
    const totex_comb_algorithm *algorithm; /**< the registry entry (static; never NULL in a filled row) */
    /** TOTEX_OK (built and verified: @c report is valid), TOTEX_ENOTAPPLICABLE (the
        algorithm does not apply; @c reason says why), TOTEX_EVIOLATION (the simulator
        rejected its schedule: a bug of the algorithm; @c reason is the simulator's
        message), TOTEX_ENOMEM or TOTEX_EINVAL (@c reason says why). */
    totex_status status;
    char reason[512];         /**< empty when status == TOTEX_OK */
    totex_comb_report report; /**< valid when status == TOTEX_OK; report.predicted_time in seconds */
} totex_comb_choice;

/**
 * Build every registered combining algorithm on @p net under @p cost, replay
 * each schedule through totex_comb_simulate() under the same @p cost, and fill
 * @p rows ranked: first the verified ones by increasing predicted_time (ties:
 * fewer start-ups, then registry order), then the others in registry order
 * with the reason (not applicable, violation, out of memory).
 *
 * @param net   the network (borrowed). @param cost the cost model (block size, switching, port model).
 * @param rows  caller-owned array of at least @p cap rows; give
 *              cap >= totex_comb_algorithm_count() to rank every algorithm
 *              (extra algorithms are dropped)
 * @return number of rows filled (min(cap, totex_comb_algorithm_count())).
 *         Never fails as a whole: failures are per row.
 * Progress: when totex_progress_enabled(), one meter on stderr for the whole
 * ranking (silent for its first second), each simulation a phase
 * "simulating NAME (i/n)" (totex_comb_simulate_progress()).
 * @deprecated for the progress switch: set totex_comb_options.progress and
 * call totex_comb_rank_with(); this entry point reads the process-wide switch.
 * Source: the cost model of 002 Section 2 (see ::totex_comb_cost).
 */
size_t totex_comb_rank(const totex_network *net, const totex_comb_cost *cost, totex_comb_choice *rows, size_t cap);

/** How a ranking or a sweep runs (totex_comb_rank_with(), totex_comb_sweep_with()); all zero: the defaults. */
typedef struct totex_comb_options {
    FILE *progress; /**< where the meter writes (borrowed), silent for its first second; NULL: nowhere
                         (the CLI: stderr on a terminal) */
} totex_comb_options;

/**
 * totex_comb_rank() with its switches in @p opt (NULL: the defaults, no
 * progress) rather than process-wide: calls with different options may run
 * at once on different threads. Progress, when opt->progress is set: one
 * meter for the whole ranking, each simulation a phase "simulating NAME (i/n)".
 * @param opt the options (borrowed), or NULL. The other parameters and the
 *            return value are totex_comb_rank()'s.
 * Source: the cost model of 002 Section 2 (see ::totex_comb_cost), as totex_comb_rank().
 */
size_t totex_comb_rank_with(const totex_network *net, const totex_comb_cost *cost, const totex_comb_options *opt,
                            totex_comb_choice *rows, size_t cap);

/** Number of block sizes of totex_comb_sweep(): 8 B, 16 B, ..., 1 MiB (powers of two). */
#define TOTEX_COMB_SWEEP_SIZES 18
/** Block size m, in bytes, of sweep row @p i (0 <= i < TOTEX_COMB_SWEEP_SIZES): 8 * 2^i. */
#define TOTEX_COMB_SWEEP_BLOCK(i) (8.0 * (double)(UINT64_C(1) << (i)))

/**
 * Predicted time of every registered algorithm at every block size of the
 * sweep: for each size TOTEX_COMB_SWEEP_BLOCK(i) (overriding cost->m), each
 * algorithm is rebuilt and simulated as in totex_comb_rank() (an algorithm may
 * choose its schedule by m).
 *
 * @param net     the network (borrowed). @param cost the cost model (its m is overridden per size).
 * @param times   caller-owned, TOTEX_COMB_SWEEP_SIZES * totex_comb_algorithm_count()
 *                doubles, row-major by size: times[i * count + a] is the predicted
 *                time in seconds of algorithm a (registry index) at size i, or NAN
 *                when it does not apply there
 * @param winners caller-owned, TOTEX_COMB_SWEEP_SIZES entries: registry index of the
 *                fastest algorithm at each size (ties: the earlier in the registry),
 *                or SIZE_MAX when none applies
 * @return TOTEX_OK; TOTEX_EVIOLATION (a schedule failed the simulator: @p err is its
 *         message prefixed with the algorithm and block size) or TOTEX_ENOMEM, in which
 *         case @p times and @p winners are partly filled.
 * @param err     receives the message on failure (may be NULL).
 * The crossovers are the sizes i >= 1 with winners[i] != winners[i - 1].
 * Progress: as totex_comb_rank(), one meter for the whole sweep, each
 * simulation a phase "simulating NAME at M B (size i/18)".
 * @deprecated for the progress switch: set totex_comb_options.progress and
 * call totex_comb_sweep_with(); this entry point reads the process-wide switch.
 */
totex_status totex_comb_sweep(const totex_network *net, const totex_comb_cost *cost, double *times, size_t *winners,
                              totex_error *err);

/**
 * totex_comb_sweep() with its switches in @p opt (NULL: the defaults, no
 * progress) rather than process-wide. Progress, when opt->progress is set:
 * one meter for the whole sweep, each simulation a phase
 * "simulating NAME at M B (size i/18)".
 * @param opt the options (borrowed), or NULL. The other parameters, the return
 *            value and the errors are totex_comb_sweep()'s.
 * Source: as totex_comb_sweep().
 */
totex_status totex_comb_sweep_with(const totex_network *net, const totex_comb_cost *cost,
                                   const totex_comb_options *opt, double *times, size_t *winners, totex_error *err);

/* ---- export and import of schedules (docs/schedule-format.md) ------------ */

/** Value of the "format" key of an exported schedule. */
#define TOTEX_COMB_FORMAT_NAME "totex-combining-schedule"
/** Value of the "version" key written; the only version read. */
#define TOTEX_COMB_FORMAT_VERSION 1
/** Largest schedule file totex_comb_import_file() reads, in bytes (256 MiB). */
#define TOTEX_COMB_FILE_MAX (UINT64_C(256) << 20)
/** Most steps an imported schedule may declare (refused before allocating). */
#define TOTEX_COMB_IMPORT_MAX_STEPS (UINT64_C(1) << 24)

/**
 * Serialise @p s as JSON in the format of docs/schedule-format.md: format name
 * and version, the network spec (totex_network_spec(@p net)) and node count,
 * the algorithm name, the cost model @p cost, and steps: [{rearranged,
 * transfers: [{from, to, blocks: [[src, dst], ...]}]}]. Node ids are the
 * network's node ids (0 .. n-1).
 *
 * @param net the network (borrowed). @param s the schedule. @param cost the cost model recorded.
 * @param algorithm name recorded in the file (NULL: "unknown")
 * @param err receives the message on failure (may be NULL).
 * @return a NUL-terminated string the caller frees with free(), or NULL with
 *         TOTEX_ENOMEM in @p err.
 */
char *totex_comb_export_json(const totex_network *net, const totex_comb_schedule *s, const totex_comb_cost *cost,
                             const char *algorithm, totex_error *err);

/**
 * totex_comb_export_json() written to the file @p path (created or truncated).
 * @param path the file. The other parameters are totex_comb_export_json()'s.
 * @return TOTEX_OK, TOTEX_EIO naming the path and the system error, TOTEX_ENOMEM.
 */
totex_status totex_comb_export_file(const char *path, const totex_network *net, const totex_comb_schedule *s,
                                    const totex_comb_cost *cost, const char *algorithm, totex_error *err);

/** A schedule read back by totex_comb_import_json(); free with totex_comb_imported_free(). */
typedef struct totex_comb_imported {
    totex_network *net;             /**< rebuilt from the file's "network" spec; owned */
    totex_comb_schedule *schedule;  /**< owned */
    totex_comb_cost cost;           /**< the file's "model" */
    char algorithm[64];             /**< the file's "algorithm" (truncated, control characters as '?') */
} totex_comb_imported;

/**
 * Parse @p len bytes of @p text (need not be NUL-terminated) as a schedule
 * file (docs/schedule-format.md), rebuild its network with
 * totex_network_parse() (a spec naming a graph file, "file:PATH", is refused:
 * see totex_comb_import_json_on()) and its schedule. Checks structure only: node ids and
 * block ids must be in 0 .. n-1 (n from the spec, which must match "nodes"),
 * counts within limits; whether the schedule is valid is totex_comb_simulate()'s
 * business. Refuses, before allocating the schedule, more than
 * TOTEX_COMB_IMPORT_MAX_STEPS steps, more than n(n-1) transfers in a step or
 * blocks in a transfer, and networks with n^2 > TOTEX_COMB_MAX_BLOCKS.
 *
 * @param text the file's bytes (borrowed). @param len their number.
 * @param err receives the message on failure (may be NULL).
 * @param out filled on success (caller frees with totex_comb_imported_free());
 *            zeroed on failure
 * @return TOTEX_OK; TOTEX_EIO for truncated or malformed JSON (with the byte
 *         offset); TOTEX_EINVAL naming the JSON path of a wrong type, missing
 *         key, bad value or out-of-range id (e.g. "steps[2].transfers[0].to");
 *         the network parser's status for a bad spec; TOTEX_ENOMEM.
 */
totex_status totex_comb_import_json(const char *text, size_t len, totex_comb_imported *out, totex_error *err);

/**
 * Read the file @p path (a regular file of at most TOTEX_COMB_FILE_MAX bytes)
 * and totex_comb_import_json() it. Errors name the path.
 * @param path the file. @param out filled on success (totex_comb_imported_free()); zeroed on failure.
 * @param err receives the message on failure (may be NULL).
 * @return as totex_comb_import_json(), and TOTEX_EIO for an unreadable,
 *         non-regular or too large file.
 */
totex_status totex_comb_import_file(const char *path, totex_comb_imported *out, totex_error *err);

/**
 * totex_comb_import_json() on the network @p network (a spec the caller
 * trusts) instead of the file's: the file's "network" is still read, but a
 * file naming a graph file ("file:PATH") is refused (TOTEX_EINVAL, asking for
 * --network) unless @p network is given, since a schedule file is untrusted
 * and names networks, not paths; totex_comb_import_json() is this with
 * @p network NULL. "nodes" must match the network used.
 * @param network a trusted spec, or NULL (the file's). The other parameters are totex_comb_import_json()'s.
 * @return as totex_comb_import_json().
 */
totex_status totex_comb_import_json_on(const char *text, size_t len, const char *network, totex_comb_imported *out,
                                       totex_error *err);
/**
 * totex_comb_import_file() with @p network as in totex_comb_import_json_on().
 * @param path the file. @param network a trusted spec, or NULL. @param out, err as totex_comb_import_file().
 * @return as totex_comb_import_file().
 */
totex_status totex_comb_import_file_on(const char *path, const char *network, totex_comb_imported *out,
                                       totex_error *err);

/** Free what an import allocated and zero it. @param im an imported schedule, a zeroed one, or NULL. */
void totex_comb_imported_free(totex_comb_imported *im);

/**
 * Where direct-relay (src/combining/relay.c; this project, no paper) sends
 * each block of node @p r first: a block whose destination is half-way round
 * a ring of even size >= 4 goes to a relay next to @p r (its route then
 * crosses that ring in the direction that splits such blocks in halves),
 * every other block straight to its destination. The same rule as the
 * direct-relay schedule's; totex_alltoallv's "relay" way (src/mpi) uses it.
 *
 * @param net    the network (a torus with a ring of even size >= 4 and, for
 *               every such ring, another factor of even size)
 * @param r      the sending node (< nodes)
 * @param first  [nodes] out: first[d] the node block (r, d) goes to first:
 *               d itself when not relayed, first[r] = r; caller-owned
 * @param err    filled on failure (may be NULL)
 * @return TOTEX_OK; TOTEX_EINVAL (@p net or @p first NULL, or @p r not a
 *         node; @p first untouched); TOTEX_ENOTAPPLICABLE (no such ring, or
 *         one without a partner factor of even size: the reason in @p err)
 */
totex_status totex_comb_relay_first(const totex_network *net, uint32_t r, uint32_t *first, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
