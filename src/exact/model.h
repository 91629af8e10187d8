/* Private to src/exact/: the time-expanded integer program of total exchange
   (model.c builds it, a solver file solves it, search.c drives the horizon). */
#ifndef TOTEX_EXACT_MODEL_H
#define TOTEX_EXACT_MODEL_H

#include "totex/network.h"
#include "totex/exact.h"
#include "totex/schedule.h"

/*
 * A column is one integer variable: commodity @c dst (the messages bound for
 * that node), moving from @c from to @c to during step @c step (1-based);
 * from == to is a holdover (messages waiting at @c from during the step).
 */
typedef struct totex_mip_col {
    uint32_t dst, from, to, step;
} totex_mip_col;

/*
 * min 0 (feasibility; min_hops: the links' columns summed) subject to
 * row_lb <= A x <= row_ub, col_lb <= x <= col_ub, x integer. A as triplets
 * (row, col, value), in row order. The solvers stop at the first integer
 * solution: only feasibility counts, the objective only steers their search.
 */
typedef struct totex_mip {
    uint32_t ncols, nrows;
    size_t nnz;
    totex_mip_col *col;      /* ncols: what each column means (grouped by step) */
    double *col_ub;          /* ncols (every lower bound is 0) */
    double *row_lb, *row_ub; /* nrows */
    uint32_t *ti, *tj;       /* nnz: row and column of each coefficient */
    double *tv;              /* nnz */
    int infeasible;          /* 1: presolve found a node farther than the horizon from a destination */
    uint32_t horizon;        /* T, in steps */
    int min_hops;            /* 1: objective the links' columns (fewest hops), steering CBC's feasibility pump */
} totex_mip;

/* Model options (what the benchmark toggles to measure their effect). */
typedef struct totex_mip_options {
    int no_prune;   /* 1: keep every arc at every step (no horizon pruning) */
    int symmetry;   /* 1: add symmetry-breaking rows on vertex-transitive networks (see model.c) */
} totex_mip_options;

/*
 * Build the program for total exchange on @p net under @p ports with
 * horizon @p horizon steps. Sizes are checked by the caller (search.c).
 * @return TOTEX_OK or TOTEX_ENOMEM; free with totex_mip_free().
 */
totex_status totex_mip_build(const totex_network *net, totex_ports ports, uint32_t horizon,
                             const totex_mip_options *opt, totex_mip *out, totex_error *err);
void totex_mip_free(totex_mip *m);

/*
 * Turn a solution @p x (ncols values) into a schedule of @p m->horizon
 * steps: per destination, each node keeps the sources of the messages it
 * holds for it, and a column of value c moves c of them. Caller frees *out.
 * @return TOTEX_EVIOLATION when x does not decompose (a solver or model bug).
 */
totex_status totex_mip_decode(const totex_network *net, const totex_mip *m, const double *x,
                              totex_schedule **out, totex_error *err);

/*
 * The reflections of the factors of even length (path:2m, k2) of @p net, one
 * permutation of the nodes each (n entries, into @p perm when not NULL:
 * room for n x the count). They fix no node and no directed link.
 * @return how many (0: none). (src/exact/symmetric.c)
 */
uint32_t totex_mip_reflections(const totex_network *net, uint32_t *perm);

/*
 * @p full restricted to the solutions that the @p count node permutations
 * @p perm (automorphisms of @p net; totex_mip_reflections()) leave unchanged:
 * one column per orbit of columns (orbit[c], for each of full->ncols columns,
 * is its column in *out), one row per orbit of rows. A solution y of *out is
 * the solution x(c) = y(orbit[c]) of @p full. Free with totex_mip_free().
 * @return TOTEX_OK or TOTEX_ENOMEM. (src/exact/symmetric.c)
 */
totex_status totex_mip_symmetric(const totex_network *net, const totex_mip *full, const uint32_t *perm,
                                 uint32_t count, totex_mip *out, uint32_t *orbit, totex_error *err);

/* Outcome of one solve. */
typedef enum totex_mip_outcome {
    TOTEX_MIP_FEASIBLE = 0,   /* x holds a feasible integer solution */
    TOTEX_MIP_INFEASIBLE = 1, /* the solver proved that no integer solution exists */
    TOTEX_MIP_UNKNOWN = 2     /* time limit reached before either */
} totex_mip_outcome;

/* A MIP solver behind one function, so that another can be plugged in. */
typedef struct totex_mip_solver {
    const char *name; /* "cbc", "glpk" */
    /* version string, e.g. "CBC 2.10.8" (static) */
    const char *(*version)(void);
    /* Solve @p m within @p seconds (<= 0: no limit); on FEASIBLE fill x (ncols).
       @p relax 1: the LP relaxation only (FEASIBLE then means the LP is; x is not filled). */
    totex_status (*solve)(const totex_mip *m, int relax, double seconds, totex_mip_outcome *outcome, double *x,
                          totex_error *err);
} totex_mip_solver;

/*
 * sv->solve(), but never past @p seconds: with a limit the solver runs in a
 * forked child that is killed at the deadline (outcome UNKNOWN): @p cpu 0,
 * wall time (+ 0.5 s grace); @p cpu 1, the child's CPU time (wall time then
 * only a safeguard of 20 x seconds + 10 s). *child_seconds: the CPU seconds
 * the child used (0 when the solver ran in this process). seconds <= 0: no
 * limit, in this process. (src/exact/bounded.c)
 */
totex_status totex_mip_solve_bounded(const totex_mip_solver *sv, const totex_mip *m, int relax, double seconds,
                                     int cpu, double *child_seconds, totex_mip_outcome *outcome, double *x,
                                     totex_error *err);

/* The solvers built in (NULL-terminated list; empty when none was found at build time). */
const totex_mip_solver *const *totex_mip_solvers(void);

/**
 * The caller's upper bound of the exact search: fill out->schedule, steps,
 * upper_from and heuristic_steps with the best schedule it has (or leave
 * them empty). TOTEX_OK, or an error that ends the search.
 */
typedef totex_status (*totex_exact_upper_fn)(const totex_network *net, totex_ports ports, totex_exact_result *out,
                                             totex_error *err);
/**
 * totex_exact_solve() with the upper bound from @p upper (NULL: none, as
 * opt->no_upper): the search of src/exact/, which never reads the
 * algorithm registry (src/algorithms/exact.c passes it the other algorithms).
 */
totex_status totex_exact_search(const totex_network *net, totex_ports ports, const totex_exact_options *opt,
                                totex_exact_upper_fn upper, totex_exact_result *out, totex_error *err);

#endif
