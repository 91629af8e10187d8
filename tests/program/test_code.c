/* The program's packed entries (src/program/code.h): receives and sends with
 * their dependencies and pieces, drawn at random over the whole range of every
 * field (offsets past 4 GiB, INT_MAX bytes, 2^24 - 1 final blocks, 32-bit
 * dependencies, runs of equal entries), some sends marked synchronous after
 * later sends were written (as the compiler does), written to the streams
 * and read back: every field of every entry equals the one drawn, read by the
 * cursors in order and by totex_prog_expand(), and the dependencies and
 * pieces of a send read again from where the send left them. The drawn arrays
 * are the reference: nothing here decodes them another way. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;
/* (each message ends in a new line) */
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        if (!(c))                                                                                                      \
            PROG_FAIL(__VA_ARGS__);                                                                                    \
    } while (0)

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    return prog_test_next(&rng);
}

/* a value of at most @p bits bits: often 0, often the previous one's neighbour, sometimes anything */
static uint64_t draw(unsigned bits, uint64_t prev)
{
    const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    switch (next() % 5) {
    case 0:
        return 0;
    case 1:
        return prev & mask;
    case 2:
        return (prev + next() % 3) & mask;
    case 3:
        return (prev - next() % 300) & mask;
    default:
        return next() & mask;
    }
}

static int recv_eq(const totex_prog_recv *a, const totex_prog_recv *b)
{
    return a->peer == b->peer && a->bytes == b->bytes && a->arena_off == b->arena_off &&
           a->wait_sends == b->wait_sends && a->wait_recvs == b->wait_recvs && a->fin_first == b->fin_first &&
           a->fin_count == b->fin_count && a->in_place_ok == b->in_place_ok && a->chunk == b->chunk &&
           a->kick == b->kick && a->whole == b->whole;
}

static int send_eq(const totex_prog_send *a, const totex_prog_send *b)
{
    return a->peer == b->peer && a->bytes == b->bytes && a->stage_off == b->stage_off &&
           a->piece_first == b->piece_first && a->piece_count == b->piece_count && a->sync == b->sync &&
           a->kick == b->kick && a->dep_first == b->dep_first && a->dep_count == b->dep_count &&
           a->wait_sends == b->wait_sends && a->recv_before == b->recv_before;
}

static void trial(size_t nr, size_t ns)
{
    totex_prog_recv *rv = calloc(nr + 1, sizeof *rv);
    totex_prog_send *sd = calloc(ns + 1, sizeof *sd);
    size_t cap = ns * 8 + 1, np = 0, nd = 0;
    totex_prog_piece *pc = calloc(cap, sizeof *pc);
    uint32_t *dp = calloc(cap, sizeof *dp);
    size_t *at = calloc(ns + 1, sizeof *at);
    totex_prog_code rcode = {0}, scode = {0};
    if (!rv || !sd || !pc || !dp || !at) {
        CHECK(0, "FAIL out of memory\n");
        goto done;
    }
    /* receives: drawn, written one after another */
    totex_prog_recv prev = {0};
    uint32_t fin = 0;
    for (size_t r = 0; r < nr; r++) {
        totex_prog_recv *v = &rv[r];
        v->peer = (int)draw(31, (uint64_t)prev.peer);
        v->bytes = (int)draw(31, (uint64_t)prev.bytes);
        v->arena_off = (size_t)draw(sizeof(size_t) * 8, prev.arena_off);
        v->wait_sends = (uint32_t)draw(32, prev.wait_sends);
        v->wait_recvs = (uint32_t)draw(32, prev.wait_recvs);
        v->fin_first = next() % 4 ? fin : (uint32_t)draw(32, fin); /* mostly where the finals go on */
        v->fin_count = (uint32_t)draw(24, prev.fin_count);
        v->in_place_ok = (uint32_t)next() & 1u;
        v->chunk = (uint32_t)next() % TOTEX_PROG_MAX_CHUNKS;
        v->kick = (uint32_t)next() & 1u;
        v->whole = (uint32_t)next() & 1u;
        fin = v->fin_first + v->fin_count;
        CHECK(totex_prog_code_recv(&rcode, &prev, v) == 0, "FAIL receive %zu not written\n", r);
        prev = *v;
    }
    /* sends with their dependencies and pieces; sync set on earlier ones afterwards */
    totex_prog_scur c;
    totex_prog_scur_init(&c);
    for (size_t i = 0; i < ns; i++) {
        totex_prog_send *s = &sd[i];
        const totex_prog_send *q = i ? &sd[i - 1] : &(totex_prog_send){0};
        s->peer = (int)draw(31, (uint64_t)q->peer);
        s->bytes = (int)draw(31, (uint64_t)q->bytes);
        s->stage_off = (size_t)draw(sizeof(size_t) * 8, q->stage_off);
        s->kick = (uint32_t)next() & 1u;
        s->wait_sends = (uint32_t)draw(32, q->wait_sends);
        s->recv_before = (uint32_t)draw(32, q->recv_before);
        s->piece_count = (uint32_t)(next() % 6 ? next() % 4 : next() % 8);
        s->dep_count = (uint32_t)(next() % 4);
        s->piece_first = (uint32_t)np;
        s->dep_first = (uint32_t)nd;
        for (uint32_t k = 0; k < s->dep_count; k++, nd++)
            dp[nd] = (uint32_t)draw(32, nd ? dp[nd - 1] : 0);
        for (uint32_t k = 0; k < s->piece_count; k++, np++) {
            const totex_prog_piece *pp = np ? &pc[np - 1] : &(totex_prog_piece){0, 0, 0};
            pc[np].base = (uint32_t)next() % 3;
            pc[np].len = (uint32_t)draw(31, pp->len);
            pc[np].off = (size_t)draw(sizeof(size_t) * 8, pp->off);
        }
        CHECK(totex_prog_code_send(&scode, &c, s, dp + s->dep_first, pc + s->piece_first, &at[i]) == 0,
              "FAIL send %zu not written\n", i);
        if (i && next() % 3 == 0) { /* an earlier send becomes synchronous (the window's, compile.c) */
            const size_t j = (size_t)(next() % i);
            sd[j].sync = 1;
            totex_prog_code_set_sync(&scode, at[j]);
        }
    }
    /* read back in order by the cursors */
    totex_prog_rcur rc;
    totex_prog_rcur_init(&rc);
    for (size_t r = 0; r < nr; r++) {
        totex_prog_recv v;
        totex_prog_recv_next(rcode.b, &rc, &v);
        CHECK(recv_eq(&v, &rv[r]), "FAIL receive %zu of %zu read back differs\n", r, nr);
    }
    CHECK(rc.pos == rcode.len, "FAIL receives read %zu bytes of %zu\n", rc.pos, rcode.len);
    totex_prog_scur sc;
    totex_prog_scur_init(&sc);
    for (size_t i = 0; i < ns; i++) {
        totex_prog_send s;
        totex_prog_body dit, pit;
        totex_prog_send_next(scode.b, &sc, &s, &dit, &pit);
        CHECK(send_eq(&s, &sd[i]), "FAIL send %zu of %zu read back differs\n", i, ns);
        for (uint32_t k = 0; k < s.dep_count && k < sd[i].dep_count; k++)
            CHECK(totex_prog_dep_next(scode.b, &dit) == dp[sd[i].dep_first + k], "FAIL send %zu dependency %u differs\n", i, k);
        for (uint32_t k = 0; k < s.piece_count && k < sd[i].piece_count; k++) {
            totex_prog_piece p;
            totex_prog_piece_next(scode.b, &pit, &p);
            const totex_prog_piece *e = &pc[sd[i].piece_first + k];
            CHECK(p.base == e->base && p.len == e->len && p.off == e->off, "FAIL send %zu piece %u differs\n", i, k);
        }
    }
    CHECK(sc.pos == scode.len, "FAIL sends read %zu bytes of %zu\n", sc.pos, scode.len);
    /* and as arrays (the tests' view) */
    totex_prog *p = calloc(1, sizeof *p);
    if (!p) {
        CHECK(0, "FAIL out of memory\n");
        goto done;
    }
    p->nrecv = nr;
    p->nsend = ns;
    p->rcode = rcode.b;
    p->scode = scode.b;
    rcode.b = scode.b = NULL;
    CHECK(totex_prog_expand(p) == TOTEX_OK, "FAIL no expansion\n");
    for (size_t r = 0; p->recvs && r < nr; r++)
        CHECK(recv_eq(&p->recvs[r], &rv[r]), "FAIL expanded receive %zu differs\n", r);
    for (size_t i = 0; p->sends && i < ns; i++)
        CHECK(send_eq(&p->sends[i], &sd[i]), "FAIL expanded send %zu differs\n", i);
    CHECK(p->deps && !memcmp(p->deps, dp, nd * sizeof *dp), "FAIL expanded dependencies differ\n");
    for (size_t k = 0; p->pieces && k < np; k++)
        CHECK(p->pieces[k].base == pc[k].base && p->pieces[k].len == pc[k].len && p->pieces[k].off == pc[k].off,
              "FAIL expanded piece %zu differs\n", k);
    totex_prog_free(p);
done:
    free(rcode.b);
    free(scode.b);
    free(rv);
    free(sd);
    free(pc);
    free(dp);
    free(at);
}

int main(void)
{
    trial(0, 0);
    trial(1, 1);
    for (int t = 0; t < 200; t++)
        trial((size_t)(next() % 300), (size_t)(next() % 300));
    trial(100000, 100000);
    if (failures)
        return 1;
    printf("program_code: ok\n");
    return 0;
}
