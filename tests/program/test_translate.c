/* Per-rank translation of symmetric schedules (src/program/share_unit.c, 001
 * Theorem 2) against the full expansion of the same schedule to every node
 * (totex_sym_expand(), src/schedule/sym_expand.c), filtered to the rank's
 * share: for every rank of every network below and every algorithm with a
 * symmetric form (octr, greedy-sym, sym2; multiport, single-port, 2-port),
 * the transfers (step, from, to) and their blocks (src, dst), in order, must
 * be the same. Also combining schedules with a node-0 form (a3c): every
 * rank's share translated from node 0's transfers (share.c) against its
 * share of the schedule build() makes. Runs without MPI (no mpirun). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

typedef struct filt {
    totex_prog_share *l;
    uint64_t step;
} filt;

static totex_status filt_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    filt *f = ctx;
    (void)err;
    return totex_prog_share_hops(f->l, f->step++, hops, count) ? TOTEX_ENOMEM : TOTEX_OK;
}

static int by_block(const void *x, const void *y)
{
    const totex_block *a = x, *b = y;
    return a->src != b->src ? (a->src < b->src ? -1 : 1) : a->dst != b->dst ? (a->dst < b->dst ? -1 : 1) : 0;
}

/* a share's transfers of step st as (from, to) -> sorted blocks, written into a canonical text */
static size_t canon(const totex_prog_share *l, size_t x0, char **out)
{
    size_t x1 = x0, len = 0, cap = 256;
    char *s = malloc(cap);
    s[0] = '\0';
    while (x1 < l->nx && l->x[x1].step == l->x[x0].step)
        x1++;
    /* transfers in (from, to) order: one per link and step */
    size_t *ord = malloc((x1 - x0 + 1) * sizeof *ord);
    for (size_t i = x0; i < x1; i++)
        ord[i - x0] = i;
    for (size_t i = 1; i < x1 - x0; i++)
        for (size_t j = i; j > 0; j--) {
            const totex_prog_xfer *a = &l->x[ord[j - 1]], *b = &l->x[ord[j]];
            if (a->from < b->from || (a->from == b->from && a->to <= b->to))
                break;
            size_t t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    for (size_t i = 0; i < x1 - x0; i++) {
        const totex_prog_xfer *tr = &l->x[ord[i]];
        totex_block *b = malloc((tr->count + 1) * sizeof *b);
        memcpy(b, l->b + tr->first, tr->count * sizeof *b);
        qsort(b, tr->count, sizeof *b, by_block);
        for (size_t k = 0; k <= tr->count; k++) {
            if (len + 40 > cap)
                s = realloc(s, cap *= 2);
            len += (size_t)(k == 0 ? snprintf(s + len, cap - len, "|%u>%u:", tr->from, tr->to) : 0);
            if (k < tr->count)
                len += (size_t)snprintf(s + len, cap - len, "%u,%u;", b[k].src, b[k].dst);
        }
        free(b);
    }
    free(ord);
    *out = s;
    return x1;
}

/* combining schedules with a node-0 form (totex_comb_algorithm.plan_node0): every rank's share
   translated from node 0's transfers equals its share of the built schedule (per step, the same
   transfers, each with the same blocks: the order within a transfer may differ) */
static int check_node0(int *compared)
{
    static const char *nets[] = {"ring:4*ring:4", "ring:6*ring:6", "k2*k2*k2*k2", "complete:4*complete:4",
                                 "ring:8*ring:8", "ring:4*ring:4*ring:4*ring:4", "k2*k2"};
    int failures = 0;
    for (size_t a = 0; a < totex_comb_algorithm_count(); a++) {
        const totex_comb_algorithm *alg = totex_comb_algorithm_get(a);
        if (!alg->plan_node0)
            continue;
        for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
            totex_error err;
            totex_network *net = totex_network_parse(nets[ni], &err);
            totex_comb_cost cost;
            totex_comb_cost_default(&cost);
            cost.switching = TOTEX_SWITCH_WORMHOLE;
            cost.ports = TOTEX_COMB_ALL_PORT;
            totex_comb_schedule *full = NULL, *node0 = NULL;
            if (alg->build(net, &cost, &full, &err) != TOTEX_OK ||
                alg->plan_node0(net, &cost, &node0, &err) != TOTEX_OK) {
                fprintf(stderr, "FAIL %s on %s: %s\n", alg->name, nets[ni], err.msg);
                failures++;
                totex_comb_schedule_free(full);
                totex_network_free(net);
                continue;
            }
            const uint32_t n = totex_network_nodes(net);
            for (uint32_t me = 0; me < n; me++) {
                totex_prog_share tr, ex;
                totex_prog_share_init(&tr, n, me);
                totex_prog_share_init(&ex, n, me);
                int ok = totex_prog_share_from_node0(&tr, net, node0, &err) == TOTEX_OK &&
                         totex_prog_share_from_comb(&ex, full, &err) == TOTEX_OK && tr.steps == ex.steps &&
                         tr.nx == ex.nx && tr.nb == ex.nb;
                for (size_t xt = 0, xe = 0; ok && xt < tr.nx;) {
                    char *ct, *ce;
                    ok = tr.x[xt].step == ex.x[xe].step;
                    size_t nt = canon(&tr, xt, &ct), ne = canon(&ex, xe, &ce);
                    ok = ok && strcmp(ct, ce) == 0;
                    free(ct);
                    free(ce);
                    xt = nt;
                    xe = ne;
                }
                if (!ok) {
                    fprintf(stderr, "FAIL %s on %s rank %u: node 0's transfers translated (%zu transfers, %zu blocks) "
                                    "differ from the built schedule's share (%zu, %zu) %s\n",
                            alg->name, nets[ni], me, tr.nx, tr.nb, ex.nx, ex.nb, err.msg);
                    failures++;
                }
                (*compared)++;
                totex_prog_share_free(&tr);
                totex_prog_share_free(&ex);
            }
            totex_comb_schedule_free(full);
            totex_comb_schedule_free(node0);
            totex_network_free(net);
        }
    }
    return failures;
}

int main(void)
{
    static const char *nets[] = {"ring:5", "ring:6", "ring:8", "ring:4*ring:4", "ring:6*ring:3", "k2*k2*k2",
                                 "ring:3*k2*ring:4", "complete:4*ring:3", "ring:7*ring:5"};
    static const char *algs[] = {"octr", "greedy-sym", "sym2"};
    static const totex_ports ports[] = {TOTEX_PORTS_MULTI, TOTEX_PORTS_SINGLE, 2};
    int failures = 0, compared = 0, period2 = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        totex_error err;
        totex_network *net = totex_network_parse(nets[ni], &err);
        if (!net) {
            fprintf(stderr, "FAIL %s: %s\n", nets[ni], err.msg);
            return 1;
        }
        const uint32_t n = totex_network_nodes(net);
        for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++)
            for (size_t pi = 0; pi < sizeof ports / sizeof ports[0]; pi++) {
                const totex_algorithm *a = totex_algorithm_find(algs[ai], &err);
                if (!a || a->applies(net, ports[pi], &err) != TOTEX_OK)
                    continue;
                totex_task *t = NULL;
                totex_sym_schedule *s = NULL;
                if (a->plan_symmetric(net, ports[pi], &t, &s, &err) != TOTEX_OK) {
                    fprintf(stderr, "FAIL %s %s: %s\n", algs[ai], nets[ni], err.msg);
                    failures++;
                    continue;
                }
                period2 += totex_task_period_dim(t) != UINT32_MAX;
                for (uint32_t me = 0; me < n; me++) {
                    totex_prog_share tr, ex;
                    totex_prog_share_init(&tr, n, me);
                    totex_prog_share_init(&ex, n, me);
                    filt f = {&ex, 0};
                    err.msg[0] = '\0';
                    int ok = totex_prog_share_translate(&tr, t, s, &err) == TOTEX_OK &&
                             totex_sym_expand(t, s, (totex_sink){filt_step, &f}, &err) == TOTEX_OK;
                    ex.steps = f.step;
                    ok = ok && tr.nx == ex.nx && tr.nb == ex.nb && tr.steps == ex.steps;
                    for (size_t x = 0; ok && x < tr.nx; x++)
                        ok = tr.x[x].step == ex.x[x].step && tr.x[x].from == ex.x[x].from &&
                             tr.x[x].to == ex.x[x].to && tr.x[x].count == ex.x[x].count &&
                             tr.x[x].first == ex.x[x].first;
                    ok = ok && memcmp(tr.b, ex.b, tr.nb * sizeof *tr.b) == 0;
                    if (!ok) {
                        fprintf(stderr,
                                "FAIL %s %s ports %u rank %u: translated %zu transfers / %zu blocks, expanded %zu / "
                                "%zu (%s)\n",
                                algs[ai], nets[ni], ports[pi], me, tr.nx, tr.nb, ex.nx, ex.nb, err.msg);
                        failures++;
                    }
                    compared++;
                    totex_prog_share_free(&tr);
                    totex_prog_share_free(&ex);
                }
                totex_sym_free(s);
                totex_task_free(t);
            }
        totex_network_free(net);
    }
    int comb = 0;
    failures += check_node0(&comb);
    printf("test_translate: %d ranks compared (%d schedules of period 2), %d ranks of combining schedules from node "
           "0's transfers: %s\n",
           compared, period2, comb, failures || !compared || !period2 || !comb ? "FAILED" : "ok");
    return failures || !compared || !period2 || !comb ? 1 : 0;
}
