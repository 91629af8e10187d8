/*
 * Name:       routed alltoallv ("routed": non-uniform total exchange relayed along the torus's links,
 *             every block carrying its real length)
 * Paper:      issue 30 items 3-4 (the uniform schedule carrying each block's real length); the
 *             routing is dimension-ordered store-and-forward as in 002 (Suh, Shin & Yalamanchili,
 *             dimension by dimension, each ring an all-to-all of super-blocks in both directions)
 *             and 000 section 3 (a ring's half-way messages split across its two directions, what
 *             makes the half-ring arc cut tight); the rotations of the dimension order are 001's
 *             translation of one schedule to every dimension, so that every link works at once.
 * Model:      store-and-forward between neighbours on a torus (every factor a ring or K2), multiport
 *             (a node sends on all its links at once), byte-weighted: a link's time is its bytes.
 * Steps:      with R dimensions of more than one node (rings of m_1 .. m_R nodes), every pair's bytes
 *             are cut into R pieces; piece rho goes through the dimensions in the order rho, rho + 1,
 *             .. (mod R). In each dimension the piece travels on its ring the shorter way, a piece
 *             half-way round split in halves, one each way: floor(m_k / 2) steps per dimension, each a
 *             header message (the lengths of the blocks that follow) and a payload message to each
 *             ring neighbour. Sum_k floor(m_k / 2) dependent steps per piece; the R pieces run at the
 *             same time, asynchronously (a step goes as soon as its data has come).
 * Optimality: for uniform blocks every link carries the same bytes, those of the half-ring arc cut
 *             bound (000 Theorem 5 on rings of even size), so the byte term meets that bound; for a
 *             demand W each link carries its dimension-ordered share of W (no rerouting around a hot
 *             link), and a receiver's bytes come in on all 2R of its links (a hotspot's ejection
 *             bound is met up to the pieces' rounding). Start-ups: 2 sum_k floor(m_k / 2) per piece
 *             in sequence, against 1 for direct: taken for long blocks only (alltoallv.c's model).
 *
 * What a rank knows: its own row (send counts) and column (receive counts). A relay learns the
 * lengths of what it forwards from the header that comes before each payload; the held blocks
 * between two dimensions are n pieces per rotation (pointers and lengths: O(n R) memory), their
 * bytes in the payloads received (and this rank's packed row): the relay's bytes are those that pass
 * through it, freed when the call ends. Planning a call: one pass over the rank's 2n counts. No rank
 * gathers the n x n matrix.
 *
 * Index of a held piece: between dimensions, a piece of pair (s, t) held by this node is named by one
 * node id, the mixed-radix number whose coordinates are s's in the dimensions already travelled and t's
 * in the others (this node's coordinates are t's in the first and s's in the others): n of them per
 * rotation, the same meaning on every node of a ring. In the dimension under way, the pieces with
 * coordinate c (target c on this ring) form the super-block for ring node c, n / m_k pieces in index
 * order; at their target its coordinate becomes the source's on that ring.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate: base + 4 * rotation + 2 * direction + (0 header, 1 payload); below
   alltoallv.c's TOTEX_MPI_V_TAG (32700), above the unit-step executor's (TOTEX_MPI_UNIT_TAGS) */
#define ROUTED_TAG 32600
#define ROUTED_MAX_DIMS 16

typedef struct piece { /* the bytes of a held piece: seg 0 then seg 1 (the two halves of a half-way split) */
    const char *p[2];
    uint32_t l[2];
} piece;

typedef struct chunk { /* bump allocation of one call's staging and payload bytes */
    struct chunk *next;
    size_t used, cap;
    char *data;
} chunk;

typedef struct dim {
    uint32_t r, w, m;  /* ring size, stride, this node's coordinate */
    uint32_t peer[2];  /* send to (direction 0: coordinate + 1, 1: - 1) */
} dim;

typedef struct lane { /* one direction of one rotation in its current dimension */
    int step;         /* the step whose messages it waits for (1 .. P), 0: done with the dimension */
    int waiting;      /* 0: header, 1: payload */
    uint32_t *hdr;
    char *pay;
    size_t count;     /* pieces in the header */
    size_t bytes;     /* payload bytes */
} lane;

typedef struct rot {
    int phase;        /* dimension being travelled: dims[(rho + phase) % R]; R: done */
    piece *held, *next;
    int lanes_left;
} rot;

typedef struct ctx {
    MPI_Comm comm;
    uint32_t n, me, R;
    dim d[ROUTED_MAX_DIMS];
    rot *rot;
    lane *lane;           /* [2 R] */
    MPI_Request *rreq;    /* [2 R]: each lane's receive under way */
    MPI_Request *sreq;    /* sends, waited for at the end */
    size_t nsreq, capsreq;
    chunk *mem;
    int rc;
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
    if (c->nsreq == c->capsreq) {
        size_t cap = c->capsreq ? 2 * c->capsreq : 64;
        MPI_Request *r = realloc(c->sreq, cap * sizeof *r);
        if (!r)
            return MPI_ERR_NO_MEM;
        c->sreq = r;
        c->capsreq = cap;
    }
    return MPI_Isend(buf, (int)bytes, MPI_BYTE, (int)peer, tag, c->comm, &c->sreq[c->nsreq++]);
}

/* the current dimension of rotation @p rho */
static const dim *cur(const ctx *c, uint32_t rho) { return &c->d[(rho + (uint32_t)c->rot[rho].phase) % c->R]; }

static int tag_of(uint32_t rho, int dir, int payload) { return ROUTED_TAG + 4 * (int)rho + 2 * dir + payload; }

/* the index of the e-th piece (0 .. n/r - 1) of the super-block with coordinate @p t in dimension @p k */
static uint32_t sb_index(const dim *k, uint32_t t, uint32_t e)
{
    const uint32_t hi = e / k->w, lo = e % k->w;
    return hi * k->w * k->r + t * k->w + lo;
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

/* post the header receive of lane (@p rho, @p dir) for its step */
static int post_header(ctx *c, uint32_t rho, int dir)
{
    const dim *k = cur(c, rho);
    lane *ln = &c->lane[2 * rho + (uint32_t)dir];
    const uint32_t P = k->r / 2, per = c->n / k->r;
    ln->count = (size_t)(P - (uint32_t)ln->step + 1) * per;
    ln->waiting = 0;
    if (!(ln->hdr = mem_get(c, ln->count * sizeof(uint32_t))))
        return MPI_ERR_NO_MEM;
    return MPI_Irecv(ln->hdr, (int)(ln->count * sizeof(uint32_t)), MPI_BYTE, (int)k->peer[!dir], tag_of(rho, dir, 0),
                     c->comm, &c->rreq[2 * rho + (uint32_t)dir]);
}

/* start rotation @p rho's current dimension: own super-block kept, step 1 sent both ways, headers posted */
static int phase_start(ctx *c, uint32_t rho)
{
    rot *ro = &c->rot[rho];
    const dim *k = cur(c, rho);
    const uint32_t P = k->r / 2, per = c->n / k->r, even = k->r % 2 == 0;
    memset(ro->next, 0, (size_t)c->n * sizeof *ro->next);
    for (uint32_t e = 0; e < per; e++) {
        const uint32_t i = sb_index(k, k->m, e);
        ro->next[i] = ro->held[i];
    }
    ro->lanes_left = 2;
    int rc;
    for (int dir = 0; dir < 2; dir++) {
        const size_t cnt = (size_t)P * per;
        uint32_t *h = mem_get(c, cnt * sizeof *h);
        if (!h)
            return MPI_ERR_NO_MEM;
        size_t total = 0;
        for (uint32_t D = 1, q = 0; D <= P; D++) {
            const uint32_t t = dir ? (k->m + k->r - D) % k->r : (k->m + D) % k->r;
            for (uint32_t e = 0; e < per; e++, q++) {
                const piece *pc = &c->rot[rho].held[sb_index(k, t, e)];
                const uint32_t L = pc->l[0] + pc->l[1];
                h[q] = even && D == P ? (dir ? L - L / 2 : L / 2) : L;
                total += h[q];
            }
        }
        if (total > INT_MAX)
            return MPI_ERR_COUNT;
        char *pay = total ? mem_get(c, total) : NULL;
        if (total && !pay)
            return MPI_ERR_NO_MEM;
        char *to = pay;
        for (uint32_t D = 1, q = 0; D <= P; D++) {
            const uint32_t t = dir ? (k->m + k->r - D) % k->r : (k->m + D) % k->r;
            for (uint32_t e = 0; e < per; e++, q++) {
                const piece *pc = &c->rot[rho].held[sb_index(k, t, e)];
                const uint32_t L = pc->l[0] + pc->l[1], a = even && D == P && dir ? L / 2 : 0;
                piece_copy(pc, a, a + h[q], to);
                to += h[q];
            }
        }
        if ((rc = post_send(c, h, cnt * sizeof *h, k->peer[dir], tag_of(rho, dir, 0))) != MPI_SUCCESS)
            return rc;
        if (total && (rc = post_send(c, pay, total, k->peer[dir], tag_of(rho, dir, 1))) != MPI_SUCCESS)
            return rc;
        c->lane[2 * rho + (uint32_t)dir].step = 1;
        if ((rc = post_header(c, rho, dir)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* lane (@p rho, @p dir)'s payload of its step has come: keep the first super-block (ours), send the rest on */
static int payload_done(ctx *c, uint32_t rho, int dir)
{
    rot *ro = &c->rot[rho];
    const dim *k = cur(c, rho);
    lane *ln = &c->lane[2 * rho + (uint32_t)dir];
    const uint32_t P = k->r / 2, per = c->n / k->r, s = (uint32_t)ln->step;
    const uint32_t u = dir ? (k->m + s) % k->r : (k->m + k->r - s % k->r) % k->r; /* the source's coordinate */
    const int half = k->r % 2 == 0 && s == P;
    const char *at = ln->pay;
    for (uint32_t e = 0; e < per; e++) {
        piece *q = &ro->next[sb_index(k, u, e)];
        const int seg = half && dir;
        q->p[seg] = at;
        q->l[seg] = ln->hdr[e];
        at += ln->hdr[e];
    }
    int rc;
    if (s < P) {
        const size_t rest = ln->bytes - (size_t)(at - ln->pay);
        if ((rc = post_send(c, ln->hdr + per, (ln->count - per) * sizeof(uint32_t), k->peer[dir],
                            tag_of(rho, dir, 0))) != MPI_SUCCESS)
            return rc;
        if (rest && (rc = post_send(c, at, rest, k->peer[dir], tag_of(rho, dir, 1))) != MPI_SUCCESS)
            return rc;
        ln->step++;
        return post_header(c, rho, dir);
    }
    ln->step = 0;
    if (--ro->lanes_left)
        return MPI_SUCCESS;
    piece *t = ro->held;
    ro->held = ro->next;
    ro->next = t;
    if (++ro->phase < (int)c->R)
        return phase_start(c, rho);
    return MPI_SUCCESS;
}

/* lane (@p rho, @p dir)'s header has come: post its payload's receive (or take an empty one at once) */
static int header_done(ctx *c, uint32_t rho, int dir)
{
    lane *ln = &c->lane[2 * rho + (uint32_t)dir];
    const dim *k = cur(c, rho);
    size_t total = 0;
    for (size_t q = 0; q < ln->count; q++)
        total += ln->hdr[q];
    if (total > INT_MAX)
        return MPI_ERR_COUNT;
    ln->bytes = total;
    ln->waiting = 1;
    if (!total) {
        ln->pay = NULL;
        return payload_done(c, rho, dir);
    }
    if (!(ln->pay = mem_get(c, total)))
        return MPI_ERR_NO_MEM;
    return MPI_Irecv(ln->pay, (int)total, MPI_BYTE, (int)k->peer[!dir], tag_of(rho, dir, 1), c->comm,
                     &c->rreq[2 * rho + (uint32_t)dir]);
}

int totex_mpi_v_routed_applies(const totex_network *net)
{
    if (!net)
        return 0;
    uint32_t R = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor_kind kd = totex_factor_get_kind(totex_network_factor(net, i));
        if (kd != TOTEX_FACTOR_RING && kd != TOTEX_FACTOR_K2)
            return 0;
        R++;
    }
    return R >= 1 && R <= ROUTED_MAX_DIMS;
}

int totex_mpi_v_routed(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                       const uint64_t *roff, MPI_Comm dup, int node)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.comm = dup;
    c.n = totex_network_nodes(net);
    c.me = (uint32_t)node;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const uint32_t r = totex_factor_nodes(totex_network_factor(net, i));
        if (r < 2)
            continue;
        dim *k = &c.d[c.R++];
        k->r = r;
        k->w = totex_network_stride(net, i);
        k->m = totex_network_coord(net, c.me, i);
        k->peer[0] = c.me - k->m * k->w + ((k->m + 1) % r) * k->w;
        k->peer[1] = c.me - k->m * k->w + ((k->m + r - 1) % r) * k->w;
    }
    const uint32_t n = c.n, R = c.R;
    /* self: the whole block at once */
    memcpy(precv + roff[c.me], psend + soff[c.me], roff[c.me + 1] - roff[c.me]);
    int rc = MPI_SUCCESS;
    c.rot = calloc(R, sizeof *c.rot);
    c.lane = calloc(2 * (size_t)R, sizeof *c.lane);
    c.rreq = malloc(2 * (size_t)R * sizeof *c.rreq);
    piece *pcs = calloc(2 * (size_t)R * n, sizeof *pcs);
    if (!c.rot || !c.lane || !c.rreq || !pcs)
        rc = MPI_ERR_NO_MEM;
    for (uint32_t q = 0; rc == MPI_SUCCESS && q < 2 * R; q++)
        c.rreq[q] = MPI_REQUEST_NULL;
    /* rotation rho holds piece rho of each of this node's blocks: bytes [rho L / R, (rho + 1) L / R) */
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++) {
        c.rot[rho].held = pcs + 2 * (size_t)rho * n;
        c.rot[rho].next = c.rot[rho].held + n;
        for (uint32_t t = 0; t < n; t++) {
            const uint64_t L = soff[t + 1] - soff[t], a = L * rho / R, b = L * (rho + 1) / R;
            c.rot[rho].held[t].p[0] = psend + soff[t] + a;
            c.rot[rho].held[t].l[0] = t == c.me ? 0 : (uint32_t)(b - a);
        }
    }
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++)
        rc = phase_start(&c, rho);
    while (rc == MPI_SUCCESS) {
        int idx = MPI_UNDEFINED;
        if ((rc = MPI_Waitany(2 * (int)R, c.rreq, &idx, MPI_STATUS_IGNORE)) != MPI_SUCCESS || idx == MPI_UNDEFINED)
            break;
        const uint32_t rho = (uint32_t)idx / 2;
        const int dir = idx % 2;
        rc = c.lane[idx].waiting ? payload_done(&c, rho, dir) : header_done(&c, rho, dir);
    }
    /* the pieces that came: piece rho of the block from node s is at [rho L / R, (rho + 1) L / R) */
    for (uint32_t rho = 0; rc == MPI_SUCCESS && rho < R; rho++)
        for (uint32_t s = 0; s < n; s++) {
            if (s == c.me)
                continue;
            const piece *pc = &c.rot[rho].held[s];
            const uint64_t L = roff[s + 1] - roff[s], a = L * rho / R, b = L * (rho + 1) / R;
            if ((uint64_t)pc->l[0] + pc->l[1] != b - a) {
                rc = MPI_ERR_COUNT; /* (a sender's count differs from ours: the count check let it through) */
                break;
            }
            piece_copy(pc, 0, (uint32_t)(b - a), precv + roff[s] + a);
        }
    if (rc != MPI_SUCCESS) {
        for (uint32_t q = 0; c.rreq && q < 2 * R; q++)
            if (c.rreq[q] != MPI_REQUEST_NULL) {
                MPI_Cancel(&c.rreq[q]);
                MPI_Request_free(&c.rreq[q]);
            }
    }
    if (c.nsreq) {
        const int wrc = MPI_Waitall((int)c.nsreq, c.sreq, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    mem_free(&c);
    free(c.sreq);
    free(pcs);
    free(c.rreq);
    free(c.lane);
    free(c.rot);
    return rc;
}
