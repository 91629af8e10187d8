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
    uint32_t a[TOTEX_MAX_DIMS], stride[TOTEX_MAX_DIMS];
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

/* phases 1..n: forward along the ring of the holder's group in its phase dimension */
static uint32_t ring_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t phase)
{
    uint32_t D = phase_dim(y, h, phase);
    uint32_t target = (coord(y, d, D) & ~1u) | (coord(y, s, D) & 1u);
    uint32_t x = coord(y, h, D), nx;
    if (x == target)
        return UINT32_MAX;
    nx = (x + 2) % y->a[D];
    return h - x * y->stride[D] + nx * y->stride[D];
}

/* phase n+1, step across dimension D: to the partner when the destination differs there */
static uint32_t pair_next(const ssy *y, uint32_t h, uint32_t s, uint32_t d, uint32_t D)
{
    uint32_t x = coord(y, h, D);
    if (coord(y, d, D) == x)
        return UINT32_MAX;
    return h - x * y->stride[D] + (x ^ 1u) * y->stride[D];
}

totex_status totex_ssy_build(const totex_network *net, totex_comb_schedule **out, totex_error *err)
{
    ssy y;
    totex_comb_schedule *s = NULL;
    totex_status st = TOTEX_OK;
    uint32_t amax = 0;
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
        if (y.a[i] % 2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "ssy (002) needs even sides: dimension %u of %s has %u nodes (odd); the node groups and 2 x ... x 2 submeshes of 002 Sections 3-4 need every side even",
                              i + 1, totex_network_spec(net), y.a[i]);
        if (y.a[i] > amax)
            amax = y.a[i];
    }
    nn = (uint64_t)y.n * y.n;
    estimate = nn * y.k * amax / 4;
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

    for (uint32_t phase = 0; phase < y.k; phase++) {
        if (phase > 0)
            y.pending_rearrange += y.n; /* 002: every node rearranges its a_1...a_n blocks between phases */
        for (uint32_t step = 1; step < amax / 2; step++)
            if ((st = one_step(&y, s, ring_next, phase, err)) != TOTEX_OK)
                goto done;
    }
    y.pending_rearrange += y.n;
    for (uint32_t j = 0; j < y.k; j++)
        if ((st = one_step(&y, s, pair_next, y.k - 1 - j, err)) != TOTEX_OK)
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
