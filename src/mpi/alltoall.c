/* totex_alltoall: MPI_Alltoall executed with a totex message-combining schedule
 * (see include/totex/mpi.h for the semantics, the network and rank mapping,
 * the choice of algorithm, the plan cache and the errors). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/algorithm.h"
#include "totex/combining.h"
#include "totex/mpi.h"
#include "totex/network.h"

/* ---- plans and their cache on the communicator -------------------------- */

typedef struct plan {
    struct plan *next;
    long long slot;             /* packed bytes per block the plan was chosen for */
    uint32_t n, me;
    totex_network *net;
    totex_comb_schedule *sched;
    const char *algorithm;      /* registry name (static) */
    uint64_t steps;
    size_t *send_off, *send_idx; /* this rank's transfers with from == me, per step (CSR) */
    size_t *recv_off, *recv_idx; /* ... with to == me */
} plan;

typedef struct comm_state {
    MPI_Comm dup;        /* private duplicate the exchange runs on (MPI_COMM_NULL until made / once freed) */
    plan *plans;         /* one per block size seen */
    int verbose_done;    /* TOTEX_VERBOSE line already printed for this communicator */
    int costs_known;     /* t_s and t_c below are set (same on every rank) */
    double t_s, t_c;     /* seconds, seconds/byte: measured by ping-pong unless TOTEX_TS / TOTEX_TC */
    int ts_measured, tc_measured;
    struct comm_state *next_live, **prev_live;
} comm_state;

static int keyval = MPI_KEYVAL_INVALID;
static int self_keyval = MPI_KEYVAL_INVALID;
static comm_state *live;  /* every state whose dup is still allocated */

static void plan_free(plan *p)
{
    if (!p)
        return;
    totex_comb_schedule_free(p->sched);
    totex_network_free(p->net);
    free(p->send_off);
    free(p->send_idx);
    free(p->recv_off);
    free(p->recv_idx);
    free(p);
}

static void state_release_dup(comm_state *st)
{
    if (st->dup != MPI_COMM_NULL)
        MPI_Comm_free(&st->dup);
    st->dup = MPI_COMM_NULL;
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
    comm_state *st = attr;
    state_release_dup(st);
    while (st->plans) {
        plan *p = st->plans;
        st->plans = p->next;
        plan_free(p);
    }
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

static int get_state(MPI_Comm comm, comm_state **out)
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
    comm_state *st = calloc(1, sizeof *st);
    if (!st)
        return MPI_ERR_NO_MEM;
    st->dup = MPI_COMM_NULL;
    if ((rc = MPI_Comm_set_attr(comm, keyval, st)) != MPI_SUCCESS) {
        free(st);
        return rc;
    }
    *out = st;
    return MPI_SUCCESS;
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

/* spec of the network of comm (empty for a single rank); node id == rank in comm */
static int comm_spec(MPI_Comm comm, int size, char *spec, size_t cap)
{
    int rc, topo = MPI_UNDEFINED;
    spec[0] = '\0';
    if ((rc = MPI_Topo_test(comm, &topo)) != MPI_SUCCESS)
        return rc;
    if (topo == MPI_CART) {
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
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end = NULL;
    double v = strtod(s, &end);
    return (end && *end == '\0' && v >= 0) ? v : dflt;
}

/* ---- t_s and t_c of a communicator (collective, once) -------------------- */

#define PP_TAG 32001 /* above the step tags of the executors (< 32000) */
#define PP_ROUNDS 20
#define PP_SMALL 8
#define PP_LARGE 65536

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
            rc = MPI_Send(buf, bytes, MPI_BYTE, peer, PP_TAG, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, PP_TAG, comm, MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Recv(buf, bytes, MPI_BYTE, peer, PP_TAG, comm, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Send(buf, bytes, MPI_BYTE, peer, PP_TAG, comm);
        }
    }
    *rtt = (MPI_Wtime() - t0) / PP_ROUNDS;
    return rc;
}

/* t_s and t_c for comm (the private duplicate): TOTEX_TS / TOTEX_TC as read on
   rank 0, else measured once by a ping-pong between ranks 0 and 1 (one-way time
   of 8 bytes gives t_s, the slope to 64 KiB gives t_c); broadcast, cached in st. */
static int comm_costs(MPI_Comm comm, int size, int rank, comm_state *st)
{
    if (st->costs_known)
        return MPI_SUCCESS;
    int rc;
    const char *es = getenv("TOTEX_TS"), *ec = getenv("TOTEX_TC");
    int need = 0;
    if (rank == 0)
        need = (!es || !*es || !ec || !*ec) && size >= 2;
    if ((rc = MPI_Bcast(&need, 1, MPI_INT, 0, comm)) != MPI_SUCCESS)
        return rc;
    double t_small = 0, t_large = 0;
    int prc = MPI_SUCCESS;
    if (need && rank < 2) {
        char *buf = calloc(PP_LARGE, 1);
        if (!buf) {
            prc = MPI_ERR_NO_MEM; /* both ranks may fail here: then neither sends */
        } else {
            double rtt = 0;
            prc = pingpong(comm, rank, buf, PP_SMALL, &rtt);
            t_small = rtt / 2;
            if (prc == MPI_SUCCESS)
                prc = pingpong(comm, rank, buf, PP_LARGE, &rtt);
            t_large = rtt / 2;
            free(buf);
        }
    }
    /* {t_s, t_c, t_s measured, t_c measured, error} */
    double v[5] = {0, 0, 0, 0, 0};
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
    }
    if ((rc = MPI_Bcast(v, 5, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS)
        return rc;
    if (v[4] != 0)
        return (int)v[4];
    st->t_s = v[0];
    st->t_c = v[1];
    st->ts_measured = v[2] != 0;
    st->tc_measured = v[3] != 0;
    st->costs_known = 1;
    return MPI_SUCCESS;
}

static void cost_words(const comm_state *st, char *out, size_t cap)
{
    snprintf(out, cap, "t_s %.3g s %s, t_c %.3g s/byte %s", st->t_s, st->ts_measured ? "measured" : "set",
             st->t_c, st->tc_measured ? "measured" : "set");
}

/* ---- making a plan (collective) ---------------------------------------- */

static int index_plan(plan *p)
{
    p->steps = totex_comb_steps(p->sched);
    p->send_off = calloc(p->steps + 1, sizeof(size_t));
    p->recv_off = calloc(p->steps + 1, sizeof(size_t));
    if (!p->send_off || !p->recv_off)
        return MPI_ERR_NO_MEM;
    size_t ns = 0, nr = 0;
    for (int pass = 0; pass < 2; pass++) {
        ns = nr = 0;
        for (uint64_t st = 0; st < p->steps; st++) {
            size_t nt = totex_comb_step_transfers(p->sched, st);
            for (size_t t = 0; t < nt; t++) {
                totex_transfer tr;
                totex_comb_get_transfer(p->sched, st, t, &tr);
                if (!tr.count)
                    continue;
                if (tr.from == p->me) {
                    if (pass)
                        p->send_idx[ns] = t;
                    ns++;
                }
                if (tr.to == p->me) {
                    if (pass)
                        p->recv_idx[nr] = t;
                    nr++;
                }
            }
            if (!pass) {
                p->send_off[st + 1] = ns;
                p->recv_off[st + 1] = nr;
            }
        }
        if (!pass) {
            p->send_idx = malloc(sizeof(size_t) * (ns ? ns : 1));
            p->recv_idx = malloc(sizeof(size_t) * (nr ? nr : 1));
            if (!p->send_idx || !p->recv_idx)
                return MPI_ERR_NO_MEM;
        }
    }
    return MPI_SUCCESS;
}

static int make_plan(MPI_Comm comm, int size, int rank, long long slot, int verbose, comm_state *st, plan **out)
{
    int rc;
    char spec[512];
    if ((rc = comm_spec(comm, size, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    plan *p = calloc(1, sizeof *p);
    if (!p)
        return MPI_ERR_NO_MEM;
    p->slot = slot;
    p->n = (uint32_t)size;
    p->me = (uint32_t)rank;
    totex_error err;
    err.msg[0] = '\0';
    p->net = totex_network_parse(spec, &err);
    if ((rc = comm_costs(comm, size, rank, st)) != MPI_SUCCESS) {
        plan_free(p);
        return rc;
    }
    /* rank 0 chooses: {algorithm index or -1, t_s, t_c, predicted time} */
    double choice[4] = {-1, 0, 0, 0};
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ONE_PORT;
    cost.m = (double)slot;
    char why[600] = "";
    if (rank == 0) {
        cost.t_s = st->t_s;
        cost.t_c = st->t_c;
        choice[1] = cost.t_s;
        choice[2] = cost.t_c;
        const char *forced = getenv("TOTEX_ALGORITHM");
        if (!p->net) {
            snprintf(why, sizeof why, "network '%s': %s", spec, err.msg);
        } else if (forced && *forced && strcmp(forced, "auto") != 0) {
            const totex_comb_algorithm *a = totex_comb_algorithm_find(forced, &err);
            if (!a)
                snprintf(why, sizeof why, "TOTEX_ALGORITHM: %s", err.msg);
            for (size_t i = 0; a && i < totex_comb_algorithm_count(); i++)
                if (totex_comb_algorithm_get(i) == a)
                    choice[0] = (double)i;
        } else {
            size_t count = totex_comb_algorithm_count();
            totex_comb_choice *rows = calloc(count, sizeof *rows);
            if (!rows) {
                snprintf(why, sizeof why, "out of memory ranking the algorithms");
            } else {
                totex_comb_rank(p->net, &cost, rows, count);
                if (rows[0].status == TOTEX_OK) {
                    for (size_t i = 0; i < count; i++)
                        if (totex_comb_algorithm_get(i) == rows[0].algorithm)
                            choice[0] = (double)i;
                    choice[3] = rows[0].report.predicted_time;
                } else {
                    snprintf(why, sizeof why, "no combining algorithm applies to %.200s: %.300s", spec, rows[0].reason);
                }
                free(rows);
            }
        }
    }
    if ((rc = MPI_Bcast(choice, 4, MPI_DOUBLE, 0, comm)) != MPI_SUCCESS) {
        plan_free(p);
        return rc;
    }
    cost.t_s = choice[1];
    cost.t_c = choice[2];
    int bad = 0;
    if (choice[0] < 0) {
        bad = 1;
    } else {
        const totex_comb_algorithm *a = totex_comb_algorithm_get((size_t)choice[0]);
        p->algorithm = a->name;
        if (!p->net || a->build(p->net, &cost, &p->sched, &err) != TOTEX_OK) {
            snprintf(why, sizeof why, "algorithm %s on %s: %s", a->name, spec, err.msg);
            bad = 1;
        } else if (index_plan(p) != MPI_SUCCESS) {
            snprintf(why, sizeof why, "out of memory indexing the schedule");
            bad = 1;
        }
    }
    int anybad = 0;
    if ((rc = MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm)) != MPI_SUCCESS) {
        plan_free(p);
        return rc;
    }
    if (anybad) {
        if (bad && why[0]) /* a choice rank 0 could not make is reported by rank 0 alone */
            fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, why);
        plan_free(p);
        return MPI_ERR_ARG;
    }
    if (verbose && !st->verbose_done && rank == 0) {
        char cw[160];
        cost_words(st, cw, sizeof cw);
        fprintf(stderr,
                "totex: MPI_Alltoall on %d ranks, network %s, %lld-byte blocks: algorithm %s "
                "(predicted %.3g s; %s)\n",
                size, spec, slot, p->algorithm, choice[3], cw);
    }
    st->verbose_done = 1;
    *out = p;
    return MPI_SUCCESS;
}

/* ---- block store: (src, dst) -> packed bytes ----------------------------- */

typedef struct bmap {
    uint64_t *keys; /* key + 1; 0 = empty */
    const char **vals;
    size_t cap, used;
} bmap;

static size_t bmap_hash(uint64_t k, size_t cap) { return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1); }

static int bmap_put(bmap *m, uint64_t key, const char *val)
{
    if (2 * (m->used + 1) > m->cap) {
        size_t ncap = m->cap ? 2 * m->cap : 64;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        const char **nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t h = bmap_hash(m->keys[i], ncap);
                while (nk[h])
                    h = (h + 1) & (ncap - 1);
                nk[h] = m->keys[i];
                nv[h] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = ncap;
    }
    size_t h = bmap_hash(key + 1, m->cap);
    while (m->keys[h] && m->keys[h] != key + 1)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->used++;
    m->keys[h] = key + 1;
    m->vals[h] = val;
    return 0;
}

static const char *bmap_get(const bmap *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    size_t h = bmap_hash(key + 1, m->cap);
    while (m->keys[h]) {
        if (m->keys[h] == key + 1)
            return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    return NULL;
}

/* ---- the exchange --------------------------------------------------------- */

static int execute(const plan *p, MPI_Comm comm, const char *mine, long long slot, char ***keep, size_t *nkeep,
                   bmap *store)
{
    int rc = MPI_SUCCESS;
    uint32_t n = p->n, me = p->me;
    size_t maxreq = 0;
    for (uint64_t s = 0; s < p->steps; s++) {
        size_t k = (p->send_off[s + 1] - p->send_off[s]) + (p->recv_off[s + 1] - p->recv_off[s]);
        if (k > maxreq)
            maxreq = k;
    }
    MPI_Request *req = malloc(sizeof *req * (maxreq ? maxreq : 1));
    char **sbuf = malloc(sizeof *sbuf * (maxreq ? maxreq : 1));
    size_t total_recv = p->recv_off[p->steps];
    *keep = calloc(total_recv ? total_recv : 1, sizeof **keep);
    if (!req || !sbuf || !*keep) {
        free(req);
        free(sbuf);
        return MPI_ERR_NO_MEM;
    }
    for (uint64_t s = 0; s < p->steps && rc == MPI_SUCCESS; s++) {
        int nreq = 0, nsb = 0;
        int tag = (int)(s % 32000);
        for (size_t i = p->recv_off[s]; i < p->recv_off[s + 1] && rc == MPI_SUCCESS; i++) {
            totex_transfer tr;
            totex_comb_get_transfer(p->sched, s, p->recv_idx[i], &tr);
            long long bytes = (long long)tr.count * slot;
            if (bytes > INT_MAX) {
                fprintf(stderr, "totex_alltoall: a message of %lld bytes exceeds INT_MAX\n", bytes);
                rc = MPI_ERR_COUNT;
                break;
            }
            char *b = malloc((size_t)bytes ? (size_t)bytes : 1);
            if (!b) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            (*keep)[(*nkeep)++] = b;
            rc = MPI_Irecv(b, (int)bytes, MPI_BYTE, (int)tr.from, tag, comm, &req[nreq++]);
        }
        for (size_t i = p->send_off[s]; i < p->send_off[s + 1] && rc == MPI_SUCCESS; i++) {
            totex_transfer tr;
            totex_comb_get_transfer(p->sched, s, p->send_idx[i], &tr);
            long long bytes = (long long)tr.count * slot;
            if (bytes > INT_MAX) {
                fprintf(stderr, "totex_alltoall: a message of %lld bytes exceeds INT_MAX\n", bytes);
                rc = MPI_ERR_COUNT;
                break;
            }
            char *b = malloc((size_t)bytes ? (size_t)bytes : 1);
            if (!b) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            sbuf[nsb++] = b;
            for (size_t k = 0; k < tr.count; k++) {
                const totex_block *bl = &tr.blocks[k];
                const char *src = bl->src == me ? mine + (size_t)bl->dst * (size_t)slot
                                                : bmap_get(store, (uint64_t)bl->src * n + bl->dst);
                if (!src) {
                    fprintf(stderr, "totex_alltoall: step %llu: rank %u does not hold block (%u, %u) (a bug of %s)\n",
                            (unsigned long long)s + 1, me, bl->src, bl->dst, p->algorithm);
                    rc = MPI_ERR_INTERN;
                    break;
                }
                memcpy(b + k * (size_t)slot, src, (size_t)slot);
            }
            if (rc == MPI_SUCCESS)
                rc = MPI_Isend(b, (int)bytes, MPI_BYTE, (int)tr.to, tag, comm, &req[nreq++]);
        }
        if (nreq) {
            int wrc = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = wrc;
        }
        for (int i = 0; i < nsb; i++)
            free(sbuf[i]);
        if (rc != MPI_SUCCESS)
            break;
        /* blocks received in this step can travel on from the next one */
        size_t first = *nkeep - (p->recv_off[s + 1] - p->recv_off[s]);
        for (size_t i = p->recv_off[s]; i < p->recv_off[s + 1]; i++) {
            totex_transfer tr;
            totex_comb_get_transfer(p->sched, s, p->recv_idx[i], &tr);
            const char *b = (*keep)[first + (i - p->recv_off[s])];
            for (size_t k = 0; k < tr.count; k++)
                if (bmap_put(store, (uint64_t)tr.blocks[k].src * n + tr.blocks[k].dst, b + k * (size_t)slot)) {
                    rc = MPI_ERR_NO_MEM;
                    break;
                }
        }
    }
    free(req);
    free(sbuf);
    return rc;
}

/* ---- unit-step (store-and-forward) schedules of totex/algorithm.h --------- */

typedef struct unit_ctx {
    MPI_Comm comm;
    uint32_t n, me;
    long long slot;
    const char *mine;
    bmap *store;
    char **keep; /* every received block buffer */
    size_t nkeep, capkeep;
    MPI_Request *req;
    size_t capreq;
    uint64_t step;
    int rc;
    const char *name;
} unit_ctx;

/* one step: Irecv each hop into this rank, Isend each hop out of it (from the
   blocks held at the start of the step), Waitall, then store what arrived */
static totex_status unit_step(void *vctx, const totex_hop *hops, size_t count, totex_error *err)
{
    unit_ctx *c = vctx;
    int tag = (int)(c->step % 32000);
    c->step++;
    size_t nin = 0, nout = 0;
    for (size_t i = 0; i < count; i++) {
        if (hops[i].from == hops[i].to)
            continue;
        nin += hops[i].to == c->me;
        nout += hops[i].from == c->me;
    }
    if (nin + nout > c->capreq) {
        MPI_Request *r = realloc(c->req, sizeof *r * (nin + nout));
        if (!r)
            goto nomem;
        c->req = r;
        c->capreq = nin + nout;
    }
    if (c->nkeep + nin > c->capkeep) {
        size_t cap = 2 * (c->nkeep + nin);
        char **k = realloc(c->keep, sizeof *k * cap);
        if (!k)
            goto nomem;
        c->keep = k;
        c->capkeep = cap;
    }
    int nreq = 0, rc = MPI_SUCCESS;
    size_t first = c->nkeep;
    for (size_t i = 0; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->to != c->me || h->from == h->to)
            continue;
        char *b = malloc((size_t)c->slot);
        if (!b) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        c->keep[c->nkeep++] = b;
        rc = MPI_Irecv(b, (int)c->slot, MPI_BYTE, (int)h->from, tag, c->comm, &c->req[nreq++]);
    }
    for (size_t i = 0; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->from != c->me || h->from == h->to)
            continue;
        const char *src = h->src == c->me ? c->mine + (size_t)h->dst * (size_t)c->slot
                                          : bmap_get(c->store, (uint64_t)h->src * c->n + h->dst);
        if (!src) {
            fprintf(stderr, "totex_alltoall: step %llu: rank %u does not hold message (%u, %u) (a bug of %s)\n",
                    (unsigned long long)c->step, c->me, h->src, h->dst, c->name);
            rc = MPI_ERR_INTERN;
            break;
        }
        rc = MPI_Isend(src, (int)c->slot, MPI_BYTE, (int)h->to, tag, c->comm, &c->req[nreq++]);
    }
    if (nreq) {
        int wrc = MPI_Waitall(nreq, c->req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    for (size_t i = 0, j = first; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->to != c->me || h->from == h->to)
            continue;
        if (bmap_put(c->store, (uint64_t)h->src * c->n + h->dst, c->keep[j++]))
            rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS) {
        c->rc = rc;
        snprintf(err->msg, sizeof err->msg, "MPI error %d in step %llu", rc, (unsigned long long)c->step);
        return TOTEX_EVIOLATION;
    }
    return TOTEX_OK;
nomem:
    c->rc = MPI_ERR_NO_MEM;
    snprintf(err->msg, sizeof err->msg, "out of memory in step %llu", (unsigned long long)c->step);
    return TOTEX_ENOMEM;
}

/* plan the unit-step algorithm on every rank (recorded, so a failure is agreed
   on before any data moves), then replay it into unit_step */
static int run_unit(MPI_Comm comm, int size, int rank, const char *mine, long long slot,
                    const totex_mpi_options *opt, comm_state *st, bmap *store, char ***keep, size_t *nkeep,
                    const char **name)
{
    int rc;
    char spec[512], why[700] = "";
    if ((rc = comm_spec(comm, size, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    totex_error err;
    err.msg[0] = '\0';
    totex_ports ports = opt->unit_ports <= 0 ? TOTEX_PORTS_MULTI : (totex_ports)opt->unit_ports;
    totex_network *net = totex_network_parse(spec, &err);
    totex_schedule *sch = NULL;
    const totex_algorithm *a = NULL;
    const char *nm = opt->unit_algorithm;
    int bad = 1;
    if (!net) {
        snprintf(why, sizeof why, "network '%s': %s", spec, err.msg);
    } else {
        a = (!nm || !*nm || strcmp(nm, "auto") == 0) ? totex_algorithm_auto(net, ports, &err)
                                                     : totex_algorithm_find(nm, &err);
        if (!a)
            snprintf(why, sizeof why, "unit-step algorithm: %s", err.msg);
        else if (a->applies(net, ports, &err) != TOTEX_OK)
            snprintf(why, sizeof why, "unit-step algorithm %s on %s: %s", a->name, spec, err.msg);
        else if (!(sch = totex_schedule_new()))
            snprintf(why, sizeof why, "out of memory");
        else if (a->plan(net, ports, totex_schedule_sink(sch), &err) != TOTEX_OK)
            snprintf(why, sizeof why, "unit-step algorithm %s on %s: %s", a->name, spec, err.msg);
        else
            bad = 0;
    }
    int anybad = 0;
    if ((rc = MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm)) == MPI_SUCCESS && anybad) {
        if (bad)
            fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, why);
        rc = MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS) {
        *name = a->name;
        if (opt->verbose && !st->verbose_done && rank == 0)
            fprintf(stderr,
                    "totex: MPI_Alltoall on %d ranks, network %s, %lld-byte blocks: unit-step algorithm %s "
                    "(%s, %llu steps)\n",
                    size, spec, slot, a->name, totex_ports_name(ports),
                    (unsigned long long)totex_schedule_steps(sch));
        st->verbose_done = 1;
        unit_ctx c = {.comm = comm, .n = (uint32_t)size, .me = (uint32_t)rank, .slot = slot, .mine = mine,
                      .store = store, .rc = MPI_SUCCESS, .name = a->name};
        if (totex_schedule_replay(sch, (totex_sink){unit_step, &c}, &err) != TOTEX_OK && c.rc == MPI_SUCCESS)
            c.rc = MPI_ERR_INTERN;
        rc = c.rc;
        free(c.req);
        *keep = c.keep;
        *nkeep = c.nkeep;
    }
    totex_schedule_free(sch);
    totex_network_free(net);
    return rc;
}

static int fail(int code, int rank, const char *msg)
{
    fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, msg);
    return code;
}

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt)
{
    int rc, size = 0, rank = 0, inter = 0;
    if (comm == MPI_COMM_NULL)
        return fail(MPI_ERR_COMM, -1, "MPI_COMM_NULL communicator");
    if ((rc = MPI_Comm_test_inter(comm, &inter)) != MPI_SUCCESS)
        return rc;
    if (inter) {
        if (opt->fallback) {
            comm_state *st = NULL;
            MPI_Comm_rank(comm, &rank);
            if (opt->verbose && get_state(comm, &st) == MPI_SUCCESS && !st->verbose_done) {
                st->verbose_done = 1;
                if (rank == 0)
                    fprintf(stderr, "totex: MPI_Alltoall on an intercommunicator: falling back to the MPI library's "
                                    "MPI_Alltoall (totex handles intracommunicators only)\n");
            }
            return TOTEX_MPI_FALLBACK;
        }
        return fail(MPI_ERR_COMM, -1, "intercommunicators are not supported (use an intracommunicator)");
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);

    int in_place = sendbuf == MPI_IN_PLACE;
    if (in_place) {
        sendbuf = recvbuf;
        sendcount = recvcount;
        sendtype = recvtype;
    }
    /* local checks; the verdict is agreed on by every rank below */
    int bad = 0;
    const char *msg = NULL;
    int ssize = 0, rsize = 0, pack = 0;
    if (sendtype == MPI_DATATYPE_NULL || recvtype == MPI_DATATYPE_NULL) {
        bad = MPI_ERR_TYPE;
        msg = "MPI_DATATYPE_NULL datatype";
    } else if (sendcount < 0 || recvcount < 0) {
        bad = MPI_ERR_COUNT;
        msg = "negative count";
    } else {
        MPI_Type_size(sendtype, &ssize);
        MPI_Type_size(recvtype, &rsize);
        if ((long long)sendcount * ssize != (long long)recvcount * rsize) {
            bad = MPI_ERR_COUNT;
            msg = "sendcount * size(sendtype) differs from recvcount * size(recvtype)";
        } else if ((rc = MPI_Pack_size(sendcount, sendtype, comm, &pack)) != MPI_SUCCESS) {
            bad = MPI_ERR_TYPE;
            msg = "MPI_Pack_size failed on the send datatype";
        } else if (sendcount && ssize && (!sendbuf || !recvbuf)) {
            bad = MPI_ERR_BUFFER;
            msg = "NULL buffer with a non-zero count";
        }
    }
    long long sig = bad ? 0 : (long long)sendcount * ssize;
    long long v[5] = {-(long long)bad, sig, -sig, bad ? 0 : pack, bad ? 0 : -(long long)pack};
    long long r[5];
    if ((rc = MPI_Allreduce(v, r, 5, MPI_LONG_LONG, MPI_MIN, comm)) != MPI_SUCCESS)
        return rc;
    if (bad)
        fail(bad, rank, msg);
    if (r[0] < 0) /* every rank returns the same code; the offending ranks printed why */
        return (int)-r[0];
    if (r[1] != -r[2] || r[3] != -r[4]) {
        char m[200];
        snprintf(m, sizeof m, "message sizes differ across ranks: sendcount * size(sendtype) from %lld to %lld bytes",
                 r[1], -r[2]);
        return fail(MPI_ERR_COUNT, rank, m);
    }
    if (sig == 0)
        return MPI_SUCCESS;

    long long slot = pack;
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(sendtype, &lb, &sext);
    MPI_Type_get_extent(recvtype, &lb, &rext);
    char *mine = malloc((size_t)size * (size_t)slot);
    if (!mine)
        return MPI_ERR_NO_MEM;
    /* pack every send block into its slot (before recvbuf is written: MPI_IN_PLACE) */
    for (int i = 0; i < size; i++) {
        int pos = 0;
        rc = MPI_Pack((const char *)sendbuf + (MPI_Aint)i * sendcount * sext, sendcount, sendtype,
                      mine + (size_t)i * (size_t)slot, (int)slot, &pos, comm);
        if (rc != MPI_SUCCESS) {
            free(mine);
            return rc;
        }
    }
    if (size == 1) {
        int pos = 0;
        rc = MPI_Unpack(mine, (int)slot, &pos, recvbuf, recvcount, recvtype, comm);
        if (opt->verbose) {
            comm_state *st = NULL;
            if (get_state(comm, &st) == MPI_SUCCESS && !st->verbose_done) {
                st->verbose_done = 1;
                fprintf(stderr, "totex: MPI_Alltoall on 1 rank: local copy\n");
            }
        }
        free(mine);
        return rc;
    }

    comm_state *st = NULL;
    if ((rc = get_state(comm, &st)) != MPI_SUCCESS) {
        free(mine);
        return rc;
    }
    if (st->dup == MPI_COMM_NULL) {
        if ((rc = MPI_Comm_dup(comm, &st->dup)) != MPI_SUCCESS) {
            free(mine);
            return rc;
        }
        st->next_live = live;
        if (live)
            live->prev_live = &st->next_live;
        st->prev_live = &live;
        live = st;
    }
    char **keep = NULL;
    size_t nkeep = 0;
    bmap store = {0};
    const char *name = NULL;
    if (opt->unit) {
        rc = run_unit(st->dup, size, rank, mine, slot, opt, st, &store, &keep, &nkeep, &name);
        goto unpack;
    }
    plan *p = st->plans;
    while (p && p->slot != slot)
        p = p->next;
    if (!p) {
        if ((rc = make_plan(st->dup, size, rank, slot, opt->verbose, st, &p)) != MPI_SUCCESS) {
            free(mine);
            return rc;
        }
        p->next = st->plans;
        st->plans = p;
    }

    name = p->algorithm;
    rc = execute(p, st->dup, mine, slot, &keep, &nkeep, &store);
unpack:
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        const char *b = i == rank ? mine + (size_t)rank * (size_t)slot
                                  : bmap_get(&store, (uint64_t)i * (uint64_t)size + (uint64_t)rank);
        if (!b) {
            fprintf(stderr, "totex_alltoall: rank %d never received block (%d, %d) (a bug of %s)\n", rank, i, rank,
                    name);
            rc = MPI_ERR_INTERN;
            break;
        }
        int pos = 0;
        rc = MPI_Unpack(b, (int)slot, &pos, (char *)recvbuf + (MPI_Aint)i * recvcount * rext, recvcount, recvtype,
                        comm);
    }
    for (size_t i = 0; i < nkeep; i++)
        free(keep[i]);
    free(keep);
    free(store.keys);
    free(store.vals);
    free(mine);
    return rc;
}

int totex_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    totex_mpi_options opt = {0};
    return totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
}

int totex_alltoall_unit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm, int ports)
{
    totex_mpi_options opt = {.unit = 1, .unit_algorithm = algorithm, .unit_ports = ports};
    return totex_mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &opt);
}
