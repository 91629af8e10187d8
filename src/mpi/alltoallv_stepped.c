/*
 * Name:       stepped alltoallv ("stepped": neighbour steps carrying a near-LP routing)
 * Paper:      none: this project's (docs/mpi.md, non-uniform exchange). The routing is Frank-Wolfe
 *             (conditional gradient) on the busiest link of a multicommodity flow over every block's shortest
 *             paths, a few rounds with an exact line search (bench/smpi/stepped_plan.py --rounds, the
 *             prototype bench/smpi/stepped.sh, docs/performance.md, "Session 26: a neighbour-step executor for
 *             random demands, a prototype"); the bound it is measured against is the fluid LP
 *             optimum of W (docs/demand.md).
 * Model:      all-port store-and-forward over the torus's 2 D n directed links (a ring of 2: its + and - links
 *             to the one neighbour are separate links), a link's time its bytes over B plus a start-up per
 *             message; every message one hop.
 * Routing:    made by every rank for its own row only: every block split evenly over its shortest paths (all
 *             orders of its moves, both ways round an antipodal ring; past ST_PCAP paths, every ST_PCAP-th of
 *             them in enumeration order), then ST_ROUNDS rounds: the rank's loads L on the links and L' (each
 *             of its blocks moved whole to its least-cost shortest path under the softmax exp(40 (L - max L) /
 *             max L) of the summed loads: a walk over the block's grid of moves), L' summed by one
 *             MPI_Allreduce on the private duplicate, then the step g in (0, 1/2] (200 points) that least
 *             loads the busiest link of (1 - g) L + g L', summed. One MPI_Allreduce first (the even split's
 *             loads) and one last (the loads of the pieces in whole bytes, with and without the paths under
 *             ST_DROP of their block; sums of whole numbers: the same on every rank), ST_ROUNDS + 2 in all.
 *             The paths under ST_DROP are dropped (the rest renormalised) where that keeps the busiest link
 *             within 1%. C, the bytes a directed link carries a step, is 1.1 x that busiest link / the
 *             diameter (the prototype's best: 4 steps on 4x4, 6 on 4x4x4), at least ST_CMIN. The routing
 *             (fractions of each block per path, and C) is cached while the caller's key stays (a repeating
 *             pattern: the key is made from figures the same on every rank, so every rank plans on the same
 *             calls); a cached routing applied to other counts still moves every byte exactly once.
 * Steps:      strict: each step, each rank posts a receive (room: 8 + ST_MSG_PIECES descriptors + C bytes)
 *             from every in-neighbour not finished with it and sends every out-neighbour it has not finished
 *             with one message: up to C bytes of the pieces it holds for that link (the most hops left first,
 *             ties in arrival order; a piece cut where C ends), at most ST_MSG_PIECES pieces, each with a
 *             descriptor (source, destination, offset in the block, length, the moves left), and the message's
 *             level; then waits for all of them. A piece whose destination is the rank lands in @p precv at
 *             its source's block + offset (bytes past the length expected are not written: MPI_ERR_TRUNCATE);
 *             others are queued for their next link. Termination without a global step count: a message of
 *             level k promises its receiver that the sender will never again send it a piece with k or more
 *             hops left (this one included). The level for link l is max(1 + the most hops left among the
 *             pieces still held for l, max over in-links u of (the last level received on u) - 1, 1), a
 *             level received starting at diameter + 2 (sound: a piece coming on u later was sent with fewer
 *             than u's last level of hops left, so it has fewer than that - 1 here). A rank stops sending on
 *             a link after sending level 1 there, stops receiving on one after receiving level 1 there, and
 *             returns when both hold for all its links: the two ends count the same messages, no hang.
 *             Steps: about 1.1 x busiest / C + the levels' decay (an empty step or two).
 * Optimality: none claimed. The prototype ran 4x4 random demands at 64 KiB within 1.16-1.18 x the LP, 4x4x4
 *             within 1.12-1.14 x (docs/performance.md, "Session 26: a neighbour-step executor for random demands, a
 *             prototype"); this form's figures are measured there.
 *
 * What a rank knows: its row (the blocks it sends), the expected length of every block of its column, the
 * R + 2 sums of link loads, and the pieces' descriptors it receives. Memory: the routing of its row (at most
 * ST_PCAP + ST_ROUNDS paths a block: O(n) for a torus of bounded degree), 2 D receive rooms a step and the
 * bytes relayed through the node until they go on.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate: link move m (dimension 2 + (+ way)) of the sender; below balanced's */
#define ST_TAG 30000
#define ST_MAX_NODES 64
#define ST_MAX_DIMS 6    /* 64 nodes, every factor at least 2 */
#define ST_MAX_HOPS 32   /* the diameter of a ring of 64 */
#ifndef ST_ROUNDS
#define ST_ROUNDS 5
#endif
#ifndef ST_PCAP
#define ST_PCAP 128 /* the even split's paths a block at most */
#endif
#ifndef ST_DROP
#define ST_DROP 0.02 /* paths under this fraction of their block dropped where the busiest link stays within 1% */
#endif
#ifndef ST_CMIN
#define ST_CMIN 4096
#endif
#ifndef ST_CFACTOR
#define ST_CFACTOR 1.1
#endif
#define ST_MSG_PIECES 1024 /* pieces a message at most */
#define ST_DESC_MAX (17 + ST_MAX_HOPS)
#define ST_LINKS (2 * ST_MAX_DIMS * ST_MAX_NODES)
_Static_assert(ST_TAG + 2 * ST_MAX_DIMS < 30100, "stepped's tags stay below balanced's");

int totex_mpi_v_stepped_applies(const totex_network *net) { return totex_mpi_v_balanced_applies(net); }

/* a path: its moves (dimension 2 + (+ way)), its fraction of the block */
typedef struct stpath {
    double w;
    uint8_t len;
    uint8_t mv[ST_MAX_HOPS];
} stpath;

/* the cached routing of this rank's row: paths of block t at path[first[t] .. first[t + 1]) */
static struct {
    const totex_network *net;
    MPI_Comm dup;
    uint32_t n, me;
    uint64_t key;
    stpath *path;
    size_t *first;
    uint64_t C;
    unsigned long made;
    double busiest; /* bytes on the busiest link of the routing in whole bytes, summed */
} rt;

unsigned long totex_mpi_v_stepped_routings(void) { return rt.made; }

typedef struct geo {
    uint32_t D, n, diam;
    uint32_t k[ST_MAX_DIMS], stride[ST_MAX_DIMS];
} geo;

static uint32_t geo_move(const geo *g, uint32_t u, int mv)
{
    const uint32_t d = (uint32_t)mv >> 1, k = g->k[d], c = (u / g->stride[d]) % k;
    const uint32_t nc = (mv & 1) ? (c + 1) % k : (c + k - 1) % k;
    return u - c * g->stride[d] + nc * g->stride[d];
}

static uint32_t link_of(const geo *g, uint32_t u, int mv) { return u * 2 * g->D + (uint32_t)mv; }

/* per dimension of block i -> j: moves m[d] and way s[d] (+1, -1, 0: both, antipodal) */
static uint32_t block_moves(const geo *g, uint32_t i, uint32_t j, uint32_t *m, int *s)
{
    uint32_t tot = 0;
    for (uint32_t d = 0; d < g->D; d++) {
        const uint32_t k = g->k[d], ci = (i / g->stride[d]) % k, cj = (j / g->stride[d]) % k;
        const uint32_t off = (cj + k - ci) % k;
        if (off == 0)
            m[d] = 0, s[d] = 1;
        else if (2 * off < k)
            m[d] = off, s[d] = 1;
        else if (2 * off > k)
            m[d] = k - off, s[d] = -1;
        else
            m[d] = off, s[d] = 0;
        tot += m[d];
    }
    return tot;
}

/* the next permutation of @p a (n bytes) in lexicographic order; 0 after the last */
static int next_perm(uint8_t *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    uint8_t t = a[i];
    a[i] = a[j], a[j] = t;
    for (int x = i + 1, y = n - 1; x < y; x++, y--)
        t = a[x], a[x] = a[y], a[y] = t;
    return 1;
}

/* the even split of block i -> j: its shortest paths (every @p stride-th past ST_PCAP) appended at *@p out
   (room for ST_PCAP), each of weight 1 / their number; their number */
static size_t even_paths(const geo *g, uint32_t i, uint32_t j, stpath *out)
{
    uint32_t m[ST_MAX_DIMS];
    int s[ST_MAX_DIMS];
    const uint32_t len = block_moves(g, i, j, m, s);
    uint32_t anti = 0;
    double count = 1; /* multinomial * 2^anti */
    uint32_t acc = 0;
    for (uint32_t d = 0; d < g->D; d++) {
        for (uint32_t x = 1; x <= m[d]; x++)
            count = count * (double)(++acc) / x;
        anti += s[d] == 0;
    }
    count *= (double)(1u << anti);
    const double stride = count > ST_PCAP ? ceil(count / ST_PCAP) : 1;
    size_t np = 0;
    double idx = 0;
    for (uint32_t mask = 0; mask < (1u << anti) && np < ST_PCAP; mask++) {
        uint8_t a[ST_MAX_HOPS];
        int x = 0, b = 0;
        for (uint32_t d = 0; d < g->D; d++) {
            int plus = s[d] > 0;
            if (s[d] == 0)
                plus = (mask >> b++) & 1;
            for (uint32_t y = 0; y < m[d]; y++)
                a[x++] = (uint8_t)(2 * d + (plus ? 1 : 0));
        }
        /* (sorted already: dimensions ascending) */
        do {
            if (fmod(idx, stride) == 0 && np < ST_PCAP) {
                out[np].len = (uint8_t)len;
                memcpy(out[np].mv, a, len);
                np++;
            }
            idx += 1;
        } while (len > 1 && next_perm(a, (int)len));
    }
    for (size_t p = 0; p < np; p++)
        out[p].w = 1.0 / (double)np;
    return np;
}

/* the least-cost shortest path of block i -> j under link costs @p c into *@p out (a walk over the grid of its
   moves, both ways of an antipodal ring) */
static void best_path(const geo *g, uint32_t i, uint32_t j, const double *c, stpath *out)
{
    uint32_t m[ST_MAX_DIMS];
    int s[ST_MAX_DIMS];
    const uint32_t len = block_moves(g, i, j, m, s);
    uint32_t anti = 0, states = 1;
    for (uint32_t d = 0; d < g->D; d++) {
        anti += s[d] == 0;
        states *= m[d] + 1;
    }
    double *cost = malloc(states * sizeof *cost);
    uint8_t *pick = malloc(states);
    uint32_t *node = malloc(states * sizeof *node);
    double best = INFINITY;
    out->len = (uint8_t)len, out->w = 0;
    if (!cost || !pick || !node) { /* (no memory: dimension order) */
        uint32_t x = 0;
        for (uint32_t d = 0; d < g->D; d++)
            for (uint32_t y = 0; y < m[d]; y++)
                out->mv[x++] = (uint8_t)(2 * d + (s[d] >= 0 ? 1 : 0));
        free(cost), free(pick), free(node);
        return;
    }
    for (uint32_t mask = 0; mask < (1u << anti); mask++) {
        int plus[ST_MAX_DIMS];
        for (uint32_t d = 0, b = 0; d < g->D; d++)
            plus[d] = s[d] == 0 ? (int)((mask >> b++) & 1) : s[d] > 0;
        /* state r (mixed radix, dimension 0 fastest): r[d] moves of dimension d made */
        for (uint32_t st = 0; st < states; st++) {
            uint32_t v = i, q = st;
            for (uint32_t d = 0; d < g->D; d++) {
                const uint32_t r = q % (m[d] + 1);
                q /= m[d] + 1;
                for (uint32_t y = 0; y < r; y++)
                    v = geo_move(g, v, (int)(2 * d + (uint32_t)plus[d]));
            }
            node[st] = v;
        }
        for (uint32_t st = states; st-- > 0;) {
            uint32_t q = st, mul = 1;
            double bc = INFINITY;
            int bp = -1;
            for (uint32_t d = 0; d < g->D; d++) {
                const uint32_t r = q % (m[d] + 1);
                q /= m[d] + 1;
                if (r < m[d]) {
                    const int mv = (int)(2 * d + (uint32_t)plus[d]);
                    const double x = c[link_of(g, node[st], mv)] + cost[st + mul];
                    if (x < bc)
                        bc = x, bp = mv;
                }
                mul *= m[d] + 1;
            }
            cost[st] = bp < 0 ? 0 : bc;
            pick[st] = (uint8_t)(bp < 0 ? 0 : bp);
        }
        if (cost[0] < best) {
            best = cost[0];
            uint32_t st = 0;
            for (uint32_t x = 0; x < len; x++) {
                const int mv = pick[st];
                out->mv[x] = (uint8_t)mv;
                uint32_t mul = 1;
                for (uint32_t d = 0; d < (uint32_t)mv >> 1; d++)
                    mul *= m[d] + 1;
                st += mul;
            }
        }
    }
    free(cost), free(pick), free(node);
}

static void add_path_load(const geo *g, uint32_t i, const stpath *p, double bytes, double *load)
{
    uint32_t v = i;
    for (int x = 0; x < p->len; x++) {
        load[link_of(g, v, p->mv[x])] += bytes;
        v = geo_move(g, v, p->mv[x]);
    }
}

/* whole bytes of each path of a block of @p P bytes (every byte once: the remainder to its heaviest path), paths
   under @p drop of the block left out (the rest renormalised); into @p bytes */
static void path_bytes(const stpath *p, size_t np, uint64_t P, double drop, uint64_t *bytes)
{
    double tot = 0;
    size_t big = 0;
    for (size_t x = 0; x < np; x++) {
        if (p[x].w >= drop)
            tot += p[x].w;
        if (p[x].w > p[big].w)
            big = x;
    }
    if (tot <= 0)
        tot = -1; /* (none kept: the heaviest alone) */
    uint64_t left = P;
    for (size_t x = 0; x < np; x++) {
        bytes[x] = tot > 0 && p[x].w >= drop ? (uint64_t)floor((double)P * p[x].w / tot) : 0;
        if (bytes[x] > left)
            bytes[x] = left;
        left -= bytes[x];
    }
    bytes[big] += left;
}

static int geo_of(const totex_network *net, geo *g)
{
    g->D = totex_network_dims(net);
    g->n = totex_network_nodes(net);
    g->diam = 0;
    if (g->D > ST_MAX_DIMS)
        return -1;
    for (uint32_t d = 0; d < g->D; d++) {
        g->k[d] = totex_factor_nodes(totex_network_factor(net, d));
        g->stride[d] = totex_network_stride(net, d);
        g->diam += g->k[d] / 2;
    }
    return g->diam > ST_MAX_HOPS ? -1 : 0;
}

/* the routing of this node's row (block t of soff[t + 1] - soff[t] bytes), cached as rt; MPI code (every rank
   calls the same ST_ROUNDS + 2 allreduces whatever happens locally) */
static int make_routing(const geo *g, const totex_network *net, uint32_t me, const uint64_t *soff, MPI_Comm dup,
                        uint64_t key)
{
    const uint32_t n = g->n, nl = 2 * g->D * n;
    static double L[ST_LINKS], Ls[ST_LINKS], Lt[ST_LINKS], Lts[ST_LINKS], c[ST_LINKS];
    static double Q[2 * ST_LINKS], Qs[2 * ST_LINKS];
    free(rt.path), free(rt.first);
    rt.path = NULL, rt.first = NULL, rt.net = NULL;
    const size_t cap = (size_t)n * (ST_PCAP + ST_ROUNDS);
    stpath *path = malloc(cap * sizeof *path);
    size_t *first = malloc((n + 1) * sizeof *first);
    uint32_t *target = malloc(n * sizeof *target);
    stpath *tp = malloc(n * sizeof *tp);
    uint64_t *bytes = malloc((ST_PCAP + ST_ROUNDS) * sizeof *bytes);
    int ok = path && first && target && tp && bytes, rc = MPI_SUCCESS;
    memset(L, 0, sizeof L);
    size_t np = 0;
    for (uint32_t t = 0; ok && t < n; t++) {
        first[t] = np;
        if (t == me)
            continue;
        const size_t k = even_paths(g, me, t, path + np);
        for (size_t x = 0; x < k; x++)
            add_path_load(g, me, &path[np + x], path[np + x].w * (double)(soff[t + 1] - soff[t]), L);
        np += k;
    }
    if (ok)
        first[n] = np;
    if ((rc = MPI_Allreduce(L, Ls, (int)nl, MPI_DOUBLE, MPI_SUM, dup)) != MPI_SUCCESS)
        goto out;
    for (int round = 0; round < ST_ROUNDS; round++) {
        double mx = 0;
        for (uint32_t l = 0; l < nl; l++)
            mx = Ls[l] > mx ? Ls[l] : mx;
        for (uint32_t l = 0; l < nl; l++)
            c[l] = mx > 0 ? exp(40.0 * (Ls[l] - mx) / mx) : 1;
        memset(Lt, 0, sizeof Lt);
        for (uint32_t t = 0; ok && t < n; t++) {
            if (t == me)
                continue;
            best_path(g, me, t, c, &tp[t]);
            tp[t].w = 0;
            add_path_load(g, me, &tp[t], (double)(soff[t + 1] - soff[t]), Lt);
        }
        if ((rc = MPI_Allreduce(Lt, Lts, (int)nl, MPI_DOUBLE, MPI_SUM, dup)) != MPI_SUCCESS)
            goto out;
        double gbest = 0.0025, mbest = INFINITY;
        for (int k = 1; k <= 200; k++) {
            const double gg = k / 400.0;
            double m = 0;
            for (uint32_t l = 0; l < nl; l++) {
                const double v = (1 - gg) * Ls[l] + gg * Lts[l];
                m = v > m ? v : m;
            }
            if (m < mbest)
                mbest = m, gbest = gg;
        }
        for (uint32_t l = 0; l < nl; l++)
            Ls[l] = (1 - gbest) * Ls[l] + gbest * Lts[l];
        /* the flows: every path's fraction times (1 - g), the target's plus g (a new path, or one already there) */
        size_t w = 0;
        for (uint32_t t = 0; ok && t < n; t++) {
            const size_t a = first[t], b = t + 1 < n ? first[t + 1] : np;
            const size_t start = w;
            if (t != me) {
                int found = 0;
                for (size_t x = a; x < b; x++) {
                    path[w] = path[x];
                    path[w].w *= 1 - gbest;
                    if (path[w].len == tp[t].len && !memcmp(path[w].mv, tp[t].mv, tp[t].len))
                        path[w].w += gbest, found = 1;
                    w++;
                }
                if (!found) { /* (room: shifting the rest up by one) */
                    memmove(path + w + 1, path + b, (np - b) * sizeof *path);
                    for (uint32_t u = t + 1; u < n; u++)
                        first[u] += 1;
                    np += 1;
                    path[w] = tp[t];
                    path[w].w = gbest;
                    w++;
                }
            }
            first[t] = start;
            (void)start;
        }
        if (ok)
            first[n] = np;
    }
    /* the pieces in whole bytes, with and without the small paths: both loads summed exactly */
    memset(Q, 0, sizeof Q);
    for (uint32_t t = 0; ok && t < n; t++) {
        if (t == me)
            continue;
        const size_t a = first[t], k = first[t + 1] - a;
        const uint64_t P = soff[t + 1] - soff[t];
        for (int v = 0; v < 2; v++) {
            path_bytes(path + a, k, P, v ? ST_DROP : 0, bytes);
            for (size_t x = 0; x < k; x++)
                add_path_load(g, me, &path[a + x], (double)bytes[x], Q + (size_t)v * nl);
        }
    }
    if ((rc = MPI_Allreduce(Q, Qs, (int)(2 * nl), MPI_DOUBLE, MPI_SUM, dup)) != MPI_SUCCESS)
        goto out;
    double full = 0, dropped = 0;
    for (uint32_t l = 0; l < nl; l++) {
        full = Qs[l] > full ? Qs[l] : full;
        dropped = Qs[nl + l] > dropped ? Qs[nl + l] : dropped;
    }
    const int drop = dropped <= 1.01 * full;
    if (ok && drop) { /* the small paths out, the rest renormalised */
        size_t w = 0;
        for (uint32_t t = 0; t < n; t++) {
            const size_t a = first[t], b = first[t + 1];
            first[t] = w;
            double tot = 0;
            size_t big = a;
            for (size_t x = a; x < b; x++) {
                tot += path[x].w >= ST_DROP ? path[x].w : 0;
                big = path[x].w > path[big].w ? x : big;
            }
            for (size_t x = a; x < b; x++)
                if (tot > 0 ? path[x].w >= ST_DROP : x == big) {
                    path[w] = path[x];
                    path[w++].w = tot > 0 ? path[x].w / tot : 1;
                }
        }
        first[n] = w;
    }
    const double busiest = drop ? dropped : full;
    const double cc = ceil(ST_CFACTOR * busiest / (g->diam ? g->diam : 1));
    rt.C = cc < ST_CMIN ? ST_CMIN : cc > INT_MAX / 2 ? INT_MAX / 2 : (uint64_t)cc;
    rt.busiest = busiest;
    if (ok) {
        rt.net = net, rt.dup = dup, rt.n = n, rt.me = me, rt.key = key;
        rt.path = path, rt.first = first;
        path = NULL, first = NULL;
        rt.made++;
    }
#ifdef ST_DEBUG
    if (me == 0)
        fprintf(stderr, "stepped: routing busiest %.0f B (full %.0f, dropped %.0f), C %llu, %zu paths\n", busiest, full,
                dropped, (unsigned long long)rt.C, rt.first ? rt.first[n] : (size_t)0);
#endif
out:
    free(path), free(first), free(target), free(tp), free(bytes);
    if (rc == MPI_SUCCESS && !ok)
        rc = MPI_ERR_NO_MEM;
    return rc;
}

/* a piece held for a link: its bytes at @p data (a message buffer of @p mb, or the sender's row), its moves
   left from mv[pos] */
typedef struct mbuf {
    int refs;
    char *data;
} mbuf;

typedef struct piece {
    uint32_t src, dst, off, len;
    const char *data;
    mbuf *mb;
    uint8_t pos, end;
    uint8_t mv[ST_MAX_HOPS];
} piece;

typedef struct fifo {
    piece *p;
    size_t head, tail, cap;
} fifo;

static int fifo_push(fifo *f, const piece *x)
{
    if (f->tail == f->cap) {
        if (f->head > 0) {
            memmove(f->p, f->p + f->head, (f->tail - f->head) * sizeof *f->p);
            f->tail -= f->head, f->head = 0;
        } else {
            const size_t nc = f->cap ? 2 * f->cap : 16;
            piece *q = realloc(f->p, nc * sizeof *q);
            if (!q)
                return -1;
            f->p = q, f->cap = nc;
        }
    }
    f->p[f->tail++] = *x;
    return 0;
}

static void mb_release(mbuf *mb)
{
    if (mb && --mb->refs == 0) {
        free(mb->data);
        free(mb);
    }
}

int totex_mpi_v_stepped_route(const totex_network *net, uint64_t key, const uint64_t *soff, MPI_Comm dup, int node)
{
    geo g;
    if (!totex_mpi_v_stepped_applies(net) || geo_of(net, &g))
        return MPI_ERR_INTERN;
    if (key && rt.path && rt.net == net && rt.dup == dup && rt.n == g.n && rt.me == (uint32_t)node && rt.key == key)
        return MPI_SUCCESS;
    return make_routing(&g, net, (uint32_t)node, soff, dup, key);
}

int totex_mpi_v_stepped(const totex_network *net, uint64_t key, const char *psend, const uint64_t *soff, char *precv,
                        const uint64_t *roff, uint64_t h, unsigned char *hdr_ok, int *local, MPI_Comm dup, int node)
{
    geo g;
    *local = MPI_SUCCESS;
    if (!totex_mpi_v_stepped_applies(net) || geo_of(net, &g))
        return MPI_ERR_INTERN;
    const uint32_t n = g.n, me = (uint32_t)node, D = g.D, nm = 2 * D, H = g.diam + 1;
    int rc = totex_mpi_v_stepped_route(net, key, soff, dup, node);
    if (rc != MPI_SUCCESS)
        return rc;
    const uint64_t C = rt.C;
    const size_t room = 8 + (size_t)ST_MSG_PIECES * ST_DESC_MAX + C;
    for (uint32_t t = 0; t < n; t++)
        hdr_ok[t] = t == me;
    memcpy(precv + roff[me], psend + soff[me], roff[me + 1] - roff[me]);
    fifo *q = calloc((size_t)nm * H, sizeof *q); /* [link move][hops left] */
    uint64_t *got = calloc(2 * (size_t)n, sizeof *got), *hcov = got ? got + n : NULL;
    char *sbuf = malloc((size_t)nm * room);
    mbuf **rb = calloc(nm, sizeof *rb);
    MPI_Request *req = malloc(2 * (size_t)nm * sizeof *req);
    MPI_Status *stat = malloc(2 * (size_t)nm * sizeof *stat);
    uint64_t *bytes = malloc((ST_PCAP + ST_ROUNDS) * sizeof *bytes);
    if (!q || !got || !sbuf || !rb || !req || !stat || !bytes) {
        rc = MPI_ERR_NO_MEM; /* (before any message: every rank's call hangs unless all fail alike; as balanced) */
        goto out;
    }
    /* this node's row: its pieces queued on their first links, destinations from the next node on */
    for (uint32_t x = 1; x < n; x++) {
        const uint32_t t = (me + x) % n;
        const size_t a = rt.first[t], k = rt.first[t + 1] - a;
        const uint64_t P = soff[t + 1] - soff[t];
        path_bytes(rt.path + a, k, P, 0, bytes);
        uint64_t off = 0;
        for (size_t y = 0; y < k; y++) {
            if (!bytes[y])
                continue;
            piece pc = {me, t, (uint32_t)off, (uint32_t)bytes[y], psend + soff[t] + off, NULL, 0, rt.path[a + y].len, {0}};
            memcpy(pc.mv, rt.path[a + y].mv, pc.end);
            off += bytes[y];
            if (fifo_push(&q[pc.mv[0] * H + pc.end], &pc)) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
        }
    }
    uint32_t lev_in[2 * ST_MAX_DIMS], out_done[2 * ST_MAX_DIMS] = {0}, in_done[2 * ST_MAX_DIMS] = {0};
    uint32_t nb_out[2 * ST_MAX_DIMS], nb_in[2 * ST_MAX_DIMS];
    for (uint32_t m = 0; m < nm; m++) {
        lev_in[m] = g.diam + 2;
        nb_out[m] = geo_move(&g, me, (int)m);
        nb_in[m] = geo_move(&g, me, (int)(m ^ 1u)); /* (the node whose move m comes here) */
    }
    const uint64_t *rexp = roff;
    unsigned long nsteps = 0;
    for (unsigned long step = 0;; step++, nsteps++) {
        int active = 0, nr = 0, ns = 0;
        int rmove[2 * ST_MAX_DIMS];
        for (uint32_t m = 0; m < nm && rc == MPI_SUCCESS; m++) {
            if (in_done[m])
                continue;
            active = 1;
            if (!(rb[m] = malloc(sizeof *rb[m])) || !(rb[m]->data = malloc(room))) {
                free(rb[m]);
                rb[m] = NULL;
                rc = MPI_ERR_NO_MEM;
                break;
            }
            rb[m]->refs = 1;
            rmove[nr] = (int)m;
            rc = MPI_Irecv(rb[m]->data, (int)room, MPI_BYTE, (int)nb_in[m], ST_TAG + (int)m, dup, &req[nr++]);
        }
        if (rc != MPI_SUCCESS) {
            totex_mpi_cancel_requests(req, (size_t)nr);
            goto out;
        }
        uint32_t up = 1; /* max over in-links of the last level - 1 */
        for (uint32_t m = 0; m < nm; m++)
            if (!in_done[m] && lev_in[m] - 1 > up)
                up = lev_in[m] - 1;
        for (uint32_t m = 0; m < nm && rc == MPI_SUCCESS; m++) {
            if (out_done[m])
                continue;
            active = 1;
            char *msg = sbuf + (size_t)m * room;
            /* descriptors first (after the level and count), then the data */
            uint32_t npc = 0;
            uint64_t data = 0;
            size_t dlen = 0;
            piece took[ST_MSG_PIECES];
            for (uint32_t hh = H; hh-- > 1 && npc < ST_MSG_PIECES && data < C;) {
                fifo *f = &q[m * H + hh];
                while (f->head < f->tail && npc < ST_MSG_PIECES && data < C) {
                    piece *pc = &f->p[f->head];
                    const uint64_t take = pc->len < C - data ? pc->len : C - data;
                    took[npc] = *pc;
                    took[npc].len = (uint32_t)take;
                    npc++;
                    data += take;
                    dlen += 17 + (size_t)(pc->end - pc->pos - 1);
                    if (take < pc->len) { /* (the rest stays first in its queue) */
                        pc->off += (uint32_t)take, pc->len -= (uint32_t)take, pc->data += take;
                        if (pc->mb)
                            pc->mb->refs++;
                    } else
                        f->head++;
                }
            }
            uint32_t held = 0;
            for (uint32_t hh = H; hh-- > 1;)
                if (q[m * H + hh].head < q[m * H + hh].tail) {
                    held = hh;
                    break;
                }
            uint32_t level = held + 1 > up ? held + 1 : up;
            char *dp = msg + 8, *bp = msg + 8 + dlen;
            for (uint32_t x = 0; x < npc; x++) {
                const piece *pc = &took[x];
                const uint32_t w[4] = {pc->src, pc->dst, pc->off, pc->len};
                const uint8_t left = (uint8_t)(pc->end - pc->pos - 1);
                memcpy(dp, w, sizeof w);
                dp[16] = (char)left;
                memcpy(dp + 17, pc->mv + pc->pos + 1, left);
                dp += 17 + left;
                memcpy(bp, pc->data, pc->len);
                bp += pc->len;
                mb_release(pc->mb);
            }
            const uint32_t hdr[2] = {level, npc};
            memcpy(msg, hdr, sizeof hdr);
            rc = MPI_Isend(msg, (int)(bp - msg), MPI_BYTE, (int)nb_out[m], ST_TAG + (int)m, dup, &req[nr + ns++]);
            if (level == 1)
                out_done[m] = 1;
        }
        if (!active)
            break;
        if (rc != MPI_SUCCESS) {
            totex_mpi_cancel_requests(req, (size_t)nr);
            if (ns)
                MPI_Waitall(ns, req + nr, MPI_STATUSES_IGNORE);
            goto out;
        }
        const int wrc = totex_mpi_waitall_done(nr + ns, req, stat);
        if (wrc != MPI_SUCCESS && wrc != MPI_ERR_IN_STATUS) {
            rc = wrc;
            goto out;
        }
        for (int x = nr; x < nr + ns && wrc == MPI_ERR_IN_STATUS; x++)
            if (stat[x].MPI_ERROR != MPI_SUCCESS) {
                rc = stat[x].MPI_ERROR;
                goto out;
            }
        for (int x = 0; x < nr; x++) {
            const uint32_t m = (uint32_t)rmove[x];
            mbuf *mb = rb[m];
            rb[m] = NULL;
            int cnt = -1, bad = wrc == MPI_ERR_IN_STATUS && stat[x].MPI_ERROR != MPI_SUCCESS;
            if (!bad)
                MPI_Get_count(&stat[x], MPI_BYTE, &cnt);
            uint32_t hdr[2] = {1, 0};
            if (bad || cnt < 8)
                bad = 1;
            else
                memcpy(hdr, mb->data, sizeof hdr);
            /* (a message this form did not send: its link taken as finished, this node's call failed) */
            size_t dl = 0;
            const char *dp = mb->data + 8;
            for (uint32_t y = 0; !bad && y < hdr[1]; y++) {
                if ((size_t)(dp - mb->data) + 17 > (size_t)cnt) {
                    bad = 1;
                    break;
                }
                uint32_t w[4];
                memcpy(w, dp, sizeof w);
                dl += w[3];
                dp += 17 + (uint8_t)dp[16];
            }
            if (!bad && (hdr[1] > ST_MSG_PIECES || hdr[0] < 1 || hdr[0] > g.diam + 2 ||
                         (size_t)(dp - mb->data) + dl != (size_t)cnt))
                bad = 1;
            const char *data = dp;
            dp = mb->data + 8;
            for (uint32_t y = 0; !bad && y < hdr[1]; y++) {
                uint32_t w[4];
                memcpy(w, dp, sizeof w);
                const uint8_t left = (uint8_t)dp[16];
                if (w[0] >= n || w[1] >= n || left > g.diam || (left == 0) != (w[1] == me)) {
                    bad = 1;
                    break;
                }
                if (left == 0) { /* this node's: into the source's block, never past the length expected */
                    const uint64_t want = rexp[w[0] + 1] - rexp[w[0]];
                    if (w[2] < want)
                        memcpy(precv + roff[w[0]] + w[2], data, (uint64_t)w[2] + w[3] <= want ? w[3] : want - w[2]);
                    got[w[0]] += w[3];
                    if (w[2] < h)
                        hcov[w[0]] += ((uint64_t)w[2] + w[3] < h ? w[3] : h - w[2]);
                } else {
                    piece pc = {w[0], w[1], w[2], w[3], data, mb, 0, left, {0}};
                    memcpy(pc.mv, dp + 17, left);
                    mb->refs++;
                    if (fifo_push(&q[pc.mv[0] * H + left], &pc)) {
                        rc = MPI_ERR_NO_MEM;
                        mb->refs--;
                    }
                }
                data += w[3];
                dp += 17 + left;
            }
            if (bad && *local == MPI_SUCCESS)
                *local = MPI_ERR_TRUNCATE;
            lev_in[m] = bad ? 1 : hdr[0];
            if (lev_in[m] == 1)
                in_done[m] = 1;
            mb_release(mb);
        }
        if (rc != MPI_SUCCESS)
            goto out;
    }
#ifdef ST_DEBUG
    if (me == 0)
        fprintf(stderr, "stepped: %lu steps\n", nsteps);
#endif
    for (uint32_t s = 0; s < n; s++) {
        if (s == me)
            continue;
        const uint64_t want = roff[s + 1] - roff[s];
        hdr_ok[s] = hcov[s] == (want < h ? want : h);
        if (*local == MPI_SUCCESS && got[s] != want)
            *local = got[s] > want ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
    }
out:
    for (uint32_t m = 0; rb && m < nm; m++)
        mb_release(rb[m]);
    for (size_t x = 0; q && x < (size_t)nm * H; x++) {
        for (size_t y = q[x].head; y < q[x].tail; y++)
            mb_release(q[x].p[y].mb);
        free(q[x].p);
    }
    free(q), free(got), free(sbuf), free(rb), free(req), free(stat), free(bytes);
    return rc;
}
