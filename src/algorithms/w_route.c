/*
 * Dimension-ordered routes for byte-weighted schedules:
 * the route every pair takes in the direct schedule (what MPI libraries'
 * linear alltoallv does on a torus) and that a permutation takes in the
 * Birkhoff-von Neumann schedule (001 Section 4: a permutation routed
 * dimension by dimension).
 */
#include "algorithms/w_route.h"

uint32_t w_route(const totex_network *net, uint32_t s, uint32_t d, uint32_t choice, uint32_t *path, uint32_t *ties)
{
    uint32_t len = 0, v = s;
    path[len++] = v;
    if (ties)
        *ties = 0;
    for (uint32_t k = 0; k < totex_network_dims(net); k++) {
        const totex_factor *f = totex_network_factor(net, k);
        uint32_t stride = totex_network_stride(net, k), t = totex_network_coord(net, d, k);
        int first = 1;
        for (uint32_t c = totex_network_coord(net, v, k); c != t;) {
            uint32_t dist = totex_factor_distance(f, c, t), pick = UINT32_MAX, cand = 0;
            for (uint32_t r = 0; r < totex_factor_degree(f, c); r++) {
                uint32_t b = totex_factor_neighbor(f, c, r);
                if (totex_factor_distance(f, b, t) + 1 == dist) {
                    cand++;
                    if (cand == 1 || (cand == 2 && first && ((choice >> k) & 1)))
                        pick = b;
                }
            }
            if (first && cand >= 2 && ties && k < 32)
                *ties |= 1u << k;
            first = 0;
            v = v - c * stride + pick * stride;
            c = pick;
            path[len++] = v;
        }
    }
    return len;
}

totex_status w_add_split(totex_wschedule *s, const totex_network *net, uint32_t i, uint32_t j, uint64_t w, uint32_t *path)
{
    uint32_t ties;
    uint32_t len = w_route(net, i, j, 0, path, &ties);
    uint32_t bits[32], nb = 0;
    for (uint32_t k = 0; k < 32; k++)
        if ((ties >> k) & 1)
            bits[nb++] = k;
    if (nb > 6)
        nb = 6; /* at most 64 routes per pair */
    uint64_t ways = UINT64_C(1) << nb;
    for (uint64_t c = 0; c < ways; c++) {
        uint32_t choice = 0;
        for (uint32_t q = 0; q < nb; q++)
            if ((c >> q) & 1)
                choice |= 1u << bits[q];
        if (c)
            len = w_route(net, i, j, choice, path, NULL);
        uint64_t part = w / ways + (c < w % ways);
        if (totex_wschedule_add(s, i, j, part, path, len) != TOTEX_OK)
            return TOTEX_ENOMEM;
    }
    return TOTEX_OK;
}
