/*
 * Symmetric greedy: a non-wasting symmetric switching scheme, furthest-first,
 * symmetric under every translation (period 1) or under translations by two
 * along one even ring side (period 2, beyond 001).
 *
 * Source:  001 Sections 5 and 8.3 (greedy, non-wasting switching schemes:
 *          completion within h_r + h_c - 1, the 1250 / 1265 example); 003
 *          Section 4.2 (even rings: direction of the antipodal messages
 *          alternating with the node's parity) for the period-2 form, which
 *          lifts that idea to products: 001's symmetric schemes cannot balance
 *          the antipodal packets of an even side m_i when n/m_i is odd (ring:6,
 *          torus:6x3: 001 gets n(n+2)/8 on even rings), a scheme symmetric
 *          under translation by two along that side can.
 * Model:   multiport and k-port (at most k moves per node per step; k = 1 is
 *          single-port).
 * Steps:   at most h_r + h_c - 1 (001 Section 8.3) for period 1; measured
 *          against the cut bound otherwise.
 * Optimal: not in general; the tests report steps against the bound.
 *
 * Each step, for each class of nodes (all nodes, or the two parities of the
 * periodic side) and each link type in order of decreasing remaining load,
 * the link carries the eligible packet (one whose distance that link reduces)
 * with the largest remaining distance that has not moved yet in this step.
 * Routes are the task matrix's: antipodal packets of an even ring go the way
 * the A+ / A- split says, which for the period-2 task is flipped on the odd
 * nodes (as 003 Section 4.2 alternates the direction with the node's parity),
 * so that the loads of the four (parity, direction) link classes balance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"
#include "common/progress_scope.h"
#include "totex/progress.h"
#include "totex/symmetric.h"
#include "totex/task.h"

/* steps between two ticks of the progress meter */
#define GREEDY_TICK 256u

typedef struct stack {
    uint32_t *v;
    uint32_t n, cap;
} stack;

typedef struct sg {
    const totex_task *t;
    uint32_t rows, cols, k, classes, pdim, maxd;
    uint32_t m[TOTEX_MAX_DIMS];
    totex_link_type *lt;  /* cols */
    uint16_t *rem;        /* rows * k: remaining offset per dimension, in Z_m */
    uint32_t *dist;       /* rows: remaining distance */
    uint8_t *cls;         /* rows: class of the node holding the packet */
    uint64_t *moved;      /* rows: 1 + step of the last move */
    stack *bucket;        /* (class * cols + col) * (maxd + 1) + dist */
    uint32_t *top;        /* per slot: highest bucket that may be non-empty */
    uint64_t *load;       /* cols: remaining hops that can use the column */
} sg;

static int push(stack *s, uint32_t x)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 8;
        uint32_t *v = realloc(s->v, sizeof *v * cap);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

static uint32_t ring_dist(uint32_t x, uint32_t m) { return x < m - x ? x : m - x; }

static int complete_dim(const sg *g, uint32_t dim);

/* Hops of row r that column j can still make (0: not eligible). */
static uint32_t useful(const sg *g, uint32_t r, uint32_t j)
{
    const totex_link_type lt = g->lt[j];
    const uint32_t x = g->rem[(size_t)r * g->k + lt.dim], m = g->m[lt.dim];
    if (x == 0)
        return 0;
    if (m == 2)
        return 1;
    if (complete_dim(g, lt.dim))
        return lt.delta == x;
    if (2 * x == m)
        return totex_task_entry(g->t, r, j) ? x : 0;
    if (lt.delta == 1 && 2 * x < m)
        return x;
    if (lt.delta == m - 1 && 2 * x > m)
        return m - x;
    return 0;
}

static int complete_dim(const sg *g, uint32_t dim)
{
    return totex_factor_get_kind(totex_network_factor(totex_task_network(g->t), dim)) == TOTEX_FACTOR_COMPLETE;
}

/* Is column j eligible for row r (moving over it brings the packet closer)? */
static int eligible(const sg *g, uint32_t r, uint32_t j)
{
    const totex_link_type lt = g->lt[j];
    const uint32_t x = g->rem[(size_t)r * g->k + lt.dim], m = g->m[lt.dim];
    if (x == 0)
        return 0;
    if (complete_dim(g, lt.dim) || m == 2)
        return lt.delta == x;
    if (2 * x == m) /* antipodal: the direction the task chose (A+ / A-, flipped on odd nodes for period 2) */
        return totex_task_entry(g->t, r, j) != 0;
    return lt.delta == 1 ? 2 * x < m : 2 * x > m;
}

static int enqueue(sg *g, uint32_t r)
{
    for (uint32_t j = 0; j < g->cols; j++) {
        if (!eligible(g, r, j))
            continue;
        uint32_t slot = g->cls[r] * g->cols + j;
        if (push(&g->bucket[(size_t)slot * (g->maxd + 1) + g->dist[r]], r))
            return -1;
        if (g->dist[r] > g->top[slot])
            g->top[slot] = g->dist[r];
    }
    return 0;
}

static void sg_free(sg *g)
{
    if (g->bucket)
        for (size_t i = 0; i < (size_t)g->classes * g->cols * (g->maxd + 1); i++)
            free(g->bucket[i].v);
    free(g->bucket);
    free(g->lt);
    free(g->rem);
    free(g->dist);
    free(g->cls);
    free(g->moved);
    free(g->top);
    free(g->load);
}

typedef struct slot_order {
    uint64_t load;
    uint32_t slot;
} slot_order;

static int by_load(const void *a, const void *b)
{
    const slot_order *x = a, *y = b;
    if (x->load != y->load)
        return x->load < y->load ? 1 : -1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/*
 * A progress meter on stderr for the greedy named @p name when progress is
 * enabled (NULL otherwise). The greedy's step count is not known before it
 * ends: the total shown is the lower bound max(ceil(sigma/k), h) (001
 * Theorem 7; h alone under multiport), which it usually meets; past it the
 * line shows the steps without a percentage.
 */
static totex_progress *greedy_progress(const totex_task *t, totex_ports ports, const char *name)
{
    char label[64];
    uint64_t k = totex_ports_k(ports), h = totex_task_critical_sum(t), est = h;
    FILE *fp = totex_progress_stream(); /* the plan's options (totex_plan_options.progress) */
    if (!fp)
        return NULL;
    if (k && (totex_task_total_sum(t) + k - 1) / k > est)
        est = (totex_task_total_sum(t) + k - 1) / k;
    snprintf(label, sizeof label, "%s: planning", name);
    return totex_progress_new(fp, label, est, NULL, 1);
}

/* The greedy @p name on task t (period 1 or 2) under ports; a new symmetric schedule in *out. */
static totex_status run(const totex_task *t, totex_ports ports, const char *name, totex_sym_schedule **out,
                        totex_error *err)
{
    totex_progress *prog = NULL;
    sg g;
    totex_status st = TOTEX_OK;
    totex_sym_schedule *s = NULL;
    totex_sym_move *moves = NULL;
    slot_order *order = NULL;
    stack keep = {0};
    const totex_network *net = totex_task_network(t);
    memset(&g, 0, sizeof g);
    g.t = t;
    g.rows = totex_task_rows(t);
    g.cols = totex_task_cols(t);
    g.k = totex_network_dims(net);
    g.pdim = totex_task_period_dim(t);
    g.classes = g.pdim == UINT32_MAX ? 1 : 2;
    for (uint32_t i = 0; i < g.k; i++) {
        g.m[i] = totex_factor_nodes(totex_network_factor(net, i));
        g.maxd += totex_factor_diameter(totex_network_factor(net, i));
    }
    const size_t slots = (size_t)g.classes * g.cols;
    g.lt = malloc(sizeof *g.lt * (g.cols + 1));
    g.rem = malloc(sizeof *g.rem * ((size_t)g.rows * g.k + 1));
    g.dist = malloc(sizeof *g.dist * (g.rows + 1));
    g.cls = malloc(g.rows + 1);
    g.moved = calloc(g.rows + 1, sizeof *g.moved);
    g.bucket = calloc(slots * (g.maxd + 1) + 1, sizeof *g.bucket);
    g.top = calloc(slots + 1, sizeof *g.top);
    g.load = calloc(g.cols + 1, sizeof *g.load);
    moves = malloc(sizeof *moves * (slots + 1));
    order = malloc(sizeof *order * (slots + 1));
    s = totex_sym_new();
    if (!g.lt || !g.rem || !g.dist || !g.cls || !g.moved || !g.bucket || !g.top || !g.load || !moves || !order || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the symmetric greedy on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t j = 0; j < g.cols; j++)
        g.lt[j] = totex_task_column(t, j);
    uint32_t undelivered = 0;
    for (uint32_t r = 0; r < g.rows; r++) {
        uint32_t dst = totex_task_destination(t, r), d = 0;
        for (uint32_t i = 0; i < g.k; i++) {
            uint32_t x = totex_network_coord(net, dst, i);
            g.rem[(size_t)r * g.k + i] = (uint16_t)x;
            d += complete_dim(&g, i) ? (x != 0) : ring_dist(x, g.m[i]);
        }
        g.dist[r] = d;
        g.cls[r] = g.classes == 2 ? (uint8_t)(totex_network_coord(net, totex_task_source(t, r), g.pdim) & 1u) : 0;
        undelivered += d != 0;
        for (uint32_t j = 0; j < g.cols; j++)
            g.load[j] += useful(&g, r, j);
        if (d && enqueue(&g, r)) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory planning the symmetric greedy");
            goto done;
        }
    }
    const uint32_t kp = totex_ports_k(ports);
    const uint64_t cap_steps = totex_task_total_sum(t) + 1;
    prog = greedy_progress(t, ports, name);
    for (uint64_t step = 0; undelivered; step++) {
        if (prog && step % GREEDY_TICK == GREEDY_TICK - 1)
            totex_progress_tick(prog, GREEDY_TICK);
        if (step > cap_steps) {
            st = totex_fail(err, TOTEX_EVIOLATION, "symmetric greedy made no progress on %s (internal error)",
                            totex_network_spec(net));
            goto done;
        }
        const uint64_t stamp = step + 1;
        uint32_t per_class[2] = {0, 0};
        size_t nm = 0;
        for (size_t sl = 0; sl < slots; sl++)
            order[sl] = (slot_order){g.load[sl % g.cols], (uint32_t)sl};
        qsort(order, slots, sizeof *order, by_load);
        for (size_t o = 0; o < slots; o++) {
            const uint32_t slot = order[o].slot, cl = slot / g.cols, j = slot % g.cols;
            if (kp && per_class[cl] >= kp)
                continue;
            uint32_t chosen = UINT32_MAX;
            keep.n = 0;
            while (chosen == UINT32_MAX) {
                uint32_t d = g.top[slot];
                stack *b = &g.bucket[(size_t)slot * (g.maxd + 1) + d];
                if (b->n == 0) {
                    if (d == 0)
                        break;
                    g.top[slot]--;
                    continue;
                }
                uint32_t r = b->v[--b->n];
                if (g.dist[r] != d || g.cls[r] != cl || !eligible(&g, r, j))
                    continue; /* stale entry */
                if (g.moved[r] == stamp) {
                    if (push(&keep, r)) {
                        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
                        goto done;
                    }
                    continue;
                }
                chosen = r;
            }
            for (uint32_t x = 0; x < keep.n; x++) /* still valid, just busy this step */
                if (push(&g.bucket[(size_t)slot * (g.maxd + 1) + g.dist[keep.v[x]]], keep.v[x])) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
                    goto done;
                }
            if (chosen == UINT32_MAX)
                continue;
            moves[nm++] = (totex_sym_move){chosen, j};
            g.moved[chosen] = stamp;
            per_class[cl]++;
        }
        /* apply the step */
        for (size_t x = 0; x < nm; x++) {
            const uint32_t r = moves[x].row, j = moves[x].col;
            const totex_link_type lt = g.lt[j];
            for (uint32_t c = 0; c < g.cols; c++)
                g.load[c] -= useful(&g, r, c);
            uint16_t *p = &g.rem[(size_t)r * g.k + lt.dim];
            *p = (uint16_t)((*p + g.m[lt.dim] - lt.delta) % g.m[lt.dim]);
            g.dist[r]--;
            if (lt.dim == g.pdim)
                g.cls[r] ^= 1u;
            for (uint32_t c = 0; c < g.cols; c++)
                g.load[c] += useful(&g, r, c);
            if (g.dist[r] == 0)
                undelivered--;
        }
        for (size_t x = 0; x < nm; x++)
            if (g.dist[moves[x].row] && enqueue(&g, moves[x].row)) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
                goto done;
            }
        if ((st = totex_sym_add_step(s, moves, nm, err)) != TOTEX_OK)
            goto done;
    }
done:
    totex_progress_free(prog);
    free(keep.v);
    free(moves);
    free(order);
    sg_free(&g);
    if (st != TOTEX_OK) {
        totex_sym_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}

/*
 * The even ring side m_i whose antipodal packets a symmetric scheme cannot
 * balance (n/m_i odd, so every other side is odd and there is at most one),
 * provided it is what makes the period-1 critical sum exceed the balanced
 * load (n/m_i) * m_i^2/8 of that side; UINT32_MAX otherwise.
 */
static uint32_t unbalanced_side(const totex_network *net)
{
    uint32_t n = totex_network_nodes(net);
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint64_t m = totex_factor_nodes(f);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_RING || m % 2 || (n / m) % 2 == 0)
            continue;
        totex_task *t = totex_task_total_exchange(net, NULL);
        if (!t)
            return UINT32_MAX;
        uint64_t h = totex_task_critical_sum(t), balanced = ((n / m) * m * m + 7) / 8, side = 0;
        for (uint32_t j = 0; j < totex_task_cols(t); j++)
            if (totex_task_column(t, j).dim == i && totex_task_col_sum(t, j) > side)
                side = totex_task_col_sum(t, j);
        totex_task_free(t);
        return side == h && h > balanced ? i : UINT32_MAX; /* this side is critical, and only by imbalance */
    }
    return UINT32_MAX;
}

static totex_status plan_sym(const totex_network *net, totex_ports ports, int period2, totex_task **task,
                             totex_sym_schedule **out, totex_error *err)
{
    totex_task *t;
    if (period2) {
        uint32_t dim = unbalanced_side(net);
        if (dim == UINT32_MAX)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "sym2 is for a torus whose critical side is even with the other sides multiplying to an odd number (ring:6, torus:6x3), where 001's symmetric schemes cannot balance the antipodal packets: %s has none, so the period-1 schemes (octr, greedy-sym) already reach their critical sum",
                              totex_network_spec(net));
        t = totex_task_total_exchange_period2(net, dim, err);
    } else {
        t = totex_task_total_exchange(net, err);
    }
    if (!t)
        return TOTEX_ENOTAPPLICABLE;
    totex_status st = run(t, ports, period2 ? "sym2" : "greedy-sym", out, err);
    if (st != TOTEX_OK) {
        totex_task_free(t);
        return st;
    }
    *task = t;
    return TOTEX_OK;
}

static totex_status applies_common(const totex_network *net, totex_ports ports, int period2, totex_error *err)
{
    totex_task *t;
    (void)ports;
    if (period2 && unbalanced_side(net) == UINT32_MAX)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "sym2 is for a torus whose critical side is even with the other sides multiplying to an odd number (ring:6, torus:6x3); %s has none (use octr)",
                          totex_network_spec(net));
    t = totex_task_total_exchange(net, err);
    if (!t)
        return TOTEX_ENOTAPPLICABLE;
    totex_task_free(t);
    return TOTEX_OK;
}

static totex_status predict_common(const totex_network *net, totex_ports ports, int period2, uint64_t *steps,
                                   totex_error *err)
{
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_status st = plan_sym(net, ports, period2, &t, &s, err);
    if (st == TOTEX_OK)
        *steps = totex_sym_steps(s);
    totex_sym_free(s);
    totex_task_free(t);
    return st;
}

static totex_status plan_stream(const totex_network *net, totex_ports ports, int period2, totex_sink sink,
                                totex_error *err)
{
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_status st = plan_sym(net, ports, period2, &t, &s, err);
    if (st == TOTEX_OK)
        st = totex_sym_expand(t, s, sink, err);
    totex_sym_free(s);
    totex_task_free(t);
    return st;
}

static totex_status g1_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    return applies_common(net, ports, 0, err);
}
static totex_status g1_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    return predict_common(net, ports, 0, steps, err);
}
static totex_status g1_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    return plan_stream(net, ports, 0, sink, err);
}
static totex_status g1_sym(const totex_network *net, totex_ports ports, totex_task **task, totex_sym_schedule **out,
                           totex_error *err)
{
    return plan_sym(net, ports, 0, task, out, err);
}
static totex_status g2_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    return applies_common(net, ports, 1, err);
}
static totex_status g2_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    return predict_common(net, ports, 1, steps, err);
}
static totex_status g2_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    return plan_stream(net, ports, 1, sink, err);
}
static totex_status g2_sym(const totex_network *net, totex_ports ports, totex_task **task, totex_sym_schedule **out,
                           totex_error *err)
{
    return plan_sym(net, ports, 1, task, out, err);
}

const totex_algorithm totex_algorithm_greedy_sym = {
    .name = "greedy-sym",
    .title = "Symmetric greedy (non-wasting symmetric switching scheme, furthest-first)",
    .source = "001 Sections 5, 8.3",
    .applies = g1_applies,
    .predict = g1_predict,
    .plan = g1_plan,
    .plan_symmetric = g1_sym,
    .costly_predict = 1, /* predict runs the whole greedy */
};

const totex_algorithm totex_algorithm_sym2 = {
    .name = "sym2",
    .title = "Greedy scheme symmetric under translation by two along the unbalanced even side (beyond 001)",
    .source = "001 Sections 5, 8.1-8.3; 003 Section 4.2",
    .applies = g2_applies,
    .predict = g2_predict,
    .plan = g2_plan,
    .plan_symmetric = g2_sym,
    .costly_predict = 1,
};
