/**
 * @file totex/demand_report.h
 * @brief Text and JSON of what totex_demand_plan() found: formats only.
 */
#ifndef TOTEX_DEMAND_REPORT_H
#define TOTEX_DEMAND_REPORT_H

#include <stdio.h>

#include "totex/demand_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a demand report shows. */
typedef enum totex_demand_view {
    TOTEX_DEMAND_VIEW_BOUNDS = 0,  /**< the bounds with their witnesses (`totex bounds --demand`) */
    TOTEX_DEMAND_VIEW_PLAN = 1,    /**< the chosen schedule first, then the bounds (`totex plan --demand`) */
    TOTEX_DEMAND_VIEW_COMPARE = 2  /**< every schedule side by side, then the bounds (`totex compare --demand`) */
} totex_demand_view;

/**
 * Print the report as a table for people.
 * @param fp the stream. @param net the network. @param name what the user wrote (NULL: the spec).
 * @param d the demand. @param o the switches the report was made with. @param r the report. @param view what to show.
 */
void totex_report_demand_text(FILE *fp, const totex_network *net, const char *name, const totex_demand *d,
                              const totex_demand_plan_options *o, const totex_demand_report *r, totex_demand_view view);

/**
 * The report as JSON: keys network, spec, nodes, links, demand {what, total_bytes, max_bytes},
 * bandwidth (bytes/s), ts (s), bounds [{kind, bytes, seconds, witness}], fluid {solved, reason},
 * best {kind, bytes, seconds}; with the plan and compare views also schedules
 * [{name, status, reason, steps, transfers, seconds, step_bytes, max_link_bytes, ratio}] and chosen (name or null).
 * @param net, name, d, o, r, view as totex_report_demand_text().
 * @return a string the caller frees; NULL when out of memory.
 */
char *totex_report_demand_json(const totex_network *net, const char *name, const totex_demand *d,
                               const totex_demand_plan_options *o, const totex_demand_report *r, totex_demand_view view);

#ifdef __cplusplus
}
#endif
#endif
