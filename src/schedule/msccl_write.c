/*
 * MSCCL XML for an all-to-all, from a unit-step schedule
 * (include/totex/schedule_io.h, docs/unit-schedule-format.md).
 *
 * The format is the one the MSCCL executor reads (Azure/msccl-executor-nccl
 * src/misc/msccl/msccl_parser.cc; msccl-tools msccl/language emits it):
 * <algo> with ngpus = n, coll="alltoall", nchunksperloop = n; per rank a
 * <gpu> with i_chunks = o_chunks = n (input chunk j of rank r is the block
 * r -> j, output chunk j of rank r the block j -> r) and s_chunks scratch
 * chunks; thread blocks <tb> with one send peer or one receive peer on a
 * channel, each running its <step>s in order.
 *
 * A hop (from v, to u, block (src, dst)) of step t becomes a send in v's
 * thread block for peer u and a receive in u's block for peer v, in step
 * order, so the k-th send on v -> u meets the k-th receive at u. A block
 * that is relayed is received into a fresh scratch chunk of the relay and
 * sent from there; that send depends on the receive (depid/deps, hasdep on
 * the receive). Single-port and k-port: a rank's j-th send also depends on
 * its (j-k)-th send when they are in different thread blocks, so that at most
 * k run at once (a receive takes what has arrived and cannot hold a sender
 * back, so receives get no such chain: the driver reads the file back under
 * the port model, src/report/schedule_out.c); a second
 * dependency of a step is carried by a "nop" step before it (the executor
 * gathers the dependencies of nops into the next transfer, and deps names
 * an XML position of the thread block, nops counted). The block a
 * rank keeps for itself is a local copy (type cpy) in a thread block of its
 * own. Every limit of the executor is checked (TOTEX_MSCCL_*), and a
 * schedule that does not fit is refused naming the limit and the excess.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule_io.h"

enum { OP_SEND = 0, OP_RECV = 1 };
enum { BUF_I = 0, BUF_O = 1, BUF_S = 2 };

typedef struct op {
    uint32_t peer;
    uint32_t srcoff, dstoff;
    uint8_t type, srcbuf, dstbuf, hasdep;
    int32_t dep;      /* RAW: index of the receive op (same rank) this send reads, -1 none */
    int32_t portdep;  /* port model: index of an earlier op (same rank), -1 none */
    uint32_t tb, pos; /* assigned at finish: thread block and step index */
} op;

typedef struct rank_ops {
    op *ops;
    uint32_t count, cap;
    uint32_t scratch;  /* s_chunks */
    uint32_t nsend;
    uint32_t *send_idx; /* ring of the last k sends (port model) */
} rank_ops;

struct totex_msccl_writer {
    uint32_t n;
    totex_ports ports;
    char name[128];
    rank_ops *r;
    uint32_t *where; /* per block src*n+dst: (scratch slot + 1) << 0 at its current relay, 0: none */
    int32_t *recv_of; /* per block: index of the receive op that brought it to its current relay */
    uint64_t step;
    uint32_t max_ops; /* per rank: 1023 - 1 - n nodes remain for thread blocks and steps */
};

totex_msccl_writer *totex_msccl_writer_new(uint32_t n, totex_ports ports, const char *name, totex_error *err)
{
    totex_msccl_writer *w;
    if (n < 2 || n + 2 >= TOTEX_MSCCL_MAX_NODES) {
        totex_fail(err, TOTEX_EINVAL,
                   "MSCCL XML does not fit: the executor's parser holds %u XML nodes per rank (MAX_NODES), and "
                   "ngpus = %u needs the algo node, %u gpu nodes and at least one thread block and step: over by %u",
                   TOTEX_MSCCL_MAX_NODES - 1, n, n, n < 2 ? 0 : n + 3 - (TOTEX_MSCCL_MAX_NODES - 1));
        return NULL;
    }
    if (!(w = calloc(1, sizeof *w)) || !(w->r = calloc(n, sizeof *w->r)) ||
        !(w->where = calloc((size_t)n * n, sizeof *w->where)) ||
        !(w->recv_of = malloc((size_t)n * n * sizeof *w->recv_of))) {
        totex_msccl_writer_free(w);
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    uint32_t k = ports == TOTEX_PORTS_MULTI ? 0 : ports;
    for (uint32_t v = 0; v < n && k; v++) {
        w->r[v].send_idx = calloc(k, sizeof(uint32_t));
        if (!w->r[v].send_idx) {
            totex_msccl_writer_free(w);
            totex_fail(err, TOTEX_ENOMEM, "out of memory");
            return NULL;
        }
    }
    w->n = n;
    w->ports = ports;
    w->max_ops = TOTEX_MSCCL_MAX_NODES - 1 - 1 - n;
    snprintf(w->name, sizeof w->name, "%s", name ? name : "totex");
    return w;
}

void totex_msccl_writer_free(totex_msccl_writer *w)
{
    if (!w)
        return;
    for (uint32_t v = 0; w->r && v < w->n; v++) {
        free(w->r[v].ops);
        free(w->r[v].send_idx);
    }
    free(w->r);
    free(w->where);
    free(w->recv_of);
    free(w);
}

static totex_status push(totex_msccl_writer *w, uint32_t v, const op *o, int32_t *index, totex_error *err)
{
    rank_ops *R = &w->r[v];
    if (R->count >= w->max_ops)
        return totex_fail(err, TOTEX_EINVAL,
                          "MSCCL XML does not fit: rank %u needs more than %u steps (over by at least 1, at schedule step %llu), "
                          "but the executor's parser holds %u XML nodes per rank (MAX_NODES; 1 algo + %u gpus + thread "
                          "blocks + steps)",
                          v, w->max_ops, (unsigned long long)w->step, TOTEX_MSCCL_MAX_NODES - 1, w->n);
    if (R->count == R->cap) {
        uint32_t c = R->cap ? 2 * R->cap : 16;
        op *q = realloc(R->ops, c * sizeof *q);
        if (!q)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory");
        R->ops = q;
        R->cap = c;
    }
    R->ops[R->count] = *o;
    *index = (int32_t)R->count++;
    return TOTEX_OK;
}

static totex_status writer_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_msccl_writer *w = ctx;
    uint32_t n = w->n, k = w->ports == TOTEX_PORTS_MULTI ? 0 : w->ports;
    totex_status st;
    /* pass 1: where each block is read (before this step's receives change it) */
    for (size_t i = 0; i < count; i++) {
        const totex_hop *h = &hops[i];
        if (h->from >= n || h->to >= n || h->src >= n || h->dst >= n || h->from == h->to || h->src == h->dst)
            return totex_fail(err, TOTEX_EINVAL, "MSCCL export: hop %zu of step %llu is not a transfer between two of the %u ranks",
                              i, (unsigned long long)w->step, n);
    }
    for (size_t i = 0; i < count; i++) {
        const totex_hop *h = &hops[i];
        uint64_t b = (uint64_t)h->src * n + h->dst;
        op s = {0}, r = {0};
        int32_t si, ri;
        s.type = OP_SEND;
        s.peer = h->to;
        s.dep = s.portdep = r.dep = r.portdep = -1;
        if (h->from == h->src) {
            s.srcbuf = BUF_I;
            s.srcoff = h->dst;
        } else if (w->where[b]) {
            s.srcbuf = BUF_S;
            s.srcoff = w->where[b] - 1;
            s.dep = w->recv_of[b];
        } else {
            return totex_fail(err, TOTEX_EINVAL, "MSCCL export: step %llu sends block %u->%u from rank %u, which never received it",
                              (unsigned long long)w->step, h->src, h->dst, h->from);
        }
        r.type = OP_RECV;
        r.peer = h->from;
        r.srcbuf = s.srcbuf;
        r.srcoff = s.srcoff;
        if (h->to == h->dst) {
            r.dstbuf = BUF_O;
            r.dstoff = h->src;
        } else {
            r.dstbuf = BUF_S;
            r.dstoff = w->r[h->to].scratch++;
        }
        s.dstbuf = r.dstbuf;
        s.dstoff = r.dstoff;
        if (k) {
            rank_ops *F = &w->r[h->from];
            if (F->nsend >= k)
                s.portdep = (int32_t)F->send_idx[F->nsend % k];
        }
        if ((st = push(w, h->from, &s, &si, err)) || (st = push(w, h->to, &r, &ri, err)))
            return st;
        if (k) {
            rank_ops *F = &w->r[h->from];
            F->send_idx[F->nsend++ % k] = (uint32_t)si;
        }
        w->where[b] = h->to == h->dst ? 0 : r.dstoff + 1;
        w->recv_of[b] = ri;
    }
    w->step++;
    return TOTEX_OK;
}

uint64_t totex_msccl_writer_steps(const totex_msccl_writer *w)
{
    return w ? w->step : 0;
}

totex_sink totex_msccl_writer_sink(totex_msccl_writer *w)
{
    totex_sink s = {writer_step, w};
    return s;
}

static const char bufname[3] = {'i', 'o', 's'};

typedef struct tbinfo {
    int32_t send, recv; /* peers, -1 none */
    uint32_t chan, nsteps, ntrans; /* steps (nops included: the s attribute and what deps names) and transmissions */
} tbinfo;

totex_status totex_msccl_writer_finish(totex_msccl_writer *w, FILE *fp, totex_error *err)
{
    uint32_t n = w->n;
    uint32_t *tb_of_send = malloc((size_t)n * sizeof *tb_of_send), *tb_of_recv = malloc((size_t)n * sizeof *tb_of_recv);
    tbinfo *tbs = malloc((2 * (size_t)n + 1) * sizeof *tbs);
    totex_status st = TOTEX_OK;
    uint32_t nchannels = 1;
    if (!tb_of_send || !tb_of_recv || !tbs) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    /* pass 1: thread blocks, step positions and the limits, rank by rank */
    for (uint32_t v = 0; v < n; v++) {
        rank_ops *R = &w->r[v];
        uint32_t ntb = 0, nsendtb = 0, nrecvtb = 0;
        for (uint32_t p = 0; p < n; p++)
            tb_of_send[p] = tb_of_recv[p] = UINT32_MAX;
        for (uint32_t i = 0; i < R->count; i++) {
            op *o = &R->ops[i];
            uint32_t *map = o->type == OP_SEND ? tb_of_send : tb_of_recv;
            if (map[o->peer] == UINT32_MAX) {
                uint32_t idx = o->type == OP_SEND ? nsendtb++ : nrecvtb++;
                map[o->peer] = ntb;
                tbs[ntb].send = o->type == OP_SEND ? (int32_t)o->peer : -1;
                tbs[ntb].recv = o->type == OP_RECV ? (int32_t)o->peer : -1;
                tbs[ntb].chan = idx / TOTEX_MSCCL_MAX_TB_PER_CHANNEL;
                tbs[ntb].nsteps = tbs[ntb].ntrans = 0;
                if (tbs[ntb].chan + 1 > nchannels)
                    nchannels = tbs[ntb].chan + 1;
                ntb++;
            }
            o->tb = map[o->peer];
        }
        /* positions: a second dependency needs a nop before the step */
        for (uint32_t i = 0; i < R->count; i++) {
            op *o = &R->ops[i];
            int deps = 0;
            if (o->dep >= 0 && R->ops[o->dep].tb != o->tb)
                deps++;
            else
                o->dep = -1;
            if (o->portdep >= 0 && R->ops[o->portdep].tb != o->tb)
                deps++;
            else
                o->portdep = -1;
            if (deps == 2)
                tbs[o->tb].nsteps++; /* the nop: a step, not a transmission */
            /* deps names an XML position, nops counted: the kernel's step counter skips the position of every
               nop whose dependency it folded into the next transfer (msccl_kernel_impl.h) */
            o->pos = tbs[o->tb].nsteps++;
            tbs[o->tb].ntrans++;
            if (o->dep >= 0)
                R->ops[o->dep].hasdep = 1;
            if (o->portdep >= 0)
                R->ops[o->portdep].hasdep = 1;
        }
        uint32_t total_steps = 1; /* the local copy of the rank's own block */
        for (uint32_t t = 0; t < ntb; t++) {
            total_steps += tbs[t].nsteps;
            if (tbs[t].nsteps > TOTEX_MSCCL_MAX_NUM_STEPS) {
                st = totex_fail(err, TOTEX_EINVAL,
                                "MSCCL XML does not fit: rank %u's thread block %u (%s rank %d) needs %u steps; the "
                                "executor allows MSCCL_MAX_NUM_STEPS = %d per thread block (over by %u)",
                                v, t, tbs[t].send >= 0 ? "send to" : "receive from",
                                tbs[t].send >= 0 ? tbs[t].send : tbs[t].recv, tbs[t].nsteps,
                                TOTEX_MSCCL_MAX_NUM_STEPS, tbs[t].nsteps - TOTEX_MSCCL_MAX_NUM_STEPS);
                goto out;
            }
        }
        uint64_t nodes = 1 + (uint64_t)n + ntb + 1 + total_steps;
        if (nodes > TOTEX_MSCCL_MAX_NODES - 1) {
            st = totex_fail(err, TOTEX_EINVAL,
                            "MSCCL XML does not fit: rank %u needs %llu XML nodes (1 algo + %u gpus + %u thread blocks + "
                            "%u steps); the executor's parser holds %d (MAX_NODES, fails at %d): over by %llu",
                            v, (unsigned long long)nodes, n, ntb + 1, total_steps, TOTEX_MSCCL_MAX_NODES - 1,
                            TOTEX_MSCCL_MAX_NODES, (unsigned long long)(nodes - (TOTEX_MSCCL_MAX_NODES - 1)));
            goto out;
        }
        if (nchannels > TOTEX_MSCCL_MAXCHANNELS) {
            st = totex_fail(err, TOTEX_EINVAL,
                            "MSCCL XML does not fit: rank %u needs %u channels (at most %d sending thread blocks per "
                            "channel); NCCL has MAXCHANNELS = %d (over by %u)",
                            v, nchannels, TOTEX_MSCCL_MAX_TB_PER_CHANNEL, TOTEX_MSCCL_MAXCHANNELS,
                            nchannels - TOTEX_MSCCL_MAXCHANNELS);
            goto out;
        }
    }
    /* pass 2: write */
    fprintf(fp, "<algo name=\"");
    for (const char *c = w->name; *c; c++) {
        if (*c == '"' || *c == '<' || *c == '>' || *c == '&' || *c == ' ' || (unsigned char)*c < 0x20)
            fputc('_', fp);
        else
            fputc(*c, fp);
    }
    fprintf(fp, "\" proto=\"Simple\" nchannels=\"%u\" nchunksperloop=\"%u\" ngpus=\"%u\" coll=\"alltoall\" "
                "inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n",
            nchannels, n, n);
    for (uint32_t v = 0; v < n; v++) {
        rank_ops *R = &w->r[v];
        uint32_t ntb = 0;
        for (uint32_t p = 0; p < n; p++)
            tb_of_send[p] = tb_of_recv[p] = UINT32_MAX;
        /* the same numbering as pass 1 (first appearance order) */
        for (uint32_t i = 0; i < R->count; i++) {
            op *o = &R->ops[i];
            uint32_t *map = o->type == OP_SEND ? tb_of_send : tb_of_recv;
            if (map[o->peer] == UINT32_MAX) {
                map[o->peer] = ntb;
                tbs[ntb].send = o->type == OP_SEND ? (int32_t)o->peer : -1;
                tbs[ntb].recv = o->type == OP_RECV ? (int32_t)o->peer : -1;
                ntb++;
            }
        }
        uint32_t nsendtb = 0, nrecvtb = 0;
        for (uint32_t t = 0; t < ntb; t++)
            tbs[t].chan = (tbs[t].send >= 0 ? nsendtb++ : nrecvtb++) / TOTEX_MSCCL_MAX_TB_PER_CHANNEL;
        fprintf(fp, "  <gpu id=\"%u\" i_chunks=\"%u\" o_chunks=\"%u\" s_chunks=\"%u\">\n", v, n, n, R->scratch);
        for (uint32_t t = 0; t < ntb; t++) {
            fprintf(fp, "    <tb id=\"%u\" send=\"%d\" recv=\"%d\" chan=\"%u\">\n", t, tbs[t].send, tbs[t].recv,
                    tbs[t].chan);
            uint32_t s = 0;
            for (uint32_t i = 0; i < R->count; i++) {
                const op *o = &R->ops[i];
                if (o->tb != t)
                    continue;
                int32_t d1 = o->dep >= 0 ? o->dep : o->portdep, d2 = o->dep >= 0 ? o->portdep : -1;
                if (d2 >= 0) {
                    fprintf(fp, "      <step s=\"%u\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" "
                                "cnt=\"0\" depid=\"%u\" deps=\"%u\" hasdep=\"0\"/>\n",
                            s++, R->ops[d2].tb, R->ops[d2].pos);
                }
                fprintf(fp, "      <step s=\"%u\" type=\"%s\" srcbuf=\"%c\" srcoff=\"%u\" dstbuf=\"%c\" dstoff=\"%u\" "
                            "cnt=\"1\" depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
                        s++, o->type == OP_SEND ? "s" : "r", bufname[o->srcbuf], o->srcoff, bufname[o->dstbuf],
                        o->dstoff, d1 >= 0 ? (int)R->ops[d1].tb : -1, d1 >= 0 ? (int)R->ops[d1].pos : -1, o->hasdep);
            }
            fprintf(fp, "    </tb>\n");
        }
        fprintf(fp, "    <tb id=\"%u\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
                    "      <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"%u\" dstbuf=\"o\" dstoff=\"%u\" cnt=\"1\" "
                    "depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>\n  </gpu>\n",
                ntb, v, v);
    }
    fprintf(fp, "</algo>\n");
    if (fflush(fp) || ferror(fp))
        st = totex_fail(err, TOTEX_EIO, "cannot write the MSCCL XML file (disk full?)");
out:
    free(tb_of_send);
    free(tb_of_recv);
    free(tbs);
    return st;
}
