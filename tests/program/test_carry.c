/* The cross-rank check's header rides on a compiled program's first message
 * to its successor on the check's ring (src/program/ring.c: along links where it
 * can, else rank + 1), or on a staggered program's first kick to it
 * (src/program/compile.c, run.c, agree.c): checked on every rank's
 * program without MPI, for the unit-step schedules (octr, sym2, a3,
 * greedy-sym, greedy multiport; a2 single-port) on the tori the MPI tests
 * make from 4 to 16 ranks, 1 and 3 chunks, staggered lanes or not, the
 * default and the tightest arena, short messages padded or not.
 *
 * Why: with mismatched arguments the ranks run different plans whose messages
 * never match; every rank then waits until one rank that sees its
 * predecessor's header differ poisons them all (agree.c). That only works if
 * a header always leaves, whatever waits never end. The executor therefore
 * makes the carrying send first, before any wait (in program order
 * it sat, in a2's programs, behind a window wait on an earlier synchronous
 * send to a rank that may run another plan, never completed). This test
 * checks what making it first requires of the program:
 *  - it is the program's first send of data to the successor and waits for no request
 *    (no dependency), so making it at the start breaks no order;
 *  - it carries this rank's own blocks only (its data is there at the start);
 *  - its staging bytes (header in front) are its own: no other staged send's
 *    bytes overlap them, so making it early overwrites nothing not yet sent;
 *  - it is at most TOTEX_PROG_CARRY_MAX bytes;
 *  - both ends agree: rank r carries its header to r + 1 exactly when r + 1
 *    expects it, on a message of the same length (rank r + 1 compiles that
 *    decision from its own share).
 * And, the executor's contract as a dependency check: in program order no
 * send up to the carrying one may be counted on to leave before a wait
 * (otherwise the header could only leave after it), which the program
 * violated before the fix for a2 on k2*k2 (4 ranks), k2*ring:3, k2*k2*k2 and
 * ring:3*ring:3: there the test finds such a wait and requires the carrying
 * send to be independent of it (the first three properties). Runs without mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"


static int failures;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20)                                                                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
    } while (0)

/* the staged bytes of send s (with the header in front of the carrying one), or 0 if not staged */
static size_t staged(const totex_prog *p, size_t s, size_t *lo)
{
    const totex_prog_send *sd = &p->sends[s];
    const int carried = s == p->carry_send;
    size_t own = 0;
    for (size_t k = sd->piece_first; k < sd->piece_first + sd->piece_count; k++)
        own += p->pieces[k].len;
    if (!carried && sd->piece_count < 2 && own == (size_t)sd->bytes)
        return 0; /* sent from where it lies */
    *lo = sd->stage_off - (carried ? TOTEX_PROG_HDR_BYTES : 0);
    return (size_t)sd->bytes + (carried ? TOTEX_PROG_HDR_BYTES : 0);
}

/* one rank's program; *waits_before: some send up to the carrying one waits for a request */
static void check(const char *what, const totex_prog *p, int *waits_before)
{
    *waits_before = 0;
    const size_t cs = p->carry_send;
    if (cs == SIZE_MAX)
        return;
    const int succ = (int)p->ring_succ;
    if (cs >= p->nsend) {
        FAIL("FAIL %s rank %u: carrying send %zu of %zu\n", what, p->me, cs, p->nsend);
        return;
    }
    const totex_prog_send *sd = &p->sends[cs];
    for (size_t s = 0; s < cs; s++) /* (a staggered plan's zero-byte kick, on the plan's tag, may come first) */
        if (p->sends[s].peer == succ && p->sends[s].piece_count)
            FAIL("FAIL %s rank %u: send %zu to rank %d comes before the carrying send %zu\n", what, p->me, s, succ,
                 cs);
    for (size_t s = 0; s <= cs; s++)
        if (p->sends[s].dep_count || p->sends[s].wait_sends)
            *waits_before = 1;
    if (sd->peer != succ)
        FAIL("FAIL %s rank %u: the carrying send goes to rank %d, not %d\n", what, p->me, sd->peer, succ);
    if (sd->dep_count || sd->wait_sends)
        FAIL("FAIL %s rank %u: the carrying send %zu waits for %zu requests and sends < %zu\n", what, p->me, cs,
             (size_t)sd->dep_count, (size_t)sd->wait_sends);
    if ((size_t)sd->bytes > TOTEX_PROG_CARRY_MAX)
        FAIL("FAIL %s rank %u: the carrying send has %d bytes, more than %d\n", what, p->me, sd->bytes,
             TOTEX_PROG_CARRY_MAX);
    for (size_t k = sd->piece_first; k < sd->piece_first + sd->piece_count; k++)
        if (p->pieces[k].base != TOTEX_PROG_SEND)
            FAIL("FAIL %s rank %u: the carrying send takes a piece from %s, not its own blocks\n", what, p->me,
                 p->pieces[k].base == TOTEX_PROG_ARENA ? "the arena" : "the receive buffer");
    size_t clo = 0, chi = staged(p, cs, &clo);
    if (!chi) {
        FAIL("FAIL %s rank %u: the carrying send is not staged (no room for the header)\n", what, p->me);
        return;
    }
    chi += clo;
    if (chi > p->stage_bytes)
        FAIL("FAIL %s rank %u: the carrying send is staged past the staging area\n", what, p->me);
    for (size_t s = 0; s < p->nsend; s++) {
        size_t lo = 0, len = s == cs ? 0 : staged(p, s, &lo);
        if (len && lo < chi && clo < lo + len)
            FAIL("FAIL %s rank %u: send %zu is staged in bytes [%zu, %zu) of the carrying send's [%zu, %zu)\n", what,
                 p->me, s, lo, lo + len, clo, chi);
    }
}

/* compile rank me's program; NULL on failure (reported) */
static totex_prog *compile(const char *what, const totex_network *net, const totex_algorithm *a, totex_ports ports,
                               uint32_t me, long long slot, int chunks, int stagger, int tight, int pad)
{
    char why[300] = "";
    totex_prog *p = prog_test_compile_unit(net, a, ports, me, slot, chunks, stagger, tight, pad, why, sizeof why);
    if (!p)
        FAIL("FAIL %s rank %u: %s\n", what, me, why);
    return p;
}

int main(void)
{
    /* the networks of the MPI tests' communicators at 4 .. 16 ranks (test_unit_exec.c), and 3x3 */
    static const char *nets[] = {"k2*k2", "ring:4", "ring:5", "k2*ring:3", "ring:6", "k2*k2*k2", "k2*ring:4",
                                 "ring:8", "ring:3*ring:3", "ring:9", "k2*k2*ring:4", "ring:4*ring:4"};
    static const struct {
        const char *name;
        totex_ports ports;
    } algs[] = {{"octr", TOTEX_PORTS_MULTI},       {"sym2", TOTEX_PORTS_MULTI},   {"a3", TOTEX_PORTS_MULTI},
                {"greedy-sym", TOTEX_PORTS_MULTI}, {"greedy", TOTEX_PORTS_MULTI}, {"a2", TOTEX_PORTS_SINGLE}};
    static const long long slots[] = {1, 8, 1000, 4099};
    int programs = 0, carrying = 0, behind_waits = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        totex_error err;
        totex_network *net = totex_network_parse(nets[ni], &err);
        if (!net) {
            fprintf(stderr, "FAIL %s: %s\n", nets[ni], err.msg);
            return 1;
        }
        const uint32_t n = totex_network_nodes(net);
        for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++) {
            const totex_algorithm *a = totex_algorithm_find(algs[ai].name, &err);
            if (!a || a->applies(net, algs[ai].ports, &err) != TOTEX_OK)
                continue;
            for (int v = 0; v < 3; v++)
                for (size_t si = 0; si < sizeof slots / sizeof slots[0]; si++)
                    for (int tight = 0; tight <= 1; tight++) {
                        const int chunks = v ? 3 : 1, stagger = v == 1, pad = tight && si == 1 ? 1000 : 0;
                        char what[160];
                        snprintf(what, sizeof what, "%s on %s, %lld B, %d chunk%s%s, %s arena%s", algs[ai].name,
                                 nets[ni], slots[si], chunks, chunks > 1 ? "s" : "", stagger ? " staggered" : "",
                                 tight ? "tightest" : "default", pad ? ", padded" : "");
                        totex_prog **ps = calloc(n, sizeof *ps);
                        for (uint32_t me = 0; me < n; me++)
                            ps[me] = compile(what, net, a, algs[ai].ports, me, slots[si], chunks, stagger, tight, pad);
                        for (uint32_t me = 0; me < n; me++) {
                            const totex_prog *p = ps[me], *q = p ? ps[p->ring_succ] : NULL;
                            if (!p || !q)
                                continue;
                            programs++;
                            int waits = 0;
                            check(what, p, &waits);
                            carrying += p->carry_send != SIZE_MAX;
                            behind_waits += waits;
                            /* staggered: the header rides on the first kick to the ring's successor
                               whenever there is one (no message of the check's own, compile.c) */
                            int kicks_succ = 0;
                            for (size_t s = 0; p->stagger && s < p->nsend; s++)
                                kicks_succ |= p->sends[s].kick && p->sends[s].peer == (int)p->ring_succ;
                            if (kicks_succ && (p->carry_send == SIZE_MAX || !p->sends[p->carry_send].kick ||
                                               p->sends[p->carry_send].bytes != TOTEX_PROG_KICK_BYTES))
                                FAIL("FAIL %s rank %u: staggered, kicks rank %u, but the header does not ride on "
                                     "its first kick\n",
                                     what, me, p->ring_succ);
                            /* both ends of the link me -> succ agree */
                            if ((p->carry_send != SIZE_MAX) != (q->carry_recv != SIZE_MAX))
                                FAIL("FAIL %s: rank %u %s its header to rank %u, which %s it\n", what, me,
                                     p->carry_send != SIZE_MAX ? "carries" : "does not carry", q->me,
                                     q->carry_recv != SIZE_MAX ? "expects" : "does not expect");
                            else if (p->carry_send != SIZE_MAX &&
                                     (p->sends[p->carry_send].bytes != q->recvs[q->carry_recv].bytes ||
                                      q->recvs[q->carry_recv].peer != (int)me || q->recvs[q->carry_recv].chunk != 0))
                                FAIL("FAIL %s: rank %u's carrying send (%d bytes) and rank %u's carried receive (%d "
                                     "bytes from rank %d, chunk %d) differ\n",
                                     what, me, p->sends[p->carry_send].bytes, q->me, q->recvs[q->carry_recv].bytes,
                                     q->recvs[q->carry_recv].peer, q->recvs[q->carry_recv].chunk);
                        }
                        for (uint32_t me = 0; me < n; me++)
                            totex_prog_free(ps[me]);
                        free(ps);
                    }
        }
        totex_network_free(net);
    }
    /* a2 on k2*k2 has programs whose sends before the carrying one wait (a window on a link used in
       two steps): the case the executor's send-it-first must cover; without any, the test tests nothing */
    if (!behind_waits)
        FAIL("FAIL no program has a wait before its carrying send: the case of a wait before the carrying send is not covered\n");
    printf("test_carry: %d programs, %d carry the header, %d of them behind sends that wait: %s (%d failures)\n",
           programs, carrying, behind_waits, failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
