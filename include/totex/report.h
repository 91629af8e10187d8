/**
 * @file totex/report.h
 * @brief The text / JSON reports of a plan, a comparison and the bounds.
 *
 * The report only formats what the simulator measured and what the bounds
 * computed; it never recomputes either. The driver that plans and verifies
 * (totex_plan_and_verify(), totex_plan_best(), totex_compare()) is
 * totex/plan.h, included here.
 */
#ifndef TOTEX_REPORT_H
#define TOTEX_REPORT_H

#include <stdio.h>

#include "totex/algorithm.h"
#include "totex/bounds.h"
#include "totex/plan.h"
#include "totex/progress.h" /* the progress meter (kept included for the callers that find it here) */
#include "totex/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every function below reads what the driver measured (totex/plan.h) and the network; none plans
   or replays anything. A NULL @p name means "the canonical spec". */

/**
 * Print the `totex compare` table: steps, best bound, ratio, average delay,
 * peak queue, wall time and how each row was verified; the first two columns
 * as wide as their longest entry.
 * @param fp the stream. @param net the network. @param name what the user wrote (NULL: the spec).
 * @param rows, count the rows of totex_compare().
 */
void totex_report_compare_text(FILE *fp, const totex_network *net, const char *name, const totex_compare_row *rows,
                               size_t count);
/**
 * The `totex compare --json` object: network, spec, nodes and rows (each:
 * algorithm, ports, k, applies, and steps, lower_bound, ratio, optimal,
 * average_delay, peak_queue, wall_seconds, verified, full_simulation; or error).
 * @param net the network. @param name what the user wrote (NULL: the spec).
 * @param rows, count the rows of totex_compare().
 * @return the text, which the caller frees with free(); NULL when out of memory.
 */
char *totex_report_compare_json(const totex_network *net, const char *name, const totex_compare_row *rows,
                                size_t count);

/**
 * Print the human-readable report of a plan, the answer first (algorithm,
 * steps, optimal, verified), then the bounds and measurements, wall time
 * last. Same as totex_report_plan_text_verbose(fp, r, 0).
 * @param fp the stream. @param r a plan of totex_plan_and_verify() or totex_plan_best().
 */
void totex_report_plan_text(FILE *fp, const totex_plan_result *r);
/**
 * totex_report_plan_text(); with @p verbose nonzero also one line per
 * registered algorithm that does not apply to the network and port model,
 * with the reason (`totex plan --verbose`; `totex compare` lists them always).
 * @param fp the stream. @param r a plan. @param verbose 0 or 1.
 */
void totex_report_plan_text_verbose(FILE *fp, const totex_plan_result *r, int verbose);
/**
 * The `totex plan --json` object (keys: network, spec, nodes, links, ports,
 * algorithm, steps, predicted_steps, lower_bound {value, kind, witness},
 * bounds [...], ratio, optimal, verified, average_delay, peak_queue,
 * link_utilisation, hops, wall_seconds; keys are only ever added).
 * @param r a plan.
 * @return the text, which the caller frees with free(); NULL when out of memory.
 */
char *totex_report_plan_json(const totex_plan_result *r);

/**
 * Print network metrics and every bound (the `totex bounds` report).
 * @param fp the stream. @param net the network. @param name what the user wrote (NULL: the spec).
 * @param ports the port model. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_EOVERFLOW from totex_bounds_compute().
 */
totex_status totex_report_bounds_text(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                      totex_error *err);
/**
 * As totex_report_bounds_text(), with more bounds (e.g. the exact bound of
 * totex_exact_bound()) listed after the computed ones and taken into account
 * for the best bound.
 * @param extra  @p nextra bounds (may be NULL when @p nextra is 0). @param nextra 0 .. 2.
 * The other parameters: as totex_report_bounds_text().
 * @return as totex_report_bounds_text().
 */
totex_status totex_report_bounds_text_extra(FILE *fp, const totex_network *net, const char *name, totex_ports ports,
                                            const totex_bound *extra, size_t nextra, totex_error *err);
/**
 * As totex_report_bounds_json(), with @p nextra (<= 2) more bounds, as totex_report_bounds_text_extra().
 * @param extra, nextra the bounds added. The other parameters: as totex_report_bounds_json().
 * @return the text (caller frees); NULL with @p err on failure.
 */
char *totex_report_bounds_json_extra(const totex_network *net, const char *name, totex_ports ports,
                                     const totex_bound *extra, size_t nextra, totex_error *err);
/**
 * The `totex bounds --json` object (keys network, spec, nodes, ..., bounds, lower_bound).
 * @param net the network. @param name what the user wrote (NULL: the spec).
 * @param ports the port model. @param err receives the message on failure (may be NULL).
 * @return the text, which the caller frees with free(); NULL with @p err on failure.
 */
char *totex_report_bounds_json(const totex_network *net, const char *name, totex_ports ports, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
