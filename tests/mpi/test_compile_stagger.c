/* The program compile.c makes of a unit-step schedule with staggered lanes
 * (issue 11 item 2), checked on its structure for every rank of several
 * tori (octr and greedy-sym, multiport, 3 chunks): one zero-byte kick to
 * every peer this rank sends to, ahead of every other message to that peer
 * in its send queue; one zero-byte kick receive from every peer that sends
 * to this rank, posted before any other receive from it; the first message
 * of lanes 1 and 2 to a peer waits for the kick from that peer (when it sends
 * one) and lane 0's does not; every send sits in exactly one queue, and a
 * queue holds the sends to one peer in the order they were compiled (the
 * order the peer posts its receives). Unstaggered, the same program has no
 * kick and the same data messages. The peers are taken from the network's
 * own neighbour lists, not from the program. Runs without MPI (no mpirun). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int failures;

#define FAIL(...)                                                                                                     \
    do {                                                                                                              \
        fprintf(stderr, "FAIL " __VA_ARGS__);                                                                         \
        failures++;                                                                                                   \
    } while (0)

static void check_rank(const char *spec, const totex_network *net, const totex_algorithm *a, uint32_t me)
{
    const uint32_t n = totex_network_nodes(net);
    const int c = 3;
    totex_mpi_plan p[2];
    int ok[2] = {0, 0};
    for (int sg = 0; sg < 2; sg++) {
        memset(&p[sg], 0, sizeof p[sg]);
        p[sg].slot = 3000;
        p[sg].n = n;
        p[sg].me = me;
        p[sg].algorithm = a->name;
        totex_mpi_local l;
        totex_error err;
        totex_mpi_local_init(&l, n, me);
        char why[300] = "";
        if (totex_mpi_local_from_unit(&l, a, net, TOTEX_PORTS_MULTI, NULL, &err) != TOTEX_OK)
            FAIL("%s %s rank %u: share: %s\n", a->name, spec, me, err.msg);
        else if (totex_mpi_compile(&p[sg], &l, c, 1, sg, why, sizeof why) != MPI_SUCCESS)
            FAIL("%s %s rank %u: compile: %s\n", a->name, spec, me, why);
        else
            ok[sg] = 1;
        totex_mpi_local_free(&l);
    }
    if (!ok[0] || !ok[1])
        goto out;
    const totex_mpi_plan *s = &p[1], *u = &p[0];
    /* kicks: zero-byte sends and receives, one per neighbour that is a peer */
    size_t kicks_out = 0, kicks_in = 0;
    size_t *kick_recv = calloc(n, sizeof *kick_recv); /* peer -> kick receive + 1 */
    uint8_t *sends_to = calloc(n, 1), *recvs_from = calloc(n, 1);
    for (size_t i = 0; i < u->nsend; i++)
        sends_to[u->sends[i].peer] = 1;
    for (size_t r = 0; r < u->nrecv; r++)
        recvs_from[u->recvs[r].peer] = 1;
    for (uint32_t q = 0; q < n; q++) {
        if ((sends_to[q] || recvs_from[q]) && !totex_network_adjacent(net, me, q))
            FAIL("%s %s rank %u: a unit-step message to or from %u, not a neighbour\n", a->name, spec, me, q);
        kicks_out += sends_to[q];
        kicks_in += recvs_from[q];
    }
    if (s->nsend != u->nsend + kicks_out || s->nrecv != u->nrecv + kicks_in)
        FAIL("%s %s rank %u: %zu sends, %zu receives staggered; %zu, %zu unstaggered and %zu, %zu peers\n", a->name,
             spec, me, s->nsend, s->nrecv, u->nsend, u->nrecv, kicks_out, kicks_in);
    for (size_t r = 0; r < s->nrecv; r++) {
        const int q = s->recvs[r].peer;
        if (s->recvs[r].bytes == 0) {
            if (kick_recv[q])
                FAIL("%s %s rank %u: two kicks from %d\n", a->name, spec, me, q);
            kick_recv[q] = r + 1;
        } else if (!kick_recv[q]) {
            FAIL("%s %s rank %u: receive %zu from %d posted before its kick\n", a->name, spec, me, r, q);
        }
    }
    /* queues: every send once; one peer per queue, in compile order; kick first; lanes 1, 2 behind the kick */
    uint8_t *seen = calloc(s->nsend ? s->nsend : 1, 1);
    for (size_t qi = 0; qi < s->nqueue; qi++) {
        size_t prev = SIZE_MAX, data = 0;
        int peer = -1;
        for (size_t i = s->qhead[qi]; i != SIZE_MAX; i = s->sends[i].next) {
            const totex_mpi_send *sd = &s->sends[i];
            if (i >= s->nsend || seen[i]) {
                FAIL("%s %s rank %u: send %zu twice in the queues or out of range\n", a->name, spec, me, i);
                break;
            }
            seen[i] = 1;
            if (peer < 0)
                peer = sd->peer;
            if (sd->peer != peer || (prev != SIZE_MAX && i < prev))
                FAIL("%s %s rank %u: queue %zu mixes peers or goes back\n", a->name, spec, me, qi);
            if ((prev == SIZE_MAX) != (sd->bytes == 0))
                FAIL("%s %s rank %u: the kick to %d is not the first send in its queue\n", a->name, spec, me, peer);
            if (sd->bytes > 0) {
                const int lane = (int)(data++ % (size_t)c);
                int waits_kick = 0;
                for (size_t d = 0; d < sd->dep_count; d++)
                    waits_kick |= kick_recv[peer] && s->deps[sd->dep_first + d] == kick_recv[peer] - 1;
                const int first_of_lane = data <= (size_t)c;
                if (first_of_lane && lane > 0 && kick_recv[peer] && !waits_kick)
                    FAIL("%s %s rank %u: lane %d's first send to %d does not wait for its kick\n", a->name, spec, me,
                         lane, peer);
                if (lane == 0 && waits_kick)
                    FAIL("%s %s rank %u: lane 0 to %d waits for the kick\n", a->name, spec, me, peer);
            }
            prev = i;
        }
    }
    for (size_t i = 0; i < s->nsend; i++)
        if (!seen[i])
            FAIL("%s %s rank %u: send %zu in no queue\n", a->name, spec, me, i);
    free(seen);
    free(kick_recv);
    free(sends_to);
    free(recvs_from);
out:
    for (int sg = 0; sg < 2; sg++) {
        free(p[sg].recvs);
        free(p[sg].sends);
        free(p[sg].pieces);
        free(p[sg].deps);
        free(p[sg].finals);
        free(p[sg].req);
        free(p[sg].qhead);
    }
}

int main(void)
{
    static const char *nets[] = {"ring:4*ring:4", "ring:5", "ring:3*ring:4*k2", "ring:6*ring:3"};
    static const char *algs[] = {"octr", "greedy-sym"};
    int checked = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        totex_error err;
        totex_network *net = totex_network_parse(nets[ni], &err);
        if (!net) {
            fprintf(stderr, "FAIL %s: %s\n", nets[ni], err.msg);
            return 1;
        }
        for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++) {
            const totex_algorithm *a = totex_algorithm_find(algs[ai], &err);
            if (!a || a->applies(net, TOTEX_PORTS_MULTI, &err) != TOTEX_OK)
                continue;
            for (uint32_t me = 0; me < totex_network_nodes(net); me++)
                check_rank(nets[ni], net, a, me);
            checked++;
        }
        totex_network_free(net);
    }
    if (!checked) {
        fprintf(stderr, "FAIL no algorithm applied\n");
        failures++;
    }
    printf("test_compile_stagger: %d schedules: %d passed, %d failed\n", checked, failures ? 0 : checked, failures);
    return failures ? 1 : 0;
}
