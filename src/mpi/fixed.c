/* A persistent all-to-all's flat program on persistent point-to-point requests (request.c).
 *
 * A flat program (program.h: every send from this rank's own blocks, no waits before it, every receive in
 * its place) has nothing for the executor to decide once it starts: its receives and sends are fixed
 * messages between fixed buffers. For a persistent request (MPI-4.0 Section 6.12, MPI_Alltoall_init) the
 * buffers are fixed too, so totex_alltoall_init makes each of them once, with MPI_Recv_init and
 * MPI_Send_init (MPI-4.0 Section 3.9), and a start is one MPI_Startall; completion is the MPI library's
 * own test of those requests. The resumable run (run.c) would instead post every message again at every
 * start and test them one by one from its loop, a fixed cost per start that made a start + wait dearer
 * than a blocking call at small blocks (docs/performance.md, "The three forms through plain MPI calls").
 * Programs that are not flat keep the resumable run, whose sends wait for receives. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

int totex_mpi_fixed_applies(const totex_prog *p)
{
    if (!p->flat || (p->recv_window && p->recv_window < p->nrecv) || totex_mpi_env_nonblocking())
        return 0;
    for (size_t i = 0; i < p->nsend; i++) /* each send made from where its one piece lies, never staged */
        if (p->sends[i].piece_count != 1 || p->pieces[p->sends[i].piece_first].len != (size_t)p->sends[i].bytes)
            return 0;
    return 1;
}

int totex_mpi_fixed_init(totex_mpi_fixed *f, totex_prog *p, MPI_Comm comm, int tag, const char *send, char *out,
                         int recv_raw)
{
    f->p = p;
    f->recv_raw = recv_raw;
    f->send = send;
    f->out = out;
    f->nreq = p->nrecv + p->nsend;
    f->tested = 0;
    if (!(f->req = malloc((f->nreq ? f->nreq : 1) * sizeof *f->req))) {
        fprintf(stderr, "totex_alltoall_init: out of memory for %zu persistent requests\n", f->nreq);
        f->nreq = 0;
        return MPI_ERR_NO_MEM;
    }
    for (size_t i = 0; i < f->nreq; i++)
        f->req[i] = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    for (size_t r = 0; r < p->nrecv && rc == MPI_SUCCESS; r++)
        rc = MPI_Recv_init(out + p->recvs[r].place_off, p->recvs[r].bytes, MPI_BYTE, p->recvs[r].peer, tag, comm,
                           &f->req[r]);
    for (size_t i = 0; i < p->nsend && rc == MPI_SUCCESS; i++) {
        const totex_prog_send *sd = &p->sends[i];
        rc = (sd->sync ? MPI_Ssend_init : MPI_Send_init)(send + p->pieces[sd->piece_first].off, sd->bytes, MPI_BYTE,
                                                         sd->peer, tag, comm, &f->req[p->nrecv + i]);
    }
    if (rc != MPI_SUCCESS)
        totex_mpi_fixed_free(f);
    return rc;
}

int totex_mpi_fixed_start(totex_mpi_fixed *f)
{
    f->tested = 0;
    int rc = f->nreq ? MPI_Startall((int)f->nreq, f->req) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        totex_mpi_own_block(f->p, f->send, f->out, f->recv_raw);
    return rc;
}

int totex_mpi_fixed_progress(totex_mpi_fixed *f, int may_wait)
{
    if (may_wait)
        return f->nreq ? MPI_Waitall((int)f->nreq, f->req, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    if (totex_mpi_request_peek) { /* inside the MPI library's progress loop: look, do not test */
        for (; f->tested < f->nreq; f->tested++)
            if (!totex_mpi_request_peek(f->req[f->tested]))
                return TOTEX_MPI_PENDING;
    }
    int done = 0;
    int rc = f->nreq ? MPI_Testall((int)f->nreq, f->req, &done, MPI_STATUSES_IGNORE) : (done = 1, MPI_SUCCESS);
    return rc != MPI_SUCCESS ? rc : done ? MPI_SUCCESS : TOTEX_MPI_PENDING;
}

void totex_mpi_fixed_free(totex_mpi_fixed *f)
{
    for (size_t i = 0; f->req && i < f->nreq; i++)
        if (f->req[i] != MPI_REQUEST_NULL)
            MPI_Request_free(&f->req[i]);
    free(f->req);
    f->req = NULL;
    f->nreq = 0;
}
