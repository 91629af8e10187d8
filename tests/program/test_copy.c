/* totex_prog_copy (src/program/program.c): a nonblocking or persistent call
 * runs a copy of the cached program with buffers of its own (src/mpi/request.c).
 * For every rank's program of octr, sym2 and a3 (multiport) and a2
 * (single-port) on tori of 4 to 16 nodes, 1 and 3 chunks, staggered or not:
 * the copy has every field and every entry of every array equal to the
 * original's, arrays of its own (writing the copy leaves the original as it
 * was), no buffers, and the same totex_prog_bytes. Runs without mpirun. */
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

/* entries used of the pieces and dependencies arrays (as the sends index them) */
static void used(const totex_prog *p, size_t *pieces, size_t *deps)
{
    *pieces = *deps = 0;
    for (size_t i = 0; i < p->nsend; i++) {
        const totex_prog_send *s = &p->sends[i];
        if (s->piece_count && s->piece_first + s->piece_count > *pieces)
            *pieces = s->piece_first + s->piece_count;
        if (s->dep_count && s->dep_first + s->dep_count > *deps)
            *deps = s->dep_first + s->dep_count;
    }
}

static void check(const char *what, const totex_prog *p)
{
    totex_prog *c = totex_prog_copy(p);
    if (!c) {
        FAIL("FAIL %s rank %u: no copy\n", what, p->me);
        return;
    }
    size_t pieces, deps;
    used(p, &pieces, &deps);
    if (c->recvs || c->sends || c->pieces || c->deps)
        FAIL("FAIL %s rank %u: the copy has the original's expanded view\n", what, p->me);
    if ((p->rcode_bytes && (c->rcode == p->rcode || c->rcode_bytes != p->rcode_bytes ||
                            memcmp(c->rcode, p->rcode, p->rcode_bytes))) ||
        (p->scode_bytes && (c->scode == p->scode || c->scode_bytes != p->scode_bytes ||
                            memcmp(c->scode, p->scode, p->scode_bytes))))
        FAIL("FAIL %s rank %u: the copy's packed entries are shared or differ\n", what, p->me);
    if (totex_prog_expand(c) != TOTEX_OK) { /* the copy's entries, decoded from its own bytes */
        FAIL("FAIL %s rank %u: no expansion of the copy\n", what, p->me);
        totex_prog_free(c);
        return;
    }
    if (c->n != p->n || c->me != p->me || c->slot != p->slot || c->nrecv != p->nrecv || c->nsend != p->nsend ||
        c->steps != p->steps || c->chunks != p->chunks || c->carry_send != p->carry_send ||
        c->carry_recv != p->carry_recv || c->arena_bytes != p->arena_bytes || c->stage_bytes != p->stage_bytes ||
        c->flat != p->flat || c->pair != p->pair || strcmp(c->label, p->label) != 0)
        FAIL("FAIL %s rank %u: a field of the copy differs\n", what, p->me);
    if ((p->nrecv && (c->recvs == p->recvs || memcmp(c->recvs, p->recvs, p->nrecv * sizeof *p->recvs))) ||
        (p->nsend && (c->sends == p->sends || memcmp(c->sends, p->sends, p->nsend * sizeof *p->sends))) ||
        (pieces && (c->pieces == p->pieces || memcmp(c->pieces, p->pieces, pieces * sizeof *p->pieces))) ||
        (deps && (c->deps == p->deps || memcmp(c->deps, p->deps, deps * sizeof *p->deps))) ||
        c->finals == p->finals || memcmp(c->finals, p->finals, p->n * sizeof *p->finals))
        FAIL("FAIL %s rank %u: an array of the copy is shared or differs\n", what, p->me);
    if (c->arena || c->stage || c->fin)
        FAIL("FAIL %s rank %u: the copy has buffers\n", what, p->me);
    if (totex_prog_bytes(c) != totex_prog_bytes(p))
        FAIL("FAIL %s rank %u: totex_prog_bytes %zu, original's %zu\n", what, p->me, totex_prog_bytes(c),
             totex_prog_bytes(p));
    /* the copy's bytes are its own: overwriting them leaves the original's */
    if (p->scode_bytes) {
        const uint8_t b = p->scode[0];
        c->scode[0] = (uint8_t)~b;
        if (p->scode[0] != b)
            FAIL("FAIL %s rank %u: writing the copy's sends changed the original's\n", what, p->me);
    }
    totex_prog_free(c);
}

int main(void)
{
    static const char *nets[] = {"k2*k2", "ring:5", "k2*ring:3", "ring:3*ring:3", "ring:4*ring:4"};
    static const struct {
        const char *name;
        totex_ports ports;
    } algs[] = {{"octr", TOTEX_PORTS_MULTI}, {"sym2", TOTEX_PORTS_MULTI}, {"a3", TOTEX_PORTS_MULTI},
                {"a2", TOTEX_PORTS_SINGLE}};
    int programs = 0;
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
                for (uint32_t me = 0; me < n; me++) {
                    char what[128], why[300] = "";
                    snprintf(what, sizeof what, "%s on %s, variant %d", algs[ai].name, nets[ni], v);
                    totex_prog *p = prog_test_compile_unit(net, a, algs[ai].ports, me, 1000, v ? 3 : 1, v == 1, 0,
                                                           0, why, sizeof why);
                    if (!p) {
                        FAIL("FAIL %s rank %u: %s\n", what, me, why);
                        continue;
                    }
                    check(what, p);
                    totex_prog_free(p);
                    programs++;
                }
        }
        totex_network_free(net);
    }
    printf("test_copy: %d programs copied, %d failures\n", programs, failures);
    return failures != 0 || programs == 0;
}
