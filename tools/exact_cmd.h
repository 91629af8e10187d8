/* The CLI's exact search: `totex bounds SPEC --exact` and the
 * certificate of `totex plan SPEC --algorithm exact` (internal to tools/). */
#ifndef TOTEX_TOOLS_EXACT_CMD_H
#define TOTEX_TOOLS_EXACT_CMD_H

#include "totex.h"

/** Parse the value of --time-limit (seconds, > 0, at most a year) into @p out;
 *  returns 0, or the exit status 2 after printing the error. */
int totex_cli_time_limit(const char *text, double *out);

/** `totex bounds SPEC --exact [--time-limit S] [--json]`: the computed bounds and the exact one
 *  (its schedule replayed by the simulator). Returns the exit status (1: the schedule fails
 *  verification, 2: bad input or above the size limit). */
int totex_cli_bounds_exact(const totex_network *net, const char *name, totex_ports ports, double time_limit,
                           int json);

/** Before planning with the algorithm "exact": pass the time limit (seconds, 0: none). */
void totex_cli_exact_prepare(double time_limit);

/** After planning with "exact": add its bound (kind exact) to @p res's bounds and make it the best when larger. */
void totex_cli_exact_finish(totex_plan_result *res);

/** @p json (a JSON object's text, freed here) with the key "exact" added: the search's certificate
 *  (optimum, lower, upper, gap, proof, proof_solver, proof_seconds, solver, seconds, ...) of @p r
 *  (NULL: the last search of the algorithm "exact"). Returns the new text (caller frees), or @p json
 *  unchanged when there is nothing to add or it cannot be parsed; NULL only if @p json is NULL. */
char *totex_cli_exact_json(char *json, const totex_exact_result *r);

#endif
