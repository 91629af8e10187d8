/*
 * Bipartite multigraph edge colouring (src/algorithms/edge_colour.c), the
 * decomposition of 001 Theorem 4 (S >= h permutation matrices) and Theorem 7
 * (S >= max(ceil(sigma/k), h) k-permutation matrices).
 *
 * Every result is checked here independently of the implementation: exactly
 * S classes, in each class every row and every column at most once and at
 * most k edges, and every entry's multiplicity covered exactly (a dense
 * rows x columns count matrix rebuilt from the classes).
 *
 * Inputs: random multigraphs over many seeds, sizes and k; worst cases where
 * S equals the maximum degree exactly (regular multigraphs: unions of random
 * perfect matchings, and row-regular graphs whose columns are all tight), so
 * every class is a perfect matching of the tight lines and the alternating
 * path exchanges are exercised; k-port cases where S = ceil(sigma/k) exactly;
 * a Fugaku-sized task matrix (158,975 rows, 10 columns, 476,928 colours).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/edge_colour.h"
#include "support.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
static uint32_t rndn(uint32_t n) { return (uint32_t)(rnd() % n); }

typedef struct graph {
    uint32_t R, C;
    tx_ec_entry *e;
    size_t n, cap;
} graph;

static void add(graph *g, uint32_t r, uint32_t c, uint32_t m)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->e = realloc(g->e, sizeof *g->e * g->cap);
        assert_non_null(g->e);
    }
    g->e[g->n].row = r;
    g->e[g->n].col = c;
    g->e[g->n].mult = m;
    g->n++;
}

/* max line sum h and total sigma, computed here */
static void sums(const graph *g, uint64_t *h, uint64_t *sigma)
{
    uint64_t *rs = calloc(g->R, sizeof *rs), *cs = calloc(g->C, sizeof *cs);
    *h = 0;
    *sigma = 0;
    for (size_t i = 0; i < g->n; i++) {
        rs[g->e[i].row] += g->e[i].mult;
        cs[g->e[i].col] += g->e[i].mult;
        *sigma += g->e[i].mult;
    }
    for (uint32_t r = 0; r < g->R; r++)
        if (rs[r] > *h)
            *h = rs[r];
    for (uint32_t c = 0; c < g->C; c++)
        if (cs[c] > *h)
            *h = cs[c];
    free(rs);
    free(cs);
}

/* Independent check of a colouring of g with S colours, at most k per colour (0: any). */
static void verify(const graph *g, uint64_t S, uint32_t k, const tx_ec_result *res, const char *what)
{
    uint64_t *want = calloc((size_t)g->R * g->C, sizeof *want);
    uint64_t *got = calloc((size_t)g->R * g->C, sizeof *got);
    uint64_t *rowstamp = calloc(g->R, sizeof *rowstamp), *colstamp = calloc(g->C, sizeof *colstamp);
    uint64_t total = 0;
    assert_non_null(want);
    assert_non_null(got);
    for (size_t i = 0; i < g->n; i++) {
        want[(size_t)g->e[i].row * g->C + g->e[i].col] += g->e[i].mult;
        total += g->e[i].mult;
    }
    if (res->colours != S)
        fail_msg("%s: %llu classes, asked for %llu", what, (unsigned long long)res->colours, (unsigned long long)S);
    assert_int_equal(res->start[0], 0);
    assert_int_equal(res->start[S], total);
    assert_int_equal(res->edges, total);
    for (uint64_t c = 0; c < S; c++) {
        uint64_t a = res->start[c], b = res->start[c + 1];
        assert_true(a <= b);
        if (k && b - a > k)
            fail_msg("%s: colour %llu has %llu edges > k = %u", what, (unsigned long long)c,
                     (unsigned long long)(b - a), k);
        for (uint64_t x = a; x < b; x++) {
            uint32_t r = res->moves[x].row, j = res->moves[x].col;
            assert_true(r < g->R && j < g->C);
            if (rowstamp[r] == c + 1)
                fail_msg("%s: colour %llu uses row %u twice", what, (unsigned long long)c, r);
            if (colstamp[j] == c + 1)
                fail_msg("%s: colour %llu uses column %u twice", what, (unsigned long long)c, j);
            rowstamp[r] = colstamp[j] = c + 1;
            got[(size_t)r * g->C + j]++;
        }
    }
    for (size_t i = 0; i < (size_t)g->R * g->C; i++)
        if (got[i] != want[i])
            fail_msg("%s: entry (%zu, %zu) covered %llu times, multiplicity %llu", what, i / g->C, i % g->C,
                     (unsigned long long)got[i], (unsigned long long)want[i]);
    free(want);
    free(got);
    free(rowstamp);
    free(colstamp);
}

static uint64_t kempe_total, swaps_total; /* the exchange paths were exercised */

static void run(const graph *g, uint64_t S, uint32_t k, const char *what)
{
    tx_ec_result res;
    totex_error err = {{0}};
    totex_status st = tx_edge_colour(g->R, g->C, g->e, g->n, S, k, &res, &err);
    if (st != TOTEX_OK)
        fail_msg("%s: %s", what, err.msg);
    verify(g, S, k, &res, what);
    kempe_total += res.kempe_chains;
    swaps_total += res.balance_swaps;
    tx_ec_result_free(&res);
}

/* random multigraph: each row gets up to maxdeg entries (possibly repeating a column) */
static void random_graph(graph *g, uint32_t R, uint32_t C, uint32_t maxent, uint32_t maxmult)
{
    memset(g, 0, sizeof *g);
    g->R = R;
    g->C = C;
    for (uint32_t r = 0; r < R; r++) {
        if (rndn(8) == 0)
            continue; /* some empty rows */
        uint32_t ne = 1 + rndn(maxent);
        for (uint32_t i = 0; i < ne; i++)
            add(g, r, rndn(C), 1 + rndn(maxmult));
    }
}

static void test_random(void **state)
{
    (void)state;
    char what[160];
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng_state = seed * 7919;
        graph g;
        uint32_t C = 1 + rndn(seed % 3 == 0 ? 40 : 10), R = 1 + rndn(seed % 5 == 0 ? 2000 : 120);
        random_graph(&g, R, C, 1 + rndn(6), 1 + rndn(4));
        /* rows in a random order (each row's entries contiguous) */
        uint64_t h, sigma;
        sums(&g, &h, &sigma);
        snprintf(what, sizeof what, "seed %llu (%u x %u, h %llu, sigma %llu)", (unsigned long long)seed, R, C,
                 (unsigned long long)h, (unsigned long long)sigma);
        run(&g, h, 0, what);                /* S = h exactly (Theorem 4) */
        run(&g, h + 1 + rndn(5), 0, what);  /* more colours than needed */
        uint32_t ks[] = {1, 2, 3, 1 + rndn(C), C};
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            uint32_t k = ks[i];
            uint64_t S = (sigma + k - 1) / k;
            if (S < h)
                S = h; /* Theorem 7: max(ceil(sigma/k), h) */
            run(&g, S, k, what);
        }
        free(g.e);
    }
}

/* union of d random perfect matchings on an m x m bipartite graph: d-regular, S = d */
static void test_regular_matchings(void **state)
{
    (void)state;
    char what[128];
    for (uint64_t seed = 1; seed <= 60; seed++) {
        rng_state = seed * 104729;
        uint32_t m = 2 + rndn(seed % 4 == 0 ? 100 : 30), d = 1 + rndn(12);
        uint32_t *perm = malloc(sizeof *perm * m);
        uint32_t *cnt = calloc((size_t)m * m, sizeof *cnt);
        graph g = {m, m, NULL, 0, 0};
        for (uint32_t t = 0; t < d; t++) {
            for (uint32_t i = 0; i < m; i++)
                perm[i] = i;
            for (uint32_t i = m - 1; i > 0; i--) {
                uint32_t j = rndn(i + 1), x = perm[i];
                perm[i] = perm[j];
                perm[j] = x;
            }
            for (uint32_t i = 0; i < m; i++)
                cnt[(size_t)i * m + perm[i]]++;
        }
        for (uint32_t r = 0; r < m; r++)
            for (uint32_t c = 0; c < m; c++)
                if (cnt[(size_t)r * m + c])
                    add(&g, r, c, cnt[(size_t)r * m + c]);
        snprintf(what, sizeof what, "%u-regular %u x %u (seed %llu)", d, m, m, (unsigned long long)seed);
        run(&g, d, 0, what);
        for (uint32_t k = 1; k <= m; k += 1 + m / 5) {
            uint64_t S = ((uint64_t)m * d + k - 1) / k;
            run(&g, S < d ? d : S, k, what);
        }
        free(perm);
        free(cnt);
        free(g.e);
    }
    printf("regular matchings: %llu alternating-path exchanges, %llu k-port balancing swaps\n",
           (unsigned long long)kempe_total, (unsigned long long)swaps_total);
    assert_true(kempe_total > 0);
    assert_true(swaps_total > 0);
}

/*
 * R rows of degree dr over C columns, every column of degree exactly R*dr/C
 * (stubs dealt round-robin, then shuffled): all columns tight at S = R*dr/C,
 * the shape of a task matrix whose columns are critical (001 Section 4.1).
 */
static void test_tight_columns(void **state)
{
    (void)state;
    char what[128];
    for (uint64_t seed = 1; seed <= 40; seed++) {
        rng_state = seed * 15485863;
        uint32_t C = 2 + rndn(12), dr = 1 + rndn(C < 6 ? C : 6), R = C * (1 + rndn(seed % 4 == 0 ? 400 : 40));
        uint64_t E = (uint64_t)R * dr;
        uint32_t *stub = malloc(sizeof *stub * E);
        for (uint64_t i = 0; i < E; i++)
            stub[i] = (uint32_t)(i % C);
        for (uint64_t i = E - 1; i > 0; i--) {
            uint64_t j = rnd() % (i + 1);
            uint32_t x = stub[i];
            stub[i] = stub[j];
            stub[j] = x;
        }
        graph g = {R, C, NULL, 0, 0};
        for (uint32_t r = 0; r < R; r++)
            for (uint32_t t = 0; t < dr; t++)
                add(&g, r, stub[(size_t)r * dr + t], 1);
        uint64_t h, sigma;
        sums(&g, &h, &sigma);
        assert_int_equal(h, (uint64_t)R * dr / C > dr ? (uint64_t)R * dr / C : dr);
        snprintf(what, sizeof what, "tight %u x %u, row degree %u (seed %llu)", R, C, dr, (unsigned long long)seed);
        run(&g, h, 0, what);
        for (uint32_t k = 1; k < C; k++) {
            uint64_t S = (sigma + k - 1) / k;
            run(&g, S < h ? h : S, k, what);
        }
        free(stub);
        free(g.e);
    }
}

/* a larger instance in the shape of a torus task matrix: 60,000 rows, 10 columns */
static void test_large(void **state)
{
    (void)state;
    rng_state = 42;
    graph g;
    random_graph(&g, 60000, 10, 5, 4);
    uint64_t h, sigma;
    sums(&g, &h, &sigma);
    run(&g, h, 0, "large random, S = h");
    run(&g, (sigma + 3) / 4 > h ? (sigma + 3) / 4 : h, 4, "large random, k = 4");
    free(g.e);
}

/*
 * Rows of many colours spread over many more colours than the colouring's row
 * filter has buckets (edge_colour.c's head: 4096): 400 rows of 3 random
 * columns (of 6) x up to 400 parallel edges, S of some 40,000 colours, so
 * that a row holds several colours of one bucket and the filter must fall
 * back to the row's scan. A filter that answered "not at this row" wrongly
 * would colour a row twice with one colour (verify).
 */
static void test_bucket_collisions(void **state)
{
    (void)state;
    rng_state = 4097;
    graph g;
    memset(&g, 0, sizeof g);
    g.R = 400;
    g.C = 6;
    for (uint32_t r = 0; r < g.R; r++)
        for (uint32_t i = 0; i < 3; i++)
            add(&g, r, rndn(g.C), 1 + rndn(400));
    uint64_t h, sigma;
    sums(&g, &h, &sigma);
    assert_true(h > 4 * 4096);
    run(&g, h, 0, "bucket collisions, S = h");
    run(&g, (sigma + 1) / 2 > h ? (sigma + 1) / 2 : h, 2, "bucket collisions, k = 2");
    free(g.e);
}

/*
 * Fugaku-sized: the task matrix of torus 24x23x24 x k2 x ring:3 x k2 built
 * here (shortest ring offsets, antipodal offsets alternately + and -), rows
 * in increasing distance: 158,975 rows, 10 columns, 3,085,056 edges,
 * S = h = 476,928 colours (multiport) and k = 4.
 */
static void test_fugaku_shape(void **state)
{
    (void)state;
    const uint32_t m[] = {24, 23, 24, 2, 3, 2};
    uint32_t base[6], C = 0, n = 1, flip[6] = {0};
    for (int i = 0; i < 6; i++) {
        base[i] = C;
        C += m[i] == 2 ? 1 : 2;
        n *= m[i];
    }
    /* per row: up to 6 (column, count) pairs and the distance */
    uint32_t *rc = malloc(sizeof *rc * (size_t)n * 6), *rk = malloc(sizeof *rk * (size_t)n * 6);
    uint8_t *rn = malloc(n);
    uint32_t *dist = malloc(sizeof *dist * n), *bucket = calloc(64, sizeof *bucket), *ord = malloc(sizeof *ord * n);
    for (uint32_t v = 1; v < n; v++) {
        uint32_t x = v, d = 0;
        rn[v] = 0;
        for (int i = 0; i < 6; i++) {
            uint32_t c = x % m[i], col, cnt;
            x /= m[i];
            if (!c)
                continue;
            if (m[i] == 2)
                col = base[i], cnt = 1;
            else if (2 * c < m[i])
                col = base[i], cnt = c;
            else if (2 * c > m[i])
                col = base[i] + 1, cnt = m[i] - c;
            else
                col = base[i] + (flip[i]++ % 2), cnt = c; /* antipodal: alternately + and - */
            rc[(size_t)v * 6 + rn[v]] = col;
            rk[(size_t)v * 6 + rn[v]] = cnt;
            rn[v]++;
            d += cnt;
        }
        dist[v] = d;
        bucket[d + 1]++;
    }
    for (int i = 1; i < 64; i++)
        bucket[i] += bucket[i - 1];
    for (uint32_t v = 1; v < n; v++)
        ord[bucket[dist[v]]++] = v;
    graph g = {n - 1, C, NULL, 0, 0};
    for (uint32_t i = 0; i < n - 1; i++) {
        uint32_t v = ord[i];
        for (uint32_t e = 0; e < rn[v]; e++)
            add(&g, v - 1, rc[(size_t)v * 6 + e], rk[(size_t)v * 6 + e]);
    }
    uint64_t h, sigma;
    sums(&g, &h, &sigma);
    assert_int_equal(h, 476928);    /* 000 eq. (4) cut bound of fugaku, multiport */
    assert_int_equal(sigma, 3085056); /* average status of fugaku (000 Theorem 1) */
    run(&g, h, 0, "fugaku-shaped, S = h");
    run(&g, (sigma + 3) / 4 > h ? (sigma + 3) / 4 : h, 4, "fugaku-shaped, k = 4");
    free(rc);
    free(rk);
    free(rn);
    free(dist);
    free(bucket);
    free(ord);
    free(g.e);
}

/* the caller's order is the priority: the first row's edges take the first colours */
static void test_priority(void **state)
{
    (void)state;
    graph g = {3, 4, NULL, 0, 0};
    tx_ec_result res;
    totex_error err;
    add(&g, 2, 0, 1);
    add(&g, 2, 1, 1);
    add(&g, 0, 0, 2);
    add(&g, 0, 3, 1);
    add(&g, 1, 1, 3);
    assert_int_equal(tx_edge_colour(3, 4, g.e, g.n, 5, 0, &res, &err), TOTEX_OK);
    verify(&g, 5, 0, &res, "priority");
    /* smallest common free colour in the order given (rows 2, 0, 1):
     * (2,0)->0 (2,1)->1; (0,0)->1,2 (0,3)->0; (1,1)->0,2,3; colour 4 stays empty */
    static const uint32_t expect[][3] = {{0, 2, 0}, {0, 0, 3}, {0, 1, 1}, {1, 2, 1}, {1, 0, 0},
                                         {2, 0, 0}, {2, 1, 1}, {3, 1, 1}};
    assert_int_equal(res.start[4], 8);
    assert_int_equal(res.start[5], 8);
    for (size_t x = 0; x < 8; x++) {
        assert_true(res.start[expect[x][0]] <= x && x < res.start[expect[x][0] + 1]);
        assert_int_equal(res.moves[x].row, expect[x][1]);
        assert_int_equal(res.moves[x].col, expect[x][2]);
    }
    tx_ec_result_free(&res);
    free(g.e);
}

static void test_bad_input(void **state)
{
    (void)state;
    graph g = {4, 2, NULL, 0, 0};
    tx_ec_result res;
    totex_error err;
    add(&g, 0, 0, 2);
    add(&g, 1, 0, 1);
    add(&g, 1, 1, 1);
    /* column 0 has sum 3 */
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 2, 0, &res, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, "colours"));
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 3, 0, &res, &err), TOTEX_OK);
    tx_ec_result_free(&res);
    /* k = 1: 4 edges need 4 colours */
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 3, 1, &res, &err), TOTEX_EINVAL);
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 4, 1, &res, &err), TOTEX_OK);
    verify(&g, 4, 1, &res, "k = 1");
    tx_ec_result_free(&res);
    /* row 0 again after row 1: not contiguous */
    add(&g, 0, 1, 1);
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 4, 0, &res, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, "contiguous"));
    /* out of range */
    g.e[3].row = 9;
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 4, 0, &res, &err), TOTEX_EINVAL);
    g.e[3].row = 2;
    g.e[3].col = 2;
    assert_int_equal(tx_edge_colour(4, 2, g.e, g.n, 4, 0, &res, &err), TOTEX_EINVAL);
    /* empty input */
    assert_int_equal(tx_edge_colour(4, 2, g.e, 0, 0, 0, &res, &err), TOTEX_OK);
    assert_int_equal(res.colours, 0);
    tx_ec_result_free(&res);
    free(g.e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),       cmocka_unit_test(test_regular_matchings),
        cmocka_unit_test(test_tight_columns), cmocka_unit_test(test_large), cmocka_unit_test(test_bucket_collisions),
        cmocka_unit_test(test_fugaku_shape), cmocka_unit_test(test_priority),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
