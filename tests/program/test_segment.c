/* A rank's program compiled from its share made a few steps at a time
 * (totex_prog_compile_src(): node 0's moves translated segment by segment,
 * read twice, never held whole) against the program compiled from the whole
 * share (totex_prog_compile() on totex_prog_share_from_unit()): every entry,
 * piece, dependency and final block equal, and the sizes, at every rank of
 * small tori (equal and unequal sides, 2-D and 3-D, a period-2 scheme), for
 * every symmetric unit-step algorithm that applies multiport, with 1 and 3
 * chunks, staggered or not, the tightest and the default arena, and segments
 * of 1, 2 and 7 steps. Runs without mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

#define FAIL PROG_FAIL

/* the first difference between two programs, or NULL */
static const char *differ(const totex_prog *a, const totex_prog *b)
{
    if (a->nrecv != b->nrecv || a->nsend != b->nsend)
        return "entry counts";
    if (a->steps != b->steps || a->chunks != b->chunks || a->arena_bytes != b->arena_bytes ||
        a->stage_bytes != b->stage_bytes || a->carry_recv != b->carry_recv || a->carry_send != b->carry_send ||
        a->flat != b->flat || a->pair != b->pair || a->stagger != b->stagger)
        return "program fields";
    size_t np = 0, nd = 0;
    for (size_t i = 0; i < a->nrecv; i++) {
        const totex_prog_recv *x = &a->recvs[i], *y = &b->recvs[i];
        if (x->peer != y->peer || x->bytes != y->bytes || x->arena_off != y->arena_off ||
            x->place_off != y->place_off || x->in_place_ok != y->in_place_ok || x->chunk != y->chunk ||
            x->wait_sends != y->wait_sends || x->wait_recvs != y->wait_recvs || x->fin_first != y->fin_first ||
            x->fin_count != y->fin_count || x->kick != y->kick)
            return "a receive";
    }
    for (size_t i = 0; i < a->nsend; i++) {
        const totex_prog_send *x = &a->sends[i], *y = &b->sends[i];
        if (x->peer != y->peer || x->bytes != y->bytes || x->piece_first != y->piece_first ||
            x->piece_count != y->piece_count || x->stage_off != y->stage_off || x->dep_first != y->dep_first ||
            x->dep_count != y->dep_count || x->wait_sends != y->wait_sends || x->recv_before != y->recv_before ||
            x->sync != y->sync || x->kick != y->kick)
            return "a send";
        if (x->piece_first + x->piece_count > np)
            np = x->piece_first + x->piece_count;
        if (x->dep_first + x->dep_count > nd)
            nd = x->dep_first + x->dep_count;
    }
    for (size_t i = 0; i < np; i++)
        if (a->pieces[i].base != b->pieces[i].base || a->pieces[i].off != b->pieces[i].off ||
            a->pieces[i].len != b->pieces[i].len)
            return "a piece";
    for (size_t i = 0; i < nd; i++)
        if (a->deps[i] != b->deps[i])
            return "a dependency";
    for (uint32_t i = 0; i + 1 < a->n; i++)
        if (a->finals[i].src != b->finals[i].src || a->finals[i].pos != b->finals[i].pos)
            return "a final block";
    return NULL;
}

static totex_prog *fresh(const totex_network *net, const totex_algorithm *a, uint32_t me, int tight)
{
    const uint32_t n = totex_network_nodes(net);
    totex_prog *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->slot = 4096;
    p->n = n;
    p->me = me;
    p->algorithm = a->name;
    p->arena_cap = tight ? 0 : (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_RANK * n * 4096;
    totex_prog_check_ring(net, me, &p->ring_pred, &p->ring_succ);
    p->ring_set = 1;
    return p;
}

static int segmented(const totex_network *net, const totex_algorithm *a, uint32_t me, int chunks, int stagger,
                     int tight, uint64_t seg, totex_prog **out, char *why, size_t cap)
{
    totex_error err;
    err.msg[0] = '\0';
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_prog_share l;
    totex_prog_share_init(&l, totex_network_nodes(net), me);
    totex_prog *p = *out = fresh(net, a, me, tight);
    l.pred = p ? p->ring_pred : 0;
    totex_status ts = p ? a->plan_symmetric(net, TOTEX_PORTS_MULTI, &t, &s, &err) : TOTEX_ENOMEM;
    totex_prog_share_src src = {&l, NULL, seg, 0};
    if (ts == TOTEX_OK && !(src.trans = totex_prog_trans_new(t, s)))
        ts = TOTEX_ENOMEM;
    if (ts == TOTEX_OK)
        ts = totex_prog_compile_src(p, &src, chunks, 1, stagger, &err);
    if (ts == TOTEX_OK && (ts = totex_prog_expand(p)) != TOTEX_OK)
        snprintf(err.msg, sizeof err.msg, "out of memory expanding the program");
    if (ts != TOTEX_OK)
        snprintf(why, cap, "%s", err.msg);
    totex_prog_trans_free(src.trans);
    totex_sym_free(s);
    totex_task_free(t);
    totex_prog_share_free(&l);
    return (int)ts;
}

static void network(const char *spec)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        FAIL("%s: %s\n", spec, err.msg);
        return;
    }
    const uint32_t n = totex_network_nodes(net);
    int algos = 0;
    for (size_t ai = 0; totex_algorithm_get(ai); ai++) {
        const totex_algorithm *a = totex_algorithm_get(ai);
        if (!a->plan_symmetric || a->applies(net, TOTEX_PORTS_MULTI, &err) != TOTEX_OK)
            continue;
        algos++;
        static const int forms[][3] = {{1, 0, 0}, {1, 0, 1}, {3, 0, 0}, {3, 1, 1}}; /* chunks, stagger, tight */
        static const uint64_t segs[] = {1, 2, 7};
        for (uint32_t me = 0; me < n; me++)
            for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
                char why[300] = "";
                totex_prog *whole = prog_test_compile_unit(net, a, TOTEX_PORTS_MULTI, me, 4096, forms[f][0],
                                                           forms[f][1], forms[f][2], 0, why, sizeof why);
                if (!whole) {
                    FAIL("%s %s rank %u: the whole share does not compile: %s\n", spec, a->name, me, why);
                    continue;
                }
                for (size_t g = 0; g < sizeof segs / sizeof segs[0]; g++) {
                    totex_prog *part = NULL;
                    if (segmented(net, a, me, forms[f][0], forms[f][1], forms[f][2], segs[g], &part, why,
                                  sizeof why)) {
                        FAIL("%s %s rank %u: segments of %llu steps do not compile: %s\n", spec, a->name, me,
                             (unsigned long long)segs[g], why);
                    } else {
                        const char *d = differ(whole, part);
                        if (d)
                            FAIL("%s %s rank %u, %d chunks%s%s, segments of %llu steps: %s differs\n", spec, a->name,
                                 me, forms[f][0], forms[f][1] ? ", staggered" : "", forms[f][2] ? ", tight" : "",
                                 (unsigned long long)segs[g], d);
                    }
                    totex_prog_free(part);
                }
                totex_prog_free(whole);
            }
    }
    if (!algos)
        FAIL("%s: no symmetric algorithm applies\n", spec);
    printf("%s: %d symmetric algorithms, %u ranks\n", spec, algos, n);
    totex_network_free(net);
}

int main(void)
{
    network("ring:4*ring:4");
    network("ring:6*ring:4");
    network("ring:5*ring:3");
    network("ring:4*ring:4*ring:2");
    network("ring:8*ring:4");
    if (failures) {
        fprintf(stderr, "program_segment: %d failures\n", failures);
        return 1;
    }
    printf("program_segment: ok\n");
    return 0;
}
