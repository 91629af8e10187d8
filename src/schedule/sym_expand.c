/*
 * Expansion of a symmetric switching scheme to every node (001 Theorem 2 and
 * the routing it defines, eq. after Theorem 2; wraparound meshes: 001
 * Section 8.1, Theorem 8): in step t every node v sends, for each move
 * (r, j) of node 0, the packet with routing tag r that sits at v, i.e. the
 * packet whose source is v minus r's progress before step t, over v's link
 * of type j. The result is an ordinary schedule (n hops per move) that the
 * independent simulator of src/sim/sim.c replays; expansion itself checks
 * only that the indices exist, so an invalid scheme yields hops the
 * simulator rejects.
 */
#include "totex/symmetric.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

totex_status totex_sym_expand(const totex_task *t, const totex_sym_schedule *s, totex_sink sink, totex_error *err)
{
    if (!t || !s || !sink.step)
        return totex_fail(err, TOTEX_EINVAL, "totex_sym_expand: NULL task, schedule or sink");
    const totex_network *net = totex_task_network(t);
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    const uint32_t rows = totex_task_rows(t), cols = totex_task_cols(t);
    uint32_t m[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
    for (uint32_t i = 0; i < k; i++) {
        m[i] = totex_factor_nodes(totex_network_factor(net, i));
        stride[i] = totex_network_stride(net, i);
    }
    const uint32_t pdim = totex_task_period_dim(t);
    uint16_t *pos = calloc((size_t)rows * k + 1, sizeof *pos); /* progress of each row, per dimension */
    uint16_t *coord = malloc(sizeof *coord * ((size_t)n * k + 1)); /* coordinates of every node */
    totex_hop *buf = NULL;
    size_t cap = 0;
    totex_status st = TOTEX_OK;
    if (!pos || !coord) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory expanding a symmetric schedule on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < k; i++)
            coord[(size_t)v * k + i] = (uint16_t)((v / stride[i]) % m[i]);

    for (uint64_t step = 0; step < totex_sym_steps(s); step++) {
        size_t cnt;
        const totex_sym_move *mv = totex_sym_step(s, step, &cnt);
        if (cnt && (uint64_t)cnt * n > SIZE_MAX / sizeof *buf) {
            st = totex_fail(err, TOTEX_ENOMEM, "symmetric schedule step %llu expands to too many hops",
                            (unsigned long long)step);
            goto done;
        }
        if ((size_t)cnt * n > cap) {
            size_t want = (size_t)cnt * n;
            totex_hop *p = realloc(buf, sizeof *p * want);
            if (!p) {
                st = totex_fail(err, TOTEX_ENOMEM, "out of memory expanding step %llu (%zu hops)",
                                (unsigned long long)step, want);
                goto done;
            }
            buf = p;
            cap = want;
        }
        size_t h = 0;
        for (size_t x = 0; x < cnt; x++) {
            const uint32_t r = mv[x].row, j = mv[x].col;
            if (r >= rows || j >= cols) {
                st = totex_fail(err, TOTEX_EINVAL,
                                "symmetric schedule step %llu, move %zu: row %" PRIu32 " / column %" PRIu32
                                " out of range (the task has %" PRIu32 " rows and %" PRIu32 " columns)",
                                (unsigned long long)step, x, r, j, rows, cols);
                goto done;
            }
            const totex_link_type lt = totex_task_column(t, j);
            const uint32_t dest = totex_task_destination(t, r);
            const uint16_t *p = pos + (size_t)r * k;
            /* period 2: only the nodes whose parity along pdim is where the packet now is move it */
            const uint32_t cl = pdim == UINT32_MAX ? 0
                                : (coord[(size_t)totex_task_source(t, r) * k + pdim] + p[pdim]) & 1u;
            for (uint32_t v = 0; v < n; v++) {
                const uint16_t *cv = coord + (size_t)v * k;
                if (pdim != UINT32_MAX && (cv[pdim] & 1u) != cl)
                    continue;
                uint32_t src = 0, dst = 0;
                for (uint32_t i = 0; i < k; i++) {
                    uint32_t sc = (cv[i] + m[i] - p[i]) % m[i];
                    uint32_t dc = (sc + coord[(size_t)dest * k + i]) % m[i];
                    src += sc * stride[i];
                    dst += dc * stride[i];
                }
                const uint32_t c = cv[lt.dim], nc = (c + lt.delta) % m[lt.dim];
                buf[h++] = (totex_hop){v, v - c * stride[lt.dim] + nc * stride[lt.dim], src, dst};
            }
        }
        /* progress after the step (a row moved twice in a step is expanded as given: the simulator rejects it) */
        for (size_t x = 0; x < cnt; x++) {
            const totex_link_type lt = totex_task_column(t, mv[x].col);
            uint16_t *p = pos + (size_t)mv[x].row * k + lt.dim;
            *p = (uint16_t)((*p + lt.delta) % m[lt.dim]);
        }
        st = sink.step(sink.ctx, buf, h, err);
        if (st != TOTEX_OK)
            goto done;
    }
done:
    free(pos);
    free(coord);
    free(buf);
    return st;
}
