/*
 * direct -- direct (one-shot) total exchange: every node sends each of its
 * n-1 blocks straight to its destination, all at once.
 *
 * Reference: the classic "direct" / "post all sends" all-to-all (e.g. the
 * MPICH MPI_Alltoall scattered algorithm with an unbounded window; Bokhari,
 * "Multiphase complete exchange", IEEE TPDS 1994, as the one-phase extreme).
 *
 * Model (include/totex/combining.h): one logical step of n(n-1) one-block
 * transfers, node r -> node d carrying block (r, d); needs ALL-PORT (n-1
 * injections per node at once); under one-port it is refused with the
 * reason. Contention: on a network where routes share links the transfers
 * cannot run in one contention-free step, so they are serialised greedily
 * into the fewest extra sub-steps (src/combining/pack.h: each transfer in the
 * first sub-step where all the links of its route are free), and the
 * start-ups the simulator measures are the contention cost. Under
 * store-and-forward multi-hop transfers are forwarded hop by hop (pack.h).
 *
 * Cost (contention-free, e.g. a complete graph): t_s + m t_c; no
 * rearrangement (each block is its own message). In general:
 * S t_s + S m t_c (+ route hops t_l under store-and-forward), S = measured
 * sub-steps.
 */
#include "totex/combining.h"

#include <stdlib.h>

#include "combining/pack.h"
#include "common/error.h"

/** Largest n(n-1)(diameter+1) packed (mesh:16x16 is 2e6; mesh:32x32, 6.6e7, took about 30 s). */
#define DIRECT_MAX_WORK (UINT64_C(1) << 24)

static totex_status direct_build(const totex_network *net, const totex_comb_cost *cost, totex_comb_schedule **out,
                                 totex_error *err)
{
    const uint32_t n = totex_network_nodes(net);
    totex_comb_schedule *s = NULL;
    totex_pack *p = NULL;
    totex_status st;
    *out = NULL;
    if (cost->ports != TOTEX_PORTS_MULTI)
        return totex_fail(err, TOTEX_ENOTAPPLICABLE,
                          "direct sends all n-1 = %u messages of every node at once: it needs the all-port model (one-port allows one injection per node per step; use pairwise)",
                          n - 1);
    if ((uint64_t)n * (n - 1) * (totex_network_diameter(net) + 1) > DIRECT_MAX_WORK)
        return totex_fail(err, TOTEX_ENOMEM,
                          "direct on %s: packing its %llu transfers into contention-free sub-steps (greedy over routes of up to %llu hops) exceeds the work limit of %llu link placements: use a smaller network",
                          totex_network_spec(net), (unsigned long long)n * (n - 1),
                          (unsigned long long)totex_network_diameter(net), (unsigned long long)DIRECT_MAX_WORK);
    if ((st = totex_pack_begin("direct", net, cost, &s, &p, err)) != TOTEX_OK)
        return st;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t i = 1; i < n; i++) {
            totex_block b = {r, (r + i) % n};
            if ((st = totex_pack_add(p, r, b.dst, &b, 1, err)) != TOTEX_OK)
                goto done;
        }
    if ((st = totex_pack_flush(p, 0, err)) != TOTEX_OK)
        goto done;
done:
    return totex_pack_end(st, p, s, out);
}

const totex_comb_algorithm totex_comb_direct = {
    .name = "direct",
    .title = "direct: every node sends its n-1 blocks at once (all-port; contention serialised into sub-steps)",
    .source = "classic one-shot all-to-all (MPICH scattered Alltoall, unbounded window)",
    .cost = "t_s + m t_c contention-free; S (t_s + m t_c) with S measured sub-steps",
    .build = direct_build,
};
