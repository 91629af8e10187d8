/* coll/totex: the module of a communicator (coll_totex.h): MPI_Alltoall,
 * MPI_Alltoallv, MPI_Ialltoall and MPI_Alltoall_init run by totex (include/totex/mpi.h);
 * everything else is left to the modules below.
 *
 * - Intercommunicators: the modules below (saved when the module is enabled)
 *   serve all three, as they would without totex.
 * - MPI_Alltoallv: totex_alltoallv() (src/mpi/alltoallv.c), errors as MPI_Alltoall's.
 * - MPI_Alltoall: totex_alltoall(); its errors go to the communicator's error
 *   handler as Open MPI raises any collective's.
 * - MPI_Ialltoall and MPI_Alltoall_init: a request of Open MPI's
 *   (OMPI_REQUEST_COLL) wrapping a totex_request (totex_ialltoall,
 *   totex_alltoall_init); MPI_Start runs totex_start. The component's
 *   progress function (registered with opal_progress) tests every active
 *   request once (a persistent request's flat run only once the request it
 *   waits for first has completed: totex_mpi_request_watch, looked at
 *   without a call), so the exchange advances inside any MPI call (MPI_Test,
 *   MPI_Wait, a receive elsewhere), and completes Open MPI's request when the
 *   run ends. The function does not re-enter itself (totex's MPI calls may
 *   call Open MPI's progress loop again). Inside it, totex asks whether a
 *   request has completed (REQUEST_COMPLETE) before it calls MPI_Test, which
 *   would run the whole progress loop a second time (totex_mpi_request_peek).
 */
#include <stdio.h>
#include <string.h>

#include "coll_totex.h"
#include "internal.h"
#include "totex/mpi.h"

/* ---- requests ---- */
/* Open MPI's MPI_Ialltoall keeps the call's derived datatypes in the request until it completes
   (ompi_coll_base_retain_datatypes), taking the request for an ompi_coll_base_nbc_request_t
   (ompi/mca/coll/base/coll_base_util.h): ours is one. That header cannot be included outside Open MPI's
   tree (it needs a Fortran header Debian does not ship), so its layout is repeated here, for the one
   Open MPI version the component is built for and loads into (coll_totex_component.c checks) */
typedef struct ompi_coll_base_nbc_request_t {
    ompi_request_t super;
    union {
        ompi_request_complete_fn_t req_complete_cb;
        ompi_request_free_fn_t req_free;
    } cb;
    void *req_complete_cb_data;
    union {
        struct {
            opal_object_t *objs[2];
        } objs;
    } data;
} ompi_coll_base_nbc_request_t;
OMPI_DECLSPEC OBJ_CLASS_DECLARATION(ompi_coll_base_nbc_request_t);

typedef struct mca_coll_totex_request_t {
    ompi_coll_base_nbc_request_t super;
    totex_request treq;
    int active;                                  /* listed among the active requests */
    MPI_Request watch;                           /* totex_mpi_request_watch() after its last start or test */
    int armed;                                   /* its run's requests call part_done as they complete */
    int pending;                                 /* of those, the ones not yet complete (+1 while arming) */
    int settled;                                 /* all complete: Open MPI's request completed, totex's open */
    int err;                                     /* the first error among them */
    struct mca_coll_totex_request_t *next, *prev;
} mca_coll_totex_request_t;

static void request_construct(mca_coll_totex_request_t *r)
{
    r->treq = TOTEX_REQUEST_NULL;
    r->active = 0;
    r->watch = MPI_REQUEST_NULL;
    r->armed = r->pending = r->settled = 0;
    r->err = MPI_SUCCESS;
    r->next = r->prev = NULL;
}

OBJ_CLASS_INSTANCE(mca_coll_totex_request_t, ompi_coll_base_nbc_request_t, request_construct, NULL);

static mca_coll_totex_request_t *active; /* requests under way, doubly linked */

static void list_add(mca_coll_totex_request_t *r)
{
    r->prev = NULL;
    r->next = active;
    if (active)
        active->prev = r;
    active = r;
    r->active = 1;
}

static void list_remove(mca_coll_totex_request_t *r)
{
    if (!r->active)
        return;
    if (r->prev)
        r->prev->next = r->next;
    else
        active = r->next;
    if (r->next)
        r->next->prev = r->prev;
    r->next = r->prev = NULL;
    r->active = 0;
    r->watch = MPI_REQUEST_NULL;
}

/* Open MPI's request done with @p rc */
static void complete(mca_coll_totex_request_t *r, int rc)
{
    list_remove(r);
    r->super.super.req_status.MPI_ERROR = rc;
    r->super.super.req_status.MPI_SOURCE = MPI_UNDEFINED;
    r->super.super.req_status.MPI_TAG = MPI_UNDEFINED;
    ompi_request_complete(&r->super.super, true);
}

/* whether @p r has completed, without a pass of the progress loop (totex_mpi_request_peek) */
static int request_peek(MPI_Request r)
{
    return REQUEST_COMPLETE((ompi_request_t *)r);
}

/* 1 when no active request has anything for a test to do: each one's watched request (totex_mpi_request_watch)
   has not completed, and no other run of this rank is under way. The loop of every MPI wait calls the
   progress function at every pass, so this look is all most of its calls do */
static int all_quiet(void)
{
    for (const mca_coll_totex_request_t *r = active; r; r = r->next)
        if (r->watch == MPI_REQUEST_NULL || REQUEST_COMPLETE(r->watch))
            return 0;
    return totex_mpi_runs_live() == 0;
}

/* one test of active request @p r (totex_mpi_request_peek set): completed, or its watch renewed; 1 when
   it completed */
static int request_try(mca_coll_totex_request_t *r)
{
    int flag = 0, rc = totex_test(&r->treq, &flag);
    if (flag || rc != MPI_SUCCESS) {
        complete(r, rc);
        return 1;
    }
    r->watch = totex_mpi_request_watch(r->treq);
    return 0;
}

int mca_coll_totex_progress(void)
{
    static int in_progress;
    int done = 0;
    if (!active || in_progress || totex_mpi_depth || all_quiet()) /* (depth: inside a totex call, whose run may
                                                                     be the one under way) */
        return 0;
    in_progress = 1;
    totex_mpi_request_peek = request_peek; /* (the loop that called this function just moved the library on) */
    for (mca_coll_totex_request_t *r = active, *next; r; r = next) {
        next = r->next;
        if (r->watch != MPI_REQUEST_NULL && !REQUEST_COMPLETE(r->watch) && totex_mpi_runs_live() == 0)
            continue; /* (what a test would wait for first has not completed: nothing to do) */
        done += request_try(r);
    }
    totex_mpi_request_peek = NULL;
    in_progress = 0;
    return done;
}

static int request_free(ompi_request_t **req)
{
    mca_coll_totex_request_t *r = (mca_coll_totex_request_t *)*req;
    list_remove(r);
    totex_request_free(&r->treq); /* (a settled run's requests freed; an armed one's waited for, their calls
                                     to part_done completing this request first) */
    r->armed = r->settled = 0;
    OMPI_REQUEST_FINI(&r->super.super);
    OBJ_RELEASE(r);
    *req = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int request_cancel(ompi_request_t *req, int flag)
{
    (void)req;
    (void)flag;
    return OMPI_SUCCESS; /* a collective cannot be cancelled (MPI-4.0 Section 3.8.4): nothing happens */
}

/* our progress function moved behind every other, once, at the first request's start: it is registered
   when the component opens, which can be before the BTLs' are, and a pass of Open MPI's progress loop
   that brings a request's last message should find it in the same pass, not in the next one */
static void progress_last(void)
{
    static int moved;
    if (moved)
        return;
    moved = 1;
    opal_progress_unregister(mca_coll_totex_progress);
    opal_progress_register(mca_coll_totex_progress);
}

/* Persistent requests whose flat run puts the blocks straight into the caller's buffer (fixed.c) are not
   tested from the progress loop: each of the run's MPI requests calls part_done as Open MPI completes it
   (ompi_request_set_callback), and the last one completes our request there, in the same pass of the
   progress loop; totex's request stays open until the next MPI_Start, which makes the new sends and
   receives first and frees the last start's requests after (totex_mpi_request_restart), so nothing of
   totex's stands between the last message of one exchange and the first sends of the next. Not with
   threads (opal_using_threads: a request could complete while being armed) */
static void settle(mca_coll_totex_request_t *r)
{
    r->armed = 0;
    r->settled = 1;
    complete(r, r->err);
}

static int part_done(ompi_request_t *q)
{
    mca_coll_totex_request_t *r = (mca_coll_totex_request_t *)q->req_complete_cb_data;
    if (q->req_status.MPI_ERROR != MPI_SUCCESS && r->err == MPI_SUCCESS)
        r->err = q->req_status.MPI_ERROR;
    if (--r->pending == 0)
        settle(r);
    return 0;
}

/* 1 when @p r's run's requests were armed (part_done), 0 when it is to be tested from the progress loop */
static int arm(mca_coll_totex_request_t *r)
{
    size_t n = 0;
    MPI_Request *q = opal_using_threads() ? NULL : totex_mpi_request_requests(r->treq, &n);
    if (!q)
        return 0;
    r->armed = 1;
    r->err = MPI_SUCCESS;
    r->pending = 1; /* (no settling while arming: an armed request that has completed calls part_done at once) */
    for (size_t i = 0; i < n; i++)
        if (q[i] != MPI_REQUEST_NULL) {
            r->pending++;
            ompi_request_set_callback(q[i], part_done, r);
        }
    if (--r->pending == 0)
        settle(r);
    return 1;
}

/* mark @p r active (started) and list it or arm it; @p rc the start's outcome */
static int request_started(mca_coll_totex_request_t *r, int rc)
{
    progress_last();
    r->super.super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.super.req_complete = REQUEST_PENDING;
    r->super.super.req_status.MPI_ERROR = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        complete(r, rc);
        return OMPI_SUCCESS; /* (the error is the request's: MPI_Wait returns it) */
    }
    if (arm(r))
        return OMPI_SUCCESS;
    list_add(r);
    r->watch = totex_mpi_request_watch(r->treq);
    return OMPI_SUCCESS;
}

static int request_start(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; i++) {
        mca_coll_totex_request_t *r = (mca_coll_totex_request_t *)reqs[i];
        if (r->settled) { /* totex's request still open (arm): restarted without completing it */
            r->settled = 0;
            int rc = totex_mpi_request_restart(r->treq);
            if (rc != MPI_SUCCESS) { /* completed (its requests were dropped), to be started afresh */
                int flag = 0;
                totex_mpi_request_peek = request_peek;
                (void)totex_test(&r->treq, &flag);
                totex_mpi_request_peek = NULL;
            }
            request_started(r, rc);
            continue;
        }
        request_started(r, totex_start(&r->treq));
    }
    return OMPI_SUCCESS;
}

static mca_coll_totex_request_t *request_new(struct ompi_communicator_t *comm, int persistent)
{
    mca_coll_totex_request_t *r = OBJ_NEW(mca_coll_totex_request_t);
    if (!r)
        return NULL;
    OMPI_REQUEST_INIT(&r->super.super, persistent);
    r->super.super.req_type = OMPI_REQUEST_COLL;
    r->super.super.req_mpi_object.comm = comm;
    r->super.super.req_free = request_free;
    r->super.super.req_cancel = request_cancel;
    r->super.super.req_start = persistent ? request_start : NULL;
    return r;
}

/* ---- the collectives ---- */
static int totex_coll_alltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                               struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                               mca_coll_base_module_t *module)
{
    mca_coll_totex_module_t *m = (mca_coll_totex_module_t *)module;
    if (OMPI_COMM_IS_INTER(comm))
        return m->below.coll_alltoall(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, m->below.coll_alltoall_module);
    /* as totex_alltoall(), its TOTEX_VERBOSE line naming the MPI call */
    const totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .entry = "MPI_Alltoall"};
    totex_mpi_depth++;
    int rc = totex_mpi_alltoall(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, &opt);
    totex_mpi_depth--;
    return rc;
}

static int totex_coll_alltoallv(const void *sbuf, const int *scounts, const int *sdisps,
                                struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts, const int *rdisps,
                                struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                                mca_coll_base_module_t *module)
{
    mca_coll_totex_module_t *m = (mca_coll_totex_module_t *)module;
    if (OMPI_COMM_IS_INTER(comm))
        return m->below.coll_alltoallv(sbuf, scounts, sdisps, sdtype, rbuf, rcounts, rdisps, rdtype, comm,
                                       m->below.coll_alltoallv_module);
    const totex_mpi_options opt = {.verbose = totex_mpi_verbose_level(), .entry = "MPI_Alltoallv"};
    totex_mpi_depth++;
    int rc = totex_mpi_alltoallv(sbuf, scounts, sdisps, sdtype, rbuf, rcounts, rdisps, rdtype, comm, &opt);
    totex_mpi_depth--;
    return rc;
}

static int totex_coll_ialltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                                struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                                ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_totex_module_t *m = (mca_coll_totex_module_t *)module;
    if (OMPI_COMM_IS_INTER(comm))
        return m->below.coll_ialltoall(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, request,
                                       m->below.coll_ialltoall_module);
    mca_coll_totex_request_t *r = request_new(comm, 0);
    if (!r)
        return OMPI_ERR_OUT_OF_RESOURCE;
    int rc = totex_ialltoall(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, &r->treq);
    if (rc != MPI_SUCCESS) {
        OMPI_REQUEST_FINI(&r->super.super);
        OBJ_RELEASE(r);
        return rc;
    }
    request_started(r, MPI_SUCCESS);
    *request = &r->super.super;
    return OMPI_SUCCESS;
}

static int totex_coll_alltoall_init(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                                    int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                                    struct ompi_info_t *info, ompi_request_t **request,
                                    mca_coll_base_module_t *module)
{
    mca_coll_totex_module_t *m = (mca_coll_totex_module_t *)module;
    if (OMPI_COMM_IS_INTER(comm))
        return m->below.coll_alltoall_init(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, info, request,
                                           m->below.coll_alltoall_init_module);
    mca_coll_totex_request_t *r = request_new(comm, 1);
    if (!r)
        return OMPI_ERR_OUT_OF_RESOURCE;
    int rc = totex_alltoall_init(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, MPI_INFO_NULL, &r->treq);
    if (rc != MPI_SUCCESS) {
        OMPI_REQUEST_FINI(&r->super.super);
        OBJ_RELEASE(r);
        return rc;
    }
    *request = &r->super.super;
    return OMPI_SUCCESS;
}

/* ---- the module ---- */
static void module_construct(mca_coll_totex_module_t *m)
{
    memset(&m->below, 0, sizeof m->below);
}

static void module_destruct(mca_coll_totex_module_t *m)
{
    if (m->below.coll_alltoall_module)
        OBJ_RELEASE(m->below.coll_alltoall_module);
    if (m->below.coll_ialltoall_module)
        OBJ_RELEASE(m->below.coll_ialltoall_module);
    if (m->below.coll_alltoall_init_module)
        OBJ_RELEASE(m->below.coll_alltoall_init_module);
    if (m->below.coll_alltoallv_module)
        OBJ_RELEASE(m->below.coll_alltoallv_module);
}

OBJ_CLASS_INSTANCE(mca_coll_totex_module_t, mca_coll_base_module_t, module_construct, module_destruct);

static int module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_totex_module_t *m = (mca_coll_totex_module_t *)module;
    /* the modules below for what totex leaves (kept, as coll/sync keeps its) */
    m->below.coll_alltoall = comm->c_coll->coll_alltoall;
    m->below.coll_alltoall_module = comm->c_coll->coll_alltoall_module;
    m->below.coll_ialltoall = comm->c_coll->coll_ialltoall;
    m->below.coll_ialltoall_module = comm->c_coll->coll_ialltoall_module;
    m->below.coll_alltoall_init = comm->c_coll->coll_alltoall_init;
    m->below.coll_alltoall_init_module = comm->c_coll->coll_alltoall_init_module;
    m->below.coll_alltoallv = comm->c_coll->coll_alltoallv;
    m->below.coll_alltoallv_module = comm->c_coll->coll_alltoallv_module;
    if (OMPI_COMM_IS_INTER(comm) && (!m->below.coll_alltoall || !m->below.coll_ialltoall || !m->below.coll_alltoallv)) {
        fprintf(stderr, "totex: no module below coll/totex serves all-to-all on an intercommunicator\n");
        return OMPI_ERR_NOT_FOUND;
    }
    if (m->below.coll_alltoall_module)
        OBJ_RETAIN(m->below.coll_alltoall_module);
    if (m->below.coll_ialltoall_module)
        OBJ_RETAIN(m->below.coll_ialltoall_module);
    if (m->below.coll_alltoall_init_module)
        OBJ_RETAIN(m->below.coll_alltoall_init_module);
    if (m->below.coll_alltoallv_module)
        OBJ_RETAIN(m->below.coll_alltoallv_module);
    return OMPI_SUCCESS;
}

int mca_coll_totex_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    (void)enable_progress_threads;
    (void)enable_mpi_threads;
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_totex_comm_query(struct ompi_communicator_t *comm, int *priority)
{
    (void)comm; /* (every communicator: intercommunicators go to the modules below, module_enable) */
    if (mca_coll_totex_component.priority <= 0)
        return NULL;
    mca_coll_totex_module_t *m = OBJ_NEW(mca_coll_totex_module_t);
    if (!m)
        return NULL;
    *priority = mca_coll_totex_component.priority;
    m->super.coll_module_enable = module_enable;
    m->super.coll_alltoall = totex_coll_alltoall;
    m->super.coll_ialltoall = totex_coll_ialltoall;
    m->super.coll_alltoall_init = totex_coll_alltoall_init;
    m->super.coll_alltoallv = totex_coll_alltoallv;
    return &m->super;
}
