/* Per-communicator state of totex_alltoall: the cache (an MPI attribute) of the
 * plans, the private duplicates the exchange and the check's headers run on,
 * and the cached plans themselves (totex_mpi_plan: a program and its run's
 * requests). The network a communicator stands for is spec.c's; the costs
 * measured on it, measure.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int keyval = MPI_KEYVAL_INVALID;
static int self_keyval = MPI_KEYVAL_INVALID;
static totex_mpi_state *live; /* every state whose dup is still allocated */
static totex_mpi_state *last; /* the state of the last call's communicator (totex_mpi_state_last) */

totex_mpi_state *totex_mpi_state_last(MPI_Comm comm)
{
    return last && last->comm == comm ? last : NULL;
}

void totex_mpi_state_remember(totex_mpi_state *st, MPI_Comm comm, int size, int rank)
{
    st->comm = comm;
    st->size = size;
    st->rank = rank;
    last = st;
}

/* receive and drop what failed calls left unreceived on a dropped duplicate
   (MPI libraries warn about unmatched messages at MPI_Finalize) */
static void drain(MPI_Comm comm)
{
    int flag = 1;
    while (flag) {
        MPI_Status status;
        if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &status) != MPI_SUCCESS || !flag)
            break;
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        char *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
        if (!buf)
            break;
        MPI_Recv(buf, bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE);
        free(buf);
    }
}

static void state_release_dup(totex_mpi_state *st)
{
    if (st->poison != MPI_REQUEST_NULL) {
        MPI_Cancel(&st->poison);
        MPI_Wait(&st->poison, MPI_STATUS_IGNORE);
    }
    st->poison = MPI_REQUEST_NULL;
    if (st->dup != MPI_COMM_NULL)
        MPI_Comm_free(&st->dup);
    st->dup = MPI_COMM_NULL;
    if (st->hdr != MPI_COMM_NULL)
        MPI_Comm_free(&st->hdr);
    st->hdr = MPI_COMM_NULL;
    if (st->nb != MPI_COMM_NULL)
        MPI_Comm_free(&st->nb);
    st->nb = MPI_COMM_NULL;
    for (int i = 0; i < st->nretired; i++) {
        drain(st->retired[i]);
        MPI_Comm_free(&st->retired[i]);
    }
    free(st->retired);
    st->retired = NULL;
    st->nretired = 0;
    if (st->prev_live) {
        *st->prev_live = st->next_live;
        if (st->next_live)
            st->next_live->prev_live = st->prev_live;
        st->prev_live = NULL;
        st->next_live = NULL;
    }
}

static int delete_fn(MPI_Comm comm, int kv, void *attr, void *extra)
{
    totex_mpi_state *st = attr;
    if (last == st) /* the communicator is being freed: its handle may name another one later */
        last = NULL;
    if (st->refs) { /* requests of this communicator live on: the last one frees the state */
        st->orphan = 1;
        return MPI_SUCCESS;
    }
    totex_mpi_state_free(st);
    return MPI_SUCCESS;
}

void totex_mpi_state_free(totex_mpi_state *st)
{
    state_release_dup(st);
    while (st->plans) {
        totex_mpi_plan *p = st->plans;
        st->plans = p->next;
        totex_mpi_plan_free(p);
    }
    free(st->packed);
    free(st->named_spec);
    free(st->node_of);
    free(st->v_tot);
    free(st->v_hdrs);
    free(st);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still works:
   free every duplicate there (MPI_COMM_WORLD's attributes may be deleted later). */
static int self_delete_fn(MPI_Comm comm, int kv, void *attr, void *extra)
{
    while (live)
        state_release_dup(live);
    return MPI_SUCCESS;
}

int totex_mpi_state_get(MPI_Comm comm, totex_mpi_state **out)
{
    int rc, flag = 0;
    if (keyval == MPI_KEYVAL_INVALID) {
        if ((rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, NULL)) != MPI_SUCCESS)
            return rc;
        if ((rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_fn, &self_keyval, NULL)) != MPI_SUCCESS)
            return rc;
        if ((rc = MPI_Comm_set_attr(MPI_COMM_SELF, self_keyval, NULL)) != MPI_SUCCESS)
            return rc;
    }
    void *v = NULL;
    if ((rc = MPI_Comm_get_attr(comm, keyval, &v, &flag)) != MPI_SUCCESS)
        return rc;
    if (flag) {
        *out = v;
        return MPI_SUCCESS;
    }
    totex_mpi_state *st = calloc(1, sizeof *st);
    if (!st)
        return MPI_ERR_NO_MEM;
    st->dup = MPI_COMM_NULL;
    st->hdr = MPI_COMM_NULL;
    st->nb = MPI_COMM_NULL;
    st->comm = MPI_COMM_NULL;
    st->poison = MPI_REQUEST_NULL;
    if ((rc = MPI_Comm_set_attr(comm, keyval, st)) != MPI_SUCCESS) {
        free(st);
        return rc;
    }
    *out = st;
    return MPI_SUCCESS;
}

totex_mpi_state *totex_mpi_state_find(MPI_Comm comm)
{
    void *v = NULL;
    int flag = 0;
    if (keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL || MPI_Comm_get_attr(comm, keyval, &v, &flag) != MPI_SUCCESS ||
        !flag)
        return NULL;
    return v;
}

/* the cross-rank check's ring on st->dup's network (ring.c), the same one plan.c compiles the plans for */
static int check_ring(totex_mpi_state *st)
{
    int n = 0, me = 0, rc;
    char spec[512];
    if ((rc = MPI_Comm_size(st->dup, &n)) != MPI_SUCCESS || (rc = MPI_Comm_rank(st->dup, &me)) != MPI_SUCCESS ||
        (rc = totex_mpi_comm_spec(st, st->dup, n, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    totex_error err;
    totex_network *net = n > 1 ? totex_network_parse(spec, &err) : NULL;
    uint32_t pred = 0, succ = 0;
    totex_prog_check_ring(net, (uint32_t)me, &pred, &succ); /* (net NULL: rank - 1, rank + 1) */
    if (!net && n > 1) { /* (cannot happen: the spec is one of ours) */
        pred = (uint32_t)((me + n - 1) % n);
        succ = (uint32_t)((me + 1) % n);
    }
    totex_network_free(net);
    st->ring_pred = (int)pred;
    st->ring_succ = (int)succ;
    return MPI_SUCCESS;
}

int totex_mpi_state_dup(totex_mpi_state *st, MPI_Comm comm, int check)
{
    if (st->dup != MPI_COMM_NULL)
        return MPI_SUCCESS;
    int rc, size = 0, rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    /* the machine's network, when one is named and this communicator spans a sub-box of it (named.c): the
       duplicate numbers the ranks as that sub-box's nodes */
    free(st->named_spec);
    free(st->node_of);
    st->named_spec = NULL;
    st->node_of = st->rank_of = NULL;
    if ((rc = totex_mpi_named_network(st, comm, size, rank)) != MPI_SUCCESS)
        return rc;
    rc = st->node_of ? MPI_Comm_split(comm, 0, st->node_of[rank], &st->dup) : MPI_Comm_dup(comm, &st->dup);
    if (rc != MPI_SUCCESS) {
        st->dup = MPI_COMM_NULL;
        return rc;
    }
    /* errors of the exchange come back to totex, which reports them to the caller */
    MPI_Comm_set_errhandler(st->dup, MPI_ERRORS_RETURN);
    if (!st->prev_live) { /* not yet listed (a state with retired duplicates stays listed) */
        st->next_live = live;
        if (live)
            live->prev_live = &st->next_live;
        st->prev_live = &live;
        live = st;
    }
    /* the settings every rank must share, rank 0's (a TOTEX_* variable set differently on another rank must
       not make the ranks wait for different things): the check, and the reuse of a size class's choice */
    long long shared[2] = {check, totex_mpi_env_switch("TOTEX_SIZE_CLASSES", 1)};
    if ((rc = MPI_Bcast(shared, 2, MPI_LONG_LONG, 0, st->dup)) != MPI_SUCCESS) {
        MPI_Comm_free(&st->dup);
        st->dup = MPI_COMM_NULL;
        return rc;
    }
    check = (int)shared[0];
    st->size_classes = (int)shared[1];
    st->check = check;
    st->calls = 0;
    st->npoisons = 0;
    /* with the check, its headers on a duplicate of their own (agree.c): only headers travel there, so
       their receive takes any tag, and the tag can carry the header */
    int *ub = NULL, flag = 0;
    MPI_Comm hdr = MPI_COMM_NULL;
    if ((rc = check_ring(st)) == MPI_SUCCESS && check && (rc = MPI_Comm_dup(st->dup, &hdr)) == MPI_SUCCESS &&
        (rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag)) != MPI_SUCCESS)
        MPI_Comm_free(&hdr);
    /* the nonblocking and persistent runs' own duplicate (request.c): their tags never meet the plans' */
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_dup(st->dup, &st->nb)) != MPI_SUCCESS && hdr != MPI_COMM_NULL)
        MPI_Comm_free(&hdr);
    if (rc != MPI_SUCCESS) { /* not made: neither is dup, so that the next call tries both again */
        MPI_Comm_free(&st->dup);
        st->dup = MPI_COMM_NULL;
        st->nb = MPI_COMM_NULL;
        return rc;
    }
    MPI_Comm_set_errhandler(st->nb, MPI_ERRORS_RETURN);
    if (!check)
        return MPI_SUCCESS;
    st->hdr = hdr;
    MPI_Comm_set_errhandler(st->hdr, MPI_ERRORS_RETURN);
    st->tag_ub = flag && ub ? *ub : 32767; /* (the same on every process; 32767: MPI's least MPI_TAG_UB) */
    return totex_mpi_state_post_poison(st);
}

int totex_mpi_state_post_poison(totex_mpi_state *st)
{
    return MPI_Irecv(st->poison_buf, 7, MPI_LONG_LONG, MPI_ANY_SOURCE, TOTEX_MPI_POISON_TAG, st->dup, &st->poison);
}

void totex_mpi_state_fail(totex_mpi_state *st)
{
    if (!st->nb_calls) {
        totex_mpi_state_retire(st);
        return;
    }
    /* nonblocking calls in use: when each rank learns of a failure depends on when it tests its calls, so
       the duplicates cannot be replaced at the same call on every rank; every later call fails instead */
    st->broken = 1;
    st->memo.plan = NULL;
}

void totex_mpi_state_retire(totex_mpi_state *st)
{
    if (st->poison != MPI_REQUEST_NULL) {
        MPI_Cancel(&st->poison);
        MPI_Wait(&st->poison, MPI_STATUS_IGNORE);
    }
    st->poison = MPI_REQUEST_NULL;
    /* kept, not freed: a freed communicator's context id may be given to the
       next duplicate, and the failed call's messages still in flight would
       then match there (seen with Open MPI 4.1). Freed with the state. */
    MPI_Comm *r = realloc(st->retired, sizeof *r * (size_t)(st->nretired + 3));
    if (r) {
        st->retired = r;
        st->retired[st->nretired++] = st->dup;
        if (st->hdr != MPI_COMM_NULL)
            st->retired[st->nretired++] = st->hdr;
        if (st->nb != MPI_COMM_NULL)
            st->retired[st->nretired++] = st->nb;
    } else {
        MPI_Comm_free(&st->dup);
        if (st->hdr != MPI_COMM_NULL)
            MPI_Comm_free(&st->hdr);
        if (st->nb != MPI_COMM_NULL)
            MPI_Comm_free(&st->nb);
    }
    st->dup = MPI_COMM_NULL;
    st->hdr = MPI_COMM_NULL;
    st->nb = MPI_COMM_NULL;
}

totex_mpi_plan *totex_mpi_plan_new(totex_prog *prog, long long slot)
{
    totex_mpi_plan *p = calloc(1, sizeof *p);
    const size_t nreq = totex_prog_entries(prog);
    if (p)
        p->req = calloc(nreq ? nreq : 1, sizeof *p->req);
    if (!p || !p->req) {
        free(p);
        totex_prog_free(prog);
        return NULL;
    }
    p->prog = prog;
    p->slot = slot;
    return p;
}

void totex_mpi_plan_free(totex_mpi_plan *p)
{
    if (!p)
        return;
    if (p->users) { /* requests run copies of it: the last one frees it */
        p->dropped = 1;
        return;
    }
    totex_mpi_plan_free(p->nonblocking); /* (its last user frees it when it has users) */
    p->nonblocking = NULL;
    while (p->spares) {
        totex_mpi_plan *c = p->spares;
        p->spares = c->next;
        totex_mpi_plan_free(c);
    }
    totex_prog_free(p->prog);
    free(p->req);
    free(p->early);
    free(p);
}
