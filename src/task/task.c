/*
 * The task matrix of an isotropic task on a Cayley product of rings, K2 and
 * complete graphs (001 Section 2, Definitions 1-3; wraparound meshes: 001
 * Section 8.1 with the A+ / A- split of antipodal packets), its row and
 * column sums, critical sum h (001 Definition 3, Corollary 1, Theorem 9) and
 * total sum sigma (001 Section 7). Tasks: total exchange, and the (K, L)
 * neighbourhood exchange of the hypercube (001 Section 4.1).
 *
 * Layout: row r is one packet of node 0, destinations in increasing node id
 * order (total exchange: row r goes to node r + 1). Columns: dimension by
 * dimension, ring (m >= 3) "+" (delta 1) then "-" (delta m-1), K2 one column
 * (delta 1), K_m m-1 columns (delta g = 1..m-1). Each row has at most one
 * nonzero entry per dimension, stored as a (local column, count) pair of two
 * uint16 (4 bytes per row per dimension): a ring offset x goes x hops "+" if
 * x < m/2, m-x hops "-" if x > m/2; the antipodal offset m/2 (m even) goes
 * "+" when the packet is in A+_i and "-" when in A-_i.
 *
 * The A+ / A- split (001 Section 8.1 leaves it arbitrary) pairs each
 * antipodal packet with its mirror image: the destinations y and -y (the
 * other coordinates negated mod m_j) are at the same distance. Let j* be the
 * first dimension whose coordinate c is not its own negative (2c != 0 mod
 * m_j; the antipodal coordinate m_i/2 is its own negative, so j* != i). If
 * j* exists the packet is
 * in A+_i iff 2c_j* < m_j*, so each mirror pair is split one + one -;
 * otherwise (every coordinate is 0 or m_j/2) it is in A+_i iff the number of
 * its nonzero coordinates other than i is even. Over those self-mirror
 * packets the even count minus the odd count is prod_{j != i} (1 - [m_j
 * even]), i.e. 1 when every other side is odd and 0 otherwise, so
 * 0 <= |A+_i| - |A-_i| <= 1 as 001 Section 8.1 requires, the split is
 * balanced within each distance class up to the self-mirror packets (as
 * 001 Section 8.4 clears the matrix class by class), and it reproduces the
 * task matrix of 001 Fig. 6 (torus:4x4) exactly.
 */
#include "totex/task.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* one dimension of one row: count hops on local column col of that dimension (count 0: none) */
typedef struct task_entry {
    uint16_t col;
    uint16_t count;
} task_entry;

struct totex_task {
    const totex_network *net;
    totex_task_kind kind;
    uint32_t k;                      /* dimensions */
    uint32_t rows, cols;
    uint32_t m[TOTEX_MAX_DIMS];
    uint32_t stride[TOTEX_MAX_DIMS];
    totex_factor_kind fkind[TOTEX_MAX_DIMS];
    uint32_t col_base[TOTEX_MAX_DIMS + 1]; /* first column of each dimension; col_base[k] = cols */
    totex_link_type *coltype;        /* cols */
    uint32_t *dest;                  /* rows, neighbourhood exchange only (NULL: row r -> node r+1) */
    task_entry *ent;                 /* rows * k */
    uint32_t *row_sum;               /* rows */
    uint64_t *col_sum;               /* cols */
    uint64_t sigma, max_col, h;
    uint32_t max_row;
    uint32_t period_dim;             /* UINT32_MAX, or the even ring side of a period-2 task */
    uint32_t base_rows;              /* packets of one node (n - 1 for total exchange) */
};

/* Columns of a factor of the given kind and size. */
static uint32_t factor_cols(totex_factor_kind kind, uint32_t m)
{
    switch (kind) {
    case TOTEX_FACTOR_RING: return 2;
    case TOTEX_FACTOR_K2: return 1;
    case TOTEX_FACTOR_COMPLETE: return m - 1;
    default: return 0;
    }
}

/* Common set-up: check the factors, lay out the columns, allocate rows. */
static totex_task *task_alloc(const totex_network *net, totex_task_kind kind, uint32_t rows, totex_error *err)
{
    totex_task *t;
    uint32_t k = totex_network_dims(net);
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_factor_kind fk = totex_factor_get_kind(f);
        if (fk == TOTEX_FACTOR_PATH) {
            totex_fail(err, TOTEX_ENOTAPPLICABLE,
                       "no task matrix for %s: factor %u (%s) is a linear array, which is not vertex-transitive "
                       "(its end nodes see the network differently from its middle), so total exchange is not "
                       "isotropic there (001 Sections 2, 8.1); task matrices need rings, k2 or complete graphs "
                       "(use ring:%u for a wraparound mesh)",
                       totex_network_spec(net), i, totex_factor_name(f), totex_factor_nodes(f));
            return NULL;
        }
        if (fk == TOTEX_FACTOR_GRAPH) {
            totex_fail(err, TOTEX_ENOTAPPLICABLE,
                       "no task matrix for %s: factor %u (%s) is a graph read from a file, which is not known to "
                       "be vertex-transitive (a Cayley graph), so total exchange is not isotropic there "
                       "(001 Sections 2, 8.1); task matrices need rings, k2 or complete graphs",
                       totex_network_spec(net), i, totex_factor_name(f));
            return NULL;
        }
    }
    if ((uint64_t)rows * (k ? k : 1) > TOTEX_TASK_MAX_ENTRIES) {
        totex_fail(err, TOTEX_ENOMEM,
                   "the task matrix of %s would have %" PRIu32 " rows x %" PRIu32
                   " dimensions, above the limit of %" PRIu64 " stored entries (4 bytes each)",
                   totex_network_spec(net), rows, k, (uint64_t)TOTEX_TASK_MAX_ENTRIES);
        return NULL;
    }
    t = calloc(1, sizeof *t);
    if (!t)
        goto nomem;
    t->net = net;
    t->kind = kind;
    t->k = k;
    t->rows = rows;
    t->base_rows = rows;
    t->period_dim = UINT32_MAX;
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        t->m[i] = totex_factor_nodes(f);
        t->stride[i] = totex_network_stride(net, i);
        t->fkind[i] = totex_factor_get_kind(f);
        t->col_base[i] = t->cols;
        t->cols += factor_cols(t->fkind[i], t->m[i]);
    }
    t->col_base[k] = t->cols;
    t->coltype = malloc(sizeof *t->coltype * (t->cols ? t->cols : 1));
    t->col_sum = calloc(t->cols ? t->cols : 1, sizeof *t->col_sum);
    t->ent = malloc(sizeof *t->ent * ((size_t)rows * k + 1));
    t->row_sum = malloc(sizeof *t->row_sum * ((size_t)rows + 1));
    if (!t->coltype || !t->col_sum || !t->ent || !t->row_sum)
        goto nomem;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t b = t->col_base[i];
        switch (t->fkind[i]) {
        case TOTEX_FACTOR_RING:
            t->coltype[b] = (totex_link_type){i, 1};
            t->coltype[b + 1] = (totex_link_type){i, t->m[i] - 1};
            break;
        case TOTEX_FACTOR_K2:
            t->coltype[b] = (totex_link_type){i, 1};
            break;
        default:
            for (uint32_t g = 1; g < t->m[i]; g++)
                t->coltype[b + g - 1] = (totex_link_type){i, g};
        }
    }
    return t;
nomem:
    totex_task_free(t);
    totex_fail(err, TOTEX_ENOMEM, "out of memory building the task matrix of %s (%" PRIu32 " rows, %" PRIu32 " dimensions)",
               totex_network_spec(net), rows, k);
    return NULL;
}

/* Fill row r (destination node `dst`, source node 0) and accumulate the sums. */
static void fill_row(totex_task *t, uint32_t r, uint32_t dst)
{
    uint32_t c[TOTEX_MAX_DIMS];
    uint32_t nonzero = 0, rsum = 0;
    int mirror_plus = -1; /* -1: every coordinate is its own negative; else 1 / 0 from the first that is not */
    task_entry *e = t->ent + (size_t)r * t->k;
    for (uint32_t i = 0; i < t->k; i++) {
        c[i] = (dst / t->stride[i]) % t->m[i];
        nonzero += c[i] != 0;
        if (mirror_plus < 0 && (2 * c[i]) % t->m[i] != 0)
            mirror_plus = 2 * c[i] < t->m[i];
    }
    for (uint32_t i = 0; i < t->k; i++) {
        const uint32_t x = c[i], m = t->m[i];
        task_entry en = {0, 0};
        if (x != 0) {
            switch (t->fkind[i]) {
            case TOTEX_FACTOR_RING:
                if (2 * x < m)
                    en = (task_entry){0, (uint16_t)x};
                else if (2 * x > m)
                    en = (task_entry){1, (uint16_t)(m - x)};
                else if (mirror_plus >= 0) /* antipodal, mirror pair: + for the half with 2c_j* < m_j* */
                    en = (task_entry){(uint16_t)(mirror_plus ? 0 : 1), (uint16_t)x};
                else /* antipodal, self-mirror: + iff an even number of other nonzero coordinates */
                    en = (task_entry){(uint16_t)(((nonzero - 1) & 1u) ? 1 : 0), (uint16_t)x};
                break;
            case TOTEX_FACTOR_K2:
                en = (task_entry){0, 1};
                break;
            default:
                en = (task_entry){(uint16_t)(x - 1), 1};
            }
        }
        e[i] = en;
        if (en.count) {
            rsum += en.count;
            t->col_sum[t->col_base[i] + en.col] += en.count;
        }
    }
    t->row_sum[r] = rsum;
    t->sigma += rsum;
    if (rsum > t->max_row)
        t->max_row = rsum;
}

static void finish(totex_task *t)
{
    t->max_col = 0;
    for (uint32_t j = 0; j < t->cols; j++)
        if (t->col_sum[j] > t->max_col)
            t->max_col = t->col_sum[j];
    t->h = t->max_col > t->max_row ? t->max_col : t->max_row;
}

totex_task *totex_task_total_exchange(const totex_network *net, totex_error *err)
{
    if (!net) {
        totex_fail(err, TOTEX_EINVAL, "no network given for the task matrix");
        return NULL;
    }
    uint32_t n = totex_network_nodes(net);
    totex_task *t = task_alloc(net, TOTEX_TASK_TOTAL_EXCHANGE, n - 1, err);
    if (!t)
        return NULL;
    for (uint32_t r = 0; r + 1 < n; r++)
        fill_row(t, r, r + 1);
    finish(t);
    return t;
}

totex_task *totex_task_total_exchange_period2(const totex_network *net, uint32_t dim, totex_error *err)
{
    if (!net) {
        totex_fail(err, TOTEX_EINVAL, "no network given for the task matrix");
        return NULL;
    }
    if (dim >= totex_network_dims(net) ||
        totex_factor_get_kind(totex_network_factor(net, dim)) != TOTEX_FACTOR_RING ||
        totex_factor_nodes(totex_network_factor(net, dim)) % 2) {
        totex_fail(err, TOTEX_EINVAL,
                   "a period-2 task needs an even ring side: dimension %u of %s is not one", dim,
                   totex_network_spec(net));
        return NULL;
    }
    uint32_t n = totex_network_nodes(net);
    if ((uint64_t)2 * (n - 1) > UINT32_MAX) {
        totex_fail(err, TOTEX_EOVERFLOW, "a period-2 task of %s has more than 2^32-1 rows", totex_network_spec(net));
        return NULL;
    }
    totex_task *t = task_alloc(net, TOTEX_TASK_TOTAL_EXCHANGE, 2 * (n - 1), err);
    if (!t)
        return NULL;
    t->period_dim = dim;
    t->base_rows = n - 1;
    for (uint32_t r = 0; r + 1 < n; r++) {
        fill_row(t, r, r + 1);
        fill_row(t, n - 1 + r, r + 1);
        /* odd representative: antipodal packets along the periodic side take the other
           direction (003 Section 4.2 alternates it with the node's parity) */
        task_entry *e = t->ent + (size_t)(n - 1 + r) * t->k + dim;
        if (e->count && 2u * e->count == t->m[dim]) {
            t->col_sum[t->col_base[dim] + e->col] -= e->count;
            e->col ^= 1u;
            t->col_sum[t->col_base[dim] + e->col] += e->count;
        }
    }
    finish(t);
    return t;
}

uint32_t totex_task_period_dim(const totex_task *t) { return t->period_dim; }

uint32_t totex_task_source(const totex_task *t, uint32_t r)
{
    if (r >= t->rows)
        return UINT32_MAX;
    return r < t->base_rows ? 0 : t->stride[t->period_dim];
}

static uint32_t popcount32(uint32_t x)
{
    uint32_t c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

totex_task *totex_task_neighbourhood(const totex_network *net, uint32_t K, uint32_t L, totex_error *err)
{
    if (!net) {
        totex_fail(err, TOTEX_EINVAL, "no network given for the neighbourhood exchange");
        return NULL;
    }
    uint32_t d = totex_network_dims(net);
    for (uint32_t i = 0; i < d; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        if (totex_factor_get_kind(f) != TOTEX_FACTOR_K2) {
            totex_fail(err, TOTEX_ENOTAPPLICABLE,
                       "the (K, L) neighbourhood exchange is defined on hypercubes (001 Section 4.1), but factor %u "
                       "of %s is %s, not k2; use hypercube:D",
                       i, totex_network_spec(net), totex_factor_name(f));
            return NULL;
        }
    }
    if (K < 1 || K > L || L > d) {
        totex_fail(err, TOTEX_EINVAL,
                   "bad neighbourhood (K, L) = (%" PRIu32 ", %" PRIu32 ") on %s: need 1 <= K <= L <= d = %" PRIu32
                   " (K, L are Hamming distances; K = 1, L = d is total exchange)",
                   K, L, totex_network_spec(net), d);
        return NULL;
    }
    uint32_t n = totex_network_nodes(net); /* 2^d, d <= 31 */
    uint64_t rows = 0;
    {
        uint64_t c = 1; /* C(d, i) */
        for (uint32_t i = 0; i <= L; i++) {
            if (i >= K)
                rows += c;
            c = c * (d - i) / (i + 1);
        }
    }
    totex_task *t = task_alloc(net, TOTEX_TASK_NEIGHBOURHOOD, (uint32_t)rows, err);
    if (!t)
        return NULL;
    t->dest = malloc(sizeof *t->dest * ((size_t)rows + 1));
    if (!t->dest) {
        totex_task_free(t);
        totex_fail(err, TOTEX_ENOMEM, "out of memory building the (%" PRIu32 ", %" PRIu32 ") neighbourhood task of %s",
                   K, L, totex_network_spec(net));
        return NULL;
    }
    uint32_t r = 0;
    for (uint32_t v = 1; v < n; v++) {
        uint32_t w = popcount32(v);
        if (w >= K && w <= L) {
            t->dest[r] = v;
            fill_row(t, r, v);
            r++;
        }
    }
    finish(t);
    return t;
}

void totex_task_free(totex_task *t)
{
    if (!t)
        return;
    free(t->coltype);
    free(t->dest);
    free(t->ent);
    free(t->row_sum);
    free(t->col_sum);
    free(t);
}

totex_task_kind totex_task_get_kind(const totex_task *t) { return t->kind; }
const totex_network *totex_task_network(const totex_task *t) { return t->net; }
uint32_t totex_task_rows(const totex_task *t) { return t->rows; }
uint32_t totex_task_cols(const totex_task *t) { return t->cols; }

totex_link_type totex_task_column(const totex_task *t, uint32_t j)
{
    if (j >= t->cols)
        return (totex_link_type){UINT32_MAX, 0};
    return t->coltype[j];
}

uint32_t totex_task_destination(const totex_task *t, uint32_t r)
{
    if (r >= t->rows)
        return UINT32_MAX;
    return t->dest ? t->dest[r] : (r % t->base_rows) + 1;
}

uint32_t totex_task_row(const totex_task *t, uint32_t r, uint32_t *cols, uint32_t *counts, uint32_t cap)
{
    uint32_t cnt = 0;
    if (r >= t->rows)
        return 0;
    const task_entry *e = t->ent + (size_t)r * t->k;
    for (uint32_t i = 0; i < t->k; i++) {
        if (!e[i].count)
            continue;
        if (cnt < cap) {
            if (cols)
                cols[cnt] = t->col_base[i] + e[i].col;
            if (counts)
                counts[cnt] = e[i].count;
        }
        cnt++;
    }
    return cnt;
}

uint32_t totex_task_entry(const totex_task *t, uint32_t r, uint32_t j)
{
    if (r >= t->rows || j >= t->cols)
        return 0;
    uint32_t dim = t->coltype[j].dim;
    task_entry e = t->ent[(size_t)r * t->k + dim];
    return e.count && t->col_base[dim] + e.col == j ? e.count : 0;
}

uint32_t totex_task_row_sum(const totex_task *t, uint32_t r) { return r < t->rows ? t->row_sum[r] : 0; }
uint64_t totex_task_col_sum(const totex_task *t, uint32_t j) { return j < t->cols ? t->col_sum[j] : 0; }
uint64_t totex_task_critical_sum(const totex_task *t) { return t->h; }
uint64_t totex_task_total_sum(const totex_task *t) { return t->sigma; }
uint32_t totex_task_max_row_sum(const totex_task *t) { return t->max_row; }
uint64_t totex_task_max_col_sum(const totex_task *t) { return t->max_col; }

char *totex_task_critical_line(const totex_task *t, char *buf, size_t len)
{
    if (!buf || !len)
        return buf;
    if (t->max_col >= t->max_row) {
        for (uint32_t j = 0; j < t->cols; j++) {
            if (t->col_sum[j] != t->h)
                continue;
            totex_link_type lt = t->coltype[j];
            const totex_factor *f = totex_network_factor(t->net, lt.dim);
            char what[48];
            if (t->fkind[lt.dim] == TOTEX_FACTOR_RING)
                snprintf(what, sizeof what, "%s link", lt.delta == 1 ? "+" : "-");
            else if (t->fkind[lt.dim] == TOTEX_FACTOR_K2)
                snprintf(what, sizeof what, "link");
            else
                snprintf(what, sizeof what, "+%" PRIu32 " link", lt.delta);
            snprintf(buf, len, "column %" PRIu32 " (dimension %" PRIu32 ", %s of %s): %" PRIu64 " hops", j, lt.dim,
                     what, totex_factor_name(f), t->h);
            return buf;
        }
    }
    for (uint32_t r = 0; r < t->rows; r++) {
        if (t->row_sum[r] == t->h) {
            snprintf(buf, len, "row %" PRIu32 " (packet to node %" PRIu32 "): %" PRIu64 " hops", r,
                     totex_task_destination(t, r), t->h);
            return buf;
        }
    }
    snprintf(buf, len, "empty task matrix: 0 hops");
    return buf;
}
