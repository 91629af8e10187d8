/*
 * The lower bounds (include/totex/bounds.h) against independent computations:
 *  - closed-form factor cuts (path, ring, complete, K2) equal the exhaustive
 *    best cut of adjacency bitmasks built here from the definitions, and
 *    totex_cut_exhaustive equals a naive enumeration written here;
 *  - 003 eqs. (1), (2): the multiport cut bound of path:m is
 *    ceil((m^2-1)/4) and of ring:m is ceil((m^2-1)/8);
 *  - 000 eq. (3) / 004 eq. (1): the single-port average-status bound is
 *    floor(m^2/4) on ring:m and ceil(S_G/n) with S_G from BFS elsewhere;
 *  - 000 eq. (4) lifted as in the proof of 000 Theorem 5: the product cut is
 *    a genuine cut (rebuilt and counted here through neighbour enumeration)
 *    and equals the exhaustive best cut of the whole product where that holds;
 *  - the relay bound: path:m gives m-1 + 2 floor((m-1)/2) ceil((m-1)/2);
 *    file graphs agree with removing each node and counting components here;
 *    products give n-1;
 *  - the receive bound against the minimum degree found by scanning all nodes;
 *  - S_G overflow is reported.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define DATA(name) TOTEX_TEST_DATA "/" name

__extension__ typedef unsigned __int128 u128;

/* a/b == c/d for cuts a = side*other, b = links */
static int same_ratio(const totex_cut *x, const totex_cut *y)
{
    return (u128)x->side * x->other * y->links == (u128)y->side * y->other * x->links;
}

/* Links of the graph `adj` crossing the bipartition `mask` | rest. */
static uint64_t crossing(const uint64_t *adj, uint32_t m, uint64_t mask)
{
    uint64_t c = 0;
    for (uint32_t v = 0; v < m; v++)
        if (mask >> v & 1)
            for (uint32_t u = 0; u < m; u++)
                if (!(mask >> u & 1) && (adj[v] >> u & 1))
                    c++;
    return c;
}

/* Naive best ratio |V1||V2|/C over all 2^m - 2 proper subsets: returns numerator and denominator. */
static void naive_best(const uint64_t *adj, uint32_t m, uint64_t *num, uint64_t *den)
{
    *num = 0;
    *den = 0;
    for (uint64_t mask = 1; mask + 1 < (UINT64_C(1) << m); mask++) {
        uint64_t c = crossing(adj, m, mask);
        uint64_t s = (uint64_t)__builtin_popcountll(mask);
        if (c && (*den == 0 || (u128)s * (m - s) * *den > (u128)*num * c)) {
            *num = s * (m - s);
            *den = c;
        }
    }
}

/* Bitmask adjacency straight from the definitions of 003 Section 2 (array, ring) and K_m. */
static void definition_adjacency(totex_factor_kind kind, uint32_t m, uint64_t *adj)
{
    for (uint32_t v = 0; v < m; v++) {
        adj[v] = 0;
        for (uint32_t u = 0; u < m; u++) {
            int e = 0;
            if (u == v)
                continue;
            switch (kind) {
            case TOTEX_FACTOR_PATH: e = u + 1 == v || v + 1 == u; break;
            case TOTEX_FACTOR_RING: e = (u + 1) % m == v || (v + 1) % m == u; break;
            default: e = 1; break;
            }
            if (e)
                adj[v] |= UINT64_C(1) << u;
        }
    }
}

/* Bitmask adjacency of a whole (small) network through neighbour enumeration only. */
static void network_adjacency(const totex_network *net, uint64_t *adj)
{
    uint32_t n = totex_network_nodes(net), nb[256];
    assert_true(n <= 64);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t deg = totex_network_neighbors(net, v, nb);
        adj[v] = 0;
        for (uint32_t r = 0; r < deg; r++)
            adj[v] |= UINT64_C(1) << nb[r];
    }
}

static const totex_bound *find_bound(const totex_bound *b, size_t count, totex_bound_kind kind)
{
    for (size_t i = 0; i < count; i++)
        if (b[i].kind == kind)
            return &b[i];
    return NULL;
}

static uint64_t bound_of(const char *spec, totex_ports ports, totex_bound_kind kind)
{
    totex_network *net = ts_net(spec);
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count, best;
    totex_error err = {{0}};
    if (totex_bounds_compute(net, ports, b, &count, &best, &err) != TOTEX_OK)
        fail_msg("%s: %s", spec, err.msg);
    const totex_bound *x = find_bound(b, count, kind);
    if (!x)
        fail_msg("%s: no %s bound under %s", spec, totex_bound_kind_name(kind), totex_ports_name(ports));
    assert_true(x->witness[0] != '\0');
    totex_network_free(net);
    return x->value;
}

/* Closed-form cuts of path, ring, complete and K2 equal the exhaustive best (m = 2..16). */
static void test_closed_forms_match_exhaustive(void **state)
{
    static const char *const kinds[] = {"path", "ring", "complete"};
    (void)state;
    for (size_t k = 0; k < 3; k++) {
        for (uint32_t m = 2; m <= 16; m++) {
            char spec[32];
            uint64_t adj[16];
            snprintf(spec, sizeof spec, "%s:%u", kinds[k], m);
            totex_network *net = ts_net(spec);
            const totex_factor *f = totex_network_factor(net, 0);
            totex_cut cf = totex_factor_best_cut(f), ex;
            definition_adjacency(k == 0 ? TOTEX_FACTOR_PATH : k == 1 && m > 2 ? TOTEX_FACTOR_RING
                                                                                : TOTEX_FACTOR_COMPLETE,
                                 m, adj);
            ex = totex_cut_exhaustive(adj, m);
            assert_true(cf.exact);
            assert_int_equal(cf.side + cf.other, m);
            assert_true(cf.side <= cf.other);
            assert_int_equal((uint32_t)__builtin_popcountll(cf.members), cf.side);
            /* the closed-form cut is the cut it claims to be */
            assert_int_equal(crossing(adj, m, cf.members), cf.links);
            if (!same_ratio(&cf, &ex))
                fail_msg("%s: closed form %u|%u/%llu, exhaustive %u|%u/%llu", spec, cf.side, cf.other,
                         (unsigned long long)cf.links, ex.side, ex.other, (unsigned long long)ex.links);
            /* exhaustive reports the cut it found */
            assert_int_equal(crossing(adj, m, ex.members), ex.links);
            assert_int_equal((uint32_t)__builtin_popcountll(ex.members), ex.side);
            totex_network_free(net);
        }
    }
    {
        totex_network *net = ts_net("k2");
        totex_cut c = totex_factor_best_cut(totex_network_factor(net, 0));
        assert_int_equal(c.side, 1);
        assert_int_equal(c.other, 1);
        assert_int_equal(c.links, 1);
        totex_network_free(net);
    }
}

/* totex_cut_exhaustive (Gray-code walk) against the naive enumeration on pseudo-random graphs. */
static void test_exhaustive_matches_naive(void **state)
{
    uint64_t seed = 12345;
    (void)state;
    for (int trial = 0; trial < 200; trial++) {
        uint32_t m = 2 + (uint32_t)(trial % 11);
        uint64_t adj[16] = {0}, num, den;
        for (uint32_t v = 0; v < m; v++)
            for (uint32_t u = v + 1; u < m; u++) {
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                if ((seed >> 33) % 3 == 0) {
                    adj[v] |= UINT64_C(1) << u;
                    adj[u] |= UINT64_C(1) << v;
                }
            }
        naive_best(adj, m, &num, &den);
        totex_cut ex = totex_cut_exhaustive(adj, m);
        if (den == 0) {
            assert_int_equal(ex.links, 0);
            continue;
        }
        assert_int_equal(crossing(adj, m, ex.members), ex.links);
        assert_true((u128)ex.side * ex.other * den == (u128)num * ex.links);
    }
    /* out of range and edgeless inputs give no cut */
    {
        uint64_t adj[31] = {0};
        assert_int_equal(totex_cut_exhaustive(adj, 1).links, 0);
        assert_int_equal(totex_cut_exhaustive(adj, 31).links, 0);
        assert_int_equal(totex_cut_exhaustive(adj, 5).links, 0);
        assert_int_equal(totex_cut_exhaustive(NULL, 5).links, 0);
    }
}

/* 003 eqs. (1) and (2): multiport bisection bounds of linear arrays and rings. */
static void test_003_bisection_bounds(void **state)
{
    (void)state;
    for (uint64_t m = 2; m <= 64; m++) {
        char spec[32];
        snprintf(spec, sizeof spec, "path:%llu", (unsigned long long)m);
        assert_int_equal(bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), (m * m - 1 + 3) / 4);
        snprintf(spec, sizeof spec, "ring:%llu", (unsigned long long)m);
        assert_int_equal(bound_of(spec, TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), (m * m - 1 + 7) / 8);
        /* the cut bound also holds (and is reported) single-port */
        assert_int_equal(bound_of(spec, TOTEX_PORTS_SINGLE, TOTEX_BOUND_CUT), (m * m - 1 + 7) / 8);
    }
    /* large sizes too */
    assert_int_equal(bound_of("path:65535", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), (UINT64_C(65535) * 65535 - 1 + 3) / 4);
    assert_int_equal(bound_of("ring:65534", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), (UINT64_C(65534) * 65534 - 1 + 7) / 8);
}

/* 000 eq. (3) / 004 eq. (1) on rings: S_G/n = AS(ring:m) = floor(m^2/4). */
static void test_average_status_rings(void **state)
{
    (void)state;
    for (uint64_t m = 3; m <= 64; m++) {
        char spec[32];
        snprintf(spec, sizeof spec, "ring:%llu", (unsigned long long)m);
        assert_int_equal(bound_of(spec, TOTEX_PORTS_SINGLE, TOTEX_BOUND_AVERAGE_STATUS), m * m / 4);
    }
}

/* 000 eq. (3): ceil(S_G/n) with S_G summed from BFS distances on the materialised network. */
static void test_average_status_by_bfs(void **state)
{
    static const char *const specs[] = {
        "torus:4x3", "torus:5x5", "torus:4x4x4", "hypercube:3", "hypercube:6", "ghc:3x4", "ghc:2x3x5",
        "mesh:3x5", "path:2*ring:3", "ring:7*path:5*complete:4", "file:" DATA("net_star.gml"),
        "file:" DATA("net_tree.edges") "*k2", "file:" DATA("net_petersen.graphml") "*ring:3",
    };
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint32_t n = totex_network_nodes(net);
        uint32_t *dist = ts_bfs_all_pairs(net);
        uint64_t sg = 0;
        for (size_t j = 0; j < (size_t)n * n; j++)
            sg += dist[j];
        free(dist);
        uint64_t expect = (sg + n - 1) / n;
        uint64_t got = bound_of(specs[i], TOTEX_PORTS_SINGLE, TOTEX_BOUND_AVERAGE_STATUS);
        if (got != expect)
            fail_msg("%s: average-status bound %llu, BFS ceil(S_G/n) = %llu", specs[i], (unsigned long long)got,
                     (unsigned long long)expect);
        totex_network_free(net);
    }
}

/*
 * 000 eq. (4) lifted as in the proof of 000 Theorem 5: rebuild each dimension's
 * lifted cut V1 = {v : v_i in V1_i} in the product, count its crossing links by
 * neighbour enumeration, and check the reported bound is the best of them.
 * It can never exceed the exhaustive best cut of the product (it is a cut);
 * on every product below it equals it (checked exhaustively here, n <= 20).
 */
static void test_lifted_product_cut(void **state)
{
    static const char *const cases[] = {
        "k2*k2",
        "path:2*ring:3", /* 000 Fig. 1 */
        "ring:4*ring:3", /* 000 Fig. 2 */
        "ring:3*ring:3",
        "path:3*path:3",
        "path:2*path:3",
        "k2*k2*k2",
        "complete:3*complete:3",
        "k2*ring:5",
        "path:4*path:4",
        "ring:4*ring:4",
        "hypercube:4",
        "path:2*ring:3*k2",
        "path:3*ring:5",
        "ring:5*ring:4",
        "path:5*ring:4",
        "complete:4*path:3",
        "complete:5*path:4",
        "file:" DATA("net_star.gml") "*k2",
        "file:" DATA("net_tree.edges") "*k2",
        "file:" DATA("net_petersen.graphml") "*k2",
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        totex_network *net = ts_net(cases[i]);
        uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
        uint64_t adj[64];
        u128 best_num = 0, best_den = 0;
        network_adjacency(net, adj);
        for (uint32_t d = 0; d < k; d++) {
            const totex_factor *f = totex_network_factor(net, d);
            totex_cut c = totex_factor_best_cut(f);
            uint64_t mask = 0, q = n / totex_factor_nodes(f);
            for (uint32_t v = 0; v < n; v++)
                if (c.members >> totex_network_coord(net, v, d) & 1)
                    mask |= UINT64_C(1) << v;
            /* the lifted set is a genuine cut of the product with the sizes the lift claims */
            assert_int_equal((uint64_t)__builtin_popcountll(mask), (uint64_t)c.side * q);
            assert_int_equal(crossing(adj, n, mask), c.links * q);
            u128 num = (u128)c.side * q * c.other * q, den = (u128)c.links * q;
            if (best_den == 0 || num * best_den > best_num * den) {
                best_num = num;
                best_den = den;
            }
        }
        uint64_t lifted = (uint64_t)((best_num + best_den - 1) / best_den);
        uint64_t got = bound_of(cases[i], TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT);
        assert_int_equal(got, lifted);
        totex_cut ex = totex_cut_exhaustive(adj, n);
        uint64_t exhaustive = ((uint64_t)ex.side * ex.other + ex.links - 1) / ex.links;
        assert_true(best_num * ex.links <= (u128)ex.side * ex.other * best_den);
        if (best_num * ex.links != (u128)ex.side * ex.other * best_den)
            fail_msg("%s: lifted cut %llu differs from the exhaustive best %llu (%u|%u/%llu)", cases[i],
                     (unsigned long long)lifted, (unsigned long long)exhaustive, ex.side, ex.other,
                     (unsigned long long)ex.links);
        totex_network_free(net);
    }
}

/* Cut bounds of huge networks: exact 128-bit arithmetic, no overflow. */
static void test_cut_large_networks(void **state)
{
    (void)state;
    /* hypercube:31: a k2 dimension lifted: 2^30 * 2^30 / 2^30 */
    assert_int_equal(bound_of("hypercube:31", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), UINT64_C(1) << 30);
    /* mesh:65535x65535: path:65535 lifted: 32767 * 32768 * 65535 / 1 */
    assert_int_equal(bound_of("mesh:65535x65535", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT),
                     UINT64_C(32767) * 32768 * 65535);
    /* complete:65535*k2: K2 lifted is 1*1*65535/1, complete is ratio 2 */
    assert_int_equal(bound_of("complete:65535*k2", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), 65535);
    /* torus:65535x65535: 32767 * 32768 * 65535 / 2, rounded up */
    assert_int_equal(bound_of("torus:65535x65535", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT),
                     (UINT64_C(32767) * 32768 * 65535 + 1) / 2);
}

/* Recursive DFS (neighbours in rank order) recording discovery order and subtree sizes. */
static void test_dfs(const totex_factor *f, uint32_t v, uint32_t *disc, uint32_t *size, uint32_t *t)
{
    disc[v] = (*t)++;
    size[v] = 1;
    for (uint32_t r = 0; r < totex_factor_degree(f, v); r++) {
        uint32_t u = totex_factor_neighbor(f, v, r);
        if (disc[u] == UINT32_MAX) {
            test_dfs(f, u, disc, size, t);
            size[v] += size[u];
        }
    }
}

/* The side a heuristic cut describes (BFS prefix or DFS subtree from `first`), rebuilt here (m <= 64). */
static uint64_t described_side(const totex_factor *f, const totex_cut *c)
{
    uint32_t m = totex_factor_nodes(f), disc[64], size[64], order[64], t = 0;
    uint64_t one = 0;
    for (uint32_t v = 0; v < m; v++)
        disc[v] = UINT32_MAX;
    if (c->prefix) {
        uint32_t head = 0, tail = 0;
        order[tail++] = c->first;
        disc[c->first] = 0;
        while (head < tail) {
            uint32_t v = order[head++];
            for (uint32_t r = 0; r < totex_factor_degree(f, v); r++) {
                uint32_t u = totex_factor_neighbor(f, v, r);
                if (disc[u] == UINT32_MAX) {
                    disc[u] = 0;
                    order[tail++] = u;
                }
            }
        }
        for (uint32_t p = 0; p < c->prefix; p++)
            one |= UINT64_C(1) << order[p];
        return one;
    }
    test_dfs(f, c->first, disc, size, &t);
    for (uint32_t v = 0; v < m; v++)
        if (disc[v] >= disc[c->subtree] && disc[v] < disc[c->subtree] + size[c->subtree])
            one |= UINT64_C(1) << v;
    return one;
}

/* File graphs: exhaustive cut of small graphs, BFS-prefix / DFS-subtree sweep of larger ones. */
static void test_file_graph_cuts(void **state)
{
    (void)state;
    {
        /* Petersen graph: the 5-cycles {0..4} and {5..9} are joined by 5 spokes, 25/5 = 5; a k-set
         * induces at most k edges (girth 5), so no cut does better (checked naively below). */
        totex_network *net = ts_net("file:" DATA("net_petersen.graphml"));
        uint64_t adj[10], num, den;
        network_adjacency(net, adj);
        totex_cut c = totex_factor_best_cut(totex_network_factor(net, 0));
        naive_best(adj, 10, &num, &den);
        assert_true(c.exact);
        assert_true((u128)c.side * c.other * den == (u128)num * c.links);
        assert_true((u128)c.side * c.other == 5 * (u128)c.links);
        assert_int_equal(crossing(adj, 10, c.members), c.links);
        assert_int_equal(bound_of("file:" DATA("net_petersen.graphml"), TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), 5);
        totex_network_free(net);
    }
    {
        /* star K1,6: a leaf alone gives 1*6/1 = 6, the best */
        totex_network *net = ts_net("file:" DATA("net_star.gml"));
        uint64_t adj[7], num, den;
        network_adjacency(net, adj);
        totex_cut c = totex_factor_best_cut(totex_network_factor(net, 0));
        naive_best(adj, 7, &num, &den);
        assert_true((u128)c.side * c.other * den == (u128)num * c.links);
        assert_int_equal(bound_of("file:" DATA("net_star.gml"), TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), 6);
        totex_network_free(net);
    }
    {
        /* 24-node grid (above the exhaustive limit of 22): heuristic, a genuine cut, never above the best */
        totex_network *net = ts_net("file:" DATA("net_grid4x6.edges"));
        const totex_factor *f = totex_network_factor(net, 0);
        uint64_t adj[24], mask;
        network_adjacency(net, adj);
        totex_cut c = totex_factor_best_cut(f);
        totex_cut ex = totex_cut_exhaustive(adj, 24);
        assert_false(c.exact);
        assert_int_equal(c.side + c.other, 24);
        assert_int_equal((uint32_t)__builtin_popcountll(c.members), c.side);
        assert_int_equal(crossing(adj, 24, c.members), c.links);
        mask = described_side(f, &c);
        assert_true(mask == c.members || mask == (~c.members & ((UINT64_C(1) << 24) - 1)));
        assert_true((u128)c.side * c.other * ex.links <= (u128)ex.side * ex.other * c.links);
        /* mesh 4x6 is the same graph (node r*6+c is (c, r)): its lifted path cut 3*3*4/1 = 36 is the
         * best, and the sweep finds a cut as good */
        assert_true((u128)ex.side * ex.other == 36 * (u128)ex.links);
        assert_true((u128)c.side * c.other == 36 * (u128)c.links);
        totex_network_free(net);
    }
    {
        /* 26-node tree: the best cut is a single link (a bridge) splitting 13 | 13, 169 -- the most one
         * link can give; the sweep's DFS subtrees include every bridge. Checked against removing each
         * link here and against the exhaustive search. */
        totex_network *net = ts_net("file:" DATA("net_tree26.edges"));
        const totex_factor *f = totex_network_factor(net, 0);
        uint64_t adj[26], mask, best_bridge = 0;
        network_adjacency(net, adj);
        for (uint32_t a = 0; a < 26; a++)
            for (uint32_t b = a + 1; b < 26; b++) {
                if (!(adj[a] >> b & 1))
                    continue;
                /* nodes reached from a without the link a - b */
                uint64_t reach = UINT64_C(1) << a, prev = 0;
                while (reach != prev) {
                    prev = reach;
                    for (uint32_t v = 0; v < 26; v++)
                        if (reach >> v & 1)
                            reach |= adj[v] & ~(v == a ? UINT64_C(1) << b : 0);
                }
                uint64_t sz = (uint64_t)__builtin_popcountll(reach);
                if (sz * (26 - sz) > best_bridge)
                    best_bridge = sz * (26 - sz);
            }
        totex_cut c = totex_factor_best_cut(f);
        totex_cut ex = totex_cut_exhaustive(adj, 26);
        assert_false(c.exact);
        assert_int_equal(crossing(adj, 26, c.members), c.links);
        mask = described_side(f, &c);
        assert_true(mask == c.members || mask == (~c.members & ((UINT64_C(1) << 26) - 1)));
        assert_int_equal(best_bridge, 169);
        assert_true((u128)c.side * c.other == (u128)best_bridge * c.links);
        assert_true((u128)ex.side * ex.other == (u128)best_bridge * ex.links);
        assert_int_equal(bound_of("file:" DATA("net_tree26.edges"), TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT), 169);
        totex_network_free(net);
    }
    {
        /* 40-node path read from a file: the sweep finds the bisection, 20*20/1 */
        totex_network *net = ts_net("file:" DATA("net_path40.edges"));
        totex_cut c = totex_factor_best_cut(totex_network_factor(net, 0));
        assert_false(c.exact);
        {
            uint64_t adj[40];
            network_adjacency(net, adj);
            assert_int_equal(__builtin_popcountll(c.members), 20);
            assert_int_equal(crossing(adj, 40, c.members), 1);
        }
        assert_int_equal(c.side, 20);
        assert_int_equal(c.links, 1);
        assert_int_equal(bound_of("file:" DATA("net_path40.edges"), TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT),
                         bound_of("path:40", TOTEX_PORTS_MULTI, TOTEX_BOUND_CUT));
        totex_network_free(net);
    }
}

/* Ordered pairs (s, t), s, t != v, in different components of G - v, by BFS here. */
static uint64_t separated_by_removal(const totex_network *net, uint32_t v)
{
    uint32_t n = totex_network_nodes(net), nb[256];
    uint32_t *comp = malloc(sizeof *comp * n), *queue = malloc(sizeof *queue * n);
    uint64_t sq = 0;
    assert_non_null(comp);
    assert_non_null(queue);
    for (uint32_t u = 0; u < n; u++)
        comp[u] = UINT32_MAX;
    comp[v] = v;
    for (uint32_t s = 0; s < n; s++) {
        uint32_t head = 0, tail = 0;
        if (comp[s] != UINT32_MAX)
            continue;
        comp[s] = s;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t x = queue[head++], deg = totex_network_neighbors(net, x, nb);
            for (uint32_t r = 0; r < deg; r++)
                if (comp[nb[r]] == UINT32_MAX) {
                    comp[nb[r]] = s;
                    queue[tail++] = nb[r];
                }
        }
        sq += (uint64_t)tail * tail;
    }
    free(comp);
    free(queue);
    return (uint64_t)(n - 1) * (n - 1) - sq;
}

static void test_relay(void **state)
{
    (void)state;
    /* path:m: node floor((m-1)/2) separates 2 floor((m-1)/2) ceil((m-1)/2) ordered pairs */
    for (uint64_t m = 2; m <= 64; m++) {
        char spec[32];
        snprintf(spec, sizeof spec, "path:%llu", (unsigned long long)m);
        assert_int_equal(bound_of(spec, TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY),
                         m - 1 + 2 * ((m - 1) / 2) * ((m - 1 + 1) / 2));
    }
    /* 2-connected factors and products: n - 1 */
    assert_int_equal(bound_of("ring:9", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 8);
    assert_int_equal(bound_of("complete:6", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 5);
    assert_int_equal(bound_of("k2", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 1);
    assert_int_equal(bound_of("mesh:5x7", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 34);
    assert_int_equal(bound_of("path:2*ring:3", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 5);
    assert_int_equal(bound_of("hypercube:5", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 31);
    assert_int_equal(bound_of("file:" DATA("net_star.gml") "*k2", TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 13);
    /* products really are 2-connected: no node separates a pair (checked by removal) */
    {
        totex_network *net = ts_net("file:" DATA("net_tree.edges") "*k2");
        for (uint32_t v = 0; v < totex_network_nodes(net); v++)
            assert_int_equal(separated_by_removal(net, v), 0);
        totex_network_free(net);
    }
    /* file graphs: articulation analysis equals node removal */
    {
        static const char *const files[] = {
            "file:" DATA("net_star.gml"), "file:" DATA("net_tree.edges"), "file:" DATA("net_petersen.graphml"),
            "file:" DATA("net_blocks.edges"), /* triangle 0-1-2, square 2-3-4-5, tail 5-6: cut vertices 2 and 5 */
            "file:" DATA("net_path40.edges"), "file:" DATA("net_grid4x6.edges"), "path:9", "ring:6",
        };
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            totex_network *net = ts_net(files[i]);
            uint32_t n = totex_network_nodes(net), node = UINT32_MAX, largest = 0;
            uint64_t best = 0, pairs = UINT64_MAX;
            totex_error err = {{0}};
            for (uint32_t v = 0; v < n; v++) {
                uint64_t s = separated_by_removal(net, v);
                if (s > best)
                    best = s;
            }
            assert_int_equal(totex_factor_max_separated(totex_network_factor(net, 0), &node, &pairs, &largest, &err),
                             TOTEX_OK);
            assert_int_equal(pairs, best);
            assert_int_equal(separated_by_removal(net, node), best);
            assert_true(largest < n);
            assert_int_equal(bound_of(files[i], TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), n - 1 + best);
            totex_network_free(net);
        }
    }
    /* net_blocks: node 2 leaves {0,1} and {3,4,5,6}: 2*(2*4) = 16 ordered pairs; node 5 only 2*(1*5) = 10 */
    assert_int_equal(bound_of("file:" DATA("net_blocks.edges"), TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 6 + 16);
    /* star K1,6: the centre separates 6*5 ordered pairs of leaves */
    assert_int_equal(bound_of("file:" DATA("net_star.gml"), TOTEX_PORTS_SINGLE, TOTEX_BOUND_RELAY), 6 + 30);
}

/* Receive bound: n-1 single-port, ceil((n-1)/d_min) multiport with d_min found by scanning every node. */
static void test_receive(void **state)
{
    static const char *const specs[] = {
        "path:7", "ring:8", "complete:5", "mesh:3x4", "torus:4x5", "ghc:3x4", "hypercube:5",
        "file:" DATA("net_star.gml"), "file:" DATA("net_petersen.graphml") "*path:3", "path:2*ring:3*complete:4",
    };
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        uint64_t n = totex_network_nodes(net), dmin = UINT64_MAX;
        for (uint32_t v = 0; v < n; v++)
            if (totex_network_degree(net, v) < dmin)
                dmin = totex_network_degree(net, v);
        assert_int_equal(bound_of(specs[i], TOTEX_PORTS_SINGLE, TOTEX_BOUND_RECEIVE), n - 1);
        assert_int_equal(bound_of(specs[i], TOTEX_PORTS_MULTI, TOTEX_BOUND_RECEIVE), (n - 1 + dmin - 1) / dmin);
        totex_network_free(net);
    }
}

/* Order, count, best index, witnesses and the relation of value to exact. */
static void test_compute_layout(void **state)
{
    static const char *const specs[] = {"ring:8*ring:8", "path:8", "k2", "file:" DATA("net_star.gml"),
                                        "ghc:3x4x5", "fugaku", "sequoia", "file:" DATA("net_path40.edges")};
    (void)state;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        totex_network *net = ts_net(specs[i]);
        for (int p = 0; p < 2; p++) {
            totex_ports ports = p ? TOTEX_PORTS_MULTI : TOTEX_PORTS_SINGLE;
            totex_bound b[TOTEX_MAX_BOUNDS];
            size_t count = 99, best = 99;
            totex_error err = {{0}};
            assert_int_equal(totex_bounds_compute(net, ports, b, &count, &best, &err), TOTEX_OK);
            if (ports == TOTEX_PORTS_SINGLE) {
                /* a path dimension of >= 3 nodes adds the band bound (band.c); a file graph
                 * the forwarding bound (forwarding.c; on a path alone relay is already optimal) */
                int band = !strcmp(specs[i], "path:8");
                int fw = !strncmp(specs[i], "file:", 5);
                assert_int_equal(count, 4 + band + fw);
                if (fw)
                    assert_int_equal(b[4 + band].kind, TOTEX_BOUND_FORWARDING);
                assert_int_equal(b[0].kind, TOTEX_BOUND_AVERAGE_STATUS);
                assert_int_equal(b[1].kind, TOTEX_BOUND_CUT);
                assert_int_equal(b[2].kind, TOTEX_BOUND_RECEIVE);
                assert_int_equal(b[3].kind, TOTEX_BOUND_RELAY);
                if (band)
                    assert_int_equal(b[4].kind, TOTEX_BOUND_BAND);
            } else {
                assert_int_equal(count, 2);
                assert_int_equal(b[0].kind, TOTEX_BOUND_CUT);
                assert_int_equal(b[1].kind, TOTEX_BOUND_RECEIVE);
            }
            assert_true(best < count);
            for (size_t j = 0; j < count; j++) {
                assert_true(b[j].witness[0] != '\0');
                assert_true(b[j].value <= b[best].value);
                if (j < best)
                    assert_true(b[j].value < b[best].value); /* first on ties */
                /* value = ceil(exact), allowing for double rounding */
                assert_true((double)b[j].value >= b[j].exact * (1 - 1e-12));
                assert_true((double)b[j].value < b[j].exact + 1 + 1e-9 * b[j].exact);
            }
        }
        totex_network_free(net);
    }
    /* a witness names what it claims */
    {
        totex_network *net = ts_net("ring:8*ring:8");
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t count, best;
        assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, NULL), TOTEX_OK);
        assert_non_null(strstr(b[0].witness, "S_G = 16384"));
        assert_non_null(strstr(b[1].witness, "(ring:8)"));
        assert_non_null(strstr(b[1].witness, "{0..3} | {4..7}"));
        assert_non_null(strstr(b[1].witness, "16 links in all"));
        assert_non_null(strstr(b[1].witness, "|V1| = 32, |V2| = 32"));
        assert_int_equal(best, 0);
        totex_network_free(net);
    }
    /* bad arguments */
    {
        totex_network *net = ts_net("ring:4");
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t count = 7, best = 7;
        totex_error err = {{0}};
        assert_int_equal(totex_bounds_compute(NULL, TOTEX_PORTS_SINGLE, b, &count, &best, &err), TOTEX_EINVAL);
        assert_int_equal(count, 0);
        /* k-port (001 Section 7) accepts 1 <= k <= TOTEX_PORTS_MAX_K; above that is no port model */
        assert_int_equal(totex_bounds_compute(net, (totex_ports)(TOTEX_PORTS_MAX_K + 1), b, &count, &best, &err),
                         TOTEX_EINVAL);
        assert_true(err.msg[0] != '\0');
        totex_network_free(net);
    }
    assert_string_equal(totex_bound_kind_name(TOTEX_BOUND_AVERAGE_STATUS), "average-status");
    assert_string_equal(totex_bound_kind_name(TOTEX_BOUND_CUT), "cut");
    assert_string_equal(totex_bound_kind_name(TOTEX_BOUND_RECEIVE), "receive");
    assert_string_equal(totex_bound_kind_name(TOTEX_BOUND_RELAY), "relay");
}

/* S_G = sum_i (n/m_i)^2 S_i overflows 64 bits on mesh:65535x65535 (about 2^78): single-port reports it. */
static void test_overflow(void **state)
{
    totex_network *net = ts_net("mesh:65535x65535");
    totex_bound b[TOTEX_MAX_BOUNDS];
    size_t count = 5, best = 5;
    uint64_t sg;
    totex_error err = {{0}};
    (void)state;
    assert_int_equal(totex_network_status_sum(net, &sg, &err), TOTEX_EOVERFLOW);
    err.msg[0] = '\0';
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_SINGLE, b, &count, &best, &err), TOTEX_EOVERFLOW);
    assert_int_equal(count, 0);
    assert_true(err.msg[0] != '\0');
    /* multiport needs no S_G */
    assert_int_equal(totex_bounds_compute(net, TOTEX_PORTS_MULTI, b, &count, &best, &err), TOTEX_OK);
    assert_int_equal(count, 2);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_forms_match_exhaustive),
        cmocka_unit_test(test_exhaustive_matches_naive),
        cmocka_unit_test(test_003_bisection_bounds),
        cmocka_unit_test(test_average_status_rings),
        cmocka_unit_test(test_average_status_by_bfs),
        cmocka_unit_test(test_lifted_product_cut),
        cmocka_unit_test(test_cut_large_networks),
        cmocka_unit_test(test_file_graph_cuts),
        cmocka_unit_test(test_relay),
        cmocka_unit_test(test_receive),
        cmocka_unit_test(test_compute_layout),
        cmocka_unit_test(test_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
