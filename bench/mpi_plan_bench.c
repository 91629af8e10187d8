/*
 * Per-rank first-call cost of totex_alltoall's planning at scale (issue 11
 * item 3; DESIGN.md "Measuring at scale"), without MPI: one rank's program
 * is made through the executor's own code path (totex_mpi_plan_build():
 * this rank's share of the schedule, then compile.c) for any rank id and any
 * communicator size, in a forked child whose peak memory is its own (the
 * child resets its peak RSS, /proc/self/clear_refs, and reports the growth of
 * VmHWM), and the buffers the first run allocates (arena of relayed blocks,
 * staging area) are allocated and touched as that run would.
 *
 * Candidates, with 64 KiB blocks:
 *  - octr (multiport unit-step, what the model picks at large blocks): node
 *    0's moves translated to the rank (001 Theorem 2, translate.c);
 *    baseline (same child kind, same run): its whole schedule expanded and
 *    streamed through the rank's filter, as for a schedule without a
 *    symmetric form;
 *  - a3c and a2c (message combining: the model's choice at small blocks on
 *    these tori, a3c where it applies): a3c's share translated from node 0's
 *    transfers (its plan_node0), a2c's share kept while building
 *    (totex_comb_build_share()); baseline: the whole schedule built, as every
 *    rank did before.
 *  - rank 0's ranking of the candidates (totex_mpi_rank_candidates(): closed
 *    forms where the algorithms have them); baseline: every combining
 *    algorithm built and simulated (totex_comb_rank()).
 * Columns: plan seconds, peak memory growth (KiB), the program's own arrays
 * (schedule state, KiB), the arena and staging area in blocks, and the
 * blocks the rank receives that are not final in place (what the arena held
 * before it reused its bytes). Then, per candidate, the growth of each from
 * the first network to the others against the growth of n.
 *
 * Usage: mpi_plan_bench [SPEC...]   (default ring:8*ring:8, ring:16*ring:16,
 *        ring:32*ring:32, ring:8*ring:8*ring:16)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "internal.h"

#define SLOT 65536LL

typedef struct result {
    int ok;
    double seconds;
    long plan_kib;      /* growth of the child's peak RSS while planning (schedule share, program) */
    long peak_kib;      /* the same, the first run's buffers included */
    double prog_bytes;  /* the compiled program's own arrays */
    double arena_bytes, stage_bytes;
    double relayed_bytes; /* received bytes not landing in place: the arena before reuse */
    size_t nsend, nrecv;
} result;

/* reset the peak RSS to the current RSS (Linux >= 4.0); its value */
static long reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    return status_kib("VmRSS:");
}

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

static size_t registry_index(const char *name, int unit)
{
    totex_error err;
    size_t i = 0;
    if (unit) {
        const totex_algorithm *a = totex_algorithm_find(name, &err);
        while (totex_algorithm_get(i) != a)
            i++;
    } else {
        const totex_comb_algorithm *a = totex_comb_algorithm_find(name, &err);
        while (totex_comb_algorithm_get(i) != a)
            i++;
    }
    return i;
}

static void compile_share(totex_mpi_plan **pp, totex_mpi_local *l, int n, int rank, const char *name, char *why,
                          size_t cap, int *rc)
{
    totex_mpi_plan *p = *pp = calloc(1, sizeof *p);
    if (!p)
        return;
    p->slot = SLOT;
    p->n = (uint32_t)n;
    p->me = (uint32_t)rank;
    p->algorithm = name;
    p->arena_cap = (size_t)TOTEX_MPI_ARENA_BLOCKS_PER_RANK * (size_t)n * (size_t)SLOT;
    *rc = totex_mpi_compile(p, l, 1, strcmp(name, "octr") == 0, 0, why, cap);
}

/* args = {SPEC, RANK, MODE}: MODE octr, octr-full, a2c, a2c-whole, rank0, rank0-built */
static void job(const char *const *args, void *out)
{
    result *r = out;
    memset(r, 0, sizeof *r);
    long before = reset_peak();
    double t0 = bench_now();
    totex_error err;
    err.msg[0] = '\0';
    totex_network *net = totex_network_parse(args[0], &err);
    if (!net)
        return;
    const int n = (int)totex_network_nodes(net), rank = atoi(args[1]);
    const char *mode = args[2];
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)SLOT;
    totex_mpi_plan *p = NULL;
    char why[600] = "";
    int rc = MPI_ERR_INTERN;
    if (!strcmp(mode, "octr") || !strcmp(mode, "a2c") || !strcmp(mode, "a3c")) {
        int unit = !strcmp(mode, "octr");
        totex_mpi_cand c = {unit, (int)registry_index(mode, unit), unit ? TOTEX_PORTS_MULTI : 0, 1, 0, 0, 0, 0, 0};
        rc = totex_mpi_plan_build(net, &cost, &c, n, rank, SLOT, &p, why, sizeof why);
    } else if (!strcmp(mode, "octr-full") || !strcmp(mode, "a2c-whole") || !strcmp(mode, "a3c-whole")) {
        totex_mpi_local l;
        totex_mpi_local_init(&l, (uint32_t)n, (uint32_t)rank);
        totex_status ts;
        if (!strcmp(mode, "octr-full")) {
            totex_algorithm hidden = *totex_algorithm_find("octr", &err);
            hidden.plan_symmetric = NULL;
            ts = totex_mpi_local_from_unit(&l, &hidden, net, TOTEX_PORTS_MULTI, NULL, &err);
        } else {
            totex_comb_schedule *s = NULL;
            ts = totex_comb_algorithm_find(mode[1] == '2' ? "a2c" : "a3c", &err)->build(net, &cost, &s, &err);
            if (ts == TOTEX_OK)
                ts = totex_mpi_local_from_comb(&l, s, &err);
            totex_comb_schedule_free(s);
        }
        if (ts == TOTEX_OK)
            compile_share(&p, &l, n, rank, mode[0] == 'o' ? "octr" : mode[1] == '2' ? "a2c" : "a3c", why, sizeof why,
                          &rc);
        totex_mpi_local_free(&l);
    } else if (!strcmp(mode, "rank0")) {
        totex_mpi_linkcost lc = {cost.t_s, cost.t_c, cost.t_c, cost.t_c, cost.t_c, 0, 0, 0, 0, 0, 0, 0, 0};
        totex_mpi_cand cands[8];
        rc = totex_mpi_rank_candidates(net, &cost, &lc, cands, 8, why, sizeof why) > 0 ? MPI_SUCCESS : MPI_ERR_ARG;
    } else {
        totex_comb_choice rows[32];
        rc = totex_comb_rank(net, &cost, rows, 32) > 0 ? MPI_SUCCESS : MPI_ERR_ARG;
    }
    r->plan_kib = status_kib("VmHWM:") - before;
    r->seconds = bench_now() - t0; /* planning only: not the buffers' first touch */
    if (p && rc == MPI_SUCCESS) { /* the first run's buffers, touched */
        p->arena = malloc(p->arena_bytes ? p->arena_bytes : 1);
        p->stage = malloc(p->stage_bytes ? p->stage_bytes : 1);
        if (p->arena && p->stage) {
            memset(p->arena, 1, p->arena_bytes);
            memset(p->stage, 1, p->stage_bytes);
        } else {
            rc = MPI_ERR_NO_MEM;
        }
    }
    r->peak_kib = status_kib("VmHWM:") - before;
    r->ok = rc == MPI_SUCCESS;
    if (p && r->ok) {
        r->prog_bytes = prog_bytes(p);
        r->arena_bytes = (double)p->arena_bytes;
        r->stage_bytes = (double)p->stage_bytes;
        for (size_t i = 0; i < p->nrecv; i++)
            r->relayed_bytes += p->recvs[i].in_place_ok ? 0 : p->recvs[i].bytes;
        r->nsend = p->nsend;
        r->nrecv = p->nrecv;
    }
    if (!r->ok)
        fprintf(stderr, "mpi_plan_bench: %s rank %s %s: %s %s\n", args[0], args[1], mode, why, err.msg);
    totex_mpi_plan_free(p);
    totex_network_free(net);
}

int main(int argc, char **argv)
{
    static const char *dflt[] = {"ring:8*ring:8", "ring:16*ring:16", "ring:32*ring:32", "ring:8*ring:8*ring:16"};
    static const char *modes[][2] = {
        {"octr", "octr-full"}, {"a2c", "a2c-whole"}, {"a3c", "a3c-whole"}, {"rank0", "rank0-built"}};
    enum { NM = 4 };
    const char *const *specs = argc > 1 ? (const char *const *)argv + 1 : dflt;
    int ns = argc > 1 ? argc - 1 : 4;
    printf("mpi_plan_bench: one rank's first call (planning and buffers), 64 KiB blocks, forked child per row\n");
    printf("%-22s %5s %-6s %8s %9s %9s %8s %8s %8s %8s | %-11s %8s %9s %7s %7s\n", "network", "n", "what", "plan s",
           "plan KiB", "peak KiB", "prog KiB", "arena bl", "stage bl", "relayed", "baseline", "base s", "plan KiB",
           "x time", "x mem");
    result first[NM];
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
        result now[NM];
        for (int m = 0; m < NM; m++) {
            const char *a_new[] = {specs[i], m == NM - 1 ? "0" : rk, modes[m][0]},
                       *a_old[] = {specs[i], m == NM - 1 ? "0" : rk, modes[m][1]};
            result nw, old;
            if (!bench_forked(job, a_new, &nw, sizeof nw) || !nw.ok) {
                printf("%-22s %5d %-6s does not apply\n", specs[i], n, modes[m][0]);
                now[m] = (result){0};
                continue;
            }
            if (!bench_forked(job, a_old, &old, sizeof old) || !old.ok)
                old.seconds = old.peak_kib = -1;
            now[m] = nw;
            printf("%-22s %5d %-6s %8.4f %9ld %9ld %8.1f %8.0f %8.0f %8.0f | %-11s %8.4f %9ld %7.1f %7.1f\n", specs[i],
                   n, modes[m][0], nw.seconds, nw.plan_kib, nw.peak_kib, nw.prog_bytes / 1024, nw.arena_bytes / SLOT,
                   nw.stage_bytes / SLOT, nw.relayed_bytes / SLOT, modes[m][1], old.seconds, old.plan_kib,
                   old.seconds / (nw.seconds > 0 ? nw.seconds : 1e-9),
                   (double)old.plan_kib / (nw.plan_kib > 0 ? (double)nw.plan_kib : 1));
        }
        if (i == 0) {
            memcpy(first, now, sizeof first);
            n_first = n;
            continue;
        }
        for (int m = 0; m < NM; m++)
            if (now[m].ok && first[m].ok)
                printf("    growth from %s, %s: n x%.0f, plan time x%.1f, plan memory x%.1f, peak memory x%.1f, program "
                   "x%.1f, arena x%.1f\n",
                   specs[0], modes[m][0], (double)n / n_first,
                   now[m].seconds / (first[m].seconds > 0 ? first[m].seconds : 1e-9),
                   (double)now[m].plan_kib / (first[m].plan_kib > 0 ? (double)first[m].plan_kib : 1),
                   (double)now[m].peak_kib / (first[m].peak_kib > 0 ? (double)first[m].peak_kib : 1),
                   m < NM - 1 ? now[m].prog_bytes / first[m].prog_bytes : 0,
                   m < NM - 1 && first[m].arena_bytes > 0 ? now[m].arena_bytes / first[m].arena_bytes : 0);
    }
    printf("octr: node 0's moves translated to the rank (baseline octr-full: the whole schedule streamed through\n"
           "the rank's filter); a2c: the rank's share kept while building; a3c: node 0's transfers translated to\n"
           "the rank (baselines *-whole: the whole schedule built); rank0: rank 0 ranks the candidates by closed forms (baseline: every combining schedule\n"
           "built and simulated). plan KiB: growth of the child's peak RSS while planning; peak: the same with the\n"
           "first run's buffers (arena, staging) allocated and touched; x mem: baseline plan KiB / plan KiB;\n"
           "prog: the compiled program's arrays; arena / stage: blocks of relayed / gathered data kept (bytes\n"
           "reused once free); relayed: received blocks not landing in place (the arena before reuse).\n");
    return 0;
}
