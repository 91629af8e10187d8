/*
 * The exact search: horizon T from the best lower bound upwards, one integer
 * program per T (model.c), solved by a MIP solver (solver_*.c), decoded into
 * a schedule at the first feasible T. The caller's upper bound (the other
 * algorithms of the registry: src/algorithms/exact.c) gives the schedule kept
 * when every T below it is infeasible, and the fallback under a time limit.
 * With descending set (the automatic choice) the horizon goes down from that
 * upper bound instead: each feasible T is a better schedule, the first
 * infeasible one proves the optimum; there each horizon first tries the
 * program restricted to mirror-symmetric schedules (symmetric.c: half the
 * columns and rows when a factor has even length; it can find a schedule,
 * never prove one impossible), with up to 3/4 of the time left, then the full
 * program. The time limit is wall time, or CPU time
 * (cpu_time: this thread's plus the solver processes').
 * TOTEX_EXACT_DEBUG=1 in the environment prints each horizon's LP and MIP
 * outcome and time on stderr (for measuring; nothing is printed otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "exact/model.h"
#include "totex/exact.h"

extern const totex_mip_solver totex_mip_solver_cbc;
extern const totex_mip_solver totex_mip_solver_glpk;

const totex_mip_solver *const *totex_mip_solvers(void)
{
    static const totex_mip_solver *const list[] = {
#ifdef TOTEX_HAVE_CBC
        &totex_mip_solver_cbc,
#endif
#ifdef TOTEX_HAVE_GLPK
        &totex_mip_solver_glpk,
#endif
        NULL};
    return list;
}

const char *totex_exact_solvers(void)
{
    static char buf[64];
    if (!buf[0]) {
        const totex_mip_solver *const *s = totex_mip_solvers();
        for (size_t i = 0; s[i]; i++) {
            strncat(buf, i ? ", " : "", sizeof buf - strlen(buf) - 1);
            strncat(buf, s[i]->name, sizeof buf - strlen(buf) - 1);
        }
    }
    return buf;
}

const char *totex_exact_proof_name(totex_exact_proof p)
{
    switch (p) {
    case TOTEX_EXACT_PROOF_BOUND: return "bound";
    case TOTEX_EXACT_PROOF_PRESOLVE: return "presolve";
    case TOTEX_EXACT_PROOF_SOLVER: return "solver";
    }
    return "?";
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void totex_exact_result_free(totex_exact_result *r)
{
    if (!r)
        return;
    totex_schedule_free(r->schedule);
    r->schedule = NULL;
}


/* One horizon: is total exchange possible in T steps? The LP relaxation first (when a separate LP
   solver is configured: infeasible there proves it), then the integer program. */
typedef struct decide_ctx {
    const totex_network *net;
    totex_ports ports;
    const totex_mip_solver *lp, *mip; /* lp NULL: no LP step */
    int no_prune;
    double limit;                     /* seconds for the whole search; 0: none */
    int cpu;                          /* 1: limit counts CPU seconds, 0: wall seconds */
    double start;                     /* wall (cpu 0) or this thread's CPU (cpu 1) seconds at the start */
    double child_cpu;                 /* CPU seconds the solver processes used so far */
    int mirror;                       /* 1: try the mirror-symmetric program first (symmetric.c) */
} decide_ctx;

/* seconds of the limit used so far: wall time, or this thread's CPU time plus the solver processes' */
static double used_seconds(const decide_ctx *c)
{
    return c->cpu ? thread_cpu_seconds() - c->start + c->child_cpu : now_seconds() - c->start;
}

typedef struct decision {
    totex_mip_outcome outcome;
    int presolve;             /* infeasible by presolve (T < diameter) */
    const char *by;           /* solver version that decided */
    int by_lp;                /* 1: the LP relaxation was infeasible */
    double seconds;           /* time of the deciding solve(s) */
    totex_schedule *schedule; /* FEASIBLE: the decoded schedule (caller owns) */
    uint64_t variables, constraints;
    int mirrored;             /* FEASIBLE by the mirror-symmetric program */
} decision;

/*
 * Before the full program: the program restricted to mirror-symmetric schedules (symmetric.c), by
 * the MIP solver alone (its LP relaxation proves nothing about the full program). FEASIBLE fills
 * @p x (the full program's columns); any other outcome leaves d->outcome UNKNOWN and the full
 * program to decide.
 */
static totex_status decide_mirrored(decide_ctx *c, const totex_mip *full, double *x, decision *d,
                                    totex_error *err)
{
    const uint32_t n = totex_network_nodes(c->net);
    uint32_t count = totex_mip_reflections(c->net, NULL);
    double left = 0, child = 0;
    if (!count || (c->limit > 0 && (left = c->limit - used_seconds(c)) <= 0))
        return TOTEX_OK;
    left *= 0.75; /* a quarter (at least) left for the full program, should this one fail */
    uint32_t *perm = malloc((size_t)count * n * sizeof *perm);
    uint32_t *orbit = malloc(((size_t)full->ncols + 1) * sizeof *orbit);
    double *y = malloc(((size_t)full->ncols + 1) * sizeof *y);
    totex_mip q;
    totex_mip_outcome oc = TOTEX_MIP_UNKNOWN;
    totex_status st;
    if (!perm || !orbit || !y) {
        free(perm);
        free(orbit);
        free(y);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    totex_mip_reflections(c->net, perm);
    st = totex_mip_symmetric(c->net, full, perm, count, &q, orbit, err);
    if (st == TOTEX_OK) {
        /* measured on path:3*path:4 and path:4*path:3, 2-port, horizon 14 (docs/performance.md): with
           objective 0 CBC's feasibility pump takes 1 to 30 passes by its random seed (0.5 to 2 CPU s),
           with the fewest hops 0.3 to 0.5 CPU s whatever the seed */
        q.min_hops = 1;
        double p0 = now_seconds();
        st = totex_mip_solve_bounded(c->mip, &q, 0, left, c->cpu, &child, &oc, y, err);
        c->child_cpu += child;
        if (getenv("TOTEX_EXACT_DEBUG"))
            fprintf(stderr, "exact: T=%u %s MIP mirrored (%u reflections): %s in %.2f s (%u vars, %u rows)\n",
                    full->horizon, c->mip->name, count,
                    oc == TOTEX_MIP_FEASIBLE ? "feasible" : oc == TOTEX_MIP_INFEASIBLE ? "infeasible" : "unknown",
                    now_seconds() - p0, q.ncols, q.nrows);
        if (st == TOTEX_OK && oc == TOTEX_MIP_FEASIBLE) {
            for (uint32_t j = 0; j < full->ncols; j++)
                x[j] = y[orbit[j]];
            d->outcome = TOTEX_MIP_FEASIBLE;
            d->by = c->mip->version();
            d->mirrored = 1;
        }
        totex_mip_free(&q);
    }
    free(perm);
    free(orbit);
    free(y);
    return st;
}

static totex_status decide(decide_ctx *c, uint64_t T, decision *d, totex_error *err)
{
    totex_mip m;
    totex_mip_options mo = {c->no_prune, 0};
    totex_status st;
    memset(d, 0, sizeof *d);
    d->outcome = TOTEX_MIP_UNKNOWN;
    if ((st = totex_mip_build(c->net, c->ports, (uint32_t)T, &mo, &m, err)) != TOTEX_OK)
        return st;
    d->variables = m.ncols;
    d->constraints = m.nrows;
    if (m.infeasible) {
        totex_mip_free(&m);
        d->outcome = TOTEX_MIP_INFEASIBLE;
        d->presolve = 1;
        return TOTEX_OK;
    }
    double *x = malloc(((size_t)m.ncols + 1) * sizeof *x);
    if (!x) {
        totex_mip_free(&m);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    double s0 = now_seconds();
    if (c->mirror && (st = decide_mirrored(c, &m, x, d, err)) != TOTEX_OK) {
        free(x);
        totex_mip_free(&m);
        return st;
    }
    for (int pass = c->lp ? 0 : 1; pass < 2 && st == TOTEX_OK && !d->mirrored; pass++) {
        const totex_mip_solver *sv = pass ? c->mip : c->lp;
        double left = 0, child = 0;
        if (c->limit > 0 && (left = c->limit - used_seconds(c)) <= 0) {
            d->outcome = TOTEX_MIP_UNKNOWN;
            break;
        }
        double p0 = now_seconds();
        st = totex_mip_solve_bounded(sv, &m, !pass, left, c->cpu, &child, &d->outcome, x, err);
        c->child_cpu += child;
        if (getenv("TOTEX_EXACT_DEBUG"))
            fprintf(stderr, "exact: T=%llu %s %s: %s in %.2f s (%u vars, %u rows)\n", (unsigned long long)T,
                    sv->name, pass ? "MIP" : "LP",
                    d->outcome == TOTEX_MIP_FEASIBLE ? "feasible" : d->outcome == TOTEX_MIP_INFEASIBLE ? "infeasible" : "unknown",
                    now_seconds() - p0, m.ncols, m.nrows);
        d->by = sv->version();
        d->by_lp = !pass;
        if (st != TOTEX_OK || d->outcome != TOTEX_MIP_FEASIBLE)
            break; /* LP infeasible (proved), MIP decided, or time up */
    }
    d->seconds = now_seconds() - s0;
    if (st == TOTEX_OK && d->outcome == TOTEX_MIP_FEASIBLE)
        st = totex_mip_decode(c->net, &m, x, &d->schedule, err);
    free(x);
    totex_mip_free(&m);
    return st;
}

static const totex_mip_solver *find_solver(const char *name)
{
    const totex_mip_solver *const *list = totex_mip_solvers();
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(list[i]->name, name))
            return list[i];
    return NULL;
}

totex_status totex_exact_search(const totex_network *net, totex_ports ports, const totex_exact_options *opt,
                                totex_exact_upper_fn upper, totex_exact_result *out, totex_error *err)
{
    static const totex_exact_options defaults = {0};
    const double t0 = now_seconds(), cpu0 = thread_cpu_seconds();
    const uint32_t n = totex_network_nodes(net);
    const totex_mip_solver *const *list = totex_mip_solvers();
    totex_bound bnd[TOTEX_MAX_BOUNDS];
    size_t nb = 0, ib = 0;
    totex_status st;
    decide_ctx c = {net, ports, NULL, NULL, 0, 0, 0, 0, 0, 0};
    if (!opt)
        opt = &defaults;
    memset(out, 0, sizeof *out);
    if (!list[0])
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: no MIP solver was built in: install coinor-libcbc-dev or libglpk-dev (scripts/deps.sh) and rebuild");
    if (!opt->solver || !strcmp(opt->solver, "auto")) {
        /* measured (bench/steps/bench_exact.c): GLPK's simplex proves the LP relaxation infeasible in a
           fraction of CBC's time, CBC finds feasible schedules far faster than GLPK's branch and bound */
        c.mip = find_solver("cbc") ? find_solver("cbc") : list[0];
        c.lp = find_solver("glpk") && find_solver("glpk") != c.mip ? find_solver("glpk") : NULL;
    } else if (!(c.mip = find_solver(opt->solver))) {
        return totex_fail(err, TOTEX_EINVAL, "exact: unknown solver '%s': use auto or one of %s", opt->solver,
                          totex_exact_solvers());
    }
    c.no_prune = opt->no_prune;
    c.cpu = opt->cpu_time != 0;
    c.start = c.cpu ? cpu0 : t0;
    if (opt->time_limit > 0)
        c.limit = opt->time_limit;
    if (n > TOTEX_EXACT_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: %s has %u nodes, above the limit of %u nodes (%u messages) of the integer program",
                          totex_network_spec(net), n, TOTEX_EXACT_MAX_NODES,
                          TOTEX_EXACT_MAX_NODES * (TOTEX_EXACT_MAX_NODES - 1));
    if ((st = totex_bounds_compute(net, ports, bnd, &nb, &ib, err)) != TOTEX_OK)
        return st;
    out->analytic = bnd[ib];
    out->lower = bnd[ib].value;
    out->proof = TOTEX_EXACT_PROOF_BOUND;
    if (c.lp)
        snprintf(out->solver, sizeof out->solver, "%s (LP) + %s (MIP)", c.lp->version(), c.mip->version());
    else
        snprintf(out->solver, sizeof out->solver, "%s", c.mip->version());
    if (!opt->no_upper && upper && (st = upper(net, ports, out, err)) != TOTEX_OK)
        return st;
    const uint64_t arcs = 2 * totex_network_links(net);
    const int down = opt->descending && out->schedule;
    /* down, each horizon is a search for a schedule: the mirror-symmetric program first */
    c.mirror = down;
    /* up: T from the proved lower bound; the certificate of T* is the proof for T* - 1.
       down: T from the best schedule's steps - 1 while T >= the proved lower bound. */
    for (uint64_t T = down ? out->steps - 1 : out->lower ? out->lower - 1 : 0;; T = down ? T - 1 : T + 1) {
        if (down ? T < out->lower || T == 0 : out->schedule && T >= out->steps)
            break;
        if (!down && (T == 0 || (T + 1 == out->lower && opt->bound_proof_only)))
            continue; /* the analytic bound is the certificate */
        uint64_t vars = (uint64_t)n * (arcs + n) * T;
        if (vars > TOTEX_EXACT_MAX_VARIABLES || T > UINT32_MAX / 2) {
            totex_exact_result_free(out);
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "exact: %s under %s needs %llu variables at a horizon of %llu steps, above the limit of %u variables of the integer program",
                              totex_network_spec(net), totex_ports_name(ports), (unsigned long long)vars,
                              (unsigned long long)T, TOTEX_EXACT_MAX_VARIABLES);
        }
        decision d;
        if ((st = decide(&c, T, &d, err)) != TOTEX_OK) {
            totex_exact_result_free(out);
            return st;
        }
        out->solves += !d.presolve;
        out->variables = d.variables;
        out->constraints = d.constraints;
        if (d.outcome == TOTEX_MIP_UNKNOWN) {
            /* time up; below the analytic bound that is no loss: the bound stands */
            if (down || T >= out->lower) {
                out->timed_out = 1;
                break;
            }
            continue;
        }
        if (d.outcome == TOTEX_MIP_FEASIBLE) {
            if (T < out->lower) {
                totex_schedule_free(d.schedule);
                totex_exact_result_free(out);
                return totex_fail(err, TOTEX_EVIOLATION,
                                  "exact: the solver found a schedule of %llu steps below the %s bound of %llu steps: the bound or the program is wrong",
                                  (unsigned long long)T, totex_bound_kind_name(out->analytic.kind),
                                  (unsigned long long)out->analytic.value);
            }
            totex_schedule_free(out->schedule);
            out->schedule = d.schedule;
            out->steps = T;
            out->upper_from = "exact";
            if (down)
                continue; /* a better schedule: try one step fewer */
            break;
        }
        /* infeasible: T + 1 is a proved lower bound */
        out->lower = T + 1;
        out->proof = d.presolve ? TOTEX_EXACT_PROOF_PRESOLVE : TOTEX_EXACT_PROOF_SOLVER;
        out->proof_by_lp = d.by_lp;
        out->proof_seconds = d.seconds;
        if (!d.presolve)
            snprintf(out->proof_solver, sizeof out->proof_solver, "%s", d.by);
        if (down)
            break; /* every horizon from here down is infeasible too */
    }
    out->optimal = out->schedule && out->lower == out->steps;
    out->seconds = now_seconds() - t0;
    out->cpu_seconds = thread_cpu_seconds() - cpu0 + c.child_cpu;
    if (!out->schedule)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "exact: the time limit of %.3g s ended the search before any schedule was found (proved lower bound %llu steps): raise --time-limit",
                          opt->time_limit, (unsigned long long)out->lower);
    return TOTEX_OK;
}

void totex_exact_bound(const totex_exact_result *r, int replayed, totex_bound *out)
{
    char proof[192], text[768];
    memset(out, 0, sizeof *out);
    out->kind = TOTEX_BOUND_EXACT;
    out->value = r->lower;
    out->exact = (double)r->lower;
    if (r->proof == TOTEX_EXACT_PROOF_SOLVER)
        snprintf(proof, sizeof proof, "%llu steps proved infeasible by %s (%s) in %.2f s",
                 (unsigned long long)(r->lower - 1), r->proof_solver,
                 r->proof_by_lp ? "its LP relaxation is infeasible" : "integer program", r->proof_seconds);
    else if (r->proof == TOTEX_EXACT_PROOF_PRESOLVE)
        snprintf(proof, sizeof proof, "%llu steps infeasible: a node is farther from a destination (diameter)",
                 (unsigned long long)(r->lower - 1));
    else
        snprintf(proof, sizeof proof, "the %s bound of %llu steps", totex_bound_kind_name(r->analytic.kind),
                 (unsigned long long)r->analytic.value);
    if (r->optimal)
        snprintf(text, sizeof text,
                 "optimum %llu steps: %s; a schedule of %llu steps %s%s%s (%s; search %.2f s, %u solver calls)",
                 (unsigned long long)r->lower, proof, (unsigned long long)r->steps,
                 strcmp(r->upper_from, "exact") ? "of algorithm " : "found by the integer program",
                 strcmp(r->upper_from, "exact") ? r->upper_from : "",
                 replayed ? ", replayed by the simulator" : "", r->solver, r->seconds, r->solves);
    else
        snprintf(text, sizeof text,
                 "proved lower bound %llu steps: %s; %s after %.2f s: best schedule %llu steps (%s), gap %llu steps (%s)",
                 (unsigned long long)r->lower, proof, r->timed_out ? "time limit reached" : "search stopped",
                 r->seconds, (unsigned long long)r->steps, r->upper_from ? r->upper_from : "none",
                 (unsigned long long)(r->steps - r->lower), r->solver);
    /* the witness holds 383 characters: cut there if ever longer */
    size_t len = strlen(text);
    if (len >= sizeof out->witness)
        len = sizeof out->witness - 1;
    memcpy(out->witness, text, len);
    out->witness[len] = '\0';
}
