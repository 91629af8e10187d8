/* The program's entries packed into byte streams and read back (code.h). */
#include <stdlib.h>
#include <string.h>

#include "code.h"

/* a receive's flags and final-block count as one word */
static uint64_t recv_flags(const totex_prog_recv *r)
{
    return (uint64_t)r->fin_count << 8 | (uint64_t)r->in_place_ok | (uint64_t)r->chunk << 1 |
           (uint64_t)r->kick << 6 | (uint64_t)r->whole << 7;
}

static uint64_t zig(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzig(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* room for @p more bytes; -1 when out of memory */
static int reserve(totex_prog_code *code, size_t more)
{
    if (code->len + more <= code->cap)
        return 0;
    size_t cap = code->cap ? code->cap : 4096;
    while (cap < code->len + more)
        cap *= 2;
    uint8_t *b = realloc(code->b, cap);
    if (!b)
        return -1;
    code->b = b;
    code->cap = cap;
    return 0;
}

static void put(totex_prog_code *code, uint64_t v)
{
    while (v >= 0x80) {
        code->b[code->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    code->b[code->len++] = (uint8_t)v;
}

static uint64_t get(const uint8_t *b, size_t *pos)
{
    uint64_t v = 0;
    for (unsigned s = 0;; s += 7) {
        const uint8_t x = b[(*pos)++];
        v |= (uint64_t)(x & 0x7f) << s;
        if (!(x & 0x80))
            return v;
    }
}

#define MAXV 10 /* bytes of one 64-bit varint, at most */

void totex_prog_rcur_init(totex_prog_rcur *c)
{
    memset(c, 0, sizeof *c);
}

void totex_prog_scur_init(totex_prog_scur *c)
{
    memset(c, 0, sizeof *c);
}

int totex_prog_code_recv(totex_prog_code *code, const totex_prog_recv *prev, const totex_prog_recv *rv)
{
    if (reserve(code, 1 + 7 * MAXV))
        return -1;
    const uint64_t fl = recv_flags(rv), pfl = recv_flags(prev);
    const uint32_t fin = prev->fin_first + prev->fin_count; /* (the next receive's finals follow) */
    const size_t head = code->len++;
    uint8_t m = 0;
    if (rv->peer != prev->peer) {
        m |= 1;
        put(code, zig((int64_t)rv->peer - prev->peer));
    }
    if (rv->bytes != prev->bytes) {
        m |= 2;
        put(code, zig((int64_t)rv->bytes - prev->bytes));
    }
    if (rv->arena_off != prev->arena_off) {
        m |= 4;
        put(code, zig((int64_t)(rv->arena_off - prev->arena_off)));
    }
    if (rv->wait_sends != prev->wait_sends) {
        m |= 8;
        put(code, zig((int64_t)rv->wait_sends - prev->wait_sends));
    }
    if (rv->wait_recvs != prev->wait_recvs) {
        m |= 16;
        put(code, zig((int64_t)rv->wait_recvs - prev->wait_recvs));
    }
    if (rv->fin_first != fin) {
        m |= 32;
        put(code, zig((int64_t)rv->fin_first - fin));
    }
    if (fl != pfl) {
        m |= 64;
        put(code, fl);
    }
    code->b[head] = m;
    return 0;
}

void totex_prog_recv_next(const uint8_t *b, totex_prog_rcur *c, totex_prog_recv *rv)
{
    const totex_prog_recv *pv = &c->prev;
    size_t pos = c->pos;
    const uint8_t m = b[pos++];
    *rv = *pv;
    rv->fin_first = pv->fin_first + pv->fin_count;
    if (m & 1)
        rv->peer = (int)(pv->peer + unzig(get(b, &pos)));
    if (m & 2)
        rv->bytes = (int)(pv->bytes + unzig(get(b, &pos)));
    if (m & 4)
        rv->arena_off = pv->arena_off + (size_t)unzig(get(b, &pos));
    if (m & 8)
        rv->wait_sends = (uint32_t)(pv->wait_sends + unzig(get(b, &pos)));
    if (m & 16)
        rv->wait_recvs = (uint32_t)(pv->wait_recvs + unzig(get(b, &pos)));
    if (m & 32)
        rv->fin_first = (uint32_t)(rv->fin_first + unzig(get(b, &pos)));
    if (m & 64) {
        const uint64_t fl = get(b, &pos);
        rv->fin_count = (uint32_t)(fl >> 8) & (TOTEX_PROG_FIN_MAX - 1);
        rv->in_place_ok = (uint32_t)fl & 1u;
        rv->chunk = (uint32_t)(fl >> 1) & 31u;
        rv->kick = (uint32_t)(fl >> 6) & 1u;
        rv->whole = (uint32_t)(fl >> 7) & 1u;
    }
    c->pos = pos;
    c->prev = *rv;
}

/* a send's first byte: its flags (sync patched in place later) and which fields follow */
enum { S_SYNC = 1, S_KICK = 2, S_PEER = 4, S_BYTES = 8, S_STAGE = 16, S_WAIT = 32, S_BEFORE = 64, S_COUNTS = 128 };
/* a piece's first byte: its base (2 bits) and which fields follow */
enum { P_LEN = 4, P_OFF = 8 };

int totex_prog_code_send(totex_prog_code *code, totex_prog_scur *c, const totex_prog_send *sd,
                         const uint32_t *deps, const totex_prog_piece *pieces, size_t *at)
{
    if (reserve(code, 1 + 7 * MAXV + (size_t)sd->dep_count * MAXV + (size_t)sd->piece_count * (1 + 2 * MAXV)))
        return -1;
    const totex_prog_send *pv = &c->prev;
    const size_t head = code->len++;
    uint8_t m = (uint8_t)((sd->sync ? S_SYNC : 0) | (sd->kick ? S_KICK : 0));
    if (sd->peer != pv->peer) {
        m |= S_PEER;
        put(code, zig((int64_t)sd->peer - pv->peer));
    }
    if (sd->bytes != pv->bytes) {
        m |= S_BYTES;
        put(code, zig((int64_t)sd->bytes - pv->bytes));
    }
    if (sd->stage_off != pv->stage_off) {
        m |= S_STAGE;
        put(code, zig((int64_t)(sd->stage_off - pv->stage_off)));
    }
    if (sd->wait_sends != pv->wait_sends) {
        m |= S_WAIT;
        put(code, zig((int64_t)sd->wait_sends - pv->wait_sends));
    }
    if (sd->recv_before != pv->recv_before) {
        m |= S_BEFORE;
        put(code, zig((int64_t)sd->recv_before - pv->recv_before));
    }
    if (sd->piece_count != pv->piece_count || sd->dep_count != pv->dep_count) {
        m |= S_COUNTS;
        put(code, sd->piece_count);
        put(code, sd->dep_count);
    }
    code->b[head] = m;
    for (uint32_t k = 0; k < sd->dep_count; k++) {
        put(code, zig((int64_t)deps[k] - c->dep));
        c->dep = deps[k];
    }
    for (uint32_t k = 0; k < sd->piece_count; k++) {
        const totex_prog_piece *pc = &pieces[k];
        const size_t ph = code->len++;
        uint8_t pm = (uint8_t)(pc->base & 3u);
        if (pc->len != c->piece.len) {
            pm |= P_LEN;
            put(code, zig((int64_t)pc->len - c->piece.len));
        }
        if (pc->off != c->piece.off) {
            pm |= P_OFF;
            put(code, zig((int64_t)(pc->off - c->piece.off)));
        }
        code->b[ph] = pm;
        c->piece = *pc;
    }
    c->prev = *sd;
    c->prev.sync = 0; /* (as the reader sees the stream: sync may be set later, and is not compared) */
    c->prev.piece_first = pv->piece_first + pv->piece_count;
    c->prev.dep_first = pv->dep_first + pv->dep_count;
    c->pos = code->len;
    *at = head;
    return 0;
}

void totex_prog_code_set_sync(totex_prog_code *code, size_t at)
{
    code->b[at] |= S_SYNC;
}

uint32_t totex_prog_dep_next(const uint8_t *b, totex_prog_body *it)
{
    it->dep = (uint32_t)(it->dep + unzig(get(b, &it->pos)));
    it->left--;
    return it->dep;
}

void totex_prog_piece_next(const uint8_t *b, totex_prog_body *it, totex_prog_piece *pc)
{
    const uint8_t pm = b[it->pos++];
    *pc = it->piece;
    pc->base = pm & 3u;
    if (pm & P_LEN)
        pc->len = (uint32_t)(pc->len + unzig(get(b, &it->pos)));
    if (pm & P_OFF)
        pc->off = pc->off + (size_t)unzig(get(b, &it->pos));
    it->piece = *pc;
    it->left--;
}

void totex_prog_send_next(const uint8_t *b, totex_prog_scur *c, totex_prog_send *sd, totex_prog_body *deps,
                          totex_prog_body *pieces)
{
    const totex_prog_send *pv = &c->prev;
    size_t pos = c->pos;
    const uint8_t m = b[pos++];
    *sd = *pv;
    sd->piece_first = pv->piece_first + pv->piece_count;
    sd->dep_first = pv->dep_first + pv->dep_count;
    sd->sync = (m & S_SYNC) != 0;
    sd->kick = (m & S_KICK) != 0;
    if (m & S_PEER)
        sd->peer = (int)(pv->peer + unzig(get(b, &pos)));
    if (m & S_BYTES)
        sd->bytes = (int)(pv->bytes + unzig(get(b, &pos)));
    if (m & S_STAGE)
        sd->stage_off = pv->stage_off + (size_t)unzig(get(b, &pos));
    if (m & S_WAIT)
        sd->wait_sends = (uint32_t)(pv->wait_sends + unzig(get(b, &pos)));
    if (m & S_BEFORE)
        sd->recv_before = (uint32_t)(pv->recv_before + unzig(get(b, &pos)));
    if (m & S_COUNTS) {
        sd->piece_count = (uint32_t)get(b, &pos) & (TOTEX_PROG_PIECES_MAX - 1);
        sd->dep_count = (uint32_t)get(b, &pos);
    }
    totex_prog_body it = {pos, sd->dep_count, c->dep, c->piece};
    if (deps)
        *deps = it;
    for (uint32_t k = 0; k < sd->dep_count; k++)
        totex_prog_dep_next(b, &it);
    c->dep = it.dep;
    it.left = sd->piece_count;
    if (pieces)
        *pieces = it;
    totex_prog_piece pc;
    for (uint32_t k = 0; k < sd->piece_count; k++)
        totex_prog_piece_next(b, &it, &pc);
    c->piece = it.piece;
    c->pos = it.pos;
    c->prev = *sd;
    c->prev.sync = 0;
}

totex_status totex_prog_expand(totex_prog *p)
{
    free(p->recvs);
    free(p->sends);
    free(p->pieces);
    free(p->deps);
    p->recvs = NULL;
    p->sends = NULL;
    p->pieces = NULL;
    p->deps = NULL;
    size_t npieces = 0, ndeps = 0;
    totex_prog_scur sc;
    totex_prog_scur_init(&sc);
    totex_prog_send sd;
    for (size_t i = 0; i < p->nsend; i++) {
        totex_prog_send_next(p->scode, &sc, &sd, NULL, NULL);
        npieces += sd.piece_count;
        ndeps += sd.dep_count;
    }
    p->recvs = calloc(p->nrecv ? p->nrecv : 1, sizeof *p->recvs);
    p->sends = calloc(p->nsend ? p->nsend : 1, sizeof *p->sends);
    p->pieces = calloc(npieces ? npieces : 1, sizeof *p->pieces);
    p->deps = calloc(ndeps ? ndeps : 1, sizeof *p->deps);
    if (!p->recvs || !p->sends || !p->pieces || !p->deps)
        return TOTEX_ENOMEM;
    totex_prog_rcur rc;
    totex_prog_rcur_init(&rc);
    for (size_t r = 0; r < p->nrecv; r++)
        totex_prog_recv_next(p->rcode, &rc, &p->recvs[r]);
    totex_prog_scur_init(&sc);
    for (size_t i = 0; i < p->nsend; i++) {
        totex_prog_body dit, pit;
        totex_prog_send_next(p->scode, &sc, &p->sends[i], &dit, &pit);
        for (uint32_t k = 0; k < p->sends[i].dep_count; k++)
            p->deps[p->sends[i].dep_first + k] = totex_prog_dep_next(p->scode, &dit);
        for (uint32_t k = 0; k < p->sends[i].piece_count; k++)
            totex_prog_piece_next(p->scode, &pit, &p->pieces[p->sends[i].piece_first + k]);
    }
    return TOTEX_OK;
}
