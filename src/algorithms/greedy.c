/*
 * Greedy: non-wasting furthest-first store-and-forward total exchange on any
 * cartesian product (meshes, tori, hypercubes, generalized hypercubes, graphs
 * read from files, any mix) under any port model.
 *
 * Source:  001 Section 5 (greedy = non-wasting switching: "a communication
 *          link is never idle while there is a waiting packet that can reduce
 *          its distance to its destination by using this link") and Section
 *          8.3 (wraparound meshes: any greedy algorithm finishes within
 *          h_r + h_c - 1 steps, h_r / h_c the largest row / column sum of the
 *          task matrix; n = 1000, d = 3: optimum 1250, greedy <= 1265); 001
 *          Section 7 (k-port); the furthest-first priority of 003 Section 3.
 * Model:   any: single-port, k-port (k >= 2) and multiport.
 *          Shortest paths only: a hop u -> v is allowed only when it brings
 *          the message one hop closer (the product distance is the sum of the
 *          factor distances: a hop in a dimension where the coordinates
 *          differ, along a shortest path of that factor). The routing tag of
 *          a message fixes its direction in an even ring when its offset
 *          there is m/2: '+' for half of them, '-' for the other half, chosen
 *          at the source (001 Section 8.1, A+ / A-); otherwise a message may
 *          take any link that brings it closer (adaptive).
 *          Priority: furthest first (largest remaining distance); ties: the
 *          larger single-dimension distance, then the destination's key (its
 *          offset from the node in rings, K2 and complete graphs; its
 *          coordinate in paths and file graphs); a message that several free
 *          links can serve takes the one whose next candidate is worst.
 *          Multiport: each node walks its messages in priority order and
 *          gives each a free link that brings it closer, until no free link
 *          can serve a waiting message (non-wasting: no link idle while a
 *          message at its tail could get closer over it). The rule depends
 *          only on positions relative to the node, so on a product of rings,
 *          K2 and complete graphs every node acts alike: a symmetric greedy
 *          switching scheme in 001's sense (001 Sections 3, 5, 8.3).
 *          k-port and single-port on such a product: the same symmetric
 *          scheme stopped after k messages per node per step (each node then
 *          receives exactly as many as it sends). On any other product: the
 *          per-node choice matched over the whole network in priority order
 *          (nodes at the same distance: longer queue first): a greedy
 *          maximal matching, so no node keeps send budget while it holds a
 *          message that could move over an unused link to a neighbour with
 *          receive budget left.
 * Steps:   no closed form: predict runs the schedule and counts (a one-entry
 *          per-thread memo keeps the count for the plan that follows). Every
 *          step moves at least one message one hop closer, so it ends within
 *          S_G steps.
 * Optimal: not in general. Multiport on a torus it is within h_r + h_c - 1
 *          (001 Section 8.3; h_r = the diameter, h_c = the cut bound): it
 *          meets the cut bound on every torus tested (10x10x10: 1250);
 *          single-port on tori, hypercubes and generalized hypercubes it meets
 *          the average-status bound (symmetric: every node sends every step).
 *          Multiport on meshes 4x4 .. 16x16 it is 4-13% above the cut bound
 *          (mesh:64x64: 19%), about half of A2's steps.
 *
 * Data. Nodes that act alike are simulated once: a "unit" is a node up to
 * translations in the cyclic dimensions (all of them under multiport, or
 * under k-port when every dimension is cyclic); its moves are repeated at all
 * T = n / U translates when the step is emitted.
 *  - Keys: a destination as the unit sees it: in a cyclic dimension the
 *    offset (mod m; an even ring's antipodal offset as '+' or '-'), in a path
 *    the offset plus m - 1 ("relative paths", taken when it needs less memory:
 *    the rank then depends on offsets only, so one table serves every node of
 *    a mesh instead of n tables of n entries), in a file graph the coordinate.
 *    Positions: the keys ranked by priority, per table class (coordinates in
 *    the dimensions that are neither cyclic nor relative paths).
 *  - Per unit one bit word per 64 positions: bucket not empty (as decided: a
 *    picked message leaves at once). Per table class and slot (dimension and
 *    direction / offset / rank) a bitset of the positions the slot brings
 *    closer; per unit and slot an exact cursor: the first position the slot
 *    can serve (take() moves it on when it empties that bucket, an arrival
 *    into an empty bucket moves it back).
 *  - Buckets (unit, destination), destination-major with the units in blocks
 *    of 4 coordinates, so a message moved to a neighbour usually lands in the
 *    cache line it left: predict keeps only the sizes (2 bytes); the plan run
 *    keeps each bucket's messages as a stack (last in, first out, as before:
 *    the schedules are byte-identical to the chunked stacks'). Without cyclic
 *    dimensions a message is the pair (destination, source): 4 bytes per
 *    bucket (size, top source) and a 2-byte link per message at destination
 *    * n + source. Otherwise a pool of the U (n - 1) messages, 8 bytes each,
 *    linked from 8-byte buckets.
 *  - Meshes with relative keys (every dimension a relative path: "allprel"):
 *    one table class, units are nodes, and a hop over slot s adds a per-slot
 *    delta to the unit and to the key while the bucket digits (the
 *    destination's node id) stay, so landing a message is two adds and a
 *    table read.
 *  - A step decides unit by unit from the cursors only: the top is the least
 *    (position, slot) among the unit's slots still free, i.e. the furthest
 *    message a free slot can move; take() reads the bucket's size (fetched
 *    ahead) to know whether it empties. With at most GD_FEW (8) slots (2-D
 *    and 3-D meshes and tori) the slots are scanned; beyond, a heap of them.
 *    k-port on other products keeps each unit's offers between its turns in
 *    the matching: the same set of slots, or heap.
 *  - Then the picks are popped (symmetric steps with at most GD_FEW slots:
 *    two units after their choice, while the bucket words are in cache and
 *    take() has fetched the message under each top; else in a pass), emitted
 *    and pushed at their receivers, each move fetching its buckets a fixed
 *    number of moves ahead (they are read at random). Every arrival follows
 *    every choice and pop of the step.
 * Memory of a plan run on an R x C mesh (n = RC): 6 n^2 bytes of buckets and
 * links, n (2R - 1)(2C - 1) / 8 bytes of bit words, tables of (2R - 1)(2C - 1)
 * entries (mesh:64x64: 109 MB of buckets, links and bits).
 * Work per step: O(S) per unit and per pick with at most GD_FEW slots, else
 * O(U S log S) to build the heaps and O(log S) per pick; O(S) per pick
 * (cursors) and per arrival into an empty bucket, plus the scans of the bit
 * words past an emptied position; O(hops) to emit. k-port on other products:
 * a counting sort of the active units by queue length (radix beyond 2047).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry_impl.h"
#include "common/error.h"
#include "common/huge.h"
#include "common/progress_scope.h"
#include "totex/progress.h"
#include "totex/sim.h"

#define GD_NONE16 0xFFFFu
#define GD_NONE UINT32_MAX

/* A bucket (plan run): its size and the top of its stack of messages (1 + pool index, 0: empty). */
typedef struct gd_bucket {
    uint32_t head, size;
} gd_bucket;

/* A message of a unit (plan run): the one under it in its bucket (1 + index, 0: none) and its source digits. */
typedef struct gd_msg {
    uint32_t next, src;
} gd_msg;

typedef struct gd_dim {
    const totex_factor *f;
    uint32_t m, stride, kind;
    int rel;            /* ring, K2, complete: key and source digits are offsets from the node, mod m */
    int prel;           /* path with relative keys: key digit = destination - node + m - 1 (radix 2m - 1);
                           slot 0 goes c -> c + 1, slot 1 c -> c - 1; source digits stay coordinates */
    int merged;         /* translations in this dimension are simulated once (rel dims, symmetric mode) */
    uint32_t extra;     /* 1 for an even ring: key digit m is offset m/2 routed '-' (digit m/2: '+') */
    uint32_t radix, kstride; /* key digit range (m + extra; 2m - 1 for prel), and its stride in a key */
    uint32_t bstride;   /* stride in a unit's bucket index (digit range m + extra) */
    uint32_t slot0, ns; /* slots slot0 .. slot0 + ns - 1 (ns = the factor's maximum degree) */
    uint32_t tstride;   /* stride in the table class id (non-rel dims), 0 otherwise */
    uint32_t ustride;   /* stride in the unit id (non-merged dims), 0 otherwise */
    uint32_t *adj_off, *adj; /* non-rel: neighbours by factor rank */
    uint32_t *dist0;    /* rel: distance from offset 0 to each key digit */
} gd_dim;

/* One message moved by a unit in a step. */
typedef struct gd_pick {
    uint32_t unit, slot, key, src; /* key: the destination's at the unit; src: the source digits (relative) */
    uint32_t msg;                  /* plan run: 1 + the message's pool index */
    uint32_t dig;                  /* the bucket digits (bucket_dig) where it is */
    size_t b;                      /* the bucket index (bucket_at) where it is */
} gd_pick;

typedef struct gd {
    const totex_network *net;
    totex_ports ports;
    uint32_t n, k, K, P, W, S, ntc, U, T, maxlvl, Kb;
    int symmetric;       /* units merge every cyclic dimension */
    int count_only;      /* no sink (predict): buckets keep only their size, in bsize */
    int abs;             /* plan run, no cyclic dimension: a bucket is (node, destination), a message
                            (destination, source), both node ids: bkt4 and nxt instead of bkt and msg */
    int allprel;         /* every dimension a path with relative keys (meshes): units are nodes, one table
                            class, and a hop over slot s adds udelta[s] to the unit and kdelta[s] to the key
                            while the bucket digits (the destination's node id) stay */
    uint32_t *udelta, *kdelta; /* allprel: per slot (mod 2^32) */
    gd_dim d[TOTEX_MAX_DIMS];
    uint32_t mdims[TOTEX_MAX_DIMS], nmerged; /* the merged dimensions */
    uint16_t *coords;    /* n * k: coordinates of the nodes (also the digits of a source) */
    uint16_t *keydig;    /* K * k: digits of the keys */
    uint32_t *tc_of;     /* per unit: table class */
    uint32_t *rep;       /* per unit: its node with coordinate 0 in the merged dimensions */
    uint32_t *order;     /* ntc * P: key at position */
    uint32_t *pos;       /* ntc * K: position of key (GD_NONE: the node itself) */
    uint16_t *level;     /* ntc * P: distance of the destination at position */
    uint32_t *bpos;      /* ntc * P: bucket index of the key at position, less the unit's boff */
    uint32_t *boff;      /* per unit: added to bpos (mod 2^32) to index the unit's buckets */
    uint32_t *uperm;     /* per unit: its rank in blocks of 4 along every unit dimension */
    uint64_t *masks;     /* slot masks, W words each */
    uint64_t *mask_off;  /* ntc * S: word offset of the mask of slot s, UINT64_MAX if absent */
    uint16_t *slot_dim, *slot_j;
    uint32_t *slot_off;  /* per slot of a rel dim: the offset it adds (mod m) */
    /* per unit */
    uint64_t *state;     /* U * W words, one bit per position: bucket not empty (as decided: a picked
                            message leaves at once) */
    uint32_t *lastp, *ptimes; /* per unit: the position picked last in this step, and how often */
    gd_bucket *bkt;      /* plan run: U * Kb buckets (size and stack top) */
    gd_msg *msg;         /* plan run: the U (n - 1) messages, each linked into its bucket's stack */
    uint16_t *bsize;     /* count_only: U * Kb bucket sizes (< n < 2^16), instead of bkt and msg */
    uint32_t *bkt4;      /* abs: U * Kb buckets: size << 16 | the source on top (GD_NONE16: empty) */
    uint16_t *nxt;       /* abs: n * n, at destination * n + source: the source under it in its bucket */
    uint32_t *count;     /* messages held */
    uint32_t *cursor;    /* U * S */
    /* per step */
    uint64_t *heap;      /* k-port (not symmetric): U * S; else 3 * S (pos << 32 | slot) */
    uint32_t *hn;        /* k-port: heap size per unit; with at most GD_FEW slots, no heap: the set of
                            its slots (bit s) still offered in this step */
    uint32_t *built, *rstamp, *scount, *rcount; /* k-port, per unit */
    uint32_t *qhead, *qtail, *qnext;            /* k-port: FIFO of units per distance */
    uint32_t *byq, *byq2;                       /* k-port: active units by queue length */
    gd_pick *picks;
    size_t npicks, pcap;
    totex_hop *hops;
    uint32_t *tmp;       /* scratch: one dimension's slots */
    uint64_t remaining;
    struct {
        void *p;
        size_t len;
    } maps[12];          /* the large arrays: anonymous memory on huge pages where the kernel allows */
    uint32_t nmaps;
} gd;

/* ---- set-up -------------------------------------------------------------- */

static void gd_free(gd *G)
{
    for (uint32_t i = 0; i < G->k; i++) {
        free(G->d[i].adj_off);
        free(G->d[i].adj);
        free(G->d[i].dist0);
    }
    free(G->coords);
    free(G->keydig);
    free(G->tc_of);
    free(G->rep);
    free(G->mask_off);
    free(G->boff);
    free(G->uperm);
    free(G->slot_dim);
    free(G->slot_j);
    free(G->slot_off);
    free(G->udelta);
    free(G->kdelta);
    free(G->count);
    free(G->lastp);
    free(G->ptimes);
    free(G->heap);
    free(G->hn);
    free(G->built);
    free(G->rstamp);
    free(G->scount);
    free(G->rcount);
    free(G->qhead);
    free(G->qtail);
    free(G->qnext);
    free(G->byq);
    free(G->byq2);
    free(G->picks);
    free(G->hops);
    free(G->tmp);
    for (uint32_t i = 0; i < G->nmaps; i++)
        totex_huge_free(G->maps[i].p, G->maps[i].len);
}

/* A large zeroed array of @p bytes (totex_huge_alloc(): the buckets and tables are read at random), kept in
   G->maps to be freed with G; NULL when out of memory. */
static void *big_alloc(gd *G, size_t bytes)
{
    if (G->nmaps == sizeof G->maps / sizeof G->maps[0])
        return NULL;
    void *p = totex_huge_alloc(bytes);
    if (!p)
        return NULL;
    G->maps[G->nmaps].p = p;
    G->maps[G->nmaps++].len = bytes;
    return p;
}

/* distance in dimension i from coordinate c (non-rel) or offset 0 (rel) to key digit x */
static inline uint32_t dim_dist(const gd_dim *D, uint32_t c, uint32_t x)
{
    if (D->rel)
        return D->dist0[x];
    if (D->prel)
        return x >= D->m - 1 ? x - (D->m - 1) : D->m - 1 - x;
    if (D->kind == TOTEX_FACTOR_PATH)
        return c > x ? c - x : x - c;
    return totex_factor_distance(D->f, c, x);
}

/* coordinate of table class tc in non-rel dimension i */
static inline uint32_t tc_coord(const gd *G, uint32_t tc, uint32_t i)
{
    return (tc / G->d[i].tstride) % G->d[i].m;
}

/*
 * Local slots (0 .. ns-1) of dimension i that bring key digit x closer from
 * coordinate c (non-rel) or from offset 0 (rel); written to out, returns how
 * many (0 when the coordinate is already right). Rings: slot 0 is '+'
 * (c -> c+1), slot 1 is '-'; an even ring's offset m/2 is digit m/2 ('+')
 * or digit m ('-'). Complete graphs: slot j goes to offset j + 1.
 */
static uint32_t dim_productive(const gd_dim *D, uint32_t c, uint32_t x, uint32_t *out)
{
    uint32_t n = 0;
    if (D->rel) {
        if (x == 0)
            return 0;
        switch (D->kind) {
        case TOTEX_FACTOR_RING:
            out[0] = x == D->m ? 1 : 2 * x <= D->m ? 0 : 1;
            return 1;
        case TOTEX_FACTOR_K2: out[0] = 0; return 1;
        default: out[0] = x - 1; return 1;
        }
    }
    if (D->prel) {
        if (x == D->m - 1)
            return 0;
        out[0] = x > D->m - 1 ? 0 : 1;
        return 1;
    }
    if (x == c)
        return 0;
    uint32_t l = dim_dist(D, c, x);
    for (uint32_t r = D->adj_off[c]; r < D->adj_off[c + 1]; r++)
        if (dim_dist(D, D->adj[r], x) + 1 == l)
            out[n++] = r - D->adj_off[c];
    return n;
}

/* Global slots of table class tc that bring key closer; returns how many. */
static uint32_t key_productive(const gd *G, uint32_t tc, uint32_t key, uint32_t *out, uint32_t *tmp)
{
    const uint16_t *kd = G->keydig + (size_t)key * G->k;
    uint32_t c = 0;
    for (uint32_t i = 0; i < G->k; i++) {
        const gd_dim *D = &G->d[i];
        uint32_t t = dim_productive(D, D->rel || D->prel ? 0 : tc_coord(G, tc, i), kd[i], tmp);
        for (uint32_t j = 0; j < t; j++)
            out[c++] = D->slot0 + tmp[j];
    }
    return c;
}

/*
 * Key of the message (src -> dst) at its source: rel dimensions the offset
 * (dst - src) mod m, others the destination's coordinate. An even ring's
 * antipodal offset m/2 goes '+' for half of the destinations and '-' for the
 * other half (|A+| - |A-| in {0, 1}, 001 Section 8.1): '+' when the mixed-
 * radix index of the message's other offset digits is even. The rule depends
 * on offsets only, so every source splits alike (symmetric).
 */
static uint32_t source_key(const gd *G, uint32_t src, uint32_t dst)
{
    const uint16_t *sc = G->coords + (size_t)src * G->k, *dc = G->coords + (size_t)dst * G->k;
    uint32_t x[TOTEX_MAX_DIMS], key = 0;
    for (uint32_t i = 0; i < G->k; i++) {
        const gd_dim *D = &G->d[i];
        uint32_t a = sc[i], b = dc[i];
        x[i] = D->rel ? (b >= a ? b - a : b + D->m - a) : b;
    }
    for (uint32_t i = 0; i < G->k; i++) {
        const gd_dim *D = &G->d[i];
        uint32_t digit = D->prel ? x[i] + D->m - 1 - sc[i] : x[i];
        if (D->extra && 2 * x[i] == D->m) {
            uint64_t r = 0;
            for (uint32_t j = G->k; j-- > 0;)
                if (j != i)
                    r = r * G->d[j].m + x[j];
            if (r & 1)
                digit = D->m;
        }
        key += digit * D->kstride;
    }
    return key;
}

/* Source digits of src seen from node u: rel dimensions (src - u) mod m, others src's coordinate. */
static uint32_t source_rel(const gd *G, uint32_t u, uint32_t src)
{
    const uint16_t *uc = G->coords + (size_t)u * G->k, *sc = G->coords + (size_t)src * G->k;
    uint32_t r = 0;
    for (uint32_t i = 0; i < G->k; i++) {
        const gd_dim *D = &G->d[i];
        uint32_t a = uc[i], b = sc[i];
        r += (D->rel ? (b >= a ? b - a : b + D->m - a) : b) * D->stride;
    }
    return r;
}

/* Build the priority tables of every table class; returns 0 or -1 when out of memory. */
static int build_tables(gd *G)
{
    const uint32_t k = G->k, P = G->P, S = G->S, K = G->K;
    uint32_t maxsec = 0, tmp_cap = 1;
    int rc = -1;
    for (uint32_t i = 0; i < k; i++) {
        if (totex_factor_diameter(G->d[i].f) > maxsec)
            maxsec = totex_factor_diameter(G->d[i].f);
        if (G->d[i].ns > tmp_cap)
            tmp_cap = G->d[i].ns;
    }
    uint32_t top = G->maxlvl > maxsec ? G->maxlvl : maxsec;
    uint32_t *lvl = malloc(sizeof *lvl * K), *sec = malloc(sizeof *sec * K);
    uint32_t *korder = malloc(sizeof *korder * K), *kbuf = malloc(sizeof *kbuf * K);
    uint32_t *cnt = calloc((size_t)top + 2, sizeof *cnt), *tmp = malloc(sizeof *tmp * ((size_t)tmp_cap + 1));
    uint32_t *prod = malloc(sizeof *prod * ((size_t)S + 1));
    if (!lvl || !sec || !korder || !kbuf || !cnt || !tmp || !prod)
        goto out;
    for (uint32_t c = 0; c < G->ntc; c++) {
        uint32_t *ord = G->order + (size_t)c * P, *ps = G->pos + (size_t)c * K;
        uint16_t *lv = G->level + (size_t)c * P;
        for (uint32_t key = 0; key < K; key++) {
            const uint16_t *kd = G->keydig + (size_t)key * k;
            uint32_t l = 0, mx = 0;
            for (uint32_t i = 0; i < k; i++) {
                const gd_dim *D = &G->d[i];
                uint32_t x = dim_dist(D, D->rel || D->prel ? 0 : tc_coord(G, c, i), kd[i]);
                l += x;
                if (x > mx)
                    mx = x;
            }
            lvl[key] = l;
            sec[key] = mx;
        }
        /* rank: distance desc, then the largest single-dimension distance desc, then key asc
         * (two stable counting sorts: by the second key, then by distance) */
        memset(cnt, 0, sizeof *cnt * ((size_t)top + 2));
        for (uint32_t key = 0; key < K; key++)
            cnt[sec[key]]++;
        for (uint32_t x = maxsec + 1, start = 0; x-- > 0;) {
            uint32_t c2 = cnt[x];
            cnt[x] = start;
            start += c2;
        }
        for (uint32_t key = 0; key < K; key++)
            kbuf[cnt[sec[key]]++] = key;
        memset(cnt, 0, sizeof *cnt * ((size_t)top + 2));
        for (uint32_t key = 0; key < K; key++)
            cnt[lvl[key]]++;
        for (uint32_t l = G->maxlvl + 1, start = 0; l-- > 0;) {
            uint32_t c2 = cnt[l];
            cnt[l] = start;
            start += c2;
        }
        for (uint32_t i = 0; i < K; i++)
            korder[cnt[lvl[kbuf[i]]]++] = kbuf[i];
        /* the node's own key (distance 0) comes last and has no position */
        for (uint32_t p = 0; p < K; p++) {
            uint32_t key = korder[p];
            if (lvl[key] == 0) {
                ps[key] = GD_NONE;
                continue;
            }
            ord[p] = key;
            ps[key] = p;
            lv[p] = (uint16_t)lvl[key];
            uint32_t b = 0;
            for (uint32_t i = 0; i < k; i++)
                b += G->keydig[(size_t)key * k + i] * G->d[i].bstride;
            G->bpos[(size_t)c * P + p] = b;
            uint32_t np = key_productive(G, c, key, prod, tmp);
            for (uint32_t j = 0; j < np; j++)
                G->masks[G->mask_off[(size_t)c * S + prod[j]] + p / 64] |= UINT64_C(1) << (p % 64);
        }
    }
    rc = 0;
out:
    free(lvl);
    free(sec);
    free(korder);
    free(kbuf);
    free(cnt);
    free(tmp);
    free(prod);
    return rc;
}

static inline uint32_t scan(const gd *G, uint32_t w, uint32_t s, uint32_t from);

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * uperm: the units ranked by (their block of 4 coordinates in every unit
 * dimension, then their place in it), so the buckets of neighbouring units
 * share cache lines. Plain order beyond 2^24 units or 8 unit dimensions.
 * Returns 0 or -1 when out of memory.
 */
static int unit_blocks(gd *G)
{
    uint32_t nd = 0;
    for (uint32_t i = 0; i < G->k; i++)
        nd += !G->d[i].merged;
    if (G->U >= (UINT32_C(1) << 24) || nd > 8) {
        for (uint32_t w = 0; w < G->U; w++)
            G->uperm[w] = w;
        return 0;
    }
    uint64_t *ord = malloc(sizeof *ord * G->U);
    if (!ord)
        return -1;
    for (uint32_t w = 0; w < G->U; w++) {
        uint64_t hi = 0, lo = 0; /* hi < U < 2^24 blocks, lo < 4^nd <= 2^16 */
        for (uint32_t i = G->k; i-- > 0;) {
            const gd_dim *D = &G->d[i];
            if (D->merged)
                continue;
            uint32_t c = w / D->ustride % D->m;
            hi = hi * ((D->m + 3) / 4) + c / 4;
            lo = lo * 4 + c % 4;
        }
        ord[w] = ((hi << (2 * nd)) + lo) << 24 | w;
    }
    qsort(ord, G->U, sizeof *ord, cmp_u64);
    for (uint32_t r = 0; r < G->U; r++)
        G->uperm[ord[r] & 0xffffff] = r;
    free(ord);
    return 0;
}

static totex_status gd_setup(gd *G, const totex_network *net, totex_ports ports, int count_only, totex_error *err)
{
    uint32_t n = totex_network_nodes(net), k = totex_network_dims(net), tmp_cap = 1;
    uint64_t msgs = totex_network_messages(net), K = 1, words = 0;
    int all_rel = 1;
    memset(G, 0, sizeof *G);
    G->net = net;
    G->ports = ports;
    G->n = n;
    G->k = k;
    if (n < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "greedy needs at least 2 nodes; %s has %u",
                          totex_network_spec(net), n);
    if (msgs > TOTEX_SIM_MAX_MESSAGES || n >= GD_NONE16)
        return totex_fail(err, TOTEX_ENOMEM,
                          "greedy keeps every one of the n(n-1) messages (%llu for %s); it is limited to %llu, as "
                          "the simulator; use `totex bounds` for a network this large",
                          (unsigned long long)msgs, totex_network_spec(net),
                          (unsigned long long)TOTEX_SIM_MAX_MESSAGES);
    for (uint32_t i = 0; i < k; i++) {
        totex_factor_kind kind = totex_factor_get_kind(totex_network_factor(net, i));
        if (kind != TOTEX_FACTOR_RING && kind != TOTEX_FACTOR_K2 && kind != TOTEX_FACTOR_COMPLETE)
            all_rel = 0;
    }
    /* symmetric: multiport always; k-port only when every node is alike (001 Section 3) */
    G->symmetric = ports == TOTEX_PORTS_MULTI || all_rel;
    /*
     * Paths with relative keys: the priority tables of every node collapse into
     * one (the rank depends on the offset to the destination only), at the
     * price of sparser bit words (2m - 1 key digits for m coordinates). Taken
     * when the tables and bit words then take less memory (2-D meshes: the
     * per-node tables of n^2 entries go; high-dimensional small paths: kept).
     */
    int use_prel = 0;
    {
        double U0 = 1, K0 = 1, ntc0 = 1, K1 = 1, ntc1 = 1;
        int paths = 0;
        for (uint32_t i = 0; i < k; i++) {
            const totex_factor *f = totex_network_factor(net, i);
            totex_factor_kind kind = totex_factor_get_kind(f);
            double m = totex_factor_nodes(f);
            int rel = kind == TOTEX_FACTOR_RING || kind == TOTEX_FACTOR_K2 || kind == TOTEX_FACTOR_COMPLETE;
            K0 *= m + (kind == TOTEX_FACTOR_RING && (uint32_t)m % 2 == 0);
            K1 *= kind == TOTEX_FACTOR_PATH ? 2 * m - 1 : m + (kind == TOTEX_FACTOR_RING && (uint32_t)m % 2 == 0);
            if (!rel) {
                ntc0 *= m;
                ntc1 *= kind == TOTEX_FACTOR_PATH ? 1 : m;
            }
            if (!(rel && G->symmetric))
                U0 *= m;
            paths += kind == TOTEX_FACTOR_PATH && m >= 2;
        }
        /* bytes: order, pos, level (+ bpos, both) per table entry; 3 bits per unit and key */
        use_prel = paths > 0 && ntc1 * K1 * 14 + U0 * K1 * 3 / 8 <= ntc0 * K0 * 14 + U0 * K0 * 3 / 8;
    }
    G->ntc = G->U = G->T = G->Kb = 1;
    for (uint32_t i = 0; i < k; i++) {
        gd_dim *D = &G->d[i];
        D->f = totex_network_factor(net, i);
        D->m = totex_factor_nodes(D->f);
        D->stride = totex_network_stride(net, i);
        D->kind = totex_factor_get_kind(D->f);
        D->rel = D->kind == TOTEX_FACTOR_RING || D->kind == TOTEX_FACTOR_K2 || D->kind == TOTEX_FACTOR_COMPLETE;
        D->merged = D->rel && G->symmetric;
        D->extra = D->kind == TOTEX_FACTOR_RING && D->m % 2 == 0;
        D->prel = use_prel && D->kind == TOTEX_FACTOR_PATH && D->m >= 2;
        D->radix = D->prel ? 2 * D->m - 1 : D->m + D->extra;
        D->kstride = (uint32_t)K;
        K *= D->radix;
        D->bstride = G->Kb;
        G->Kb *= D->m + D->extra;
        D->slot0 = G->S;
        D->ns = D->prel ? 2 : totex_factor_max_degree(D->f);
        G->S += D->ns;
        if (D->ns > tmp_cap)
            tmp_cap = D->ns;
        if (D->merged) {
            G->T *= D->m;
            G->mdims[G->nmerged++] = i;
        } else {
            D->ustride = G->U;
            G->U *= D->m;
        }
        if (D->rel) {
            D->dist0 = malloc(sizeof *D->dist0 * D->radix);
            if (!D->dist0)
                goto nomem;
            for (uint32_t x = 0; x < D->m; x++)
                D->dist0[x] = totex_factor_distance(D->f, 0, x);
            if (D->extra)
                D->dist0[D->m] = D->m / 2;
        } else if (!D->prel) {
            D->tstride = G->ntc;
            G->ntc *= D->m;
            D->adj_off = malloc(sizeof *D->adj_off * ((size_t)D->m + 1));
            if (!D->adj_off)
                goto nomem;
            D->adj_off[0] = 0;
            for (uint32_t a = 0; a < D->m; a++)
                D->adj_off[a + 1] = D->adj_off[a] + totex_factor_degree(D->f, a);
            D->adj = malloc(sizeof *D->adj * ((size_t)D->adj_off[D->m] + 1));
            if (!D->adj)
                goto nomem;
            for (uint32_t a = 0; a < D->m; a++)
                for (uint32_t r = 0; r < D->adj_off[a + 1] - D->adj_off[a]; r++)
                    D->adj[D->adj_off[a] + r] = totex_factor_neighbor(D->f, a, r);
        }
    }
    /* keys: at most n (5/4)^dims; the tables hold ntc * K entries */
    if (K >= GD_NONE || G->S >= GD_NONE16 || (uint64_t)G->ntc * K > (UINT64_C(1) << 31))
        return totex_fail(err, TOTEX_ENOMEM,
                          "greedy: %s needs %llu routing tags per node and %u node classes (too many to tabulate)",
                          totex_network_spec(net), (unsigned long long)K, G->ntc);
    G->K = (uint32_t)K;
    G->P = G->K - 1;
    G->W = (G->P + 63) / 64;
    const uint32_t P = G->P, S = G->S, ntc = G->ntc, W = G->W, U = G->U;
    G->coords = malloc(sizeof *G->coords * (size_t)n * k);
    G->keydig = malloc(sizeof *G->keydig * (size_t)G->K * k);
    G->tc_of = malloc(sizeof *G->tc_of * U);
    G->rep = malloc(sizeof *G->rep * U);
    G->slot_dim = malloc(sizeof *G->slot_dim * S);
    G->slot_j = malloc(sizeof *G->slot_j * S);
    G->slot_off = malloc(sizeof *G->slot_off * S);
    G->udelta = malloc(sizeof *G->udelta * S);
    G->kdelta = malloc(sizeof *G->kdelta * S);
    G->order = big_alloc(G, sizeof *G->order * (size_t)ntc * P);
    G->pos = big_alloc(G, sizeof *G->pos * (size_t)ntc * G->K);
    G->level = big_alloc(G, sizeof *G->level * (size_t)ntc * P);
    G->bpos = big_alloc(G, sizeof *G->bpos * (size_t)ntc * P);
    G->boff = malloc(sizeof *G->boff * U);
    G->uperm = malloc(sizeof *G->uperm * U);
    G->mask_off = malloc(sizeof *G->mask_off * (size_t)ntc * S);
    if (!G->coords || !G->keydig || !G->tc_of || !G->rep || !G->slot_dim || !G->slot_j || !G->slot_off ||
        !G->udelta || !G->kdelta ||
        !G->order || !G->pos || !G->level || !G->bpos || !G->boff || !G->uperm || !G->mask_off)
        goto nomem;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = 0; j < G->d[i].ns; j++) {
            const gd_dim *D = &G->d[i];
            uint32_t s = D->slot0 + j;
            G->slot_dim[s] = (uint16_t)i;
            G->slot_j[s] = (uint16_t)j;
            G->slot_off[s] = D->kind == TOTEX_FACTOR_RING ? (j == 0 ? 1 : D->m - 1) : j + 1;
            /* prel: slot 0 goes c -> c + 1, so the key digit (destination - c + m - 1) drops by one */
            G->udelta[s] = j == 0 ? D->ustride : 0u - D->ustride;
            G->kdelta[s] = j == 0 ? 0u - D->kstride : D->kstride;
        }
    G->allprel = 1;
    for (uint32_t i = 0; i < k; i++)
        if (!G->d[i].prel || G->d[i].bstride != G->d[i].stride || G->d[i].ustride != G->d[i].stride)
            G->allprel = 0;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < k; i++)
            G->coords[(size_t)v * k + i] = (uint16_t)totex_network_coord(net, v, i);
    for (uint32_t w = 0; w < U; w++) {
        uint32_t node = 0, tc = 0, boff = 0;
        for (uint32_t i = 0; i < k; i++) {
            const gd_dim *D = &G->d[i];
            uint32_t c = D->merged ? 0 : w / D->ustride % D->m;
            node += c * D->stride;
            if (!D->rel && !D->prel)
                tc += c * D->tstride;
            if (D->prel) /* bucket digit = key digit - (m - 1) + c: the destination's coordinate */
                boff += (c - (D->m - 1)) * D->bstride; /* mod 2^32 */
        }
        G->rep[w] = node;
        G->tc_of[w] = tc;
        G->boff[w] = boff;
    }
    if (unit_blocks(G))
        goto nomem;
    for (uint32_t key = 0; key < G->K; key++)
        for (uint32_t i = 0; i < k; i++)
            G->keydig[(size_t)key * k + i] = (uint16_t)(key / G->d[i].kstride % G->d[i].radix);
    /* masks: the slots present at each table class (non-rel dims: the class coordinate's degree) */
    for (uint32_t c = 0; c < ntc; c++)
        for (uint32_t s = 0; s < S; s++) {
            const gd_dim *D = &G->d[G->slot_dim[s]];
            uint32_t cc = D->rel || D->prel ? 0 : tc_coord(G, c, G->slot_dim[s]);
            int present = D->rel || D->prel || G->slot_j[s] < D->adj_off[cc + 1] - D->adj_off[cc];
            G->mask_off[(size_t)c * S + s] = present ? words : UINT64_MAX;
            if (present)
                words += W;
        }
    if (words > (UINT64_C(1) << 28))
        return totex_fail(err, TOTEX_ENOMEM, "greedy: the link masks of %s would take %llu MiB (limit 2048 MiB)",
                          totex_network_spec(net), (unsigned long long)(words >> 17));
    G->masks = big_alloc(G, sizeof *G->masks * words);
    G->maxlvl = (uint32_t)totex_network_diameter(net);
    if (!G->masks || build_tables(G))
        goto nomem;

    /* units: each holds its own message for every destination */
    G->state = big_alloc(G, sizeof *G->state * (size_t)U * W);
    G->lastp = malloc(sizeof *G->lastp * U);
    G->ptimes = malloc(sizeof *G->ptimes * U);
    G->count_only = count_only;
    G->abs = !count_only;
    for (uint32_t i = 0; i < k; i++)
        if (G->d[i].rel || G->d[i].bstride != G->d[i].stride)
            G->abs = 0;
    if (count_only) {
        G->bsize = big_alloc(G, sizeof *G->bsize * (size_t)U * G->Kb);
    } else if (G->abs) { /* U = Kb = n */
        G->bkt4 = big_alloc(G, sizeof *G->bkt4 * (size_t)n * n);
        G->nxt = big_alloc(G, sizeof *G->nxt * (size_t)n * n);
    } else {
        G->bkt = big_alloc(G, sizeof *G->bkt * (size_t)U * G->Kb);
        G->msg = big_alloc(G, sizeof *G->msg * (size_t)U * (n - 1)); /* U (n - 1) <= msgs < 2^31 */
    }
    G->count = malloc(sizeof *G->count * U);
    G->cursor = big_alloc(G, sizeof *G->cursor * (size_t)U * S);
    if (!G->state || !G->lastp || !G->ptimes || (count_only ? !G->bsize : G->abs ? !G->bkt4 || !G->nxt : !G->bkt || !G->msg) || !G->count ||
        !G->cursor)
        goto nomem;
    for (uint32_t w = 0, mi = 0; w < U; w++) {
        uint32_t u = G->rep[w];
        uint64_t *N = G->state + (size_t)w * W;
        const uint32_t *ps = G->pos + (size_t)G->tc_of[w] * G->K, *bp = G->bpos + (size_t)G->tc_of[w] * P;
        const uint32_t own = source_rel(G, u, u);
        for (uint32_t d = 0; d < n; d++) {
            if (d == u)
                continue;
            uint32_t p = ps[source_key(G, u, d)];
            size_t b = (size_t)(uint32_t)(bp[p] + G->boff[w]) * U + G->uperm[w];
            if (count_only) {
                G->bsize[b] = 1;
            } else if (G->abs) { /* b = w * n + d */
                G->bkt4[b] = UINT32_C(1) << 16 | u;
                G->nxt[(size_t)d * n + u] = GD_NONE16;
            } else { /* one message per (source, destination): the bucket was empty */
                G->msg[mi] = (gd_msg){0, own};
                G->bkt[b] = (gd_bucket){++mi, 1};
            }
            N[p >> 6] |= UINT64_C(1) << (p & 63);
        }
        G->count[w] = n - 1;
        /* exact cursors: the first position each slot can serve (absent slots: none) */
        const uint64_t *off = G->mask_off + (size_t)G->tc_of[w] * S;
        for (uint32_t s = 0; s < S; s++)
            G->cursor[(size_t)w * S + s] = off[s] == UINT64_MAX ? GD_NONE : scan(G, w, s, 0);
    }
    G->remaining = msgs;

    /* per-step buffers */
    uint32_t per = ports == TOTEX_PORTS_MULTI || totex_ports_k(ports) > S ? S : totex_ports_k(ports);
    G->pcap = (size_t)U * per;
    G->picks = malloc(sizeof *G->picks * G->pcap);
    G->hops = malloc(sizeof *G->hops * G->pcap * G->T);
    G->tmp = malloc(sizeof *G->tmp * ((size_t)tmp_cap + 1));
    if (!G->picks || !G->hops || !G->tmp)
        goto nomem;
    if (G->symmetric) {
        G->heap = malloc(sizeof *G->heap * 3 * S);
        if (!G->heap)
            goto nomem;
    } else {
        G->heap = malloc(sizeof *G->heap * (size_t)U * S);
        G->hn = calloc(U, sizeof *G->hn);
        G->built = calloc(U, sizeof *G->built);
        G->rstamp = calloc(U, sizeof *G->rstamp);
        G->scount = calloc(U, sizeof *G->scount);
        G->rcount = calloc(U, sizeof *G->rcount);
        G->qhead = malloc(sizeof *G->qhead * ((size_t)G->maxlvl + 1));
        G->qtail = malloc(sizeof *G->qtail * ((size_t)G->maxlvl + 1));
        G->qnext = malloc(sizeof *G->qnext * U);
        G->byq = malloc(sizeof *G->byq * U);
        G->byq2 = malloc(sizeof *G->byq2 * U);
        if (!G->heap || !G->hn || !G->built || !G->rstamp || !G->scount || !G->rcount || !G->qhead || !G->qtail ||
            !G->qnext || !G->byq || !G->byq2)
            goto nomem;
    }
    return TOTEX_OK;
nomem:
    return totex_fail(err, TOTEX_ENOMEM, "out of memory planning greedy total exchange on %s (%u nodes)",
                      totex_network_spec(net), n);
}

/* ---- per-unit choice ----------------------------------------------------- */


/* The word of kind j (ST_*) holding position p of unit w. */
static inline uint64_t *st_word(const gd *G, uint32_t w, uint32_t p)
{
    return G->state + (size_t)w * G->W + (p >> 6);
}

/* First position >= from that slot s of unit w can serve (non-empty bucket in the slot's mask), or GD_NONE. */
static inline uint32_t scan(const gd *G, uint32_t w, uint32_t s, uint32_t from)
{
    if (from >= G->P)
        return GD_NONE;
    const uint64_t *N = G->state + (size_t)w * G->W;
    const uint64_t *M = G->masks + G->mask_off[(size_t)G->tc_of[w] * G->S + s];
    uint32_t x = from >> 6;
    uint64_t bits = N[x] & M[x] & (UINT64_MAX << (from & 63));
    while (!bits) {
        if (++x >= G->W)
            return GD_NONE;
        bits = N[x] & M[x];
    }
    return x * 64 + (uint32_t)__builtin_ctzll(bits);
}

#define HPOS(e) ((uint32_t)((e) >> 32))
#define HSLOT(e) ((uint32_t)(e))
#define HENTRY(p, s) ((uint64_t)(p) << 32 | (s))

static inline void heap_down(uint64_t *h, uint32_t n, uint32_t i)
{
    uint64_t x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1] < h[c])
            c++;
        if (h[c] >= x)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static inline void heap_up(uint64_t *h, uint32_t i)
{
    uint64_t x = h[i];
    while (i > 0 && h[(i - 1) / 2] > x) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

/* Remove the entry at index i. */
static inline void heap_remove(uint64_t *h, uint32_t *n, uint32_t i)
{
    uint64_t last = h[--*n];
    if (i == *n)
        return;
    h[i] = last;
    heap_down(h, *n, i);
    heap_up(h, i);
}

/* The bucket digits of unit w's destination at position p (abs: the destination's node id). */
static inline uint32_t bucket_dig(const gd *G, uint32_t w, uint32_t p)
{
    return G->bpos[(size_t)G->tc_of[w] * G->P + p] + G->boff[w];
}

/*
 * Index of the bucket of unit w at position p (in bsize, bkt, bkt4):
 * destination-major, units in blocks (uperm), so a message that moves to a
 * neighbour usually lands in the cache line it left.
 */
static inline size_t bucket_at(const gd *G, uint32_t w, uint32_t p)
{
    return (size_t)bucket_dig(G, w, p) * G->U + G->uperm[w];
}

/*
 * Fill h with w's slots that can serve a message now, keyed (position, slot);
 * returns the count. The cursors are exact (the first position each slot can
 * serve), so no bit word is read; with @p fetch, the top's bit word and the
 * buckets of the first entries are fetched for take() (symmetric steps build
 * the heaps of the units ahead).
 */
static uint32_t build_heap(gd *G, uint32_t w, uint64_t *h, int fetch)
{
    uint32_t S = G->S, c = 0, best = GD_NONE;
    const uint32_t *cur = G->cursor + (size_t)w * S;
    for (uint32_t s = 0; s < S; s++)
        if (cur[s] != GD_NONE) {
            h[c++] = HENTRY(cur[s], s);
            best = cur[s] < best ? cur[s] : best;
        }
    if (best != GD_NONE && fetch)
        __builtin_prefetch(st_word(G, w, best), 1, 3);
    for (uint32_t i = 0; fetch && i < c && i < 4; i++) { /* the buckets take() will read the sizes of */
        size_t b = bucket_at(G, w, HPOS(h[i]));
        if (G->count_only)
            __builtin_prefetch(G->bsize + b, 1, 3);
        else if (G->abs)
            __builtin_prefetch(G->bkt4 + b, 1, 3);
        else
            __builtin_prefetch(G->bkt + b, 1, 3);
    }
    G->lastp[w] = GD_NONE;
    for (uint32_t i = c / 2; i-- > 0;)
        heap_down(h, c, i);
    return c;
}

/* Validate the heap top against its slot's cursor (take() moves it on); 0: heap empty. */
static inline int heap_valid_top(gd *G, uint32_t w, uint64_t *h, uint32_t *hn)
{
    const uint32_t *cur = G->cursor + (size_t)w * G->S;
    while (*hn) {
        uint32_t p = HPOS(h[0]), s = HSLOT(h[0]);
        if (cur[s] == p)
            return 1;
        if (cur[s] == GD_NONE) {
            heap_remove(h, hn, 0);
        } else {
            h[0] = HENTRY(cur[s], s);
            heap_down(h, *hn, 0);
        }
    }
    return 0;
}

/*
 * The message at position p (the top's) may be movable by several free
 * slots: exactly the heap entries at p (each such slot's best is p). Give it
 * the slot whose next candidate is the worst, so the slots with good
 * alternatives stay free for them (ties: the lowest slot). Returns the heap
 * index of the chosen entry.
 */
static uint32_t pick_slot(gd *G, uint32_t w, const uint64_t *h, uint32_t hn, uint32_t p)
{
    uint32_t best = 0, stack[64], sp = 0, nfound = 0;
    uint64_t best_alt = 0;
    if (!((hn > 1 && HPOS(h[1]) == p) || (hn > 2 && HPOS(h[2]) == p)))
        return 0; /* one slot only */
    stack[sp++] = 0; /* the entries at p form a subtree at the root */
    while (sp) {
        uint32_t i = stack[--sp];
        if (i >= hn || HPOS(h[i]) != p)
            continue;
        uint32_t s = HSLOT(h[i]);
        uint64_t alt = scan(G, w, s, p + 1);
        alt = (alt == GD_NONE ? UINT64_C(1) << 40 : alt) << 20 | (0xfffff - s);
        if (nfound++ == 0 || alt > best_alt) {
            best_alt = alt;
            best = i;
        }
        if (sp + 2 <= 64) {
            stack[sp++] = 2 * i + 1;
            stack[sp++] = 2 * i + 2;
        }
    }
    return best;
}

/* Coordinate reached from coordinate c of dimension D over its local slot j. */
static inline uint32_t dim_step(const gd_dim *D, uint32_t c, uint32_t j)
{
    if (D->prel)
        return j == 0 ? c + 1 : c - 1;
    switch (D->kind) {
    case TOTEX_FACTOR_RING: return j == 0 ? (c + 1 == D->m ? 0 : c + 1) : (c == 0 ? D->m - 1 : c - 1);
    case TOTEX_FACTOR_K2: return 1 - c;
    case TOTEX_FACTOR_COMPLETE: return c + j + 1 >= D->m ? c + j + 1 - D->m : c + j + 1;
    default: return D->adj[D->adj_off[c] + j];
    }
}

/* Receiving unit of a move of unit w over slot s (k-port, not symmetric: units are nodes). */
static inline uint32_t slot_target_unit(const gd *G, uint32_t w, uint32_t s)
{
    const gd_dim *D = &G->d[G->slot_dim[s]];
    if (D->merged)
        return w;
    uint32_t c = G->coords[(size_t)G->rep[w] * G->k + G->slot_dim[s]];
    return w + dim_step(D, c, G->slot_j[s]) * D->ustride - c * D->ustride;
}

/* Picks ahead of the one being moved whose memory is fetched. */
#define GD_AHEAD 24

static inline void prefetch_bucket(const gd *G, size_t b)
{
    if (G->count_only)
        __builtin_prefetch(G->bsize + b, 1, 3);
    else if (G->abs)
        __builtin_prefetch(G->bkt4 + b, 1, 3);
    else
        __builtin_prefetch(G->bkt + b, 1, 3);
}

/* The message on top of the bucket of pick pk (its bucket word fetched earlier). */
static inline void prefetch_top(const gd *G, const gd_pick *pk)
{
    if (G->abs)
        __builtin_prefetch(G->nxt + (size_t)pk->dig * G->n + (G->bkt4[pk->b] & 0xffff), 1, 3);
    else if (!G->count_only)
        __builtin_prefetch(G->msg + (G->bkt[pk->b].head - 1), 1, 3);
}

/* Messages in bucket b (bucket_at) before the step's pops. */
static inline uint32_t bucket_size(const gd *G, size_t b)
{
    return G->count_only ? G->bsize[b] : G->abs ? G->bkt4[b] >> 16 : G->bkt[b].size;
}

/*
 * Decide that the top message of bucket (w, p) moves over slot s, the t-th
 * pick of that bucket in this step: record the pick (its message is popped
 * later, in pop_picks) and, when the bucket's size (before the step's pops)
 * is at most t, clear its non-empty bit as if it had left.
 */
static inline __attribute__((always_inline)) void take_nth(gd *G, uint32_t w, uint32_t p, uint32_t s, uint32_t t)
{
    const uint32_t dig = bucket_dig(G, w, p);
    const size_t b = (size_t)dig * G->U + G->uperm[w];
    if (bucket_size(G, b) <= t) { /* its last message: the slots whose first position this was move on */
        uint32_t *cur = G->cursor + (size_t)w * G->S;
        *st_word(G, w, p) &= ~(UINT64_C(1) << (p & 63));
        for (uint32_t x = 0; x < G->S; x++)
            if (cur[x] == p)
                cur[x] = scan(G, w, x, p + 1);
    } else if (t == 1 && G->abs) { /* the message under the top, read when it is popped */
        __builtin_prefetch(G->nxt + (size_t)dig * G->n + (G->bkt4[b] & 0xffff), 1, 3);
    } else if (t == 1 && !G->count_only) {
        __builtin_prefetch(G->msg + (G->bkt[b].head - 1), 1, 3);
    }
    G->count[w]--;
    G->picks[G->npicks++] = (gd_pick){w, s, p, 0, 0, dig, b};
}

/* take_nth, counting the picks of one position in G->lastp / G->ptimes */
static inline void take(gd *G, uint32_t w, uint32_t p, uint32_t s)
{
    /* repeated picks of one position are consecutive in a unit's step (cursors only advance) */
    uint32_t t = G->lastp[w] == p ? ++G->ptimes[w] : (G->lastp[w] = p, G->ptimes[w] = 1);
    take_nth(G, w, p, s, t);
}

/* Pop the message of pick pk (key := the destination's key, src := its source digits, msg := its pool index). */
static inline void pop_one(gd *G, gd_pick *pk)
{
    const uint32_t P = G->P;
    const uint32_t w = pk->unit, p = pk->key;
    const size_t b = pk->b;
    uint32_t c;
    if (G->count_only) {
        c = --G->bsize[b];
        pk->src = 0; /* the sources are not wanted */
    } else if (G->abs) {
        const uint32_t top = G->bkt4[b] & 0xffff;
        c = (G->bkt4[b] >> 16) - 1;
        pk->src = top;
        G->bkt4[b] = c << 16 | G->nxt[(size_t)pk->dig * G->n + top];
    } else { /* the top of the stack (last in, first out) */
        gd_bucket *B = &G->bkt[b];
        const gd_msg *M = &G->msg[B->head - 1];
        pk->msg = B->head;
        pk->src = M->src;
        B->head = M->next;
        c = --B->size;
    }
    pk->key = G->order[(size_t)G->tc_of[w] * P + p];
}

/*
 * Pop the messages of the step's picks (key := the destination's key, src :=
 * its source digits, msg := its pool index). Passes so that the random reads
 * of the last were fetched by the earlier ones: the bucket words, then (plan
 * run) the messages on top of the stacks.
 */
static void pop_picks(gd *G)
{
    const size_t np = G->npicks;
    for (size_t x = 0; x < np && x < GD_AHEAD; x++)
        prefetch_bucket(G, G->picks[x].b);
    for (size_t x = 0; x < np && x < GD_AHEAD / 2; x++)
        prefetch_top(G, &G->picks[x]);
    for (size_t x = 0; x < np; x++) {
        gd_pick *pk = &G->picks[x];
        if (x + GD_AHEAD < np)
            prefetch_bucket(G, G->picks[x + GD_AHEAD].b);
        if (x + GD_AHEAD / 2 < np)
            prefetch_top(G, &G->picks[x + GD_AHEAD / 2]);
        pop_one(G, pk);
    }
}

/* ---- emitting a step and its arrivals ------------------------------------ */

/*
 * The hops of every pick at every translate of its unit. Node u = rep + t;
 * in a merged dimension the hop's coordinates are (c + key digit), (c +
 * source digit), (c + slot offset) mod m for every c; elsewhere they are
 * the representative's.
 */
static size_t emit(gd *G)
{
    const uint32_t k = G->k;
    size_t c = 0;
    if (G->allprel) { /* units are nodes; the bucket digits are the destination */
        for (size_t x = 0; x < G->npicks; x++) {
            const gd_pick *pk = &G->picks[x];
            G->hops[x] = (totex_hop){pk->unit, pk->unit + G->udelta[pk->slot], pk->src, pk->dig};
        }
        return G->npicks;
    }
    for (size_t x = 0; x < G->npicks; x++) {
        const gd_pick *pk = &G->picks[x];
        const uint16_t *kd = G->keydig + (size_t)pk->key * k, *sd = G->coords + (size_t)pk->src * k;
        const uint16_t *rc = G->coords + (size_t)G->rep[pk->unit] * k;
        const uint32_t sdim = G->slot_dim[pk->slot];
        uint32_t u0 = 0, to0 = 0, src0 = 0, dst0 = 0;
        /* the fixed part: every dimension that is not merged */
        for (uint32_t i = 0; i < k; i++) {
            const gd_dim *D = &G->d[i];
            if (D->merged)
                continue;
            uint32_t cc = rc[i], kx = kd[i], sx = sd[i], dx, sxx;
            if (D->rel) {
                kx = kx == D->m ? D->m / 2 : kx;
                dx = cc + kx >= D->m ? cc + kx - D->m : cc + kx;
                sxx = cc + sx >= D->m ? cc + sx - D->m : cc + sx;
            } else if (D->prel) {
                dx = cc + kx - (D->m - 1);
                sxx = sx;
            } else {
                dx = kx;
                sxx = sx;
            }
            u0 += cc * D->stride;
            to0 += (i == sdim ? dim_step(D, cc, G->slot_j[pk->slot]) : cc) * D->stride;
            dst0 += dx * D->stride;
            src0 += sxx * D->stride;
        }
        if (G->nmerged == 0) {
            G->hops[c++] = (totex_hop){u0, to0, src0, dst0};
            continue;
        }
        /* odometer over the merged dimensions */
        uint32_t digit[TOTEX_MAX_DIMS], kdx[TOTEX_MAX_DIMS], sdx[TOTEX_MAX_DIMS], tdx[TOTEX_MAX_DIMS];
        uint32_t u = u0, to = to0, src = src0, dst = dst0;
        for (uint32_t a = 0; a < G->nmerged; a++) {
            uint32_t i = G->mdims[a];
            const gd_dim *D = &G->d[i];
            digit[a] = 0;
            kdx[a] = kd[i] == D->m ? D->m / 2 : kd[i];
            sdx[a] = sd[i];
            tdx[a] = i == sdim ? G->slot_off[pk->slot] : 0;
            dst += kdx[a] * D->stride;
            src += sdx[a] * D->stride;
            to += tdx[a] * D->stride;
        }
        for (uint32_t t = 0; t < G->T; t++) {
            G->hops[c++] = (totex_hop){u, to, src, dst};
            /* next translate: increment the lowest merged digit, carrying */
            for (uint32_t a = 0; a < G->nmerged; a++) {
                const gd_dim *D = &G->d[G->mdims[a]];
                const uint32_t st = D->stride, m = D->m;
                digit[a]++;
                u += st;
                to += (digit[a] + tdx[a]) % m == 0 ? st - m * st : st;
                src += (digit[a] + sdx[a]) % m == 0 ? st - m * st : st;
                dst += (digit[a] + kdx[a]) % m == 0 ? st - m * st : st;
                if (digit[a] < m)
                    break;
                /* the digit wrapped: back to 0 (the terms above already wrapped each coordinate once) */
                digit[a] = 0;
                u -= m * st;
            }
        }
    }
    return c;
}

/*
 * Arrivals of the step's picks (after every send: a message moves one hop per
 * step). Three passes so that the random reads of the last one were fetched
 * by the earlier ones: 1. where each message lands (unit, key, source); 2.
 * its position there; 3. into the bucket.
 */
static void arrive(gd *G)
{
    const uint32_t S = G->S, k = G->k;
    const size_t np = G->npicks;
    if (G->allprel) { /* one table; the bucket digits stay */
        for (size_t x = 0; x < np; x++) {
            gd_pick *pk = &G->picks[x];
            const uint32_t s = pk->slot;
            pk->key += G->kdelta[s];
            pk->unit += G->udelta[s];
            pk->slot = G->pos[pk->key];
            pk->b = (size_t)pk->dig * G->U + G->uperm[pk->unit];
        }
    }
    for (size_t x = 0; x < np && !G->allprel; x++) {
        gd_pick *pk = &G->picks[x];
        const uint32_t s = pk->slot, i = G->slot_dim[s];
        const gd_dim *D = &G->d[i];
        if (D->rel) { /* the offsets shrink by the hop */
            uint32_t kx = G->keydig[(size_t)pk->key * k + i], nx, sx = G->coords[(size_t)pk->src * k + i];
            uint32_t off = G->slot_off[s];
            if (D->kind != TOTEX_FACTOR_RING)
                nx = 0;
            else if (G->slot_j[s] == 0)
                nx = kx - 1;
            else
                nx = kx == D->m ? D->m / 2 + 1 : (kx + 1 == D->m ? 0 : kx + 1);
            pk->key = pk->key - kx * D->kstride + nx * D->kstride;
            uint32_t nsx = sx >= off ? sx - off : sx + D->m - off;
            pk->src = pk->src - sx * D->stride + nsx * D->stride;
        } else if (D->prel) { /* the offset shrinks by the hop: '+' lowers the digit, '-' raises it */
            pk->key = G->slot_j[s] == 0 ? pk->key - D->kstride : pk->key + D->kstride;
        }
        if (!D->merged) {
            uint32_t c = G->coords[(size_t)G->rep[pk->unit] * k + i];
            pk->unit = pk->unit + dim_step(D, c, G->slot_j[s]) * D->ustride - c * D->ustride;
        }
        __builtin_prefetch(G->pos + (size_t)G->tc_of[pk->unit] * G->K + pk->key, 0, 3);
    }
    for (size_t x = 0; x < np && !G->allprel; x++) { /* slot := position at the receiving unit; its bucket */
        gd_pick *pk = &G->picks[x];
        pk->slot = G->pos[(size_t)G->tc_of[pk->unit] * G->K + pk->key];
        if (pk->slot == GD_NONE)
            continue;
        pk->dig = bucket_dig(G, pk->unit, pk->slot);
        pk->b = (size_t)pk->dig * G->U + G->uperm[pk->unit];
    }
    for (size_t x = 0; x < np && x < GD_AHEAD; x++)
        if (G->picks[x].slot != GD_NONE) {
            prefetch_bucket(G, G->picks[x].b);
            __builtin_prefetch(st_word(G, G->picks[x].unit, G->picks[x].slot), 1, 3);
        }
    for (size_t x = 0; x < np; x++) {
        const gd_pick *pk = &G->picks[x];
        if (x + GD_AHEAD < np && pk[GD_AHEAD].slot != GD_NONE) {
            prefetch_bucket(G, pk[GD_AHEAD].b);
            __builtin_prefetch(st_word(G, pk[GD_AHEAD].unit, pk[GD_AHEAD].slot), 1, 3);
        }
        const uint32_t w = pk->unit, p = pk->slot, src = pk->src;
        if (p == GD_NONE) { /* delivered, at every translate */
            G->remaining -= G->T;
            continue;
        }
        G->count[w]++;
        const size_t bi = pk->b;
        uint32_t c;
        if (G->count_only) {
            c = ++G->bsize[bi];
        } else if (G->abs) { /* the source's entry was read when it left its last bucket */
            G->nxt[(size_t)pk->dig * G->n + src] = (uint16_t)(G->bkt4[bi] & 0xffff);
            c = (G->bkt4[bi] >> 16) + 1;
            G->bkt4[bi] = c << 16 | src;
        } else { /* onto the top of the bucket's stack */
            gd_bucket *B = &G->bkt[bi];
            G->msg[pk->msg - 1] = (gd_msg){B->head, src};
            B->head = pk->msg;
            c = ++B->size;
        }
        const uint64_t bit = UINT64_C(1) << (p & 63);
        if (c == 1) { /* the bucket was empty */
            *st_word(G, w, p) |= bit;
            /* the slots that can serve it (their masks hold p) may now start earlier */
            uint32_t *cur = G->cursor + (size_t)w * S;
            const uint64_t *off = G->mask_off + (size_t)G->tc_of[w] * S;
            for (uint32_t s = 0; s < S; s++)
                if (cur[s] > p && off[s] != UINT64_MAX && (G->masks[off[s] + (p >> 6)] & bit))
                    cur[s] = p;
        }
    }
}

/* ---- steps --------------------------------------------------------------- */

/* The next active unit after w (G->U when none). */
static inline uint32_t next_active(const gd *G, uint32_t w)
{
    w++;
    while (w < G->U && !G->count[w])
        w++;
    return w;
}

/*
 * Symmetric: every unit picks its furthest messages for its free slots, up to
 * per picks. Pipelined over three units so memory arrives before it is used:
 * unit w picks while the bit word and buckets of w1's and w2's heap tops
 * (fetched by build_heap) are on their way.
 */
static void step_symmetric(gd *G, uint32_t per)
{
    uint64_t *h[3] = {G->heap, G->heap + G->S, G->heap + 2 * (size_t)G->S};
    uint32_t hn[3] = {0, 0, 0};
    uint32_t w = next_active(G, GD_NONE), w1, w2;
    if (w >= G->U)
        return;
    hn[0] = build_heap(G, w, h[0], 1);
    w1 = next_active(G, w);
    if (w1 < G->U)
        hn[1] = build_heap(G, w1, h[1], 1);
    while (w < G->U) {
        w2 = w1 < G->U ? next_active(G, w1) : G->U;
        if (w2 < G->U)
            hn[2] = build_heap(G, w2, h[2], 1);
        for (uint32_t got = 0; got < per && heap_valid_top(G, w, h[0], &hn[0]); got++) {
            uint32_t p = HPOS(h[0][0]), at = pick_slot(G, w, h[0], hn[0], p);
            take(G, w, p, HSLOT(h[0][at]));
            heap_remove(h[0], &hn[0], at);
        }
        uint64_t *t = h[0];
        h[0] = h[1];
        h[1] = h[2];
        h[2] = t;
        hn[0] = hn[1];
        hn[1] = hn[2];
        w = w1;
        w1 = w2;
    }
}

/* The slots a unit with few (GD_FEW or fewer) scans linearly instead of keeping a heap. */
#define GD_FEW 8

/* Fetch what deciding unit w will read first: the bit word and the buckets at its slots' cursors. */
static inline void prefetch_unit(const gd *G, uint32_t w)
{
    const uint32_t *cur = G->cursor + (size_t)w * G->S;
    uint32_t best = GD_NONE;
    for (uint32_t s = 0; s < G->S; s++)
        if (cur[s] != GD_NONE) {
            best = cur[s] < best ? cur[s] : best;
            prefetch_bucket(G, bucket_at(G, w, cur[s]));
        }
    if (best != GD_NONE)
        __builtin_prefetch(st_word(G, w, best), 1, 3);
}

/*
 * step_symmetric for at most GD_FEW slots, the heap replaced by a scan of the
 * slots: the next pick is the least (cursor, slot) among the slots not used
 * yet in this step (the heap's top), given to the slot at that position whose
 * next candidate is the worst (pick_slot). Units are fetched two ahead; a
 * unit's picks are popped two units after its choice (pop_picks is not
 * run): no unit reads another's buckets while choosing, and every arrival
 * follows the step's last pop.
 */
static void step_symmetric_few(gd *G, uint32_t per)
{
    const uint32_t S = G->S;
    uint32_t w = next_active(G, GD_NONE), w1, w2;
    size_t popped = 0, end1 = 0, end2 = 0; /* picks popped; ends of the last two units' picks */
    if (w >= G->U)
        return;
    prefetch_unit(G, w);
    w1 = next_active(G, w);
    if (w1 < G->U)
        prefetch_unit(G, w1);
    while (w < G->U) {
        w2 = w1 < G->U ? next_active(G, w1) : G->U;
        if (w2 < G->U)
            prefetch_unit(G, w2);
        const uint32_t *cur = G->cursor + (size_t)w * S;
        uint32_t free_slots = (UINT32_C(1) << S) - 1, lastp = GD_NONE, times = 0;
        for (uint32_t got = 0; got < per; got++) {
            uint32_t p = GD_NONE, s = 0, ties = 0;
            for (uint32_t f = free_slots; f; f &= f - 1) {
                uint32_t x = (uint32_t)__builtin_ctz(f);
                if (cur[x] < p) {
                    p = cur[x];
                    s = x;
                    ties = 0;
                } else if (cur[x] == p && p != GD_NONE) {
                    ties = 1;
                }
            }
            if (p == GD_NONE)
                break;
            if (ties) { /* several free slots can move it: the one whose next candidate is the worst */
                uint64_t best_alt = 0;
                for (uint32_t f = free_slots; f; f &= f - 1) {
                    uint32_t x = (uint32_t)__builtin_ctz(f);
                    if (cur[x] != p)
                        continue;
                    uint64_t alt = scan(G, w, x, p + 1);
                    alt = (alt == GD_NONE ? UINT64_C(1) << 40 : alt) << 20 | (0xfffff - x);
                    if (alt > best_alt) {
                        best_alt = alt;
                        s = x;
                    }
                }
            }
            times = p == lastp ? times + 1 : 1; /* picks of one position are consecutive */
            lastp = p;
            take_nth(G, w, p, s, times);
            free_slots &= ~(UINT32_C(1) << s);
        }
        /* the picks of the unit two back: their bucket words are in cache, the messages under fetched */
        for (; popped < end2; popped++)
            pop_one(G, &G->picks[popped]);
        end2 = end1;
        end1 = G->npicks;
        w = w1;
        w1 = w2;
    }
    for (; popped < G->npicks; popped++)
        pop_one(G, &G->picks[popped]);
}

static inline void q_push(gd *G, uint32_t l, uint32_t w)
{
    G->qnext[w] = GD_NONE;
    if (G->qhead[l] == GD_NONE)
        G->qhead[l] = w;
    else
        G->qnext[G->qtail[l]] = w;
    G->qtail[l] = w;
}

/*
 * First non-empty position of unit w (its furthest message): the least of its
 * slots' exact cursors (every message held there can move closer over some
 * slot, so every non-empty position is in some slot's mask).
 */
static inline uint32_t first_pos(const gd *G, uint32_t w)
{
    const uint32_t *cur = G->cursor + (size_t)w * G->S;
    uint32_t best = GD_NONE;
    for (uint32_t s = 0; s < G->S; s++)
        best = cur[s] < best ? cur[s] : best;
    return best;
}

/*
 * The active units by decreasing queue length (ties: unit id), into G->byq:
 * a counting sort when every count is below 2048, else an LSD radix sort on
 * the complemented counts (11-bit digits). Returns how many.
 */
static uint32_t units_by_queue(gd *G)
{
    uint32_t na = 0, *a = G->byq, *b = G->byq2, cnt[2048], maxc = 0;
    for (uint32_t w = 0; w < G->U; w++)
        if (G->count[w]) {
            a[na++] = w;
            maxc = G->count[w] > maxc ? G->count[w] : maxc;
        }
    if (maxc < 2048) { /* one stable counting sort on maxc - count */
        memset(cnt, 0, sizeof *cnt * (maxc + 1));
        for (uint32_t i = 0; i < na; i++)
            cnt[maxc - G->count[a[i]]]++;
        for (uint32_t d = 0, start = 0; d <= maxc; d++) {
            uint32_t c2 = cnt[d];
            cnt[d] = start;
            start += c2;
        }
        for (uint32_t i = 0; i < na; i++)
            b[cnt[maxc - G->count[a[i]]]++] = a[i];
        memcpy(G->byq, b, sizeof *b * na);
        return na;
    }
    for (uint32_t shift = 0; shift < 33; shift += 11) {
        uint32_t high = 0;
        memset(cnt, 0, sizeof cnt);
        for (uint32_t i = 0; i < na; i++) {
            cnt[(~G->count[a[i]] >> shift) & 2047]++;
            high |= G->count[a[i]] >> shift;
        }
        if (!high && shift) /* every count is below 2^shift: sorted */
            break;
        for (uint32_t d = 0, start = 0; d < 2048; d++) {
            uint32_t c2 = cnt[d];
            cnt[d] = start;
            start += c2;
        }
        for (uint32_t i = 0; i < na; i++)
            b[cnt[(~G->count[a[i]] >> shift) & 2047]++] = a[i];
        uint32_t *t = a;
        a = b;
        b = t;
    }
    if (a != G->byq)
        memcpy(G->byq, a, sizeof *a * na);
    return na;
}

/*
 * The slots unit w offers in a k-port step: a heap of (cursor, slot) in
 * G->heap, or, with at most GD_FEW slots, the set G->hn[w] scanned for its
 * least (cursor, slot) (the heap's top; stale cursors are read as they are).
 */
static inline void offer_build(gd *G, uint32_t w)
{
    if (G->S > GD_FEW) {
        G->hn[w] = build_heap(G, w, G->heap + (size_t)w * G->S, 0); /* used at once: nothing to fetch ahead */
        return;
    }
    const uint32_t *cur = G->cursor + (size_t)w * G->S;
    uint32_t set = 0;
    for (uint32_t s = 0; s < G->S; s++)
        set |= (uint32_t)(cur[s] != GD_NONE) << s;
    G->hn[w] = set;
    G->lastp[w] = GD_NONE; /* as build_heap: take() counts the picks of a position from here */
}

/* The top offer of unit w into *p, *s (slots whose cursor ran out leave); 0 when none is left. */
static inline int offer_top(gd *G, uint32_t w, uint32_t *p, uint32_t *s)
{
    if (G->S > GD_FEW) {
        uint64_t *h = G->heap + (size_t)w * G->S;
        if (!heap_valid_top(G, w, h, &G->hn[w]))
            return 0;
        *p = HPOS(h[0]);
        *s = HSLOT(h[0]);
        return 1;
    }
    const uint32_t *cur = G->cursor + (size_t)w * G->S;
    uint32_t bp = GD_NONE, bs = 0;
    for (uint32_t f = G->hn[w]; f; f &= f - 1) {
        uint32_t x = (uint32_t)__builtin_ctz(f);
        if (cur[x] == GD_NONE)
            G->hn[w] &= ~(UINT32_C(1) << x);
        else if (cur[x] < bp) {
            bp = cur[x];
            bs = x;
        }
    }
    *p = bp;
    *s = bs;
    return bp != GD_NONE;
}

/* Withdraw the top offer (slot s) of unit w. */
static inline void offer_remove_top(gd *G, uint32_t w, uint32_t s)
{
    if (G->S > GD_FEW)
        heap_remove(G->heap + (size_t)w * G->S, &G->hn[w], 0);
    else
        G->hn[w] &= ~(UINT32_C(1) << s);
}

/* k-port on a product that is not vertex-transitive (units are nodes): a greedy maximal matching. */
static void step_kport(gd *G, uint32_t stamp)
{
    const uint32_t kp = totex_ports_k(G->ports), P = G->P;
    for (uint32_t l = 0; l <= G->maxlvl; l++)
        G->qhead[l] = GD_NONE;
    /* within a distance, units with longer queues first (the sender's load, as in factor_greedy.c) */
    uint32_t na = units_by_queue(G);
    for (uint32_t i = 0; i < na; i++) {
        uint32_t w = G->byq[i];
        q_push(G, G->level[(size_t)G->tc_of[w] * P + first_pos(G, w)], w);
    }
    for (uint32_t L = G->maxlvl; L >= 1; L--) {
        while (G->qhead[L] != GD_NONE) {
            uint32_t w = G->qhead[L];
            G->qhead[L] = G->qnext[w];
            if (G->built[w] != stamp) {
                G->built[w] = stamp;
                offer_build(G, w);
                G->scount[w] = 0;
            }
            uint32_t p, s;
            while (offer_top(G, w, &p, &s)) {
                uint32_t v = slot_target_unit(G, w, s);
                if (G->rstamp[v] == stamp && G->rcount[v] >= kp) {
                    offer_remove_top(G, w, s); /* v receives no more this step */
                    continue;
                }
                uint32_t lp = G->level[(size_t)G->tc_of[w] * P + p];
                if (lp < L) {
                    q_push(G, lp, w);
                    break;
                }
                take(G, w, p, s);
                offer_remove_top(G, w, s);
                if (G->rstamp[v] != stamp) {
                    G->rstamp[v] = stamp;
                    G->rcount[v] = 0;
                }
                G->rcount[v]++;
                if (++G->scount[w] < kp && G->hn[w])
                    q_push(G, L, w); /* round robin among the units at this distance */
                break;
            }
        }
    }
}

/* Run greedy into sink (sink.step may be NULL: count only); *steps_out gets the number of steps. */
static totex_status gd_run(const totex_network *net, totex_ports ports, totex_sink sink, uint64_t *steps_out,
                           totex_error *err)
{
    gd G;
    totex_status st = gd_setup(&G, net, ports, sink.step == NULL, err);
    uint64_t steps = 0, limit;
    uint32_t per = ports == TOTEX_PORTS_MULTI ? UINT32_MAX : totex_ports_k(ports);
    if (st != TOTEX_OK) {
        gd_free(&G);
        return st;
    }
    if (totex_network_status_sum(net, &limit, NULL) != TOTEX_OK)
        limit = UINT64_MAX;
    /* a prediction runs the whole greedy without a sink, so no other meter counts its steps: its own (on a
       4096-node file graph it takes a minute); planning is counted by the driver's meter on the sink */
    totex_progress *prog = NULL;
    FILE *progress_fp = totex_progress_stream(); /* the plan's options (totex_plan_options.progress) */
    if (!sink.step && progress_fp)
        prog = totex_progress_new(progress_fp, "greedy: predicting its steps", 0, NULL, 1);
    while (G.remaining) {
        G.npicks = 0;
        if (G.symmetric && G.S <= GD_FEW)
            step_symmetric_few(&G, per);
        else if (G.symmetric)
            step_symmetric(&G, per);
        else
            step_kport(&G, (uint32_t)(steps + 1));
        if (G.npicks == 0 || ++steps > limit || steps >= UINT32_MAX - 1) {
            st = totex_fail(err, TOTEX_EINVAL,
                            "greedy on %s made no progress with %llu messages undelivered after %llu steps (bug)",
                            totex_network_spec(net), (unsigned long long)G.remaining, (unsigned long long)steps);
            break;
        }
        if (!(G.symmetric && G.S <= GD_FEW)) /* step_symmetric_few pops as it goes */
            pop_picks(&G);
        if (sink.step) {
            size_t c = emit(&G);
            if ((st = sink.step(sink.ctx, G.hops, c, err)) != TOTEX_OK)
                break;
        }
        arrive(&G);
        totex_progress_tick(prog, 1);
    }
    totex_progress_free(prog);
    gd_free(&G);
    if (st == TOTEX_OK && steps_out)
        *steps_out = steps;
    return st;
}

/* ---- the algorithm ------------------------------------------------------- */

static totex_status greedy_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    if (ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_EINVAL, "unknown port model %u", (unsigned)ports);
    if (totex_network_nodes(net) < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "greedy needs at least 2 nodes");
    return TOTEX_OK;
}

static totex_status greedy_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    totex_status st = greedy_applies(net, ports, err);
    totex_memo m;
    totex_sink none = {NULL, NULL};
    if (st != TOTEX_OK)
        return st;
    if (totex_memo_get(&totex_algorithm_greedy, net, ports, &m)) {
        *steps = m.steps;
        return TOTEX_OK;
    }
    if ((st = gd_run(net, ports, none, steps, err)) == TOTEX_OK)
        totex_memo_put(&totex_algorithm_greedy, net, ports, *steps, 0, NULL, NULL);
    return st;
}

static totex_status greedy_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    totex_status st = greedy_applies(net, ports, err);
    uint64_t steps = 0;
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "greedy: no sink to stream the schedule into");
    if ((st = gd_run(net, ports, sink, &steps, err)) == TOTEX_OK)
        totex_memo_put(&totex_algorithm_greedy, net, ports, steps, 0, NULL, NULL);
    return st;
}

const totex_algorithm totex_algorithm_greedy = {
    .name = "greedy",
    .title = "Greedy non-wasting furthest-first routing on shortest paths (any network, any port model)",
    .source = "001 Sections 5, 7, 8.3; 003 Section 3",
    .applies = greedy_applies,
    .predict = greedy_predict,
    .plan = greedy_plan,
    .costly_predict = 1,
    .plan_instead_under_k_port = 1,
};
