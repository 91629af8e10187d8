/* Executor of totex_alltoall: runs the program plan.c compiled for this rank.
 *
 * The program's sends and receives are in step order (one tag for the whole
 * plan). Each send waits only for the receives that brought its blocks (and,
 * for a unit-step plan, for the link's previous transfer), is gathered into
 * one message when its blocks do not lie side by side, and is MPI_Isend'ed:
 * a block travels on only after it arrived, with no barrier between steps. A
 * step starts on a rank as soon as its own inputs are there. Messages
 * between two ranks match in step order (MPI's non-overtaking rule: both
 * sides post them in step order under one tag).
 *
 * Receives are posted in waves: the arena of received blocks is O(n) blocks
 * (compile.c, arena.h), its bytes reused once the blocks in them have been
 * sent on (those sends completed) or copied out (final blocks, copied to
 * their place when their receive completes). A receive is posted as soon as
 * its bytes are free without waiting; at the latest before the first send of
 * a later step, after waiting for the requests that free its bytes.
 *
 * Window: that early posting stops p->recv_window receives past the forced
 * point (the receives of the steps before the send about to be made), by
 * default the receives of TOTEX_PROG_RECV_WINDOW_STEPS steps (plan.c;
 * TOTEX_RECV_WINDOW sets it, 0: no window). Receives whose blocks are all
 * final need no arena bytes, so without it a rank posted as far as the arena
 * let it, on 4x4, 8x8 and 4x4x4 its whole program at the start (776
 * receives for octr in 3 chunks on 8x8; octr in 4 chunks on 8x8x8 has
 * 12,306 per rank). A posted receive costs at every message: MPICH
 * searches its posted-receive queue, one linear list, for each arriving
 * message, and SimGrid SMPI 3.32 removes each completed communication from
 * its actor's list of all outstanding ones by a linear walk
 * (CommImpl::finish, issuer_->activities_.remove: 77% of the simulator's
 * cycles there; that run did not finish one call in 50 minutes,
 * bench/smpi/results-8x8x8.txt). Messages between neighbours stay within a
 * step or two of each other, so a few steps' receives are posted before
 * their messages come. On SimGrid (4x4, 8x8, 4x4x4; flat and default
 * factors; octr in 2 and 3 staggered chunks forced, and the model's choices
 * from 512 B to 64 KiB) the default of 4 steps gives the same simulated
 * times as no window in all 10 printed digits, and so did 2 and 3 steps, 32
 * receives and more in the forced runs at flat factors; 16 receives (1.3
 * steps of 12) cost 2.4% at 4x4x4 16 KiB, 8 receives up to 31%. The window
 * restricts the early posting only: the forced posting, the only one the
 * argument below counts on, is unchanged.
 *
 * Behind the forced point, the receives of data more than two windows back
 * are waited for after each send (recvs_reap). A receive that brings only
 * final blocks, or blocks sent on much later, is otherwise waited for only at
 * the end of the call or when they leave, and SimGrid keeps every request
 * not yet waited for, complete or not, in that list (and a detached send in
 * its sender's list until its receiver waits): on 8x8 octr/3s with the window
 * alone up to 241 receives per rank were not yet waited for, 88 with these
 * waits; on 8x8x8 octr/4s with the window alone the list walk still took 84%
 * of the simulator's cycles. In a schedule that uses every link every step
 * a rank runs at most about a window and the link window (compile.c) ahead
 * of its neighbours, so two windows back their messages have come and the
 * wait costs nothing: SimGrid's simulated times are the same in all 10
 * digits with it (the runs above), and with one window back too; one step
 * back cost 2.8% at 4x4x4 16 KiB. They are waits for receives of earlier
 * steps, as the argument below allows; not for the kicks' receives, which
 * are numbered first but come within the first step (compile.c: kick i + 1
 * leaves once kick i has come; waiting for one there deadlocked with a
 * window of 1, tests/mpi/test_recv_window.c).
 *
 * Why this cannot deadlock (on every rank the program is in step order, and
 * a receive or staged send of step t reuses only bytes freed by requests of
 * steps before t, arena.h): by induction on t, suppose every rank has made
 * every send and posted every receive of the steps before t and each of those
 * requests completes. A rank then reaches the end of step t: its waits there
 * are for requests of earlier steps (the receives that brought the blocks, the
 * link's previous transfer, the requests that free the bytes). So every send
 * and receive of step t is made on every rank, and each one is matched by its
 * peer's (the k-th message from a rank to another is the k-th receive that
 * one posts from it, both of step t) and completes. This holds for
 * synchronous sends too (a window's MPI_Issend completes once its receive is
 * posted, which the induction gives), so it does not rest on eager delivery.
 *
 * It needs every rank to run the same plan. With mismatched arguments the
 * ranks run different plans whose messages never match, and every wait may
 * last for ever; what ends them is the cross-rank check (agree.c): every
 * wait also watches the check's header and poison, and a rank that finds its
 * predecessor's header different poisons every rank. So the header must leave
 * before any wait: the send that carries it (own blocks only, staging bytes
 * of its own, a tag of its own: compile.c) is made first, out of program
 * order. In program order it could sit behind a wait that never ends (issue
 * 11: a2's programs send twice on a link before their first message to
 * rank + 1, the second waiting by the window for the first, a synchronous
 * send to a rank that runs another plan or has not yet called): no rank then
 * saw a difference, and all waited for each other (tests/program/test_carry.c,
 * test_header_first.c).
 *
 * Final blocks of one transfer from consecutive sources land directly in the
 * receive buffer (or in the plan's final area when the caller takes the
 * blocks from the plan). With the cross-rank check on, every wait also
 * watches the check's header and poison (agree.c); on a failure the pending
 * receives are cancelled and the pending sends freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"


/* Resumable run (internal.h, totex_mpi_run): every loop below keeps its position in the run, and every
   wait goes through await(): with may_wait it waits (watched, as the blocking call always did), else it
   tests once and, when the request is not complete, the progress step returns TOTEX_MPI_PENDING with
   nothing else changed, so that the next progress step takes up exactly there. */

/* wait for (may_wait) or test *r, watched by the guard; MPI_SUCCESS when complete, TOTEX_MPI_PENDING when
   not yet (only without may_wait), else the call's error code */
static int await(totex_mpi_run *x, MPI_Request *r)
{
    if (x->post_only && *r != MPI_REQUEST_NULL)
        return TOTEX_MPI_PENDING; /* (totex_mpi_run_post: no test) */
    if (x->may_wait)
        return totex_mpi_guard_wait(x->g, r);
    int done = 0, rc = totex_mpi_guard_test(x->g, r, &done);
    return rc != MPI_SUCCESS ? rc : done ? MPI_SUCCESS : TOTEX_MPI_PENDING;
}

/* the request of receive r: the check's header receive when the message rides behind the header */
static MPI_Request *recv_req(totex_mpi_run *x, size_t r)
{
    return x->carry && r == x->p->carry_recv ? x->g->in : &x->req[r];
}

/* wait for sends [0, upto) */
static int sends_done(totex_mpi_run *x, size_t upto)
{
    int rc = MPI_SUCCESS;
    for (; x->sdone < upto; x->sdone++)
        if ((rc = await(x, &x->req[x->p->nrecv + x->sdone])) != MPI_SUCCESS)
            return rc;
    return rc;
}

/* wait for receives [0, upto) and copy their final blocks to their place */
static int recvs_done(totex_mpi_run *x, size_t upto)
{
    const totex_prog *p = x->p;
    const size_t slot = (size_t)p->slot;
    for (; x->rdone < upto; x->rdone++) {
        const size_t r = x->rdone;
        totex_prog_rcur c = x->rdonec;
        totex_prog_recv rvv, *rv = &rvv;
        totex_prog_recv_next(p->rcode, &c, rv);
        int rc = await(x, recv_req(x, r));
        if (rc != MPI_SUCCESS)
            return rc;
        x->rdonec = c;
        if (rv->in_place_ok)
            continue;
        /* a message of the sender's own blocks spans chunks / own_whole chunks (compile.c) */
        const int span = rv->whole && p->own_whole > 0 ? p->chunks / p->own_whole : 1;
        const size_t lo = totex_prog_chunk_lo(p, (int)rv->chunk),
                     len = totex_prog_chunk_lo(p, (int)rv->chunk + span) - lo;
        for (size_t f = rv->fin_first; f < rv->fin_first + rv->fin_count; f++)
            memcpy(x->out + p->finals[f].src * slot + lo, p->arena + rv->arena_off + p->finals[f].pos * len, len);
    }
    return MPI_SUCCESS;
}

/* wait for the data receives among [0, upto) not waited for yet (window above); the kicks' receives are
   left to the sends that wait for them: kick i + 1 is sent within the first step once kick i has come
   (compile.c), so a kick's receive is not one of an earlier step. Their final blocks are copied out by
   recvs_done, as they would be: it is not called here, as it would wait for the kicks */
static int recvs_reap(totex_mpi_run *x, size_t upto)
{
    const totex_prog *p = x->p;
    if (x->reaped < x->rdone) {
        x->reaped = x->rdone;
        x->reapc = x->rdonec;
    }
    for (; x->reaped < upto; x->reaped++) {
        const size_t r = x->reaped;
        totex_prog_rcur c = x->reapc;
        totex_prog_recv rv;
        totex_prog_recv_next(p->rcode, &c, &rv);
        int rc = rv.kick ? MPI_SUCCESS : await(x, recv_req(x, r));
        if (rc != MPI_SUCCESS)
            return rc;
        x->reapc = c;
    }
    return MPI_SUCCESS;
}

/* post receives [posted, must) (waiting until their bytes are free), then the
   following ones as long as their bytes are free without waiting and they lie
   within the window, fewer than p->recv_window past must (0: no window) */
static int post_recvs(totex_mpi_run *x, size_t must)
{
    totex_prog *p = x->p;
    int rc = MPI_SUCCESS;
    if (must > x->forced)
        x->forced = must;
    const size_t w = p->recv_window, lim = w && p->nrecv - x->forced > w ? x->forced + w : p->nrecv;
    while (x->posted < p->nrecv && rc == MPI_SUCCESS) {
        const size_t r = x->posted;
        totex_prog_rcur c = x->rpost;
        totex_prog_recv rvv, *rv = &rvv;
        totex_prog_recv_next(p->rcode, &c, rv);
        if (r >= must && (r >= lim || rv->wait_sends > x->sdone || rv->wait_recvs > x->rdone))
            break;
        if ((rc = sends_done(x, rv->wait_sends)) != MPI_SUCCESS || (rc = recvs_done(x, rv->wait_recvs)) != MPI_SUCCESS)
            break;
        char *dst = rv->in_place_ok ? x->out + rv->place_off : p->arena + rv->arena_off;
        if (!(x->carry && r == p->carry_recv)) /* (behind the predecessor's header: registered at the start) */
            rc = MPI_Irecv(dst, rv->bytes, MPI_BYTE, rv->peer, rv->kick ? x->kick_tag : x->tag,
                           x->comm, &x->req[r]);
        x->rpost = c;
        x->posted++;
    }
    if (x->posted > x->forced && x->posted - x->forced > p->recv_ahead_max)
        p->recv_ahead_max = x->posted - x->forced;
    return rc;
}

/* send @p sd's pieces (@p pit) gathered into its staging bytes, a padded message's tail zero (compile.c; a
   kick's bytes are zero from the start); returns where they start */
static const char *stage_send(const totex_prog *p, const totex_prog_send *sd, totex_prog_body pit,
                              const char *const *base)
{
    char *buf = p->stage + sd->stage_off, *to = buf;
    for (size_t k = 0; k < sd->piece_count; k++) {
        totex_prog_piece pc;
        totex_prog_piece_next(p->scode, &pit, &pc);
        memcpy(to, base[pc.base] + pc.off, pc.len);
        to += pc.len;
    }
    if (!sd->kick && (size_t)(to - buf) < (size_t)sd->bytes)
        memset(to, 0, (size_t)sd->bytes - (size_t)(to - buf));
    return buf;
}

/* the send carrying this rank's header (p->carry_send): the header in front of its staged bytes (a kick
   is the header alone: compile.c), request *rq (totex_mpi_guard_send_carried()) */
static int send_carried(const totex_prog *p, const totex_prog_send *sd, totex_prog_body pit,
                        const char *const *base, totex_mpi_guard *g, MPI_Request *rq)
{
    char *h = (char *)stage_send(p, sd, pit, base) - TOTEX_PROG_HDR_BYTES;
    return totex_mpi_guard_send_carried(g, h, sd->kick ? 0 : sd->bytes, sd->peer, rq);
}

/* make send i, @p sd with its pieces @p pit (its waits done): gathered or padded into its staging bytes,
   or sent from where it lies */
static int issue(totex_mpi_run *x, size_t i, const totex_prog_send *sd, totex_prog_body pit)
{
    totex_prog *p = x->p;
    MPI_Request *rq = &x->req[p->nrecv + i];
    if (x->carry && i == p->carry_send)
        return send_carried(p, sd, pit, x->base, x->g, rq);
    totex_prog_piece pc = {0, 0, 0};
    if (sd->piece_count == 1) {
        totex_prog_body it = pit;
        totex_prog_piece_next(p->scode, &it, &pc);
    }
    const char *buf = sd->piece_count == 1 && pc.len == (size_t)sd->bytes ? x->base[pc.base] + pc.off
                                                                          : stage_send(p, sd, pit, x->base);
    return sd->sync ? MPI_Issend(buf, sd->bytes, MPI_BYTE, sd->peer, x->tag, x->comm, rq)
                    : MPI_Isend(buf, sd->bytes, MPI_BYTE, sd->peer, sd->kick ? x->kick_tag : x->tag,
                                x->comm, rq);
}

/* send carry_send of @p p decoded into @p sd, its pieces in @p pit */
static void carried_send(const totex_prog *p, totex_prog_send *sd, totex_prog_body *pit)
{
    totex_prog_scur c = p->carry_scur;
    totex_prog_send_next(p->scode, &c, sd, NULL, pit);
}

/* decode send x->i into x->sd (its dependencies and pieces) unless done */
static void send_at_i(totex_mpi_run *x)
{
    if (x->sd_i != x->i) {
        totex_prog_send_next(x->p->scode, &x->scur, &x->sd, &x->dit, &x->pit);
        x->sd_i = x->i;
    }
}

/* Sends made ahead of program order, by a nonblocking run only (x->ahead): while send x->i waits, each
   of the next TOTEX_MPI_AHEAD sends whose waits are all done is made now, so that a late chunk on one
   link does not hold up the sends whose blocks have come (a test between two slices of the caller's
   computation then moves every send that can move). A send is made ahead only
   - after every earlier send to the same peer (messages between two ranks match in program order);
   - once the receives of its earlier steps are posted (x->posted >= recv_before), as in order;
   - with its staging bytes freed by sends made in order (wait_sends <= x->i), those complete;
   - with every request it depends on made (receives posted, sends made) and complete.
   The head's argument (no deadlock) is untouched: every send in order is made as before, these earlier;
   and no bytes are reused sooner: a receive that reuses a send's bytes waits for sends [0, wait_sends),
   all made in order or ahead (post_recvs reaches only wait_sends <= x->sdone <= x->i). Returns
   TOTEX_MPI_PENDING, or the call's error code. */
#define TOTEX_MPI_AHEAD 64
static int issue_ahead(totex_mpi_run *x)
{
    const totex_prog *p = x->p;
    unsigned char *early = x->pl->early;
    int held[TOTEX_MPI_AHEAD]; /* the peers of the sends in [x->i, j) not made */
    int nheld = 0, rc;
    const size_t end = p->nsend - x->i > TOTEX_MPI_AHEAD ? x->i + TOTEX_MPI_AHEAD : p->nsend;
    if (x->i < p->nsend)
        send_at_i(x);
    totex_prog_scur c = x->scur; /* (after send x->i) */
    for (size_t j = x->i; j < end; j++) {
        totex_prog_send sdv = x->sd, *sd = &sdv;
        totex_prog_body dit = x->dit, pit = x->pit;
        if (j > x->i)
            totex_prog_send_next(p->scode, &c, sd, &dit, &pit);
        if (early[j] || (j == x->i && x->issued))
            continue;
        int ok = j > x->i && sd->recv_before <= x->posted && sd->wait_sends <= x->i;
        for (int k = 0; ok && k < nheld; k++)
            ok = held[k] != sd->peer;
        if (ok && sd->wait_sends > x->sdone) {
            if ((rc = sends_done(x, sd->wait_sends)) == TOTEX_MPI_PENDING)
                ok = 0;
            else if (rc != MPI_SUCCESS)
                return rc;
        }
        for (size_t k = 0; ok && k < sd->dep_count; k++) {
            const size_t d = totex_prog_dep_next(p->scode, &dit);
            if (d < p->nrecv ? d >= x->posted : d - p->nrecv >= x->i && !early[d - p->nrecv])
                ok = 0;
            else if ((rc = await(x, &x->req[d])) == TOTEX_MPI_PENDING)
                ok = 0;
            else if (rc != MPI_SUCCESS)
                return rc;
        }
        if (!ok) {
            held[nheld++] = sd->peer;
            continue;
        }
        if ((rc = issue(x, j, sd, pit)) != MPI_SUCCESS)
            return rc;
        early[j] = 1;
    }
    return TOTEX_MPI_PENDING;
}

void totex_mpi_own_block(const totex_prog *p, const char *send, char *out, int recv_raw)
{
    const size_t own = (size_t)p->me * (size_t)p->slot;
    if (recv_raw && send + own != out + own)
        memcpy(out + own, send + own, (size_t)p->slot);
}

/* (the general loop's run state, request array, posting and dependencies cost as much as the MPI
   library's own all-to-all of 8 B on 2 ranks, which is one send and one receive: perf, Open MPI) */
int totex_mpi_exec_pair(totex_mpi_plan *pl, totex_mpi_guard *g, const char *send, char *out, int recv_raw)
{
    totex_prog *p = pl->prog;
    const char *base[3] = {send, p->arena, out};
    totex_mpi_guard_carry(g, out + p->carry_rv.place_off, p->carry_rv.bytes); /* (receive 0: p->pair) */
    totex_prog_send sd;
    totex_prog_body pit;
    carried_send(p, &sd, &pit); /* (send 0) */
    int rc = send_carried(p, &sd, pit, base, g, &pl->req[1]);
    if (rc != MPI_SUCCESS)
        return rc;
    totex_mpi_own_block(p, send, out, recv_raw);
    return totex_mpi_guard_pair_wait(g, &pl->req[1]); /* (a failed call's requests: dropped with g) */
}

int totex_mpi_exec_pair_raw(totex_mpi_plan *pl, totex_mpi_state *st, totex_mpi_guard *g, const char *send, char *out)
{
    totex_prog *p = pl->prog;
    if (!pl->pair_ready) { /* decoded once: the packed program's decoding was half of totex's own instructions
                              of a 2-rank call of 32 B (callgrind, Open MPI) */
        carried_send(p, &pl->pair_sd, &pl->pair_pit); /* (send 0: p->pair) */
        pl->pair_pc = (totex_prog_piece){0, 0, 0};
        if (pl->pair_sd.piece_count == 1) {
            totex_prog_body it = pl->pair_pit;
            totex_prog_piece_next(p->scode, &it, &pl->pair_pc);
        }
        pl->pair_ready = 1;
    }
    const totex_prog_send *sd = &pl->pair_sd;
    const totex_prog_body pit = pl->pair_pit;
    const totex_prog_piece pc = pl->pair_pc;
    char *msg = p->stage + sd->stage_off - TOTEX_PROG_HDR_BYTES;
    if (sd->piece_count == 1 && pc.len == (size_t)sd->bytes) { /* one run of blocks, unpadded (pieces from SEND) */
        memcpy(msg + TOTEX_PROG_HDR_BYTES, send + pc.off, pc.len);
    } else {
        const char *base[3] = {send, p->arena, out};
        stage_send(p, sd, pit, base);
    }
    const size_t own = (size_t)p->me * (size_t)p->slot;
    return totex_mpi_guard_pair_run(st, g, pl->sig, p->slot, msg, sd->bytes, sd->peer, out + p->carry_rv.place_off,
                                    p->carry_rv.bytes, out + own, send + own, (size_t)p->slot);
}

int totex_mpi_run_flat_post(totex_mpi_run *x)
{
    totex_prog *p = x->p;
    MPI_Request *req = x->req;
    const int carry_first = x->carry && p->carry_send != SIZE_MAX;
    int rc = MPI_SUCCESS; /* (the send carrying the header: made by totex_mpi_run_start()) */
    totex_prog_rcur rc_;
    totex_prog_rcur_init(&rc_);
    for (size_t r = 0; r < p->nrecv && rc == MPI_SUCCESS; r++) {
        totex_prog_recv rv;
        totex_prog_recv_next(p->rcode, &rc_, &rv);
        if (!(x->carry && r == p->carry_recv)) /* (behind the predecessor's header: registered above) */
            rc = MPI_Irecv(x->out + rv.place_off, rv.bytes, MPI_BYTE, rv.peer, x->tag, x->comm, &req[r]);
    }
    totex_prog_scur sc;
    totex_prog_scur_init(&sc);
    for (size_t i = 0; i < p->nsend && rc == MPI_SUCCESS; i++) {
        totex_prog_send sd;
        totex_prog_body pit;
        totex_prog_send_next(p->scode, &sc, &sd, NULL, &pit);
        if (!(carry_first && i == p->carry_send))
            rc = issue(x, i, &sd, pit);
    }
    if (rc == MPI_SUCCESS) {
        totex_mpi_own_block(p, x->send, x->out, x->recv_raw);
        return rc;
    }
    if (x->g)
        rc = totex_mpi_guard_fail(x->g, rc);
    totex_mpi_drop(req, p->nrecv, req + p->nrecv, p->nsend); /* do not wait for receives whose senders may never send */
    return rc;
}

/* a flat program (p->flat, no receive window short of all receives), blocking: the send carrying this
   rank's header first, every receive posted, every send made, this rank's own block, one wait for all
   (the general loop's posting rounds, dependencies and copies out: totex's own instructions of a 4-rank
   call of 8 B, direct, 1700 -> 1090 with alltoall.c's raw_call, callgrind) */
static int exec_flat(totex_mpi_run *x)
{
    totex_prog *p = x->p;
    int rc = totex_mpi_run_flat_post(x);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = totex_mpi_guard_waitall(x->g, x->req, p->nrecv + p->nsend)) != MPI_SUCCESS)
        totex_mpi_drop(x->req, p->nrecv, x->req + p->nrecv, p->nsend); /* do not wait for receives whose senders may never send */
    return rc;
}

int totex_mpi_run_buffers(totex_prog *p, int recv_raw)
{
    if (p->arena && (recv_raw || p->fin))
        return MPI_SUCCESS;
    const size_t fin_bytes = recv_raw ? 0 : (size_t)p->n * (size_t)p->slot;
    if (!p->arena) {
        p->arena = malloc(p->arena_bytes ? p->arena_bytes : 1);
        p->stage = calloc(p->stage_bytes ? p->stage_bytes : 1, 1); /* kicks' bytes zero (compile.c) */
    }
    if (!recv_raw && !p->fin)
        p->fin = malloc(fin_bytes ? fin_bytes : 1);
    if (!p->arena || !p->stage || (!recv_raw && !p->fin)) {
        totex_prog_release(p);
        fprintf(stderr, "totex_alltoall: out of memory for %zu + %zu + %zu bytes of buffers\n", p->arena_bytes,
                p->stage_bytes, fin_bytes);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

int totex_mpi_run_prepare(totex_mpi_plan *pl)
{
    totex_prog *p = pl->prog;
    const int fresh = !p->arena;
    int rc = totex_mpi_run_buffers(p, 1);
    if (rc == MPI_SUCCESS && fresh)
        memset(p->arena, 0, p->arena_bytes); /* its pages made now, not by the first call */
    return rc;
}

/* the run ended with @p rc (not MPI_SUCCESS): the guard told, pending requests dropped */
static int run_failed(totex_mpi_run *x, int rc, int guard_told)
{
    if (x->g && !guard_told)
        rc = totex_mpi_guard_fail(x->g, rc);
    /* do not wait for receives whose senders may never send */
    totex_mpi_drop(x->req, x->p->nrecv, x->req + x->p->nrecv, x->p->nsend);
    x->phase = TOTEX_MPI_RUN_DONE;
    x->rc = rc;
    return rc;
}

int totex_mpi_run_start(totex_mpi_run *x, totex_mpi_plan *pl, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry,
                        const char *send, char *recv, int recv_raw)
{
    totex_prog *p = pl->prog;
    memset(x, 0, sizeof *x);
    x->pl = pl;
    x->p = p;
    x->req = pl->req;
    x->comm = comm;
    x->tag = tag;
    x->kick_tag = tag + TOTEX_MPI_KICK_TAG;
    x->carry = carry && g;
    x->g = g;
    x->send = send;
    x->recv_raw = recv_raw;
    x->phase = TOTEX_MPI_RUN_DONE;
    x->sd_i = SIZE_MAX; /* (the cursors: at the first entries, zero) */
    int rc = totex_mpi_run_buffers(p, recv_raw);
    if (rc != MPI_SUCCESS)
        return x->rc = g ? totex_mpi_guard_fail(g, rc) : rc;
    x->out = recv_raw ? recv : p->fin;
    x->base[0] = send;
    x->base[1] = p->arena;
    x->base[2] = x->out;
    const size_t nreq = p->nrecv + p->nsend;
    for (size_t i = 0; i < nreq; i++)
        x->req[i] = MPI_REQUEST_NULL;
    /* the message behind the predecessor's header: the check's receive may bring it during any wait, so
       its place (in run->out when its blocks are all final and consecutive, as for any receive;
       else arena bytes of its own, never reused: compile.c) is registered before any */
    if (x->carry && p->carry_recv != SIZE_MAX) {
        const totex_prog_recv *cr = &p->carry_rv;
        totex_mpi_guard_carry(g, cr->in_place_ok ? x->out + cr->place_off : p->arena + cr->arena_off,
                              cr->kick ? 0 : cr->bytes); /* (a kick carries the header alone) */
    }
    /* the send carrying this rank's header first, before any wait: its blocks are this rank's own and
       its staging bytes its own (compile.c); its tag is not the plan's, so it overtakes no message */
    x->carry_first = x->carry && p->carry_send != SIZE_MAX;
    if (x->carry_first) {
        totex_prog_send sd;
        totex_prog_body pit;
        carried_send(p, &sd, &pit);
        if ((rc = issue(x, p->carry_send, &sd, pit)) != MPI_SUCCESS)
            return run_failed(x, rc, 0);
    }
    x->phase = TOTEX_MPI_RUN_SENDS;
    return x->rc = TOTEX_MPI_PENDING;
}

int totex_mpi_run_progress(totex_mpi_run *x, int may_wait)
{
    if (x->phase == TOTEX_MPI_RUN_DONE)
        return x->rc;
    totex_prog *p = x->p;
    totex_mpi_guard *g = x->g;
    int rc = MPI_SUCCESS;
    x->may_wait = may_wait;
    if (x->phase == TOTEX_MPI_RUN_SENDS) {
        if ((rc = post_recvs(x, 0)) != MPI_SUCCESS)
            goto out;
        for (; x->i < p->nsend; x->i++, x->dep = 0, x->issued = 0) {
            send_at_i(x);
            const totex_prog_send *sd = &x->sd;
            if ((x->carry_first && x->i == p->carry_send) || (x->ahead && x->pl->early[x->i]))
                continue; /* made at the start, or ahead */
            if ((rc = post_recvs(x, sd->recv_before)) != MPI_SUCCESS)
                goto out;
            for (; x->dep < sd->dep_count; x->dep++) {
                totex_prog_body it = x->dit;
                const size_t d = totex_prog_dep_next(p->scode, &it);
                if ((rc = await(x, x->carry && d == p->carry_recv ? g->in : &x->req[d])) != MPI_SUCCESS)
                    goto out;
                x->dit = it;
            }
            if ((rc = sends_done(x, sd->wait_sends)) != MPI_SUCCESS) /* its staging bytes are free */
                goto out;
            if (!x->issued) {
                if ((rc = issue(x, x->i, sd, x->pit)) != MPI_SUCCESS)
                    goto out;
                x->issued = 1;
            }
            if (p->recv_window && x->forced > 2 * p->recv_window &&
                (rc = recvs_reap(x, x->forced - 2 * p->recv_window)) != MPI_SUCCESS) /* (window: run.c's head) */
                goto out;
        }
        x->phase = TOTEX_MPI_RUN_TAIL;
    }
    if (x->phase == TOTEX_MPI_RUN_TAIL) {
        if ((rc = post_recvs(x, p->nrecv)) != MPI_SUCCESS)
            goto out;
        if (!x->own_done) {
            totex_mpi_own_block(p, x->send, x->out, x->recv_raw);
            x->own_done = 1;
        }
        if (may_wait) {
            if ((rc = totex_mpi_guard_waitall(g, x->req, p->nrecv + p->nsend)) != MPI_SUCCESS)
                return run_failed(x, rc, 1);
        } else {
            /* the blocking form's waitall, one request at a time: every request, then the header's two */
            for (; x->wdone < p->nrecv + p->nsend; x->wdone++)
                if (x->req[x->wdone] != MPI_REQUEST_NULL && (rc = await(x, &x->req[x->wdone])) != MPI_SUCCESS)
                    goto out;
            if (g && (rc = await(x, g->out)) != MPI_SUCCESS)
                goto out;
            if (g && (rc = await(x, g->in)) != MPI_SUCCESS)
                goto out;
        }
        if ((rc = recvs_done(x, p->nrecv)) != MPI_SUCCESS) /* the final blocks not yet copied out */
            goto out;
        x->phase = TOTEX_MPI_RUN_DONE;
        return x->rc = MPI_SUCCESS;
    }
out:
    if (rc == TOTEX_MPI_PENDING && x->ahead && x->phase == TOTEX_MPI_RUN_SENDS)
        rc = issue_ahead(x);
    if (rc == TOTEX_MPI_PENDING)
        return x->rc = rc;
    /* a failed MPI call of this rank (the guard not told yet), or a failure the guard found (told) */
    return run_failed(x, rc, g && g->code != MPI_SUCCESS);
}

int totex_mpi_exec(totex_mpi_plan *pl, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry, const char *send,
                   char *recv, int recv_raw)
{
    totex_prog *p = pl->prog;
    carry = carry && g;
    if (carry && p->pair && !totex_mpi_env_nonblocking()) {
        int rc = totex_mpi_run_buffers(p, recv_raw);
        if (rc != MPI_SUCCESS)
            return g ? totex_mpi_guard_fail(g, rc) : rc;
        return totex_mpi_exec_pair(pl, g, send, recv_raw ? recv : p->fin, recv_raw);
    }
    totex_mpi_run x;
    const int polled = totex_mpi_env_nonblocking();
    int rc = totex_mpi_run_start(&x, pl, comm, tag, g, carry, send, recv, recv_raw);
    if (polled) { /* the run driven as a nonblocking call drives it: progress steps that never block */
        while (rc == TOTEX_MPI_PENDING)
            rc = totex_mpi_run_progress(&x, 0);
        return rc;
    }
    if (rc == TOTEX_MPI_PENDING && p->flat && (!p->recv_window || p->recv_window >= p->nrecv))
        return exec_flat(&x); /* (after the start, which made the carried send: exec_flat skips it) */
    while (rc == TOTEX_MPI_PENDING)
        rc = totex_mpi_run_progress(&x, 1);
    return rc;
}

/* ---- the runs of nonblocking and persistent calls under way in this process ---- */
int totex_mpi_depth;
static totex_mpi_run *live_runs; /* doubly linked through live_next / live_prev */
static int nlive;

int totex_mpi_run_start_nb(totex_mpi_run *x, totex_mpi_plan *pl, MPI_Comm comm, int tag, int kick_tag,
                           totex_mpi_guard *g, const char *send, char *recv, int recv_raw)
{
    int rc = totex_mpi_run_start(x, pl, comm, tag, g, 0, send, recv, recv_raw);
    x->kick_tag = kick_tag; /* (no send is made by a start without carry) */
    if (rc == TOTEX_MPI_PENDING && !x->carry && !totex_mpi_env_no_ahead()) { /* sends ahead of program order (issue_ahead) */
        const size_t nsend = pl->prog->nsend;
        if (pl->early || (pl->early = malloc(nsend ? nsend : 1))) {
            memset(pl->early, 0, nsend);
            x->ahead = 1;
        }
    }
    if (rc == TOTEX_MPI_PENDING) {
        x->live_prev = NULL;
        x->live_next = live_runs;
        if (live_runs)
            live_runs->live_prev = x;
        live_runs = x;
        x->live = 1;
        nlive++;
    }
    return rc;
}

void totex_mpi_run_unlist(totex_mpi_run *x)
{
    if (!x->live)
        return;
    if (x->live_prev)
        x->live_prev->live_next = x->live_next;
    else
        live_runs = x->live_next;
    if (x->live_next)
        x->live_next->live_prev = x->live_prev;
    x->live = 0;
    x->live_next = x->live_prev = NULL;
    nlive--;
}

int totex_mpi_runs_live(void)
{
    return nlive;
}

void totex_mpi_runs_poll(void)
{
    static int polling; /* (a progress step's MPI calls may call back here: Open MPI's progress loop) */
    if (polling || !live_runs)
        return;
    polling = 1;
    for (totex_mpi_run *x = live_runs, *next; x; x = next) {
        next = x->live_next;
        if (totex_mpi_run_progress(x, 0) != TOTEX_MPI_PENDING)
            totex_mpi_run_unlist(x); /* ended: its request finds the outcome in x->rc */
    }
    polling = 0;
}

int totex_mpi_run_post(totex_mpi_run *x)
{
    x->post_only = 1;
    int rc = totex_mpi_run_progress(x, 0);
    x->post_only = 0;
    if (rc != TOTEX_MPI_PENDING)
        totex_mpi_run_unlist(x);
    return rc;
}

void totex_mpi_runs_drain(void)
{
    while (live_runs) {
        if (nlive == 1) { /* the only one: no other run of this rank can hold another rank up */
            totex_mpi_run *x = live_runs;
            totex_mpi_run_progress(x, 1);
            totex_mpi_run_unlist(x);
        } else {
            totex_mpi_runs_poll();
        }
    }
}
