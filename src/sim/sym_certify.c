/*
 * Certification of a symmetric switching scheme at one node (001 Theorem 2
 * for the hypercube, Theorem 8 for wraparound meshes; k-port: 001 Section 7).
 * By Theorem 2 every node does the same in the same step, so the schedule is
 * valid at every node iff it is valid at node 0: each step moves each packet
 * (row) at most once and each link type (column) at most once, under k-port
 * at most k links, never moves a delivered packet, and in the end every
 * packet is at its destination.
 *
 * Independence from the task matrix: positions are tracked from the rows'
 * destinations (totex_task_destination) and the columns' generators
 * (totex_task_column) alone, as offsets in Z_m1 x ... x Z_mk; the entries
 * and sums of the matrix are never read, so any route is accepted, shortest
 * or not. Memory: 2 bytes per row per dimension plus 9 bytes per row.
 */
#include "totex/symmetric.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/progress.h"

/* steps between two ticks of the progress meter (a step is at most a few dozen moves) */
#define CERTIFY_TICK 1024u

typedef struct certifier {
    const totex_task *t;
    const totex_network *net;
    uint32_t rows, cols, k;
    uint32_t m[TOTEX_MAX_DIMS];
    uint16_t *pos;       /* rows * k: offset of the packet from its source, per dimension */
    uint8_t *mismatch;   /* rows: dimensions where pos != destination coordinate (0: delivered) */
    uint64_t *row_stamp; /* rows: 1 + last step the row moved */
    uint64_t *col_stamp; /* classes * cols: 1 + last step the column was used by that class of nodes */
    uint32_t pdim;       /* periodic dimension of a period-2 task, UINT32_MAX otherwise */
    uint8_t *cls0;       /* rows: parity class of the row's source along pdim (period 2) */
} certifier;

static void free_certifier(certifier *c)
{
    free(c->pos);
    free(c->mismatch);
    free(c->row_stamp);
    free(c->col_stamp);
    free(c->cls0);
}

static void column_text(const certifier *c, uint32_t j, char *buf, size_t len)
{
    if (j >= c->cols) {
        snprintf(buf, len, "column %" PRIu32 " (out of range: the task has %" PRIu32 " columns)", j, c->cols);
        return;
    }
    totex_link_type lt = totex_task_column(c->t, j);
    snprintf(buf, len, "column %" PRIu32 " (dimension %" PRIu32 ", +%" PRIu32 " in Z_%" PRIu32 " of %s)", j, lt.dim,
             lt.delta, c->m[lt.dim], totex_factor_name(totex_network_factor(c->net, lt.dim)));
}

static totex_status reject(const certifier *c, uint64_t step, size_t idx, const totex_sym_move *mv, const char *why,
                           totex_error *err)
{
    char col[160], row[96];
    column_text(c, mv->col, col, sizeof col);
    if (mv->row < c->rows)
        snprintf(row, sizeof row, "row %" PRIu32 " (packet to node %" PRIu32 ")", mv->row,
                 totex_task_destination(c->t, mv->row));
    else
        snprintf(row, sizeof row, "row %" PRIu32 " (out of range: the task has %" PRIu32 " rows)", mv->row, c->rows);
    return totex_fail(err, TOTEX_EVIOLATION, "symmetric schedule step %llu, move %zu: %s on %s: %s",
                      (unsigned long long)step, idx, row, col, why);
}

totex_status totex_sym_certify(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                               totex_sym_report *rep, totex_error *err)
{
    return totex_sym_certify_progress(t, ports, s, rep, NULL, err);
}

totex_status totex_sym_certify_progress(const totex_task *t, totex_ports ports, const totex_sym_schedule *s,
                                        totex_sym_report *rep, totex_progress *progress, totex_error *err)
{
    certifier c;
    memset(&c, 0, sizeof c);
    if (!t || !s || !rep)
        return totex_fail(err, TOTEX_EINVAL, "totex_sym_certify: NULL task, schedule or report");
    if (ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_EINVAL, "totex_sym_certify: port model %" PRIu32 " is not single-port, multiport or k-port with k <= %u",
                          (uint32_t)ports, TOTEX_PORTS_MAX_K);
    c.t = t;
    c.net = totex_task_network(t);
    c.rows = totex_task_rows(t);
    c.cols = totex_task_cols(t);
    c.k = totex_network_dims(c.net);
    for (uint32_t i = 0; i < c.k; i++)
        c.m[i] = totex_factor_nodes(totex_network_factor(c.net, i));
    c.pos = calloc((size_t)c.rows * c.k + 1, sizeof *c.pos);
    c.mismatch = malloc((size_t)c.rows + 1);
    c.row_stamp = calloc((size_t)c.rows + 1, sizeof *c.row_stamp);
    c.pdim = totex_task_period_dim(t);
    const uint32_t classes = c.pdim == UINT32_MAX ? 1 : 2;
    c.col_stamp = calloc((size_t)classes * c.cols + 1, sizeof *c.col_stamp);
    c.cls0 = calloc((size_t)c.rows + 1, 1);
    if (!c.pos || !c.mismatch || !c.row_stamp || !c.col_stamp || !c.cls0) {
        free_certifier(&c);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory certifying a symmetric schedule (%" PRIu32 " rows)",
                          c.rows);
    }
    for (uint32_t r = 0; r < c.rows && classes == 2; r++)
        c.cls0[r] = (uint8_t)(totex_network_coord(c.net, totex_task_source(t, r), c.pdim) & 1u);
    for (uint32_t r = 0; r < c.rows; r++) {
        uint32_t dst = totex_task_destination(t, r), mis = 0;
        for (uint32_t i = 0; i < c.k; i++)
            mis += totex_network_coord(c.net, dst, i) != 0;
        c.mismatch[r] = (uint8_t)mis;
    }

    const uint32_t kports = totex_ports_k(ports);
    uint64_t undelivered = 0, delay_sum = 0, last = 0, moves = 0, max_moves = 0;
    for (uint32_t r = 0; r < c.rows; r++)
        undelivered += c.mismatch[r] != 0;
    const uint64_t steps = totex_sym_steps(s);
    /* in batches of CERTIFY_TICK steps, a tick of the meter after each: nothing more per step */
    for (uint64_t batch = 0; batch < steps; batch += CERTIFY_TICK) {
        const uint64_t batch_end = steps - batch > CERTIFY_TICK ? batch + CERTIFY_TICK : steps;
        for (uint64_t st = batch; st < batch_end; st++) {
            size_t cnt;
            const totex_sym_move *mv = totex_sym_step(s, st, &cnt);
            const uint64_t stamp = st + 1;
            uint64_t per_class[2] = {0, 0};
            for (size_t x = 0; x < cnt; x++) {
                const uint32_t r = mv[x].row, j = mv[x].col;
                char why[200];
                totex_status rc = TOTEX_OK;
                /* the class of nodes that makes this move: the parity of where the packet is now */
                const uint32_t cl = classes == 2 && r < c.rows
                                        ? (c.cls0[r] + c.pos[(size_t)r * c.k + c.pdim]) & 1u : 0;
                if (r >= c.rows)
                    rc = reject(&c, st, x, &mv[x], "no such row (packet)", err);
                else if (j >= c.cols)
                    rc = reject(&c, st, x, &mv[x], "no such column (link type of the network)", err);
                else if (kports && ++per_class[cl] > kports) {
                    snprintf(why, sizeof why, "more than %" PRIu32 " moves by one node in a step, but %" PRIu32
                             "-port allows a node at most %" PRIu32 " links per step", kports, kports, kports);
                    rc = reject(&c, st, x, &mv[x], kports == 1 ? "single-port: a node sends at most one packet per step" : why, err);
                } else if (c.row_stamp[r] == stamp)
                    rc = reject(&c, st, x, &mv[x], "the packet already moves in this step (it would be duplicated)", err);
                else if (c.col_stamp[(size_t)cl * c.cols + j] == stamp)
                    rc = reject(&c, st, x, &mv[x], "the link type already carries a packet in this step (two packets on one link)", err);
                else if (c.mismatch[r] == 0)
                    rc = reject(&c, st, x, &mv[x], "the packet is already at its destination", err);
                if (rc != TOTEX_OK) {
                    free_certifier(&c);
                    return rc;
                }
                c.row_stamp[r] = stamp;
                c.col_stamp[(size_t)cl * c.cols + j] = stamp;
                /* apply now: each row moves at most once per step, so this equals applying at the step's end */
                totex_link_type lt = totex_task_column(t, j);
                const uint32_t m = c.m[lt.dim];
                const uint32_t want = totex_network_coord(c.net, totex_task_destination(t, r), lt.dim);
                uint16_t *p = c.pos + (size_t)r * c.k + lt.dim;
                const int was = *p == want;
                *p = (uint16_t)(((uint32_t)*p + lt.delta) % m);
                const int is = *p == want;
                if (was && !is)
                    c.mismatch[r]++;
                else if (!was && is && --c.mismatch[r] == 0) {
                    undelivered--;
                    delay_sum += stamp;
                    last = stamp;
                }
            }
            moves += cnt;
            const uint64_t busiest = classes == 2 ? (per_class[0] > per_class[1] ? per_class[0] : per_class[1]) : cnt;
            if (busiest > max_moves)
                max_moves = busiest;
        }
        totex_progress_tick(progress, batch_end - batch);
    }
    if (undelivered) {
        for (uint32_t r = 0; r < c.rows; r++) {
            if (!c.mismatch[r])
                continue;
            char where[256];
            size_t off = 0;
            for (uint32_t i = 0; i < c.k && off < sizeof where; i++)
                off += (size_t)snprintf(where + off, sizeof where - off, "%s%u", i ? "," : "",
                                        (unsigned)c.pos[(size_t)r * c.k + i]);
            totex_status rc = totex_fail(err, TOTEX_EVIOLATION,
                                         "symmetric schedule after the last step (%llu steps): row %" PRIu32
                                         " (packet to node %" PRIu32 ") is not delivered: it is at offset (%s) from "
                                         "its source; %llu of %" PRIu32 " packets undelivered",
                                         (unsigned long long)steps, r, totex_task_destination(t, r), where,
                                         (unsigned long long)undelivered, c.rows);
            free_certifier(&c);
            return rc;
        }
    }
    memset(rep, 0, sizeof *rep);
    rep->steps = last;
    rep->moves = moves / classes; /* per node: each class of nodes makes its own moves */
    rep->average_delay = c.rows ? (double)delay_sum / (double)c.rows : 0.0;
    rep->peak_queue = c.rows / classes;
    rep->link_utilisation = last && c.cols ? (double)moves / ((double)last * (double)c.cols * classes) : 0.0;
    rep->max_moves_in_step = max_moves;
    free_certifier(&c);
    return TOTEX_OK;
}

void totex_sym_report_to_sim(const totex_network *net, const totex_sym_schedule *s, const totex_sym_report *rep,
                             totex_sim_report *out)
{
    const uint64_t n = totex_network_nodes(net);
    memset(out, 0, sizeof *out);
    out->steps = rep->steps;
    out->steps_emitted = totex_sym_steps(s);
    out->hops = rep->moves * n;
    out->messages = totex_network_messages(net);
    out->average_delay = rep->average_delay;
    out->peak_queue = rep->peak_queue;
    out->directed_links = 2 * totex_network_links(net);
    out->link_utilisation = rep->link_utilisation;
    out->port_utilisation = rep->steps ? (double)rep->moves / (double)rep->steps : 0.0;
    out->max_hops_in_step = rep->max_moves_in_step * n;
}
