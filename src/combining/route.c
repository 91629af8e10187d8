/* Dimension-ordered routes of the message-combining model (002 Section 2:
 * wormhole routes; the rules are documented in include/totex/combining.h). */
#include "combining/route.h"

/* next factor node from a toward b (a != b) */
static uint32_t factor_next(const totex_factor *f, uint32_t a, uint32_t b)
{
    uint32_t m = totex_factor_nodes(f);
    switch (totex_factor_get_kind(f)) {
    case TOTEX_FACTOR_PATH: return a < b ? a + 1 : a - 1;
    case TOTEX_FACTOR_RING: {
        uint32_t d = (b + m - a) % m;
        return d <= m / 2 ? (a + 1) % m : (a + m - 1) % m; /* short way, ties + */
    }
    case TOTEX_FACTOR_K2:
    case TOTEX_FACTOR_COMPLETE: return b;
    case TOTEX_FACTOR_GRAPH: {
        uint32_t dab = totex_factor_distance(f, a, b), deg = totex_factor_degree(f, a);
        for (uint32_t r = 0; r < deg; r++) {
            uint32_t v = totex_factor_neighbor(f, a, r);
            if (totex_factor_distance(f, v, b) + 1 == dab)
                return v;
        }
        return b; /* unreachable in a connected factor; adjacency checks reject it */
    }
    }
    return b;
}

size_t totex_comb_route(const totex_network *net, uint32_t from, uint32_t to, uint32_t *out, size_t cap)
{
    size_t len = 0;
    uint32_t cur = from;
    if (cap == 0)
        return 0;
    out[len++] = from;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t stride = totex_network_stride(net, i);
        uint32_t a = totex_network_coord(net, cur, i), b = totex_network_coord(net, to, i);
        while (a != b && len < cap) {
            uint32_t nx = factor_next(f, a, b);
            cur = cur - a * stride + nx * stride;
            a = nx;
            out[len++] = cur;
        }
    }
    return len - 1;
}
