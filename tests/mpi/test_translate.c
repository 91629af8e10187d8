/* Per-rank translation of symmetric schedules (src/mpi/translate.c, 001
 * Theorem 2) against the full expansion of the same schedule to every node
 * (totex_sym_expand(), src/schedule/sym_expand.c), filtered to the rank's
 * share: for every rank of every network below and every algorithm with a
 * symmetric form (octr, greedy-sym, sym2; multiport, single-port, 2-port),
 * the transfers (step, from, to) and their blocks (src, dst), in order, must
 * be the same. Runs without MPI (no mpirun). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local.h"

typedef struct filt {
    totex_mpi_local *l;
    uint64_t step;
} filt;

static totex_status filt_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    filt *f = ctx;
    (void)err;
    return totex_mpi_local_hops(f->l, f->step++, hops, count) ? TOTEX_ENOMEM : TOTEX_OK;
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
                    totex_mpi_local tr, ex;
                    totex_mpi_local_init(&tr, n, me);
                    totex_mpi_local_init(&ex, n, me);
                    filt f = {&ex, 0};
                    err.msg[0] = '\0';
                    int ok = totex_mpi_local_translate(&tr, t, s, &err) == TOTEX_OK &&
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
                    totex_mpi_local_free(&tr);
                    totex_mpi_local_free(&ex);
                }
                totex_sym_free(s);
                totex_task_free(t);
            }
        totex_network_free(net);
    }
    printf("test_translate: %d ranks compared (%d schedules of period 2): %s\n", compared, period2,
           failures || !compared || !period2 ? "FAILED" : "ok");
    return failures || !compared || !period2 ? 1 : 0;
}
