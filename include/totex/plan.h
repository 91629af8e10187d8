/**
 * @file totex/plan.h
 * @brief The driver: plan and verify in one call (network -> bounds ->
 *        algorithm -> simulator or one-node certifier), the automatic choice
 *        and the comparison of every algorithm (src/plan/; report/ only
 *        formats what the driver measured).
 */
#ifndef TOTEX_PLAN_H
#define TOTEX_PLAN_H

#include <stdio.h>

#include "totex/algorithm.h"
#include "totex/bounds.h"
#include "totex/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Everything `totex plan` reports. */
typedef struct totex_plan_result {
    const totex_network *net;        /**< borrowed */
    const char *name;                /**< what the user wrote (preset or spec); NULL: the canonical spec */
    totex_ports ports;
    const totex_algorithm *algorithm;/**< static */
    uint64_t predicted_steps;        /**< from the algorithm's formula, in steps; for an algorithm whose
                                          prediction runs it (costly_predict), the count of the run that
                                          produced the schedule (planned once, not twice) */
    totex_bound bounds[TOTEX_MAX_BOUNDS + 1]; /**< + 1: room for a bound the caller adds (the exact bound, totex/exact.h) */
    size_t bound_count;
    size_t best_bound;               /**< index of the largest bound */
    totex_sim_report sim;            /**< what the simulator measured */
    int verified;                    /**< 1: the simulator accepted the schedule */
    int symmetric;                   /**< 1: certified at one node by symmetry (001 Theorem 2) */
    int full_simulation;             /**< 1: every message was replayed by the simulator (totex/sim.h) */
    int has_delay_bound;             /**< 1: delay_bound is set (vertex-transitive products only) */
    double delay_bound;              /**< lower bound on the average delay of shortest-path schedules, in steps (001 appendix) */
    double plan_seconds;             /**< wall time of planning + simulation, in seconds (totex_plan_best():
                                          of every candidate it ran; the CLI sets the whole command's) */
    uint32_t skipped;                /**< automatic choice: candidates tied on predicted steps that were not
                                          planned because the result was already proved optimal (steps and
                                          average delay at their lower bounds), so no replay could beat it */
    uint64_t not_tried;              /**< automatic choice: bit i set when algorithm i (totex_algorithm_get(i)) was
                                          not tried because its prediction runs the whole algorithm over more
                                          hops than totex_plan_costly_budget() allows (see there) */
    uint64_t not_tried_hops;         /**< ... the network's total status S_G, in hops, when one was not tried */
    uint64_t not_tried_budget;       /**< ... and the budget it exceeded, in hops */
    uint64_t superseded;             /**< automatic choice: bit i set when costly algorithm i was not tried because
                                          superseded_by applies and supersedes it on a network this large
                                          (totex_algorithm.supersedes_costly_above) */
    const totex_algorithm *superseded_by; /**< ... the algorithm that did (static), NULL when none */
    int exact_reported;              /**< automatic choice: 1 when the exact_ fields say what its exact search did
                                          (totex_exact_set_auto_budget(), totex/exact.h) */
    double exact_budget;             /**< ... its budget, in CPU seconds (0: off) */
    int exact_ran;                   /**< ... 1: the search ran (then exact_steps .. exact_cpu_seconds are set) */
    uint64_t exact_steps;            /**< ... the fewest steps it found or kept (the others' when it found none fewer) */
    uint64_t exact_lower;            /**< ... the lower bound it proved, in steps (== exact_steps: optimal) */
    int exact_optimal;               /**< ... 1: exact_steps is proved optimal */
    int exact_timed_out;             /**< ... 1: the budget ended the search */
    double exact_cpu_seconds;        /**< ... CPU time it used (this thread and the solver processes), in seconds */
    char exact_note[192];            /**< ... when it did not run: why (off, above its limits, a candidate met the
                                          best lower bound) */
    struct totex_task *kept_task;           /**< with totex_plan_keep_schedule(1): the symmetric schedule's task */
    struct totex_sym_schedule *kept_schedule; /**< ... and the certified symmetric schedule (owned; NULL otherwise):
                                                   written without planning again; free with totex_plan_result_release() */
} totex_plan_result;

/**
 * Keep the certified symmetric schedule of a plan in totex_plan_result
 * (kept_task, kept_schedule) instead of freeing it, so that it can be
 * written to a file without planning again (`totex plan --schedule`).
 * Off by default; a process-wide switch like totex_progress_enable().
 * The caller of totex_plan_and_verify() / totex_plan_best() then frees the
 * result's schedule with totex_plan_result_release().
 * @deprecated Set totex_plan_options.keep_schedule and call totex_plan_run();
 * this switch is read only by totex_plan_and_verify() and totex_plan_best().
 * @param on 1: keep the schedule, 0: free it (the default).
 */
void totex_plan_keep_schedule(int on);
/** Default of totex_plan_costly_budget(): 2^25 hops (about 33.5 M). */
#define TOTEX_PLAN_COSTLY_BUDGET_HOPS (UINT64_C(1) << 25)

/**
 * Budget of the automatic choice (totex_plan_best()) for a costly prediction
 * (an algorithm whose predict() runs the whole algorithm and which is planned
 * again when it wins: greedy, balanced-greedy), in hops: on a network whose
 * total status S_G (the hops of every shortest-path schedule, 000 Theorem 1)
 * exceeds it, such a candidate is not tried when a cheaper one applies (it is
 * named in totex_plan_result.not_tried; `--algorithm NAME` still plans it).
 * A candidate planned and verified at once instead of predicted (greedy under
 * k-port on a network without the average-delay bound: one run, not a
 * prediction and a second run when it wins, but replayed by the simulator)
 * gets 1.5 times the budget; one cheaper a hop than greedy, its
 * totex_algorithm.costly_budget_scale times it (pipeline: 8).
 * The default is measured, not derived: it keeps auto's plan of every mesh
 * up to 64x64 under every port model under 5 s of CPU, as above it greedy's
 * prediction alone would take longer (greedy's time a hop and the steps the
 * budget costs where greedy would have won: docs/performance.md, "Session
 * 22: the costly budget"; `totex plan --costly-budget HOPS` raises it).
 * Process-wide, like totex_plan_keep_schedule(), not thread-safe.
 * @param hops the budget in hops; 0 restores the default,
 *        TOTEX_PLAN_COSTLY_BUDGET_HOPS. No errors: every value is valid.
 * @return the budget now in force, in hops.
 * @deprecated Set totex_plan_options.costly_budget and call totex_plan_run();
 * this switch is read only by totex_plan_and_verify() and totex_plan_best().
 */
uint64_t totex_plan_costly_budget(uint64_t hops);
/** Free what a result keeps (kept_task, kept_schedule; set to NULL). @param r a result, or NULL (nothing done). */
void totex_plan_result_release(totex_plan_result *r);

/** What `--algorithm auto` optimises first. */
typedef enum totex_objective {
    TOTEX_OBJECTIVE_STEPS = 0, /**< fewest steps, then smallest average delay */
    TOTEX_OBJECTIVE_DELAY = 1  /**< smallest average delay, then fewest steps */
} totex_objective;

/** How one plan runs (totex_plan_run()); all zero: the defaults. */
typedef struct totex_plan_options {
    uint64_t max_messages;     /**< simulator limit, messages (0: TOTEX_SIM_DEFAULT_MAX_MESSAGES); see totex_plan_and_verify() */
    totex_objective objective; /**< what the automatic choice optimises first (no algorithm named) */
    int keep_schedule;         /**< 1: keep the certified symmetric schedule in the result (kept_task, kept_schedule;
                                    free with totex_plan_result_release()) */
    uint64_t costly_budget;    /**< hops above which the automatic choice skips a costly prediction (0:
                                    TOTEX_PLAN_COSTLY_BUDGET_HOPS; see totex_plan_costly_budget()) */
    FILE *progress;            /**< where the plan's progress meters write, the driver's and those inside the algorithms
                                    (greedy's prediction, the symmetric and factor greedies), for this call on this
                                    thread (NULL: nowhere; the CLI: stderr on a terminal) */
} totex_plan_options;

/**
 * Bounds, plan and verification of @p algo on @p net under @p ports (NULL
 * @p algo: the automatic choice, totex_plan_best(), under opt->objective),
 * with every switch in @p opt (NULL: the defaults) rather than process-wide:
 * calls with different options may run at once on different threads.
 * @param net the network (borrowed). @param ports the port model.
 * @param algo the algorithm (totex_algorithm_find()), or NULL for the automatic choice.
 * @param opt the options (NULL: all defaults). @param out filled as by totex_plan_and_verify().
 * @param err receives the message on failure (may be NULL).
 * @return as totex_plan_and_verify(); TOTEX_ENOTAPPLICABLE when no algorithm applies (automatic choice).
 */
totex_status totex_plan_run(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                            const totex_plan_options *opt, totex_plan_result *out, totex_error *err);

/** Largest network (messages) on which a symmetric schedule is also expanded and fully simulated. */
#define TOTEX_FULL_CHECK_MESSAGES (UINT64_C(1) << 22)

/**
 * Compute the bounds, plan with @p algo (NULL: the best by totex_plan_best()
 * with TOTEX_OBJECTIVE_STEPS), replay the schedule through a fresh simulator and
 * fill @p out. @p max_messages limits the simulator (0: its default,
 * TOTEX_SIM_DEFAULT_MAX_MESSAGES = 2^26): an algorithm without a symmetric
 * form (planned and replayed message by message) is refused with
 * TOTEX_ENOMEM, before it plans or predicts, on a network of more messages.
 * @param net the network (borrowed). @param ports the port model.
 * @param algo the algorithm, or NULL for the best. @param max_messages the simulator's limit, messages (0: default).
 * @param out receives bounds, steps, verification and the simulator's report (release with
 *        totex_plan_result_release() when a schedule was kept).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_ENOTAPPLICABLE / TOTEX_EINVAL / TOTEX_ENOMEM with a
 *         message; TOTEX_EVIOLATION if the simulator rejected the schedule
 *         (a bug in an algorithm: the message names step, node and message).
 */
totex_status totex_plan_and_verify(const totex_network *net, totex_ports ports,
                                   const totex_algorithm *algo, uint64_t max_messages,
                                   totex_plan_result *out, totex_error *err);

/**
 * Plan with every applicable algorithm that can win under @p objective and
 * keep the best: TOTEX_OBJECTIVE_STEPS plans the algorithms with the fewest
 * predicted steps and keeps the smallest measured average delay among them;
 * TOTEX_OBJECTIVE_DELAY plans all and keeps the smallest average delay, then
 * the fewest steps. Algorithms whose plan exceeds @p max_messages are skipped.
 * Candidates certified at one node (a symmetric form, 001 Theorem 2) are
 * planned first; once a result meets both the best step bound and the
 * average-delay bound (001 appendix), the remaining candidates are not planned
 * (counted in out->skipped): none could be better, and a full replay of each
 * would cost minutes on large networks (e.g. torus:16x16x16x8 single-port).
 * Where no result can be proved optimal that way (no average-delay bound: the
 * network is not a vertex-transitive product, e.g. a mesh), an algorithm whose
 * prediction is a run of the whole algorithm and which usually wins where it
 * applies (plan_instead_of_predict: pipeline) is planned and verified once
 * instead of predicted and then planned again; its measured steps stand for
 * its prediction.
 * Replays of at least 2^20 messages run the simulator on a second thread
 * (totex_sink_thread_start()), the algorithm on the calling one.
 * @param net the network (borrowed). @param ports the port model. @param objective what is optimised first.
 * @param max_messages the simulator's limit, messages (0: default). @param out as totex_plan_and_verify().
 * @param err receives the message on failure (may be NULL).
 * @return as totex_plan_and_verify(); TOTEX_ENOTAPPLICABLE when none applies.
 */
totex_status totex_plan_best(const totex_network *net, totex_ports ports, totex_objective objective,
                             uint64_t max_messages, totex_plan_result *out, totex_error *err);

/** One row of `totex compare`: an algorithm under a port model, or why it did not run. */
typedef struct totex_compare_row {
    totex_plan_result result;  /**< valid when status == TOTEX_OK */
    const totex_algorithm *algorithm;
    totex_ports ports;
    totex_status status;
    char reason[512];          /**< why it did not apply or failed */
} totex_compare_row;

/**
 * Every algorithm under every port model of @p ports, each planned and
 * verified by totex_plan_and_verify(), in registry order per model.
 * @param net the network (borrowed). @param ports the port models. @param nports their number.
 * @param max_messages the simulator's limit, messages (0: default).
 * @param rows receives the rows (an algorithm that failed or does not apply: its status and reason).
 * @param cap the most rows to write.
 * @return the number of rows written (at most @p cap); no other errors.
 */
size_t totex_compare(const totex_network *net, const totex_ports *ports, size_t nports, uint64_t max_messages,
                     totex_compare_row *rows, size_t cap);
#ifdef __cplusplus
}
#endif
#endif
