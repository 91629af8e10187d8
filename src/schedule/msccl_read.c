/*
 * Verifying an MSCCL XML all-to-all against a network and a port model
 * (include/totex/schedule_io.h, docs/unit-schedule-format.md).
 *
 * 1. Parse with libxml2 (no entity substitution, no DTD, no network, size
 *    capped), then check the structure and the executor's limits as the
 *    MSCCL executor's parser does (Azure/msccl-executor-nccl
 *    src/misc/msccl/msccl_parser.cc, src/include/msccl/msccl_struct.h).
 * 2. Run it as the executor would, in unit steps: each thread block runs
 *    its steps in order; a step starts once the previous step of its block
 *    and every dependency (its own depid/deps and those of the nops before
 *    it, deps indexing transmissions) have ended. A send puts its chunks on
 *    the link in the step it starts and ends one step later; the k-th send
 *    of a block on (rank v, peer u, channel c) is taken by the k-th receive
 *    of u's block on (peer v, channel c) once it has arrived (a receive takes
 *    no time of its own and cannot hold the sender back: NCCL's connections
 *    buffer); rcs (receive-copy-send) receives and forwards to its send peer
 *    in the step it lands; a local copy takes no time. A worklist finds the
 *    start of every step; what never starts is a deadlock (a dependency
 *    cycle or a receive without its send).
 * 3. Replay the data in time order: every read must find the chunk there
 *    (else a dependency is missing), every transfer is a hop of the block it
 *    reads, fed step by step to the simulator of totex/sim.h (link, port
 *    model, block present and moving once per step), and at the end every
 *    output chunk holds the block the all-to-all puts there, written once.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/error.h"
#include "totex/schedule_io.h"

enum { T_SEND, T_RECV, T_RCS, T_CPY, T_NOP };
enum { B_I = 0, B_O = 1, B_S = 2 };
#define EMPTY UINT64_MAX
#define MAX_ELEMENTS (UINT64_C(1) << 22)
/* scratch chunks of all ranks together (8 bytes each while replaying); a rank of the executor's parser holds at
   most ~1000 steps of at most 71 chunks, so a real file touches far fewer */
#define MAX_SCRATCH (UINT64_C(1) << 22)

typedef struct mstep {
    uint8_t type, srcbuf, dstbuf;
    int32_t srcoff, dstoff, cnt, depid, deps;
    int64_t start, end; /* -1 until resolved */
    uint64_t seq;       /* resolution order, for ties */
    uint32_t peer_step; /* a receive: the index of the matching send in the sending block */
    uint64_t pool;      /* a send: where its chunks' blocks are kept (cnt entries) */
} mstep;

typedef struct mtb {
    uint32_t gpu;
    int32_t id, send, recv, chan;
    mstep *steps;
    uint32_t nsteps;
    uint32_t *trans; /* index of the j-th transmission in steps */
    uint32_t ntrans;
    uint32_t *sends; /* index of the k-th send in steps */
    uint32_t nsends;
    /* execution */
    uint32_t pc, done_trans;
    int64_t ready;      /* end of the previous step */
    uint32_t nsent, nrecvd;
    int32_t partner_send, partner_recv; /* global tb index of the peer's matching block, -1 none */
    int queued;
} mtb;

typedef struct mgpu {
    uint32_t s_chunks;
    uint32_t first_tb, ntb; /* global tb indices [first_tb, first_tb+ntb) ordered by id */
    int seen;
} mgpu;

typedef struct ctx {
    totex_error *err;
    uint32_t n;
    mgpu *g;
    mtb *tb;
    uint32_t ntb, cap_tb;
    int inplace, outofplace;
    uint64_t scratch_total; /* s_chunks of every rank so far */
} ctx;

static totex_status bad(ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static totex_status bad(ctx *c, const char *fmt, ...)
{
    va_list ap;
    char msg[440];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return totex_fail(c->err, TOTEX_EIO, "bad MSCCL XML: %s", msg);
}

/* integer attribute: required, whole, in lo..hi */
static int attr_int(xmlNode *nd, const char *name, long long lo, long long hi, long long *out, ctx *c,
                    totex_status *st, const char *where)
{
    xmlChar *v = xmlGetProp(nd, (const xmlChar *)name);
    char *end;
    if (!v) {
        *st = bad(c, "%s (line %ld) has no attribute %s", where, xmlGetLineNo(nd), name);
        return -1;
    }
    long long x = strtoll((const char *)v, &end, 10);
    int ok = end != (char *)v && !*end && x >= lo && x <= hi && (((char *)v)[0] == '-' || (((char *)v)[0] >= '0' && ((char *)v)[0] <= '9'));
    if (!ok) {
        *st = bad(c, "%s (line %ld): %s=\"%.40s\" must be a whole number in %lld..%lld", where, xmlGetLineNo(nd), name,
                  (const char *)v, lo, hi);
        xmlFree(v);
        return -1;
    }
    xmlFree(v);
    *out = x;
    return 0;
}

static int attr_str(xmlNode *nd, const char *name, char *buf, size_t cap, ctx *c, totex_status *st, const char *where)
{
    xmlChar *v = xmlGetProp(nd, (const xmlChar *)name);
    if (!v) {
        *st = bad(c, "%s (line %ld) has no attribute %s", where, xmlGetLineNo(nd), name);
        return -1;
    }
    snprintf(buf, cap, "%s", (const char *)v);
    xmlFree(v);
    return 0;
}

static int is_el(xmlNode *nd, const char *name)
{
    return nd->type == XML_ELEMENT_NODE && !strcmp((const char *)nd->name, name);
}

static int bufcode(const char *s)
{
    return !strcmp(s, "i") ? B_I : !strcmp(s, "o") ? B_O : !strcmp(s, "s") ? B_S : -1;
}

static totex_status read_step(ctx *c, xmlNode *nd, mtb *t, mstep *s, uint32_t gpu_chunks_s)
{
    totex_status st = TOTEX_OK;
    char type[16], sb[8], db[8], where[96];
    long long v;
    snprintf(where, sizeof where, "rank %u, thread block %d, a step", t->gpu, t->id);
    if (attr_int(nd, "s", -32768, 32767, &v, c, &st, where))
        return st;
    if (v < 0)
        return bad(c, "%s (line %ld): s=%lld must not be negative", where, xmlGetLineNo(nd), v);
    if (v >= TOTEX_MSCCL_MAX_NUM_STEPS)
        return totex_fail(c->err, TOTEX_EINVAL,
                          "MSCCL XML exceeds a limit: rank %u, thread block %d, step s=%lld (line %ld); the executor "
                          "allows MSCCL_MAX_NUM_STEPS = %d steps per thread block (over by %lld)",
                          t->gpu, t->id, v, xmlGetLineNo(nd), TOTEX_MSCCL_MAX_NUM_STEPS, v + 1 - TOTEX_MSCCL_MAX_NUM_STEPS);
    snprintf(where, sizeof where, "rank %u, thread block %d, step s=%lld", t->gpu, t->id, v);
    if (attr_str(nd, "type", type, sizeof type, c, &st, where) || attr_str(nd, "srcbuf", sb, sizeof sb, c, &st, where) ||
        attr_str(nd, "dstbuf", db, sizeof db, c, &st, where))
        return st;
    s->type = !strcmp(type, "s") ? T_SEND : !strcmp(type, "r") ? T_RECV : !strcmp(type, "rcs") ? T_RCS
            : !strcmp(type, "cpy") ? T_CPY : !strcmp(type, "nop") ? T_NOP : 255;
    if (s->type == 255)
        return bad(c, "%s (line %ld): type=\"%.20s\" is not one of s, r, rcs, cpy, nop (reductions have no place in an all-to-all)",
                   where, xmlGetLineNo(nd), type);
    int sbc = bufcode(sb), dbc = bufcode(db);
    if (sbc < 0 || dbc < 0)
        return bad(c, "%s (line %ld): srcbuf and dstbuf must be i, o or s", where, xmlGetLineNo(nd));
    s->srcbuf = (uint8_t)sbc;
    s->dstbuf = (uint8_t)dbc;
    long long so, dof, cnt, depid, deps, hasdep;
    if (attr_int(nd, "srcoff", -1, 32767, &so, c, &st, where) || attr_int(nd, "dstoff", -1, 32767, &dof, c, &st, where) ||
        attr_int(nd, "cnt", -2147483647LL, 2147483647LL, &cnt, c, &st, where) ||
        attr_int(nd, "depid", -1, TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS - 1, &depid, c, &st, where) ||
        attr_int(nd, "deps", -1, 32767, &deps, c, &st, where) || attr_int(nd, "hasdep", 0, 1, &hasdep, c, &st, where))
        return st;
    if (s->type != T_NOP && (cnt < 0 || cnt >= TOTEX_MSCCL_MAX_COUNT))
        return totex_fail(c->err, TOTEX_EINVAL,
                          "MSCCL XML exceeds a limit: %s (line %ld) has cnt=%lld; the executor needs 0 <= cnt < "
                          "MSCCL_MAX_COUNT = %d",
                          where, xmlGetLineNo(nd), cnt, TOTEX_MSCCL_MAX_COUNT);
    if (s->type != T_NOP && cnt < 1)
        return bad(c, "%s (line %ld): cnt=%lld moves nothing (a transfer or copy needs cnt >= 1)", where, xmlGetLineNo(nd), cnt);
    int reads = s->type == T_SEND || s->type == T_CPY, writes = s->type == T_RECV || s->type == T_RCS || s->type == T_CPY;
    uint32_t n = c->n;
    uint32_t lim_s = s->srcbuf == B_S ? gpu_chunks_s : n, lim_d = s->dstbuf == B_S ? gpu_chunks_s : n;
    if (reads && (so < 0 || so + cnt > lim_s))
        return bad(c, "%s (line %ld): srcoff=%lld with cnt=%lld is outside %c (%u chunks)", where, xmlGetLineNo(nd), so,
                   cnt, sb[0], lim_s);
    if (writes && (dof < 0 || dof + cnt > lim_d))
        return bad(c, "%s (line %ld): dstoff=%lld with cnt=%lld is outside %c (%u chunks)", where, xmlGetLineNo(nd), dof,
                   cnt, db[0], lim_d);
    if ((s->type == T_SEND || s->type == T_RCS) && t->send < 0)
        return bad(c, "%s (line %ld): a send in a thread block without a send peer", where, xmlGetLineNo(nd));
    if ((s->type == T_RECV || s->type == T_RCS) && t->recv < 0)
        return bad(c, "%s (line %ld): a receive in a thread block without a recv peer", where, xmlGetLineNo(nd));
    if ((depid < 0) != (deps < 0))
        return bad(c, "%s (line %ld): depid and deps must both be -1 or both name a step", where, xmlGetLineNo(nd));
    s->srcoff = (int32_t)so;
    s->dstoff = (int32_t)dof;
    s->cnt = (int32_t)cnt;
    s->depid = (int32_t)depid;
    s->deps = (int32_t)deps;
    s->start = s->end = -1;
    return TOTEX_OK;
}

static totex_status read_doc(ctx *c, xmlNode *root, const char *spec)
{
    totex_status st = TOTEX_OK;
    char buf[64];
    long long v, ngpus, nch, ncpl;
    uint64_t elements = 0;
    if (!root || !is_el(root, "algo"))
        return bad(c, "the root element must be <algo> (MSCCL algorithm file)");
    if (attr_str(root, "coll", buf, sizeof buf, c, &st, "<algo>"))
        return st;
    if (strcmp(buf, "alltoall"))
        return bad(c, "<algo coll=\"%.30s\">: totex verifies all-to-all only (coll=\"alltoall\")", buf);
    if (attr_str(root, "proto", buf, sizeof buf, c, &st, "<algo>"))
        return st;
    if (strcmp(buf, "Simple") && strcmp(buf, "LL") && strcmp(buf, "LL128"))
        return bad(c, "<algo proto=\"%.30s\">: the executor knows Simple, LL and LL128", buf);
    if (attr_int(root, "ngpus", 1, 1 << 20, &ngpus, c, &st, "<algo>") ||
        attr_int(root, "nchannels", 1, 1 << 20, &nch, c, &st, "<algo>") ||
        attr_int(root, "nchunksperloop", 1, 1LL << 30, &ncpl, c, &st, "<algo>") ||
        attr_int(root, "inplace", 0, 1, &v, c, &st, "<algo>"))
        return st;
    c->inplace = (int)v;
    if (attr_int(root, "outofplace", 0, 1, &v, c, &st, "<algo>"))
        return st;
    c->outofplace = (int)v;
    if (attr_int(root, "minBytes", 0, INT64_MAX, &v, c, &st, "<algo>") ||
        attr_int(root, "maxBytes", 0, INT64_MAX, &v, c, &st, "<algo>"))
        return st;
    if (ngpus != c->n)
        return bad(c, "<algo ngpus=\"%lld\"> but network %.200s has %u nodes (one rank per node)", ngpus, spec, c->n);
    if (nch > TOTEX_MSCCL_MAXCHANNELS)
        return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: nchannels=%lld; NCCL has MAXCHANNELS = %d (over by %lld)",
                          nch, TOTEX_MSCCL_MAXCHANNELS, nch - TOTEX_MSCCL_MAXCHANNELS);
    if (ncpl != ngpus)
        return bad(c, "<algo nchunksperloop=\"%lld\">: totex reads one chunk per rank pair (nchunksperloop = ngpus = %lld)",
                   ncpl, ngpus);
    for (xmlNode *g = root->children; g; g = g->next) {
        if (++elements > MAX_ELEMENTS)
            return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: more than %llu XML nodes",
                              (unsigned long long)MAX_ELEMENTS);
        if (!is_el(g, "gpu"))
            continue;
        long long id, ic, oc, sc;
        if (attr_int(g, "id", 0, c->n - 1, &id, c, &st, "<gpu>"))
            return st;
        char where[48];
        snprintf(where, sizeof where, "<gpu id=\"%lld\">", id);
        if (attr_int(g, "i_chunks", 0, 1LL << 30, &ic, c, &st, where) || attr_int(g, "o_chunks", 0, 1LL << 30, &oc, c, &st, where) ||
            attr_int(g, "s_chunks", 0, 1 << 24, &sc, c, &st, where))
            return st;
        mgpu *G = &c->g[id];
        c->scratch_total += (uint64_t)sc;
        if (c->scratch_total > MAX_SCRATCH)
            return totex_fail(c->err, TOTEX_EINVAL,
                              "MSCCL XML too large for totex's verifier: the ranks' s_chunks add up to more than %llu "
                              "scratch chunks (at <gpu id=\"%lld\">)", (unsigned long long)MAX_SCRATCH, id);
        if (G->seen)
            return bad(c, "rank %lld has two <gpu> elements (line %ld)", id, xmlGetLineNo(g));
        G->seen = 1;
        if (ic != c->n || oc != c->n)
            return bad(c, "%s: i_chunks and o_chunks must be ngpus = %u for an all-to-all", where, c->n);
        G->s_chunks = (uint32_t)sc;
        G->first_tb = c->ntb;
        uint64_t nodes = 1 + (uint64_t)c->n;
        /* thread blocks, in id order 0..ntb-1 */
        uint32_t count = 0;
        for (xmlNode *t = g->children; t; t = t->next)
            if (is_el(t, "tb"))
                count++;
        if (count > TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS)
            return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: rank %lld has %u thread blocks; the executor allows "
                              "MSCCL_MAX_NUM_THREAD_BLOCKS = %d (over by %u)", id, count, TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS,
                              count - TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS);
        if (c->ntb + count > c->cap_tb) {
            uint32_t nc = c->cap_tb ? c->cap_tb : 64;
            while (nc < c->ntb + count)
                nc *= 2;
            mtb *q = realloc(c->tb, nc * sizeof *q);
            if (!q)
                return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
            c->tb = q;
            c->cap_tb = nc;
        }
        uint32_t base = c->ntb;
        if (count) /* a rank without thread blocks while none was allocated: no NULL + 0 (found by fuzz_msccl) */
            memset(c->tb + base, 0, count * sizeof *c->tb);
        for (uint32_t i = 0; i < count; i++)
            c->tb[base + i].id = -1;
        c->ntb += count; /* counted at once, so that the cleanup frees what a failure leaves behind */
        unsigned sends_per_chan[TOTEX_MSCCL_MAXCHANNELS] = {0}, recvs_per_chan[TOTEX_MSCCL_MAXCHANNELS] = {0};
        for (xmlNode *t = g->children; t; t = t->next) {
            if (++elements > MAX_ELEMENTS)
                return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: more than %llu XML nodes",
                                  (unsigned long long)MAX_ELEMENTS);
            if (!is_el(t, "tb"))
                continue;
            long long bid, sp, rp, ch;
            if (attr_int(t, "id", 0, 1 << 20, &bid, c, &st, where))
                return st;
            if (bid >= count)
                return bad(c, "%s: thread block id %lld, but there are %u (ids must be 0..%u, none missing)", where, bid,
                           count, count - 1);
            mtb *T = &c->tb[base + bid];
            if (T->id >= 0)
                return bad(c, "%s: duplicate thread block id %lld (line %ld)", where, bid, xmlGetLineNo(t));
            char w2[96];
            snprintf(w2, sizeof w2, "rank %lld, thread block %lld", id, bid);
            if (attr_int(t, "send", -1, c->n - 1, &sp, c, &st, w2) || attr_int(t, "recv", -1, c->n - 1, &rp, c, &st, w2) ||
                attr_int(t, "chan", 0, 1 << 20, &ch, c, &st, w2))
                return st;
            if (sp == id || rp == id)
                return bad(c, "%s: a peer (send %lld, recv %lld) cannot be the rank itself", w2, sp, rp);
            if (ch >= TOTEX_MSCCL_MAXCHANNELS || ch >= nch)
                return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: %s uses channel %lld; nchannels is %lld "
                                  "and NCCL has MAXCHANNELS = %d", w2, ch, nch, TOTEX_MSCCL_MAXCHANNELS);
            if ((sp >= 0 && ++sends_per_chan[ch] > TOTEX_MSCCL_MAX_TB_PER_CHANNEL) ||
                (rp >= 0 && ++recvs_per_chan[ch] > TOTEX_MSCCL_MAX_TB_PER_CHANNEL))
                return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: rank %lld has more than %d %s thread blocks on "
                                  "channel %lld (MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL)", id,
                                  TOTEX_MSCCL_MAX_TB_PER_CHANNEL, sp >= 0 ? "sending" : "receiving", ch);
            T->gpu = (uint32_t)id;
            T->id = (int32_t)bid;
            T->send = (int32_t)sp;
            T->recv = (int32_t)rp;
            T->chan = (int32_t)ch;
            uint32_t ns = 0;
            for (xmlNode *s = t->children; s; s = s->next)
                if (is_el(s, "step"))
                    ns++;
            nodes += 1 + ns;
            if (nodes > TOTEX_MSCCL_MAX_NODES - 1)
                return totex_fail(c->err, TOTEX_EINVAL,
                                  "MSCCL XML exceeds a limit: rank %lld needs more than %d XML nodes (1 algo + %u gpus + "
                                  "its thread blocks and steps); the executor's parser fails at MAX_NODES = %d",
                                  id, TOTEX_MSCCL_MAX_NODES - 1, c->n, TOTEX_MSCCL_MAX_NODES);
            T->steps = calloc(ns ? ns : 1, sizeof *T->steps);
            T->trans = calloc(ns ? ns : 1, sizeof *T->trans);
            T->sends = calloc(ns ? ns : 1, sizeof *T->sends);
            if (!T->steps || !T->trans || !T->sends)
                return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
            for (xmlNode *s = t->children; s; s = s->next) {
                if (!is_el(s, "step"))
                    continue;
                mstep *S = &T->steps[T->nsteps];
                if ((st = read_step(c, s, T, S, G->s_chunks)))
                    return st;
                if (S->type != T_NOP)
                    T->trans[T->ntrans++] = T->nsteps;
                if (S->type == T_SEND || S->type == T_RCS)
                    T->sends[T->nsends++] = T->nsteps;
                T->nsteps++;
            }
        }
        G->ntb = count;
    }
    for (uint32_t r = 0; r < c->n; r++)
        if (!c->g[r].seen)
            return bad(c, "no <gpu id=\"%u\">: an all-to-all on ngpus = %u needs every rank", r, c->n);
    /* dependencies name existing transmissions of the same rank */
    for (uint32_t i = 0; i < c->ntb; i++) {
        mtb *T = &c->tb[i];
        const mgpu *G = &c->g[T->gpu];
        for (uint32_t k = 0; k < T->nsteps; k++) {
            const mstep *S = &T->steps[k];
            if (S->depid < 0)
                continue;
            if ((uint32_t)S->depid >= G->ntb || (uint32_t)S->deps >= c->tb[G->first_tb + S->depid].ntrans)
                return bad(c, "rank %u, thread block %d, step %u: depid=%d deps=%d names no transmission of rank %u",
                           T->gpu, T->id, k, S->depid, S->deps, T->gpu);
        }
    }
    /* one sending and one receiving block per (rank, peer, channel): the k-th send meets the k-th receive */
    for (uint32_t i = 0; i < c->ntb; i++) {
        mtb *T = &c->tb[i];
        T->partner_send = T->partner_recv = -1;
    }
    for (uint32_t i = 0; i < c->ntb; i++) {
        mtb *T = &c->tb[i];
        if (T->send >= 0) {
            const mgpu *P = &c->g[T->send];
            for (uint32_t j = P->first_tb; j < P->first_tb + P->ntb; j++)
                if (c->tb[j].recv == (int32_t)T->gpu && c->tb[j].chan == T->chan) {
                    if (T->partner_send >= 0)
                        return bad(c, "rank %d has two thread blocks receiving from rank %u on channel %d", T->send, T->gpu, T->chan);
                    T->partner_send = (int32_t)j;
                }
        }
        for (uint32_t j = c->g[T->gpu].first_tb; j < i; j++)
            if ((T->send >= 0 && c->tb[j].send == T->send && c->tb[j].chan == T->chan) ||
                (T->recv >= 0 && c->tb[j].recv == T->recv && c->tb[j].chan == T->chan))
                return bad(c, "rank %u has two thread blocks for peer %d on channel %d in the same direction", T->gpu,
                           T->send >= 0 && c->tb[j].send == T->send ? T->send : T->recv, T->chan);
    }
    for (uint32_t i = 0; i < c->ntb; i++)
        if (c->tb[i].send >= 0 && c->tb[i].partner_send >= 0)
            c->tb[c->tb[i].partner_send].partner_recv = (int32_t)i;
    return TOTEX_OK;
}

/* ---- execution: start and end of every step -------------------------------- */

typedef struct runq {
    uint32_t *q;
    uint32_t head, tail, cap;
} runq;

static void enqueue(ctx *c, runq *q, int32_t i)
{
    if (i < 0 || c->tb[i].queued)
        return;
    c->tb[i].queued = 1;
    q->q[q->tail] = (uint32_t)i;
    q->tail = (q->tail + 1) % q->cap;
}

/* block i advanced: look again at its peers' blocks and at the blocks of its rank that depend on it */
static void wake(ctx *c, runq *q, uint32_t i, const uint32_t *dep_start, const uint32_t *dep_list)
{
    enqueue(c, q, c->tb[i].partner_send);
    enqueue(c, q, c->tb[i].partner_recv);
    for (uint32_t k = dep_start[i]; k < dep_start[i + 1]; k++)
        enqueue(c, q, (int32_t)dep_list[k]);
}

/* ready time from the dependencies of step k of block i (its own and those of the nops just before it);
   -1 when one has not ended */
static int64_t deps_ready(ctx *c, uint32_t i, uint32_t k)
{
    mtb *T = &c->tb[i];
    int64_t r = T->ready;
    for (int64_t j = (int64_t)k; j >= 0; j--) {
        const mstep *S = &T->steps[j];
        if (j < (int64_t)k && S->type != T_NOP)
            break;
        if (S->depid < 0)
            continue;
        const mtb *D = &c->tb[c->g[T->gpu].first_tb + (uint32_t)S->depid];
        if (D->done_trans <= (uint32_t)S->deps)
            return -1;
        int64_t e = D->steps[D->trans[S->deps]].end;
        if (e > r)
            r = e;
    }
    return r;
}

static void skip_nops(mtb *T)
{
    while (T->pc < T->nsteps && T->steps[T->pc].type == T_NOP)
        T->pc++;
}

static totex_status run(ctx *c)
{
    runq q;
    uint64_t seq = 0;
    totex_status st = TOTEX_OK;
    uint32_t *dep_start = calloc((size_t)c->ntb + 1, sizeof *dep_start), *dep_list = NULL;
    q.cap = c->ntb + 1;
    q.head = q.tail = 0;
    q.q = malloc(q.cap * sizeof *q.q);
    if (!q.q || !dep_start) {
        st = totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    /* dependents: for each block, the blocks of its rank with a step depending on it (CSR, duplicates kept) */
    uint64_t ndeps = 0;
    for (uint32_t i = 0; i < c->ntb; i++)
        for (uint32_t k = 0; k < c->tb[i].nsteps; k++)
            if (c->tb[i].steps[k].depid >= 0) {
                dep_start[c->g[c->tb[i].gpu].first_tb + (uint32_t)c->tb[i].steps[k].depid + 1]++;
                ndeps++;
            }
    for (uint32_t i = 0; i < c->ntb; i++)
        dep_start[i + 1] += dep_start[i];
    dep_list = malloc((ndeps ? ndeps : 1) * sizeof *dep_list);
    uint32_t *fill = calloc((size_t)c->ntb + 1, sizeof *fill);
    if (!dep_list || !fill) {
        free(fill);
        st = totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < c->ntb; i++)
        for (uint32_t k = 0; k < c->tb[i].nsteps; k++)
            if (c->tb[i].steps[k].depid >= 0) {
                uint32_t d = c->g[c->tb[i].gpu].first_tb + (uint32_t)c->tb[i].steps[k].depid;
                dep_list[dep_start[d] + fill[d]++] = i;
            }
    free(fill);
    for (uint32_t i = 0; i < c->ntb; i++)
        enqueue(c, &q, (int32_t)i);
    while (q.head != q.tail) {
        uint32_t i = q.q[q.head];
        q.head = (q.head + 1) % q.cap;
        mtb *T = &c->tb[i];
        T->queued = 0;
        for (;;) {
            skip_nops(T);
            if (T->pc >= T->nsteps)
                break;
            mstep *S = &T->steps[T->pc];
            int64_t r = deps_ready(c, i, T->pc);
            if (r < 0)
                break;
            if (S->type == T_CPY) {
                S->start = S->end = r;
            } else if (S->type == T_SEND) {
                /* the chunks cross the link in step r; the receiver takes them from its connection's FIFO later */
                S->start = r;
                S->end = r + 1;
                T->nsent++;
            } else {
                /* the k-th receive takes the k-th send of the peer's block on this channel, once it has arrived;
                   rcs forwards what it received to its send peer in the step it lands */
                if (T->partner_recv < 0)
                    break;
                mtb *P = &c->tb[T->partner_recv];
                if (P->nsent <= T->nrecvd)
                    break;
                uint32_t ks = P->sends[T->nrecvd];
                const mstep *X = &P->steps[ks];
                if (X->cnt != S->cnt) {
                    st = totex_fail(c->err, TOTEX_EVIOLATION,
                                    "rank %u (thread block %d) sends %d chunks to rank %u, whose matching receive "
                                    "(thread block %d) takes %d",
                                    P->gpu, P->id, X->cnt, T->gpu, T->id, S->cnt);
                    goto out;
                }
                S->start = S->end = r > X->end ? r : X->end;
                S->peer_step = ks;
                T->nrecvd++;
                if (S->type == T_RCS) {
                    S->end = S->start + 1;
                    T->nsent++;
                }
            }
            S->seq = seq++;
            T->ready = S->end;
            T->pc++;
            T->done_trans++;
            wake(c, &q, i, dep_start, dep_list);
        }
    }
    for (uint32_t i = 0; i < c->ntb; i++) {
        mtb *T = &c->tb[i];
        skip_nops(T);
        if (T->pc >= T->nsteps && T->nsent && (T->partner_send < 0 || c->tb[T->partner_send].nrecvd != T->nsent)) {
            st = totex_fail(c->err, TOTEX_EVIOLATION,
                            "rank %u (thread block %d) sends %u transfers to rank %d on channel %d, which receives %u of them",
                            T->gpu, T->id, T->nsent, T->send, T->chan,
                            T->partner_send < 0 ? 0 : c->tb[T->partner_send].nrecvd);
            goto out;
        }
        if (T->pc < T->nsteps) {
            const mstep *S = &T->steps[T->pc];
            st = totex_fail(c->err, TOTEX_EVIOLATION,
                            "deadlock: rank %u, thread block %d (send %d, recv %d) never runs its transmission %u "
                            "(type %s%s): a dependency cycle, or a send or receive without its partner at the peer",
                            T->gpu, T->id, T->send, T->recv, T->done_trans,
                            S->type == T_SEND ? "s" : S->type == T_RECV ? "r" : S->type == T_RCS ? "rcs" : "cpy",
                            S->depid >= 0 ? ", with a dependency" : "");
            goto out;
        }
    }
out:
    free(q.q);
    free(dep_start);
    free(dep_list);
    return st;
}

/* ---- data replay ------------------------------------------------------------- */

typedef struct event {
    int64_t time; /* when it reads */
    uint64_t seq;
    uint32_t tb, step;
    int part;     /* rcs: 0 receive, 1 send */
} event;

static int event_cmp(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct arrival {
    int64_t time;
    uint32_t gpu;
    uint8_t buf;
    uint32_t off;
    uint64_t block;
} arrival;


/* a block lands in a buffer: an output chunk may be written once */
static totex_status land(ctx *c, uint64_t **bufs, uint8_t *written, const arrival *a, totex_error *err)
{
    size_t idx = a->buf == B_I ? a->off : a->buf == B_O ? c->n + a->off : 2 * (size_t)c->n + a->off;
    if (a->buf == B_O) {
        uint8_t *w = &written[(size_t)a->gpu * c->n + a->off];
        if (*w)
            return totex_fail(err, TOTEX_EVIOLATION,
                              "rank %u's output chunk %u is written twice (at step %lld): a block delivered more than once",
                              a->gpu, a->off, (long long)a->time - 1);
        *w = 1;
    }
    bufs[a->gpu][idx] = a->block;
    return TOTEX_OK;
}

totex_status totex_msccl_verify(const char *text, size_t len, const totex_network *net, totex_ports ports,
                                uint64_t max_messages, totex_sim_report *rep, char *name, size_t name_cap,
                                totex_error *err)
{
    ctx c;
    totex_status st;
    xmlDoc *doc = NULL;
    event *ev = NULL;
    uint64_t *pool = NULL;
    uint64_t **bufs = NULL; /* per gpu: i[n], o[n], s[s_chunks] */
    uint8_t *written = NULL;
    totex_sim *sim = NULL;
    totex_hop *hops = NULL;
    memset(&c, 0, sizeof c);
    c.err = err;
    if (!text || !net || !rep)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_verify: NULL argument");
    if (len > TOTEX_MSCCL_FILE_MAX)
        return totex_fail(err, TOTEX_EINVAL, "MSCCL XML file of %zu bytes exceeds the limit of %llu bytes", len,
                          (unsigned long long)TOTEX_MSCCL_FILE_MAX);
    if (len > INT32_MAX)
        return totex_fail(err, TOTEX_EINVAL, "MSCCL XML file too large");
    c.n = totex_network_nodes(net);
    if (c.n >= TOTEX_MSCCL_MAX_NODES)
        return totex_fail(err, TOTEX_EINVAL, "network %.200s has %u nodes: an MSCCL all-to-all on ngpus = %u cannot fit the "
                          "executor's parser (MAX_NODES = %d XML nodes per rank)", totex_network_spec(net), c.n, c.n,
                          TOTEX_MSCCL_MAX_NODES);
    xmlResetLastError();
    doc = xmlReadMemory(text, (int)len, "schedule.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        char m[200] = "not well-formed XML";
        if (e && e->message) {
            snprintf(m, sizeof m, "%s", e->message);
            for (char *p = m; *p; p++)
                if (*p == '\n')
                    *p = 0;
        }
        return totex_fail(err, TOTEX_EIO, "bad MSCCL XML: line %d: %s", e ? e->line : 0, m);
    }
    if (doc->intSubset || doc->extSubset) {
        xmlFreeDoc(doc);
        return totex_fail(err, TOTEX_EIO, "bad MSCCL XML: a DOCTYPE is not allowed (entities are never expanded)");
    }
    c.g = calloc(c.n, sizeof *c.g);
    if (!c.g) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = read_doc(&c, xmlDocGetRootElement(doc), totex_network_spec(net))))
        goto out;
    if (name && name_cap) {
        xmlChar *nm = xmlGetProp(xmlDocGetRootElement(doc), (const xmlChar *)"name");
        snprintf(name, name_cap, "%s", nm ? (const char *)nm : "unnamed");
        for (char *p = name; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        xmlFree(nm);
    }
    xmlFreeDoc(doc);
    doc = NULL;
    if ((st = run(&c)))
        goto out;
    /* events: every send, receive and copy at its start, in time then resolution order */
    uint64_t nev = 0, npool = 0;
    int64_t last = 0;
    for (uint32_t i = 0; i < c.ntb; i++)
        for (uint32_t k = 0; k < c.tb[i].nsteps; k++) {
            mstep *S = &c.tb[i].steps[k];
            if (S->type == T_NOP)
                continue;
            nev++;
            if (S->type == T_SEND || S->type == T_RCS) {
                S->pool = npool;
                npool += (uint64_t)S->cnt;
            }
            if (S->end > last)
                last = S->end;
        }
    ev = malloc((nev ? nev : 1) * sizeof *ev);
    pool = malloc((npool ? npool : 1) * sizeof *pool);
    hops = malloc((npool ? npool : 1) * sizeof *hops);
    bufs = calloc(c.n, sizeof *bufs);
    written = calloc((size_t)c.n * c.n, 1);
    if (!ev || !pool || !hops || !bufs || !written) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        goto out;
    }
    nev = 0;
    for (uint32_t i = 0; i < c.ntb; i++)
        for (uint32_t k = 0; k < c.tb[i].nsteps; k++) {
            const mstep *S = &c.tb[i].steps[k];
            if (S->type != T_NOP)
                ev[nev++] = (event){S->start, S->seq, i, k, 0};
        }
    qsort(ev, nev, sizeof *ev, event_cmp);
    for (uint32_t r = 0; r < c.n; r++) {
        size_t sz = 2 * (size_t)c.n + c.g[r].s_chunks;
        if (!(bufs[r] = malloc(sz * sizeof **bufs))) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t j = 0; j < sz; j++)
            bufs[r][j] = EMPTY;
        for (uint32_t j = 0; j < c.n; j++)
            bufs[r][j] = (uint64_t)r * c.n + j; /* input chunk j of rank r: the block r -> j */
        if (c.inplace) {
            bufs[r][c.n + r] = (uint64_t)r * c.n + r; /* in place, the own block is already where it belongs */
            written[(size_t)r * c.n + r] = 1;
        }
    }
    sim = totex_sim_new(net, ports, max_messages, err);
    if (!sim) {
        st = TOTEX_ENOMEM;
        goto out;
    }
    {
        uint64_t ei = 0;
        for (int64_t T = 0; T <= last; T++) {
            size_t nh = 0;
            for (; ei < nev && ev[ei].time <= T; ei++) {
                mtb *Tb = &c.tb[ev[ei].tb];
                mstep *S = &Tb->steps[ev[ei].step];
                uint32_t g = Tb->gpu;
                if (S->type == T_RECV || S->type == T_RCS) { /* the blocks the matching send carried land in dstbuf */
                    const mstep *X = &c.tb[Tb->partner_recv].steps[S->peer_step];
                    for (int32_t x = 0; x < S->cnt; x++) {
                        uint64_t b = pool[X->pool + (uint64_t)x];
                        arrival a = {T, g, S->dstbuf, (uint32_t)(S->dstoff + x), b};
                        if ((st = land(&c, bufs, written, &a, err)))
                            goto out;
                        if (S->type == T_RCS) { /* ... and go on to the send peer in this step */
                            pool[S->pool + (uint64_t)x] = b;
                            hops[nh++] = (totex_hop){g, (uint32_t)Tb->send, (uint32_t)(b / c.n), (uint32_t)(b % c.n)};
                        }
                    }
                    continue;
                }
                for (int32_t x = 0; x < S->cnt; x++) {
                    uint32_t off = (uint32_t)(S->srcoff + x);
                    uint64_t b = bufs[g][S->srcbuf == B_I ? off : S->srcbuf == B_O ? c.n + off : 2 * (size_t)c.n + off];
                    if (b == EMPTY) {
                        st = totex_fail(err, TOTEX_EVIOLATION,
                                        "rank %u, thread block %d reads %c[%u] at step %lld before any block is there "
                                        "(a missing dependency?)", g, Tb->id, "ios"[S->srcbuf], off, (long long)S->start);
                        goto out;
                    }
                    if (S->type == T_CPY) { /* a local copy lands at once */
                        arrival a = {T, g, S->dstbuf, (uint32_t)(S->dstoff + x), b};
                        if ((st = land(&c, bufs, written, &a, err)))
                            goto out;
                        continue;
                    }
                    /* a send: the block crosses the link to the peer in step T (every chunk in that step) */
                    pool[S->pool + (uint64_t)x] = b;
                    hops[nh++] = (totex_hop){g, (uint32_t)Tb->send, (uint32_t)(b / c.n), (uint32_t)(b % c.n)};
                }
            }
            if (T < last && (st = totex_sim_step(sim, hops, nh, err)) != TOTEX_OK)
                goto out;
        }
    }
    if ((st = totex_sim_finish(sim, rep, err)) != TOTEX_OK)
        goto out;
    for (uint32_t r = 0; r < c.n; r++)
        for (uint32_t j = 0; j < c.n; j++) {
            uint64_t want = (uint64_t)j * c.n + r, got = bufs[r][c.n + j];
            if (got != want) {
                if (got == EMPTY)
                    st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %u is never written: block %u->%u %s", r,
                                    j, j, r, j == r ? "(the rank's own block: a cpy from i, or inplace=\"1\")" : "is not delivered");
                else
                    st = totex_fail(err, TOTEX_EVIOLATION, "rank %u's output chunk %u holds block %llu->%llu, not %u->%u", r,
                                    j, (unsigned long long)(got / c.n), (unsigned long long)(got % c.n), j, r);
                goto out;
            }
        }
out:
    if (doc)
        xmlFreeDoc(doc);
    for (uint32_t i = 0; c.tb && i < c.ntb; i++) {
        free(c.tb[i].steps);
        free(c.tb[i].trans);
        free(c.tb[i].sends);
    }
    for (uint32_t r = 0; bufs && r < c.n; r++)
        free(bufs[r]);
    free(bufs);
    free(written);
    free(c.tb);
    free(c.g);
    free(ev);
    free(pool);
    free(hops);
    totex_sim_free(sim);
    return st;
}
