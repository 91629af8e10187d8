/**
 * @file tools/reproduce.h (the CLI's, not installed)
 * @brief `totex reproduce`: every numbered claim of the papers that totex
 *        implements, run over a sweep of sizes, paper value against measured value.
 *
 * For each claim instance the engine evaluates the paper's closed form in its
 * own code (never through the algorithm it checks) and measures the same
 * quantity through the public API: the step simulator (totex/sim.h), the
 * one-node certifier of symmetric schedules (totex/symmetric.h), the bounds
 * (totex/bounds.h), the task matrix (totex/task.h), the network metrics
 * (totex/network.h) or the combining simulator (totex/combining.h). Each row
 * records the relation the paper states (equal, at most, at least) and
 * whether the measurement satisfies it. A library call that fails counts as a
 * disagreement (its message is the measured value).
 */
#ifndef TOTEX_TOOLS_REPRODUCE_H
#define TOTEX_TOOLS_REPRODUCE_H
#include <stdio.h>
#include "totex/common.h"
#ifdef __cplusplus
extern "C" {
#endif

/** How many sizes to run. */
typedef enum totex_sweep {
    TOTEX_SWEEP_SMALL = 0, /**< a few sizes per claim, a few seconds in all (CI) */
    TOTEX_SWEEP_FULL = 1   /**< larger sizes, up to minutes */
} totex_sweep;

/** Parse "small" / "full" into @p out. @return TOTEX_OK, or TOTEX_EINVAL naming the valid forms. */
totex_status totex_sweep_parse(const char *text, totex_sweep *out, totex_error *err);

/** The relation a paper states between its value P and the measured value M. */
typedef enum totex_relation {
    TOTEX_REL_EQ = 0, /**< M == P (doubles: within 1e-9 relative) */
    TOTEX_REL_LE = 1, /**< M <= P (an upper bound of the paper) */
    TOTEX_REL_GE = 2  /**< M >= P (a lower bound of the paper) */
} totex_relation;

/** "=", "<=" or ">=". */
const char *totex_relation_symbol(totex_relation rel);

/**
 * The comparison used for every row: 1 when @p measured stands in relation
 * @p rel to @p paper, with a tolerance of 1e-9 * max(1, |paper|) (the values
 * are step counts or exact rationals evaluated in double); 0 otherwise, and 0
 * for NaN.
 */
int totex_reproduce_agrees(totex_relation rel, double paper, double measured);

/** One claim family: a numbered result of a paper. */
typedef struct totex_claim_family {
    const char *id;        /**< short id, e.g. "003-thm1" */
    const char *source;    /**< paper file, section, equation/table/theorem */
    const char *statement; /**< the claim, with the quantity compared */
    const char *measured;  /**< how totex measures it (which public call) */
} totex_claim_family;

/** Number of claim families the engine runs. */
size_t totex_reproduce_family_count(void);
/** The @p i-th family (NULL past the end). */
const totex_claim_family *totex_reproduce_family(size_t i);

/** One checked instance of a claim. */
typedef struct totex_claim_row {
    size_t family;         /**< index into the families */
    char instance[128];    /**< the network / parameters, e.g. "ring:7 multiport, dimension" */
    char quantity[64];     /**< what is compared, e.g. "steps", "average delay" */
    totex_relation rel;    /**< measured rel paper */
    double paper;          /**< the paper's value (closed form, plus the injected offset) */
    double measured;       /**< totex's value (NaN when the call failed) */
    int integral;          /**< 1: print both as integers */
    int agree;             /**< totex_reproduce_agrees(rel, paper, measured) */
    char note[160];        /**< error message of a failed call, or "" */
} totex_claim_row;

/** Options of a run. */
typedef struct totex_reproduce_options {
    totex_sweep sweep;
    /**
     * Added to every paper value before comparing (testing only: a nonzero
     * offset must turn equalities into disagreements). 0 for real runs.
     */
    double paper_offset;
} totex_reproduce_options;

/** The result of a run: all rows, and counts. */
typedef struct totex_reproduce_report {
    totex_claim_row *rows;
    size_t count;
    size_t agree;
    size_t disagree;
    totex_sweep sweep;
    double seconds;        /**< wall time of the run */
} totex_reproduce_report;

/**
 * Run every claim family over the sweep of @p opt (NULL: small, no offset).
 * The caller frees *out with totex_reproduce_free().
 * @return TOTEX_OK (disagreements are in the result, not a failure);
 *         TOTEX_ENOMEM; TOTEX_EINVAL for a NULL @p out.
 */
totex_status totex_reproduce_run(const totex_reproduce_options *opt, totex_reproduce_report **out, totex_error *err);

/** Free (NULL accepted). */
void totex_reproduce_free(totex_reproduce_report *r);

/** Rows of family @p family that agree / disagree (either pointer may be NULL); returns the rows of the family. */
size_t totex_reproduce_family_counts(const totex_reproduce_report *r, size_t family, size_t *agree, size_t *disagree);

/**
 * Write the Markdown report: a summary (instances, agree, disagree, per
 * family), then one section per claim with its source, statement, how it is
 * measured and a table of instance, quantity, paper value, totex's value,
 * relation and agree/DISAGREE.
 */
void totex_reproduce_write_markdown(FILE *fp, const totex_reproduce_report *r);

#ifdef __cplusplus
}
#endif
#endif
