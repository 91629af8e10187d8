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
 * a second request array and the last start's requests are freed after them. */
#include <stdlib.h>

#include "internal.h"

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
    }
    int rc = totex_mpi_run_flat_post(&f->run);
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
    int rc = totex_mpi_run_flat_post(&f->run);
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
    f->own = f->spare = NULL;
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
