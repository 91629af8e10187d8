/*
 * OCTR: optimal-completion-time total exchange by decomposing the task
 * matrix into (k-)permutation matrices, ordered for average delay.
 *
 * Source:  001 Sections 3-4 (Theorem 2: symmetric switching schemes; Theorems
 *          3-5: the task matrix is a sum of h permutation matrices, the
 *          Optimal Completion Time Rule), Section 7 (Theorem 7: k-port,
 *          max(ceil(sigma/k), h) k-permutation matrices), Section 8
 *          (wraparound meshes: Theorems 8-9, 8.2); ordering for average
 *          delay: Section 6 (the OADD, Theorem 6; 6.1: classes of routing
 *          tags under rotation, the merge of R_(d-1)1 with 11...1), 8.4-8.5.
 * Model:   multiport (TOTEX_PORTS_MULTI) and k-port (ports = k >= 1; k = 1 is
 *          single-port), on products of rings, K2 and complete graphs (the
 *          Cayley products whose task matrix totex/task.h builds).
 * Steps:   S = h, the critical sum of the task matrix (multiport; 001
 *          Theorems 5, 9), S = max(ceil(sigma/k), h) (k-port; Theorem 7),
 *          sigma the total sum. k = 1: S = sigma = the average status, the
 *          single-port average-status bound (000 eq. (3)).
 * Optimal: completion time always: S is the lower bound of 001 Theorem 1 /
 *          Corollary 1 and Section 7 for isotropic tasks; multiport it is the
 *          cut bound whenever the antipodal split is balanced (n/m_i even for
 *          every even side m_i). Average delay: strictly optimal (equal to
 *          the SPT bound of totex/delay.h, 001 Theorem 6) on rings (8.5),
 *          hypercubes of prime dimension (6.1) and 2-D tori of odd side
 *          (8.5); near-optimal elsewhere (8.4, 6.3).
 *
 * The schedule is one node's: a step is a set of moves (row, column) with
 * every row and column at most once (at most k moves under k-port),
 * replicated at every node (001 Theorem 2). The rows are taken in increasing
 * distance (OADD: the packets nearest their destination first) and cut into
 * blocks, the orbits of a cyclic column symmetry phi: on the dimensions
 * sym[0..q-1] of the factor that holds a critical column (all dimensions
 * when the network is homogeneous), (.., x_s0, .., x_s(q-1), ..) ->
 * (.., tau(x_s(q-1)), .., x_s(q-2), ..), tau = -x on rings (so phi cycles
 * the 2q columns; a hypercube: rotation of the d bits, 001 Section 6.1),
 * x on K2, x mod (m-1) + 1 on the nonzero symbols of K_m. An orbit whose
 * rows map onto rows with their entries permuted has equal column sums;
 * one with A+/A- antipodal rows may not (the split is a checkerboard that
 * phi does not preserve), and one shorter than the columns (like 11...1)
 * has column sums below its row sums: those are the degenerate blocks.
 *
 * Blocks are then gathered into groups, each cleared completely before the
 * next starts, with exactly its own critical number of colours
 * S_g = max(h_g, ceil(sigma_g/k)), so that the concatenation still has S
 * steps: a group [b0, b1) is closed when S_g plus what the rest needs (its
 * largest column sum, largest row sum, ceil(rest sigma / k)) fits the
 * colours left; the last group is then exactly the rest (a sum of S_g over
 * groups is at least S, so it is S). A perfect block (equal column sums >=
 * its row sums, cleared at 100% link use) closes alone; a degenerate one
 * joins the previous group(s) (policy 2, as 001 Section 6.1 merges R_(d-1)1
 * with 11...1) or, when that does not fit, the following blocks (policy 1);
 * policy 0 is the single group: the whole matrix coloured in increasing
 * distance order (the fallback when no block is perfect, e.g. tori with
 * unequal sides). Each group is edge-coloured by edge_colour.c (smallest
 * colour free at both ends in row order, Konig's alternating paths, de Werra
 * balancing under k-port), so early rows take early steps; its classes are
 * then put in the order that a reverse greedy finds best for the sum of
 * completion steps (any order of a group's classes is valid). The
 * candidates (orbit blocks and single-row blocks, each policy) are all
 * built, and the one with the smallest average delay is kept (Fugaku:
 * under 1 s and 130 MiB, bench/plan/bench_symmetric.c). Single-port needs no
 * colouring: one move per step, the rows one after another by distance. The
 * schedule is limited to 2^28 moves per node (2 GiB). The result is checked to have exactly S steps;
 * any other count is an internal error (TOTEX_EVIOLATION).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/edge_colour.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

/* how far back a block that does not fit alone may merge into earlier groups */
#define OCTR_BACK_DEPTH 8
/* largest schedule (moves of one node, 8 bytes each): 2^28, 2 GiB */
#define OCTR_MAX_MOVES (UINT64_C(1) << 28)
/* the single group (policy 0) is only a candidate up to columns x S = 2^26 cells (256 MiB to colour) */
#define OCTR_SINGLE_GROUP_CELLS (UINT64_C(1) << 26)

typedef struct octr {
    const totex_task *t;
    const totex_network *net;
    uint32_t rows, cols, dims, k; /* k = 0: multiport */
    uint64_t S;
    uint32_t *sorted;  /* rows in increasing distance */
    uint32_t *order;   /* rows in priority order */
    uint32_t *bstart;  /* nblocks + 1 offsets into order */
    uint32_t nblocks;
    uint32_t sym[TOTEX_MAX_DIMS], nsym; /* the dimensions phi cycles */
    uint32_t *row_of;                  /* destination node -> row, for tasks other than total exchange (else NULL) */
    uint64_t *pcol;    /* (nblocks + 1) * cols: column sums of blocks < b */
    uint64_t *psig;    /* nblocks + 1: total sum of blocks < b */
    uint32_t *bmax;    /* largest row sum of block b (nondecreasing in b) */
    uint64_t *remmax;  /* nblocks + 1: largest column sum of blocks >= b */
    tx_ec_entry *ent;  /* scratch for one group's entries */
    uint32_t *done;    /* rows: completion step, scratch */
    uint32_t *loc;     /* rows: index within its group, scratch */
} octr;

typedef struct grouping {
    uint32_t *gb;  /* ng + 1 block boundaries */
    uint64_t *gS;  /* ng colours */
    uint32_t ng, cap;
} grouping;

/* ---- applicability and step count -------------------------------------------- */

static totex_status octr_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "octr: k = %u exceeds the largest k-port model %u",
                          (unsigned)ports, TOTEX_PORTS_MAX_K);
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_factor_kind fk = totex_factor_get_kind(f);
        if (fk == TOTEX_FACTOR_PATH || fk == TOTEX_FACTOR_GRAPH)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "octr needs a task matrix, i.e. a product of rings, k2 and complete graphs (001 "
                              "Sections 2, 8.1): dimension %u (%s) is %s, not vertex-transitive, so total exchange is "
                              "not isotropic; use a2 (or a3 under multiport)",
                              i, totex_factor_name(f), fk == TOTEX_FACTOR_PATH ? "a linear array" : "a graph from a file");
    }
    return TOTEX_OK;
}

/* S = h (multiport) or max(ceil(sigma/k), h) (001 Theorems 5, 7, 9) */
static uint64_t octr_steps(const totex_task *t, totex_ports ports)
{
    uint64_t h = totex_task_critical_sum(t);
    if (ports == TOTEX_PORTS_MULTI)
        return h;
    uint64_t sigma = totex_task_total_sum(t), s = sigma / ports + (sigma % ports != 0);
    return s > h ? s : h;
}

static totex_status octr_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_status st = octr_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    totex_task *t = totex_task_total_exchange(net, err);
    if (!t)
        return TOTEX_ENOMEM; /* the factors passed octr_applies: only memory can fail (err says) */
    *steps = octr_steps(t, ports);
    totex_task_free(t);
    return TOTEX_OK;
}

/* ---- rows in increasing distance, cut into blocks ------------------------------ */

/* phi: (x_1..x_d) -> (tau(x_d), x_1, .., x_(d-1)) on the destination offset of row r; returns the row of the image. */
static uint32_t phi_row(const octr *o, uint32_t r)
{
    uint32_t node = totex_task_destination(o->t, r), q = o->nsym, img = node;
    const totex_factor *f = totex_network_factor(o->net, o->sym[0]);
    uint32_t m = totex_factor_nodes(f);
    for (uint32_t t = 0; t < q; t++) {
        uint32_t i = o->sym[t], x = totex_network_coord(o->net, node, i), y, to;
        img -= x * totex_network_stride(o->net, i);
        if (t + 1 < q) {
            y = x; /* coordinate sym[t] moves to sym[t+1] */
            to = o->sym[t + 1];
        } else {
            if (totex_factor_get_kind(f) == TOTEX_FACTOR_COMPLETE)
                y = x == 0 ? 0 : x % (m - 1) + 1;
            else
                y = (m - x) % m; /* ring: -x; K2: x */
            to = o->sym[0];
        }
        img += y * totex_network_stride(o->net, to);
    }
    if (!o->row_of)
        return img - 1; /* total exchange: row r goes to node r + 1 */
    return o->row_of[img] != UINT32_MAX ? o->row_of[img] : r; /* not a packet of the task: the orbit ends */
}

/* rows sorted by row sum (stable), and the dimensions phi cycles */
static totex_status sort_rows(octr *o, totex_error *err)
{
    uint32_t rows = o->rows, maxr = totex_task_max_row_sum(o->t);
    uint32_t *cnt = calloc((size_t)maxr + 2, sizeof *cnt);
    o->sorted = malloc(sizeof *o->sorted * ((size_t)rows + 1));
    o->order = malloc(sizeof *o->order * ((size_t)rows + 1));
    o->bstart = malloc(sizeof *o->bstart * ((size_t)rows + 2));
    if (!cnt || !o->sorted || !o->order || !o->bstart) {
        free(cnt);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory ordering %u rows for octr", rows);
    }
    for (uint32_t r = 0; r < rows; r++)
        cnt[totex_task_row_sum(o->t, r) + 1]++;
    for (uint32_t x = 1; x <= maxr + 1; x++)
        cnt[x] += cnt[x - 1];
    for (uint32_t r = 0; r < rows; r++)
        o->sorted[cnt[totex_task_row_sum(o->t, r)]++] = r;
    free(cnt);
    /* phi cycles the dimensions of the factor that holds a critical column (all of them when homogeneous) */
    uint32_t crit = 0;
    for (uint32_t j = 1; j < o->cols; j++)
        if (totex_task_col_sum(o->t, j) > totex_task_col_sum(o->t, crit))
            crit = j;
    const char *cname = totex_factor_name(totex_network_factor(o->net, totex_task_column(o->t, crit).dim));
    o->nsym = 0;
    for (uint32_t i = 0; i < o->dims; i++)
        if (!strcmp(totex_factor_name(totex_network_factor(o->net, i)), cname))
            o->sym[o->nsym++] = i;
    return TOTEX_OK;
}

/* blocks: orbits of phi in increasing distance (orbits = 1), or single rows (orbits = 0) */
static totex_status build_blocks(octr *o, int orbits, totex_error *err)
{
    uint32_t rows = o->rows, pos = 0;
    o->nblocks = 0;
    if (!orbits) {
        for (uint32_t i = 0; i < rows; i++) {
            o->order[i] = o->sorted[i];
            o->bstart[o->nblocks++] = i;
        }
        o->bstart[o->nblocks] = rows;
        return TOTEX_OK;
    }
    uint8_t *seen = calloc((size_t)rows + 1, 1);
    if (!seen)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory ordering %u rows for octr", rows);
    for (uint32_t i = 0; i < rows; i++) {
        uint32_t r = o->sorted[i];
        if (seen[r])
            continue;
        o->bstart[o->nblocks++] = pos;
        for (uint32_t q = r; !seen[q]; q = phi_row(o, q)) { /* phi keeps the distance */
            seen[q] = 1;
            o->order[pos++] = q;
        }
    }
    o->bstart[o->nblocks] = rows;
    free(seen);
    return TOTEX_OK;
}

/* prefix column sums, total sums, block maxima, remaining column maxima */
static totex_status block_sums(octr *o, totex_error *err)
{
    uint32_t nb = o->nblocks, C = o->cols, d = o->dims;
    uint32_t cols[TOTEX_MAX_DIMS], counts[TOTEX_MAX_DIMS];
    free(o->pcol);
    free(o->psig);
    free(o->bmax);
    free(o->remmax);
    o->pcol = calloc(((size_t)nb + 1) * C, sizeof *o->pcol);
    o->psig = calloc((size_t)nb + 1, sizeof *o->psig);
    o->bmax = calloc((size_t)nb + 1, sizeof *o->bmax);
    o->remmax = calloc((size_t)nb + 1, sizeof *o->remmax);
    if (!o->pcol || !o->psig || !o->bmax || !o->remmax)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory for the block sums of octr (%u blocks x %u columns)", nb, C);
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *cur = o->pcol + (size_t)(b + 1) * C, *prev = o->pcol + (size_t)b * C;
        memcpy(cur, prev, sizeof *cur * C);
        o->psig[b + 1] = o->psig[b];
        for (uint32_t i = o->bstart[b]; i < o->bstart[b + 1]; i++) {
            uint32_t r = o->order[i], ne = totex_task_row(o->t, r, cols, counts, d);
            for (uint32_t e = 0; e < ne; e++) {
                cur[cols[e]] += counts[e];
                o->psig[b + 1] += counts[e];
            }
            uint32_t rs = totex_task_row_sum(o->t, r);
            if (rs > o->bmax[b])
                o->bmax[b] = rs;
        }
        if (b && o->bmax[b] < o->bmax[b - 1])
            return totex_fail(err, TOTEX_EVIOLATION, "octr: blocks are not in increasing distance (internal error)");
    }
    const uint64_t *tot = o->pcol + (size_t)nb * C;
    for (uint32_t b = 0; b <= nb; b++) {
        uint64_t mx = 0;
        for (uint32_t j = 0; j < C; j++) {
            uint64_t rem = tot[j] - o->pcol[(size_t)b * C + j];
            if (rem > mx)
                mx = rem;
        }
        o->remmax[b] = mx;
    }
    return TOTEX_OK;
}

/* colours of the group of blocks [b0, b1): max(h_g, ceil(sigma_g / k)) */
static uint64_t group_colours(const octr *o, uint32_t b0, uint32_t b1)
{
    const uint64_t *a = o->pcol + (size_t)b0 * o->cols, *b = o->pcol + (size_t)b1 * o->cols;
    uint64_t h = o->bmax[b1 - 1];
    for (uint32_t j = 0; j < o->cols; j++)
        if (b[j] - a[j] > h)
            h = b[j] - a[j];
    if (o->k) {
        uint64_t sg = o->psig[b1] - o->psig[b0], s = sg / o->k + (sg % o->k != 0);
        if (s > h)
            h = s;
    }
    return h;
}

/* colours the blocks >= b need at least */
static uint64_t need_after(const octr *o, uint32_t b)
{
    if (b >= o->nblocks)
        return 0;
    uint64_t h = o->remmax[b];
    if (o->bmax[o->nblocks - 1] > h)
        h = o->bmax[o->nblocks - 1];
    if (o->k) {
        uint64_t sg = o->psig[o->nblocks] - o->psig[b], s = sg / o->k + (sg % o->k != 0);
        if (s > h)
            h = s;
    }
    return h;
}

/* ---- grouping policies ---------------------------------------------------------- */

static int grouping_push(grouping *g, uint32_t b1, uint64_t colours)
{
    if (g->ng + 1 >= g->cap) {
        uint32_t nc = g->cap ? 2 * g->cap : 64;
        uint32_t *nb = realloc(g->gb, sizeof *nb * ((size_t)nc + 1));
        if (!nb)
            return -1;
        g->gb = nb;
        uint64_t *ns = realloc(g->gS, sizeof *ns * ((size_t)nc + 1));
        if (!ns)
            return -1;
        g->gS = ns;
        g->cap = nc;
    }
    g->gS[g->ng] = colours;
    g->gb[++g->ng] = b1;
    return 0;
}

/*
 * policy 0: single group (the whole matrix in increasing-distance order);
 * policy 1: close a group as soon as it fits, a block that does not fit
 *           waits for the following ones (forward merge);
 * policy 2: as 1, but a block that does not fit alone is first merged into
 *           the previous group(s), up to OCTR_BACK_DEPTH of them.
 */
static totex_status make_grouping(const octr *o, int policy, grouping *g, totex_error *err)
{
    uint32_t nb = o->nblocks, start = 0;
    uint64_t left = o->S;
    g->ng = 0;
    if (!g->gb) {
        g->cap = 64;
        g->gb = malloc(sizeof *g->gb * ((size_t)g->cap + 1));
        g->gS = malloc(sizeof *g->gS * ((size_t)g->cap + 1));
        if (!g->gb || !g->gS)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory grouping the rows for octr");
    }
    g->gb[0] = 0;
    if (policy == 0) {
        if (grouping_push(g, nb, o->S))
            return totex_fail(err, TOTEX_ENOMEM, "out of memory grouping the rows for octr");
        return TOTEX_OK;
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t sg = group_colours(o, start, b + 1);
        if (sg + need_after(o, b + 1) <= left) {
            if (grouping_push(g, b + 1, sg))
                return totex_fail(err, TOTEX_ENOMEM, "out of memory grouping the rows for octr");
            left -= sg;
            start = b + 1;
            continue;
        }
        if (policy != 2)
            continue;
        /* merge [start, b+1) into the last groups: group i starts at gb[i] with colours before it = S - sum gS[<i] */
        uint64_t before = left;
        for (uint32_t back = 1; back <= OCTR_BACK_DEPTH && back <= g->ng; back++) {
            uint32_t i = g->ng - back;
            before += g->gS[i];
            uint64_t sm = group_colours(o, g->gb[i], b + 1);
            if (sm + need_after(o, b + 1) <= before) {
                g->ng = i;
                if (grouping_push(g, b + 1, sm))
                    return totex_fail(err, TOTEX_ENOMEM, "out of memory grouping the rows for octr");
                left = before - sm;
                start = b + 1;
                break;
            }
        }
    }
    if (start != nb || left != 0)
        return totex_fail(err, TOTEX_EVIOLATION,
                          "octr: the groups of rows do not use exactly S = %llu steps (%llu left, internal error)",
                          (unsigned long long)o->S, (unsigned long long)left);
    return TOTEX_OK;
}

/* ---- ordering the colour classes of a group ---------------------------------------- */

/* sum over the group's rows of their completion position (1-based) when class perm[p] is step p */
static uint64_t order_cost(const tx_ec_result *res, const uint32_t *perm, uint32_t *done, const uint32_t *rows,
                           uint32_t nrows)
{
    uint64_t sum = 0;
    for (uint64_t p = 0; p < res->colours; p++) {
        uint32_t c = perm[p];
        for (uint64_t x = res->start[c]; x < res->start[c + 1]; x++)
            done[res->moves[x].row] = (uint32_t)(p + 1);
    }
    for (uint32_t i = 0; i < nrows; i++)
        sum += done[rows[i]];
    return sum;
}

/* Buckets of classes by count, each a two-level bitmap over the class indices (highest index first). */
typedef struct buckets {
    uint64_t *w, *s; /* (cols + 1) * nw words, (cols + 1) * ns summary words */
    size_t nw, ns;
    size_t *top;     /* per bucket: no summary word above top is nonzero */
} buckets;

static void bk_add(buckets *b, uint32_t bucket, uint32_t c)
{
    size_t wi = c >> 6, si = wi >> 6;
    b->w[bucket * b->nw + wi] |= UINT64_C(1) << (c & 63);
    b->s[bucket * b->ns + si] |= UINT64_C(1) << (wi & 63);
    if (si > b->top[bucket])
        b->top[bucket] = si;
}

static void bk_del(buckets *b, uint32_t bucket, uint32_t c)
{
    size_t wi = c >> 6;
    uint64_t *w = &b->w[bucket * b->nw + wi];
    *w &= ~(UINT64_C(1) << (c & 63));
    if (!*w)
        b->s[bucket * b->ns + (wi >> 6)] &= ~(UINT64_C(1) << (wi & 63));
}

/* highest class in the bucket, or UINT32_MAX when empty */
static uint32_t bk_max(buckets *b, uint32_t bucket)
{
    const uint64_t *s = b->s + bucket * b->ns, *w = b->w + bucket * b->nw;
    size_t si = b->top[bucket];
    for (;;) {
        if (s[si]) {
            size_t wi = si * 64 + (size_t)(63 - __builtin_clzll(s[si]));
            b->top[bucket] = si;
            return (uint32_t)(wi * 64 + (size_t)(63 - __builtin_clzll(w[wi])));
        }
        if (si == 0) {
            b->top[bucket] = 0;
            return UINT32_MAX;
        }
        si--;
    }
}

/*
 * Any order of a group's classes is valid (a packet may take its hops in any
 * order), so reorder them for the sum of completion steps: from the last
 * step backwards, place the class holding the fewest rows not yet placed
 * (those rows complete there; ties: the class the colouring put last).
 * Classes wait in buckets by that count (at most the columns); counts only
 * fall, so the pass is O(edges + classes x (columns + classes / 4096)).
 * perm[p] = class of step p; the identity when the reordering does not help.
 * Returns 0, or -1 when out of memory (perm stays the identity).
 */
static int reorder_classes(octr *o, const tx_ec_result *res, const uint32_t *rows, uint32_t nrows, uint32_t *perm)
{
    uint64_t G = res->colours, E = res->edges;
    uint32_t C = o->cols;
    for (uint64_t c = 0; c < G; c++)
        perm[c] = (uint32_t)c;
    if (G < 3)
        return 0;
    buckets b;
    b.nw = ((size_t)G + 63) / 64;
    b.ns = (b.nw + 63) / 64;
    b.w = calloc(((size_t)C + 1) * b.nw, sizeof *b.w);
    b.s = calloc(((size_t)C + 1) * b.ns, sizeof *b.s);
    b.top = calloc((size_t)C + 1, sizeof *b.top);
    uint32_t *roff = calloc((size_t)nrows + 1, sizeof *roff), *rcls = malloc(sizeof *rcls * (size_t)(E + 1));
    uint32_t *live = malloc(sizeof *live * (size_t)G), *alt = malloc(sizeof *alt * (size_t)G), lo = 0;
    uint8_t *placed = calloc((size_t)G, 1), *dead = calloc(nrows, 1);
    int rc = -1;
    if (!b.w || !b.s || !b.top || !roff || !rcls || !live || !alt || !placed || !dead)
        goto out;
    for (uint32_t i = 0; i < nrows; i++)
        o->loc[rows[i]] = i;
    for (uint64_t x = 0; x < E; x++)
        roff[o->loc[res->moves[x].row] + 1]++;
    for (uint32_t i = 0; i < nrows; i++)
        roff[i + 1] += roff[i];
    for (uint64_t c = 0; c < G; c++) {
        live[c] = (uint32_t)(res->start[c + 1] - res->start[c]); /* <= columns: one edge per column */
        for (uint64_t x = res->start[c]; x < res->start[c + 1]; x++)
            rcls[roff[o->loc[res->moves[x].row]]++] = (uint32_t)c;
        bk_add(&b, live[c], (uint32_t)c);
    }
    for (uint32_t i = nrows; i > 0; i--) /* roff[i] now ends row i: shift back */
        roff[i] = roff[i - 1];
    roff[0] = 0;
    for (uint64_t p = G; p-- > 0;) {
        uint32_t c;
        while ((c = bk_max(&b, lo)) == UINT32_MAX)
            lo++;
        bk_del(&b, lo, c);
        placed[c] = 1;
        alt[p] = c;
        for (uint64_t x = res->start[c]; x < res->start[c + 1]; x++) {
            uint32_t lr = o->loc[res->moves[x].row];
            if (dead[lr])
                continue;
            dead[lr] = 1;
            for (uint32_t y = roff[lr]; y < roff[lr + 1]; y++) {
                uint32_t c2 = rcls[y];
                if (!placed[c2]) {
                    bk_del(&b, live[c2], c2);
                    live[c2]--;
                    bk_add(&b, live[c2], c2);
                    if (live[c2] < lo)
                        lo = live[c2];
                }
            }
        }
    }
    if (order_cost(res, alt, o->done, rows, nrows) < order_cost(res, perm, o->done, rows, nrows))
        memcpy(perm, alt, sizeof *perm * (size_t)G);
    rc = 0;
out:
    free(b.w);
    free(b.s);
    free(b.top);
    free(roff);
    free(rcls);
    free(live);
    free(alt);
    free(placed);
    free(dead);
    return rc;
}

/* ---- colouring the groups -------------------------------------------------------- */

static totex_status colour_grouping(octr *o, const grouping *g, totex_sym_schedule **out, uint64_t *delay_sum,
                                    totex_error *err)
{
    uint32_t cols[TOTEX_MAX_DIMS], counts[TOTEX_MAX_DIMS];
    totex_sym_schedule *s = totex_sym_new();
    totex_status st = TOTEX_OK;
    uint64_t step = 0, sum = 0;
    if (!s)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory for the octr schedule");
    for (uint32_t gi = 0; gi < g->ng; gi++) {
        uint32_t r0 = o->bstart[g->gb[gi]], r1 = o->bstart[g->gb[gi + 1]];
        size_t ne = 0;
        for (uint32_t i = r0; i < r1; i++) {
            uint32_t r = o->order[i], n = totex_task_row(o->t, r, cols, counts, o->dims);
            for (uint32_t e = 0; e < n; e++) {
                o->ent[ne].row = r;
                o->ent[ne].col = cols[e];
                o->ent[ne].mult = counts[e];
                ne++;
            }
        }
        tx_ec_result res;
        if ((st = tx_edge_colour(o->rows, o->cols, o->ent, ne, g->gS[gi], o->k, &res, err)) != TOTEX_OK)
            break;
        uint32_t *perm = malloc(sizeof *perm * ((size_t)res.colours + 1));
        if (!perm || reorder_classes(o, &res, o->order + r0, r1 - r0, perm) < 0) {
            free(perm);
            tx_ec_result_free(&res);
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory ordering the steps of octr");
            break;
        }
        for (uint64_t p = 0; p < res.colours && st == TOTEX_OK; p++) {
            uint64_t c = perm[p];
            size_t cnt = (size_t)(res.start[c + 1] - res.start[c]);
            const totex_sym_move *mv = res.moves + res.start[c];
            for (size_t x = 0; x < cnt; x++)
                o->done[mv[x].row] = (uint32_t)(step + p + 1);
            st = totex_sym_add_step(s, mv, cnt, err);
        }
        step += res.colours;
        free(perm);
        tx_ec_result_free(&res);
        if (st != TOTEX_OK)
            break;
        for (uint32_t i = r0; i < r1; i++)
            sum += o->done[o->order[i]];
    }
    if (st == TOTEX_OK && step != o->S)
        st = totex_fail(err, TOTEX_EVIOLATION, "octr: %llu steps instead of S = %llu (internal error)",
                        (unsigned long long)step, (unsigned long long)o->S);
    if (st != TOTEX_OK) {
        totex_sym_free(s);
        return st;
    }
    *out = s;
    *delay_sum = sum;
    return TOTEX_OK;
}

static void octr_free(octr *o)
{
    free(o->sorted);
    free(o->order);
    free(o->bstart);
    free(o->pcol);
    free(o->psig);
    free(o->bmax);
    free(o->remmax);
    free(o->ent);
    free(o->done);
    free(o->loc);
    free(o->row_of);
}

totex_status totex_octr_schedule(const totex_task *t, totex_ports ports, totex_sym_schedule **out, totex_error *err)
{
    octr o;
    grouping g = {NULL, NULL, 0, 0};
    totex_sym_schedule *best = NULL;
    uint64_t best_sum = UINT64_MAX;
    uint32_t *tried = NULL, tried_ng = 0; /* the grouping of policy 2 */
    totex_status st;
    memset(&o, 0, sizeof o);
    o.t = t;
    o.net = totex_task_network(t);
    o.rows = totex_task_rows(t);
    o.cols = totex_task_cols(t);
    o.dims = totex_network_dims(o.net);
    o.k = ports;
    if (totex_task_get_kind(t) != TOTEX_TASK_TOTAL_EXCHANGE) {
        uint32_t n = totex_network_nodes(o.net);
        o.row_of = malloc(sizeof *o.row_of * ((size_t)n + 1));
        if (!o.row_of)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory");
        for (uint32_t v = 0; v < n; v++)
            o.row_of[v] = UINT32_MAX;
        for (uint32_t r = 0; r < o.rows; r++)
            o.row_of[totex_task_destination(t, r)] = r;
    }
    o.S = octr_steps(t, ports);
    o.ent = malloc(sizeof *o.ent * ((size_t)o.rows * o.dims + 1));
    o.done = calloc((size_t)o.rows + 1, sizeof *o.done);
    o.loc = calloc((size_t)o.rows + 1, sizeof *o.loc);
    if (!o.ent || !o.done || !o.loc) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the %u rows of octr", o.rows);
        goto out;
    }
    if (totex_task_total_sum(t) > OCTR_MAX_MOVES) {
        st = totex_fail(err, TOTEX_ENOMEM,
                        "octr: the schedule of %s would hold %llu moves per node (8 bytes each), above the limit of "
                        "2^28",
                        totex_network_spec(o.net), (unsigned long long)totex_task_total_sum(t));
        goto out;
    }
    if ((st = sort_rows(&o, err)) != TOTEX_OK)
        goto out;
    if (ports == TOTEX_PORTS_SINGLE) {
        /* one move per step: the rows one after another in increasing distance, each row's hops in a
         * row (what the colouring gives with k = 1: S = sigma, the SPT order, 001 Proposition 1) */
        uint32_t cols[TOTEX_MAX_DIMS], counts[TOTEX_MAX_DIMS];
        if (!(best = totex_sym_new())) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the octr schedule");
            goto out;
        }
        for (uint32_t i = 0; i < o.rows && st == TOTEX_OK; i++) {
            uint32_t r = o.sorted[i], n = totex_task_row(t, r, cols, counts, o.dims);
            for (uint32_t e = 0; e < n && st == TOTEX_OK; e++)
                for (uint32_t c = 0; c < counts[e] && st == TOTEX_OK; c++) {
                    totex_sym_move mv = {r, cols[e]};
                    st = totex_sym_add_step(best, &mv, 1, err);
                }
        }
        if (st == TOTEX_OK && totex_sym_steps(best) != o.S)
            st = totex_fail(err, TOTEX_EVIOLATION, "octr: %llu single-port steps instead of S = %llu (internal error)",
                            (unsigned long long)totex_sym_steps(best), (unsigned long long)o.S);
        if (st != TOTEX_OK)
            goto out;
        *out = best;
        best = NULL;
        goto out;
    }
    /*
     * Candidates: blocks = orbits of phi, then blocks = single rows; policies
     * 2 (merge back), 1 (merge forward), 0 (one group: the fallback, once,
     * and only when small enough to colour cheaply or nothing else worked).
     */
    for (int orbits = 1; orbits >= 0; orbits--) {
        if ((st = build_blocks(&o, orbits, err)) != TOTEX_OK || (st = block_sums(&o, err)) != TOTEX_OK)
            goto out;
        if (orbits && o.nblocks == o.rows)
            continue; /* every orbit is a single row: the same as the row blocks */
        int policies[] = {2, 1, 0}, np = orbits ? 3 : 2;
        for (int p = 0; p < np; p++) {
            if (policies[p] == 0 && best && (uint64_t)o.cols * o.S > OCTR_SINGLE_GROUP_CELLS)
                continue;
            totex_sym_schedule *s = NULL;
            uint64_t sum = 0;
            if ((st = make_grouping(&o, policies[p], &g, err)) != TOTEX_OK)
                goto out;
            if (p == 1 && tried_ng == g.ng && !memcmp(tried, g.gb, sizeof *g.gb * ((size_t)g.ng + 1)))
                continue; /* merging back changed nothing */
            if (p == 0) {
                free(tried);
                tried = malloc(sizeof *g.gb * ((size_t)g.ng + 1));
                if (!tried) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory grouping the rows for octr");
                    goto out;
                }
                memcpy(tried, g.gb, sizeof *g.gb * ((size_t)g.ng + 1));
                tried_ng = g.ng;
            }
            if ((st = colour_grouping(&o, &g, &s, &sum, err)) != TOTEX_OK)
                goto out;
            if (sum < best_sum) {
                totex_sym_free(best);
                best = s;
                best_sum = sum;
            } else {
                totex_sym_free(s);
            }
        }
    }
    if (!best) { /* the row blocks always give a candidate: cannot happen */
        st = totex_fail(err, TOTEX_EVIOLATION, "octr: no candidate schedule (internal error)");
        goto out;
    }
    *out = best;
    best = NULL;
out:
    totex_sym_free(best);
    free(tried);
    free(g.gb);
    free(g.gS);
    octr_free(&o);
    return st;
}

/* ---- the algorithm interface ------------------------------------------------------ */

static totex_status octr_plan_symmetric(const totex_network *net, totex_ports ports, totex_task **task,
                                        totex_sym_schedule **out, totex_error *err)
{
    totex_status st = octr_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    totex_task *t = totex_task_total_exchange(net, err);
    if (!t)
        return TOTEX_ENOMEM; /* the factors passed octr_applies: only memory can fail (err says) */
    if ((st = totex_octr_schedule(t, ports, out, err)) != TOTEX_OK) {
        totex_task_free(t);
        return st;
    }
    *task = t;
    return TOTEX_OK;
}

static totex_status octr_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_status st = octr_plan_symmetric(net, ports, &t, &s, err);
    if (st == TOTEX_OK)
        st = totex_sym_expand(t, s, sink, err);
    totex_sym_free(s);
    totex_task_free(t);
    return st;
}

const totex_algorithm totex_algorithm_octr = {
    .name = "octr",
    .title = "OCTR: task-matrix decomposition into (k-)permutation matrices, rows by distance (optimal completion time)",
    .source = "001 Sections 3-4 (Theorems 2-5), 6 (OADD, Theorem 6), 7 (Theorem 7), 8 (Theorems 8-9, 8.4-8.5)",
    .applies = octr_applies,
    .predict = octr_predict,
    .plan = octr_plan,
    .plan_symmetric = octr_plan_symmetric,
};
