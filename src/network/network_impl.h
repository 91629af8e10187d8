/* Private to src/network/: the layout of a product network. */
#ifndef TOTEX_NETWORK_IMPL_H
#define TOTEX_NETWORK_IMPL_H

#include "network/factor_impl.h"

struct totex_network {
    char *spec;
    uint32_t k;
    uint32_t n;
    totex_factor *f[TOTEX_MAX_DIMS];
    uint32_t m[TOTEX_MAX_DIMS];
    uint32_t stride[TOTEX_MAX_DIMS];
};

#endif
