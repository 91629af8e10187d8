/**
 * @file totex/symmetric.h
 * @brief Symmetric switching schemes (001 Definition 4, Theorem 2, Section 8):
 *        one node's moves, translated to every node.
 *
 * A symmetric schedule is a sequence of steps; a step is a set of moves
 * (row, column): the packet of task-matrix row r held by a node crosses that
 * node's link of type j. Every node does the same in the same step, so the
 * schedule is valid everywhere iff it is valid at one node (001 Theorem 2):
 * totex_sym_certify() checks it there, and totex_sym_expand() writes the full
 * schedule (every node's hops) into an ordinary sink so the simulator of
 * totex/sim.h can replay it on small networks.
 *
 * Memory: 8 bytes per move; a schedule has sigma moves (the total sum).
 */
#ifndef TOTEX_SYMMETRIC_H
#define TOTEX_SYMMETRIC_H

#include "totex/schedule.h"
#include "totex/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Packet @c row crosses one link of type @c col. */
typedef struct totex_sym_move {
    uint32_t row;
    uint32_t col;
} totex_sym_move;

typedef struct totex_sym_schedule totex_sym_schedule;

/** New empty symmetric schedule (NULL on ENOMEM). */
totex_sym_schedule *totex_sym_new(void);
/** Free (NULL accepted). */
void totex_sym_free(totex_sym_schedule *s);
/** Append a step of @p count moves (copied). TOTEX_ENOMEM on failure. */
totex_status totex_sym_add_step(totex_sym_schedule *s, const totex_sym_move *moves, size_t count, totex_error *err);
/** Number of steps. */
uint64_t totex_sym_steps(const totex_sym_schedule *s);
/** Total number of moves. */
uint64_t totex_sym_moves(const totex_sym_schedule *s);
/** Moves of step @p i (owned by @p s); count in @p count. */
const totex_sym_move *totex_sym_step(const totex_sym_schedule *s, uint64_t i, size_t *count);

/** What certification at one node measured. */
typedef struct totex_sym_report {
    uint64_t steps;            /**< completion time: last step with a delivery, in steps */
    uint64_t moves;            /**< moves of one node = hops per node, in hops */
    double average_delay;      /**< mean delivery step over the rows (= over all n(n-1) packets), in steps */
    uint64_t peak_queue;       /**< undelivered packets a node holds, largest over step ends (the rows, at start) */
    double link_utilisation;   /**< moves / (steps * columns) */
    uint64_t max_moves_in_step;/**< most links one node uses in a step */
} totex_sym_report;

/**
 * Certify @p s at node 0 (001 Theorem 2; Theorem 8 for wraparound meshes):
 * each step moves each packet at most once and uses each link type at most
 * once (under k-port also at most k link types), every move is a link of the
 * network (its column), no delivered packet moves, and after the last step
 * every packet is at its destination. Positions are tracked from the
 * destinations alone, not from the task matrix entries.
 * @return TOTEX_OK and @p rep; TOTEX_EVIOLATION with the step, row and column.
 */
totex_status totex_sym_certify(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                               totex_sym_report *rep, totex_error *err);

/**
 * Expand @p s to every node and stream it into @p sink: in step t, node v
 * sends the packet of row r whose source is v minus r's progress before t.
 * Produces n * moves hops; meant for small networks and tests.
 */
totex_status totex_sym_expand(const totex_task *t, const totex_sym_schedule *s, totex_sink sink, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
