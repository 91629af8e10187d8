/*
 * Name:       balanced alltoallv ("balanced": routes planned on the estimate W^ = r c^T / T)
 * Paper:      none: this project's (docs/mpi.md, non-uniform exchange). The bound it is measured against is
 *             the fluid LP optimum of W (the maximum concurrent multicommodity flow, docs/demand.md; the
 *             ejection bound for a rank-1 demand such as Zipf's or hot spots', where the LP equals it, and the
 *             arc cut where a line of hot receivers shares a ring).
 * Model:      all-port, wormhole routes, byte-weighted: a link's time is its bytes over B. The routes are
 *             the network's dimension-ordered ones as SimGrid's TORUS zone takes them (measured, not derived:
 *             the factor of stride 1 first, then by stride; in a ring of k nodes the + way to an offset
 *             below k/2, and to an offset of k/2 + except from coordinate k/2; TorusZone::get_local_route,
 *             SimGrid 3.32). A real machine routes otherwise: the plan is then an estimate, the data still
 *             exact.
 * Steps:      2 dependent: every block is cut into Q = 4 pieces (the first h bytes, the sender's figures,
 *             in piece 0 unless the block is shorter); each piece goes straight to its destination or through
 *             one relay k near the destination (a leg to k, then a leg on), as the plan says. To each relay a
 *             source sends one message of the lengths of the pieces it relays through it (uint64 each: the
 *             relay does not know them), then the pieces, each its own message (tag by destination and
 *             piece), one after another per relay (BAL_CHAIN: the next when the last has gone, so the relay's
 *             first pieces come early under a fair sharing of links; measured against all at once and rounds,
 *             docs/performance.md, "Routes planned on an estimate of the demand"); the relay sends each piece on
 *             (tag by source and piece) as
 *             soon as it came. A destination knows every piece's length and way (its column of W and the
 *             plan): each of its receives has its exact length (a mismatch: MPI's truncation or a short
 *             count there).
 * The plan:   every rank computes the same plan from the same figures: the last call's row and column totals
 *             of every rank (O(n) numbers, carried on the data of the last call: alltoallv.c), W^(i,j) =
 *             r_i c_j / T (exact for a demand of rank 1: Zipf's and hot spots' generators). Pieces of W^ / Q,
 *             largest first, round-robin over the Q pieces, each on the candidate (the direct route, or the
 *             two legs through a node k at most d links from the destination j) that leaves its busiest link
 *             least loaded, then the shorter; then 2 passes taking each piece off and putting it back on its
 *             best candidate. Made with d the diameter (relays anywhere), then with d = 1, 2, ... (BAL_NEAR
 *             first), the plan kept is the first whose busiest link is within 0.1% (BAL_NEAR_SLACK) of relays
 *             anywhere, else relays anywhere: a relay near the destination sends its pieces on over few
 *             links, one of them j's in-link, so the second legs share fewer links with first legs and the
 *             chains are shorter (4x4: 12 pieces against 26 on Zipf's demand; 4x4 Zipf 1 link, hot spots 2,
 *             8x8 Zipf 3: measured against relays anywhere in docs/performance.md, "Session 24: balanced on 4x4
 *             Zipf"). Where that
 *             plan's first legs load a link to 0.95 x its busiest link or more (BAL_UP_SATURATED), a second plan
 *             is made alike with the links of a relay's first leg weighed 1.3 x their load (BAL_UP_WEIGHT) and
 *             4 passes (BAL_UP_PASSES), and kept where its busiest link is lower by more than 0.1%: the greedy
 *             counts a candidate by its busiest link only, so it loads the links into a relay up to the busiest
 *             link's level, and the relay's pieces then come as late as the bottleneck's own bytes and go on
 *             after it; weighed, the first legs stay lighter (8x8 hot receivers in one line: 433 against 783
 *             us of W^, the busiest link 782.94 us, the cut round the line, against 797.79; run 1.18 against
 *             1.27 x that cut; docs/performance.md, "Session 25: balanced on 8x8 hot receivers"). Elsewhere the
 *             first plan stands (measured:
 *             on 4x4 the weighed plans ran up to 1.19 x slower at the same busiest link, and on 4x4x4 hot
 *             receivers, first legs at 0.85 x the busiest link, 1.06 x slower with a busiest link 1.6% lower).
 *             Cost: up to twice the diameter's plans, each (2 + 1) Q n^2 candidates (the second (4 + 1) Q n^2)
 *             of which those with k within d are walked (each a walk of its route's links): O(n^3 diameter^2)
 *             time at most; the second plan made on 8x8 hot receivers only of the bench's demands there, 2.6 x
 *             the first plan's CPU alone (bench/mpi/mpi_balanced_plan.c, docs/performance.md, "Session 25: balanced
 *             on 8x8 hot receivers"); made
 *             only for totals seen on two calls in a row (alltoallv.c: a repeating pattern; totals that
 *             change every call never plan), then cached while the rows and columns stay the same (a call
 *             with the plan's totals plans nothing; totex_mpi_v_balanced_plans() counts the plans made).
 *             Memory: the plan, n^2 Q bytes of relays (n <= 64: at most 16 KiB; three while
 *             planning), the loads of the 2 D n links, the route table while
 *             planning (n^2 (diameter + 1) uint16): O(n^2), not the O(n) of the other forms.
 * Optimality: none claimed. Its busiest link on the bench's seeded Zipf and hot-spot demands is counted
 *             against the fluid LP optimum by bench/smpi/alltoallv_linkload.py; it is worse than relay on
 *             random demands, whose estimate is uniform (the choice considers it only where a column is over
 *             twice the mean); what it loses when run (two legs, chains, shared links) is measured in
 *             docs/performance.md ("Routes planned on an estimate of the demand").
 *
 * What a rank knows: its row and column of W and the last call's row and column totals of every rank. A relay
 * learns its pieces' lengths from the message before them. Planning: the plans above, once per change of the
 * totals.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "totex/network.h"

/* tags on the private duplicate (free between the unit executor's and relay's): the lengths and the pieces up to
   a relay, a straight piece (+ piece), a piece from a relay (+ source * Q + piece) */
#define BAL_TAG_HDR 30100
#define BAL_TAG_DIRECT 30102
#define BAL_TAG_DOWN 30110
#define BAL_TAG_UP (BAL_TAG_DOWN + BAL_MAX_NODES * BAL_Q)
#ifndef BAL_Q
#define BAL_Q 4
#endif
#define BAL_MAX_NODES 64
#ifndef BAL_PASSES
#define BAL_PASSES 2 /* the greedy's passes of taking each piece off and putting it back */
#endif
#ifndef BAL_STAGGER_ALL
#define BAL_STAGGER_ALL 0 /* the straight pieces in the rounds too (1) */
#endif
#ifndef BAL_CHAIN
#define BAL_CHAIN 1 /* a node's relayed pieces up one after another per relay (1), else in rounds */
#endif
#ifndef BAL_NEAR
#define BAL_NEAR 1 /* the first distance tried for relays from the destination (the diameter or more: any node) */
#endif
#ifndef BAL_NEAR_SLACK
#define BAL_NEAR_SLACK 0.001 /* relays nearer while the busiest link stays at most this fraction above anywhere's */
#endif
#ifndef BAL_UP_WEIGHT
#define BAL_UP_WEIGHT 0.3 /* the second plan: a relay's first leg's links weighed (1 + this) x their load */
#endif
#ifndef BAL_UP_PASSES
#define BAL_UP_PASSES 4 /* the second plan's passes */
#endif
#ifndef BAL_UP_SATURATED
#define BAL_UP_SATURATED 0.95 /* the second plan made where the first's first legs load a link to this x its busiest */
#endif
#ifndef BAL_STAGGER
#define BAL_STAGGER 1 /* a node's relayed pieces up in rounds of this many pieces (0: all at once) */
#endif
_Static_assert(BAL_TAG_DIRECT + BAL_Q <= BAL_TAG_DOWN && BAL_TAG_UP + BAL_MAX_NODES * BAL_Q < 32700,
               "balanced's tags stay below direct's (relay's and routed's messages are all done before a call returns)");

int totex_mpi_v_balanced_applies(const totex_network *net)
{
    if (!net || totex_network_nodes(net) > BAL_MAX_NODES || totex_network_nodes(net) < 2)
        return 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor_kind kd = totex_factor_get_kind(totex_network_factor(net, i));
        if (kd != TOTEX_FACTOR_RING && kd != TOTEX_FACTOR_K2)
            return 0;
    }
    return 1;
}

/* the cached plan: the figures it was made from and via[(i n + j) Q + q], the node piece q of block (i, j) goes
   through (j: straight) */
static struct {
    const totex_network *net;
    uint32_t n;
    uint64_t *rows, *cols;
    uint8_t *via;
    double busiest; /* bytes of W^ on the plan's busiest link */
    double seconds; /* CPU seconds of the last planning */
    uint32_t chain; /* the most pieces one node sends up through one relay */
    unsigned long made; /* plans made in this process */
    uint32_t near;  /* the farthest a relay is from its destination (links) */
} plan;

unsigned long totex_mpi_v_balanced_plans(void) { return plan.made; }

int totex_mpi_v_balanced_cached(const totex_network *net, const uint64_t *rows, const uint64_t *cols)
{
    const uint32_t n = net ? totex_network_nodes(net) : 0;
    return net && plan.net == net && plan.n == n && plan.rows && rows && cols &&
           !memcmp(plan.rows, rows, n * sizeof *rows) && !memcmp(plan.cols, cols, n * sizeof *cols);
}

/* the directed links of SimGrid's route s -> t appended to @p out (link id (v D + dim) 2 + (+ way)); their count */
static int route(const totex_network *net, const uint32_t *order, uint32_t s, uint32_t t, uint16_t *out)
{
    const uint32_t D = totex_network_dims(net);
    int len = 0;
    uint32_t cur = s;
    for (uint32_t x = 0; x < D; x++) {
        const uint32_t d = order[x], k = totex_factor_nodes(totex_network_factor(net, d));
        const uint32_t sc = totex_network_coord(net, s, d), tc = totex_network_coord(net, t, d);
        const uint32_t stride = totex_network_stride(net, d);
        if (sc == tc)
            continue;
        const int plus = (tc > sc && tc <= sc + k / 2) || (sc > k / 2 && (sc + k / 2) % k >= tc);
        for (uint32_t c = sc; c != tc;) {
            out[len++] = (uint16_t)(((cur * D + d) << 1) | (plus ? 1u : 0u));
            const uint32_t nc = plus ? (c + 1) % k : (c + k - 1) % k;
            cur = cur - c * stride + nc * stride;
            c = nc;
        }
    }
    return len;
}

typedef struct pair {
    double w;
    uint32_t i, j;
} pair;

static int by_weight(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* the greedy on the sorted pieces @p p (W^'s blocks) with relays at most @p near links from the destination: the
   ways into @p via, the links' bytes into @p load (2 D n, zeroed here); the busiest link's bytes */
static double greedy(uint32_t n, uint32_t D, size_t L, const uint16_t *rt, const pair *p, size_t np, int near,
                     double up_weight, int passes, uint8_t *via, double *load)
{
    const size_t N = n;
    memset(load, 0, 2 * (size_t)D * N * sizeof *load);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            for (int q = 0; q < BAL_Q; q++)
                via[((size_t)i * N + j) * BAL_Q + q] = (uint8_t)j;
    for (int pass = 0; pass <= passes; pass++)
        for (int q = 0; q < BAL_Q; q++)
            for (size_t x = 0; x < np && p[x].w > 0; x++) {
                const uint32_t i = p[x].i, j = p[x].j;
                const double w = p[x].w / BAL_Q;
                uint8_t *v = &via[((size_t)i * N + j) * BAL_Q + q];
                if (pass) { /* (taken off its way first) */
                    const uint16_t *a = rt + ((size_t)i * N + *v) * L, *b = rt + ((size_t)*v * N + j) * L;
                    for (int e = 1; e <= a[0]; e++)
                        load[a[e]] -= w;
                    if (*v != j)
                        for (int e = 1; e <= b[0]; e++)
                            load[b[e]] -= w;
                }
                /* the direct route, then any relay k whose two legs leave a lower busiest link, or the same
                   on fewer links (the lower k on a tie) */
                uint32_t best = j;
                double bmax = 0, blen = 0;
                for (uint32_t y = 0; y <= n; y++) {
                    const uint32_t k = y == 0 ? j : y - 1;
                    if (k == i || (y > 0 && k == j))
                        continue;
                    if (y > 0 && rt[((size_t)k * N + j) * L] > near)
                        continue; /* (a relay too far from the destination) */
                    const uint16_t *a = rt + ((size_t)i * N + k) * L, *b = rt + ((size_t)k * N + j) * L;
                    double mx = 0;
                    const double up = k != j ? 1 + up_weight : 1;
                    for (int e = 1; e <= a[0]; e++)
                        if (load[a[e]] * up > mx)
                            mx = load[a[e]] * up;
                    if (k != j)
                        for (int e = 1; e <= b[0]; e++)
                            if (load[b[e]] > mx)
                                mx = load[b[e]];
                    const double len = a[0] + (k != j ? b[0] : 0);
                    if (y == 0 || mx < bmax || (mx == bmax && len < blen))
                        best = k, bmax = mx, blen = len;
                }
                *v = (uint8_t)best;
                const uint16_t *a = rt + ((size_t)i * N + best) * L, *b = rt + ((size_t)best * N + j) * L;
                for (int e = 1; e <= a[0]; e++)
                    load[a[e]] += w;
                if (best != j)
                    for (int e = 1; e <= b[0]; e++)
                        load[b[e]] += w;
            }
    double busiest = 0;
    for (size_t e = 0; e < 2 * (size_t)D * N; e++)
        if (load[e] > busiest)
            busiest = load[e];
    return busiest;
}

/* the plan with relays as near the destination as leaves the busiest link within BAL_NEAR_SLACK of relays
   anywhere (the greedy with relays anywhere, then at most 1, 2, ... links from the destination until one is),
   into *@p via (*@p spare: a second buffer, the two swapped where relays anywhere are kept); the farthest
   relay's distance into *@p near; its busiest link's bytes */
static double near_plan(uint32_t n, uint32_t D, size_t L, const uint16_t *rt, const pair *p, size_t np,
                        uint32_t diam, double up_weight, int passes, uint8_t **via, uint8_t **spare, double *load,
                        uint32_t *near)
{
    const double b_any = greedy(n, D, L, rt, p, np, (int)diam, up_weight, passes, *spare, load);
    for (uint32_t d = BAL_NEAR; d < diam; d++) {
        const double b = greedy(n, D, L, rt, p, np, (int)d, up_weight, passes, *via, load);
        if (b <= b_any * (1 + BAL_NEAR_SLACK)) {
            *near = d;
            return b;
        }
    }
    uint8_t *t = *via;
    *via = *spare, *spare = t;
    *near = diam;
    return b_any;
}

/* the plan for rows and columns @p rows, @p cols (NULL: all equal); 0, or -1 (no memory) */
static int make_plan(const totex_network *net, const uint64_t *rows, const uint64_t *cols)
{
    const uint32_t n = totex_network_nodes(net), D = totex_network_dims(net);
    if (totex_mpi_v_balanced_cached(net, rows, cols))
        return 0;
    const double t0 = MPI_Wtime();
    free(plan.rows);
    free(plan.via);
    plan.rows = plan.cols = NULL;
    plan.via = NULL;
    plan.net = NULL;
    uint32_t order[TOTEX_MAX_DIMS];
    for (uint32_t d = 0; d < D; d++)
        order[d] = d;
    for (uint32_t a = 0; a < D; a++) /* (by stride: SimGrid's dimension 0 is the factor of stride 1) */
        for (uint32_t b = a + 1; b < D; b++)
            if (totex_network_stride(net, order[b]) < totex_network_stride(net, order[a])) {
                const uint32_t t = order[a];
                order[a] = order[b];
                order[b] = t;
            }
    uint32_t diam = 0;
    for (uint32_t d = 0; d < D; d++)
        diam += totex_factor_nodes(totex_network_factor(net, d)) / 2;
    const size_t L = (size_t)diam + 1, N = n;
    uint16_t *rt = malloc(N * N * L * sizeof *rt);
    uint8_t *via = malloc(N * N * BAL_Q);
    double *load = calloc(2 * (size_t)D * N, sizeof *load);
    pair *p = malloc(N * N * sizeof *p);
    uint64_t *rc = malloc(2 * N * sizeof *rc);
    if (!rt || !via || !load || !p || !rc) {
        free(rt), free(via), free(load), free(p), free(rc);
        return -1;
    }
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t t = 0; t < n; t++) {
            uint16_t *r = rt + ((size_t)s * N + t) * L;
            r[0] = (uint16_t)route(net, order, s, t, r + 1);
        }
    double T = 0;
    for (uint32_t i = 0; i < n; i++) {
        rc[i] = rows ? rows[i] : 1;
        rc[n + i] = cols ? cols[i] : 1;
        T += (double)rc[i];
    }
    size_t np = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            if (i != j && T > 0)
                p[np++] = (pair){(double)rc[i] * (double)rc[n + j] / T, i, j};
        }
    qsort(p, np, sizeof *p, by_weight);
    /* two plans, each with relays as near the destination as leaves its busiest link within BAL_NEAR_SLACK of
       relays anywhere: the first with every link at its load; where its first legs load a link
       to BAL_UP_SATURATED of its busiest link or more, the second with a relay's first leg's links weighed
       1 + BAL_UP_WEIGHT x their load and BAL_UP_PASSES passes, kept where its busiest link is lower by more
       than BAL_NEAR_SLACK */
    uint8_t *two = malloc(N * N * BAL_Q), *spare = malloc(N * N * BAL_Q);
    if (!two || !spare) {
        free(rt), free(via), free(load), free(p), free(rc), free(two), free(spare);
        return -1;
    }
    uint32_t near = 0, near2 = 0;
    double busiest = near_plan(n, D, L, rt, p, np, diam, 0, BAL_PASSES, &via, &spare, load, &near);
    double up = 0; /* the first plan's busiest link of first legs (W^'s bytes relayed up, on load) */
    memset(load, 0, 2 * (size_t)D * N * sizeof *load);
    for (size_t x = 0; x < np; x++)
        for (int q = 0; q < BAL_Q; q++) {
            const uint32_t i = p[x].i, j = p[x].j, k = via[((size_t)i * N + j) * BAL_Q + q];
            const uint16_t *a = rt + ((size_t)i * N + k) * L;
            for (int e = 1; k != j && e <= a[0]; e++)
                if ((load[a[e]] += p[x].w / BAL_Q) > up)
                    up = load[a[e]];
        }
    const double b2 = up >= BAL_UP_SATURATED * busiest
                          ? near_plan(n, D, L, rt, p, np, diam, BAL_UP_WEIGHT, BAL_UP_PASSES, &two, &spare, load, &near2)
                          : busiest;
    if (b2 < busiest * (1 - BAL_NEAR_SLACK)) {
        uint8_t *t = via;
        via = two, two = t;
        busiest = b2, near = near2;
    }
    free(two);
    free(spare);
    /* the longest chain: the most pieces one node sends up through one relay (sent one after another) */
    uint32_t chain = 0;
    uint32_t *cnt = calloc(N, sizeof *cnt);
    for (uint32_t i = 0; cnt && i < n; i++) {
        memset(cnt, 0, N * sizeof *cnt);
        for (uint32_t j = 0; j < n; j++)
            for (int q = 0; q < BAL_Q; q++) {
                const uint32_t k = via[((size_t)i * N + j) * BAL_Q + q];
                if (i != j && k != j && ++cnt[k] > chain)
                    chain = cnt[k];
            }
    }
    free(cnt);
    plan.chain = chain;
    plan.near = near;
#ifdef BAL_DEBUG
    fprintf(stderr, "plan n %u near %u busiest %.1f any %.1f chain %u\n", n, near, busiest, b_any, chain);
#endif
    free(rt), free(load), free(p);
    plan.net = net;
    plan.n = n;
    plan.rows = rc;
    plan.cols = rc + n;
    plan.via = via;
    plan.busiest = busiest;
    plan.seconds = MPI_Wtime() - t0;
    plan.made++;
    return 0;
}

double totex_mpi_v_balanced_predict(const totex_network *net, const uint64_t *rows, const uint64_t *cols,
                                    double *plan_seconds, uint32_t *chain)
{
    if (!totex_mpi_v_balanced_applies(net) || make_plan(net, rows, cols))
        return -1;
    if (plan_seconds)
        *plan_seconds = plan.seconds;
    if (chain)
        *chain = BAL_CHAIN ? plan.chain : BAL_STAGGER ? (BAL_Q + BAL_STAGGER - 1) / BAL_STAGGER : 1;
    return plan.busiest;
}

/* the start of piece q of a block of P bytes whose first @p h bytes stay in piece 0 */
static uint64_t cut(uint64_t P, uint64_t h, int q)
{
    if (q == 0)
        return 0;
    if (q >= BAL_Q || P < h)
        return P;
    return h + (P - h) * (uint64_t)q / BAL_Q;
}

typedef struct upm { /* the pieces this node relays from one source */
    uint32_t src, cnt;
    uint64_t *len; /* cnt lengths (the lengths message) */
    uint32_t *dst; /* cnt (destination Q + piece), in the lengths' order */
    char *buf;     /* the pieces */
} upm;

#define OWN_SEND (UINT64_C(1) << 63)

/* this node's pieces @p q of every block relayed, each to its relay (tag by destination and piece), their
   requests appended to *@p ureq (owner OWN_SEND), their number added to *@p left; MPI code */
static int post_up(int q, const uint8_t *via, uint32_t n, uint32_t me, const char *psend, const uint64_t *soff,
                   uint64_t h, MPI_Comm dup, MPI_Request **ureq, uint64_t **uown, size_t *nuq, size_t *ucap,
                   size_t *left)
{
    const size_t N = n;
    int rc = MPI_SUCCESS;
    for (uint32_t j = 0; j < n && rc == MPI_SUCCESS; j++) {
        const uint32_t k = via[((size_t)me * N + j) * BAL_Q + q];
        if (j == me || (k == j && !BAL_STAGGER_ALL))
            continue;
        const uint64_t P = soff[j + 1] - soff[j], a = cut(P, h, q), b = cut(P, h, q + 1);
        uint64_t *o;
        if (totex_mpi_more_requests(ureq, *nuq, ucap) || !(o = realloc(*uown, *ucap * sizeof *o)))
            return MPI_ERR_NO_MEM;
        *uown = o;
        o[*nuq] = OWN_SEND;
        rc = MPI_Isend(psend + soff[j] + a, (int)(b - a), MPI_BYTE, (int)k,
                       k == j ? BAL_TAG_DIRECT + q : BAL_TAG_UP + (int)j * BAL_Q + q, dup, &(*ureq)[(*nuq)++]);
        ++*left;
    }
    return rc;
}

/* BAL_CHAIN: this node's next piece relayed through @p k after cursor *@p cur (q n + j: by piece, then
   destination), posted with owner OWN_SEND | k; *@p posted 1 when one was; MPI code */
static int post_next(uint32_t k, uint32_t *cur, const uint8_t *via, uint32_t n, uint32_t me, const char *psend,
                     const uint64_t *soff, uint64_t h, MPI_Comm dup, MPI_Request **ureq, uint64_t **uown,
                     size_t *nuq, size_t *ucap, int *posted)
{
    const size_t N = n;
    *posted = 0;
    for (; *cur < (uint32_t)BAL_Q * n; ++*cur) {
        const uint32_t q = *cur / n, j = *cur % n;
        if (j == me || j == k || via[((size_t)me * N + j) * BAL_Q + q] != k)
            continue;
        const uint64_t P = soff[j + 1] - soff[j], a = cut(P, h, (int)q), b = cut(P, h, (int)q + 1);
        uint64_t *o;
        if (totex_mpi_more_requests(ureq, *nuq, ucap) || !(o = realloc(*uown, *ucap * sizeof *o)))
            return MPI_ERR_NO_MEM;
        *uown = o;
        o[*nuq] = OWN_SEND | k;
        ++*cur;
        *posted = 1;
        return MPI_Isend(psend + soff[j] + a, (int)(b - a), MPI_BYTE, (int)k, BAL_TAG_UP + (int)(j * BAL_Q + q), dup,
                         &(*ureq)[(*nuq)++]);
    }
    return MPI_SUCCESS;
}

int totex_mpi_v_balanced(const totex_network *net, const uint64_t *rows, const uint64_t *cols, const char *psend,
                         const uint64_t *soff, char *precv, const uint64_t *roff, uint64_t h, unsigned char *hdr_ok,
                         int *local, MPI_Comm dup, int node)
{
    const uint32_t n = totex_network_nodes(net), me = (uint32_t)node;
    const size_t N = n;
    *local = MPI_SUCCESS;
    if (!totex_mpi_v_balanced_applies(net))
        return MPI_ERR_INTERN;
    if (make_plan(net, rows, cols))
        return MPI_ERR_NO_MEM;
    const uint8_t *via = plan.via;
#define VIA(i, j, q) via[((size_t)(i) * N + (j)) * BAL_Q + (q)]
    MPI_Request *req = NULL, *ureq = NULL;
    MPI_Status *stat = NULL;
    size_t cap = 0, nr = 0, ucap = 0, nuq = 0;
    uint64_t *uown = NULL; /* per relay request: source << 32 | piece index + 1 (0: the lengths) */
    upm *ups = calloc(N, sizeof *ups);
    uint32_t *rnode = malloc((N * BAL_Q + 1) * sizeof *rnode);
    uint64_t *rexp = malloc((N * BAL_Q + 1) * sizeof *rexp);
    unsigned char *rhdr = malloc(N * BAL_Q + 1);
    uint64_t *slen = malloc((N * BAL_Q + 1) * sizeof *slen);
    int rc = ups && rnode && rexp && rhdr && slen ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (uint32_t t = 0; t < n; t++)
        hdr_ok[t] = t == me;
    memcpy(precv + roff[me], psend + soff[me], roff[me + 1] - roff[me]);
    /* as a relay: the lengths message of every source that sends pieces through this node */
    size_t pending = 0;
    for (uint32_t s = 0; rc == MPI_SUCCESS && s < n; s++) {
        if (s == me)
            continue;
        uint32_t c = 0;
        for (uint32_t j = 0; j < n; j++)
            for (int q = 0; q < BAL_Q; q++)
                c += j != s && j != me && VIA(s, j, q) == me;
        ups[s].src = s;
        ups[s].cnt = c;
        if (!c)
            continue;
        ups[s].len = malloc(c * sizeof(uint64_t));
        ups[s].dst = malloc(c * sizeof(uint32_t));
        if (!ups[s].len || !ups[s].dst || totex_mpi_more_requests(&ureq, nuq, &ucap) || !(uown = realloc(uown, ucap * sizeof *uown))) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        c = 0;
        for (uint32_t j = 0; j < n; j++)
            for (int q = 0; q < BAL_Q; q++)
                if (j != s && j != me && VIA(s, j, q) == me)
                    ups[s].dst[c++] = j * BAL_Q + (uint32_t)q;
        uown[nuq] = (uint64_t)s << 32;
        pending++;
        rc = MPI_Irecv(ups[s].len, (int)(c * sizeof(uint64_t)), MPI_BYTE, (int)s, BAL_TAG_HDR, dup, &ureq[nuq++]);
    }
    /* as a destination: every piece with its exact length, straight or from its relay */
    for (uint32_t s = 0; rc == MPI_SUCCESS && s < n; s++) {
        if (s == me)
            continue;
        const uint64_t P = roff[s + 1] - roff[s];
        for (int q = 0; q < BAL_Q && rc == MPI_SUCCESS; q++) {
            const uint64_t a = cut(P, h, q), b = cut(P, h, q + 1);
            const uint32_t k = VIA(s, me, q);
            if (totex_mpi_more_requests(&req, nr, &cap)) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            rnode[nr] = s, rexp[nr] = b - a, rhdr[nr] = q == 0;
            rc = k == me ? MPI_Irecv(precv + roff[s] + a, (int)(b - a), MPI_BYTE, (int)s, BAL_TAG_DIRECT + q, dup,
                                     &req[nr])
                         : MPI_Irecv(precv + roff[s] + a, (int)(b - a), MPI_BYTE, (int)k,
                                     BAL_TAG_DOWN + (int)s * BAL_Q + q, dup, &req[nr]);
            nr++;
        }
    }
    const size_t nrecv = nr;
    /* as a source: to each relay its lengths, then each piece (tag by destination and piece); then the straight
       pieces */
    uint64_t *w = slen;
    for (uint32_t k = 0; rc == MPI_SUCCESS && k < n; k++) {
        if (k == me)
            continue;
        uint64_t *lens = w;
        for (uint32_t j = 0; j < n; j++) /* (the lengths, by destination then piece) */
            for (int q = 0; q < BAL_Q; q++)
                if (j != me && j != k && VIA(me, j, q) == k) {
                    const uint64_t P = soff[j + 1] - soff[j];
                    *w++ = cut(P, h, q + 1) - cut(P, h, q);
                }
        if (w == lens)
            continue;
        if (totex_mpi_more_requests(&req, nr, &cap)) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        rc = MPI_Isend(lens, (int)((size_t)(w - lens) * sizeof *w), MPI_BYTE, (int)k, BAL_TAG_HDR, dup, &req[nr++]);
    }
    /* the pieces up to the relays: piece 0 of every block now, piece q + 1 once every piece q has gone (with
       BAL_STAGGER; else all now): a relay's first pieces come early and go on while the next ones come */
    int rnd = 0;
    size_t left = 0;
    uint32_t *chain = BAL_CHAIN ? calloc(N, sizeof *chain) : NULL;
    if (BAL_CHAIN && !chain)
        rc = MPI_ERR_NO_MEM;
    for (uint32_t k = 0; BAL_CHAIN && rc == MPI_SUCCESS && k < n; k++) {
        int posted = 0;
        if (k != me)
            rc = post_next(k, &chain[k], via, n, me, psend, soff, h, dup, &ureq, &uown, &nuq, &ucap, &posted);
        pending += (size_t)posted;
    }
    while (!BAL_CHAIN && rc == MPI_SUCCESS && !left && rnd < BAL_Q) {
        rc = post_up(rnd++, via, n, me, psend, soff, h, dup, &ureq, &uown, &nuq, &ucap, &left);
        for (; rc == MPI_SUCCESS && (!BAL_STAGGER || rnd % BAL_STAGGER) && rnd < BAL_Q; rnd++)
            rc = post_up(rnd, via, n, me, psend, soff, h, dup, &ureq, &uown, &nuq, &ucap, &left);
    }
    pending += left;
    for (uint32_t j = 0; rc == MPI_SUCCESS && j < n; j++) {
        if (j == me)
            continue;
        const uint64_t P = soff[j + 1] - soff[j];
        for (int q = 0; q < BAL_Q && rc == MPI_SUCCESS && !BAL_STAGGER_ALL; q++)
            if (VIA(me, j, q) == j) {
                const uint64_t a = cut(P, h, q), b = cut(P, h, q + 1);
                if (totex_mpi_more_requests(&req, nr, &cap)) {
                    rc = MPI_ERR_NO_MEM;
                    break;
                }
                rc = MPI_Isend(psend + soff[j] + a, (int)(b - a), MPI_BYTE, (int)j, BAL_TAG_DIRECT + q, dup,
                               &req[nr++]);
            }
    }
    /* as a relay: a source's pieces received once its lengths came, each sent on as soon as it came */
    for (; rc == MPI_SUCCESS && pending; pending--) {
        int idx = MPI_UNDEFINED;
        MPI_Status st;
        if ((rc = MPI_Waitany((int)nuq, ureq, &idx, &st)) != MPI_SUCCESS)
            break;
        if (idx == MPI_UNDEFINED) {
            rc = MPI_ERR_INTERN;
            break;
        }
        if (BAL_CHAIN && (uown[idx] & OWN_SEND)) { /* the next piece to that relay */
            int posted = 0;
            rc = post_next((uint32_t)uown[idx], &chain[(uint32_t)uown[idx]], via, n, me, psend, soff, h, dup, &ureq,
                           &uown, &nuq, &ucap, &posted);
            pending += (size_t)posted;
            continue;
        }
        if (uown[idx] & OWN_SEND) { /* one of this node's pieces up: the next round when the last has gone */
            if (--left)
                continue;
            while (rc == MPI_SUCCESS && !left && rnd < BAL_Q) {
                rc = post_up(rnd++, via, n, me, psend, soff, h, dup, &ureq, &uown, &nuq, &ucap, &left);
                for (; rc == MPI_SUCCESS && rnd % BAL_STAGGER && rnd < BAL_Q; rnd++)
                    rc = post_up(rnd, via, n, me, psend, soff, h, dup, &ureq, &uown, &nuq, &ucap, &left);
            }
            pending += left;
            continue;
        }
        upm *u = &ups[uown[idx] >> 32];
        const uint32_t x = (uint32_t)uown[idx];
        int got = 0;
        MPI_Get_count(&st, MPI_BYTE, &got);
        if (x == 0) { /* its lengths: a receive for each of its pieces */
            uint64_t total = 0;
            for (uint32_t y = 0; y < u->cnt; y++)
                total += u->len[y];
            if ((size_t)got != u->cnt * sizeof(uint64_t) || total > SIZE_MAX / 2) {
                rc = MPI_ERR_TRUNCATE; /* (not a message of this call) */
                break;
            }
            for (uint32_t y = 0; y < u->cnt; y++)
                if (u->len[y] > INT_MAX)
                    rc = MPI_ERR_TRUNCATE;
            if (rc != MPI_SUCCESS)
                break;
            if (!(u->buf = malloc(total ? total : 1))) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            char *p = u->buf;
            for (uint32_t y = 0; y < u->cnt && rc == MPI_SUCCESS; y++) {
                if (totex_mpi_more_requests(&ureq, nuq, &ucap) || !(uown = realloc(uown, ucap * sizeof *uown))) {
                    rc = MPI_ERR_NO_MEM;
                    break;
                }
                uown[nuq] = (uint64_t)u->src << 32 | (y + 1);
                pending++;
                rc = MPI_Irecv(p, (int)u->len[y], MPI_BYTE, (int)u->src, BAL_TAG_UP + (int)u->dst[y], dup,
                               &ureq[nuq++]);
                p += u->len[y];
            }
            continue;
        }
        /* piece x - 1 of its pieces: on to its destination */
        const uint32_t y = x - 1, j = u->dst[y] / BAL_Q, q = u->dst[y] % BAL_Q;
        if ((uint64_t)got != u->len[y]) {
            rc = MPI_ERR_TRUNCATE;
            break;
        }
        uint64_t at = 0;
        for (uint32_t z = 0; z < y; z++)
            at += u->len[z];
        if (totex_mpi_more_requests(&req, nr, &cap)) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        rc = MPI_Isend(u->buf + at, (int)u->len[y], MPI_BYTE, (int)j, BAL_TAG_DOWN + (int)u->src * BAL_Q + (int)q,
                       dup, &req[nr++]);
    }
    if (rc == MPI_SUCCESS && !(stat = malloc((nr + 1) * sizeof *stat)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        rc = totex_mpi_wait_fold(nr, req, stat, nrecv, rhdr, rnode, rexp, h, 1, hdr_ok, local);
    } else {
        for (size_t q = 0; ureq && q < nuq; q++) /* (the receives cancelled, this node's sends waited for) */
            if (ureq[q] != MPI_REQUEST_NULL && (uown[q] & OWN_SEND))
                MPI_Wait(&ureq[q], MPI_STATUS_IGNORE);
            else if (ureq[q] != MPI_REQUEST_NULL) {
                MPI_Cancel(&ureq[q]);
                MPI_Request_free(&ureq[q]);
            }
        totex_mpi_cancel_requests(req, nrecv < nr ? nrecv : nr);
        if (nr > nrecv)
            MPI_Waitall((int)(nr - nrecv), req + nrecv, MPI_STATUSES_IGNORE);
    }
#undef VIA
    for (size_t s = 0; ups && s < N; s++) {
        free(ups[s].len);
        free(ups[s].dst);
        free(ups[s].buf);
    }
    free(ups);
    free(chain);
    free(ureq);
    free(uown);
    free(stat);
    free(slen);
    free(req);
    free(rhdr);
    free(rexp);
    free(rnode);
    return rc;
}
