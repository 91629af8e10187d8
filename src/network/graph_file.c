/*
 * A user's factor graph read from a file through igraph: GraphML (.graphml,
 * .xml), GML (.gml) or a whitespace-separated edge list of 0-based node ids
 * (anything else). The graph is made undirected and simple (loops and
 * multi-edges dropped), must be connected, and has at most
 * TOTEX_GRAPH_MAX_NODES nodes because its all-pairs distances are kept.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <igraph.h>

#include "common/error.h"
#include "common/file.h"
#include "network/factor_impl.h"

/* A file graph has at most 4096 nodes; no sensible description of one needs more than this. */
#define TOTEX_GRAPH_MAX_FILE_BYTES (UINT64_C(64) << 20)

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    if (a < b)
        return 0;
    for (size_t i = 0; i < b; i++)
        if (tolower((unsigned char)s[a - b + i]) != suffix[i])
            return 0;
    return 1;
}

/* Edge lists: igraph creates max-id+1 vertices, so refuse huge ids before it allocates. */
static int edgelist_ids_ok(FILE *fp, uint64_t *bad)
{
    int c;
    uint64_t v = 0;
    int in_num = 0;
    while ((c = fgetc(fp)) != EOF) {
        if (isdigit(c)) {
            if (v < UINT64_C(1) << 40)
                v = v * 10 + (uint64_t)(c - '0');
            in_num = 1;
        } else {
            if (in_num && v >= TOTEX_GRAPH_MAX_NODES) {
                *bad = v;
                return 0;
            }
            v = 0;
            in_num = 0;
        }
    }
    if (in_num && v >= TOTEX_GRAPH_MAX_NODES) {
        *bad = v;
        return 0;
    }
    rewind(fp);
    return 1;
}

totex_factor *totex_factor_new_file(const char *path, totex_error *err)
{
    FILE *fp = NULL;
    totex_open_result opened = totex_open_regular(path, TOTEX_GRAPH_MAX_FILE_BYTES, &fp, NULL);
    igraph_t g;
    igraph_vector_int_t edges;
    igraph_error_handler_t *old_handler;
    igraph_warning_handler_t *old_warning;
    igraph_error_t rc;
    totex_factor *f = NULL;
    const char *format;
    char name[300];

    if (opened == TOTEX_OPEN_ERRNO) {
        int e = errno; /* the reason (no such file, a symlink loop, permission) */
        totex_fail(err, TOTEX_EIO, "cannot open graph file '%.200s': %s: check the path after file: (GraphML, GML or edge list)",
                   path, strerror(e));
        return NULL;
    }
    if (opened != TOTEX_OPEN_OK) {
        totex_fail(err, TOTEX_EIO,
                   opened == TOTEX_OPEN_TOO_LARGE
                       ? "graph file '%.200s' is larger than 64 MiB: a file graph has at most 4096 nodes, use a smaller file"
                       : "'%.200s' is not a regular file: file: needs a GraphML, GML or edge-list file",
                   path);
        return NULL;
    }
    old_handler = igraph_set_error_handler(igraph_error_handler_ignore);
    old_warning = igraph_set_warning_handler(igraph_warning_handler_ignore);
    if (ends_with(path, ".graphml") || ends_with(path, ".xml")) {
        format = "GraphML";
        rc = igraph_read_graph_graphml(&g, fp, 0);
    } else if (ends_with(path, ".gml")) {
        format = "GML";
        rc = igraph_read_graph_gml(&g, fp);
    } else {
        uint64_t bad = 0;
        format = "edge list";
        if (!edgelist_ids_ok(fp, &bad)) {
            fclose(fp);
            igraph_set_error_handler(old_handler);
            igraph_set_warning_handler(old_warning);
            totex_fail(err, TOTEX_EINVAL,
                       "graph file '%.200s' (edge list) names node %llu: node ids must be 0..%u (a file graph has at most %u nodes)",
                       path, (unsigned long long)bad, TOTEX_GRAPH_MAX_NODES - 1, TOTEX_GRAPH_MAX_NODES);
            return NULL;
        }
        rc = igraph_read_graph_edgelist(&g, fp, 0, 0);
    }
    fclose(fp);
    if (rc != IGRAPH_SUCCESS) {
        igraph_set_error_handler(old_handler);
        igraph_set_warning_handler(old_warning);
        totex_fail(err, TOTEX_EIO, "cannot read graph file '%.200s' as %s: %s (use .graphml, .gml, or an edge list of 0-based ids)",
                   path, format, igraph_strerror(rc));
        return NULL;
    }
    igraph_integer_t m = igraph_vcount(&g);
    if (m < 2 || m > (igraph_integer_t)TOTEX_GRAPH_MAX_NODES) {
        igraph_destroy(&g);
        igraph_set_error_handler(old_handler);
        igraph_set_warning_handler(old_warning);
        totex_fail(err, TOTEX_EINVAL, "graph file '%.200s' has %lld node(s): a file graph must have 2..%u nodes", path,
                   (long long)m, TOTEX_GRAPH_MAX_NODES);
        return NULL;
    }
    if (igraph_is_directed(&g))
        rc = igraph_to_undirected(&g, IGRAPH_TO_UNDIRECTED_COLLAPSE, NULL);
    if (rc == IGRAPH_SUCCESS)
        rc = igraph_simplify(&g, 1, 1, NULL);
    if (rc == IGRAPH_SUCCESS)
        rc = igraph_vector_int_init(&edges, 0);
    if (rc == IGRAPH_SUCCESS) {
        rc = igraph_get_edgelist(&g, &edges, 0);
        if (rc == IGRAPH_SUCCESS) {
            igraph_integer_t ne = igraph_vector_int_size(&edges) / 2;
            uint32_t *e = malloc(sizeof *e * (size_t)(2 * ne + 1));
            if (e) {
                for (igraph_integer_t i = 0; i < 2 * ne; i++)
                    e[i] = (uint32_t)VECTOR(edges)[i];
                snprintf(name, sizeof name, "file:%s", path);
                f = totex_factor_new_edges(name, (uint32_t)m, e, (uint64_t)ne, err);
                free(e);
            } else {
                totex_fail(err, TOTEX_ENOMEM, "out of memory reading graph file '%.200s'", path);
            }
        }
        igraph_vector_int_destroy(&edges);
    }
    if (rc != IGRAPH_SUCCESS)
        totex_fail(err, TOTEX_EIO, "cannot process graph file '%.200s': %s", path, igraph_strerror(rc));
    igraph_destroy(&g);
    igraph_set_error_handler(old_handler);
    igraph_set_warning_handler(old_warning);
    return f;
}
