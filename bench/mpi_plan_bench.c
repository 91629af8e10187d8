/*
 * Per-rank first-call cost of totex_alltoall's planning at scale (issue 11
 * item 3; DESIGN.md "Measuring at scale"), without MPI: one rank's program
 * is compiled through the executor's own code path (totex_mpi_plan_build():
 * this rank's share of the schedule, then compile.c), for any rank id and any
 * communicator size, in a forked child whose peak memory is its own.
 *
 * For a symmetric unit-step schedule (octr, 001 Theorem 2) the share is node
 * 0's moves translated to the rank (translate.c). Baseline, same child kind,
 * same run: the same algorithm with its symmetric form hidden, so that its
 * whole schedule (n * sigma hops) is expanded and streamed through the
 * filtering sink, as for an algorithm without one. Also timed: rank 0's
 * ranking of the candidates (totex_mpi_rank_candidates(), which builds and
 * simulates every combining algorithm once; the other ranks skip it).
 *
 * Usage: mpi_plan_bench [SPEC...]   (default ring:8*ring:8, ring:16*ring:16,
 *        ring:32*ring:32, ring:8*ring:8*ring:16; blocks of 64 KiB, 1 chunk)
 * Prints per network and rank: plan seconds, peak memory growth of the child
 * (KiB), the compiled program's bytes, and the ratios to the baseline; then
 * the growth of time and memory from the first network to each other one
 * against the growth of n (O(n) per rank: memory grows like n).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "internal.h"

typedef struct result {
    int ok;
    double seconds;
    long peak_kib;      /* growth of the child's peak RSS during the job */
    double prog_bytes;  /* the compiled program's own arrays */
    double arena_bytes; /* received blocks kept (allocated at the first run) */
    size_t nsend, nrecv;
} result;

static double prog_bytes(const totex_mpi_plan *p)
{
    size_t pieces = 0, deps = 0;
    for (size_t i = 0; i < p->nsend; i++) {
        pieces += p->sends[i].piece_count;
        deps += p->sends[i].dep_count;
    }
    return (double)(p->nrecv * sizeof *p->recvs + p->nsend * sizeof *p->sends + pieces * sizeof *p->pieces +
                    deps * sizeof *p->deps + p->n * sizeof *p->finals + (p->nrecv + p->nsend) * sizeof(MPI_Request));
}

/* args = {SPEC, RANK, MODE}: MODE "translate" (the executor's path), "full" (baseline), "rank" (rank 0's ranking) */
static void job(const char *const *args, void *out)
{
    result *r = out;
    memset(r, 0, sizeof *r);
    long before = bench_peak_kib();
    double t0 = bench_now();
    totex_error err;
    totex_network *net = totex_network_parse(args[0], &err);
    if (!net)
        return;
    const int n = (int)totex_network_nodes(net), rank = atoi(args[1]);
    const long long slot = 65536;
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)slot;
    const totex_algorithm *octr = totex_algorithm_find("octr", &err);
    size_t idx = 0;
    while (totex_algorithm_get(idx) != octr)
        idx++;
    totex_mpi_cand c = {1, (int)idx, TOTEX_PORTS_MULTI, 1, 0, 0, 0, 0};
    totex_mpi_plan *p = NULL;
    char why[600] = "";
    int rc = MPI_ERR_INTERN;
    if (strcmp(args[2], "translate") == 0) {
        rc = totex_mpi_plan_build(net, &cost, &c, n, rank, slot, &p, why, sizeof why);
    } else if (strcmp(args[2], "full") == 0) {
        totex_algorithm hidden = *octr;
        hidden.plan_symmetric = NULL;
        totex_mpi_local l;
        totex_mpi_local_init(&l, (uint32_t)n, (uint32_t)rank);
        p = calloc(1, sizeof *p);
        if (p && totex_mpi_local_from_unit(&l, &hidden, net, TOTEX_PORTS_MULTI, NULL, &err) == TOTEX_OK) {
            p->slot = slot;
            p->n = (uint32_t)n;
            p->me = (uint32_t)rank;
            p->algorithm = "octr";
            rc = totex_mpi_compile(p, &l, 1, 1, 0, why, sizeof why);
        }
        totex_mpi_local_free(&l);
    } else {
        totex_mpi_linkcost lc = {cost.t_s, cost.t_c, cost.t_c, cost.t_c, cost.t_c};
        totex_mpi_cand cands[8];
        rc = totex_mpi_rank_candidates(net, &cost, &lc, cands, 8, why, sizeof why) > 0 ? MPI_SUCCESS : MPI_ERR_ARG;
    }
    r->seconds = bench_now() - t0;
    r->peak_kib = bench_peak_kib() - before;
    r->ok = rc == MPI_SUCCESS;
    if (p && r->ok) {
        r->prog_bytes = prog_bytes(p);
        r->arena_bytes = (double)p->arena_bytes;
        r->nsend = p->nsend;
        r->nrecv = p->nrecv;
    }
    if (!r->ok)
        fprintf(stderr, "mpi_plan_bench: %s rank %s %s: %s %s\n", args[0], args[1], args[2], why, err.msg);
    totex_mpi_plan_free(p);
    totex_network_free(net);
}

int main(int argc, char **argv)
{
    static const char *dflt[] = {"ring:8*ring:8", "ring:16*ring:16", "ring:32*ring:32", "ring:8*ring:8*ring:16"};
    const char *const *specs = argc > 1 ? (const char *const *)argv + 1 : dflt;
    int ns = argc > 1 ? argc - 1 : 4;
    printf("mpi_plan_bench: one rank's first-call planning of octr (multiport), 64 KiB blocks, forked child per row\n");
    printf("%-24s %6s %5s %10s %10s %10s %10s %8s %10s %10s %10s %10s\n", "network", "n", "rank", "plan s", "peak KiB",
           "prog KiB", "arena MiB", "sends", "full s", "full KiB", "x time", "rank0 s");
    double t_first = 0, m_first = 0, p_first = 0;
    int n_first = 0;
    for (int i = 0; i < ns; i++) {
        totex_error err;
        totex_network *net = totex_network_parse(specs[i], &err);
        if (!net) {
            fprintf(stderr, "mpi_plan_bench: network '%s': %s\n", specs[i], err.msg);
            return 2;
        }
        int n = (int)totex_network_nodes(net);
        totex_network_free(net);
        char rk[16];
        snprintf(rk, sizeof rk, "%d", n / 2 + 1);
        const char *a_tr[] = {specs[i], rk, "translate"}, *a_full[] = {specs[i], rk, "full"},
                   *a_rank[] = {specs[i], "0", "rank"};
        result tr, full, rank0;
        if (!bench_forked(job, a_tr, &tr, sizeof tr) || !tr.ok || !bench_forked(job, a_full, &full, sizeof full) ||
            !full.ok) {
            fprintf(stderr, "mpi_plan_bench: %s failed\n", specs[i]);
            return 1;
        }
        if (!bench_forked(job, a_rank, &rank0, sizeof rank0) || !rank0.ok)
            rank0.seconds = -1;
        printf("%-24s %6d %5s %10.4f %10ld %10.1f %10.1f %8zu %10.4f %10ld %10.2f %10.3f\n", specs[i], n, rk,
               tr.seconds, tr.peak_kib, tr.prog_bytes / 1024, tr.arena_bytes / 1048576.0, tr.nsend, full.seconds,
               full.peak_kib, full.seconds / (tr.seconds > 0 ? tr.seconds : 1e-9), rank0.seconds);
        if (i == 0) {
            t_first = tr.seconds;
            m_first = tr.peak_kib > 0 ? (double)tr.peak_kib : 1;
            p_first = tr.prog_bytes;
            n_first = n;
        } else {
            printf("    growth from %s: n x%.1f, plan time x%.1f, peak memory x%.1f, program bytes x%.1f\n", specs[0],
                   (double)n / n_first, tr.seconds / (t_first > 0 ? t_first : 1e-9), (double)tr.peak_kib / m_first,
                   tr.prog_bytes / p_first);
        }
    }
    printf("plan s / peak KiB: the executor's path (node 0's moves translated to the rank); full: the same schedule\n"
           "expanded to every node and filtered (baseline, same run); x time = full / translate; rank0 s: rank 0's\n"
           "ranking of the candidates (every combining algorithm built and simulated once); arena: received blocks kept.\n");
    return 0;
}
