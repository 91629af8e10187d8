/*
 * The task matrix (src/task/task.c) against independent computations:
 *  - entries: recomputed here from the destination's coordinates (001
 *    Section 2 for K2 / hypercubes, Section 8.1 for rings: the short way,
 *    antipodal offsets split into A+ / A- with 0 <= |A+| - |A-| <= 1, by
 *    the documented mirror rule) and the exact matrix of 001 Fig. 6;
 *    row sums equal BFS distances on the materialised product;
 *  - total sum sigma = status of node 0 (000 Theorem 1; 001 Section 7);
 *  - critical sum h against the closed forms of 001 Section 8.2 (p odd:
 *    (pn - n/p)/8; p even, d > 1: pn/8; even ring: n(n+2)/8) and 001
 *    Section 4.1 (hypercube: n/2; (K, L) neighbourhood exchange:
 *    max{L, sum_{i=K}^{L} C(d,i) i/d});
 *  - h equals the multiport cut bound of totex_bounds_compute (000 eq. (4),
 *    an independent module) on tori, hypercubes and generalized hypercubes
 *    whenever every antipodal count n/m_i is even;
 *  - rejections of paths, file graphs and bad (K, L), with their messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* Independent layout: columns of a factor (ring 2, K2 1, K_m m-1). */
static uint32_t cols_of(const totex_factor *f)
{
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_RING: return 2;
    case TOTEX_FACTOR_K2: return 1;
    default: return totex_factor_nodes(f) - 1;
    }
}

static totex_task *te(const totex_network *net)
{
    totex_error err = {{0}};
    totex_task *t = totex_task_total_exchange(net, &err);
    if (!t)
        fail_msg("task matrix of %s: %s", totex_network_spec(net), err.msg);
    return t;
}

/* Multiport cut bound of totex_bounds_compute (000 eq. (4)). */
static uint64_t cut_bound(const totex_network *net)
{
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t cnt = 0, best = 0;
    totex_error err = {{0}};
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &cnt, &best, &err), TOTEX_OK);
    for (size_t i = 0; i < cnt; i++)
        if (b[i].kind == TOTEX_BOUND_CUT)
            return b[i].value;
    fail_msg("no cut bound for %s", totex_network_spec(net));
    return 0;
}

/*
 * Every entry of the matrix recomputed from its destination (001 Sections 2,
 * 8.1), row sums vs BFS, column sums, sigma vs status (000 Theorem 1), h.
 */
static void check_entries(const char *spec)
{
    totex_network *net = ts_net(spec);
    totex_task *t = te(net);
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    uint32_t m[TOTEX_MAX_DIMS], base[TOTEX_MAX_DIMS + 1], stride = 1, strides[TOTEX_MAX_DIMS];
    uint32_t cols = 0;
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        m[i] = totex_factor_nodes(f);
        strides[i] = stride;
        stride *= m[i];
        base[i] = cols;
        cols += cols_of(f);
    }
    base[k] = cols;
    assert_int_equal(stride, n);
    assert_int_equal(totex_task_rows(t), n - 1);
    assert_int_equal(totex_task_cols(t), cols);
    assert_int_equal(totex_task_get_kind(t), TOTEX_TASK_TOTAL_EXCHANGE);
    assert_ptr_equal(totex_task_network(t), net);
    /* column link types */
    for (uint32_t i = 0; i < k; i++) {
        totex_factor_kind fk = totex_factor_get_kind(totex_network_factor(net, i));
        for (uint32_t j = base[i]; j < base[i + 1]; j++) {
            totex_link_type lt = totex_task_column(t, j);
            assert_int_equal(lt.dim, i);
            uint32_t want = fk == TOTEX_FACTOR_RING ? (j == base[i] ? 1 : m[i] - 1) : j - base[i] + 1;
            assert_int_equal(lt.delta, want);
        }
    }
    uint32_t *dist = ts_bfs_all_pairs(net);
    uint64_t *csum = calloc(cols, sizeof *csum);
    uint32_t *expect = malloc(sizeof *expect * cols);
    int64_t aplus[TOTEX_MAX_DIMS] = {0}, aminus[TOTEX_MAX_DIMS] = {0};
    uint64_t sigma = 0, bfs_status = 0;
    uint32_t maxrow = 0;
    for (uint32_t r = 0; r < n - 1; r++) {
        uint32_t v = r + 1, c[TOTEX_MAX_DIMS], rowsum = 0;
        assert_int_equal(totex_task_destination(t, r), v); /* rows in increasing node id order */
        for (uint32_t i = 0; i < k; i++)
            c[i] = (v / strides[i]) % m[i];
        memset(expect, 0, sizeof *expect * cols);
        for (uint32_t i = 0; i < k; i++) {
            totex_factor_kind fk = totex_factor_get_kind(totex_network_factor(net, i));
            if (c[i] == 0)
                continue;
            if (fk == TOTEX_FACTOR_RING) {
                if (2 * c[i] < m[i])
                    expect[base[i]] = c[i];
                else if (2 * c[i] > m[i])
                    expect[base[i] + 1] = m[i] - c[i];
                else {
                    /* antipodal: either direction, m/2 hops; the documented mirror rule (task.h) */
                    uint32_t plus = totex_task_entry(t, r, base[i]), minus = totex_task_entry(t, r, base[i] + 1);
                    assert_true((plus == m[i] / 2 && minus == 0) || (plus == 0 && minus == m[i] / 2));
                    int want_plus = -1;
                    uint32_t others = 0;
                    for (uint32_t j = 0; j < k; j++) {
                        if (j != i && c[j] != 0)
                            others++;
                        if (want_plus < 0 && c[j] != 0 && c[j] != m[j] - c[j])
                            want_plus = c[j] < m[j] - c[j];
                    }
                    if (want_plus < 0)
                        want_plus = others % 2 == 0;
                    assert_int_equal(plus != 0, want_plus);
                    if (plus)
                        aplus[i]++, expect[base[i]] = m[i] / 2;
                    else
                        aminus[i]++, expect[base[i] + 1] = m[i] / 2;
                }
            } else if (fk == TOTEX_FACTOR_K2) {
                expect[base[i]] = 1;
            } else {
                expect[base[i] + c[i] - 1] = 1;
            }
        }
        for (uint32_t j = 0; j < cols; j++) {
            assert_int_equal(totex_task_entry(t, r, j), expect[j]);
            csum[j] += expect[j];
            rowsum += expect[j];
        }
        /* the (column, count) pairs agree with the entries */
        uint32_t pc[TOTEX_MAX_DIMS], pn[TOTEX_MAX_DIMS], cnt = totex_task_row(t, r, pc, pn, TOTEX_MAX_DIMS), s2 = 0;
        for (uint32_t x = 0; x < cnt; x++) {
            assert_int_equal(totex_task_entry(t, r, pc[x]), pn[x]);
            s2 += pn[x];
        }
        assert_int_equal(s2, rowsum);
        /* shortest routes: the row sum is the BFS distance */
        assert_int_equal(rowsum, dist[v]);
        assert_int_equal(totex_task_row_sum(t, r), rowsum);
        sigma += rowsum;
        bfs_status += dist[v];
        if (rowsum > maxrow)
            maxrow = rowsum;
    }
    /* 001 Section 8.1: 0 <= |A+| - |A-| <= 1 in every dimension */
    for (uint32_t i = 0; i < k; i++)
        assert_true(aplus[i] - aminus[i] == 0 || aplus[i] - aminus[i] == 1);
    uint64_t maxcol = 0;
    for (uint32_t j = 0; j < cols; j++) {
        assert_int_equal(totex_task_col_sum(t, j), csum[j]);
        if (csum[j] > maxcol)
            maxcol = csum[j];
    }
    assert_int_equal(totex_task_total_sum(t), sigma);
    assert_int_equal(sigma, bfs_status);
    assert_int_equal(sigma, totex_network_status(net, 0)); /* 000 Theorem 1 */
    assert_int_equal(totex_task_max_row_sum(t), maxrow);
    assert_int_equal(maxrow, totex_network_diameter(net));
    assert_int_equal(totex_task_max_col_sum(t), maxcol);
    assert_int_equal(totex_task_critical_sum(t), maxcol > maxrow ? maxcol : maxrow); /* 001 Definition 3 */
    /* out of range accessors */
    assert_int_equal(totex_task_entry(t, n - 1, 0), 0);
    assert_int_equal(totex_task_destination(t, n - 1), UINT32_MAX);
    free(csum);
    free(expect);
    free(dist);
    totex_task_free(t);
    totex_network_free(net);
}

static void test_entries_brute_force(void **state)
{
    (void)state;
    static const char *specs[] = {"ring:3", "ring:4", "ring:5", "ring:6", "ring:4*ring:3", "torus:4x4",
                                  "torus:3x3x3", "torus:6x2x4", "k2*ring:3*complete:4", "hypercube:4", "ghc:3x4",
                                  "ring:5*ring:4", "complete:5*ring:8", "ring:4*ring:4*ring:4", "k2*ring:6*ring:3",
                                  "complete:3*ring:4*k2*ring:5"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        check_entries(specs[i]);
}

/*
 * 001 Fig. 6: the task matrix of total exchange on the two-dimensional
 * wraparound mesh with n = 16, columns 1+ 1- 2+ 2-, typed in from the paper
 * (its rows in the paper's order; the typo "11" of row 10 read as 1). Each
 * row is located here by its destination x1 = 1+ - 1-, x2 = 2+ - 2- (mod 4):
 * the matrix must be exactly this one, including the A+ / A- split.
 */
static void test_fig6_torus_4x4(void **state)
{
    (void)state;
    static const uint32_t fig6[15][4] = {{0, 2, 0, 2}, {0, 1, 0, 2}, {1, 0, 2, 0}, {0, 2, 0, 1}, {2, 0, 1, 0},
                                         {0, 0, 2, 0}, {2, 0, 0, 0}, {0, 1, 0, 1}, {0, 1, 1, 0}, {1, 0, 0, 1},
                                         {1, 0, 1, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    totex_network *net = ts_net("torus:4x4");
    totex_task *t = te(net);
    int seen[16] = {0};
    assert_int_equal(totex_task_rows(t), 15);
    assert_int_equal(totex_task_cols(t), 4);
    for (int x = 0; x < 15; x++) {
        uint32_t x1 = (4 + fig6[x][0] - fig6[x][1]) % 4, x2 = (4 + fig6[x][2] - fig6[x][3]) % 4;
        uint32_t node = x1 + 4 * x2; /* dimension 1 of the paper is our least significant dimension 0 */
        assert_true(node >= 1 && !seen[node]);
        seen[node] = 1;
        for (uint32_t j = 0; j < 4; j++)
            if (totex_task_entry(t, node - 1, j) != fig6[x][j])
                fail_msg("Fig. 6 row %d (node %u), column %u: %u, paper %u", x, node, j,
                         totex_task_entry(t, node - 1, j), fig6[x][j]);
    }
    /* column sums pn/8 = 8 (001 Section 8.2), sigma = status = 32 */
    for (uint32_t j = 0; j < 4; j++)
        assert_int_equal(totex_task_col_sum(t, j), 8);
    assert_int_equal(totex_task_critical_sum(t), 8);
    assert_int_equal(totex_task_total_sum(t), 32);
    totex_task_free(t);
    totex_network_free(net);
}

/* 001 Section 8.2 closed forms for p^d wraparound meshes, Section 4.1 for hypercubes. */
static void test_critical_sum_formulas(void **state)
{
    (void)state;
    char spec[64];
    for (uint32_t p = 3; p <= 9; p++) {
        for (uint32_t d = 1; d <= 3; d++) {
            uint64_t n = 1;
            size_t off = (size_t)snprintf(spec, sizeof spec, "torus:%u", p);
            for (uint32_t i = 1; i < d; i++)
                off += (size_t)snprintf(spec + off, sizeof spec - off, "x%u", p);
            for (uint32_t i = 0; i < d; i++)
                n *= p;
            uint64_t want;
            if (p % 2)
                want = (p * n - n / p) / 8; /* eq. (4) */
            else if (d > 1)
                want = p * n / 8;
            else
                want = n * (n + 2) / 8; /* the ring */
            totex_network *net = ts_net(spec);
            totex_task *t = te(net);
            if (totex_task_critical_sum(t) != want)
                fail_msg("%s: h = %llu, 001 Section 8.2 gives %llu", spec,
                         (unsigned long long)totex_task_critical_sum(t), (unsigned long long)want);
            totex_task_free(t);
            totex_network_free(net);
        }
    }
    for (uint32_t d = 1; d <= 10; d++) {
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        totex_network *net = ts_net(spec);
        totex_task *t = te(net);
        assert_int_equal(totex_task_critical_sum(t), (1u << d) / 2); /* 001 Section 4.1 */
        assert_int_equal(totex_task_total_sum(t), (uint64_t)d << (d - 1));
        totex_task_free(t);
        totex_network_free(net);
    }
}

/*
 * h == multiport cut bound (000 eq. (4), totex_bounds_compute) when every
 * even ring side m_i >= 4 has an even antipodal count n/m_i; otherwise h is
 * the column sum with the larger half of the antipodal packets, 001 Section
 * 8.1-8.2: (n/m)(m^2/8 - m/4) + ceil((n/m)/2) m/2 (the ring: n(n+2)/8).
 */
static void check_cut(const char *spec)
{
    totex_network *net = ts_net(spec);
    totex_task *t = te(net);
    const uint64_t n = totex_network_nodes(net);
    int balanced = 1;
    uint64_t want_col = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint64_t m = totex_factor_nodes(f), q = n / m, col;
        switch (totex_factor_get_kind(f)) {
        case TOTEX_FACTOR_RING:
            if (m % 2 == 0) {
                if (q % 2)
                    balanced = 0;
                col = q * (m / 2 - 1) * (m / 2) / 2 + (q + 1) / 2 * (m / 2);
            } else {
                col = q * (m * m - 1) / 8;
            }
            break;
        case TOTEX_FACTOR_K2: col = n / 2; break;
        default: col = q; break;
        }
        if (col > want_col)
            want_col = col;
    }
    uint64_t h = totex_task_critical_sum(t);
    uint64_t diam = totex_network_diameter(net);
    assert_int_equal(h, want_col > diam ? want_col : diam);
    if (balanced) {
        uint64_t cut = cut_bound(net);
        if (h != cut)
            fail_msg("%s: critical sum %llu != multiport cut bound %llu", spec, (unsigned long long)h,
                     (unsigned long long)cut);
    }
    totex_task_free(t);
    totex_network_free(net);
}

static void test_cut_bound_sweep(void **state)
{
    (void)state;
    char spec[64];
    /* tori with sides 2..9 in 1..3 dimensions (side 2 is k2) */
    for (uint32_t a = 2; a <= 9; a++) {
        snprintf(spec, sizeof spec, "torus:%u", a);
        check_cut(spec);
        for (uint32_t b = 2; b <= 9; b++) {
            snprintf(spec, sizeof spec, "torus:%ux%u", a, b);
            check_cut(spec);
            for (uint32_t c = 2; c <= 9; c++) {
                snprintf(spec, sizeof spec, "torus:%ux%ux%u", a, b, c);
                check_cut(spec);
            }
        }
    }
    for (uint32_t d = 1; d <= 10; d++) {
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        check_cut(spec);
    }
    for (uint32_t a = 2; a <= 4; a++) {
        snprintf(spec, sizeof spec, "ghc:%u", a);
        check_cut(spec);
        for (uint32_t b = 2; b <= 4; b++) {
            snprintf(spec, sizeof spec, "ghc:%ux%u", a, b);
            check_cut(spec);
            for (uint32_t c = 2; c <= 4; c++) {
                snprintf(spec, sizeof spec, "ghc:%ux%ux%u", a, b, c);
                check_cut(spec);
            }
        }
    }
    check_cut("k2*ring:3*complete:4");
    check_cut("complete:5*ring:8*k2");
    check_cut("ring:6*complete:3*ring:4");
}

static uint64_t binom(uint32_t d, uint32_t i)
{
    uint64_t c = 1;
    for (uint32_t x = 0; x < i; x++)
        c = c * (d - x) / (x + 1);
    return c;
}

/* (K, L) neighbourhood exchange, 001 Section 4.1: rows, entries, h = max{L, sum C(d,i) i/d}. */
static void test_neighbourhood(void **state)
{
    (void)state;
    char spec[32];
    for (uint32_t d = 4; d <= 8; d++) {
        snprintf(spec, sizeof spec, "hypercube:%u", d);
        totex_network *net = ts_net(spec);
        for (uint32_t K = 1; K <= d; K++) {
            for (uint32_t L = K; L <= d; L++) {
                totex_error err = {{0}};
                totex_task *t = totex_task_neighbourhood(net, K, L, &err);
                if (!t)
                    fail_msg("(%u, %u) on %s: %s", K, L, spec, err.msg);
                assert_int_equal(totex_task_get_kind(t), TOTEX_TASK_NEIGHBOURHOOD);
                uint64_t rows = 0, weighted = 0;
                for (uint32_t i = K; i <= L; i++) {
                    rows += binom(d, i);
                    weighted += binom(d, i) * i;
                }
                assert_int_equal(totex_task_rows(t), rows);
                assert_int_equal(totex_task_cols(t), d);
                /* rows: increasing node ids at Hamming distance K..L; entries = bits */
                uint32_t prev = 0, maxrow = 0;
                uint64_t col[32] = {0}, sigma = 0;
                for (uint32_t r = 0; r < rows; r++) {
                    uint32_t v = totex_task_destination(t, r), w = 0;
                    assert_true(v > prev);
                    prev = v;
                    for (uint32_t j = 0; j < d; j++) {
                        uint32_t bit = (v >> j) & 1u;
                        assert_int_equal(totex_task_entry(t, r, j), bit);
                        col[j] += bit;
                        w += bit;
                    }
                    assert_true(w >= K && w <= L);
                    assert_int_equal(totex_task_row_sum(t, r), w);
                    if (w > maxrow)
                        maxrow = w;
                    sigma += w;
                }
                /* critical sum of the actual matrix, computed here */
                uint64_t hmat = maxrow;
                for (uint32_t j = 0; j < d; j++) {
                    assert_int_equal(totex_task_col_sum(t, j), col[j]);
                    if (col[j] > hmat)
                        hmat = col[j];
                }
                /* the closed form of 001 Section 4.1, rounded up */
                uint64_t colform = (weighted + d - 1) / d;
                uint64_t hform = colform > L ? colform : L;
                assert_int_equal(hmat, hform);
                assert_int_equal(totex_task_critical_sum(t), hform);
                assert_int_equal(totex_task_total_sum(t), sigma);
                if (K == 1 && L == d)
                    assert_int_equal(hform, (1u << d) / 2);
                totex_task_free(t);
            }
        }
        totex_network_free(net);
    }
}

static void expect_reject(totex_task *t, const totex_error *err, const char *w1, const char *w2)
{
    assert_null(t);
    if (!strstr(err->msg, w1) || !strstr(err->msg, w2))
        fail_msg("message lacks '%s' / '%s': %s", w1, w2, err->msg);
}

static void test_rejections(void **state)
{
    (void)state;
    totex_error err = {{0}};
    totex_network *net = ts_net("ring:5*path:4");
    assert_null(totex_task_total_exchange(net, &err));
    expect_reject(NULL, &err, "factor 1 (path:4)", "vertex-transitive");
    assert_non_null(strstr(err.msg, "isotropic"));
    totex_network_free(net);

    net = ts_net("mesh:3x3");
    assert_null(totex_task_total_exchange(net, &err));
    expect_reject(NULL, &err, "factor 0 (path:3)", "not isotropic");
    totex_network_free(net);

    net = ts_net("k2*file:" TOTEX_TEST_DATA "/net_petersen.graphml");
    memset(&err, 0, sizeof err);
    assert_null(totex_task_total_exchange(net, &err));
    expect_reject(NULL, &err, "factor 1 (file:", "vertex-transitive");
    totex_network_free(net);

    /* an error code, not only a message */
    net = ts_net("path:3");
    {
        totex_task *t = totex_task_total_exchange(net, NULL);
        assert_null(t);
    }
    totex_network_free(net);

    net = ts_net("hypercube:4");
    expect_reject(totex_task_neighbourhood(net, 0, 2, &err), &err, "1 <= K <= L <= d = 4", "(0, 2)");
    expect_reject(totex_task_neighbourhood(net, 3, 2, &err), &err, "1 <= K <= L <= d = 4", "(3, 2)");
    expect_reject(totex_task_neighbourhood(net, 1, 5, &err), &err, "1 <= K <= L <= d = 4", "(1, 5)");
    totex_network_free(net);

    net = ts_net("torus:4x4");
    expect_reject(totex_task_neighbourhood(net, 1, 2, &err), &err, "hypercube", "ring:4");
    totex_network_free(net);

    /* too large to store: 65535^2 - 1 rows x 2 dimensions */
    net = ts_net("torus:65535x65535");
    expect_reject(totex_task_total_exchange(net, &err), &err, "limit", "4294836224 rows");
    totex_network_free(net);
}

static void test_critical_line(void **state)
{
    (void)state;
    char buf[160];
    totex_network *net = ts_net("ring:8");
    totex_task *t = te(net);
    /* n(n+2)/8 = 10 on the + column (A+ holds the single antipodal packet) */
    assert_string_equal(totex_task_critical_line(t, buf, sizeof buf), "column 0 (dimension 0, + link of ring:8): 10 hops");
    totex_task_free(t);
    totex_network_free(net);

    net = ts_net("ring:3*complete:4");
    t = te(net);
    /* ring:3 columns: (n/m)(m^2-1)/8 = 4; K4 columns: n/m = 3 */
    assert_string_equal(totex_task_critical_line(t, buf, sizeof buf), "column 0 (dimension 0, + link of ring:3): 4 hops");
    totex_task_free(t);
    totex_network_free(net);

    net = ts_net("hypercube:4");
    totex_error err = {{0}};
    t = totex_task_neighbourhood(net, 4, 4, &err);
    assert_non_null(t);
    /* one row, 1111: row sum 4 > column sums 1 */
    assert_string_equal(totex_task_critical_line(t, buf, sizeof buf), "row 0 (packet to node 15): 4 hops");
    totex_task_free(t);
    totex_network_free(net);
    totex_task_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_brute_force), cmocka_unit_test(test_fig6_torus_4x4),
        cmocka_unit_test(test_critical_sum_formulas), cmocka_unit_test(test_cut_bound_sweep),
        cmocka_unit_test(test_neighbourhood), cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_critical_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
