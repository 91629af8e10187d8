/* Private to src/network/: the layout of a factor graph. */
#ifndef TOTEX_FACTOR_IMPL_H
#define TOTEX_FACTOR_IMPL_H

#include "totex/network.h"

struct totex_factor {
    totex_factor_kind kind;
    uint32_t m;
    char *name;
    /* TOTEX_FACTOR_GRAPH only: CSR adjacency, all-pairs distances, statuses */
    uint32_t *adj_off; /* m + 1 */
    uint32_t *adj;     /* 2|E| */
    uint16_t *dist;    /* m * m */
    uint64_t *status;  /* m */
    uint64_t links;
    uint32_t max_degree;
    uint32_t diameter;
};

/** New path / ring / complete / K2 factor with m nodes; NULL on ENOMEM. */
totex_factor *totex_factor_new_basic(totex_factor_kind kind, uint32_t m, totex_error *err);
/** New factor from a graph file (GraphML, GML, edge list) through igraph. */
totex_factor *totex_factor_new_file(const char *path, totex_error *err);
/** New factor from an undirected simple edge list over nodes 0..m-1 (takes copies). */
totex_factor *totex_factor_new_edges(const char *name, uint32_t m, const uint32_t *edges,
                                     uint64_t nedges, totex_error *err);
void totex_factor_free(totex_factor *f);
/** 1 when a and b are the same graph (same kind, size and, for graphs, adjacency). */
int totex_factor_same(const totex_factor *a, const totex_factor *b);

#endif
