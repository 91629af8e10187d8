/*
 * pairwise -- pairwise-exchange total exchange: n-1 steps, one partner per
 * step.
 *
 * Reference: the MPICH MPI_Alltoall pairwise-exchange algorithm
 * (src/mpi/coll/alltoall/alltoall_intra_pairwise.c; Thakur, Rabenseifner &
 * Gropp, "Optimization of collective communication operations in MPICH",
 * IJHPCA 2005, Section 4.6).
 *
 * Model (include/totex/combining.h): rank = node id. In logical step i
 * (1 <= i <= n-1) node r exchanges with partner r XOR i when n is a power of
 * two, else sends to (r + i) mod n and receives from (r - i) mod n; each
 * transfer carries the single block (r, partner). One injection and one
 * consumption per node per step: one-port (all-port accepts it too). Where
 * routes of a step share a directed link, the step is split into
 * contention-free sub-steps by the greedy of src/combining/pack.h, so the
 * measured start-ups show the contention; under store-and-forward multi-hop
 * transfers are forwarded hop by hop (pack.h). No rearrangement.
 *
 * Cost without contention (e.g. a complete graph): (n-1)(t_s + m t_c).
 */
#include "totex/combining.h"

#include "combining/pack.h"
#include "common/error.h"

static totex_status pairwise_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                   totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    const int pow2 = (n & (n - 1)) == 0;
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    totex_status st;
    *out = NULL;
    if ((st = totex_pack_begin("pairwise", net, cost, &s, &p, err)) != TOTEX_OK)
        return st;
    for (uint32_t i = 1; i < n; i++) {
        for (uint32_t r = 0; r < n; r++) {
            totex_block b = {r, pow2 ? (r ^ i) : (r + i) % n};
            if ((st = totex_pack_add(p, r, b.dst, &b, 1, err)) != TOTEX_OK)
                goto done;
        }
        if ((st = totex_pack_flush(p, 0, err)) != TOTEX_OK)
            goto done;
    }
done:
    return totex_pack_end(st, p, s, out);
}

const totex_comb_algorithm totex_comb_pairwise = {
    .name = "pairwise",
    .title = "pairwise exchange: n-1 steps, partner r XOR i (n a power of 2) or r +- i mod n, one block each",
    .source = "MPICH Alltoall pairwise exchange (Thakur, Rabenseifner & Gropp, IJHPCA 2005)",
    .cost = "(n-1)(t_s + m t_c) contention-free",
    .build = pairwise_build,
};
