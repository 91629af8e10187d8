/* The nonblocking choice's parts (src/program: totex_prog_dependent_steps, totex_prog_nonblocking_time,
 * totex_prog_nonblocking_pick), without MPI:
 * - every rank's program's dependent steps, the largest over ranks as the runtime takes it, equal the
 *   longest chain of transfers of the whole combining schedule, computed here from the schedule's steps
 *   (a transfer goes once every block it carries has come: 1 + the latest level among the transfers that
 *   brought its blocks to its sender, 0 for the sender's own), for direct, pairwise, direct-relay and
 *   dimwise on ring:4*ring:4 and ring:4*ring:4*ring:4 (direct and pairwise: 1; direct-relay: 2);
 * - a unit-step schedule's (octr, multiport, one chunk, window 1): its steps on both tori (each step's
 *   sends wait for the step before's receives);
 * - the prediction against the formula written out, and the pick: SimGrid's 4x4 figures (octr 70.9 us,
 *   8 dependent steps; direct-relay 88.1 us, 2; direct 106 us, 1) give direct-relay with a test every
 *   10 us, octr with one every 1 us or none, direct with one every 100 us; a candidate not timed or of
 *   unknown steps is left out; ties keep the blocking choice; an unknown blocking choice gives -1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

#define FAIL(...) PROG_FAIL("FAIL " __VA_ARGS__)

/* the longest chain of transfers of @p alg's whole schedule on @p net (see the header); 0 when it is not built */
static uint64_t schedule_chain(const totex_network *net, const totex_comb_algorithm *a, const totex_comb_cost *cost)
{
    totex_error err;
    totex_comb_schedule *s = NULL;
    if (a->build(net, cost, &s, &err) != TOTEX_OK) {
        FAIL("%s on %s: %s\n", a->name, totex_network_spec(net), err.msg);
        return 0;
    }
    const uint32_t n = totex_network_nodes(net);
    uint64_t *level = calloc((size_t)n * n, sizeof *level), *next = calloc((size_t)n * n, sizeof *next), best = 0;
    for (uint64_t st = 0; level && next && st < totex_comb_steps(s); st++) {
        memcpy(next, level, (size_t)n * n * sizeof *next);
        for (size_t t = 0; t < totex_comb_step_transfers(s, st); t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, st, t, &tr);
            if (!tr.count)
                continue;
            uint64_t l = 1;
            for (size_t k = 0; k < tr.count; k++) {
                const size_t b = (size_t)tr.blocks[k].src * n + tr.blocks[k].dst;
                if (tr.blocks[k].src != tr.from && level[b] + 1 > l)
                    l = level[b] + 1;
            }
            for (size_t k = 0; k < tr.count; k++)
                next[(size_t)tr.blocks[k].src * n + tr.blocks[k].dst] = l;
            if (l > best)
                best = l;
        }
        memcpy(level, next, (size_t)n * n * sizeof *level);
    }
    free(level);
    free(next);
    totex_comb_schedule_free(s);
    return best;
}

/* the largest over ranks of the programs' dependent steps of candidate @p c (0 when a program is not built) */
static uint64_t programs_chain(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c,
                               long long slot, const char *what)
{
    const uint32_t n = totex_network_nodes(net);
    uint64_t best = 0;
    for (uint32_t r = 0; r < n; r++) {
        char why[300] = "";
        totex_prog *p = NULL;
        if (prog_test_build(net, cost, c, n, r, slot, &p, why, sizeof why)) {
            FAIL("%s on %s rank %u: %s\n", what, totex_network_spec(net), r, why);
            totex_prog_free(p);
            return 0;
        }
        const uint64_t d = totex_prog_dependent_steps(p);
        if (d == 0)
            FAIL("%s on %s rank %u: no dependent steps counted\n", what, totex_network_spec(net), r);
        if (d > best)
            best = d;
        totex_prog_free(p);
    }
    return best;
}

static void combining(const char *spec)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        FAIL("%s: %s\n", spec, err.msg);
        return;
    }
    static const struct {
        const char *name;
        uint64_t want; /* 0: whatever the schedule's chain is */
    } algs[] = {{"direct", 1}, {"pairwise", 1}, {"direct-relay", 2}, {"dimwise", 0}};
    const long long slot = 4096;
    const totex_comb_cost cost = prog_test_plan_cost(slot);
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        const totex_comb_algorithm *a = totex_comb_algorithm_find(algs[i].name, &err);
        size_t idx = 0;
        while (a && totex_comb_algorithm_get(idx) != a)
            idx++;
        if (!a) {
            FAIL("%s: not in the registry\n", algs[i].name);
            continue;
        }
        const totex_prog_cand c = {0, (int)idx, 0, 1, 0, 0, 0, 0, 0};
        const uint64_t want = schedule_chain(net, a, &cost), got = programs_chain(net, &cost, &c, slot, a->name);
        if (!want)
            continue;
        if (algs[i].want && want != algs[i].want)
            FAIL("%s on %s: the schedule's chain is %llu transfers, not %llu (this test's reference)\n", a->name, spec,
                 (unsigned long long)want, (unsigned long long)algs[i].want);
        if (got != want)
            FAIL("%s on %s: the programs count %llu dependent steps, the schedule's longest chain is %llu\n", a->name,
                 spec, (unsigned long long)got, (unsigned long long)want);
    }
    totex_network_free(net);
}

static void unit(const char *spec)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const totex_algorithm *a = totex_algorithm_find("octr", &err);
    if (!net || !a) {
        FAIL("%s, octr: %s\n", spec, err.msg);
        totex_network_free(net);
        return;
    }
    const uint32_t n = totex_network_nodes(net);
    uint64_t best = 0, steps = 0;
    for (uint32_t r = 0; r < n; r++) {
        char why[300] = "";
        totex_prog *p = prog_test_compile_unit(net, a, TOTEX_PORTS_MULTI, r, 4096, 1, 0, 0, 0, why, sizeof why);
        if (!p) {
            FAIL("octr on %s rank %u: %s\n", spec, r, why);
            break;
        }
        const uint64_t d = totex_prog_dependent_steps(p);
        if (d > best)
            best = d;
        steps = p->steps;
        totex_prog_free(p);
    }
    if (best != steps || steps < 2)
        FAIL("octr on %s: %llu dependent steps counted, %llu steps\n", spec, (unsigned long long)best,
             (unsigned long long)steps);
    totex_network_free(net);
}

static void near(double got, double want, const char *what)
{
    if (fabs(got - want) > 1e-12 * (fabs(want) + 1e-9))
        FAIL("%s: %.9g, want %.9g\n", what, got, want);
}

static void model(void)
{
    near(totex_prog_nonblocking_time(70.9e-6, 8, 10e-6), 70.9e-6 + 7 * 5e-6, "octr, D 8, 10 us");
    near(totex_prog_nonblocking_time(88.1e-6, 2, 10e-6), 88.1e-6 + 5e-6, "direct-relay, D 2, 10 us");
    near(totex_prog_nonblocking_time(106e-6, 1, 10e-6), 106e-6, "direct, D 1");
    near(totex_prog_nonblocking_time(50e-6, 8, 0), 50e-6, "no test interval");
    near(totex_prog_nonblocking_time(50e-6, 0, 1e-6), 50e-6, "D 0");
    /* octr, direct-relay, direct, a candidate not timed, one of unknown steps */
    const double t[5] = {70.9e-6, 88.1e-6, 106e-6, -1, 1e-6};
    const uint64_t d[5] = {8, 2, 1, 1, 0};
    double nbt[5];
    struct {
        double interval;
        int pick, want;
    } cases[] = {{10e-6, 0, 1}, {1e-6, 0, 0}, {0, 0, 0}, {100e-6, 0, 2}, {10e-6, 4, -1}, {10e-6, 7, -1}, {-1, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int got = totex_prog_nonblocking_pick(5, t, d, cases[i].pick, cases[i].interval, nbt);
        if (got != cases[i].want)
            FAIL("pick with a test every %g s from %d: %d, want %d\n", cases[i].interval, cases[i].pick, got,
                 cases[i].want);
        if (cases[i].pick >= 0 && cases[i].pick < 5 && (nbt[3] != -1 || nbt[4] != -1))
            FAIL("pick: a candidate not timed or of unknown steps predicted (%g, %g)\n", nbt[3], nbt[4]);
    }
    /* ties keep the blocking choice: two candidates predicted alike (whole numbers: exact sums) */
    const double tt[2] = {20, 15};
    const uint64_t dd[2] = {2, 3};
    if (totex_prog_nonblocking_pick(2, tt, dd, 0, 10, nbt) != 0)
        FAIL("a tie (25 both) did not keep the blocking choice\n");
    if (totex_prog_nonblocking_pick(2, tt, dd, 0, 12, nbt) != 0 || totex_prog_nonblocking_pick(2, tt, dd, 0, 8, nbt) != 1)
        FAIL("the pick does not follow the interval (12: 26 against 27; 8: 24 against 23)\n");
}

int main(void)
{
    combining("ring:4*ring:4");
    combining("ring:4*ring:4*ring:4");
    unit("ring:4*ring:4");
    unit("ring:4*ring:4*ring:4");
    model();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("nonblocking choice: dependent steps and picks as computed here\n");
    return failures ? 1 : 0;
}
