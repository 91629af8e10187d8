/*
 * Name:       routed alltoallv ("routed": non-uniform total exchange relayed along the torus's links,
 *             every block carrying its real length)
 * Paper:      the uniform schedule carrying each block's real length (the byte-weighted cut
 *             bound it is measured against: docs/demand.md); the routing is dimension-ordered
 *             store-and-forward as in 002 (Suh, Shin & Yalamanchili, dimension by dimension,
 *             each ring an all-to-all of super-blocks in both directions)
 *             and 000 section 3 (a ring's half-way messages split across its two directions, what
 *             makes the half-ring arc cut tight); the rotations of the dimension order are 001's
 *             translation of one schedule to every dimension, so that every link works at once.
 * Model:      store-and-forward between neighbours on a torus (every factor a ring or K2), multiport
 *             (a node sends on all its links at once), byte-weighted: a link's time is its bytes.
 * Steps:      with R dimensions (rings of m_1 .. m_R nodes; K2 is a ring of 2), every pair's
 *             bytes are cut into R pieces; piece rho goes through the dimensions in the order
 *             rho, rho + 1, .. (mod R). In each dimension a piece travels on its ring the
 *             shorter way, a piece half-way round an even ring split in halves, one each
 *             way: floor(m_k / 2) store-and-forward steps, one message per step and
 *             direction. Sum_k floor(m_k / 2) dependent steps per piece; no barrier between
 *             dimensions: the pieces of phase k + 1 that share their source's coordinates
 *             in the dimensions travelled (a "group") leave as soon as they have all come.
 * Optimality: for uniform blocks every link carries the bytes of the half-ring arc cut
 *             bound (000 Theorem 5 on even rings), so the byte term meets that bound; for a
 *             demand W each link carries its dimension-ordered share of W (no rerouting
 *             around a hot link) and a receiver's bytes come in on all 2R of its links.
 *             What it loses to the bound is the pipeline's fill and drain and the links'
 *             sharing between its streams (docs/performance.md); start-ups: 2 per dependent
 *             step against 1 for direct: for long blocks only (alltoallv.c's model).
 *
 * What a rank knows: its own row (send counts) and column (receive counts). A relay learns the
 * lengths of what it forwards from the message itself: each message is the pieces' bytes followed by
 * their lengths (uint32 each, in reverse target order), so that what goes on to the next node is one
 * run of the message as it came, with its own lengths at its end; the receiver takes the message's
 * size from MPI_Get_count. No rank gathers the n x n matrix; planning a call is one pass over the
 * rank's 2n counts. Memory per rank: O(R^2 n) piece records (pointers and lengths), and every receive
 * of the call posted at the start with room for its pieces at the largest block's size (the call's
 * global maximum B): n B sum_k P_k (P_k + 1) / m_k bytes with P_k = floor(m_k / 2) (3 n B on a 4x4
 * torus, 5 n B on 8x8, 4.5 n B on 4x4x4), plus what this rank sends; freed when the call ends.
 *
 * Index of a held piece: before phase k, a piece of pair (s, t) held by this node is named by one
 * node id, the mixed-radix number whose coordinates are s's in the dimensions already travelled and
 * t's in the others (this node's coordinates are t's in the first and s's in the others): n of them
 * per rotation and phase, the same meaning on every node of a ring. The pieces of phase k with the
 * same travelled coordinates (the group's key) and coordinate c in phase k's dimension go to ring
 * node c, in index order; at their target that coordinate becomes the source's on that ring.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate: ROUTED_TAG + a stream's number, fewer than ROUTED_TAGS of them: above the
   unit-step executor's (TOTEX_MPI_UNIT_TAG + TOTEX_MPI_UNIT_TAGS), below alltoallv.c's TOTEX_MPI_V_TAG */
#define ROUTED_TAG 31100
#define ROUTED_TAGS 1500
#define ROUTED_MAX_DIMS 16

typedef struct piece { /* the bytes of a held piece: seg 0 then seg 1 (the two halves of a half-way split) */
    const char *p[2];
    uint32_t l[2];
} piece;

typedef struct chunk { /* bump allocation of one call's staging and receive bytes */
    struct chunk *next;
    size_t used, cap;
    char *data;
} chunk;

typedef struct dim {
    uint32_t r, w, m;  /* ring size, stride, this node's coordinate */
    uint32_t peer[2];  /* send to (direction 0: coordinate + 1, 1: - 1) */
} dim;

typedef struct ctx {
    MPI_Comm comm;
    uint32_t n, me, R, P;    /* P: the most steps of a dimension (floor(m / 2) of the largest ring) */
    uint64_t bound;          /* bytes: a piece is at most this long (ceil(largest block / R)) */
    uint64_t rowcap;         /* bytes: the pieces of one source in one rotation, at most (ceil(largest row / R)) */
    dim d[ROUTED_MAX_DIMS];
    piece *held;             /* [R][R + 1][n]: rotation rho's pieces before phase k (k = R: arrived) */
    size_t *keys_off;        /* [R][R + 1]: first group of (rho, k) among all groups; [R * (R + 1)]: their number */
    uint32_t *need;          /* per group: deliveries still missing before it may start */
    unsigned char *started;  /* per group: its step 1 left (its streams' later steps go on only after it) */
    int *step;               /* per stream (2 per group): the step it takes next (1 ..) */
    MPI_Request *rreq;       /* per stream and step (slot()): every receive of the call, posted at the start */
    char **rbuf;             /* their buffers (a message's layout: group_start) */
    size_t *got;             /* bytes each brought */
    unsigned char *arrived;
    size_t nq, left;         /* receives, and those not yet taken */
    MPI_Request *sreq;       /* sends, waited for at the end */
    size_t nsreq, capsreq;
    chunk *mem;
} ctx;

static void *mem_get(ctx *c, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (!c->mem || c->mem->cap - c->mem->used < bytes) {
        size_t cap = bytes > ((size_t)1 << 20) ? bytes : ((size_t)1 << 20);
        chunk *k = malloc(sizeof *k);
        if (!k || !(k->data = malloc(cap))) {
            free(k);
            return NULL;
        }
        k->used = 0;
        k->cap = cap;
        k->next = c->mem;
        c->mem = k;
    }
    void *p = c->mem->data + c->mem->used;
    c->mem->used += bytes;
    return p;
}

static void mem_free(ctx *c)
{
    while (c->mem) {
        chunk *k = c->mem->next;
        free(c->mem->data);
        free(c->mem);
        c->mem = k;
    }
}

static int post_send(ctx *c, const void *buf, size_t bytes, uint32_t peer, int tag)
{
    if (c->nsreq == c->capsreq && totex_mpi_grow(&c->sreq, &c->capsreq, c->capsreq ? 2 * c->capsreq : 64, sizeof *c->sreq))
        return MPI_ERR_NO_MEM;
    return MPI_Isend(buf, (int)bytes, MPI_BYTE, (int)peer, tag, c->comm, &c->sreq[c->nsreq++]);
}

/* dimension of rotation @p rho's phase @p k */
static const dim *dim_of(const ctx *c, uint32_t rho, uint32_t k) { return &c->d[(rho + k) % c->R]; }

/* rotation rho's pieces before phase k */
static piece *held(const ctx *c, uint32_t rho, uint32_t k) { return c->held + ((size_t)rho * (c->R + 1) + k) * c->n; }

/* group (rho, k, key): its number among all groups */
static size_t group(const ctx *c, uint32_t rho, uint32_t k, uint32_t key)
{
    return c->keys_off[(size_t)rho * (c->R + 1) + k] + key;
}

/* the receive of stream (group @p g, direction @p dir) at step @p s (1 ..) */
static size_t slot(const ctx *c, size_t g, int dir, uint32_t s) { return (2 * g + (size_t)dir) * c->P + (s - 1); }

/* The pieces of phase k: the key of a group is the mixed-radix number of the source's coordinates in the
   dimensions already travelled (phase j's dimension of weight prod_{i<j} m_i); a group's pieces for target t on
   the ring of phase k are those of its key with coordinate t there, the others (the dimensions still to
   travel) enumerated by the number e in increasing index order. The e-th of them: */
static uint32_t piece_index(const ctx *c, uint32_t rho, uint32_t k, uint32_t key, uint32_t t, uint32_t e)
{
    uint32_t idx = 0;
    for (uint32_t j = 0; j < k; j++) { /* travelled: the key's digits */
        const dim *d = dim_of(c, rho, j);
        idx += (key % d->r) * d->w;
        key /= d->r;
    }
    idx += t * dim_of(c, rho, k)->w;
    for (uint32_t i = 0; i < c->R; i++) { /* still to travel, in index order (dims are by increasing stride) */
        const uint32_t dd = (i + c->R - rho) % c->R; /* dims[i] is phase dd of rotation rho */
        if (dd <= k)
            continue;
        idx += (e % c->d[i].r) * c->d[i].w;
        e /= c->d[i].r;
    }
    return idx;
}

/* pieces per target of a group of phase k */
static uint32_t per_target(const ctx *c, uint32_t rho, uint32_t k)
{
    uint32_t p = 1;
    for (uint32_t j = k + 1; j < c->R; j++)
        p *= dim_of(c, rho, j)->r;
    return p;
}

/* copy bytes [a, b) of piece @p q to @p to */
static void piece_copy(const piece *q, uint32_t a, uint32_t b, char *to)
{
    for (int s = 0; s < 2 && a < b; s++) {
        if (a < q->l[s]) {
            const uint32_t e = b < q->l[s] ? b : q->l[s];
            memcpy(to, q->p[s] + a, e - a);
            to += e - a;
        }
        a = a > q->l[s] ? a - q->l[s] : 0;
        b = b > q->l[s] ? b - q->l[s] : 0;
    }
}

static uint32_t get_len(const char *lens, size_t i)
{
    uint32_t v;
    memcpy(&v, lens + i * sizeof v, sizeof v);
    return v;
}

/* the most bytes a message of @p cnt pieces may carry: its pieces are of one source (the travelled
   coordinates the group's key, the others the holder's), to distinct destinations, so at most a row's R-th
   part (each piece rounded up) or cnt pieces of the largest; then its lengths */
static uint64_t msg_room(const ctx *c, size_t cnt)
{
    const uint64_t a = cnt * c->bound, b = c->rowcap + cnt;
    return (a < b ? a : b) + cnt * sizeof(uint32_t);
}

/* every receive of the call, each as long as the most its message may carry */
static int post_all(ctx *c)
{
    for (uint32_t rho = 0; rho < c->R; rho++)
        for (uint32_t k = 0; k < c->R; k++) {
            const dim *d = dim_of(c, rho, k);
            const uint32_t P = d->r / 2, per = per_target(c, rho, k);
            const size_t g0 = group(c, rho, k, 0), g1 = group(c, rho, k + 1, 0);
            for (size_t g = g0; g < g1; g++)
                for (int dir = 0; dir < 2; dir++)
                    for (uint32_t s = 1; s <= P; s++) {
                        const size_t q = slot(c, g, dir, s), cnt = (size_t)(P - s + 1) * per;
                        const uint64_t bytes = msg_room(c, cnt);
                        if (bytes > INT_MAX)
                            return MPI_ERR_COUNT;
                        if (!(c->rbuf[q] = mem_get(c, (size_t)bytes)))
                            return MPI_ERR_NO_MEM;
                        int rc = MPI_Irecv(c->rbuf[q], (int)bytes, MPI_BYTE, (int)d->peer[!dir],
                                           ROUTED_TAG + (int)(2 * g + (size_t)dir), c->comm, &c->rreq[q]);
                        if (rc != MPI_SUCCESS)
                            return rc;
                        c->nq++;
                    }
        }
    c->left = c->nq;
    return MPI_SUCCESS;
}

static int group_ready(ctx *c, uint32_t rho, uint32_t k, uint32_t key);
static int take_arrived(ctx *c, size_t g, int dir);

/* one delivery into group (rho, k, key) came (k < R): start it when it was the last one missing */
static int deliver(ctx *c, uint32_t rho, uint32_t k, uint32_t key)
{
    if (k >= c->R)
        return MPI_SUCCESS;
    uint32_t *nd = &c->need[group(c, rho, k, key)];
    if (!*nd)
        return MPI_ERR_INTERN;
    return --*nd ? MPI_SUCCESS : group_ready(c, rho, k, key);
}

/* Message of a step: the pieces' bytes, target by target from the nearest on (within one, by e), then their
   lengths (uint32 each) in the reverse order of the targets: what goes on to the next node (all but the first
   target's) is then one run of bytes, its lengths at its end as well. */

/* group (rho, k, key) has all its pieces: its own target's pieces go to phase k + 1 at once, step 1 leaves
   both ways */
static int group_ready(ctx *c, uint32_t rho, uint32_t k, uint32_t key)
{
    const dim *d = dim_of(c, rho, k);
    const uint32_t P = d->r / 2, per = per_target(c, rho, k), even = d->r % 2 == 0;
    const piece *h = held(c, rho, k);
    piece *nx = held(c, rho, k + 1);
    uint32_t kw = 1; /* the weight of phase k's digit in a key of phase k + 1 */
    for (uint32_t j = 0; j < k; j++)
        kw *= dim_of(c, rho, j)->r;
    const size_t g = group(c, rho, k, key);
    for (int dir = 0; dir < 2; dir++) {
        const size_t cnt = (size_t)P * per;
        size_t total = 0;
        for (uint32_t D = 1; D <= P; D++) {
            const uint32_t t = dir ? (d->m + d->r - D) % d->r : (d->m + D) % d->r;
            for (uint32_t e = 0; e < per; e++) {
                const piece *pc = &h[piece_index(c, rho, k, key, t, e)];
                const uint32_t L = pc->l[0] + pc->l[1];
                total += even && D == P ? (dir ? L - L / 2 : L / 2) : L;
            }
        }
        const size_t bytes = total + cnt * sizeof(uint32_t);
        if (bytes > INT_MAX)
            return MPI_ERR_COUNT;
        char *msg = mem_get(c, bytes ? bytes : 1);
        if (!msg)
            return MPI_ERR_NO_MEM;
        char *to = msg, *lens = msg + total;
        for (uint32_t D = 1; D <= P; D++) {
            const uint32_t t = dir ? (d->m + d->r - D) % d->r : (d->m + D) % d->r;
            for (uint32_t e = 0; e < per; e++) {
                const piece *pc = &h[piece_index(c, rho, k, key, t, e)];
                const uint32_t L = pc->l[0] + pc->l[1], half = even && D == P;
                const uint32_t a = half && dir ? L / 2 : 0, b = half && !dir ? L / 2 : L, len = b - a;
                piece_copy(pc, a, b, to);
                to += len;
                memcpy(lens + ((size_t)(P - D) * per + e) * sizeof len, &len, sizeof len);
            }
        }
        int rc = post_send(c, msg, bytes, d->peer[dir], ROUTED_TAG + (int)(2 * g + (size_t)dir));
        if (rc != MPI_SUCCESS)
            return rc;
    }
    c->started[g] = 1;
    /* this node's own target on the ring: its pieces stay, now with this node as the source there */
    for (uint32_t e = 0; e < per; e++) {
        const uint32_t i = piece_index(c, rho, k, key, d->m, e);
        nx[i] = h[i];
    }
    int rc = deliver(c, rho, k + 1, key + d->m * kw);
    for (int dir = 0; dir < 2 && rc == MPI_SUCCESS; dir++) /* what came before it started */
        rc = take_arrived(c, g, dir);
    return rc;
}

/* take the message of stream (@p g, @p dir) of group (rho, k, key) at its step (arrived): keep the first
   target's pieces (ours), send the rest on as they lie */
static int take(ctx *c, uint32_t rho, uint32_t k, uint32_t key, size_t g, int dir)
{
    const dim *d = dim_of(c, rho, k);
    const uint32_t P = d->r / 2, per = per_target(c, rho, k), s = (uint32_t)c->step[2 * g + (size_t)dir];
    const uint32_t u = dir ? (d->m + s) % d->r : (d->m + d->r - s % d->r) % d->r; /* the source's coordinate */
    const size_t cnt = (size_t)(P - s + 1) * per, q = slot(c, g, dir, s);
    const size_t got = c->got[q];
    if (got < cnt * sizeof(uint32_t))
        return MPI_ERR_TRUNCATE;
    const char *buf = c->rbuf[q], *lens = buf + got - cnt * sizeof(uint32_t);
    size_t sum = 0;
    for (size_t i = 0; i < cnt; i++)
        sum += get_len(lens, i);
    if (sum != got - cnt * sizeof(uint32_t))
        return MPI_ERR_TRUNCATE; /* (lengths that do not add up to what came: not a message of this call) */
    const int seg = d->r % 2 == 0 && s == P && dir;
    piece *nx = held(c, rho, k + 1);
    const char *at = buf;
    for (uint32_t e = 0; e < per; e++) {
        piece *pc = &nx[piece_index(c, rho, k, key, u, e)];
        pc->p[seg] = at;
        pc->l[seg] = get_len(lens, cnt - per + e);
        at += pc->l[seg];
    }
    c->step[2 * g + (size_t)dir]++;
    c->left--;
    int rc = MPI_SUCCESS;
    if (s < P)
        rc = post_send(c, at, got - (size_t)(at - buf) - per * sizeof(uint32_t), d->peer[dir],
                       ROUTED_TAG + (int)(2 * g + (size_t)dir));
    if (rc != MPI_SUCCESS)
        return rc;
    uint32_t kw = 1;
    for (uint32_t j = 0; j < k; j++)
        kw *= dim_of(c, rho, j)->r;
    return deliver(c, rho, k + 1, key + u * kw);
}

/* take the messages of stream (@p g, @p dir) that have come, in step order, once its group started: on a
   stream the steps go out in step order (step 1 from the group's start, step s + 1 forwarding what step s
   brought) and are received in that order under one tag */
static int take_arrived(ctx *c, size_t g, int dir)
{
    const size_t stream = 2 * g + (size_t)dir;
    if (!c->started[g])
        return MPI_SUCCESS;
    /* the group's rotation, phase and key */
    uint32_t rho = 0, k = 0;
    while (rho + 1 < c->R && c->keys_off[(size_t)(rho + 1) * (c->R + 1)] <= g)
        rho++;
    while (k + 1 < c->R && c->keys_off[(size_t)rho * (c->R + 1) + k + 1] <= g)
        k++;
    const uint32_t key = (uint32_t)(g - c->keys_off[(size_t)rho * (c->R + 1) + k]);
    const uint32_t P = dim_of(c, rho, k)->r / 2;
    int rc = MPI_SUCCESS;
    while (rc == MPI_SUCCESS && (uint32_t)c->step[stream] <= P && c->arrived[slot(c, g, dir, (uint32_t)c->step[stream])])
        rc = take(c, rho, k, key, g, dir);
    return rc;
}

/* the dimensions of @p net into @p c (this node @p me), its group offsets allocated; 0, or -1 out of memory */
static int ctx_dims(ctx *c, const totex_network *net, uint32_t me)
{
    c->n = totex_network_nodes(net);
    c->me = me;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const uint32_t r = totex_factor_nodes(totex_network_factor(net, i));
        dim *k = &c->d[c->R++];
        k->r = r;
        k->w = totex_network_stride(net, i);
        k->m = totex_network_coord(net, me, i);
        k->peer[0] = me - k->m * k->w + ((k->m + 1) % r) * k->w;
        k->peer[1] = me - k->m * k->w + ((k->m + r - 1) % r) * k->w;
        if (r / 2 > c->P)
            c->P = r / 2;
    }
    const uint32_t R = c->R;
    if (!(c->keys_off = malloc(((size_t)R * (R + 1) + 1) * sizeof *c->keys_off)))
        return -1;
    size_t ng = 0;
    for (uint32_t rho = 0; rho < R; rho++) {
        uint32_t keys = 1;
        for (uint32_t k = 0; k <= R; k++) {
            c->keys_off[(size_t)rho * (R + 1) + k] = ng;
            if (k < R) {
                ng += keys;
                keys *= dim_of(c, rho, k)->r;
            }
        }
    }
    c->keys_off[(size_t)R * (R + 1)] = ng;
    return 0;
}

double totex_mpi_v_routed_room(const totex_network *net, uint64_t bmax, uint64_t maxrow)
{
    ctx c;
    memset(&c, 0, sizeof c);
    if (ctx_dims(&c, net, 0)) {
        free(c.keys_off);
        return 1e300;
    }
    c.bound = (bmax + c.R - 1) / c.R;
    c.rowcap = (maxrow + c.R - 1) / c.R;
    double room = 0;
    for (uint32_t rho = 0; rho < c.R; rho++)
        for (uint32_t k = 0; k < c.R; k++) {
            const uint32_t P = dim_of(&c, rho, k)->r / 2, per = per_target(&c, rho, k);
            const double groups = (double)(group(&c, rho, k + 1, 0) - group(&c, rho, k, 0));
            for (uint32_t s = 1; s <= P; s++)
                room += 2 * groups * (double)msg_room(&c, (size_t)(P - s + 1) * per);
        }
    free(c.keys_off);
    return room;
}

int totex_mpi_v_routed_applies(const totex_network *net)
{
    if (!net)
        return 0;
    uint32_t R = 0, r[ROUTED_MAX_DIMS];
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const totex_factor_kind kd = totex_factor_get_kind(f);
        if (kd != TOTEX_FACTOR_RING && kd != TOTEX_FACTOR_K2)
            return 0;
        if (R == ROUTED_MAX_DIMS)
            return 0;
        r[R++] = totex_factor_nodes(f);
    }
    /* streams: 2 per group, prod of the travelled rings' sizes groups per phase, R phases per rotation */
    uint64_t streams = 0;
    for (uint32_t rho = 0; rho < R; rho++) {
        uint64_t keys = 1;
        for (uint32_t k = 0; k < R; k++) {
            streams += 2 * keys;
            keys *= r[(rho + k) % R];
        }
    }
    return R >= 1 && streams <= ROUTED_TAGS;
}

int totex_mpi_v_routed(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                       const uint64_t *roff, uint64_t bmax, uint64_t maxrow, MPI_Comm dup, int node)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.comm = dup;
    int rc = ctx_dims(&c, net, (uint32_t)node) ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    const uint32_t n = c.n, R = c.R;
    c.bound = (bmax + R - 1) / R;
    c.rowcap = (maxrow + R - 1) / R;
    /* self: the whole block at once */
    memcpy(precv + roff[c.me], psend + soff[c.me], roff[c.me + 1] - roff[c.me]);
    c.held = calloc((size_t)R * (R + 1) * n, sizeof *c.held);
    if (!c.held)
        rc = MPI_ERR_NO_MEM;
    const size_t ng = rc == MPI_SUCCESS ? c.keys_off[(size_t)R * (R + 1)] : 0;
    const size_t nslots = 2 * ng * c.P;
    if (rc == MPI_SUCCESS) {
        c.need = calloc(ng ? ng : 1, sizeof *c.need);
        c.started = calloc(ng ? ng : 1, 1);
        c.step = malloc((2 * ng + 1) * sizeof *c.step);
        c.rreq = malloc((nslots + 1) * sizeof *c.rreq);
        c.rbuf = calloc(nslots + 1, sizeof *c.rbuf);
        c.got = calloc(nslots + 1, sizeof *c.got);
        c.arrived = calloc(nslots + 1, 1);
        if (!c.need || !c.started || !c.step || !c.rreq || !c.rbuf || !c.got || !c.arrived)
            rc = MPI_ERR_NO_MEM;
    }
    for (size_t q = 0; rc == MPI_SUCCESS && q < nslots; q++)
        c.rreq[q] = MPI_REQUEST_NULL;
    for (size_t q = 0; rc == MPI_SUCCESS && q < 2 * ng; q++)
        c.step[q] = 1;
    /* what each group waits for: phase 0's one group nothing; a group of phase k + 1 one delivery from the
       group of phase k it continues (two when its source is half-way round an even ring: both halves) */
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++)
        for (uint32_t k = 1; k < R; k++) {
            const dim *d = dim_of(&c, rho, k - 1);
            uint32_t kw = 1;
            for (uint32_t j = 0; j + 1 < k; j++)
                kw *= dim_of(&c, rho, j)->r;
            const size_t g0 = group(&c, rho, k, 0), g1 = group(&c, rho, k + 1, 0);
            for (size_t g = g0; g < g1; g++) {
                const uint32_t u = (uint32_t)((g - g0) / kw) % d->r, dist = (u + d->r - d->m) % d->r;
                c.need[g] = d->r % 2 == 0 && dist == d->r / 2 ? 2 : 1;
            }
        }
    /* rotation rho holds piece rho of each of this node's blocks: bytes [rho L / R, (rho + 1) L / R) */
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++) {
        piece *h = held(&c, rho, 0);
        for (uint32_t t = 0; t < n; t++) {
            const uint64_t L = soff[t + 1] - soff[t], a = L * rho / R, b = L * (rho + 1) / R;
            h[t].p[0] = psend + soff[t] + a;
            h[t].l[0] = t == c.me ? 0 : (uint32_t)(b - a);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = post_all(&c);
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++)
        rc = group_ready(&c, rho, 0, 0);
    while (rc == MPI_SUCCESS && c.left) {
        int idx = MPI_UNDEFINED;
        MPI_Status stat;
        if ((rc = MPI_Waitany((int)nslots, c.rreq, &idx, &stat)) != MPI_SUCCESS)
            break;
        if (idx == MPI_UNDEFINED) {
            rc = MPI_ERR_INTERN; /* (every receive done, some not taken: cannot happen) */
            break;
        }
        int got = 0;
        MPI_Get_count(&stat, MPI_BYTE, &got);
        c.got[idx] = (size_t)got;
        c.arrived[idx] = 1;
        rc = take_arrived(&c, (size_t)idx / c.P / 2, (int)((size_t)idx / c.P % 2));
    }
    /* the pieces that came: piece rho of the block from node s is at [rho L / R, (rho + 1) L / R) */
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++)
        for (uint32_t s = 0; s < n; s++) {
            if (s == c.me)
                continue;
            const piece *pc = &held(&c, rho, R)[s];
            const uint64_t L = roff[s + 1] - roff[s], a = L * rho / R, b = L * (rho + 1) / R;
            if ((uint64_t)pc->l[0] + pc->l[1] != b - a) {
                rc = MPI_ERR_COUNT; /* (a sender's count differs from ours: the count check let it through) */
                break;
            }
            piece_copy(pc, 0, (uint32_t)(b - a), precv + roff[s] + a);
        }
    if (rc != MPI_SUCCESS) {
        if (c.rreq)
            totex_mpi_cancel_requests(c.rreq, nslots);
    }
    if (c.nsreq) {
        const int wrc = MPI_Waitall((int)c.nsreq, c.sreq, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    mem_free(&c);
    free(c.sreq);
    free(c.arrived);
    free(c.got);
    free(c.rbuf);
    free(c.rreq);
    free(c.step);
    free(c.need);
    free(c.started);
    free(c.held);
    free(c.keys_off);
    return rc;
}
