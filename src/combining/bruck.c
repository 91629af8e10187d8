/*
 * bruck -- the Bruck et al. index (all-to-all) algorithm, radix 2.
 *
 * Reference: J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal, D. Weathersby,
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", IEEE TPDS 8(11), 1997, Section 3 (the index
 * algorithm; r = 2, one port); as in MPICH alltoall_intra_brucks.c.
 *
 * Model (include/totex/combining.h): ceil(log2 n) logical steps. Block
 * (s, d) has rotated index j = (d - s) mod n; in step k (0-based) every
 * node h sends to (h + 2^k) mod n, as one message, all blocks it holds whose
 * rotated index has bit k set -- the blocks (h - (j mod 2^k), h - (j mod 2^k)
 * + j) for the j in [1, n) with bit k set, about n/2 of them (exactly n/2
 * when n is a power of two). A block thus moves j in total and ends at d;
 * the blocks are the real (src, dst) pairs, so the simulator checks
 * delivery. One injection and one consumption per node per step: one-port.
 * Rearrangement: the initial and final local rotations of Bruck et al. are
 * counted as n blocks each: n before the first step, and n on a final empty
 * step (no start-up). The packing between steps is not counted (as the
 * formula below). Contention: a step whose routes share a directed link is
 * split into contention-free sub-steps (src/combining/pack.h); under
 * store-and-forward multi-hop transfers are forwarded hop by hop.
 *
 * Cost without contention (e.g. a complete graph):
 * ceil(log2 n) (t_s + (n/2) m t_c) + 2 n m rho; exactly,
 * sum_k (t_s + B_k m t_c) + 2 n m rho, B_k = #{j in [1, n): bit k of j set}.
 */
#include "totex/combining.h"

#include <stdlib.h>

#include "combining/pack.h"
#include "common/error.h"

static totex_status bruck_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    totex_block *buf = NULL;
    totex_status st;
    *out = NULL;
    if ((st = totex_pack_begin("bruck", net, cost, &s, &p, err)) != TOTEX_OK)
        return st;
    if (!(buf = malloc(sizeof *buf * n))) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory building bruck on %s", totex_network_spec(net));
        goto done;
    }
    for (uint32_t k = 0; k < 32 && (UINT64_C(1) << k) < n; k++) {
        const uint32_t bit = UINT32_C(1) << k;
        for (uint32_t h = 0; h < n; h++) {
            size_t c = 0;
            for (uint32_t j = 1; j < n; j++) {
                uint32_t src;
                if (!(j & bit))
                    continue;
                src = (h + n - (j & (bit - 1))) % n;
                buf[c].src = src;
                buf[c].dst = (uint32_t)(((uint64_t)src + j) % n);
                c++;
            }
            if ((st = totex_pack_add(p, h, (uint32_t)(((uint64_t)h + bit) % n), buf, c, err)) != TOTEX_OK)
                goto done;
        }
        if ((st = totex_pack_flush(p, k == 0 ? n : 0, err)) != TOTEX_OK)
            goto done;
    }
    /* final rotation: n blocks, on an empty step (no start-up) */
    if ((st = totex_pack_flush(p, n, err)) != TOTEX_OK)
        goto done;
done:
    free(buf);
    return totex_pack_end(st, p, s, out);
}

const totex_comb_algorithm totex_comb_bruck = {
    .name = "bruck",
    .title = "Bruck index algorithm: ceil(log2 n) steps to r + 2^k, about n/2 blocks each",
    .source = "Bruck, Ho, Kipnis, Upfal & Weathersby, IEEE TPDS 8(11) 1997, Section 3",
    .cost = "ceil(log2 n) (t_s + (n/2) m t_c) + 2 n m rho contention-free",
    .build = bruck_build,
};
