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
    totex_bound bounds[TOTEX_MAX_BOUNDS];
    size_t bound_count;
    size_t best_bound;               /**< index of the largest bound */
    totex_sim_report sim;            /**< what the simulator measured */
    int verified;                    /**< 1: the simulator accepted the schedule */
    double plan_seconds;             /**< wall time of planning + simulation, in seconds */
} totex_plan_result;

/**
 * Compute the bounds, plan with @p algo (NULL: pick automatically with
 * totex_algorithm_auto()), replay the schedule through a fresh simulator and
 * fill @p out. @p max_messages limits the simulator (0: its default).
 * @return TOTEX_OK; TOTEX_ENOTAPPLICABLE / TOTEX_EINVAL / TOTEX_ENOMEM with a
 *         message; TOTEX_EVIOLATION if the simulator rejected the schedule
 *         (a bug in an algorithm: the message names step, node and message).
 */
totex_status totex_plan_and_verify(const totex_network *net, totex_ports ports,
                                   const totex_algorithm *algo, uint64_t max_messages,
                                   totex_plan_result *out, totex_error *err);

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
/** The `totex bounds --json` object (keys network, spec, nodes, ..., bounds, lower_bound); caller frees. NULL with @p err on failure. */
char *totex_report_bounds_json(const totex_network *net, const char *name, totex_ports ports, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
