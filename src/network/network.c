/*
 * Cartesian products of factor graphs (000 Section 2; 004 Section 2) and
 * their metrics by Theorem 1 / Corollary 1 of 000 and 004: the status of a
 * product node is s(v) = n * sum_i s_i(v_i)/|V_i| and the average status is
 * AS(G) = n * sum_i AS(G_i)/|V_i|. Nothing here searches the product graph.
 */
#include "network/network_impl.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

void totex_network_free(totex_network *net)
{
    if (!net)
        return;
    for (uint32_t i = 0; i < net->k; i++)
        totex_factor_free(net->f[i]);
    free(net->spec);
    free(net);
}

const char *totex_network_spec(const totex_network *net) { return net->spec; }
uint32_t totex_network_dims(const totex_network *net) { return net->k; }
const totex_factor *totex_network_factor(const totex_network *net, uint32_t i)
{
    return i < net->k ? net->f[i] : NULL;
}
uint32_t totex_network_nodes(const totex_network *net) { return net->n; }
uint64_t totex_network_messages(const totex_network *net)
{
    return (uint64_t)net->n * (net->n - 1);
}
uint32_t totex_network_stride(const totex_network *net, uint32_t i) { return i < net->k ? net->stride[i] : 0; }

uint32_t totex_network_coord(const totex_network *net, uint32_t node, uint32_t i)
{
    if (node >= net->n || i >= net->k)
        return UINT32_MAX;
    return (node / net->stride[i]) % net->m[i];
}

uint32_t totex_network_shift(const totex_network *net, uint32_t u, uint32_t x, int sign)
{
    if (u >= net->n || x >= net->n)
        return UINT32_MAX;
    uint32_t id = 0;
    for (uint32_t d = 0; d < net->k; d++) {
        const uint32_t m = net->m[d], cu = (u / net->stride[d]) % m, cx = (x / net->stride[d]) % m;
        id += ((sign > 0 ? cu + cx : cu + m - cx) % m) * net->stride[d];
    }
    return id;
}

uint64_t totex_network_links(const totex_network *net)
{
    uint64_t links = 0;
    for (uint32_t i = 0; i < net->k; i++)
        links += totex_factor_links(net->f[i]) * (net->n / net->m[i]);
    return links;
}

uint32_t totex_network_degree(const totex_network *net, uint32_t node)
{
    uint32_t d = 0;
    if (node >= net->n)
        return 0;
    for (uint32_t i = 0; i < net->k; i++)
        d += totex_factor_degree(net->f[i], totex_network_coord(net, node, i));
    return d;
}

uint32_t totex_network_min_degree(const totex_network *net)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < net->k; i++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t a = 0; a < net->m[i]; a++) {
            uint32_t x = totex_factor_degree(net->f[i], a);
            if (x < best)
                best = x;
        }
        d += best;
    }
    return d;
}

uint32_t totex_network_neighbors(const totex_network *net, uint32_t node, uint32_t *out)
{
    uint32_t cnt = 0;
    if (node >= net->n)
        return 0;
    for (uint32_t i = 0; i < net->k; i++) {
        uint32_t c = totex_network_coord(net, node, i);
        uint32_t deg = totex_factor_degree(net->f[i], c);
        uint32_t base = node - c * net->stride[i];
        for (uint32_t r = 0; r < deg; r++)
            out[cnt++] = base + totex_factor_neighbor(net->f[i], c, r) * net->stride[i];
    }
    return cnt;
}

int totex_network_adjacent(const totex_network *net, uint32_t a, uint32_t b)
{
    int differing = -1;
    if (a >= net->n || b >= net->n || a == b)
        return 0;
    for (uint32_t i = 0; i < net->k; i++) {
        if (totex_network_coord(net, a, i) != totex_network_coord(net, b, i)) {
            if (differing >= 0)
                return 0;
            differing = (int)i;
        }
    }
    return differing >= 0 &&
           totex_factor_adjacent(net->f[differing], totex_network_coord(net, a, (uint32_t)differing),
                                 totex_network_coord(net, b, (uint32_t)differing));
}

uint64_t totex_network_distance(const totex_network *net, uint32_t a, uint32_t b)
{
    uint64_t d = 0;
    if (a >= net->n || b >= net->n)
        return UINT64_MAX;
    for (uint32_t i = 0; i < net->k; i++)
        d += totex_factor_distance(net->f[i], totex_network_coord(net, a, i),
                                   totex_network_coord(net, b, i));
    return d;
}

uint64_t totex_network_status(const totex_network *net, uint32_t node)
{
    /* Theorem 1: s(v) = n * sum_i s_i(v_i) / m_i = sum_i (n / m_i) * s_i(v_i) */
    uint64_t s = 0;
    if (node >= net->n)
        return UINT64_MAX;
    for (uint32_t i = 0; i < net->k; i++)
        s += (uint64_t)(net->n / net->m[i]) * totex_factor_status(net->f[i], totex_network_coord(net, node, i));
    return s;
}

totex_status totex_network_status_sum(const totex_network *net, uint64_t *out, totex_error *err)
{
    /* Corollary 1 times n: S_G = n * AS(G) = sum_i (n/m_i)^2 * S_i, S_i = sum of factor statuses */
    uint64_t total = 0;
    for (uint32_t i = 0; i < net->k; i++) {
        uint64_t q = net->n / net->m[i], term;
        if (__builtin_mul_overflow(q, q, &term) ||
            __builtin_mul_overflow(term, totex_factor_status_sum(net->f[i]), &term) ||
            __builtin_add_overflow(total, term, &total))
            return totex_fail(err, TOTEX_EOVERFLOW,
                              "total status of %s overflows 64 bits: use a smaller network", net->spec);
    }
    *out = total;
    return TOTEX_OK;
}

double totex_network_average_status(const totex_network *net)
{
    /* Corollary 1: AS(G) = n * sum_i AS(G_i) / m_i, AS(G_i) = S_i / m_i */
    double as = 0;
    for (uint32_t i = 0; i < net->k; i++)
        as += (double)totex_factor_status_sum(net->f[i]) / ((double)net->m[i] * net->m[i]);
    return as * net->n;
}

double totex_network_average_distance(const totex_network *net)
{
    if (net->n < 2)
        return 0;
    return totex_network_average_status(net) / (net->n - 1);
}

uint64_t totex_network_diameter(const totex_network *net)
{
    uint64_t d = 0;
    for (uint32_t i = 0; i < net->k; i++)
        d += totex_factor_diameter(net->f[i]);
    return d;
}

int totex_network_homogeneous(const totex_network *net)
{
    for (uint32_t i = 1; i < net->k; i++)
        if (!totex_factor_same(net->f[0], net->f[i]))
            return 0;
    return 1;
}
