/* Per-communicator state of totex_alltoall: the plan cache (an MPI attribute),
 * the private duplicate the exchange runs on, the network a communicator
 * stands for, and t_s / t_c measured once by ping-pong (include/totex/mpi.h). */
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
    state_release_dup(st);
    while (st->plans) {
        totex_mpi_plan *p = st->plans;
        st->plans = p->next;
        totex_mpi_plan_free(p);
    }
    free(st->packed);
    free(st);
    return MPI_SUCCESS;
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
    st->comm = MPI_COMM_NULL;
    st->poison = MPI_REQUEST_NULL;
    if ((rc = MPI_Comm_set_attr(comm, keyval, st)) != MPI_SUCCESS) {
        free(st);
        return rc;
    }
    *out = st;
    return MPI_SUCCESS;
}

/* the cross-rank check's ring on st->dup's network (ring.c), the same one plan.c compiles the plans for */
static int check_ring(totex_mpi_state *st)
{
    int n = 0, me = 0, rc;
    char spec[512];
    if ((rc = MPI_Comm_size(st->dup, &n)) != MPI_SUCCESS || (rc = MPI_Comm_rank(st->dup, &me)) != MPI_SUCCESS ||
        (rc = totex_mpi_comm_spec(st->dup, n, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    totex_error err;
    totex_network *net = n > 1 ? totex_network_parse(spec, &err) : NULL;
    uint32_t pred = 0, succ = 0;
    totex_mpi_check_ring(net, (uint32_t)me, &pred, &succ); /* (net NULL: rank - 1, rank + 1) */
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
    int rc = MPI_Comm_dup(comm, &st->dup);
    if (rc != MPI_SUCCESS)
        return rc;
    /* errors of the exchange come back to totex, which reports them to the caller */
    MPI_Comm_set_errhandler(st->dup, MPI_ERRORS_RETURN);
    if (!st->prev_live) { /* not yet listed (a state with retired duplicates stays listed) */
        st->next_live = live;
        if (live)
            live->prev_live = &st->next_live;
        st->prev_live = &live;
        live = st;
    }
    st->check = check;
    st->calls = 0;
    st->has_early = 0;
    /* with the check, its headers on a duplicate of their own (agree.c): only headers travel there, so
       their receive takes any tag, and the tag can carry the header */
    int *ub = NULL, flag = 0;
    MPI_Comm hdr = MPI_COMM_NULL;
    if ((rc = check_ring(st)) == MPI_SUCCESS && check && (rc = MPI_Comm_dup(comm, &hdr)) == MPI_SUCCESS &&
        (rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag)) != MPI_SUCCESS)
        MPI_Comm_free(&hdr);
    if (rc != MPI_SUCCESS) { /* not made: neither is dup, so that the next call tries both again */
        MPI_Comm_free(&st->dup);
        st->dup = MPI_COMM_NULL;
        return rc;
    }
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
    MPI_Comm *r = realloc(st->retired, sizeof *r * (size_t)(st->nretired + 2));
    if (r) {
        st->retired = r;
        st->retired[st->nretired++] = st->dup;
        if (st->hdr != MPI_COMM_NULL)
            st->retired[st->nretired++] = st->hdr;
    } else {
        MPI_Comm_free(&st->dup);
        if (st->hdr != MPI_COMM_NULL)
            MPI_Comm_free(&st->hdr);
    }
    st->dup = MPI_COMM_NULL;
    st->hdr = MPI_COMM_NULL;
}

/* ---- network of a communicator ----------------------------------------- */

static void spec_add(char *spec, size_t cap, int m, int periodic)
{
    size_t len = strlen(spec);
    if (m == 2)
        snprintf(spec + len, cap - len, "%sk2", len ? "*" : "");
    else
        snprintf(spec + len, cap - len, "%s%s:%d", len ? "*" : "", periodic ? "ring" : "path", m);
}

/* *cart = 1 if comm has a Cartesian topology */
static int is_cartesian(MPI_Comm comm, int *cart)
{
#ifdef SMPI_H
    /* SimGrid's SMPI (3.32) aborts in MPI_Topo_test: ask MPI_Cartdim_get, which
       fails on a communicator without a Cartesian topology (comm is the
       private duplicate: its errors return) */
    int nd = 0;
    *cart = MPI_Cartdim_get(comm, &nd) == MPI_SUCCESS;
    return MPI_SUCCESS;
#else
    int topo = MPI_UNDEFINED, rc = MPI_Topo_test(comm, &topo);
    *cart = rc == MPI_SUCCESS && topo == MPI_CART;
    return rc;
#endif
}

int totex_mpi_comm_spec(MPI_Comm comm, int size, char *spec, size_t cap)
{
    int rc, cart = 0;
    spec[0] = '\0';
    if ((rc = is_cartesian(comm, &cart)) != MPI_SUCCESS)
        return rc;
    if (cart) {
        int nd = 0;
        if ((rc = MPI_Cartdim_get(comm, &nd)) != MPI_SUCCESS)
            return rc;
        int *dims = malloc(sizeof(int) * (size_t)(nd ? nd : 1) * 3);
        if (!dims)
            return MPI_ERR_NO_MEM;
        int *periods = dims + (nd ? nd : 1), *coords = periods + (nd ? nd : 1);
        if (nd && (rc = MPI_Cart_get(comm, nd, dims, periods, coords)) != MPI_SUCCESS) {
            free(dims);
            return rc;
        }
        /* MPI dimension i -> totex factor nd-1-i: the last MPI dimension varies fastest
           in the Cartesian rank, the first totex factor is the least significant */
        for (int i = nd - 1; i >= 0; i--)
            if (dims[i] > 1)
                spec_add(spec, cap, dims[i], periods[i]);
        free(dims);
        return MPI_SUCCESS;
    }
    int dims[3] = {0, 0, 0};
    if ((rc = MPI_Dims_create(size, 3, dims)) != MPI_SUCCESS)
        return rc;
    for (int i = 2; i >= 0; i--)
        if (dims[i] > 1)
            spec_add(spec, cap, dims[i], 1);
    return MPI_SUCCESS;
}

static double env_seconds(const char *name, double dflt)
{
    double v = dflt;
    totex_mpi_env_seconds(name, &v);
    return v;
}

/* ---- t_s and t_c of a communicator (collective, once) -------------------- */


#define PP_ROUNDS 20
#define PP_SMALL 8
#define PP_LARGE 65536
#define PP_FLOWS 4 /* concurrent flows of the link measurement */
#define PP_LADDER 5 /* message sizes 256, 512, .. 4096 (TOTEX_MPI_PAD_MAX) bytes timed for padding */
#define PP_LADDER_MIN 256

/* time of PP_FLOWS concurrent @p bytes-byte messages from rank 0 to rank 1 and
   PP_SMALL bytes back (rank 0 reports it); buf holds PP_FLOWS * bytes */
static int flows(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc = MPI_SUCCESS;
    double t0 = 0;
    MPI_Request r[PP_FLOWS];
    for (int k = -1; k < PP_ROUNDS / 4 && rc == MPI_SUCCESS; k++) { /* 1 warm-up round */
        if (k == 0)
            t0 = MPI_Wtime();
        for (int f = 0; f < PP_FLOWS; f++)
            r[f] = MPI_REQUEST_NULL;
        for (int f = 0; f < PP_FLOWS && rc == MPI_SUCCESS; f++)
            rc = rank == 0 ? MPI_Isend(buf + (size_t)f * bytes, bytes, MPI_BYTE, 1, TOTEX_MPI_PP_TAG, comm, &r[f])
                           : MPI_Irecv(buf + (size_t)f * bytes, bytes, MPI_BYTE, 0, TOTEX_MPI_PP_TAG, comm, &r[f]);
        int wrc = MPI_Waitall(PP_FLOWS, r, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
        if (rc == MPI_SUCCESS)
            rc = rank == 0 ? MPI_Recv(buf, PP_SMALL, MPI_BYTE, 1, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE)
                           : MPI_Send(buf, PP_SMALL, MPI_BYTE, 0, TOTEX_MPI_PP_TAG, comm);
    }
    *rtt = (MPI_Wtime() - t0) / (PP_ROUNDS / 4);
    return rc;
}

/* one round trip of @p bytes between ranks 0 and 1, its time in *rtt */
static int pingpong_once(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc, peer = 1 - rank;
    double t0 = MPI_Wtime();
    if (rank == 0) {
        rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
    } else {
        rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
    }
    *rtt = MPI_Wtime() - t0;
    return rc;
}

/* time of one round trip of @p bytes between ranks 0 and 1 (rank 0 reports it) */
static int pingpong(MPI_Comm comm, int rank, char *buf, int bytes, double *rtt)
{
    int rc = MPI_SUCCESS;
    int peer = 1 - rank;
    double t0 = 0;
    for (int r = -2; r < PP_ROUNDS && rc == MPI_SUCCESS; r++) { /* 2 warm-up round trips */
        if (r == 0)
            t0 = MPI_Wtime();
        if (rank == 0) {
            rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(buf, bytes, MPI_BYTE, peer, TOTEX_MPI_PP_TAG, comm);
        }
    }
    *rtt = (MPI_Wtime() - t0) / PP_ROUNDS;
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median one-way time of PP_ROUNDS round trips of @p bytes between ranks 0 and 1 (rank 0 reports it):
   robust to the interruptions of a shared machine, which only ever add time */
static int pingpong_median(MPI_Comm comm, int rank, char *buf, int bytes, double *oneway)
{
    double t[PP_ROUNDS];
    int rc = MPI_SUCCESS;
    for (int r = -2; r < PP_ROUNDS && rc == MPI_SUCCESS; r++) { /* 2 warm-up round trips */
        double rtt = 0;
        rc = pingpong_once(comm, rank, buf, bytes, &rtt);
        if (r >= 0)
            t[r] = rtt;
    }
    qsort(t, PP_ROUNDS, sizeof t[0], cmp_double);
    *oneway = (t[PP_ROUNDS / 2 - 1] + t[PP_ROUNDS / 2]) / 4;
    return rc;
}

/* t_s, t_c and t_l for comm (the private duplicate): TOTEX_TS / TOTEX_TC /
   TOTEX_TL as read on rank 0, else measured once between ranks 0 and 1: a
   ping-pong (one-way time of 8 bytes gives t_s, the slope to 64 KiB gives t_c,
   the time per byte of one flow), then PP_FLOWS concurrent 64 KiB messages one
   way and 8 bytes back (their time less two 8-byte one-way times, over their
   bytes, gives t_l, the time per byte of the link under several flows; at most
   t_c); both again with TOTEX_MPI_COST_CHUNK-byte messages (per-byte times of
   chunk-sized messages: MPI libraries and networks treat sizes differently);
   broadcast, cached in st. */
int totex_mpi_costs(MPI_Comm comm, int size, int rank, totex_mpi_state *st)
{
    if (st->costs_known)
        return MPI_SUCCESS;
    int rc;
    const char *es = getenv("TOTEX_TS"), *ec = getenv("TOTEX_TC");
    int need = 0;
    if (rank == 0)
        need = (!es || !*es || !ec || !*ec) && size >= 2; /* TOTEX_TL alone does not need a measurement */
    if ((rc = MPI_Bcast(&need, 1, MPI_INT, 0, comm)) != MPI_SUCCESS)
        return rc;
    double t_small = 0, t_large = 0, t_flows = 0, t_chunk = 0, t_chunk_flows = 0, t_ladder[PP_LADDER + 1] = {0};
    int prc = MPI_SUCCESS;
    if (need && rank < 2) {
        char *buf = calloc(PP_FLOWS, PP_LARGE);
        if (!buf) {
            prc = MPI_ERR_NO_MEM; /* both ranks may fail here: then neither sends */
        } else {
            double rtt = 0;
            prc = pingpong(comm, rank, buf, PP_SMALL, &rtt);
            t_small = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = pingpong(comm, rank, buf, PP_LARGE, &rtt);
            t_large = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = flows(comm, rank, buf, PP_LARGE, &t_flows);
            if (prc == MPI_SUCCESS)
                prc = pingpong(comm, rank, buf, TOTEX_MPI_COST_CHUNK, &rtt);
            t_chunk = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = flows(comm, rank, buf, TOTEX_MPI_COST_CHUNK, &t_chunk_flows);
            /* median one-way times of 256 .. 4096 bytes and, last, of 8 bytes again, to compare with */
            for (int k = 0; k <= PP_LADDER && prc == MPI_SUCCESS; k++)
                prc = pingpong_median(comm, rank, buf, k < PP_LADDER ? PP_LADDER_MIN << k : PP_SMALL, &t_ladder[k]);
            free(buf);
        }
    }
    /* {t_s, t_c, t_s measured, t_c measured, error, t_l, t_l measured, t_c and t_l at TOTEX_MPI_COST_CHUNK,
        pad, t_pad, pad measured, pad forced, split bytes, t_split, one-way t_4k, t_8k, t_64k} */
    double v[18] = {0};
    if (rank == 0) {
        totex_comb_cost def;
        totex_comb_cost_default(&def);
        double ts = def.t_s, tc = def.t_c;
        if (need && prc == MPI_SUCCESS) {
            tc = (t_large - t_small) / (double)(PP_LARGE - PP_SMALL);
            if (!(tc > 0))
                tc = t_large > 0 ? t_large / PP_LARGE : def.t_c;
            ts = t_small - PP_SMALL * tc;
            if (!(ts > 0))
                ts = t_small > 0 ? t_small : def.t_s;
        }
        v[0] = env_seconds("TOTEX_TS", ts);
        v[1] = env_seconds("TOTEX_TC", tc);
        v[2] = need && prc == MPI_SUCCESS && v[0] == ts;
        v[3] = need && prc == MPI_SUCCESS && v[1] == tc;
        v[4] = prc;
        double tl = v[1]; /* with t_c set and no measurement: one flow fills a link */
        if (need && prc == MPI_SUCCESS) {
            tl = (t_flows - 2 * t_small) / ((double)PP_FLOWS * PP_LARGE);
            if (!(tl > 0) || tl > v[1])
                tl = v[1];
        }
        v[5] = env_seconds("TOTEX_TL", tl);
        v[6] = need && prc == MPI_SUCCESS && v[5] == tl;
        /* the same two per-byte times for chunk-sized messages (only when measured and not overridden) */
        v[7] = v[1];
        v[8] = v[5];
        if (v[3] && v[6]) {
            double c8 = (t_chunk - t_small) / (double)(TOTEX_MPI_COST_CHUNK - PP_SMALL);
            double l8 = (t_chunk_flows - 2 * t_small) / ((double)PP_FLOWS * TOTEX_MPI_COST_CHUNK);
            v[7] = c8 > 0 ? c8 : v[1];
            v[8] = l8 > 0 && l8 <= v[7] ? l8 : v[7];
        }
        /* padding: the size of 256 .. 4096 bytes whose message arrived soonest (medians), if at least 2%
           sooner than an 8-byte one (a network or MPI library whose small-message latency drops at some
           size, as SMPI's calibrated factors have it from 1426 bytes on: 3.4% sooner at 2048 bytes over
           one link, more over several); a larger message never arrives sooner on a network whose cost
           grows with the size, and then nothing is padded */
        if (need && prc == MPI_SUCCESS) {
            int best = -1;
            for (int k = 0; k < PP_LADDER; k++)
                if (t_ladder[k] > 0 && t_ladder[k] < 0.98 * t_ladder[PP_LADDER] &&
                    (best < 0 || t_ladder[k] < t_ladder[best]))
                    best = k;
            if (best >= 0) {
                v[9] = PP_LADDER_MIN << best;
                v[10] = t_ladder[best];
                v[11] = 1;
            }
        }
        /* splitting: the ladder size whose message moved the most bytes per second, and the one-way times
           a longer message is compared with (cost.c totex_mpi_split_chunks) */
        if (need && prc == MPI_SUCCESS && t_chunk > 0 && t_large > 0 && t_ladder[PP_LADDER - 1] > 0) {
            int best = -1;
            for (int k = 0; k < PP_LADDER; k++)
                if (t_ladder[k] > 0 && (best < 0 || t_ladder[k] / (double)(PP_LADDER_MIN << k) <
                                                        t_ladder[best] / (double)(PP_LADDER_MIN << best)))
                    best = k;
            if (best >= 0) {
                v[13] = PP_LADDER_MIN << best;
                v[14] = t_ladder[best];
                v[15] = t_ladder[PP_LADDER - 1];
                v[16] = t_chunk;
                v[17] = t_large;
            }
        }
        long long pad = -1;
        if (totex_mpi_env_int("TOTEX_PAD", 0, TOTEX_MPI_PAD_MAX, &pad)) { /* forced (0: never pad) */
            int k = 0;
            while (k + 1 < PP_LADDER && ((long)PP_LADDER_MIN << (k + 1)) <= pad)
                k++;
            v[9] = (double)pad;
            v[10] = need && prc == MPI_SUCCESS && pad >= PP_LADDER_MIN ? t_ladder[k] : v[0] + (double)pad * v[1];
            v[11] = 0;
            v[12] = 1;
        }
    }
    if ((rc = MPI_Bcast(v, 18, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS)
        return rc;
    if (v[4] != 0)
        return (int)v[4];
    st->t_s = v[0];
    st->t_c = v[1];
    st->ts_measured = v[2] != 0;
    st->tc_measured = v[3] != 0;
    st->t_l = v[5];
    st->tl_measured = v[6] != 0;
    st->t_c_chunk = v[7];
    st->t_l_chunk = v[8];
    st->pad = (int)v[9];
    st->t_pad = v[10];
    st->pad_measured = v[11] != 0;
    st->pad_forced = v[12] != 0;
    st->split = (int)v[13];
    st->t_split = v[14];
    st->t_4k = v[15];
    st->t_8k = v[16];
    st->t_64k = v[17];
    st->costs_known = 1;
    return MPI_SUCCESS;
}

void totex_mpi_cost_words(const totex_mpi_state *st, char *out, size_t cap)
{
    snprintf(out, cap, "t_s %.3g s %s, t_c %.3g s/byte %s, t_l %.3g s/byte %s", st->t_s,
             st->ts_measured ? "measured" : "set", st->t_c, st->tc_measured ? "measured" : "set", st->t_l,
             st->tl_measured ? "measured" : "set");
    if (st->t_c_chunk != st->t_c || st->t_l_chunk != st->t_l) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; at %d B: t_c %.3g, t_l %.3g s/byte", TOTEX_MPI_COST_CHUNK, st->t_c_chunk,
                 st->t_l_chunk);
    }
    if (st->pad) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; a %d-byte message %.3g s %s", st->pad, st->t_pad,
                 st->pad_forced ? "(padding set by TOTEX_PAD)" : "(sooner than 8 bytes: short messages may be padded)");
    }
    if (st->split) {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "; one way: %d B %.3g s (the most bytes per second of 256 .. 4096 B), 4, 8, "
                 "64 KiB %.3g, %.3g, %.3g s", st->split, st->t_split, st->t_4k, st->t_8k, st->t_64k);
    }
}
