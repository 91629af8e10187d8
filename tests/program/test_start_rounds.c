/* Start rounds of staggered lanes (src/program/compile.c, stagger 2): on every
 * rank of several tori (octr and greedy-sym multiport, 2 and 3 chunks), the
 * kicks of each rank's program replayed in simulated time, every message one
 * latency (1) long, each rank starting at its own time (pseudo-random, up to
 * 10 latencies apart; a barrier's exits on SimGrid are several apart): a send
 * leaves when the sends before it in program order have left and the receives
 * it waits for have come, the k-th kick from a rank to another matching the
 * k-th kick receive the other posts from it. With as many rounds as the
 * network's diameter every rank makes its first data send at the same moment,
 * the latest start plus the diameter: what the rounds are for (lanes staggered
 * one latency apart stay so only when the ranks start together). The same
 * replay with one round fewer (rank 0 the last to start, the rest up to 10
 * latencies apart before it) must find two ranks starting apart (so the check
 * can fail). Also: D + c - 1 kicks to and from every link peer, and no data
 * send before the last round. Runs without MPI (no mpirun). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

#define FAIL(...) PROG_FAIL("FAIL " __VA_ARGS__)

/* the kicks' replay: every rank's first data send time into start[] (by rank); 0, or -1 when the
   kicks cannot all be matched (a bug) */
static int replay(totex_prog **p, uint32_t n, const double *t0, double *start)
{
    /* sent[r][k]: time of rank r's k-th kick send (program order), -1 when not yet made */
    size_t *pos = calloc(n, sizeof *pos);
    double *last = malloc(n * sizeof *last), **recv_at = calloc(n, sizeof *recv_at);
    int rc = 0;
    for (uint32_t r = 0; r < n; r++) {
        last[r] = t0[r];
        start[r] = -1;
        recv_at[r] = malloc((p[r]->nrecv ? p[r]->nrecv : 1) * sizeof(double));
        for (size_t i = 0; i < p[r]->nrecv; i++)
            recv_at[r][i] = -1;
    }
    /* sweep: advance every rank's sends in program order while their kick dependencies are known */
    for (int progress = 1; progress;) {
        progress = 0;
        for (uint32_t r = 0; r < n; r++) {
            while (pos[r] < p[r]->nsend && start[r] < 0) {
                const totex_prog_send *sd = &p[r]->sends[pos[r]];
                double at = last[r];
                int known = 1;
                for (size_t d = 0; d < sd->dep_count && known; d++) {
                    const size_t q = p[r]->deps[sd->dep_first + d];
                    if (!p[r]->recvs[q].kick)
                        continue; /* (data: the first data sends wait for kicks only) */
                    if (recv_at[r][q] < 0)
                        known = 0;
                    else if (recv_at[r][q] > at)
                        at = recv_at[r][q];
                }
                if (!known)
                    break;
                last[r] = at;
                if (!sd->kick) {
                    start[r] = at;
                    break;
                }
                /* the k-th kick from r to peer: to the peer's k-th kick receive from r */
                const uint32_t to = (uint32_t)sd->peer;
                size_t k = 0;
                for (size_t i = 0; i < pos[r]; i++)
                    k += p[r]->sends[i].kick && p[r]->sends[i].peer == sd->peer;
                size_t seen = 0, match = SIZE_MAX;
                for (size_t i = 0; i < p[to]->nrecv && match == SIZE_MAX; i++)
                    if (p[to]->recvs[i].kick && p[to]->recvs[i].peer == (int)r && seen++ == k)
                        match = i;
                if (match == SIZE_MAX) {
                    rc = -1;
                    break;
                }
                recv_at[to][match] = (at > t0[to] ? at : t0[to]) + 1; /* matched once both have started */
                pos[r]++;
                progress = 1;
            }
        }
    }
    for (uint32_t r = 0; r < n; r++) {
        if (start[r] < 0)
            rc = -1;
        free(recv_at[r]);
    }
    free(recv_at);
    free(pos);
    free(last);
    return rc;
}

static void check(const char *spec, const char *alg, int c)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const totex_algorithm *a = totex_algorithm_find(alg, &err);
    if (!net || !a || a->applies(net, TOTEX_PORTS_MULTI, &err) != TOTEX_OK) {
        FAIL("%s on %s: does not apply: %s\n", alg, spec, err.msg);
        totex_network_free(net);
        return;
    }
    const uint32_t n = totex_network_nodes(net), diam = (uint32_t)totex_network_diameter(net);
    totex_prog **p = calloc(n, sizeof *p);
    double *t0 = malloc(n * sizeof *t0), *start = malloc(n * sizeof *start);
    unsigned seed = 12345u + n * 7u + (unsigned)c;
    for (uint32_t r = 0; r < n; r++) {
        seed = seed * 1103515245u + 12345u;
        t0[r] = (double)((seed >> 16) % 1000) / 100; /* 0 .. 10 latencies */
    }
    t0[0] = 20; /* the latest, by more than the diameter: with a round fewer its antipodes start before it */
    for (int fewer = 0; fewer <= 1; fewer++) {
        int built = 1;
        for (uint32_t r = 0; r < n && built; r++) {
            char why[400];
            p[r] = prog_test_compile_unit(net, a, TOTEX_PORTS_MULTI, r, 4096, c, 2, 0, 0, why, sizeof why);
            if (!p[r]) {
                FAIL("%s on %s rank %u: %s\n", alg, spec, r, why);
                built = 0;
                break;
            }
            if (p[r]->sync_rounds != diam || !p[r]->stagger)
                FAIL("%s on %s rank %u: %u start rounds, staggered %d (want %u, 1)\n", alg, spec, r,
                     p[r]->sync_rounds, p[r]->stagger, diam);
            if (fewer) { /* recompiled with one round fewer */
                totex_prog_free(p[r]);
                totex_prog_share l;
                totex_prog_share_init(&l, n, r);
                uint32_t pred = 0, succ = 0;
                totex_prog_check_ring(net, r, &pred, &succ);
                l.pred = pred;
                p[r] = calloc(1, sizeof *p[r]);
                if (totex_prog_share_from_unit(&l, a, net, TOTEX_PORTS_MULTI, NULL, &err) != TOTEX_OK) {
                    FAIL("share: %s\n", err.msg);
                    built = 0;
                } else {
                    *p[r] = (totex_prog){.slot = 4096, .n = n, .me = r, .algorithm = a->name,
                                         .arena_cap = (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_RANK * n * 4096,
                                         .ring_pred = pred, .ring_succ = succ, .ring_set = 1,
                                         .sync_rounds = diam - 1};
                    if (prog_test_compile(p[r], &l, c, 1, 1, why, sizeof why) != 0) {
                        FAIL("%s on %s rank %u, one round fewer: %s\n", alg, spec, r, why);
                        built = 0;
                    }
                }
                totex_prog_share_free(&l);
            } else { /* D + c - 1 kicks to and from every peer */
                for (uint32_t q = 0; q < n; q++) {
                    size_t to = 0, from = 0;
                    for (size_t i = 0; i < p[r]->nsend; i++)
                        to += p[r]->sends[i].kick && p[r]->sends[i].peer == (int)q;
                    for (size_t i = 0; i < p[r]->nrecv; i++)
                        from += p[r]->recvs[i].kick && p[r]->recvs[i].peer == (int)q;
                    const size_t want = totex_network_adjacent(net, r, q) ? diam + (size_t)c - 1 : 0;
                    if ((to && to != want) || (from && from != want) || (!to && want) || (!from && want))
                        FAIL("%s on %s rank %u: %zu kicks to and %zu from %u (want %zu)\n", alg, spec, r, to, from,
                             q, want);
                }
            }
        }
        if (built) {
            if (replay(p, n, t0, start) != 0) {
                FAIL("%s on %s, %d chunks%s: the kicks do not all match (a bug)\n", alg, spec, c,
                     fewer ? ", one round fewer" : "");
            } else {
                double lo = start[0], hi = start[0], latest = 0;
                for (uint32_t r = 0; r < n; r++) {
                    lo = start[r] < lo ? start[r] : lo;
                    hi = start[r] > hi ? start[r] : hi;
                    latest = t0[r] > latest ? t0[r] : latest;
                }
                if (!fewer && (hi - lo > 1e-9 || fabs(lo - (latest + diam)) > 1e-9))
                    FAIL("%s on %s, %d chunks: data starts %.2f .. %.2f (want all at %.2f)\n", alg, spec, c, lo, hi,
                         latest + diam);
                if (fewer && hi - lo < 1e-9)
                    FAIL("%s on %s, %d chunks: one round fewer, every rank still starts at %.2f (the check "
                         "cannot fail)\n", alg, spec, c, lo);
                printf("%s on %s, %d chunks, %u rounds%s: data starts %.2f .. %.2f\n", alg, spec, c, diam - fewer,
                       fewer ? " (one fewer)" : "", lo, hi);
            }
        }
        for (uint32_t r = 0; r < n; r++) {
            totex_prog_free(p[r]);
            p[r] = NULL;
        }
    }
    free(p);
    free(t0);
    free(start);
    totex_network_free(net);
}

int main(void)
{
    static const char *tori[] = {"ring:4*ring:4", "ring:8*ring:8", "ring:4*ring:4*ring:4", "ring:3*ring:5",
                                 "ring:6*ring:4"};
    for (size_t t = 0; t < sizeof tori / sizeof tori[0]; t++)
        for (int c = 2; c <= 3; c++) {
            check(tori[t], "octr", c);
            check(tori[t], "greedy-sym", c);
        }
    if (failures)
        fprintf(stderr, "test_program_start_rounds: %d failures\n", failures);
    return failures ? 1 : 0;
}
