/*
 * totex reproduce: every numbered claim of the papers that
 * totex implements, over a sweep of sizes. The paper's value is evaluated
 * here from its closed form (own code, never the algorithm checked); the
 * measured value comes through the public API (simulator, certifier, bounds,
 * task matrix, network metrics, combining simulator).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "totex.h"
#include "reproduce.h"

enum {
    F_003_T1,
    F_003_T2,
    F_003_T3,
    F_003_CUT,
    F_AS,
    F_GHC_AD,
    F_A2,
    F_A3,
    F_FIGS,
    F_001_41,
    F_001_T7,
    F_001_82,
    F_001_83,
    F_001_85,
    F_001_62,
    F_002_T1,
    F_002_T2,
    F_COUNT
};

static const totex_claim_family families[F_COUNT] = {
    [F_003_T1] = {"003-thm1", "003 Section 3, Theorem 1 (bound (1))",
                  "furthest-first on a linear array of m nodes, multiport, ends at T_opt(LA) = ceil((m^2-1)/4) steps",
                  "steps of algorithm `dimension` replayed by the simulator (totex_plan_and_verify)"},
    [F_003_T2] = {"003-thm2", "003 Section 4.1, Theorem 2 (bound (2))",
                  "node-invariant message-shift on an odd ring of m nodes, multiport, ends at (m^2-1)/8 steps",
                  "steps of algorithm `dimension` replayed by the simulator"},
    [F_003_T3] = {"003-thm3", "003 Section 4.2, Theorem 3 (bound (2))",
                  "even rings of m nodes reach T_opt(R) = ceil((m^2-1)/8) steps multiport: the modified message-shift "
                  "(`dimension`) and the period-2 symmetric scheme `sym2`",
                  "`dimension`: simulator steps; `sym2`: steps certified at one node (totex_sym_certify)"},
    [F_003_CUT] = {"003-eq1-2", "003 Section 2, eqs. (1) and (2)",
                   "bisection lower bounds: linear array ceil((m^2-1)/4), ring ceil((m^2-1)/8)",
                   "the multiport cut bound of totex_bounds_compute"},
    [F_AS] = {"000-thm1", "000 Section 3.1, Theorem 1 / Corollary 1; 004 Theorem 1, Corollary 1",
              "average status of a product: AS(G) = n * sum_i AS(G_i)/|V_i|, factor AS from closed forms "
              "(path (m^2-1)/3, ring floor(m^2/4), K_m m-1, K2 1)",
              "BFS over the product's links (totex_network_neighbors), and totex_network_average_status"},
    [F_GHC_AD] = {"000-sec3.1-ghc", "000 Section 3.1 (generalized hypercube)",
                  "average distance of ghc m_1 x ... x m_k: n/(n-1) * sum_i (m_i-1)/m_i",
                  "totex_network_average_distance, and BFS over the product"},
    [F_A2] = {"004-cor2-thm3", "004 Corollary 2, Theorem 3 (000 Section 4)",
              "single-port A2 on products of rings, K2 and complete graphs takes exactly the average-status bound "
              "ceil(AS(G)) steps (optimal)",
              "A2 steps replayed by the simulator; the average-status bound of totex_bounds_compute"},
    [F_A3] = {"000-cor3-thm5", "000 Section 5, Corollary 3, Theorem 5",
              "multiport A3 on H^d (d = 2^k) takes |H|^(d-1) T_H steps (T_H: path ceil((m^2-1)/4), ring "
              "ceil((m^2-1)/8), K_m and K2 1) and equals the lifted cut bound |H|^(d-1) floor(m/2)ceil(m/2)/C_H "
              "when T_H equals the unrounded factor ratio (not rings with m = 2 mod 4)",
              "A3 steps replayed by the simulator; the multiport cut bound of totex_bounds_compute"},
    [F_FIGS] = {"000-fig1-2", "000 Fig. 1 (path2 x ring3) and Fig. 2 (4 x 3 torus)",
                "worked examples: AS = 6(1/2 + 2/3) = 7 and 12(4/4 + 2/3) = 20; A2 single-port takes that many steps",
                "totex_network_average_status; A2 steps replayed by the simulator"},
    [F_001_41] = {"001-sec4.1", "001 Section 4.1",
                  "hypercube of dimension d: critical sum h = n/2, total sum sigma = d 2^(d-1), OCTR ends at h; (K, L) "
                  "neighbourhood exchange: h = max{L, ceil(sum_{i=K..L} C(d,i) i / d)} and OCTR ends at h",
                  "totex_task_critical_sum / total_sum; OCTR steps certified at one node"},
    [F_001_T7] = {"001-thm7", "001 Section 7, Theorem 7",
                  "k-port: OCTR ends at max(ceil(sigma/k), h), sigma and h from closed forms (hypercube: d 2^(d-1), "
                  "2^(d-1); p^d torus: sigma = d n/p * floor(p^2/4), h as 001 Section 8.2)",
                  "OCTR steps certified at one node under k-port"},
    [F_001_82] = {"001-sec8.2", "001 Section 8.2 (T_TE, eq. (4))",
                  "p^d wraparound mesh: T_TE = h = (p n - n/p)/8 for odd p, p n/8 for even p (d > 1), n(n+2)/8 for "
                  "an even ring",
                  "totex_task_critical_sum; OCTR multiport steps certified at one node"},
    [F_001_83] = {"001-sec8.3", "001 Section 8.3",
                  "10x10x10 torus (n = 1000, d = 3): optimum 1250 steps; any greedy scheme at most 1265 "
                  "(h_r + h_c - 1 in general)",
                  "OCTR steps and the cut bound; `greedy-sym` steps certified at one node"},
    [F_001_85] = {"001-sec8.5", "001 Section 8.5",
                  "OCTR average delay on rings: (m+1)(m+3)/24 for odd m; at most ((m-2)(m-1)m + 6m^2)/(24(m-1)) for "
                  "even m",
                  "average delay of the OCTR schedule certified at one node"},
    [F_001_62] = {"001-sec6.2", "001 Section 6.2 (D_TE)",
                  "hypercube of prime dimension d: optimal average delay D_TE = A/(d(n-1)) - (2d-1)!/((d-1)!^2 2d(n-1)) "
                  "+ (2d-1 + (n/2-1)d)/(2(n-1)), A = sum_i C(d,i) sum_{j<=i} C(d,j) j",
                  "average delay of the OCTR schedule certified at one node"},
    [F_002_T1] = {"002-table1", "002 Table 1",
                  "SSY on an even R x C mesh (R <= C): C start-ups, R C^2/2 blocks transmitted, 2 R C rearranged; "
                  "n-D a_1 >= ... >= a_n: (n/2) a_1, (n/4) a_1^2 a_2...a_n, n a_1...a_n",
                  "the combining simulator (totex_comb_simulate, wormhole, one-port) on totex_ssy_build"},
    [F_002_T2] = {"002-table2", "002 Table 2 (proposed)",
                  "SSY on a 2^d x 2^d mesh: 2^d start-ups, 2^(3d-1) blocks, 2 * 2^(2d) rearranged",
                  "the combining simulator on totex_ssy_build"},
};

size_t totex_reproduce_family_count(void) { return F_COUNT; }

const totex_claim_family *totex_reproduce_family(size_t i) { return i < F_COUNT ? &families[i] : NULL; }

const char *totex_relation_symbol(totex_relation rel)
{
    return rel == TOTEX_REL_LE ? "<=" : rel == TOTEX_REL_GE ? ">=" : "=";
}

int totex_reproduce_agrees(totex_relation rel, double paper, double measured)
{
    if (isnan(paper) || isnan(measured))
        return 0;
    double tol = 1e-9 * (fabs(paper) > 1 ? fabs(paper) : 1);
    switch (rel) {
    case TOTEX_REL_EQ:
        return fabs(measured - paper) <= tol;
    case TOTEX_REL_LE:
        return measured <= paper + tol;
    case TOTEX_REL_GE:
        return measured >= paper - tol;
    }
    return 0;
}

totex_status totex_sweep_parse(const char *text, totex_sweep *out, totex_error *err)
{
    if (text && out && !strcmp(text, "small")) {
        *out = TOTEX_SWEEP_SMALL;
        return TOTEX_OK;
    }
    if (text && out && !strcmp(text, "full")) {
        *out = TOTEX_SWEEP_FULL;
        return TOTEX_OK;
    }
    if (err)
        snprintf(err->msg, sizeof err->msg, "unknown sweep '%.100s': use --sweep small or --sweep full",
                 text ? text : "(null)");
    return TOTEX_EINVAL;
}

/* ---- run context ------------------------------------------------------------------------ */

typedef struct ctx {
    totex_reproduce_report *r;
    size_t cap;
    double offset;
    int full;
    int oom;
} ctx;

static void add(ctx *c, size_t fam, const char *instance, const char *quantity, totex_relation rel, double paper,
                double measured, int integral, const char *note)
{
    if (c->oom)
        return;
    totex_reproduce_report *r = c->r;
    if (r->count == c->cap) {
        size_t ncap = c->cap ? 2 * c->cap : 64;
        totex_claim_row *rows = realloc(r->rows, ncap * sizeof *rows);
        if (!rows) {
            c->oom = 1;
            return;
        }
        r->rows = rows;
        c->cap = ncap;
    }
    totex_claim_row *row = &r->rows[r->count++];
    memset(row, 0, sizeof *row);
    row->family = fam;
    snprintf(row->instance, sizeof row->instance, "%s", instance);
    snprintf(row->quantity, sizeof row->quantity, "%s", quantity);
    row->rel = rel;
    row->paper = paper + c->offset;
    row->measured = measured;
    row->integral = integral;
    row->agree = totex_reproduce_agrees(rel, row->paper, measured);
    snprintf(row->note, sizeof row->note, "%s", note ? note : "");
    if (row->agree)
        r->agree++;
    else
        r->disagree++;
}

static void add_fail(ctx *c, size_t fam, const char *instance, const char *quantity, totex_relation rel, double paper,
                     const totex_error *err)
{
    add(c, fam, instance, quantity, rel, paper, NAN, 1, err->msg[0] ? err->msg : "call failed");
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static double binom(unsigned n, unsigned k)
{
    double r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* "torus:pxpx..." d times */
static void torus_spec(char *buf, size_t len, unsigned p, unsigned d)
{
    size_t off = (size_t)snprintf(buf, len, "torus:%u", p);
    for (unsigned i = 1; i < d && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "x%u", p);
}

/* Plan @p algo under @p ports through the simulator; steps in *steps. */
static int sim_steps(const char *spec, totex_ports ports, const char *algo, totex_sim_report *rep, totex_error *err)
{
    totex_network *net = totex_network_parse(spec, err);
    if (!net)
        return 0;
    const totex_algorithm *a = totex_algorithm_find(algo, err);
    totex_plan_result res;
    int ok = a && totex_plan_and_verify(net, ports, a, 0, &res, err) == TOTEX_OK && res.verified;
    if (ok)
        *rep = res.sim;
    totex_network_free(net);
    return ok;
}

/* Plan the symmetric form of @p algo and certify it at one node. */
static int sym_run(const char *spec, totex_ports ports, const char *algo, totex_sym_report *rep, totex_error *err)
{
    totex_network *net = totex_network_parse(spec, err);
    if (!net)
        return 0;
    const totex_algorithm *a = totex_algorithm_find(algo, err);
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    int ok = 0;
    if (a && !a->plan_symmetric)
        snprintf(err->msg, sizeof err->msg, "%s has no symmetric form", algo);
    else if (a && a->plan_symmetric(net, ports, &t, &s, err) == TOTEX_OK)
        ok = totex_sym_certify(t, ports, s, rep, err) == TOTEX_OK;
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
    return ok;
}

static int bound_of(const char *spec, totex_ports ports, totex_bound_kind kind, uint64_t *value, totex_error *err)
{
    totex_network *net = totex_network_parse(spec, err);
    if (!net)
        return 0;
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count = 0, best = 0;
    int ok = 0;
    if (totex_bounds_compute(net, ports, b, &count, &best, err) == TOTEX_OK) {
        for (size_t i = 0; i < count; i++)
            if (b[i].kind == kind) {
                *value = b[i].value;
                ok = 1;
            }
        if (!ok)
            snprintf(err->msg, sizeof err->msg, "no %s bound", totex_bound_kind_name(kind));
    }
    totex_network_free(net);
    return ok;
}

/* ---- closed forms of the papers ----------------------------------------------------------- */

/* AS of one factor (004 Section 3): path (m^2-1)/3, ring floor(m^2/4), K_m m-1, K2 1 */
static double factor_as(char kind, unsigned m)
{
    switch (kind) {
    case 'p':
        return ((double)m * m - 1) / 3.0;
    case 'r':
        return (double)((uint64_t)m * m / 4);
    default:
        return (double)m - 1; /* complete graph, K2 (m = 2) */
    }
}

typedef struct fspec {
    char kind; /* p r c k */
    unsigned m;
} fspec;

/* AS(G) by 000 Theorem 1 / Corollary 1: n * sum_i AS(G_i)/m_i */
static double product_as(const fspec *f, size_t k)
{
    double n = 1, s = 0;
    for (size_t i = 0; i < k; i++)
        n *= f[i].m;
    for (size_t i = 0; i < k; i++)
        s += factor_as(f[i].kind, f[i].m) / f[i].m;
    return n * s;
}

static void product_spec(char *buf, size_t len, const fspec *f, size_t k)
{
    size_t off = 0;
    buf[0] = 0;
    for (size_t i = 0; i < k && off < len; i++) {
        const char *sep = i ? "*" : "";
        if (f[i].kind == 'k')
            off += (size_t)snprintf(buf + off, len - off, "%sk2", sep);
        else
            off += (size_t)snprintf(buf + off, len - off, "%s%s:%u", sep,
                                    f[i].kind == 'p' ? "path" : f[i].kind == 'r' ? "ring" : "complete", f[i].m);
    }
}

/* sum of all distances by BFS from every node over totex_network_neighbors */
static int bfs_distance_sum(const totex_network *net, double *out)
{
    uint32_t n = totex_network_nodes(net);
    uint32_t *dist = malloc((size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue);
    uint32_t maxdeg = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t d = totex_network_degree(net, v);
        if (d > maxdeg)
            maxdeg = d;
    }
    uint32_t *nb = malloc((size_t)(maxdeg + 1) * sizeof *nb);
    if (!dist || !queue || !nb) {
        free(dist);
        free(queue);
        free(nb);
        return 0;
    }
    double total = 0;
    for (uint32_t s = 0; s < n; s++) {
        for (uint32_t v = 0; v < n; v++)
            dist[v] = UINT32_MAX;
        uint32_t head = 0, tail = 0;
        dist[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t v = queue[head++];
            total += dist[v];
            uint32_t deg = totex_network_neighbors(net, v, nb);
            for (uint32_t j = 0; j < deg; j++)
                if (dist[nb[j]] == UINT32_MAX) {
                    dist[nb[j]] = dist[v] + 1;
                    queue[tail++] = nb[j];
                }
        }
    }
    free(dist);
    free(queue);
    free(nb);
    *out = total;
    return 1;
}

/* ---- the claim families ----------------------------------------------------------------- */

static void run_003(ctx *c)
{
    unsigned top = c->full ? 48 : 14;
    char spec[64], inst[128];
    totex_error err = {{0}};
    totex_sim_report rep;
    totex_sym_report srep;
    for (unsigned m = 2; m <= top; m++) {
        uint64_t la = ceil_div((uint64_t)m * m - 1, 4), r = ceil_div((uint64_t)m * m - 1, 8);
        snprintf(spec, sizeof spec, "path:%u", m);
        snprintf(inst, sizeof inst, "%s multiport, dimension", spec);
        if (sim_steps(spec, TOTEX_PORTS_MULTI, "dimension", &rep, &err))
            add(c, F_003_T1, inst, "steps", TOTEX_REL_EQ, (double)la, (double)rep.steps, 1, NULL);
        else
            add_fail(c, F_003_T1, inst, "steps", TOTEX_REL_EQ, (double)la, &err);
        uint64_t v;
        snprintf(inst, sizeof inst, "%s multiport", spec);
        if (bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT, &v, &err))
            add(c, F_003_CUT, inst, "cut bound, eq. (1)", TOTEX_REL_EQ, (double)la, (double)v, 1, NULL);
        else
            add_fail(c, F_003_CUT, inst, "cut bound, eq. (1)", TOTEX_REL_EQ, (double)la, &err);
        if (m < 3)
            continue;
        snprintf(spec, sizeof spec, "ring:%u", m);
        snprintf(inst, sizeof inst, "%s multiport", spec);
        if (bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT, &v, &err))
            add(c, F_003_CUT, inst, "cut bound, eq. (2)", TOTEX_REL_EQ, (double)r, (double)v, 1, NULL);
        else
            add_fail(c, F_003_CUT, inst, "cut bound, eq. (2)", TOTEX_REL_EQ, (double)r, &err);
        size_t fam = m % 2 ? F_003_T2 : F_003_T3;
        snprintf(inst, sizeof inst, "%s multiport, dimension", spec);
        if (sim_steps(spec, TOTEX_PORTS_MULTI, "dimension", &rep, &err))
            add(c, fam, inst, "steps", TOTEX_REL_EQ, (double)r, (double)rep.steps, 1, NULL);
        else
            add_fail(c, fam, inst, "steps", TOTEX_REL_EQ, (double)r, &err);
        if (m % 2 == 0) {
            snprintf(inst, sizeof inst, "%s multiport, sym2", spec);
            if (sym_run(spec, TOTEX_PORTS_MULTI, "sym2", &srep, &err))
                add(c, F_003_T3, inst, "steps", TOTEX_REL_EQ, (double)r, (double)srep.steps, 1, NULL);
            else
                add_fail(c, F_003_T3, inst, "steps", TOTEX_REL_EQ, (double)r, &err);
        }
    }
}

static void run_status(ctx *c)
{
    static const fspec small_set[][4] = {
        {{'p', 2}, {'r', 3}},           {{'r', 4}, {'r', 3}},           {{'p', 3}, {'p', 4}},
        {{'r', 3}, {'r', 4}, {'r', 5}}, {{'c', 3}, {'c', 4}},           {{'r', 5}, {'p', 4}, {'c', 3}},
        {{'k', 2}, {'k', 2}, {'k', 2}}, {{'r', 6}, {'k', 2}, {'p', 5}}, {{'p', 7}, {'r', 7}},
    };
    static const size_t small_k[] = {2, 2, 2, 3, 2, 3, 3, 3, 2};
    static const fspec full_set[][4] = {
        {{'r', 8}, {'r', 8}, {'r', 8}},           {{'p', 16}, {'p', 12}},          {{'c', 5}, {'c', 6}, {'c', 7}},
        {{'r', 7}, {'p', 5}, {'c', 4}, {'k', 2}}, {{'k', 2}, {'k', 2}, {'k', 2}, {'k', 2}},
        {{'r', 9}, {'r', 10}, {'p', 11}},
    };
    static const size_t full_k[] = {3, 2, 3, 4, 4, 3};
    size_t ns = sizeof small_k / sizeof *small_k, nf = c->full ? sizeof full_k / sizeof *full_k : 0;
    for (size_t i = 0; i < ns + nf; i++) {
        const fspec *f = i < ns ? small_set[i] : full_set[i - ns];
        size_t k = i < ns ? small_k[i] : full_k[i - ns];
        char spec[128], inst[160];
        totex_error err = {{0}};
        product_spec(spec, sizeof spec, f, k);
        double as = product_as(f, k);
        totex_network *net = totex_network_parse(spec, &err);
        if (!net) {
            add_fail(c, F_AS, spec, "average status", TOTEX_REL_EQ, as, &err);
            continue;
        }
        double sum;
        snprintf(inst, sizeof inst, "%s (BFS)", spec);
        if (bfs_distance_sum(net, &sum))
            add(c, F_AS, inst, "average status", TOTEX_REL_EQ, as, sum / totex_network_nodes(net), 0, NULL);
        else
            add(c, F_AS, inst, "average status", TOTEX_REL_EQ, as, NAN, 0, "out of memory");
        snprintf(inst, sizeof inst, "%s (totex_network_average_status)", spec);
        add(c, F_AS, inst, "average status", TOTEX_REL_EQ, as, totex_network_average_status(net), 0, NULL);
        totex_network_free(net);
    }
}

static void run_ghc(ctx *c)
{
    static const unsigned sets[][4] = {{3, 3}, {2, 3, 4}, {4, 4, 4}, {5, 3}, {2, 2, 2, 2}, {6, 5, 4, 3}, {7, 7, 7}};
    static const size_t ks[] = {2, 3, 3, 2, 4, 4, 3};
    size_t count = c->full ? 7 : 5;
    for (size_t i = 0; i < count; i++) {
        char spec[64], inst[128];
        size_t off = (size_t)snprintf(spec, sizeof spec, "ghc:%u", sets[i][0]);
        double n = sets[i][0], s = (sets[i][0] - 1.0) / sets[i][0];
        for (size_t j = 1; j < ks[i]; j++) {
            off += (size_t)snprintf(spec + off, sizeof spec - off, "x%u", sets[i][j]);
            n *= sets[i][j];
            s += (sets[i][j] - 1.0) / sets[i][j];
        }
        double ad = n / (n - 1) * s;
        totex_error err = {{0}};
        totex_network *net = totex_network_parse(spec, &err);
        if (!net) {
            add_fail(c, F_GHC_AD, spec, "average distance", TOTEX_REL_EQ, ad, &err);
            continue;
        }
        snprintf(inst, sizeof inst, "%s (totex_network_average_distance)", spec);
        add(c, F_GHC_AD, inst, "average distance", TOTEX_REL_EQ, ad, totex_network_average_distance(net), 0, NULL);
        double sum;
        snprintf(inst, sizeof inst, "%s (BFS)", spec);
        if (bfs_distance_sum(net, &sum))
            add(c, F_GHC_AD, inst, "average distance", TOTEX_REL_EQ, ad, sum / (n * (n - 1)), 0, NULL);
        totex_network_free(net);
    }
}

static void run_a2(ctx *c)
{
    static const fspec small_set[][4] = {
        {{'r', 4}, {'r', 4}}, {{'r', 3}, {'r', 5}}, {{'k', 2}, {'k', 2}, {'k', 2}, {'k', 2}},
        {{'c', 3}, {'c', 4}}, {{'r', 5}, {'k', 2}, {'c', 3}}, {{'r', 3}, {'r', 3}, {'r', 3}},
    };
    static const size_t small_k[] = {2, 2, 4, 2, 3, 3};
    static const fspec full_set[][6] = {
        {{'r', 8}, {'r', 8}},  {{'r', 4}, {'r', 4}, {'r', 4}},                   {{'r', 7}, {'r', 6}},
        {{'c', 4}, {'c', 4}, {'c', 4}}, {{'k', 2}, {'k', 2}, {'k', 2}, {'k', 2}, {'k', 2}, {'k', 2}},
        {{'r', 6}, {'k', 2}, {'c', 5}},
    };
    static const size_t full_k[] = {2, 3, 2, 3, 6, 3};
    size_t ns = sizeof small_k / sizeof *small_k, nf = c->full ? sizeof full_k / sizeof *full_k : 0;
    for (size_t i = 0; i < ns + nf; i++) {
        const fspec *f = i < ns ? small_set[i] : full_set[i - ns];
        size_t k = i < ns ? small_k[i] : full_k[i - ns];
        char spec[128], inst[160];
        totex_error err = {{0}};
        product_spec(spec, sizeof spec, f, k);
        double bound = ceil(product_as(f, k) - 1e-9);
        totex_sim_report rep;
        snprintf(inst, sizeof inst, "%s single-port, a2", spec);
        if (sim_steps(spec, TOTEX_PORTS_SINGLE, "a2", &rep, &err))
            add(c, F_A2, inst, "steps", TOTEX_REL_EQ, bound, (double)rep.steps, 1, NULL);
        else
            add_fail(c, F_A2, inst, "steps", TOTEX_REL_EQ, bound, &err);
        uint64_t v;
        snprintf(inst, sizeof inst, "%s single-port", spec);
        if (bound_of(spec, TOTEX_PORTS_SINGLE, TOTEX_BOUND_AVERAGE_STATUS, &v, &err))
            add(c, F_A2, inst, "average-status bound", TOTEX_REL_EQ, bound, (double)v, 1, NULL);
        else
            add_fail(c, F_A2, inst, "average-status bound", TOTEX_REL_EQ, bound, &err);
    }
}

static uint64_t t_h(char kind, uint64_t m)
{
    return kind == 'p' ? ceil_div(m * m - 1, 4) : kind == 'r' ? ceil_div(m * m - 1, 8) : 1;
}

static void run_a3(ctx *c)
{
    static const struct {
        char kind;
        unsigned m, d;
    } small_set[] = {{'r', 3, 2}, {'r', 4, 2}, {'r', 5, 2}, {'r', 6, 2}, {'p', 3, 2}, {'p', 4, 2},
                     {'c', 4, 2}, {'k', 2, 2}, {'k', 2, 4}, {'r', 3, 4}, {'p', 5, 2}},
      full_set[] = {{'r', 7, 2},  {'r', 8, 2}, {'r', 9, 2}, {'p', 8, 2}, {'c', 6, 2},
                    {'r', 4, 4},  {'r', 5, 4}, {'p', 4, 4}, {'c', 4, 4}, {'k', 2, 8}};
    size_t ns = sizeof small_set / sizeof *small_set, nf = c->full ? sizeof full_set / sizeof *full_set : 0;
    for (size_t i = 0; i < ns + nf; i++) {
        char kind = i < ns ? small_set[i].kind : full_set[i - ns].kind;
        unsigned m = i < ns ? small_set[i].m : full_set[i - ns].m, d = i < ns ? small_set[i].d : full_set[i - ns].d;
        fspec f[8];
        for (unsigned j = 0; j < d; j++)
            f[j] = (fspec){kind, m};
        char spec[160], inst[200];
        product_spec(spec, sizeof spec, f, d);
        uint64_t pow = 1;
        for (unsigned j = 1; j < d; j++)
            pow *= m;
        uint64_t cor3 = pow * t_h(kind, m);
        uint64_t a = m / 2, b = m - m / 2, cl = kind == 'p' ? 1 : kind == 'r' ? 2 : a * b;
        uint64_t cut = ceil_div(pow * a * b, cl);
        totex_error err = {{0}};
        totex_sim_report rep;
        snprintf(inst, sizeof inst, "%s multiport, a3", spec);
        int ok = sim_steps(spec, TOTEX_PORTS_MULTI, "a3", &rep, &err);
        if (ok)
            add(c, F_A3, inst, "steps (Corollary 3)", TOTEX_REL_EQ, (double)cor3, (double)rep.steps, 1, NULL);
        else
            add_fail(c, F_A3, inst, "steps (Corollary 3)", TOTEX_REL_EQ, (double)cor3, &err);
        uint64_t v;
        snprintf(inst, sizeof inst, "%s multiport", spec);
        if (bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT, &v, &err))
            add(c, F_A3, inst, "cut bound (Theorem 5 proof)", TOTEX_REL_EQ, (double)cut, (double)v, 1, NULL);
        else
            add_fail(c, F_A3, inst, "cut bound (Theorem 5 proof)", TOTEX_REL_EQ, (double)cut, &err);
        if (ok && !(kind == 'r' && m % 4 == 2)) {
            snprintf(inst, sizeof inst, "%s multiport, a3", spec);
            add(c, F_A3, inst, "steps = cut bound (Theorem 5)", TOTEX_REL_EQ, (double)cut, (double)rep.steps, 1,
                NULL);
        }
    }
}

static void run_figs(ctx *c)
{
    static const struct {
        const char *spec, *fig;
        double as;
    } ex[] = {{"path:2*ring:3", "Fig. 1", 7}, {"ring:4*ring:3", "Fig. 2", 20}, {"ring:3*ring:4", "Fig. 2", 20}};
    for (size_t i = 0; i < sizeof ex / sizeof *ex; i++) {
        char inst[128];
        totex_error err = {{0}};
        totex_network *net = totex_network_parse(ex[i].spec, &err);
        snprintf(inst, sizeof inst, "%s %s", ex[i].fig, ex[i].spec);
        if (net)
            add(c, F_FIGS, inst, "average status", TOTEX_REL_EQ, ex[i].as, totex_network_average_status(net), 0,
                NULL);
        else
            add_fail(c, F_FIGS, inst, "average status", TOTEX_REL_EQ, ex[i].as, &err);
        totex_network_free(net);
        totex_sim_report rep;
        snprintf(inst, sizeof inst, "%s %s single-port, a2", ex[i].fig, ex[i].spec);
        if (sim_steps(ex[i].spec, TOTEX_PORTS_SINGLE, "a2", &rep, &err))
            add(c, F_FIGS, inst, "steps", TOTEX_REL_EQ, ex[i].as, (double)rep.steps, 1, NULL);
        else
            add_fail(c, F_FIGS, inst, "steps", TOTEX_REL_EQ, ex[i].as, &err);
    }
}

static void run_001_41(ctx *c)
{
    unsigned top = c->full ? 12 : 7;
    for (unsigned d = 1; d <= top; d++) {
        char spec[32], inst[128];
        totex_error err = {{0}};
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        double h = ldexp(1.0, (int)d - 1), sigma = d * h;
        totex_network *net = totex_network_parse(spec, &err);
        totex_task *t = net ? totex_task_total_exchange(net, &err) : NULL;
        if (!t) {
            add_fail(c, F_001_41, spec, "critical sum h", TOTEX_REL_EQ, h, &err);
            totex_network_free(net);
            continue;
        }
        add(c, F_001_41, spec, "critical sum h = n/2", TOTEX_REL_EQ, h, (double)totex_task_critical_sum(t), 1, NULL);
        add(c, F_001_41, spec, "total sum sigma", TOTEX_REL_EQ, sigma, (double)totex_task_total_sum(t), 1, NULL);
        totex_task_free(t);
        totex_sym_report rep;
        snprintf(inst, sizeof inst, "%s multiport, octr", spec);
        if (sym_run(spec, TOTEX_PORTS_MULTI, "octr", &rep, &err))
            add(c, F_001_41, inst, "steps", TOTEX_REL_EQ, h, (double)rep.steps, 1, NULL);
        else
            add_fail(c, F_001_41, inst, "steps", TOTEX_REL_EQ, h, &err);
        if (d < 3 || d > (c->full ? 9u : 5u)) {
            totex_network_free(net);
            continue;
        }
        for (unsigned K = 1; K <= d; K++)
            for (unsigned L = K; L <= d; L++) {
                double s = 0;
                for (unsigned i = K; i <= L; i++)
                    s += binom(d, i) * i;
                double col = ceil(s / d - 1e-9), hk = col > L ? col : L;
                snprintf(inst, sizeof inst, "%s (K, L) = (%u, %u) multiport, octr", spec, K, L);
                totex_task *nt = totex_task_neighbourhood(net, K, L, &err);
                totex_sym_schedule *ss = NULL;
                if (nt && totex_octr_schedule(nt, TOTEX_PORTS_MULTI, &ss, &err) == TOTEX_OK &&
                    totex_sym_certify(nt, TOTEX_PORTS_MULTI, ss, &rep, &err) == TOTEX_OK)
                    add(c, F_001_41, inst, "steps = h", TOTEX_REL_EQ, hk, (double)rep.steps, 1, NULL);
                else
                    add_fail(c, F_001_41, inst, "steps = h", TOTEX_REL_EQ, hk, &err);
                totex_sym_free(ss);
                totex_task_free(nt);
            }
        totex_network_free(net);
    }
}

/* 001 Section 8.2: h of a p^d wraparound mesh */
static double torus_h(unsigned p, unsigned d)
{
    double n = pow((double)p, (double)d);
    if (p % 2)
        return (p * n - n / p) / 8;
    if (d > 1)
        return p * n / 8;
    return n * (n + 2) / 8;
}

static void run_001_82_t7(ctx *c)
{
    unsigned pmax = c->full ? 11 : 7, dmax = c->full ? 3 : 2;
    for (unsigned p = 3; p <= pmax; p++)
        for (unsigned d = 1; d <= dmax; d++) {
            char spec[64], inst[128];
            totex_error err = {{0}};
            torus_spec(spec, sizeof spec, p, d);
            double h = torus_h(p, d), n = pow((double)p, (double)d);
            double sigma = d * (n / p) * (double)((uint64_t)p * p / 4);
            totex_network *net = totex_network_parse(spec, &err);
            totex_task *t = net ? totex_task_total_exchange(net, &err) : NULL;
            if (t)
                add(c, F_001_82, spec, "critical sum h = T_TE", TOTEX_REL_EQ, h, (double)totex_task_critical_sum(t), 1,
                    NULL);
            else
                add_fail(c, F_001_82, spec, "critical sum h = T_TE", TOTEX_REL_EQ, h, &err);
            totex_task_free(t);
            totex_network_free(net);
            totex_sym_report rep;
            snprintf(inst, sizeof inst, "%s multiport, octr", spec);
            if (sym_run(spec, TOTEX_PORTS_MULTI, "octr", &rep, &err))
                add(c, F_001_82, inst, "steps = T_TE", TOTEX_REL_EQ, h, (double)rep.steps, 1, NULL);
            else
                add_fail(c, F_001_82, inst, "steps = T_TE", TOTEX_REL_EQ, h, &err);
            for (unsigned k = 1; k <= 2 * d; k++) {
                double want = ceil(sigma / k - 1e-9);
                if (h > want)
                    want = h;
                snprintf(inst, sizeof inst, "%s %u-port, octr", spec, k);
                if (sym_run(spec, (totex_ports)k, "octr", &rep, &err))
                    add(c, F_001_T7, inst, "steps = max(ceil(sigma/k), h)", TOTEX_REL_EQ, want, (double)rep.steps, 1,
                        NULL);
                else
                    add_fail(c, F_001_T7, inst, "steps = max(ceil(sigma/k), h)", TOTEX_REL_EQ, want, &err);
            }
        }
    unsigned top = c->full ? 8 : 5;
    for (unsigned d = 2; d <= top; d++) {
        char spec[32], inst[128];
        totex_error err = {{0}};
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        double h = ldexp(1.0, (int)d - 1), sigma = d * h;
        for (unsigned k = 1; k <= d; k++) {
            double want = ceil(sigma / k - 1e-9);
            if (h > want)
                want = h;
            totex_sym_report rep;
            snprintf(inst, sizeof inst, "%s %u-port, octr", spec, k);
            if (sym_run(spec, (totex_ports)k, "octr", &rep, &err))
                add(c, F_001_T7, inst, "steps = max(ceil(sigma/k), h)", TOTEX_REL_EQ, want, (double)rep.steps, 1,
                    NULL);
            else
                add_fail(c, F_001_T7, inst, "steps = max(ceil(sigma/k), h)", TOTEX_REL_EQ, want, &err);
        }
    }
}

static void run_001_83(ctx *c)
{
    totex_error err = {{0}};
    totex_sym_report rep;
    uint64_t v;
    const char *spec = "torus:10x10x10";
    if (sym_run(spec, TOTEX_PORTS_MULTI, "octr", &rep, &err))
        add(c, F_001_83, "torus:10x10x10 multiport, octr", "steps (optimum)", TOTEX_REL_EQ, 1250, (double)rep.steps, 1,
            NULL);
    else
        add_fail(c, F_001_83, "torus:10x10x10 multiport, octr", "steps (optimum)", TOTEX_REL_EQ, 1250, &err);
    if (bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT, &v, &err))
        add(c, F_001_83, "torus:10x10x10 multiport", "cut bound (optimum)", TOTEX_REL_EQ, 1250, (double)v, 1, NULL);
    else
        add_fail(c, F_001_83, "torus:10x10x10 multiport", "cut bound (optimum)", TOTEX_REL_EQ, 1250, &err);
    if (sym_run(spec, TOTEX_PORTS_MULTI, "greedy-sym", &rep, &err))
        add(c, F_001_83, "torus:10x10x10 multiport, greedy-sym", "steps (greedy)", TOTEX_REL_LE, 1265,
            (double)rep.steps, 1, NULL);
    else
        add_fail(c, F_001_83, "torus:10x10x10 multiport, greedy-sym", "steps (greedy)", TOTEX_REL_LE, 1265, &err);
    /* h_r + h_c - 1 on p^d tori: h_r = d floor(p/2), h_c = the column sum (= h of Section 8.2 when p is odd) */
    unsigned pmax = c->full ? 9 : 6;
    for (unsigned p = 3; p <= pmax; p++)
        for (unsigned d = 2; d <= 3; d++) {
            char s[64], inst[128];
            torus_spec(s, sizeof s, p, d);
            double n = pow((double)p, (double)d);
            double hc = (n / p) * (double)((uint64_t)p * p / 4) / 2; /* per link type: half the per-dimension sum */
            hc = ceil(hc - 1e-9);
            double bound = d * (p / 2) + hc - 1;
            snprintf(inst, sizeof inst, "%s multiport, greedy-sym", s);
            if (sym_run(s, TOTEX_PORTS_MULTI, "greedy-sym", &rep, &err))
                add(c, F_001_83, inst, "steps <= h_r + h_c - 1", TOTEX_REL_LE, bound, (double)rep.steps, 1, NULL);
            else
                add_fail(c, F_001_83, inst, "steps <= h_r + h_c - 1", TOTEX_REL_LE, bound, &err);
        }
}

static double d_te(unsigned d)
{
    double n = ldexp(1.0, (int)d), a = 0, f = 1;
    for (unsigned i = 1; i <= d; i++) {
        double inner = 0;
        for (unsigned j = 1; j <= i; j++)
            inner += binom(d, j) * j;
        a += binom(d, i) * inner;
    }
    for (unsigned i = d; i <= 2 * d - 1; i++)
        f *= i;
    for (unsigned i = 2; i <= d - 1; i++)
        f /= i;
    return a / (d * (n - 1)) - f / (2 * d * (n - 1)) + (2.0 * d - 1 + (n / 2 - 1) * d) / (2 * (n - 1));
}

static void run_delay(ctx *c)
{
    unsigned top = c->full ? 64 : 16;
    for (unsigned m = 3; m <= top; m++) {
        char spec[32], inst[64];
        totex_error err = {{0}};
        totex_sym_report rep;
        snprintf(spec, sizeof spec, "ring:%u", m);
        snprintf(inst, sizeof inst, "%s multiport, octr", spec);
        double want = m % 2 ? (double)(m + 1) * (m + 3) / 24.0
                            : ((double)(m - 2) * (m - 1) * m + 6.0 * m * m) / (24.0 * (m - 1));
        totex_relation rel = m % 2 ? TOTEX_REL_EQ : TOTEX_REL_LE;
        if (sym_run(spec, TOTEX_PORTS_MULTI, "octr", &rep, &err))
            add(c, F_001_85, inst, "average delay", rel, want, rep.average_delay, 0, NULL);
        else
            add_fail(c, F_001_85, inst, "average delay", rel, want, &err);
    }
    static const unsigned primes[] = {2, 3, 5, 7, 11, 13};
    size_t np = c->full ? 6 : 4;
    for (size_t i = 0; i < np; i++) {
        char spec[32], inst[64];
        totex_error err = {{0}};
        totex_sym_report rep;
        snprintf(spec, sizeof spec, "hypercube:%u", primes[i]);
        snprintf(inst, sizeof inst, "%s multiport, octr", spec);
        double want = d_te(primes[i]);
        if (sym_run(spec, TOTEX_PORTS_MULTI, "octr", &rep, &err))
            add(c, F_001_62, inst, "average delay D_TE", TOTEX_REL_EQ, want, rep.average_delay, 0, NULL);
        else
            add_fail(c, F_001_62, inst, "average delay D_TE", TOTEX_REL_EQ, want, &err);
    }
}

/* SSY on the mesh a[0] x ... x a[k-1] through the combining simulator */
static int ssy_run(const char *spec, totex_comb_report *rep, totex_error *err)
{
    totex_network *net = totex_network_parse(spec, err);
    if (!net)
        return 0;
    totex_comb_schedule *s = NULL;
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_PORTS_SINGLE;
    int ok = totex_ssy_build(net, &s, err) == TOTEX_OK && totex_comb_simulate(net, s, &cost, rep, NULL, err) == TOTEX_OK;
    totex_comb_schedule_free(s);
    totex_network_free(net);
    return ok;
}

static void ssy_rows(ctx *c, size_t fam, const char *spec, double startups, double blocks, double rearranged)
{
    totex_comb_report rep;
    totex_error err = {{0}};
    char inst[128];
    snprintf(inst, sizeof inst, "%s ssy (wormhole, one-port)", spec);
    if (!ssy_run(spec, &rep, &err)) {
        add_fail(c, fam, inst, "start-ups", TOTEX_REL_EQ, startups, &err);
        return;
    }
    add(c, fam, inst, "start-ups", TOTEX_REL_EQ, startups, (double)rep.startups, 1, NULL);
    add(c, fam, inst, "blocks transmitted", TOTEX_REL_EQ, blocks, (double)rep.blocks_transmitted, 1, NULL);
    add(c, fam, inst, "rearranged blocks", TOTEX_REL_EQ, rearranged, (double)rep.rearranged_blocks, 1, NULL);
}

static void run_002(ctx *c)
{
    unsigned top = c->full ? 16 : 8;
    for (unsigned r = 2; r <= top; r += 2)
        for (unsigned cc = r; cc <= top; cc += 2) {
            char spec[64];
            snprintf(spec, sizeof spec, "mesh:%ux%u", r, cc);
            ssy_rows(c, F_002_T1, spec, cc, (double)r * cc * cc / 2, 2.0 * r * cc);
            if (cc != r) {
                snprintf(spec, sizeof spec, "mesh:%ux%u", cc, r);
                ssy_rows(c, F_002_T1, spec, cc, (double)r * cc * cc / 2, 2.0 * r * cc);
            }
        }
    static const unsigned nd[][4] = {{4, 4, 4}, {4, 2, 2}, {6, 4, 2}, {2, 2, 2, 2}, {8, 4, 4}, {6, 6, 6}, {4, 4, 4, 4}};
    static const size_t nk[] = {3, 3, 3, 4, 3, 3, 4};
    size_t count = c->full ? 7 : 4;
    for (size_t i = 0; i < count; i++) {
        char spec[64];
        size_t off = (size_t)snprintf(spec, sizeof spec, "mesh:%u", nd[i][0]);
        double prod = nd[i][0], rest = 1, a1 = nd[i][0], n = (double)nk[i];
        for (size_t j = 1; j < nk[i]; j++) {
            off += (size_t)snprintf(spec + off, sizeof spec - off, "x%u", nd[i][j]);
            prod *= nd[i][j];
            rest *= nd[i][j];
        }
        ssy_rows(c, F_002_T1, spec, n / 2 * a1, n / 4 * a1 * a1 * rest, n * prod);
    }
    unsigned dmax = c->full ? 5 : 3;
    for (unsigned d = 1; d <= dmax; d++) {
        char spec[64];
        double side = ldexp(1.0, (int)d);
        snprintf(spec, sizeof spec, "mesh:%.0fx%.0f", side, side);
        ssy_rows(c, F_002_T2, spec, side, ldexp(1.0, (int)(3 * d - 1)), 2 * side * side);
    }
}

/* ---- driver and report ------------------------------------------------------------------ */

totex_status totex_reproduce_run(const totex_reproduce_options *opt, totex_reproduce_report **out, totex_error *err)
{
    if (!out) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "totex_reproduce_run: NULL result pointer");
        return TOTEX_EINVAL;
    }
    *out = NULL;
    totex_reproduce_report *r = calloc(1, sizeof *r);
    if (!r) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return TOTEX_ENOMEM;
    }
    ctx c = {r, 0, opt ? opt->paper_offset : 0.0, opt && opt->sweep == TOTEX_SWEEP_FULL, 0};
    r->sweep = opt ? opt->sweep : TOTEX_SWEEP_SMALL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_003(&c);
    run_status(&c);
    run_ghc(&c);
    run_a2(&c);
    run_a3(&c);
    run_figs(&c);
    run_001_41(&c);
    run_001_82_t7(&c);
    run_001_83(&c);
    run_delay(&c);
    run_002(&c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (c.oom) {
        totex_reproduce_free(r);
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory recording the claims");
        return TOTEX_ENOMEM;
    }
    *out = r;
    return TOTEX_OK;
}

void totex_reproduce_free(totex_reproduce_report *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r);
}

size_t totex_reproduce_family_counts(const totex_reproduce_report *r, size_t family, size_t *agree, size_t *disagree)
{
    size_t a = 0, d = 0;
    for (size_t i = 0; r && i < r->count; i++)
        if (r->rows[i].family == family)
            r->rows[i].agree ? a++ : d++;
    if (agree)
        *agree = a;
    if (disagree)
        *disagree = d;
    return a + d;
}

static void fmt_value(char *buf, size_t len, double v, int integral)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else if (integral && fabs(v - nearbyint(v)) < 1e-9)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.9g", v);
}

void totex_reproduce_write_markdown(FILE *fp, const totex_reproduce_report *r)
{
    fprintf(fp, "# totex reproduce: the papers' claims, paper value against totex's measurement\n\n");
    fprintf(fp, "Sweep: **%s**. %zu instances of %zu claims: **%zu agree, %zu disagree** (%.2f s).\n\n",
            r->sweep == TOTEX_SWEEP_FULL ? "full" : "small", r->count, (size_t)F_COUNT, r->agree, r->disagree,
            r->seconds);
    fprintf(fp, "The paper value is the closed form evaluated by the reproduce engine itself; the totex value is\n"
                "measured through the public API (simulator, one-node certifier, bounds, task matrix, combining\n"
                "simulator). Papers (README.md, \"Papers\"): 000 and 004 Dimakopoulos & Dimopoulos (IEEE TPDS 1998 and\n"
                "its conference version), 001 Varvarigos & Bertsekas (Parallel Computing 1992), 002 Suh, Shin &\n"
                "Yalamanchili, 003 Dimakopoulos & Dimopoulos (linear arrays and rings).\n\n");
    fprintf(fp, "## Summary\n\n| claim | source | instances | agree | disagree |\n|---|---|---:|---:|---:|\n");
    for (size_t f = 0; f < F_COUNT; f++) {
        size_t a, d, n = totex_reproduce_family_counts(r, f, &a, &d);
        fprintf(fp, "| %s | %s | %zu | %zu | %zu |\n", families[f].id, families[f].source, n, a, d);
    }
    for (size_t f = 0; f < F_COUNT; f++) {
        fprintf(fp, "\n## %s: %s\n\n", families[f].id, families[f].source);
        fprintf(fp, "Claim: %s.\n\nMeasured: %s.\n\n", families[f].statement, families[f].measured);
        fprintf(fp, "| instance | quantity | paper | totex | relation | result |\n|---|---|---:|---:|:---:|---|\n");
        for (size_t i = 0; i < r->count; i++) {
            const totex_claim_row *row = &r->rows[i];
            if (row->family != f)
                continue;
            char p[48], m[48];
            fmt_value(p, sizeof p, row->paper, row->integral);
            fmt_value(m, sizeof m, row->measured, row->integral);
            fprintf(fp, "| %s | %s | %s | %s | totex %s paper | %s%s%s |\n", row->instance, row->quantity, p, m,
                    totex_relation_symbol(row->rel), row->agree ? "agree" : "**DISAGREE**", row->note[0] ? ": " : "",
                    row->note);
        }
    }
}
