/*
 * Verifying an MSCCL XML all-to-all (include/totex/schedule_io.h): the
 * driver's part above the reader (src/schedule/msccl_read.c reads the
 * program as the executor's parser holds it; nothing here parses).
 *
 * Two questions, answered apart:
 *
 * (a) Is it a correct all-to-all as the MSCCL executor runs it? Only this
 *     can fail (TOTEX_EVIOLATION, naming the rank, thread block, XML step
 *     position and line). The executor's rules (Azure/msccl-executor-nccl
 *     src/device/msccl_kernel_impl.h): each thread block runs its transfers
 *     in order; a transfer first waits for its dependencies, each until the
 *     flag of thread block depid on the same rank reaches deps (a transfer
 *     with hasdep="1" raises its block's flag to its step counter when it
 *     ends, src/schedule/msccl_read.c); the k-th send of rank v's block on
 *     (channel c, send peer u) is the k-th receive of u's block on (channel
 *     c, recv peer v), cnt chunks as one transfer; a send does not wait for
 *     its receive (NCCL's connection buffers it). Run as a worklist: a
 *     thread block that can never go on is a deadlock. Then the data, in an
 *     order the run allows: every chunk read must have been written, and
 *     written by a step ordered before the read (the thread block's order
 *     and dependency chains on the rank, happens-before by vector clocks
 *     over the rank's thread blocks; an order only through another rank is
 *     not counted, so such a file is refused, never wrongly accepted); a
 *     chunk must not be overwritten while a read of it is not ordered before
 *     the write; every output chunk is written exactly once, with the block
 *     the all-to-all puts there (input chunk j of rank r goes to rank j / k,
 *     output chunk r k + j mod k). Every transfer must use a link of the
 *     network.
 *
 * (b) What does it cost under the port model? The run starts every transfer
 *     as early as the rules allow (a send takes one executor step, a
 *     receive and a copy none). An executor step whose transfers put c_l
 *     chunks on directed link l, with out_v / in_v chunks leaving / entering
 *     node v, costs max(max_l c_l, max_v ceil(out_v / k), max_v ceil(in_v /
 *     k)) rounds under k ports (multiport: max_l c_l): the fewest unit steps
 *     the port model allows for them (a bipartite multigraph with node
 *     capacity k and link capacity 1 splits into that many, the constraint
 *     matrix being totally unimodular). The rounds add up over the executor
 *     steps: that is `steps` of the report, compared with the lower bounds
 *     by the caller. It never fails.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule_io.h"

#define EMPTY UINT64_MAX
#define NONE UINT32_MAX
/* vector clock entries of all ranks together (one byte each) */
#define MAX_CLOCK_BYTES (UINT64_C(1) << 27)

typedef struct vctx {
    const totex_msccl_program *p;
    totex_error *err;
    /* per thread block */
    uint32_t *pc;            /* transfers done */
    int64_t *ready;          /* end of its last transfer */
    uint32_t *nsent, *nrecvd;
    uint32_t *partner_send;  /* the block at the send peer receiving from it on its channel, NONE */
    uint32_t *partner_recv;  /* the block at the recv peer sending to it on its channel, NONE */
    uint32_t *send_first;    /* its sends (s, rcs) in order: send_list[send_first[i] ..] */
    uint32_t *send_list;
    uint8_t *queued;
    /* per transfer */
    int64_t *start, *end;
    uint32_t *seq, *match;   /* match: a receive's send */
    uint32_t *tb_of;         /* its thread block */
    uint32_t *depsat;        /* per dependency: the transfer whose flag satisfied it */
} vctx;

static const char *type_name(uint8_t t)
{
    return t == TOTEX_MSCCL_SEND ? "s" : t == TOTEX_MSCCL_RECV ? "r" : t == TOTEX_MSCCL_RCS ? "rcs" : "cpy";
}

static char bufc(uint8_t b)
{
    return "ios"[b];
}

/* "rank R, thread block B, step P (line L, type T)" */
static const char *name_op(char *buf, size_t cap, const vctx *v, uint32_t o)
{
    const totex_msccl_op *O = &v->p->ops[o];
    const totex_msccl_tb *T = &v->p->tb[v->tb_of[o]];
    snprintf(buf, cap, "rank %u, thread block %d, step %u (line %ld, type %s)", T->rank, T->id, O->pos, O->line,
             type_name(O->type));
    return buf;
}

/* when dependency d of a transfer on @p rank is met: its time, -1 not yet, -2 never */
static int64_t dep_time(const vctx *v, uint32_t rank, uint32_t d, uint32_t *by)
{
    const totex_msccl_program *p = v->p;
    const totex_msccl_dep *D = &p->deps[d];
    uint32_t b = p->first_tb[rank] + D->tb;
    const totex_msccl_tb *B = &p->tb[b];
    for (uint32_t i = 0; i < v->pc[b]; i++) {
        const totex_msccl_op *O = &p->ops[B->op_first + i];
        if (O->hasdep && O->kstep >= D->step) {
            *by = B->op_first + i;
            return v->end[B->op_first + i];
        }
    }
    if (v->pc[b] < B->nops)
        return -1;
    return -2;
}

typedef struct runq {
    uint32_t *q;
    uint32_t head, tail, cap;
} runq;

static void enqueue(vctx *v, runq *q, uint32_t i)
{
    if (i == NONE || v->queued[i])
        return;
    v->queued[i] = 1;
    q->q[q->tail] = i;
    q->tail = (q->tail + 1) % q->cap;
}

/* the run: start and end of every transfer, or the deadlock */
static totex_status run(vctx *v)
{
    const totex_msccl_program *p = v->p;
    totex_status st = TOTEX_OK;
    uint32_t ntb = p->ntb;
    runq q = {malloc(((size_t)ntb + 1) * sizeof *q.q), 0, 0, ntb + 1};
    uint32_t *dep_start = calloc((size_t)ntb + 1, sizeof *dep_start), *dep_list = NULL, *fill = NULL;
    if (!q.q || !dep_start) {
        st = totex_fail(v->err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    /* dependents: for each block, the blocks of its rank with a transfer waiting on it */
    for (uint32_t i = 0; i < ntb; i++)
        for (uint32_t k = 0; k < p->tb[i].nops; k++) {
            const totex_msccl_op *O = &p->ops[p->tb[i].op_first + k];
            for (uint32_t d = 0; d < O->ndeps; d++)
                dep_start[p->first_tb[p->tb[i].rank] + p->deps[O->dep_first + d].tb + 1]++;
        }
    for (uint32_t i = 0; i < ntb; i++)
        dep_start[i + 1] += dep_start[i];
    dep_list = malloc(((size_t)dep_start[ntb] + 1) * sizeof *dep_list);
    fill = calloc((size_t)ntb + 1, sizeof *fill);
    if (!dep_list || !fill) {
        st = totex_fail(v->err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < ntb; i++)
        for (uint32_t k = 0; k < p->tb[i].nops; k++) {
            const totex_msccl_op *O = &p->ops[p->tb[i].op_first + k];
            for (uint32_t d = 0; d < O->ndeps; d++) {
                uint32_t b = p->first_tb[p->tb[i].rank] + p->deps[O->dep_first + d].tb;
                dep_list[dep_start[b] + fill[b]++] = i;
            }
        }
    for (uint32_t i = 0; i < ntb; i++)
        enqueue(v, &q, i);
    uint32_t seq = 0;
    while (q.head != q.tail) {
        uint32_t i = q.q[q.head];
        q.head = (q.head + 1) % q.cap;
        v->queued[i] = 0;
        const totex_msccl_tb *T = &p->tb[i];
        int moved = 0;
        while (v->pc[i] < T->nops) {
            uint32_t o = T->op_first + v->pc[i];
            const totex_msccl_op *O = &p->ops[o];
            int64_t r = v->ready[i];
            int wait = 0;
            for (uint32_t d = 0; d < O->ndeps && !wait; d++) {
                uint32_t by = NONE;
                int64_t t = dep_time(v, T->rank, O->dep_first + d, &by);
                if (t < 0)
                    wait = 1;
                else {
                    v->depsat[O->dep_first + d] = by;
                    if (t > r)
                        r = t;
                }
            }
            if (wait)
                break;
            if (O->type == TOTEX_MSCCL_SEND) {
                v->start[o] = r;
                v->end[o] = r + 1;
                v->nsent[i]++;
            } else if (O->type == TOTEX_MSCCL_CPY) {
                v->start[o] = v->end[o] = r;
            } else {
                uint32_t P = v->partner_recv[i];
                if (P == NONE || v->nsent[P] <= v->nrecvd[i])
                    break;
                uint32_t x = v->send_list[v->send_first[P] + v->nrecvd[i]];
                if (p->ops[x].cnt != O->cnt) {
                    char a[160], b[160];
                    st = totex_fail(v->err, TOTEX_EVIOLATION,
                                    "%s sends %d chunks as one transfer, but its matching receive, %s, takes %d",
                                    name_op(a, sizeof a, v, x), p->ops[x].cnt, name_op(b, sizeof b, v, o), O->cnt);
                    goto out;
                }
                v->start[o] = r > v->end[x] ? r : v->end[x];
                v->end[o] = v->start[o];
                v->match[o] = x;
                v->nrecvd[i]++;
                if (O->type == TOTEX_MSCCL_RCS) {
                    v->end[o] = v->start[o] + 1;
                    v->nsent[i]++;
                }
            }
            v->seq[o] = seq++;
            v->ready[i] = v->end[o];
            v->pc[i]++;
            moved = 1;
        }
        if (moved) {
            enqueue(v, &q, v->partner_send[i]);
            enqueue(v, &q, v->partner_recv[i]);
            for (uint32_t k = dep_start[i]; k < dep_start[i + 1]; k++)
                enqueue(v, &q, dep_list[k]);
        }
    }
    for (uint32_t i = 0; i < ntb; i++) {
        const totex_msccl_tb *T = &p->tb[i];
        uint32_t R = v->partner_send[i];
        if (v->pc[i] >= T->nops && v->nsent[i] && (R == NONE || (v->pc[R] >= p->tb[R].nops && v->nrecvd[R] < v->nsent[i]))) {
            uint32_t got = R == NONE ? 0 : v->nrecvd[R];
            uint32_t x = v->send_list[v->send_first[i] + got];
            char a[160];
            st = totex_fail(v->err, TOTEX_EVIOLATION,
                            "rank %u (thread block %d) sends %u transfers to rank %d on channel %d, which receives %u of "
                            "them: %s is never received", T->rank, T->id, v->nsent[i], T->send, T->chan, got,
                            name_op(a, sizeof a, v, x));
            goto out;
        }
    }
    /* the stuck thread block to name: one waiting on a flag that never comes first (the cause), then one in a
       dependency cycle, then one waiting for a receive */
    uint32_t pick = NONE;
    int pick_rank = 3;
    for (uint32_t i = 0; i < ntb; i++) {
        if (v->pc[i] >= p->tb[i].nops)
            continue;
        const totex_msccl_op *O = &p->ops[p->tb[i].op_first + v->pc[i]];
        int rank = 2;
        for (uint32_t d = 0; d < O->ndeps; d++) {
            uint32_t by;
            int64_t t = dep_time(v, p->tb[i].rank, O->dep_first + d, &by);
            if (t == -2)
                rank = 0;
            else if (t == -1 && rank > 1)
                rank = 1;
        }
        if (rank < pick_rank) {
            pick_rank = rank;
            pick = i;
        }
    }
    for (uint32_t i = pick; i != NONE; i = NONE) {
        const totex_msccl_tb *T = &p->tb[i];
        uint32_t o = T->op_first + v->pc[i];
        const totex_msccl_op *O = &p->ops[o];
        char a[160], why[200] = "";
        for (uint32_t d = 0; d < O->ndeps && !why[0]; d++) {
            uint32_t by;
            const totex_msccl_dep *D = &p->deps[O->dep_first + d];
            int64_t t = dep_time(v, T->rank, O->dep_first + d, &by);
            if (t == -2)
                snprintf(why, sizeof why, "it waits for thread block %u to reach step %u, and no step of that block "
                         "from position %u on has hasdep=\"1\"", D->tb, D->step, D->step);
            else if (t == -1)
                snprintf(why, sizeof why, "it waits for thread block %u to reach step %u, which never comes (a "
                         "dependency cycle)", D->tb, D->step);
        }
        if (!why[0])
            snprintf(why, sizeof why, "its receive from rank %d on channel %d has no send to take (a receive without "
                     "its send, or the sender is stuck)", T->recv, T->chan);
        st = totex_fail(v->err, TOTEX_EVIOLATION, "deadlock: %s never runs: %s", name_op(a, sizeof a, v, o), why);
        goto out;
    }
out:
    free(q.q);
    free(dep_start);
    free(dep_list);
    free(fill);
    return st;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

totex_status totex_msccl_verify(const char *text, size_t len, const totex_network *net, totex_ports ports,
                                uint64_t max_messages, totex_sim_report *rep, char *name, size_t name_cap,
                                totex_error *err)
{
    totex_msccl_program prog;
    totex_status st;
    if (!text || !net || !rep)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_verify: NULL argument");
    if ((st = totex_msccl_read(text, len, &prog, err)) != TOTEX_OK)
        return st;
    st = totex_msccl_verify_program(&prog, net, ports, max_messages, rep, err);
    if (st == TOTEX_OK && name && name_cap)
        snprintf(name, name_cap, "%s", prog.name);
    totex_msccl_program_free(&prog);
    return st;
}

totex_status totex_msccl_verify_file(const char *path, const totex_network *net, totex_ports ports,
                                     uint64_t max_messages, totex_sim_report *rep, char *name, size_t name_cap,
                                     totex_error *err)
{
    totex_msccl_program prog;
    totex_status st;
    if (!path || !net || !rep)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_verify_file: NULL argument");
    if ((st = totex_msccl_read_file(path, &prog, err)) != TOTEX_OK)
        return st;
    st = totex_msccl_verify_program(&prog, net, ports, max_messages, rep, err);
    if (st == TOTEX_OK && name && name_cap)
        snprintf(name, name_cap, "%s", prog.name);
    totex_msccl_program_free(&prog);
    return st;
}

totex_status totex_msccl_verify_program(const totex_msccl_program *p, const totex_network *net, totex_ports ports,
                                        uint64_t max_messages, totex_sim_report *rep, totex_error *err)
{
    vctx v;
    totex_status st = TOTEX_OK;
    uint32_t n, nc, k;
    uint64_t *vals = NULL, *pool = NULL, *tr = NULL, *prefix = NULL;
    uint32_t *lastw = NULL, *rhead = NULL, *rnode = NULL, *rnext = NULL, *order = NULL, *out_c = NULL, *in_c = NULL;
    uint64_t *vc_off = NULL, *pool_off = NULL, *slot_base = NULL;
    uint8_t *vc = NULL, *written = NULL;
    char a[160], b[160];
    int in_place_mode = 0; /* the data check runs the program in place: say so in its message */
    memset(&v, 0, sizeof v);
    if (!p || !net || !rep)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_verify_program: NULL argument");
    memset(rep, 0, sizeof *rep);
    v.p = p;
    v.err = err;
    n = p->ngpus;
    nc = p->nchunks;
    k = p->k;
    if (n != totex_network_nodes(net))
        return totex_fail(err, TOTEX_EIO, "bad MSCCL XML: <algo ngpus=\"%u\"> but network %.200s has %u nodes (one rank per node)",
                          n, totex_network_spec(net), totex_network_nodes(net));
    uint64_t messages = (uint64_t)k * n * (n - 1);
    if (max_messages && messages > max_messages)
        return totex_fail(err, TOTEX_EINVAL, "the all-to-all moves %llu blocks, more than --max-messages %llu",
                          (unsigned long long)messages, (unsigned long long)max_messages);
    uint32_t ntb = p->ntb, nops = p->nops;
    v.pc = calloc((size_t)ntb + 1, sizeof *v.pc);
    v.ready = calloc((size_t)ntb + 1, sizeof *v.ready);
    v.nsent = calloc((size_t)ntb + 1, sizeof *v.nsent);
    v.nrecvd = calloc((size_t)ntb + 1, sizeof *v.nrecvd);
    v.partner_send = malloc(((size_t)ntb + 1) * sizeof *v.partner_send);
    v.partner_recv = malloc(((size_t)ntb + 1) * sizeof *v.partner_recv);
    v.send_first = calloc((size_t)ntb + 1, sizeof *v.send_first);
    v.send_list = malloc(((size_t)nops + 1) * sizeof *v.send_list);
    v.queued = calloc((size_t)ntb + 1, 1);
    v.start = malloc(((size_t)nops + 1) * sizeof *v.start);
    v.end = malloc(((size_t)nops + 1) * sizeof *v.end);
    v.seq = malloc(((size_t)nops + 1) * sizeof *v.seq);
    v.match = malloc(((size_t)nops + 1) * sizeof *v.match);
    v.tb_of = malloc(((size_t)nops + 1) * sizeof *v.tb_of);
    v.depsat = malloc(((size_t)p->ndeps + 1) * sizeof *v.depsat);
    if (!v.pc || !v.ready || !v.nsent || !v.nrecvd || !v.partner_send || !v.partner_recv || !v.send_first ||
        !v.send_list || !v.queued || !v.start || !v.end || !v.seq || !v.match || !v.tb_of || !v.depsat) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    {
        uint32_t at = 0;
        for (uint32_t i = 0; i < ntb; i++) {
            const totex_msccl_tb *T = &p->tb[i];
            v.partner_send[i] = v.partner_recv[i] = NONE;
            v.send_first[i] = at;
            for (uint32_t j = 0; j < T->nops; j++) {
                uint32_t o = T->op_first + j;
                v.tb_of[o] = i;
                v.match[o] = NONE;
                v.start[o] = v.end[o] = -1;
                if (p->ops[o].type == TOTEX_MSCCL_SEND || p->ops[o].type == TOTEX_MSCCL_RCS)
                    v.send_list[at++] = o;
            }
        }
        for (uint32_t i = 0; i < ntb; i++) {
            const totex_msccl_tb *T = &p->tb[i];
            if (T->send < 0)
                continue;
            for (uint32_t j = p->first_tb[T->send]; j < p->first_tb[T->send + 1]; j++)
                if (p->tb[j].recv == (int32_t)T->rank && p->tb[j].chan == T->chan) {
                    v.partner_send[i] = j;
                    v.partner_recv[j] = i;
                }
        }
        for (uint32_t d = 0; d < p->ndeps; d++)
            v.depsat[d] = NONE;
    }
    /* every transfer on a link of the network */
    for (uint32_t o = 0; o < nops; o++) {
        const totex_msccl_tb *T = &p->tb[v.tb_of[o]];
        uint8_t t = p->ops[o].type;
        if ((t == TOTEX_MSCCL_SEND || t == TOTEX_MSCCL_RCS) && !totex_network_adjacent(net, T->rank, (uint32_t)T->send)) {
            st = totex_fail(err, TOTEX_EVIOLATION, "%s sends to rank %d: ranks %u and %d are not neighbours in %.200s "
                            "(no link between them)", name_op(a, sizeof a, &v, o), T->send, T->rank, T->send,
                            totex_network_spec(net));
            goto out;
        }
    }
    if ((st = run(&v)) != TOTEX_OK)
        goto out;
    /* (a) the data, in the run's order (a topological order of the thread blocks' order, dependencies and
       send-receive pairs), every access checked against happens-before on its rank */
    order = malloc(((size_t)nops + 1) * sizeof *order);
    vc_off = malloc(((size_t)nops + 1) * sizeof *vc_off);
    pool_off = malloc(((size_t)nops + 1) * sizeof *pool_off);
    slot_base = malloc(((size_t)n + 1) * sizeof *slot_base);
    if (!order || !vc_off || !pool_off || !slot_base) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    uint64_t vc_total = 0, npool = 0, nslots = 0;
    for (uint32_t o = 0; o < nops; o++) {
        const totex_msccl_tb *T = &p->tb[v.tb_of[o]];
        order[v.seq[o]] = o;
        vc_off[o] = vc_total;
        vc_total += p->first_tb[T->rank + 1] - p->first_tb[T->rank];
        pool_off[o] = npool;
        if (p->ops[o].type == TOTEX_MSCCL_SEND || p->ops[o].type == TOTEX_MSCCL_RCS)
            npool += (uint64_t)p->ops[o].cnt;
    }
    if (vc_total > MAX_CLOCK_BYTES) {
        st = totex_fail(err, TOTEX_EINVAL, "MSCCL XML too large for totex's verifier: transfers x thread blocks of a rank "
                        "add up to %llu clock entries (at most %llu)", (unsigned long long)vc_total,
                        (unsigned long long)MAX_CLOCK_BYTES);
        goto out;
    }
    for (uint32_t r = 0; r < n; r++) {
        slot_base[r] = nslots;
        nslots += 2 * (uint64_t)nc + p->s_chunks[r];
    }
    vc = calloc(vc_total + 1, 1);
    pool = malloc((npool + 1) * sizeof *pool);
    vals = malloc((nslots + 1) * sizeof *vals);
    lastw = malloc((nslots + 1) * sizeof *lastw);
    rhead = malloc((nslots + 1) * sizeof *rhead);
    written = calloc((size_t)n * nc + 1, 1);
    uint64_t nreads = 0;
    for (uint32_t o = 0; o < nops; o++)
        if (p->ops[o].type == TOTEX_MSCCL_SEND || p->ops[o].type == TOTEX_MSCCL_CPY)
            nreads += (uint64_t)p->ops[o].cnt;
    rnode = malloc((nreads + 1) * sizeof *rnode);
    rnext = malloc((nreads + 1) * sizeof *rnext);
    if (!vc || !pool || !vals || !lastw || !rhead || !written || !rnode || !rnext) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    /* the executor runs the program out of place (outofplace="1": input and output are two buffers) and in place
       (inplace="1": the caller passes one buffer, so i and o are the same chunks): each mode it is used for */
    if (!p->inplace && !p->outofplace) {
        st = totex_fail(err, TOTEX_EIO, "bad MSCCL XML: <algo> has inplace=\"0\" and outofplace=\"0\": the executor "
                        "never runs it (set outofplace=\"1\", or inplace=\"1\" for an in-place algorithm)");
        goto out;
    }
    for (int alias = 0; alias < 2; alias++) {
    if ((alias && !p->inplace) || (!alias && !p->outofplace))
        continue;
    in_place_mode = alias;
    for (uint32_t r = 0; r < n; r++) {
        uint64_t s0 = slot_base[r];
        for (uint64_t j = 0; j < 2 * (uint64_t)nc + p->s_chunks[r]; j++) {
            vals[s0 + j] = j < nc ? (uint64_t)r * nc + j : EMPTY; /* input chunk j of rank r */
            lastw[s0 + j] = NONE;
            rhead[s0 + j] = NONE;
        }
    }
    memset(written, 0, (size_t)n * nc);
    uint64_t nread = 0;
    /* in place, o[j] is i[j]: its rank's own blocks are already where they belong, the others leave from there */
#define SLOT(r, buf, off) (slot_base[r] + ((buf) == TOTEX_MSCCL_BUF_I ? 0 : (buf) == TOTEX_MSCCL_BUF_O ? (alias ? 0 : nc) : 2 * (uint64_t)nc) + (uint64_t)(off))
    for (uint32_t s = 0; s < nops; s++) {
        uint32_t o = order[s];
        const totex_msccl_op *O = &p->ops[o];
        uint32_t ti = v.tb_of[o];
        const totex_msccl_tb *T = &p->tb[ti];
        uint32_t r = T->rank, base = p->first_tb[r], ntb_r = p->first_tb[r + 1] - base;
        uint8_t *me = vc + vc_off[o];
        uint32_t idx = o - T->op_first;
        if (idx)
            memcpy(me, vc + vc_off[o - 1], ntb_r);
        for (uint32_t d = 0; d < O->ndeps; d++) {
            const uint8_t *them = vc + vc_off[v.depsat[O->dep_first + d]];
            for (uint32_t j = 0; j < ntb_r; j++)
                if (them[j] > me[j])
                    me[j] = them[j];
        }
        me[ti - base] = (uint8_t)(idx + 1);
        /* w happens before (or is) o: o's clock has seen w */
#define BEFORE(w) (me[v.tb_of[w] - base] >= (w) - p->tb[v.tb_of[w]].op_first + 1)
        if (O->type == TOTEX_MSCCL_SEND || O->type == TOTEX_MSCCL_CPY) {
            for (int32_t x = 0; x < O->cnt; x++) {
                uint64_t sl = SLOT(r, O->srcbuf, O->srcoff + x);
                uint32_t w = lastw[sl];
                if (vals[sl] == EMPTY) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "%s reads %c[%d] before any block is there (a missing "
                                    "dependency, or a read before its write)", name_op(a, sizeof a, &v, o),
                                    bufc(O->srcbuf), O->srcoff + x);
                    goto out;
                }
                if (w != NONE && !BEFORE(w)) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "%s reads %c[%d], which %s writes, without waiting for that "
                                    "write (no dependency orders them: a read before its write)",
                                    name_op(a, sizeof a, &v, o), bufc(O->srcbuf), O->srcoff + x, name_op(b, sizeof b, &v, w));
                    goto out;
                }
                rnode[nread] = o;
                rnext[nread] = rhead[sl];
                rhead[sl] = (uint32_t)nread++;
                if (O->type == TOTEX_MSCCL_SEND)
                    pool[pool_off[o] + (uint64_t)x] = vals[sl];
            }
        }
        if (O->type != TOTEX_MSCCL_SEND) {
            for (int32_t x = 0; x < O->cnt; x++) {
                uint64_t val = O->type == TOTEX_MSCCL_CPY ? vals[SLOT(r, O->srcbuf, O->srcoff + x)]
                                                          : pool[pool_off[v.match[o]] + (uint64_t)x];
                if (O->type == TOTEX_MSCCL_RCS)
                    pool[pool_off[o] + (uint64_t)x] = val;
                uint64_t sl = SLOT(r, O->dstbuf, O->dstoff + x);
                uint32_t w = lastw[sl];
                if (O->dstbuf == TOTEX_MSCCL_BUF_O) {
                    uint8_t *wr = &written[(size_t)r * nc + (size_t)(O->dstoff + x)];
                    if (*wr) {
                        st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %d is written twice: by %s and "
                                        "by %s (a block delivered more than once)", r, O->dstoff + x,
                                        name_op(b, sizeof b, &v, w), name_op(a, sizeof a, &v, o));
                        goto out;
                    }
                    *wr = 1;
                }
                if (w != NONE && w != o && !BEFORE(w)) {
                    st = totex_fail(err, TOTEX_EVIOLATION, "%s writes %c[%d], which %s also writes, with nothing ordering "
                                    "the two (a missing dependency)", name_op(a, sizeof a, &v, o), bufc(O->dstbuf),
                                    O->dstoff + x, name_op(b, sizeof b, &v, w));
                    goto out;
                }
                for (uint32_t ri = rhead[sl]; ri != NONE; ri = rnext[ri])
                    if (rnode[ri] != o && !BEFORE(rnode[ri])) {
                        st = totex_fail(err, TOTEX_EVIOLATION, "%s overwrites %c[%d] while %s may still read it (no "
                                        "dependency orders the read before the write)", name_op(a, sizeof a, &v, o),
                                        bufc(O->dstbuf), O->dstoff + x, name_op(b, sizeof b, &v, rnode[ri]));
                        goto out;
                    }
                vals[sl] = val;
                lastw[sl] = o;
                rhead[sl] = NONE;
            }
        }
#undef BEFORE
    }
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t j = 0; j < nc; j++) {
            uint32_t from = j / k;
            uint64_t want = (uint64_t)from * nc + (uint64_t)r * k + j % k, got = vals[SLOT(r, TOTEX_MSCCL_BUF_O, j)];
            if (got == want)
                continue;
            char what[64];
            if (k > 1)
                snprintf(what, sizeof what, "block %u->%u (chunk %u of %u)", from, r, j % k, k);
            else
                snprintf(what, sizeof what, "block %u->%u", from, r);
            if (got == EMPTY)
                st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %u is never written: %s %s", r, j, what,
                                from == r ? "(the rank's own block: a cpy from i)" : "is not delivered");
            else if (lastw[SLOT(r, TOTEX_MSCCL_BUF_O, j)] == NONE)
                st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %u still holds its input chunk %llu, not "
                                "%s: nothing delivers it", r, j, (unsigned long long)(got % nc), what);
            else
                st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %u holds input chunk %llu of rank %llu, not "
                                "%s: written by %s", r, j, (unsigned long long)(got % nc), (unsigned long long)(got / nc),
                                what, name_op(a, sizeof a, &v, lastw[SLOT(r, TOTEX_MSCCL_BUF_O, j)]));
            goto out;
        }
#undef SLOT
    }
    in_place_mode = 0;
    /* (b) the cost: rounds per executor step under the port model */
    {
        uint64_t ntr = 0;
        int64_t last = 0;
        for (uint32_t o = 0; o < nops; o++) {
            if (v.end[o] > last)
                last = v.end[o];
            if (p->ops[o].type == TOTEX_MSCCL_SEND || p->ops[o].type == TOTEX_MSCCL_RCS)
                ntr++;
        }
        tr = malloc((ntr + 1) * sizeof *tr);
        prefix = calloc((size_t)last + 2, sizeof *prefix);
        out_c = calloc((size_t)n + 1, sizeof *out_c);
        in_c = calloc((size_t)n + 1, sizeof *in_c);
        if (!tr || !prefix || !out_c || !in_c) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
            goto out;
        }
        /* one key per transfer: start (at most 2^24 executor steps: one per transfer), from, to (< 2^10 ranks),
           chunks (< 2^7) */
        ntr = 0;
        for (uint32_t o = 0; o < nops; o++)
            if (p->ops[o].type == TOTEX_MSCCL_SEND || p->ops[o].type == TOTEX_MSCCL_RCS) {
                const totex_msccl_tb *T = &p->tb[v.tb_of[o]];
                tr[ntr++] = ((uint64_t)v.start[o] << 32) | ((uint64_t)T->rank << 20) | ((uint64_t)T->send << 8) |
                            (uint64_t)p->ops[o].cnt;
            }
        qsort(tr, ntr, sizeof *tr, cmp_u64);
        uint32_t kp = totex_ports_k(ports);
        uint64_t hops = 0, rounds = 0, max_in_step = 0;
        for (uint64_t i = 0; i < ntr;) {
            int64_t t = (int64_t)(tr[i] >> 32);
            uint64_t j = i, step_rounds = 0, step_chunks = 0;
            while (j < ntr && (int64_t)(tr[j] >> 32) == t)
                j++;
            for (uint64_t x = i; x < j;) { /* the transfers of one directed link, adjacent after sorting */
                uint64_t link = (tr[x] >> 8) & 0xFFFFFF, c = 0, y = x;
                for (; y < j && ((tr[y] >> 8) & 0xFFFFFF) == link; y++)
                    c += tr[y] & 0xFF;
                out_c[link >> 12] += (uint32_t)c;
                in_c[link & 0xFFF] += (uint32_t)c;
                if (c > step_rounds)
                    step_rounds = c;
                step_chunks += c;
                x = y;
            }
            for (uint64_t x = i; x < j; x++) {
                uint32_t from = (uint32_t)((tr[x] >> 20) & 0xFFF), to = (uint32_t)((tr[x] >> 8) & 0xFFF);
                if (kp) {
                    uint64_t so = (out_c[from] + kp - 1) / kp, si = (in_c[to] + kp - 1) / kp;
                    if (so > step_rounds)
                        step_rounds = so;
                    if (si > step_rounds)
                        step_rounds = si;
                }
            }
            for (uint64_t x = i; x < j; x++) {
                out_c[(tr[x] >> 20) & 0xFFF] = 0;
                in_c[(tr[x] >> 8) & 0xFFF] = 0;
            }
            hops += step_chunks;
            if (step_chunks > max_in_step)
                max_in_step = step_chunks;
            prefix[t + 1] = step_rounds;
            rounds += step_rounds;
            i = j;
        }
        for (int64_t t = 0; t <= last; t++)
            prefix[t + 1] += prefix[t];
        /* delay: the rounds up to the executor step in which a block lands in its output chunk */
        double delay = 0;
        for (uint32_t o = 0; o < nops; o++) {
            const totex_msccl_op *O = &p->ops[o];
            if ((O->type == TOTEX_MSCCL_RECV || O->type == TOTEX_MSCCL_RCS) && O->dstbuf == TOTEX_MSCCL_BUF_O)
                delay += (double)O->cnt * (double)prefix[v.start[o]];
        }
        rep->steps = rounds;
        rep->steps_emitted = (uint64_t)last;
        rep->hops = hops;
        rep->messages = messages;
        rep->average_delay = messages ? delay / (double)messages : 0.0;
        rep->directed_links = 2 * totex_network_links(net);
        rep->link_utilisation =
            rounds && rep->directed_links ? (double)hops / ((double)rounds * (double)rep->directed_links) : 0.0;
        rep->port_utilisation = rounds ? (double)hops / ((double)rounds * n) : 0.0;
        rep->max_hops_in_step = max_in_step;
    }
out:
    if (st == TOTEX_EVIOLATION && in_place_mode && err) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        totex_fail(err, st, "run in place (inplace=\"1\": i and o are one buffer): %.430s", msg);
    }
    free(v.pc);
    free(v.ready);
    free(v.nsent);
    free(v.nrecvd);
    free(v.partner_send);
    free(v.partner_recv);
    free(v.send_first);
    free(v.send_list);
    free(v.queued);
    free(v.start);
    free(v.end);
    free(v.seq);
    free(v.match);
    free(v.tb_of);
    free(v.depsat);
    free(order);
    free(vc_off);
    free(pool_off);
    free(slot_base);
    free(vc);
    free(pool);
    free(vals);
    free(lastw);
    free(rhead);
    free(rnode);
    free(rnext);
    free(written);
    free(tr);
    free(prefix);
    free(out_c);
    free(in_c);
    return st;
}
