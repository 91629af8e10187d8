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
 * Memory: 8 bytes per move; a shortest-path schedule has sigma moves (the
 * total sum). Step indices in messages are 0-based, like the simulator's.
 */
#ifndef TOTEX_SYMMETRIC_H
#define TOTEX_SYMMETRIC_H

#include "totex/network.h"
#include "totex/schedule.h"
#include "totex/sim.h"
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

/** @return a new empty symmetric schedule the caller frees with totex_sym_free(); NULL when out of memory. */
totex_sym_schedule *totex_sym_new(void);
/** Free a schedule. @param s a schedule, or NULL (nothing done). */
void totex_sym_free(totex_sym_schedule *s);
/**
 * Append a step of moves. Moves are not checked here (totex_sym_certify() does).
 * @param s     the schedule.
 * @param moves @p count moves of node 0 (copied).
 * @param count number of moves; 0 is an idle step.
 * @param err   receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_ENOMEM; TOTEX_EINVAL for a NULL schedule, or NULL
 *         moves with @p count > 0.
 */
totex_status totex_sym_add_step(totex_sym_schedule *s, const totex_sym_move *moves, size_t count, totex_error *err);
/** @param s a schedule. @return its number of steps. */
uint64_t totex_sym_steps(const totex_sym_schedule *s);
/** @param s a schedule. @return its number of moves in all (moves of node 0 = hops per node). */
uint64_t totex_sym_moves(const totex_sym_schedule *s);
/**
 * @param s a schedule. @param i a step, 0-based. @param count receives the step's number of moves.
 * @return the moves of step @p i, owned by @p s and valid until the next
 *         totex_sym_add_step(); NULL (and *count 0) when @p i >= steps.
 */
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
 * Certify @p s at node 0 (001 Theorem 2; Theorem 8 for wraparound meshes;
 * k-port: 001 Section 7): each step moves each packet at most once and uses
 * each link type at most once (under k-port, @p ports = k >= 1, at most k
 * moves per step, so single-port is one move per step; TOTEX_PORTS_MULTI: no
 * limit), every move is a row and column of the task (a link of the
 * network), no delivered packet moves, and after the last step every packet
 * is at its destination. Positions are tracked as offsets in Z_m per
 * dimension, from the destinations and the columns' generators alone, not
 * from the task matrix entries, so any route (shortest or not) is accepted.
 * O(rows * k + moves) time; 2 bytes per row per dimension plus 9 per row.
 * @param t     the task (total exchange or another isotropic task).
 * @param ports the port model.
 * @param s     the schedule (node 0's moves).
 * @param rep   receives what certification measured.
 * @param err   receives the message on failure (may be NULL).
 * @return TOTEX_OK and @p rep; TOTEX_EVIOLATION with @p err naming the
 *         (0-based) step, the move, the row and its destination node, and
 *         the column; TOTEX_EINVAL for NULL arguments or ports above
 *         TOTEX_PORTS_MAX_K; TOTEX_ENOMEM.
 */
totex_status totex_sym_certify(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                               totex_sym_report *rep, totex_error *err);

/**
 * The simulator's report (totex/sim.h) of a schedule certified at one node:
 * what @p rep measured at node 0, scaled to the n nodes of @p net (001
 * Theorem 2: every node makes node 0's moves, translated), so a certified
 * schedule is reported exactly as a replayed one. Fills every field of
 * @p out (zero where certification measures nothing): steps and delays in
 * steps, hops = moves x n, directed links = 2 x links, steps_emitted =
 * totex_sym_steps(@p s). All pointers borrowed; no error.
 * @param net the network of the task. @param s the certified schedule.
 * @param rep its certification report. @param out receives the report.
 */
void totex_sym_report_to_sim(const totex_network *net, const totex_sym_schedule *s, const totex_sym_report *rep,
                             totex_sim_report *out);

/* the progress meter of totex/report.h */
typedef struct totex_progress totex_progress;

/**
 * totex_sym_certify() that also counts the steps it has checked into
 * @p progress (borrowed; NULL: none, exactly totex_sym_certify()), one tick
 * per 1024 steps and the rest at the end, so that a long certification shows
 * "LABEL: step DONE/TOTAL ..." on the meter's FILE when the meter writes
 * (totex_progress_new()). The caller sets the label and the total
 * (totex_sym_steps(@p s)) with totex_progress_new() or totex_progress_phase(),
 * and frees the meter. Same checks, report, errors and cost as
 * totex_sym_certify(); the meter never changes the result.
 * @param progress the meter, or NULL. The other parameters are totex_sym_certify()'s.
 * @return as totex_sym_certify().
 */
totex_status totex_sym_certify_progress(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                                        totex_sym_report *rep, totex_progress *progress, totex_error *err);

/**
 * Expand @p s to every node and stream it into @p sink, one sink.step call
 * per step (idle steps included): in step t, for each move (r, j), every
 * node v sends over its link of type j (to v + delta_j in that dimension,
 * mod m) the packet (src, dst) with src = v - progress_r (r's offset before
 * step t, per dimension mod m) and dst = src + the destination offset of r.
 * Produces n * moves hops (16 bytes each per step in a buffer); meant for
 * small networks and tests. Does not certify: only the indices are checked,
 * so an invalid scheme gives hops the simulator rejects. The simulator of
 * totex/sim.h is for total exchange only (a neighbourhood task leaves
 * messages it counts as undelivered).
 * @param t the task. @param s the schedule. @param sink receives the steps.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL (NULL argument, row or column out of
 *         range, naming the step); TOTEX_ENOMEM; or the sink's first non-OK status.
 */
totex_status totex_sym_expand(const totex_task *t, const totex_sym_schedule *s, totex_sink sink, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
