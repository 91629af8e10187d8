/* The program compile.c makes of a unit-step schedule with staggered lanes,
 * checked on its structure for every rank of several
 * tori (octr and greedy-sym, multiport, 3 chunks of 3000-byte blocks): c - 1
 * = 2 kicks of TOTEX_PROG_KICK_BYTES (flagged, on a tag of their own) to every peer this
 * rank sends to and from every peer that sends to it: kick 1 to every peer
 * before any data send, waiting for nothing; kick 2 to a peer in the first
 * step, after its chunk-0 sends and before its chunk-1 ones, waiting for kick
 * 1 from that peer (when it sends kicks); both kick receives from a peer
 * posted before any data receive; then, step by step as the rank's share of
 * the schedule has them, chunk 0 of every transfer from this rank, then chunk
 * 1, then chunk 2 (peer and bytes), staggered and unstaggered alike; the
 * first message of lane i (1, 2) to a peer waits for kick i from that peer
 * (when it sends kicks), no other message waits for a kick. In both programs
 * a send is synchronous (MPI_Issend) exactly when a later send waits for it.
 * Peers must be neighbours in the network (totex_network_adjacent). Runs
 * without MPI (no mpirun). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

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
    const long long slot = 3000;
    totex_prog p[2];
    int ok[2] = {0, 0};
    totex_prog_share l;
    totex_error err;
    totex_prog_share_init(&l, n, me);
    if (totex_prog_share_from_unit(&l, a, net, TOTEX_PORTS_MULTI, NULL, &err) != TOTEX_OK) {
        FAIL("%s %s rank %u: share: %s\n", a->name, spec, me, err.msg);
        totex_prog_share_free(&l);
        return;
    }
    for (int sg = 0; sg < 2; sg++) {
        memset(&p[sg], 0, sizeof p[sg]);
        p[sg].slot = slot;
        p[sg].n = n;
        p[sg].me = me;
        p[sg].algorithm = a->name;
        char why[300] = "";
        if (prog_test_compile(&p[sg], &l, c, 1, sg, why, sizeof why) != 0)
            FAIL("%s %s rank %u: compile: %s\n", a->name, spec, me, why);
        else
            ok[sg] = 1;
    }
    if (!ok[0] || !ok[1])
        goto out;
    const totex_prog *s = &p[1], *u = &p[0];
    /* peers: who this rank sends to and receives from, by the share; all neighbours in the network */
    size_t kicks_out = 0, kicks_in = 0;
    size_t *kick_recv = calloc(n, sizeof *kick_recv); /* peer -> kick receive + 1 */
    uint8_t *sends_to = calloc(n, 1), *recvs_from = calloc(n, 1);
    for (size_t x = 0; x < l.nx; x++)
        if (l.x[x].count) {
            if (l.x[x].from == me)
                sends_to[l.x[x].to] = 1;
            if (l.x[x].to == me)
                recvs_from[l.x[x].from] = 1;
        }
    for (uint32_t q = 0; q < n; q++) {
        if ((sends_to[q] || recvs_from[q]) && !totex_network_adjacent(net, me, q))
            FAIL("%s %s rank %u: a unit-step message to or from %u, not a neighbour\n", a->name, spec, me, q);
        kicks_out += sends_to[q];
        kicks_in += recvs_from[q];
    }
    if (s->nsend != u->nsend + (c - 1) * kicks_out || s->nrecv != u->nrecv + (c - 1) * kicks_in)
        FAIL("%s %s rank %u: %zu sends, %zu receives staggered; %zu, %zu unstaggered and %zu, %zu peers\n", a->name,
             spec, me, s->nsend, s->nrecv, u->nsend, u->nrecv, kicks_out, kicks_in);
    for (size_t r = 0; r < s->nrecv; r++) {
        const int q = s->recvs[r].peer;
        if (s->recvs[r].kick != (r < (size_t)(c - 1) * kicks_in) || (s->recvs[r].kick && s->recvs[r].bytes != TOTEX_PROG_KICK_BYTES) ||
            u->recvs[r < u->nrecv ? r : 0].kick)
            FAIL("%s %s rank %u: receive %zu: a kick after data, a kick of another length or an unstaggered kick\n", a->name,
                 spec, me, r);
        if (s->recvs[r].kick) {
            if (kick_recv[q] ? r != kick_recv[q] : (r % (size_t)(c - 1)) != 0)
                FAIL("%s %s rank %u: the kicks from %d are not side by side\n", a->name, spec, me, q);
            if (!kick_recv[q])
                kick_recv[q] = r + 1;
        } else if (!kick_recv[q]) {
            FAIL("%s %s rank %u: receive %zu from %d posted before its kicks\n", a->name, spec, me, r, q);
        }
    }
    for (size_t i = 0; i < kicks_out && i < s->nsend; i++)
        if (s->sends[i].bytes != TOTEX_PROG_KICK_BYTES || !s->sends[i].kick || !sends_to[s->sends[i].peer] || s->sends[i].dep_count)
            FAIL("%s %s rank %u: send %zu is not kick 1 to a peer\n", a->name, spec, me, i);
    /* synchronous exactly when waited for */
    for (int sg = 0; sg < 2; sg++) {
        const totex_prog *pp = &p[sg];
        uint8_t *waited = calloc(pp->nsend ? pp->nsend : 1, 1);
        for (size_t i = 0; i < pp->nsend; i++)
            for (size_t d = 0; d < pp->sends[i].dep_count; d++)
                if (pp->deps[pp->sends[i].dep_first + d] >= pp->nrecv)
                    waited[pp->deps[pp->sends[i].dep_first + d] - pp->nrecv] = 1;
        for (size_t i = 0; i < pp->nsend; i++)
            if (pp->sends[i].sync != waited[i])
                FAIL("%s %s rank %u: send %zu synchronous %d, waited for %d\n", a->name, spec, me, i,
                     pp->sends[i].sync, waited[i]);
        free(waited);
    }
    /* data sends: per step, chunk 0 of every transfer from this rank, then chunk 1, then 2,
       in both programs; lanes 1, 2 of a link wait for its kick at their first message */
    size_t is = kicks_out, iu = 0;
    uint8_t *lane_seen = calloc((size_t)n * c, 1);
    for (size_t x0 = 0; x0 < l.nx;) {
        size_t x1 = x0;
        while (x1 < l.nx && l.x[x1].step == l.x[x0].step)
            x1++;
        for (int ci = 0; ci < c; ci++) {
            for (uint32_t q = 0; x0 == 0 && ci > 0 && ci < c - 1 && q < n; q++) { /* kick ci + 1 */
                if (!sends_to[q])
                    continue;
                const totex_prog_send *k = is < s->nsend ? &s->sends[is] : NULL;
                if (!k || !k->kick || k->peer != (int)q || k->bytes != TOTEX_PROG_KICK_BYTES ||
                    k->dep_count != (kick_recv[q] ? 1u : 0u) ||
                    (k->dep_count && s->deps[k->dep_first] != kick_recv[q] - 1 + (size_t)ci - 1)) {
                    FAIL("%s %s rank %u: kick %d to %u is not the next send, or waits for the wrong one\n", a->name,
                         spec, me, ci + 1, q);
                    goto done;
                }
                is++;
            }
            for (size_t x = x0; x < x1; x++) {
                const totex_prog_xfer *tr = &l.x[x];
                if (!tr->count || tr->from != me)
                    continue;
                const int bytes = (int)(tr->count * (size_t)(slot * (ci + 1) / c - slot * ci / c));
                if (is >= s->nsend || iu >= u->nsend || s->sends[is].peer != (int)tr->to ||
                    s->sends[is].bytes != bytes || u->sends[iu].peer != (int)tr->to || u->sends[iu].bytes != bytes) {
                    FAIL("%s %s rank %u: step %llu chunk %d to %u: not the next send (lane by lane)\n", a->name, spec,
                         me, (unsigned long long)tr->step, ci, tr->to);
                    goto done;
                }
                const totex_prog_send *sd = &s->sends[is];
                int waits_kick = 0, waits_own = 0;
                for (size_t d = 0; d < sd->dep_count; d++) {
                    const size_t dep = s->deps[sd->dep_first + d];
                    waits_kick |= dep < s->nrecv && s->recvs[dep].kick;
                    waits_own |= kick_recv[tr->to] && dep == kick_recv[tr->to] - 1 + (size_t)ci - 1;
                }
                if (sd->kick || u->sends[iu].kick)
                    FAIL("%s %s rank %u: a data send flagged as a kick\n", a->name, spec, me);
                for (size_t d = 0; d < u->sends[iu].dep_count; d++)
                    if (u->deps[u->sends[iu].dep_first + d] >= u->nrecv + u->nsend)
                        FAIL("%s %s rank %u: a dependency out of range\n", a->name, spec, me);
                const int first = !lane_seen[(size_t)tr->to * c + ci];
                lane_seen[(size_t)tr->to * c + ci] = 1;
                if (first && ci > 0 && kick_recv[tr->to] && !waits_own)
                    FAIL("%s %s rank %u: lane %d's first send to %u does not wait for kick %d from it\n", a->name,
                         spec, me, ci, tr->to, ci);
                if ((!first || ci == 0) && waits_kick)
                    FAIL("%s %s rank %u: a send to %u of lane %d waits for the kick\n", a->name, spec, me, tr->to, ci);
                is++;
                iu++;
            }
        }
        x0 = x1;
    }
    if (is != s->nsend || iu != u->nsend)
        FAIL("%s %s rank %u: %zu, %zu sends left over\n", a->name, spec, me, s->nsend - is, u->nsend - iu);
done:
    free(lane_seen);
    free(kick_recv);
    free(sends_to);
    free(recvs_from);
out:
    for (int sg = 0; sg < 2; sg++) {
        free(p[sg].rcode);
        free(p[sg].scode);
        free(p[sg].recvs);
        free(p[sg].sends);
        free(p[sg].pieces);
        free(p[sg].deps);
        free(p[sg].finals);
    }
    totex_prog_share_free(&l);
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
