/*
 * Rounds: multiport (and k-port) total exchange on any cartesian product (meshes of any
 * number of dimensions and sides, mixed mesh/torus products): every
 * dimension runs rounds of its own factor total exchange at once, on its own
 * links, and which message crosses in which round is a bipartite edge
 * colouring. A3 (000 Section 5) generalised to d dimensions and unequal sides.
 *
 * Source:  ours (beyond the papers). It composes the factor
 *          algorithms of 003 (furthest-first on a linear array, Section 3,
 *          ceil((m^2-1)/4) steps; message-shift on rings, Section 4,
 *          ceil((m^2-1)/8)) as A3 does (000 Section 5, Theorem 4: a factor
 *          total exchange moves one message from every node to every other
 *          node of a copy), and assigns messages to rounds by Konig's edge
 *          colouring theorem (the decomposition of 001 Theorem 4,
 *          src/algorithms/edge_colour.c). The bound it meets is the cut bound
 *          of 000 eq. (4) lifted as in 000 Theorem 5 (src/bounds/cut.c).
 * Model:   multiport (every directed link carries one message per step).
 *          k-port (001 Section 7), on products of paths, rings and K2 with
 *          k >= d: a path or ring dimension runs its multiport round (two
 *          links a node: two sends and two receives a step) or that round with
 *          each step split in two, the moves in the + direction, then those in
 *          the - direction (one link a node a step); the dimensions' links a
 *          node add up to at most k. Of the splits that fit, the one with the
 *          fewest K * L (below); or, where strictly fewer, the maximal
 *          configurations taking turns within every slot (segments: in one a
 *          dimension runs whole, in another split; ours, beyond the papers).
 *          mesh:40x48 3-port: a slot of 1,200 steps with path:48 whole beside
 *          path:40 split, then 2,400 with path:48 split beside path:40
 *          whole (6 and 5 rounds), 8 slots: 28,800 steps (one fixed split
 *          38,400; greedy 31,911; cut 23,040). m x m 3-port with 3 | m:
 *          4 m T_m / 3, and m^3 4-port 3 m^2 T_m / 2: the least any schedule
 *          of such rounds can take (each round holds 2 T_D link-steps of
 *          every node, k free a step: max(max_D W_D, sum_D 2 W_D / k),
 *          W_D = (n/m_D) T_D; tests/test_rounds.c).
 *          Under k-port it applies only where that is
 *          below A2's steps under k-port (a2.c: the multiport factor rounds one
 *          dimension after the other), which it would otherwise only tie and
 *          cost a second full replay. mesh:32x64 3-port: the path:64 rounds
 *          whole, the path:32 ones split (512 steps each, 64 of them): 32,768
 *          steps, the cut bound (a2 49,152; greedy 37,933).
 * Idea:    label the nodes of factor D by Z_(m_D) and a message by its offset
 *          w = dst - src (mod m, per coordinate). A factor total exchange in
 *          every copy of D moves, from every node, one message for each
 *          offset a != 0 of D; if the message it moves from node v with
 *          D-offset a is, at every node, the one of the same remaining offset
 *          w (w_D = a), the whole product stays translation-invariant and
 *          every node holds, at every time, one message of each original
 *          offset. So a schedule is an assignment: every offset w and every
 *          dimension D with w_D != 0 gets a round of D, such that
 *            (i)  the n/m_D offsets with w_D = a (the class (D, a)) take
 *                 distinct rounds of D, one message per ordered pair and
 *                 round;
 *            (ii) the rounds of one w do not overlap in time (a message
 *                 moves in one dimension at a time; any order is shortest).
 *          Time is cut into K slots of L steps; in a slot dimension D runs
 *          c_D = floor(L / T_D) rounds back to back (k-port with turns: per
 *          segment g of the slot floor(l_g / T_Dg), T_Dg whole or split). Class (D, a) is split
 *          into c_D sub-classes of at most K offsets (position j in the
 *          slot); an edge (w, sub-class) per move; colour = slot. Rows have
 *          at most d edges, columns at most K, so K >= d colours suffice
 *          (Konig): (i) and (ii) hold by construction. L is chosen (among
 *          the multiples of the T_D) to minimise K * L, K = max(d, max_D
 *          ceil((n/m_D) / c_D)).
 *          Average delay: the colouring takes offsets with fewer moves
 *          first; then pairs of members of one column exchange slots while
 *          the mean completion drops (proper colouring kept); in a slot the
 *          rounds of a class put first the messages that complete there.
 * Steps:   K * L, less the idle tail of the last slot (computed exactly from
 *          the colouring and the factor schedules: predict = plan).
 * Optimal: when K * L = the lifted cut bound max_D (n/m_D) * cut_D and T_D
 *          meets the cut of its factor (paths, odd rings, rings with m = 0
 *          mod 4, complete graphs, K2): every cube H^d (K = |H|^(d-1),
 *          L = T_H, as A3 for d = 2^k), and, measured, 83 of the 84 3-D
 *          meshes with sides 2..8 (all but 2x7x8), mesh:3x3*ring:3,
 *          mesh:5x5*ring:4, ring:8*mesh:4x4, touchstone-delta
 *          (tests/test_rounds.c, bench/steps/cube_mesh_results.md).
 *          Not when no slot length packs the rounds of unequal factor times
 *          (mesh:5x6: 53 vs 45, mesh:7x8 127 vs 112, mesh:2x7x8 238 vs 224:
 *          there pipeline meets the bound), nor on even rings m = 2 mod 4,
 *          whose factor round exceeds their cut (ring:6: 5 steps vs 4.5;
 *          path:3*ring:6 15 vs 14, the optimum by the exact search). Coarse
 *          slots (one of few usable lengths) cost average delay: on 10 of
 *          the 50 meshes R x C, 2 <= R < C <= 12, where both meet the bound
 *          its average delay is above pipeline's (at most 1.144 times,
 *          10x12), on 40 below (down to 0.879 times).
 * Applies: multiport, >= 2 dimensions, n <= 16384, at least one path or file
 *          graph factor (tori, hypercubes, GHC: octr meets the bound and is
 *          certified at one node; the tie would cost a full replay), not
 *          where a3 applies (the same steps). k-port: the same, with paths,
 *          rings and K2 only, k >= d, and fewer steps than A2 (above).
 *
 * Data: the k-port turns search: at most 10^6 layouts of segment lengths,
 * O(d * segments) each (RD_SEARCH_BUDGET), in applies and in setup.
 * The colouring (n*d edges, K colours), K * columns assigned offsets,
 * n * d slots; per step the hops of every dimension's current round:
 * per label a, the source and destination base of each copy (2 * n/m_D
 * words), computed once per round. Work: O(hops + K * n * d), and the
 * exchanges O(8 * columns * K^2 * d), done only when K <= 256.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/edge_colour.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

#define RD_NONE UINT32_MAX
/* Largest network: n <= 2^14 (its full replay: 4 bytes per message, 1 GiB), as pipeline. */
#define RD_MAX_NODES 16384u
/* Largest factor schedule built in memory: 2^24 hops (256 MiB; a path of about 370 nodes). */
#define RD_MAX_FACTOR_HOPS (UINT64_C(1) << 24)

/* Most segments a slot is cut into (k-port port configurations taking turns, below). */
#define RD_MAX_SEGS 4
/* Most layouts of segment lengths the k-port search tries (10^6: about 10 ms). */
#define RD_SEARCH_BUDGET 1000000

typedef struct rd {
    uint32_t n, d;
    uint32_t m[TOTEX_MAX_DIMS], str[TOTEX_MAX_DIMS];
    uint64_t Tv[TOTEX_MAX_DIMS][2]; /* factor total-exchange steps: whole (0), split by direction (1) */
    uint32_t two;                   /* k-port: the dimensions with a split form (whole rounds use 2 links a node) */
    /* a slot is nseg segments; in segment g the dimensions of smask[g] run whole rounds, the others split */
    uint32_t nseg;
    uint64_t sstart[RD_MAX_SEGS], slen[RD_MAX_SEGS];
    uint32_t smask[RD_MAX_SEGS];
    uint32_t pbase[TOTEX_MAX_DIMS][RD_MAX_SEGS]; /* first position of D in segment g */
    uint32_t c[TOTEX_MAX_DIMS];     /* rounds (positions) of D per slot */
    uint64_t *pstart[TOTEX_MAX_DIMS]; /* c_D: start step of position j in its slot */
    uint8_t *phalf[TOTEX_MAX_DIMS];   /* c_D: position j runs D's split form */
    uint32_t cbase[TOTEX_MAX_DIMS]; /* first column of D: column cbase + (a-1) * c_D + j */
    uint64_t L, K;                  /* slot length (steps), slots (colours) */
    uint32_t cols;
    uint32_t *cdim;                 /* cols: the dimension of a column */
    uint32_t *assign;               /* K * cols: the offset w crossing in (slot, column), RD_NONE if none */
    uint32_t *slot;                 /* n * d: slot of w's move in D, RD_NONE when w_D = 0 */
    totex_schedule *fs[TOTEX_MAX_DIMS][2];
    uint32_t *lastf[TOTEX_MAX_DIMS][2]; /* m_D: last factor step moving a message of label a, + 1 (0: none) */
    double *arr[TOTEX_MAX_DIMS][2];     /* m_D: mean arrival step (1-based) of the messages of label a in a factor round */
    uint64_t steps;
} rd;

static void rd_free(rd *R)
{
    free(R->cdim);
    free(R->assign);
    free(R->slot);
    for (uint32_t i = 0; i < R->d; i++) {
        free(R->pstart[i]);
        free(R->phalf[i]);
        for (int v = 0; v < 2; v++) {
            totex_schedule_free(R->fs[i][v]);
            free(R->lastf[i][v]);
            free(R->arr[i][v]);
        }
    }
}

static totex_status rd_times(rd *R, const totex_network *net, totex_ports ports, totex_error *err);
static void rd_choose(rd *R, totex_ports ports);

static totex_status rd_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    const uint32_t d = totex_network_dims(net);
    if (ports == TOTEX_PORTS_SINGLE)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "rounds needs its dimensions to work at once (multiport, or k-port with k >= the dimensions); use a2 / greedy for single-port");
    if (d < 2)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "rounds needs at least 2 dimensions; %s has 1 (use dimension)",
                          totex_network_spec(net));
    if (ports != TOTEX_PORTS_MULTI) {
        if (ports < d)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "rounds under k-port needs k >= the dimensions (a link a node in each); %s has %u (use a2 or greedy)",
                              totex_network_spec(net), d);
        for (uint32_t i = 0; i < d; i++) {
            const totex_factor_kind k = totex_factor_get_kind(totex_network_factor(net, i));
            if (k != TOTEX_FACTOR_PATH && k != TOTEX_FACTOR_RING && k != TOTEX_FACTOR_K2)
                return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                                  "rounds under k-port is for products of paths, rings and K2; dimension %u is %s (use a2 or greedy)",
                                  i, totex_factor_name(totex_network_factor(net, i)));
        }
    }
    if (ports == TOTEX_PORTS_MULTI && totex_network_homogeneous(net) && !(d & (d - 1)))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "rounds would rebuild A3 on %s (homogeneous, 2^k dimensions: the same |H|^(d-1) T_H steps); use a3",
                          totex_network_spec(net));
    int open = 0; /* a path or a file graph: not vertex-transitive */
    for (uint32_t i = 0; i < d; i++) {
        const totex_factor_kind k = totex_factor_get_kind(totex_network_factor(net, i));
        open |= k == TOTEX_FACTOR_PATH || k == TOTEX_FACTOR_GRAPH;
    }
    if (!open)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "rounds is for products with a path (or a file graph); %s is a product of rings, K2 and complete graphs, where octr meets the bound and is certified at one node (use octr)",
                          totex_network_spec(net));
    if (totex_network_nodes(net) > RD_MAX_NODES)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "rounds stops at %u nodes (a full replay of n^2 messages, 1 GiB); %s has %u (use a2 or greedy)",
                          RD_MAX_NODES, totex_network_spec(net), totex_network_nodes(net));
    for (uint32_t i = 0; i < d; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        if (totex_factor_nodes(f) < 2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE, "rounds needs factors of at least 2 nodes; dimension %u is %s",
                              i, totex_factor_name(f));
        if (totex_factor_status_sum(f) > RD_MAX_FACTOR_HOPS)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "rounds keeps each factor's schedule in memory, at most 2^24 hops; dimension %u (%s) needs %llu (use a2 or greedy)",
                              i, totex_factor_name(f), (unsigned long long)totex_factor_status_sum(f));
    }
    if (ports != TOTEX_PORTS_MULTI) {
        uint64_t KL, a2;
        rd R;
        totex_status st = rd_times(&R, net, ports, err);
        if (st == TOTEX_OK)
            rd_choose(&R, ports);
        KL = R.K * R.L;
        rd_free(&R);
        if (st != TOTEX_OK)
            return st;
        if (!KL)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE, "rounds: no split of the dimensions fits %u-port", (unsigned)ports);
        if ((st = totex_algorithm_a2.predict(net, ports, &a2, err)) != TOTEX_OK)
            return st;
        if (KL >= a2)
            return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                              "rounds under %u-port on %s: its slots take K * L = %llu steps, no fewer than a2's %llu (use a2)",
                              (unsigned)ports, totex_network_spec(net), (unsigned long long)KL, (unsigned long long)a2);
    }
    return TOTEX_OK;
}

/* Slot length L (a multiple of some T_D) and slot count K minimising K * L, one port configuration for the
   whole slot (factor steps @p T); smaller L on ties. K = 0 when none fits. */
static void choose_slots(const rd *R, const uint64_t T[], uint64_t *Lo, uint64_t *Ko)
{
    uint64_t best = UINT64_MAX;
    *Lo = *Ko = 0;
    for (uint32_t D = 0; D < R->d; D++) {
        const uint64_t rounds = R->n / R->m[D];
        for (uint64_t cnt = 1; cnt <= rounds; cnt++) {
            const uint64_t L = cnt * T[D];
            if (L > best)
                break;
            uint64_t K = R->d;
            int fits = 1;
            for (uint32_t E = 0; E < R->d && fits; E++) {
                const uint64_t cE = L / T[E], rE = R->n / R->m[E];
                if (!cE)
                    fits = 0;
                else if ((rE + cE - 1) / cE > K)
                    K = (rE + cE - 1) / cE;
            }
            if (fits && (K * L < best || (K * L == best && L < *Lo))) {
                best = K * L;
                *Lo = L;
                *Ko = K;
            }
        }
    }
}

/* Factor steps of D in a segment whose whole dimensions are @p mask. */
static uint64_t seg_T(const rd *R, uint32_t D, uint32_t mask) { return R->Tv[D][(R->two >> D & 1) && !(mask >> D & 1)]; }

/*
 * k-port, port configurations taking turns: a slot is cut into segments, one per
 * maximal configuration g (the set of dimensions running whole rounds, d + |g|
 * <= k); in a segment of length l_g dimension D runs floor(l_g / T_Dg) rounds,
 * so c_D = sum_g floor(l_g / T_Dg) and K = max(d, max_D ceil((n/m_D) / c_D)).
 * Lengths from {0} and the multiples of the T_Dg (at most RD_SEARCH_BUDGET
 * layouts in all, pruned by d * L >= the best K * L); the fewest K * L wins.
 */
static void search_segments(const rd *R, uint32_t ng, const uint32_t *masks, uint64_t *best, uint64_t len[])
{
    const uint32_t d = R->d;
    uint64_t *list[RD_MAX_SEGS] = {0};
    size_t cnt[RD_MAX_SEGS] = {0};
    /* entries of a segment's list, so that size^ng <= RD_SEARCH_BUDGET layouts */
    const uint64_t size = ng == 2 ? 1000 : ng == 3 ? 100 : 31;
    int ok = 1;
    for (uint32_t g = 0; g < ng && ok; g++) {
        uint64_t cap = size / d;
        if (cap < 1)
            cap = 1;
        size_t most = 1;
        for (uint32_t D = 0; D < d; D++) {
            const uint64_t r = R->n / R->m[D];
            most += r < cap ? r : cap;
        }
        if (!(list[g] = malloc(sizeof *list[g] * most))) {
            ok = 0;
            break;
        }
        list[g][cnt[g]++] = 0;
        for (uint32_t D = 0; D < d; D++) {
            const uint64_t r = R->n / R->m[D], T = seg_T(R, D, masks[g]);
            for (uint64_t i = 1; i <= r && i <= cap; i++)
                list[g][cnt[g]++] = i * T;
        }
        /* sort (insertion: the lists are short) and drop repeats */
        for (size_t i = 1; i < cnt[g]; i++)
            for (size_t j = i; j > 0 && list[g][j - 1] > list[g][j]; j--) {
                const uint64_t t = list[g][j];
                list[g][j] = list[g][j - 1];
                list[g][j - 1] = t;
            }
        size_t u = 1;
        for (size_t i = 1; i < cnt[g]; i++)
            if (list[g][i] != list[g][u - 1])
                list[g][u++] = list[g][i];
        cnt[g] = u;
    }
    size_t idx[RD_MAX_SEGS] = {0};
    while (ok) {
        uint64_t L = 0;
        for (uint32_t g = 0; g < ng; g++)
            L += list[g][idx[g]];
        int prune = L * d >= *best;
        if (!prune && L) {
            uint64_t K = d;
            for (uint32_t D = 0; D < d && K; D++) {
                uint64_t c = 0;
                for (uint32_t g = 0; g < ng; g++)
                    c += list[g][idx[g]] / seg_T(R, D, masks[g]);
                const uint64_t r = R->n / R->m[D];
                if (!c)
                    K = 0;
                else if ((r + c - 1) / c > K)
                    K = (r + c - 1) / c;
            }
            if (K && K * L < *best) {
                *best = K * L;
                for (uint32_t g = 0; g < ng; g++)
                    len[g] = list[g][idx[g]];
            }
        }
        /* next layout; a pruned one skips the rest of the innermost list (ascending) */
        uint32_t g = ng - 1;
        if (prune)
            idx[g] = cnt[g] - 1;
        for (;;) {
            if (++idx[g] < cnt[g])
                break;
            idx[g] = 0;
            if (g == 0) {
                ok = 0;
                break;
            }
            g--;
        }
    }
    for (uint32_t g = 0; g < ng; g++)
        free(list[g]);
}

/*
 * The slot layout: multiport, every dimension whole, one segment (choose_slots).
 * k-port: the split with the fewest K * L among one configuration for the whole
 * slot (each subset of the dimensions with a split form running whole, d + its
 * size <= k) and, where it is strictly fewer, the maximal configurations taking
 * turns within every slot (search_segments). Sets nseg, the segments, L, K
 * (K = 0: nothing fits).
 */
static void rd_choose(rd *R, totex_ports ports)
{
    const uint32_t d = R->d;
    uint64_t T[TOTEX_MAX_DIMS], L, K, best = UINT64_MAX;
    R->nseg = 0;
    R->L = R->K = 0;
    if (ports == TOTEX_PORTS_MULTI) {
        for (uint32_t D = 0; D < d; D++)
            T[D] = R->Tv[D][0];
        choose_slots(R, T, &R->L, &R->K);
        R->nseg = 1;
        R->slen[0] = R->L;
        R->smask[0] = UINT32_MAX;
        return;
    }
    uint32_t masks[RD_MAX_SEGS], ng = 0, most = 0, overflow = 0;
    for (uint32_t mask = 0; mask < (1u << d); mask++)
        if (!(mask & ~R->two) && d + (uint32_t)__builtin_popcount(mask) <= (uint32_t)ports &&
            (uint32_t)__builtin_popcount(mask) > most)
            most = (uint32_t)__builtin_popcount(mask);
    for (uint32_t mask = 0; mask < (1u << d); mask++) {
        if (mask & ~R->two) /* mask: the dimensions that run their rounds whole */
            continue;
        if (d + (uint32_t)__builtin_popcount(mask) > (uint32_t)ports)
            continue;
        for (uint32_t D = 0; D < d; D++)
            T[D] = seg_T(R, D, mask);
        choose_slots(R, T, &L, &K);
        if (K && K * L < best) {
            best = K * L;
            R->nseg = 1;
            R->slen[0] = R->L = L;
            R->smask[0] = mask;
            R->K = K;
        }
        if ((uint32_t)__builtin_popcount(mask) == most) {
            if (ng < RD_MAX_SEGS)
                masks[ng++] = mask;
            else
                overflow = 1;
        }
    }
    if (ng < 2 || overflow)
        return;
    uint64_t len[RD_MAX_SEGS] = {0}, turns = best;
    search_segments(R, ng, masks, &turns, len);
    if (turns >= best)
        return;
    R->nseg = 0;
    R->L = 0;
    for (uint32_t g = 0; g < ng; g++)
        if (len[g]) {
            R->slen[R->nseg] = len[g];
            R->smask[R->nseg++] = masks[g];
            R->L += len[g];
        }
    R->K = turns / R->L;
}

/* Positions of every dimension in a slot: per segment, floor(l_g / T_Dg) rounds back to back, at most the
   n/m_D members of a class in all. */
static totex_status rd_positions(rd *R, totex_error *err)
{
    uint64_t at = 0;
    for (uint32_t g = 0; g < R->nseg; g++) {
        R->sstart[g] = at;
        at += R->slen[g];
    }
    for (uint32_t D = 0; D < R->d; D++) {
        const uint64_t r = R->n / R->m[D];
        uint64_t c = 0;
        for (uint32_t g = 0; g < R->nseg; g++)
            c += R->slen[g] / seg_T(R, D, R->smask[g]);
        R->c[D] = (uint32_t)(c < r ? c : r); /* more rounds per slot than the class has members is pointless */
        R->pstart[D] = malloc(sizeof *R->pstart[D] * (R->c[D] ? R->c[D] : 1));
        R->phalf[D] = malloc(R->c[D] ? R->c[D] : 1);
        if (!R->pstart[D] || !R->phalf[D])
            return totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
        uint32_t j = 0;
        for (uint32_t g = 0; g < R->nseg; g++) {
            const uint64_t T = seg_T(R, D, R->smask[g]);
            R->pbase[D][g] = j;
            for (uint64_t i = 0; i < R->slen[g] / T && j < R->c[D]; i++, j++) {
                R->pstart[D][j] = R->sstart[g] + i * T;
                R->phalf[D][j] = (uint8_t)((R->two >> D & 1) && !(R->smask[g] >> D & 1));
            }
        }
    }
    return TOTEX_OK;
}

/* The offset w's index among the members of class (D, w_D): its coordinates without D, mixed radix. */
static uint32_t member_index(const rd *R, uint32_t w, uint32_t D)
{
    const uint32_t lo = w % R->str[D], hi = w / (R->str[D] * R->m[D]);
    return hi * R->str[D] + lo;
}

static uint32_t coord(const rd *R, uint32_t v, uint32_t D) { return (v / R->str[D]) % R->m[D]; }

/* 1 when w's move in D, in slot s, is its last move (it completes in this round). */
static int last_move(const rd *R, uint32_t w, uint32_t D, uint32_t s)
{
    for (uint32_t E = 0; E < R->d; E++)
        if (E != D && R->slot[(size_t)w * R->d + E] != RD_NONE && R->slot[(size_t)w * R->d + E] > s)
            return 0;
    return 1;
}

/* Mean completion step of the messages of offset w (over their sources) if its move in @p D0 took slot
   @p s0 (RD_NONE: as it is): the end of its last move. */
static double completion(const rd *R, uint32_t w, uint32_t D0, uint32_t s0)
{
    double last = 0;
    for (uint32_t D = 0; D < R->d; D++) {
        uint32_t s = R->slot[(size_t)w * R->d + D];
        if (D == D0 && s0 != RD_NONE)
            s = s0;
        if (s == RD_NONE)
            continue;
        const uint32_t a = coord(R, w, D);
        const uint32_t j = member_index(R, w, D) % R->c[D];
        const double end = (double)s * R->L + (double)R->pstart[D][j] + R->arr[D][R->phalf[D][j]][a];
        if (end > last)
            last = end;
    }
    return last;
}

/*
 * The colouring is any proper one; for the average delay, exchange the slots
 * of two members of one column when both stay proper (neither takes a slot
 * its other moves use) and their mean completion drops: at most 8 passes
 * of pairwise exchanges, O(passes * columns * K^2 * d).
 */
static void improve_delay(rd *R)
{
    const uint32_t d = R->d, cols = R->cols;
    const uint64_t K = R->K;
    if (K > 256)
        return; /* K^2 exchanges per column: only where it is cheap */
    for (int pass = 0; pass < 8; pass++) {
        uint64_t swaps = 0;
        for (uint32_t col = 0; col < cols; col++) {
            const uint32_t D = R->cdim[col];
            for (uint64_t s1 = 0; s1 < K; s1++) {
                const uint32_t u = R->assign[s1 * cols + col];
                for (uint64_t s2 = s1 + 1; s2 < K; s2++) {
                    const uint32_t v = R->assign[s2 * cols + col];
                    int ok = 1;
                    for (uint32_t E = 0; E < d && ok; E++)
                        if (E != D && ((u != RD_NONE && R->slot[(size_t)u * d + E] == s2) ||
                                       (v != RD_NONE && R->slot[(size_t)v * d + E] == s1)))
                            ok = 0;
                    if (!ok)
                        continue;
                    double before = 0, after = 0;
                    if (u != RD_NONE) {
                        before += completion(R, u, D, RD_NONE);
                        after += completion(R, u, D, (uint32_t)s2);
                    }
                    if (v != RD_NONE) {
                        before += completion(R, v, D, RD_NONE);
                        after += completion(R, v, D, (uint32_t)s1);
                    }
                    if (after < before - 1e-9) {
                        R->assign[s1 * cols + col] = v;
                        R->assign[s2 * cols + col] = u;
                        if (u != RD_NONE)
                            R->slot[(size_t)u * d + D] = (uint32_t)s2;
                        if (v != RD_NONE)
                            R->slot[(size_t)v * d + D] = (uint32_t)s1;
                        swaps++;
                        break; /* u moved: go on with the member now in s1 */
                    }
                }
            }
        }
        if (!swaps)
            break;
    }
}

/*
 * Within a slot the c_D rounds of one class (D, a) may come in any order (the
 * moves stay in their slots): messages that complete in this round first,
 * then the others, the empty places last (for the average delay, and so that
 * the last slot ends early).
 */
static void order_positions(rd *R)
{
    for (uint64_t s = 0; s < R->K; s++)
        for (uint32_t D = 0; D < R->d; D++) {
            const uint32_t c = R->c[D];
            if (c < 2)
                continue;
            for (uint32_t a = 1; a < R->m[D]; a++) {
                uint32_t *p = R->assign + s * R->cols + R->cbase[D] + (a - 1) * c, k = 0;
                for (int pass = 0; pass < 3; pass++)
                    for (uint32_t j = k; j < c; j++) {
                        const uint32_t w = p[j];
                        const int cls = w == RD_NONE ? 2 : last_move(R, w, D, (uint32_t)s) ? 0 : 1;
                        if (cls == pass) {
                            p[j] = p[k];
                            p[k++] = w;
                        }
                    }
            }
        }
}

/*
 * @p in with each step split by direction (k-port): the moves from c to c + 1
 * (mod m), then the others, empty halves left out. A node sends over one link
 * and receives over one in each half; a message moves at most once in a step
 * of @p in, so at most once in a half, in the same order.
 */
static totex_status split_by_direction(const totex_schedule *in, uint32_t m, totex_schedule **out, totex_error *err)
{
    totex_schedule *s = totex_schedule_new();
    totex_hop *buf = NULL;
    size_t cap = 0;
    totex_status st = s ? TOTEX_OK : totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
    for (uint64_t t = 0; t < totex_schedule_steps(in) && st == TOTEX_OK; t++) {
        size_t cnt;
        const totex_hop *h = totex_schedule_step(in, t, &cnt);
        if (cnt > cap) {
            totex_hop *b = realloc(buf, sizeof *b * cnt);
            if (!b) {
                st = totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
                break;
            }
            buf = b;
            cap = cnt;
        }
        for (int fwd = 1; fwd >= 0 && st == TOTEX_OK; fwd--) {
            size_t c = 0;
            for (size_t x = 0; x < cnt; x++)
                if ((h[x].to == (h[x].from + 1) % m) == fwd)
                    buf[c++] = h[x];
            if (c)
                st = totex_schedule_add_step(s, buf, c, err);
        }
    }
    free(buf);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}

/* The factor schedule of dimension @p D: multiport, split by direction when @p half */
static totex_status rd_factor(const totex_network *net, uint32_t D, int half, totex_schedule **out, totex_error *err)
{
    const totex_factor *f = totex_network_factor(net, D);
    totex_schedule *whole = NULL;
    totex_status st = totex_factor_schedule(f, TOTEX_PORTS_MULTI, &whole, NULL, err);
    if (st != TOTEX_OK || !half) {
        *out = whole;
        return st;
    }
    st = split_by_direction(whole, totex_factor_nodes(f), out, err);
    totex_schedule_free(whole);
    return st;
}

/*
 * Per dimension: sizes, strides, the factor schedule whole (multiport) and,
 * under k-port where a whole round uses two links a node (a path or ring of at
 * least 3 nodes), split by direction (one link a node a step); their steps,
 * and per label the last step and the mean arrival.
 */
static totex_status rd_times(rd *R, const totex_network *net, totex_ports ports, totex_error *err)
{
    memset(R, 0, sizeof *R);
    R->n = totex_network_nodes(net);
    R->d = totex_network_dims(net);
    for (uint32_t D = 0; D < R->d; D++) {
        const totex_factor *f = totex_network_factor(net, D);
        R->m[D] = totex_factor_nodes(f);
        R->str[D] = totex_network_stride(net, D);
        if (ports != TOTEX_PORTS_MULTI && totex_factor_max_degree(f) >= 2)
            R->two |= 1u << D;
        for (int v = 0; v < 1 + (int)(R->two >> D & 1); v++) {
            totex_status st = rd_factor(net, D, v, &R->fs[D][v], err);
            if (st != TOTEX_OK)
                return st;
            const uint64_t T = R->Tv[D][v] = totex_schedule_steps(R->fs[D][v]);
            if (!T)
                return totex_fail(err, TOTEX_EVIOLATION, "rounds: the factor schedule of dimension %u has no step", D);
            R->lastf[D][v] = calloc(R->m[D], sizeof *R->lastf[D][v]);
            R->arr[D][v] = calloc(R->m[D], sizeof *R->arr[D][v]);
            if (!R->lastf[D][v] || !R->arr[D][v])
                return totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
            for (uint64_t s = 0; s < T; s++) {
                size_t cnt;
                const totex_hop *h = totex_schedule_step(R->fs[D][v], s, &cnt);
                for (size_t x = 0; x < cnt; x++) {
                    const uint32_t a = (h[x].dst + R->m[D] - h[x].src) % R->m[D];
                    R->lastf[D][v][a] = (uint32_t)(s + 1);
                    if (h[x].to == h[x].dst)
                        R->arr[D][v][a] += (double)(s + 1) / R->m[D]; /* m pairs of each label */
                }
            }
        }
        if (!(R->two >> D & 1))
            R->Tv[D][1] = R->Tv[D][0]; /* one link a node already: the split form is the whole one */
    }
    return TOTEX_OK;
}

/* Factor schedules, slot lengths, the colouring, and the exact step count. */
static totex_status rd_setup(rd *R, const totex_network *net, totex_ports ports, totex_error *err)
{
    totex_status st = rd_times(R, net, ports, err);
    if (st != TOTEX_OK)
        return st;
    rd_choose(R, ports);
    if (!R->K)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE, "rounds: no split of the dimensions fits %u-port", (unsigned)ports);
    if ((st = rd_positions(R, err)) != TOTEX_OK)
        return st;
    for (uint32_t D = 0; D < R->d; D++) {
        R->cbase[D] = R->cols;
        R->cols += (R->m[D] - 1) * R->c[D];
    }
    const uint32_t n = R->n, d = R->d, cols = R->cols;
    const uint64_t K = R->K;
    tx_ec_entry *ent = malloc(sizeof *ent * (size_t)n * d);
    R->cdim = malloc(sizeof *R->cdim * cols);
    R->assign = malloc(sizeof *R->assign * (size_t)K * cols);
    R->slot = malloc(sizeof *R->slot * (size_t)n * d);
    if (!ent || !R->cdim || !R->assign || !R->slot) {
        free(ent);
        return totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory for the colouring (%u offsets, %llu slots)", n,
                          (unsigned long long)K);
    }
    for (uint32_t D = 0; D < d; D++)
        for (uint32_t k = 0; k < (R->m[D] - 1) * R->c[D]; k++)
            R->cdim[R->cbase[D] + k] = D;
    /* an edge per move of every offset w (row w): column (D, w_D, j), j = its member index mod c_D */
    /* the colouring gives earlier edges the smaller colours: offsets with fewer moves first (average delay:
       measured 10.28 against 11.44 steps in natural order on mesh:3x3x3, 68.2 against 72.3 on mesh:5x5x4) */
    size_t ne = 0;
    for (uint32_t moves = 1; moves <= d; moves++)
        for (uint32_t w = 1; w < n; w++) {
            uint32_t sup = 0;
            for (uint32_t D = 0; D < d; D++)
                sup += coord(R, w, D) != 0;
            if (sup != moves)
                continue;
            for (uint32_t D = 0; D < d; D++) {
                const uint32_t a = coord(R, w, D);
                if (!a)
                    continue;
                ent[ne].row = w;
                ent[ne].col = R->cbase[D] + (a - 1) * R->c[D] + member_index(R, w, D) % R->c[D];
                ent[ne].mult = 1;
                ne++;
            }
        }
    tx_ec_result res;
    st = tx_edge_colour(n, cols, ent, ne, K, 0, &res, err);
    free(ent);
    if (st != TOTEX_OK)
        return st;
    for (size_t i = 0; i < (size_t)K * cols; i++)
        R->assign[i] = RD_NONE;
    for (size_t i = 0; i < (size_t)n * d; i++)
        R->slot[i] = RD_NONE;
    for (uint64_t s = 0; s < K; s++)
        for (uint64_t e = res.start[s]; e < res.start[s + 1]; e++) {
            const uint32_t w = res.moves[e].row, col = res.moves[e].col;
            R->assign[s * cols + col] = w;
            R->slot[(size_t)w * d + R->cdim[col]] = (uint32_t)s;
        }
    tx_ec_result_free(&res);
    improve_delay(R);
    order_positions(R);
    uint64_t steps = 0;
    for (uint64_t s = 0; s < K; s++)
        for (uint32_t col = 0; col < cols; col++) {
            if (R->assign[s * cols + col] == RD_NONE)
                continue;
            const uint32_t D = R->cdim[col], k = col - R->cbase[D], a = k / R->c[D] + 1, j = k % R->c[D];
            const uint64_t end = s * R->L + R->pstart[D][j] + R->lastf[D][R->phalf[D][j]][a];
            if (end > steps)
                steps = end;
        }
    R->steps = steps;
    return TOTEX_OK;
}

static totex_status rd_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    rd R;
    totex_status st = rd_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if ((st = rd_setup(&R, net, ports, err)) == TOTEX_OK)
        *steps = R.steps;
    rd_free(&R);
    return st;
}

/* Per dimension: its copies (node ids with coordinate D = 0) and, for the current round, per label a, the
   base node ids of the moving message's source and destination in each copy (D coordinate 0). */
typedef struct rd_dim {
    uint32_t lines;
    uint32_t *lb;    /* lines */
    uint16_t *lc;    /* lines * d: the coordinates of each copy's base node */
    uint32_t *sb;    /* m_D * lines (label a at a * lines) */
    uint32_t *db;    /* m_D * lines */
    uint8_t *have;   /* m_D: a message of label a crosses in this round */
} rd_dim;

/*
 * Tables of round (slot s, position j) of dimension D. The source of the
 * message crossing in copy l is the copy's base node shifted back, in each
 * dimension E the offset already moved, by (c - mv_E mod m_E) - c; its
 * destination by (c - mv_E + w_E mod m_E) - c: per dimension a table over
 * the coordinate c (@p tS, @p tD: m_E words each at @p moff[E]), only for
 * the dimensions that shift, so a copy costs one addition per such dimension
 * (node ids wrap mod 2^32 and come back in range).
 */
static void round_tables(const rd *R, rd_dim *X, uint32_t D, uint64_t s, uint32_t j, uint32_t *tS, uint32_t *tD,
                         const uint32_t *moff)
{
    const uint32_t d = R->d;
    for (uint32_t a = 1; a < R->m[D]; a++) {
        const uint32_t w = R->assign[s * R->cols + R->cbase[D] + (a - 1) * R->c[D] + j];
        X->have[a] = w != RD_NONE;
        if (w == RD_NONE)
            continue;
        uint32_t sh[TOTEX_MAX_DIMS], ns = 0;
        for (uint32_t E = 0; E < d; E++) {
            const uint32_t wc = coord(R, w, E);
            if (E == D || !wc)
                continue;
            const uint32_t m = R->m[E], mv = R->slot[(size_t)w * d + E] < s ? wc : 0; /* moved before this slot */
            uint32_t *ts = tS + moff[E], *td = tD + moff[E];
            for (uint32_t c = 0; c < m; c++) {
                ts[c] = (((c + m - mv) % m) - c) * R->str[E];
                td[c] = (((c + m - mv + wc) % m) - c) * R->str[E];
            }
            sh[ns++] = E;
        }
        uint32_t *sb = X->sb + (size_t)a * X->lines, *db = X->db + (size_t)a * X->lines;
        for (uint32_t l = 0; l < X->lines; l++) {
            const uint16_t *lc = X->lc + (size_t)l * d;
            uint32_t src = X->lb[l], dst = X->lb[l];
            for (uint32_t k = 0; k < ns; k++) {
                const uint32_t E = sh[k];
                src += tS[moff[E] + lc[E]];
                dst += tD[moff[E] + lc[E]];
            }
            sb[l] = src;
            db[l] = dst;
        }
    }
}

static totex_status rd_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    rd R;
    rd_dim X[TOTEX_MAX_DIMS];
    totex_hop *buf = NULL;
    totex_status st = rd_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (!sink.step)
        return totex_fail(err, TOTEX_EINVAL, "rounds: no sink to stream the schedule into");
    memset(X, 0, sizeof X);
    if ((st = rd_setup(&R, net, ports, err)) != TOTEX_OK) {
        rd_free(&R);
        return st;
    }
    size_t cap = 0;
    for (uint32_t D = 0; D < R.d && st == TOTEX_OK; D++) {
        rd_dim *x = &X[D];
        size_t most = 0;
        x->lines = R.n / R.m[D];
        x->lb = malloc(sizeof *x->lb * x->lines);
        x->sb = malloc(sizeof *x->sb * (size_t)R.m[D] * x->lines);
        x->db = malloc(sizeof *x->db * (size_t)R.m[D] * x->lines);
        x->have = calloc(R.m[D], 1);
        x->lc = malloc(sizeof *x->lc * (size_t)x->lines * R.d);
        if (!x->lb || !x->sb || !x->db || !x->have || !x->lc) {
            st = totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
            break;
        }
        for (uint32_t v = 0, l = 0; v < R.n; v++)
            if (coord(&R, v, D) == 0) {
                for (uint32_t E = 0; E < R.d; E++)
                    x->lc[(size_t)l * R.d + E] = (uint16_t)coord(&R, v, E);
                x->lb[l++] = v;
            }
        for (int v = 0; v < 2; v++)
            for (uint64_t s = 0; R.fs[D][v] && s < R.Tv[D][v]; s++) {
                size_t cnt;
                totex_schedule_step(R.fs[D][v], s, &cnt);
                if (cnt > most)
                    most = cnt;
            }
        cap += most * x->lines;
    }
    uint32_t moff[TOTEX_MAX_DIMS], msum = 0;
    for (uint32_t E = 0; E < R.d; E++) {
        moff[E] = msum;
        msum += R.m[E];
    }
    uint32_t *tS = malloc(sizeof *tS * msum), *tD = malloc(sizeof *tD * msum);
    if (st == TOTEX_OK && (!tS || !tD))
        st = totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory");
    if (st == TOTEX_OK && !(buf = malloc(sizeof *buf * (cap ? cap : 1))))
        st = totex_fail(err, TOTEX_ENOMEM, "rounds: out of memory for a step of %zu hops", cap);
    for (uint64_t t = 0; t < R.steps && st == TOTEX_OK; t++) {
        const uint64_t s = t / R.L, tt = t % R.L;
        size_t nh = 0;
        uint32_t g = 0;
        while (g + 1 < R.nseg && tt >= R.sstart[g + 1])
            g++;
        for (uint32_t D = 0; D < R.d; D++) {
            const uint64_t T = seg_T(&R, D, R.smask[g]), rel = tt - R.sstart[g], q = rel / T, f = rel % T;
            const uint64_t j = R.pbase[D][g] + q;
            if (q >= R.slen[g] / T || j >= R.c[D])
                continue;
            rd_dim *x = &X[D];
            if (f == 0)
                round_tables(&R, x, D, s, (uint32_t)j, tS, tD, moff);
            size_t cnt;
            const totex_hop *h = totex_schedule_step(R.fs[D][R.phalf[D][j]], f, &cnt);
            const uint32_t m = R.m[D], sd = R.str[D];
            for (size_t i = 0; i < cnt; i++) {
                const uint32_t a = (h[i].dst + m - h[i].src) % m;
                if (!x->have[a])
                    continue;
                const uint32_t *sb = x->sb + (size_t)a * x->lines, *db = x->db + (size_t)a * x->lines;
                const uint32_t from = h[i].from * sd, to = h[i].to * sd, src = h[i].src * sd, dst = h[i].dst * sd;
                for (uint32_t l = 0; l < x->lines; l++) {
                    totex_hop *o = &buf[nh++];
                    o->from = x->lb[l] + from;
                    o->to = x->lb[l] + to;
                    o->src = sb[l] + src;
                    o->dst = db[l] + dst;
                }
            }
        }
        st = sink.step(sink.ctx, buf, nh, err);
    }
    for (uint32_t D = 0; D < R.d; D++) {
        free(X[D].lb);
        free(X[D].sb);
        free(X[D].db);
        free(X[D].have);
        free(X[D].lc);
    }
    free(tS);
    free(tD);
    free(buf);
    rd_free(&R);
    return st;
}

const totex_algorithm totex_algorithm_rounds = {
    .name = "rounds",
    .title = "Factor rounds in every dimension at once, messages assigned to rounds by bipartite edge colouring (A3 for any number of dimensions and sides)",
    .source = "this project (docs/algorithms/rounds.md); 000 Section 5 (A3), eq. (4), Theorem 5; 001 Theorem 4 (Konig); 003 Sections 3-4",
    .applies = rd_applies,
    .predict = rd_predict,
    .plan = rd_plan,
};
