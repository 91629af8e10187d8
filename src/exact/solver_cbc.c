/*
 * The integer program solved by COIN-OR CBC through its C interface
 * (coinor-libcbc-dev, Cbc_C_Interface.h): presolve, cuts and heuristics of
 * CBC's defaults, one thread, time limit in seconds. Built only when CMake
 * found Cbc_C_Interface.h (TOTEX_HAVE_CBC).
 */
#ifdef TOTEX_HAVE_CBC
#include <coin/Cbc_C_Interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "exact/model.h"

static const char *cbc_version(void)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "CBC %s", Cbc_getVersion());
    return buf;
}

static totex_status cbc_solve(const totex_mip *m, int relax, double seconds, totex_mip_outcome *outcome, double *x,
                              totex_error *err)
{
    /* column-major copy of the triplets */
    CoinBigIndex *start = calloc((size_t)m->ncols + 1, sizeof *start);
    int *index = malloc((m->nnz + 1) * sizeof *index);
    double *value = malloc((m->nnz + 1) * sizeof *value);
    double *collb = calloc((size_t)m->ncols + 1, sizeof *collb);
    double *obj = calloc((size_t)m->ncols + 1, sizeof *obj);
    Cbc_Model *model = NULL;
    totex_status st = TOTEX_OK;
    if (!start || !index || !value || !collb || !obj) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory handing the integer program to CBC");
        goto done;
    }
    for (size_t e = 0; e < m->nnz; e++)
        start[m->tj[e] + 1]++;
    for (uint32_t j = 0; j < m->ncols; j++)
        start[j + 1] += start[j];
    {
        CoinBigIndex *fill = malloc(((size_t)m->ncols + 1) * sizeof *fill);
        if (!fill) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory handing the integer program to CBC");
            goto done;
        }
        memcpy(fill, start, ((size_t)m->ncols + 1) * sizeof *fill);
        for (size_t e = 0; e < m->nnz; e++) {
            CoinBigIndex p = fill[m->tj[e]]++;
            index[p] = (int)m->ti[e];
            value[p] = m->tv[e];
        }
        free(fill);
    }
    model = Cbc_newModel();
    if (!model) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory creating the CBC model");
        goto done;
    }
    Cbc_loadProblem(model, (int)m->ncols, (int)m->nrows, start, index, value, collb, m->col_ub, obj, m->row_lb,
                    m->row_ub);
    for (uint32_t j = 0; j < m->ncols && !relax; j++)
        Cbc_setInteger(model, (int)j);
    Cbc_setLogLevel(model, 0);
    /* only feasibility counts: the first integer solution is taken; without this CBC goes on (a mini branch
       and bound after its feasibility pump) for a better objective that nothing reads (path:3*path:4,
       2-port, horizon 14: 3.1 CPU s, 2.8 with it) */
    if (!relax)
        Cbc_setMaximumSolutions(model, 1);
    for (uint32_t j = 0; j < m->ncols && m->min_hops; j++)
        if (m->col[j].from != m->col[j].to)
            Cbc_setObjCoeff(model, (int)j, 1.0);
    if (seconds > 0) {
        Cbc_setParameter(model, "timeMode", "elapsed"); /* wall time, not CPU time */
        Cbc_setMaximumSeconds(model, seconds);
    }
    Cbc_solve(model);
    if (Cbc_isProvenInfeasible(model)) {
        *outcome = TOTEX_MIP_INFEASIBLE;
    } else if (Cbc_isProvenOptimal(model) && Cbc_getColSolution(model)) {
        *outcome = TOTEX_MIP_FEASIBLE;
        if (!relax)
            memcpy(x, Cbc_getColSolution(model), (size_t)m->ncols * sizeof *x);
    } else if (!relax && Cbc_isSolutionLimitReached(model) && Cbc_bestSolution(model)) {
        *outcome = TOTEX_MIP_FEASIBLE; /* stopped at its first integer solution */
        memcpy(x, Cbc_bestSolution(model), (size_t)m->ncols * sizeof *x);
    } else if (Cbc_isSecondsLimitReached(model) || Cbc_status(model) == 1) {
        *outcome = TOTEX_MIP_UNKNOWN;
    } else {
        st = totex_fail(err, TOTEX_EINVAL, "CBC failed on the integer program (status %d, secondary %d)",
                        Cbc_status(model), Cbc_secondaryStatus(model));
    }
done:
    if (model)
        Cbc_deleteModel(model);
    free(start);
    free(index);
    free(value);
    free(collb);
    free(obj);
    return st;
}

const totex_mip_solver totex_mip_solver_cbc = {"cbc", cbc_version, cbc_solve};
#else
typedef int totex_no_cbc; /* ISO C forbids an empty translation unit */
#endif
