/**
 * @file totex/algorithm.h
 * @brief The registry of total-exchange algorithms.
 *
 * Each algorithm lives in its own file under src/algorithms/ whose header
 * names its paper, section, model, step count and optimality condition. Here
 * they are reached through one table: applies() (with the reason when not),
 * predict() (its step count from its formula, without planning) and plan()
 * (stream the schedule into a sink).
 */
#ifndef TOTEX_ALGORITHM_H
#define TOTEX_ALGORITHM_H

#include "totex/network.h"
#include "totex/schedule.h"
#include "totex/symmetric.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct totex_algorithm {
    const char *name;    /**< CLI name, e.g. "a2" */
    const char *title;   /**< e.g. "Algorithm A2 (recursive single-port product algorithm)" */
    const char *source;  /**< paper file and section, e.g. "000 Section 4, 004 Fig. 4" */
    /** TOTEX_OK if it applies; TOTEX_ENOTAPPLICABLE with the reason in @p err otherwise. */
    totex_status (*applies)(const totex_network *net, totex_ports ports, totex_error *err);
    /** Step count from the algorithm's formula (e.g. Corollary 2), in steps. */
    totex_status (*predict)(const totex_network *net, totex_ports ports, uint64_t *steps,
                            totex_error *err);
    /** Stream the schedule, step by step, into @p sink. */
    totex_status (*plan)(const totex_network *net, totex_ports ports, totex_sink sink,
                         totex_error *err);
    /**
     * Symmetric form (001 Theorem 2), or NULL when the algorithm has none:
     * the task matrix of total exchange on @p net and one node's moves.
     * The caller owns and frees both (totex_task_free, totex_sym_free).
     */
    totex_status (*plan_symmetric)(const totex_network *net, totex_ports ports, totex_task **task,
                                   totex_sym_schedule **out, totex_error *err);
    /** 1 when predict() has to run the whole algorithm on the full network (automatic choice skips it once
        another algorithm's prediction already meets the best lower bound). */
    int costly_predict;
    /**
     * With costly_predict: 1 when the automatic choice should plan and verify
     * the algorithm at once instead of predicting it and planning it again,
     * on networks where no result can be proved optimal (no delay bound):
     * its prediction is a run of the whole construction and it usually wins
     * where it applies (pipeline on meshes). 0: predict first, so that a
     * candidate that loses is never replayed (greedy on large single-port
     * meshes, where a2 wins).
     */
    int plan_instead_of_predict;
    /**
     * With costly_predict: as plan_instead_of_predict, under k-port (k >= 2)
     * only, and only on networks within the costly-prediction budget
     * (totex_plan_options.costly_budget; above it the candidate is still not
     * tried when a cheaper one applies). Greedy: under 2- and 3-port it
     * usually beats A2 on meshes, so its prediction would be a run planned a
     * second time; under single-port A2 wins on large meshes and greedy is
     * predicted first (the steps: docs/performance.md, "Session 22: the
     * costly budget").
     */
    int plan_instead_under_k_port;
    /**
     * With costly_predict, in hops (0: never): on a network whose total status
     * S_G exceeds it and where this algorithm applies, the automatic choice
     * under the steps objective does not try the other costly candidates
     * (totex_plan_result.superseded): measured, not derived, to beat them
     * there (balanced-greedy: 2^23 hops; docs/performance.md, "Session 22:
     * balanced-greedy and load-greedy cheaper").
     */
    uint64_t supersedes_costly_above;
    /**
     * With costly_predict: how many times auto's costly budget this
     * algorithm may take (0: once), for one whose run costs fewer CPU
     * seconds a hop than greedy's: measured, not derived (pipeline: 8; the
     * times a hop: docs/performance.md, "Session 22: plan times on main
     * after the merges"). Algorithms planned at once (plan_instead_of_predict)
     * are held to it as well.
     */
    uint32_t costly_budget_scale;
} totex_algorithm;

/** @return the number of registered algorithms (`totex algorithms` lists them). */
size_t totex_algorithm_count(void);
/** @param i an index, 0 <= i < totex_algorithm_count(). @return the @p i-th algorithm (static), or NULL out of range. */
const totex_algorithm *totex_algorithm_get(size_t i);
/**
 * @param name a registry name ("a2", "octr", ...). @param err receives the message on failure (may be NULL).
 * @return the algorithm (static); NULL with @p err listing the known names when unknown.
 */
const totex_algorithm *totex_algorithm_find(const char *name, totex_error *err);
/**
 * Pick the applicable algorithm with the fewest predicted steps (a prediction,
 * not a plan: totex_plan_best() of totex/plan.h also compares average delays).
 * @param net the network. @param ports the port model.
 * @param err receives the message on failure (may be NULL).
 * @return the algorithm (static); NULL with @p err explaining why none applies.
 */
const totex_algorithm *totex_algorithm_auto(const totex_network *net, totex_ports ports,
                                            totex_error *err);

/**
 * Total exchange schedule on a single factor graph (nodes 0..m-1, messages
 * (src, dst) of the factor) under @p ports, as used by A2 and A3 for each
 * dimension. Multiport: furthest-first on paths (003 Section 3),
 * message-shift on rings (003 Section 4), one step on complete graphs and K2;
 * single-port: one step on K2, m-1 rounds on complete graphs, two
 * directional phases on rings, a load-aware greedy on paths, greedy on file
 * graphs. The caller owns the returned schedule (totex_schedule_free()).
 * @param f     the factor. @param ports the port model. @param out receives the schedule.
 * @param name  if non-NULL, receives the static name of the factor algorithm used.
 * @param err   receives the message on failure (may be NULL).
 * @return TOTEX_OK or TOTEX_ENOMEM. A k-port model gets the single-port schedule (valid under any k).
 */
totex_status totex_factor_schedule(const totex_factor *f, totex_ports ports, totex_schedule **out,
                                   const char **name, totex_error *err);

/**
 * OCTR on any isotropic task (total exchange, or the (K, L) neighbourhood
 * exchange of totex_task_neighbourhood()): decompose the task matrix into
 * S = max(ceil(sigma/k), h) (multiport: h) switching matrices, rows in
 * increasing distance (OADD), and return the symmetric schedule of exactly S
 * steps (001 Theorems 3-5, 7, 9; Section 4.1 for (K, L)). Caller frees *out.
 * @param t the task. @param ports the port model (k-port: k; TOTEX_PORTS_MULTI).
 * @param out receives the schedule (totex_sym_free()). @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_ENOMEM; TOTEX_EVIOLATION if the decomposition did not
 *         come out at exactly S steps (an internal error, never expected).
 */
totex_status totex_octr_schedule(const totex_task *t, totex_ports ports, totex_sym_schedule **out,
                                 totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
