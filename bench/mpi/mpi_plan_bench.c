/*
 * Per-rank planning of totex_alltoall at scale, without MPI: one rank's
 * program made through the executor's own program layer (src/program/,
 * totex_prog_build(): this rank's share of the candidate's schedule, then the
 * compiler) for any rank id and any communicator size, in a forked child whose
 * peak memory is its own (the child resets its peak RSS, /proc/self/clear_refs,
 * and reports the growth of VmHWM). The buffers the first run allocates (arena
 * of relayed blocks, staging area) are allocated and touched as that run would.
 *
 * Candidates (64 KiB blocks): octr (multiport unit-step, the model's choice at
 * large blocks: node 0's moves translated, 001 Theorem 2), a3c and a2c (message
 * combining), and rank0 (rank 0's ranking of the candidates by closed forms).
 * Above TOTEX_PROG_SCALE_MAX ranks the bench also reports whether the choice
 * model offers each candidate there (choice.h). One line per network and
 * candidate:
 *   network= n= algorithm= plan_s= plan_mib= peak_mib= program_entries= program_mib= arena_blocks= stage_blocks= moves= plan_cpu_s=
 * and for octr the baseline of the same run: node0_s, the time of node 0's
 * symmetric schedule alone (what `totex plan` certifies and every rank starts
 * from), and plan_over_node0, the rank's planning over it.
 * plan_*: planning (share + compile) only (plan_cpu_s, node0_cpu_s: CPU seconds, the figure on a shared machine); peak_mib: with the first run's
 * buffers; moves: the node's moves (its status, the sum of distances from it:
 * what O(moves of one node) is measured against). Then per candidate the
 * exponents of plan time and program entries against n and against moves from
 * the first network of each dimension to the largest.
 *
 * Usage: mpi_plan_bench [--candidates LIST] [--arena-blocks N] [SPEC...]
 *   default networks: 2-D ring:8x8 .. ring:128x128, 3-D up to 32x32x16, 5-D
 *   4x4x4x4x4 .. 8x8x8x4x4, the Sequoia shape torus:8x6x8x8*k2 and the Fugaku
 *   shape torus:8x7x8*k2*ring:3*k2 (64 .. 16384 ranks);
 *   default candidates octr,a3c,a2c,rank0 (a2c only up to 1024 ranks: the choice
 *   model does not offer it above, so the bench does not plan it there).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "build.h"
#include "choice.h"
#include "program.h"
#include "totex/symmetric.h"
#include "totex/task.h"

#define SLOT 65536LL

static long long arena_blocks = -1; /* --arena-blocks N: the program layer's soft limit (build.h), -1 default */

typedef struct result {
    int ok;
    double seconds, cpu; /* planning: wall and CPU seconds */
    long plan_kib, peak_kib;
    double prog_bytes, arena_bytes, stage_bytes;
    size_t entries;
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

/* args = {SPEC, RANK, CANDIDATE} */
static void job(const char *const *args, void *out)
{
    result *r = out;
    memset(r, 0, sizeof *r);
    long before = reset_peak();
    double t0 = bench_now(), c0 = bench_cpu_now();
    totex_error err;
    err.msg[0] = '\0';
    totex_network *net = totex_network_parse(args[0], &err);
    if (!net)
        return;
    const uint32_t n = totex_network_nodes(net), rank = (uint32_t)atol(args[1]);
    const char *mode = args[2];
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)SLOT;
    totex_prog *p = NULL;
    totex_status ts = TOTEX_EINVAL;
    if (strcmp(mode, "octr-sym") == 0) { /* the baseline: node 0's symmetric schedule alone, as totex plan makes it */
        totex_task *t = NULL;
        totex_sym_schedule *s = NULL;
        const totex_algorithm *a = totex_algorithm_find("octr", &err);
        ts = a && a->plan_symmetric ? a->plan_symmetric(net, TOTEX_PORTS_MULTI, &t, &s, &err) : TOTEX_EINVAL;
        totex_sym_free(s);
        totex_task_free(t);
    } else if (strcmp(mode, "rank0") != 0) {
        int unit = !strcmp(mode, "octr");
        totex_prog_cand c = {unit, (int)registry_index(mode, unit), unit ? TOTEX_PORTS_MULTI : 0, 1, 0, 0, 0, 0, 0};
        totex_prog_opts o;
        totex_prog_opts_default(&o);
        o.arena_blocks = arena_blocks;
        ts = totex_prog_build(net, &cost, &c, n, rank, SLOT, &o, &p, &err);
    } else {
        totex_prog_linkcost lc = {cost.t_s, cost.t_c, cost.t_c, cost.t_c, cost.t_c, 0, 0, 0, 0, 0, 0, 0, 0};
        totex_prog_cand cands[8];
        char why[256];
        ts = totex_prog_rank_candidates(net, &cost, &lc, cands, 8, why, sizeof why) > 0 ? TOTEX_OK : TOTEX_EINVAL;
    }
    r->plan_kib = status_kib("VmHWM:") - before;
    r->seconds = bench_now() - t0; /* planning only: not the buffers' first touch */
    r->cpu = bench_cpu_now() - c0;
    if (p && ts == TOTEX_OK) { /* the first run's buffers, touched */
        p->arena = malloc(p->arena_bytes ? p->arena_bytes : 1);
        p->stage = malloc(p->stage_bytes ? p->stage_bytes : 1);
        if (p->arena && p->stage) {
            memset(p->arena, 1, p->arena_bytes);
            memset(p->stage, 1, p->stage_bytes);
        } else {
            ts = TOTEX_ENOMEM;
        }
    }
    r->peak_kib = status_kib("VmHWM:") - before;
    r->ok = ts == TOTEX_OK;
    if (p && r->ok) {
        r->prog_bytes = (double)totex_prog_bytes(p);
        r->arena_bytes = (double)p->arena_bytes;
        r->stage_bytes = (double)p->stage_bytes;
        r->entries = totex_prog_entries(p);
    }
    if (!r->ok)
        fprintf(stderr, "mpi_plan_bench: %s rank %s %s: %s\n", args[0], args[1], mode, err.msg);
    totex_prog_free(p);
    totex_network_free(net);
}

/* the node's moves: status of node 0 (sum of distances from it), by the product formula */
static double moves_of(const totex_network *net)
{
    return (double)totex_network_status(net, 0);
}

int main(int argc, char **argv)
{
    static const char *dflt[] = {"ring:8*ring:8",      "ring:32*ring:32",      "ring:64*ring:64",
                                 "ring:128*ring:128",  "ring:4*ring:4*ring:4", "ring:16*ring:16*ring:16",
                                 "ring:32*ring:32*ring:16", "torus:4x4x4x4x4", "torus:8x8x4x4x4",
                                 "torus:8x8x8x4x4",    "torus:8x6x8x8*k2",     "torus:8x7x8*k2*ring:3*k2"};
    const char *cands_dflt = "octr,a3c,a2c,rank0";
    const char *cands = cands_dflt;
    int first = 1;
    while (argc > first + 1 && argv[first][0] == '-') {
        if (strcmp(argv[first], "--candidates") == 0)
            cands = argv[first + 1];
        else if (strcmp(argv[first], "--arena-blocks") == 0) {
            char *end = NULL;
            arena_blocks = strtoll(argv[first + 1], &end, 10);
            if (!*argv[first + 1] || *end || arena_blocks < 0) {
                fprintf(stderr, "mpi_plan_bench: --arena-blocks '%s': give a whole number of blocks, 0 or more\n",
                        argv[first + 1]);
                return 2;
            }
        }
        else {
            fprintf(stderr, "mpi_plan_bench: unknown option %s (--candidates LIST, --arena-blocks N)\n", argv[first]);
            return 2;
        }
        first += 2;
    }
    const char *const *specs = argc > first ? (const char *const *)argv + first : dflt;
    const int ns = argc > first ? argc - first : (int)(sizeof dflt / sizeof dflt[0]);
    char list[256];
    snprintf(list, sizeof list, "%s", cands);
    const char *cand[8];
    int nc = 0;
    for (char *t = strtok(list, ","); t && nc < 8; t = strtok(NULL, ",")) {
        totex_error err;
        if (strcmp(t, "rank0") != 0 && strcmp(t, "octr") != 0 && !totex_comb_algorithm_find(t, &err)) {
            fprintf(stderr, "mpi_plan_bench: candidate '%s': give octr, rank0 or a combining algorithm (%s)\n", t,
                    err.msg);
            return 2;
        }
        cand[nc++] = t;
    }
    printf("# mpi_plan_bench: one rank's first call (planning, then the first run's buffers), 64 KiB blocks, "
           "forked child per line\n");
    /* per candidate: (n, moves, plan s, entries) of the smallest and largest network it planned */
    double lo[8][5] = {{0}}, hi[8][5] = {{0}};
    for (int i = 0; i < ns; i++) {
        totex_error err;
        totex_network *net = totex_network_parse(specs[i], &err);
        if (!net) {
            fprintf(stderr, "mpi_plan_bench: network '%s': %s\n", specs[i], err.msg);
            return 2;
        }
        const uint32_t n = totex_network_nodes(net);
        const double moves = moves_of(net);
        totex_network_free(net);
        char rk[16];
        snprintf(rk, sizeof rk, "%u", n / 2 + 1);
        for (int m = 0; m < nc; m++) {
            if (!strcmp(cand[m], "a2c") && n > TOTEX_PROG_SCALE_MAX) {
                printf("network=%s n=%u algorithm=%s not offered above %d ranks (its share is kept while the whole "
                       "schedule is built: O(n^2) per rank)\n",
                       specs[i], n, cand[m], TOTEX_PROG_SCALE_MAX);
                continue;
            }
            const char *args[] = {specs[i], strcmp(cand[m], "rank0") ? rk : "0", cand[m]};
            result r;
            if (!bench_forked(job, args, &r, sizeof r) || !r.ok) {
                printf("network=%s n=%u algorithm=%s does not apply\n", specs[i], n, cand[m]);
                continue;
            }
            /* octr's baseline in the same run: node 0's schedule alone (what every rank starts from) */
            result b = {0};
            const char *bargs[] = {specs[i], "0", "octr-sym"};
            if (!strcmp(cand[m], "octr") && (!bench_forked(job, bargs, &b, sizeof b) || !b.ok))
                b.seconds = -1;
            printf("network=%s n=%u algorithm=%s plan_s=%.4f plan_mib=%.1f peak_mib=%.1f program_entries=%zu "
                   "program_mib=%.1f arena_blocks=%.0f stage_blocks=%.0f moves=%.0f plan_cpu_s=%.4f",
                   specs[i], n, cand[m], r.seconds, r.plan_kib / 1024.0, r.peak_kib / 1024.0, r.entries,
                   r.prog_bytes / 1048576.0, r.arena_bytes / SLOT, r.stage_bytes / SLOT, moves, r.cpu);
            if (b.seconds > 0)
                printf(" node0_s=%.4f plan_over_node0=%.2f node0_cpu_s=%.4f", b.seconds, r.seconds / b.seconds, b.cpu);
            printf("\n");
            fflush(stdout);
            double row[5] = {n, moves, r.seconds, (double)r.entries, r.cpu};
            if (lo[m][0] == 0 || n < lo[m][0] || (n == lo[m][0] && r.seconds < lo[m][2]))
                memcpy(lo[m], row, sizeof row);
            if (n > hi[m][0] || (n == hi[m][0] && r.seconds > hi[m][2]))
                memcpy(hi[m], row, sizeof row);
        }
    }
    for (int m = 0; m < nc; m++)
        if (hi[m][0] > lo[m][0] && lo[m][2] > 0 && lo[m][3] > 0)
            printf("# %s from n=%.0f to n=%.0f: plan time ~ n^%.2f ~ moves^%.2f; program entries ~ n^%.2f ~ "
                   "moves^%.2f\n",
                   cand[m], lo[m][0], hi[m][0], log(hi[m][2] / lo[m][2]) / log(hi[m][0] / lo[m][0]),
                   log(hi[m][2] / lo[m][2]) / log(hi[m][1] / lo[m][1]),
                   log(hi[m][3] / lo[m][3]) / log(hi[m][0] / lo[m][0]),
                   log(hi[m][3] / lo[m][3]) / log(hi[m][1] / lo[m][1]));
    for (int m = 0; m < nc; m++)
        if (hi[m][0] > lo[m][0] && lo[m][4] > 0)
            printf("# %s from n=%.0f to n=%.0f: plan CPU time ~ n^%.2f ~ moves^%.2f\n", cand[m], lo[m][0], hi[m][0],
                   log(hi[m][4] / lo[m][4]) / log(hi[m][0] / lo[m][0]),
                   log(hi[m][4] / lo[m][4]) / log(hi[m][1] / lo[m][1]));
    return 0;
}
