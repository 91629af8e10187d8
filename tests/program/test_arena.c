/* The executor's bounded arena (src/program/arena.h, compile.c, run.c), checked
 * on every rank's compiled program without MPI, for unit-step schedules (octr,
 * sym2, a3, greedy-sym multiport; a2 single-port) and combining ones (direct,
 * bruck, dimwise), 1 and 3 chunks, with the tightest arena (bytes reused as
 * soon as they are free; with 3 chunks, short messages padded to 512 bytes)
 * and the default one. For each program, from its
 * sends' pieces and dependencies and its receives' arena ranges (not from the
 * allocator's bookkeeping):
 *  - every piece a send takes from the arena lies in the range of a receive
 *    it waits for (the blocks it forwards);
 *  - two receives whose arena ranges overlap: the later one waits for the
 *    earlier one (copied out) and for every send that takes on a block from
 *    the overlapping bytes, and all of those belong to steps before its own;
 *  - two staged sends whose staging ranges overlap: the later one waits for
 *    the earlier one, of an earlier step;
 *  (a request waits, in effect, for what the requests before it waited for:
 *  the executor posts and sends in program order)
 *  - every receive's own fields (peer, chunk, its final blocks, where it
 *    lands: in place at its first source's slot, else in the arena) against
 *    the share's transfer (program.h keeps them in bit fields and one offset);
 *  - the order that keeps the executor free of deadlock (run.c): a receive
 *    or a send of step t waits only for requests of steps before t, and the
 *    receives of steps before t are posted before the sends of step t;
 * and with the tightest arena at 64 ranks and more, the arena must hold fewer
 * bytes than the schedule's received blocks (a reuse happened). Prints the
 * arena in blocks per rank. Step of a request: the program is in step order,
 * a step's sends before its receives (compile.c), recomputed here from the
 * rank's share of the schedule. Runs without mpirun. */
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

static int overlap(size_t a, size_t alen, size_t b, size_t blen)
{
    return alen && blen && a < b + blen && b < a + alen;
}

typedef struct read_of { /* a send taking on arena bytes of a receive */
    size_t send, off, len;
} read_of;

/* receive @p ir of @p p, chunk @p k of the share's transfer @p x: its fields (bit fields, the offset it keeps
   in the arena or in place: program.h) against the transfer's blocks */
static void check_recv(const char *what, const totex_prog *p, const totex_prog_share *l, size_t x, size_t k, size_t ir)
{
    const totex_prog_recv *rv = &p->recvs[ir];
    const totex_prog_xfer *tr = &l->x[x];
    const totex_block *bl = l->b + tr->first;
    size_t fin = 0;
    int consecutive = 1;
    for (size_t b = 0; b < tr->count; b++) {
        consecutive &= bl[b].dst == p->me && bl[b].src == bl[0].src + b;
        if (bl[b].dst != p->me)
            continue;
        const size_t f = (size_t)rv->fin_first + fin++;
        if (fin > rv->fin_count || f >= p->n || p->finals[f].src != bl[b].src || p->finals[f].pos != b)
            FAIL("FAIL %s rank %u: receive %zu does not list block (%u, %u) as its final block %zu\n", what, p->me, ir,
                 bl[b].src, p->me, fin - 1);
    }
    const size_t lo = totex_prog_chunk_lo(p, (int)k);
    if (rv->peer != (int)tr->from || rv->chunk != k || rv->kick || fin != rv->fin_count ||
        (rv->in_place_ok && (!consecutive || rv->place_off != (size_t)bl[0].src * (size_t)p->slot + lo)) ||
        (!rv->in_place_ok && rv->arena_off + (size_t)rv->bytes > p->arena_bytes))
        FAIL("FAIL %s rank %u: receive %zu (peer %d, chunk %u, %u final blocks, in place %u at %zu) is not chunk %zu "
             "of the %zu blocks from %u, %zu final, in place at %zu when not in the arena\n",
             what, p->me, ir, rv->peer, (unsigned)rv->chunk, (unsigned)rv->fin_count, (unsigned)rv->in_place_ok,
             rv->place_off, k, tr->count, tr->from, fin, (size_t)bl[0].src * (size_t)p->slot + lo);
}

/* check one rank's program p compiled from share l */
static void check(const char *what, const totex_prog *p, const totex_prog_share *l)
{
    const size_t nr = p->nrecv, ns = p->nsend, c = (size_t)p->chunks;
    /* per request: its step, and the receives and sends of the steps before it */
    uint64_t *rstep = malloc((nr + 1) * sizeof *rstep), *sstep = malloc((ns + 1) * sizeof *sstep);
    size_t *r_r = malloc((nr + 1) * sizeof(size_t)), *r_s = malloc((nr + 1) * sizeof(size_t));
    size_t *s_r = malloc((ns + 1) * sizeof(size_t)), *s_s = malloc((ns + 1) * sizeof(size_t));
    size_t ir = 0, is = 0;
    for (size_t x0 = 0; x0 < l->nx;) {
        size_t x1 = x0;
        while (x1 < l->nx && l->x[x1].step == l->x[x0].step)
            x1++;
        const size_t r_at = ir, s_at = is;
        for (size_t x = x0; x < x1; x++)
            if (l->x[x].count && l->x[x].from == p->me)
                for (size_t k = 0; k < c; k++, is++)
                    if (is < ns) {
                        sstep[is] = l->x[x].step;
                        s_r[is] = r_at;
                        s_s[is] = s_at;
                    }
        for (size_t x = x0; x < x1; x++)
            if (l->x[x].count && l->x[x].to == p->me)
                for (size_t k = 0; k < c; k++, ir++)
                    if (ir < nr) {
                        rstep[ir] = l->x[x].step;
                        r_r[ir] = r_at;
                        r_s[ir] = s_at;
                        check_recv(what, p, l, x, k, ir);
                    }
        x0 = x1;
    }
    if (ir != nr || is != ns) {
        FAIL("FAIL %s rank %u: %zu receives and %zu sends, the share has %zu and %zu\n", what, p->me, nr, ns, ir, is);
        goto out;
    }
#define USES_ARENA(r) (!p->recvs[r].in_place_ok) /* (a carried receive in place lands in place too: program.h) */
    read_of **reads = calloc(nr + 1, sizeof *reads);
    size_t *nreads = calloc(nr + 1, sizeof *nreads), *capreads = calloc(nr + 1, sizeof *capreads);
    for (size_t s = 0; s < ns; s++) {
        const totex_prog_send *sd = &p->sends[s];
        if (sd->recv_before != s_r[s])
            FAIL("FAIL %s rank %u: send %zu (step %llu) posts receives up to %zu, not those of the steps before (%zu)\n",
                 what, p->me, s, (unsigned long long)sstep[s] + 1, (size_t)sd->recv_before, s_r[s]);
        if (sd->wait_sends > s_s[s])
            FAIL("FAIL %s rank %u: send %zu (step %llu) waits for sends up to %zu, beyond the steps before (%zu)\n",
                 what, p->me, s, (unsigned long long)sstep[s] + 1, (size_t)sd->wait_sends, s_s[s]);
        for (size_t d = sd->dep_first; d < sd->dep_first + sd->dep_count; d++) {
            size_t q = p->deps[d];
            if (q < nr ? q >= s_r[s] : q - nr >= s_s[s])
                FAIL("FAIL %s rank %u: send %zu (step %llu) waits for request %zu of its own step or later\n", what,
                     p->me, s, (unsigned long long)sstep[s] + 1, q);
        }
        for (size_t k = sd->piece_first; k < sd->piece_first + sd->piece_count; k++) {
            const totex_prog_piece *pc = &p->pieces[k];
            if (pc->base != TOTEX_PROG_ARENA)
                continue;
            size_t from = SIZE_MAX; /* the latest receive it waits for whose range holds the piece */
            for (size_t d = sd->dep_first; d < sd->dep_first + sd->dep_count; d++) {
                size_t q = p->deps[d];
                if (q < nr && USES_ARENA(q) && pc->off >= p->recvs[q].arena_off &&
                    pc->off + pc->len <= p->recvs[q].arena_off + (size_t)p->recvs[q].bytes &&
                    (from == SIZE_MAX || q > from))
                    from = q;
            }
            if (from == SIZE_MAX) {
                FAIL("FAIL %s rank %u: send %zu takes arena bytes [%zu, %zu) from no receive it waits for\n", what,
                     p->me, s, pc->off, pc->off + pc->len);
                continue;
            }
            if (nreads[from] == capreads[from]) {
                capreads[from] = capreads[from] ? 2 * capreads[from] : 4;
                reads[from] = realloc(reads[from], capreads[from] * sizeof **reads);
            }
            reads[from][nreads[from]++] = (read_of){s, pc->off, pc->len};
        }
    }
    /* the executor posts receives and makes sends in program order, each after the waits of
       those before it: what a request has waited for, in effect, includes theirs */
    size_t *eff_rs = calloc(nr + 1, sizeof(size_t)), *eff_rr = calloc(nr + 1, sizeof(size_t));
    for (size_t b = 0; b < nr; b++) {
        eff_rs[b] = b && eff_rs[b - 1] > p->recvs[b].wait_sends ? eff_rs[b - 1] : p->recvs[b].wait_sends;
        eff_rr[b] = b && eff_rr[b - 1] > p->recvs[b].wait_recvs ? eff_rr[b - 1] : p->recvs[b].wait_recvs;
    }
    size_t *eff_ss = calloc(ns + 1, sizeof(size_t));
    for (size_t b = 0; b < ns; b++) {
        size_t w = b ? eff_ss[b - 1] : 0, rb = p->sends[b].recv_before;
        if (p->sends[b].wait_sends > w)
            w = p->sends[b].wait_sends;
        if (rb && eff_rs[rb - 1] > w)
            w = eff_rs[rb - 1];
        eff_ss[b] = w;
    }
    for (size_t b = 0; b < nr; b++) {
        const totex_prog_recv *rb = &p->recvs[b];
        if (rb->wait_sends > r_s[b] || rb->wait_recvs > r_r[b])
            FAIL("FAIL %s rank %u: receive %zu (step %llu) waits for sends < %zu, receives < %zu: beyond the steps "
                 "before (%zu, %zu)\n",
                 what, p->me, b, (unsigned long long)rstep[b] + 1, (size_t)rb->wait_sends, (size_t)rb->wait_recvs, r_s[b], r_r[b]);
        if (!USES_ARENA(b))
            continue;
        if (rb->arena_off + (size_t)rb->bytes > p->arena_bytes)
            FAIL("FAIL %s rank %u: receive %zu lands past the arena's %zu bytes\n", what, p->me, b, p->arena_bytes);
        for (size_t a = 0; a < b; a++) {
            const totex_prog_recv *ra = &p->recvs[a];
            if (!USES_ARENA(a) || !overlap(ra->arena_off, (size_t)ra->bytes, rb->arena_off, (size_t)rb->bytes))
                continue;
            /* the earlier receive is complete (its final blocks copied out) ... */
            if (eff_rr[b] <= a || rstep[a] >= rstep[b])
                FAIL("FAIL %s rank %u: receive %zu (step %llu) overwrites receive %zu (step %llu) without waiting for "
                     "it\n",
                     what, p->me, b, (unsigned long long)rstep[b] + 1, a, (unsigned long long)rstep[a] + 1);
            /* ... and every send that takes on a block of it from the overlapping bytes has completed */
            for (size_t k = 0; k < nreads[a]; k++) {
                const read_of *rd = &reads[a][k];
                if (!overlap(rd->off, rd->len, rb->arena_off, (size_t)rb->bytes))
                    continue;
                if (eff_rs[b] <= rd->send || sstep[rd->send] >= rstep[b])
                    FAIL("FAIL %s rank %u: receive %zu (step %llu) overwrites arena bytes [%zu, %zu) of receive %zu "
                         "that send %zu (step %llu) takes on, without waiting for that send (waits: sends < %zu)\n",
                         what, p->me, b, (unsigned long long)rstep[b] + 1, rd->off, rd->off + rd->len, a, rd->send,
                         (unsigned long long)sstep[rd->send] + 1, eff_rs[b]);
            }
        }
    }
    /* staging: a send's staged bytes (with the header in front for the carrying send) */
    for (size_t b = 0; b < ns; b++) {
        const totex_prog_send *sb = &p->sends[b];
        const size_t hb = b == p->carry_send ? TOTEX_PROG_HDR_BYTES : 0;
        if (sb->piece_count < 2 && !hb)
            continue;
        if (sb->stage_off + (size_t)sb->bytes > p->stage_bytes || sb->stage_off < hb)
            FAIL("FAIL %s rank %u: send %zu staged outside the staging area\n", what, p->me, b);
        for (size_t a = 0; a < b; a++) {
            const totex_prog_send *sa = &p->sends[a];
            const size_t ha = a == p->carry_send ? TOTEX_PROG_HDR_BYTES : 0;
            if ((sa->piece_count < 2 && !ha) ||
                !overlap(sa->stage_off - ha, (size_t)sa->bytes + ha, sb->stage_off - hb, (size_t)sb->bytes + hb))
                continue;
            if (eff_ss[b] <= a || sstep[a] >= sstep[b])
                FAIL("FAIL %s rank %u: send %zu (step %llu) reuses the staging bytes of send %zu (step %llu) "
                     "without waiting for it\n",
                     what, p->me, b, (unsigned long long)sstep[b] + 1, a, (unsigned long long)sstep[a] + 1);
        }
    }
    free(eff_rs);
    free(eff_rr);
    free(eff_ss);
    for (size_t r = 0; r < nr; r++)
        free(reads[r]);
    free(reads);
    free(nreads);
    free(capreads);
#undef USES_ARENA
out:
    free(rstep);
    free(sstep);
    free(r_r);
    free(r_s);
    free(s_r);
    free(s_s);
}

/* the share of rank me: unit-step algorithm (unit) or combining algorithm name */
static int share(totex_prog_share *l, const totex_network *net, const char *name, int unit, totex_ports ports,
                 totex_error *err)
{
    if (unit) {
        const totex_algorithm *a = totex_algorithm_find(name, err);
        return a && totex_prog_share_from_unit(l, a, net, ports, NULL, err) == TOTEX_OK;
    }
    const totex_comb_algorithm *a = totex_comb_algorithm_find(name, err);
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    totex_comb_schedule *s = NULL;
    int ok = a && a->build(net, &cost, &s, err) == TOTEX_OK && totex_prog_share_from_comb(l, s, err) == TOTEX_OK;
    totex_comb_schedule_free(s);
    return ok;
}

int main(void)
{
    static const char *nets[] = {"ring:5", "ring:4*ring:4", "ring:5*ring:7", "ring:8*ring:8", "ring:4*ring:4*ring:4",
                                 "ring:3*k2*ring:4", "ring:16*ring:16"};
    static const struct {
        const char *name;
        int unit;
        totex_ports ports;
    } algs[] = {{"octr", 1, TOTEX_PORTS_MULTI},       {"sym2", 1, TOTEX_PORTS_MULTI}, {"a3", 1, TOTEX_PORTS_MULTI},
                {"greedy-sym", 1, TOTEX_PORTS_MULTI}, {"a2", 1, TOTEX_PORTS_SINGLE},  {"direct", 0, 0},
                {"bruck", 0, 0},                      {"dimwise", 0, 0}};
    const long long slot = 1000;
    int programs = 0, reused = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        totex_error err;
        totex_network *net = totex_network_parse(nets[ni], &err);
        if (!net) {
            fprintf(stderr, "FAIL %s: %s\n", nets[ni], err.msg);
            return 1;
        }
        const uint32_t n = totex_network_nodes(net);
        for (size_t ai = 0; ai < sizeof algs / sizeof algs[0]; ai++) {
            if (algs[ai].unit) {
                const totex_algorithm *a = totex_algorithm_find(algs[ai].name, &err);
                if (!a || a->applies(net, algs[ai].ports, &err) != TOTEX_OK)
                    continue;
            }
            for (int chunks = 1; chunks <= 3; chunks += 2)
                for (int tight = 1; tight >= 0; tight--) {
                    char what[160];
                    snprintf(what, sizeof what, "%s on %s, %d chunk%s, %s arena", algs[ai].name, nets[ni], chunks,
                             chunks > 1 ? "s" : "", tight ? "tightest" : "default");
                    double worst = 0, recvd = 0, arena = 0;
                    /* every rank up to 64 ranks; a few beyond */
                    const uint32_t stride = n > 64 ? n / 5 : 1;
                    int checked = 0;
                    for (uint32_t me = 0; me < n; me += stride) {
                        totex_prog_share l;
                        totex_prog_share_init(&l, n, me);
                        if (!share(&l, net, algs[ai].name, algs[ai].unit, algs[ai].ports, &err)) {
                            totex_prog_share_free(&l);
                            if (algs[ai].unit || !strstr(err.msg, "appl")) /* a combining one may not apply */
                                FAIL("FAIL %s rank %u: %s\n", what, me, err.msg);
                            break;
                        }
                        totex_prog *p = calloc(1, sizeof *p);
                        p->slot = slot;
                        p->n = n;
                        p->me = me;
                        p->algorithm = algs[ai].name;
                        p->arena_cap = tight ? 0 : (size_t)TOTEX_PROG_ARENA_BLOCKS_PER_RANK * n * (size_t)slot;
                        p->pad = tight && chunks == 3 ? 512 : 0; /* short messages padded (chunks of ~333 bytes) */
                        char why[300] = "";
                        if (prog_test_compile(p, &l, chunks, algs[ai].unit, 0, why, sizeof why) != 0) {
                            FAIL("FAIL %s rank %u: %s\n", what, me, why);
                        } else {
                            check(what, p, &l);
                            double r = 0;
                            for (size_t i = 0; i < p->nrecv; i++)
                                r += p->recvs[i].in_place_ok && i != p->carry_recv ? 0 : p->recvs[i].bytes;
                            recvd += r;
                            arena += (double)p->arena_bytes;
                            if ((double)p->arena_bytes / slot > worst)
                                worst = (double)p->arena_bytes / slot;
                            programs++;
                            checked++;
                        }
                        totex_prog_free(p);
                        totex_prog_share_free(&l);
                    }
                    if (!checked)
                        continue;
                    if (tight && n >= 64 && algs[ai].unit && !(arena < recvd))
                        FAIL("FAIL %s: the tightest arena holds %.0f bytes, all %.0f received: no reuse\n", what,
                             arena, recvd);
                    reused += arena < recvd;
                    if (chunks == 1)
                        printf("test_arena: %-48s n %4u: arena at most %6.0f blocks (%.2f n), received %8.0f blocks "
                               "per rank\n",
                               what, n, worst, worst / n, recvd / slot / checked);
                }
        }
        totex_network_free(net);
    }
    printf("test_arena: %d programs, %d cases with reuse: %s (%d failures)\n", programs, reused,
           failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
