/**
 * @file totex/demand_plan.h
 * @brief Schedules of non-uniform total exchange, their verification and the automatic choice.
 *
 * Each schedule is a byte-weighted schedule (totex/wschedule.h) that the
 * driver replays in the byte-weighted simulator before it reports it; the
 * automatic choice takes the fastest verified one and reports its ratio to
 * the best bound (totex/demand_bounds.h). Model: multiport, every directed
 * link B bytes/s, a step costs t_s + most bytes on one link / B.
 *
 * | name | what | source |
 * |---|---|---|
 * | direct   | every pair at once on its dimension-ordered route, 1 step (MPI's linear alltoallv) | src/algorithms/w_direct.c |
 * | uniform-NAME | the multiport unit-step algorithm NAME with fewest steps, each block carrying W[i][j] bytes | src/algorithms/w_uniform.c |
 * | bvn      | W as weighted permutations (Birkhoff-von Neumann), one step each, dimension-ordered | 001 Section 4; src/algorithms/w_bvn.c |
 * | fluid-lp | the fluid LP's routing, 1 step | src/exact/fluid.c, src/algorithms/w_fluid.c |
 */
#ifndef TOTEX_DEMAND_PLAN_H
#define TOTEX_DEMAND_PLAN_H

#include "totex/demand_bounds.h"
#include "totex/wschedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest network the Birkhoff-von Neumann schedule is planned on. */
#define TOTEX_WPLAN_BVN_MAX 128u
/** Largest network the uniform schedule with real lengths is planned on. */
#define TOTEX_WPLAN_UNIFORM_MAX 256u
/** Largest network a demand is planned on (bounds alone: TOTEX_DEMAND_MAX_NODES). */
#define TOTEX_WPLAN_MAX_NODES 1024u

/**
 * The direct schedule: one step, every pair on its dimension-ordered route
 * (split evenly where a ring's antipode gives two shortest routes).
 * @param net the network. @param d its demand. @param out receives the schedule (caller frees, totex_wschedule_free()).
 * @param err receives the message. @return TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_wplan_direct(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err);

/**
 * The multiport unit-step algorithm of fewest predicted steps
 * (totex_algorithm_auto()), each message (i, j) carrying W[i][j] bytes over its hops.
 * @param net the network. @param d its demand. @param out receives the schedule (caller frees). @param err the message.
 * @return TOTEX_OK; TOTEX_ENOTAPPLICABLE when no multiport algorithm applies; the algorithm's status.
 */
totex_status totex_wplan_uniform(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err);

/**
 * Birkhoff-von Neumann: W padded to equal row and column totals D, decomposed
 * into weighted permutations (at most n^2 - 2n + 2), each permutation's real
 * bytes one step on dimension-ordered routes.
 * @param net the network (at most TOTEX_WPLAN_BVN_MAX nodes). @param d its demand.
 * @param out receives the schedule (caller frees). @param err the message.
 * @return TOTEX_OK; TOTEX_ENOTAPPLICABLE above the size; TOTEX_ENOMEM.
 */
totex_status totex_wplan_bvn(const totex_network *net, const totex_demand *d, totex_wschedule **out, totex_error *err);

/**
 * The fluid LP's routing in one step: each source's flow decomposed into paths, rounded to whole bytes.
 * @param net the network. @param d its demand. @param fl the solved LP (totex_demand_fluid(), borrowed).
 * @param out receives the schedule (caller frees). @param err the message.
 * @return TOTEX_OK; TOTEX_EINVAL when @p fl does not match; TOTEX_ENOMEM.
 */
totex_status totex_wplan_fluid(const totex_network *net, const totex_demand *d, const totex_fluid *fl,
                               totex_wschedule **out, totex_error *err);

/** Switches of totex_demand_plan(). */
typedef struct totex_demand_plan_options {
    double bandwidth;    /**< B, bytes per second per directed link (> 0) */
    double ts;           /**< t_s, seconds per step (>= 0) */
    const char *only;    /**< NULL or "auto": every schedule; else one of direct, uniform, bvn, fluid-lp */
    int no_lp;           /**< 1: do not solve the fluid LP (bounds analytic only; no fluid-lp schedule) */
    double lp_seconds;   /**< time limit of the LP (0: none) */
    int keep_links;      /**< 1: keep the chosen schedule's bytes per directed link (for the picture) */
} totex_demand_plan_options;

/** Number of byte-weighted schedules. */
#define TOTEX_WPLAN_COUNT 4

/** One schedule, verified or not applied. */
typedef struct totex_demand_row {
    char name[48];            /**< direct, uniform-NAME, bvn, fluid-lp */
    totex_status status;      /**< TOTEX_OK when planned and verified */
    char reason[512];         /**< why not, when status is not OK */
    totex_wsim_result sim;    /**< what the simulator measured */
    double ratio;             /**< sim.seconds / the best bound's seconds */
} totex_demand_row;

/** What totex_demand_plan() found. */
typedef struct totex_demand_report {
    totex_wbound analytic[TOTEX_WBOUND_ANALYTIC]; /**< injection, ejection, cut, hop-bytes */
    int has_fluid;                 /**< 1 when the LP was solved */
    totex_wbound fluid;            /**< the fluid optimum (has_fluid) */
    char fluid_reason[512];        /**< why not (when !has_fluid) */
    totex_wbound best;             /**< the largest bound */
    totex_demand_row rows[TOTEX_WPLAN_COUNT];
    size_t nrows;
    size_t chosen;                 /**< index of the fastest verified row; SIZE_MAX when none */
    totex_wlinks links;            /**< with keep_links: the network's directed links */
    uint64_t *link_bytes;          /**< with keep_links: the chosen schedule's bytes per directed link (owned) */
} totex_demand_report;

/**
 * Bounds for @p d, then every schedule (or the one asked for) planned and
 * replayed in the byte-weighted simulator; the fastest verified is chosen.
 * Bounds alone: call with @p o->only = "none".
 * @param net the network (at most TOTEX_WPLAN_MAX_NODES nodes to plan). @param d its demand.
 * @param o the switches (not NULL). @param r receives the report (release with totex_demand_report_release()).
 * @param err receives the message. @return TOTEX_OK (rows say which schedules failed and why);
 *        TOTEX_EINVAL (bad switches, unknown schedule name, network too large); TOTEX_ENOMEM;
 *        TOTEX_EVIOLATION when a schedule fails verification (a bug: its row says how).
 */
totex_status totex_demand_plan(const totex_network *net, const totex_demand *d, const totex_demand_plan_options *o,
                               totex_demand_report *r, totex_error *err);

/** Release what a report owns. @param r a report (or zeroed). */
void totex_demand_report_release(totex_demand_report *r);

#ifdef __cplusplus
}
#endif
#endif
