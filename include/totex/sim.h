/**
 * @file totex/sim.h
 * @brief The independent step simulator: replays any schedule, rejects every
 *        violation, measures completion time, average delay, queues and link use.
 *
 * The simulator trusts nothing an algorithm claims. It keeps, for each of the
 * n(n-1) messages, where it is (4 bytes per message),
 * and checks every hop of every step against the network and the port model:
 *
 * - the hop's nodes exist and are adjacent (TOTEX_VIOL_NOT_LINK);
 * - the message exists (src != dst) and is at @c from (TOTEX_VIOL_NOT_PRESENT);
 * - the message was not already delivered (TOTEX_VIOL_DELIVERED);
 * - the message moves at most once per step (TOTEX_VIOL_DUPLICATE);
 * - single-port: a node sends at most one and receives at most one message
 *   per step (TOTEX_VIOL_PORT_SEND / TOTEX_VIOL_PORT_RECV);
 * - k-port (k >= 2): at most k sends and k receives per node per step and at
 *   most one message per directed link (TOTEX_VIOL_PORT_SEND / _RECV / LINK_BUSY);
 * - multiport: a directed link carries at most one message per step
 *   (TOTEX_VIOL_LINK_BUSY);
 * - at the end, every message is at its destination (TOTEX_VIOL_NOT_DELIVERED).
 */
#ifndef TOTEX_SIM_H
#define TOTEX_SIM_H

#include "totex/network.h"
#include "totex/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kind of a schedule violation. */
typedef enum totex_violation {
    TOTEX_VIOL_NONE = 0,
    TOTEX_VIOL_BAD_NODE,      /**< a node id of the hop is >= n */
    TOTEX_VIOL_NOT_LINK,      /**< from and to are not neighbours */
    TOTEX_VIOL_SELF_MESSAGE,  /**< src == dst: no such message in total exchange */
    TOTEX_VIOL_NOT_PRESENT,   /**< the message is not at the sending node */
    TOTEX_VIOL_DELIVERED,     /**< the message had already reached its destination */
    TOTEX_VIOL_DUPLICATE,     /**< the message moves twice in one step (duplicated) */
    TOTEX_VIOL_PORT_SEND,     /**< single-port: node sends two messages in one step */
    TOTEX_VIOL_PORT_RECV,     /**< single-port: node receives two messages in one step */
    TOTEX_VIOL_LINK_BUSY,     /**< multiport: a directed link carries two messages in one step */
    TOTEX_VIOL_NOT_DELIVERED  /**< a message never reached its destination (lost) */
} totex_violation;

/** @param v a violation kind. @return its name, static ("not a link", "port conflict (send)", ...). */
const char *totex_violation_name(totex_violation v);

/** What the simulator measured (valid after a successful totex_sim_finish()). */
typedef struct totex_sim_report {
    uint64_t steps;            /**< completion time: last step in which a message arrived, in steps */
    uint64_t steps_emitted;    /**< steps received from the schedule, including idle ones */
    uint64_t hops;             /**< link traversals performed, in message-hops */
    uint64_t messages;         /**< messages delivered, n(n-1) */
    double average_delay;      /**< mean arrival step over all n(n-1) messages, in steps */
    uint64_t peak_queue;       /**< largest number of undelivered messages held by one node at a step's end */
    uint32_t peak_queue_node;  /**< a node where peak_queue occurred */
    uint64_t directed_links;   /**< directed links of the network (2 per undirected link) */
    double link_utilisation;   /**< hops / (steps * directed_links), in [0,1] */
    double port_utilisation;   /**< hops / (steps * n): sends per node per step, in [0, degree] */
    uint64_t max_hops_in_step; /**< largest number of hops in one step */
} totex_sim_report;

/** Details of the first violation found (valid when a call returned TOTEX_EVIOLATION). */
typedef struct totex_sim_fault {
    totex_violation kind;
    uint64_t step;   /**< 0-based step index */
    uint32_t node;   /**< the node that broke the rule */
    uint32_t src;    /**< the message involved */
    uint32_t dst;
} totex_sim_fault;

typedef struct totex_sim totex_sim;

/** Largest number of messages the simulator accepts (4 bytes each): 2^31, i.e. 8 GiB. */
#define TOTEX_SIM_MAX_MESSAGES (UINT64_C(1) << 31)
/**
 * The default limit (max_messages = 0): 2^26 messages, 256 MiB of simulator
 * state. Chosen so that planning and verifying in full with default options
 * stays under 2 GiB (the bytes per message measured: docs/performance.md,
 * "The planner"); it admits every network of up to 8192 nodes. Raise it with
 * max_messages (the CLI's --max-messages) up to TOTEX_SIM_MAX_MESSAGES.
 */
#define TOTEX_SIM_DEFAULT_MAX_MESSAGES (UINT64_C(1) << 26)

/**
 * New simulator for total exchange on @p net under @p ports. Borrows @p net
 * (must outlive the simulator). Memory: 4 bytes per ordered pair (n^2) plus
 * O(n * degree).
 * @param net the network (borrowed). @param ports the port model.
 * @param max_messages the most messages it may hold (0: TOTEX_SIM_DEFAULT_MAX_MESSAGES; at most TOTEX_SIM_MAX_MESSAGES).
 * @param err receives the message on failure (may be NULL).
 * @return the simulator (free with totex_sim_free()); NULL with @p err set when n(n-1) exceeds @p max_messages (0 means
 *         TOTEX_SIM_DEFAULT_MAX_MESSAGES) or memory runs out.
 */
totex_sim *totex_sim_new(const totex_network *net, totex_ports ports, uint64_t max_messages,
                         totex_error *err);
/** Free a simulator. @param sim a simulator, or NULL (nothing done). */
void totex_sim_free(totex_sim *sim);
/**
 * @param sim a simulator (outlives the sink).
 * @return a sink feeding it: each step is checked and applied (totex_sim_step()),
 *         TOTEX_EVIOLATION on the first violation.
 */
totex_sink totex_sim_sink(totex_sim *sim);
/**
 * Check and apply one step.
 * @param sim a simulator. @param hops the step's @p count hops (borrowed; 0 is an idle step).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EVIOLATION with @p err naming the step, node and
 *         message (details: totex_sim_get_fault()); TOTEX_EOVERFLOW past 2^32-2 steps.
 */
totex_status totex_sim_step(totex_sim *sim, const totex_hop *hops, size_t count, totex_error *err);
/**
 * A replay split in two parts that write disjoint memory, to run on two
 * threads (src/sim/sim.c, src/schedule/sink_thread.c):
 * TOTEX_SIM_STAGE_LINKS checks node ids, links, ports and link conflicts and
 * keeps the queues and hop counts; TOTEX_SIM_STAGE_MESSAGES checks node ids,
 * that each message is at the sending node and not yet delivered, that it
 * moves once per step, and keeps arrivals and delays. Together they make
 * exactly the checks of totex_sim_step().
 */
typedef enum totex_sim_stage {
    TOTEX_SIM_STAGE_LINKS = 0,
    TOTEX_SIM_STAGE_MESSAGES = 1
} totex_sim_stage;
/**
 * Sink of one part of a split replay of @p sim (borrowed). Feed both parts
 * every step of the schedule in the same order, each part from one thread at
 * a time, and do not mix them with totex_sim_step() on the same simulator.
 * A part's step returns its own first failure (TOTEX_EVIOLATION, or
 * TOTEX_EOVERFLOW past 2^32-2 steps), and the same status on every later
 * call; that message may not be the serial replay's: after both parts have
 * taken every step (or stopped at their failure), totex_sim_stages_join()
 * gives the one the serial replay reports.
 * @param sim a simulator (borrowed). @param stage which part.
 * @return the part's sink.
 */
totex_sink totex_sim_stage_sink(totex_sim *sim, totex_sim_stage stage);
/**
 * Join the two parts of a split replay (call once, after every step was given
 * to both parts, with no thread still feeding them).
 * @param sim a simulator fed by both parts. @param err receives the message on failure (may be NULL).
 * @return the violation
 * that totex_sim_step() would have reported, with the same message in @p err
 * and the same totex_sim_get_fault() (the first by step, by pass within the
 * step, by hop, then by check); TOTEX_EINVAL when the parts took different
 * numbers of steps without failing; else TOTEX_OK, and totex_sim_finish()
 * then reports as after a serial replay.
 */
totex_status totex_sim_stages_join(totex_sim *sim, totex_error *err);
/**
 * End of the schedule: check that every message was delivered and fill @p out.
 * @param sim a simulator. @param out receives the report (on TOTEX_OK).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EVIOLATION (kind TOTEX_VIOL_NOT_DELIVERED) naming a lost message.
 */
totex_status totex_sim_finish(totex_sim *sim, totex_sim_report *out, totex_error *err);
/** @param sim a simulator. @return the first violation seen (kind TOTEX_VIOL_NONE if none). */
totex_sim_fault totex_sim_get_fault(const totex_sim *sim);

#ifdef __cplusplus
}
#endif
#endif
