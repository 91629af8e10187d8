/*
 * The integer program solved by GLPK (libglpk-dev): glp_intopt with its MIP
 * presolver, branch-and-cut with the feasibility pump, time limit in ms.
 * Built only when CMake found glpk.h (TOTEX_HAVE_GLPK).
 */
#ifdef TOTEX_HAVE_GLPK
#include <glpk.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "exact/glpk_quiet.h"
#include "exact/model.h"

static const char *glpk_version(void)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "GLPK %s", glp_version());
    return buf;
}

/* GLPK prints through this hook: silence it (the library never writes to stdout) */
static int glpk_quiet(void *info, const char *s)
{
    (void)info;
    (void)s;
    return 1;
}

int totex_glpk_simplex_quiet(glp_prob *P, double seconds)
{
    glp_smcp sp;
    glp_term_hook(glpk_quiet, NULL);
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.presolve = GLP_ON;
    if (seconds > 0)
        sp.tm_lim = seconds > 2e6 ? 2000000000 : (int)(seconds * 1000.0) + 1;
    return glp_simplex(P, &sp);
}

static totex_status glpk_solve(const totex_mip *m, int relax, double seconds, totex_mip_outcome *outcome, double *x,
                               totex_error *err)
{
    glp_prob *P = glp_create_prob();
    int *ia = malloc((m->nnz + 1) * sizeof *ia), *ja = malloc((m->nnz + 1) * sizeof *ja);
    double *ar = malloc((m->nnz + 1) * sizeof *ar);
    totex_status st = TOTEX_OK;
    if (!P || !ia || !ja || !ar) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory handing the integer program to GLPK");
        goto done;
    }
    glp_term_hook(glpk_quiet, NULL);
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, (int)m->nrows);
    glp_add_cols(P, (int)m->ncols);
    for (uint32_t i = 0; i < m->nrows; i++)
        glp_set_row_bnds(P, (int)i + 1, m->row_lb[i] == m->row_ub[i] ? GLP_FX : GLP_DB, m->row_lb[i],
                         m->row_ub[i]);
    for (uint32_t j = 0; j < m->ncols; j++) {
        glp_set_col_kind(P, (int)j + 1, m->col_ub[j] == 1.0 ? GLP_BV : GLP_IV);
        if (m->col_ub[j] != 1.0)
            glp_set_col_bnds(P, (int)j + 1, GLP_DB, 0.0, m->col_ub[j]);
    }
    for (uint32_t j = 0; j < m->ncols && m->min_hops; j++)
        if (m->col[j].from != m->col[j].to)
            glp_set_obj_coef(P, (int)j + 1, 1.0);
    for (size_t e = 0; e < m->nnz; e++) {
        ia[e + 1] = (int)m->ti[e] + 1;
        ja[e + 1] = (int)m->tj[e] + 1;
        ar[e + 1] = m->tv[e];
    }
    glp_load_matrix(P, (int)m->nnz, ia, ja, ar);
    if (relax) {
        int rc = totex_glpk_simplex_quiet(P, seconds);
        if (rc == GLP_ENOPFS || (rc == 0 && glp_get_status(P) == GLP_NOFEAS))
            *outcome = TOTEX_MIP_INFEASIBLE;
        else if (rc == 0 && glp_get_status(P) == GLP_OPT)
            *outcome = TOTEX_MIP_FEASIBLE;
        else if (rc == GLP_ETMLIM)
            *outcome = TOTEX_MIP_UNKNOWN;
        else
            st = totex_fail(err, TOTEX_EINVAL, "GLPK failed on the LP relaxation (glp_simplex code %d)", rc);
        goto done;
    }
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    parm.fp_heur = GLP_ON;
    if (seconds > 0)
        parm.tm_lim = seconds > 2e6 ? 2000000000 : (int)(seconds * 1000.0) + 1;
    int rc = glp_intopt(P, &parm);
    int ms = glp_mip_status(P);
    if (rc == GLP_ENOPFS || rc == GLP_ENODFS || ms == GLP_NOFEAS) {
        *outcome = TOTEX_MIP_INFEASIBLE;
    } else if (ms == GLP_OPT || ms == GLP_FEAS) {
        *outcome = TOTEX_MIP_FEASIBLE;
        for (uint32_t j = 0; j < m->ncols; j++)
            x[j] = glp_mip_col_val(P, (int)j + 1);
    } else if (rc == GLP_ETMLIM || rc == 0 || rc == GLP_EMIPGAP || rc == GLP_ESTOP) {
        *outcome = TOTEX_MIP_UNKNOWN;
    } else {
        st = totex_fail(err, TOTEX_EINVAL, "GLPK failed on the integer program (glp_intopt code %d)", rc);
    }
done:
    glp_term_hook(NULL, NULL);
    if (P)
        glp_delete_prob(P);
    free(ia);
    free(ja);
    free(ar);
    return st;
}

const totex_mip_solver totex_mip_solver_glpk = {"glpk", glpk_version, glpk_solve};
#else
typedef int totex_no_glpk; /* ISO C forbids an empty translation unit */
#endif
