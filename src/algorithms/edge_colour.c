/*
 * Edge colouring of a bipartite multigraph with a prescribed number of
 * colours (001 Theorems 4 and 7; Konig's theorem): see edge_colour.h.
 *
 * Data:
 *  - rows are renumbered locally in order of appearance; row r owns the edge
 *    slots rowoff[r] .. rowoff[r+1]-1 (its column and colour, 8 bytes each);
 *    a row's colours are looked up by scanning its slots (a row has at most
 *    the diameter many edges in a task matrix);
 *  - col_at[j*S + c] = the local row whose edge at column j has colour c;
 *  - per column a two-level bitmap of used colours (bit per colour, and a
 *    bit per 64-colour word that is full) so the smallest free colour at or
 *    after a point is found in a few word operations; under k-port a global
 *    two-level bitmap of the colours that already hold k edges;
 *  - cnt[c] = edges of colour c;
 *  - rb = a bitmap of the colours of the row being coloured (cur), kept by
 *    put and take while it is cur: "is colour c at row cur" is a bit test,
 *    and the first-fit search takes the smallest colour clear in the
 *    column's bitmap, the row's and (k-port) the full colours' at once, a
 *    word at a time (the scan of the row's slots per candidate colour was
 *    80% of the colouring's time on a 128x128 torus, whose rows have up to
 *    128 slots; a filter by colour buckets then left the candidates' loop
 *    at 16% of one rank's planning); the answers, and so the colouring, are
 *    the scan's.
 */
#include "algorithms/edge_colour.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define NONE UINT32_MAX

typedef struct path_edge {
    uint32_t row; /* local row */
    size_t slot;
} path_edge;

typedef struct walker {
    path_edge *buf;
    size_t len, cap;
    int at_row;      /* 1: at a row vertex, 0: at a column vertex */
    uint32_t vertex; /* local row or column */
    uint32_t cur, other;
    int done;
} walker;

typedef struct ec {
    uint32_t C, S, k; /* k = 0: unlimited */
    uint32_t nrows;   /* local rows */
    size_t *rowoff;   /* nrows + 1 */
    uint32_t *rowglob;
    uint32_t *slot_col, *slot_clr;
    uint32_t *col_at;       /* C * S */
    uint64_t *used, *used_s; /* C * nw, C * ns */
    uint64_t *full, *full_s; /* nw, ns (k-port) */
    uint32_t *lw;            /* per column: every colour below lw[j] is used at j */
    uint32_t *cnt;           /* S */
    uint64_t *rb;            /* nw: the colours of row cur */
    uint32_t cur;            /* the local row being coloured, or NONE */
    size_t nw, ns;
    walker w1, w2;
    uint64_t kempe, kempe_edges, swaps;
} ec;

/* ---- two-level bitmaps --------------------------------------------------- */

static inline void bm_set(uint64_t *w, uint64_t *s, uint32_t c)
{
    size_t wi = c >> 6;
    w[wi] |= UINT64_C(1) << (c & 63);
    if (w[wi] == ~UINT64_C(0))
        s[wi >> 6] |= UINT64_C(1) << (wi & 63);
}

static inline void bm_clear(uint64_t *w, uint64_t *s, uint32_t c)
{
    size_t wi = c >> 6;
    w[wi] &= ~(UINT64_C(1) << (c & 63));
    s[wi >> 6] &= ~(UINT64_C(1) << (wi & 63));
}

/* Bits >= S (words >= nw) are permanently set. */
static void bm_init(uint64_t *w, uint64_t *s, uint32_t S, size_t nw, size_t ns)
{
    memset(w, 0, sizeof *w * nw);
    memset(s, 0, sizeof *s * ns);
    for (uint64_t c = S; c < (uint64_t)nw * 64; c++)
        bm_set(w, s, (uint32_t)c);
    for (uint64_t wi = nw; wi < (uint64_t)ns * 64; wi++)
        s[wi >> 6] |= UINT64_C(1) << (wi & 63);
}

/* Smallest colour >= c clear in w (and in f when f != NULL, and in g, a bitmap without a summary, when g != NULL),
   or NONE. */
static uint32_t next_free(const ec *e, const uint64_t *w, const uint64_t *s, const uint64_t *f, const uint64_t *fs,
                          const uint64_t *g, uint64_t c)
{
    size_t wi = (size_t)(c >> 6);
    if (wi >= e->nw)
        return NONE;
    uint64_t bits = w[wi] | (f ? f[wi] : 0) | (g ? g[wi] : 0) | ((UINT64_C(1) << (c & 63)) - 1);
    for (;;) {
        if (bits != ~UINT64_C(0))
            return (uint32_t)(wi * 64 + (size_t)__builtin_ctzll(~bits));
        wi++;
        if (wi >= e->nw)
            return NONE;
        size_t si = wi >> 6;
        uint64_t sb = s[si] | (fs ? fs[si] : 0) | ((UINT64_C(1) << (wi & 63)) - 1);
        while (sb == ~UINT64_C(0)) {
            if (++si >= e->ns)
                return NONE;
            sb = s[si] | (fs ? fs[si] : 0);
        }
        wi = si * 64 + (size_t)__builtin_ctzll(~sb);
        if (wi >= e->nw)
            return NONE;
        bits = w[wi] | (f ? f[wi] : 0) | (g ? g[wi] : 0);
    }
}

static inline uint64_t *col_used(const ec *e, uint32_t j) { return e->used + (size_t)j * e->nw; }
static inline uint64_t *col_used_s(const ec *e, uint32_t j) { return e->used_s + (size_t)j * e->ns; }

/* ---- rows ------------------------------------------------------------------ */

/* Slot of local row r with colour c, or SIZE_MAX. */
static inline size_t row_slot(const ec *e, uint32_t r, uint32_t c)
{
    for (size_t s = e->rowoff[r]; s < e->rowoff[r + 1]; s++)
        if (e->slot_clr[s] == c)
            return s;
    return SIZE_MAX;
}

/* Whether local row r has an edge of colour c (row_slot(e, r, c) != SIZE_MAX). */
static inline int row_has(const ec *e, uint32_t r, uint32_t c)
{
    if (r == e->cur)
        return (int)(e->rb[c >> 6] >> (c & 63) & 1);
    return row_slot(e, r, c) != SIZE_MAX;
}

/* the bitmap of the row being coloured (cur): colour c in or out at a slot of row r */
static inline void rf_add(ec *e, uint32_t r, uint32_t c)
{
    if (r == e->cur)
        e->rb[c >> 6] |= UINT64_C(1) << (c & 63);
}

static inline void rf_sub(ec *e, uint32_t r, uint32_t c)
{
    if (r == e->cur)
        e->rb[c >> 6] &= ~(UINT64_C(1) << (c & 63));
}

/* ---- colour bookkeeping ---------------------------------------------------- */

static inline void update_full(ec *e, uint32_t c)
{
    if (!e->k)
        return;
    if (e->cnt[c] >= e->k)
        bm_set(e->full, e->full_s, c);
    else
        bm_clear(e->full, e->full_s, c);
}

static inline void put(ec *e, uint32_t r, size_t slot, uint32_t c)
{
    uint32_t j = e->slot_col[slot];
    e->slot_clr[slot] = c;
    rf_add(e, r, c);
    e->col_at[(size_t)j * e->S + c] = r;
    bm_set(col_used(e, j), col_used_s(e, j), c);
    e->cnt[c]++;
    update_full(e, c);
}

static inline void take(ec *e, uint32_t r, size_t slot)
{
    uint32_t j = e->slot_col[slot], c = e->slot_clr[slot];
    rf_sub(e, r, c);
    e->col_at[(size_t)j * e->S + c] = NONE;
    bm_clear(col_used(e, j), col_used_s(e, j), c);
    if (c < e->lw[j])
        e->lw[j] = c;
    e->cnt[c]--;
    e->slot_clr[slot] = NONE;
}

/* ---- alternating paths ------------------------------------------------------ */

static void walker_start(walker *w, int at_row, uint32_t vertex, uint32_t first, uint32_t second)
{
    w->len = 0;
    w->at_row = at_row;
    w->vertex = vertex;
    w->cur = first;
    w->other = second;
    w->done = 0;
}

/* Extend the path by one edge; 0 when it cannot be extended (done). -1 on ENOMEM. */
static int walker_step(ec *e, walker *w)
{
    if (w->done)
        return 0;
    uint32_t r;
    size_t slot;
    if (w->at_row) {
        r = w->vertex;
        slot = row_slot(e, r, w->cur);
        if (slot == SIZE_MAX) {
            w->done = 1;
            return 0;
        }
        w->vertex = e->slot_col[slot];
    } else {
        r = e->col_at[(size_t)w->vertex * e->S + w->cur];
        if (r == NONE) {
            w->done = 1;
            return 0;
        }
        slot = row_slot(e, r, w->cur);
        w->vertex = r;
    }
    if (w->len == w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 64;
        path_edge *nb = realloc(w->buf, sizeof *nb * nc);
        if (!nb)
            return -1;
        w->buf = nb;
        w->cap = nc;
    }
    w->buf[w->len].row = r;
    w->buf[w->len].slot = slot;
    w->len++;
    w->at_row = !w->at_row;
    uint32_t t = w->cur;
    w->cur = w->other;
    w->other = t;
    return 1;
}

/* Walk to the end. 0 or -1 on ENOMEM. */
static int walker_run(ec *e, walker *w)
{
    int st;
    while ((st = walker_step(e, w)) > 0)
        ;
    return st;
}

/* Exchange colours x and y on the walked path. */
static void flip(ec *e, const walker *w, uint32_t x, uint32_t y)
{
    for (size_t i = 0; i < w->len; i++) {
        uint32_t c = e->slot_clr[w->buf[i].slot];
        take(e, w->buf[i].row, w->buf[i].slot);
        e->slot_clr[w->buf[i].slot] = c; /* remember the old colour for the second pass */
    }
    for (size_t i = 0; i < w->len; i++) {
        size_t s = w->buf[i].slot;
        uint32_t c = e->slot_clr[s] == x ? y : x;
        put(e, w->buf[i].row, s, c);
    }
    update_full(e, x);
    update_full(e, y);
}

/* ---- colouring one edge ---------------------------------------------------- */

/* Smallest colour free at column j and at local row r (and not full when use_full). */
static uint32_t common_free(ec *e, uint32_t r, uint32_t j, int use_full)
{
    const uint64_t *w = col_used(e, j), *s = col_used_s(e, j);
    const uint64_t *f = use_full ? e->full : NULL, *fs = use_full ? e->full_s : NULL;
    uint32_t lw = next_free(e, w, s, NULL, NULL, NULL, e->lw[j]);
    e->lw[j] = lw == NONE ? e->S : lw;
    if (lw == NONE)
        return NONE;
    if (r == e->cur) /* the row's colours by its bitmap, with the column's */
        return next_free(e, w, s, f, fs, e->rb, lw);
    uint32_t c = f ? next_free(e, w, s, f, fs, NULL, lw) : lw;
    while (c != NONE && row_has(e, r, c))
        c = next_free(e, w, s, f, fs, NULL, (uint64_t)c + 1);
    return c;
}

/* Smallest colour free at local row r (its uncoloured slot makes one < S exist). */
static uint32_t row_free(const ec *e, uint32_t r)
{
    uint32_t c = 0;
    for (;;) {
        if (!row_has(e, r, c))
            return c;
        c++;
    }
}

static totex_status colour_slot(ec *e, uint32_t r, size_t slot, totex_error *err)
{
    uint32_t j = e->slot_col[slot];
    uint32_t c = common_free(e, r, j, e->k != 0);
    if (c == NONE && e->k)
        c = common_free(e, r, j, 0);
    if (c == NONE) {
        /* Konig: alpha free at r, beta free at j; alpha is used at j and beta at r. */
        uint32_t alpha = row_free(e, r), beta = next_free(e, col_used(e, j), col_used_s(e, j), NULL, NULL, NULL, e->lw[j]);
        if (alpha >= e->S || beta == NONE)
            return totex_fail(err, TOTEX_EVIOLATION,
                              "edge colouring: no free colour at row %u or column %u (internal error)",
                              e->rowglob[r], j);
        walker_start(&e->w1, 0, j, alpha, beta); /* from column j: alpha, beta, ... -> frees alpha at j */
        walker_start(&e->w2, 1, r, beta, alpha); /* from row r: beta, alpha, ... -> frees beta at r */
        for (;;) {
            int a = walker_step(e, &e->w1), b;
            if (a < 0)
                return totex_fail(err, TOTEX_ENOMEM, "out of memory in an alternating path");
            if (a == 0) {
                flip(e, &e->w1, alpha, beta);
                c = alpha;
                e->kempe_edges += e->w1.len;
                break;
            }
            b = walker_step(e, &e->w2);
            if (b < 0)
                return totex_fail(err, TOTEX_ENOMEM, "out of memory in an alternating path");
            if (b == 0) {
                flip(e, &e->w2, alpha, beta);
                c = beta;
                e->kempe_edges += e->w2.len;
                break;
            }
        }
        e->kempe++;
    }
    put(e, r, slot, c);
    return TOTEX_OK;
}

/* ---- k-port balancing (de Werra) -------------------------------------------- */

/* An (a, b) path with one more a-edge than b-edges, swapped; 1 found, 0 none, -1 ENOMEM. */
static int balance_once(ec *e, uint32_t a, uint32_t b)
{
    for (uint32_t j = 0; j < e->C; j++) {
        uint32_t q = e->col_at[(size_t)j * e->S + a];
        if (q == NONE)
            continue;
        if (e->col_at[(size_t)j * e->S + b] == NONE) {
            walker_start(&e->w1, 0, j, a, b);
            if (walker_run(e, &e->w1) < 0)
                return -1;
            if (e->w1.len % 2 == 1) {
                flip(e, &e->w1, a, b);
                return 1;
            }
        }
        if (row_slot(e, q, b) == SIZE_MAX) {
            walker_start(&e->w1, 1, q, a, b);
            if (walker_run(e, &e->w1) < 0)
                return -1;
            if (e->w1.len % 2 == 1) {
                flip(e, &e->w1, a, b);
                return 1;
            }
        }
    }
    return 0;
}

static totex_status balance(ec *e, totex_error *err)
{
    uint32_t b = 0;
    for (uint32_t a = 0; a < e->S; a++) {
        while (e->cnt[a] > e->k) {
            while (b < e->S && e->cnt[b] >= e->k)
                b++;
            if (b >= e->S)
                return totex_fail(err, TOTEX_EVIOLATION,
                                  "edge colouring: colour %u has %u > k = %u edges and no colour has room (internal error)",
                                  a, e->cnt[a], e->k);
            int got = balance_once(e, a, b);
            if (got < 0)
                return totex_fail(err, TOTEX_ENOMEM, "out of memory in an alternating path");
            if (!got)
                return totex_fail(err, TOTEX_EVIOLATION,
                                  "edge colouring: no (%u, %u) alternating path to balance (internal error)", a, b);
            e->swaps++;
        }
    }
    return TOTEX_OK;
}

/* ---- driver ------------------------------------------------------------------- */

static void ec_free(ec *e)
{
    free(e->rowoff);
    free(e->rowglob);
    free(e->slot_col);
    free(e->slot_clr);
    free(e->col_at);
    free(e->used);
    free(e->used_s);
    free(e->full);
    free(e->full_s);
    free(e->lw);
    free(e->cnt);
    free(e->rb);
    free(e->w1.buf);
    free(e->w2.buf);
    memset(e, 0, sizeof *e);
}

void tx_ec_result_free(tx_ec_result *r)
{
    if (!r)
        return;
    free(r->start);
    free(r->moves);
    memset(r, 0, sizeof *r);
}

/* Check the input, count local rows and edges, fill rowoff/rowglob/slot_col. */
static totex_status ec_load(ec *e, uint32_t rows, const tx_ec_entry *en, size_t n, uint64_t S, uint32_t k,
                            uint64_t *total_out, totex_error *err)
{
    uint64_t *colsum = calloc(e->C, sizeof *colsum);
    uint64_t *seen = calloc(((size_t)rows + 63) / 64 + 1, sizeof *seen);
    uint64_t total = 0;
    uint32_t nr = 0, prev = NONE;
    totex_status st = TOTEX_OK;
    if (!colsum || !seen) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory checking an edge-colouring input");
        goto out;
    }
    /* pass 1: validate, count rows and row sums */
    uint64_t rowsum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!en[i].mult)
            continue;
        if (en[i].row >= rows || en[i].col >= e->C) {
            st = totex_fail(err, TOTEX_EINVAL, "edge colouring: entry %zu (row %u, column %u) out of range (%u x %u)", i,
                            en[i].row, en[i].col, rows, e->C);
            goto out;
        }
        if (en[i].row != prev) {
            if (seen[en[i].row >> 6] >> (en[i].row & 63) & 1) {
                st = totex_fail(err, TOTEX_EINVAL, "edge colouring: the entries of row %u are not contiguous",
                                en[i].row);
                goto out;
            }
            seen[en[i].row >> 6] |= UINT64_C(1) << (en[i].row & 63);
            prev = en[i].row;
            nr++;
            rowsum = 0;
        }
        rowsum += en[i].mult;
        colsum[en[i].col] += en[i].mult;
        total += en[i].mult;
        if (rowsum > S || colsum[en[i].col] > S) {
            st = totex_fail(err, TOTEX_EINVAL,
                            "edge colouring: %llu colours are fewer than the sum of row %u or column %u",
                            (unsigned long long)S, en[i].row, en[i].col);
            goto out;
        }
    }
    if (k && total > S * (uint64_t)k) {
        st = totex_fail(err, TOTEX_EINVAL,
                        "edge colouring: %llu colours of at most k = %u edges cannot hold %llu edges",
                        (unsigned long long)S, k, (unsigned long long)total);
        goto out;
    }
    if (total > SIZE_MAX / 8) {
        st = totex_fail(err, TOTEX_ENOMEM, "edge colouring: %llu edges do not fit in memory",
                        (unsigned long long)total);
        goto out;
    }
    e->nrows = nr;
    e->rowoff = malloc(sizeof *e->rowoff * ((size_t)nr + 1));
    e->rowglob = malloc(sizeof *e->rowglob * ((size_t)nr + 1));
    e->slot_col = malloc(sizeof *e->slot_col * ((size_t)total + 1));
    e->slot_clr = malloc(sizeof *e->slot_clr * ((size_t)total + 1));
    if (!e->rowoff || !e->rowglob || !e->slot_col || !e->slot_clr) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for %llu edges of an edge colouring",
                        (unsigned long long)total);
        goto out;
    }
    /* pass 2: local rows and slots */
    size_t slot = 0;
    uint32_t r = NONE;
    prev = NONE;
    for (size_t i = 0; i < n; i++) {
        if (!en[i].mult)
            continue;
        if (en[i].row != prev) {
            prev = en[i].row;
            r = r == NONE ? 0 : r + 1;
            e->rowoff[r] = slot;
            e->rowglob[r] = en[i].row;
        }
        for (uint32_t m = 0; m < en[i].mult; m++) {
            e->slot_col[slot] = en[i].col;
            e->slot_clr[slot] = NONE;
            slot++;
        }
    }
    e->rowoff[nr] = slot;
    *total_out = total;
out:
    free(colsum);
    free(seen);
    return st;
}

totex_status tx_edge_colour(uint32_t rows, uint32_t cols, const tx_ec_entry *entries, size_t n_entries,
                            uint64_t colours, uint32_t k, tx_ec_result *out, totex_error *err)
{
    ec e;
    uint64_t total = 0;
    totex_status st;
    memset(&e, 0, sizeof e);
    e.cur = NONE;
    if (!out || (n_entries && !entries))
        return totex_fail(err, TOTEX_EINVAL, "edge colouring: NULL argument");
    memset(out, 0, sizeof *out);
    if (cols == 0)
        return totex_fail(err, TOTEX_EINVAL, "edge colouring: no columns");
    if (colours > TX_EC_MAX_COLOURS)
        return totex_fail(err, TOTEX_EINVAL, "edge colouring: %llu colours exceed the limit %u",
                          (unsigned long long)colours, TX_EC_MAX_COLOURS);
    if ((uint64_t)cols * colours > TX_EC_MAX_CELLS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "edge colouring: %u columns x %llu colours exceed the limit of 2^30 cells (4 GiB)", cols,
                          (unsigned long long)colours);
    e.C = cols;
    e.S = (uint32_t)colours;
    if ((st = ec_load(&e, rows, entries, n_entries, colours, k, &total, err)) != TOTEX_OK)
        goto fail;
    e.k = (k == 0 || k >= cols || k >= e.nrows) ? 0 : k;
    e.nw = ((size_t)e.S + 63) / 64;
    if (e.nw == 0)
        e.nw = 1;
    e.ns = (e.nw + 63) / 64;
    e.col_at = malloc(sizeof *e.col_at * (size_t)e.C * e.S + 1);
    e.used = malloc(sizeof *e.used * e.nw * e.C);
    e.used_s = malloc(sizeof *e.used_s * e.ns * e.C);
    e.lw = calloc(e.C, sizeof *e.lw);
    e.cnt = calloc((size_t)e.S + 1, sizeof *e.cnt);
    e.rb = calloc(e.nw, sizeof *e.rb);
    e.cur = NONE;
    if (e.k) {
        e.full = malloc(sizeof *e.full * e.nw);
        e.full_s = malloc(sizeof *e.full_s * e.ns);
    }
    if (!e.col_at || !e.used || !e.used_s || !e.lw || !e.cnt || !e.rb || (e.k && (!e.full || !e.full_s))) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for %u columns x %u colours of an edge colouring", e.C,
                        e.S);
        goto fail;
    }
    memset(e.col_at, 0xff, sizeof *e.col_at * (size_t)e.C * e.S);
    for (uint32_t j = 0; j < e.C; j++)
        bm_init(col_used(&e, j), col_used_s(&e, j), e.S, e.nw, e.ns);
    if (e.k)
        bm_init(e.full, e.full_s, e.S, e.nw, e.ns);

    for (uint32_t r = 0; r < e.nrows; r++) {
        /* row r's filter: its slots coloured so far, kept by put and take while r is cur */
        e.cur = r;
        for (size_t s = e.rowoff[r]; s < e.rowoff[r + 1]; s++)
            if (e.slot_clr[s] != NONE)
                rf_add(&e, r, e.slot_clr[s]);
        for (size_t s = e.rowoff[r]; s < e.rowoff[r + 1]; s++)
            if ((st = colour_slot(&e, r, s, err)) != TOTEX_OK)
                goto fail;
        for (size_t s = e.rowoff[r]; s < e.rowoff[r + 1]; s++)
            if (e.slot_clr[s] != NONE)
                rf_sub(&e, r, e.slot_clr[s]);
        e.cur = NONE;
    }
    if (e.k && (st = balance(&e, err)) != TOTEX_OK)
        goto fail;

    /* classes: counting sort of the slots by colour (rows in the caller's order within a colour) */
    free(e.col_at);
    e.col_at = NULL;
    out->colours = e.S;
    out->edges = total;
    out->start = malloc(sizeof *out->start * ((size_t)e.S + 1));
    out->moves = malloc(sizeof *out->moves * ((size_t)total + 1));
    if (!out->start || !out->moves) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory for the %llu moves of an edge colouring",
                        (unsigned long long)total);
        goto fail;
    }
    uint64_t acc = 0;
    for (uint32_t c = 0; c < e.S; c++) {
        out->start[c] = acc;
        acc += e.cnt[c];
    }
    out->start[e.S] = acc;
    for (uint32_t c = 0; c < e.S; c++)
        e.cnt[c] = 0;
    for (uint32_t r = 0; r < e.nrows; r++)
        for (size_t s = e.rowoff[r]; s < e.rowoff[r + 1]; s++) {
            uint32_t c = e.slot_clr[s];
            totex_sym_move *m = &out->moves[out->start[c] + e.cnt[c]++];
            m->row = e.rowglob[r];
            m->col = e.slot_col[s];
        }
    out->kempe_chains = e.kempe;
    out->kempe_edges = e.kempe_edges;
    out->balance_swaps = e.swaps;
    ec_free(&e);
    return TOTEX_OK;
fail:
    ec_free(&e);
    tx_ec_result_free(out);
    return st;
}
