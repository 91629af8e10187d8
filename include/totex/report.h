/**
 * @file totex/report.h
 * @brief Plan + verify in one call, and the text / JSON reports of the result.
 *
 * The report only formats what the simulator measured and what the bounds
 * computed; it never recomputes either.
 */
#ifndef TOTEX_REPORT_H
#define TOTEX_REPORT_H

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
    uint64_t predicted_steps;        /**< from the algorithm's formula, in steps */
    totex_bound bounds[TOTEX_MAX_BOUNDS + 1]; /**< + 1: room for a bound the caller adds (the exact bound, totex/exact.h) */
    size_t bound_count;
    size_t best_bound;               /**< index of the largest bound */
    totex_sim_report sim;            /**< what the simulator measured */
    int verified;                    /**< 1: the simulator accepted the schedule */
    int symmetric;                   /**< 1: certified at one node by symmetry (001 Theorem 2) */
    int full_simulation;             /**< 1: every message was replayed by the simulator (totex/sim.h) */
    int has_delay_bound;             /**< 1: delay_bound is set (vertex-transitive products only) */
    double delay_bound;              /**< lower bound on the average delay of shortest-path schedules, in steps (001 appendix) */
    double plan_seconds;             /**< wall time of planning + simulation, in seconds */
    uint32_t skipped;                /**< automatic choice: candidates tied on predicted steps that were not
                                          planned because the result was already proved optimal (steps and
                                          average delay at their lower bounds), so no replay could beat it */
    struct totex_task *kept_task;           /**< with totex_plan_keep_schedule(1): the symmetric schedule's task */
    struct totex_sym_schedule *kept_schedule; /**< ... and the certified symmetric schedule (owned; NULL otherwise):
                                                   written without planning again; free with totex_plan_result_release() */
} totex_plan_result;

/**
 * Keep the certified symmetric schedule of a plan in totex_plan_result
 * (kept_task, kept_schedule) instead of freeing it, so that it can be
 * written to a file without planning again (`totex plan --schedule`, issue
 * 12). Off by default; a process-wide switch like totex_progress_enable().
 * The caller of totex_plan_and_verify() / totex_plan_best() then frees the
 * result's schedule with totex_plan_result_release().
 */
void totex_plan_keep_schedule(int on);
/** Free what @p r keeps (kept_task, kept_schedule); NULL accepted. */
void totex_plan_result_release(totex_plan_result *r);

/** What `--algorithm auto` optimises first (issue 3 item 8). */
typedef enum totex_objective {
    TOTEX_OBJECTIVE_STEPS = 0, /**< fewest steps, then smallest average delay */
    TOTEX_OBJECTIVE_DELAY = 1  /**< smallest average delay, then fewest steps */
} totex_objective;

/** Largest network (messages) on which a symmetric schedule is also expanded and fully simulated. */
#define TOTEX_FULL_CHECK_MESSAGES (UINT64_C(1) << 22)

/**
 * Compute the bounds, plan with @p algo (NULL: the best by totex_plan_best()
 * with TOTEX_OBJECTIVE_STEPS), replay the schedule through a fresh simulator and
 * fill @p out. @p max_messages limits the simulator (0: its default,
 * TOTEX_SIM_DEFAULT_MAX_MESSAGES = 2^26): an algorithm without a symmetric
 * form (planned and replayed message by message) is refused with
 * TOTEX_ENOMEM, before it plans or predicts, on a network of more messages.
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
 * would cost minutes on large networks (issue 13: torus:16x16x16x8).
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
 * Every algorithm under every port model of @p ports (count @p nports):
 * fills up to @p cap rows of @p rows and returns how many were written.
 */
size_t totex_compare(const totex_network *net, const totex_ports *ports, size_t nports, uint64_t max_messages,
                     totex_compare_row *rows, size_t cap);
/** Print the `totex compare` table (steps, best bound, ratio, delay, peak queue, wall time). */
void totex_report_compare_text(FILE *fp, const totex_network *net, const char *name, const totex_compare_row *rows,
                               size_t count);
/** JSON array of the rows (each: algorithm, ports, k, steps, lower_bound, ratio, ...); caller frees. */
char *totex_report_compare_json(const totex_network *net, const char *name, const totex_compare_row *rows,
                                size_t count);

/** Print the human-readable report of a plan to @p fp. */
void totex_report_plan_text(FILE *fp, const totex_plan_result *r);
/**
 * JSON object of a plan (keys: network, spec, nodes, links, ports, algorithm,
 * steps, predicted_steps, lower_bound {value, kind, witness}, bounds [...],
 * ratio, optimal, verified, average_delay, peak_queue, link_utilisation,
 * hops, wall_seconds). Caller frees the string with free(). NULL on ENOMEM.
 */
char *totex_report_plan_json(const totex_plan_result *r);

/**
 * Print network metrics and every bound (the `totex bounds` report) to @p fp.
 * @p name is what the user wrote (a preset name or spec), NULL for the canonical spec.
 * @return TOTEX_OK, or TOTEX_EOVERFLOW from totex_bounds_compute().
 */
totex_status totex_report_bounds_text(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                      totex_error *err);
/**
 * As totex_report_bounds_text(), with @p nextra more bounds (e.g. the exact
 * bound of totex_exact_bound()) listed after the computed ones and taken into
 * account for the best bound. @p extra may be NULL when @p nextra is 0; nextra <= 2.
 */
totex_status totex_report_bounds_text_extra(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                            const totex_bound *extra, size_t nextra, totex_error *err);
/** As totex_report_bounds_json(), with @p nextra (<= 2) more bounds, as totex_report_bounds_text_extra(). */
char *totex_report_bounds_json_extra(const totex_network *net, const char *name, totex_ports ports,
                                     const totex_bound *extra, size_t nextra, totex_error *err);
/** The `totex bounds --json` object (keys network, spec, nodes, ..., bounds, lower_bound); caller frees. NULL with @p err on failure. */
char *totex_report_bounds_json(const totex_network *net, const char *name, totex_ports ports, totex_error *err);

/*
 * Progress on long jobs (issue 6 item 4). A ::totex_progress wraps a sink,
 * or is ticked by a loop, counts its steps and, once more than one second has
 * passed since it was made, rewrites one line
 * "LABEL: step DONE/TOTAL (P%), R steps/s, S s left" on its FILE at most
 * four times a second; totex_progress_free() clears the line. It writes
 * nothing unless forced or enabled: totex_progress_enable(1) (the CLI calls
 * it when stderr is a terminal) or TOTEX_PROGRESS=1 in the environment
 * (TOTEX_PROGRESS=0 forces it off). Users, all on stderr and only when
 * enabled: totex_plan_and_verify() (replay, one-node certification of
 * symmetric schedules, as phases of one meter), the symmetric greedy's
 * planning, totex_comb_rank() and totex_comb_sweep() (one simulation per
 * algorithm and block size), and the CLI's combining plan and verify.
 * Not thread-safe: one meter per thread, and one line per FILE at a time.
 */
typedef struct totex_progress totex_progress;
/** Turn progress on stderr on or off for totex_plan_and_verify() (default off). */
void totex_progress_enable(int on);
/** 1 if progress is on (TOTEX_PROGRESS=1/0 overrides totex_progress_enable()). */
int totex_progress_enabled(void);
/**
 * New progress meter writing to @p fp; @p total_steps 0 if unknown; @p clock
 * returns seconds (NULL: CLOCK_MONOTONIC); @p force 1 writes even when
 * progress is not enabled. NULL when out of memory (callers then go without).
 */
totex_progress *totex_progress_new(FILE *fp, const char *label, uint64_t total_steps, double (*clock)(void),
                                   int force);
/** A sink counting the steps into @p p and passing them to @p inner (@p inner itself when @p p writes nothing). */
totex_sink totex_progress_sink(totex_progress *p, totex_sink inner);
/**
 * Count @p steps done (for jobs that are not a sink); may print a line.
 * Reads the clock at every call when the meter writes, so a hot loop should
 * tick once per batch of steps (e.g. every 1024), not per step or per hop.
 * NULL @p p accepted (nothing happens).
 */
void totex_progress_tick(totex_progress *p, uint64_t steps);
/**
 * Start a new phase of @p p's job: the line's label becomes @p label (copied,
 * cut at 63 bytes; NULL: "progress"), the count restarts at 0 of
 * @p total_steps (0: unknown, then no percentage nor time left), and the rate
 * and time left are measured from now. The second of silence still counts
 * from totex_progress_new(), so a phase that starts after the job has run for
 * a second shows at its first tick. The last line stays until the next one
 * overwrites it or totex_progress_free() clears it. NULL @p p accepted.
 */
void totex_progress_phase(totex_progress *p, const char *label, uint64_t total_steps);
/** Clear the progress line if one was printed, and free @p p (NULL accepted). */
void totex_progress_free(totex_progress *p);

#ifdef __cplusplus
}
#endif
#endif
