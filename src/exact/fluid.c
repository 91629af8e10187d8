/*
 * The exact fluid optimum of non-uniform total exchange:
 * maximum concurrent multicommodity flow, commodities aggregated by source.
 *
 *   minimise L
 *   subject to, for every source s and node v:
 *     sum_{a out of v} f[s][a] - sum_{a into v} f[s][a] = (v == s ? sum_j W[s][j] : -W[s][v])
 *   and for every directed link a: sum_s f[s][a] <= L;  f >= 0.
 *
 * n * arcs + 1 variables, n^2 + arcs rows; solved by GLPK's simplex
 * (libglpk-dev) with W scaled to a mean of 1 byte. Networks of at most 64
 * nodes. L is a lower bound on the bytes of the busiest link of every
 * schedule (the steps of a schedule together are one such flow) and is
 * attained by one step routed by f (src/exact/fluid_route.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "exact/glpk_quiet.h"
#include "totex/demand_bounds.h"
#include "totex/wschedule.h"

void totex_fluid_free(totex_fluid *f)
{
    if (!f)
        return;
    free(f->flow);
    f->flow = NULL;
}

totex_status totex_demand_fluid(const totex_network *net, const totex_demand *d, double bandwidth, double ts,
                                double seconds, totex_fluid *out, totex_error *err)
{
    if (!net || !d || !out || !(bandwidth > 0) || !(ts >= 0))
        return totex_fail(err, TOTEX_EINVAL, "the fluid LP needs a network, a demand, B > 0 and t_s >= 0");
    memset(out, 0, sizeof *out);
    uint32_t n = totex_network_nodes(net);
    if (d->n != n)
        return totex_fail(err, TOTEX_EINVAL, "the demand has %" PRIu32 " nodes, the network %" PRIu32, d->n, n);
    if (n > TOTEX_FLUID_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "the fluid LP is solved on networks of at most %u nodes; this one has %" PRIu32,
                          TOTEX_FLUID_MAX_NODES, n);
#ifndef TOTEX_HAVE_GLPK
    (void)seconds;
    return totex_fail(err, TOTEX_ENOTAPPLICABLE, "the fluid LP needs GLPK: totex was built without it (install libglpk-dev, "
                      "scripts/deps.sh, and rebuild)");
#else
    totex_wlinks L;
    totex_status st = totex_wlinks_build(net, &L, err);
    if (st != TOTEX_OK)
        return st;
    uint64_t total = totex_demand_total(d);
    double scale = total ? (double)total / ((double)n * (n > 1 ? n - 1 : 1)) : 1.0;
    uint64_t A = L.arcs;
    int ncols = (int)(n * A + 1), nrows = (int)((uint64_t)n * n + A);
    size_t nnz = (size_t)n * A * 3 + A;
    int *ia = malloc((nnz + 1) * sizeof *ia), *ja = malloc((nnz + 1) * sizeof *ja);
    double *ar = malloc((nnz + 1) * sizeof *ar);
    glp_prob *P = glp_create_prob();
    if (!ia || !ja || !ar || !P) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building the fluid LP");
        goto done;
    }
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, nrows);
    glp_add_cols(P, ncols);
    for (int j = 1; j <= ncols; j++)
        glp_set_col_bnds(P, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, ncols, 1.0); /* L, the last column */
    size_t e = 0;
    for (uint32_t s = 0; s < n; s++) {
        double row = 0;
        for (uint32_t v = 0; v < n; v++)
            if (v != s)
                row += (double)d->w[(size_t)s * n + v] / scale;
        for (uint32_t v = 0; v < n; v++) {
            int r = (int)((uint64_t)s * n + v) + 1;
            double rhs = v == s ? row : -(double)d->w[(size_t)s * n + v] / scale;
            glp_set_row_bnds(P, r, GLP_FX, rhs, rhs);
        }
        for (uint32_t v = 0; v < n; v++)
            for (uint64_t a = L.off[v]; a < L.off[v + 1]; a++) {
                int col = (int)((uint64_t)s * A + a) + 1;
                e++, ia[e] = (int)((uint64_t)s * n + v) + 1, ja[e] = col, ar[e] = 1.0;
                e++, ia[e] = (int)((uint64_t)s * n + L.nbr[a]) + 1, ja[e] = col, ar[e] = -1.0;
                e++, ia[e] = (int)((uint64_t)n * n + a) + 1, ja[e] = col, ar[e] = 1.0;
            }
    }
    for (uint64_t a = 0; a < A; a++) {
        int r = (int)((uint64_t)n * n + a) + 1;
        glp_set_row_bnds(P, r, GLP_UP, 0.0, 0.0);
        e++, ia[e] = r, ja[e] = ncols, ar[e] = -1.0;
    }
    glp_load_matrix(P, (int)e, ia, ja, ar);
    int rc = totex_glpk_simplex_quiet(P, seconds);
    if (rc == GLP_ETMLIM) {
        st = totex_fail(err, TOTEX_ENOTAPPLICABLE, "the fluid LP was not solved within %.3g s", seconds);
        goto done;
    }
    if (rc != 0 || glp_get_status(P) != GLP_OPT) {
        st = totex_fail(err, TOTEX_EINVAL, "GLPK did not solve the fluid LP (glp_simplex code %d, status %d)", rc,
                        glp_get_status(P));
        goto done;
    }
    out->flow = malloc((size_t)n * A * sizeof *out->flow);
    if (!out->flow) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the fluid LP's flow");
        goto done;
    }
    for (uint64_t c = 0; c < (uint64_t)n * A; c++) {
        double x = glp_get_col_prim(P, (int)c + 1) * scale;
        out->flow[c] = x > 0 ? x : 0;
    }
    out->n = n;
    out->arcs = A;
    out->bound.kind = TOTEX_WBOUND_FLUID;
    out->bound.bytes = glp_get_obj_val(P) * scale;
    out->bound.seconds = ts + out->bound.bytes / bandwidth;
    snprintf(out->bound.witness, sizeof out->bound.witness,
             "maximum concurrent flow, %d variables, %d rows, GLPK %s simplex: optimal", ncols, nrows, glp_version());
done:
    if (P)
        glp_delete_prob(P);
    free(ia);
    free(ja);
    free(ar);
    totex_wlinks_free(&L);
    return st;
#endif
}
