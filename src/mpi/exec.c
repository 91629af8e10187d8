/* Executor of totex_alltoall: runs the program plan.c compiled for this rank.
 *
 * Every receive of the schedule is posted at once (MPI_Irecv, in step order,
 * one tag for the whole plan); then the sends are made in step order, each one
 * waiting only for the receives that brought its blocks, gathered into one
 * message when its blocks do not lie side by side, and MPI_Isend'ed; waiting
 * for every request ends the exchange. This keeps the schedule's data flow (a
 * block travels on only after it arrived) without a barrier between steps:
 * a step starts on a rank as soon as its own inputs are there. Messages
 * between two ranks match in step order (MPI's non-overtaking rule: both
 * sides post them in step order under one tag). Final blocks of one transfer
 * from consecutive sources land directly in the receive buffer when it takes
 * raw bytes. With the cross-rank check on, every wait also watches the
 * check's header and poison (agree.c); on a failure the pending receives are
 * cancelled and the pending sends freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void totex_mpi_plan_release(totex_mpi_plan *p)
{
    free(p->arena);
    free(p->stage);
    free(p->gather);
    p->arena = p->stage = p->gather = NULL;
}

/* receive r lands in the caller's receive buffer */
static int in_place(const totex_mpi_plan *p, size_t r, int recv_raw, int carry)
{
    return recv_raw && p->recvs[r].in_place_ok && !(carry && r == p->carry_recv);
}

/* make send i (its inputs are there): gathered into the staging area when its
   pieces do not lie side by side, or behind this rank's header when it carries it */
static int issue(totex_mpi_plan *p, size_t i, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry,
                 const char *const base[3], MPI_Request *req)
{
    const totex_mpi_send *sd = &p->sends[i];
    const totex_mpi_piece *pc = &p->pieces[sd->piece_first];
    const char *buf;
    int carried = carry && i == p->carry_send, rc;
    if (sd->piece_count == 1 && !carried) {
        buf = base[pc->base] + pc->off;
    } else {
        char *to = p->stage + sd->stage_off;
        for (size_t k = 0; k < sd->piece_count; k++) {
            memcpy(to, base[pc[k].base] + pc[k].off, pc[k].len);
            to += pc[k].len;
        }
        buf = p->stage + sd->stage_off;
    }
    if (carried) { /* this rank's header in front */
        char *h = p->stage + sd->stage_off - TOTEX_MPI_HDR_BYTES;
        memcpy(h, g->mine, TOTEX_MPI_HDR_BYTES);
        rc = MPI_Isend(h, sd->bytes + TOTEX_MPI_HDR_BYTES, MPI_BYTE, sd->peer, TOTEX_MPI_HDR_TAG, comm,
                       &req[p->nrecv + i]);
        totex_mpi_guard_carry(g, NULL, 0, &req[p->nrecv + i]);
        return rc;
    }
    return p->window ? MPI_Issend(buf, sd->bytes, MPI_BYTE, sd->peer, tag, comm, &req[p->nrecv + i])
                     : MPI_Isend(buf, sd->bytes, MPI_BYTE, sd->peer, tag, comm, &req[p->nrecv + i]);
}

int totex_mpi_exec(totex_mpi_plan *p, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry, const char *send,
                   char *recv, int recv_raw)
{
    carry = carry && g;
    int rc = MPI_SUCCESS;
    if (!p->arena) {
        p->arena = malloc(p->arena_bytes ? p->arena_bytes : 1);
        p->stage = malloc(p->stage_bytes ? p->stage_bytes : 1);
        p->gather = p->chunks > 1 ? malloc((size_t)p->slot) : NULL;
        if (!p->arena || !p->stage || (p->chunks > 1 && !p->gather)) {
            totex_mpi_plan_release(p);
            fprintf(stderr, "totex_alltoall: out of memory for %zu + %zu bytes of buffers\n", p->arena_bytes,
                    p->stage_bytes);
            return g ? totex_mpi_guard_fail(g, MPI_ERR_NO_MEM) : MPI_ERR_NO_MEM;
        }
    }
    const char *base[3] = {send, p->arena, recv};
    MPI_Request *req = p->req;
    size_t nreq = p->nrecv + p->nsend;
    for (size_t i = 0; i < nreq; i++)
        req[i] = MPI_REQUEST_NULL;
    for (size_t r = 0; r < p->nrecv && rc == MPI_SUCCESS; r++) {
        const totex_mpi_recv *rv = &p->recvs[r];
        char *dst = in_place(p, r, recv_raw, carry) ? recv + rv->place_off : p->arena + rv->arena_off;
        if (carry && r == p->carry_recv) /* behind rank - 1's header: the check's receive brings it */
            totex_mpi_guard_carry(g, dst, rv->bytes, NULL);
        else
            rc = MPI_Irecv(dst, rv->bytes, MPI_BYTE, rv->peer, tag, comm, &req[r]);
    }
    /* the sends: each queue (the sends to one peer) in order, a send leaving as
       soon as the requests it depends on have completed, whatever the other
       queues wait for */
    size_t cur[TOTEX_MPI_MAX_QUEUES], dcur[TOTEX_MPI_MAX_QUEUES], left = p->nsend;
    for (size_t q = 0; q < p->nqueue; q++) {
        cur[q] = p->qhead[q];
        dcur[q] = 0;
    }
    while (left && rc == MPI_SUCCESS) {
        MPI_Request *wait[TOTEX_MPI_MAX_QUEUES];
        size_t nwait = 0;
        for (size_t q = 0; q < p->nqueue && rc == MPI_SUCCESS; q++) {
            while (cur[q] != SIZE_MAX && rc == MPI_SUCCESS) {
                const size_t i = cur[q];
                const totex_mpi_send *sd = &p->sends[i];
                MPI_Request *blocker = NULL;
                for (; dcur[q] < sd->dep_count; dcur[q]++) {
                    const size_t d = p->deps[sd->dep_first + dcur[q]];
                    MPI_Request *r = carry && d == p->carry_recv ? g->in : &req[d];
                    if (*r != MPI_REQUEST_NULL) {
                        blocker = r;
                        break;
                    }
                }
                if (blocker) { /* once in the list: two copies of one handle would outlive its completion */
                    size_t w = 0;
                    while (w < nwait && wait[w] != blocker)
                        w++;
                    if (w == nwait)
                        wait[nwait++] = blocker;
                    break;
                }
                rc = issue(p, i, comm, tag, g, carry, base, req);
                left--;
                cur[q] = sd->next;
                dcur[q] = 0;
            }
        }
        if (left && rc == MPI_SUCCESS)
            rc = totex_mpi_guard_waitany(g, wait, nwait);
    }
    if (rc == MPI_SUCCESS)
        rc = totex_mpi_guard_waitall(g, req, nreq);
    else if (g)
        rc = totex_mpi_guard_fail(g, rc);
    if (rc != MPI_SUCCESS) { /* do not wait for receives whose senders may never send */
        totex_mpi_drop(req, p->nrecv, req + p->nrecv, p->nsend);
        return rc;
    }
    if (!recv_raw)
        return rc;
    const size_t slot = (size_t)p->slot;
    for (uint32_t i = 0; i < p->n; i++)
        for (int c = 0; i != p->me && c < p->chunks; c++) {
            const size_t r = p->finals[i].recv + (size_t)c, lo = totex_mpi_chunk_lo(p, c),
                         len = totex_mpi_chunk_lo(p, c + 1) - lo;
            if (!in_place(p, r, recv_raw, carry))
                memcpy(recv + i * slot + lo, p->arena + p->recvs[r].arena_off + p->finals[i].pos * len, len);
        }
    return MPI_SUCCESS;
}

const char *totex_mpi_final_block(totex_mpi_plan *p, uint32_t i)
{
    const totex_mpi_final *f = &p->finals[i];
    if (p->chunks == 1)
        return p->arena + p->recvs[f->recv].arena_off + f->pos * (size_t)p->slot;
    for (int c = 0; c < p->chunks; c++) {
        const size_t lo = totex_mpi_chunk_lo(p, c), len = totex_mpi_chunk_lo(p, c + 1) - lo;
        memcpy(p->gather + lo, p->arena + p->recvs[f->recv + (size_t)c].arena_off + f->pos * len, len);
    }
    return p->gather;
}
