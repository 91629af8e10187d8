/**
 * @file totex/exact.h
 * @brief The exact optimum of total exchange on a small network, by integer
 *        programming, with its certificate.
 *
 * Store-and-forward, unit messages, under any port model (single-port,
 * k-port, multiport; 000 Section 3, 001 Section 7). For a horizon of T steps
 * totex builds the time-expanded integer program with one integer commodity
 * per destination (src/exact/model.c) and asks a MIP solver from Debian
 * (CBC, coinor-libcbc-dev, or GLPK, libglpk-dev) whether it is feasible.
 * The horizon starts at the best lower bound of totex/bounds.h and grows by
 * one; the first feasible T is the optimum, its solution is decoded into a
 * schedule (which the caller replays through the simulator, totex/sim.h),
 * and the certificate that T - 1 steps cannot suffice is the solver's proof
 * of infeasibility (or, when T is the analytic bound, that bound).
 */
#ifndef TOTEX_EXACT_H
#define TOTEX_EXACT_H

#include "totex/bounds.h"
#include "totex/network.h"
#include "totex/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest network the exact search accepts, in nodes (so at most 64 * 63 = 4032 messages). */
#define TOTEX_EXACT_MAX_NODES 64u
/** Largest integer program the exact search builds, in variables (n x (directed links + n) x T). */
#define TOTEX_EXACT_MAX_VARIABLES 400000u
/** Formerly, the automatic choice tried the algorithm "exact" only up to this many nodes; it now
    tries it on every network the search accepts, within the budget of totex_exact_set_auto_budget()
    (kept for source compatibility; no longer used by the library). */
#define TOTEX_EXACT_AUTO_MAX_NODES 6u
/** Default budget of the exact search when it is not asked for by name (the automatic choice, `compare`):
    2 CPU seconds (totex_exact_set_auto_budget()). */
#define TOTEX_EXACT_AUTO_BUDGET 2.0

/** Options of the exact search (zero-initialise for the defaults). */
typedef struct totex_exact_options {
    double time_limit;  /**< seconds of wall time for the whole search; <= 0: none */
    const char *solver; /**< "cbc" or "glpk" (that solver alone); NULL or "auto": GLPK's simplex on the LP
                             relaxation first (its infeasibility is a proof), then CBC on the integer program */
    int no_prune;       /**< 1: build the program without horizon pruning (for measuring the presolve) */
    int no_upper;       /**< 1: do not plan the other algorithms for an upper bound (search until feasible) */
    int bound_proof_only; /**< 1: when the optimum equals the analytic bound, take the bound as the certificate
                               (0, the default: the solver also proves bound - 1 steps infeasible) */
    int cpu_time;         /**< 1: time_limit counts CPU seconds (this thread's and the solver processes'),
                               not wall time, so that a loaded machine does not change the outcome */
    int descending;       /**< 1: search down from the best other algorithm's steps U: U - 1 first, each
                               feasible horizon a better schedule, the first infeasible one the proof of the
                               optimum (0: up from the best lower bound, the first feasible horizon the
                               optimum). Finds a better schedule before proving anything: the automatic
                               choice's order. Without an upper bound (no_upper) it searches up. */
} totex_exact_options;

/** How the lower bound of the result was proved. */
typedef enum totex_exact_proof {
    TOTEX_EXACT_PROOF_BOUND = 0,    /**< an analytic bound of totex/bounds.h */
    TOTEX_EXACT_PROOF_PRESOLVE = 1, /**< a node is farther than T - 1 from a destination (T - 1 < diameter) */
    TOTEX_EXACT_PROOF_SOLVER = 2    /**< the MIP solver proved the program with horizon lower - 1 infeasible */
} totex_exact_proof;

/** Result of totex_exact_solve(). */
typedef struct totex_exact_result {
    uint64_t steps;             /**< steps of the best schedule found (upper bound), in steps */
    uint64_t lower;             /**< the best proved lower bound, in steps (== steps when optimal) */
    int optimal;                /**< 1: lower == steps, proved */
    int timed_out;              /**< 1: the time limit ended the search (gap = steps - lower) */
    totex_bound analytic;       /**< the best analytic bound (totex_bounds_compute()) */
    totex_exact_proof proof;    /**< how @c lower was proved */
    double proof_seconds;       /**< solver time of the infeasibility proof of lower - 1 (PROOF_SOLVER), in seconds */
    char proof_solver[32];      /**< the solver that proved it (PROOF_SOLVER), e.g. "GLPK 5.0" */
    int proof_by_lp;            /**< 1: its LP relaxation was already infeasible */
    const char *upper_from;     /**< static name of the algorithm whose schedule is kept ("exact": the solver's) */
    uint64_t heuristic_steps;   /**< fewest steps of the other algorithms (0: none planned) */
    char solver[64];            /**< solvers and versions, e.g. "GLPK 5.0 (LP) + CBC 2.10.8 (MIP)" */
    unsigned solves;            /**< solver calls made */
    double seconds;             /**< wall time of the whole search, in seconds */
    double cpu_seconds;         /**< CPU time of the whole search (this thread and the solver processes), in seconds */
    uint64_t variables;         /**< integer variables of the last program built (after pruning) */
    uint64_t constraints;       /**< rows of the last program built */
    totex_schedule *schedule;   /**< the best schedule found (owned; totex_exact_result_free()) */
} totex_exact_result;

/**
 * Exact optimum of total exchange on @p net under @p ports.
 * @param net  the network (borrowed). @param ports the port model.
 * @param opt  options (NULL: defaults: no time limit, default solver)
 * @param out  filled on TOTEX_OK; free with totex_exact_result_free()
 * @return TOTEX_OK (also when the time limit ended the search: then
 *         out->timed_out = 1 and out->schedule is the best found, possibly
 *         another algorithm's, with out->lower the proved bound);
 *         TOTEX_ENOTAPPLICABLE when the network exceeds TOTEX_EXACT_MAX_NODES
 *         or a program would exceed TOTEX_EXACT_MAX_VARIABLES, or no solver was
 *         built in (the message names the limit or the package);
 *         TOTEX_EINVAL for an unknown solver name; TOTEX_ENOMEM;
 *         TOTEX_EVIOLATION when a solver's solution does not decode (a bug).
 * @param err  receives the message on failure (may be NULL).
 * Source: the time-expanded formulation is ours (docs/algorithms/exact.md); the model is
 *         000 Section 1/3 and 001 Section 7; the starting horizon is the best
 *         bound of 000 eqs. (3), (4) and totex/bounds.h.
 */
totex_status totex_exact_solve(const totex_network *net, totex_ports ports, const totex_exact_options *opt,
                               totex_exact_result *out, totex_error *err);

/** Free what a result owns. @param r a result of totex_exact_solve(), or NULL (nothing done). */
void totex_exact_result_free(totex_exact_result *r);

/**
 * The result as a bound of kind TOTEX_BOUND_EXACT: value = @p r->lower (the
 * proved optimum, or the proved lower bound when the time limit ended the
 * search), witness = how it was proved (solver, LP or integer program,
 * seconds) and the best schedule found (steps, by which algorithm). The
 * caller should have replayed r->schedule through the simulator before
 * calling the optimum proved; @p replayed says whether it did (it is named
 * in the witness).
 * @param r a result of totex_exact_solve(). @param replayed 1 if r->schedule was replayed, else 0.
 * @param out receives the bound (value in steps).
 */
void totex_exact_bound(const totex_exact_result *r, int replayed, totex_bound *out);

/** @return the names of the solvers built in, comma-separated, the default first ("" when none); static. */
const char *totex_exact_solvers(void);

/** @param p a proof kind. @return its short name, static: "bound", "presolve", "solver". */
const char *totex_exact_proof_name(totex_exact_proof p);

/**
 * Options used by the registered algorithm "exact" (totex/algorithm.h) in
 * this thread, e.g. the CLI's --time-limit; copied (the solver name must be
 * a static string). A non-NULL @p opt also lifts the automatic-choice limit
 * TOTEX_EXACT_AUTO_MAX_NODES up to TOTEX_EXACT_MAX_NODES; NULL restores the
 * defaults and that limit. Clears the memo of totex_exact_last().
 * @param opt the options (copied), or NULL for the defaults.
 */
void totex_exact_set_options(const totex_exact_options *opt);

/**
 * Budget of the exact search when it is not asked for by name, in CPU
 * seconds (this thread's and its solver processes', not wall time: a loaded
 * machine does not change the outcome, only how long it takes; wall time is
 * capped at 20 x the budget + 10 s per solver call as a safeguard). The
 * automatic choice (totex_plan_best(), `totex plan` without --algorithm)
 * and `compare` run the registered algorithm "exact" with it on every
 * network the search accepts (at most TOTEX_EXACT_MAX_NODES nodes and
 * TOTEX_EXACT_MAX_VARIABLES variables at the best lower bound), searching
 * down from the best other algorithm's steps (totex_exact_options.descending):
 * its schedule wins when it has fewer steps, and is replayed by the simulator
 * like every candidate.
 * @param seconds CPU seconds, 0 to disable the automatic exact search,
 *        negative (or NaN) for the default TOTEX_EXACT_AUTO_BUDGET; at most
 *        31536000. Per thread, like totex_exact_set_options(); clears the
 *        memo of totex_exact_last().
 */
void totex_exact_set_auto_budget(double seconds);

/** @return the budget now in force in this thread, in CPU seconds (0: disabled). */
double totex_exact_auto_budget(void);

/**
 * The result of the last search made by the algorithm "exact" in this thread
 * (for reporting the certificate after totex_plan_and_verify()).
 * @return the result (owned by the library; valid until the next search in
 *         this thread), or NULL if none.
 */
const totex_exact_result *totex_exact_last(void);

#ifdef __cplusplus
}
#endif
#endif
