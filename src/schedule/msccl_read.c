/*
 * Reading an MSCCL XML all-to-all into the program the executor holds
 * (include/totex/schedule_io.h): nothing is run here, totex_msccl_verify()
 * (src/plan/msccl_verify.c) runs it.
 *
 * Parsed with libxml2 (no entity substitution, no DTD, no network, size
 * capped), then read by the MSCCL executor's parser rules
 * (Azure/msccl-executor-nccl src/misc/msccl/msccl_parser.cc,
 * src/include/msccl/msccl_struct.h) and its kernel's (msccl_kernel_impl.h):
 *   - a thread block's <step>s become its transfers in XML order; a nop is
 *     not a transfer: its dependency is folded into the next transfer, and
 *     a transfer after a nop with a dependency must have one of its own (the
 *     parser refuses the file otherwise); nops at the end are dropped;
 *   - the kernel's step counter starts at 0, advances by (dependencies - 1)
 *     before a transfer with dependencies and by 1 after every transfer; a
 *     transfer with hasdep="1" raises its block's flag to that counter, and a
 *     dependency (depid, deps) waits until block depid's flag reaches deps:
 *     with one dependency per nop, deps is the XML position (nops counted);
 *   - nchunksperloop = k * ngpus: k chunks per rank pair; input chunk j of
 *     rank r is for rank j / k, output chunk j of rank r from rank j / k.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/error.h"
#include "common/file.h"
#include "totex/schedule_io.h"

#define MAX_ELEMENTS (UINT64_C(1) << 22)
/* scratch chunks of all ranks together (8 bytes each while replaying) */
#define MAX_SCRATCH (UINT64_C(1) << 22)
/* input + output chunks of all ranks together: 2 * ngpus * nchunksperloop */
#define MAX_CHUNKS (UINT64_C(1) << 24)

typedef struct ctx {
    totex_error *err;
    uint32_t n;
    totex_msccl_program *p;
    uint32_t cap_tb, cap_ops, cap_deps;
    uint64_t scratch_total;
    uint8_t *seen;
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
    return !strcmp(s, "i") ? TOTEX_MSCCL_BUF_I : !strcmp(s, "o") ? TOTEX_MSCCL_BUF_O : !strcmp(s, "s") ? TOTEX_MSCCL_BUF_S : -1;
}

static const char *where_step(char *buf, size_t cap, const totex_msccl_tb *t, uint32_t pos, long line)
{
    snprintf(buf, cap, "rank %u, thread block %d, step %u (line %ld)", t->rank, t->id, pos, line);
    return buf;
}

static int grow(void **arr, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > UINT32_MAX / 2)
            return -1;
        c *= 2;
    }
    void *q = realloc(*arr, (size_t)c * size);
    if (!q)
        return -1;
    *arr = q;
    *cap = c;
    return 0;
}

/* one <step>: a transfer appended to the program, or a nop whose dependency waits for the next transfer */
static totex_status read_step(ctx *c, xmlNode *nd, totex_msccl_tb *t, uint32_t pos, uint32_t s_chunks,
                              uint32_t *pending, uint32_t *kstep)
{
    totex_msccl_program *p = c->p;
    totex_status st = TOTEX_OK;
    char type[16], sb[8], db[8], where[128];
    long long v;
    long line = xmlGetLineNo(nd);
    where_step(where, sizeof where, t, pos, line);
    if (attr_int(nd, "s", -32768, 32767, &v, c, &st, where))
        return st;
    if (v < 0)
        return bad(c, "%s: s=%lld must not be negative", where, v);
    if (v >= TOTEX_MSCCL_MAX_NUM_STEPS)
        return totex_fail(c->err, TOTEX_EINVAL,
                          "MSCCL XML exceeds a limit: %s has s=%lld; the executor allows MSCCL_MAX_NUM_STEPS = %d "
                          "steps per thread block (over by %lld)",
                          where, v, TOTEX_MSCCL_MAX_NUM_STEPS, v + 1 - TOTEX_MSCCL_MAX_NUM_STEPS);
    if (attr_str(nd, "type", type, sizeof type, c, &st, where) || attr_str(nd, "srcbuf", sb, sizeof sb, c, &st, where) ||
        attr_str(nd, "dstbuf", db, sizeof db, c, &st, where))
        return st;
    int ty = !strcmp(type, "s") ? TOTEX_MSCCL_SEND : !strcmp(type, "r") ? TOTEX_MSCCL_RECV
           : !strcmp(type, "rcs") ? TOTEX_MSCCL_RCS : !strcmp(type, "cpy") ? TOTEX_MSCCL_CPY
           : !strcmp(type, "nop") ? 4 : -1;
    if (ty < 0)
        return bad(c, "%s: type=\"%.20s\" is not one of s, r, rcs, cpy, nop (reductions have no place in an all-to-all)",
                   where, type);
    int sbc = bufcode(sb), dbc = bufcode(db);
    if (sbc < 0 || dbc < 0)
        return bad(c, "%s: srcbuf and dstbuf must be i, o or s", where);
    long long so, dof, cnt, depid, deps, hasdep;
    if (attr_int(nd, "srcoff", -1, 32767, &so, c, &st, where) || attr_int(nd, "dstoff", -1, 32767, &dof, c, &st, where) ||
        attr_int(nd, "cnt", -2147483647LL, 2147483647LL, &cnt, c, &st, where) ||
        attr_int(nd, "depid", -1, TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS - 1, &depid, c, &st, where) ||
        attr_int(nd, "deps", -1, 32767, &deps, c, &st, where) || attr_int(nd, "hasdep", 0, 1, &hasdep, c, &st, where))
        return st;
    if ((depid < 0) != (deps < 0))
        return bad(c, "%s: depid and deps must both be -1 or both name a step", where);
    if (depid >= 0) {
        if (grow((void **)&p->deps, &c->cap_deps, p->ndeps + 1, sizeof *p->deps))
            return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
        p->deps[p->ndeps++] = (totex_msccl_dep){(uint32_t)depid, (uint32_t)deps};
        ++*pending;
    }
    if (ty == 4) /* a nop: its dependency goes to the next transfer */
        return TOTEX_OK;
    if (cnt < 0 || cnt >= TOTEX_MSCCL_MAX_COUNT)
        return totex_fail(c->err, TOTEX_EINVAL,
                          "MSCCL XML exceeds a limit: %s has cnt=%lld; the executor needs 0 <= cnt < MSCCL_MAX_COUNT = %d",
                          where, cnt, TOTEX_MSCCL_MAX_COUNT);
    if (cnt < 1)
        return bad(c, "%s: cnt=%lld moves nothing (a transfer or copy needs cnt >= 1)", where, cnt);
    int reads = ty == TOTEX_MSCCL_SEND || ty == TOTEX_MSCCL_CPY;
    int writes = ty == TOTEX_MSCCL_RECV || ty == TOTEX_MSCCL_RCS || ty == TOTEX_MSCCL_CPY;
    uint32_t nc = p->nchunks;
    uint32_t lim_s = sbc == TOTEX_MSCCL_BUF_S ? s_chunks : nc, lim_d = dbc == TOTEX_MSCCL_BUF_S ? s_chunks : nc;
    if (reads && (so < 0 || so + cnt > lim_s))
        return bad(c, "%s: srcoff=%lld with cnt=%lld is outside %c (%u chunks)", where, so, cnt, sb[0], lim_s);
    if (writes && (dof < 0 || dof + cnt > lim_d))
        return bad(c, "%s: dstoff=%lld with cnt=%lld is outside %c (%u chunks)", where, dof, cnt, db[0], lim_d);
    if ((ty == TOTEX_MSCCL_SEND || ty == TOTEX_MSCCL_RCS) && t->send < 0)
        return bad(c, "%s: a send in a thread block without a send peer", where);
    if ((ty == TOTEX_MSCCL_RECV || ty == TOTEX_MSCCL_RCS) && t->recv < 0)
        return bad(c, "%s: a receive in a thread block without a recv peer", where);
    if (*pending > 0 && depid < 0)
        return bad(c, "%s: a nop before it has a dependency but this step has none; the executor's parser refuses that "
                   "(the last of a chain of dependencies must be the transfer's own)", where);
    if (grow((void **)&p->ops, &c->cap_ops, p->nops + 1, sizeof *p->ops))
        return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
    if (*pending > 0)
        *kstep += *pending - 1; /* the kernel skips the positions of the nops it folded */
    totex_msccl_op *o = &p->ops[p->nops++];
    o->type = (uint8_t)ty;
    o->srcbuf = (uint8_t)sbc;
    o->dstbuf = (uint8_t)dbc;
    o->hasdep = (uint8_t)hasdep;
    o->pos = pos;
    o->kstep = *kstep;
    o->srcoff = (int32_t)so;
    o->dstoff = (int32_t)dof;
    o->cnt = (int32_t)cnt;
    o->ndeps = *pending;
    o->dep_first = p->ndeps - *pending;
    o->line = line;
    ++*kstep;
    *pending = 0;
    t->nops++;
    return TOTEX_OK;
}

static totex_status read_doc(ctx *c, xmlNode *root)
{
    totex_msccl_program *p = c->p;
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
    p->inplace = (int)v;
    if (attr_int(root, "outofplace", 0, 1, &v, c, &st, "<algo>"))
        return st;
    p->outofplace = (int)v;
    if (attr_int(root, "minBytes", 0, INT64_MAX, &v, c, &st, "<algo>") ||
        attr_int(root, "maxBytes", 0, INT64_MAX, &v, c, &st, "<algo>"))
        return st;
    if (ngpus >= TOTEX_MSCCL_MAX_NODES - 1)
        return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: ngpus=%lld; the executor's parser holds %d XML "
                          "nodes per rank (MAX_NODES), so at most %d ranks fit", ngpus, TOTEX_MSCCL_MAX_NODES,
                          TOTEX_MSCCL_MAX_NODES - 3);
    if (nch > TOTEX_MSCCL_MAXCHANNELS)
        return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: nchannels=%lld; NCCL has MAXCHANNELS = %d (over by %lld)",
                          nch, TOTEX_MSCCL_MAXCHANNELS, nch - TOTEX_MSCCL_MAXCHANNELS);
    if (ncpl % ngpus)
        return bad(c, "<algo nchunksperloop=\"%lld\">: an all-to-all on ngpus = %lld needs nchunksperloop = k x ngpus "
                   "(k chunks per rank pair)", ncpl, ngpus);
    if ((uint64_t)ngpus * (uint64_t)ncpl * 2 > MAX_CHUNKS)
        return totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML too large for totex's verifier: ngpus x nchunksperloop = %lld x %lld "
                          "input and output chunks (at most %llu together)", ngpus, ncpl, (unsigned long long)MAX_CHUNKS);
    c->n = p->ngpus = (uint32_t)ngpus;
    p->nchunks = (uint32_t)ncpl;
    p->k = (uint32_t)(ncpl / ngpus);
    if (!(p->s_chunks = calloc(c->n, sizeof *p->s_chunks)) || !(p->first_tb = calloc((size_t)c->n + 1, sizeof *p->first_tb)) ||
        !(c->seen = calloc(c->n, 1)))
        return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
    /* the ranks' thread blocks, each rank's ordered by id; ranks in any order in the file */
    uint32_t *rank_first = malloc(c->n * sizeof *rank_first), *rank_count = calloc(c->n, sizeof *rank_count);
    if (!rank_first || !rank_count) {
        free(rank_first);
        free(rank_count);
        return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
    }
    for (xmlNode *g = root->children; g && st == TOTEX_OK; g = g->next) {
        if (++elements > MAX_ELEMENTS) {
            st = totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: more than %llu XML nodes",
                            (unsigned long long)MAX_ELEMENTS);
            break;
        }
        if (!is_el(g, "gpu"))
            continue;
        long long id, ic, oc, sc;
        if (attr_int(g, "id", 0, c->n - 1, &id, c, &st, "<gpu>"))
            break;
        char where[48];
        snprintf(where, sizeof where, "<gpu id=\"%lld\">", id);
        if (attr_int(g, "i_chunks", 0, 1LL << 30, &ic, c, &st, where) || attr_int(g, "o_chunks", 0, 1LL << 30, &oc, c, &st, where) ||
            attr_int(g, "s_chunks", 0, 1 << 24, &sc, c, &st, where))
            break;
        if (c->seen[id]) {
            st = bad(c, "rank %lld has two <gpu> elements (line %ld)", id, xmlGetLineNo(g));
            break;
        }
        c->seen[id] = 1;
        c->scratch_total += (uint64_t)sc;
        if (c->scratch_total > MAX_SCRATCH) {
            st = totex_fail(c->err, TOTEX_EINVAL,
                            "MSCCL XML too large for totex's verifier: the ranks' s_chunks add up to more than %llu "
                            "scratch chunks (at <gpu id=\"%lld\">)", (unsigned long long)MAX_SCRATCH, id);
            break;
        }
        if (ic != p->nchunks || oc != p->nchunks) {
            st = bad(c, "%s: i_chunks and o_chunks must be nchunksperloop = %u for an all-to-all", where, p->nchunks);
            break;
        }
        p->s_chunks[id] = (uint32_t)sc;
        uint64_t nodes = 1 + (uint64_t)c->n;
        uint32_t count = 0;
        for (xmlNode *t = g->children; t; t = t->next)
            if (is_el(t, "tb"))
                count++;
        if (count > TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS) {
            st = totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: rank %lld has %u thread blocks; the executor allows "
                            "MSCCL_MAX_NUM_THREAD_BLOCKS = %d (over by %u)", id, count, TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS,
                            count - TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS);
            break;
        }
        if (grow((void **)&p->tb, &c->cap_tb, p->ntb + count, sizeof *p->tb)) {
            st = totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
            break;
        }
        uint32_t base = p->ntb;
        rank_first[id] = base;
        rank_count[id] = count;
        if (count)
            memset(p->tb + base, 0, count * sizeof *p->tb);
        for (uint32_t i = 0; i < count; i++)
            p->tb[base + i].id = -1;
        p->ntb += count;
        unsigned sends_per_chan[TOTEX_MSCCL_MAXCHANNELS] = {0}, recvs_per_chan[TOTEX_MSCCL_MAXCHANNELS] = {0};
        for (xmlNode *t = g->children; t && st == TOTEX_OK; t = t->next) {
            if (++elements > MAX_ELEMENTS) {
                st = totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: more than %llu XML nodes",
                                (unsigned long long)MAX_ELEMENTS);
                break;
            }
            if (!is_el(t, "tb"))
                continue;
            long long bid, sp, rp, ch;
            if (attr_int(t, "id", 0, 1 << 20, &bid, c, &st, where))
                break;
            if (bid >= count) {
                st = bad(c, "%s: thread block id %lld, but there are %u (ids must be 0..%u, none missing)", where, bid,
                         count, count - 1);
                break;
            }
            totex_msccl_tb *T = &p->tb[base + bid];
            if (T->id >= 0) {
                st = bad(c, "%s: duplicate thread block id %lld (line %ld)", where, bid, xmlGetLineNo(t));
                break;
            }
            char w2[96];
            snprintf(w2, sizeof w2, "rank %lld, thread block %lld", id, bid);
            if (attr_int(t, "send", -1, c->n - 1, &sp, c, &st, w2) || attr_int(t, "recv", -1, c->n - 1, &rp, c, &st, w2) ||
                attr_int(t, "chan", 0, 1 << 20, &ch, c, &st, w2))
                break;
            if (sp == id || rp == id) {
                st = bad(c, "%s: a peer (send %lld, recv %lld) cannot be the rank itself", w2, sp, rp);
                break;
            }
            if (ch >= TOTEX_MSCCL_MAXCHANNELS || ch >= nch) {
                st = totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: %s uses channel %lld; nchannels is %lld "
                                "and NCCL has MAXCHANNELS = %d", w2, ch, nch, TOTEX_MSCCL_MAXCHANNELS);
                break;
            }
            if ((sp >= 0 && ++sends_per_chan[ch] > TOTEX_MSCCL_MAX_TB_PER_CHANNEL) ||
                (rp >= 0 && ++recvs_per_chan[ch] > TOTEX_MSCCL_MAX_TB_PER_CHANNEL)) {
                st = totex_fail(c->err, TOTEX_EINVAL, "MSCCL XML exceeds a limit: rank %lld has more than %d %s thread blocks on "
                                "channel %lld (MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL)", id,
                                TOTEX_MSCCL_MAX_TB_PER_CHANNEL, sp >= 0 ? "sending" : "receiving", ch);
                break;
            }
            T->rank = (uint32_t)id;
            T->id = (int32_t)bid;
            T->send = (int32_t)sp;
            T->recv = (int32_t)rp;
            T->chan = (int32_t)ch;
            uint32_t ns = 0;
            for (xmlNode *s = t->children; s; s = s->next)
                if (is_el(s, "step"))
                    ns++;
            nodes += 1 + ns;
            if (nodes > TOTEX_MSCCL_MAX_NODES - 1) {
                st = totex_fail(c->err, TOTEX_EINVAL,
                                "MSCCL XML exceeds a limit: rank %lld needs more than %d XML nodes (1 algo + %u gpus + "
                                "its thread blocks and steps); the executor's parser fails at MAX_NODES = %d",
                                id, TOTEX_MSCCL_MAX_NODES - 1, c->n, TOTEX_MSCCL_MAX_NODES);
                break;
            }
            if (ns > TOTEX_MSCCL_MAX_NUM_STEPS) {
                st = totex_fail(c->err, TOTEX_EINVAL,
                                "MSCCL XML exceeds a limit: %s has %u steps; the executor holds MSCCL_MAX_NUM_STEPS = %d "
                                "per thread block (over by %u)", w2, ns, TOTEX_MSCCL_MAX_NUM_STEPS,
                                ns - TOTEX_MSCCL_MAX_NUM_STEPS);
                break;
            }
            /* transfers are appended to p->ops; thread blocks of a rank may come in any id order, so ops are
               regrouped below */
            T->op_first = p->nops;
            uint32_t pos = 0, pending = 0, kstep = 0;
            for (xmlNode *s = t->children; s; s = s->next) {
                if (!is_el(s, "step"))
                    continue;
                if ((st = read_step(c, s, T, pos, p->s_chunks[id], &pending, &kstep)))
                    break;
                pos++;
            }
            if (st)
                break;
            /* nops at the end: their dependencies are dropped, as the executor's parser does */
            p->ndeps -= pending;
            T->nsteps = pos;
        }
    }
    if (st == TOTEX_OK)
        for (uint32_t r = 0; r < c->n; r++)
            if (!c->seen[r]) {
                st = bad(c, "no <gpu id=\"%u\">: an all-to-all on ngpus = %u needs every rank", r, c->n);
                break;
            }
    if (st != TOTEX_OK) {
        free(rank_first);
        free(rank_count);
        return st;
    }
    /* thread blocks grouped by rank (rank 0 first), each rank's by id */
    totex_msccl_tb *sorted = malloc(((size_t)p->ntb + 1) * sizeof *sorted);
    if (!sorted) {
        free(rank_first);
        free(rank_count);
        return totex_fail(c->err, TOTEX_ENOMEM, "out of memory");
    }
    uint32_t at = 0;
    for (uint32_t r = 0; r < c->n; r++) {
        p->first_tb[r] = at;
        memcpy(sorted + at, p->tb + rank_first[r], rank_count[r] * sizeof *sorted);
        at += rank_count[r];
    }
    p->first_tb[c->n] = at;
    free(p->tb);
    p->tb = sorted;
    c->cap_tb = p->ntb;
    free(rank_first);
    free(rank_count);
    /* dependencies name existing steps of the same rank */
    for (uint32_t i = 0; i < p->ntb; i++) {
        const totex_msccl_tb *T = &p->tb[i];
        uint32_t ntb_rank = p->first_tb[T->rank + 1] - p->first_tb[T->rank];
        for (uint32_t k = 0; k < T->nops; k++) {
            const totex_msccl_op *o = &p->ops[T->op_first + k];
            for (uint32_t d = 0; d < o->ndeps; d++) {
                const totex_msccl_dep *D = &p->deps[o->dep_first + d];
                char where[128];
                if (D->tb >= ntb_rank || D->step >= p->tb[p->first_tb[T->rank] + D->tb].nsteps)
                    return bad(c, "%s: depid=%u deps=%u names no step of rank %u (its thread block %u has %u steps)",
                               where_step(where, sizeof where, T, o->pos, o->line), D->tb, D->step, T->rank, D->tb,
                               D->tb < ntb_rank ? p->tb[p->first_tb[T->rank] + D->tb].nsteps : 0);
            }
        }
    }
    /* one thread block per (rank, peer, channel, direction) */
    for (uint32_t r = 0; r < c->n; r++)
        for (uint32_t i = p->first_tb[r]; i < p->first_tb[r + 1]; i++)
            for (uint32_t j = p->first_tb[r]; j < i; j++) {
                const totex_msccl_tb *A = &p->tb[i], *B = &p->tb[j];
                if (A->chan != B->chan)
                    continue;
                if (A->send >= 0 && A->send == B->send)
                    return bad(c, "rank %u has two thread blocks (%d and %d) sending to rank %d on channel %d", r, B->id,
                               A->id, A->send, A->chan);
                if (A->recv >= 0 && A->recv == B->recv)
                    return bad(c, "rank %u has two thread blocks (%d and %d) receiving from rank %d on channel %d", r,
                               B->id, A->id, A->recv, A->chan);
            }
    return TOTEX_OK;
}

void totex_msccl_program_free(totex_msccl_program *p)
{
    if (!p)
        return;
    free(p->s_chunks);
    free(p->first_tb);
    free(p->tb);
    free(p->ops);
    free(p->deps);
    memset(p, 0, sizeof *p);
}

totex_status totex_msccl_read(const char *text, size_t len, totex_msccl_program *out, totex_error *err)
{
    ctx c;
    totex_status st;
    memset(&c, 0, sizeof c);
    c.err = err;
    if (!out)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_read: NULL argument");
    memset(out, 0, sizeof *out);
    c.p = out;
    if (!text)
        return totex_fail(err, TOTEX_EINVAL, "totex_msccl_read: NULL argument");
    if (len > TOTEX_MSCCL_FILE_MAX)
        return totex_fail(err, TOTEX_EINVAL, "MSCCL XML file of %zu bytes exceeds the limit of %llu bytes", len,
                          (unsigned long long)TOTEX_MSCCL_FILE_MAX);
    xmlResetLastError();
    xmlDoc *doc = xmlReadMemory(text, (int)len, "schedule.xml", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        char m[200] = "not well-formed XML";
        if (e && e->message) {
            snprintf(m, sizeof m, "%s", e->message);
            for (char *q = m; *q; q++)
                if (*q == '\n')
                    *q = 0;
            /* libxml2's advice names a parser option the user cannot pass: say what it means instead */
            char *hint = strstr(m, ", use XML_PARSE_HUGE option");
            if (!hint)
                hint = strstr(m, " use XML_PARSE_HUGE option");
            if (hint)
                snprintf(hint, sizeof m - (size_t)(hint - m), " (beyond libxml2's limits for safe parsing)");
        }
        return totex_fail(err, TOTEX_EIO, "bad MSCCL XML: line %d: %s", e ? e->line : 0, m);
    }
    if (doc->intSubset || doc->extSubset) {
        xmlFreeDoc(doc);
        return totex_fail(err, TOTEX_EIO, "bad MSCCL XML: a DOCTYPE is not allowed (entities are never expanded)");
    }
    st = read_doc(&c, xmlDocGetRootElement(doc));
    if (st == TOTEX_OK) {
        xmlChar *nm = xmlGetProp(xmlDocGetRootElement(doc), (const xmlChar *)"name");
        snprintf(out->name, sizeof out->name, "%s", nm ? (const char *)nm : "unnamed");
        for (char *q = out->name; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                *q = '?';
        xmlFree(nm);
    }
    xmlFreeDoc(doc);
    free(c.seen);
    if (st != TOTEX_OK)
        totex_msccl_program_free(out);
    return st;
}
