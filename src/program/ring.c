/* The ring of totex_alltoall's cross-rank check (agree.c): every rank sends
 * its header to its successor on a cycle through all ranks and compares the
 * one from its predecessor; all headers are equal when every neighbour pair on
 * the cycle agrees. Any cycle will do for correctness. On a network of links
 * (a torus, a mesh) a cycle along links (a Hamiltonian cycle) lets the header
 * ride on a message the schedule sends on that link anyway (compile.c: a
 * staggered plan's first kick), so that the check adds no flow of its own:
 * measured on SimGrid SMPI's torus, the separate 24-byte header
 * flows to rank + 1 (two or more hops away where a row wraps) set staggered
 * lanes in step and cost 2-3% of a 64 KiB call.
 *
 * Construction (no search): if every factor's nodes 0, 1, ..., m - 1 form a
 * path in the factor (path, ring, complete graph, K2; a file graph when its
 * labels do), the product is an a x B grid: a = the size of an even factor
 * (rows), B = the other factors in reflected mixed-radix Gray order (columns,
 * consecutive ones adjacent). The cycle runs along row 0 from column 0 to
 * B - 1, snakes through rows 1 .. a - 1 over columns B - 1 .. 1 (a even: it
 * ends in row a - 1 at column 1), steps to column 0 and climbs column 0 back
 * to row 0. One factor of at least three nodes closing into a cycle (ring,
 * complete graph) is its own cycle. Otherwise (all sides odd, a single path,
 * a factor whose labels are no path) the ring is rank - 1, rank + 1. */
#include <stdlib.h>

#include "ring.h"

/* factor f's nodes 0 .. m - 1 in label order form a path */
static int labels_form_path(const totex_factor *f)
{
    const uint32_t m = totex_factor_nodes(f);
    for (uint32_t i = 0; i + 1 < m; i++)
        if (!totex_factor_adjacent(f, i, i + 1))
            return 0;
    return 1;
}

/* node of column j (0 <= j < B) in row 0: the j-th element of the reflected
   Gray order over every factor but @p row, the most significant one first */
static uint32_t column_node(const totex_network *net, uint32_t row, uint64_t j, uint64_t cols)
{
    uint32_t node = 0;
    for (uint32_t i = totex_network_dims(net); i-- > 0;) {
        if (i == row)
            continue;
        const uint32_t m = totex_factor_nodes(totex_network_factor(net, i));
        cols /= m;
        uint64_t d = j / cols, rest = j % cols;
        if (d & 1) /* odd digit: the lower digits run backwards */
            rest = cols - 1 - rest;
        node += (uint32_t)d * totex_network_stride(net, i);
        j = rest;
    }
    return node;
}

/* the inverse of column_node(): the place in the Gray order of the column of @p node (its coordinates in
   every factor but @p row), O(factors): from the least significant digit out, a digit d of a factor with
   `inner` columns below it puts the column at d * inner, the lower places reflected when d is odd */
static uint64_t column_place(const totex_network *net, uint32_t row, uint32_t node)
{
    uint64_t place = 0, inner = 1;
    for (uint32_t i = 0; i < totex_network_dims(net); i++) {
        if (i == row)
            continue;
        const uint64_t d = totex_network_coord(net, node, i);
        place = d * inner + ((d & 1) ? inner - 1 - place : place);
        inner *= totex_factor_nodes(totex_network_factor(net, i));
    }
    return place;
}

int totex_prog_check_ring(const totex_network *net, uint32_t me, uint32_t *pred, uint32_t *succ)
{
    const uint32_t n = net ? totex_network_nodes(net) : 0;
    *pred = n ? (me + n - 1) % n : 0;
    *succ = n ? (me + 1) % n : 0;
    if (n < 3)
        return n == 2; /* two ranks: each is the other's neighbour (if linked at all) */
    const uint32_t dims = totex_network_dims(net);
    uint32_t row = UINT32_MAX, big = 0;
    for (uint32_t i = 0; i < dims; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        const uint32_t m = totex_factor_nodes(f);
        if (!labels_form_path(f))
            return 0;
        if (m > 1)
            big++;
        if (m % 2 == 0 && m > 1 && row == UINT32_MAX)
            row = i;
    }
    if (big == 1) { /* one factor: a cycle if its last node links back to its first */
        for (uint32_t i = 0; i < dims; i++) {
            const totex_factor *f = totex_network_factor(net, i);
            if (totex_factor_nodes(f) > 1)
                return totex_factor_adjacent(f, totex_factor_nodes(f) - 1, 0);
        }
        return 0;
    }
    if (row == UINT32_MAX)
        return 0;
    const uint32_t a = totex_factor_nodes(totex_network_factor(net, row)), stride = totex_network_stride(net, row);
    const uint64_t cols = (uint64_t)n / a;
    /* position of me on the cycle: row r = my coordinate in the row factor, column j = my place in the Gray
       order (column_place(), checked against the order itself); then the cycle's neighbours */
    const uint32_t r = totex_network_coord(net, me, row), col_node = me - r * stride;
    const uint64_t j = column_place(net, row, col_node);
    if (j >= cols || column_node(net, row, j, cols) != col_node)
        return 0; /* (cannot happen: column_place() inverts column_node()) */
    /* the cycle as a sequence of (row, column): (0,0) .. (0,B-1), (1,B-1) .. (1,1), (2,1) .. (2,B-1), ...,
       (a-1,B-1) .. (a-1,1), (a-1,0), (a-2,0), ..., (1,0), back to (0,0) */
#define AT(rr, jj) ((uint32_t)(rr) * stride + column_node(net, row, (jj), cols))
    uint32_t rp, jp, rs, js; /* predecessor and successor cells */
    if (r == 0) {
        rp = j == 0 ? 1 : 0, jp = j == 0 ? 0 : j - 1;
        rs = j + 1 < cols ? 0 : 1, js = j + 1 < cols ? (uint32_t)j + 1 : (uint32_t)cols - 1;
    } else if (j == 0) { /* climbing column 0 */
        rp = r + 1 < a ? r + 1 : a - 1, jp = r + 1 < a ? 0 : 1;
        rs = r - 1, js = 0;
    } else if (r % 2 == 1) { /* odd rows run from column B - 1 down to 1 */
        if (j + 1 < cols)
            rp = r, jp = (uint32_t)j + 1;
        else
            rp = r - 1, jp = (uint32_t)cols - 1; /* row 0 and the even rows end in column B - 1 */
        if (j > 1)
            rs = r, js = (uint32_t)j - 1;
        else
            rs = r + 1 < a ? r + 1 : r, js = r + 1 < a ? 1 : 0;
    } else { /* even rows (not 0) run from column 1 up to B - 1 */
        if (j > 1)
            rp = r, jp = (uint32_t)j - 1;
        else
            rp = r - 1, jp = 1;
        if (j + 1 < cols)
            rs = r, js = (uint32_t)j + 1;
        else
            rs = r + 1, js = (uint32_t)cols - 1;
    }
    *pred = AT(rp, jp);
    *succ = AT(rs, js);
#undef AT
    return 1;
}
