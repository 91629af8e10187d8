/* Compiler of totex_alltoall's programs: this rank's share of a schedule
 * (share.h: a combining schedule's transfers, or a unit-step schedule's hops
 * grouped per link and step) into the program run.c runs: its receives and
 * sends in step order, where each block it sends lies (its send blocks or the
 * arena of received blocks), which receives each send waits for, and where
 * each block destined to it ends up.
 *
 * Pipelining: with c chunks, every transfer becomes c messages, chunk i
 * carrying bytes [slot * i / c, slot * (i + 1) / c) of each of its blocks; a
 * forwarded chunk waits only for the chunk of the receive that brought it, so
 * a relayed message moves on chunk by chunk as its chunks arrive (cut-through
 * at application level), and the c chunks of a link travel as concurrent
 * messages. Both ends of a link post its messages in the same order (step,
 * transfer, chunk), so they match under MPI's non-overtaking rule.
 *
 * Window: with w > 0, chunk i of a link's q-th transfer also waits until
 * chunk i of its (q - w)-th transfer has been received (that send, and only
 * a send some later one waits for, is synchronous (MPI_Issend in the runtime), so its
 * completion says so): each of the c lanes of a link carries at most w
 * messages at a time, in step order,
 * as the unit-step schedule has it, instead of every message whose data is
 * ready competing for the link at once (the rank's own blocks of all steps
 * from the start).
 *
 * Relayed blocks ahead (p->own_whole, a combining program in c > 1 chunks):
 * only the transfers that carry relayed blocks (a block the sender received,
 * or one the receiver sends on) travel in c chunks; a transfer of the
 * sender's own blocks, all destined to the receiver, travels whole, one
 * message (or in p->own_whole > 1 messages of c / own_whole chunks each:
 * under SimGrid's default factors 8 KiB messages get more of a link than
 * 16 KiB ones). Where links share their bandwidth fairly among the messages that
 * cross them (SimGrid SMPI, TCP), a relayed block in c messages gets c shares
 * against a direct block's one, so it reaches its relay sooner and goes on
 * while the direct messages still move (direct-relay, src/combining/relay.c;
 * docs/performance.md).
 *
 * Padding: with p->pad > 0, a message shorter than p->pad bytes travels as
 * p->pad bytes (staged, its tail zero; received into the arena, never in
 * place), where a larger message arrives sooner than a short one (choice.c). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "blockmap.h"
#include "code.h"
#include "compile.h"
#include "totex/common.h"

/* p->own_whole = W >= 1: a transfer of the sender's own blocks, all destined to the receiver, travels in W
   messages (W = 1: whole, bytes [0, slot) of its blocks; else message j its blocks' chunks j c / W ..
   (j + 1) c / W - 1, c / W chunks each) while the others travel in c chunks; returns the chunks one of its
   messages spans (c / W), or 0: the transfer travels in c chunks like the others */
static int whole_xfer(const totex_prog *p, const totex_prog_xfer *tr, const totex_block *bl)
{
    if (p->chunks < 2 || p->own_whole < 1 || p->chunks % p->own_whole)
        return 0;
    for (size_t k = 0; k < tr->count; k++)
        if (bl[k].src != tr->from || bl[k].dst != tr->to)
            return 0;
    return p->chunks / p->own_whole;
}

/* bytes of chunks ci .. ci + span - 1 of a block */
static size_t span_len(const totex_prog *p, int ci, int span)
{
    return totex_prog_chunk_lo(p, ci + span) - totex_prog_chunk_lo(p, ci);
}

/* a block this rank holds (received, not final): receive of chunk 0, position in it */
typedef struct held {
    size_t recv, pos;
    size_t sent; /* chunks of it sent on so far: each leaves once (its arena bytes are then freed) */
} held;


totex_status totex_prog_compile(totex_prog *p, const totex_prog_share *l, int chunks, int window, int stagger,
                                totex_error *err)
{
    /* the whole share as one segment: the source only reads it */
    totex_prog_share_src src = {(totex_prog_share *)(uintptr_t)l, NULL, 0, 0};
    return totex_prog_compile_src(p, &src, chunks, window, stagger, err);
}

totex_status totex_prog_compile_src(totex_prog *p, totex_prog_share_src *src, int chunks, int window, int stagger,
                                    totex_error *err)
{
    const totex_prog_share *l = src->l;
    const uint32_t me = p->me, n = p->n, pred_rank = p->ring_set ? p->ring_pred : (me + n - 1) % n,
                   succ_rank = p->ring_set ? p->ring_succ : (me + 1) % n;
    if (l->pred != pred_rank) { /* its sends decide what rides on the link pred -> me: the share must have them */
        snprintf(err->msg, sizeof err->msg, "rank %u's share keeps the sends of rank %u, not of its ring predecessor %u (a bug)", me,
                 l->pred, pred_rank);
        return TOTEX_EVIOLATION;
    }
    const size_t slot = (size_t)p->slot;
    if (chunks > TOTEX_PROG_MAX_CHUNKS)
        chunks = TOTEX_PROG_MAX_CHUNKS;
    const int c = chunks < 1 ? 1 : (long long)chunks > p->slot ? (int)(p->slot > 0 ? p->slot : 1) : chunks;
    p->chunks = c;
    p->window = window > 0 ? window : 0;
    if (p->pad > TOTEX_PROG_PAD_MAX) /* carried behind the check's header: at most TOTEX_PROG_CARRY_MAX */
        p->pad = TOTEX_PROG_PAD_MAX;
    size_t len[TOTEX_PROG_MAX_CHUNKS], lo[TOTEX_PROG_MAX_CHUNKS];
    for (int i = 0; i < c; i++) {
        lo[i] = totex_prog_chunk_lo(p, i);
        len[i] = totex_prog_chunk_lo(p, i + 1) - lo[i];
    }
    size_t nr = 0, ns = 0, nblocks = 0, nheld = 0;
    /* The check's header may ride on the first message on the links pred -> me
       and me -> succ (the check's ring, p->ring_*) only if that message is short and carries its sender's
       own blocks only (as do all its sends up to it): run.c then makes it first,
       before waiting for anything, with staging bytes of its own (below), so that
       a header always leaves even when a mismatch stalls the exchange (in program
       order it could sit behind a wait that never ends: a window's earlier
       synchronous send to a rank in another plan). Both ends decide
       from the same share. carry[0]: link from pred (a
       decision of pred's sends), carry[1]: link to succ (of this rank's).
       A staggered plan carries it on the link's first kick instead (below). */
    const uint32_t ends[2][2] = {{pred_rank, me}, {me, succ_rank}};
    int carry[2] = {0, 0}, decided[2] = {0, 0}, own_so_far[2] = {1, 1}, started[2] = {0, 0};
    uint64_t first_step[2] = {0, 0};
    /* staggered lanes (below): sends of lanes 1 .. c - 1 wait for kicks, and a
       step's lane-0 sends come before them; a header rides only on a message of
       its sender's first step */
    p->stagger = stagger && c > 1 && n > 1;
    /* stagger (c > 1): every link that carries data carries c - 1 short
       kicks (TOTEX_PROG_KICK_BYTES; tag of their own, TOTEX_MPI_KICK_TAG: they match among
       themselves), kick i + 1 leaving when kick i from the peer has arrived
       (kick 1 at once); lane i of the link starts when kick i from its peer
       has arrived, i latencies after lane 0. Both ends of a link then run
       lane i behind lane 0 by about i latencies, so that the lanes' start-ups
       (and the hand-overs of their synchronous sends, window above) fall in
       other lanes' transfers instead of every lane starting, and paying them,
       at once: on one link with fair sharing, lanes that start together stay
       together, and lanes one latency apart alternate (choice.c). */
    size_t *kick = p->stagger ? calloc(n, sizeof *kick) : NULL; /* peer -> its kick 1 receive + 1 (kick i: + i - 1) */
    size_t *kick_to = p->stagger ? calloc(n, sizeof *kick_to) : NULL; /* peer -> sends data to it */
    uint32_t *kpeer = p->stagger ? calloc(n, sizeof *kpeer) : NULL; /* the peers of the kicks' receives, in order */
    size_t nkr = 0, nks = 0, nfrom = 0, nto = 0;
    /* kick rounds before the data (p->sync_rounds, D): round 1 to every peer of a link at once, round k + 1
       once round k has come from every peer, and the first data of every link's lane 0 once round D has.
       Kick 1 (of the lanes) then leaves with it. The chain of kicks of a link is its D rounds, then its
       c - 1 lanes' kicks (receive kick[r] - 1 + j: round j + 1 for j < D, else lane kick j - D + 1).
       Why: a round takes every rank's latest start over its peers, so after as many rounds as the
       network's diameter every rank starts its data at the same moment (on SimGrid exactly: the same
       latency on every link): lanes staggered one latency apart stay so only when the ranks start
       together. After a barrier, whose exits are several latencies apart, lanes that relay each other's
       blocks merge within a few steps, and every step pays a latency again: on SimGrid 8x8 at 64 KiB,
       octr in 2 staggered chunks took 503 us after a barrier against 442 us in a call that followed
       another (all ranks ended it together), 450 us with 8 rounds first (docs/performance.md). */
    const size_t D = p->stagger ? p->sync_rounds : 0, nk = D + (size_t)c - 1;
    if (p->stagger && (!kick || !kick_to || !kpeer)) {
        free(kick);
        free(kick_to);
        free(kpeer);
        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
        return TOTEX_ENOMEM;
    }
    /* the share in segments of whole steps (share.h), read twice: counted here, compiled below */
    totex_status rc1 = TOTEX_OK, sst = TOTEX_OK;
    int more;
    totex_prog_share_src_rewind(src);
    while (rc1 == TOTEX_OK && (more = totex_prog_share_src_next(src, &sst, err)) > 0) {
        for (size_t x = 0; x < l->nx && rc1 == TOTEX_OK; x++) {
            const totex_prog_xfer *tr = &l->x[x];
            const totex_block *bl = l->b + tr->first;
            if (!tr->count)
                continue;
            const int wx = whole_xfer(p, tr, bl);
            /* bytes per block of its first message (the one a header may ride on) and of its longest (the last:
               chunk boundaries are rounded down) */
            const size_t mlen = wx ? span_len(p, 0, wx) : len[0], mmax = wx ? span_len(p, c - wx, wx) : len[c - 1];
            if ((long long)tr->count * (long long)mmax > INT_MAX) {
                snprintf(err->msg, sizeof err->msg, "a message of %zu blocks of %zu bytes exceeds INT_MAX bytes", tr->count, mmax);
                rc1 = TOTEX_EOVERFLOW;
            break;
            }
            const size_t cx = wx ? (size_t)(c / wx) : (size_t)c;
            if (tr->to == me) {
                nr += cx;
                nheld += tr->count;
            }
            if (tr->from == me) {
                ns += cx;
                nblocks += tr->count * cx;
            }
            for (int e = 0; e < 2; e++) {
                if (decided[e] || tr->from != ends[e][0])
                    continue;
                for (size_t k = 0; k < tr->count; k++)
                    own_so_far[e] &= bl[k].src == tr->from;
                if (!started[e]) {
                    started[e] = 1;
                    first_step[e] = tr->step;
                }
                if (p->stagger && tr->step != first_step[e])
                    own_so_far[e] = 0;
                if (tr->to == ends[e][1]) {
                    decided[e] = 1;
                    carry[e] = own_so_far[e] &&
                               (long long)(tr->count * mlen) <= TOTEX_PROG_CARRY_MAX;
                }
            }
        }
        for (size_t x = 0; p->stagger && rc1 == TOTEX_OK && x < l->nx; x++) {
            const totex_prog_xfer *tr = &l->x[x];
            if (tr->count && tr->to == me && !kick[tr->from]) {
                kick[tr->from] = nkr + 1;
                nkr += nk;
                kpeer[nfrom++] = tr->from;
            }
            if (tr->count && tr->from == me && !kick_to[tr->to]) {
                kick_to[tr->to] = 1;
                nks += nk;
                nto++;
            }
        }
    }
    if (rc1 == TOTEX_OK && more < 0)
        rc1 = sst;
    if (rc1 != TOTEX_OK) {
        free(kick);
        free(kick_to);
        free(kpeer);
        return rc1;
    }
    p->steps = l->steps;
    nr += nkr;
    ns += nks;
    if (nr >= UINT32_MAX || ns >= UINT32_MAX || nblocks >= UINT32_MAX - ns || nr >= UINT32_MAX - ns - nblocks) {
        /* the entries' indexes are 32-bit (program.h): dependencies count to nrecv + nsend, pieces to nblocks */
        free(kick);
        free(kick_to);
        free(kpeer);
        snprintf(err->msg, sizeof err->msg,
                 "rank %u's program would have %zu receives and %zu sends of %zu blocks: 2^32 or more, over what a "
                 "program can index (fewer ranks or chunks per transfer)",
                 me, nr, ns, nblocks);
        return TOTEX_EOVERFLOW;
    }
    p->nrecv = nr;
    p->nsend = ns;
    p->finals = calloc(n, sizeof *p->finals);
    /* the entries are packed as they are made (code.h): a receive or a send is written once all its
       fields are known, against the one before it; only a send's sync flag is set later, in place */
    totex_prog_code rcode = {0}, scode = {0};
    totex_prog_recv rprev = {0};
    totex_prog_scur scur;
    totex_prog_scur_init(&scur);
    /* the send being made: its pieces and dependencies (grown to what a send needs) */
    size_t pcap = 64, dcap = 64 + (size_t)nfrom;
    totex_prog_piece *pbuf = malloc(pcap * sizeof *pbuf);
    uint32_t *dbuf = malloc(dcap * sizeof *dbuf);
    /* held blocks: a slot per block held at once (a block's slot and key are dropped once its last chunk
       has been sent on), so that the map and the slots stay as large as what the rank holds at a time,
       not as every block it relays (at most nheld); hoff[slot * c + chunk]: where the receive of that
       chunk put it in the arena (the receive's arena_off) */
    size_t caph = nheld < 64 ? (nheld ? nheld : 1) : 64, freeh = SIZE_MAX;
    held *hv = malloc(sizeof *hv * caph);
    size_t *hoff = malloc(sizeof *hoff * caph * (size_t)c);
    size_t *xslot = NULL, xcap = 0; /* the held slots of the transfer being received */
    uint8_t *got = calloc(n, 1);
    /* window: lane[(peer * window + q % window) * c + chunk] = the send (+ 1) of the q-th transfer to peer,
       lane_at[...] = where that send's flags are in scode */
    size_t *lane = p->window ? calloc((size_t)n * (size_t)p->window * (size_t)c, sizeof *lane) : NULL;
    size_t *lane_at = p->window ? calloc((size_t)n * (size_t)p->window * (size_t)c, sizeof *lane_at) : NULL;
    uint32_t *sent = p->window ? calloc(n, sizeof *sent) : NULL;
    if (!p->finals || !hv || !hoff || !got || !pbuf || !dbuf || (p->window && (!lane || !lane_at || !sent))) {
        free(kick);
        free(kick_to);
        free(kpeer);
        free(hv);
        free(hoff);
        free(got);
        free(lane);
        free(lane_at);
        free(sent);
        free(pbuf);
        free(dbuf);
        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
        return TOTEX_ENOMEM;
    }
    totex_prog_blockmap where = {0};
    /* arena and staging bytes reused once free (arena.h): a relayed block's bytes once the
       send that takes it on has completed, a final block's once its receive has completed (it
       is copied out then, run.c), a staged send's once it has completed; from the next step on */
    totex_prog_arena arena, stage;
    totex_prog_arena_init(&arena, p->arena_cap);
    totex_prog_arena_init(&stage, p->arena_cap);
    size_t ir = 0, is = 0, npieces = 0, ndeps = 0, ih = 0, nfin = 0, at = 0;
    const int pred = (int)pred_rank, succ = (int)succ_rank;
    p->carry_recv = p->carry_send = SIZE_MAX;
    /* a flat program (below): every send from this rank's own blocks with no waits, every receive in place;
       the pair form needs the first send's pieces from SEND */
    int flat = 1, first_own = 1;
    totex_prog_recv first_rv = {0};
    totex_prog_send first_sd = {0};
    totex_status rc = TOTEX_OK;
/* append receive rv (the next, ir) / send sd with ndeps of dbuf and npieces of pbuf (the next, is) */
#define EMIT_RECV(rv)                                                                                                  \
    do {                                                                                                               \
        if (totex_prog_code_recv(&rcode, &rprev, &(rv)))                                                               \
            rc = TOTEX_ENOMEM;                                                                                         \
        rprev = (rv);                                                                                                  \
        if (ir == p->carry_recv)                                                                                       \
            p->carry_rv = (rv);                                                                                        \
        if (ir == 0)                                                                                                   \
            first_rv = (rv);                                                                                           \
        flat &= !(rv).wait_sends && !(rv).wait_recvs && !(rv).kick && (rv).in_place_ok;                                \
        ir++;                                                                                                          \
    } while (0)
#define EMIT_SEND(sd)                                                                                                  \
    do {                                                                                                               \
        (sd).piece_count = (uint32_t)npieces;                                                                          \
        (sd).dep_count = (uint32_t)ndeps;                                                                              \
        if (is == p->carry_send)                                                                                       \
            p->carry_scur = scur;                                                                                      \
        if (totex_prog_code_send(&scode, &scur, &(sd), dbuf, pbuf, &at))                                               \
            rc = TOTEX_ENOMEM;                                                                                         \
        flat &= !(sd).dep_count && !(sd).wait_sends && !(sd).kick;                                                     \
        for (size_t k_ = 0; k_ < npieces; k_++) {                                                                      \
            flat &= pbuf[k_].base == TOTEX_PROG_SEND;                                                                  \
            if (is == 0)                                                                                               \
                first_own &= pbuf[k_].base == TOTEX_PROG_SEND;                                                         \
        }                                                                                                              \
        if (is == 0)                                                                                                   \
            first_sd = (sd);                                                                                           \
        npieces = ndeps = 0;                                                                                           \
    } while (0)
    /* staggered: the header rides on kick 1 of the links pred -> me and me -> succ
       when data flows on them (both ends know it from the transfer between them):
       a message sent at once, with no dependency, so the check adds no message of
       its own (ring.c says why that matters). The carrying kick is the header alone,
       as long as every other kick (TOTEX_PROG_KICK_BYTES): lanes that start a few
       nanoseconds apart merge or not (measured on SimGrid 4x4x4 at 64 KiB: one kick
       of 24 bytes among kicks of 0 cost 5% of a call, all kicks of 24 bytes nothing).
       The kicks' bytes: receives in bytes of their own at the arena's start (never
       reused), sends from one shared run of staging bytes (zero: run.c allocates
       the staging area cleared) or, for the carrying kick, bytes of its own with the
       header in front. */
    if (p->stagger && kick[pred_rank]) {
        carry[0] = 0;
        p->carry_recv = kick[pred_rank] - 1;
    }
    if (p->stagger && kick_to[succ_rank])
        carry[1] = 0;
    const size_t kick_arena = arena.top, kick_stage = stage.top;
    if (p->stagger) {
        arena.top += nkr * TOTEX_PROG_KICK_BYTES;
        stage.top += TOTEX_PROG_KICK_BYTES;
    }
    for (size_t f = 0; p->stagger && f < nfrom && rc == TOTEX_OK; f++) { /* the kicks' receives, in order */
        const uint32_t r = kpeer[f];
        for (size_t i = 0; i < nk; i++) {
            const size_t k = kick[r] - 1 + (size_t)i;
            totex_prog_recv kr = {.peer = (int)r,
                                  .kick = 1,
                                  .bytes = TOTEX_PROG_KICK_BYTES,
                                  .arena_off = kick_arena + k * TOTEX_PROG_KICK_BYTES};
            EMIT_RECV(kr);
        }
    }
    for (uint32_t r = 0; p->stagger && r < n && rc == TOTEX_OK; r++) { /* every link's kick 1 */
        if (kick_to[r]) {
            totex_prog_send ks = {.peer = (int)r, .kick = 1, .bytes = TOTEX_PROG_KICK_BYTES, .stage_off = kick_stage};
            if (r == succ_rank) { /* the header in front: staging bytes of its own, never reused */
                p->carry_send = is;
                ks.stage_off = stage.top + TOTEX_PROG_HDR_BYTES;
                stage.top += TOTEX_PROG_HDR_BYTES + TOTEX_PROG_KICK_BYTES;
            }
            EMIT_SEND(ks);
            is++;
        }
    }
    for (size_t k = 1; k <= D && k + 1 <= nk && rc == TOTEX_OK; k++) /* rounds 2 .. D, then lane kick 1: round k from every peer */
        for (uint32_t r = 0; r < n; r++)
            if (kick_to[r]) {
                totex_prog_send ks = {.peer = (int)r, .recv_before = (uint32_t)nkr, .kick = 1,
                                      .bytes = TOTEX_PROG_KICK_BYTES, .stage_off = kick_stage};
                for (uint32_t q = 0; q < n; q++)
                    if (kick[q])
                        dbuf[ndeps++] = (uint32_t)(kick[q] - 1 + k - 1);
                EMIT_SEND(ks);
                is++;
            }
    int kicked = 0; /* kicks 2 .. c - 1 made (in the first step, before its lanes 1 .. c - 2) */
    totex_prog_share_src_rewind(src);
    while (rc == TOTEX_OK && (more = totex_prog_share_src_next(src, &sst, err)) > 0)
    for (size_t x0 = 0; x0 < l->nx && rc == TOTEX_OK;) {
        size_t x1 = x0;
        while (x1 < l->nx && l->x[x1].step == l->x[x0].step)
            x1++;
        const unsigned long long st = (unsigned long long)l->x[x0].step + 1;
        const uint64_t step = l->x[x0].step;
        /* sends first: a block received in this step travels on from the next one;
           lane by lane (chunk 0 of every transfer, then chunk 1, ...), so that a
           step's lane-0 sends never wait behind a later lane's (a link carries one
           transfer per step: its messages keep the order (step, chunk) either way) */
        for (int ci = 0; ci < c && rc == TOTEX_OK; ci++) {
            for (uint32_t r = 0; p->stagger && !kicked && ci > 0 && ci < c - 1 && r < n; r++)
                if (kick_to[r]) { /* kick ci + 1 to r: when kick ci from r has arrived */
                    totex_prog_send ks = {.peer = (int)r,
                                          .recv_before = (uint32_t)ir,
                                          .kick = 1,
                                          .bytes = TOTEX_PROG_KICK_BYTES,
                                          .stage_off = kick_stage};
                    if (kick[r])
                        dbuf[ndeps++] = (uint32_t)(kick[r] - 1 + D + (size_t)ci - 1);
                    EMIT_SEND(ks);
                    is++;
                }
            for (size_t x = x0; x < x1 && rc == TOTEX_OK; x++) {
                const totex_prog_xfer *tr = &l->x[x];
                const totex_block *bl = l->b + tr->first;
                if (!tr->count || tr->from != me)
                    continue;
                const int wh = whole_xfer(p, tr, bl);
                if (wh && ci % wh)
                    continue;
                if (tr->count > pcap || tr->count + nfrom + 2 > dcap) { /* room for its pieces and dependencies */
                    const size_t np = tr->count > pcap ? tr->count : pcap, nd = tr->count + nfrom + 2 > dcap ? tr->count + nfrom + 2 : dcap;
                    totex_prog_piece *pq = realloc(pbuf, np * sizeof *pq);
                    if (pq)
                        pbuf = pq, pcap = np;
                    uint32_t *dq = realloc(dbuf, nd * sizeof *dq);
                    if (dq)
                        dbuf = dq, dcap = nd;
                    if (!pq || !dq) {
                        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                        rc = TOTEX_ENOMEM;
                        break;
                    }
                }
                const size_t Lc = wh ? span_len(p, ci, wh) : len[ci], Oc = lo[ci];
                size_t *ln = NULL, *lat = NULL;
                if (p->window) { /* counted once per transfer, at its chunk 0 */
                    const size_t q = ci == 0 ? sent[tr->to]++ : sent[tr->to] - 1, w = (size_t)p->window;
                    ln = lane + ((size_t)tr->to * w + q % w) * (size_t)c;
                    lat = lane_at + ((size_t)tr->to * w + q % w) * (size_t)c;
                }
                totex_prog_send sdv = {0}, *sd = &sdv;
                sd->recv_before = (uint32_t)ir;
                sd->peer = (int)tr->to;
                sd->bytes = (int)(tr->count * Lc);
                const int padded = sd->bytes < p->pad;
                if (padded)
                    sd->bytes = p->pad;
                if (ln && ln[ci]) { /* the window's earlier transfer on this link and lane has been received */
                    dbuf[ndeps++] = (uint32_t)(nr + ln[ci] - 1);
                    totex_prog_code_set_sync(&scode, lat[ci]);
                    flat = 0;
                } else if (kick && ci > 0 && kick[tr->to]) { /* a lane's first transfer on this link: kick ci */
                    dbuf[ndeps++] = (uint32_t)(kick[tr->to] - 1 + D + (size_t)ci - 1);
                } else if (D && ci == 0 && kick_to[tr->to] == 1) { /* lane 0's first: round D from every peer */
                    for (uint32_t q = 0; q < n; q++)
                        if (kick[q])
                            dbuf[ndeps++] = (uint32_t)(kick[q] - 1 + D - 1);
                    kick_to[tr->to] = 2;
                }
                const size_t this_send = is;
                is++;
                for (size_t k = 0; k < tr->count; k++) {
                    uint32_t base = TOTEX_PROG_SEND;
                    size_t off = (size_t)bl[k].dst * slot + Oc, recv = SIZE_MAX, idx;
                    if (bl[k].src != me) {
                        if (!totex_prog_blockmap_get(&where, (uint64_t)bl[k].src * n + bl[k].dst, &idx) ||
                            hv[idx].sent++ != (size_t)ci) {
                            snprintf(err->msg, sizeof err->msg, "step %llu: rank %u does not hold block (%u, %u) (a bug of %s)", st, me,
                                     bl[k].src, bl[k].dst, p->algorithm);
                            rc = TOTEX_EVIOLATION;
                            break;
                        }
                        base = TOTEX_PROG_ARENA;
                        recv = hv[idx].recv + (size_t)ci;
                        off = hoff[idx * (size_t)c + (size_t)ci] + hv[idx].pos * len[ci];
                        if (hv[idx].sent == (size_t)c) { /* all its chunks sent on: slot and key free again */
                            totex_prog_blockmap_del(&where, (uint64_t)bl[k].src * n + bl[k].dst);
                            hv[idx].recv = freeh;
                            freeh = idx;
                        }
                    }
                    totex_prog_piece *last = npieces ? &pbuf[npieces - 1] : NULL;
                    if (last && last->base == base && last->off + last->len == off)
                        last->len += (uint32_t)Lc;
                    else
                        pbuf[npieces++] = (totex_prog_piece){.base = base, .len = (uint32_t)Lc, .off = off};
                    if (recv != SIZE_MAX && (!ndeps || dbuf[ndeps - 1] != recv))
                        dbuf[ndeps++] = (uint32_t)recv;
                    if (recv != SIZE_MAX && recv != p->carry_recv && /* free once this send has completed */
                        totex_prog_arena_give(&arena, off, len[ci], step, is, recv + 1)) {
                        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                        rc = TOTEX_ENOMEM;
                        break;
                    }
                }
                if (rc == TOTEX_OK && npieces >= TOTEX_PROG_PIECES_MAX) {
                    snprintf(err->msg, sizeof err->msg, "step %llu: a message of rank %u gathers %zu pieces: 2^30 or more, "
                             "over what a program can count", st, me, npieces);
                    rc = TOTEX_EOVERFLOW;
                    break;
                }
                int carried = carry[1] && sd->peer == succ && p->carry_send == SIZE_MAX;
                if (carried) /* staged after the header, whatever its pieces */
                    p->carry_send = this_send;
                if (rc == TOTEX_OK && carried) { /* staging bytes of its own, never reused: run.c sends it
                                                       first, before any wait (the header always leaves) */
                    sd->stage_off = stage.top + TOTEX_PROG_HDR_BYTES;
                    stage.top += (size_t)sd->bytes + TOTEX_PROG_HDR_BYTES;
                } else if (rc == TOTEX_OK && (npieces > 1 || padded)) {
                    const size_t need = (size_t)sd->bytes;
                    size_t off, ws, wr;
                    if (totex_prog_arena_take(&stage, need, step, &off, &ws, &wr) ||
                        totex_prog_arena_give(&stage, off, need, step, is, 0)) {
                        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                        rc = TOTEX_ENOMEM;
                    }
                    sd->stage_off = off;
                    sd->wait_sends = (uint32_t)ws; /* < nsend < 2^32 (checked above) */
                }
                if (rc != TOTEX_OK)
                    break;
                const size_t save = is;
                is = this_send; /* (EMIT_SEND compares is with carry_send and 0) */
                EMIT_SEND(sdv);
                is = save;
                if (rc != TOTEX_OK)
                    snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                if (ln) {
                    ln[ci] = this_send + 1;
                    lat[ci] = at;
                }
            }
        }
        kicked = 1;
        for (size_t x = x0; x < x1 && rc == TOTEX_OK; x++) {
            const totex_prog_xfer *tr = &l->x[x];
            const totex_block *bl = l->b + tr->first;
            if (!tr->count || tr->to != me)
                continue;
            const size_t r0 = ir, f0 = nfin;
            size_t nx = 0; /* held slots of this transfer (xslot) */
            if (tr->count > xcap) {
                size_t *q = realloc(xslot, tr->count * sizeof *q);
                if (!q) {
                    snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                    rc = TOTEX_ENOMEM;
                    break;
                }
                xslot = q;
                xcap = tr->count;
            }
            int consecutive = 1;
            for (size_t k = 0; k < tr->count; k++)
                if (bl[k].dst != me || bl[k].src != bl[0].src + k)
                    consecutive = 0;
            for (size_t k = 0; k < tr->count; k++) {
                if (bl[k].dst == me) {
                    if (bl[k].src >= n || bl[k].src == me || got[bl[k].src]) {
                        snprintf(err->msg, sizeof err->msg, "step %llu: block (%u, %u) arrives twice or is invalid (a bug of %s)", st,
                                 bl[k].src, me, p->algorithm);
                        rc = TOTEX_EVIOLATION;
                        break;
                    }
                    got[bl[k].src] = 1;
                    p->finals[nfin++] = (totex_prog_final){bl[k].src, (uint32_t)k};
                } else {
                    size_t slot_h = freeh;
                    if (slot_h != SIZE_MAX) {
                        freeh = hv[slot_h].recv;
                    } else {
                        if (ih == caph) {
                            const size_t nc = 2 * caph;
                            held *q = realloc(hv, sizeof *q * nc);
                            if (q)
                                hv = q;
                            size_t *qo = q ? realloc(hoff, sizeof *qo * nc * (size_t)c) : NULL;
                            if (qo)
                                hoff = qo;
                            if (!q || !qo) {
                                snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                                rc = TOTEX_ENOMEM;
                                break;
                            }
                            caph = nc;
                        }
                        slot_h = ih++;
                    }
                    hv[slot_h] = (held){r0, k, 0};
                    xslot[nx++] = slot_h;
                    if (totex_prog_blockmap_put(&where, (uint64_t)bl[k].src * n + bl[k].dst, slot_h)) {
                        snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
                        rc = TOTEX_ENOMEM;
                        break;
                    }
                }
            }
            if (rc == TOTEX_OK && nfin - f0 >= TOTEX_PROG_FIN_MAX) {
                snprintf(err->msg, sizeof err->msg, "step %llu: a message to rank %u brings %zu of its blocks: 2^24 or more, "
                         "over what a program can count", st, me, nfin - f0);
                rc = TOTEX_EOVERFLOW;
            }
            const int carried = carry[0] && tr->from == (uint32_t)pred && p->carry_recv == SIZE_MAX;
            if (carried)
                p->carry_recv = r0; /* arrives behind the header, copied to its place or the arena (run.c) */
            const int wh = whole_xfer(p, tr, bl);
            for (int ci = 0; ci < c && rc == TOTEX_OK; ci += wh ? wh : 1) {
                totex_prog_recv rvv = {0}, *rv = &rvv;
                rv->peer = (int)tr->from;
                rv->whole = wh ? 1u : 0u;
                rv->bytes = (int)(tr->count * (wh ? span_len(p, ci, wh) : len[ci]));
                const int padded = rv->bytes < p->pad;
                if (padded)
                    rv->bytes = p->pad;
                rv->chunk = (uint32_t)ci & 31u;
                rv->in_place_ok = consecutive && (c == 1 || wh == c || tr->count == 1) && !padded;
                if (rv->in_place_ok) /* (else arena_off, below: they share their bytes) */
                    rv->place_off = (size_t)bl[0].src * slot + lo[ci];
                rv->fin_first = (uint32_t)f0;
                rv->fin_count = (uint32_t)(nfin - f0) & (TOTEX_PROG_FIN_MAX - 1); /* (< it: checked above) */
                const int behind_hdr = carried && ci == 0;
                if (behind_hdr && rv->in_place_ok) {
                    /* lands in its place, wherever the header brings it */
                } else if (behind_hdr) { /* bytes of its own, never reused: the header may bring it before its turn */
                    rv->arena_off = arena.top;
                    arena.top += (size_t)rv->bytes;
                } else if (!rv->in_place_ok) {
                    size_t ws = 0, wr = 0;
                    if (totex_prog_arena_take(&arena, (size_t)rv->bytes, step, &rv->arena_off, &ws, &wr))
                        rc = TOTEX_ENOMEM;
                    rv->wait_sends = (uint32_t)ws; /* prefixes of the program: < 2^32 (checked above) */
                    rv->wait_recvs = (uint32_t)wr;
                }
                for (size_t h = 0; h < nx; h++) /* where its held blocks' chunk ci lies */
                    hoff[xslot[h] * (size_t)c + (size_t)ci] = rv->arena_off;
                /* the bytes of its final blocks are free once they are copied out (when it completes);
                   those of the others once the send that takes them on has completed (above) */
                const size_t Lr = wh ? span_len(p, ci, wh) : len[ci];
                for (size_t f = f0; f < nfin && rc == TOTEX_OK && !rv->in_place_ok && !behind_hdr; f++)
                    if (totex_prog_arena_give(&arena, rv->arena_off + p->finals[f].pos * Lr, Lr, step, 0, ir + 1))
                        rc = TOTEX_ENOMEM;
                if (padded && rc == TOTEX_OK && !behind_hdr && /* the padding's bytes, once it has arrived */
                    totex_prog_arena_give(&arena, rv->arena_off + tr->count * Lr, (size_t)rv->bytes - tr->count * Lr,
                                         step, 0, ir + 1))
                    rc = TOTEX_ENOMEM;
                if (rc == TOTEX_OK)
                    EMIT_RECV(rvv);
                if (rc != TOTEX_OK)
                    snprintf(err->msg, sizeof err->msg, "out of memory compiling the schedule");
            }
        }
        x0 = x1;
    }
#undef EMIT_RECV
#undef EMIT_SEND
    if (rc == TOTEX_OK && more < 0)
        rc = sst;
    for (uint32_t i = 0; i < n && rc == TOTEX_OK; i++)
        if (i != me && !got[i]) {
            snprintf(err->msg, sizeof err->msg, "rank %u never receives block (%u, %u) (a bug of %s)", me, i, me, p->algorithm);
            rc = TOTEX_EVIOLATION;
        }
    totex_prog_blockmap_clear(&where);
    /* the streams trimmed to their bytes (a per-rank program of O(messages + runs) bytes) */
    if (rc == TOTEX_OK) {
        uint8_t *rq = realloc(rcode.b, rcode.len ? rcode.len : 1), *sq = realloc(scode.b, scode.len ? scode.len : 1);
        if (rq)
            rcode.b = rq;
        if (sq)
            scode.b = sq;
    }
    p->rcode = rcode.b;
    p->rcode_bytes = rcode.len;
    p->scode = scode.b;
    p->scode_bytes = scode.len;
    p->pair = rc == TOTEX_OK && p->nsend == 1 && p->nrecv == 1 && p->carry_send == 0 && p->carry_recv == 0 &&
              !first_sd.kick && !first_rv.kick && first_rv.in_place_ok && first_own;
    /* every message leaves at once from this rank's own blocks and lands in its place, nothing waits
       for anything: a flat program (direct, pairwise; run.c runs it without the dependency loop) */
    p->flat = rc == TOTEX_OK && flat;
    p->arena_bytes = arena.top;
    p->stage_bytes = stage.top;
    totex_prog_arena_free(&arena);
    totex_prog_arena_free(&stage);
    free(hv);
    free(hoff);
    free(xslot);
    free(got);
    free(lane);
    free(lane_at);
    free(sent);
    free(kick);
    free(kick_to);
    free(kpeer);
    free(pbuf);
    free(dbuf);
    return rc; /* the arena and the staging area are allocated by the first run */
}
