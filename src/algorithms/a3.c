/*
 * Algorithm A3: multiport total exchange on homogeneous products H^(2^k).
 *
 * Source:  000 Section 5 (Fig. 6), Theorem 4, Corollary 3, Theorem 5. The
 *          text extraction of 000 lost the formulas of the B-exchanges; they
 *          are rebuilt here from the surrounding proof and proved by
 *          the simulator in tests/test_a3.c.
 * Model:   multiport (the A- and B-exchanges run at once on disjoint links).
 * Steps:   T = N * T_A for G = A x A with N = |A|; for G = H^d, d = 2^k:
 *          T = |H|^(d-1) * T_H (Corollary 3).
 * Optimal: when T_H meets the cut bound (4) of H (Theorem 5): paths
 *          (furthest-first) and rings (message-shift) of 003, K2, complete graphs.
 *
 * G = A x B with A = B (A: low half of the dimensions, node (v_i, u_j) has
 * index i + N*j). Rounds r = 1..N, each a total exchange of T_A steps in every
 * copy A_j (A-exchange) and, at the same time, in every copy B_i (B-exchange):
 *   - A-exchange 1: (v_i, u_j) sends its own messages for A_j;
 *   - B-exchange r < N: (v_i, u_j) sends to (v_i, u_(j+l)) the message of
 *     (v_i, u_j) destined for (v_(i+o_r(l)), u_(j+l)), l = 1..N-1, where
 *     o_r(l) = ((l - 1 + r - 1) mod (N - 1)) + 1 is a rotation of 1..N-1, so
 *     over the N-1 rounds each offset is used once per l;
 *   - A-exchange r+1 distributes what arrived in B-exchange r: (v_i, u_j)
 *     holds, from (v_i, u_(j-l)), one message for each (v_(i+o_r(l)), u_j);
 *   - B-exchange N carries the messages for B_i itself: (v_i, u_j) sends
 *     m_(v_i,u_j)(v_i, u_(j+l)).
 * Indices are taken mod N over A's node ids; A's own schedule is A3 again
 * (recorded, it has only N^2 messages) down to H's factor algorithm.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/factor_algos.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

static uint32_t rot(uint32_t l, uint32_t r, uint32_t N) /* o_r(l), 1 <= l, r <= N-1 */
{
    return (uint32_t)(((uint64_t)l - 1 + r - 1) % (N - 1)) + 1;
}

static uint32_t rot_inv(uint32_t o, uint32_t r, uint32_t N) /* l with o_r(l) = o */
{
    return (uint32_t)(((uint64_t)o - 1 + (N - 1) - (r - 1) % (N - 1)) % (N - 1)) + 1;
}

/* Stream A3 on A x A into sink, given A's total-exchange schedule sa on N nodes. */
static totex_status a3_compose(const totex_schedule *sa, uint32_t N, totex_sink sink, totex_error *err)
{
    const uint64_t ta = totex_schedule_steps(sa);
    totex_hop *out = NULL;
    uint32_t *lsrc = NULL, *orot = NULL; /* per hop of A's step */
    size_t cap = 0;
    totex_status st = TOTEX_OK;
    for (uint32_t r = 1; r <= N && st == TOTEX_OK; r++) {
        for (uint64_t s = 0; s < ta && st == TOTEX_OK; s++) {
            size_t cnt;
            const totex_hop *h = totex_schedule_step(sa, s, &cnt);
            size_t need = 2 * cnt * N;
            if (need > cap) {
                totex_hop *b = realloc(out, sizeof *b * need);
                uint32_t *l2 = realloc(lsrc, sizeof *l2 * (cnt ? cnt : 1));
                lsrc = l2 ? l2 : lsrc;
                uint32_t *o2 = realloc(orot, sizeof *o2 * (cnt ? cnt : 1));
                orot = o2 ? o2 : orot;
                if (!b || !l2 || !o2) {
                    free(b ? b : out);
                    out = NULL;
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory expanding a step of A3");
                    break;
                }
                out = b;
                cap = need;
            }
            size_t o = 0;
            /* per hop of A's step: l, the copy offset of its message's source (A-exchange r > 1), and o_r(l) of
               its B-exchange, computed once rather than per copy (no division in the loops over copies) */
            for (size_t x = 0; x < cnt; x++) {
                const uint32_t l = (h[x].dst + N - h[x].src) % N;
                lsrc[x] = r > 1 ? rot_inv(l, r - 1, N) : 0; /* o_(r-1)(l) = x_dst - i_src */
                orot[x] = r < N ? rot(l, r, N) : 0;
            }
            /* A-exchange r in every copy A_j = (*, u_j): the message's source copy is j - l (mod N) */
            for (uint32_t j = 0; j < N; j++) {
                const uint32_t base = N * j;
                for (size_t x = 0; x < cnt; x++) {
                    const uint32_t srccopy = j >= lsrc[x] ? j - lsrc[x] : j + N - lsrc[x];
                    out[o].from = h[x].from + base;
                    out[o].to = h[x].to + base;
                    out[o].src = h[x].src + N * srccopy;
                    out[o].dst = h[x].dst + base;
                    o++;
                }
            }
            /* B-exchange r in every copy B_i = (v_i, *) */
            for (size_t x = 0; x < cnt; x++) {
                const uint32_t from = N * h[x].from, to = N * h[x].to, src = N * h[x].src, dst = N * h[x].dst;
                const uint32_t o_r = orot[x];
                for (uint32_t i = 0; i < N; i++) {
                    const uint32_t d = i + o_r;
                    out[o].from = i + from;
                    out[o].to = i + to;
                    out[o].src = i + src;
                    out[o].dst = (d >= N ? d - N : d) + dst;
                    o++;
                }
            }
            st = sink.step(sink.ctx, out, o, err);
        }
    }
    free(out);
    free(lsrc);
    free(orot);
    return st;
}

/* Total exchange schedule of H^d (d a power of two) recorded in memory. */
static totex_status a3_record(const totex_factor *h, uint32_t d, totex_schedule **out, totex_error *err)
{
    if (d == 1)
        return totex_factor_schedule(h, TOTEX_PORTS_MULTI, out, NULL, err);
    totex_schedule *half = NULL, *s;
    totex_status st = a3_record(h, d / 2, &half, err);
    if (st != TOTEX_OK)
        return st;
    uint64_t N = 1;
    for (uint32_t i = 0; i < d / 2; i++)
        N *= totex_factor_nodes(h);
    s = totex_schedule_new();
    if (!s) {
        totex_schedule_free(half);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    st = a3_compose(half, (uint32_t)N, totex_schedule_sink(s), err);
    totex_schedule_free(half);
    if (st != TOTEX_OK) {
        totex_schedule_free(s);
        return st;
    }
    *out = s;
    return TOTEX_OK;
}

static totex_status a3_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    uint32_t d = totex_network_dims(net);
    if (ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3 is a multiport algorithm (000 Section 5): its two dimensions exchange at once; use --ports multi, or a2 for single-port");
    if (!totex_network_homogeneous(net))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3 needs a homogeneous network H^(2^k) (000 Section 5): %s has different dimensions; use a2",
                          totex_network_spec(net));
    if (d & (d - 1))
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "a3 needs 2^k dimensions (000 Section 5): %s has %u; use a2", totex_network_spec(net), d);
    return TOTEX_OK;
}

static totex_status a3_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    /* Corollary 3: T = |H|^(d-1) * T_H */
    totex_status st = a3_applies(net, ports, err);
    const totex_factor *h = totex_network_factor(net, 0);
    uint64_t th, t;
    if (st != TOTEX_OK)
        return st;
    if ((st = totex_factor_predict(h, TOTEX_PORTS_MULTI, &th, err)) != TOTEX_OK)
        return st;
    t = th;
    for (uint32_t i = 1; i < totex_network_dims(net); i++)
        if (__builtin_mul_overflow(t, (uint64_t)totex_factor_nodes(h), &t))
            return totex_fail(err, TOTEX_EOVERFLOW, "A3 step count overflows 64 bits");
    *steps = t;
    return TOTEX_OK;
}

static totex_status a3_plan(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    uint32_t d = totex_network_dims(net);
    const totex_factor *h = totex_network_factor(net, 0);
    totex_schedule *half = NULL;
    totex_status st = a3_applies(net, ports, err);
    if (st != TOTEX_OK)
        return st;
    if (d == 1) {
        if ((st = a3_record(h, 1, &half, err)) == TOTEX_OK)
            st = totex_schedule_replay(half, sink, err);
        totex_schedule_free(half);
        return st;
    }
    if ((st = a3_record(h, d / 2, &half, err)) != TOTEX_OK)
        return st;
    uint32_t N = 1;
    for (uint32_t i = 0; i < d / 2; i++)
        N *= totex_factor_nodes(h);
    st = a3_compose(half, N, sink, err);
    totex_schedule_free(half);
    return st;
}

const totex_algorithm totex_algorithm_a3 = {
    .name = "a3",
    .title = "Algorithm A3 (multiport, homogeneous H^(2^k), both halves at once)",
    .source = "000 Section 5, Fig. 6, Theorem 4, Corollary 3, Theorem 5",
    .applies = a3_applies,
    .predict = a3_predict,
    .plan = a3_plan,
};
