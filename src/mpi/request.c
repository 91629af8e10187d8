/* Nonblocking and persistent total exchange: totex_ialltoall, totex_alltoall_init
 * and their requests (include/totex/mpi.h; docs/mpi.md, "Nonblocking and
 * persistent").
 *
 * A request owns a copy of the cached plan's program (program.h
 * totex_prog_copy: buffers of its own, so that several requests and blocking
 * calls of one block size may be under way at once) and runs it with the
 * executor's resumable run (run.c) on the communicator's duplicate for such
 * runs (st->nb), where each nonblocking call's messages have tags of their
 * own: 2 * ((call mod 256) * 64 + plan id), its kicks the next tag. A
 * persistent request runs on a duplicate of its own (tags 0 and 1).
 *
 * What runs when:
 * - totex_ialltoall with a plan cached for its block size: no collective
 *   operation; the call's cross-rank check (agree.c: its header to the ring's
 *   successor, the poison watched by every test) starts with its run, and it
 *   returns at once. Without a cached plan it first plans as a blocking call's
 *   first call does (collective, checked), then starts the same way.
 * - totex_alltoall_init: checked across ranks (collective) and planned; the
 *   request's program copied and its buffers made. totex_start: the run alone
 *   (no check: the arguments were agreed at the init).
 * - totex_test / totex_wait take every run under way in this process one step
 *   on (run.c totex_mpi_runs_poll), so that one rank's order of waits cannot
 *   hold up another's; a blocking totex call first takes them all to their
 *   end. Outside totex calls nothing moves (the Open MPI component registers a
 *   progress function that does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/mpi.h"

enum { KIND_NONBLOCKING = 0, KIND_PERSISTENT = 1 };

struct totex_request_s {
    int kind;
    int active;              /* started and not yet completed by totex_test / totex_wait */
    int running;             /* its run was started (else it completed at its start: nothing to move) */
    int rc;                  /* the outcome of a request that completed at its start */
    MPI_Comm comm;           /* the caller's communicator */
    void *recvbuf;
    int recvcount;
    MPI_Datatype recvtype;   /* the caller's, or the persistent request's duplicate */
    MPI_Datatype sendtype_own, recvtype_own; /* duplicates of derived datatypes (persistent), else MPI_DATATYPE_NULL */
    totex_mpi_prepared pr;
    totex_mpi_plan *pl;      /* this request's copy of the cached plan (NULL: no data moves) */
    totex_mpi_plan *src;     /* the cached plan it copies (a user of it while the request lives) */
    MPI_Comm run_comm;       /* st->nb, or the persistent request's own duplicate */
    int tag, kick_tag;
    char *packed;            /* the send blocks packed (n * slot bytes) when they are not raw */
    int guarded;
    totex_mpi_guard g;
    char hbuf[TOTEX_PROG_HDR_BYTES + TOTEX_PROG_CARRY_MAX]; /* the predecessor's header of this call */
    totex_mpi_run run;
    int fixed;               /* a persistent request whose flat program is all posted at its start (fx) */
    totex_mpi_fixed fx;
};

static int fail(int code, const char *msg)
{
    fprintf(stderr, "totex_ialltoall: %s\n", msg);
    return code;
}

/* a duplicate of a derived datatype (the caller may free it after the init), else the handle itself */
static int keep_type(MPI_Datatype t, MPI_Datatype *own, MPI_Datatype *use)
{
    int ni = 0, na = 0, nd = 0, combiner = MPI_COMBINER_NAMED;
    *own = MPI_DATATYPE_NULL;
    *use = t;
    if (t == MPI_DATATYPE_NULL || MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS ||
        combiner == MPI_COMBINER_NAMED)
        return MPI_SUCCESS;
    int rc = MPI_Type_dup(t, own);
    if (rc == MPI_SUCCESS)
        *use = *own;
    return rc;
}

/* spare copies a cached plan keeps for the next nonblocking calls of its block size */
#define SPARES_MAX 4

static void request_release(struct totex_request_s *r)
{
    totex_mpi_run_unlist(&r->run);
    totex_mpi_plan *src = r->src;
    if (r->pl && src && !src->dropped && src->nspares < SPARES_MAX && !r->active && r->run.rc == MPI_SUCCESS) {
        r->pl->next = src->spares; /* kept, buffers and all, for the next call */
        src->spares = r->pl;
        src->nspares++;
    } else if (r->pl) {
        totex_mpi_plan_free(r->pl);
    }
    if (src && --src->users == 0 && src->dropped) {
        src->dropped = 0;
        totex_mpi_plan_free(src);
    }
    totex_mpi_fixed_release(&r->fx);
    free(r->packed);
    if (r->sendtype_own != MPI_DATATYPE_NULL)
        MPI_Type_free(&r->sendtype_own);
    if (r->recvtype_own != MPI_DATATYPE_NULL)
        MPI_Type_free(&r->recvtype_own);
    if (r->kind == KIND_PERSISTENT && r->run_comm != MPI_COMM_NULL)
        MPI_Comm_free(&r->run_comm);
    totex_mpi_state *st = r->pr.st;
    if (st && --st->refs == 0 && st->orphan)
        totex_mpi_state_free(st);
    free(r);
}

/* the request's own copy of the prepared plan, and its send buffer when the blocks are packed */
static int own_plan(struct totex_request_s *r)
{
    totex_mpi_plan *src = r->pr.plan;
    int rc;
    if (r->kind == KIND_NONBLOCKING &&
        (rc = totex_mpi_plan_nonblocking(r->pr.st, r->pr.st->dup, r->pr.size, r->pr.rank, src, totex_mpi_verbose_level(), &src)) !=
            MPI_SUCCESS)
        return rc;
    if (src->spares) { /* a copy an earlier call left, its buffers made */
        r->pl = src->spares;
        src->spares = r->pl->next;
        src->nspares--;
        r->pl->next = NULL;
    } else {
        totex_prog *copy = totex_prog_copy(src->prog);
        if (!copy || !(r->pl = totex_mpi_plan_new(copy, src->slot)))
            return fail(MPI_ERR_NO_MEM, "out of memory for the request's copy of its program");
        r->pl->sig = src->sig;
        r->pl->id = src->id;
    }
    r->src = src;
    src->users++;
    const size_t bytes = (size_t)r->pr.size * (size_t)r->pr.slot;
    if (!r->pr.send_raw && !(r->packed = malloc(bytes ? bytes : 1)))
        return fail(MPI_ERR_NO_MEM, "out of memory for the request's packed send blocks");
    return MPI_SUCCESS;
}

/* start the request's exchange: pack, then start the run (checked unless persistent); a request with no data
   to move (count 0) or one rank completes here */
static int request_start(struct totex_request_s *r)
{
    totex_mpi_prepared *pr = &r->pr;
    int rc = MPI_SUCCESS;
    r->active = 1;
    r->running = 0;
    r->rc = MPI_SUCCESS;
    if (!r->pl) {
        if (pr->size == 1 && !pr->in_place && pr->sig > 0) { /* one rank: a local copy */
            char *tmp = malloc((size_t)pr->slot);
            if (!tmp)
                return r->rc = MPI_ERR_NO_MEM;
            if ((rc = totex_mpi_pack_blocks(pr->sendbuf, pr->sendcount, pr->sendtype, 1, pr->slot, tmp, NULL,
                                            r->comm)) ==
                MPI_SUCCESS)
                rc = totex_mpi_unpack_block(tmp, pr->slot, r->recvbuf, 0, r->recvcount, r->recvtype, r->comm);
            free(tmp);
        }
        return r->rc = rc;
    }
    const char *send = pr->sendbuf;
    if (!pr->send_raw) {
        if ((rc = totex_mpi_pack_blocks(pr->sendbuf, pr->sendcount, pr->sendtype, pr->size, pr->slot, r->packed,
                                        pr->st->node_of, r->comm)) != MPI_SUCCESS)
            return r->rc = rc;
        send = r->packed;
    }
    if (r->fixed) { /* (persistent: unchecked, the arguments were agreed at the init) */
        r->running = 1;
        if ((rc = totex_mpi_fixed_start(&r->fx, r->pl, r->run_comm, r->tag, send, pr->recv_raw ? r->recvbuf : NULL,
                                        pr->recv_raw)) != MPI_SUCCESS) {
            r->running = 0;
            r->rc = rc;
        }
        return rc;
    }
    totex_mpi_state *st = pr->st;
    totex_mpi_guard *g = NULL;
    r->guarded = r->kind == KIND_NONBLOCKING && st->check;
    if (r->guarded) {
        g = &r->g;
        rc = totex_mpi_guard_start_into(g, st, pr->size, pr->rank, pr->sig,
                                        pr->slot + TOTEX_MPI_FORM_NONBLOCKING * TOTEX_MPI_FORM_UNIT, r->hbuf);
        if (rc != MPI_SUCCESS) {
            totex_mpi_guard_drop(g);
            totex_mpi_state_fail(st);
            return r->rc = rc;
        }
        st->nb_active++;
    }
    r->running = 1;
    rc = totex_mpi_run_start_nb(&r->run, r->pl, r->run_comm, r->tag, r->kick_tag, g, send,
                                pr->recv_raw ? r->recvbuf : NULL, pr->recv_raw);
    if (rc != TOTEX_MPI_PENDING)
        return rc;
    /* its first progress step now: the receives and the sends of its own blocks posted as the call
       returns, not at the caller's first test (a whole test interval later); no request tested, as
       MPI_Ialltoall's own implementations do not */
    totex_mpi_run_post(&r->run);
    return MPI_SUCCESS;
}

/* the end of a request whose run ended with @p rc: the blocks unpacked where they are not raw, a failed
   check dropped; MPI code */
static int request_end(struct totex_request_s *r, int rc)
{
    totex_mpi_prepared *pr = &r->pr;
    totex_mpi_state *st = pr->st;
    if (r->guarded) {
        st->nb_active--;
        if (r->g.code != MPI_SUCCESS || rc != MPI_SUCCESS) {
            totex_mpi_guard_drop(&r->g);
            totex_mpi_state_fail(st);
        }
        r->guarded = 0;
    }
    if (rc == MPI_SUCCESS && !pr->recv_raw) {
        const char *own = (pr->send_raw ? (const char *)pr->sendbuf : r->packed) + (size_t)pr->rank * (size_t)pr->slot;
        for (int i = 0; i < pr->size && rc == MPI_SUCCESS; i++)
            rc = totex_mpi_unpack_block(i == pr->rank ? own : totex_prog_final_block(r->pl->prog, (uint32_t)i),
                                        pr->slot, r->recvbuf, st->rank_of ? st->rank_of[i] : i, r->recvcount,
                                        r->recvtype, r->comm);
    }
    r->active = 0;
    r->running = 0;
    return rc;
}

/* the outcome of an active request after one progress step of every run (may_wait: until it is complete):
   MPI code, or TOTEX_MPI_PENDING */
static int request_progress(struct totex_request_s *r, int may_wait)
{
    if (!r->running) {
        r->active = 0;
        return r->rc;
    }
    int rc;
    if (r->fixed) {
        /* waits only when no other run of this rank is under way: one may be what a peer waits for */
        for (;;) {
            totex_mpi_runs_poll();
            const int wait = may_wait && totex_mpi_runs_live() == 0;
            rc = totex_mpi_fixed_progress(&r->fx, wait);
            if (rc != TOTEX_MPI_PENDING || !may_wait)
                break;
        }
        return rc == TOTEX_MPI_PENDING ? rc : request_end(r, rc);
    }
    for (;;) {
        if (r->run.live && totex_mpi_runs_live() == 1 && may_wait) { /* the only run of this rank */
            rc = totex_mpi_run_progress(&r->run, 1);
            totex_mpi_run_unlist(&r->run);
        } else {
            totex_mpi_runs_poll(); /* (this one among them) */
            rc = r->run.live ? TOTEX_MPI_PENDING : totex_mpi_run_progress(&r->run, 0);
        }
        if (rc != TOTEX_MPI_PENDING || !may_wait)
            break;
    }
    return rc == TOTEX_MPI_PENDING ? rc : request_end(r, rc);
}

/* the two calls that make a request: the arguments checked and the plan found or made (alltoall.c),
   the request's program copied */
static int request_make(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, int kind, struct totex_request_s **out)
{
    *out = NULL;
    struct totex_request_s *r = calloc(1, sizeof *r);
    if (!r)
        return fail(MPI_ERR_NO_MEM, "out of memory for a request");
    r->kind = kind;
    r->comm = comm;
    r->recvbuf = recvbuf;
    r->recvcount = recvcount;
    r->recvtype = recvtype;
    r->sendtype_own = r->recvtype_own = MPI_DATATYPE_NULL;
    r->run_comm = MPI_COMM_NULL;
    int rc = MPI_SUCCESS;
    if (kind == KIND_PERSISTENT && sendbuf != MPI_IN_PLACE &&
        (rc = keep_type(sendtype, &r->sendtype_own, &sendtype)) != MPI_SUCCESS) {
        free(r);
        return rc;
    }
    if (kind == KIND_PERSISTENT && (rc = keep_type(recvtype, &r->recvtype_own, &r->recvtype)) != MPI_SUCCESS) {
        if (r->sendtype_own != MPI_DATATYPE_NULL)
            MPI_Type_free(&r->sendtype_own);
        free(r);
        return rc;
    }
    recvtype = r->recvtype;
    const totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(),
                                   .form = kind == KIND_PERSISTENT ? TOTEX_MPI_FORM_PERSISTENT
                                                                   : TOTEX_MPI_FORM_NONBLOCKING,
                                   .prepare = &r->pr,
                                   .entry = kind == KIND_PERSISTENT ? "totex_alltoall_init" : "totex_ialltoall"};
    rc = totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
    if (rc == MPI_SUCCESS && r->pr.st)
        r->pr.st->refs++;
    if (rc != MPI_SUCCESS) {
        r->pr.st = NULL;
        request_release(r);
        return rc;
    }
    totex_mpi_state *st = r->pr.st;
    if (r->pr.plan) {
        if ((rc = own_plan(r)) != MPI_SUCCESS) {
            request_release(r);
            return rc;
        }
        if (kind == KIND_PERSISTENT) {
            /* a duplicate of its own (collective: every rank's init got here, the arguments agreed) */
            r->tag = 0;
            r->kick_tag = 1;
            if ((rc = MPI_Comm_dup(comm, &r->run_comm)) != MPI_SUCCESS) {
                r->run_comm = MPI_COMM_NULL;
                request_release(r);
                return rc;
            }
            MPI_Comm_set_errhandler(r->run_comm, MPI_ERRORS_RETURN);
            r->fixed = totex_mpi_fixed_applies(r->pl->prog);
        } else {
            const long long call = st->nb_calls;
            r->run_comm = st->nb;
            r->tag = 2 * ((int)(call % 256) * TOTEX_MPI_MAX_PLANS + r->pl->id);
            r->kick_tag = r->tag + 1;
        }
    }
    if (st)
        st->nb_calls++; /* (the same on every rank: every rank's call got here) */
    *out = r;
    return MPI_SUCCESS;
}

static int totex_ialltoall_in(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, totex_request *request)
{
    if (!request)
        return fail(MPI_ERR_REQUEST, "request is NULL (pass the address of a totex_request)");
    *request = TOTEX_REQUEST_NULL;
    struct totex_request_s *r;
    int rc = request_make(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, KIND_NONBLOCKING, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = request_start(r)) != MPI_SUCCESS && !r->running) {
        request_release(r);
        return rc;
    }
    *request = r;
    return MPI_SUCCESS;
}

static int totex_alltoall_init_in(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, totex_request *request)
{
    (void)info;
    if (!request)
        return fail(MPI_ERR_REQUEST, "request is NULL (pass the address of a totex_request)");
    *request = TOTEX_REQUEST_NULL;
    struct totex_request_s *r;
    int rc = request_make(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, KIND_PERSISTENT, &r);
    if (rc != MPI_SUCCESS)
        return rc;
    if (r->pl && (rc = totex_mpi_run_prepare(r->pl)) != MPI_SUCCESS) { /* its buffers made now, not by a start */
        request_release(r);
        return rc;
    }
    *request = r;
    return MPI_SUCCESS;
}

static int totex_start_in(totex_request *request)
{
    if (!request || !*request)
        return fail(MPI_ERR_REQUEST, "totex_start: no request (TOTEX_REQUEST_NULL)");
    struct totex_request_s *r = *request;
    if (r->kind != KIND_PERSISTENT)
        return fail(MPI_ERR_REQUEST, "totex_start: not a persistent request (made by totex_alltoall_init)");
    if (r->active)
        return fail(MPI_ERR_REQUEST, "totex_start: the request is active (complete it with totex_wait or totex_test "
                                     "before starting it again)");
    totex_mpi_runs_poll();
    return request_start(r);
}

static int totex_test_in(totex_request *request, int *flag)
{
    if (!flag)
        return fail(MPI_ERR_ARG, "totex_test: flag is NULL");
    *flag = 0;
    if (!request || !*request) { /* as MPI_Test of MPI_REQUEST_NULL: complete */
        *flag = 1;
        return MPI_SUCCESS;
    }
    struct totex_request_s *r = *request;
    if (!r->active) { /* an inactive persistent request: complete */
        *flag = 1;
        return MPI_SUCCESS;
    }
    int rc = request_progress(r, 0);
    if (rc == TOTEX_MPI_PENDING)
        return MPI_SUCCESS;
    *flag = 1;
    if (r->kind == KIND_NONBLOCKING) {
        request_release(r);
        *request = TOTEX_REQUEST_NULL;
    }
    return rc;
}

static int totex_wait_in(totex_request *request)
{
    if (!request || !*request)
        return MPI_SUCCESS;
    struct totex_request_s *r = *request;
    if (!r->active)
        return MPI_SUCCESS;
    int rc = request_progress(r, 1);
    if (r->kind == KIND_NONBLOCKING) {
        request_release(r);
        *request = TOTEX_REQUEST_NULL;
    }
    return rc;
}

static int totex_request_free_in(totex_request *request)
{
    if (!request || !*request)
        return MPI_SUCCESS;
    struct totex_request_s *r = *request;
    int rc = MPI_SUCCESS;
    if (r->active) /* as MPI_Request_free of an active request: it completes, then is freed */
        rc = request_progress(r, 1);
    request_release(r);
    *request = TOTEX_REQUEST_NULL;
    return rc;
}

/* ---- the public functions: each counted in and out (totex_mpi_depth) ---- */
int totex_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, totex_request *request)
{
    totex_mpi_depth++;
    int rc = totex_ialltoall_in(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
    totex_mpi_depth--;
    return rc;
}

int totex_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, totex_request *request)
{
    totex_mpi_depth++;
    int rc = totex_alltoall_init_in(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
    totex_mpi_depth--;
    return rc;
}

MPI_Request totex_mpi_request_watch(struct totex_request_s *request)
{
    const struct totex_request_s *r = request;
    return r && r->active && r->running && r->fixed ? totex_mpi_fixed_watch(&r->fx) : MPI_REQUEST_NULL;
}

MPI_Request *totex_mpi_request_requests(struct totex_request_s *r, size_t *count)
{
    *count = 0;
    return r && r->active && r->running && r->fixed && r->pr.recv_raw ? totex_mpi_fixed_requests(&r->fx, count)
                                                                       : NULL;
}

int totex_mpi_request_restart(struct totex_request_s *r)
{
    totex_mpi_prepared *pr = &r->pr;
    if (!r->active || !r->running || !r->fixed || !pr->recv_raw)
        return MPI_ERR_REQUEST;
    totex_mpi_depth++;
    int rc = pr->send_raw ? MPI_SUCCESS
                          : totex_mpi_pack_blocks(pr->sendbuf, pr->sendcount, pr->sendtype, pr->size, pr->slot,
                                                  r->packed, pr->st->node_of, r->comm);
    if (rc == MPI_SUCCESS)
        rc = totex_mpi_fixed_restart(&r->fx);
    totex_mpi_depth--;
    return rc;
}

int totex_start(totex_request *request)
{
    totex_mpi_depth++;
    int rc = totex_start_in(request);
    totex_mpi_depth--;
    return rc;
}

int totex_test(totex_request *request, int *flag)
{
    totex_mpi_depth++;
    int rc = totex_test_in(request, flag);
    totex_mpi_depth--;
    return rc;
}

int totex_wait(totex_request *request)
{
    totex_mpi_depth++;
    int rc = totex_wait_in(request);
    totex_mpi_depth--;
    return rc;
}

int totex_request_free(totex_request *request)
{
    totex_mpi_depth++;
    int rc = totex_request_free_in(request);
    totex_mpi_depth--;
    return rc;
}
