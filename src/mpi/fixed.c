/* A persistent all-to-all's flat program run without the resumable run's loop (request.c).
 *
 * A flat program (program.h: every send from this rank's own blocks, no waits before it, every receive in
 * its place: direct and pairwise, the choices at small blocks) has nothing for the executor to decide once
 * it starts. A start of a persistent request (MPI-4.0 Section 6.12, MPI_Alltoall_init) then posts every
 * receive and makes every send at once, as the blocking call's flat loop does (run.c
 * totex_mpi_run_flat_post), and completion is one test of all of them; the resumable run would post
 * them in its rounds and test them one by one from its loop, a fixed cost per start that made a start +
 * wait dearer than a blocking call at small blocks (docs/performance.md, "The three forms through plain
 * MPI calls"). Persistent point-to-point requests made once at the init (MPI_Send_init, MPI_Recv_init)
 * were tried first and were slower still on Open MPI 4.1 at small blocks (its persistent sends do not take
 * the short-message path). Programs that are not flat keep the resumable run, whose sends wait for
 * receives.
 *
 * A restart after a start that went well redoes nothing of the run but its posting (f->ready). The Open
 * MPI component restarts a request without completing it first (totex_mpi_fixed_restart): it has seen
 * each request of the last start complete as Open MPI completed it, so the new receives and sends go into
 * a second request array and the last start's requests are freed after them.
 *
 * The program's entries are packed (src/program/code.h) and decoded as the run reads them; a start would
 * decode them all again each time (on 2 ranks, 8 to 128 B, that made a start + wait 1.01 to 1.09 x a
 * blocking call: docs/performance.md, "After the packed program"). So the first start of a set of arguments
 * decodes them once into a table of MPI calls (fixed_table: buffer, count, peer of each receive and send),
 * and the restarts post from the table. A program with a send gathered or padded into staging bytes (its
 * bytes copied at every start) keeps the decoding post. */
#include <stdlib.h>

#include "internal.h"

struct totex_mpi_fixed_post {
    char *buf;
    int bytes, peer, sync;
};

/* f->posts made from f->run as totex_mpi_run_start() left it (its buffers and places known): every receive
   and every send decoded once; left NULL (posting decodes then) when a send is staged, is a kick, or a
   header rides on the run (none do: a persistent run is unchecked), or when out of memory */
static void fixed_table(totex_mpi_fixed *f)
{
    totex_mpi_run *x = &f->run;
    const totex_prog *p = x->p;
    free(f->posts);
    f->posts = NULL;
    if (x->carry)
        return;
    struct totex_mpi_fixed_post *t = malloc((p->nrecv + p->nsend ? p->nrecv + p->nsend : 1) * sizeof *t);
    if (!t)
        return;
    totex_prog_rcur rc_;
    totex_prog_rcur_init(&rc_);
    for (size_t r = 0; r < p->nrecv; r++) {
        totex_prog_recv rv;
        totex_prog_recv_next(p->rcode, &rc_, &rv);
        t[r] = (struct totex_mpi_fixed_post){x->out + rv.place_off, rv.bytes, rv.peer, 0};
    }
    totex_prog_scur sc;
    totex_prog_scur_init(&sc);
    for (size_t i = 0; i < p->nsend; i++) {
        totex_prog_send sd;
        totex_prog_body pit;
        totex_prog_send_next(p->scode, &sc, &sd, NULL, &pit);
        totex_prog_piece pc = {0, 0, 0};
        if (sd.piece_count == 1)
            totex_prog_piece_next(p->scode, &pit, &pc);
        if (sd.kick || sd.piece_count != 1 || pc.len != (size_t)sd.bytes) { /* (staged at every start) */
            free(t);
            return;
        }
        t[p->nrecv + i] = (struct totex_mpi_fixed_post){(char *)x->base[pc.base] + pc.off, sd.bytes, sd.peer, sd.sync};
    }
    f->posts = t;
}

/* every receive posted and every send made from f->posts (as totex_mpi_run_flat_post() would from the
   program), this rank's own block placed; MPI_SUCCESS, or the code of a failed call (the requests dropped) */
static int fixed_post(totex_mpi_fixed *f)
{
    totex_mpi_run *x = &f->run;
    if (!f->posts)
        return totex_mpi_run_flat_post(x);
    const totex_prog *p = x->p;
    const struct totex_mpi_fixed_post *t = f->posts;
    MPI_Request *req = x->req;
    const size_t nreq = p->nrecv + p->nsend;
    int rc = MPI_SUCCESS;
    size_t k = 0;
    for (; k < p->nrecv && rc == MPI_SUCCESS; k++)
        rc = MPI_Irecv(t[k].buf, t[k].bytes, MPI_BYTE, t[k].peer, x->tag, x->comm, &req[k]);
    for (; k < nreq && rc == MPI_SUCCESS; k++)
        rc = t[k].sync ? MPI_Issend(t[k].buf, t[k].bytes, MPI_BYTE, t[k].peer, x->tag, x->comm, &req[k])
                       : MPI_Isend(t[k].buf, t[k].bytes, MPI_BYTE, t[k].peer, x->tag, x->comm, &req[k]);
    if (rc == MPI_SUCCESS) {
        totex_mpi_own_block(p, x->send, x->out, x->recv_raw);
        return rc;
    }
    totex_mpi_drop(req, p->nrecv, req + p->nrecv, p->nsend); /* do not wait for receives whose senders may never send */
    return rc;
}

int totex_mpi_fixed_applies(const totex_prog *p)
{
    return p->flat && (!p->recv_window || p->recv_window >= p->nrecv) && !totex_mpi_env_nonblocking();
}

int totex_mpi_fixed_start(totex_mpi_fixed *f, totex_mpi_plan *pl, MPI_Comm comm, int tag, const char *send, char *recv,
                          int recv_raw)
{
    f->tested = 0;
    /* a restart with the arguments of the start before, which ended well: the run as that start left it
       (its requests MPI_REQUEST_NULL again, freed by the test or wait that completed them) */
    if (!(f->ready && f->run.pl == pl && f->run.comm == comm && f->run.tag == tag && f->run.send == send &&
          f->run.recv_raw == recv_raw && (!recv_raw || f->run.out == recv))) {
        f->ready = 0;
        int rc = totex_mpi_run_start(&f->run, pl, comm, tag, NULL, 0, send, recv, recv_raw);
        f->spare = f->own; /* (the run's requests are the plan's again) */
        if (rc != TOTEX_MPI_PENDING)
            return rc;
        fixed_table(f);
    }
    int rc = fixed_post(f);
    f->ready = rc == MPI_SUCCESS;
    return rc;
}

int totex_mpi_fixed_pending(totex_mpi_fixed *f)
{
    const MPI_Request *req = f->run.req;
    const size_t nreq = f->run.p->nrecv + f->run.p->nsend;
    for (; f->tested < nreq; f->tested++)
        if (req[f->tested] != MPI_REQUEST_NULL && !totex_mpi_request_peek(req[f->tested]))
            return 1;
    return 0;
}

int totex_mpi_fixed_restart(totex_mpi_fixed *f)
{
    const size_t nreq = f->run.p->nrecv + f->run.p->nsend;
    if (!f->ready)
        return MPI_ERR_REQUEST;
    if (!f->own) {
        if (!(f->own = malloc((nreq ? nreq : 1) * sizeof *f->own)))
            return MPI_ERR_NO_MEM;
        for (size_t i = 0; i < nreq; i++)
            f->own[i] = MPI_REQUEST_NULL;
        f->spare = f->own;
    }
    MPI_Request *last = f->run.req; /* the last start's, all complete */
    f->run.req = f->spare;
    f->spare = last;
    f->tested = 0;
    int rc = fixed_post(f);
    int done = 0, rc2 = nreq ? MPI_Testall((int)nreq, last, &done, MPI_STATUSES_IGNORE) : (done = 1, MPI_SUCCESS);
    if (rc2 == MPI_SUCCESS && !done) /* (not all complete after all: a caller's mistake, made safe) */
        rc2 = MPI_Waitall((int)nreq, last, MPI_STATUSES_IGNORE);
    f->ready = rc == MPI_SUCCESS && rc2 == MPI_SUCCESS;
    return rc != MPI_SUCCESS ? rc : rc2;
}

MPI_Request *totex_mpi_fixed_requests(const totex_mpi_fixed *f, size_t *count)
{
    *count = f->run.p->nrecv + f->run.p->nsend;
    return f->run.req;
}

void totex_mpi_fixed_release(totex_mpi_fixed *f)
{
    free(f->own);
    free(f->posts);
    f->own = f->spare = NULL;
    f->posts = NULL;
}

MPI_Request totex_mpi_fixed_watch(const totex_mpi_fixed *f)
{
    return f->tested < f->run.p->nrecv + f->run.p->nsend ? f->run.req[f->tested] : MPI_REQUEST_NULL;
}

int totex_mpi_fixed_progress(totex_mpi_fixed *f, int may_wait)
{
    MPI_Request *req = f->run.req;
    const size_t nreq = f->run.p->nrecv + f->run.p->nsend;
    int rc;
    if (may_wait) {
        rc = nreq ? MPI_Waitall((int)nreq, req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
        f->ready = f->ready && rc == MPI_SUCCESS;
        return rc;
    }
    if (totex_mpi_request_peek && totex_mpi_fixed_pending(f)) /* in the MPI library's progress loop: look */
        return TOTEX_MPI_PENDING;
    int done = 0;
    rc = nreq ? MPI_Testall((int)nreq, req, &done, MPI_STATUSES_IGNORE) : (done = 1, MPI_SUCCESS);
    f->ready = f->ready && rc == MPI_SUCCESS;
    return rc != MPI_SUCCESS ? rc : done ? MPI_SUCCESS : TOTEX_MPI_PENDING;
}
