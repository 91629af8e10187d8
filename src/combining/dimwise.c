/*
 * dimwise -- dimension-wise (dimension-ordered) total exchange with message
 * combining, without the per-dimension pipeline.
 *
 * Reference: the classic dimension-by-dimension complete exchange of
 * multidimensional meshes and tori (e.g. Bokhari & Berryman 1992; Suh &
 * Yalamanchili, "All-to-all communication with minimum start-up costs in
 * 2D/3D tori and meshes", IEEE TPDS 1998; the "direct exchange in each
 * dimension" baseline of 002 Section 1), here as a baseline for 002.
 *
 * Model (include/totex/combining.h): for each dimension d = 0, 1, ... in
 * turn, m_d - 1 logical steps; in step i (1 <= i < m_d) node x sends to the
 * node x' with x'_d = (x_d + i) mod m_d (other coordinates equal) all the
 * blocks that must still travel offset i in dimension d, as one message: at
 * the start of dimension d, node x holds the blocks (s, t) with s_j = x_j for
 * j >= d and t_j = x_j for j < d, and sends those with t_d = x_d + i mod m_d,
 * n / m_d blocks. Routes stay inside dimension d: straight on a path (an
 * offset that wraps goes back along the path), the short way on a ring (ties
 * +), directly on a complete graph or k2. One injection and one consumption
 * per node per step: one-port. Rearrangement: n blocks per node at every
 * change of dimension, declared before the first step of dimensions 1..k-1.
 * Contention: a step with offset i routes over up to i hops and overlaps
 * other routes of the step; such a step is split into contention-free
 * sub-steps (src/combining/pack.h), so the measured start-ups show it; under
 * store-and-forward multi-hop transfers are forwarded hop by hop.
 *
 * Cost without contention:
 * sum_d (m_d - 1) t_s + sum_d (m_d - 1)(n / m_d) m t_c + (k - 1) n m rho.
 */
#include "totex/combining.h"

#include <stdlib.h>

#include "combining/pack.h"
#include "common/error.h"

static totex_status dimwise_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                  totex_error *err)
{
    const uint32_t n = totex_network_nodes(net), k = totex_network_dims(net);
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    totex_block *buf = NULL;
    totex_status st;
    *out = NULL;
    if ((st = totex_pack_begin("dimwise", net, cost, &s, &p, err)) != TOTEX_OK)
        return st;
    if (!(buf = malloc(sizeof *buf * n))) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building dimwise on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t d = 0; d < k; d++) {
        const uint32_t md = totex_factor_nodes(totex_network_factor(net, d));
        const uint32_t low = totex_network_stride(net, d); /* prod_{j<d} m_j */
        const uint32_t high = n / low / md;                /* prod_{j>d} m_j */
        for (uint32_t i = 1; i < md; i++) {
            for (uint32_t x = 0; x < n; x++) {
                const uint32_t xlow = x % low, xd = (x / low) % md;
                const uint32_t td = (xd + i) % md;
                const uint32_t to = x - xd * low + td * low;
                size_t c = 0;
                for (uint32_t a = 0; a < low; a++)
                    for (uint32_t b = 0; b < high; b++) {
                        buf[c].src = x - xlow + a;
                        buf[c].dst = xlow + td * low + b * low * md;
                        c++;
                    }
                if ((st = totex_pack_add(p, x, to, buf, c, err)) != TOTEX_OK)
                    goto done;
            }
            if ((st = totex_pack_flush(p, d > 0 && i == 1 ? n : 0, err)) != TOTEX_OK)
                goto done;
        }
    }
done:
    free(buf);
    return totex_pack_end(st, p, s, out);
}

const totex_comb_algorithm totex_comb_dimwise = {
    .name = "dimwise",
    .title = "dimension-wise exchange: per dimension m_d - 1 combined steps of n/m_d blocks to x_d + i",
    .source = "classic dimension-ordered complete exchange (Bokhari & Berryman 1992; Suh & Yalamanchili 1998)",
    .cost = "sum_d (m_d-1) t_s + sum_d (m_d-1)(n/m_d) m t_c + (k-1) n m rho contention-free",
    .build = dimwise_build,
};
