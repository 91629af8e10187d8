/*
 * Suh, Shin & Yalamanchili (002), "Complete Exchange in General
 * Multidimensional Mesh Networks": the 3-phase algorithm on R x C meshes
 * (Section 3) and the (n+1)-phase algorithm on a_1 x ... x a_n meshes
 * (Section 4), as a message-combining schedule (include/totex/combining.h).
 *
 * Groups (002 Section 3.1): a node's group is the vector of the parities of
 * its coordinates; a group forms an a_1/2 x ... x a_n/2 submesh.
 *
 * Phases 1..n (002 Sections 3.2-3.3): in phase k (0-based) a node of group p
 * sends to the next node of its group along dimension D = L[(k + |p|) mod n],
 * where |p| is the number of odd coordinates and L lists the dimensions from
 * the last to the first. In 2-D (dimension 0 = row index r, size R;
 * dimension 1 = column index c, size C) this is exactly 002's pattern: EE and
 * OO (|p| even) send to P(r, c+2 mod C) in phase 1 and to P(r+2 mod R, c) in
 * phase 2; EO and OE the other way round. Two nodes on one line along D that
 * are in different groups differ in the parity of D only, so |p| differs by
 * one and they never use D in the same phase: no contention (the simulator
 * checks it). Each group uses each dimension in exactly one phase.
 *
 * Blocks: block (s, d) travels in s's group to the node h of s's group in
 * d's 2 x ... x 2 submesh, h_i = 2 floor(d_i / 2) + (s_i mod 2); in the phase
 * that uses dimension D it rides the logical ring (coordinate + 2, wrapping
 * from the last node of the group to the first) until its coordinate D equals
 * h_D. A node forwards, in each step, every block it holds that has not
 * reached its target coordinate: in step i of a phase that is what arrived
 * from the (i-1)-th predecessor, (a_D - 2i) a_1...a_n / a_D blocks, as in
 * 002 Section 3.3 ("extracts blocks to be transmitted by itself in phases 2
 * and 3, then transmits the remaining blocks").
 *
 * Phase n+1 (002 Section 3.2 phase 3, Section 4): n steps; in step j nodes
 * exchange, across dimension L[j], with their partner in the 2 x ... x 2
 * submesh, the blocks whose destination differs from them in that
 * coordinate: a_1...a_n / 2 blocks. Erratum: 002 phase 3 step 2 reads "EE or
 * OE transmit to P(r+1, c)", which would leave the 2 x 2 submesh for OE (r
 * odd); the pairing that its text describes (and that is implemented) is EE
 * and EO to P(r+1, c), OE and OO to P(r-1, c).
 *
 * Rearrangement: 002 counts one rearrangement of all a_1...a_n blocks per node
 * before each phase after the first (Section 3.4(c): 2 R C m rho; Section 4:
 * n a_1...a_n m rho). Declared on the first step after each phase boundary
 * (for sides of 2 the first phases are empty and the declarations accumulate
 * on the first step of phase n+1; the count of 002 is kept).
 *
 * ODD SIDES (beyond 002, which needs every side even; Table 1). Let q be the
 * number of odd sides, e_i = a_i - (a_i mod 2) the even part of side i, o_i =
 * a_i mod 2, N = a_1...a_n, and E the even e_1 x ... x e_n submesh of the
 * nodes with coordinate i < e_i. The extra line at coordinate a_i - 1 of an
 * odd side is merged into its neighbour line a_i - 2 (= e_i - 1):
 *   pre-phase: q steps, one per odd dimension D in increasing order: every
 *     node with coordinate D = a_D - 1 sends everything it holds (and is not
 *     for itself) one hop to coordinate a_D - 2. Afterwards only nodes of E
 *     hold undelivered blocks; node h of E stands for the 2^(number of i with
 *     o_i = 1 and h_i = e_i - 1) real nodes it absorbed.
 *   phases 1..n+1: the even algorithm above on E, every block (s, d) routed
 *     to the clamped destination c(d) (c(d)_i = min(d_i, e_i - 1)), group =
 *     parity of the holder; phases 1..n have e_max/2 - 1 steps each.
 *   post-phase: q steps, one per odd dimension D in decreasing order: every
 *     node with coordinate D = a_D - 2 sends the blocks for coordinate
 *     D = a_D - 1 one hop forward.
 * All pre/post transfers are one hop along D on distinct lines: contention-
 * free and one-port. Costs (the simulator measures exactly these; tests/
 * test_ssy.c recomputes them from these formulas):
 *   start-ups  = n (e_max/2 - 1) + n + 2q
 *   rearranged = n 2^q N   (before phases 2..n+1 a node of E rearranges the
 *                blocks of the <= 2^q real nodes it stands for; the pre/post
 *                steps forward whole buffers and declare none)
 *   blocks     = 2 sum_{t=0}^{q-1} (2^t (N-1) - t 2^(t-1))          [pre+post]
 *              + sum_{k=0}^{n-1} sum_{i=1}^{e_max/2-1} max_p prod_j F_j(p,k,i)
 *              + sum_{j=0}^{n-1} prod_{dims x} G_x(j)
 *   where (largest transfer of each step; with all o_i = 0 this is Table 1):
 *   pre step t (t-th odd dimension): the node absorbing 2^t real nodes sends
 *     their 2^t (N-1) blocks less the t 2^(t-1) already delivered on the way
 *     (post step with t smaller odd dimensions left: the same by symmetry);
 *   core phase k, step i, group p in {0,1}^n: D = n-1-((k+|p|) mod n), P =
 *     the dimensions the group used in phases 0..k-1; F_j = (e_j/2 + o_j p_j)
 *     (2 + o_j) for j in P; (1 + o_j p_j) a_j for j not in P, j != D; and for
 *     j = D: 0 if i > e_D/2 - 1, else 2(e_D - 2i) if o_D p_D, e_D - 2i + 1 if
 *     o_D and not p_D, a_D - 2i if a_D is even;
 *   phase n+1 step j (across dimension D = n-1-j; dimensions x > D already
 *     exchanged): G_x = a_x (1 + o_x) for x > D; max(e_D/2 + o_D,
 *     (e_D/2)(1 + o_D)) for x = D; (e_x/2 + o_x)(2 + o_x) for x < D.
 * Overhead vs the next even mesh (every odd a_i -> a_i + 1; measured and
 * printed by tests/test_ssy.c, start-ups / blocks / rearranged):
 *   3x3     6 /   70 /   72   vs 4x4      4 /  32 /   32  (blocks x2.19)
 *   5x5     8 /  294 /  200   vs 6x6      6 / 108 /   72  (x2.72)
 *   7x7    10 /  754 /  392   vs 8x8      8 / 256 /  128  (x2.95)
 *   5x8    10 /  374 /  160   vs 6x8      8 / 192 /   96  (x1.95)
 *   9x2    10 /  161 /   72   vs 10x2    10 / 100 /   40  (x1.61)
 *   3x3x3   9 /  570 /  648   vs 4x4x4    6 / 192 /  192  (x2.97)
 *   5x4x3  10 /  952 /  720   vs 6x4x4    9 / 432 /  288  (x2.20)
 *   3^4    12 / 4094 / 5184   vs 4^4      8 /1024 / 1024  (x4.00)
 * i.e. start-ups: 2q - n (largest side odd) or 2q (largest side even) more than the
 * next even mesh; blocks and rearranged: up to ~2^q times the next even mesh,
 * because the merged corner nodes of E carry the traffic of 2^q real nodes
 * and the largest transfer of a step sets its cost. So an odd mesh is
 * handled, but it costs MORE than the next larger even mesh; the merge is
 * the simple correct scheme, not an optimal one.
 */
#include "totex/combining.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/** Largest estimated number of blocks stored in one SSY schedule (8 bytes each). */
#define SSY_MAX_STORED_BLOCKS (UINT64_C(1) << 26)

typedef struct ssy {
    const totex_network *net;
    uint32_t n, k;
    uint32_t a[TOTEX_MAX_DIMS], e[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
    uint32_t *loc;    /* n * n: holder of block (s, d) */
    uint32_t *dest;   /* n: destination node of the node's transfer in this step, UINT32_MAX if none */
    size_t *count;    /* n + 1: bucket offsets */
    totex_block *buf; /* n * n: blocks bucketed by sender */
    uint64_t pending_rearrange;
} ssy;

static uint32_t coord(const ssy *y, uint32_t v, uint32_t i) { return (v / y->stride[i]) % y->a[i]; }

static uint32_t odd_coords(const ssy *y, uint32_t v)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < y->k; i++)
        c += coord(y, v, i) & 1u;
    return c;
}

/* Dimension that group of node v uses in phase `phase` (0-based, < k). */
static uint32_t phase_dim(const ssy *y, uint32_t v, uint32_t phase) { return y->k - 1 - (phase + odd_coords(y, v)) % y->k; }

/*
 * One step: `next(y, holder, block, arg)` returns the node the block goes to
 * from holder, or UINT32_MAX if it stays. Every node sends at most one
 * transfer (all its moving blocks go to one neighbour). Returns the status.
 */
typedef uint32_t (*next_fn)(const ssy *y, uint32_t holder, uint32_t s, uint32_t d, uint32_t arg);

static totex_status one_step(ssy *y, totex_comb_schedule *out, next_fn next, uint32_t arg, totex_error *err)
{
    const uint32_t n = y->n;
    totex_status st;
    size_t *cnt = y->count;
    memset(cnt, 0, sizeof *cnt * ((size_t)n + 1));
    for (uint32_t v = 0; v < n; v++)
        y->dest[v] = UINT32_MAX;
    /* pass 1: count per sender, and check each sender has a single destination */
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++) {
            uint32_t h = y->loc[(size_t)s * n + d], to;
            if (s == d || h == d)
                continue;
            to = next(y, h, s, d, arg);
            if (to == UINT32_MAX)
                continue;
            if (y->dest[h] != UINT32_MAX && y->dest[h] != to)
                return totex_fail(err, TOTEX_EINVAL, "internal error in ssy: node %u sends to %u and %u in one step", h,
                                  y->dest[h], to);
            y->dest[h] = to;
            cnt[h + 1]++;
        }
    for (uint32_t v = 0; v < n; v++)
        cnt[v + 1] += cnt[v];
    /* pass 2: bucket the blocks by sender (cnt[v] becomes the end of v's bucket) */
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t d = 0; d < n; d++) {
            uint32_t h = y->loc[(size_t)s * n + d];
            if (s == d || h == d || next(y, h, s, d, arg) == UINT32_MAX)
                continue;
            y->buf[cnt[h]].src = s;
            y->buf[cnt[h]].dst = d;
            cnt[h]++;
        }
    if ((st = totex_comb_begin_step(out, err)) != TOTEX_OK)
        return st;
    if (y->pending_rearrange) {
        if ((st = totex_comb_rearrange(out, y->pending_rearrange, err)) != TOTEX_OK)
            return st;
        y->pending_rearrange = 0;
    }
    for (uint32_t v = 0; v < n; v++) {
        size_t begin = v ? cnt[v - 1] : 0, end = cnt[v];
        if (end == begin)
            continue;
        if ((st = totex_comb_add_transfer(out, v, y->dest[v], y->buf + begin, end - begin, err)) != TOTEX_OK)
            return st;
        for (size_t b = begin; b < end; b++)
            y->loc[(size_t)y->buf[b].src * n + y->buf[b].dst] = y->dest[v];
    }
    return TOTEX_OK;
}

/* coordinate i of the clamped destination c(d): the node of E that stands for d */
static uint32_t ccoord(const ssy *y, uint32_t d, uint32_t i)
{
    uint32_t x = coord(y, d, i);
    return x < y->e[i] ? x : y->e[i] - 1;
}

/* pre-phase along odd dimension D: the extra line a_D - 1 hands everything to a_D - 2 */
static uint32_t pre_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t D)
{
    (void)s;
    (void)d;
    return coord(y, h, D) == y->a[D] - 1 ? h - y->stride[D] : UINT32_MAX;
}

/* post-phase along odd dimension D: a_D - 2 hands the blocks for the extra line a_D - 1 back */
static uint32_t post_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t D)
{
    (void)s;
    return coord(y, h, D) == y->a[D] - 2 && coord(y, d, D) == y->a[D] - 1 ? h + y->stride[D] : UINT32_MAX;
}

/* phases 1..n: forward along the ring of the holder's group in its phase dimension */
static uint32_t ring_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t phase)
{
    uint32_t D = phase_dim(y, h, phase);
    /* the holder stays in the block's group during phases 1..n (= the source's group on an even mesh) */
    uint32_t target = (ccoord(y, d, D) & ~1u) | (coord(y, h, D) & 1u);
    uint32_t x = coord(y, h, D), nx;
    (void)s;
    if (x == target)
        return UINT32_MAX;
    nx = (x + 2) % y->e[D];
    return h - x * y->stride[D] + nx * y->stride[D];
}

/* phase n+1, step across dimension D: to the partner when the destination differs there */
static uint32_t pair_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t D)
{
    uint32_t x = coord(y, h, D);
    (void)s;
    if (ccoord(y, d, D) == x)
        return UINT32_MAX;
    return h - x * y->stride[D] + (x ^ 1u) * y->stride[D];
}

totex_status totex_ssy_build(const totex_network *net, totex_comb_schedule **out, totex_error *err)
{
    ssy y;
    totex_comb_schedule *s = NULL;
    totex_status st = TOTEX_OK;
    uint32_t amax = 0, emax = 0, q = 0;
    uint64_t estimate, nn;

    *out = NULL;
    memset(&y, 0, sizeof y);
    y.net = net;
    y.n = totex_network_nodes(net);
    y.k = totex_network_dims(net);
    if (y.k < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "ssy (002) needs a mesh of at least 2 dimensions, e.g. mesh:4x6; %s has %u",
                          totex_network_spec(net), y.k);
    for (uint32_t i = 0; i < y.k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_factor_kind kind = totex_factor_get_kind(f);
        y.a[i] = totex_factor_nodes(f);
        y.stride[i] = totex_network_stride(net, i);
        if (kind != TOTEX_FACTOR_PATH && kind != TOTEX_FACTOR_K2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "ssy (002) applies to meshes (products of paths): dimension %u of %s is %s", i + 1,
                              totex_network_spec(net), totex_factor_name(f));
        if (y.a[i] < 2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "ssy needs every side >= 2: dimension %u of %s has %u node", i + 1,
                              totex_network_spec(net), y.a[i]);
        y.e[i] = y.a[i] & ~1u; /* odd sides: the extra line is merged into its neighbour (file header) */
        q += y.a[i] & 1u;
        if (y.a[i] > amax)
            amax = y.a[i];
        if (y.e[i] > emax)
            emax = y.e[i];
    }
    nn = (uint64_t)y.n * y.n;
    estimate = nn * y.k * amax / 4 + nn * 2 * q; /* + the pre/post steps' forwarding */
    if (nn > TOTEX_COMB_MAX_BLOCKS || estimate > SSY_MAX_STORED_BLOCKS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "ssy on %s would store about %llu blocks (limit %llu): use a smaller mesh",
                          totex_network_spec(net), (unsigned long long)estimate,
                          (unsigned long long)SSY_MAX_STORED_BLOCKS);
    y.loc = malloc(sizeof *y.loc * (size_t)nn);
    y.dest = malloc(sizeof *y.dest * y.n);
    y.count = malloc(sizeof *y.count * ((size_t)y.n + 1));
    y.buf = malloc(sizeof *y.buf * (size_t)nn);
    s = totex_comb_schedule_new();
    if (!y.loc || !y.dest || !y.count || !y.buf || !s) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building ssy on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t a = 0; a < y.n; a++)
        for (uint32_t b = 0; b < y.n; b++)
            y.loc[(size_t)a * y.n + b] = a;

    for (uint32_t D = 0; D < y.k; D++) /* pre-phase: odd dimensions in increasing order */
        if ((y.a[D] & 1u) && (st = one_step(&y, s, pre_next, D, err)) != TOTEX_OK)
            goto done;
    for (uint32_t phase = 0; phase < y.k; phase++) {
        if (phase > 0) /* 002: every node rearranges its a_1...a_n blocks between phases (2^q-fold when merged) */
            y.pending_rearrange += (uint64_t)y.n << q;
        for (uint32_t step = 1; step < emax / 2; step++)
            if ((st = one_step(&y, s, ring_next, phase, err)) != TOTEX_OK)
                goto done;
    }
    y.pending_rearrange += (uint64_t)y.n << q;
    for (uint32_t j = 0; j < y.k; j++)
        if ((st = one_step(&y, s, pair_next, y.k - 1 - j, err)) != TOTEX_OK)
            goto done;
    for (uint32_t D = y.k; D-- > 0;) /* post-phase: odd dimensions in decreasing order */
        if ((y.a[D] & 1u) && (st = one_step(&y, s, post_next, D, err)) != TOTEX_OK)
            goto done;
    *out = s;
    s = NULL;
done:
    totex_comb_schedule_free(s);
    free(y.loc);
    free(y.dest);
    free(y.count);
    free(y.buf);
    return st;
}
