/*
 * Algorithm A2: total exchange on any cartesian product, by dimensions.
 *
 * Source:  000 Section 4 (Fig. 4); 004 Section 4, Fig. 4; step count by
 *          004 Theorem 2 / Corollary 2; optimality by 004 Theorem 3.
 * Model:   single-port (the paper's model); also valid under multiport and
 *          k-port with factor schedules of that model (copies of a dimension
 *          are disjoint): under k-port (k >= 2) paths and rings take their
 *          multiport schedules (two links a node), complete graphs k rounds a
 *          step (factor_schedule.c), so k-port A2 on a mesh or torus takes
 *          the multiport A2's steps, about half the single-port ones.
 * Steps:   T = n1*T_B + n2*T_A for G = A x B, i.e. T = n * sum_i T_i/|V_i|
 *          (Corollary 2), T_i the steps of the factor algorithm of dimension i.
 * Optimal: single-port, whenever every factor algorithm meets the average-
 *          status bound (Theorem 3): hypercubes, tori (rings: two directional
 *          phases, floor(m^2/4)), generalized hypercubes (m-1 rounds).
 *
 * With G = A x B, A = G_1 x ... x G_{k-1} (low coordinates) and B = G_k:
 *   1. for r in V_A: every copy B_i runs total exchange on B where node
 *      (v_i, u_j) sends batch R_r: to (v_i, u_k) the message m_(v_i,u_j)(v_r, u_k);
 *   2. for k in V_B: every copy A_j runs total exchange on A where node
 *      (v_i, u_j) sends m_(v_i,u_k)(*, u_j) (its own for k = j, else received in 1).
 * Step 2 recurses on A. Each level expands the steps of the level below
 * into its own node space, so the schedule is streamed, never stored.
 */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "algorithms/factor_algos.h"
#include "algorithms/registry_impl.h"
#include "common/error.h"

typedef struct a2_plan {
    const totex_network *net;
    uint32_t k;
    uint32_t m[TOTEX_MAX_DIMS];
    uint32_t low[TOTEX_MAX_DIMS + 1]; /* low[L] = prod_{i<L} m_i: nodes of the level-L subnetwork */
    totex_schedule *fs[TOTEX_MAX_DIMS];
    totex_hop *buf[TOTEX_MAX_DIMS + 1];
    size_t cap[TOTEX_MAX_DIMS + 1];
} a2_plan;

static totex_status reserve(a2_plan *p, uint32_t level, size_t need, totex_error *err)
{
    if (need <= p->cap[level])
        return TOTEX_OK;
    totex_hop *b = realloc(p->buf[level], sizeof *b * need);
    if (!b)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory expanding a step of A2 (%zu hops)", need);
    p->buf[level] = b;
    p->cap[level] = need;
    return TOTEX_OK;
}

static totex_status emit_level(a2_plan *p, uint32_t level, totex_sink sink, totex_error *err);

/*
 * The hops of one factor hop in the n_A copies of step 1 (lines 1-3):
 * out[i] = (from + i, to + i, src + i, dst) for i < @p nA. With SSE2 one
 * 16-byte store and one add per hop (a totex_hop is four 32-bit words, in
 * that order), instead of the four words assembled per hop: on mesh:64x64
 * half of A2's hops are written here.
 */
static inline void copy_run(totex_hop *out, uint32_t from, uint32_t to, uint32_t src, uint32_t dst, uint32_t nA)
{
#if defined(__SSE2__)
    _Static_assert(sizeof(totex_hop) == 16, "a hop is four 32-bit words");
    __m128i v = _mm_set_epi32((int)dst, (int)src, (int)to, (int)from);
    const __m128i one = _mm_set_epi32(0, 1, 1, 1);
    for (uint32_t i = 0; i < nA; i++) {
        _mm_storeu_si128((__m128i *)(void *)(out + i), v);
        v = _mm_add_epi32(v, one);
    }
#else
    for (uint32_t i = 0; i < nA; i++) {
        out[i].from = from + i;
        out[i].to = to + i;
        out[i].src = src + i;
        out[i].dst = dst;
    }
#endif
}

/* Sink that lifts the steps of A (level L-1) in round kk into level L. */
typedef struct lift_ctx {
    a2_plan *p;
    uint32_t level, kk;
    totex_sink up;
} lift_ctx;

static totex_status lift_step(void *vctx, const totex_hop *hops, size_t count, totex_error *err)
{
    lift_ctx *c = vctx;
    a2_plan *p = c->p;
    const uint32_t nA = p->low[c->level - 1], mB = p->m[c->level - 1];
    const uint32_t src_off = c->kk * nA;
    totex_status st = reserve(p, c->level, count * mB, err);
    if (st != TOTEX_OK)
        return st;
    totex_hop *out = p->buf[c->level];
    size_t o = 0;
    for (uint32_t j = 0; j < mB; j++) {
        const uint32_t off = j * nA;
        for (size_t x = 0; x < count; x++) {
            const totex_hop *h = &hops[x];
            out[o].from = h->from + off;
            out[o].to = h->to + off;
            out[o].src = h->src + src_off;
            out[o].dst = h->dst + off;
            o++;
        }
    }
    return c->up.step(c->up.ctx, out, o, err);
}

static totex_status emit_level(a2_plan *p, uint32_t level, totex_sink sink, totex_error *err)
{
    if (level == 1)
        return totex_schedule_replay(p->fs[0], sink, err);
    const uint32_t nA = p->low[level - 1], mB = p->m[level - 1];
    const totex_schedule *fb = p->fs[level - 1];
    const uint64_t tb = totex_schedule_steps(fb);
    totex_status st;
    /* lines 1-3: n_A total exchanges in every copy B_i */
    for (uint32_t r = 0; r < nA; r++) {
        for (uint64_t s = 0; s < tb; s++) {
            size_t cnt;
            const totex_hop *fh = totex_schedule_step(fb, s, &cnt);
            if ((st = reserve(p, level, cnt * nA, err)) != TOTEX_OK)
                return st;
            totex_hop *out = p->buf[level];
            size_t o = 0;
            for (size_t x = 0; x < cnt; x++) {
                const uint32_t from = fh[x].from * nA, to = fh[x].to * nA;
                const uint32_t src = fh[x].src * nA, dst = r + fh[x].dst * nA;
                copy_run(out + o, from, to, src, dst, nA);
                o += nA;
            }
            if ((st = sink.step(sink.ctx, out, o, err)) != TOTEX_OK)
                return st;
        }
    }
    /* lines 4-6: m_B total exchanges in every copy A_j */
    for (uint32_t kk = 0; kk < mB; kk++) {
        lift_ctx c = {p, level, kk, sink};
        totex_sink lift = {lift_step, &c};
        if ((st = emit_level(p, level - 1, lift, err)) != TOTEX_OK)
            return st;
    }
    return TOTEX_OK;
}

static void a2_free(a2_plan *p)
{
    for (uint32_t i = 0; i < TOTEX_MAX_DIMS; i++)
        totex_schedule_free(p->fs[i]);
    for (uint32_t i = 0; i <= TOTEX_MAX_DIMS; i++)
        free(p->buf[i]);
}

static totex_status a2_prepare(a2_plan *p, const totex_network *net, totex_ports ports, totex_error *err)
{
    memset(p, 0, sizeof *p);
    p->net = net;
    p->k = totex_network_dims(net);
    p->low[0] = 1;
    for (uint32_t i = 0; i < p->k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        totex_status st;
        p->m[i] = totex_factor_nodes(f);
        p->low[i + 1] = p->low[i] * p->m[i];
        /* identical factors share nothing but are cheap to rebuild; keep it simple */
        if ((st = totex_factor_schedule(f, ports, &p->fs[i], NULL, err)) != TOTEX_OK) {
            a2_free(p);
            return st;
        }
    }
    return TOTEX_OK;
}

static totex_status a2_applies(const totex_network *net, totex_ports ports, totex_error *err)
{
    (void)net;
    (void)ports;
    (void)err;
    return TOTEX_OK; /* any product, any factor with a factor algorithm */
}

static totex_status a2_predict(const totex_network *net, totex_ports ports, uint64_t *steps, totex_error *err)
{
    /* Corollary 2: T = n * sum_i T_i / |V_i| */
    uint64_t n = totex_network_nodes(net), total = 0;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint64_t ti, term;
        totex_status st = totex_factor_predict(f, ports, &ti, err);
        if (st != TOTEX_OK)
            return st;
        if (__builtin_mul_overflow(n / totex_factor_nodes(f), ti, &term) ||
            __builtin_add_overflow(total, term, &total))
            return totex_fail(err, TOTEX_EOVERFLOW, "A2 step count overflows 64 bits");
    }
    *steps = total;
    return TOTEX_OK;
}

static totex_status a2_plan_fn(const totex_network *net, totex_ports ports, totex_sink sink, totex_error *err)
{
    a2_plan p;
    totex_status st = a2_prepare(&p, net, ports, err);
    if (st != TOTEX_OK)
        return st;
    st = emit_level(&p, p.k, sink, err);
    a2_free(&p);
    return st;
}

const totex_algorithm totex_algorithm_a2 = {
    .name = "a2",
    .title = "Algorithm A2 (recursive product algorithm, dimension by dimension)",
    .source = "000 Section 4; 004 Fig. 4, Theorem 2, Corollary 2, Theorem 3",
    .applies = a2_applies,
    .predict = a2_predict,
    .plan = a2_plan_fn,
};
